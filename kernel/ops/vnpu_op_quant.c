// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Linear quantization, as ONNX defines it:
 * QUANTIZE_LINEAR y = saturate(round_half_even(x / scale) + zero_point),
 * DEQUANTIZE_LINEAR y = (x - zero_point) * scale, per tensor (scale of one
 * element) or per axis (scale and zero point of the axis' length), and
 * DYNAMIC_QUANTIZE_LINEAR, which finds the uint8 scale and zero point of
 * its input's range (widened to include 0) and quantizes with them.
 * Arithmetic is in single precision, as ONNX's reference computes it.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

/* Elements of the one piece of DYNAMIC_QUANTIZE_LINEAR (two passes). */
#define QNT_DYN_MAX	(VNPU_OPS_PIECE_WORK / 2)

static bool qnt_qtype(u32 dt)
{
	return dt == DRM_VNPU_DTYPE_INT8 || dt == DRM_VNPU_DTYPE_UINT8;
}

static bool qnt_ftype(u32 dt)
{
	return vnpu_dtype_is_float(dt);
}

/* Round half to even; @v is already within +-2^24. */
static float qnt_rint(float v)
{
	float f = (float)(s64)v, r;

	if (f > v)
		f -= 1;		/* floor */
	r = v - f;
	if (r > 0.5f || (r == 0.5f && ((s64)f & 1)))
		f += 1;
	return f;
}

/* Far beyond every quantized range; NaN goes low, as saturation does. */
static float qnt_clamp(float v)
{
	if (!(v >= -1e7f))
		return -1e7f;
	return v > 1e7f ? 1e7f : v;
}

static s64 qnt_saturate(float v, u32 dt)
{
	float lo = dt == DRM_VNPU_DTYPE_INT8 ? -128 : 0;
	float hi = dt == DRM_VNPU_DTYPE_INT8 ? 127 : 255;

	if (!(v >= lo))		/* NaN saturates low, as a cast would */
		return (s64)lo;
	if (v > hi)
		return (s64)hi;
	return (s64)qnt_rint(v);
}

/*
 * (x, scale, [zero point]) -> y; ints[0] the axis of per-axis
 * parameters (ignored when they have one element).
 */
static int qnt_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *y = &c->t[c->num_in];
	bool quant = c->op == DRM_VNPU_OP_QUANTIZE_LINEAR;
	u32 qt = quant ? y->dtype : x->dtype, t;
	s64 axis = vnpu_attr_int(c, 0, 1);
	u64 n = vnpu_tview_elems(&c->t[1]);

	if ((c->num_in != 2 && c->num_in != 3) ||
	    !vnpu_move_io_ok(c, c->num_in, 1) || !vnpu_move_same_shape(x, y) ||
	    !qnt_ftype(c->t[1].dtype) || c->t[1].rank > 1)
		return -VNPU_OPS_EINVAL;
	if (quant ? !qnt_ftype(x->dtype) || !qnt_qtype(y->dtype) :
		    !(qnt_qtype(x->dtype) || x->dtype == DRM_VNPU_DTYPE_INT32) ||
		    !qnt_ftype(y->dtype))
		return -VNPU_OPS_EINVAL;
	if (c->num_in == 3 &&
	    (c->t[2].dtype != qt || !vnpu_move_same_shape(&c->t[1], &c->t[2])))
		return -VNPU_OPS_EINVAL;
	if (n == 1)
		return 0;
	/* per axis: one parameter per index of the axis */
	if (axis < 0 || axis >= x->rank || c->t[1].rank != 1 ||
	    c->t[1].shape[0] != x->shape[axis])
		return -VNPU_OPS_EINVAL;
	for (t = 1; t < c->num_in; t++)
		if (!c->t[t].shape[0])
			return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 qnt_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[0]));
}

static void qnt_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *y = &c->t[c->num_in];
	const struct vnpu_tview *sc = &c->t[1], *zp = &c->t[2];
	bool quant = c->op == DRM_VNPU_OP_QUANTIZE_LINEAR;
	bool per_axis = vnpu_tview_elems(sc) != 1;
	s64 axis = vnpu_attr_int(c, 0, 1);
	u64 e, begin = tile * VNPU_OPS_TILE_ELEMS, total = vnpu_tview_elems(x);
	u64 end = begin + VNPU_OPS_TILE_ELEMS < total ?
		  begin + VNPU_OPS_TILE_ELEMS : total;
	u32 d;

	for (e = begin; e < end; e++) {
		s64 rem = (s64)e, xo = 0, yo = 0, ai = 0, z = 0;
		float s;

		for (d = x->rank; d-- > 0;) {
			s64 i = rem % x->shape[d];

			rem /= x->shape[d];
			xo += i * x->strides[d];
			yo += i * y->strides[d];
			if (per_axis && (s64)d == axis)
				ai = i;
		}
		s = (float)vnpu_load_f64(sc->data, sc->dtype,
					 per_axis ? ai * sc->strides[0] : 0);
		if (c->num_in == 3)
			z = vnpu_load_s64(zp->data, zp->dtype,
					  per_axis ? ai * zp->strides[0] : 0);
		if (quant) {
			float v = (float)vnpu_load_f64(x->data, x->dtype, xo) / s;

			vnpu_store_s64(y->data, y->dtype, yo,
				       qnt_saturate(qnt_rint(qnt_clamp(v)) + (float)z,
						    y->dtype));
		} else {
			float v = (float)(vnpu_load_s64(x->data, x->dtype, xo) - z);

			vnpu_store_f64(y->data, y->dtype, yo, (double)(v * s));
		}
	}
}

/* x (float) -> y (UINT8), scale (float, one element), zero point (UINT8). */
static int dqnt_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *y = &c->t[1];

	if (c->num_in != 1 || c->num_out != 3 || !vnpu_move_io_ok(c, 1, 3) ||
	    !qnt_ftype(x->dtype) || y->dtype != DRM_VNPU_DTYPE_UINT8 ||
	    !vnpu_move_same_shape(x, y) || !qnt_ftype(c->t[2].dtype) ||
	    vnpu_tview_elems(&c->t[2]) != 1 ||
	    c->t[3].dtype != DRM_VNPU_DTYPE_UINT8 ||
	    vnpu_tview_elems(&c->t[3]) != 1 ||
	    vnpu_tview_elems(x) > QNT_DYN_MAX)
		return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 dqnt_tiles(const struct vnpu_op_call *c)
{
	return 1;
}

static s64 dqnt_offset(const struct vnpu_tview *v, u64 e)
{
	s64 rem = (s64)e, off = 0;
	u32 d;

	for (d = v->rank; d-- > 0;) {
		off += rem % v->shape[d] * v->strides[d];
		rem /= v->shape[d];
	}
	return off;
}

static void dqnt_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *y = &c->t[1];
	u64 e, n = vnpu_tview_elems(x);
	float lo = 0, hi = 0, s, zf;
	s64 z;

	for (e = 0; e < n; e++) {
		float v = (float)vnpu_load_f64(x->data, x->dtype,
					       dqnt_offset(x, e));

		if (v < lo)
			lo = v;
		if (v > hi)
			hi = v;
	}
	s = (hi - lo) / 255.0f;
	zf = s > 0 ? (0 - lo) / s : 0;
	z = qnt_saturate(zf, DRM_VNPU_DTYPE_UINT8);
	vnpu_store_f64(c->t[2].data, c->t[2].dtype, 0, s);
	vnpu_store_s64(c->t[3].data, DRM_VNPU_DTYPE_UINT8, 0, z);
	for (e = 0; e < n; e++) {
		float v = (float)vnpu_load_f64(x->data, x->dtype,
					       dqnt_offset(x, e));

		v = s > 0 ? v / s : 0;
		vnpu_store_s64(y->data, DRM_VNPU_DTYPE_UINT8, dqnt_offset(y, e),
			       qnt_saturate(qnt_rint(qnt_clamp(v)) + (float)z,
					    DRM_VNPU_DTYPE_UINT8));
	}
}

const struct vnpu_op_impl vnpu_ops_quant[] = {
	{ DRM_VNPU_OP_QUANTIZE_LINEAR, "quantize_linear", qnt_check, qnt_tiles,
	  qnt_run },
	{ DRM_VNPU_OP_DEQUANTIZE_LINEAR, "dequantize_linear", qnt_check,
	  qnt_tiles, qnt_run },
	{ DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR, "dynamic_quantize_linear",
	  dqnt_check, dqnt_tiles, dqnt_run },
	{ 0 }
};
