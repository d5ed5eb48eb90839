/* SPDX-License-Identifier: MIT */
/* aclrtMemcpy2d(Async), and host memory registration (aclrtHostRegister). */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

static aclError copy2d(const char *func, void *dst, size_t dpitch,
		       const void *src, size_t spitch, size_t width,
		       size_t height, aclrtMemcpyKind kind, aclrtStream stream,
		       bool sync)
{
	struct rt_stream *s;
	aclError e;
	int ret;

	if (!runtime_initialized())
		return acl_fail_at(func, ACL_ERROR_UNINITIALIZE,
				   "call aclInit before using the runtime");
	if (!width || !height)
		return ACL_SUCCESS;
	if (!dst || !src)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "dst and src must not be NULL");
	if (width > spitch || width > dpitch)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "width %zu is larger than a pitch (dpitch %zu, spitch %zu)",
				   width, dpitch, spitch);
	if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
	    kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "kind %d is not supported for 2-D copies", (int)kind);
	/* The synchronous form is an "unsafe" call under capture. */
	ret = sync ? graph_unsafe_allowed() : 0;
	if (ret)
		return rt_error_at(func, ret, 0, "copying");
	e = rt_stream_arg(func, stream, &s);
	if (e)
		return e;
	ret = copy_2d(s, dst, dpitch, src, spitch, width, height);
	if (!ret && sync)
		ret = stream_sync(s, -1);
	return ret ? rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "copying") :
		     ACL_SUCCESS;
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
		       size_t width, size_t height, aclrtMemcpyKind kind)
{
	PROF_API();
	PROF_TAG("Memcpy2d", __func__, PROF_TASK_MEMCPY);
	return copy2d(__func__, dst, dpitch, src, spitch, width, height, kind,
		      NULL, true);
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src,
			    size_t spitch, size_t width, size_t height,
			    aclrtMemcpyKind kind, aclrtStream stream)
{
	PROF_API();
	PROF_TAG("Memcpy2dAsync", __func__, PROF_TASK_MEMCPY);
	return copy2d(__func__, dst, dpitch, src, spitch, width, height, kind,
		      stream, false);
}

aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type,
			   void **devPtr)
{
	PROF_API();
	struct rt_context *ctx;
	uint64_t va;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	RT_REQUIRE_ARG(devPtr);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	(void)type;
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "registering host memory");
	ret = alloc_host_register(ctx->dev, ptr, size, &va);
	if (ret == -EEXIST)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%p is registered already", ptr);
	if (ret)
		return rt_error(ret, "registering host memory");
	*devPtr = (void *)(uintptr_t)va;
	return ACL_SUCCESS;
}

aclError aclrtHostUnregister(void *ptr)
{
	PROF_API();
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "unregistering host memory");
	ret = alloc_host_unregister(ctx->dev, ptr);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%p is not registered host memory", ptr);
	return ret ? rt_error(ret, "unregistering host memory") : ACL_SUCCESS;
}
