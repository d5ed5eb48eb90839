/* SPDX-License-Identifier: MIT */
/* Contexts of acl_rt.h. */
#include <errno.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(context);
	e = rt_device_id_arg(__func__, deviceId);
	if (e)
		return e;
	ret = context_create_on(deviceId, &ctx);
	if (ret)
		return rt_error(ret, "creating the context");
	*context = ctx;
	return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(context);
	ret = context_destroy(context);
	if (ret == -EPERM)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"a device's default context is released by aclrtResetDevice, not destroyed");
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
				"%p is not a live context", context);
	return ret ? rt_error(ret, "destroying the context") : ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(context);
	if (context_set_current(context))
		return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
				"%p is not a live context (destroyed, or its device was reset)",
				context);
	return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext *context)
{
	PROF_API();
	struct rt_context *ctx;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(context);
	ctx = context_current();
	if (!ctx)
		return acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				"no current context (call aclrtSetDevice or aclrtSetCurrentContext)");
	*context = ctx;
	return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
	PROF_API();
	struct rt_context *ctx;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(stream);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "getting the default stream");
	*stream = ctx->default_stream;
	return ACL_SUCCESS;
}
