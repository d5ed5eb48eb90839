// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * CONV_ND and CONV_TRANSPOSE_ND: convolution over 1, 2 or 3 spatial dims
 * (N, C, D1 [, D2 [, D3]]) as direct loops, with groups, dilations and
 * asymmetric pads; the output view's size is the result size (so ONNX's
 * output_shape and output_padding need no attribute of their own).
 *
 * Floating-point operands take an optional bias and accumulate in double.
 * INT8/UINT8 operands (ONNX ConvInteger) take optional zero points of x
 * (one element) and of w (one, or one per output channel) instead,
 * accumulate exactly and write INT32.
 *
 * A piece is a run of output lines (all but the last output dim fixed).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"
#include "vnpu_nd_util.h"
#include "vnpu_gemm.h"

/**
 * struct cnd_plan - a convolution, decoded
 * @iw: input index of w
 * @ixzp: input index of x's zero point (0: none)
 * @iwzp: input index of w's zero point (0: none)
 * @ibias: input index of the bias (0: none)
 * @quant: QLINEAR_CONV_ND: requantize the sums
 * @sp: spatial dims
 * @transpose: CONV_TRANSPOSE_ND
 * @integer: INT8/UINT8 operands, INT32 output
 * @has_bias: a float bias is present
 * @xzp: x's zero point (integer)
 * @groups: groups
 * @cig: input channels per group
 * @cog: output channels per group
 * @co: output channels
 * @s: stride per spatial dim
 * @dl: dilation
 * @pb: pads at the start
 * @k: kernel size
 * @in: input size
 * @out: output size
 * @work: multiply-adds of one output element
 * @split: the pieces, runs of output lines
 * @act: fused activation (floats)
 */
struct cnd_plan {
	u32 iw, ixzp, iwzp, ibias;
	bool quant;
	u32 sp;
	bool transpose, integer, has_bias;
	s64 xzp, groups, cig, cog, co;
	s64 s[3], dl[3], pb[3], k[3], in[3], out[3];
	s64 work;
	struct vnpu_nd_split split;
	struct vnpu_act act;
};

static bool cnd_int_dtype(u32 dt)
{
	return dt == DRM_VNPU_DTYPE_INT8 || dt == DRM_VNPU_DTYPE_UINT8;
}

/* A tensor of one element, or of @n (per output channel). */
static bool cnd_param(const struct vnpu_tview *v, u64 n)
{
	return v->rank <= 1 && (vnpu_tview_elems(v) == 1 ||
				vnpu_tview_elems(v) == n);
}

static int cnd_quant_operands(const struct vnpu_op_call *c, struct cnd_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *w = &c->t[3];
	const struct vnpu_tview *o = &c->t[c->num_in];
	u64 co = (u64)(w->rank ? w->shape[0] : 0);

	/* x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, [bias INT32] */
	if (c->num_in != 8 && c->num_in != 9)
		return -VNPU_OPS_EINVAL;
	p->iw = 3;
	p->ixzp = 2;
	p->iwzp = 5;
	p->ibias = c->num_in == 9 ? 8 : 0;
	if (!cnd_int_dtype(x->dtype) || !cnd_int_dtype(w->dtype) ||
	    !cnd_int_dtype(o->dtype) || c->t[2].dtype != x->dtype ||
	    c->t[5].dtype != w->dtype || c->t[7].dtype != o->dtype ||
	    !vnpu_dtype_is_float(c->t[1].dtype) ||
	    !vnpu_dtype_is_float(c->t[4].dtype) ||
	    !vnpu_dtype_is_float(c->t[6].dtype) ||
	    !cnd_param(&c->t[1], 1) || !cnd_param(&c->t[2], 1) ||
	    !cnd_param(&c->t[4], co) || !cnd_param(&c->t[5], co) ||
	    !cnd_param(&c->t[6], 1) || !cnd_param(&c->t[7], 1))
		return -VNPU_OPS_EINVAL;
	if (p->ibias && (c->t[8].dtype != DRM_VNPU_DTYPE_INT32 ||
			 c->t[8].rank != 1))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static int cnd_operands(const struct vnpu_op_call *c, struct cnd_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *w = &c->t[1];
	const struct vnpu_tview *o = &c->t[c->num_in];

	p->quant = c->op == DRM_VNPU_OP_QLINEAR_CONV_ND;
	p->iw = 1;
	p->ixzp = 0;
	p->iwzp = 0;
	p->ibias = 0;
	if (p->quant) {
		p->integer = true;
		return cnd_quant_operands(c, p);
	}
	p->integer = cnd_int_dtype(x->dtype);
	if (p->integer) {
		/* (x, w, [x_zp, [w_zp]]) -> INT32 */
		if (!cnd_int_dtype(w->dtype) || o->dtype != DRM_VNPU_DTYPE_INT32 ||
		    c->num_in > 4)
			return -VNPU_OPS_EINVAL;
		p->ixzp = c->num_in > 2 ? 2 : 0;
		p->iwzp = c->num_in > 3 ? 3 : 0;
		if ((p->ixzp && (c->t[2].dtype != x->dtype ||
				 !cnd_param(&c->t[2], 1))) ||
		    (p->iwzp && (c->t[3].dtype != w->dtype ||
				 !cnd_param(&c->t[3], (u64)w->shape[0]))))
			return -VNPU_OPS_EINVAL;
		return 0;
	}
	if (!vnpu_dtype_is_float(x->dtype) && x->dtype != DRM_VNPU_DTYPE_DOUBLE)
		return -VNPU_OPS_EINVAL;
	if (c->num_in > 3 || w->dtype != x->dtype || o->dtype != x->dtype)
		return -VNPU_OPS_EINVAL;
	p->ibias = c->num_in == 3 ? 2 : 0;
	if (p->ibias && (c->t[2].dtype != x->dtype || c->t[2].rank != 1))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static int cnd_plan(const struct vnpu_op_call *c, struct cnd_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *w;
	const struct vnpu_tview *o = &c->t[c->num_in];
	u32 i;

	if (c->num_in < 2 || c->num_out != 1 || !c->has_attrs ||
	    !vnpu_move_io_ok(c, c->num_in, 1) || cnd_operands(c, p))
		return -VNPU_OPS_EINVAL;
	w = &c->t[p->iw];
	p->has_bias = p->ibias != 0;
	if (x->rank < 3 || x->rank > 5 || w->rank != x->rank ||
	    o->rank != x->rank)
		return -VNPU_OPS_EINVAL;
	p->sp = x->rank - 2;
	p->transpose = c->op == DRM_VNPU_OP_CONV_TRANSPOSE_ND;
	p->groups = c->attrs.ints[13];
	if (!vnpu_nd_in_range(p->groups, 1) || x->shape[1] % p->groups ||
	    vnpu_act_get(c, &p->act) ||
	    (p->integer && c->attrs.ints[DRM_VNPU_ATTR_ACT]))
		return -VNPU_OPS_EINVAL;
	p->cig = x->shape[1] / p->groups;
	if (p->transpose) {
		/* w: [cin, cout / groups, k...] */
		if (w->shape[0] != x->shape[1])
			return -VNPU_OPS_EINVAL;
		p->cog = w->shape[1];
		p->co = p->cog * p->groups;
	} else {
		/* w: [cout, cin / groups, k...] */
		p->co = w->shape[0];
		if (p->co % p->groups || w->shape[1] != p->cig)
			return -VNPU_OPS_EINVAL;
		p->cog = p->co / p->groups;
	}
	/* No channels: the plan below divides by work per output line. */
	if (p->cig < 1 || p->cog < 1 ||
	    o->shape[0] != x->shape[0] || o->shape[1] != p->co)
		return -VNPU_OPS_EINVAL;
	if (p->has_bias && c->t[p->ibias].shape[0] != p->co)
		return -VNPU_OPS_EINVAL;
	if (p->transpose && (p->quant || p->iwzp))
		return -VNPU_OPS_EINVAL;	/* w's dim 0 is not cout */
	p->work = p->cig;
	for (i = 0; i < p->sp; i++) {
		s64 pe = c->attrs.ints[9 + i], num;

		p->s[i] = c->attrs.ints[i];
		p->dl[i] = c->attrs.ints[3 + i];
		p->pb[i] = c->attrs.ints[6 + i];
		p->k[i] = w->shape[2 + i];
		p->in[i] = x->shape[2 + i];
		p->out[i] = o->shape[2 + i];
		if (!vnpu_nd_in_range(p->s[i], 1) ||
		    !vnpu_nd_in_range(p->dl[i], 1) ||
		    !vnpu_nd_in_range(p->pb[i], 0) || !vnpu_nd_in_range(pe, 0) ||
		    !vnpu_nd_in_range(p->k[i], 1) || p->in[i] < 1 ||
		    p->out[i] < 1)
			return -VNPU_OPS_EINVAL;
		if (!p->transpose) {
			num = p->in[i] + p->pb[i] + pe - p->dl[i] * (p->k[i] - 1) - 1;
			if (num < 0 || p->out[i] != num / p->s[i] + 1)
				return -VNPU_OPS_EINVAL;
		}
		if (__builtin_mul_overflow(p->work, p->k[i], &p->work) ||
		    p->work > (s64)VNPU_OPS_PIECE_WORK)
			return -VNPU_OPS_EINVAL;
	}
	return vnpu_nd_split(&p->split, vnpu_tview_elems(o), p->out[p->sp - 1],
			     p->work);
}

DEFINE_VNPU_ND_CHECK_TILES(cnd, struct cnd_plan, cnd_plan, split)

/*
 * The input position tap @t of output position @op reads along dim @i,
 * or -1 when it reads padding (or, transposed, no input at all).
 */
static s64 cnd_src(const struct cnd_plan *p, u32 i, s64 op, s64 t)
{
	s64 pos;

	if (!p->transpose) {
		pos = op * p->s[i] - p->pb[i] + t * p->dl[i];
		return pos >= 0 && pos < p->in[i] ? pos : -1;
	}
	pos = op + p->pb[i] - t * p->dl[i];
	if (pos < 0 || pos % p->s[i])
		return -1;
	pos /= p->s[i];
	return pos < p->in[i] ? pos : -1;
}

/* Element @oc of a per-channel parameter, or its one element. */
static s64 cnd_param_off(const struct vnpu_tview *v, s64 oc)
{
	return v->rank == 1 && v->shape[0] > 1 ? oc * v->strides[0] : 0;
}

static s64 cnd_zp(const struct vnpu_op_call *c, u32 t, s64 oc)
{
	const struct vnpu_tview *z = &c->t[t];

	if (!t)
		return 0;
	return vnpu_load_s64(z->data, z->dtype, cnd_param_off(z, oc));
}

static double cnd_scale(const struct vnpu_op_call *c, u32 t, s64 oc)
{
	const struct vnpu_tview *v = &c->t[t];

	return vnpu_load_f64(v->data, v->dtype, cnd_param_off(v, oc));
}

/* Output element at spatial position @op of image @n, channel @oc. */
static void cnd_element(const struct vnpu_op_call *c, const struct cnd_plan *p,
			s64 n, s64 oc, const s64 *op, s64 oo)
{
	const struct vnpu_tview *x = &c->t[0], *w = &c->t[p->iw];
	const struct vnpu_tview *o = &c->t[c->num_in];
	s64 g = oc / p->cog, ocg = oc % p->cog, t[3] = { 0, 0, 0 }, ic;
	s64 xzp = 0, wzp = 0, iacc = 0;
	double acc = 0;
	u32 i;

	if (p->integer) {
		xzp = cnd_zp(c, p->ixzp, 0);
		wzp = cnd_zp(c, p->iwzp, oc);
	}
	do {
		s64 xoff = n * x->strides[0], woff = 0;
		bool inside = true;

		for (i = 0; i < p->sp && inside; i++) {
			s64 pos = cnd_src(p, i, op[i], t[i]);

			inside = pos >= 0;
			xoff += pos * x->strides[2 + i];
			woff += t[i] * w->strides[2 + i];
		}
		for (ic = 0; inside && ic < p->cig; ic++) {
			s64 ci = g * p->cig + ic;
			s64 xo = xoff + ci * x->strides[1];
			s64 wo = woff + (p->transpose ?
					 ci * w->strides[0] + ocg * w->strides[1] :
					 oc * w->strides[0] + ic * w->strides[1]);

			if (p->integer)
				iacc += (vnpu_load_s64(x->data, x->dtype, xo) - xzp) *
					(vnpu_load_s64(w->data, w->dtype, wo) - wzp);
			else
				acc += vnpu_load_f64(x->data, x->dtype, xo) *
				       vnpu_load_f64(w->data, w->dtype, wo);
		}
	} while (vnpu_nd_next(t, p->k, p->sp));
	if (p->integer && p->has_bias)
		iacc += vnpu_load_s64(c->t[p->ibias].data, DRM_VNPU_DTYPE_INT32,
				      oc * c->t[p->ibias].strides[0]);
	if (p->quant) {
		/* the input scales multiply in single precision */
		double m = (double)((float)cnd_scale(c, 1, 0) *
				    (float)cnd_scale(c, 4, oc)) /
			   cnd_scale(c, 6, 0);

		vnpu_store_s64(o->data, o->dtype, oo,
			       vnpu_nd_requant8((double)iacc * m,
						cnd_zp(c, 7, 0), o->dtype));
		return;
	}
	if (p->integer) {
		vnpu_store_s64(o->data, o->dtype, oo, iacc);
		return;
	}
	if (p->has_bias)
		acc += vnpu_load_f64(c->t[2].data, c->t[2].dtype,
				     oc * c->t[2].strides[0]);
	if (p->act.kind)
		acc = vnpu_act_apply(&p->act, (float)acc);
	vnpu_store_f64(o->data, o->dtype, oo, acc);
}

static void cnd_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[c->num_in];
	struct cnd_plan p;
	s64 line, first, last, j;

	if (cnd_plan(c, &p))
		return;
	vnpu_nd_piece(&p.split, tile, &first, &last);
	for (line = first; line < last; line++) {
		s64 op[3] = { 0, 0, 0 }, rem, n, oc, ob;
		u32 i, ls = p.sp - 1;

		rem = vnpu_nd_line_pos(line, p.out, ls, op);
		oc = rem % p.co;
		n = rem / p.co;
		ob = n * o->strides[0] + oc * o->strides[1];
		for (i = 0; i < ls; i++)
			ob += op[i] * o->strides[2 + i];
		for (j = 0; j < p.out[ls]; j++) {
			op[ls] = j;
			cnd_element(c, &p, n, oc, op, ob + j * o->strides[2 + ls]);
		}
	}
}

const struct vnpu_op_impl vnpu_ops_conv_nd[] = {
	{ DRM_VNPU_OP_CONV_ND, "conv_nd", cnd_check, cnd_tiles, cnd_run },
	{ DRM_VNPU_OP_CONV_TRANSPOSE_ND, "conv_transpose_nd", cnd_check,
	  cnd_tiles, cnd_run },
	{ DRM_VNPU_OP_QLINEAR_CONV_ND, "qlinear_conv_nd", cnd_check, cnd_tiles,
	  cnd_run },
	{ 0 }
};
