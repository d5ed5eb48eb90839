/* SPDX-License-Identifier: MIT */
/*
 * Elementwise unary operators (the unary family): activations and
 * math functions, integers computed in float where the op needs it.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_neg.h"
#include "../core/prof_rt.h"

/* ------------------------------------------------------------- unary -- */

/* int_ok: the op takes integer dtypes; else integers compute in float. */
aclnnStatus nn_unary(const char *func, uint32_t op, const aclTensor *self,
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
	/* CANN's Abs and Sign of a BOOL are the BOOL itself (their documents) */
	if (cdt == ACL_BOOL && out->dtype == ACL_BOOL &&
	    (op == DRM_VNPU_OP_ABS || op == DRM_VNPU_OP_SIGN))
		op = DRM_VNPU_OP_STRIDED_COPY;
	else if (cdt == ACL_BOOL || (!int_ok && nn_dtype_category(cdt) < 2))
		cdt = nn_dtype_is_float(out->dtype) ? out->dtype : ACL_FLOAT;
	if ((cdt == ACL_BOOL && op != DRM_VNPU_OP_STRIDED_COPY) ||
	    !nn_out_can_hold(cdt, out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "dtype %d -> out dtype %d is not supported",
				   (int)self->dtype, (int)out->dtype);
	if (!nn_same_shape(self, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self and out differ in shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	in = nn_cast(ex, in, cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, op, &in, 1, o, cdt, at),
		      workspaceSize, executor);
}

#define UNARY(Name, OP, INT_OK) NN_UNARY_OPS(Name, OP, INT_OK)

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
	PROF_API();
	return nn_unary(__func__, DRM_VNPU_OP_RELU, self, out, true, NULL,
		     workspaceSize, executor);
}

aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize,
		      aclOpExecutor *executor, const aclrtStream stream)
{
	PROF_API();
	return nn_launch(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor *selfRef,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	return nn_unary(__func__, DRM_VNPU_OP_RELU, selfRef, selfRef, true, NULL,
		     workspaceSize, executor);
}

aclnnStatus aclnnInplaceRelu(void *workspace, uint64_t workspaceSize,
			     aclOpExecutor *executor, const aclrtStream stream)
{
	PROF_API();
	return nn_launch(__func__, workspace, workspaceSize, executor, stream);
}

/*
 * Gelu: CANN documents (and its golden computes) the tanh approximation,
 * 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); GeluV2 picks the form.
 */
aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self, aclTensor *out,
				      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { .ints = { 1 } };

	PROF_API();
	return nn_unary(__func__, DRM_VNPU_OP_GELU, self, out, false, &at,
		     workspaceSize, executor);
}
LAUNCH(aclnnGelu)
