/* SPDX-License-Identifier: MIT */
/*
 * Arithmetic of issue 36 (ggml's CANN backend): the in-place forms of
 * Sub, Subs, Div, Divs and PowTensorTensor, PowScalarTensor, Addcdiv,
 * Threshold and Sum over a tensor list. All compose the elementwise
 * kernel ops; inputs are expanded (stride 0) to the result's shape.
 */
#include <stdlib.h>

#include "nn_llm_eltwise.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_sum.h"
#include "../core/prof_rt.h"

/* selfRef = selfRef op (alpha *) other, other broadcasting to selfRef. */
static aclnnStatus inplace_binary(const char *func, uint32_t op,
				  const aclTensor *self, const aclTensor *other,
				  const aclScalar *alpha, bool need_alpha,
				  uint64_t *workspaceSize,
				  aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_DT(self, DT_ARITH);
	CHECK_DT(other, DT_ARITH);
	if (need_alpha)
		NEED(alpha);
	if (alpha)
		CHECK_S(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = nn_promote(self->dtype, other->dtype);
	if (cdt < 0)
		return BAD("dtypes %d and %d have no common device dtype",
			   (int)self->dtype, (int)other->dtype);
	if (op == DRM_VNPU_OP_DIV && nn_dtype_category(cdt) < 2)
		cdt = ACL_FLOAT;	/* true division */
	if (cdt == ACL_BOOL)
		return BAD("BOOL operands are not supported");
	if (!nn_out_can_hold(cdt, self->dtype))
		return BAD("result dtype %d cannot be cast to selfRef's dtype %d",
			   cdt, (int)self->dtype);
	if (alpha && alpha->is_float && nn_dtype_category(cdt) < 2)
		return BAD("a float alpha cannot scale an integer result");
	if (!llm_bcasts_to(other, self->ndim, self->dims))
		return BAD("other does not broadcast to selfRef's shape");
	nn_set_float(&at, 0, alpha ? (float)llm_scalar_f(alpha) : 1.0f);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, other, false);
	o = nn_bind_tensor(ex, self, true);
	in[1] = llm_expand(in[1], o.rank, o.shape);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = nn_cast(ex, in[1], cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, op, in, 2, o, cdt, &at),
			 workspaceSize, executor);
}

/* Tensor with a scalar: the scalar only lifts the category (PyTorch). */
static int promote_scalar(aclDataType t, const aclScalar *s)
{
	int cs = s->is_float ? 2 : s->dtype == ACL_BOOL ? 0 : 1;

	if (cs <= nn_dtype_category(t))
		return t;
	return cs == 2 ? ACL_FLOAT : ACL_INT64;
}

/* selfRef = selfRef op (alpha *) scalar. */
static aclnnStatus inplace_scalar(const char *func, uint32_t op,
				  const aclTensor *self, const aclScalar *other,
				  const aclScalar *alpha, bool need_alpha,
				  uint64_t *workspaceSize,
				  aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_DT(self, DT_ARITH);
	CHECK_S(other);
	if (need_alpha)
		NEED(alpha);
	if (alpha)
		CHECK_S(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote_scalar(self->dtype, other);
	if (op == DRM_VNPU_OP_DIV && nn_dtype_category(cdt) < 2)
		cdt = ACL_FLOAT;
	if (cdt == ACL_BOOL)
		return BAD("BOOL operands are not supported");
	if (!nn_out_can_hold(cdt, self->dtype))
		return BAD("result dtype %d cannot be cast to selfRef's dtype %d",
			   cdt, (int)self->dtype);
	if (alpha && alpha->is_float && nn_dtype_category(cdt) < 2)
		return BAD("a float alpha cannot scale an integer result");
	nn_set_float(&at, 0, alpha ? (float)llm_scalar_f(alpha) : 1.0f);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, self, true);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = llm_expand(llm_fill_scalar(ex, cdt, other), o.rank, o.shape);
	return nn_finish(func, ex, nn_task_to_out(ex, op, in, 2, o, cdt, &at),
			 workspaceSize, executor);
}

aclnnStatus aclnnInplaceSubGetWorkspaceSize(const aclTensor *selfRef,
					    const aclTensor *other,
					    const aclScalar *alpha,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return inplace_binary(__func__, DRM_VNPU_OP_SUB, selfRef, other, alpha,
			      true, workspaceSize, executor);
}
LAUNCH(aclnnInplaceSub)

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(const aclTensor *selfRef,
					     const aclScalar *other,
					     const aclScalar *alpha,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return inplace_scalar(__func__, DRM_VNPU_OP_SUB, selfRef, other, alpha,
			      true, workspaceSize, executor);
}
LAUNCH(aclnnInplaceSubs)

aclnnStatus aclnnInplaceDivGetWorkspaceSize(const aclTensor *selfRef,
					    const aclTensor *other,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return inplace_binary(__func__, DRM_VNPU_OP_DIV, selfRef, other, NULL,
			      false, workspaceSize, executor);
}
LAUNCH(aclnnInplaceDiv)

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(const aclTensor *selfRef,
					     const aclScalar *other,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return inplace_scalar(__func__, DRM_VNPU_OP_DIV, selfRef, other, NULL,
			      false, workspaceSize, executor);
}
LAUNCH(aclnnInplaceDivs)

aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor *self,
							const aclTensor *exponent,
							uint64_t *workspaceSize,
							aclOpExecutor **executor)
{
	PROF_API();
	return inplace_binary(__func__, DRM_VNPU_OP_POW, self, exponent, NULL,
			      false, workspaceSize, executor);
}
LAUNCH(aclnnInplacePowTensorTensor)

/* out = self ** exponent with a scalar base, out shaped as exponent. */
aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar *self,
						 const aclTensor *exponent,
						 aclTensor *out,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_S(self);
	CHECK_DT(exponent, DT_ARITH & ~DT(ACL_BOOL));
	CHECK_DT(out, (DT_ARITH & ~DT(ACL_BOOL)) | DT(ACL_UINT16) |
		 DT(ACL_UINT32) | DT(ACL_UINT64));
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote_scalar(exponent->dtype, self);
	if (!nn_out_can_hold(cdt, out->dtype))
		return BAD("result dtype %d cannot be cast to out dtype %d",
			   cdt, (int)out->dtype);
	if (!nn_same_shape(exponent, out))
		return BAD("out must have exponent's shape");
	NEW_EX(ex);
	in[1] = nn_bind_tensor(ex, exponent, false);
	o = nn_bind_tensor(ex, out, true);
	in[1] = nn_cast(ex, in[1], cdt);
	in[0] = llm_expand(llm_fill_scalar(ex, cdt, self), o.rank, o.shape);
	return nn_finish(func, ex, nn_task_to_out(ex, DRM_VNPU_OP_POW, in, 2, o,
						  cdt, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnPowScalarTensor)

/*
 * CANN's document lists INT64 too, with no meaning for an integer
 * quotient; as PyTorch, integer addcdiv is refused.
 */
#define ADDCDIV_DT	(DT_FLOATS | DT(ACL_DOUBLE))

/* out = self + value * tensor1 / tensor2, all broadcasting to out. */
static aclnnStatus addcdiv(const char *func, const aclTensor *self,
			   const aclTensor *t1, const aclTensor *t2,
			   const aclScalar *value, const aclTensor *out,
			   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	const aclTensor *all[3] = { self, t1, t2 };
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in[3], q, o;
	aclOpExecutor *ex;
	uint64_t rank;
	int cdt, i;

	CHECK_DT(self, ADDCDIV_DT);
	CHECK_DT(t1, ADDCDIV_DT);
	CHECK_DT(t2, ADDCDIV_DT);
	CHECK_S(value);
	CHECK_DT(out, ADDCDIV_DT);
	NEED(workspaceSize);
	NEED(executor);
	cdt = nn_promote(self->dtype, t1->dtype);
	cdt = cdt < 0 ? -1 : nn_promote(cdt, t2->dtype);
	if (cdt < 0 || nn_dtype_category(cdt) < 2)
		return BAD("self, tensor1 and tensor2 must promote to a float dtype");
	if (!nn_out_can_hold(cdt, out->dtype))
		return BAD("result dtype %d cannot be cast to out dtype %d",
			   cdt, (int)out->dtype);
	if (!llm_bcast(all, 3, &rank, shape) || !nn_dims_are(out, rank, shape))
		return BAD("self, tensor1 and tensor2 do not broadcast to out's shape");
	nn_set_float(&at, 0, (float)llm_scalar_f(value));
	NEW_EX(ex);
	for (i = 0; i < 3; i++) {
		in[i] = nn_bind_tensor(ex, all[i], false);
		in[i] = nn_cast(ex, llm_expand(in[i], rank, shape), cdt);
	}
	o = nn_bind_tensor(ex, out, true);
	q = nn_ws(ex, cdt, rank, shape);
	nn_task(ex, DRM_VNPU_OP_DIV, &in[1], 2, &q, NULL);
	in[1] = q;
	return nn_finish(func, ex, nn_task_to_out(ex, DRM_VNPU_OP_ADD, in, 2, o,
						  cdt, &at),
			 workspaceSize, executor);
}

aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor *self,
					 const aclTensor *tensor1,
					 const aclTensor *tensor2,
					 const aclScalar *value,
					 const aclTensor *out,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	return addcdiv(__func__, self, tensor1, tensor2, value, out,
		       workspaceSize, executor);
}
LAUNCH(aclnnAddcdiv)

aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor *selfRef,
						const aclTensor *tensor1,
						const aclTensor *tensor2,
						const aclScalar *value,
						uint64_t *workspaceSize,
						aclOpExecutor **executor)
{
	PROF_API();
	return addcdiv(__func__, selfRef, tensor1, tensor2, value, selfRef,
		       workspaceSize, executor);
}
LAUNCH(aclnnInplaceAddcdiv)

#define THRESH_DT	(DT_FLOATS | DT(ACL_INT8) | DT(ACL_UINT8) |	\
			 DT(ACL_INT16) | DT(ACL_INT32) | DT(ACL_INT64))

/*
 * out = self <= threshold ? value : self (NaN kept), compared in the
 * dtype self promotes to with the two scalars, then cast to out. The
 * result goes through the workspace so that out may be self.
 */
static aclnnStatus thresh_op(const char *func, const aclTensor *self,
			     const aclScalar *threshold, const aclScalar *value,
			     const aclTensor *out, uint64_t *workspaceSize,
			     aclOpExecutor **executor)
{
	struct nn_ref x, o, in[3], m, r;
	aclOpExecutor *ex;
	int cdt;

	CHECK_DT(self, THRESH_DT);
	CHECK_S(threshold);
	CHECK_S(value);
	CHECK_DT(out, THRESH_DT);
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote_scalar(promote_scalar(self->dtype, threshold), value);
	if (!nn_out_can_hold(cdt, out->dtype))
		return BAD("result dtype %d cannot be cast to out dtype %d",
			   cdt, (int)out->dtype);
	if (!nn_same_shape(self, out))
		return BAD("out must have self's shape");
	NEW_EX(ex);
	x = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	x = nn_cast(ex, x, cdt);
	in[0] = x;
	in[1] = llm_expand(llm_fill_scalar(ex, cdt, threshold), x.rank, x.shape);
	m = nn_ws(ex, ACL_BOOL, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_LE, in, 2, &m, NULL);
	in[0] = m;
	in[1] = llm_expand(llm_fill_scalar(ex, cdt, value), x.rank, x.shape);
	in[2] = x;
	r = nn_ws(ex, cdt, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_WHERE, in, 3, &r, NULL);
	return nn_finish(func, ex, llm_copy(ex, r, o), workspaceSize, executor);
}

aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor *self,
					   const aclScalar *threshold,
					   const aclScalar *value,
					   aclTensor *out,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	return thresh_op(__func__, self, threshold, value, out, workspaceSize,
			 executor);
}
LAUNCH(aclnnThreshold)

aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor *selfRef,
						  const aclScalar *threshold,
						  const aclScalar *value,
						  uint64_t *workspaceSize,
						  aclOpExecutor **executor)
{
	PROF_API();
	return thresh_op(__func__, selfRef, threshold, value, selfRef,
			 workspaceSize, executor);
}
LAUNCH(aclnnInplaceThreshold)

/* CANN's AccumulateNV2 dtypes: every tensor and out share one of them. */
static bool sum_dtype(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_INT8 ||
	       dt == ACL_INT32 || dt == ACL_UINT8;
}

/*
 * out = the sum of the tensors, broadcasting to out; FLOAT16 adds up in
 * FLOAT and rounds once. The sum builds in the workspace, so out may be
 * one of the tensors.
 */
aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList *tensors,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const aclTensor *const *ts;
	struct drm_vnpu_op_attrs one = { 0 };
	struct nn_ref in[2], acc, o, *refs;
	aclOpExecutor *ex;
	uint64_t n, i;
	uint32_t cdt;
	int ret;

	NEED(tensors);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	ts = nn_tensor_list(tensors, &n);
	if (!n)
		return BAD("tensors must not be empty");
	for (i = 0; i < n; i++) {
		aclnnStatus st = nn_check_tensor(func, ts[i], "tensors[i]");

		if (st)
			return st;
	}
	if (!sum_dtype(out->dtype))
		return BAD("out: dtype %d is not supported", (int)out->dtype);
	for (i = 0; i < n; i++) {
		if (ts[i]->dtype != out->dtype)
			return BAD("tensors[%llu] and out differ in dtype",
				   (unsigned long long)i);
		if (!llm_bcasts_to(ts[i], out->ndim, out->dims))
			return BAD("tensors[%llu] does not broadcast to out's shape",
				   (unsigned long long)i);
	}
	cdt = out->dtype == ACL_FLOAT16 ? ACL_FLOAT : out->dtype;
	nn_set_float(&one, 0, 1.0f);
	refs = malloc(n * sizeof(*refs));
	if (!refs)
		return acl_fail_at(func, ACLNN_ERR_INNER_CREATE_EXECUTOR,
				   "out of memory");
	ex = nn_exec_new(func);
	if (!ex) {
		free(refs);
		return acl_fail_at(func, ACLNN_ERR_INNER_CREATE_EXECUTOR,
				   "out of memory");
	}
	/* binds: the inputs in order, then out (aclSetTensorAddr's indices) */
	for (i = 0; i < n; i++)
		refs[i] = nn_bind_tensor(ex, ts[i], false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = llm_expand(refs[0], o.rank, o.shape);
	if (n == 1) {
		ret = llm_copy(ex, in[0], o);
	} else {
		acc = nn_ws(ex, cdt, o.rank, o.shape);
		in[0] = nn_cast(ex, in[0], cdt);
		for (i = 1; i < n; i++) {
			in[1] = nn_cast(ex, llm_expand(refs[i], o.rank, o.shape),
					cdt);
			nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &acc, &one);
			in[0] = acc;
		}
		ret = llm_copy(ex, acc, o);
	}
	free(refs);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnSum)
