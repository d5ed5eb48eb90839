/* SPDX-License-Identifier: MIT */
/*
 * Convolutions and pooling (the conv family): Convolution (also
 * transposed), ConvTbc, ConvDepthwise2d, MaxPool2d, AvgPool2d,
 * AdaptiveAvgPool2d.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "nn_pool.h"
#include "nn_conv_nd.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "../core/prof_rt.h"

/* A 1- or 2-element int array as (h, w); def when NULL or empty. */
static bool pair(const aclIntArray *a, int64_t def, int64_t *h, int64_t *w)
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

/* -------------------------------------------------------- convolution -- */

/* t's dims, a 3-D (N, C, L) one as (N, C, 1, L). */
static void nchw_of(const aclTensor *t, int64_t *d)
{
	if (t->ndim == 3) {
		d[0] = t->dims[0];
		d[1] = t->dims[1];
		d[2] = 1;
		d[3] = t->dims[2];
	} else {
		memcpy(d, t->dims, 4 * sizeof(int64_t));
	}
}

/* r (N, C, L) as (N, C, 1, L): an H of 1. */
static struct nn_ref h_of_one(struct nn_ref r)
{
	if (r.rank != 3)
		return r;
	r.shape[3] = r.shape[2];
	r.strides[3] = r.strides[2];
	r.shape[2] = 1;
	r.strides[2] = 0;
	r.rank = 4;
	return r;
}

/* A conv1d parameter: one value for W (none: def), H takes def. */
static bool one_of(const aclIntArray *a, int64_t def, int64_t *h, int64_t *w)
{
	const int64_t *v;
	uint64_t n = 0;

	v = a ? nn_int_array(a, &n) : NULL;
	if (n > 1)
		return false;
	*h = def;
	*w = n ? v[0] : def;
	return true;
}

/*
 * A 2-D convolution (CONV2D or CONV_TRANSPOSE2D) reported as func; a
 * 3-D input (conv1d, CANN's document) runs as a 2-D one with H 1.
 */
static aclnnStatus conv2d(const char *func, const aclTensor *input,
			  const aclTensor *weight, const aclTensor *bias,
			  const aclIntArray *stride, const aclIntArray *padding,
			  const aclIntArray *dilation, bool transposed,
			  const aclIntArray *outputPadding, int64_t groups,
			  const aclTensor *output, uint64_t *workspaceSize,
			  aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t sh, sw, ph, pw, dh, dw, oph = 0, opw = 0, shape[4];
	int64_t xd[4], wd[4];
	struct nn_ref in[3], o;
	aclOpExecutor *ex;
	aclDataType dt;
	bool c1;

	CHECK_T(input);
	CHECK_T(weight);
	if (bias)
		CHECK_T(bias);
	CHECK_T(output);
	NEED(workspaceSize);
	NEED(executor);
	if (input->ndim == 5)	/* 3-D: the N-d convolution */
		return nn_conv3d(func, input, weight, bias, stride, padding,
				 dilation, transposed, outputPadding, groups,
				 output, workspaceSize, executor);
	dt = input->dtype;
	if (!nn_dtype_is_float(dt) || weight->dtype != dt || output->dtype != dt ||
	    (bias && bias->dtype != dt))
		return BAD("convolution takes one float dtype for all tensors");
	c1 = input->ndim == 3;
	if ((input->ndim != 4 && !c1) || weight->ndim != input->ndim ||
	    (bias && bias->ndim != 1))
		return BAD("input and weight must be 4-D (NCHW) or 3-D (NCL), bias 1-D");
	if (c1 ? !one_of(stride, 1, &sh, &sw) || !one_of(padding, 0, &ph, &pw) ||
		 !one_of(dilation, 1, &dh, &dw) ||
		 (transposed && !one_of(outputPadding, 0, &oph, &opw)) :
	    !pair(stride, 1, &sh, &sw) || !pair(padding, 0, &ph, &pw) ||
	    !pair(dilation, 1, &dh, &dw) ||
	    (transposed && !pair(outputPadding, 0, &oph, &opw)))
		return BAD("stride, padding, dilation take 1 or 2 values (1 for a 3-D input)");
	nchw_of(input, xd);
	nchw_of(weight, wd);
	if (sh < 1 || sw < 1 || dh < 1 || dw < 1 || ph < 0 || pw < 0 ||
	    groups < 1 || oph < 0 || opw < 0 || xd[1] % groups)
		return BAD("bad stride, padding, dilation or groups");
	shape[0] = xd[0];
	if (!transposed) {
		if (wd[1] * groups != xd[1] ||
		    wd[0] % groups)
			return BAD("weight [%lld, %lld, ...] does not fit %lld input channels in %lld groups",
				   (long long)wd[0],
				   (long long)wd[1],
				   (long long)xd[1], (long long)groups);
		shape[1] = wd[0];
		shape[2] = (xd[2] + 2 * ph - dh * (wd[2] - 1) - 1) / sh + 1;
		shape[3] = (xd[3] + 2 * pw - dw * (wd[3] - 1) - 1) / sw + 1;
	} else {
		if (wd[0] != xd[1])
			return BAD("transposed weight must be [cin, cout / groups, kh, kw]");
		shape[1] = wd[1] * groups;
		shape[2] = (xd[2] - 1) * sh - 2 * ph + dh * (wd[2] - 1) + oph + 1;
		shape[3] = (xd[3] - 1) * sw - 2 * pw + dw * (wd[3] - 1) + opw + 1;
	}
	if (shape[2] < 1 || shape[3] < 1)
		return BAD("the output would be empty");
	if (bias && bias->dims[0] != shape[1])
		return BAD("bias has %lld elements, not %lld",
			   (long long)bias->dims[0], (long long)shape[1]);
	if (c1 ? !nn_dims_are(output, 3, (int64_t[]){ shape[0], shape[1], shape[3] }) :
	    !nn_dims_are(output, 4, shape))
		return BAD("output must be [%lld, %lld, %lld, %lld] (H dropped when 3-D)",
			   (long long)shape[0], (long long)shape[1],
			   (long long)shape[2], (long long)shape[3]);
	at.ints[0] = sh;
	at.ints[1] = sw;
	at.ints[2] = ph;
	at.ints[3] = pw;
	at.ints[4] = ph;
	at.ints[5] = pw;
	at.ints[6] = dh;
	at.ints[7] = dw;
	at.ints[8] = groups;
	at.ints[9] = oph;
	at.ints[10] = opw;
	NEW_EX(ex);
	in[0] = h_of_one(nn_bind_tensor(ex, input, false));
	in[1] = h_of_one(nn_bind_tensor(ex, weight, false));
	if (bias)
		in[2] = nn_bind_tensor(ex, bias, false);
	o = h_of_one(nn_bind_tensor(ex, output, true));
	return nn_finish(func, ex,
		      nn_task(ex, transposed ? DRM_VNPU_OP_CONV_TRANSPOSE2D :
			      DRM_VNPU_OP_CONV2D, in, bias ? 3 : 2, &o, &at),
		      workspaceSize, executor);
}

aclnnStatus aclnnConvolutionGetWorkspaceSize(
	const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
	const aclIntArray *stride, const aclIntArray *padding,
	const aclIntArray *dilation, bool transposed,
	const aclIntArray *outputPadding, const int64_t groups,
	aclTensor *output, int8_t cubeMathType, uint64_t *workspaceSize,
	aclOpExecutor **executor)
{
	PROF_API();
	(void)cubeMathType;
	return conv2d(__func__, input, weight, bias, stride, padding, dilation,
		      transposed, outputPadding, groups, output, workspaceSize,
		      executor);
}
LAUNCH(aclnnConvolution)

/* Dims (a, b, c) of a rank-3 view reordered as (b, c, a): TBC <-> NCL. */
static struct nn_ref rot3(struct nn_ref r, int a, int b, int c)
{
	struct nn_ref v = r;

	v.shape[0] = r.shape[a];
	v.shape[1] = r.shape[b];
	v.shape[2] = r.shape[c];
	v.strides[0] = r.strides[a];
	v.strides[1] = r.strides[b];
	v.strides[2] = r.strides[c];
	return v;
}

/*
 * torch.conv_tbc: self [T, B, Cin], weight [K, Cin, Cout], bias [Cout] ->
 * output [T + 2 pad - K + 1, B, Cout]. Tensors carry strides, so one
 * CONV1D on permuted views (NCL and [Cout, Cin, K]) does it, no copies.
 */
aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor *self,
					 const aclTensor *weight,
					 const aclTensor *bias, const int64_t pad,
					 aclTensor *output, int8_t cubeMathType,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], o;
	int64_t shape[3];
	aclOpExecutor *ex;
	aclDataType dt;

	(void)cubeMathType;
	CHECK_T(self);
	CHECK_T(weight);
	CHECK_T(bias);
	CHECK_T(output);
	NEED(workspaceSize);
	NEED(executor);
	dt = self->dtype;
	if (!nn_dtype_is_float(dt) || weight->dtype != dt ||
	    bias->dtype != dt || output->dtype != dt)
		return BAD("conv_tbc takes one float dtype for all tensors");
	if (self->ndim != 3 || weight->ndim != 3 || bias->ndim != 1)
		return BAD("self must be [T, B, Cin], weight [K, Cin, Cout], bias [Cout]");
	if (weight->dims[1] != self->dims[2] || bias->dims[0] != weight->dims[2])
		return BAD("weight [%lld, %lld, %lld] does not fit %lld input channels and bias [%lld]",
			   (long long)weight->dims[0], (long long)weight->dims[1],
			   (long long)weight->dims[2], (long long)self->dims[2],
			   (long long)bias->dims[0]);
	if (pad < 0 || weight->dims[0] < 1)
		return BAD("pad must not be negative, the kernel not empty");
	shape[0] = self->dims[0] + 2 * pad - weight->dims[0] + 1;
	shape[1] = self->dims[1];
	shape[2] = weight->dims[2];
	if (shape[0] < 1)
		return BAD("the output would be empty");
	if (!nn_dims_are(output, 3, shape))
		return BAD("output must be [%lld, %lld, %lld]", (long long)shape[0],
			   (long long)shape[1], (long long)shape[2]);
	at.ints[0] = 1;		/* stride */
	at.ints[2] = pad;
	at.ints[4] = pad;
	at.ints[6] = 1;		/* dilation */
	at.ints[8] = 1;		/* groups */
	NEW_EX(ex);
	in[0] = rot3(nn_bind_tensor(ex, self, false), 1, 2, 0);
	in[1] = rot3(nn_bind_tensor(ex, weight, false), 2, 1, 0);
	in[2] = nn_bind_tensor(ex, bias, false);
	o = rot3(nn_bind_tensor(ex, output, true), 1, 2, 0);
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_CONV1D, in, 3, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnConvTbc)

/*
 * Depthwise: groups = self's channels, weight [C * m, 1, kh, kw] with
 * kernelSize its (kh, kw); the rest is a grouped convolution.
 */
aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(
	const aclTensor *self, const aclTensor *weight,
	const aclIntArray *kernelSize, const aclTensor *bias,
	const aclIntArray *stride, const aclIntArray *padding,
	const aclIntArray *dilation, aclTensor *out, int8_t cubeMathType,
	uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t kh, kw;

	(void)cubeMathType;
	CHECK_T(self);
	CHECK_T(weight);
	CHECK_T(out);
	NEED(kernelSize);
	NEED(stride);
	NEED(padding);
	NEED(dilation);
	NEED(workspaceSize);
	NEED(executor);
	if (self->ndim != 4 || weight->ndim != 4)
		return BAD("self and weight must be 4-D (NCHW)");
	if (!self->dims[1] || weight->dims[1] != 1 ||
	    weight->dims[0] % self->dims[1])
		return BAD("weight must be [C * m, 1, kh, kw] for %lld channels",
			   (long long)self->dims[1]);
	if (!pair(kernelSize, 0, &kh, &kw) || kh != weight->dims[2] ||
	    kw != weight->dims[3])
		return BAD("kernelSize must be weight's (kh, kw)");
	return conv2d(func, self, weight, bias, stride, padding, dilation,
		      false, NULL, self->dims[1], out, workspaceSize, executor);
}
LAUNCH(aclnnConvDepthwise2d)

/* ------------------------------------------------------------ pooling -- */

static int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d,
			bool ceil)
{
	int64_t span = in + 2 * p - d * (k - 1) - 1, o;

	if (span < 0)
		return 0;
	o = (ceil ? (span + s - 1) / s : span / s) + 1;
	if (ceil && (o - 1) * s >= in + p)	/* last window starts in padding */
		o--;
	return o;
}

static aclnnStatus pool(const char *func, uint32_t op, const aclTensor *self,
			const aclIntArray *kernel, const aclIntArray *stride,
			const aclIntArray *padding, const aclIntArray *dilation,
			bool ceil, bool count_pad, const aclTensor *out,
			uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t kh, kw, sh, sw, ph, pw, dh, dw, shape[4], sd[4];
	struct nn_ref in, o;
	aclOpExecutor *ex;
	uint64_t n;

	CHECK_T(self);
	CHECK_T(out);
	NEED(kernel);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || out->dtype != self->dtype)
		return BAD("self and out must have one float dtype");
	if (!nn_nchw_dims(self, sd))
		return BAD("self must be (N, C, H, W) or (C, H, W)");
	nn_int_array(stride, &n);
	if (!pair(kernel, 0, &kh, &kw) || !pair(stride, 0, &sh, &sw) ||
	    !pair(padding, 0, &ph, &pw) || !pair(dilation, 1, &dh, &dw))
		return BAD("kernel, stride, padding, dilation take 1 or 2 values");
	if (!n) {		/* stride defaults to the kernel */
		sh = kh;
		sw = kw;
	}
	if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1 ||
	    ph < 0 || pw < 0 || 2 * ph > kh || 2 * pw > kw)
		return BAD("bad kernel, stride, padding or dilation");
	shape[0] = sd[0];
	shape[1] = sd[1];
	shape[2] = pool_out(sd[2], kh, sh, ph, dh, ceil);
	shape[3] = pool_out(sd[3], kw, sw, pw, dw, ceil);
	if (shape[2] < 1 || shape[3] < 1)
		return BAD("the output would be empty");
	if (!nn_dims_are(out, self->ndim, shape + 4 - self->ndim))
		return BAD("out must be [%lld, %lld, %lld, %lld]",
			   (long long)shape[0], (long long)shape[1],
			   (long long)shape[2], (long long)shape[3]);
	at.ints[0] = kh;
	at.ints[1] = kw;
	at.ints[2] = sh;
	at.ints[3] = sw;
	at.ints[4] = ph;
	at.ints[5] = pw;
	at.ints[6] = ph;
	at.ints[7] = pw;
	at.ints[8] = dh;
	at.ints[9] = dw;
	at.ints[10] = ceil;
	at.ints[11] = count_pad;
	NEW_EX(ex);
	in = nn_batch1(nn_bind_tensor(ex, self, false));
	o = nn_batch1(nn_bind_tensor(ex, out, true));
	return nn_finish(func, ex, nn_task(ex, op, &in, 1, &o, &at),
		      workspaceSize, executor);
}

aclnnStatus aclnnMaxPool2dGetWorkspaceSize(const aclTensor *self,
					   const aclIntArray *kernelSize,
					   const aclIntArray *stride,
					   const aclIntArray *padding,
					   const aclIntArray *dilation,
					   bool ceilMode, aclTensor *out,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	return pool(__func__, DRM_VNPU_OP_MAX_POOL2D, self, kernelSize, stride,
		    padding, dilation, ceilMode, false, out, workspaceSize,
		    executor);
}
LAUNCH(aclnnMaxPool2d)

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self,
					   const aclIntArray *kernelSize,
					   const aclIntArray *strides,
					   const aclIntArray *paddings,
					   bool ceilMode, bool countIncludePad,
					   int64_t divisorOverride,
					   int8_t cubeMathType, aclTensor *out,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	(void)cubeMathType;
	if (divisorOverride)	/* the N-d pool takes a divisor */
		return nn_pool2d_nd(func, false, self, kernelSize, strides,
				    paddings, NULL, ceilMode, countIncludePad,
				    divisorOverride, out, NULL, workspaceSize,
				    executor);
	return pool(func, DRM_VNPU_OP_AVG_POOL2D, self, kernelSize, strides,
		    paddings, NULL, ceilMode, countIncludePad, out,
		    workspaceSize, executor);
}
LAUNCH(aclnnAvgPool2d)

aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   aclTensor *out,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t oh, ow, shape[4];
	struct nn_ref in, o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(out);
	NEED(outputSize);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || out->dtype != self->dtype)
		return BAD("self and out must have one float dtype");
	if (!nn_nchw_dims(self, shape))
		return BAD("self must be (N, C, H, W) or (C, H, W)");
	if (!pair(outputSize, 0, &oh, &ow) || oh < 1 || ow < 1)
		return BAD("outputSize takes 1 or 2 positive values");
	shape[2] = oh;
	shape[3] = ow;
	if (!nn_dims_are(out, self->ndim, shape + 4 - self->ndim))
		return BAD("out must be [N, C, %lld, %lld] or [C, %lld, %lld]",
			   (long long)oh, (long long)ow, (long long)oh,
			   (long long)ow);
	NEW_EX(ex);
	in = nn_batch1(nn_bind_tensor(ex, self, false));
	o = nn_batch1(nn_bind_tensor(ex, out, true));
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnAdaptiveAvgPool2d)
