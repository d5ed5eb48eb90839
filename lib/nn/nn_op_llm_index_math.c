/* SPDX-License-Identifier: MIT */
/*
 * Sorting, loss and solving operators of ggml's ARGSORT,
 * CROSS_ENTROPY_LOSS and SOLVE_TRI: Argsort (SORT, the values to the
 * workspace), SoftmaxCrossEntropyWithLogits (LOG_SOFTMAX, MUL and a row
 * sum for the loss, SOFTMAX less the labels for the gradient, in FLOAT)
 * and TriangularSolve (TRILU for mOut, TRI_SOLVE on the broadcast views,
 * a transposed A by its swapped strides).
 */
#include <string.h>

#include "nn_llm_index.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "../core/prof_rt.h"

/* ------------------------------------------------------------- argsort -- */

static bool argsort_dtype(aclDataType dt)
{
	switch (dt) {
	case ACL_BF16: case ACL_FLOAT16: case ACL_FLOAT: case ACL_INT8:
	case ACL_INT16: case ACL_INT32: case ACL_INT64: case ACL_UINT8:
	case ACL_UINT16: case ACL_UINT32: case ACL_UINT64:
		return true;
	default:
		return false;
	}
}

/* Stable, as aclnnSort here: equal keys keep their order. */
aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor *self, int64_t dim,
					 bool descending, aclTensor *out,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o[2];
	aclOpExecutor *ex;
	int64_t r, d;
	int ret;

	CHECK_T_ANY(self);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!argsort_dtype(self->dtype))
		return BAD("self's dtype %d is not supported", (int)self->dtype);
	if (out->dtype != ACL_INT64 || !nn_same_shape(out, self))
		return BAD("out must be INT64 of self's shape");
	r = (int64_t)self->ndim;
	d = nn_wrap_dim(dim, r ? r : 1);	/* a 0-D self sorts as [1] */
	if (d < 0 || d >= (r ? r : 1))
		return BAD("dim %lld is out of range for rank %lld", (long long)dim,
			   (long long)r);
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o[1] = nn_bind_tensor(ex, out, true);
	if (!li_numel(self))
		return nn_finish(func, ex, 0, workspaceSize, executor);
	if (!r) {
		in = li_dense(in, 1, (int64_t[]){ 1 });
		o[1] = li_dense(o[1], 1, (int64_t[]){ 1 });
	}
	o[0] = nn_ws(ex, self->dtype, in.rank, in.shape);
	at.ints[0] = d;
	at.ints[1] = descending;
	ret = nn_task(ex, DRM_VNPU_OP_SORT, &in, 1, &o[0], &at);
	if (!ret) {		/* the indices: SORT's second output */
		struct nn_task *t = &ex->tasks[ex->ntasks - 1];

		t->t[2] = o[1];
		t->nout = 2;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnArgsort)

/* ------------------------------------------- softmax cross entropy -- */

aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor *features,
							       aclTensor *labels,
							       aclTensor *loss,
							       aclTensor *backprop,
							       uint64_t *workspaceSize,
							       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs ax = { .ints = { 1 } }, row = { .ints = { 2 } };
	struct nn_ref f, l, lo, bp, ls, pr, sm, sx, in[2];
	aclOpExecutor *ex;
	int64_t n, c;
	int ret = 0;

	CHECK_T(features);
	CHECK_T(labels);
	CHECK_T(loss);
	CHECK_T(backprop);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(features->dtype))
		return BAD("features must be FLOAT, FLOAT16 or BFLOAT16");
	if (labels->dtype != features->dtype || loss->dtype != features->dtype ||
	    backprop->dtype != features->dtype)
		return BAD("labels, loss and backprop must have features' dtype");
	if (features->ndim != 2)
		return BAD("features must be 2-D");
	n = features->dims[0];
	c = features->dims[1];
	if (!nn_same_shape(labels, features) || !nn_same_shape(backprop, features))
		return BAD("labels and backprop must have features' shape");
	if (!nn_dims_are(loss, 1, &n))
		return BAD("loss must be 1-D of features' %lld rows", (long long)n);
	NEW_EX(ex);
	f = nn_bind_tensor(ex, features, false);
	l = nn_bind_tensor(ex, labels, false);
	lo = nn_bind_tensor(ex, loss, true);
	bp = nn_bind_tensor(ex, backprop, true);
	if (!n)
		return nn_finish(func, ex, 0, workspaceSize, executor);
	if (!c)			/* no classes: no loss */
		return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &lo,
						   &(struct drm_vnpu_op_attrs){ 0 }),
				 workspaceSize, executor);
	f = nn_cast(ex, f, ACL_FLOAT);
	l = nn_cast(ex, l, ACL_FLOAT);
	ls = nn_ws(ex, ACL_FLOAT, 2, f.shape);
	pr = nn_ws(ex, ACL_FLOAT, 2, f.shape);
	sm = nn_ws(ex, ACL_FLOAT, 1, &n);
	sx = nn_ws(ex, ACL_FLOAT, 2, f.shape);
	/* loss = -sum(labels * log_softmax(features)) per row */
	ret = nn_task(ex, DRM_VNPU_OP_LOG_SOFTMAX, &f, 1, &ls, &ax);
	in[0] = ls;
	in[1] = l;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &pr, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_REDUCE_SUM, &pr, 1, &sm, &row);
	if (!ret)
		ret = nn_task_to_out(ex, DRM_VNPU_OP_NEG, &sm, 1, lo, ACL_FLOAT, NULL);
	/* backprop = softmax(features) - labels */
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_SOFTMAX, &f, 1, &sx, &ax);
	in[0] = sx;
	if (!ret)
		ret = nn_task_to_out(ex, DRM_VNPU_OP_SUB, in, 2, bp, ACL_FLOAT, NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnSoftmaxCrossEntropyWithLogits)

/* ---------------------------------------------------- triangular solve -- */

/* r with its batch dims broadcast to the nb dims of bs (stride 0). */
static struct nn_ref batch_view(struct nn_ref r, uint32_t nb, const int64_t *bs)
{
	struct nn_ref v = r;
	uint32_t k = r.rank - 2, i;

	v.rank = nb + 2;
	for (i = 0; i < nb + 2; i++) {
		int64_t j = (int64_t)i - (int64_t)(nb - k);	/* r's dim */

		if (i >= nb) {
			v.shape[i] = r.shape[k + i - nb];
			v.strides[i] = r.strides[k + i - nb];
		} else if (j < 0 || r.shape[j] == 1) {
			v.shape[i] = bs[i];
			v.strides[i] = 0;
		} else {
			v.shape[i] = r.shape[j];
			v.strides[i] = r.strides[j];
		}
	}
	return v;
}

aclnnStatus aclnnTriangularSolveGetWorkspaceSize(const aclTensor *self,
						 const aclTensor *A, bool upper,
						 bool transpose, bool unitriangular,
						 aclTensor *xOut, aclTensor *mOut,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t bs[NN_MAX_RANK], shape[NN_MAX_RANK], n, k;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref a, b, x, m;
	uint32_t nb, ra, rb, d;
	aclOpExecutor *ex;
	int ret = 0;

	CHECK_T_ANY(self);
	CHECK_T_ANY(A);
	CHECK_T_ANY(xOut);
	CHECK_T_ANY(mOut);
	NEED(workspaceSize);
	NEED(executor);
	if (self->dtype != ACL_FLOAT && self->dtype != ACL_DOUBLE)
		return BAD("self must be FLOAT or DOUBLE");
	if (A->dtype != self->dtype || xOut->dtype != self->dtype ||
	    mOut->dtype != self->dtype)
		return BAD("A, xOut and mOut must have self's dtype");
	if (unitriangular && self->dtype != ACL_FLOAT)
		return BAD("unitriangular takes FLOAT only");
	ra = (uint32_t)A->ndim;
	rb = (uint32_t)self->ndim;
	if (ra < 2 || rb < 2)
		return BAD("self and A must have at least 2 dims");
	n = A->dims[ra - 1];
	k = self->dims[rb - 1];
	if (A->dims[ra - 2] != n || self->dims[rb - 2] != n)
		return BAD("A must be square, and self have A's rows");
	nb = (ra > rb ? ra : rb) - 2;
	for (d = 0; d < nb; d++) {
		int64_t da = d + ra >= nb + 2 ? A->dims[d + ra - nb - 2] : 1;
		int64_t db = d + rb >= nb + 2 ? self->dims[d + rb - nb - 2] : 1;

		if (da != db && da != 1 && db != 1)
			return BAD("the batch dims of self and A do not broadcast");
		bs[d] = da == 1 ? db : da;
	}
	memcpy(shape, bs, nb * sizeof(int64_t));
	shape[nb] = n;
	shape[nb + 1] = k;
	if (!nn_dims_are(xOut, nb + 2, shape))
		return BAD("xOut must be the broadcast batch with self's matrices");
	shape[nb + 1] = n;
	if (!nn_dims_are(mOut, nb + 2, shape))
		return BAD("mOut must be the broadcast batch with A's matrices");
	NEW_EX(ex);
	b = batch_view(nn_bind_tensor(ex, self, false), nb, bs);
	a = batch_view(nn_bind_tensor(ex, A, false), nb, bs);
	x = nn_bind_tensor(ex, xOut, true);
	m = nn_bind_tensor(ex, mOut, true);
	if (li_numel(mOut))	/* the triangle of A that takes part */
		ret = nn_task(ex, DRM_VNPU_OP_TRILU, &a, 1, &m,
			      &(struct drm_vnpu_op_attrs){ .ints = { upper, 0 } });
	if (!li_numel(xOut))
		return nn_finish(func, ex, ret, workspaceSize, executor);
	/* op(A) = A^T: swap its matrix strides; its triangle flips */
	if (transpose) {
		int64_t rs = a.strides[nb];

		a.strides[nb] = a.strides[nb + 1];
		a.strides[nb + 1] = rs;
	}
	at.ints[0] = upper != transpose;
	at.ints[1] = unitriangular;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_TRI_SOLVE, (struct nn_ref[]){ a, b }, 2,
			      &x, &at);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnTriangularSolve)
