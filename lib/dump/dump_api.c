// SPDX-License-Identifier: MIT
/*
 * acl_dump.h and the dump calls of acl_rt.h: aclmdlInitDump,
 * aclmdlSetDump, aclmdlFinalizeDump, the dump data callback and
 * acldumpGetPath. The codes follow CANN's acl/toolchain/dump.cpp and
 * adump: before aclInit ACL_ERROR_UNINITIALIZE, a second InitDump
 * ACL_ERROR_REPEAT_INITIALIZE, SetDump or FinalizeDump without InitDump
 * ACL_ERROR_DUMP_NOT_RUN, a file that cannot be read
 * ACL_ERROR_INVALID_FILE, a configuration adump refuses
 * ACL_ERROR_INVALID_DUMP_CONFIG, a bad callback ACL_ERROR_FAILURE.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "../core/entry_check.h"
#include "../core/error.h"
#include "../core/prof_rt.h"
#include "../core/runtime.h"
#include "dump_int.h"

aclError aclmdlInitDump(void)
{
	PROF_API();
	aclError e = ACL_SUCCESS;

	RT_REQUIRE_INIT();
	pthread_mutex_lock(&dump_lock);
	if (dump_st.init)
		e = acl_fail(ACL_ERROR_REPEAT_INITIALIZE,
			     "dump is already initialized (aclmdlFinalizeDump first)");
	else if (dump_st.from_acl)
		e = acl_fail(ACL_ERROR_DUMP_ALREADY_RUN,
			     "aclInit's configuration file already configured dump");
	else
		dump_st.init = true;
	pthread_mutex_unlock(&dump_lock);
	return e;
}

aclError aclmdlSetDump(const char *dumpCfgPath)
{
	PROF_API();
	struct dump_cfg c = { 0 };
	char why[PATH_MAX + 128] = "";
	aclError e;

	RT_REQUIRE_INIT();
	pthread_mutex_lock(&dump_lock);
	e = dump_st.init ? ACL_SUCCESS : ACL_ERROR_DUMP_NOT_RUN;
	pthread_mutex_unlock(&dump_lock);
	if (e)
		return acl_fail(e, "call aclmdlInitDump before aclmdlSetDump");
	RT_REQUIRE_ARG(dumpCfgPath);
	e = (aclError)dump_cfg_load_file(&c, dumpCfgPath, why, sizeof(why));
	if (e) {
		dump_cfg_clear(&c);
		return acl_fail(e, "%s", why);
	}
	pthread_mutex_lock(&dump_lock);
	if (dump_st.init) {
		/* A later configuration replaces the earlier one (CANN). */
		dump_cfg_clear(&dump_st.cfg);
		dump_st.cfg = c;
	} else {
		dump_cfg_clear(&c);
		e = ACL_ERROR_DUMP_NOT_RUN;
	}
	pthread_mutex_unlock(&dump_lock);
	if (e)
		return acl_fail(e, "aclmdlFinalizeDump ran meanwhile");
	return ACL_SUCCESS;
}

aclError aclmdlFinalizeDump(void)
{
	PROF_API();
	aclError e = ACL_SUCCESS;

	RT_REQUIRE_INIT();
	pthread_mutex_lock(&dump_lock);
	if (!dump_st.init) {
		e = ACL_ERROR_DUMP_NOT_RUN;
	} else {
		dump_st.init = false;
		dump_cfg_clear(&dump_st.cfg);
	}
	pthread_mutex_unlock(&dump_lock);
	if (e)
		return acl_fail(e, "call aclmdlInitDump before aclmdlFinalizeDump");
	return ACL_SUCCESS;
}

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t),
			    int32_t flag)
{
	PROF_API();
	if (!messageCallback)
		return acl_fail(ACL_ERROR_FAILURE, "messageCallback must not be NULL");
	if (flag)
		return acl_fail(ACL_ERROR_FAILURE, "flag is reserved and must be 0, not %d",
				flag);
	pthread_mutex_lock(&dump_lock);
	dump_st.cb = messageCallback;
	dump_st.cb_flag = flag;
	pthread_mutex_unlock(&dump_lock);
	return ACL_SUCCESS;
}

void acldumpUnregCallback(void)
{
	PROF_API();
	pthread_mutex_lock(&dump_lock);
	dump_st.cb = NULL;
	dump_st.cb_flag = 0;
	pthread_mutex_unlock(&dump_lock);
}

/* The data dump's path while dumping is on; exception dumps have none. */
const char *acldumpGetPath(acldumpType dumpType)
{
	PROF_API();
	static _Thread_local char path[PATH_MAX];
	const char *p = NULL;

	if (dumpType != DATA_DUMP)
		return NULL;
	pthread_mutex_lock(&dump_lock);
	if (dump_active()) {
		snprintf(path, sizeof(path), "%s", dump_st.cfg.path);
		p = path;
	}
	pthread_mutex_unlock(&dump_lock);
	return p;
}
