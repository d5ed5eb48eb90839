/* SPDX-License-Identifier: MIT */
/* Memory of acl_rt.h: allocation, copies, fills, usage. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "rt_common.h"
#include "../core/prof_rt.h"
#include "acl/acl_prof.h"

/* The current context, or fail the calling entry point. */
#define CURRENT_CTX(ctx)						\
	do {								\
		(ctx) = context_current();				\
		if (!(ctx))						\
			return rt_error(-ESRCH, "memory");		\
	} while (0)

static aclError do_malloc(const char *func, void **devPtr, size_t size,
			  bool pad)
{
	struct rt_context *ctx = context_current();
	int ret;

	if (!devPtr)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "devPtr must not be NULL");
	if (!size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "size must not be 0");
	if (!ctx)
		return rt_error_at(func, -ESRCH, 0, "allocating device memory");
	ret = alloc_device(ctx->dev, size, pad, devPtr);
	if (ret)
		return rt_error_at(func, ret, 0, "allocating device memory");
	if (prof_rt_on(ACL_PROF_TASK_MEMORY)) {
		uint64_t bytes = size, off;
		uint32_t h;

		/* The block's size, as the free will report it. */
		if (alloc_lookup(ctx->dev, *devPtr, &h, &off, &bytes))
			bytes = size;
		prof_rt_mem(ctx->dev->id, *devPtr, (int64_t)bytes);
	}
	return ACL_SUCCESS;
}

/* Every policy is accepted: device memory has one kind of page here. */
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	PROF_API();
	RT_REQUIRE_INIT();
	(void)policy;
	return do_malloc(__func__, devPtr, size, true);
}

aclError aclrtMallocCached(void **devPtr, size_t size,
			   aclrtMemMallocPolicy policy)
{
	PROF_API();
	RT_REQUIRE_INIT();
	(void)policy;
	return do_malloc(__func__, devPtr, size, true);
}

aclError aclrtMallocAlign32(void **devPtr, size_t size,
			    aclrtMemMallocPolicy policy)
{
	PROF_API();
	RT_REQUIRE_INIT();
	(void)policy;
	return do_malloc(__func__, devPtr, size, false);
}

aclError aclrtFree(void *devPtr)
{
	PROF_API();
	struct rt_context *ctx;
	uint64_t size = 0, off;
	uint32_t h;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(devPtr);
	CURRENT_CTX(ctx);
	/* Its size, for the profiler's memory events only. */
	if (prof_rt_on(ACL_PROF_TASK_MEMORY) &&
	    alloc_lookup(ctx->dev, devPtr, &h, &off, &size))
		size = 0;
	if (alloc_free(ctx->dev, devPtr))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p was not returned by aclrtMalloc on this device, or is already freed",
				devPtr);
	prof_rt_mem(ctx->dev->id, devPtr, -(int64_t)size);
	return ACL_SUCCESS;
}

aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	PROF_API();
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(hostPtr);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	CURRENT_CTX(ctx);
	ret = alloc_host(ctx->dev, size, hostPtr);
	return ret ? rt_error(ret, "allocating host memory") : ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr)
{
	PROF_API();
	struct rt_context *ctx;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(hostPtr);
	CURRENT_CTX(ctx);
	if (alloc_free_host(ctx->dev, hostPtr))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p was not returned by aclrtMallocHost on this device, or is already freed",
				hostPtr);
	return ACL_SUCCESS;
}

static aclError copy_args(const char *func, void *dst, size_t destMax,
			  const void *src, size_t count, aclrtMemcpyKind kind)
{
	if (!dst || !src)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s must not be NULL", !dst ? "dst" : "src");
	if ((unsigned)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "kind %d is not a supported aclrtMemcpyKind", (int)kind);
	if (count > destMax)
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "count %zu is larger than destMax %zu", count, destMax);
	return ACL_SUCCESS;
}

/*
 * The direction is inferred from the pointers for every kind (as current
 * ACL documents): aclrtMalloc memory is device memory, aclrtMallocHost
 * memory is device-addressable host memory, anything else is host memory.
 */
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
		     aclrtMemcpyKind kind)
{
	PROF_API();
	PROF_TAG("Memcpy", __func__, PROF_TASK_MEMCPY);
	struct rt_context *ctx;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (!count)
		return ACL_SUCCESS;
	e = copy_args(__func__, dst, destMax, src, count, kind);
	if (e)
		return e;
	CURRENT_CTX(ctx);
	ret = copy_sync(ctx, dst, src, count);
	return ret ? rt_error(ret, "copying") : ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
			  size_t count, aclrtMemcpyKind kind, aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemcpyAsync", __func__, PROF_TASK_MEMCPY);
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (!count)
		return ACL_SUCCESS;
	e = copy_args(__func__, dst, destMax, src, count, kind);
	if (e)
		return e;
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = copy_async(s, dst, src, count);
	return ret ? rt_error(ret, "copying") : ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
	PROF_API();
	PROF_TAG("Memset", __func__, PROF_TASK_MEMCPY);
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	if (!count)
		return ACL_SUCCESS;
	RT_REQUIRE_ARG(devPtr);
	if (count > maxCount)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"count %zu is larger than maxCount %zu", count, maxCount);
	CURRENT_CTX(ctx);
	ret = fill_sync(ctx, devPtr, (uint8_t)value, count);
	return ret ? rt_error(ret, "setting memory") : ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value,
			  size_t count, aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemsetAsync", __func__, PROF_TASK_MEMCPY);
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (!count)
		return ACL_SUCCESS;
	RT_REQUIRE_ARG(devPtr);
	if (count > maxCount)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"count %zu is larger than maxCount %zu", count, maxCount);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = fill_async(s, devPtr, (uint8_t)value, count);
	return ret ? rt_error(ret, "setting memory") : ACL_SUCCESS;
}

/* Every memory attribute reads the device's one memory: the kernel's numbers. */
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
	PROF_API();
	struct rt_context *ctx;
	uint64_t f, t;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(free);
	RT_REQUIRE_ARG(total);
	CURRENT_CTX(ctx);
	if ((unsigned)attr > ACL_MEM_P2P_HUGE1G) {
		*free = *total = 0;
		return ACL_SUCCESS;
	}
	ret = device_mem_info(ctx->dev, &f, &t);
	if (ret)
		return rt_error(ret, "reading memory information");
	*free = f;
	*total = t;
	return ACL_SUCCESS;
}

/*
 * Where ptr lives: aclrtMalloc memory of an open device (DEVICE, its id,
 * 2 MiB pages: device BOs are at least 2 MiB and so mapped that way);
 * aclrtMallocHost or aclrtHostRegister memory, or the device address of
 * the latter (HOST, the device it belongs to, host pages); else
 * UNREGISTERED host memory. Needs no current context.
 */
aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
	PROF_API();
	struct rt_context *ctx;
	struct rt_device *d, *cur;
	uint64_t a = (uintptr_t)ptr;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	RT_REQUIRE_ARG(attributes);
	ctx = context_current();
	cur = ctx ? ctx->dev : NULL;
	memset(attributes, 0, sizeof(*attributes));
	attributes->pageSize = (uint32_t)sysconf(_SC_PAGESIZE);
	attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	if ((d = ptr_device(cur, ptr))) {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		attributes->location.id = (uint32_t)d->id;
		attributes->pageSize = 2u << 20;
	} else if ((d = ptr_host_device(cur, ptr))) {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
		attributes->location.id = (uint32_t)d->id;
	} else if (cur && a >= DRM_VNPU_VA_USER_START &&
		   a < DRM_VNPU_VA_USER_START + DRM_VNPU_VA_RANGE_SIZE) {
		attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
		attributes->location.id = (uint32_t)cur->id;
	}
	return ACL_SUCCESS;
}
