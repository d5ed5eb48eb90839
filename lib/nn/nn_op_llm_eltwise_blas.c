/* SPDX-License-Identifier: MIT */
/*
 * Vector products of issue 36: Mv (matrix times vector, one MATMUL with
 * the vector and the result seen as one-column matrices) and Ger (the
 * outer product, a MUL of stride-0 expansions).
 */
#include "nn_llm_eltwise.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_ger.h"
#include "../core/prof_rt.h"

/* r (rank 1) seen as a [n, 1] matrix. */
static struct nn_ref column(struct nn_ref r)
{
	r.rank = 2;
	r.shape[1] = 1;
	r.strides[1] = 1;
	return r;
}

/*
 * out [n] = self [n, m] @ vec [m], one float dtype for all three.
 * cubeMathType (0 keep, 1 allow lower precision, 2 FLOAT16, 3 HFLOAT32)
 * is checked; the device always accumulates in FLOAT.
 */
aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor *self,
				    const aclTensor *vec, aclTensor *out,
				    int8_t cubeMathType,
				    uint64_t *workspaceSize,
				    aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in[2], o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(vec);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype))
		return BAD("self must be FLOAT, FLOAT16 or BF16");
	if (vec->dtype != self->dtype || out->dtype != self->dtype)
		return BAD("self, vec and out must share one dtype");
	if (self->ndim != 2 || vec->ndim != 1 || out->ndim != 1)
		return BAD("self must have 2 dims, vec and out 1");
	if (vec->dims[0] != self->dims[1] || out->dims[0] != self->dims[0])
		return BAD("shapes [%lld, %lld] @ [%lld] -> [%lld] do not match",
			   (long long)self->dims[0], (long long)self->dims[1],
			   (long long)vec->dims[0], (long long)out->dims[0]);
	if (cubeMathType < 0 || cubeMathType > 3)
		return BAD("cubeMathType %d is not one of 0..3", cubeMathType);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = column(nn_bind_tensor(ex, vec, false));
	o = column(nn_bind_tensor(ex, out, true));
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_MATMUL, in, 2, &o,
					   NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnMv)

/* out [n, m] = self [n] (x) vec2 [m] in the promoted dtype. */
aclnnStatus aclnnGerGetWorkspaceSize(const aclTensor *self,
				     const aclTensor *vec2, aclTensor *out,
				     uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs one = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int cdt;

	CHECK_DT(self, DT_ARITH);
	CHECK_DT(vec2, DT_ARITH);
	CHECK_DT(out, DT_ARITH);
	NEED(workspaceSize);
	NEED(executor);
	cdt = nn_promote(self->dtype, vec2->dtype);
	if (cdt < 0)
		return BAD("dtypes %d and %d have no common device dtype",
			   (int)self->dtype, (int)vec2->dtype);
	if (!nn_out_can_hold(cdt, out->dtype))
		return BAD("result dtype %d cannot be cast to out dtype %d",
			   cdt, (int)out->dtype);
	if (self->ndim != 1 || vec2->ndim != 1)
		return BAD("self and vec2 must have 1 dim");
	if (out->ndim != 2)
		return BAD("out must have 2 dims");
	if (out->dims[0] != self->dims[0] || out->dims[1] != vec2->dims[0])
		return BAD("out must be [%lld, %lld]", (long long)self->dims[0],
			   (long long)vec2->dims[0]);
	nn_set_float(&one, 0, 1.0f);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, vec2, false);
	o = nn_bind_tensor(ex, out, true);
	in[0] = llm_expand(column(in[0]), 2, o.shape);
	in[1] = llm_expand(in[1], 2, o.shape);
	in[0] = nn_cast(ex, in[0], cdt);
	in[1] = nn_cast(ex, in[1], cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, DRM_VNPU_OP_MUL, in, 2, o,
						  cdt, &one),
			 workspaceSize, executor);
}
LAUNCH(aclnnGer)
