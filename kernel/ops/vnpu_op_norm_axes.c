// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * NORM_AXES: mean/variance normalisation over any set of dims, the one
 * kernel behind ONNX's LayerNormalization (with its Mean and InvStdDev
 * outputs), InstanceNormalization, BatchNormalization in training mode
 * and MeanVarianceNormalization. Gamma and beta come as views of x's rank
 * (size-1 dims broadcast), so per-channel and per-row parameters are the
 * same case. Float dtypes; statistics in double, rounded once on store.
 *
 * A row is the set of elements sharing the kept dims' indices; the row
 * is read three times (sum, squared deviations, output), so a row may hold
 * VNPU_OPS_PIECE_WORK / NAX_COST elements.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_reduce_util.h"

/*
 * Elements staged at a time: half the reductions' chunk keeps the two
 * double buffers of nax_run within the kernel's frame limit (the sums
 * run in element order either way).
 */
#define NAX_CHUNK	(VNPU_RED_CHUNK / 2)

#define NAX_X		0
#define NAX_O		1
#define NAX_G		2
#define NAX_B		3
#define NAX_MEAN	4
#define NAX_STAT	5

#define NAX_COST	4

/* Every floating-point dtype, DOUBLE too (statistics are in double). */
static bool nax_dtype_ok(u32 dt)
{
	return vnpu_dtype_is_float(dt) || dt == DRM_VNPU_DTYPE_DOUBLE;
}

/* ints[1] flags */
#define NAX_EPS_ON_STD	BIT(0)
#define NAX_STAT_VAR	BIT(1)

/**
 * struct nax_row - one row under way
 * @c: the call
 * @pass: 0 sum, 1 squared deviations, 2 output
 * @acc: the pass's accumulator
 * @mean: the row's mean
 * @inv: what the deviations are multiplied by
 * @g: gamma's index in the call, or -1
 * @b: beta's index, or -1
 */
struct nax_row {
	const struct vnpu_op_call *c;
	int pass;
	double acc;
	double mean;
	double inv;
	int g;
	int b;
};

/* A parameter of x's rank: every dim x's size or 1. */
static bool nax_param_ok(const struct vnpu_tview *x, const struct vnpu_tview *p)
{
	u32 d;

	if (p->rank != x->rank)
		return false;
	for (d = 0; d < x->rank; d++)
		if (p->shape[d] != x->shape[d] && p->shape[d] != 1)
			return false;
	return true;
}

/* A statistics output: x's shape with the normalised dims 1. */
static bool nax_stat_ok(const struct vnpu_tview *x, const struct vnpu_tview *s,
			u64 mask)
{
	u32 d;

	if (s->rank != x->rank)
		return false;
	for (d = 0; d < x->rank; d++)
		if (s->shape[d] != ((mask >> d) & 1 ? 1 : x->shape[d]))
			return false;
	return true;
}

static s64 nax_stride(const struct vnpu_tview *v, u32 d)
{
	return v->shape[d] == 1 ? 0 : v->strides[d];
}

static int nax_plan(const struct vnpu_op_call *c, struct vnpu_red_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *o;
	s64 str[VNPU_RED_TENSORS];
	u32 i, d, nin = c->num_in, nout = c->num_out;
	s64 mask, flags;

	if (nin < 1 || nin > 3 || (nout != 1 && nout != 3))
		return -VNPU_OPS_EINVAL;
	if (!nax_dtype_ok(x->dtype) || x->rank > VNPU_OPS_MAX_RANK)
		return -VNPU_OPS_EINVAL;
	for (i = 0; i < nin + nout; i++)
		if (c->t[i].dtype != x->dtype)
			return -VNPU_OPS_EINVAL;
	o = &c->t[nin];
	mask = vnpu_attr_int(c, 0, x->rank ? 1LL << (x->rank - 1) : 0);
	flags = vnpu_attr_int(c, 1, 0);
	if (mask < 0 || (x->rank < 63 && (mask >> x->rank)) ||
	    (flags & ~(s64)(NAX_EPS_ON_STD | NAX_STAT_VAR)))
		return -VNPU_OPS_EINVAL;
	if (o->rank != x->rank)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (o->shape[d] != x->shape[d])
			return -VNPU_OPS_EINVAL;
	for (i = 1; i < nin; i++)
		if (!nax_param_ok(x, &c->t[i]))
			return -VNPU_OPS_EINVAL;
	for (i = 1; i < nout; i++)
		if (!nax_stat_ok(x, &c->t[nin + i], (u64)mask))
			return -VNPU_OPS_EINVAL;

	vnpu_red_plan_start(p, VNPU_RED_TENSORS);
	for (d = 0; d < x->rank; d++) {
		__builtin_memset(str, 0, sizeof(str));
		str[NAX_X] = x->strides[d];
		str[NAX_O] = o->strides[d];
		if (nin > 1)
			str[NAX_G] = nax_stride(&c->t[1], d);
		if (nin > 2)
			str[NAX_B] = nax_stride(&c->t[2], d);
		if ((mask >> d) & 1) {
			if (vnpu_red_plan_reduce(p, x->shape[d], str))
				return -VNPU_OPS_EINVAL;
			continue;
		}
		if (nout > 1) {
			str[NAX_MEAN] = c->t[nin + 1].strides[d];
			str[NAX_STAT] = c->t[nin + 2].strides[d];
		}
		if (vnpu_red_plan_keep(p, x->shape[d], str))
			return -VNPU_OPS_EINVAL;
	}
	vnpu_red_plan_finish(p);
	return vnpu_red_plan_fits(p, NAX_COST) ? 0 : -VNPU_OPS_EINVAL;
}

static int nax_check(const struct vnpu_op_call *c)
{
	struct vnpu_red_plan p;

	return nax_plan(c, &p);
}

static u64 nax_tiles(const struct vnpu_op_call *c)
{
	struct vnpu_red_plan p;

	if (nax_plan(c, &p))
		return 0;
	return vnpu_red_plan_tiles(&p);
}

static void nax_run(void *ctx, const s64 *offs, const s64 *inner, s64 count)
{
	struct nax_row *r = ctx;
	const struct vnpu_op_call *c = r->c;
	u32 dt = c->t[0].dtype;
	double v[NAX_CHUNK], w[NAX_CHUNK];
	s64 done = 0;
	u32 i, t;

	while (done < count) {
		u32 n = count - done < NAX_CHUNK ? (u32)(count - done) :
			NAX_CHUNK;
		s64 o[VNPU_RED_TENSORS];

		for (t = 0; t < VNPU_RED_TENSORS; t++)
			o[t] = offs[t] + done * inner[t];
		vnpu_red_load_f64(c->t[0].data, dt, o[NAX_X], inner[NAX_X], n, v);
		if (r->pass == 0) {
			for (i = 0; i < n; i++)
				r->acc += v[i];
		} else if (r->pass == 1) {
			for (i = 0; i < n; i++)
				r->acc += (v[i] - r->mean) * (v[i] - r->mean);
		} else {
			for (i = 0; i < n; i++)
				v[i] = (v[i] - r->mean) * r->inv;
			if (r->g >= 0) {
				vnpu_red_load_f64(c->t[r->g].data, dt, o[NAX_G],
						  inner[NAX_G], n, w);
				for (i = 0; i < n; i++)
					v[i] *= w[i];
			}
			if (r->b >= 0) {
				vnpu_red_load_f64(c->t[r->b].data, dt, o[NAX_B],
						  inner[NAX_B], n, w);
				for (i = 0; i < n; i++)
					v[i] += w[i];
			}
			vnpu_red_store_f64(c->t[c->num_in].data, dt, o[NAX_O],
					   inner[NAX_O], n, v);
		}
		done += n;
	}
}

static void nax_pass(struct nax_row *r, const struct vnpu_red_plan *p,
		     const s64 *offs, int pass)
{
	r->pass = pass;
	r->acc = 0;
	vnpu_red_walk(p, offs, nax_run, r);
}

static void nax_tile(const struct vnpu_op_call *c, u64 tile)
{
	struct vnpu_red_plan p;
	s64 offs[VNPU_RED_TENSORS], kidx[VNPU_RED_DIMS];
	struct nax_row r = { .c = c, .g = -1, .b = -1 };
	double eps, n, var, sd;
	s64 flags;
	u64 row, end;
	u32 nin = c->num_in;

	if (nax_plan(c, &p))
		return;
	eps = vnpu_attr_float(c, 0, 0.00001f);
	flags = vnpu_attr_int(c, 1, 0);
	n = (double)p.len;
	if (nin > 1)
		r.g = 1;
	if (nin > 2)
		r.b = 2;
	vnpu_red_plan_tile(&p, tile, &row, &end, offs, kidx);
	for (; row < end; row++) {
		nax_pass(&r, &p, offs, 0);
		r.mean = r.acc / n;
		nax_pass(&r, &p, offs, 1);
		var = r.acc / n;
		if (flags & NAX_EPS_ON_STD)
			sd = vnpu_red_sqrt(var) + eps;
		else
			sd = vnpu_red_sqrt(var + eps);
		r.inv = 1.0 / sd;
		nax_pass(&r, &p, offs, 2);
		if (c->num_out > 1) {
			vnpu_store_f64(c->t[nin + 1].data, c->t[0].dtype,
				       offs[NAX_MEAN], r.mean);
			vnpu_store_f64(c->t[nin + 2].data, c->t[0].dtype,
				       offs[NAX_STAT],
				       flags & NAX_STAT_VAR ? var : r.inv);
		}
		vnpu_red_plan_next_row(&p, offs, kidx);
	}
}

/*
 * LRN: every output element reads the squares of its channel window, at
 * most min(size, C) elements, so a tile holds VNPU_OPS_TILE_ELEMS / that.
 */
static u64 lrn_window(const struct vnpu_op_call *c)
{
	s64 size = vnpu_attr_int(c, 0, 5), ch = c->t[0].shape[1];

	return (u64)(size < ch ? size : ch);
}

static int lrn_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	u32 d;

	if (c->num_in != 1 || c->num_out != 1 || x->rank < 2 ||
	    x->rank > VNPU_OPS_MAX_RANK || !nax_dtype_ok(x->dtype) ||
	    o->dtype != x->dtype || o->rank != x->rank)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (o->shape[d] != x->shape[d] || x->shape[d] < 0)
			return -VNPU_OPS_EINVAL;
	if (vnpu_attr_int(c, 0, 5) < 1)
		return -VNPU_OPS_EINVAL;
	return vnpu_piece_fits(lrn_window(c) + 1, 1, 1) ? 0 : -VNPU_OPS_EINVAL;
}

static u64 lrn_per_tile(const struct vnpu_op_call *c)
{
	u64 w = lrn_window(c) + 1, per = VNPU_OPS_TILE_ELEMS / w;

	return per ? per : 1;
}

static u64 lrn_tiles(const struct vnpu_op_call *c)
{
	u64 per;

	if (lrn_check(c))
		return 0;
	per = lrn_per_tile(c);
	return (vnpu_tview_elems(&c->t[0]) + per - 1) / per;
}

static void lrn_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 size = vnpu_attr_int(c, 0, 5), ch = x->shape[1];
	double alpha = vnpu_attr_float(c, 0, 0.0001f);
	double beta = vnpu_attr_float(c, 1, 0.75f);
	double bias = vnpu_attr_float(c, 2, 1.0f);
	s64 lo_w = (size - 1) / 2, hi_w = size / 2;
	u64 per, i, begin, end, total;

	if (lrn_check(c))
		return;
	per = lrn_per_tile(c);
	total = vnpu_tview_elems(x);
	begin = tile * per;
	end = begin + per < total ? begin + per : total;
	for (i = begin; i < end; i++) {
		s64 xo = 0, oo = 0, cidx = 0, k, lo, hi;
		u64 rest = i;
		double sum = 0, v;
		int d;

		for (d = (int)x->rank - 1; d >= 0; d--) {
			s64 idx = (s64)(rest % (u64)x->shape[d]);

			rest /= (u64)x->shape[d];
			xo += idx * x->strides[d];
			oo += idx * o->strides[d];
			if (d == 1)
				cidx = idx;
		}
		lo = cidx - lo_w < 0 ? 0 : cidx - lo_w;
		hi = cidx + hi_w > ch - 1 ? ch - 1 : cidx + hi_w;
		for (k = lo; k <= hi; k++) {
			v = vnpu_load_f64(x->data, x->dtype,
					  xo + (k - cidx) * x->strides[1]);
			sum += v * v;
		}
		v = vnpu_load_f64(x->data, x->dtype, xo);
		vnpu_store_f64(o->data, o->dtype, oo,
			       v / vnpu_pow(bias + alpha / (double)size * sum,
					    beta));
	}
}

const struct vnpu_op_impl vnpu_ops_norm_axes[] = {
	{ DRM_VNPU_OP_NORM_AXES, "norm_axes", nax_check, nax_tiles, nax_tile },
	{ DRM_VNPU_OP_LRN, "lrn", lrn_check, lrn_tiles, lrn_tile },
	{ 0 }
};
