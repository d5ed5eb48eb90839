/* SPDX-License-Identifier: MIT */
/*
 * Indexing and reshaping operators on the move family's device ops: Flip
 * (SLICE with negative steps), OneHot, Scatter (with its reduction),
 * ScatterNd, GatherNd, Embedding (GATHER_ND with one-index tuples),
 * Arange, Stack
 * (CONCAT of views with a new dim), Expand (a broadcast strided copy),
 * SplitTensor / SplitWithSize (strided copies of sub-views) and the
 * reflect / replicate 2-D paddings (PAD).
 */
#include <stdlib.h>
#include <string.h>

#include "nn_ops_common.h"
#include "nn_pad.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "../core/prof_rt.h"

static bool index_dtype(aclDataType dt)
{
	return dt == ACL_INT32 || dt == ACL_INT64;
}

static uint64_t numel(const aclTensor *t)
{
	uint64_t n = 1, d;

	for (d = 0; d < t->ndim; d++)
		n *= (uint64_t)t->dims[d];
	return n;
}

/* ---------------------------------------------------------------- flip -- */

aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dims, aclTensor *out,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o;
	const int64_t *p;
	aclOpExecutor *ex;
	uint64_t n, i, seen = 0;
	int64_t r;

	CHECK_T(self);
	CHECK_T(out);
	NEED(dims);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	if (out->dtype != self->dtype || !nn_same_shape(out, self))
		return BAD("out must have self's dtype and shape");
	p = nn_int_array(dims, &n);
	for (i = 0; i < (uint64_t)r; i++)
		at.ints[8 + i] = 1;
	for (i = 0; i < n; i++) {
		int64_t d = nn_wrap_dim(p[i], r);

		if (d < 0 || d >= r || (seen & (1ull << d)))
			return BAD("dims[%llu] = %lld is out of range or repeated",
				   (unsigned long long)i, (long long)p[i]);
		seen |= 1ull << d;
		/* from the last element backwards; an empty dim reads nothing */
		at.ints[d] = self->dims[d] ? self->dims[d] - 1 : 0;
		at.ints[8 + d] = -1;
	}
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_SLICE, &in, 1, &o, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnFlip)

/* ------------------------------------------------------------- one hot -- */

/*
 * CANN's OneHot (its golden is TensorFlow's one_hot) gives a negative
 * class a row of offValue, while the device counts negatives from the
 * end: *ix becomes where(ix < 0, numClasses, ix), out of range either way.
 */
static int one_hot_no_negative(aclOpExecutor *ex, struct nn_ref *ix,
			       int numClasses)
{
	struct drm_vnpu_op_attrs zero = { 0 }, depth = { 0 };
	struct nn_ref c[2], w[3], neg, fixed;
	int ret;

	depth.ints[0] = numClasses;
	c[0] = *ix;
	c[1] = nn_ws(ex, ix->dtype, 0, NULL);
	w[1] = nn_ws(ex, ix->dtype, 0, NULL);
	neg = nn_ws(ex, ACL_BOOL, ix->rank, ix->shape);
	fixed = nn_ws(ex, ix->dtype, ix->rank, ix->shape);
	ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &c[1], &zero);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &w[1], &depth);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_LT, c, 2, &neg, NULL);
	w[0] = neg;
	w[2] = *ix;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_WHERE, w, 3, &fixed, NULL);
	*ix = fixed;
	return ret;
}

aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor *self, int numClasses,
					const aclTensor *onValue,
					const aclTensor *offValue, int64_t axis,
					aclTensor *out, uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK], r, a, k, j = 0;
	struct nn_ref in[3], o, ov;
	aclOpExecutor *ex;
	int ret;

	CHECK_T(self);
	CHECK_T(onValue);
	CHECK_T(offValue);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim + 1;
	if (!index_dtype(self->dtype) && self->dtype != ACL_UINT8)
		return BAD("self must be UINT8, INT32 or INT64");
	if (r > NN_MAX_RANK || numClasses < 0)
		return BAD("numClasses %d or rank %lld is not supported", numClasses,
			   (long long)r);
	a = axis == -1 ? r - 1 : axis;
	if (a < 0 || a >= r)
		return BAD("axis %lld is out of range", (long long)axis);
	if (onValue->dtype != out->dtype || offValue->dtype != out->dtype)
		return BAD("onValue and offValue must have out's dtype");
	if (!numel(onValue) || !numel(offValue))
		return BAD("onValue and offValue must not be empty");
	for (k = 0; k < r; k++)
		shape[k] = k == a ? numClasses : self->dims[j++];
	if (!nn_dims_are(out, (uint64_t)r, shape))
		return BAD("out must be self's shape with numClasses inserted at axis");
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, offValue, false);
	in[2] = nn_bind_tensor(ex, onValue, false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = nn_cast(ex, in[0], self->dtype == ACL_UINT8 ? ACL_INT32 :
			self->dtype);
	ret = one_hot_no_negative(ex, &in[0], numClasses);
	if (ret)
		return nn_finish(func, ex, ret, workspaceSize, executor);
	/* the device writes the classes along the last dim: move axis there */
	ov = o;
	for (k = 0, j = 0; k < r; k++) {
		if (k == a)
			continue;
		ov.shape[j] = o.shape[k];
		ov.strides[j++] = o.strides[k];
	}
	ov.shape[r - 1] = o.shape[a];
	ov.strides[r - 1] = o.strides[a];
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_ONE_HOT, in, 3, &ov, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnOneHot)

/* ------------------------------------------------------------- scatter -- */

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor *self, int64_t dim,
					 const aclTensor *index,
					 const aclTensor *src, int64_t reduce,
					 aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], o;
	aclOpExecutor *ex;
	int64_t r, d;
	uint64_t i;

	CHECK_T(self);
	CHECK_T(index);
	CHECK_T(src);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (!index_dtype(index->dtype))
		return BAD("index must be INT32 or INT64");
	if (reduce < 0 || reduce > 2 || (reduce && self->dtype == ACL_BOOL))
		return BAD("reduce %lld is not 0, 1 or 2 (1 and 2 not for BOOL)",
			   (long long)reduce);
	if (src->dtype != self->dtype || out->dtype != self->dtype ||
	    index->ndim != self->ndim || src->ndim != self->ndim ||
	    !nn_same_shape(out, self))
		return BAD("self, index, src and out must have one rank, out self's shape and dtype");
	for (i = 0; i < (uint64_t)r; i++)
		if (index->dims[i] > src->dims[i] ||
		    ((int64_t)i != d && index->dims[i] > self->dims[i]))
			return BAD("index is larger than src or self in dim %llu",
				   (unsigned long long)i);
	at.ints[0] = d;
	at.ints[1] = reduce;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, index, false);
	in[2] = nn_bind_tensor(ex, src, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_SCATTER, in, 3, &o, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnScatter)

aclnnStatus aclnnScatterNdGetWorkspaceSize(const aclTensor *data,
					   const aclTensor *indices,
					   const aclTensor *updates,
					   aclTensor *out, uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in[3], o;
	aclOpExecutor *ex;
	uint64_t q, k, d;

	CHECK_T(data);
	CHECK_T(indices);
	CHECK_T(updates);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!index_dtype(indices->dtype))
		return BAD("indices must be INT32 or INT64");
	q = indices->ndim;
	k = q ? (uint64_t)indices->dims[q - 1] : 0;
	if (!data->ndim || !q || !k || k > data->ndim)
		return BAD("indices' last dim must be 1 .. data's rank");
	if (updates->dtype != data->dtype || out->dtype != data->dtype ||
	    !nn_same_shape(out, data) || updates->ndim != q - 1 + data->ndim - k)
		return BAD("updates and out must match data (updates of rank %llu)",
			   (unsigned long long)(q - 1 + data->ndim - k));
	for (d = 0; d < updates->ndim; d++)
		if (updates->dims[d] != (d < q - 1 ? indices->dims[d] :
					 data->dims[d - (q - 1) + k]))
			return BAD("updates' dim %llu does not fit",
				   (unsigned long long)d);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, data, false);
	in[1] = nn_bind_tensor(ex, indices, false);
	in[2] = nn_bind_tensor(ex, updates, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_SCATTER_ND, in, 3, &o, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnScatterNd)

/* ----------------------------------------------------------- gather nd -- */

/*
 * Negative indices always count from the end on the device, so
 * negativeIndexSupport only documents the caller's data.
 */
aclnnStatus aclnnGatherNdGetWorkspaceSize(const aclTensor *self,
					  const aclTensor *indices,
					  bool negativeIndexSupport, aclTensor *out,
					  uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	uint64_t q, k, r, d, n = 0;

	CHECK_T(self);
	CHECK_T(indices);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	(void)negativeIndexSupport;
	if (!index_dtype(indices->dtype))
		return BAD("indices must be INT32 or INT64");
	q = indices->ndim;
	r = self->ndim;
	k = q ? (uint64_t)indices->dims[q - 1] : 0;
	if (!r || !q || !k || k > r)
		return BAD("indices' last dim must be 1 .. self's rank");
	for (d = 0; d + 1 < q; d++)
		shape[n++] = indices->dims[d];
	for (d = k; d < r; d++)
		shape[n++] = self->dims[d];
	if (n > NN_MAX_RANK || out->dtype != self->dtype ||
	    !nn_dims_are(out, n, shape))
		return BAD("out must be indices' dims but the last, then self's after %llu",
			   (unsigned long long)k);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, indices, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_GATHER_ND, in, 2, &o, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnGatherNd)

/* ----------------------------------------------------------- embedding -- */

/* weight [V, D], indices [...] -> out [..., D]: GATHER_ND with 1-tuples. */
aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight,
					   const aclTensor *indices,
					   const aclTensor *out,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	uint64_t q;

	CHECK_T(weight);
	CHECK_T(indices);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	q = indices->ndim;
	if (weight->ndim != 2)
		return BAD("weight must be 2-D");
	if (!index_dtype(indices->dtype))
		return BAD("indices must be INT32 or INT64");
	if (q + 1 > NN_MAX_RANK)
		return BAD("indices have rank %llu, at most %d", (unsigned long long)q,
			   NN_MAX_RANK - 1);
	memcpy(shape, indices->dims, q * sizeof(int64_t));
	shape[q] = weight->dims[1];
	if (out->dtype != weight->dtype || !nn_dims_are(out, q + 1, shape))
		return BAD("out must be indices' shape plus weight's row, weight's dtype");
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, weight, false);
	in[1] = nn_bind_tensor(ex, indices, false);
	in[1].shape[q] = 1;	/* each index a tuple of one */
	in[1].strides[q] = 0;
	in[1].rank = (uint32_t)q + 1;
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_GATHER_ND, in, 2, &o, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnEmbedding)

/* -------------------------------------------------------------- arange -- */

/* A rank-0 DOUBLE workspace value v, exact: its bits FILLed as an INT64. */
static struct nn_ref double_value(aclOpExecutor *ex, double v)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref r = nn_ws(ex, ACL_INT64, 0, NULL);

	memcpy(&at.ints[0], &v, sizeof(v));
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &r, &at);
	r.dtype = ACL_DOUBLE;
	return r;
}

/*
 * A DOUBLE out in full precision (ARANGE's float attributes would round
 * start and step): out = start + k * step, k an INT64 ARANGE cast to
 * DOUBLE, in out's shape.
 */
static int arange_double(aclOpExecutor *ex, struct nn_ref o, double s, double st)
{
	struct drm_vnpu_op_attrs at = { 0 }, one = { 0 };
	struct nn_ref k, in[2];

	at.ints[1] = 1;
	nn_set_float(&one, 0, 1.0f);
	k = nn_ws(ex, ACL_INT64, o.rank, o.shape);
	nn_task(ex, DRM_VNPU_OP_ARANGE, NULL, 0, &k, &at);
	in[0] = nn_cast(ex, k, ACL_DOUBLE);
	in[1] = double_value(ex, st);
	k = nn_ws(ex, ACL_DOUBLE, o.rank, o.shape);
	nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &k, &one);
	in[0] = k;
	in[1] = double_value(ex, s);
	/* Failures above mark the executor; nn_finish reports them. */
	return nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &o, &one);
}

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start,
					const aclScalar *end,
					const aclScalar *step, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	double s, e, st, n;
	struct nn_ref o;
	aclOpExecutor *ex;
	bool fl;

	CHECK_S(start);
	CHECK_S(end);
	CHECK_S(step);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	s = start->is_float ? start->v.f : (double)start->v.i;
	e = end->is_float ? end->v.f : (double)end->v.i;
	st = step->is_float ? step->v.f : (double)step->v.i;
	if (!(st != 0) || !(s == s) || !(e == e))
		return BAD("step must be non-zero and the bounds numbers");
	/* CANN's CheckStep: end must lie in step's direction from start */
	if ((st > 0 && s > e) || (st < 0 && s < e))
		return BAD("start %g, end %g: not in the direction of step %g",
			   s, e, st);
	n = (e - s) / st;
	if (n > (double)(1ull << 40))
		return BAD("more than 2^40 values");
	n = n > 0 ? (double)(int64_t)n + ((double)(int64_t)n < n) : 0;
	/* Any rank (ggml passes a 4-D view): n elements in row-major order. */
	if ((double)nn_numel(out) != n)
		return BAD("out must have %.0f elements", n);
	/* CANN's out dtypes; vnpu also keeps INT8 and UINT8 */
	if (out->dtype == ACL_BOOL || out->dtype == ACL_INT16 ||
	    out->dtype == ACL_UINT16 || out->dtype == ACL_UINT32 ||
	    out->dtype == ACL_UINT64)
		return BAD("out's dtype %d is not supported", (int)out->dtype);
	fl = out->dtype == ACL_FLOAT || out->dtype == ACL_FLOAT16 ||
	     out->dtype == ACL_BF16;
	if (out->dtype == ACL_DOUBLE) {
		NEW_EX(ex);
		o = nn_bind_tensor(ex, out, true);
		return nn_finish(func, ex, arange_double(ex, o, s, st),
				 workspaceSize, executor);
	}
	if (fl) {
		nn_set_float(&at, 0, (float)s);
		nn_set_float(&at, 1, (float)st);
	} else {
		if (start->is_float || step->is_float)
			return BAD("integer out needs integer start and step");
		at.ints[0] = start->v.i;
		at.ints[1] = step->v.i;
	}
	NEW_EX(ex);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_ARANGE, NULL, 0, &o, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnArange)

/* --------------------------------------------------------------- stack -- */

aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors,
				       int64_t dim, aclTensor *out,
				       uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t shape[NN_MAX_RANK], d, r;
	const aclTensor *const *l;
	struct nn_ref *in, o;
	aclOpExecutor *ex;
	uint64_t n, i, k, j;
	int ret = 0;

	NEED(tensors);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	l = nn_tensor_list(tensors, &n);
	if (!n)
		return BAD("tensors is empty");
	CHECK_T(l[0]);
	r = (int64_t)l[0]->ndim + 1;
	d = nn_wrap_dim(dim, r);
	if (r > NN_MAX_RANK || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	for (i = 0; i < n; i++) {
		CHECK_T(l[i]);
		if (l[i]->dtype != out->dtype || !nn_same_shape(l[i], l[0]))
			return BAD("tensor %llu differs from the first or out in shape or dtype",
				   (unsigned long long)i);
	}
	for (k = 0, j = 0; k < (uint64_t)r; k++)
		shape[k] = (int64_t)k == d ? (int64_t)n : l[0]->dims[j++];
	if (!nn_dims_are(out, (uint64_t)r, shape))
		return BAD("out must be the tensors' shape with %llu inserted at dim %lld",
			   (unsigned long long)n, (long long)d);
	NEW_EX(ex);
	in = calloc(n, sizeof(*in));
	if (!in) {
		nn_exec_free(ex);
		return acl_fail_at(func, ACLNN_ERR_INNER_CREATE_EXECUTOR, "out of memory");
	}
	for (i = 0; i < n; i++) {
		struct nn_ref t = nn_bind_tensor(ex, l[i], false);

		/* the tensor as a slab of size 1 along the new dim */
		in[i] = t;
		for (k = 0, j = 0; k < (uint64_t)r; k++) {
			in[i].shape[k] = (int64_t)k == d ? 1 : t.shape[j];
			in[i].strides[k] = (int64_t)k == d ? 0 : t.strides[j++];
		}
		in[i].rank = (uint32_t)r;
	}
	o = nn_bind_tensor(ex, out, true);
	at.ints[0] = d;
	/* CONCAT tasks of up to NN_MAX_TT - 1 slabs, each writing its part */
	for (i = 0; i < n && !ret; i += k) {
		struct nn_ref part = o;

		k = n - i < NN_MAX_TT - 1 ? n - i : NN_MAX_TT - 1;
		part.shape[d] = (int64_t)k;
		part.off += (int64_t)i * o.strides[d];
		ret = nn_task(ex, DRM_VNPU_OP_CONCAT, in + i, (uint32_t)k, &part, &at);
	}
	free(in);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnStack)

/* -------------------------------------------------------------- expand -- */

aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor *self,
					const aclIntArray *size, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in, o, v;
	const int64_t *p;
	aclOpExecutor *ex;
	uint64_t n, k, i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(size);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(size, &n);
	k = self->ndim;
	if (n < k || n > NN_MAX_RANK)
		return BAD("size needs %llu to %d entries", (unsigned long long)k,
			   NN_MAX_RANK);
	for (i = 0; i < n; i++) {
		int64_t d = i < n - k ? 1 : self->dims[i - (n - k)];

		if (p[i] == -1 && i >= n - k)
			shape[i] = d;
		else if (p[i] >= 0 && (d == p[i] || d == 1))
			shape[i] = p[i];
		else
			return BAD("size[%llu] = %lld does not expand dim %lld",
				   (unsigned long long)i, (long long)p[i],
				   (long long)d);
	}
	if (out->dtype != self->dtype || !nn_dims_are(out, n, shape))
		return BAD("out must have self's dtype and the expanded shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	/* self with out's rank, stride 0 along the dims it repeats */
	v = in;
	v.rank = (uint32_t)n;
	for (i = 0; i < n; i++) {
		bool own = i >= n - k;
		int64_t d = own ? in.shape[i - (n - k)] : 1;

		v.shape[i] = shape[i];
		v.strides[i] = own && d == shape[i] && d != 1 ?
			       in.strides[i - (n - k)] : 0;
	}
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &v, 1, &o, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnExpand)

/* --------------------------------------------------------------- split -- */

/* One strided copy per part of self along d, sizes from sizes[]. */
static aclnnStatus split_parts(const char *func, const aclTensor *self,
			       const int64_t *sizes, uint64_t n, int64_t d,
			       aclTensorList *out, uint64_t *workspaceSize,
			       aclOpExecutor **executor)
{
	const aclTensor *const *l;
	struct nn_ref in, part, o;
	aclOpExecutor *ex;
	uint64_t m, i, k;
	int64_t at = 0;
	int ret = 0;

	l = nn_tensor_list(out, &m);
	if (m != n)
		return BAD("out has %llu tensors for %llu parts", (unsigned long long)m,
			   (unsigned long long)n);
	for (i = 0; i < n; i++) {
		CHECK_T(l[i]);
		if (l[i]->dtype != self->dtype || l[i]->ndim != self->ndim)
			return BAD("out tensor %llu differs from self in dtype or rank",
				   (unsigned long long)i);
		for (k = 0; k < self->ndim; k++)
			if (l[i]->dims[k] != ((int64_t)k == d ? sizes[i] : self->dims[k]))
				return BAD("out tensor %llu is not part %llu's shape",
					   (unsigned long long)i, (unsigned long long)i);
	}
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	for (i = 0; i < n && !ret; i++) {
		o = nn_bind_tensor(ex, l[i], true);
		part = in;
		part.shape[d] = sizes[i];
		part.off += at * in.strides[d];
		at += sizes[i];
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &part, 1, &o, NULL);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self,
					     uint64_t splitSections, int64_t dim,
					     aclTensorList *out,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t *sizes, len, d;
	uint64_t n, i;
	aclnnStatus st;

	CHECK_T(self);
	NEED(out);
	NEED(workspaceSize);
	NEED(executor);
	d = nn_wrap_dim(dim, (int64_t)self->ndim);
	if (!self->ndim || d < 0 || d >= (int64_t)self->ndim)
		return BAD("dim %lld is out of range", (long long)dim);
	len = self->dims[d];
	if (!splitSections || splitSections > (uint64_t)INT64_MAX)
		return BAD("splitSections must be positive");
	/* parts of splitSections, the last one shorter; one empty part for 0 */
	n = len ? ((uint64_t)len + splitSections - 1) / splitSections : 1;
	sizes = calloc(n, sizeof(*sizes));
	if (!sizes)
		return acl_fail_at(func, ACLNN_ERR_INNER_CREATE_EXECUTOR, "out of memory");
	for (i = 0; i < n; i++)
		sizes[i] = len - (int64_t)(i * splitSections) < (int64_t)splitSections ?
			   len - (int64_t)(i * splitSections) : (int64_t)splitSections;
	st = split_parts(func, self, sizes, n, d, out, workspaceSize, executor);
	free(sizes);
	return st;
}
LAUNCH(aclnnSplitTensor)

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self,
					       const aclIntArray *splitSize,
					       int64_t dim, aclTensorList *out,
					       uint64_t *workspaceSize,
					       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const int64_t *p;
	int64_t d, sum = 0;
	uint64_t n, i;

	CHECK_T(self);
	NEED(splitSize);
	NEED(out);
	NEED(workspaceSize);
	NEED(executor);
	d = nn_wrap_dim(dim, (int64_t)self->ndim);
	if (!self->ndim || d < 0 || d >= (int64_t)self->ndim)
		return BAD("dim %lld is out of range", (long long)dim);
	p = nn_int_array(splitSize, &n);
	for (i = 0; i < n; i++) {
		if (p[i] < 0 || __builtin_add_overflow(sum, p[i], &sum))
			return BAD("splitSize[%llu] is negative", (unsigned long long)i);
	}
	if (!n || sum != self->dims[d])
		return BAD("splitSize adds up to %lld, dim %lld is %lld", (long long)sum,
			   (long long)d, (long long)self->dims[d]);
	return split_parts(func, self, p, n, d, out, workspaceSize, executor);
}
LAUNCH(aclnnSplitWithSize)

/* ------------------------------------------------------ 2-D paddings -- */

/* padding (left, right, top, bottom) of the last two dims. */
static aclnnStatus pad2d(const char *func, const aclTensor *self,
			 const aclIntArray *padding, aclTensor *out,
			 enum nn_pad_mode mode, uint64_t *workspaceSize,
			 aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	const int64_t *p;
	uint64_t n;

	CHECK_T(self);
	CHECK_T(out);
	NEED(padding);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(padding, &n);
	if (self->ndim != 3 && self->ndim != 4)
		return BAD("self must be 3-D or 4-D");
	if (n != 4)
		return BAD("padding must have 4 values");
	return nn_pad_task(func, self, p, 2, out, mode, &at, workspaceSize,
			   executor);
}

aclnnStatus aclnnReflectionPad2dGetWorkspaceSize(const aclTensor *self,
						 const aclIntArray *padding,
						 aclTensor *out,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	return pad2d(__func__, self, padding, out, NN_PAD_REFLECT,
		     workspaceSize, executor);
}
LAUNCH(aclnnReflectionPad2d)

aclnnStatus aclnnReplicationPad2dGetWorkspaceSize(const aclTensor *self,
						  const aclIntArray *padding,
						  aclTensor *out,
						  uint64_t *workspaceSize,
						  aclOpExecutor **executor)
{
	PROF_API();
	return pad2d(__func__, self, padding, out, NN_PAD_EDGE,
		     workspaceSize, executor);
}
LAUNCH(aclnnReplicationPad2d)
