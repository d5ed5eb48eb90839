/* SPDX-License-Identifier: MIT */
/*
 * AdaptiveMaxPool2d on the driver's N-d pool (POOL_ND). PyTorch's
 * adaptive bins of an input size divisible by the output size are equal
 * windows with the stride of their size, so one max POOL_ND with indices
 * within the H x W plane computes them (global max pooling is outputSize
 * (1, 1)). Bins of unequal sizes have no one-task form and are refused.
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"

aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   aclTensor *outputOut,
						   aclTensor *indicesOut,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o[2];
	const int64_t *os;
	int64_t shape[4];
	aclOpExecutor *ex;
	uint64_t n;
	int i, ret;

	CHECK_T(self);
	CHECK_T(outputOut);
	CHECK_T(indicesOut);
	NEED(outputSize);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || outputOut->dtype != self->dtype)
		return BAD("self and outputOut must have one float dtype");
	if (indicesOut->dtype != ACL_INT64 && indicesOut->dtype != ACL_INT32)
		return BAD("indicesOut must be INT64 or INT32");
	if (self->ndim != 4)
		return BAD("self must be 4-D (NCHW)");
	os = nn_int_array(outputSize, &n);
	if (n != 2)
		return BAD("outputSize takes 2 values");
	shape[0] = self->dims[0];
	shape[1] = self->dims[1];
	for (i = 0; i < 2; i++) {
		int64_t in_sz = self->dims[2 + i];

		if (os[i] < 1 || in_sz < 1 || in_sz % os[i])
			return BAD("outputSize %lld must divide the input's %lld",
				   (long long)os[i], (long long)in_sz);
		shape[2 + i] = os[i];
		at.ints[4 + i] = in_sz / os[i];	/* window */
		at.ints[7 + i] = in_sz / os[i];	/* stride */
		at.ints[16 + i] = 1;		/* dilation */
	}
	if (!nn_dims_are(outputOut, 4, shape) || !nn_dims_are(indicesOut, 4, shape))
		return BAD("outputOut and indicesOut must be [N, C, %lld, %lld]",
			   (long long)shape[2], (long long)shape[3]);
	at.ints[0] = 0;		/* max */
	at.ints[19] = 1;	/* indices within the plane, as PyTorch */
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o[0] = nn_bind_tensor(ex, outputOut, true);
	o[1] = nn_bind_tensor(ex, indicesOut, true);
	ret = nn_task(ex, DRM_VNPU_OP_POOL_ND, &in, 1, o, &at);
	if (!ret) {		/* the second output */
		struct nn_task *t = &ex->tasks[ex->ntasks - 1];

		t->t[2] = o[1];
		t->nout = 2;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnAdaptiveMaxPool2d)
