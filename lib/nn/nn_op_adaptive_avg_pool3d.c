/* SPDX-License-Identifier: MIT */
/*
 * AdaptiveAvgPool3d on the driver's N-d pool (POOL_ND). PyTorch's bin i
 * of a dim is [floor(i * in / out), ceil((i + 1) * in / out)); a box's
 * mean is the mean over D of the means over H of the means over W, so
 * the pool runs as three 1-D passes (W, then H, then D) in FLOAT through
 * the workspace: a dim whose size the output divides is one task (window
 * = stride = in / out), any other one task per bin on sub-views. At most
 * OD + OH + OW pooling tasks, plus a CAST in and out for FLOAT16/BF16.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"
#include "../core/prof_rt.h"

#define AAP_MAX_OUT	1024	/* an output dim: bounds the task count */

/* One average POOL_ND along spatial dim a (0..2) of in into out. */
static int pool_1d(aclOpExecutor *ex, struct nn_ref in, struct nn_ref out,
		   int a, int64_t k, int64_t s)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int i;

	at.ints[0] = 1;		/* average */
	for (i = 0; i < 3; i++) {
		at.ints[4 + i] = i == a ? k : 1;
		at.ints[7 + i] = i == a ? s : 1;
		at.ints[16 + i] = 1;
	}
	return nn_task(ex, DRM_VNPU_OP_POOL_ND, &in, 1, &out, &at);
}

/* The adaptive bins of spatial dim a from cur into next. */
static int pass(aclOpExecutor *ex, struct nn_ref cur, struct nn_ref next, int a)
{
	int64_t in = cur.shape[2 + a], out = next.shape[2 + a], i;
	int ret = 0;

	if (in % out == 0)
		return pool_1d(ex, cur, next, a, in / out, in / out);
	for (i = 0; i < out && !ret; i++) {
		int64_t lo = i * in / out, hi = ((i + 1) * in + out - 1) / out;
		struct nn_ref src = cur, dst = next;

		src.off += lo * cur.strides[2 + a];
		src.shape[2 + a] = hi - lo;
		dst.off += i * next.strides[2 + a];
		dst.shape[2 + a] = 1;
		ret = pool_1d(ex, src, dst, a, hi - lo, 1);
	}
	return ret;
}

aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   aclTensor *out,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref cur, next, o;
	int64_t shape[5];
	const int64_t *os;
	aclOpExecutor *ex;
	uint64_t n;
	int a, ret = 0;

	CHECK_T(self);
	CHECK_T(out);
	NEED(outputSize);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || out->dtype != self->dtype)
		return BAD("self and out must have one float dtype");
	if (self->ndim != 5)
		return BAD("self must be 5-D (NCDHW)");
	os = nn_int_array(outputSize, &n);
	if (n != 3)
		return BAD("outputSize takes 3 values");
	shape[0] = self->dims[0];
	shape[1] = self->dims[1];
	for (a = 0; a < 3; a++) {
		if (os[a] < 1 || os[a] > AAP_MAX_OUT || self->dims[2 + a] < 1 ||
		    self->dims[2 + a] > (1LL << 40))
			return BAD("outputSize values must be 1 .. %d, the input not empty",
				   AAP_MAX_OUT);
		shape[2 + a] = os[a];
	}
	if (!nn_dims_are(out, 5, shape))
		return BAD("out must be [N, C, %lld, %lld, %lld]",
			   (long long)os[0], (long long)os[1], (long long)os[2]);
	NEW_EX(ex);
	cur = nn_cast(ex, nn_bind_tensor(ex, self, false), ACL_FLOAT);
	o = nn_bind_tensor(ex, out, true);
	for (a = 2; a >= 0 && !ret; a--) {	/* W, H, D */
		int64_t sh[5];

		memcpy(sh, cur.shape, sizeof(sh));
		sh[2 + a] = os[a];
		next = a == 0 && o.dtype == ACL_FLOAT ? o :
		       nn_ws(ex, ACL_FLOAT, 5, sh);
		ret = pass(ex, cur, next, a);
		cur = next;
	}
	if (!ret && o.dtype != ACL_FLOAT)
		ret = nn_task(ex, DRM_VNPU_OP_CAST, &cur, 1, &o, NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnAdaptiveAvgPool3d)
