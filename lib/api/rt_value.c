/* SPDX-License-Identifier: MIT */
/* aclrtValueWrite / aclrtValueWait: 64-bit device memory semaphores. */
#include <errno.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

static aclError value_task(const char *func, void *devAddr, uint64_t value,
			   uint32_t cond, bool wait, aclrtStream stream)
{
	struct drm_vnpu_task t = { .type = wait ? DRM_VNPU_TASK_WAIT_VALUE :
					      DRM_VNPU_TASK_WRITE_VALUE };
	struct rt_stream *s;
	aclError e;
	int ret;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	if (!devAddr)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "devAddr must not be NULL");
	if ((uintptr_t)devAddr % 8)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "devAddr %p is not 8-byte aligned", devAddr);
	e = rt_stream_arg(func, stream, &s);
	if (e)
		return e;
	t.value.addr = (uintptr_t)devAddr;
	t.value.value = value;
	t.value.cond = cond;
	ret = stream_push(s, &t, NULL);
	/*
	 * Another stream (or the host) may be waiting for this write: send
	 * the batch now instead of at the stream's next sync point.
	 */
	if (!ret && !wait)
		ret = stream_flush(s);
	return ret ? rt_error_at(func, ret, 0, "queueing the task") : ACL_SUCCESS;
}

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag,
			 aclrtStream stream)
{
	PROF_API();
	if (flag)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag is reserved and must be 0, not %u", flag);
	return value_task(__func__, devAddr, value, 0, false, stream);
}

/* ACL's comparisons have the driver's numbering except GEQ and EQ. */
aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag,
			aclrtStream stream)
{
	PROF_API();
	uint32_t cond;

	switch (flag) {
	case ACL_STREAM_WAIT_VALUE_GEQ: cond = DRM_VNPU_WAIT_GEQ; break;
	case ACL_STREAM_WAIT_VALUE_EQ: cond = DRM_VNPU_WAIT_EQ; break;
	case ACL_STREAM_WAIT_VALUE_AND: cond = DRM_VNPU_WAIT_AND; break;
	case ACL_STREAM_WAIT_VALUE_NOR: cond = DRM_VNPU_WAIT_NOR; break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag %u is not an ACL_STREAM_WAIT_VALUE_* comparison",
				flag);
	}
	return value_task(__func__, devAddr, value, cond, true, stream);
}
