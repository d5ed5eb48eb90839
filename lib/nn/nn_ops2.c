/* SPDX-License-Identifier: MIT */
/*
 * More aclnn operators: convolution, pooling, normalisation, reductions
 * and data movement. Same scheme as nn_ops.c: phase 1 validates the
 * arguments and builds KERNEL tasks in an executor, phase 2 (nn_launch)
 * queues them.
 */
#include <stdlib.h>
#include <string.h>

#include "nn.h"
#include "nn_ops_common.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_sort.h"

#define BAD(...) acl_fail_at(func, ACLNN_ERR_PARAM_INVALID, __VA_ARGS__)

static bool dims_are(const aclTensor *t, uint64_t n, const int64_t *d)
{
	return t->ndim == n && !memcmp(t->dims, d, n * sizeof(int64_t));
}

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

/* A 2-D convolution (CONV2D or CONV_TRANSPOSE2D) reported as func. */
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
	struct nn_ref in[3], o;
	aclOpExecutor *ex;
	aclDataType dt;

	CHECK_T(input);
	CHECK_T(weight);
	if (bias)
		CHECK_T(bias);
	CHECK_T(output);
	NEED(workspaceSize);
	NEED(executor);
	dt = input->dtype;
	if (!nn_dtype_is_float(dt) || weight->dtype != dt || output->dtype != dt ||
	    (bias && bias->dtype != dt))
		return BAD("convolution takes one float dtype for all tensors");
	if (input->ndim != 4 || weight->ndim != 4 || (bias && bias->ndim != 1))
		return BAD("input and weight must be 4-D (NCHW), bias 1-D");
	if (!pair(stride, 1, &sh, &sw) || !pair(padding, 0, &ph, &pw) ||
	    !pair(dilation, 1, &dh, &dw) ||
	    (transposed && !pair(outputPadding, 0, &oph, &opw)))
		return BAD("stride, padding, dilation take 1 or 2 values");
	if (sh < 1 || sw < 1 || dh < 1 || dw < 1 || ph < 0 || pw < 0 ||
	    groups < 1 || oph < 0 || opw < 0 || input->dims[1] % groups)
		return BAD("bad stride, padding, dilation or groups");
	shape[0] = input->dims[0];
	if (!transposed) {
		if (weight->dims[1] * groups != input->dims[1] ||
		    weight->dims[0] % groups)
			return BAD("weight [%lld, %lld, ...] does not fit %lld input channels in %lld groups",
				   (long long)weight->dims[0],
				   (long long)weight->dims[1],
				   (long long)input->dims[1], (long long)groups);
		shape[1] = weight->dims[0];
		shape[2] = (input->dims[2] + 2 * ph - dh * (weight->dims[2] - 1) - 1) / sh + 1;
		shape[3] = (input->dims[3] + 2 * pw - dw * (weight->dims[3] - 1) - 1) / sw + 1;
	} else {
		if (weight->dims[0] != input->dims[1])
			return BAD("transposed weight must be [cin, cout / groups, kh, kw]");
		shape[1] = weight->dims[1] * groups;
		shape[2] = (input->dims[2] - 1) * sh - 2 * ph + dh * (weight->dims[2] - 1) + oph + 1;
		shape[3] = (input->dims[3] - 1) * sw - 2 * pw + dw * (weight->dims[3] - 1) + opw + 1;
	}
	if (shape[2] < 1 || shape[3] < 1)
		return BAD("the output would be empty");
	if (bias && bias->dims[0] != shape[1])
		return BAD("bias has %lld elements, not %lld",
			   (long long)bias->dims[0], (long long)shape[1]);
	if (!dims_are(output, 4, shape))
		return BAD("output must be [%lld, %lld, %lld, %lld]",
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
	in[0] = nn_bind_tensor(ex, input, false);
	in[1] = nn_bind_tensor(ex, weight, false);
	if (bias)
		in[2] = nn_bind_tensor(ex, bias, false);
	o = nn_bind_tensor(ex, output, true);
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
	if (!dims_are(output, 3, shape))
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
	int64_t kh, kw, sh, sw, ph, pw, dh, dw, shape[4];
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
	if (self->ndim != 4)
		return BAD("self must be 4-D (NCHW)");
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
	shape[0] = self->dims[0];
	shape[1] = self->dims[1];
	shape[2] = pool_out(self->dims[2], kh, sh, ph, dh, ceil);
	shape[3] = pool_out(self->dims[3], kw, sw, pw, dw, ceil);
	if (shape[2] < 1 || shape[3] < 1)
		return BAD("the output would be empty");
	if (!dims_are(out, 4, shape))
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
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
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
	const char *func = __func__;

	(void)cubeMathType;
	if (divisorOverride)
		return BAD("divisorOverride is not supported (must be 0)");
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
	if (self->ndim != 4)
		return BAD("self must be 4-D (NCHW)");
	if (!pair(outputSize, 0, &oh, &ow) || oh < 1 || ow < 1)
		return BAD("outputSize takes 1 or 2 positive values");
	shape[0] = self->dims[0];
	shape[1] = self->dims[1];
	shape[2] = oh;
	shape[3] = ow;
	if (!dims_are(out, 4, shape))
		return BAD("out must be [N, C, %lld, %lld]", (long long)oh,
			   (long long)ow);
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnAdaptiveAvgPool2d)

/* ------------------------------------------------------ normalisation -- */

static aclnnStatus norm_param(const char *func, const aclTensor *t,
			      const aclTensor *x, uint64_t from, const char *name)
{
	if (t->dtype != x->dtype)
		return BAD("%s must have self's dtype", name);
	if (t->ndim != x->ndim - from ||
	    memcmp(t->dims, x->dims + from, t->ndim * sizeof(int64_t)))
		return BAD("%s must have the normalised shape", name);
	return ACLNN_SUCCESS;
}

/* A stats output: a float tensor of input's rank, normalised dims 1. */
static aclnnStatus ln_stat_check(const char *func, const aclTensor *t,
				 const aclTensor *x, uint64_t from,
				 const char *name)
{
	int64_t shape[NN_MAX_RANK];
	uint64_t i;

	if (!nn_dtype_is_float(t->dtype))
		return BAD("%s must have a float dtype", name);
	for (i = 0; i < x->ndim; i++)
		shape[i] = i < from ? x->dims[i] : 1;
	if (!dims_are(t, x->ndim, shape))
		return BAD("%s must have input's shape with the normalised dims 1",
			   name);
	return ACLNN_SUCCESS;
}

/*
 * mean = E[x] and rstd = 1 / sqrt(E[(x - mean)^2] + eps) over the dims
 * from `from` on, composed from REDUCE_MEAN and elementwise tasks in FLOAT
 * (kept dims broadcast back against x), then cast into the outputs.
 */
static int ln_stats(aclOpExecutor *ex, struct nn_ref x, uint64_t from,
		    float eps, const struct nn_ref *mean, const struct nn_ref *rstd)
{
	struct drm_vnpu_op_attrs red = { 0 }, one = { 0 }, fill = { 0 };
	struct nn_ref m, in[2], diff, sq, var, ve;
	int64_t shape[NN_MAX_RANK];
	uint32_t i;
	int ret;

	for (i = 0; i < x.rank; i++)
		shape[i] = i < from ? x.shape[i] : 1;
	red.ints[0] = (int64_t)(((1ull << x.rank) - 1) & ~((1ull << from) - 1));
	red.ints[1] = 1;	/* keepdim */
	nn_set_float(&one, 0, 1.0f);
	nn_set_float(&fill, 0, eps);
	x = nn_cast(ex, x, ACL_FLOAT);
	m = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	ret = nn_task(ex, DRM_VNPU_OP_REDUCE_MEAN, &x, 1, &m, &red);
	if (!ret && mean)
		ret = nn_task(ex, DRM_VNPU_OP_CAST, &m, 1, mean, NULL);
	if (ret || !rstd)
		return ret;
	in[0] = x;
	in[1] = m;
	diff = nn_ws(ex, ACL_FLOAT, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_SUB, in, 2, &diff, &one);
	in[0] = in[1] = diff;
	sq = nn_ws(ex, ACL_FLOAT, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &sq, &one);
	var = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_REDUCE_MEAN, &sq, 1, &var, &red);
	in[0] = var;
	in[1] = nn_ws(ex, ACL_FLOAT, 0, NULL);
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &fill);
	ve = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &ve, &one);
	/* Failures above mark the executor; nn_finish reports them. */
	return nn_task_to_out(ex, DRM_VNPU_OP_RSQRT, &ve, 1, *rstd, ACL_FLOAT,
			      NULL);
}

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input,
					   const aclIntArray *normalizedShape,
					   const aclTensor *weightOptional,
					   const aclTensor *biasOptional,
					   double eps, aclTensor *out,
					   aclTensor *meanOutOptional,
					   aclTensor *rstdOutOptional,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], o, mean, rstd;
	const int64_t *ns;
	aclOpExecutor *ex;
	uint64_t n, from, nin = 1;
	aclnnStatus st;
	int ret;

	CHECK_T(input);
	CHECK_T(out);
	NEED(normalizedShape);
	NEED(workspaceSize);
	NEED(executor);
	if (weightOptional)
		CHECK_T(weightOptional);
	if (biasOptional)
		CHECK_T(biasOptional);
	if (meanOutOptional)
		CHECK_T(meanOutOptional);
	if (rstdOutOptional)
		CHECK_T(rstdOutOptional);
	if (!nn_dtype_is_float(input->dtype) || out->dtype != input->dtype)
		return BAD("input and out must have one float dtype");
	ns = nn_int_array(normalizedShape, &n);
	if (!n || n > input->ndim ||
	    memcmp(ns, input->dims + input->ndim - n, n * sizeof(int64_t)))
		return BAD("normalizedShape must be input's trailing dims");
	from = input->ndim - n;
	if (weightOptional &&
	    (st = norm_param(func, weightOptional, input, from, "weight")))
		return st;
	if (biasOptional &&
	    (st = norm_param(func, biasOptional, input, from, "bias")))
		return st;
	if (biasOptional && !weightOptional)
		return BAD("a bias needs a weight");
	if (!dims_are(out, input->ndim, input->dims))
		return BAD("out must have input's shape");
	if (meanOutOptional && (st = ln_stat_check(func, meanOutOptional,
						   input, from, "meanOut")))
		return st;
	if (rstdOutOptional && (st = ln_stat_check(func, rstdOutOptional,
						   input, from, "rstdOut")))
		return st;
	at.ints[0] = (int64_t)from;
	nn_set_float(&at, 0, (float)eps);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, input, false);
	if (weightOptional)
		in[nin++] = nn_bind_tensor(ex, weightOptional, false);
	if (biasOptional)
		in[nin++] = nn_bind_tensor(ex, biasOptional, false);
	o = nn_bind_tensor(ex, out, true);
	if (meanOutOptional)
		mean = nn_bind_tensor(ex, meanOutOptional, true);
	if (rstdOutOptional)
		rstd = nn_bind_tensor(ex, rstdOutOptional, true);
	ret = nn_task(ex, DRM_VNPU_OP_LAYER_NORM, in, nin, &o, &at);
	if (!ret && (meanOutOptional || rstdOutOptional))
		ret = ln_stats(ex, in[0], from, (float)eps,
			       meanOutOptional ? &mean : NULL,
			       rstdOutOptional ? &rstd : NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnLayerNorm)

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x,
					 const aclTensor *gamma,
					 double epsilon, const aclTensor *yOut,
					 const aclTensor *rstdOut,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	aclnnStatus st;

	CHECK_T(x);
	CHECK_T(gamma);
	CHECK_T(yOut);
	NEED(workspaceSize);
	NEED(executor);
	if (rstdOut)
		return BAD("rstdOut is not supported (pass NULL)");
	if (!nn_dtype_is_float(x->dtype) || yOut->dtype != x->dtype)
		return BAD("x and yOut must have one float dtype");
	if (!gamma->ndim || gamma->ndim > x->ndim)
		return BAD("gamma must have x's trailing dims");
	if ((st = norm_param(func, gamma, x, x->ndim - gamma->ndim, "gamma")))
		return st;
	if (!dims_are(yOut, x->ndim, x->dims))
		return BAD("yOut must have x's shape");
	at.ints[0] = (int64_t)(x->ndim - gamma->ndim);
	nn_set_float(&at, 0, (float)epsilon);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, x, false);
	in[1] = nn_bind_tensor(ex, gamma, false);
	o = nn_bind_tensor(ex, yOut, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_RMS_NORM, in, 2, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnRmsNorm)

/* --------------------------------------------------------- reductions -- */

/* Axis bit mask of dims (empty or NULL: all), and the reduced shape. */
static aclnnStatus reduce_plan(const char *func, const aclTensor *self,
			       const int64_t *dims, uint64_t nd, bool keep,
			       const aclTensor *out, int64_t *mask)
{
	int64_t r = (int64_t)self->ndim, shape[NN_MAX_RANK];
	uint64_t i, n = 0;

	*mask = 0;
	for (i = 0; i < nd; i++) {
		int64_t d = dims[i] < 0 ? dims[i] + r : dims[i];

		if (d < 0 || d >= r || (*mask & (1LL << d)))
			return BAD("dim %lld is out of range or repeated",
				   (long long)dims[i]);
		*mask |= 1LL << d;
	}
	if (!nd)
		*mask = r ? (1LL << r) - 1 : 0;
	for (i = 0; i < (uint64_t)r; i++) {
		if (!(*mask & (1LL << i)))
			shape[n++] = self->dims[i];
		else if (keep)
			shape[n++] = 1;
	}
	if (!dims_are(out, n, shape))
		return BAD("out does not have the reduced shape");
	return ACLNN_SUCCESS;
}

static aclnnStatus reduce(const char *func, uint32_t op, const aclTensor *self,
			  const int64_t *dims, uint64_t nd, bool keep,
			  uint32_t cdt, const aclTensor *out,
			  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o;
	aclOpExecutor *ex;
	int64_t mask;
	aclnnStatus st;

	if ((st = reduce_plan(func, self, dims, nd, keep, out, &mask)))
		return st;
	at.ints[0] = mask;
	at.ints[1] = keep;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	if (op == DRM_VNPU_OP_ARGMAX)
		return nn_finish(func, ex, nn_task(ex, op, &in, 1, &o, &at),
			      workspaceSize, executor);
	in = nn_cast(ex, in, cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, op, &in, 1, o, cdt, &at),
		      workspaceSize, executor);
}

#define REDUCE_ARGS(func)						\
	CHECK_T(self);							\
	CHECK_T(out);							\
	NEED(workspaceSize);						\
	NEED(executor);							\
	dv = nn_int_array(dim, &nd)

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self,
					   const aclIntArray *dim, bool keepDim,
					   aclDataType dtype, aclTensor *out,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	const char *func = __func__;
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (!nn_dtype_size(dtype) || dtype == ACL_BOOL || out->dtype != dtype)
		return BAD("out must have dtype %d, a numeric device dtype",
			   (int)dtype);
	return reduce(func, DRM_VNPU_OP_REDUCE_SUM, self, dv, nd, keepDim,
		      dtype, out, workspaceSize, executor);
}
LAUNCH(aclnnReduceSum)

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dim, bool keepDim,
				      aclDataType dtype, aclTensor *out,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	const char *func = __func__;
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (!nn_dtype_is_float(dtype) || out->dtype != dtype)
		return BAD("out must have dtype %d, a float dtype", (int)dtype);
	return reduce(func, DRM_VNPU_OP_REDUCE_MEAN, self, dv, nd, keepDim,
		      dtype, out, workspaceSize, executor);
}
LAUNCH(aclnnMean)

static aclnnStatus minmax(const char *func, uint32_t op, const aclTensor *self,
			  const aclIntArray *dim, bool keepDim,
			  const aclTensor *out, uint64_t *workspaceSize,
			  aclOpExecutor **executor)
{
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	return reduce(func, op, self, dv, nd, keepDim, self->dtype, out,
		      workspaceSize, executor);
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dim, bool keepDim,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	return minmax(__func__, DRM_VNPU_OP_REDUCE_MAX, self, dim, keepDim, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnAmax)

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dim, bool keepDim,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	return minmax(__func__, DRM_VNPU_OP_REDUCE_MIN, self, dim, keepDim, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnAmin)

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
					bool keepdim, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	const char *func = __func__;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (out->dtype != ACL_INT64)
		return BAD("out must be INT64");
	if (self->dtype == ACL_BOOL)
		return BAD("self must not be BOOL");
	if (!self->ndim)
		return BAD("self must have at least one dim");
	return reduce(func, DRM_VNPU_OP_ARGMAX, self, &dim, 1, keepdim,
		      ACL_INT64, out, workspaceSize, executor);
}
LAUNCH(aclnnArgMax)

/* ------------------------------------------------------ data movement -- */

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self,
					 const aclIntArray *dims,
					 aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK], strides[NN_MAX_RANK];
	struct nn_ref in, o;
	const int64_t *p;
	aclOpExecutor *ex;
	uint64_t n, i, seen = 0;

	CHECK_T(self);
	CHECK_T(out);
	NEED(dims);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(dims, &n);
	if (n != self->ndim)
		return BAD("dims has %llu entries for a rank-%llu tensor",
			   (unsigned long long)n,
			   (unsigned long long)self->ndim);
	for (i = 0; i < n; i++) {
		int64_t d = p[i] < 0 ? p[i] + (int64_t)n : p[i];

		if (d < 0 || d >= (int64_t)n || (seen & (1ull << d)))
			return BAD("dims is not a permutation");
		seen |= 1ull << d;
		shape[i] = self->dims[d];
	}
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	if (!dims_are(out, n, shape))
		return BAD("out does not have the permuted shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	for (i = 0; i < n; i++) {
		int64_t d = p[i] < 0 ? p[i] + (int64_t)n : p[i];

		strides[i] = in.strides[d];
	}
	memcpy(in.shape, shape, n * sizeof(int64_t));
	memcpy(in.strides, strides, n * sizeof(int64_t));
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnPermute)

/* Cat's tensors fit out: same rank and dims but d, which they sum to. */
static aclnnStatus cat_check(const char *func, const aclTensor *const *l,
			     uint64_t n, int64_t d, const aclTensor *out)
{
	uint64_t r = out->ndim, i, j;
	int64_t sum = 0;

	for (i = 0; i < n; i++) {
		CHECK_T(l[i]);
		if (l[i]->ndim != r)
			return BAD("tensor %llu has rank %llu, not %llu",
				   (unsigned long long)i,
				   (unsigned long long)l[i]->ndim,
				   (unsigned long long)r);
		for (j = 0; j < r; j++)
			if ((int64_t)j != d && l[i]->dims[j] != out->dims[j])
				return BAD("tensor %llu differs from out outside dim %lld",
					   (unsigned long long)i, (long long)d);
		if (l[i]->dtype == ACL_BOOL && out->dtype != ACL_BOOL)
			return BAD("BOOL tensors need a BOOL out");
		sum += l[i]->dims[d];
	}
	if (sum != out->dims[d])
		return BAD("out's dim %lld is %lld, not %lld", (long long)d,
			   (long long)out->dims[d], (long long)sum);
	return ACLNN_SUCCESS;
}

/*
 * CONCAT tasks of up to NN_MAX_TT - 1 inputs each, every one writing the
 * slice of o along d its inputs cover (a sub-view at an element offset).
 */
static int cat_tasks(aclOpExecutor *ex, struct nn_ref *in, uint64_t n,
		     int64_t d, struct nn_ref o)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t at_d = 0;
	uint64_t i = 0, k, j;
	int ret = 0;

	at.ints[0] = d;
	while (i < n && !ret) {
		struct nn_ref part = o;

		k = n - i < NN_MAX_TT - 1 ? n - i : NN_MAX_TT - 1;
		part.shape[d] = 0;
		for (j = i; j < i + k; j++)
			part.shape[d] += in[j].shape[d];
		part.off += at_d * o.strides[d];
		at_d += part.shape[d];
		ret = nn_task(ex, DRM_VNPU_OP_CONCAT, in + i, (uint32_t)k, &part,
			      &at);
		i += k;
	}
	return ret;
}

/* Any number of tensors: one CONCAT task per NN_MAX_TT - 1 of them. */
aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim,
				     aclTensor *out, uint64_t *workspaceSize,
				     aclOpExecutor **executor)
{
	const char *func = __func__;
	const aclTensor *const *l;
	struct nn_ref *in, o;
	aclOpExecutor *ex;
	aclnnStatus st;
	int64_t r, d;
	uint64_t n, i;
	int ret;

	NEED(tensors);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	l = nn_tensor_list(tensors, &n);
	if (!n)
		return BAD("cat takes at least one tensor");
	r = (int64_t)out->ndim;
	d = dim < 0 ? dim + r : dim;
	if (d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if ((st = cat_check(func, l, n, d, out)))
		return st;
	NEW_EX(ex);
	in = malloc(n * sizeof(*in));
	if (!in) {
		nn_exec_free(ex);
		return acl_fail_at(func, ACLNN_ERR_INNER, "out of memory");
	}
	for (i = 0; i < n; i++)
		in[i] = nn_bind_tensor(ex, l[i], false);
	o = nn_bind_tensor(ex, out, true);
	for (i = 0; i < n; i++)
		in[i] = nn_cast(ex, in[i], out->dtype);
	ret = cat_tasks(ex, in, n, d, o);
	free(in);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnCat)

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef,
						   const aclScalar *value,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	aclOpExecutor *ex;
	struct nn_ref o;

	CHECK_T(selfRef);
	NEED(value);
	NEED(workspaceSize);
	NEED(executor);
	if (nn_dtype_is_float(selfRef->dtype))
		nn_set_float(&at, 0, value->is_float ? (float)value->v.f :
			  (float)value->v.i);
	else if (value->is_float && !nn_dtype_is_float(selfRef->dtype))
		return BAD("a float value cannot fill an integer tensor");
	else
		at.ints[0] = selfRef->dtype == ACL_BOOL ? !!value->v.i : value->v.i;
	NEW_EX(ex);
	o = nn_bind_tensor(ex, selfRef, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnInplaceFillScalar)

/* selfRef = src, src broadcast to selfRef's shape and cast to its dtype. */
aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef,
					     const aclTensor *src,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	const char *func = __func__;
	struct nn_ref in, o;
	aclOpExecutor *ex;
	uint64_t r, k, i;

	CHECK_T(selfRef);
	CHECK_T(src);
	NEED(workspaceSize);
	NEED(executor);
	r = selfRef->ndim;
	k = src->ndim;
	if (k > r)
		return BAD("src has a higher rank than selfRef");
	for (i = 0; i < k; i++)
		if (src->dims[i] != 1 && src->dims[i] != selfRef->dims[r - k + i])
			return BAD("src does not broadcast to selfRef's shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, src, false);
	o = nn_bind_tensor(ex, selfRef, true);
	/* Broadcast by stride 0: leading dims first, then size-1 dims. */
	for (i = r; i-- > 0;) {
		if (i >= r - k) {
			uint64_t s = i - (r - k);

			in.shape[i] = selfRef->dims[i];
			in.strides[i] = src->dims[s] == 1 ? 0 : in.strides[s];
		} else {
			in.shape[i] = selfRef->dims[i];
			in.strides[i] = 0;
		}
	}
	in.rank = (uint32_t)r;
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_CAST, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnInplaceCopy)

/* ------------------------------------------ slicing, indexing, padding -- */

static int64_t wrap_dim(int64_t dim, int64_t rank)
{
	return dim < 0 ? dim + rank : dim;
}

/* self[..., start:end:step, ...] along dim (start and end clamped). */
aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim,
				       int64_t start, int64_t end, int64_t step,
				       aclTensor *out, uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r, d, n, len, shape[NN_MAX_RANK];
	struct nn_ref in, o;
	aclOpExecutor *ex;
	uint64_t i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = wrap_dim(dim, r);
	if (d < 0 || d >= r || r > 8)
		return BAD("dim %lld is out of range", (long long)dim);
	if (step < 1)
		return BAD("step must be positive");
	n = self->dims[d];
	start = start < 0 ? start + n : start;
	end = end < 0 ? end + n : end;
	start = start < 0 ? 0 : start > n ? n : start;
	end = end < start ? start : end > n ? n : end;
	len = (end - start + step - 1) / step;
	memcpy(shape, self->dims, r * sizeof(int64_t));
	shape[d] = len;
	if (out->dtype != self->dtype || !dims_are(out, r, shape))
		return BAD("out must have self's dtype and the sliced shape");
	for (i = 0; i < (uint64_t)r; i++)
		at.ints[8 + i] = 1;
	at.ints[d] = start;
	at.ints[8 + d] = step;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_SLICE, &in, 1, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnSlice)

static bool index_dtype(aclDataType dt)
{
	return dt == ACL_INT32 || dt == ACL_INT64;
}

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, const int64_t dim,
					const aclTensor *index, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o;
	aclOpExecutor *ex;
	int64_t r, d;
	uint64_t i;

	CHECK_T(self);
	CHECK_T(index);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (!index_dtype(index->dtype))
		return BAD("index must be INT32 or INT64");
	if (index->ndim != self->ndim || out->dtype != self->dtype ||
	    !dims_are(out, index->ndim, index->dims))
		return BAD("index must have self's rank, out index's shape and self's dtype");
	for (i = 0; i < (uint64_t)r; i++)
		if ((int64_t)i != d && index->dims[i] > self->dims[i])
			return BAD("index is larger than self in dim %llu",
				   (unsigned long long)i);
	at.ints[0] = d;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, index, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_GATHER, in, 2, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnGather)

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim,
					     const aclTensor *index,
					     aclTensor *out,
					     uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r, d, shape[NN_MAX_RANK];
	struct nn_ref in[2], o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(index);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (!index_dtype(index->dtype) || index->ndim > 1)
		return BAD("index must be a 1-D INT32 or INT64 tensor");
	memcpy(shape, self->dims, r * sizeof(int64_t));
	shape[d] = nn_numel(index);
	if (out->dtype != self->dtype || !dims_are(out, r, shape))
		return BAD("out must have self's dtype and shape with dim %lld of index's length",
			   (long long)d);
	at.ints[0] = d;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_bind_tensor(ex, index, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex,
		      nn_task(ex, DRM_VNPU_OP_INDEX_SELECT, in, 2, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnIndexSelect)

/* numpy broadcast of up to three shapes equals out? */
static bool bcast3(const aclTensor *a, const aclTensor *b, const aclTensor *c,
		   const aclTensor *out)
{
	const aclTensor *t[3] = { a, b, c };
	uint64_t r = out->ndim, i, j;

	for (j = 0; j < 3; j++)
		if (t[j]->ndim > r)
			return false;
	for (i = 0; i < r; i++) {
		int64_t want = 1;

		for (j = 0; j < 3; j++) {
			uint64_t k = r - t[j]->ndim;
			int64_t dd = i < k ? 1 : t[j]->dims[i - k];

			if (dd != 1) {
				if (want != 1 && want != dd)
					return false;
				want = dd;
			}
		}
		if (out->dims[i] != want)
			return false;
	}
	return true;
}

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition,
					const aclTensor *self,
					const aclTensor *other, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	const char *func = __func__;
	struct nn_ref in[3], o;
	aclOpExecutor *ex;

	CHECK_T(condition);
	CHECK_T(self);
	CHECK_T(other);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (condition->dtype != ACL_BOOL)
		return BAD("condition must be BOOL");
	if (!bcast3(condition, self, other, out))
		return BAD("condition, self and other do not broadcast to out's shape");
	if ((self->dtype == ACL_BOOL || other->dtype == ACL_BOOL) &&
	    out->dtype != ACL_BOOL)
		return BAD("BOOL operands need a BOOL out");
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, condition, false);
	in[1] = nn_bind_tensor(ex, self, false);
	in[2] = nn_bind_tensor(ex, other, false);
	o = nn_bind_tensor(ex, out, true);
	in[1] = nn_cast(ex, in[1], out->dtype);
	in[2] = nn_cast(ex, in[2], out->dtype);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_WHERE, in, 3, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnSWhere)

/* pad: (before, after) pairs from the last dim backwards, as in PyTorch. */
aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self,
					       const aclIntArray *pad,
					       const aclScalar *value,
					       aclTensor *out,
					       uint64_t *workspaceSize,
					       aclOpExecutor **executor)
{
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in, o;
	const int64_t *p;
	aclOpExecutor *ex;
	uint64_t n, r, i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(pad);
	NEED(value);
	NEED(workspaceSize);
	NEED(executor);
	p = nn_int_array(pad, &n);
	r = self->ndim;
	if (!r || r > 8 || n % 2 || n / 2 > r)
		return BAD("pad must hold (before, after) pairs for at most %llu dims",
			   (unsigned long long)r);
	memcpy(shape, self->dims, r * sizeof(int64_t));
	for (i = 0; i < n / 2; i++) {
		uint64_t d = r - 1 - i;

		if (p[2 * i] < 0 || p[2 * i + 1] < 0)
			return BAD("negative padding is not supported");
		at.ints[2 * d] = p[2 * i];
		at.ints[2 * d + 1] = p[2 * i + 1];
		shape[d] += p[2 * i] + p[2 * i + 1];
	}
	if (out->dtype != self->dtype || !dims_are(out, r, shape))
		return BAD("out must have self's dtype and the padded shape");
	at.ints[16] = 0;
	nn_set_float(&at, 0, value->is_float ? (float)value->v.f : (float)value->v.i);
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_PAD, &in, 1, &o, &at),
		      workspaceSize, executor);
}
LAUNCH(aclnnConstantPadNd)

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self,
					const aclIntArray *repeats,
					aclTensor *out, uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	const char *func = __func__;
	int64_t shape[NN_MAX_RANK];
	struct nn_ref in, o;
	const int64_t *rp;
	aclOpExecutor *ex;
	uint64_t n, k, i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(repeats);
	NEED(workspaceSize);
	NEED(executor);
	rp = nn_int_array(repeats, &n);
	k = self->ndim;
	if (n < k || !n || n > NN_MAX_RANK)
		return BAD("repeats needs at least self's rank (%llu) entries",
			   (unsigned long long)k);
	for (i = 0; i < n; i++) {
		int64_t d = i < n - k ? 1 : self->dims[i - (n - k)];

		if (rp[i] < 0)
			return BAD("repeats must not be negative");
		shape[i] = d * rp[i];
	}
	if (out->dtype != self->dtype || !dims_are(out, n, shape))
		return BAD("out must have self's dtype and the repeated shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	/* Leading size-1 dims so that x and out have one rank. */
	for (i = n; i-- > 0;) {
		if (i >= n - k) {
			in.shape[i] = in.shape[i - (n - k)];
			in.strides[i] = in.strides[i - (n - k)];
		} else {
			in.shape[i] = 1;
			in.strides[i] = 0;
		}
	}
	in.rank = (uint32_t)n;
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_TILE, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnRepeat)

/* ---------------------------------------------------- sorting, top-k -- */

static aclnnStatus sort_like(const char *func, uint32_t op, const aclTensor *self,
			     int64_t k, int64_t dim, bool largest, bool sorted,
			     const aclTensor *values, const aclTensor *indices,
			     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r, d, shape[NN_MAX_RANK];
	struct nn_ref in, o[2];
	aclOpExecutor *ex;
	struct nn_task *t;
	int ret;

	CHECK_T(self);
	CHECK_T(values);
	CHECK_T(indices);
	NEED(workspaceSize);
	NEED(executor);
	r = (int64_t)self->ndim;
	d = wrap_dim(dim, r);
	if (!r || d < 0 || d >= r)
		return BAD("dim %lld is out of range", (long long)dim);
	if (self->dtype == ACL_BOOL || values->dtype != self->dtype ||
	    indices->dtype != ACL_INT64)
		return BAD("values must have self's dtype, indices INT64");
	if (op == DRM_VNPU_OP_TOPK && (k < 0 || k > self->dims[d]))
		return BAD("k %lld is out of range", (long long)k);
	memcpy(shape, self->dims, r * sizeof(int64_t));
	if (op == DRM_VNPU_OP_TOPK)
		shape[d] = k;
	if (!dims_are(values, r, shape) || !dims_are(indices, r, shape))
		return BAD("values and indices must have the result's shape");
	at.ints[0] = d;
	if (op == DRM_VNPU_OP_TOPK) {
		at.ints[2] = largest;
		at.ints[3] = sorted;
	} else {
		at.ints[1] = largest;	/* descending */
	}
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o[0] = nn_bind_tensor(ex, values, true);
	o[1] = nn_bind_tensor(ex, indices, true);
	ret = nn_task(ex, op, &in, 1, &o[0], &at);
	if (!ret) {		/* the second output */
		t = &ex->tasks[ex->ntasks - 1];
		t->t[2] = o[1];
		t->nout = 2;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k,
				      int64_t dim, bool largest, bool sorted,
				      aclTensor *valuesOut, aclTensor *indicesOut,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	return sort_like(__func__, DRM_VNPU_OP_TOPK, self, k, dim, largest,
			 sorted, valuesOut, indicesOut, workspaceSize, executor);
}
LAUNCH(aclnnTopk)

/* Always stable. */
aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable,
				      int64_t dim, bool descending,
				      aclTensor *valuesOut, aclTensor *indicesOut,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	(void)stable;
	return sort_like(__func__, DRM_VNPU_OP_SORT, self, 0, dim, descending,
			 true, valuesOut, indicesOut, workspaceSize, executor);
}
LAUNCH(aclnnSort)

/* --------------------------------------------------------- batch norm -- */

/* A [C] vector viewed as [C, 1, ...] to broadcast against NC... */
static struct nn_ref chan_view(struct nn_ref r, uint32_t rank)
{
	uint32_t i;

	for (i = 1; i < rank - 1; i++) {
		r.shape[i] = 1;
		r.strides[i] = 0;
	}
	r.rank = rank - 1;
	return r;
}

/*
 * Inference only (training false): BATCH_NORM with the running statistics,
 * then MUL by weight and ADD bias (per channel) when given. saveMean and
 * saveInvstd must be NULL.
 */
aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input,
					   const aclTensor *weight,
					   const aclTensor *bias,
					   aclTensor *runningMean,
					   aclTensor *runningVar, bool training,
					   double momentum, double eps,
					   aclTensor *output, aclTensor *saveMean,
					   aclTensor *saveInvstd,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	const char *func = __func__;
	const aclTensor *vec[4] = { runningMean, runningVar, weight, bias };
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], w = { 0 }, b = { 0 }, o, cur;
	aclOpExecutor *ex;
	int ret, i;
	uint32_t r;

	(void)momentum;
	CHECK_T(input);
	CHECK_T(runningMean);
	CHECK_T(runningVar);
	CHECK_T(output);
	if (weight)
		CHECK_T(weight);
	if (bias)
		CHECK_T(bias);
	NEED(workspaceSize);
	NEED(executor);
	if (training)
		return BAD("training mode is not supported");
	if (saveMean || saveInvstd)
		return BAD("saveMean and saveInvstd are not supported (pass NULL)");
	if (!nn_dtype_is_float(input->dtype) || output->dtype != input->dtype)
		return BAD("input and output must have one float dtype");
	if (input->ndim < 2)
		return BAD("input must be at least 2-D (N, C, ...)");
	for (i = 0; i < 4; i++)
		if (vec[i] && (vec[i]->dtype != input->dtype ||
			       vec[i]->ndim != 1 ||
			       vec[i]->dims[0] != input->dims[1]))
			return BAD("running stats, weight and bias must be [C] of input's dtype");
	if (!dims_are(output, input->ndim, input->dims))
		return BAD("output must have input's shape");
	r = (uint32_t)input->ndim;
	nn_set_float(&at, 0, (float)eps);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, input, false);
	in[1] = nn_bind_tensor(ex, runningMean, false);
	in[2] = nn_bind_tensor(ex, runningVar, false);
	if (weight)
		w = chan_view(nn_bind_tensor(ex, weight, false), r);
	if (bias)
		b = chan_view(nn_bind_tensor(ex, bias, false), r);
	o = nn_bind_tensor(ex, output, true);
	cur = weight || bias ? nn_ws(ex, input->dtype, r, input->dims) : o;
	ret = nn_task(ex, DRM_VNPU_OP_BATCH_NORM, in, 3, &cur, &at);
	if (!ret && weight) {
		struct nn_ref m[2] = { cur, w };
		struct drm_vnpu_op_attrs one = { 0 };

		nn_set_float(&one, 0, 1.0f);
		cur = bias ? nn_ws(ex, input->dtype, r, input->dims) : o;
		ret = nn_task(ex, DRM_VNPU_OP_MUL, m, 2, &cur, &one);
	}
	if (!ret && bias) {
		struct nn_ref a[2] = { cur, b };
		struct drm_vnpu_op_attrs one = { 0 };

		nn_set_float(&one, 0, 1.0f);
		ret = nn_task(ex, DRM_VNPU_OP_ADD, a, 2, &o, &one);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnBatchNorm)
