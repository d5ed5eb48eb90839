/* SPDX-License-Identifier: MIT */
/* aclrtReduceAsync: dst op= src on the device, in stream order. */
#include <errno.h>

#include "../core/vmm.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

/* The device operator of a reduce kind; 0 for an unknown kind. */
static uint32_t reduce_op(aclrtReduceKind kind)
{
	switch (kind) {
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM: return DRM_VNPU_OP_ADD;
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: return DRM_VNPU_OP_MAXIMUM;
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: return DRM_VNPU_OP_MINIMUM;
	default: return 0;
	}
}

/* Element size of a type the device reduces; 0 otherwise. */
static size_t reduce_esize(aclDataType type)
{
	switch (type) {
	case ACL_FLOAT: case ACL_INT32: return 4;
	case ACL_FLOAT16: case ACL_BF16: return 2;
	case ACL_INT8: return 1;
	default: return 0;
	}
}

/* Both ranges must be this device's aclrtMalloc or mapped reserved memory. */
static bool on_device(struct rt_device *dev, const void *p, uint64_t count)
{
	uint64_t a = (uintptr_t)p;
	struct rt_device *d = NULL;

	if (a + count < a)
		return false;
	if (alloc_owns(dev, a) && alloc_owns(dev, a + count - 1))
		return true;
	return vmm_mapped(a, count, &d) && d == dev;
}

/*
 * count is in bytes (as in CANN) and must hold whole elements. The ranges
 * may be the same (dst = dst op dst) but not partly overlap: the device
 * refuses such an operator. EQUAL, int16 and uint32 exist on some Ascend
 * products; this device has no such operator or dtype.
 */
aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count,
			  aclrtReduceKind kind, aclDataType type,
			  aclrtStream stream, void *reserve)
{
	PROF_API();
	PROF_TAG("ReduceAsync", __func__, PROF_TASK_AI_CORE);
	uint64_t d = (uintptr_t)dst, s_ = (uintptr_t)src;
	struct rt_stream *s;
	size_t esize;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(dst);
	RT_REQUIRE_ARG(src);
	if (reserve)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
	if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"reduce kind EQUAL is not supported by this device");
	if (!reduce_op(kind))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"kind %d is not an aclrtReduceKind", (int)kind);
	esize = reduce_esize(type);
	if (!esize && (type == ACL_INT16 || type == ACL_UINT32))
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"data type %d is not supported by this device's operators",
				(int)type);
	if (!esize)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"data type %d cannot be reduced (float, float16, bf16, int8, int32)",
				(int)type);
	if (count % esize)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"count %llu is not a multiple of the element size %zu",
				(unsigned long long)count, esize);
	if (d != s_ && (d < s_ ? s_ - d : d - s_) < count)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dst %p and src %p overlap without being the same range",
				dst, src);
	e = rt_stream_arg(__func__, stream, &s);
	if (e || !count)
		return e;
	if (!on_device(s->ctx->dev, dst, count) ||
	    !on_device(s->ctx->dev, src, count))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dst and src must be device memory of the stream's device");
	ret = reduce_async(s, dst, src, count / esize, reduce_op(kind),
			   (uint32_t)type);
	return ret ? rt_error(ret, "queueing the reduce") : ACL_SUCCESS;
}
