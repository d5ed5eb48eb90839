// SPDX-License-Identifier: MIT
/*
 * Lowering of the window and resampling operators the driver's N-d
 * operators take as ONNX defines them: pools other than the 2-D
 * symmetric ones aclnn covers (1-D and 3-D, asymmetric pads, the
 * indices output, GlobalMaxPool), 3-D and integer convolutions,
 * transposed convolutions other than plain 2-D, Resize / Upsample,
 * DepthToSpace / SpaceToDepth (one strided copy) and the linear
 * quantization operators.
 */
#include <string.h>

#include "infer_util.h"
#include "lower_int.h"

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

static int ints_or(const struct ir_node *n, const char *name, int64_t *v,
		   int count, int64_t def)
{
	const struct ir_attr *a = ir_attr(n, name);
	int i;

	for (i = 0; i < count; i++)
		v[i] = def;
	if (!a)
		return 0;
	if (a->kind != IR_ATTR_INTS || a->count != (size_t)count)
		return -1;
	memcpy(v, a->ints, sizeof(*v) * (size_t)count);
	return 0;
}

/* Views of the node's present inputs (up to max), then its outputs. */
static int views(struct lower *L, const struct ir_node *n, int max_in,
		 struct lw_view *v, uint32_t *nin, uint32_t *nout)
{
	int i;

	*nin = 0;
	for (i = 0; i < n->nin && i < max_in; i++) {
		if (n->inputs[i] < 0)
			continue;
		/* the operators number their inputs: no gaps */
		if ((int)*nin != i)
			return lw_fail(L, "input %d is given without input %u", i,
				       *nin);
		if (lw_ir_view(L, n->inputs[i], &v[*nin]))
			return -1;
		(*nin)++;
	}
	*nout = 0;
	for (i = 0; i < n->nout; i++) {
		if (n->outputs[i] < 0)
			break;
		if (lw_ir_view(L, n->outputs[i], &v[*nin + *nout]))
			return -1;
		(*nout)++;
	}
	return *nout ? 0 : lw_fail(L, "has no output");
}

/* Pads aclnn's 2-D pools take: symmetric, at most half the window. */
static bool pool_pads_aclnn(const struct ir_node *n, int sp)
{
	int64_t p[6], k[3];
	int i;

	if (ints_or(n, "pads", p, 2 * sp, 0) ||
	    ints_or(n, "kernel_shape", k, sp, 1))
		return false;
	for (i = 0; i < sp; i++)
		if (p[i] != p[i + sp] || 2 * p[i] > k[i])
			return false;
	return true;
}

/* What the aclnn 2-D pools do not cover goes to POOL_ND. */
static bool pool_needs_nd(const struct ir_node *n, const struct ir_tensor *x)
{
	int64_t d[2];

	if (is(n, "GlobalMaxPool"))
		return true;
	if (is(n, "GlobalAveragePool"))
		return x->rank != 4;
	if (x->rank != 4 || !ir_dtype_is_float(x->dtype) ||
	    (n->nout > 1 && n->outputs[1] >= 0) || !pool_pads_aclnn(n, 2))
		return true;
	if (is(n, "AveragePool") &&
	    (ints_or(n, "dilations", d, 2, 1) || d[0] != 1 || d[1] != 1))
		return true;
	return false;
}

static int lower_pool(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x = &L->g->tensors[n->inputs[0]];
	bool global = is(n, "GlobalMaxPool") || is(n, "GlobalAveragePool");
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];
	uint32_t nin, nout;
	int64_t k[3], s[3], d[3], p[6];
	int sp = x->rank - 2, i;

	if (sp < 1 || sp > 3)
		return lw_fail(L, "pools over 1 to 3 spatial dims");
	if (views(L, n, 1, v, &nin, &nout))
		return -1;
	if (global) {
		for (i = 0; i < sp; i++) {
			k[i] = x->dims[i + 2];
			s[i] = 1;
			d[i] = 1;
			p[i] = p[i + sp] = 0;
		}
	} else if (ints_or(n, "kernel_shape", k, sp, 1) ||
		   ints_or(n, "strides", s, sp, 1) ||
		   ints_or(n, "dilations", d, sp, 1) ||
		   ints_or(n, "pads", p, 2 * sp, 0)) {
		return lw_fail(L, "window attributes have the wrong length");
	}
	memset(&at, 0, sizeof(at));
	at.ints[0] = strstr(n->op_type, "Max") ? 0 : 1;
	at.ints[1] = ir_attr_int(n, "count_include_pad", 0) != 0;
	at.ints[3] = ir_attr_int(n, "storage_order", 0) != 0;
	for (i = 0; i < sp; i++) {
		at.ints[4 + i] = k[i];
		at.ints[7 + i] = s[i];
		at.ints[10 + i] = p[i];
		at.ints[13 + i] = p[i + sp];
		at.ints[16 + i] = d[i];
	}
	return lw_emit(L, DRM_VNPU_OP_POOL_ND, v, nin, nout, &at);
}

/* Conv of 3 spatial dims or ConvInteger; ConvTranspose but plain 2-D. */
static int lower_conv_nd(struct lower *L, const struct ir_node *n,
			 uint32_t op)
{
	const struct ir_tensor *x = &L->g->tensors[n->inputs[0]];
	struct drm_vnpu_op_attrs at;
	struct lw_view v[10];
	uint32_t nin, nout;
	int64_t s[3], d[3], p[6];
	int sp = x->rank - 2, i;

	if (sp < 1 || sp > 3)
		return lw_fail(L, "convolutions over 1 to 3 spatial dims");
	if (views(L, n, 9, v, &nin, &nout))
		return -1;
	if (ints_or(n, "strides", s, sp, 1) ||
	    ints_or(n, "dilations", d, sp, 1) || ints_or(n, "pads", p, 2 * sp, 0))
		return lw_fail(L, "strides, dilations or pads have the wrong length");
	memset(&at, 0, sizeof(at));
	for (i = 0; i < sp; i++) {
		at.ints[i] = s[i];
		at.ints[3 + i] = d[i];
		at.ints[6 + i] = p[i];
		at.ints[9 + i] = p[i + sp];
	}
	at.ints[13] = ir_attr_int(n, "group", 1);
	return lw_emit(L, op, v, nin, 1, &at);
}

static int lower_matmul_int(struct lower *L, const struct ir_node *n)
{
	struct lw_view v[9];
	uint32_t nin, nout;

	if (views(L, n, 8, v, &nin, &nout))
		return -1;
	if (is(n, "QLinearMatMul") && nin != 8)
		return lw_fail(L, "takes eight inputs");
	return lw_emit(L, is(n, "QLinearMatMul") ? DRM_VNPU_OP_QLINEAR_MATMUL :
		       DRM_VNPU_OP_MATMUL_INT, v, nin, 1, NULL);
}

static int str_index(const struct ir_node *n, const char *name,
		     const char *const *names, int def)
{
	const struct ir_attr *a = ir_attr(n, name);
	int i;

	if (!a || !a->s)
		return def;
	for (i = 0; names[i]; i++)
		if (!strcmp(a->s, names[i]))
			return i;
	return -1;
}

static int lower_resize(struct lower *L, const struct ir_node *n)
{
	static const char *const modes[] = { "nearest", "linear", "cubic", NULL };
	static const char *const coords[] = {
		"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
		"tf_half_pixel_for_nn", "tf_crop_and_resize", NULL,
	};
	static const char *const rounding[] = {
		"round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL,
	};
	const struct ir_graph *g = L->g;
	const struct ir_tensor *x = &g->tensors[n->inputs[0]];
	/* Upsample and Resize-10: asymmetric coordinates, floor */
	bool old = is(n, "Upsample") || g->opset < 11;
	int si = resize_scales_input(g, n), i;
	const struct ir_attr *sa = ir_attr(n, "scales");
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];
	uint32_t nin = 1;

	memset(&at, 0, sizeof(at));
	at.ints[0] = str_index(n, "mode", modes, 0);
	at.ints[1] = old ? 3 : str_index(n, "coordinate_transformation_mode",
					  coords, 0);
	at.ints[2] = old ? 2 : str_index(n, "nearest_mode", rounding, 0);
	at.ints[3] = ir_attr_int(n, "exclude_outside", 0) != 0;
	if (at.ints[0] < 0 || at.ints[1] < 0 || at.ints[2] < 0)
		return lw_fail(L, "unknown mode");
	lw_set_float(&at, 0, ir_attr_float(n, "cubic_coeff_a", -0.75f));
	lw_set_float(&at, 1, ir_attr_float(n, "extrapolation_value", 0.0f));
	/* ONNX computes coordinates with the scales given, not out / in */
	for (i = 0; i < x->rank && i < 8; i++) {
		float f = 0;
		uint32_t bits;

		if (is(n, "Upsample") && sa && sa->kind == IR_ATTR_FLOATS)
			f = sa->floats[i];
		else if (!(si == 2 && n->nin > 3 && n->inputs[3] >= 0 &&
			   ir_numel(&g->tensors[n->inputs[3]]) > 0) &&
			 n->nin > si && n->inputs[si] >= 0 &&
			 ir_is_const(g, n->inputs[si]))
			f = (float)ir_get_f64(&g->tensors[n->inputs[si]], i);
		memcpy(&bits, &f, sizeof(bits));
		at.ints[8 + i] = bits;
	}
	if (lw_ir_view(L, n->inputs[0], &v[0]))
		return -1;
	if (at.ints[1] == 5 && n->nin > 1 && n->inputs[1] >= 0 &&
	    ir_numel(&g->tensors[n->inputs[1]]) > 0) {
		if (lw_ir_view(L, n->inputs[1], &v[1]))
			return -1;
		nin = 2;
	}
	if (lw_ir_view(L, n->outputs[0], &v[nin]))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_RESIZE_ND, v, nin, 1, &at);
}

/*
 * DepthToSpace / SpaceToDepth as one copy between a 6-D view of the input
 * and the output's: DCR reads x as [N, b, b, C', H, W], CRD as
 * [N, C', b, b, H, W], written to out as [N, C', H, b, W, b].
 */
static int lower_depth_space(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x = &L->g->tensors[n->inputs[0]];
	int64_t b = ir_attr_int(n, "blocksize", 1), N = x->dims[0];
	const struct ir_attr *ma = ir_attr(n, "mode");
	bool crd = ma && ma->s && !strcmp(ma->s, "CRD");
	bool to_space = is(n, "DepthToSpace");
	struct lw_view v[2], *dv, *sv;
	int64_t C, H, W, sh[6], st[6];
	int i;

	if (lw_ir_view(L, n->inputs[0], &v[0]) ||
	    lw_ir_view(L, n->outputs[0], &v[1]))
		return -1;
	/* the deep side (channels C' * b * b) and the wide side */
	dv = to_space ? &v[0] : &v[1];
	sv = to_space ? &v[1] : &v[0];
	C = sv->t.shape[1];
	H = dv->t.shape[2];
	W = dv->t.shape[3];
	/* wide side as [N, C', H, b, W, b] */
	sh[0] = N; sh[1] = C; sh[2] = H; sh[3] = b; sh[4] = W; sh[5] = b;
	st[5] = 1; st[4] = b; st[3] = W * b; st[2] = b * W * b;
	st[1] = H * b * W * b; st[0] = C * st[1];
	for (i = 0; i < 6; i++) {
		sv->t.shape[i] = sh[i];
		sv->t.strides[i] = st[i];
	}
	sv->t.rank = 6;
	/* deep side, dims in the wide side's order */
	dv->t.shape[0] = N;
	dv->t.strides[0] = C * b * b * H * W;
	dv->t.shape[1] = C;
	dv->t.strides[1] = (crd ? b * b : 1) * H * W;
	dv->t.shape[2] = H;
	dv->t.strides[2] = W;
	dv->t.shape[3] = b;
	dv->t.strides[3] = (crd ? b : b * C) * H * W;
	dv->t.shape[4] = W;
	dv->t.strides[4] = 1;
	dv->t.shape[5] = b;
	dv->t.strides[5] = (crd ? 1 : C) * H * W;
	dv->t.rank = 6;
	/* SpaceToDepth is the inverse with DCR order */
	if (!to_space && crd)
		return lw_fail(L, "SpaceToDepth has no mode");
	return lw_emit(L, DRM_VNPU_OP_STRIDED_COPY, v, 1, 1, NULL);
}

static int lower_quant(struct lower *L, const struct ir_node *n, uint32_t op)
{
	const struct ir_tensor *x = &L->g->tensors[n->inputs[0]];
	struct drm_vnpu_op_attrs at;
	struct lw_view v[4];
	uint32_t nin, nout;
	int axis;
	int64_t a = ir_attr_int(n, "axis", 1);

	if (views(L, n, 3, v, &nin, &nout))
		return -1;
	axis = (int)(a < 0 ? a + x->rank : a);
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	/* scalars as one-element vectors */
	if (v[1].t.rank == 0) {
		v[1].t.rank = 1;
		v[1].t.shape[0] = 1;
		v[1].t.strides[0] = 1;
	}
	if (nin == 3 && v[2].t.rank == 0) {
		v[2].t.rank = 1;
		v[2].t.shape[0] = 1;
		v[2].t.strides[0] = 1;
	}
	return lw_emit(L, op, v, nin, nout, &at);
}

/*
 * MaxUnpool's indices address the tensor the pool read, whose size the
 * window gives; output_shape may only make the output larger. Fills
 * @at with that size; -1 when the output is that size anyway.
 */
static int unpool_index_space(const struct ir_node *n,
			      const struct ir_tensor *x,
			      struct drm_vnpu_op_attrs *at)
{
	int64_t k[6], s[6], p[12];
	int sp = x->rank - 2, i;

	if (n->nin < 3 || n->inputs[2] < 0 || sp > 6 ||
	    ints_or(n, "kernel_shape", k, sp, 1) ||
	    ints_or(n, "strides", s, sp, 1) || ints_or(n, "pads", p, 2 * sp, 0))
		return -1;
	memset(at, 0, sizeof(*at));
	for (i = 0; i < sp; i++)
		at->ints[i] = (x->dims[i + 2] - 1) * s[i] + k[i] - p[i] - p[i + sp];
	return 0;
}

static int lower_grid_sample(struct lower *L, const struct ir_node *n)
{
	static const char *const modes[] = { "bilinear", "nearest", "bicubic", NULL };
	static const char *const pads[] = { "zeros", "border", "reflection", NULL };
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];
	uint32_t nin, nout;

	if (views(L, n, 2, v, &nin, &nout))
		return -1;
	memset(&at, 0, sizeof(at));
	at.ints[0] = str_index(n, "mode", modes, 0);
	at.ints[1] = str_index(n, "padding_mode", pads, 0);
	at.ints[2] = ir_attr_int(n, "align_corners", 0) != 0;
	if (at.ints[0] < 0 || at.ints[1] < 0)
		return lw_fail(L, "unknown mode");
	return lw_emit(L, DRM_VNPU_OP_GRID_SAMPLE, v, nin, 1, &at);
}

static int lower_roi_align(struct lower *L, const struct ir_node *n)
{
	const struct ir_attr *cm = ir_attr(n, "coordinate_transformation_mode");
	const struct ir_attr *md = ir_attr(n, "mode");
	struct drm_vnpu_op_attrs at;
	struct lw_view v[4];
	uint32_t nin, nout;

	if (views(L, n, 3, v, &nin, &nout))
		return -1;
	if (nin != 3)
		return lw_fail(L, "takes three inputs");
	memset(&at, 0, sizeof(at));
	at.ints[0] = md && md->s && !strcmp(md->s, "max");
	at.ints[1] = ir_attr_int(n, "sampling_ratio", 0);
	/* opset 16's default is half_pixel; opset 10 knew only the other */
	at.ints[2] = cm && cm->s ? !strcmp(cm->s, "half_pixel") : L->g->opset >= 16;
	lw_set_float(&at, 0, ir_attr_float(n, "spatial_scale", 1.0f));
	return lw_emit(L, DRM_VNPU_OP_ROI_ALIGN, v, 3, 1, &at);
}

int lower_window(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x;

	if ((n->domain && *n->domain) || n->nin < 1 || n->inputs[0] < 0)
		return 1;
	x = &L->g->tensors[n->inputs[0]];
	if (is(n, "MaxPool") || is(n, "AveragePool") ||
	    is(n, "GlobalMaxPool") || is(n, "GlobalAveragePool"))
		return pool_needs_nd(n, x) ? lower_pool(L, n) : 1;
	if (is(n, "ConvInteger") || (is(n, "Conv") && x->rank == 5))
		return lower_conv_nd(L, n, DRM_VNPU_OP_CONV_ND);
	if (is(n, "QLinearConv"))
		return lower_conv_nd(L, n, DRM_VNPU_OP_QLINEAR_CONV_ND);
	if (is(n, "MatMulInteger") || is(n, "QLinearMatMul"))
		return lower_matmul_int(L, n);
	if (is(n, "ConvTranspose") && (x->rank != 4 || ir_attr(n, "output_shape")))
		return lower_conv_nd(L, n, DRM_VNPU_OP_CONV_TRANSPOSE_ND);
	if (is(n, "Resize") || is(n, "Upsample"))
		return lower_resize(L, n);
	if (is(n, "DepthToSpace") || is(n, "SpaceToDepth"))
		return lower_depth_space(L, n);
	if (is(n, "MaxUnpool")) {
		struct drm_vnpu_op_attrs at;
		struct lw_view v[3];
		uint32_t nin, nout;

		if (views(L, n, 2, v, &nin, &nout))
			return -1;
		return lw_emit(L, DRM_VNPU_OP_MAX_UNPOOL, v, 2, 1,
			       unpool_index_space(n, x, &at) ? NULL : &at);
	}
	if (is(n, "GridSample"))
		return lower_grid_sample(L, n);
	if (is(n, "RoiAlign"))
		return lower_roi_align(L, n);
	if (is(n, "QuantizeLinear"))
		return lower_quant(L, n, DRM_VNPU_OP_QUANTIZE_LINEAR);
	if (is(n, "DequantizeLinear"))
		return lower_quant(L, n, DRM_VNPU_OP_DEQUANTIZE_LINEAR);
	if (is(n, "DynamicQuantizeLinear"))
		return lower_quant(L, n, DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR);
	return 1;
}
