/* SPDX-License-Identifier: MIT */
/*
 * Data movement (the move family): Permute, Cat, InplaceFillScalar,
 * InplaceCopy, Slice, Gather, IndexSelect, SWhere, ConstantPadNd,
 * Repeat.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <stdlib.h>
#include <string.h>

#include "nn_ops_common.h"
#include "nn_pad.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_repeat.h"
#include "../core/prof_rt.h"

/* ------------------------------------------------------ data movement -- */

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self,
					 const aclIntArray *dims,
					 aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK], strides[NN_MAX_RANK];
	struct nn_ref in, o;
	const int64_t *p;
	aclOpExecutor *ex;
	uint64_t n, i, seen = 0;

	CHECK_T_ANY(self);	/* CANN: every dtype; STRIDED_COPY moves bytes */
	CHECK_T_ANY(out);
	NEED(dims);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(dims, &n);
	if (n != self->ndim)
		return BAD("dims has %llu entries for a rank-%llu tensor",
			   (unsigned long long)n,
			   (unsigned long long)self->ndim);
	for (i = 0; i < n; i++) {
		int64_t d = p[i] < 0 ? p[i] + (int64_t)n : p[i];

		if (d < 0 || d >= (int64_t)n || (seen & (1ull << d)))
			return BAD("dims is not a permutation");
		seen |= 1ull << d;
		shape[i] = self->dims[d];
	}
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	if (!nn_dims_are(out, n, shape))
		return BAD("out does not have the permuted shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	for (i = 0; i < n; i++) {
		int64_t d = p[i] < 0 ? p[i] + (int64_t)n : p[i];

		strides[i] = in.strides[d];
	}
	memcpy(in.shape, shape, n * sizeof(int64_t));
	memcpy(in.strides, strides, n * sizeof(int64_t));
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnPermute)

/* Cat's tensors fit out: same rank and dims but d, which they sum to. */
static aclnnStatus cat_check(const char *func, const aclTensor *const *l,
			     uint64_t n, int64_t d, const aclTensor *out)
{
	uint64_t r = out->ndim, i, j;
	int64_t sum = 0;

	for (i = 0; i < n; i++) {
		CHECK_T_ANY(l[i]);
		if (l[i]->ndim != r)
			return BAD("tensor %llu has rank %llu, not %llu",
				   (unsigned long long)i,
				   (unsigned long long)l[i]->ndim,
				   (unsigned long long)r);
		for (j = 0; j < r; j++)
			if ((int64_t)j != d && l[i]->dims[j] != out->dims[j])
				return BAD("tensor %llu differs from out outside dim %lld",
					   (unsigned long long)i, (long long)d);
		if (l[i]->dtype == ACL_BOOL && out->dtype != ACL_BOOL)
			return BAD("BOOL tensors need a BOOL out");
		sum += l[i]->dims[d];
	}
	if (sum != out->dims[d])
		return BAD("out's dim %lld is %lld, not %lld", (long long)d,
			   (long long)out->dims[d], (long long)sum);
	return ACLNN_SUCCESS;
}

/*
 * CONCAT tasks of up to NN_MAX_TT - 1 inputs each, every one writing the
 * slice of o along d its inputs cover (a sub-view at an element offset).
 */
static int cat_tasks(aclOpExecutor *ex, struct nn_ref *in, uint64_t n,
		     int64_t d, struct nn_ref o)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t at_d = 0;
	uint64_t i = 0, k, j;
	int ret = 0;

	at.ints[0] = d;
	while (i < n && !ret) {
		struct nn_ref part = o;

		k = n - i < NN_MAX_TT - 1 ? n - i : NN_MAX_TT - 1;
		part.shape[d] = 0;
		for (j = i; j < i + k; j++)
			part.shape[d] += in[j].shape[d];
		part.off += at_d * o.strides[d];
		at_d += part.shape[d];
		ret = nn_task(ex, DRM_VNPU_OP_CONCAT, in + i, (uint32_t)k, &part,
			      &at);
		i += k;
	}
	return ret;
}

/*
 * Any number of tensors: one CONCAT task per NN_MAX_TT - 1 of them. Every
 * dtype the device holds (CANN's document lists INT16, UINT16..64 and
 * DOUBLE too); CONCAT moves bytes, the casts convert.
 */
aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const aclTensor *const *l;
	struct nn_ref *in, o;
	aclOpExecutor *ex;
	aclnnStatus st;
	int64_t r, d;
	uint64_t n, i;
	int ret;

	NEED(tensors);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	l = nn_tensor_list(tensors, &n);
	if (!n)
		return BAD("cat takes at least one tensor");
	r = (int64_t)out->ndim;
	d = dim < 0 ? dim + r : dim;
	if (d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if ((st = cat_check(func, l, n, d, out)))
		return st;
	NEW_EX(ex);
	in = malloc(n * sizeof(*in));
	if (!in) {
		nn_exec_free(ex);
		return acl_fail_at(func, ACLNN_ERR_INNER, "out of memory");
	}
	for (i = 0; i < n; i++)
		in[i] = nn_bind_tensor(ex, l[i], false);
	o = nn_bind_tensor(ex, out, true);
	for (i = 0; i < n; i++)
		in[i] = nn_cast(ex, in[i], out->dtype);
	ret = cat_tasks(ex, in, n, d, o);
	free(in);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnCat)

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef,
						   const aclScalar *value,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	aclOpExecutor *ex;
	struct nn_ref o;

	CHECK_T_ANY(selfRef);
	CHECK_S(value);
	NEED(workspaceSize);
	NEED(executor);
	if (selfRef->dtype == ACL_DOUBLE) {
		/* exact: the double's bits, filled as 8-byte integers */
		double d = value->is_float ? value->v.f : (double)value->v.i;

		memcpy(&at.ints[0], &d, sizeof(d));
	} else if (nn_dtype_is_float(selfRef->dtype))
		nn_set_float(&at, 0, value->is_float ? (float)value->v.f :
			  (float)value->v.i);
	else if (value->is_float && !nn_dtype_is_float(selfRef->dtype))
		return BAD("a float value cannot fill an integer tensor");
	else
		at.ints[0] = selfRef->dtype == ACL_BOOL ? !!value->v.i : value->v.i;
	NEW_EX(ex);
	o = nn_bind_tensor(ex, selfRef, true);
	if (o.dtype == ACL_DOUBLE)
		o.dtype = ACL_INT64;
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnInplaceFillScalar)

/*
 * selfRef = src, src broadcast to selfRef's shape and cast to its dtype;
 * any of the thirteen device dtypes on either side, as CANN documents.
 */
aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef,
					     const aclTensor *src,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in, o;
	aclOpExecutor *ex;
	uint64_t r, k, i;

	CHECK_T_ANY(selfRef);
	CHECK_T_ANY(src);
	NEED(workspaceSize);
	NEED(executor);
	r = selfRef->ndim;
	k = src->ndim;
	if (k > r)
		return BAD("src has a higher rank than selfRef");
	for (i = 0; i < k; i++)
		if (src->dims[i] != 1 && src->dims[i] != selfRef->dims[r - k + i])
			return BAD("src does not broadcast to selfRef's shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, src, false);
	o = nn_bind_tensor(ex, selfRef, true);
	/* Broadcast by stride 0: leading dims first, then size-1 dims. */
	for (i = r; i-- > 0;) {
		if (i >= r - k) {
			uint64_t s = i - (r - k);

			in.shape[i] = selfRef->dims[i];
			in.strides[i] = src->dims[s] == 1 ? 0 : in.strides[s];
		} else {
			in.shape[i] = selfRef->dims[i];
			in.strides[i] = 0;
		}
	}
	in.rank = (uint32_t)r;
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_CAST, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnInplaceCopy)

/* self[..., start:end:step, ...] along dim (start and end clamped). */
aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim,
				       int64_t start, int64_t end, int64_t step,
				       aclTensor *out, uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r, d, n, len, shape[NN_MAX_RANK];
	struct nn_ref in, o;
	aclOpExecutor *ex;
	uint64_t i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r);
	if (d < 0 || d >= r || r > 8)
		return BAD("dim %lld is out of range", (long long)dim);
	if (step < 1)
		return BAD("step must be positive");
	n = self->dims[d];
	start = start < 0 ? start + n : start;
	end = end < 0 ? end + n : end;
	start = start < 0 ? 0 : start > n ? n : start;
	end = end < start ? start : end > n ? n : end;
	len = (end - start + step - 1) / step;
	memcpy(shape, self->dims, r * sizeof(int64_t));
	shape[d] = len;
	if (out->dtype != self->dtype || !nn_dims_are(out, r, shape))
		return BAD("out must have self's dtype and the sliced shape");
	for (i = 0; i < (uint64_t)r; i++)
		at.ints[8 + i] = 1;
	at.ints[d] = start;
	at.ints[8 + d] = step;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_SLICE, &in, 1, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnSlice)

static bool index_dtype(aclDataType dt)
{
	return dt == ACL_INT32 || dt == ACL_INT64;
}

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, const int64_t dim,
					const aclTensor *index, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int64_t r, d;
	uint64_t i;

	CHECK_T(self);
	CHECK_T(index);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (!index_dtype(index->dtype))
		return BAD("index must be INT32 or INT64");
	if (index->ndim != self->ndim || out->dtype != self->dtype ||
	    !nn_dims_are(out, index->ndim, index->dims))
		return BAD("index must have self's rank, out index's shape and self's dtype");
	for (i = 0; i < (uint64_t)r; i++)
		if ((int64_t)i != d && index->dims[i] > self->dims[i])
			return BAD("index is larger than self in dim %llu",
				   (unsigned long long)i);
	at.ints[0] = d;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, index, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_GATHER, in, 2, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnGather)

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim,
					     const aclTensor *index,
					     aclTensor *out,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r, d, shape[NN_MAX_RANK];
	struct nn_ref in[2], o;
	aclOpExecutor *ex;

	CHECK_T_ANY(self);	/* CANN: every dtype but the index */
	CHECK_T(index);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (!index_dtype(index->dtype) || index->ndim > 1)
		return BAD("index must be a 1-D INT32 or INT64 tensor");
	memcpy(shape, self->dims, r * sizeof(int64_t));
	shape[d] = nn_numel(index);
	if (out->dtype != self->dtype || !nn_dims_are(out, r, shape))
		return BAD("out must have self's dtype and shape with dim %lld of index's length",
			   (long long)d);
	at.ints[0] = d;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, index, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_INDEX_SELECT, in, 2, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnIndexSelect)

/* numpy broadcast of up to three shapes equals out? */
static bool bcast3(const aclTensor *a, const aclTensor *b, const aclTensor *c,
		   const aclTensor *out)
{
	const aclTensor *t[3] = { a, b, c };
	uint64_t r = out->ndim, i, j;

	for (j = 0; j < 3; j++)
		if (t[j]->ndim > r)
			return false;
	for (i = 0; i < r; i++) {
		int64_t want = 1;

		for (j = 0; j < 3; j++) {
			uint64_t k = r - t[j]->ndim;
			int64_t dd = i < k ? 1 : t[j]->dims[i - k];

			if (dd != 1) {
				if (want != 1 && want != dd)
					return false;
				want = dd;
			}
		}
		if (out->dims[i] != want)
			return false;
	}
	return true;
}

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition,
					const aclTensor *self,
					const aclTensor *other, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in[3], o;
	aclOpExecutor *ex;

	CHECK_T(condition);
	CHECK_T(self);
	CHECK_T(other);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (condition->dtype != ACL_BOOL)
		return BAD("condition must be BOOL");
	if (!bcast3(condition, self, other, out))
		return BAD("condition, self and other do not broadcast to out's shape");
	if ((self->dtype == ACL_BOOL || other->dtype == ACL_BOOL) &&
	    out->dtype != ACL_BOOL)
		return BAD("BOOL operands need a BOOL out");
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, condition, false);
	in[1] = nn_bind_tensor(ex, self, false);
	in[2] = nn_bind_tensor(ex, other, false);
	o = nn_bind_tensor(ex, out, true);
	in[1] = nn_cast(ex, in[1], out->dtype);
	in[2] = nn_cast(ex, in[2], out->dtype);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_WHERE, in, 3, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnSWhere)

/* pad: (before, after) pairs from the last dim backwards, as in PyTorch. */
aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self,
					       const aclIntArray *pad,
					       const aclScalar *value,
					       aclTensor *out,
					       uint64_t *workspaceSize,
					       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	const int64_t *p;
	uint64_t n, r;

	CHECK_T_ANY(self);	/* CANN: every dtype (value in FLOAT precision) */
	CHECK_T_ANY(out);
	NEED(pad);
	CHECK_S(value);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(pad, &n);
	r = self->ndim;
	if (!r || r > 8 || n % 2 || n / 2 > r)
		return BAD("pad must hold (before, after) pairs for at most %llu dims",
			   (unsigned long long)r);
	nn_set_float(&at, 0, value->is_float ? (float)value->v.f : (float)value->v.i);
	return nn_pad_task(func, self, p, n / 2, out, NN_PAD_CONSTANT, &at,
			   workspaceSize, executor);
}
LAUNCH(aclnnConstantPadNd)

/* Every device dtype: TILE moves elements by their size. */
aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self,
					const aclIntArray *repeats,
					aclTensor *out, uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in, o;
	const int64_t *rp;
	aclOpExecutor *ex;
	uint64_t n, k, i;

	CHECK_T_ANY(self);
	CHECK_T_ANY(out);
	NEED(repeats);
	NEED(workspaceSize);
	NEED(executor);
	rp = nn_int_array(repeats, &n);
	k = self->ndim;
	if (n < k || !n || n > NN_MAX_RANK)
		return BAD("repeats needs at least self's rank (%llu) entries",
			   (unsigned long long)k);
	for (i = 0; i < n; i++) {
		int64_t d = i < n - k ? 1 : self->dims[i - (n - k)];

		if (rp[i] < 0)
			return BAD("repeats must not be negative");
		shape[i] = d * rp[i];
	}
	if (out->dtype != self->dtype || !nn_dims_are(out, n, shape))
		return BAD("out must have self's dtype and the repeated shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	/* Leading size-1 dims so that x and out have one rank. */
	for (i = n; i-- > 0;) {
		if (i >= n - k) {
			in.shape[i] = in.shape[i - (n - k)];
			in.strides[i] = in.strides[i - (n - k)];
		} else {
			in.shape[i] = 1;
			in.strides[i] = 0;
		}
	}
	in.rank = (uint32_t)n;
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_TILE, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnRepeat)
