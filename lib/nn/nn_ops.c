/* SPDX-License-Identifier: MIT */
/*
 * aclnn operators: phase 1 validates and prepares KERNEL tasks in an
 * executor (CAST tasks into the workspace where inputs differ from the
 * compute dtype), phase 2 queues them on a stream (nn_launch).
 */
#include <string.h>

#include "nn.h"
#include "nn_ops_common.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_log_softmax.h"

static int category(aclDataType dt)
{
	return dt == ACL_BOOL ? 0 : nn_dtype_is_int(dt) ? 1 : 2;
}

static int int_rank(aclDataType dt)
{
	switch ((int)dt) {
	case ACL_UINT8: return 1;
	case ACL_INT8: return 1;
	case ACL_INT32: return 3;
	default: return 4;	/* INT64 */
	}
}

/* PyTorch's promotion of two tensor dtypes; -1 if the device has no result. */
static int promote(aclDataType a, aclDataType b)
{
	int ca = category(a), cb = category(b);

	if (a == b)
		return a;
	if (ca != cb)
		return ca > cb ? a : b;
	if (ca == 2) {
		if ((a == ACL_FLOAT16 && b == ACL_BF16) ||
		    (a == ACL_BF16 && b == ACL_FLOAT16))
			return ACL_FLOAT;
		return a == ACL_FLOAT ? a : b;	/* the other is 16-bit */
	}
	/* integers */
	if ((a == ACL_INT8 && b == ACL_UINT8) || (a == ACL_UINT8 && b == ACL_INT8))
		return -1;	/* int16: not a device dtype */
	return int_rank(a) >= int_rank(b) ? a : b;
}

/* Tensor with a scalar: the scalar only lifts the category. */
static int promote_scalar(aclDataType t, const aclScalar *s)
{
	int cs = s->is_float ? 2 : s->dtype == ACL_BOOL ? 0 : 1;

	if (cs <= category(t))
		return t;
	return cs == 2 ? ACL_FLOAT : ACL_INT64;
}

static bool same_shape(const aclTensor *a, const aclTensor *b)
{
	return a->ndim == b->ndim &&
	       !memcmp(a->dims, b->dims, a->ndim * sizeof(int64_t));
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

static bool out_can_hold(aclDataType cdt, aclDataType out)
{
	return category(out) >= category(cdt);
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

	CHECK_T(self);
	CHECK_T(other);
	CHECK_T(out);
	if (need_alpha)
		NEED(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote(self->dtype, other->dtype);
	if (cdt < 0)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "dtypes %d and %d have no common device dtype",
				   (int)self->dtype, (int)other->dtype);
	if (op == DRM_VNPU_OP_DIV && category(cdt) < 2)
		cdt = ACL_FLOAT;	/* true division */
	if (cdt == ACL_BOOL && op != DRM_VNPU_OP_ADD && op != DRM_VNPU_OP_MUL)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "BOOL operands are not supported");
	if (!out_can_hold(cdt, out->dtype))
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
	NEED(other);
	CHECK_T(out);
	if (need_alpha)
		NEED(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote_scalar(self->dtype, other);
	if (op == DRM_VNPU_OP_DIV && category(cdt) < 2)
		cdt = ACL_FLOAT;
	if (cdt == ACL_BOOL)
		cdt = ACL_INT64;
	if (!out_can_hold(cdt, out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "result dtype %d cannot be cast to out dtype %d",
				   cdt, (int)out->dtype);
	if (!same_shape(self, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self and out differ in shape");
	nn_set_float(&at, 0, !alpha ? 1.0f : alpha->is_float ?
		  (float)alpha->v.f : (float)alpha->v.i);
	if (category(cdt) == 2)
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
	return binary(__func__, DRM_VNPU_OP_ADD, selfRef, other, alpha, true,
		      selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceAdd)

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      const aclScalar *alpha, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
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
	return binary_scalar(__func__, DRM_VNPU_OP_ADD, selfRef, other, alpha,
			     true, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceAdds)

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     const aclScalar *alpha, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return binary(__func__, DRM_VNPU_OP_SUB, self, other, alpha, true, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnSub)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      const aclScalar *alpha, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return binary_scalar(__func__, DRM_VNPU_OP_SUB, self, other, alpha,
			     true, out, workspaceSize, executor);
}
LAUNCH(aclnnSubs)

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	return binary(__func__, DRM_VNPU_OP_MUL, self, other, NULL, false, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnMul)

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	return binary(__func__, DRM_VNPU_OP_MUL, selfRef, other, NULL, false,
		      selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceMul)

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	return binary_scalar(__func__, DRM_VNPU_OP_MUL, self, other, NULL,
			     false, out, workspaceSize, executor);
}
LAUNCH(aclnnMuls)

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	return binary_scalar(__func__, DRM_VNPU_OP_MUL, selfRef, other, NULL,
			     false, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceMuls)

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	return binary(__func__, DRM_VNPU_OP_DIV, self, other, NULL, false, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnDiv)

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
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
	return binary_scalar(__func__, DRM_VNPU_OP_POW, self, exponent, NULL,
			     false, out, workspaceSize, executor);
}
LAUNCH(aclnnPowTensorScalar)

/* ------------------------------------------------------------- unary -- */

/* int_ok: the op takes integer dtypes; else integers compute in float. */
static aclnnStatus unary(const char *func, uint32_t op, const aclTensor *self,
			 const aclTensor *out, bool int_ok,
			 const struct drm_vnpu_op_attrs *at,
			 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_ref in, o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	cdt = self->dtype;
	if (cdt == ACL_BOOL || (!int_ok && category(cdt) < 2))
		cdt = nn_dtype_is_float(out->dtype) ? out->dtype : ACL_FLOAT;
	if (cdt == ACL_BOOL || !out_can_hold(cdt, out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "dtype %d -> out dtype %d is not supported",
				   (int)self->dtype, (int)out->dtype);
	if (!same_shape(self, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self and out differ in shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	in = nn_cast(ex, in, cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, op, &in, 1, o, cdt, at),
		      workspaceSize, executor);
}

#define UNARY(Name, OP, INT_OK)						\
	aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor *self, \
			aclTensor *out, uint64_t *workspaceSize,	\
			aclOpExecutor **executor)			\
	{								\
		return unary(__func__, OP, self, out, INT_OK, NULL,	\
			     workspaceSize, executor);			\
	}								\
	LAUNCH(aclnn##Name)						\
	aclnnStatus aclnnInplace##Name##GetWorkspaceSize(aclTensor *selfRef, \
			uint64_t *workspaceSize, aclOpExecutor **executor) \
	{								\
		return unary(__func__, OP, selfRef, selfRef, INT_OK, NULL, \
			     workspaceSize, executor);			\
	}								\
	LAUNCH(aclnnInplace##Name)

UNARY(Silu, DRM_VNPU_OP_SILU, false)
UNARY(Sigmoid, DRM_VNPU_OP_SIGMOID, false)
UNARY(Tanh, DRM_VNPU_OP_TANH, false)
UNARY(Exp, DRM_VNPU_OP_EXP, false)
UNARY(Log, DRM_VNPU_OP_LOG, false)
UNARY(Sqrt, DRM_VNPU_OP_SQRT, false)
UNARY(Rsqrt, DRM_VNPU_OP_RSQRT, false)
UNARY(Abs, DRM_VNPU_OP_ABS, true)
UNARY(Neg, DRM_VNPU_OP_NEG, true)

/* aclnn_relu.h declares out const and the stream const. */
aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self, const aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return unary(__func__, DRM_VNPU_OP_RELU, self, out, true, NULL,
		     workspaceSize, executor);
}

aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize,
		      aclOpExecutor *executor, const aclrtStream stream)
{
	return nn_launch(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor *selfRef,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	return unary(__func__, DRM_VNPU_OP_RELU, selfRef, selfRef, true, NULL,
		     workspaceSize, executor);
}

aclnnStatus aclnnInplaceRelu(void *workspace, uint64_t workspaceSize,
			     aclOpExecutor *executor, const aclrtStream stream)
{
	return nn_launch(__func__, workspace, workspaceSize, executor, stream);
}

/* Gelu: erf form (PyTorch's default). */
aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return unary(__func__, DRM_VNPU_OP_GELU, self, out, false, NULL,
		     workspaceSize, executor);
}
LAUNCH(aclnnGelu)

/* ----------------------------------------------------------- softmax -- */

static aclnnStatus softmax(const char *func, uint32_t op, const aclTensor *self,
			   int64_t dim, const aclTensor *out,
			   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r;

	CHECK_T(self);
	r = (int64_t)self->ndim;
	if (!nn_dtype_is_float(self->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self must be FLOAT, FLOAT16 or BF16");
	if (r ? (dim < -r || dim >= r) : (dim < -1 || dim > 0))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "dim %lld is out of range for rank %lld",
				   (long long)dim, (long long)r);
	at.ints[0] = r ? (dim < 0 ? dim + r : dim) : 0;
	if (!r)
		at.ints[0] = -1;
	return unary(func, op, self, out, false, &at, workspaceSize, executor);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
					 aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	return softmax(__func__, DRM_VNPU_OP_SOFTMAX, self, dim, out,
		       workspaceSize, executor);
}
LAUNCH(aclnnSoftmax)

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
					    aclTensor *out, uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	return softmax(__func__, DRM_VNPU_OP_LOG_SOFTMAX, self, dim, out,
		       workspaceSize, executor);
}
LAUNCH(aclnnLogSoftmax)

/* -------------------------------------------------------------- cast -- */

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	const char *func = __func__;
	struct nn_ref in, o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (out->dtype != dtype)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "out has dtype %d, not %d", (int)out->dtype,
				   (int)dtype);
	if (!same_shape(self, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self and out differ in shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	/* Same dtype: a CAST is a strided copy. */
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_CAST, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnCast)

/* ------------------------------------------------------------ matmul -- */

/* kind: 0 numpy matmul, 1 mm (2-D), 2 bmm (3-D). */
static aclnnStatus matmul(const char *func, const aclTensor *self,
			  const aclTensor *mat2, const aclTensor *out, int kind,
			  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	int64_t shape[NN_MAX_RANK];
	uint64_t ra, rb, bra, brb, br, n = 0, i;
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_T(self);
	CHECK_T(mat2);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote(self->dtype, mat2->dtype);
	if (cdt < 0 || !nn_dtype_is_float(cdt) || !nn_dtype_is_float(out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "matrix products take float dtypes only");
	ra = self->ndim;
	rb = mat2->ndim;
	if (!ra || !rb || (kind == 1 && (ra != 2 || rb != 2)) ||
	    (kind == 2 && (ra != 3 || rb != 3 ||
			   self->dims[0] != mat2->dims[0])))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "operand ranks %llu and %llu are not supported",
				   (unsigned long long)ra, (unsigned long long)rb);
	if (self->dims[ra - 1] != (rb == 1 ? mat2->dims[0] : mat2->dims[rb - 2]))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "inner dimensions differ");
	bra = ra > 2 ? ra - 2 : 0;
	brb = rb > 2 ? rb - 2 : 0;
	br = bra > brb ? bra : brb;
	for (i = 0; i < br; i++) {
		int64_t da = i < br - bra ? 1 : self->dims[i - (br - bra)];
		int64_t db = i < br - brb ? 1 : mat2->dims[i - (br - brb)];

		if (da != db && da != 1 && db != 1)
			return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
					   "batch dimensions do not broadcast");
		shape[n++] = da == 1 ? db : da;
	}
	if (ra >= 2)
		shape[n++] = self->dims[ra - 2];
	if (rb >= 2)
		shape[n++] = mat2->dims[rb - 1];
	if (out->ndim != n || memcmp(out->dims, shape, n * sizeof(int64_t)))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "out does not have the product's shape");
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, mat2, false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = nn_cast(ex, in[1], cdt);
	return nn_finish(func, ex,
		      nn_task_to_out(ex, DRM_VNPU_OP_MATMUL, in, 2, o, cdt, NULL),
		      workspaceSize, executor);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
					aclTensor *out, int8_t cubeMathType,
					uint64_t *workspaceSize, aclOpExecutor **executor)
{
	(void)cubeMathType;
	return matmul(__func__, self, mat2, out, 0, workspaceSize, executor);
}
LAUNCH(aclnnMatmul)

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
				    aclTensor *out, int8_t cubeMathType,
				    uint64_t *workspaceSize, aclOpExecutor **executor)
{
	(void)cubeMathType;
	return matmul(__func__, self, mat2, out, 1, workspaceSize, executor);
}
LAUNCH(aclnnMm)

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
					     aclTensor *out, int8_t cubeMathType,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	(void)cubeMathType;
	return matmul(__func__, self, mat2, out, 2, workspaceSize, executor);
}
LAUNCH(aclnnBatchMatMul)

/* out = beta * self + alpha * (mat1 @ mat2): one GEMM task. */
aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1,
				       const aclTensor *mat2, const aclScalar *beta,
				       const aclScalar *alpha, aclTensor *out,
				       int8_t cubeMathType, uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref c, in[3], o;
	aclOpExecutor *ex;
	int cdt;

	(void)cubeMathType;
	CHECK_T(self);
	CHECK_T(mat1);
	CHECK_T(mat2);
	CHECK_T(out);
	NEED(beta);
	NEED(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = promote(mat1->dtype, mat2->dtype);
	if (cdt >= 0)
		cdt = promote(cdt, self->dtype);
	if (cdt < 0 || !nn_dtype_is_float(cdt) || !nn_dtype_is_float(out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "addmm takes float dtypes only");
	if (mat1->ndim != 2 || mat2->ndim != 2 || out->ndim != 2 ||
	    mat1->dims[1] != mat2->dims[0] || out->dims[0] != mat1->dims[0] ||
	    out->dims[1] != mat2->dims[1] || self->ndim > 2 ||
	    (self->ndim >= 1 && self->dims[self->ndim - 1] != 1 &&
	     self->dims[self->ndim - 1] != out->dims[1]) ||
	    (self->ndim == 2 && self->dims[0] != 1 &&
	     self->dims[0] != out->dims[0]))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "shapes do not fit: mat1 [m, k], mat2 [k, n], self broadcasting to out [m, n]");
	nn_set_float(&at, 0, alpha->is_float ? (float)alpha->v.f : (float)alpha->v.i);
	nn_set_float(&at, 1, beta->is_float ? (float)beta->v.f : (float)beta->v.i);
	NEW_EX(ex);
	c = nn_bind_tensor(ex, self, false);
	in[0] = nn_bind_tensor(ex, mat1, false);
	in[1] = nn_bind_tensor(ex, mat2, false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = nn_cast(ex, in[1], cdt);
	in[2] = nn_cast(ex, c, cdt);
	return nn_finish(func, ex,
		      nn_task_to_out(ex, DRM_VNPU_OP_GEMM, in, 3, o, cdt, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnAddmm)
