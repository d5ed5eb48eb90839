/* SPDX-License-Identifier: MIT */
/*
 * Copies through addresses kept in device memory: memcpy descriptors
 * (aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc)
 * and base pointers with offsets (aclrtMemcpyAsyncWithOffset). As in
 * CANN only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE is accepted. The addresses
 * are read when the async call is made, after the stream's earlier work
 * (core/copy_indirect.c); such calls cannot be captured into a graph.
 */
#include <errno.h>
#include <string.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

#define DESC_MAGIC 0x4443504du	/* "MPCD" */

/* The descriptor as it lies in device memory. */
struct memcpy_desc {
	uint32_t magic;
	uint32_t kind;
	uint64_t src, dst, count;
	uint64_t rsv[4];
};

static aclError kind_arg(const char *func, aclrtMemcpyKind kind)
{
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "kind %d: only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE is supported",
				   (int)kind);
	return ACL_SUCCESS;
}

/* [p, p + len) is aclrtMalloc memory of dev. */
static bool dev_range(struct rt_device *dev, const void *p, uint64_t len)
{
	uint64_t a = (uintptr_t)p;

	return len && a + len > a && ptr_device(dev, p) == dev &&
	       ptr_device(dev, (void *)(uintptr_t)(a + len - 1)) == dev;
}

static aclError indirect_error(const char *func, int ret)
{
	if (ret == -EOPNOTSUPP)
		return acl_fail_at(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				   "copies through device-resident addresses cannot be captured into a graph");
	return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "copying");
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(descSize);
	e = kind_arg(__func__, kind);
	if (e)
		return e;
	*descSize = sizeof(struct memcpy_desc);
	return ACL_SUCCESS;
}

aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr,
			    void *dstAddr, size_t count, void *config)
{
	PROF_API();
	struct memcpy_desc d = { .magic = DESC_MAGIC };
	struct rt_context *ctx;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(desc);
	RT_REQUIRE_ARG(srcAddr);
	RT_REQUIRE_ARG(dstAddr);
	if (config)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "config must be NULL");
	e = kind_arg(__func__, kind);
	if (e)
		return e;
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "setting a memcpy descriptor");
	if (!dev_range(ctx->dev, desc, sizeof(d)))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"desc %p must be %zu bytes of device memory", desc, sizeof(d));
	d.kind = (uint32_t)kind;
	d.src = (uintptr_t)srcAddr;
	d.dst = (uintptr_t)dstAddr;
	d.count = count;
	ret = copy_sync(ctx, desc, &d, sizeof(d));
	return ret ? rt_error(ret, "writing the memcpy descriptor") : ACL_SUCCESS;
}

/* Queue a device-to-device copy of count bytes on s, both ends checked. */
static aclError queue_copy(const char *func, struct rt_stream *s, uint64_t dst,
			   uint64_t src, uint64_t count)
{
	struct rt_device *dev = s->ctx->dev;
	int ret;

	if (!count)
		return ACL_SUCCESS;
	if (!dev_range(dev, (void *)(uintptr_t)dst, count) ||
	    !dev_range(dev, (void *)(uintptr_t)src, count))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "0x%llx and 0x%llx must both be %llu bytes of the stream's device memory",
				   (unsigned long long)dst, (unsigned long long)src,
				   (unsigned long long)count);
	ret = copy_async(s, (void *)(uintptr_t)dst, (void *)(uintptr_t)src, count);
	return ret ? rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "copying") :
		     ACL_SUCCESS;
}

aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemcpyAsyncWithDesc", __func__, PROF_TASK_MEMCPY);
	struct memcpy_desc d;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(desc);
	e = kind_arg(__func__, kind);
	if (!e)
		e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	if (!dev_range(s->ctx->dev, desc, sizeof(d)))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"desc %p must be %zu bytes of device memory", desc, sizeof(d));
	ret = copy_read_indirect(s, &d, desc, sizeof(d));
	if (ret)
		return indirect_error(__func__, ret);
	if (d.magic != DESC_MAGIC || d.kind != (uint32_t)kind)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"desc %p was not set by aclrtSetMemcpyDesc for this kind", desc);
	return queue_copy(__func__, s, d.dst, d.src, d.count);
}

aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
				    const void **src, size_t count, size_t srcDataOffset,
				    aclrtMemcpyKind kind, aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemcpyAsyncWithOffset", __func__, PROF_TASK_MEMCPY);
	uint64_t base[2], d, sa;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(dst);
	RT_REQUIRE_ARG(src);
	if (count > destMax)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"count %zu is larger than destMax %zu", count, destMax);
	e = kind_arg(__func__, kind);
	if (!e)
		e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	if (!dev_range(s->ctx->dev, dst, 8) || !dev_range(s->ctx->dev, src, 8))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dst and src must point to device memory holding the base addresses");
	ret = copy_read_indirect(s, &base[0], dst, 8);
	if (!ret)
		ret = copy_read_indirect(s, &base[1], src, 8);
	if (ret)
		return indirect_error(__func__, ret);
	if (__builtin_add_overflow(base[0], dstDataOffset, &d) ||
	    __builtin_add_overflow(base[1], srcDataOffset, &sa))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"a base address plus its offset overflows");
	return queue_copy(__func__, s, d, sa, count);
}
