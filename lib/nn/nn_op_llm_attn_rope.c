// SPDX-License-Identifier: MIT
/*
 * aclnnRotaryPositionEmbedding on the device's ROPE operator: x [B, S, N,
 * D] (any layout CANN names is just four dims here), cos and sin of one
 * shape whose first three dims are x's or 1, in CANN's four modes (0 half,
 * 1 interleave, 2 quarter, 3 interleave-half). Computed in fp32, rounded
 * once; out may be x (through the workspace).
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"

/* CANN's bound on D. */
#define ROPE_MAX_D	1024

aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(
	const aclTensor *x, const aclTensor *cos, const aclTensor *sin,
	int64_t mode, aclTensor *out, uint64_t *workspaceSize,
	aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], o;
	aclOpExecutor *ex;
	int64_t d;
	int i;

	CHECK_T(x);
	CHECK_T(cos);
	CHECK_T(sin);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if ((x->dtype != ACL_FLOAT && x->dtype != ACL_FLOAT16 &&
	     x->dtype != ACL_BF16) || cos->dtype != x->dtype ||
	    sin->dtype != x->dtype || out->dtype != x->dtype)
		return BAD("x, cos, sin and out must have one dtype of FLOAT, FLOAT16, BFLOAT16");
	if (mode < 0 || mode > 3)
		return BAD("mode must be 0 (half), 1 (interleave), 2 (quarter) or 3 (interleave-half)");
	if (x->ndim != 4 || !nn_dims_are(out, 4, x->dims))
		return BAD("x must be 4-D and out of its shape");
	if (!nn_same_shape(cos, sin) || cos->ndim != 4)
		return BAD("cos and sin must be 4-D of one shape");
	d = x->dims[3];
	if (nn_numel(x) == 0)	/* nothing to do, whatever cos and sin are */
		goto build;
	if (cos->dims[3] != d)
		return BAD("cos and sin must have x's last dim");
	for (i = 0; i < 3; i++)
		if (cos->dims[i] != 1 && cos->dims[i] != x->dims[i])
			return BAD("dim %d of cos and sin must be 1 or x's", i);
	if (d > ROPE_MAX_D || d % (mode == 2 ? 4 : 2))
		return BAD("D must be even (a multiple of 4 in quarter mode) and at most %d",
			   ROPE_MAX_D);
build:
	at.ints[0] = mode;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, x, false);
	in[1] = nn_bind_tensor(ex, cos, false);
	in[2] = nn_bind_tensor(ex, sin, false);
	o = nn_bind_tensor(ex, out, true);
	if (nn_numel(x) == 0)
		return nn_finish(func, ex, 0, workspaceSize, executor);
	if (out->data == x->data) {
		/*
		 * In place (ggml rotates its tensors so): the driver lets only
		 * elementwise operators write over an input, so rotate into
		 * the workspace and copy back.
		 */
		struct nn_ref w = nn_ws(ex, x->dtype, 4, x->dims);
		int ret = nn_task(ex, DRM_VNPU_OP_ROPE, in, 3, &w, &at);

		if (!ret)
			ret = nn_task(ex, DRM_VNPU_OP_CAST, &w, 1, &o, NULL);
		return nn_finish(func, ex, ret, workspaceSize, executor);
	}
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_ROPE, in, 3, &o, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnRotaryPositionEmbedding)
