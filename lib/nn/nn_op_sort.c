/* SPDX-License-Identifier: MIT */
/*
 * Sorting (the sort family): Topk and Sort.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_sort.h"
#include "../core/prof_rt.h"

/* ---------------------------------------------------- sorting, top-k -- */

static aclnnStatus sort_like(const char *func, uint32_t op, const aclTensor *self,
			     int64_t k, int64_t dim, bool largest, bool sorted,
			     const aclTensor *values, const aclTensor *indices,
			     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r, d, shape[NN_MAX_RANK];
	struct nn_ref in, o[2];
	aclOpExecutor *ex;
	struct nn_task *t;
	int ret;

	CHECK_T(self);
	CHECK_T(values);
	CHECK_T(indices);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (self->dtype == ACL_BOOL || values->dtype != self->dtype ||
	    indices->dtype != ACL_INT64)
		return BAD("values must have self's dtype, indices INT64");
	if (op == DRM_VNPU_OP_TOPK && (k < 0 || k > self->dims[d]))
		return BAD("k %lld is out of range", (long long)k);
	memcpy(shape, self->dims, r * sizeof(int64_t));
	if (op == DRM_VNPU_OP_TOPK)
		shape[d] = k;
	if (!nn_dims_are(values, r, shape) || !nn_dims_are(indices, r, shape))
		return BAD("values and indices must have the result's shape");
	at.ints[0] = d;
	if (op == DRM_VNPU_OP_TOPK) {
		at.ints[2] = largest;
		at.ints[3] = sorted;
	} else {
		at.ints[1] = largest;	/* descending */
	}
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o[0] = nn_bind_tensor(ex, values, true);
	o[1] = nn_bind_tensor(ex, indices, true);
	ret = nn_task(ex, op, &in, 1, &o[0], &at);
	if (!ret) {		/* the second output */
		t = &ex->tasks[ex->ntasks - 1];
		t->t[2] = o[1];
		t->nout = 2;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k,
				      int64_t dim, bool largest, bool sorted,
				      aclTensor *valuesOut, aclTensor *indicesOut,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return sort_like(__func__, DRM_VNPU_OP_TOPK, self, k, dim, largest,
			 sorted, valuesOut, indicesOut, workspaceSize, executor);
}
LAUNCH(aclnnTopk)

/* Always stable. */
aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable,
				      int64_t dim, bool descending,
				      aclTensor *valuesOut, aclTensor *indicesOut,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	(void)stable;
	return sort_like(__func__, DRM_VNPU_OP_SORT, self, 0, dim, descending,
			 true, valuesOut, indicesOut, workspaceSize, executor);
}
LAUNCH(aclnnSort)
