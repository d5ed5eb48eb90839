/* SPDX-License-Identifier: MIT */
/*
 * Elementwise binary operators (the eltwise family of kernel/ops):
 * Add, Sub, Mul, Div, Pow with tensor or scalar operands, PyTorch
 * dtype promotion and broadcasting.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"
#include "../core/prof_rt.h"

/* Tensor with a scalar: the scalar only lifts the category. */
static int promote_scalar(aclDataType t, const aclScalar *s)
{
	int cs = s->is_float ? 2 : s->dtype == ACL_BOOL ? 0 : 1;

	if (cs <= nn_dtype_category(t))
		return t;
	return cs == 2 ? ACL_FLOAT : ACL_INT64;
}

/* numpy broadcast of a and b equals out? */
static bool broadcast_to(const aclTensor *a, const aclTensor *b,
			 const aclTensor *out)
{
	uint64_t r = a->ndim > b->ndim ? a->ndim : b->ndim, i;

	if (out->ndim != r)
		return false;
	for (i = 0; i < r; i++) {
		int64_t da = i < r - a->ndim ? 1 : a->dims[i - (r - a->ndim)];
		int64_t db = i < r - b->ndim ? 1 : b->dims[i - (r - b->ndim)];
		int64_t d;

		if (da != db && da != 1 && db != 1)
			return false;
		d = da == 1 ? db : da;
		if (out->dims[i] != d)
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ binary -- */

static aclnnStatus binary(const char *func, uint32_t op, const aclTensor *self,
			  const aclTensor *other, const aclScalar *alpha,
			  bool need_alpha, const aclTensor *out,
			  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_T_ANY(self);
	CHECK_T_ANY(other);
	CHECK_T_ANY(out);
	if (need_alpha)
		NEED(alpha);
	if (alpha)
		CHECK_S(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = nn_promote(self->dtype, other->dtype);
	if (cdt < 0)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "dtypes %d and %d have no common device dtype",
				   (int)self->dtype, (int)other->dtype);
	if (op == DRM_VNPU_OP_DIV && nn_dtype_category(cdt) < 2)
		cdt = ACL_FLOAT;	/* true division */
	if (cdt == ACL_BOOL && op != DRM_VNPU_OP_ADD && op != DRM_VNPU_OP_MUL)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "BOOL operands are not supported");
	if (!nn_out_can_hold(cdt, out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "result dtype %d cannot be cast to out dtype %d",
				   cdt, (int)out->dtype);
	if (!broadcast_to(self, other, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "shapes of self and other do not broadcast to out's shape");
	if (alpha)
		nn_set_float(&at, 0, alpha->is_float ? (float)alpha->v.f :
					(float)alpha->v.i);
	else
		nn_set_float(&at, 0, 1.0f);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, other, false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = nn_cast(ex, in[1], cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, op, in, 2, o, cdt, &at),
		      workspaceSize, executor);
}

/* Tensor op scalar: the scalar is FILLed into a rank-0 workspace tensor. */
static aclnnStatus binary_scalar(const char *func, uint32_t op,
				 const aclTensor *self, const aclScalar *other,
				 const aclScalar *alpha, bool need_alpha,
				 const aclTensor *out, uint64_t *workspaceSize,
				 aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 }, fill = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_T(self);
	CHECK_S(other);
	CHECK_T(out);
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
		cdt = ACL_INT64;
	/* CANN: an integer power needs exponent >= 0 */
	if (op == DRM_VNPU_OP_POW && nn_dtype_category(cdt) < 2 &&
	    !other->is_float && other->dtype != ACL_UINT64 && other->v.i < 0)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "integer power with the negative exponent %lld",
				   (long long)other->v.i);
	if (!nn_out_can_hold(cdt, out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "result dtype %d cannot be cast to out dtype %d",
				   cdt, (int)out->dtype);
	if (!nn_same_shape(self, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self and out differ in shape");
	nn_set_float(&at, 0, !alpha ? 1.0f : alpha->is_float ?
		  (float)alpha->v.f : (float)alpha->v.i);
	if (nn_dtype_category(cdt) == 2)
		nn_set_float(&fill, 0, other->is_float ? (float)other->v.f :
			  (float)other->v.i);
	else
		fill.ints[0] = other->is_float ? (int64_t)other->v.f : other->v.i;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = nn_ws(ex, cdt, 0, NULL);
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &fill);
	return nn_finish(func, ex, nn_task_to_out(ex, op, in, 2, o, cdt, &at),
		      workspaceSize, executor);
}

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     const aclScalar *alpha, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_ADD, self, other, alpha, true, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnAdd)

aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor *selfRef,
					    const aclTensor *other,
					    const aclScalar *alpha,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_ADD, selfRef, other, alpha, true,
		      selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceAdd)

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      const aclScalar *alpha, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_ADD, self, other, alpha,
			     true, out, workspaceSize, executor);
}
LAUNCH(aclnnAdds)

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor *selfRef,
					     const aclScalar *other,
					     const aclScalar *alpha,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_ADD, selfRef, other, alpha,
			     true, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceAdds)

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     const aclScalar *alpha, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_SUB, self, other, alpha, true, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnSub)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      const aclScalar *alpha, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_SUB, self, other, alpha,
			     true, out, workspaceSize, executor);
}
LAUNCH(aclnnSubs)

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_MUL, self, other, NULL, false, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnMul)

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_MUL, selfRef, other, NULL, false,
		      selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceMul)

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_MUL, self, other, NULL,
			     false, out, workspaceSize, executor);
}
LAUNCH(aclnnMuls)

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_MUL, selfRef, other, NULL,
			     false, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceMuls)

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_DIV, self, other, NULL, false, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnDiv)

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_DIV, self, other, NULL,
			     false, out, workspaceSize, executor);
}
LAUNCH(aclnnDivs)

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor *self,
						 const aclTensor *exponent,
						 aclTensor *out,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	return binary(__func__, DRM_VNPU_OP_POW, self, exponent, NULL, false,
		      out, workspaceSize, executor);
}
LAUNCH(aclnnPowTensorTensor)

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor *self,
						 const aclScalar *exponent,
						 aclTensor *out,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	return binary_scalar(__func__, DRM_VNPU_OP_POW, self, exponent, NULL,
			     false, out, workspaceSize, executor);
}
LAUNCH(aclnnPowTensorScalar)
