/* SPDX-License-Identifier: MIT */
/*
 * RepeatInterleave and its forms (WithDim, Int, IntWithDim, Tensor): each
 * output position j along the repeated dim reads input element k(j), so
 * every form is one INDEX_SELECT once k is on the device. With a count r
 * for all elements k = j / r (ARANGE, DIV); with per-element counts k is
 * how many running sums of the counts are <= j (CUMSUM, then LE against
 * every j and a row sum: out x counts elements of workspace).
 *
 * The counts of the tensor forms live on the device: the output's size
 * comes from outputSize and out. Counts must be natural numbers that add
 * up to it (CANN's rule); a position past their sum reads zeros.
 */
#include <string.h>

#include "nn_llm_index.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "../core/prof_rt.h"

/* Largest out x counts of the tensor forms' comparison matrix. */
#define RI_MAX_CELLS	(1ll << 28)

static bool ri_dtype(aclDataType dt)
{
	switch (dt) {
	case ACL_UINT8: case ACL_INT8: case ACL_INT16: case ACL_INT32:
	case ACL_INT64: case ACL_BOOL: case ACL_FLOAT16: case ACL_BF16:
	case ACL_FLOAT:
		return true;
	default:
		return false;
	}
}

/* k(j) = j / r for j < len, INT64 in the workspace. */
static struct nn_ref idx_count(aclOpExecutor *ex, int64_t r, int64_t len,
			       int *ret)
{
	struct drm_vnpu_op_attrs step = { .ints = { 0, 1 } }, rv = { .ints = { r } };
	struct nn_ref j = nn_ws(ex, ACL_INT64, 1, &len);
	struct nn_ref c = nn_ws(ex, ACL_INT64, 0, NULL);
	struct nn_ref k = nn_ws(ex, ACL_INT64, 1, &len);
	struct nn_ref in[2];

	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_ARANGE, NULL, 0, &j, &step);
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &c, &rv);
	in[0] = j;
	in[1] = c;
	in[1].rank = 1;
	in[1].shape[0] = len;
	in[1].strides[0] = 0;
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_DIV, in, 2, &k, NULL);
	return k;
}

/*
 * k(j) for counts rep (0-D or 1-D, one count for all n elements or one
 * each): the number of running sums <= j, INT64 in the workspace.
 */
static struct nn_ref idx_counts(aclOpExecutor *ex, struct nn_ref rep,
				int64_t n, int64_t len, int *ret)
{
	struct drm_vnpu_op_attrs step = { .ints = { 0, 1 } }, row = { .ints = { 2 } };
	int64_t mat[2] = { len, n };
	struct nn_ref c, j, b, b64, k, in[2];

	if (!rep.rank || rep.shape[0] != n) {	/* one count for all */
		rep.rank = 1;
		rep.shape[0] = n;
		rep.strides[0] = 0;
	}
	rep = nn_cast(ex, rep, ACL_INT64);
	c = nn_ws(ex, ACL_INT64, 1, &n);
	j = nn_ws(ex, ACL_INT64, 1, &len);
	b = nn_ws(ex, ACL_BOOL, 2, mat);
	b64 = nn_ws(ex, ACL_INT64, 2, mat);
	k = nn_ws(ex, ACL_INT64, 1, &len);
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_CUMSUM, &rep, 1, &c,
			       &(struct drm_vnpu_op_attrs){ 0 });
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_ARANGE, NULL, 0, &j, &step);
	in[0] = c;		/* [len, n]: sum k along a row */
	in[0].rank = 2;
	in[0].shape[0] = len;
	in[0].shape[1] = n;
	in[0].strides[0] = 0;
	in[0].strides[1] = c.strides[0];
	in[1] = j;		/* j along a column */
	in[1].rank = 2;
	in[1].shape[0] = len;
	in[1].shape[1] = n;
	in[1].strides[0] = j.strides[0];
	in[1].strides[1] = 0;
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_LE, in, 2, &b, NULL);
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_CAST, &b, 1, &b64, NULL);
	if (!*ret)
		*ret = nn_task(ex, DRM_VNPU_OP_REDUCE_SUM, &b64, 1, &k, &row);
	return k;
}

/* The counts tensor: INT32/INT64, 0-D or 1-D of 1 or n elements. */
static aclnnStatus check_counts(const char *func, const aclTensor *rep,
				int64_t n, int64_t len)
{
	if (!li_index_dtype(rep->dtype))
		return BAD("repeats must be INT32 or INT64");
	if (rep->ndim > 1)
		return BAD("repeats must be 0-D or 1-D");
	if (rep->ndim && rep->dims[0] != 1 && rep->dims[0] != n)
		return BAD("repeats has %lld counts for %lld elements",
			   (long long)rep->dims[0], (long long)n);
	if (n && !li_numel(rep))
		return BAD("repeats is empty");
	if (!n && len)
		return BAD("outputSize %lld for no elements", (long long)len);
	if (len > 0 && n > 0 && len > RI_MAX_CELLS / n)
		return BAD("outputSize %lld x %lld counts is beyond %lld",
			   (long long)len, (long long)n, (long long)RI_MAX_CELLS);
	return ACLNN_SUCCESS;
}

/*
 * self repeated along d (d < 0: self flattened) into out, the count r
 * (rep NULL) or the counts tensor rep; len is out's size along d.
 */
static aclnnStatus repeat(const char *func, const aclTensor *self,
			  const aclTensor *rep, int64_t r, int64_t d,
			  int64_t len, const aclTensor *out,
			  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_ref in, o, k, cr;
	aclOpExecutor *ex;
	int64_t n;
	int ret = 0;

	n = d < 0 ? li_numel(self) : self->dims[d];
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	if (rep)
		cr = nn_bind_tensor(ex, rep, false);
	o = nn_bind_tensor(ex, out, true);
	if (!li_numel(out))
		return nn_finish(func, ex, 0, workspaceSize, executor);
	if (d < 0) {
		in = li_flat(ex, in, &ret);
		d = 0;
	}
	k = rep ? idx_counts(ex, cr, n, len, &ret) : idx_count(ex, r, len, &ret);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_INDEX_SELECT, (struct nn_ref[]){ in, k },
			      2, &o, &(struct drm_vnpu_op_attrs){ .ints = { d } });
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

/* Common checks; *d the wrapped dim (-1: flatten), *want out's dims. */
static aclnnStatus check_self(const char *func, const aclTensor *self,
			      bool with_dim, int64_t dim, int64_t len,
			      const aclTensor *out, int64_t *d)
{
	int64_t shape[NN_MAX_RANK], r;

	CHECK_T_ANY(self);
	CHECK_T_ANY(out);
	if (!ri_dtype(self->dtype))
		return BAD("self's dtype %d is not supported", (int)self->dtype);
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	if (len < 0)
		return BAD("outputSize %lld is negative", (long long)len);
	r = (int64_t)self->ndim;
	if (!with_dim) {
		*d = -1;
		if (!nn_dims_are(out, 1, &len))
			return BAD("out must be 1-D of outputSize %lld", (long long)len);
		return ACLNN_SUCCESS;
	}
	*d = nn_wrap_dim(dim, r);
	if (!r || *d < 0 || *d >= r)
		return BAD("dim %lld is out of range for rank %lld", (long long)dim,
			   (long long)r);
	memcpy(shape, self->dims, (size_t)r * sizeof(int64_t));
	shape[*d] = len;
	if (!nn_dims_are(out, (uint64_t)r, shape))
		return BAD("out must be self's shape with outputSize %lld along dim %lld",
			   (long long)len, (long long)*d);
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnRepeatInterleaveGetWorkspaceSize(const aclTensor *self,
						  const aclTensor *repeats,
						  int64_t outputSize, aclTensor *out,
						  uint64_t *workspaceSize,
						  aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	aclnnStatus st;
	int64_t d;

	NEED(self);
	CHECK_T(repeats);
	NEED(out);
	NEED(workspaceSize);
	NEED(executor);
	st = check_self(func, self, false, 0, outputSize, out, &d);
	if (!st)
		st = check_counts(func, repeats, li_numel(self), outputSize);
	if (st)
		return st;
	return repeat(func, self, repeats, 0, d, outputSize, out, workspaceSize,
		      executor);
}
LAUNCH(aclnnRepeatInterleave)

aclnnStatus aclnnRepeatInterleaveWithDimGetWorkspaceSize(const aclTensor *self,
							 const aclTensor *repeats,
							 int64_t dim,
							 int64_t outputSize,
							 aclTensor *out,
							 uint64_t *workspaceSize,
							 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	aclnnStatus st;
	int64_t d;

	NEED(self);
	CHECK_T(repeats);
	NEED(out);
	NEED(workspaceSize);
	NEED(executor);
	st = check_self(func, self, true, dim, outputSize, out, &d);
	if (!st)
		st = check_counts(func, repeats, self->dims[d], outputSize);
	if (st)
		return st;
	return repeat(func, self, repeats, 0, d, outputSize, out, workspaceSize,
		      executor);
}
LAUNCH(aclnnRepeatInterleaveWithDim)

/* A count for all: outputSize must be the count times the elements. */
static aclnnStatus check_count(const char *func, int64_t r, int64_t n,
			       int64_t len)
{
	int64_t want;

	if (r < 0)
		return BAD("repeats %lld is negative", (long long)r);
	if (__builtin_mul_overflow(r, n, &want) || want != len)
		return BAD("outputSize %lld is not repeats %lld x %lld",
			   (long long)len, (long long)r, (long long)n);
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor *self,
						     int64_t repeats,
						     int64_t outputSize,
						     aclTensor *out,
						     uint64_t *workspaceSize,
						     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	aclnnStatus st;
	int64_t d;

	NEED(self);
	NEED(out);
	NEED(workspaceSize);
	NEED(executor);
	st = check_self(func, self, false, 0, outputSize, out, &d);
	if (!st)
		st = check_count(func, repeats, li_numel(self), outputSize);
	if (st)
		return st;
	return repeat(func, self, NULL, repeats, d, outputSize, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnRepeatInterleaveInt)

aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor *self,
							    int64_t repeats,
							    int64_t dim,
							    int64_t outputSize,
							    aclTensor *out,
							    uint64_t *workspaceSize,
							    aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	aclnnStatus st;
	int64_t d;

	NEED(self);
	NEED(out);
	NEED(workspaceSize);
	NEED(executor);
	st = check_self(func, self, true, dim, outputSize, out, &d);
	if (!st)
		st = check_count(func, repeats, self->dims[d], outputSize);
	if (st)
		return st;
	return repeat(func, self, NULL, repeats, d, outputSize, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnRepeatInterleaveIntWithDim)

/* arange(n) repeated by the counts: k(j) itself, in repeats' dtype. */
aclnnStatus aclnnRepeatInterleaveTensorGetWorkspaceSize(const aclTensor *repeats,
							int64_t outputSize,
							aclTensor *out,
							uint64_t *workspaceSize,
							aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref rep, o, k;
	aclOpExecutor *ex;
	aclnnStatus st;
	int ret = 0;

	CHECK_T(repeats);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (repeats->ndim != 1)
		return BAD("repeats must be 1-D");
	if (out->dtype != repeats->dtype)
		return BAD("out must have repeats' dtype");
	if (outputSize < 0 || !nn_dims_are(out, 1, &outputSize))
		return BAD("out must be 1-D of outputSize %lld", (long long)outputSize);
	st = check_counts(func, repeats, repeats->dims[0], outputSize);
	if (st)
		return st;
	NEW_EX(ex);
	rep = nn_bind_tensor(ex, repeats, false);
	o = nn_bind_tensor(ex, out, true);
	if (!outputSize)
		return nn_finish(func, ex, 0, workspaceSize, executor);
	k = idx_counts(ex, rep, repeats->dims[0], outputSize, &ret);
	if (!ret)
		ret = nn_task(ex, o.dtype == ACL_INT64 ? DRM_VNPU_OP_STRIDED_COPY :
			      DRM_VNPU_OP_CAST, &k, 1, &o, NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnRepeatInterleaveTensor)
