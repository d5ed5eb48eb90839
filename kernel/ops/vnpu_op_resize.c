// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * RESIZE: NCHW to the output's H and W, as PyTorch's interpolate.
 *
 * Nearest (mode 0) is PyTorch's 'nearest': source = min(floor(dst * in /
 * out), in - 1) in single precision; it copies elements bit for bit, any
 * dtype. Bilinear (mode 1) computes source coordinates in single
 * precision as PyTorch does (align corners: dst * (in - 1) / (out - 1);
 * otherwise half-pixel centres, (dst + 0.5) * in / out - 0.5 clamped at
 * 0), interpolates in double and stores with the library's rounding;
 * integer dtypes round half away from zero; BOOL is rejected.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

#define RESIZE_NEAREST	0
#define RESIZE_BILINEAR	1

static int resize_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 mode = vnpu_attr_int(c, 0, RESIZE_NEAREST);
	s64 align = vnpu_attr_int(c, 1, 0);
	u32 d;

	if (!vnpu_move_io_ok(c, 1, 1) || x->dtype != o->dtype || x->rank != 4 ||
	    o->rank != 4 || x->shape[0] != o->shape[0] ||
	    x->shape[1] != o->shape[1] || (align != 0 && align != 1) ||
	    (mode != RESIZE_NEAREST && mode != RESIZE_BILINEAR))
		return -VNPU_OPS_EINVAL;
	if (mode == RESIZE_BILINEAR && x->dtype == DRM_VNPU_DTYPE_BOOL)
		return -VNPU_OPS_EINVAL;
	for (d = 2; d < 4; d++)
		if (o->shape[d] && !x->shape[d])
			return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 resize_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[1]));
}

static s64 nearest_src(s64 dst, s64 in, s64 out)
{
	float scale;
	s64 s;

	if (in == out)
		return dst;
	if (out == 2 * in)
		return dst >> 1;
	scale = (float)in / (float)out;
	s = (s64)((float)dst * scale);	/* non-negative: floor */
	return s < in - 1 ? s : in - 1;
}

/* Source neighbours and weights of one output coordinate. */
struct lin_src {
	s64 i0, i1;
	double l0, l1;
};

static void linear_src(s64 dst, s64 in, s64 out, bool align,
		       struct lin_src *r)
{
	float src, l1;

	if (align) {
		float scale = out > 1 ? (float)(in - 1) / (float)(out - 1) : 0.0f;

		src = scale * (float)dst;
	} else {
		float scale = (float)in / (float)out;

		src = scale * ((float)dst + 0.5f) - 0.5f;
		if (src < 0.0f)
			src = 0.0f;
	}
	r->i0 = (s64)src;
	if (r->i0 > in - 1)
		r->i0 = in - 1;
	r->i1 = r->i0 < in - 1 ? r->i0 + 1 : r->i0;
	l1 = src - (float)r->i0;
	if (l1 < 0.0f)
		l1 = 0.0f;
	if (l1 > 1.0f)
		l1 = 1.0f;
	r->l1 = l1;
	r->l0 = 1.0f - l1;
}

/* Store @v, rounding half away from zero for integer dtypes. */
static void resize_store(void *data, u32 dtype, s64 off, double v)
{
	if (vnpu_dtype_is_fp(dtype)) {
		vnpu_store_f64(data, dtype, off, v);
		return;
	}
	vnpu_store_f64(data, dtype, off, v < 0 ? v - 0.5 : v + 0.5);
}

static void resize_row(void *p, const s64 *idx, s64 count)
{
	const struct vnpu_op_call *c = p;
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 mode = vnpu_attr_int(c, 0, RESIZE_NEAREST);
	bool align = vnpu_attr_int(c, 1, 0) != 0;
	s64 ih = x->shape[2], iw = x->shape[3], oh = o->shape[2], ow = o->shape[3];
	s64 base = idx[0] * x->strides[0] + idx[1] * x->strides[1];
	s64 oo = vnpu_move_offset(o, idx), os = o->strides[3];
	s64 xs2 = x->strides[2], xs3 = x->strides[3], j;
	u32 esize = vnpu_dtype_size(o->dtype);
	struct lin_src h, w;

	if (mode == RESIZE_NEAREST) {
		base += nearest_src(idx[2], ih, oh) * xs2;
		for (j = 0; j < count; j++)
			vnpu_move_copy1(o->data, oo + j * os, x->data,
					base + nearest_src(idx[3] + j, iw, ow) * xs3,
					esize);
		return;
	}
	linear_src(idx[2], ih, oh, align, &h);
	for (j = 0; j < count; j++) {
		s64 r0 = base + h.i0 * xs2, r1 = base + h.i1 * xs2;
		double v;

		linear_src(idx[3] + j, iw, ow, align, &w);
		v = h.l0 * (w.l0 * vnpu_load_f64(x->data, x->dtype, r0 + w.i0 * xs3) +
			    w.l1 * vnpu_load_f64(x->data, x->dtype, r0 + w.i1 * xs3)) +
		    h.l1 * (w.l0 * vnpu_load_f64(x->data, x->dtype, r1 + w.i0 * xs3) +
			    w.l1 * vnpu_load_f64(x->data, x->dtype, r1 + w.i1 * xs3));
		resize_store(o->data, o->dtype, oo + j * os, v);
	}
}

static void resize_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[1];
	u64 b, e;

	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, resize_row, (void *)c);
}

const struct vnpu_op_impl vnpu_ops_resize[] = {
	{ DRM_VNPU_OP_RESIZE, "resize", resize_check, resize_tiles, resize_tile },
	{ 0 }
};
