/* SPDX-License-Identifier: MIT */
/*
 * Masks and movement of issue 36: InplaceTriu, InplaceZero, Roll and
 * IndexFillTensor (and its in-place form), built from TRILU, FILL and
 * STRIDED_COPY tasks on views of the bound tensors.
 */
#include <errno.h>
#include <stdlib.h>

#include "nn_llm_eltwise.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_zero.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "../core/prof_rt.h"

/*
 * TRILU may not write over its input: the upper triangle goes to the
 * workspace and is copied back.
 */
aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor *selfRef,
					     int64_t diagonal,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o, w;
	aclOpExecutor *ex;

	CHECK_T_ANY(selfRef);	/* CANN lists every dtype the device holds */
	NEED(workspaceSize);
	NEED(executor);
	if (selfRef->ndim < 2)
		return BAD("selfRef must have at least 2 dims");
	at.ints[0] = 1;
	at.ints[1] = diagonal;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, selfRef, false);
	o = nn_bind_tensor(ex, selfRef, true);
	w = nn_ws(ex, o.dtype, o.rank, o.shape);
	nn_task(ex, DRM_VNPU_OP_TRILU, &in, 1, &w, &at);
	return nn_finish(func, ex, llm_copy(ex, w, o), workspaceSize, executor);
}
LAUNCH(aclnnInplaceTriu)

/* CANN's dtypes (of those the device holds); FILL's zero attrs are 0 in each. */
#define ZERO_DT	(DT_ARITH | DT(ACL_UINT16))

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor *selfRef,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref o;
	aclOpExecutor *ex;

	CHECK_DT(selfRef, ZERO_DT);
	NEED(workspaceSize);
	NEED(executor);
	NEW_EX(ex);
	o = nn_bind_tensor(ex, selfRef, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &o, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnInplaceZero)

#define ROLL_DT	(DT_FLOATS | DT(ACL_INT8) | DT(ACL_UINT8) | DT(ACL_INT16) | \
		 DT(ACL_INT32) | DT(ACL_INT64) | DT(ACL_UINT32) | DT(ACL_BOOL))

/* dst = src rolled by s (0 <= s < n) along dim d: two copies. */
static int roll_dim(aclOpExecutor *ex, struct nn_ref src, struct nn_ref dst,
		    uint32_t d, int64_t s)
{
	int64_t n = src.shape[d];
	int ret;

	if (!s)
		return llm_copy(ex, src, dst);
	ret = llm_copy(ex, llm_narrow(src, d, 0, n - s),
		       llm_narrow(dst, d, s, n - s));
	return ret ? ret : llm_copy(ex, llm_narrow(src, d, n - s, s),
				    llm_narrow(dst, d, 0, s));
}

/* A shift taken modulo the size n (0 when n is 0). */
static int64_t roll_mod(int64_t s, int64_t n)
{
	if (!n)
		return 0;
	s %= n;
	return s < 0 ? s + n : s;
}

/*
 * out = x rolled by shifts[k] along dims[k] in turn; with no dims, x
 * flattened (row-major) and rolled by shifts[0]. Each step but the last
 * writes a workspace copy.
 */
aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor *x,
				      const aclIntArray *shifts,
				      const aclIntArray *dims, aclTensor *out,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const int64_t *sh, *dm;
	uint64_t ns, nd, k;
	int64_t r, n;
	struct nn_ref cur, o, nxt;
	aclOpExecutor *ex;
	int ret = 0;

	CHECK_DT(x, ROLL_DT);
	NEED(shifts);
	CHECK_DT(out, ROLL_DT);
	NEED(workspaceSize);
	NEED(executor);
	sh = nn_int_array(shifts, &ns);
	dm = nn_int_array(dims, &nd);
	r = (int64_t)x->ndim;
	if (out->dtype != x->dtype || !nn_same_shape(x, out))
		return BAD("out must have x's shape and dtype");
	if (nd && ns != nd)
		return BAD("shifts and dims differ in length (%llu, %llu)",
			   (unsigned long long)ns, (unsigned long long)nd);
	if (!nd && ns != 1)
		return BAD("without dims, shifts must have one element");
	for (k = 0; k < nd; k++)
		if (dm[k] < -r || dm[k] >= r)
			return BAD("dims[%llu] = %lld is out of range for %lld dims",
				   (unsigned long long)k, (long long)dm[k],
				   (long long)r);
	NEW_EX(ex);
	cur = nn_bind_tensor(ex, x, false);
	o = nn_bind_tensor(ex, out, true);
	if (!nd) {
		/* flat: a contiguous copy rolled as one dim, then copied out */
		struct nn_ref f = nn_ws(ex, cur.dtype, cur.rank, cur.shape);
		struct nn_ref g = nn_ws(ex, cur.dtype, cur.rank, cur.shape);
		struct nn_ref f1 = f, g1 = g;

		n = nn_numel(x);
		llm_copy(ex, cur, f);
		f1.rank = g1.rank = 1;
		f1.shape[0] = g1.shape[0] = n;
		f1.strides[0] = g1.strides[0] = 1;
		roll_dim(ex, f1, g1, 0, roll_mod(sh[0], n));
		ret = llm_copy(ex, g, o);
	}
	for (k = 0; k < nd; k++) {
		uint32_t d = (uint32_t)nn_wrap_dim(dm[k], r);

		nxt = k + 1 == nd ? o : nn_ws(ex, cur.dtype, cur.rank, cur.shape);
		ret = roll_dim(ex, cur, nxt, d, roll_mod(sh[k], cur.shape[d]));
		cur = nxt;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnRoll)

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * FILL the slices idx[] (in [-n, n)) of o along d: the distinct indices,
 * sorted, go in runs of one step each, one FILL on a strided view per run
 * (ggml's 0, 0, 2, 2, ... is one task).
 */
static int fill_runs(aclOpExecutor *ex, struct nn_ref o, uint32_t d,
		     const int64_t *idx, uint64_t ni, int64_t n,
		     const struct drm_vnpu_op_attrs *at)
{
	int64_t *u = malloc(ni * sizeof(*u));
	uint64_t k, j, nu = 0;
	int ret = 0;

	if (!u) {
		ex->failed = true;
		return -ENOMEM;
	}
	for (k = 0; k < ni; k++)
		u[k] = idx[k] < 0 ? idx[k] + n : idx[k];
	qsort(u, ni, sizeof(*u), cmp_i64);
	for (k = 0; k < ni; k++)
		if (!nu || u[k] != u[nu - 1])
			u[nu++] = u[k];
	for (k = 0; k < nu && !ret; k = j) {
		int64_t step = k + 1 < nu ? u[k + 1] - u[k] : 1;
		struct nn_ref part = o;

		for (j = k + 1; j < nu && u[j] - u[j - 1] == step; j++)
			;
		part.off += u[k] * o.strides[d];
		part.shape[d] = (int64_t)(j - k);
		part.strides[d] = step * o.strides[d];
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &part, at);
	}
	free(u);
	return ret;
}

#define FILL_DT	(DT_FLOATS | DT(ACL_INT32) | DT(ACL_INT64) | DT(ACL_BOOL))

/*
 * out = self with the slices index[k] along dim set to value (in self's
 * dtype); indices in [-n, n). A rank-0 self counts as one element.
 */
static aclnnStatus index_fill(const char *func, const aclTensor *self,
			      int64_t dim, const aclIntArray *index,
			      const aclScalar *value, const aclTensor *out,
			      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at;
	const int64_t *idx;
	struct nn_ref in, o;
	aclOpExecutor *ex;
	uint64_t ni, k;
	int64_t r, n;
	uint32_t d;
	int ret = 0;

	CHECK_DT(self, FILL_DT);
	NEED(index);
	CHECK_S(value);
	CHECK_DT(out, FILL_DT);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	if (out->dtype != self->dtype || !nn_same_shape(self, out))
		return BAD("out must have self's shape and dtype");
	if (r ? (dim < -r || dim >= r) : (dim < -1 || dim > 0))
		return BAD("dim %lld is out of range for %lld dims",
			   (long long)dim, (long long)r);
	d = r ? (uint32_t)nn_wrap_dim(dim, r) : 0;
	n = r ? self->dims[d] : 1;
	idx = nn_int_array(index, &ni);
	for (k = 0; k < ni; k++)
		if (idx[k] < -n || idx[k] >= n)
			return BAD("index[%llu] = %lld is out of range for size %lld",
				   (unsigned long long)k, (long long)idx[k],
				   (long long)n);
	llm_fill_attrs(&at, self->dtype, llm_scalar_f(value));
	if (nn_dtype_category(self->dtype) < 2 && !value->is_float)
		at.ints[0] = value->v.i;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	if (self != out)
		ret = llm_copy(ex, in, o);
	if (!r) {
		o.rank = 1;
		o.shape[0] = 1;
		o.strides[0] = 1;
	}
	if (!ret && ni)
		ret = fill_runs(ex, o, d, idx, ni, n, &at);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor *self,
						 int64_t dim,
						 const aclIntArray *index,
						 const aclScalar *value,
						 aclTensor *out,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	return index_fill(__func__, self, dim, index, value, out,
			  workspaceSize, executor);
}
LAUNCH(aclnnIndexFillTensor)

aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor *selfRef,
							int64_t dim,
							const aclIntArray *index,
							const aclScalar *value,
							uint64_t *workspaceSize,
							aclOpExecutor **executor)
{
	PROF_API();
	return index_fill(__func__, selfRef, dim, index, value, selfRef,
			  workspaceSize, executor);
}
LAUNCH(aclnnInplaceIndexFillTensor)
