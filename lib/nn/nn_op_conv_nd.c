/* SPDX-License-Identifier: MIT */
/*
 * 3-D convolution (aclnnConvolution with a 5-D input), plain or
 * transposed, as one CONV_ND / CONV_TRANSPOSE_ND task; nn_op_conv.c
 * routes 5-D calls here.
 */
#include "nn_conv_nd.h"

#define CONV_LIMIT	(1 << 20)	/* any stride, pad, dilation, kernel */
#define DIM_LIMIT	(1LL << 31)	/* any dim: keeps the size sums in range */

static bool dims_small(const aclTensor *t)
{
	uint64_t i;

	for (i = 0; i < t->ndim; i++)
		if (t->dims[i] > DIM_LIMIT)
			return false;
	return true;
}

/* 1 or 3 values into v[3]; def when NULL or empty. */
static bool triple(const aclIntArray *a, int64_t def, int64_t *v)
{
	uint64_t n, i;
	const int64_t *p = nn_int_array(a, &n);

	if (n != 0 && n != 1 && n != 3)
		return false;
	for (i = 0; i < 3; i++)
		v[i] = n == 0 ? def : p[n == 1 ? 0 : i];
	return true;
}

aclnnStatus nn_conv3d(const char *func, const aclTensor *input,
		      const aclTensor *weight, const aclTensor *bias,
		      const aclIntArray *stride, const aclIntArray *padding,
		      const aclIntArray *dilation, bool transposed,
		      const aclIntArray *outputPadding, int64_t groups,
		      const aclTensor *output, uint64_t *workspaceSize,
		      aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t s[3], p[3], d[3], op[3] = { 0, 0, 0 }, shape[5];
	struct nn_ref in[3], o;
	aclOpExecutor *ex;
	aclDataType dt = input->dtype;
	int i;

	if (!nn_dtype_is_float(dt) || weight->dtype != dt || output->dtype != dt ||
	    (bias && bias->dtype != dt))
		return BAD("convolution takes one float dtype for all tensors");
	if (weight->ndim != 5 || (bias && bias->ndim != 1))
		return BAD("input and weight must be 5-D (NCDHW), bias 1-D");
	if (!dims_small(input) || !dims_small(weight))
		return BAD("a dim is larger than 2^31");
	if (!triple(stride, 1, s) || !triple(padding, 0, p) ||
	    !triple(dilation, 1, d) ||
	    (transposed && !triple(outputPadding, 0, op)))
		return BAD("stride, padding, dilation take 1 or 3 values");
	if (groups < 1 || groups > CONV_LIMIT || input->dims[1] % groups)
		return BAD("groups must divide the input channels");
	shape[0] = input->dims[0];
	if (!transposed) {
		if (weight->dims[1] * groups != input->dims[1] ||
		    weight->dims[0] % groups)
			return BAD("weight does not fit %lld input channels in %lld groups",
				   (long long)input->dims[1], (long long)groups);
		shape[1] = weight->dims[0];
	} else {
		if (weight->dims[0] != input->dims[1])
			return BAD("transposed weight must be [cin, cout / groups, kd, kh, kw]");
		shape[1] = weight->dims[1] * groups;
	}
	for (i = 0; i < 3; i++) {
		int64_t isz = input->dims[2 + i], k = weight->dims[2 + i];

		if (s[i] < 1 || d[i] < 1 || p[i] < 0 || op[i] < 0 ||
		    s[i] > CONV_LIMIT || d[i] > CONV_LIMIT || p[i] > CONV_LIMIT ||
		    k < 1 || k > CONV_LIMIT ||
		    (op[i] && op[i] >= s[i] && op[i] >= d[i]))
			return BAD("bad stride, padding, dilation or output padding");
		if (!transposed)
			shape[2 + i] = (isz + 2 * p[i] - d[i] * (k - 1) - 1) / s[i] + 1;
		else
			shape[2 + i] = (isz - 1) * s[i] - 2 * p[i] +
				       d[i] * (k - 1) + op[i] + 1;
		if (shape[2 + i] < 1 ||
		    (!transposed && isz + 2 * p[i] < d[i] * (k - 1) + 1))
			return BAD("the output would be empty");
		at.ints[0 + i] = s[i];
		at.ints[3 + i] = d[i];
		at.ints[6 + i] = p[i];
		at.ints[9 + i] = p[i];
	}
	at.ints[13] = groups;
	if (bias && bias->dims[0] != shape[1])
		return BAD("bias has %lld elements, not %lld",
			   (long long)bias->dims[0], (long long)shape[1]);
	if (!nn_dims_are(output, 5, shape))
		return BAD("output must be [%lld, %lld, %lld, %lld, %lld]",
			   (long long)shape[0], (long long)shape[1],
			   (long long)shape[2], (long long)shape[3],
			   (long long)shape[4]);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, input, false);
	in[1] = nn_bind_tensor(ex, weight, false);
	if (bias)
		in[2] = nn_bind_tensor(ex, bias, false);
	o = nn_bind_tensor(ex, output, true);
	return nn_finish(func, ex,
			 nn_task(ex, transposed ? DRM_VNPU_OP_CONV_TRANSPOSE_ND :
				 DRM_VNPU_OP_CONV_ND, in, bias ? 3 : 2, &o, &at),
			 workspaceSize, executor);
}
