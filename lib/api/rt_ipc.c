/* SPDX-License-Identifier: MIT */
/* IPC memory and exception callbacks of acl_rt.h. */
#include <errno.h>
#include <string.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

static aclError ipc_error(const char *func, int ret, const char *what)
{
	if (ret == -EINVAL || ret == -ENOENT)
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "%s: the key or range is not valid (not exported, closed, or the exporter is gone)",
				   what);
	return rt_error_at(func, ret, 0, what);
}

aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key,
				 size_t len, uint64_t flags)
{
	PROF_API();
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(devPtr);
	RT_REQUIRE_ARG(key);
	(void)flags;
	if (!size || !len)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "size and len must not be 0");
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "exporting memory");
	ret = ipc_export(ctx->dev, devPtr, size, key, len);
	if (ret == -ENOENT || ret == -EINVAL)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p (+%zu bytes) is not inside one aclrtMalloc allocation of this device",
				devPtr, size);
	if (ret == -ENOSPC)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "key buffer of %zu bytes is too small (65 needed)", len);
	return ret ? rt_error(ret, "exporting memory") : ACL_SUCCESS;
}

aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
	PROF_API();
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(devPtr);
	RT_REQUIRE_ARG(key);
	(void)flags;
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "importing memory");
	ret = ipc_import(ctx->dev, key, devPtr);
	return ret ? ipc_error(__func__, ret, "importing memory") : ACL_SUCCESS;
}

aclError aclrtIpcMemClose(const char *key)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(key);
	ret = ipc_close(key);
	return ret ? ipc_error(__func__, ret, "closing shared memory") : ACL_SUCCESS;
}

aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(key);
	RT_REQUIRE_ARG(pid);
	if (!num)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "num must not be 0");
	ret = ipc_set_pid(key);
	return ret ? ipc_error(__func__, ret, "setting import pids") : ACL_SUCCESS;
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
	PROF_API();
	RT_REQUIRE_INIT();
	exception_cb_set(callback);
	return ACL_SUCCESS;
}

#define GETTER(name, field)						\
	uint32_t name(const aclrtExceptionInfo *info)			\
	{								\
		PROF_API();						\
		return info ? info->field : 0xFFFFFFFFu;		\
	}
GETTER(aclrtGetTaskIdFromExceptionInfo, task_id)
GETTER(aclrtGetStreamIdFromExceptionInfo, stream_id)
GETTER(aclrtGetThreadIdFromExceptionInfo, thread_id)
GETTER(aclrtGetDeviceIdFromExceptionInfo, device_id)
GETTER(aclrtGetErrorCodeFromExceptionInfo, error_code)
