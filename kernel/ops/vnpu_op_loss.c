// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Losses. NLL_LOSS picks -logp[n, target[n, d...], d...] (times the
 * target class's weight) for every position of the target; reduction
 * none writes them out, sum and mean add them up in double in one piece
 * (so the target may hold VNPU_OPS_PIECE_WORK / NLL_COST positions).
 * SoftmaxCrossEntropyLoss is LOG_SOFTMAX over dim 1 followed by this.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_math.h"

#define NLL_NONE	0
#define NLL_SUM		1
#define NLL_MEAN	2
#define NLL_COST	4

/* Every floating-point dtype, DOUBLE too (sums are in double). */
static bool nll_float_dtype(u32 dt)
{
	return vnpu_dtype_is_float(dt) || dt == DRM_VNPU_DTYPE_DOUBLE;
}

static bool nll_index_dtype(u32 dt)
{
	return dt == DRM_VNPU_DTYPE_INT64 || dt == DRM_VNPU_DTYPE_INT32;
}

static int nll_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *t = &c->t[1], *o;
	s64 red = vnpu_attr_int(c, 0, NLL_MEAN), flag = vnpu_attr_int(c, 2, 0);
	u32 d;

	if (c->num_in < 2 || c->num_in > 3 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	o = &c->t[c->num_in];
	if (!nll_float_dtype(x->dtype) || o->dtype != x->dtype ||
	    !nll_index_dtype(t->dtype) || x->rank < 2 ||
	    x->rank > VNPU_OPS_MAX_RANK || t->rank != x->rank - 1 ||
	    red < NLL_NONE || red > NLL_MEAN || flag < 0 || flag > 1)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (x->shape[d] < 0)
			return -VNPU_OPS_EINVAL;
	for (d = 0; d < t->rank; d++)
		if (t->shape[d] != x->shape[d ? d + 1 : 0])
			return -VNPU_OPS_EINVAL;
	if (c->num_in == 3) {
		const struct vnpu_tview *w = &c->t[2];

		if (w->dtype != x->dtype || w->rank != 1 ||
		    w->shape[0] != x->shape[1])
			return -VNPU_OPS_EINVAL;
	}
	if (red == NLL_NONE) {
		if (o->rank != t->rank)
			return -VNPU_OPS_EINVAL;
		for (d = 0; d < t->rank; d++)
			if (o->shape[d] != t->shape[d])
				return -VNPU_OPS_EINVAL;
		return 0;
	}
	if (vnpu_tview_elems(o) != 1)
		return -VNPU_OPS_EINVAL;
	return vnpu_piece_fits(vnpu_tview_elems(t), NLL_COST, 1) ? 0 :
	       -VNPU_OPS_EINVAL;
}

static u64 nll_tiles(const struct vnpu_op_call *c)
{
	if (nll_check(c))
		return 0;
	if (vnpu_attr_int(c, 0, NLL_MEAN) != NLL_NONE)
		return 1;
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[1]));
}

/*
 * Position @i of the target (row-major): its loss and weight; the loss
 * is NaN for a class outside [0, C), both are 0 for the ignored class.
 */
static void nll_at(const struct vnpu_op_call *c, u64 i, s64 *toff,
		   double *loss, double *weight)
{
	const struct vnpu_tview *x = &c->t[0], *t = &c->t[1];
	s64 xo = 0, to = 0, cls, ch = x->shape[1];
	u64 rest = i;
	int d;

	for (d = (int)t->rank - 1; d >= 0; d--) {
		s64 idx = (s64)(rest % (u64)t->shape[d]);

		rest /= (u64)t->shape[d];
		to += idx * t->strides[d];
		xo += idx * x->strides[d ? d + 1 : 0];
	}
	*toff = to;
	cls = vnpu_load_s64(t->data, t->dtype, to);
	if (vnpu_attr_int(c, 2, 0) && cls == vnpu_attr_int(c, 1, 0)) {
		*loss = 0;
		*weight = 0;
		return;
	}
	if (cls < 0 || cls >= ch) {
		*loss = VNPU_NAN;
		*weight = 0;
		return;
	}
	*weight = c->num_in == 3 ?
		  vnpu_load_f64(c->t[2].data, x->dtype, cls * c->t[2].strides[0]) :
		  1.0;
	*loss = -vnpu_load_f64(x->data, x->dtype, xo + cls * x->strides[1]) *
		*weight;
}

static void nll_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *t = &c->t[1], *o = &c->t[c->num_in];
	s64 red = vnpu_attr_int(c, 0, NLL_MEAN), toff;
	u64 i, begin, end, total;
	double loss, w, sum = 0, wsum = 0;

	if (nll_check(c))
		return;
	total = vnpu_tview_elems(t);
	if (red != NLL_NONE) {
		for (i = 0; i < total; i++) {
			nll_at(c, i, &toff, &loss, &w);
			sum += loss;
			wsum += w;
		}
		vnpu_store_f64(o->data, o->dtype, 0,
			       red == NLL_SUM ? sum : sum / wsum);
		return;
	}
	begin = tile * VNPU_OPS_TILE_ELEMS;
	end = begin + VNPU_OPS_TILE_ELEMS < total ? begin +
	      VNPU_OPS_TILE_ELEMS : total;
	for (i = begin; i < end; i++) {
		s64 oo = 0;
		u64 rest = i;
		int d;

		nll_at(c, i, &toff, &loss, &w);
		for (d = (int)o->rank - 1; d >= 0; d--) {
			oo += (s64)(rest % (u64)o->shape[d]) * o->strides[d];
			rest /= (u64)o->shape[d];
		}
		vnpu_store_f64(o->data, o->dtype, oo, loss);
	}
}

const struct vnpu_op_impl vnpu_ops_loss[] = {
	{ DRM_VNPU_OP_NLL_LOSS, "nll_loss", nll_check, nll_tiles, nll_tile },
	{ 0 }
};
