/* SPDX-License-Identifier: MIT */
/*
 * Row gathers and row copies as ggml's GET_ROWS / SET_ROWS call them:
 * GatherV2 (INDEX_SELECT, the index flattened), IndexCopy and its
 * in-place form (SCATTER with the index broadcast over the other dims;
 * in place from a workspace copy of self, as SCATTER rewrites all of out),
 * and ReflectionPad1d (PAD of the last dim).
 *
 * Indices live on the device, so phase 1 cannot see them: an index
 * outside [-n, n) reads zeros (GatherV2) or is skipped (IndexCopy), and a
 * negative one counts from the end. CANN asks for indices in [0, n).
 */
#include <string.h>

#include "nn_llm_index.h"
#include "nn_pad.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "../core/prof_rt.h"

/* The index as a 1-D ref: a 0-D index is one element (CANN's rule). */
static struct nn_ref index_1d(aclOpExecutor *ex, const aclTensor *index,
			      int *ret)
{
	struct nn_ref ix = nn_bind_tensor(ex, index, false);

	if (!index->ndim) {
		ix.rank = 1;
		ix.shape[0] = 1;
		ix.strides[0] = 0;
		return ix;
	}
	return index->ndim == 1 ? ix : li_flat(ex, ix, ret);
}

/* ----------------------------------------------------------- gather v2 -- */

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor *self, int64_t dim,
					  const aclTensor *index, aclTensor *out,
					  uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK], flat[NN_MAX_RANK], r, d, q, m, k, n = 0;
	struct nn_ref in, ix, o, w;
	aclOpExecutor *ex;
	int ret = 0;

	CHECK_T_ANY(self);
	CHECK_T(index);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range for rank %lld", (long long)dim,
			   (long long)r);
	if (!li_index_dtype(index->dtype))
		return BAD("index must be INT32 or INT64");
	q = index->ndim ? (int64_t)index->ndim : 1;
	if (r + q - 1 > NN_MAX_RANK)
		return BAD("out would have rank %lld, at most %d",
			   (long long)(r + q - 1), NN_MAX_RANK);
	m = li_numel(index);
	for (k = 0; k < r; k++) {
		flat[k] = k == d ? m : self->dims[k];
		if (k != d) {
			shape[n++] = self->dims[k];
			continue;
		}
		if (!index->ndim)
			shape[n++] = 1;
		else
			for (int64_t j = 0; j < q; j++)
				shape[n++] = index->dims[j];
	}
	if (out->dtype != self->dtype || !nn_dims_are(out, (uint64_t)n, shape))
		return BAD("out must have self's dtype and self's dims with dim %lld replaced by index's",
			   (long long)d);
	if (m && !self->dims[d])
		return BAD("dim %lld of self is empty: no index is in range",
			   (long long)d);
	NEW_EX(ex);
	if (!li_numel(out))
		return nn_finish(func, ex, 0, workspaceSize, executor);
	in = nn_bind_tensor(ex, self, false);
	ix = index_1d(ex, index, &ret);
	o = nn_bind_tensor(ex, out, true);
	if (q == 1) {
		if (!ret)
			ret = nn_task(ex, DRM_VNPU_OP_INDEX_SELECT, (struct nn_ref[]){ in, ix },
				      2, &o, &(struct drm_vnpu_op_attrs){ .ints = { d } });
		return nn_finish(func, ex, ret, workspaceSize, executor);
	}
	/* rows into a dense buffer, then that buffer in out's shape */
	w = nn_ws(ex, self->dtype, (uint32_t)r, flat);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_INDEX_SELECT, (struct nn_ref[]){ in, ix },
			      2, &w, &(struct drm_vnpu_op_attrs){ .ints = { d } });
	w = li_dense(w, (uint32_t)n, shape);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &w, 1, &o, NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnGatherV2)

/* ---------------------------------------------------------- index copy -- */

static aclnnStatus index_copy(const char *func, aclTensor *self, int64_t dim,
			      const aclTensor *index, const aclTensor *source,
			      aclTensor *out, uint64_t *workspaceSize,
			      aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], o, ix;
	int64_t r, d, k, m;
	aclOpExecutor *ex;
	int ret = 0;

	CHECK_T_ANY(self);
	CHECK_T(index);
	CHECK_T_ANY(source);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r ? r : 1);
	if (d < 0 || d >= (r ? r : 1))
		return BAD("dim %lld is out of range for rank %lld", (long long)dim,
			   (long long)r);
	if (!li_index_dtype(index->dtype))
		return BAD("index must be INT32 or INT64");
	if (index->ndim > 1)
		return BAD("index must have at most one dim");
	if (source->dtype != self->dtype || out->dtype != self->dtype)
		return BAD("source and out must have self's dtype");
	if (source->ndim != self->ndim || !nn_same_shape(out, self))
		return BAD("source must have self's rank, out self's shape");
	for (k = 0; k < r; k++)
		if (k != d && source->dims[k] != self->dims[k])
			return BAD("source differs from self in dim %lld",
				   (long long)k);
	m = li_numel(index);
	if (m != (r ? source->dims[d] : 1))
		return BAD("index has %lld elements, source %lld along dim %lld",
			   (long long)m, (long long)(r ? source->dims[d] : 1),
			   (long long)d);
	if (m && r && !self->dims[d])
		return BAD("dim %lld of self is empty: no index is in range",
			   (long long)d);
	NEW_EX(ex);
	/* inputs first; in place, self is bound once, as the output */
	if (out != self)
		in[0] = nn_bind_tensor(ex, self, false);
	ix = index_1d(ex, index, &ret);
	in[2] = nn_bind_tensor(ex, source, false);
	o = nn_bind_tensor(ex, out, true);
	if (out == self)
		in[0] = o;
	if (!li_numel(out))
		return nn_finish(func, ex, ret, workspaceSize, executor);
	if (!li_numel(source)) {	/* nothing to copy in: out is self */
		if (out != self && !ret)
			ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &in[0], 1, &o, NULL);
		return nn_finish(func, ex, ret, workspaceSize, executor);
	}
	if (!r) {		/* a 0-D self is one element along dim 0 */
		for (k = 0; k < 3; k += 2) {
			in[k].rank = 1;
			in[k].shape[0] = 1;
			in[k].strides[0] = 0;
		}
		o.rank = 1;
		o.shape[0] = 1;
		o.strides[0] = 0;
		if (out == self)
			in[0] = o;
		r = 1;
	}
	/*
	 * SCATTER writes all of out from its input x, and the driver lets
	 * no output overlap an input: in place, x is a copy of self.
	 */
	if (out == self) {
		in[0] = nn_ws(ex, o.dtype, o.rank, o.shape);
		if (!ret)
			ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &o, 1, &in[0], NULL);
	}
	/* the index along dim d, the same for every other position */
	in[1] = ix;
	in[1].rank = (uint32_t)r;
	for (k = 0; k < r; k++) {
		in[1].shape[k] = in[2].shape[k];
		in[1].strides[k] = k == d ? ix.strides[0] : 0;
	}
	at.ints[0] = d;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_SCATTER, in, 3, &o, &at);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor *selfRef, int64_t dim,
					   const aclTensor *index,
					   const aclTensor *source,
					   aclTensor *outRef,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	NEED(selfRef);
	NEED(outRef);
	return index_copy(func, selfRef, dim, index, source, outRef,
			  workspaceSize, executor);
}
LAUNCH(aclnnIndexCopy)

aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor *selfRef,
						  int64_t dim,
						  const aclTensor *index,
						  const aclTensor *source,
						  uint64_t *workspaceSize,
						  aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	NEED(selfRef);
	return index_copy(func, selfRef, dim, index, source, selfRef,
			  workspaceSize, executor);
}
LAUNCH(aclnnInplaceIndexCopy)

/* ---------------------------------------------------- reflection pad -- */

aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor *self,
						 const aclIntArray *padding,
						 aclTensor *out,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	const int64_t *p;
	uint64_t n;

	CHECK_T_ANY(self);
	CHECK_T_ANY(out);
	NEED(padding);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(padding, &n);
	if (self->ndim != 2 && self->ndim != 3)
		return BAD("self must be 2-D or 3-D");
	if (n != 2)
		return BAD("padding must have 2 values");
	return nn_pad_task(func, self, p, 1, out, NN_PAD_REFLECT, &at,
			   workspaceSize, executor);
}
LAUNCH(aclnnReflectionPad1d)
