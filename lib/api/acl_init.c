/* SPDX-License-Identifier: MIT */
/* aclInit, aclFinalize, aclFinalizeReference. */
#include <errno.h>

#include "acl/acl.h"
#include "../core/config_file.h"
#include "../core/error.h"
#include "../core/log.h"
#include "../core/rt_objects.h"
#include "../core/runtime.h"

aclError aclInit(const char *configPath)
{
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

	ret = runtime_init(why, sizeof(why));
	if (ret == 1)
		return acl_fail(ACL_ERROR_REPEAT_INITIALIZE,
				"ACL is already initialized; this call only counts a reference");
	if (ret < 0)
		return acl_fail(ACL_ERROR_DRV_FAILURE, "%s", why);
	/* Only the first aclInit's configuration takes effect, as in ACL. */
	if (log_level >= 0)
		log_set_level(log_level);
	return ACL_SUCCESS;
}

aclError aclFinalize(void)
{
	/* Devices go first: their nodes come from the runtime's scan. */
	if (runtime_initialized())
		device_reset_all();
	if (runtime_finalize(true) < 0)
		return acl_fail(ACL_ERROR_REPEAT_FINALIZE,
				"ACL is not initialized (aclInit was not called or aclFinalize already was)");
	return ACL_SUCCESS;
}

aclError aclFinalizeReference(uint64_t *refCount)
{
	int64_t left = runtime_finalize(false);

	if (left == 0)
		device_reset_all();

	if (left < 0)
		return acl_fail(ACL_ERROR_REPEAT_FINALIZE,
				"ACL is not initialized (aclInit was not called or every reference is finalized)");
	if (refCount)
		*refCount = (uint64_t)left;
	return ACL_SUCCESS;
}
