// SPDX-License-Identifier: MIT
/*
 * Inference of resampling and quantization: Resize and Upsample,
 * DepthToSpace / SpaceToDepth, QuantizeLinear, DequantizeLinear,
 * DynamicQuantizeLinear and the integer matrix products.
 */
#include <math.h>
#include <string.h>

#include "infer_util.h"

/* Where Resize / Upsample keep their scales (and sizes: opset 11 on). */
int resize_scales_input(const struct ir_graph *g, const struct ir_node *n)
{
	return strcmp(n->op_type, "Resize") || g->opset < 11 ? 1 : 2;
}

INFER(resize)
{
	const struct ir_tensor *x = IN(0);
	int64_t dims[IR_MAX_RANK];
	int i, si = resize_scales_input(g, n);
	const struct ir_attr *sa = ir_attr(n, "scales");

	memcpy(dims, x->dims, sizeof(dims));
	if (!strcmp(n->op_type, "Upsample") && sa && sa->kind == IR_ATTR_FLOATS) {
		/* Upsample-7 carries its scales as an attribute */
		if (sa->count != (size_t)x->rank)
			return NERR(n, "scales has %zu values for rank %d",
				    sa->count, x->rank);
		for (i = 0; i < x->rank; i++)
			dims[i] = (int64_t)floor((double)x->dims[i] * sa->floats[i]);
	} else if (si == 2 && HAS_IN(3) && ir_numel(IN(3)) > 0) {
		int c = ir_const_ints(g, n->inputs[3], dims, IR_MAX_RANK);

		if (c < 0)
			return NERR(n, "sizes (%s) must be a constant after folding",
				    IN(3)->name);
		if (c != x->rank)
			return NERR(n, "sizes has %d values for rank %d", c, x->rank);
	} else if (HAS_IN(si) && ir_is_const(g, n->inputs[si]) &&
		   ir_numel(IN(si)) == x->rank) {
		for (i = 0; i < x->rank; i++) {
			double s = ir_get_f64(IN(si), i);

			if (!(s > 0) || s > 1e6)
				return NERR(n, "scale %d is %g", i, s);
			dims[i] = (int64_t)floor((double)x->dims[i] * s);
		}
	} else {
		/* a graph input of scales: ask for its value at compile time */
		if (HAS_IN(si) && ir_numel(IN(si)) > 0)
			ir_need_value(g, n->inputs[si]);
		return NERR(n, "needs constant scales or sizes with one value per dim");
	}
	for (i = 0; i < x->rank; i++)
		if (dims[i] < 1)
			return NERR(n, "output dim %d would be %lld", i,
				    (long long)dims[i]);
	return set_out(g, n, 0, x->dtype, x->rank, dims);
}

/* DepthToSpace and SpaceToDepth: [N, C, H, W] by blocksize. */
INFER(depth_space)
{
	const struct ir_tensor *x = IN(0);
	int64_t b = ir_attr_int(n, "blocksize", 0), dims[4];
	bool to_space = !strcmp(n->op_type, "DepthToSpace");

	if (x->rank != 4 || b < 1 || b > (1 << 16))
		return NERR(n, "needs a 4-D input and a blocksize >= 1");
	if (to_space ? x->dims[1] % (b * b) :
		       x->dims[2] % b || x->dims[3] % b)
		return NERR(n, "dims of %s do not divide by the blocksize %lld",
			    x->name, (long long)b);
	dims[0] = x->dims[0];
	if (to_space) {
		dims[1] = x->dims[1] / (b * b);
		dims[2] = x->dims[2] * b;
		dims[3] = x->dims[3] * b;
	} else {
		dims[1] = x->dims[1] * b * b;
		dims[2] = x->dims[2] / b;
		dims[3] = x->dims[3] / b;
	}
	return set_out(g, n, 0, x->dtype, 4, dims);
}

/* Scale and zero point: one value, or one per index of the axis. */
static int qparams(struct ir_graph *g, struct ir_node *n, char *err,
		   size_t errlen)
{
	const struct ir_tensor *x = IN(0), *s = IN(1);
	int axis;

	if (!ir_dtype_is_float(s->dtype))
		return NERR(n, "the scale must be a float tensor");
	if (HAS_IN(2) && ir_numel(IN(2)) != ir_numel(s))
		return NERR(n, "scale and zero point differ in size");
	if (ir_numel(s) == 1 && s->rank <= 1)
		return 0;
	if (norm_axis(n, ir_attr_int(n, "axis", 1), x->rank, &axis, err,
		      errlen))
		return -1;
	if (s->rank != 1 || s->dims[0] != x->dims[axis])
		return NERR(n, "per-axis scale needs %lld values",
			    (long long)x->dims[axis]);
	return 0;
}

INFER(quantize)
{
	int dt = HAS_IN(2) ? IN(2)->dtype : DT_UINT8;

	if (!ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "quantizes a float tensor");
	if (dt != DT_UINT8 && dt != DT_INT8)
		return NERR(n, "quantizes to int8 or uint8");
	if (qparams(g, n, err, errlen))
		return -1;
	return set_out(g, n, 0, dt, IN(0)->rank, IN(0)->dims);
}

INFER(dequantize)
{
	int dt = IN(0)->dtype;

	if (dt != DT_UINT8 && dt != DT_INT8 && dt != DT_INT32)
		return NERR(n, "dequantizes int8, uint8 or int32");
	if (HAS_IN(2) && IN(2)->dtype != dt)
		return NERR(n, "the zero point's type is not the input's");
	if (qparams(g, n, err, errlen))
		return -1;
	return set_out(g, n, 0, IN(1)->dtype, IN(0)->rank, IN(0)->dims);
}

INFER(dynamic_quantize)
{
	int64_t one = 1;

	if (IN(0)->dtype != DT_FLOAT)
		return NERR(n, "quantizes a float32 tensor");
	if (n->nout != 3)
		return NERR(n, "has three outputs");
	if (set_out(g, n, 0, DT_UINT8, IN(0)->rank, IN(0)->dims) ||
	    set_out(g, n, 1, DT_FLOAT, 0, &one) ||
	    set_out(g, n, 2, DT_UINT8, 0, &one))
		return NERR(n, "out of memory");
	return 0;
}

/* MatMulInteger and QLinearMatMul: 8-bit operands, batch dims broadcast. */
INFER(matmul_integer)
{
	bool qlinear = !strcmp(n->op_type, "QLinearMatMul");
	const struct ir_tensor *a = IN(0), *b = IN(qlinear ? 3 : 1);
	int64_t dims[IR_MAX_RANK];
	int r = a->rank > b->rank ? a->rank : b->rank, i;

	if ((a->dtype != DT_INT8 && a->dtype != DT_UINT8) ||
	    (b->dtype != DT_INT8 && b->dtype != DT_UINT8))
		return NERR(n, "multiplies int8 or uint8 matrices");
	if (a->rank < 2 || b->rank < 2)
		return NERR(n, "needs operands of rank 2 or more");
	if (a->dims[a->rank - 1] != b->dims[b->rank - 2])
		return NERR(n, "inner dims %lld and %lld differ",
			    (long long)a->dims[a->rank - 1],
			    (long long)b->dims[b->rank - 2]);
	for (i = 0; i < r - 2; i++) {
		int64_t ad = i + a->rank >= r ? a->dims[i + a->rank - r] : 1;
		int64_t bd = i + b->rank >= r ? b->dims[i + b->rank - r] : 1;

		if (ad != bd && ad != 1 && bd != 1)
			return NERR(n, "batch dims %lld and %lld do not broadcast",
				    (long long)ad, (long long)bd);
		dims[i] = ad == 1 ? bd : ad;
	}
	dims[r - 2] = a->dims[a->rank - 2];
	dims[r - 1] = b->dims[b->rank - 1];
	if (qlinear && IN(7)->dtype != DT_INT8 && IN(7)->dtype != DT_UINT8)
		return NERR(n, "y_zero_point must be int8 or uint8");
	return set_out(g, n, 0, qlinear ? IN(7)->dtype : DT_INT32, r, dims);
}

/* MaxUnpool: (x, indices, [output_shape]) -> the pooled input's size. */
INFER(max_unpool)
{
	const struct ir_tensor *x = IN(0);
	int64_t dims[IR_MAX_RANK], k[IR_MAX_RANK - 2], s[IR_MAX_RANK - 2];
	int64_t p[2 * (IR_MAX_RANK - 2)];
	const struct ir_attr *ka = ir_attr(n, "kernel_shape");
	const struct ir_attr *sa = ir_attr(n, "strides");
	const struct ir_attr *pa = ir_attr(n, "pads");
	int sp = x->rank - 2, i;

	if (sp < 1 || IN(1)->dtype != DT_INT64 || IN(1)->rank != x->rank)
		return NERR(n, "needs N, C, spatial dims and INT64 indices of x's shape");
	for (i = 0; i < x->rank; i++)
		if (IN(1)->dims[i] != x->dims[i])
			return NERR(n, "indices differ from x in dim %d", i);
	if (HAS_IN(2)) {
		int c = ir_const_ints(g, n->inputs[2], dims, IR_MAX_RANK);

		if (c < 0)
			return NERR(n, "output_shape (%s) must be a constant after folding",
				    IN(2)->name);
		if (c != x->rank || dims[0] != x->dims[0] || dims[1] != x->dims[1])
			return NERR(n, "output_shape needs %d values with x's N and C",
				    x->rank);
		return set_out(g, n, 0, x->dtype, x->rank, dims);
	}
	if (!ka || ka->kind != IR_ATTR_INTS || ka->count != (size_t)sp ||
	    (sa && (sa->kind != IR_ATTR_INTS || sa->count != (size_t)sp)) ||
	    (pa && (pa->kind != IR_ATTR_INTS || pa->count != 2 * (size_t)sp)))
		return NERR(n, "kernel_shape, strides or pads have the wrong length");
	for (i = 0; i < sp; i++) {
		k[i] = ka->ints[i];
		s[i] = sa ? sa->ints[i] : 1;
		p[i] = pa ? pa->ints[i] : 0;
		p[i + sp] = pa ? pa->ints[i + sp] : 0;
		if (k[i] < 1 || s[i] < 1 || k[i] > (1 << 20) || s[i] > (1 << 20))
			return NERR(n, "kernel and strides must be in 1 .. 2^20");
	}
	dims[0] = x->dims[0];
	dims[1] = x->dims[1];
	for (i = 0; i < sp; i++) {
		dims[i + 2] = (x->dims[i + 2] - 1) * s[i] + k[i] - p[i] - p[i + sp];
		if (dims[i + 2] < 1)
			return NERR(n, "the output would be empty in spatial dim %d", i);
	}
	return set_out(g, n, 0, x->dtype, x->rank, dims);
}

/* GridSample: x [N, C, H, W], grid [N, Ho, Wo, 2] -> [N, C, Ho, Wo]. */
INFER(grid_sample)
{
	const struct ir_tensor *x = IN(0), *gr = IN(1);
	int64_t dims[4];

	if (x->rank != 4 || gr->rank != 4 || gr->dims[3] != 2 ||
	    gr->dims[0] != x->dims[0])
		return NERR(n, "needs x [N, C, H, W] and grid [N, Ho, Wo, 2]");
	if (!ir_dtype_is_float(x->dtype) || !ir_dtype_is_float(gr->dtype))
		return NERR(n, "samples float tensors");
	dims[0] = x->dims[0];
	dims[1] = x->dims[1];
	dims[2] = gr->dims[1];
	dims[3] = gr->dims[2];
	return set_out(g, n, 0, x->dtype, 4, dims);
}

/* RoiAlign: (x [N, C, H, W], rois [R, 4], batch_indices [R]). */
INFER(roi_align)
{
	const struct ir_tensor *x = IN(0), *r = IN(1), *b = IN(2);
	int64_t dims[4];

	if (x->rank != 4 || r->rank != 2 || r->dims[1] != 4 || b->rank != 1 ||
	    b->dims[0] != r->dims[0] || b->dtype != DT_INT64)
		return NERR(n, "needs x [N, C, H, W], rois [R, 4] and INT64 indices [R]");
	if (!ir_dtype_is_float(x->dtype) || !ir_dtype_is_float(r->dtype))
		return NERR(n, "x and rois must be float tensors");
	dims[0] = r->dims[0];
	dims[1] = x->dims[1];
	dims[2] = ir_attr_int(n, "output_height", 1);
	dims[3] = ir_attr_int(n, "output_width", 1);
	if (dims[2] < 1 || dims[3] < 1 || dims[2] > (1 << 20) || dims[3] > (1 << 20))
		return NERR(n, "output_height and output_width must be in 1 .. 2^20");
	return set_out(g, n, 0, x->dtype, 4, dims);
}
