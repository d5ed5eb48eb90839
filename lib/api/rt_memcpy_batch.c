/* SPDX-License-Identifier: MIT */
/*
 * aclrtMemcpyBatch(V2) and aclrtMemcpyBatchAsync(V2): many copies in one
 * call. Every argument and every copy is checked before anything is
 * copied, so a rejected batch changes nothing. *failIndex names the copy
 * a per-copy check rejected, SIZE_MAX when the error concerns no single
 * copy or there is none.
 *
 * attrs[k] describes copies attrsIndexes[k] .. attrsIndexes[k + 1] - 1
 * (the last one up to numBatches - 1): where dst and src must live. A
 * pointer lives on a DEVICE (id: that device) when it is aclrtMalloc
 * memory, else on the HOST (pinned or pageable).
 *
 * The async form queues every copy on the stream: those whose both sides
 * have device addresses become COPY tasks of the stream's pending batch,
 * so a batch of them goes to the driver as one job; pageable host memory
 * makes its copy wait for the stream, as aclrtMemcpyAsync does.
 */
#include <errno.h>
#include <stdint.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

struct batch {
	void **dsts;
	size_t *destMaxs;
	void **srcs;
	size_t *sizes;
	size_t n;
	aclrtMemcpyBatchAttr *attrs;
	size_t *idx;
	size_t nattrs;
};

static bool loc_ok(const aclrtMemLocation *loc, struct rt_device *cur,
		   const void *p)
{
	struct rt_device *d = ptr_device(cur, p);

	if (d)
		return loc->type == ACL_MEM_LOCATION_TYPE_DEVICE &&
		       loc->id == (uint32_t)d->id;
	return loc->type == ACL_MEM_LOCATION_TYPE_HOST;
}

static bool loc_valid(const aclrtMemLocation *loc)
{
	return loc->type == ACL_MEM_LOCATION_TYPE_HOST ||
	       loc->type == ACL_MEM_LOCATION_TYPE_DEVICE;
}

static aclError check_attrs(const char *func, const struct batch *b)
{
	for (size_t k = 0; k < b->nattrs; k++) {
		const aclrtMemcpyBatchAttr *a = &b->attrs[k];

		if (k == 0 && b->idx[0] != 0)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "attrsIndexes[0] is %zu: the first attribute must start at copy 0",
					   b->idx[0]);
		if (k && b->idx[k] <= b->idx[k - 1])
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "attrsIndexes[%zu] (%zu) does not increase", k, b->idx[k]);
		if (b->idx[k] >= b->n)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "attrsIndexes[%zu] (%zu) is past the last copy %zu",
					   k, b->idx[k], b->n - 1);
		if (!loc_valid(&a->dstLoc) || !loc_valid(&a->srcLoc))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "attrs[%zu]: a location type must be HOST or DEVICE", k);
		for (size_t i = 0; i < sizeof(a->rsv); i++)
			if (a->rsv[i])
				return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
						   "attrs[%zu].rsv must be zero", k);
	}
	return ACL_SUCCESS;
}

/* Check every copy against its attribute; *fail is the bad one. */
static aclError check_copies(const char *func, const struct batch *b,
			     struct rt_device *cur, size_t *fail)
{
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++) {
		const aclrtMemcpyBatchAttr *a;

		while (k + 1 < b->nattrs && b->idx[k + 1] <= i)
			k++;
		a = &b->attrs[k];
		*fail = i;
		if (!b->sizes[i])
			continue;
		if (!b->dsts[i] || !b->srcs[i])
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "copy %zu: %s must not be NULL", i,
					   !b->dsts[i] ? "dst" : "src");
		if (b->sizes[i] > b->destMaxs[i])
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "copy %zu: size %zu is larger than destMax %zu",
					   i, b->sizes[i], b->destMaxs[i]);
		if (!loc_ok(&a->dstLoc, cur, b->dsts[i]))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "copy %zu: dst %p is not where attrs[%zu] says",
					   i, b->dsts[i], k);
		if (!loc_ok(&a->srcLoc, cur, b->srcs[i]))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "copy %zu: src %p is not where attrs[%zu] says",
					   i, b->srcs[i], k);
	}
	*fail = SIZE_MAX;
	return ACL_SUCCESS;
}

static aclError check_batch(const char *func, const struct batch *b,
			    struct rt_device *cur, size_t *fail)
{
	aclError e;

	*fail = SIZE_MAX;
	if (!b->dsts || !b->destMaxs || !b->srcs || !b->sizes)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "dsts, destMaxs, srcs and sizes must not be NULL");
	if (!b->n)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "numBatches must not be 0");
	if (!b->attrs || !b->idx || !b->nattrs)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "attrs and attrsIndexes must not be NULL and numAttrs not 0");
	if (b->nattrs > b->n)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "numAttrs %zu is larger than numBatches %zu",
				   b->nattrs, b->n);
	e = check_attrs(func, b);
	return e ? e : check_copies(func, b, cur, fail);
}

static aclError run_batch(const char *func, const struct batch *b,
			  size_t *failIndex, bool async, aclrtStream stream)
{
	struct rt_context *ctx;
	struct rt_stream *s = NULL;
	size_t fail = SIZE_MAX;
	aclError e;
	int ret = 0;

	if (failIndex)
		*failIndex = SIZE_MAX;
	if (async) {
		e = rt_stream_arg(func, stream, &s);
		if (e)
			return e;
		ctx = s->ctx;
	} else {
		ctx = context_current();
		if (!ctx)
			return rt_error_at(func, -ESRCH, 0, "copying a batch");
	}
	e = check_batch(func, b, ctx->dev, &fail);
	if (e) {
		if (failIndex)
			*failIndex = fail;
		return e;
	}
	for (size_t i = 0; i < b->n && !ret; i++) {
		if (!b->sizes[i])
			continue;
		ret = async ? copy_async(s, b->dsts[i], b->srcs[i], b->sizes[i]) :
			      copy_sync(ctx, b->dsts[i], b->srcs[i], b->sizes[i]);
	}
	return ret ? rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				 "copying a batch") : ACL_SUCCESS;
}

aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs,
			  size_t *sizes, size_t numBatches,
			  aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			  size_t numAttrs, size_t *failIndex)
{
	PROF_API();
	PROF_TAG("MemcpyBatch", __func__, PROF_TASK_MEMCPY);
	struct batch b = { dsts, destMaxs, srcs, sizes, numBatches, attrs,
			   attrsIndexes, numAttrs };

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(failIndex);
	return run_batch(__func__, &b, failIndex, false, NULL);
}

aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs,
			    size_t *sizes, size_t numBatches,
			    aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			    size_t numAttrs)
{
	PROF_API();
	PROF_TAG("MemcpyBatchV2", __func__, PROF_TASK_MEMCPY);
	struct batch b = { dsts, destMaxs, srcs, sizes, numBatches, attrs,
			   attrsIndexes, numAttrs };

	RT_REQUIRE_INIT();
	return run_batch(__func__, &b, NULL, false, NULL);
}

aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs,
			       size_t *sizes, size_t numBatches,
			       aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			       size_t numAttrs, size_t *failIndex,
			       aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemcpyBatchAsync", __func__, PROF_TASK_MEMCPY);
	struct batch b = { dsts, destMaxs, srcs, sizes, numBatches, attrs,
			   attrsIndexes, numAttrs };

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(failIndex);
	return run_batch(__func__, &b, failIndex, true, stream);
}

aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs,
				 size_t *sizes, size_t numBatches,
				 aclrtMemcpyBatchAttr *attrs,
				 size_t *attrsIndexes, size_t numAttrs,
				 aclrtStream stream)
{
	PROF_API();
	PROF_TAG("MemcpyBatchAsyncV2", __func__, PROF_TASK_MEMCPY);
	struct batch b = { dsts, destMaxs, srcs, sizes, numBatches, attrs,
			   attrsIndexes, numAttrs };

	RT_REQUIRE_INIT();
	return run_batch(__func__, &b, NULL, true, stream);
}
