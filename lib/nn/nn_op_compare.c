/* SPDX-License-Identifier: MIT */
/*
 * Comparisons, logical and bitwise operators, Maximum/Minimum, Remainder
 * and the rounding unary operators: one device task each (plus CASTs to a
 * common dtype and to out's dtype, as the arithmetic family does).
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "../core/prof_rt.h"

/* out's shape is the numpy broadcast of a's and b's. */
static bool bcast_out(const aclTensor *a, const aclTensor *b,
		      const aclTensor *out)
{
	uint64_t r = a->ndim > b->ndim ? a->ndim : b->ndim, k;

	if (out->ndim != r)
		return false;
	for (k = 0; k < r; k++) {
		int64_t da = k < r - a->ndim ? 1 : a->dims[k - (r - a->ndim)];
		int64_t db = k < r - b->ndim ? 1 : b->dims[k - (r - b->ndim)];

		if (da != db && da != 1 && db != 1)
			return false;
		if (out->dims[k] != (da == 1 ? db : da))
			return false;
	}
	return true;
}

/* How a two-input operator types its result. */
enum cmp_kind {
	CMP_BOOL_OUT,	/* comparisons, logical: computed in the common dtype */
	CMP_SAME,	/* Maximum, Minimum, Remainder: the common dtype */
	CMP_INTEGER,	/* bitwise: integers or BOOL only */
};

static aclnnStatus two_inputs(const char *func, uint32_t op, enum cmp_kind kind,
			      const aclTensor *self, const aclTensor *other,
			      const aclTensor *out, uint64_t *workspaceSize,
			      aclOpExecutor **executor)
{
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt, rdt;

	CHECK_T(self);
	CHECK_T(other);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	cdt = nn_promote(self->dtype, other->dtype);
	if (cdt < 0)
		return BAD("dtypes %d and %d have no common device dtype",
			   (int)self->dtype, (int)other->dtype);
	if (kind == CMP_INTEGER && nn_dtype_category(cdt) == 2)
		return BAD("dtype %d is not an integer or BOOL", cdt);
	if (kind == CMP_SAME && cdt == ACL_BOOL && op == DRM_VNPU_OP_MOD)
		return BAD("BOOL operands are not supported");
	rdt = kind == CMP_BOOL_OUT ? ACL_BOOL : cdt;
	if (!nn_out_can_hold(rdt, out->dtype))
		return BAD("result dtype %d cannot be cast to out dtype %d", rdt,
			   (int)out->dtype);
	if (!bcast_out(self, other, out))
		return BAD("shapes of self and other do not broadcast to out's shape");
	NEW_EX(ex);
	in[0] = nn_cast(ex, nn_bind_tensor(ex, self, false), cdt);
	in[1] = nn_cast(ex, nn_bind_tensor(ex, other, false), cdt);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task_to_out(ex, op, in, 2, o, rdt, NULL),
			 workspaceSize, executor);
}

#define TWO(Name, OP, KIND)						\
	aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor *self, \
			const aclTensor *other, aclTensor *out,		\
			uint64_t *workspaceSize, aclOpExecutor **executor) \
	{								\
		PROF_API();						\
		return two_inputs(__func__, OP, KIND, self, other, out,	\
				  workspaceSize, executor);		\
	}								\
	LAUNCH(aclnn##Name)

TWO(EqTensor, DRM_VNPU_OP_EQ, CMP_BOOL_OUT)
TWO(NeTensor, DRM_VNPU_OP_NE, CMP_BOOL_OUT)
TWO(LtTensor, DRM_VNPU_OP_LT, CMP_BOOL_OUT)
TWO(LeTensor, DRM_VNPU_OP_LE, CMP_BOOL_OUT)
TWO(GtTensor, DRM_VNPU_OP_GT, CMP_BOOL_OUT)
TWO(GeTensor, DRM_VNPU_OP_GE, CMP_BOOL_OUT)
TWO(LogicalAnd, DRM_VNPU_OP_LOGICAL_AND, CMP_BOOL_OUT)
TWO(LogicalOr, DRM_VNPU_OP_LOGICAL_OR, CMP_BOOL_OUT)
TWO(LogicalXor, DRM_VNPU_OP_LOGICAL_XOR, CMP_BOOL_OUT)
TWO(Maximum, DRM_VNPU_OP_MAXIMUM, CMP_SAME)
TWO(Minimum, DRM_VNPU_OP_MINIMUM, CMP_SAME)
/* torch.remainder: the sign of the divisor (MOD with ints[0] 0, the default) */
TWO(RemainderTensorTensor, DRM_VNPU_OP_MOD, CMP_SAME)
TWO(BitwiseAndTensor, DRM_VNPU_OP_BITWISE_AND, CMP_INTEGER)
TWO(BitwiseOrTensor, DRM_VNPU_OP_BITWISE_OR, CMP_INTEGER)
TWO(BitwiseXorTensor, DRM_VNPU_OP_BITWISE_XOR, CMP_INTEGER)

/*
 * Tensor vs scalar: the scalar is FILLed into a rank-0 workspace tensor of
 * the compare dtype: self's, FLOAT for an integer self and a float scalar,
 * INT64 for a BOOL self and an integer one.
 */
static aclnnStatus scalar_compare(const char *func, uint32_t op,
				  const aclTensor *self, const aclScalar *other,
				  const aclTensor *out, uint64_t *workspaceSize,
				  aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs fill = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_T(self);
	CHECK_S(other);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	cdt = self->dtype;
	if (other->is_float && nn_dtype_category(cdt) < 2)
		cdt = ACL_FLOAT;
	else if (cdt == ACL_BOOL && other->dtype != ACL_BOOL)
		cdt = ACL_INT64;
	if (!nn_out_can_hold(ACL_BOOL, out->dtype))
		return BAD("out dtype %d cannot hold a BOOL", (int)out->dtype);
	if (!nn_same_shape(self, out))
		return BAD("self and out differ in shape");
	if (nn_dtype_category(cdt) == 2)
		nn_set_float(&fill, 0, other->is_float ? (float)other->v.f :
			     (float)other->v.i);
	else
		fill.ints[0] = other->is_float ? (int64_t)other->v.f : other->v.i;
	NEW_EX(ex);
	in[0] = nn_cast(ex, nn_bind_tensor(ex, self, false), cdt);
	o = nn_bind_tensor(ex, out, true);
	in[1] = nn_ws(ex, cdt, 0, NULL);
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &fill);
	return nn_finish(func, ex, nn_task_to_out(ex, op, in, 2, o, ACL_BOOL, NULL),
			 workspaceSize, executor);
}

#define SCALAR_CMP(Name, OP)						\
	aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor *self, \
			const aclScalar *other, aclTensor *out,		\
			uint64_t *workspaceSize, aclOpExecutor **executor) \
	{								\
		PROF_API();						\
		return scalar_compare(__func__, OP, self, other, out,	\
				      workspaceSize, executor);		\
	}								\
	LAUNCH(aclnn##Name)

SCALAR_CMP(EqScalar, DRM_VNPU_OP_EQ)
SCALAR_CMP(NeScalar, DRM_VNPU_OP_NE)
SCALAR_CMP(LtScalar, DRM_VNPU_OP_LT)
SCALAR_CMP(LeScalar, DRM_VNPU_OP_LE)
SCALAR_CMP(GtScalar, DRM_VNPU_OP_GT)
SCALAR_CMP(GeScalar, DRM_VNPU_OP_GE)

/* LogicalNot and BitwiseNot: the input's dtype or BOOL out. */
static aclnnStatus not_op(const char *func, uint32_t op, const aclTensor *self,
			  const aclTensor *out, uint64_t *workspaceSize,
			  aclOpExecutor **executor)
{
	struct nn_ref in, o;
	aclOpExecutor *ex;
	int rdt = op == DRM_VNPU_OP_LOGICAL_NOT ? ACL_BOOL : self ? self->dtype : 0;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (op == DRM_VNPU_OP_BITWISE_NOT && nn_dtype_category(self->dtype) == 2)
		return BAD("dtype %d is not an integer or BOOL", (int)self->dtype);
	if (!nn_out_can_hold(rdt, out->dtype))
		return BAD("result dtype %d cannot be cast to out dtype %d", rdt,
			   (int)out->dtype);
	if (!nn_same_shape(self, out))
		return BAD("self and out differ in shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task_to_out(ex, op, &in, 1, o, rdt, NULL),
			 workspaceSize, executor);
}

aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor *self, aclTensor *out,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return not_op(__func__, DRM_VNPU_OP_LOGICAL_NOT, self, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnLogicalNot)

aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor *self, aclTensor *out,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return not_op(__func__, DRM_VNPU_OP_BITWISE_NOT, self, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnBitwiseNot)

/* Unary: integers pass through rounding and sign; Reciprocal is float. */
#define ROUNDING(Name, OP, INT_OK) NN_UNARY_OP(Name, OP, INT_OK)

ROUNDING(Reciprocal, DRM_VNPU_OP_RECIPROCAL, false)
ROUNDING(Floor, DRM_VNPU_OP_FLOOR, true)
ROUNDING(Ceil, DRM_VNPU_OP_CEIL, true)
ROUNDING(Round, DRM_VNPU_OP_ROUND, true)
ROUNDING(Sign, DRM_VNPU_OP_SIGN, true)
