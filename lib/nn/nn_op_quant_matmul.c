/* SPDX-License-Identifier: MIT */
/*
 * QuantMatmulV2 and QuantMatmul: out = (x1 @ x2 + bias) * deqScale for
 * INT8 x1, x2, an INT32 bias and one scale per output column (V2) or one
 * float scale (QuantMatmul, no transposes), into FLOAT16 (CANN's
 * formula). Tasks: MATMUL_INT (int32 sums in the workspace, transposes
 * as views), ADD of the bias seen along the rows, DEQUANTIZE_LINEAR per
 * column (the sum times the scale in single precision), CAST to out.
 * deqScale is UINT64 as CANN packs it: the low 32 bits of each element
 * are the float32 scale (read through a FLOAT view of stride 2; the
 * other bits are ignored).
 */
#include <math.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_quant_matmul_v2.h"
#include "aclnnop/aclnn_quant_matmul.h"
#include "../core/prof_rt.h"

/* r with its last two dims swapped (a transposed view, no copy). */
static struct nn_ref swap_last(struct nn_ref r)
{
	uint32_t a = r.rank - 2, b = r.rank - 1;
	int64_t t;

	t = r.shape[a]; r.shape[a] = r.shape[b]; r.shape[b] = t;
	t = r.strides[a]; r.strides[a] = r.strides[b]; r.strides[b] = t;
	return r;
}

/*
 * Both versions: deqScale a UINT64 tensor of per-column scales (V2), or
 * NULL and one float scale fscale for all (V1). Reported as func.
 */
static aclnnStatus quant_mm(const char *func, const aclTensor *x1,
			    const aclTensor *x2, const aclTensor *bias,
			    const aclTensor *deqScale, float fscale, bool adjX1,
			    bool adjX2, const aclTensor *out,
			    uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref a, b, sum, in[2], sc;
	int64_t m, k, n, k2, batch = 1, shape[3];
	uint32_t rank;
	aclOpExecutor *ex;
	int ret;

	CHECK_T(x1);
	CHECK_T(x2);
	if (bias)
		CHECK_T(bias);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (deqScale && deqScale->magic != TENSOR_MAGIC)
		return BAD("deqScale is not a live tensor");
	if (x1->dtype != ACL_INT8 || x2->dtype != ACL_INT8)
		return BAD("x1 and x2 must be INT8");
	if ((bias && bias->dtype != ACL_INT32) ||
	    (deqScale && deqScale->dtype != ACL_UINT64) || out->dtype != ACL_FLOAT16)
		return BAD("bias must be INT32, deqScale UINT64, out FLOAT16");
	if (x1->ndim < 2 || x1->ndim > 3 || x2->ndim < 2 || x2->ndim > 3)
		return BAD("x1 and x2 must have 2 or 3 dims");
	rank = x1->ndim > x2->ndim ? x1->ndim : x2->ndim;
	m = x1->dims[x1->ndim - (adjX1 ? 1 : 2)];
	k = x1->dims[x1->ndim - (adjX1 ? 2 : 1)];
	k2 = x2->dims[x2->ndim - (adjX2 ? 1 : 2)];
	n = x2->dims[x2->ndim - (adjX2 ? 2 : 1)];
	if (n > (1LL << 40))
		return BAD("n is larger than 2^40");
	if (k != k2)
		return BAD("x1's k (%lld) differs from x2's (%lld)", (long long)k,
			   (long long)k2);
	if (rank == 3) {
		int64_t b1 = x1->ndim == 3 ? x1->dims[0] : 1;
		int64_t b2 = x2->ndim == 3 ? x2->dims[0] : 1;

		if (b1 != b2 && b1 != 1 && b2 != 1)
			return BAD("batches %lld and %lld do not broadcast",
				   (long long)b1, (long long)b2);
		batch = b1 > b2 ? b1 : b2;
		shape[0] = batch;
	}
	shape[rank - 2] = m;
	shape[rank - 1] = n;
	if (!nn_dims_are(out, rank, shape))
		return BAD("out must be [batch,] m, n");
	if (bias && (bias->ndim != 1 || bias->dims[0] != n))
		return BAD("bias must be [%lld]", (long long)n);
	/* CANN sizes deqScale align(n, 16); n alone is taken too */
	if (deqScale && (deqScale->ndim != 1 ||
			 (deqScale->dims[0] != n &&
			  deqScale->dims[0] != (n + 15) / 16 * 16)))
		return BAD("deqScale must be [n] or [align(n, 16)]");
	NEW_EX(ex);
	a = nn_bind_tensor(ex, x1, false);
	b = nn_bind_tensor(ex, x2, false);
	in[0] = adjX1 ? swap_last(a) : a;
	in[1] = adjX2 ? swap_last(b) : b;
	sum = nn_ws(ex, ACL_INT32, rank, shape);
	ret = nn_task(ex, DRM_VNPU_OP_MATMUL_INT, in, 2, &sum, NULL);
	if (!ret && bias) {
		struct nn_ref br = nn_bind_tensor(ex, bias, false), bv = sum;
		uint32_t i;

		/* bias along the last dim of every row: stride 0 elsewhere */
		bv.bind = br.bind;
		bv.ws_off = 0;
		bv.off = 0;
		for (i = 0; i < rank; i++)
			bv.strides[i] = 0;
		bv.strides[rank - 1] = br.strides[0];
		in[0] = sum;
		in[1] = bv;
		ret = nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &sum, NULL);
	}
	if (!ret && deqScale) {
		sc = nn_bind_tensor(ex, deqScale, false);
		sc.dtype = ACL_FLOAT;	/* the low half of each UINT64 */
		sc.shape[0] = n;
		sc.strides[0] *= 2;
		at.ints[0] = rank - 1;	/* one scale per column */
	} else if (!ret) {
		struct drm_vnpu_op_attrs f = { 0 };
		int64_t one = 1;

		sc = nn_ws(ex, ACL_FLOAT, 1, &one);
		nn_set_float(&f, 0, fscale);
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &sc, &f);
	}
	if (!ret) {
		in[0] = sum;
		in[1] = sc;
		ret = nn_task_to_out(ex, DRM_VNPU_OP_DEQUANTIZE_LINEAR, in, 2,
				     nn_bind_tensor(ex, out, true), ACL_FLOAT,
				     &at);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnQuantMatmulV2GetWorkspaceSize(const aclTensor *x1,
					       const aclTensor *x2,
					       const aclTensor *bias,
					       const aclTensor *deqScale,
					       bool adjX1, bool adjX2,
					       aclTensor *out,
					       uint64_t *workspaceSize,
					       aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	NEED(deqScale);
	return quant_mm(func, x1, x2, bias, deqScale, 0, adjX1, adjX2, out,
			workspaceSize, executor);
}
LAUNCH(aclnnQuantMatmulV2)

aclnnStatus aclnnQuantMatmulGetWorkspaceSize(const aclTensor *x1,
					     const aclTensor *x2,
					     const aclTensor *bias,
					     float deqScale, aclTensor *out,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	if (!isfinite(deqScale))
		return BAD("deqScale must be finite");
	return quant_mm(func, x1, x2, bias, NULL, deqScale, false, false, out,
			workspaceSize, executor);
}
LAUNCH(aclnnQuantMatmul)
