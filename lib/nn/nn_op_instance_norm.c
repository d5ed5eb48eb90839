/* SPDX-License-Identifier: MIT */
/*
 * aclnnInstanceNorm: one NORM_AXES task over H and W of a 4-D x (NCHW or
 * NHWC), writing y, the mean and the population variance; gamma and beta
 * are seen at x's rank with the channels at C's position.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "../core/prof_rt.h"

#define NAX_STAT_VAR	2

/* A (C) parameter seen at rank 4 with its values along dim c. */
static struct nn_ref channel_param(struct nn_ref r, uint32_t c)
{
	int64_t s = r.strides[0], n = r.shape[0];
	uint32_t d;

	r.rank = 4;
	for (d = 0; d < 4; d++) {
		r.shape[d] = d == c ? n : 1;
		r.strides[d] = d == c ? s : 0;
	}
	return r;
}

aclnnStatus aclnnInstanceNormGetWorkspaceSize(const aclTensor *x,
					      const aclTensor *gamma,
					      const aclTensor *beta,
					      const char *dataFormat, double eps,
					      aclTensor *y, aclTensor *mean,
					      aclTensor *variance,
					      uint64_t *workspaceSize,
					      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref t[6];
	int64_t stat[4];
	aclOpExecutor *ex;
	uint32_t c, d;
	struct nn_task *task;
	int ret;

	CHECK_T(x);
	CHECK_T(gamma);
	CHECK_T(beta);
	CHECK_T(y);
	CHECK_T(mean);
	CHECK_T(variance);
	NEED(dataFormat);
	NEED(workspaceSize);
	NEED(executor);
	if (!strcmp(dataFormat, "NCHW"))
		c = 1;
	else if (!strcmp(dataFormat, "NHWC"))
		c = 3;
	else
		return BAD("dataFormat must be \"NCHW\" or \"NHWC\", not \"%s\"",
			   dataFormat);
	if (!nn_dtype_is_float(x->dtype))
		return BAD("x must be FLOAT, FLOAT16 or BF16");
	if (gamma->dtype != x->dtype || beta->dtype != x->dtype ||
	    y->dtype != x->dtype || mean->dtype != x->dtype ||
	    variance->dtype != x->dtype)
		return BAD("gamma, beta, y, mean and variance must have x's dtype");
	if (x->ndim != 4)
		return BAD("x must be 4-D");
	if (!nn_dims_are(gamma, 1, &x->dims[c]) || !nn_dims_are(beta, 1, &x->dims[c]))
		return BAD("gamma and beta must have C (%lld) values",
			   (long long)x->dims[c]);
	if (!nn_same_shape(y, x))
		return BAD("y must have x's shape");
	for (d = 0; d < 4; d++)
		stat[d] = d == 0 || d == c ? x->dims[d] : 1;
	if (!nn_dims_are(mean, 4, stat) || !nn_dims_are(variance, 4, stat))
		return BAD("mean and variance must be x's shape with H and W 1");
	at.ints[0] = c == 1 ? 0xc : 0x6;	/* H and W */
	at.ints[1] = NAX_STAT_VAR;
	nn_set_float(&at, 0, (float)eps);
	NEW_EX(ex);
	t[0] = nn_bind_tensor(ex, x, false);
	t[1] = channel_param(nn_bind_tensor(ex, gamma, false), c);
	t[2] = channel_param(nn_bind_tensor(ex, beta, false), c);
	t[3] = nn_bind_tensor(ex, y, true);
	t[4] = nn_bind_tensor(ex, mean, true);
	t[5] = nn_bind_tensor(ex, variance, true);
	ret = nn_task(ex, DRM_VNPU_OP_NORM_AXES, t, 3, &t[3], &at);
	if (!ret) {		/* the statistics outputs */
		task = &ex->tasks[ex->ntasks - 1];
		task->t[4] = t[4];
		task->t[5] = t[5];
		task->nout = 3;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnInstanceNorm)
