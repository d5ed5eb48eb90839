// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * POOL_ND: max and average pooling over 1, 2 or 3 spatial dims
 * (N, C, D1 [, D2 [, D3]]), with asymmetric pads, dilations, ceil mode
 * (the output view's size decides), count_include_pad, a divisor
 * override and, for max, the flat indices of the maxima (ONNX MaxPool's
 * second output, row- or column-major; or, as PyTorch's, counted within
 * the plane).
 *
 * A piece is a run of output lines (all but the last output dim fixed).
 * Elements are read and written through the library's conversions, so
 * every compute dtype works; sums are in double.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"
#include "vnpu_nd_util.h"

#define PND_MAX		0
#define PND_AVG		1

/**
 * struct pnd_plan - a pooling call, decoded
 * @sp: spatial dims
 * @mode: PND_MAX or PND_AVG
 * @incl: the average counts the padding
 * @divisor: fixed divisor of the average (0: count the taps)
 * @colmajor: indices are column-major within a plane
 * @in_plane: indices count from the start of the plane, not of x
 * @k: window per spatial dim
 * @s: stride
 * @pb: pads at the start
 * @pe: pads at the end
 * @d: dilation
 * @in: input size per spatial dim
 * @out: output size per spatial dim
 * @taps: window taps (product of @k)
 * @split: the pieces, runs of output lines (N * C * all output dims
 *	   but the last make the lines)
 */
struct pnd_plan {
	u32 sp;
	s64 mode, divisor;
	bool incl, colmajor, in_plane;
	s64 k[3], s[3], pb[3], pe[3], d[3], in[3], out[3];
	s64 taps;
	struct vnpu_nd_split split;
};

static int pnd_plan(const struct vnpu_op_call *c, struct pnd_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	u32 i;

	if (c->num_in != 1 || (c->num_out != 1 && c->num_out != 2) ||
	    !c->has_attrs || !vnpu_move_io_ok(c, 1, c->num_out) ||
	    x->rank < 3 || x->rank > 5 || o->rank != x->rank ||
	    o->dtype != x->dtype || o->shape[0] != x->shape[0] ||
	    o->shape[1] != x->shape[1])
		return -VNPU_OPS_EINVAL;
	p->sp = x->rank - 2;
	p->mode = c->attrs.ints[0];
	p->incl = c->attrs.ints[1] != 0;
	p->divisor = c->attrs.ints[2];
	p->colmajor = c->attrs.ints[3] != 0;
	p->in_plane = c->attrs.ints[19] != 0;
	if ((p->mode != PND_MAX && p->mode != PND_AVG) ||
	    (c->attrs.ints[1] != 0 && c->attrs.ints[1] != 1) ||
	    (c->attrs.ints[3] != 0 && c->attrs.ints[3] != 1) ||
	    (c->attrs.ints[19] != 0 && c->attrs.ints[19] != 1) ||
	    !vnpu_nd_in_range(p->divisor, 0))
		return -VNPU_OPS_EINVAL;
	if (p->mode == PND_AVG && x->dtype == DRM_VNPU_DTYPE_BOOL)
		return -VNPU_OPS_EINVAL;
	if (c->num_out == 2) {
		const struct vnpu_tview *ix = &c->t[2];

		if (p->mode != PND_MAX || (ix->dtype != DRM_VNPU_DTYPE_INT64 &&
					   ix->dtype != DRM_VNPU_DTYPE_INT32) ||
		    !vnpu_move_same_shape(ix, o))
			return -VNPU_OPS_EINVAL;
	}
	p->taps = 1;
	for (i = 0; i < p->sp; i++) {
		s64 num, lo, hi;

		p->k[i] = c->attrs.ints[4 + i];
		p->s[i] = c->attrs.ints[7 + i];
		p->pb[i] = c->attrs.ints[10 + i];
		p->pe[i] = c->attrs.ints[13 + i];
		p->d[i] = c->attrs.ints[16 + i];
		p->in[i] = x->shape[2 + i];
		p->out[i] = o->shape[2 + i];
		if (!vnpu_nd_in_range(p->k[i], 1) || !vnpu_nd_in_range(p->s[i], 1) ||
		    !vnpu_nd_in_range(p->pb[i], 0) || !vnpu_nd_in_range(p->pe[i], 0) ||
		    !vnpu_nd_in_range(p->d[i], 1))
			return -VNPU_OPS_EINVAL;
		/* the output is the floor or the ceil of the window count */
		num = p->in[i] + p->pb[i] + p->pe[i] - p->d[i] * (p->k[i] - 1) - 1;
		if (num < 0 || p->in[i] < 1)
			return -VNPU_OPS_EINVAL;
		lo = num / p->s[i] + 1;
		hi = (num + p->s[i] - 1) / p->s[i] + 1;
		if (p->out[i] < lo || p->out[i] > hi)
			return -VNPU_OPS_EINVAL;
		p->taps *= p->k[i];	/* <= 2^60 */
		if (p->taps > (s64)VNPU_OPS_PIECE_WORK)
			return -VNPU_OPS_EINVAL;
	}
	/* A piece is at least one line: out[sp - 1] windows. */
	return vnpu_nd_split(&p->split, vnpu_tview_elems(o), p->out[p->sp - 1],
			     p->taps);
}

DEFINE_VNPU_ND_CHECK_TILES(pnd, struct pnd_plan, pnd_plan, split)

/* One output element: window origin @a per dim, plane offset @xb. */
static void pnd_window(const struct vnpu_op_call *c, const struct pnd_plan *p,
		       const s64 *a, s64 xb, s64 plane, s64 oo, s64 io)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 t[3] = { 0, 0, 0 }, best_at = -1, valid = 0, padded = 1;
	double best = 0, sum = 0;
	bool nan = false;
	u32 i;

	for (i = 0; i < p->sp; i++) {
		/* taps of this dim inside the padded input */
		s64 end = p->in[i] + p->pe[i], n = 0, q;

		for (q = 0; q < p->k[i]; q++) {
			s64 pos = a[i] + q * p->d[i];

			if (pos >= -p->pb[i] && pos < end)
				n++;
		}
		padded *= n;
	}
	do {
		s64 off = xb, flat = 0, flat_c = 0, mul = 1;
		bool inside = true;

		for (i = 0; i < p->sp; i++) {
			s64 pos = a[i] + t[i] * p->d[i];

			if (pos < 0 || pos >= p->in[i])
				inside = false;
			off += pos * x->strides[2 + i];
			flat = flat * p->in[i] + pos;
		}
		for (i = p->sp; i-- > 0;) {
			flat_c = flat_c * p->in[i] + a[i] + t[i] * p->d[i];
			mul *= p->in[i];
		}
		if (inside) {
			double v = vnpu_load_f64(x->data, x->dtype, off);

			valid++;
			sum += v;
			if (!nan && (best_at < 0 || v > best || v != v)) {
				best = v;
				best_at = (p->in_plane ? 0 : plane * mul) +
					  (p->colmajor ? flat_c : flat);
				nan = v != v;
			}
		}
	} while (vnpu_nd_next(t, p->k, p->sp));
	if (p->mode == PND_MAX) {
		if (best_at < 0)
			best = -__builtin_inf();
		vnpu_store_f64(o->data, o->dtype, oo, best);
		if (c->num_out == 2)
			vnpu_store_s64(c->t[2].data, c->t[2].dtype, io,
				       best_at < 0 ? 0 : best_at);
		return;
	}
	if (p->divisor)
		sum /= (double)p->divisor;
	else if (p->incl ? padded : valid)
		sum /= (double)(p->incl ? padded : valid);
	else
		sum = 0;
	vnpu_store_f64(o->data, o->dtype, oo, sum);
}

static void pnd_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	struct pnd_plan p;
	s64 line, first, last, j;

	if (pnd_plan(c, &p))
		return;
	vnpu_nd_piece(&p.split, tile, &first, &last);
	for (line = first; line < last; line++) {
		s64 idx[3] = { 0, 0, 0 }, rem, n, ch, xb, ob, ib = 0;
		s64 a[3];
		u32 i, ls = p.sp - 1;

		rem = vnpu_nd_line_pos(line, p.out, ls, idx);
		ch = rem % x->shape[1];
		n = rem / x->shape[1];
		xb = n * x->strides[0] + ch * x->strides[1];
		ob = n * o->strides[0] + ch * o->strides[1];
		if (c->num_out == 2)
			ib = n * c->t[2].strides[0] + ch * c->t[2].strides[1];
		for (i = 0; i < ls; i++) {
			a[i] = idx[i] * p.s[i] - p.pb[i];
			ob += idx[i] * o->strides[2 + i];
			if (c->num_out == 2)
				ib += idx[i] * c->t[2].strides[2 + i];
		}
		for (j = 0; j < p.out[ls]; j++) {
			a[ls] = j * p.s[ls] - p.pb[ls];
			pnd_window(c, &p, a, xb, n * x->shape[1] + ch,
				   ob + j * o->strides[2 + ls],
				   c->num_out == 2 ?
				   ib + j * c->t[2].strides[2 + ls] : 0);
		}
	}
}

const struct vnpu_op_impl vnpu_ops_pool_nd[] = {
	{ DRM_VNPU_OP_POOL_ND, "pool_nd", pnd_check, pnd_tiles, pnd_run },
	{ 0 }
};
