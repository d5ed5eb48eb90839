/* SPDX-License-Identifier: MIT */
/*
 * 2-D pools on the driver's N-d pool (POOL_ND): MaxPool2dWithIndices, and
 * AvgPool2d with a divisor override (nn_op_conv.c calls nn_pool2d_nd).
 * Phase 1 checks the arguments and builds one KERNEL task; phase 2
 * (nn_launch) queues it.
 */
#include <string.h>

#include "nn_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "../core/prof_rt.h"

/* A 1- or 2-element int array as (h, w); def when NULL or empty. */
static bool hw(const aclIntArray *a, int64_t def, int64_t *h, int64_t *w)
{
	uint64_t n;
	const int64_t *v = nn_int_array(a, &n);

	if (n == 0) {
		*h = *w = def;
		return true;
	}
	if (n > 2)
		return false;
	*h = v[0];
	*w = v[n - 1];
	return true;
}

/* PyTorch's output size: the last window must start inside the input. */
static int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d,
			bool ceil)
{
	int64_t span = in + 2 * p - d * (k - 1) - 1, o;

	if (span < 0)
		return 0;
	o = (ceil ? (span + s - 1) / s : span / s) + 1;
	if (ceil && (o - 1) * s >= in + p)
		o--;
	return o;
}

aclnnStatus nn_pool2d_nd(const char *func, bool max, const aclTensor *self,
			 const aclIntArray *kernel, const aclIntArray *stride,
			 const aclIntArray *padding, const aclIntArray *dilation,
			 bool ceil, bool count_pad, int64_t divisor,
			 const aclTensor *out, const aclTensor *indices,
			 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t k[2], s[2], p[2], d[2], shape[4], sd[4];
	struct nn_ref in, o[2];
	aclOpExecutor *ex;
	uint64_t n;
	int i, ret;

	CHECK_T(self);
	CHECK_T(out);
	if (indices)
		CHECK_T(indices);
	NEED(kernel);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || out->dtype != self->dtype)
		return BAD("self and out must have one float dtype");
	if (indices && indices->dtype != ACL_INT32 && indices->dtype != ACL_INT64)
		return BAD("indices must be INT32 or INT64");
	if (!nn_nchw_dims(self, sd))	/* (C, H, W) a batch of one */
		return BAD("self must be (N, C, H, W) or (C, H, W)");
	nn_int_array(stride, &n);
	if (!hw(kernel, 0, &k[0], &k[1]) || !hw(stride, 0, &s[0], &s[1]) ||
	    !hw(padding, 0, &p[0], &p[1]) || !hw(dilation, 1, &d[0], &d[1]))
		return BAD("kernel, stride, padding, dilation take 1 or 2 values");
	if (!n) {		/* stride defaults to the kernel */
		s[0] = k[0];
		s[1] = k[1];
	}
	if (divisor < 0 || divisor > (1 << 20))
		return BAD("divisorOverride must be 0 (none) or positive");
	shape[0] = sd[0];
	shape[1] = sd[1];
	for (i = 0; i < 2; i++) {
		if (k[i] < 1 || s[i] < 1 || d[i] < 1 || p[i] < 0 ||
		    2 * p[i] > k[i] || k[i] > (1 << 20) || s[i] > (1 << 20) ||
		    d[i] > (1 << 20))
			return BAD("bad kernel, stride, padding or dilation");
		shape[2 + i] = out_size(sd[2 + i], k[i], s[i], p[i], d[i], ceil);
		if (shape[2 + i] < 1)
			return BAD("the output would be empty");
		at.ints[4 + i] = k[i];
		at.ints[7 + i] = s[i];
		at.ints[10 + i] = p[i];
		at.ints[13 + i] = p[i];
		at.ints[16 + i] = d[i];
	}
	if (!nn_dims_are(out, self->ndim, shape + 4 - self->ndim))
		return BAD("out must be [%lld, %lld, %lld, %lld] (N 1 for a 3-D self)",
			   (long long)shape[0], (long long)shape[1],
			   (long long)shape[2], (long long)shape[3]);
	if (indices && !nn_dims_are(indices, self->ndim, shape + 4 - self->ndim))
		return BAD("indices must have out's shape");
	at.ints[0] = max ? 0 : 1;
	at.ints[1] = count_pad;
	at.ints[2] = divisor;
	at.ints[19] = 1;	/* indices within the plane, as PyTorch */
	NEW_EX(ex);
	in = nn_batch1(nn_bind_tensor(ex, self, false));
	o[0] = nn_batch1(nn_bind_tensor(ex, out, true));
	ret = nn_task(ex, DRM_VNPU_OP_POOL_ND, &in, 1, &o[0], &at);
	if (!ret && indices) {	/* the second output, as aclnnTopk's */
		struct nn_task *t = &ex->tasks[ex->ntasks - 1];

		o[1] = nn_batch1(nn_bind_tensor(ex, indices, true));
		t->t[2] = o[1];
		t->nout = 2;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor *self,
						      const aclIntArray *kernelSize,
						      const aclIntArray *stride,
						      const aclIntArray *padding,
						      const aclIntArray *dilation,
						      bool ceilMode, aclTensor *out,
						      aclTensor *indices,
						      uint64_t *workspaceSize,
						      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	NEED(indices);
	return nn_pool2d_nd(func, true, self, kernelSize, stride, padding,
			    dilation, ceilMode, false, 0, out, indices,
			    workspaceSize, executor);
}
LAUNCH(aclnnMaxPool2dWithIndices)
