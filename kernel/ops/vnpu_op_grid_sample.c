// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * GRID_SAMPLE: ONNX GridSample (PyTorch's grid_sample) in 2-D. Each
 * output pixel reads x at the grid's (x, y), given in [-1, 1] across the
 * input (corner pixels' centres with align_corners, their outer edges
 * without). Bilinear and nearest (half to even) map the coordinate
 * through the padding mode first (border clamps, reflection mirrors) and
 * read 0 outside; bicubic maps each of its 4 x 4 taps instead.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

#define GS_BILINEAR	0
#define GS_NEAREST	1
#define GS_BICUBIC	2

#define GS_ZEROS	0
#define GS_BORDER	1
#define GS_REFLECTION	2

static int gs_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *g = &c->t[1], *o = &c->t[2];
	s64 mode = vnpu_attr_int(c, 0, GS_BILINEAR);
	s64 pad = vnpu_attr_int(c, 1, GS_ZEROS);
	s64 align = vnpu_attr_int(c, 2, 0);

	if (c->num_in != 2 || c->num_out != 1 || !vnpu_move_io_ok(c, 2, 1) ||
	    x->rank != 4 || g->rank != 4 || o->rank != 4 ||
	    !vnpu_dtype_is_float(x->dtype) || o->dtype != x->dtype ||
	    !vnpu_dtype_is_float(g->dtype) || g->shape[3] != 2 ||
	    g->shape[0] != x->shape[0] || o->shape[0] != x->shape[0] ||
	    o->shape[1] != x->shape[1] || o->shape[2] != g->shape[1] ||
	    o->shape[3] != g->shape[2] || mode < GS_BILINEAR ||
	    mode > GS_BICUBIC || pad < GS_ZEROS || pad > GS_REFLECTION ||
	    (align != 0 && align != 1))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 gs_tiles(const struct vnpu_op_call *c)
{
	/* at most 16 taps per element */
	return (vnpu_tview_elems(&c->t[2]) + VNPU_OPS_TILE_ELEMS / 16 - 1) /
	       (VNPU_OPS_TILE_ELEMS / 16);
}

static double gs_floor(double v)
{
	double t = (double)(s64)v;

	return t > v ? t - 1 : t;
}

/* Keep coordinates where integer conversion is exact (NaN: outside). */
static double gs_sane(double v, s64 size)
{
	double lim = (double)size + 16;

	if (!(v >= -lim))
		return -lim;
	return v > lim ? lim : v;
}

static double gs_clip(double v, s64 size)
{
	return v < 0 ? 0 : v > (double)(size - 1) ? (double)(size - 1) : v;
}

/* Mirror @v into [lo2 / 2, hi2 / 2] (bounds given doubled). */
static double gs_reflect(double v, double lo2, double hi2)
{
	double lo = lo2 / 2, span = (hi2 - lo2) / 2, flips, extra;

	if (lo2 == hi2)
		return 0;
	v = v < lo ? lo - v : v - lo;
	flips = gs_floor(v / span);
	extra = v - flips * span;
	return ((s64)flips & 1) ? span - extra + lo : extra + lo;
}

static double gs_pad(double v, s64 size, s64 pad, bool align)
{
	if (pad == GS_BORDER)
		return gs_clip(v, size);
	if (pad == GS_REFLECTION) {
		v = align ? gs_reflect(v, 0, 2.0 * (double)(size - 1)) :
			    gs_reflect(v, -1, 2.0 * (double)size - 1);
		return gs_clip(v, size);
	}
	return v;
}

static double gs_tap(const struct vnpu_tview *x, s64 base, s64 yi, s64 xi)
{
	if (yi < 0 || xi < 0 || yi >= x->shape[2] || xi >= x->shape[3])
		return 0;
	return vnpu_load_f64(x->data, x->dtype,
			     base + yi * x->strides[2] + xi * x->strides[3]);
}

static void gs_cubic(double t, double *w)
{
	const double a = -0.75;
	double q = 1 - t;

	w[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
	w[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
	w[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
	w[3] = ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a;
}

/* A bicubic tap: its index mapped through the padding mode. */
static double gs_cubic_tap(const struct vnpu_tview *x, s64 base, double yv,
			   double xv, s64 pad, bool align)
{
	double y = gs_pad(yv, x->shape[2], pad, align);
	double xx = gs_pad(xv, x->shape[3], pad, align);

	return gs_tap(x, base, (s64)y, (s64)xx);
}

static double gs_sample(const struct vnpu_op_call *c, s64 base, double gx,
			double gy)
{
	const struct vnpu_tview *x = &c->t[0];
	s64 mode = vnpu_attr_int(c, 0, GS_BILINEAR);
	s64 pad = vnpu_attr_int(c, 1, GS_ZEROS);
	bool align = vnpu_attr_int(c, 2, 0) != 0;
	s64 h = x->shape[2], w = x->shape[3], i, j;
	double ix, iy, fx, fy, tx, ty, wx[4], wy[4], v = 0;

	/* unnormalize */
	ix = align ? (gx + 1) / 2 * (double)(w - 1) : ((gx + 1) * (double)w - 1) / 2;
	iy = align ? (gy + 1) / 2 * (double)(h - 1) : ((gy + 1) * (double)h - 1) / 2;
	ix = gs_sane(ix, w);
	iy = gs_sane(iy, h);
	if (mode == GS_BICUBIC) {
		fx = gs_floor(ix);
		fy = gs_floor(iy);
		gs_cubic(ix - fx, wx);
		gs_cubic(iy - fy, wy);
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				v += wy[i] * wx[j] *
				     gs_cubic_tap(x, base, fy - 1 + (double)i,
						  fx - 1 + (double)j, pad, align);
		return v;
	}
	ix = gs_pad(ix, w, pad, align);
	iy = gs_pad(iy, h, pad, align);
	if (mode == GS_NEAREST) {
		/* round half to even */
		fx = gs_floor(ix + 0.5);
		if (fx - ix == 0.5 && ((s64)fx & 1))
			fx -= 1;
		fy = gs_floor(iy + 0.5);
		if (fy - iy == 0.5 && ((s64)fy & 1))
			fy -= 1;
		return gs_tap(x, base, (s64)fy, (s64)fx);
	}
	fx = gs_floor(ix);
	fy = gs_floor(iy);
	tx = ix - fx;
	ty = iy - fy;
	return (1 - ty) * ((1 - tx) * gs_tap(x, base, (s64)fy, (s64)fx) +
			   tx * gs_tap(x, base, (s64)fy, (s64)fx + 1)) +
	       ty * ((1 - tx) * gs_tap(x, base, (s64)fy + 1, (s64)fx) +
		     tx * gs_tap(x, base, (s64)fy + 1, (s64)fx + 1));
}

static void gs_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *g = &c->t[1], *o = &c->t[2];
	u64 per = VNPU_OPS_TILE_ELEMS / 16, e, total = vnpu_tview_elems(o);
	u64 end = (tile + 1) * per < total ? (tile + 1) * per : total;

	for (e = tile * per; e < end; e++) {
		s64 ow = (s64)e % o->shape[3], rem = (s64)e / o->shape[3];
		s64 oh = rem % o->shape[2], ch, n, go;
		double gx, gy;

		rem /= o->shape[2];
		ch = rem % o->shape[1];
		n = rem / o->shape[1];
		go = n * g->strides[0] + oh * g->strides[1] + ow * g->strides[2];
		gx = vnpu_load_f64(g->data, g->dtype, go);
		gy = vnpu_load_f64(g->data, g->dtype, go + g->strides[3]);
		vnpu_store_f64(o->data, o->dtype,
			       n * o->strides[0] + ch * o->strides[1] +
			       oh * o->strides[2] + ow * o->strides[3],
			       gs_sample(c, n * x->strides[0] + ch * x->strides[1],
					 gx, gy));
	}
}

const struct vnpu_op_impl vnpu_ops_grid_sample[] = {
	{ DRM_VNPU_OP_GRID_SAMPLE, "grid_sample", gs_check, gs_tiles, gs_run },
	{ 0 }
};
