// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The second unary family, TAN .. HARD_SWISH (x -> out), and PRELU
 * ((x, slope) -> out, slope broadcasting to the output): the inverse
 * trigonometric and hyperbolic functions and ONNX's parametrised
 * activations. Inputs broadcast to the output's shape, any strides.
 *
 * Numerics:
 * - Floating dtypes are staged through fp32 (vnpu_eltwise_common.h),
 *   evaluated in double with vnpu_math.c and rounded to nearest even when
 *   stored: fp32 results are within about one ulp of the exact value.
 * - Attributes are fp32 (floats[]) and enter the formulas as doubles.
 * - ELU, SELU and CELU use expm1, so small negative inputs keep their
 *   digits; SOFTSIGN and the hard functions are exact up to rounding.
 * - Only PRELU takes integers (INT8, UINT8, INT32, INT64 and whatever
 *   else the staging helpers read): x < 0 ? slope * x : x, the product
 *   wrapping to the dtype; every other operator here is float only.
 * - NaN propagates through every operator (the comparisons are false).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

struct act_ctx {
	const struct vnpu_op_call *c;
	u32 op;
	bool binary;		/* PRELU: t[1] is the slope */
	double p0, p1, p2;	/* the operator's float attributes */
	float *fa, *fb, *fo;	/* staging buffers in scratch */
	s64 *ia, *ib, *io;
};

static double act_f64(const struct act_ctx *u, double x, double s)
{
	double t;

	switch (u->op) {
	case DRM_VNPU_OP_TAN:
		return vnpu_tan(x);
	case DRM_VNPU_OP_ASIN:
		return vnpu_asin(x);
	case DRM_VNPU_OP_ACOS:
		return vnpu_acos(x);
	case DRM_VNPU_OP_ATAN:
		return vnpu_atan(x);
	case DRM_VNPU_OP_SINH:
		return vnpu_sinh(x);
	case DRM_VNPU_OP_COSH:
		return vnpu_cosh(x);
	case DRM_VNPU_OP_ASINH:
		return vnpu_asinh(x);
	case DRM_VNPU_OP_ACOSH:
		return vnpu_acosh(x);
	case DRM_VNPU_OP_ATANH:
		return vnpu_atanh(x);
	case DRM_VNPU_OP_ELU:
		return u->p1 * (x > 0 ? x : u->p0 * vnpu_expm1(u->p2 * x));
	case DRM_VNPU_OP_SELU:
		return u->p1 * (x <= 0 ? u->p0 * vnpu_expm1(x) : x);
	case DRM_VNPU_OP_CELU:
		return x < 0 ? u->p0 * vnpu_expm1(x / u->p0) : x;
	case DRM_VNPU_OP_THRESHOLDED_RELU:
		return x > u->p0 ? x : (x != x ? x : 0);
	case DRM_VNPU_OP_SHRINK:
		if (x < -u->p0)
			return x + u->p1;
		if (x > u->p0)
			return x - u->p1;
		return x != x ? x : 0;
	case DRM_VNPU_OP_SOFTSIGN:
		return x / (1 + vnpu_fabs(x));
	case DRM_VNPU_OP_HARD_SIGMOID:
		t = u->p0 * x + u->p1;
		return t < 0 ? 0 : t > 1 ? 1 : t;
	case DRM_VNPU_OP_HARD_SWISH:
		t = x / 6 + 0.5;
		return x * (t < 0 ? 0 : t > 1 ? 1 : t);
	default:		/* PRELU */
		return x < 0 ? s * x : x;
	}
}

static void act_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct act_ctx *u = p;
	const struct vnpu_tview *o = &u->c->t[u->binary ? 2 : 1];
	const struct vnpu_tview *x = &u->c->t[0], *sl = &u->c->t[1];
	bool flt = vnpu_dtype_is_float(x->dtype);
	s64 done, n, i;

	for (done = 0; done < count; done += n) {
		s64 oo = offs[0] + done * inner[0];
		s64 xo = offs[1] + done * inner[1];
		s64 so = u->binary ? offs[2] + done * inner[2] : 0;

		n = count - done < VNPU_ELT_CHUNK ? count - done : VNPU_ELT_CHUNK;
		if (flt) {
			vnpu_elt_load_f32(u->fa, x->data, x->dtype, xo, inner[1], n);
			if (u->binary)
				vnpu_elt_load_f32(u->fb, sl->data, sl->dtype, so,
						  inner[2], n);
			for (i = 0; i < n; i++)
				u->fo[i] = (float)act_f64(u, u->fa[i],
							  u->binary ? u->fb[i] : 0);
			vnpu_elt_store_f32(o->data, o->dtype, oo, inner[0], u->fo, n);
		} else {
			/* PRELU on integers; the product wraps like the dtype */
			vnpu_elt_load_s64(u->ia, x->data, x->dtype, xo, inner[1], n);
			vnpu_elt_load_s64(u->ib, sl->data, sl->dtype, so, inner[2], n);
			for (i = 0; i < n; i++)
				u->io[i] = u->ia[i] < 0 ?
					   (s64)((u64)u->ib[i] * (u64)u->ia[i]) :
					   u->ia[i];
			vnpu_elt_store_s64(o->data, o->dtype, oo, inner[0], u->io, n);
		}
	}
}

static bool act_is_binary(u32 op)
{
	return op == DRM_VNPU_OP_PRELU;
}

static int act_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *ins[2] = { &c->t[0], &c->t[1] };
	u32 nin = act_is_binary(c->op) ? 2 : 1, k;
	u32 dt = c->t[0].dtype;
	struct vnpu_iter it;

	if (c->num_in != nin || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_is_compute(dt) || dt == DRM_VNPU_DTYPE_BOOL)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_is_float(dt) && c->op != DRM_VNPU_OP_PRELU)
		return -VNPU_OPS_EINVAL;
	for (k = 0; k <= nin; k++)
		if (c->t[k].dtype != dt || !vnpu_elt_shape_ok(&c->t[k]))
			return -VNPU_OPS_EINVAL;
	/* x may broadcast too, but only the slope is documented to */
	return vnpu_iter_init(&it, &c->t[nin], ins, nin);
}

/*
 * Elements per tile: the inverse and hyperbolic functions cost up to
 * about 150 ns per element in double (atan: three square roots and a
 * series; asinh: a root and log1p), the activations with exp about 60.
 */
static u64 act_tile_elems(u32 op)
{
	switch (op) {
	case DRM_VNPU_OP_SOFTSIGN:
	case DRM_VNPU_OP_THRESHOLDED_RELU:
	case DRM_VNPU_OP_SHRINK:
	case DRM_VNPU_OP_HARD_SIGMOID:
	case DRM_VNPU_OP_HARD_SWISH:
	case DRM_VNPU_OP_PRELU:
		return VNPU_OPS_TILE_ELEMS;
	case DRM_VNPU_OP_ELU:
	case DRM_VNPU_OP_SELU:
	case DRM_VNPU_OP_CELU:
		return VNPU_OPS_TILE_ELEMS / 4;
	default:
		return VNPU_OPS_TILE_ELEMS / 16;
	}
}

static u64 act_tiles(const struct vnpu_op_call *c)
{
	u32 out = act_is_binary(c->op) ? 2 : 1;

	return vnpu_elt_tiles(vnpu_tview_elems(&c->t[out]), act_tile_elems(c->op));
}

static void act_tile(const struct vnpu_op_call *c, u64 tile)
{
	u8 *s = c->scratch;
	struct act_ctx u = {
		.c = c,
		.op = c->op,
		.binary = act_is_binary(c->op),
		.fa = (float *)s,
		.fb = (float *)(s + 4 * VNPU_ELT_CHUNK),
		.fo = (float *)(s + 8 * VNPU_ELT_CHUNK),
		.ia = (s64 *)(s + 16 * VNPU_ELT_CHUNK),
		.ib = (s64 *)(s + 24 * VNPU_ELT_CHUNK),
		.io = (s64 *)(s + 32 * VNPU_ELT_CHUNK),
	};
	u32 nin = u.binary ? 2 : 1;
	struct vnpu_iter it;
	u64 begin, end;

	switch (c->op) {
	case DRM_VNPU_OP_ELU:
		u.p0 = vnpu_attr_float(c, 0, 1.0f);
		u.p1 = vnpu_attr_float(c, 1, 1.0f);
		u.p2 = vnpu_attr_float(c, 2, 1.0f);
		break;
	case DRM_VNPU_OP_CELU:
	case DRM_VNPU_OP_THRESHOLDED_RELU:
		u.p0 = vnpu_attr_float(c, 0, 1.0f);
		break;
	case DRM_VNPU_OP_SELU:
		u.p0 = vnpu_attr_float(c, 0, 1.67326319217681884765625f);
		u.p1 = vnpu_attr_float(c, 1, 1.05070102214813232421875f);
		break;
	case DRM_VNPU_OP_SHRINK:
		u.p0 = vnpu_attr_float(c, 0, 0.5f);
		u.p1 = vnpu_attr_float(c, 1, 0.0f);
		break;
	case DRM_VNPU_OP_HARD_SIGMOID:
		u.p0 = vnpu_attr_float(c, 0, 0.2f);
		u.p1 = vnpu_attr_float(c, 1, 0.5f);
		break;
	}
	if (vnpu_elt_iter(&it, &c->t[nin], c->t, nin, tile,
			  act_tile_elems(c->op), &begin, &end))
		return;
	vnpu_iter_run(&it, begin, end, act_run, &u);
}

#define ACT(id, name) { DRM_VNPU_OP_##id, name, act_check, act_tiles, act_tile }

const struct vnpu_op_impl vnpu_ops_activation[] = {
	ACT(TAN, "tan"),
	ACT(ASIN, "asin"),
	ACT(ACOS, "acos"),
	ACT(ATAN, "atan"),
	ACT(SINH, "sinh"),
	ACT(COSH, "cosh"),
	ACT(ASINH, "asinh"),
	ACT(ACOSH, "acosh"),
	ACT(ATANH, "atanh"),
	ACT(ELU, "elu"),
	ACT(SELU, "selu"),
	ACT(CELU, "celu"),
	ACT(THRESHOLDED_RELU, "thresholded_relu"),
	ACT(SHRINK, "shrink"),
	ACT(SOFTSIGN, "softsign"),
	ACT(HARD_SIGMOID, "hard_sigmoid"),
	ACT(HARD_SWISH, "hard_swish"),
	ACT(PRELU, "prelu"),
	{ 0 }
};
