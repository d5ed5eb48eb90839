/* SPDX-License-Identifier: MIT */
/* aclrtMemsetD32(Async): fill N 32-bit words with a value. */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

/* memSize is the capacity in bytes; N words must fit in it. */
static aclError d32_args(const char *func, void *ptr, size_t memSize,
			 size_t N, size_t *bytes)
{
	if (!ptr)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "ptr must not be NULL");
	if (N > SIZE_MAX / 4 || N * 4 > memSize)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%zu words do not fit in memSize %zu bytes",
				   N, memSize);
	if ((uintptr_t)ptr % 4)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "ptr %p is not 4-byte aligned", ptr);
	*bytes = N * 4;
	return ACL_SUCCESS;
}

aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
	PROF_API();
	PROF_TAG("MemsetD32", __func__, PROF_TASK_MEMCPY);
	struct rt_context *ctx;
	size_t bytes;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (!N)
		return ACL_SUCCESS;
	e = d32_args(__func__, ptr, memSize, N, &bytes);
	if (e)
		return e;
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "setting memory");
	ret = graph_unsafe_allowed();
	if (!ret)
		ret = fill_wide_async(ctx->default_stream, ptr, value, 4, bytes);
	if (!ret)
		ret = stream_sync(ctx->default_stream, -1);
	return ret ? rt_error(ret, "setting memory") : ACL_SUCCESS;
}

aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value,
			     size_t N, aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemsetD32Async", __func__, PROF_TASK_MEMCPY);
	struct rt_stream *s;
	size_t bytes;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (!N)
		return ACL_SUCCESS;
	e = d32_args(__func__, ptr, memSize, N, &bytes);
	if (!e)
		e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = fill_wide_async(s, ptr, value, 4, bytes);
	return ret ? rt_error(ret, "setting memory") : ACL_SUCCESS;
}
