// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * RESIZE_ND: ONNX Resize over any dims of a tensor of any rank.
 *
 * Each output coordinate maps to a source coordinate per dim with one of
 * ONNX's coordinate transformations (computed in double, as ONNX's
 * reference does). From it, base = ceil(src) - 1 and ratio = src - base
 * (in (0, 1]) select the taps: nearest picks base or base + 1 by the
 * rounding mode, linear weighs base and base + 1, cubic base - 1 ..
 * base + 2 with Keys' kernel. Taps outside the input take the edge
 * element (or weigh nothing with exclude_outside, the rest renormalised).
 * An output element is the product of the per-dim weights summed over
 * every combination of taps; taps of weight 0 are skipped, so dims that
 * are not resized cost nothing.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

#define RSZ_NEAREST	0
#define RSZ_LINEAR	1
#define RSZ_CUBIC	2

#define RSZ_HALF_PIXEL		0
#define RSZ_PYTORCH_HALF_PIXEL	1
#define RSZ_ALIGN_CORNERS	2
#define RSZ_ASYMMETRIC		3
#define RSZ_TF_HALF_PIXEL_NN	4
#define RSZ_TF_CROP_AND_RESIZE	5

#define RSZ_ROUND_PREFER_FLOOR	0
#define RSZ_ROUND_PREFER_CEIL	1
#define RSZ_FLOOR		2
#define RSZ_CEIL		3

/* ints[] holding dim d's scale as float bits. */
#define RSZ_ATTR_SCALE		8
/* Output elements a piece aims at (each up to 4 ** rank taps). */
#define RSZ_PIECE_BUDGET	4194304LL

/**
 * struct rsz_plan - a resize call, decoded
 * @mode: RSZ_NEAREST, RSZ_LINEAR or RSZ_CUBIC
 * @coord: coordinate transformation (RSZ_HALF_PIXEL ...)
 * @nearest: rounding of nearest (RSZ_ROUND_PREFER_FLOOR ...)
 * @exclude: exclude_outside
 * @a: cubic coefficient
 * @extrap: tf_crop_and_resize's value outside the input
 * @taps: taps per dim (2 or 4)
 * @elems_per_tile: output elements of a piece
 */
struct rsz_plan {
	s64 mode, coord, nearest;
	bool exclude;
	double a, extrap;
	u32 taps;
	s64 elems_per_tile;
};

static double bits_to_f64(s64 bits)
{
	union { u32 u; float f; } v = { .u = (u32)bits };

	return v.f;
}

static int rsz_plan(const struct vnpu_op_call *c, struct rsz_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[c->num_in];
	u64 work = 1;
	u32 d;

	if ((c->num_in != 1 && c->num_in != 2) || !c->has_attrs ||
	    !vnpu_move_io_ok(c, c->num_in, 1) || x->dtype != o->dtype ||
	    x->rank != o->rank || x->rank < 1)
		return -VNPU_OPS_EINVAL;
	p->mode = c->attrs.ints[0];
	p->coord = c->attrs.ints[1];
	p->nearest = c->attrs.ints[2];
	p->exclude = c->attrs.ints[3] != 0;
	p->a = vnpu_attr_float(c, 0, -0.75f);
	p->extrap = vnpu_attr_float(c, 1, 0.0f);
	if (p->mode < RSZ_NEAREST || p->mode > RSZ_CUBIC ||
	    p->coord < RSZ_HALF_PIXEL || p->coord > RSZ_TF_CROP_AND_RESIZE ||
	    p->nearest < RSZ_ROUND_PREFER_FLOOR || p->nearest > RSZ_CEIL ||
	    (c->attrs.ints[3] != 0 && c->attrs.ints[3] != 1) ||
	    p->a != p->a || p->extrap != p->extrap)
		return -VNPU_OPS_EINVAL;
	if (p->mode != RSZ_NEAREST && x->dtype == DRM_VNPU_DTYPE_BOOL)
		return -VNPU_OPS_EINVAL;
	/* roi: start and end per dim, tf_crop_and_resize only */
	if (c->num_in == 2 &&
	    (p->coord != RSZ_TF_CROP_AND_RESIZE || c->t[1].rank != 1 ||
	     c->t[1].shape[0] != 2 * (s64)x->rank ||
	     !vnpu_dtype_is_float(c->t[1].dtype)))
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++) {
		s64 bits = c->attrs.ints[RSZ_ATTR_SCALE + d];
		double s = bits_to_f64(bits);

		if (bits < 0 || bits > 0xffffffffLL ||
		    (bits && (!(s > 0) || s > 1e9)))
			return -VNPU_OPS_EINVAL;
		if (o->shape[d] && !x->shape[d])
			return -VNPU_OPS_EINVAL;
	}
	p->taps = p->mode == RSZ_CUBIC ? 4 : 2;
	for (d = 0; d < x->rank; d++)
		work *= p->taps;	/* at most 4 ** 8 */
	p->elems_per_tile = RSZ_PIECE_BUDGET / (s64)work;
	if (p->elems_per_tile < 1)
		p->elems_per_tile = 1;
	return 0;
}

static int rsz_check(const struct vnpu_op_call *c)
{
	struct rsz_plan p;

	return rsz_plan(c, &p);
}

static u64 rsz_tiles(const struct vnpu_op_call *c)
{
	struct rsz_plan p;

	if (rsz_plan(c, &p))
		return 0;
	return (vnpu_tview_elems(&c->t[c->num_in]) + (u64)p.elems_per_tile - 1) /
	       (u64)p.elems_per_tile;
}

static double rsz_floor(double v)
{
	double t = (double)(s64)v;

	return t > v ? t - 1 : t;
}

static double rsz_roi(const struct vnpu_op_call *c, u32 i, double dflt)
{
	if (c->num_in != 2)
		return dflt;
	return vnpu_load_f64(c->t[1].data, c->t[1].dtype,
			     (s64)i * c->t[1].strides[0]);
}

/*
 * Source coordinate of output index @i along dim @d; false when
 * tf_crop_and_resize lands outside the input.
 */
static bool rsz_src(const struct vnpu_op_call *c, const struct rsz_plan *p,
		    u32 d, s64 i, double *src)
{
	s64 in = c->t[0].shape[d], out = c->t[c->num_in].shape[d];
	s64 bits = c->attrs.ints[RSZ_ATTR_SCALE + d];
	double scale = bits ? bits_to_f64(bits) : (double)out / (double)in;
	double ow = scale * (double)in, x = (double)i, s0, s1;

	switch (p->coord) {
	case RSZ_ALIGN_CORNERS:
		*src = ow == 1 ? 0 : x * (double)(in - 1) / (ow - 1);
		break;
	case RSZ_ASYMMETRIC:
		*src = x / scale;
		break;
	case RSZ_PYTORCH_HALF_PIXEL:
		*src = ow == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
		break;
	case RSZ_TF_HALF_PIXEL_NN:
		*src = (x + 0.5) / scale;
		break;
	case RSZ_TF_CROP_AND_RESIZE:
		s0 = rsz_roi(c, d, 0);
		s1 = rsz_roi(c, d + c->t[0].rank, 1);
		if (ow == 1)
			*src = (s1 - s0) * (double)(in - 1) / 2;
		else
			*src = x * (s1 - s0) * (double)(in - 1) / (ow - 1);
		*src += s0 * (double)(in - 1);
		return *src >= 0 && *src <= (double)(in - 1);
	default:
		*src = (x + 0.5) / scale - 0.5;
		break;
	}
	return true;
}

/* The taps of one dim: source indices (clamped) and weights. */
struct rsz_taps {
	u32 n;
	s64 idx[4];
	double w[4];
};

static void rsz_weights(const struct rsz_plan *p, double src, s64 in,
			struct rsz_taps *t)
{
	double base, r, a = p->a, sum = 0;
	double cw[4];
	s64 first, k;
	u32 n = p->taps, j;

	/* far outside, every tap is an edge element: keep integers small */
	if (!(src >= -8))
		src = -8;
	if (!(src <= (double)in + 4))
		src = (double)in + 4;
	base = -rsz_floor(-src) - 1;
	r = src - base;
	if (p->mode == RSZ_NEAREST) {
		bool hi;

		if (r == 1)
			hi = true;
		else if (p->nearest == RSZ_ROUND_PREFER_FLOOR)
			hi = r > 0.5;
		else if (p->nearest == RSZ_ROUND_PREFER_CEIL)
			hi = r >= 0.5;
		else
			hi = p->nearest == RSZ_CEIL;
		cw[0] = hi ? 0 : 1;
		cw[1] = hi ? 1 : 0;
	} else if (p->mode == RSZ_LINEAR) {
		cw[0] = 1 - r;
		cw[1] = r;
	} else {
		double q = 1 - r;

		cw[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
		cw[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
		cw[2] = ((a + 2) * q - (a + 3)) * q * q + 1;
		cw[3] = ((a * (q + 1) - 5 * a) * (q + 1) + 8 * a) * (q + 1) - 4 * a;
	}
	first = (s64)base - (n == 4 ? 1 : 0);
	t->n = 0;
	for (j = 0; j < n; j++) {
		k = first + j;
		if (p->exclude && p->mode != RSZ_NEAREST && (k < 0 || k >= in))
			cw[j] = 0;
		sum += cw[j];
	}
	for (j = 0; j < n; j++) {
		if (cw[j] == 0)
			continue;
		k = first + j;
		t->idx[t->n] = k < 0 ? 0 : k >= in ? in - 1 : k;
		t->w[t->n] = p->exclude && sum != 0 ? cw[j] / sum : cw[j];
		t->n++;
	}
	if (!t->n) {	/* every tap excluded: the element weighs nothing */
		t->idx[0] = 0;
		t->w[0] = 0;
		t->n = 1;
	}
}

/* Store @v, rounding half away from zero for integer dtypes. */
static void rsz_store(void *data, u32 dtype, s64 off, double v)
{
	if (!vnpu_dtype_is_float(dtype) && dtype != DRM_VNPU_DTYPE_DOUBLE)
		v = v < 0 ? v - 0.5 : v + 0.5;
	vnpu_store_f64(data, dtype, off, v);
}

static void rsz_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[c->num_in];
	struct rsz_taps t[VNPU_OPS_MAX_RANK];
	u32 pos[VNPU_OPS_MAX_RANK];
	struct rsz_plan p;
	u64 e, begin, end, total = vnpu_tview_elems(o);
	u32 rank = x->rank, d;

	if (rsz_plan(c, &p))
		return;
	begin = tile * (u64)p.elems_per_tile;
	end = begin + (u64)p.elems_per_tile;
	if (end > total)
		end = total;
	for (e = begin; e < end; e++) {
		s64 oo = 0, rem = (s64)e;
		bool inside = true;
		double acc = 0;

		for (d = rank; d-- > 0;) {
			s64 i = rem % o->shape[d];
			double src;

			rem /= o->shape[d];
			oo += i * o->strides[d];
			if (!rsz_src(c, &p, d, i, &src))
				inside = false;
			rsz_weights(&p, src, x->shape[d], &t[d]);
			pos[d] = 0;
		}
		if (!inside) {
			rsz_store(o->data, o->dtype, oo, p.extrap);
			continue;
		}
		if (p.mode == RSZ_NEAREST) {
			s64 xo = 0;

			/* one tap per dim: copy the element unchanged */
			for (d = 0; d < rank; d++)
				xo += t[d].idx[0] * x->strides[d];
			vnpu_move_copy1(o->data, oo, x->data, xo,
					vnpu_dtype_size(o->dtype));
			continue;
		}
		/* every combination of taps, odometer order */
		for (;;) {
			double w = 1;
			s64 xo = 0;

			for (d = 0; d < rank; d++) {
				w *= t[d].w[pos[d]];
				xo += t[d].idx[pos[d]] * x->strides[d];
			}
			acc += w * vnpu_load_f64(x->data, x->dtype, xo);
			for (d = rank; d-- > 0;) {
				if (++pos[d] < t[d].n)
					break;
				pos[d] = 0;
			}
			if (d >= rank)
				break;
		}
		rsz_store(o->data, o->dtype, oo, acc);
	}
}

const struct vnpu_op_impl vnpu_ops_resize_nd[] = {
	{ DRM_VNPU_OP_RESIZE_ND, "resize_nd", rsz_check, rsz_tiles, rsz_run },
	{ 0 }
};
