/* SPDX-License-Identifier: MIT */
/* aclInit, aclFinalize, aclFinalizeReference. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "../core/config_file.h"
#include "../core/error.h"
#include "../core/hooks.h"
#include "../core/log.h"
#include "../core/rt_objects.h"
#include "../core/runtime.h"
#include "../mdl/model.h"
#include "../op/op.h"
#include "../dvpp/dvpp_lifecycle.h"
#include "../prof/prof_init.h"
#include "../dump/dump.h"
#include "../core/prof_rt.h"

/*
 * Init callbacks get the configuration text (empty without a file); the
 * file was checked already and is at most CONFIG_MAX_BYTES long.
 */
static int run_init_hooks(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (path && *path && (f = fopen(path, "r"))) {
		text = malloc(CONFIG_MAX_BYTES + 1);
		if (text)
			len = fread(text, 1, CONFIG_MAX_BYTES, f);
		fclose(f);
		if (text)
			text[len] = 0;
	}
	ret = hooks_init_call(text ? text : "", len);
	free(text);
	return ret;
}

aclError aclInit(const char *configPath)
{
	PROF_API();
	char why[512] = "";
	int log_level = -1;
	int ret;

	if (configPath && *configPath) {
		ret = config_file_check(configPath, &log_level, why, sizeof(why));
		if (ret == -EBADMSG)
			return acl_fail(ACL_ERROR_PARSE_FILE,
					"configuration file '%s': %s",
					configPath, why);
		if (ret)
			return acl_fail(ACL_ERROR_INVALID_FILE, "%s", why);
	}

	/* The layers with state of their own hook into core first. */
	model_lifecycle_register();
	op_lifecycle_register();
	dvpp_lifecycle_register();
	ret = runtime_init(why, sizeof(why));
	if (ret == 1) {
		/*
		 * Not a failure to report: CANN only counts the reference and
		 * logs it, leaving aclGetRecentErrMsg alone, and clients that
		 * print that message under their next real error rely on it.
		 */
		log_msg(LOG_INFO, __func__,
			"ACL is already initialized; this call only counts a reference");
		return ACL_ERROR_REPEAT_INITIALIZE;
	}
	if (ret < 0)
		return acl_fail(ACL_ERROR_DRV_FAILURE, "%s", why);
	ret = run_init_hooks(configPath);
	if (ret) {
		/* A component refused to start: the runtime does not either. */
		runtime_finalize(true);
		return acl_fail((aclError)ret,
				"an aclInitCallbackRegister callback failed with %d",
				ret);
	}
	/* acl.json's "dump" section: the model and single-op dump. */
	ret = dump_acl_init(configPath, why, sizeof(why));
	if (ret) {
		runtime_finalize(true);
		return acl_fail((aclError)ret, "dump: %s", why);
	}
	/* acl.json's "profiler" section, or msprof's environment. */
	ret = prof_acl_init(configPath, why, sizeof(why));
	if (ret) {
		runtime_finalize(true);
		return acl_fail((aclError)ret, "profiling: %s", why);
	}
	/* Only the first aclInit's configuration takes effect, as in ACL. */
	if (log_level >= 0)
		log_set_level(log_level);
	return ACL_SUCCESS;
}

/* Finalize callbacks run before devices go; every one runs. */
static aclError run_finalize_hooks(void)
{
	int ret = hooks_finalize_call();

	if (ret)
		return acl_fail_at("aclFinalize", (aclError)ret,
				   "an aclFinalizeCallbackRegister callback failed with %d",
				   ret);
	return ACL_SUCCESS;
}

aclError aclFinalize(void)
{
	PROF_API();
	aclError e = ACL_SUCCESS;

	/* Devices go first: their nodes come from the runtime's scan. */
	if (runtime_initialized()) {
		e = run_finalize_hooks();
		runtime_teardown();
		dump_acl_finalize();
	}
	if (runtime_finalize(true) < 0)
		return acl_fail(ACL_ERROR_REPEAT_FINALIZE,
				"ACL is not initialized (aclInit was not called or aclFinalize already was)");
	return e;
}

aclError aclFinalizeReference(uint64_t *refCount)
{
	PROF_API();
	aclError e = ACL_SUCCESS;
	int64_t left = runtime_finalize(false);

	if (left == 0) {
		e = run_finalize_hooks();
		runtime_teardown();
		dump_acl_finalize();
	}

	if (left < 0)
		return acl_fail(ACL_ERROR_REPEAT_FINALIZE,
				"ACL is not initialized (aclInit was not called or every reference is finalized)");
	if (refCount)
		*refCount = (uint64_t)left;
	return e;
}
