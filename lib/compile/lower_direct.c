// SPDX-License-Identifier: MIT
/*
 * Conv, ConvTranspose and Gemm built as driver tasks directly: aclnnConvolution takes
 * symmetric pads only and neither it nor aclnnAddmm has a parameter for a
 * fused activation or for Gemm's transposes, while the driver's CONV and
 * GEMM tasks take all of ONNX's attributes as they are.
 */
#include <string.h>

#include "lower_int.h"

static int ints_attr(const struct ir_node *n, const char *name, int64_t *v,
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
	for (i = 0; i < count; i++)
		v[i] = a->ints[i];
	return 0;
}

/* ONNX auto_pad SAME_UPPER/SAME_LOWER/VALID turned into explicit pads. */
static int auto_pads(struct lower *L, const struct ir_node *n, int sp,
		     const int64_t *in, const int64_t *k, const int64_t *s,
		     const int64_t *d, int64_t *pads)
{
	const struct ir_attr *a = ir_attr(n, "auto_pad");
	int i;

	if (!a || !a->s || !strcmp(a->s, "NOTSET"))
		return 0;
	if (!strcmp(a->s, "VALID")) {
		memset(pads, 0, 2 * (size_t)sp * sizeof(*pads));
		return 0;
	}
	if (strcmp(a->s, "SAME_UPPER") && strcmp(a->s, "SAME_LOWER"))
		return lw_fail(L, "auto_pad '%s' is not an ONNX value", a->s);
	for (i = 0; i < sp; i++) {
		int64_t o = (in[i] + s[i] - 1) / s[i];
		int64_t tot = (o - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in[i];

		if (tot < 0)
			tot = 0;
		pads[i] = !strcmp(a->s, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
		pads[i + sp] = tot - pads[i];
	}
	return 0;
}

static int operands(struct lower *L, const struct ir_node *n, int max_in,
		    struct lw_view *v, uint32_t *nin)
{
	int i, dt;

	*nin = 0;
	for (i = 0; i < n->nin && i < max_in; i++) {
		if (n->inputs[i] < 0)
			continue;
		if (lw_ir_view(L, n->inputs[i], &v[*nin]))
			return -1;
		(*nin)++;
	}
	if (n->nout != 1 || n->outputs[0] < 0)
		return lw_fail(L, "expects one output");
	if (lw_ir_view(L, n->outputs[0], &v[*nin]))
		return -1;
	dt = (int)v[*nin].t.dtype;
	for (i = 0; i < (int)*nin; i++)
		if ((int)v[i].t.dtype != dt)
			return lw_fail(L, "operand %d has dtype %u, the output %d",
				       i, v[i].t.dtype, dt);
	return 0;
}

static int fused_act(struct lower *L, const struct ir_node *n,
		     struct drm_vnpu_op_attrs *at)
{
	if (n->act.kind == DRM_VNPU_ACT_RELU) {
		at->ints[DRM_VNPU_ATTR_ACT] = DRM_VNPU_ACT_RELU;
	} else if (n->act.kind == DRM_VNPU_ACT_CLIP) {
		if (!(n->act.lo <= n->act.hi))
			return lw_fail(L, "clip bounds %g > %g", n->act.lo,
				       n->act.hi);
		at->ints[DRM_VNPU_ATTR_ACT] = DRM_VNPU_ACT_CLIP;
		lw_set_float(at, DRM_VNPU_ATTR_ACT_LO, n->act.lo);
		lw_set_float(at, DRM_VNPU_ATTR_ACT_HI, n->act.hi);
	} else if (n->act.kind) {
		return lw_fail(L, "unknown fused activation %d", n->act.kind);
	}
	return 0;
}

static int lower_conv(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	int64_t s[2], d[2], pads[4], k[2], in[2];
	struct lw_view v[4];
	uint32_t nin, rank;
	int sp, i;

	if (operands(L, n, 3, v, &nin))
		return -1;
	rank = v[0].t.rank;
	if (nin < 2 || (rank != 3 && rank != 4) || v[1].t.rank != rank)
		return lw_fail(L, "only 1-D and 2-D convolutions (NCL, NCHW) are supported");
	sp = (int)rank - 2;
	for (i = 0; i < sp; i++) {
		in[i] = v[0].t.shape[2 + i];
		k[i] = v[1].t.shape[2 + i];
	}
	if (ints_attr(n, "strides", s, sp, 1) ||
	    ints_attr(n, "dilations", d, sp, 1) ||
	    ints_attr(n, "pads", pads, 2 * sp, 0))
		return lw_fail(L, "strides, dilations or pads have the wrong length");
	if (auto_pads(L, n, sp, in, k, s, d, pads))
		return -1;
	memset(&at, 0, sizeof(at));
	if (sp == 2) {
		at.ints[0] = s[0];
		at.ints[1] = s[1];
		at.ints[2] = pads[0];	/* ONNX: begins (top, left), then ends */
		at.ints[3] = pads[1];
		at.ints[4] = pads[2];
		at.ints[5] = pads[3];
		at.ints[6] = d[0];
		at.ints[7] = d[1];
	} else {
		at.ints[0] = s[0];
		at.ints[2] = pads[0];
		at.ints[4] = pads[1];
		at.ints[6] = d[0];
	}
	at.ints[8] = ir_attr_int(n, "group", 1);
	if (fused_act(L, n, &at))
		return -1;
	return lw_emit(L, sp == 2 ? DRM_VNPU_OP_CONV2D : DRM_VNPU_OP_CONV1D,
		       v, nin, 1, &at);
}

static int lower_conv_transpose(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	int64_t s[2], d[2], pads[4], op[2];
	struct lw_view v[4];
	uint32_t nin;

	if (operands(L, n, 3, v, &nin))
		return -1;
	if (nin < 2 || v[0].t.rank != 4 || v[1].t.rank != 4)
		return lw_fail(L, "only 2-D transposed convolutions (NCHW) are supported");
	if (ir_attr(n, "output_shape") ||
	    (ir_attr(n, "auto_pad") && ir_attr(n, "auto_pad")->s &&
	     strcmp(ir_attr(n, "auto_pad")->s, "NOTSET")))
		return lw_fail(L, "output_shape and auto_pad are not supported: give pads");
	if (ints_attr(n, "strides", s, 2, 1) ||
	    ints_attr(n, "dilations", d, 2, 1) ||
	    ints_attr(n, "pads", pads, 4, 0) ||
	    ints_attr(n, "output_padding", op, 2, 0))
		return lw_fail(L, "strides, dilations, pads or output_padding have the wrong length");
	memset(&at, 0, sizeof(at));
	at.ints[0] = s[0];
	at.ints[1] = s[1];
	at.ints[2] = pads[0];
	at.ints[3] = pads[1];
	at.ints[4] = pads[2];
	at.ints[5] = pads[3];
	at.ints[6] = d[0];
	at.ints[7] = d[1];
	at.ints[8] = ir_attr_int(n, "group", 1);
	at.ints[9] = op[0];
	at.ints[10] = op[1];
	if (fused_act(L, n, &at))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_CONV_TRANSPOSE2D, v, nin, 1, &at);
}

static int lower_gemm(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[4];
	uint32_t nin;

	if (operands(L, n, 3, v, &nin))
		return -1;
	if (nin < 2 || v[0].t.rank != 2 || v[1].t.rank != 2)
		return lw_fail(L, "Gemm takes two matrices");
	memset(&at, 0, sizeof(at));
	at.ints[0] = ir_attr_int(n, "transA", 0) != 0;
	at.ints[1] = ir_attr_int(n, "transB", 0) != 0;
	lw_set_float(&at, 0, ir_attr_float(n, "alpha", 1.0f));
	lw_set_float(&at, 1, ir_attr_float(n, "beta", 1.0f));
	if (fused_act(L, n, &at))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_GEMM, v, nin, 1, &at);
}

int lower_direct(struct lower *L, const struct ir_node *n)
{
	if (n->domain && *n->domain)
		return 1;
	if (!strcmp(n->op_type, "Conv"))
		return lower_conv(L, n);
	if (!strcmp(n->op_type, "ConvTranspose"))
		return lower_conv_transpose(L, n);
	if (!strcmp(n->op_type, "Gemm"))
		return lower_gemm(L, n);
	return 1;
}
