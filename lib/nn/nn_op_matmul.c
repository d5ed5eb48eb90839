/* SPDX-License-Identifier: MIT */
/*
 * Matrix products (the matmul family): Matmul, Mm, BatchMatMul,
 * Addmm.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_addmm.h"
#include "../core/prof_rt.h"

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
	cdt = nn_promote(self->dtype, mat2->dtype);
	if (cdt < 0 || !nn_dtype_is_float(cdt) || !nn_dtype_is_float(out->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "matrix products take float dtypes only");
	ra = self->ndim;
	rb = mat2->ndim;
	/* BatchMatMul: 3-D operands whose batch dims broadcast (CANN's doc) */
	if (!ra || !rb || (kind == 1 && (ra != 2 || rb != 2)) ||
	    (kind == 2 && (ra != 3 || rb != 3)))
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
	PROF_API();
	(void)cubeMathType;
	return matmul(__func__, self, mat2, out, 0, workspaceSize, executor);
}
LAUNCH(aclnnMatmul)

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
				    aclTensor *out, int8_t cubeMathType,
				    uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	(void)cubeMathType;
	return matmul(__func__, self, mat2, out, 1, workspaceSize, executor);
}
LAUNCH(aclnnMm)

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
					     aclTensor *out, int8_t cubeMathType,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	(void)cubeMathType;
	return matmul(__func__, self, mat2, out, 2, workspaceSize, executor);
}
LAUNCH(aclnnBatchMatMul)

/*
 * On Ascend the weight of this variant is in the FRACTAL_NZ layout
 * (produced by aclnnTransMatmulWeight). vnpu has no NZ layout: its
 * aclnnTransMatmulWeight leaves the weight in ND, so a weight labelled
 * FRACTAL_NZ is read, like an ND one, through its view dims and strides
 * (Documentation/llm.md, "The weight format").
 */
aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor *self,
						const aclTensor *mat2,
						aclTensor *out, int8_t cubeMathType,
						uint64_t *workspaceSize,
						aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	(void)cubeMathType;
	CHECK_T(mat2);
	if (mat2->ndim != 2)
		return BAD("mat2 must be 2-D, not %llu-D",
			   (unsigned long long)mat2->ndim);
	return matmul(func, self, mat2, out, 0, workspaceSize, executor);
}
LAUNCH(aclnnMatmulWeightNz)

/* out = beta * self + alpha * (mat1 @ mat2): one GEMM task. */
aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1,
				       const aclTensor *mat2, const aclScalar *beta,
				       const aclScalar *alpha, aclTensor *out,
				       int8_t cubeMathType, uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	PROF_API();
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
	CHECK_S(beta);
	CHECK_S(alpha);
	NEED(workspaceSize);
	NEED(executor);
	cdt = nn_promote(mat1->dtype, mat2->dtype);
	if (cdt >= 0)
		cdt = nn_promote(cdt, self->dtype);
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
