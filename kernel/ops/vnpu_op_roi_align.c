// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * ROI_ALIGN: ONNX RoiAlign. Each region (x1, y1, x2, y2 of an image, in
 * input coordinates times the spatial scale) is cut into
 * out_h x out_w bins; a bin is the average (or the maximum) of a grid of
 * bilinear samples, sampling_ratio per side or, with 0, as many as the
 * bin is wide (rounded up). Samples more than one pixel outside the image
 * read 0. The grid is capped at 2 * size + 2 samples per side of a bin,
 * which only changes regions far larger than the image, and images are
 * at most 2000 x 2000, so that a piece's work stays bounded.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

#define ROI_AVG		0
#define ROI_MAX		1
/* Bilinear taps a piece aims at. */
#define ROI_BUDGET	4194304LL

/*
 * Output elements per piece: each reads a grid of samples of 4 taps, an
 * explicit ratio per side, else at most the cap of 2 * size + 2.
 */
static s64 roi_per_tile(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0];
	s64 ratio = vnpu_attr_int(c, 1, 0);
	s64 work = ratio ? ratio * ratio * 4 :
		   (2 * x->shape[2] + 2) * (2 * x->shape[3] + 2) * 4;
	s64 n = ROI_BUDGET / work;

	return n < 1 ? 1 : n;
}

/* (x, rois [R, 4], INT64 batch indices [R]) -> [R, C, out_h, out_w] */
static int roi_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *r = &c->t[1], *b = &c->t[2];
	const struct vnpu_tview *o = &c->t[3];
	s64 mode = vnpu_attr_int(c, 0, ROI_AVG), ratio = vnpu_attr_int(c, 1, 0);
	float scale = vnpu_attr_float(c, 0, 1.0f);

	if (c->num_in != 3 || c->num_out != 1 || !vnpu_move_io_ok(c, 3, 1) ||
	    x->rank != 4 || r->rank != 2 || b->rank != 1 || o->rank != 4 ||
	    !vnpu_dtype_is_float(x->dtype) || o->dtype != x->dtype ||
	    !vnpu_dtype_is_float(r->dtype) || b->dtype != DRM_VNPU_DTYPE_INT64 ||
	    r->shape[1] != 4 || b->shape[0] != r->shape[0] ||
	    o->shape[0] != r->shape[0] || o->shape[1] != x->shape[1] ||
	    (mode != ROI_AVG && mode != ROI_MAX) || ratio < 0 ||
	    ratio > (1 << 16) || !(scale > 0) || scale > 1e9f ||
	    x->shape[2] > 2000 || x->shape[3] > 2000)
		return -VNPU_OPS_EINVAL;
	/*
	 * roi_sample() clamps rows and columns to h - 1 and w - 1: an image
	 * without rows or columns has no element to clamp to. (The library
	 * refuses an empty x next to a non-empty output anyway.)
	 */
	if (vnpu_tview_elems(o) && (x->shape[2] < 1 || x->shape[3] < 1))
		return -VNPU_OPS_EINVAL;
	/* an explicit ratio bounds the grid too */
	if (ratio && ratio * ratio * 4 > VNPU_OPS_PIECE_WORK)
		return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 roi_tiles(const struct vnpu_op_call *c)
{
	s64 n = roi_per_tile(c);

	return (vnpu_tview_elems(&c->t[3]) + (u64)n - 1) / (u64)n;
}

static double roi_ld(const struct vnpu_tview *x, s64 base, s64 y, s64 xx)
{
	return vnpu_load_f64(x->data, x->dtype,
			     base + y * x->strides[2] + xx * x->strides[3]);
}

/* One bilinear sample; @max takes the largest weighted tap (ONNX's max). */
static double roi_sample(const struct vnpu_tview *x, s64 base, double y,
			 double xx, bool max)
{
	s64 h = x->shape[2], w = x->shape[3], y0, x0, y1, x1;
	double ly, lx, t[4], m;
	int i;

	if (!(y >= -1.0 && y <= (double)h && xx >= -1.0 && xx <= (double)w))
		return 0;
	if (y <= 0)
		y = 0;
	if (xx <= 0)
		xx = 0;
	y0 = (s64)y;
	x0 = (s64)xx;
	if (y0 >= h - 1) {
		y0 = h - 1;
		y1 = y0;
		y = (double)y0;
	} else {
		y1 = y0 + 1;
	}
	if (x0 >= w - 1) {
		x0 = w - 1;
		x1 = x0;
		xx = (double)x0;
	} else {
		x1 = x0 + 1;
	}
	ly = y - (double)y0;
	lx = xx - (double)x0;
	t[0] = (1 - ly) * (1 - lx) * roi_ld(x, base, y0, x0);
	t[1] = (1 - ly) * lx * roi_ld(x, base, y0, x1);
	t[2] = ly * (1 - lx) * roi_ld(x, base, y1, x0);
	t[3] = ly * lx * roi_ld(x, base, y1, x1);
	if (!max)
		return t[0] + t[1] + t[2] + t[3];
	m = t[0];
	for (i = 1; i < 4; i++)
		if (t[i] > m)
			m = t[i];
	return m;
}

static double roi_ceil(double v)
{
	double t = (double)(s64)v;

	return t < v ? t + 1 : t;
}

static void roi_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *r = &c->t[1], *b = &c->t[2];
	const struct vnpu_tview *o = &c->t[3];
	bool max = vnpu_attr_int(c, 0, ROI_AVG) == ROI_MAX;
	s64 ratio = vnpu_attr_int(c, 1, 0);
	double off = vnpu_attr_int(c, 2, 0) ? 0.5 : 0;
	double scale = vnpu_attr_float(c, 0, 1.0f);
	s64 per = roi_per_tile(c), oh = o->shape[2], ow = o->shape[3];
	u64 e, total = vnpu_tview_elems(o);
	u64 end = (tile + 1) * (u64)per < total ? (tile + 1) * (u64)per : total;

	for (e = tile * (u64)per; e < end; e++) {
		s64 pw = (s64)e % ow, rem = (s64)e / ow, ph = rem % oh, ch, ri, n;
		s64 gh, gw, iy, ix, base, cnt;
		double rv[4], sh, sw, bh, bw, acc = 0, best = 0;
		bool any = false;
		int k;

		rem /= oh;
		ch = rem % o->shape[1];
		ri = rem / o->shape[1];
		n = vnpu_load_s64(b->data, b->dtype, ri * b->strides[0]);
		for (k = 0; k < 4; k++)
			rv[k] = vnpu_load_f64(r->data, r->dtype,
					      ri * r->strides[0] + k * r->strides[1]) *
				scale - off;
		sw = rv[0];
		sh = rv[1];
		bw = rv[2] - rv[0];
		bh = rv[3] - rv[1];
		if (!off) {	/* output_half_pixel: at least one pixel */
			bw = bw > 1 ? bw : 1;
			bh = bh > 1 ? bh : 1;
		}
		bw /= (double)ow;
		bh /= (double)oh;
		if (n < 0 || n >= x->shape[0] || !(bw == bw && bh == bh)) {
			vnpu_store_f64(o->data, o->dtype, ri * o->strides[0] +
				       ch * o->strides[1] + ph * o->strides[2] +
				       pw * o->strides[3], 0);
			continue;
		}
		gh = ratio ? ratio : (s64)roi_ceil(bh < 0 ? 0 :
			bh > 2.0 * (double)x->shape[2] + 2 ? 2.0 * (double)x->shape[2] + 2 : bh);
		gw = ratio ? ratio : (s64)roi_ceil(bw < 0 ? 0 :
			bw > 2.0 * (double)x->shape[3] + 2 ? 2.0 * (double)x->shape[3] + 2 : bw);
		cnt = gh * gw > 1 ? gh * gw : 1;
		base = n * x->strides[0] + ch * x->strides[1];
		for (iy = 0; iy < gh; iy++) {
			double y = sh + (double)ph * bh + ((double)iy + 0.5) * bh / (double)gh;

			for (ix = 0; ix < gw; ix++) {
				double xx = sw + (double)pw * bw +
					    ((double)ix + 0.5) * bw / (double)gw;
				double v = roi_sample(x, base, y, xx, max);

				acc += v;
				if (!any || v > best)
					best = v;
				any = true;
			}
		}
		vnpu_store_f64(o->data, o->dtype,
			       ri * o->strides[0] + ch * o->strides[1] +
			       ph * o->strides[2] + pw * o->strides[3],
			       max ? best : acc / (double)cnt);
	}
}

const struct vnpu_op_impl vnpu_ops_roi_align[] = {
	{ DRM_VNPU_OP_ROI_ALIGN, "roi_align", roi_check, roi_tiles, roi_run },
	{ 0 }
};
