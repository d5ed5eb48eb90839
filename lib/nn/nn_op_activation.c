/* SPDX-License-Identifier: MIT */
/*
 * Trigonometric and hyperbolic functions, Erf, and the activations with
 * parameters (LeakyRelu, Softplus, Hardtanh, Clamp*, Elu, Celu, Selu,
 * Hardswish, Hardsigmoid, Prelu, GeluV2) plus MaskedFillScalar: one or
 * two KERNEL tasks each. Scalars become the operator's fp32 attributes;
 * integer inputs of the float-only functions compute in float.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "../core/prof_rt.h"

static float scalar_f(const aclScalar *s)
{
	return s->is_float ? (float)s->v.f : (float)s->v.i;
}

/* A float-only unary op with the operator's default attributes. */
#define FLOAT_UNARY(Name, OP) NN_UNARY_OPS(Name, OP, false)

FLOAT_UNARY(Sin, DRM_VNPU_OP_SIN)
FLOAT_UNARY(Cos, DRM_VNPU_OP_COS)
FLOAT_UNARY(Tan, DRM_VNPU_OP_TAN)
FLOAT_UNARY(Asin, DRM_VNPU_OP_ASIN)
FLOAT_UNARY(Acos, DRM_VNPU_OP_ACOS)
FLOAT_UNARY(Atan, DRM_VNPU_OP_ATAN)
FLOAT_UNARY(Sinh, DRM_VNPU_OP_SINH)
FLOAT_UNARY(Cosh, DRM_VNPU_OP_COSH)
FLOAT_UNARY(Asinh, DRM_VNPU_OP_ASINH)
FLOAT_UNARY(Acosh, DRM_VNPU_OP_ACOSH)
FLOAT_UNARY(Atanh, DRM_VNPU_OP_ATANH)
FLOAT_UNARY(Erf, DRM_VNPU_OP_ERF)
FLOAT_UNARY(Hardswish, DRM_VNPU_OP_HARD_SWISH)

/*
 * An integer self into an integer out for the ops CANN documents with
 * integer dtypes (Hardsigmoid INT32, Selu INT32 and INT8): computed in
 * FLOAT, then cast (truncated) into out, as CANN's op_api casts its result.
 */
static aclnnStatus int_through_float(const char *func, uint32_t op,
				     const aclTensor *self, const aclTensor *out,
				     const struct drm_vnpu_op_attrs *at,
				     uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	struct nn_ref in, o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_same_shape(self, out))
		return BAD("self and out differ in shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	in = nn_cast(ex, in, ACL_FLOAT);
	return nn_finish(func, ex, nn_task_to_out(ex, op, &in, 1, o, ACL_FLOAT, at),
			 workspaceSize, executor);
}

/* An INT32 or INT8 self and out (CANN's integer dtypes of Selu). */
static bool int_pair(const aclTensor *self, const aclTensor *out, bool int8_ok)
{
	return self && out &&
	       (self->dtype == ACL_INT32 || (int8_ok && self->dtype == ACL_INT8)) &&
	       (out->dtype == ACL_INT32 || (int8_ok && out->dtype == ACL_INT8));
}

/*
 * PyTorch's hardsigmoid: relu6(x + 3) / 6 = clamp(x / 6 + 1 / 2, 0, 1).
 * CANN documents INT32 in and out: computed in FLOAT, the result truncated
 * (so 1 from 3 up, else 0).
 */
static aclnnStatus hardsigmoid(const char *func, const aclTensor *self,
			       const aclTensor *out, uint64_t *workspaceSize,
			       aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };

	nn_set_float(&at, 0, 1.0f / 6.0f);
	nn_set_float(&at, 1, 0.5f);
	if (int_pair(self, out, false))
		return int_through_float(func, DRM_VNPU_OP_HARD_SIGMOID, self, out,
					 &at, workspaceSize, executor);
	return nn_unary(func, DRM_VNPU_OP_HARD_SIGMOID, self, out, false, &at,
			workspaceSize, executor);
}

/* Selu: float dtypes as the unary family; INT32 / INT8 through FLOAT. */
static aclnnStatus selu(const char *func, const aclTensor *self,
			const aclTensor *out, uint64_t *workspaceSize,
			aclOpExecutor **executor)
{
	if (int_pair(self, out, true))
		return int_through_float(func, DRM_VNPU_OP_SELU, self, out, NULL,
					 workspaceSize, executor);
	return nn_unary(func, DRM_VNPU_OP_SELU, self, out, false, NULL,
			workspaceSize, executor);
}

aclnnStatus aclnnSeluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return selu(__func__, self, out, workspaceSize, executor);
}
LAUNCH(aclnnSelu)

aclnnStatus aclnnInplaceSeluGetWorkspaceSize(aclTensor *selfRef,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return selu(__func__, selfRef, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceSelu)

aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return hardsigmoid(__func__, self, out, workspaceSize, executor);
}
LAUNCH(aclnnHardsigmoid)

aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(aclTensor *selfRef,
						    uint64_t *workspaceSize,
						    aclOpExecutor **executor)
{
	PROF_API();
	return hardsigmoid(__func__, selfRef, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceHardsigmoid)

/* ----------------------------------------------------- LeakyRelu etc. -- */

static aclnnStatus leaky_relu(const char *func, const aclTensor *self,
			      const aclScalar *slope, const aclTensor *out,
			      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };

	CHECK_S(slope);
	nn_set_float(&at, 0, scalar_f(slope));
	return nn_unary(func, DRM_VNPU_OP_LEAKY_RELU, self, out, false, &at,
			workspaceSize, executor);
}

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor *self,
					   const aclScalar *negativeSlope,
					   aclTensor *out, uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	return leaky_relu(__func__, self, negativeSlope, out, workspaceSize,
			  executor);
}
LAUNCH(aclnnLeakyRelu)

aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor *selfRef,
						  const aclScalar *negativeSlope,
						  uint64_t *workspaceSize,
						  aclOpExecutor **executor)
{
	PROF_API();
	return leaky_relu(__func__, selfRef, negativeSlope, selfRef,
			  workspaceSize, executor);
}
LAUNCH(aclnnInplaceLeakyRelu)

aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor *self,
					  const aclScalar *beta,
					  const aclScalar *threshold,
					  aclTensor *out, uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };

	CHECK_S(beta);
	CHECK_S(threshold);
	if (scalar_f(beta) == 0)
		return BAD("beta must not be 0");
	nn_set_float(&at, 0, scalar_f(beta));
	nn_set_float(&at, 1, scalar_f(threshold));
	return nn_unary(func, DRM_VNPU_OP_SOFTPLUS, self, out, false, &at,
			workspaceSize, executor);
}
LAUNCH(aclnnSoftplus)

/* ------------------------------------------------------- Clamp family -- */

/* How an entry point takes one bound. */
enum clamp_bound {
	CB_NONE,	/* no such parameter: unbounded on that side */
	CB_OPT,		/* may be NULL, but not both bounds */
	CB_NEED,	/* must not be NULL */
};

/*
 * One row per aclnn entry point: its name (errors carry it), whether it
 * writes selfRef, and how it takes each bound, with the bound's name in
 * the aclnn header. Scalar bounds make one CLAMP task, tensor bounds
 * MAXIMUM then MINIMUM.
 */
struct clamp_entry {
	const char *func;
	bool inplace;
	enum clamp_bound lo, hi;
	const char *lo_name, *hi_name;
};

enum {
	CL_CLAMP, CL_CLAMP_MIN, CL_CLAMP_MAX, CL_INPLACE_CLAMP_MAX,
	CL_HARDTANH, CL_INPLACE_HARDTANH,
	CL_CLAMP_TENSOR, CL_CLAMP_MIN_TENSOR, CL_INPLACE_CLAMP_MIN_TENSOR,
	CL_CLAMP_MAX_TENSOR, CL_INPLACE_CLAMP_MAX_TENSOR,
};

#define CL_ROW(id, name, inplace, lo, hi, lo_name, hi_name)		\
	[id] = { "aclnn" name "GetWorkspaceSize", inplace, lo, hi,	\
		 lo_name, hi_name }

static const struct clamp_entry clamp_entries[] = {
	CL_ROW(CL_CLAMP, "Clamp", false, CB_OPT, CB_OPT,
	       "clipValueMin", "clipValueMax"),
	CL_ROW(CL_CLAMP_MIN, "ClampMin", false, CB_NEED, CB_NONE,
	       "clipValueMin", NULL),
	CL_ROW(CL_CLAMP_MAX, "ClampMax", false, CB_NONE, CB_NEED,
	       NULL, "clipValueMax"),
	CL_ROW(CL_INPLACE_CLAMP_MAX, "InplaceClampMax", true, CB_NONE, CB_NEED,
	       NULL, "clipValueMax"),
	CL_ROW(CL_HARDTANH, "Hardtanh", false, CB_NEED, CB_NEED,
	       "clipValueMin", "clipValueMax"),
	CL_ROW(CL_INPLACE_HARDTANH, "InplaceHardtanh", true, CB_NEED, CB_NEED,
	       "clipValueMin", "clipValueMax"),
	CL_ROW(CL_CLAMP_TENSOR, "ClampTensor", false, CB_OPT, CB_OPT,
	       "clipValueMin", "clipValueMax"),
	CL_ROW(CL_CLAMP_MIN_TENSOR, "ClampMinTensor", false, CB_NEED, CB_NONE,
	       "clipValueMin", NULL),
	CL_ROW(CL_INPLACE_CLAMP_MIN_TENSOR, "InplaceClampMinTensor", true,
	       CB_NEED, CB_NONE, "clipValueMin", NULL),
	CL_ROW(CL_CLAMP_MAX_TENSOR, "ClampMaxTensor", false, CB_NONE, CB_NEED,
	       NULL, "max"),
	CL_ROW(CL_INPLACE_CLAMP_MAX_TENSOR, "InplaceClampMaxTensor", true,
	       CB_NONE, CB_NEED, NULL, "max"),
};

/*
 * The checks every row shares, before any other: a bound the entry point
 * requires is there (lower first). 0 or the error.
 */
static aclnnStatus clamp_need(const struct clamp_entry *e, const void *lo,
			      const void *hi)
{
	if (e->lo == CB_NEED && !lo)
		return acl_fail_at(e->func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s must not be NULL", e->lo_name);
	if (e->hi == CB_NEED && !hi)
		return acl_fail_at(e->func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s must not be NULL", e->hi_name);
	return 0;
}

static aclnnStatus clamp_both_null(const char *func)
{
	return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
			   "clipValueMin and clipValueMax are both NULL");
}

/*
 * Scalar bounds: one CLAMP task. Integers stay integers unless a bound
 * is a float, then the result is float (PyTorch's promotion).
 */
static aclnnStatus clamp_scalar(const struct clamp_entry *e,
				const aclTensor *self, const aclScalar *lo,
				const aclScalar *hi, const aclTensor *out,
				uint64_t *workspaceSize, aclOpExecutor **executor)
{
	const char *func = e->func;
	struct drm_vnpu_op_attrs at = { 0 };
	bool float_bound = false;
	aclnnStatus st = clamp_need(e, lo, hi);

	if (st)
		return st;
	if (e->inplace)
		out = self;
	if (!lo && !hi)
		return clamp_both_null(func);
	if (lo) {
		CHECK_S(lo);
		nn_set_float(&at, 0, scalar_f(lo));
		at.ints[0] |= 1;
		float_bound |= lo->is_float;
	}
	if (hi) {
		CHECK_S(hi);
		nn_set_float(&at, 1, scalar_f(hi));
		at.ints[0] |= 2;
		float_bound |= hi->is_float;
	}
	return nn_unary(func, DRM_VNPU_OP_CLAMP, self, out, !float_bound, &at,
			workspaceSize, executor);
}

/* The broadcast shape of up to three tensors equals out's? */
static bool broadcasts_to(const aclTensor *const *t, int n, const aclTensor *out)
{
	uint64_t r = 0, i;
	int k;

	for (k = 0; k < n; k++)
		if (t[k] && t[k]->ndim > r)
			r = t[k]->ndim;
	if (out->ndim != r)
		return false;
	for (i = 0; i < r; i++) {
		int64_t d = 1;

		for (k = 0; k < n; k++) {
			int64_t dk;

			if (!t[k])
				continue;
			dk = i < r - t[k]->ndim ? 1 : t[k]->dims[i - (r - t[k]->ndim)];
			if (dk != 1 && d != 1 && dk != d)
				return false;
			if (dk != 1)
				d = dk;
		}
		if (out->dims[i] != d)
			return false;
	}
	return true;
}

/* Tensor bounds: max(self, lo) then min(., hi) into out. */
static aclnnStatus clamp_tensor(const struct clamp_entry *e,
				const aclTensor *self, const aclTensor *lo,
				const aclTensor *hi, const aclTensor *out,
				uint64_t *workspaceSize, aclOpExecutor **executor)
{
	const char *func = e->func;
	const aclTensor *all[3] = { self, lo, hi };
	struct nn_ref in[2], o, acc, hr = { 0 };
	aclOpExecutor *ex;
	int cdt, ret = 0;
	aclnnStatus st = clamp_need(e, lo, hi);

	if (st)
		return st;
	if (e->inplace)
		out = self;
	CHECK_T(self);
	if (lo)
		CHECK_T(lo);
	if (hi)
		CHECK_T(hi);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!lo && !hi)
		return clamp_both_null(func);
	cdt = self->dtype;
	if (lo)
		cdt = nn_promote(cdt, lo->dtype);
	if (hi && cdt >= 0)
		cdt = nn_promote(cdt, hi->dtype);
	if (cdt < 0 || cdt == ACL_BOOL || !nn_out_can_hold(cdt, out->dtype))
		return BAD("dtypes self %d, bounds %d/%d, out %d are not supported",
			   (int)self->dtype, lo ? (int)lo->dtype : -1,
			   hi ? (int)hi->dtype : -1, (int)out->dtype);
	if (!broadcasts_to(all, 3, out))
		return BAD("self and the bounds do not broadcast to out's shape");
	NEW_EX(ex);
	acc = nn_bind_tensor(ex, self, false);
	if (lo)
		in[1] = nn_bind_tensor(ex, lo, false);
	if (hi)
		hr = nn_bind_tensor(ex, hi, false);
	o = nn_bind_tensor(ex, out, true);	/* outputs bind after inputs */
	acc = nn_cast(ex, acc, cdt);
	if (lo)
		in[1] = nn_cast(ex, in[1], cdt);
	if (lo) {
		struct nn_ref t = nn_ws(ex, cdt, o.rank, o.shape);

		in[0] = acc;
		ret = nn_task(ex, DRM_VNPU_OP_MAXIMUM, in, 2, &t, NULL);
		acc = t;
	}
	if (!ret && hi) {
		in[0] = acc;
		in[1] = nn_cast(ex, hr, cdt);
		ret = nn_task_to_out(ex, DRM_VNPU_OP_MINIMUM, in, 2, o, cdt, NULL);
	} else if (!ret) {
		ret = nn_task_to_out(ex, DRM_VNPU_OP_STRIDED_COPY, &acc, 1, o, cdt,
				     NULL);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

/* The entry points: each hands its arguments to its row (in place: out NULL). */
aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor *self,
				       const aclScalar *clipValueMin,
				       const aclScalar *clipValueMax,
				       aclTensor *out, uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	PROF_API();
	return clamp_scalar(&clamp_entries[CL_CLAMP], self, clipValueMin,
			    clipValueMax, out, workspaceSize, executor);
}
LAUNCH(aclnnClamp)

aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor *self,
					  const aclScalar *clipValueMin,
					  aclTensor *out, uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	return clamp_scalar(&clamp_entries[CL_CLAMP_MIN], self, clipValueMin,
			    NULL, out, workspaceSize, executor);
}
LAUNCH(aclnnClampMin)

aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor *self,
					  const aclScalar *clipValueMax,
					  aclTensor *out, uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	return clamp_scalar(&clamp_entries[CL_CLAMP_MAX], self, NULL,
			    clipValueMax, out, workspaceSize, executor);
}
LAUNCH(aclnnClampMax)

aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor *selfRef,
						 const aclScalar *clipValueMax,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	return clamp_scalar(&clamp_entries[CL_INPLACE_CLAMP_MAX], selfRef, NULL,
			    clipValueMax, NULL, workspaceSize, executor);
}
LAUNCH(aclnnInplaceClampMax)

aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor *self,
					  const aclScalar *clipValueMin,
					  const aclScalar *clipValueMax,
					  aclTensor *out, uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	return clamp_scalar(&clamp_entries[CL_HARDTANH], self, clipValueMin,
			    clipValueMax, out, workspaceSize, executor);
}
LAUNCH(aclnnHardtanh)

aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(aclTensor *selfRef,
						 const aclScalar *clipValueMin,
						 const aclScalar *clipValueMax,
						 uint64_t *workspaceSize,
						 aclOpExecutor **executor)
{
	PROF_API();
	return clamp_scalar(&clamp_entries[CL_INPLACE_HARDTANH], selfRef,
			    clipValueMin, clipValueMax, NULL, workspaceSize,
			    executor);
}
LAUNCH(aclnnInplaceHardtanh)

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor *self,
					     const aclTensor *clipValueMin,
					     const aclTensor *clipValueMax,
					     aclTensor *out, uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return clamp_tensor(&clamp_entries[CL_CLAMP_TENSOR], self, clipValueMin,
			    clipValueMax, out, workspaceSize, executor);
}
LAUNCH(aclnnClampTensor)

aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor *self,
						const aclTensor *clipValueMin,
						aclTensor *out, uint64_t *workspaceSize,
						aclOpExecutor **executor)
{
	PROF_API();
	return clamp_tensor(&clamp_entries[CL_CLAMP_MIN_TENSOR], self,
			    clipValueMin, NULL, out, workspaceSize, executor);
}
LAUNCH(aclnnClampMinTensor)

aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor *selfRef,
						       const aclTensor *clipValueMin,
						       uint64_t *workspaceSize,
						       aclOpExecutor **executor)
{
	PROF_API();
	return clamp_tensor(&clamp_entries[CL_INPLACE_CLAMP_MIN_TENSOR], selfRef,
			    clipValueMin, NULL, NULL, workspaceSize, executor);
}
LAUNCH(aclnnInplaceClampMinTensor)

aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor *self,
						const aclTensor *max,
						aclTensor *out, uint64_t *workspaceSize,
						aclOpExecutor **executor)
{
	PROF_API();
	return clamp_tensor(&clamp_entries[CL_CLAMP_MAX_TENSOR], self, NULL, max,
			    out, workspaceSize, executor);
}
LAUNCH(aclnnClampMaxTensor)

aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor *selfRef,
						       const aclTensor *max,
						       uint64_t *workspaceSize,
						       aclOpExecutor **executor)
{
	PROF_API();
	return clamp_tensor(&clamp_entries[CL_INPLACE_CLAMP_MAX_TENSOR], selfRef,
			    NULL, max, NULL, workspaceSize, executor);
}
LAUNCH(aclnnInplaceClampMaxTensor)

/* ---------------------------------------------------------- Elu, Celu -- */

static aclnnStatus elu(const char *func, const aclTensor *self,
		       const aclScalar *alpha, const aclScalar *scale,
		       const aclScalar *input_scale, const aclTensor *out,
		       uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };

	CHECK_S(alpha);
	CHECK_S(scale);
	CHECK_S(input_scale);
	nn_set_float(&at, 0, scalar_f(alpha));
	nn_set_float(&at, 1, scalar_f(scale));
	nn_set_float(&at, 2, scalar_f(input_scale));
	return nn_unary(func, DRM_VNPU_OP_ELU, self, out, false, &at,
			workspaceSize, executor);
}

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha,
				     const aclScalar *scale,
				     const aclScalar *inputScale, aclTensor *out,
				     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	return elu(__func__, self, alpha, scale, inputScale, out, workspaceSize,
		   executor);
}
LAUNCH(aclnnElu)

aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor *selfRef,
					    const aclScalar *alpha,
					    const aclScalar *scale,
					    const aclScalar *inputScale,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return elu(__func__, selfRef, alpha, scale, inputScale, selfRef,
		   workspaceSize, executor);
}
LAUNCH(aclnnInplaceElu)

static aclnnStatus celu(const char *func, const aclTensor *self,
			const aclScalar *alpha, const aclTensor *out,
			uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };

	CHECK_S(alpha);
	if (scalar_f(alpha) == 0)
		return BAD("alpha must not be 0");
	nn_set_float(&at, 0, scalar_f(alpha));
	return nn_unary(func, DRM_VNPU_OP_CELU, self, out, false, &at,
			workspaceSize, executor);
}

aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return celu(__func__, self, alpha, out, workspaceSize, executor);
}
LAUNCH(aclnnCelu)

aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor *selfRef,
					     const aclScalar *alpha,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return celu(__func__, selfRef, alpha, selfRef, workspaceSize, executor);
}
LAUNCH(aclnnInplaceCelu)

/* ------------------------------------------------------ Prelu, GeluV2 -- */

/* weight: one value, or one per channel (self's dim 1), as PyTorch's. */
aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor *self, const aclTensor *weight,
				       aclTensor *out, uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int64_t n, st;
	uint32_t k;

	CHECK_T(self);
	CHECK_T(weight);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || out->dtype != self->dtype)
		return BAD("self dtype %d, out dtype %d: a float dtype, both the same",
			   (int)self->dtype, (int)out->dtype);
	if (!nn_same_shape(self, out))
		return BAD("self and out differ in shape");
	n = nn_numel(weight);
	if (weight->ndim > 1 ||
	    (n != 1 && (self->ndim < 2 || n != self->dims[1])))
		return BAD("weight must hold one value or one per channel (dim 1)");
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, weight, false);
	o = nn_bind_tensor(ex, out, true);
	in[1] = nn_cast(ex, in[1], self->dtype);
	/* weight [C] read as [C, 1, ...] from dim 1; one value everywhere */
	st = in[1].rank ? in[1].strides[0] : 0;
	in[1].rank = o.rank;
	for (k = 0; k < o.rank; k++) {
		in[1].shape[k] = k == 1 && n != 1 ? n : 1;
		in[1].strides[k] = k == 1 && n != 1 ? st : 0;
	}
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_PRELU, in, 2, &o, NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnPrelu)

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x, int64_t approximate,
					aclTensor *y, uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };

	if (approximate != 0 && approximate != 1)
		return BAD("approximate %lld: 0 (none) or 1 (tanh)",
			   (long long)approximate);
	at.ints[0] = approximate;
	return nn_unary(func, DRM_VNPU_OP_GELU, x, y, false, &at, workspaceSize,
			executor);
}
LAUNCH(aclnnGeluV2)

/* ------------------------------------------------- MaskedFillScalar -- */

/* WHERE(mask, value, self) into the workspace, then copied over self. */
aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef,
							 const aclTensor *mask,
							 const aclScalar *value,
							 uint64_t *workspaceSize,
							 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const aclTensor *pair[2] = { selfRef, mask };
	struct drm_vnpu_op_attrs fill = { 0 };
	struct nn_ref in[3], o, t;
	aclOpExecutor *ex;
	int ret;

	CHECK_T(selfRef);
	CHECK_T(mask);
	CHECK_S(value);
	NEED(workspaceSize);
	NEED(executor);
	if (mask->dtype != ACL_BOOL)
		return BAD("mask dtype %d is not BOOL", (int)mask->dtype);
	if (!broadcasts_to(pair, 2, selfRef))
		return BAD("mask does not broadcast to selfRef");
	if (nn_dtype_category(selfRef->dtype) == 2)
		nn_set_float(&fill, 0, scalar_f(value));
	else
		fill.ints[0] = value->is_float ? (int64_t)value->v.f : value->v.i;
	NEW_EX(ex);
	in[2] = nn_bind_tensor(ex, selfRef, false);
	in[0] = nn_bind_tensor(ex, mask, false);
	o = nn_bind_tensor(ex, selfRef, true);
	in[1] = nn_ws(ex, selfRef->dtype, 0, NULL);
	t = nn_ws(ex, selfRef->dtype, o.rank, o.shape);
	ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &fill);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_WHERE, in, 3, &t, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &t, 1, &o, NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnInplaceMaskedFillScalar)
