// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Reductions: sum, mean, max, min, prod, L1 and L2 norms, log of the sum,
 * log-sum-exp and sum of squares over a set of axes, argmax and argmin.
 * x -> out; ints[0] is a bit mask of x's dims to reduce (0 means every
 * dim), ints[1] keepdim (0 or 1). Without attributes every dim is reduced
 * and no dim is kept.
 *
 * Floats accumulate in double and are rounded once on store; integers
 * accumulate in 64 bits and the result wraps to the output's width (the
 * exact sum or product modulo 2 ** width); integer means truncate toward
 * zero. L1 and sum of squares of integers wrap like sums; L2, log-sum and
 * log-sum-exp compute in double for every dtype and store with the
 * library's cast rules. Log-sum-exp keeps a running maximum m and the sum
 * of e ** (x - m), so it neither overflows nor loses small terms. Max, min
 * and the arg forms propagate NaN: a NaN is the maximum and the minimum,
 * and the arg forms return the first NaN (the last with ints[2] 1). An
 * empty reduction gives 0 (sum, L1, L2, sum of squares), 1 (prod), -Inf
 * (log-sum, log-sum-exp) or NaN (mean; 0 for integers); max, min and the
 * arg forms reject it unless the output is empty too.
 *
 * Argmax and argmin select one dim (exactly one bit in ints[0]), or all
 * dims (ints[0] 0) for the index into the row-major flattened tensor; the
 * output is INT64 and ties give the first index, or the last with ints[2]
 * 1 (ONNX's select_last_index).
 *
 * Each output element is one row of the plan; a tile is a run of rows of
 * about VNPU_OPS_TILE_ELEMS input elements (at least one row), so a row
 * may hold at most VNPU_OPS_PIECE_WORK elements (longer ones are
 * rejected). Contiguous fp32 rows of more than one chunk are split
 * across engines instead for sums, max, min and the arg forms
 * (vnpu_op_reduce_split.c), whose vector loops also take contiguous fp32
 * rows of any length for max, min and the arg forms.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_reduce_split.h"

/* The plan's tensors. */
#define RED_X	0
#define RED_O	1

static bool red_is_arg(u32 op)
{
	return op == DRM_VNPU_OP_ARGMAX || op == DRM_VNPU_OP_ARGMIN;
}

/* Whether the op computes in double whatever the dtype (then stores). */
static bool red_in_double(u32 op)
{
	return op == DRM_VNPU_OP_REDUCE_L2 || op == DRM_VNPU_OP_REDUCE_LOG_SUM ||
	       op == DRM_VNPU_OP_REDUCE_LOG_SUM_EXP;
}

/*
 * Build the plan of a reduction call, checking the attributes and the
 * output's dtype and shape. Integer code only: check() uses it too.
 */
static int red_plan(const struct vnpu_op_call *c, struct vnpu_red_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 mask = vnpu_attr_int(c, 0, 0);
	s64 keep = vnpu_attr_int(c, 1, 0);
	s64 last = vnpu_attr_int(c, 2, 0);
	struct vnpu_split_rows split;
	u32 d, od = 0;

	if (c->num_in != 1 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (x->rank > VNPU_OPS_MAX_RANK || o->rank > VNPU_OPS_MAX_RANK ||
	    !vnpu_dtype_is_compute(x->dtype))
		return -VNPU_OPS_EINVAL;
	if (red_is_arg(c->op)) {
		if (o->dtype != DRM_VNPU_DTYPE_INT64)
			return -VNPU_OPS_EINVAL;
		if (mask & (mask - 1))		/* more than one axis */
			return -VNPU_OPS_EINVAL;
		if (last != 0 && last != 1)
			return -VNPU_OPS_EINVAL;
	} else {
		if (o->dtype != x->dtype)
			return -VNPU_OPS_EINVAL;
		if (x->dtype == DRM_VNPU_DTYPE_BOOL &&
		    c->op != DRM_VNPU_OP_REDUCE_MAX &&
		    c->op != DRM_VNPU_OP_REDUCE_MIN)
			return -VNPU_OPS_EINVAL;
	}
	if (mask < 0 || (mask >> x->rank))
		return -VNPU_OPS_EINVAL;
	if (keep != 0 && keep != 1)
		return -VNPU_OPS_EINVAL;
	if (!mask)
		mask = (s64)(BIT(x->rank) - 1);

	vnpu_red_plan_start(p, 2);
	for (d = 0; d < x->rank; d++) {
		bool reduced = mask & BIT(d);
		s64 str[2] = { x->strides[d], 0 };

		if (reduced && !keep) {
			vnpu_red_plan_reduce(p, x->shape[d], str);
			continue;
		}
		if (od >= o->rank || o->shape[od] != (reduced ? 1 : x->shape[d]))
			return -VNPU_OPS_EINVAL;
		str[1] = o->strides[od++];
		if (reduced) {
			str[1] = 0;
			vnpu_red_plan_reduce(p, x->shape[d], str);
		} else {
			vnpu_red_plan_keep(p, x->shape[d], str);
		}
	}
	if (od != o->rank)
		return -VNPU_OPS_EINVAL;
	vnpu_red_plan_finish(p);
	/* A row is read once, within one piece, unless split into chunks. */
	if (!vnpu_red_plan_fits(p, 1) && !vnpu_reduce_split_plan(c, p, &split))
		return -VNPU_OPS_EINVAL;
	/* Max, min and arg of nothing are undefined. */
	if (!p->len && p->rows &&
	    (red_is_arg(c->op) || c->op == DRM_VNPU_OP_REDUCE_MAX ||
	     c->op == DRM_VNPU_OP_REDUCE_MIN))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static int red_check(const struct vnpu_op_call *c)
{
	struct vnpu_red_plan p;

	return red_plan(c, &p);
}

static u32 red_phases(const struct vnpu_op_call *c, u64 *ends)
{
	struct vnpu_split_rows s;
	struct vnpu_red_plan p;

	if (red_plan(c, &p)) {
		ends[0] = 0;
		return 1;
	}
	if (vnpu_reduce_split_plan(c, &p, &s))
		return vnpu_reduce_split_phases(&s, ends);
	ends[0] = vnpu_red_plan_tiles(&p);
	return 1;
}

static u64 red_tiles(const struct vnpu_op_call *c)
{
	u64 ends[VNPU_OPS_MAX_PHASES];

	return ends[red_phases(c, ends) - 1];
}

/**
 * struct red_acc - one output element being accumulated
 * @c: the call
 * @op: the operator
 * @fsum: float sum, product or best value so far
 * @fmax: log-sum-exp's running maximum
 * @isum: integer sum or product, wrapping
 * @ibest: integer best value so far
 * @pos: elements seen (the flattened index of the next one)
 * @idx: index of the best value
 * @done: the best value is final (a NaN was found)
 * @last: arg forms: ties and NaNs select the last index
 * @nan: a NaN was found (the last-index arg forms look for later ones)
 */
struct red_acc {
	const struct vnpu_op_call *c;
	u32 op;
	double fsum;
	double fmax;
	u64 isum;
	s64 ibest;
	u64 pos;
	u64 idx;
	bool done;
	bool last;
	bool nan;
};

/* Max/min (want_max) and the arg forms over floats, NaN winning. */
static double red_best_float(struct red_acc *a, const double *v, u32 n,
			     double s, bool want_max)
{
	bool first = !a->pos && !a->nan;
	u32 i;

	for (i = 0; i < n && !a->done; i++) {
		if (v[i] != v[i]) {
			s = v[i];
			a->idx = a->pos + i;
			a->nan = true;
			a->done = !a->last;
			continue;
		}
		if (a->nan)
			continue;
		if (!first && !(want_max ? v[i] > s : v[i] < s) &&
		    !(a->last && v[i] == s))
			continue;
		s = v[i];
		a->idx = a->pos + i;
		first = false;
	}
	return s;
}

/* log(sum(e ** x)) relative to the running maximum a->fmax. */
static void red_lse_chunk(struct red_acc *a, const double *v, u32 n)
{
	double m = a->fmax, s = a->fsum;
	u32 i;

	for (i = 0; i < n; i++) {
		if (v[i] > m) {
			s = s * vnpu_red_exp(m - v[i]) + 1.0;
			m = v[i];
		} else if (v[i] == m) {
			s += 1.0;	/* also Inf == Inf, where Inf - Inf is NaN */
		} else {
			s += vnpu_red_exp(v[i] - m);	/* NaN stays NaN */
		}
	}
	a->fmax = m;
	a->fsum = s;
}

static void red_float_chunk(struct red_acc *a, const double *v, u32 n)
{
	double s = a->fsum;
	u32 i;

	switch (a->op) {
	case DRM_VNPU_OP_REDUCE_SUM:
	case DRM_VNPU_OP_REDUCE_MEAN:
	case DRM_VNPU_OP_REDUCE_LOG_SUM:
		for (i = 0; i < n; i++)
			s += v[i];
		break;
	case DRM_VNPU_OP_REDUCE_L1:
		for (i = 0; i < n; i++)
			s += vnpu_fabs(v[i]);
		break;
	case DRM_VNPU_OP_REDUCE_L2:
	case DRM_VNPU_OP_REDUCE_SUM_SQUARE:
		for (i = 0; i < n; i++)
			s += v[i] * v[i];
		break;
	case DRM_VNPU_OP_REDUCE_LOG_SUM_EXP:
		red_lse_chunk(a, v, n);
		return;
	case DRM_VNPU_OP_REDUCE_PROD:
		for (i = 0; i < n; i++)
			s *= v[i];
		break;
	case DRM_VNPU_OP_REDUCE_MAX:
	case DRM_VNPU_OP_ARGMAX:
		s = red_best_float(a, v, n, s, true);
		break;
	default:	/* min, argmin */
		s = red_best_float(a, v, n, s, false);
		break;
	}
	a->fsum = s;
}

static void red_int_chunk(struct red_acc *a, const s64 *v, u32 n)
{
	u64 s = a->isum;
	u32 i;

	switch (a->op) {
	case DRM_VNPU_OP_REDUCE_SUM:
	case DRM_VNPU_OP_REDUCE_MEAN:
		for (i = 0; i < n; i++)
			s += (u64)v[i];
		break;
	case DRM_VNPU_OP_REDUCE_L1:
		for (i = 0; i < n; i++)
			s += v[i] < 0 ? -(u64)v[i] : (u64)v[i];
		break;
	case DRM_VNPU_OP_REDUCE_SUM_SQUARE:
		for (i = 0; i < n; i++)
			s += (u64)v[i] * (u64)v[i];
		break;
	case DRM_VNPU_OP_REDUCE_PROD:
		for (i = 0; i < n; i++)
			s *= (u64)v[i];
		break;
	case DRM_VNPU_OP_REDUCE_MAX:
	case DRM_VNPU_OP_ARGMAX:
		for (i = 0; i < n; i++)
			if (!(a->pos + i) || v[i] > a->ibest ||
			    (a->last && v[i] == a->ibest)) {
				a->ibest = v[i];
				a->idx = a->pos + i;
			}
		break;
	default:
		for (i = 0; i < n; i++)
			if (!(a->pos + i) || v[i] < a->ibest ||
			    (a->last && v[i] == a->ibest)) {
				a->ibest = v[i];
				a->idx = a->pos + i;
			}
		break;
	}
	a->isum = s;
}

/*
 * UINT64 for MAX/MIN/ARG*: with the top bit flipped the signed order is
 * the unsigned one (red_store flips the best value back).
 */
static bool red_u64_flip(const struct vnpu_op_call *c)
{
	return c->t[0].dtype == DRM_VNPU_DTYPE_UINT64 &&
	       (c->op == DRM_VNPU_OP_REDUCE_MAX || c->op == DRM_VNPU_OP_REDUCE_MIN ||
		red_is_arg(c->op));
}

static void red_u64_ordered(s64 *v, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		v[i] = (s64)((u64)v[i] ^ (1ULL << 63));
}

/* A run of a row: in chunks through a buffer of the accumulator's type. */
static void red_run(void *ctx, const s64 *offs, const s64 *inner, s64 count)
{
	struct red_acc *a = ctx;
	const struct vnpu_tview *x = &a->c->t[0];
	union {
		double f[VNPU_RED_CHUNK];
		s64 i[VNPU_RED_CHUNK];
	} buf;
	s64 done = 0;

	while (done < count && !a->done) {
		u32 n = count - done < VNPU_RED_CHUNK ? (u32)(count - done) :
			VNPU_RED_CHUNK;
		s64 off = offs[RED_X] + done * inner[RED_X];

		if (vnpu_dtype_is_fp(x->dtype) || red_in_double(a->op)) {
			vnpu_red_load_f64(x->data, x->dtype, off, inner[RED_X], n,
					  buf.f);
			red_float_chunk(a, buf.f, n);
		} else {
			vnpu_red_load_s64(x->data, x->dtype, off, inner[RED_X], n,
					  buf.i);
			if (red_u64_flip(a->c))
				red_u64_ordered(buf.i, n);
			red_int_chunk(a, buf.i, n);
		}
		a->pos += n;
		done += n;
	}
}

static void red_store(const struct vnpu_op_call *c, const struct red_acc *a,
		      u64 len, s64 off)
{
	const struct vnpu_tview *o = &c->t[1];
	bool is_float = vnpu_dtype_is_fp(c->t[0].dtype);
	u64 top = red_u64_flip(c) ? 1ULL << 63 : 0;

	switch (c->op) {
	case DRM_VNPU_OP_REDUCE_L2:
		vnpu_store_f64(o->data, o->dtype, off, vnpu_red_sqrt(a->fsum));
		return;
	case DRM_VNPU_OP_REDUCE_LOG_SUM:
		vnpu_store_f64(o->data, o->dtype, off, vnpu_log(a->fsum));
		return;
	case DRM_VNPU_OP_REDUCE_LOG_SUM_EXP:
		vnpu_store_f64(o->data, o->dtype, off,
			       a->fmax + vnpu_log(a->fsum));
		return;
	case DRM_VNPU_OP_ARGMAX:
	case DRM_VNPU_OP_ARGMIN:
		((s64 *)o->data)[off] = (s64)a->idx;
		return;
	case DRM_VNPU_OP_REDUCE_MEAN:
		if (is_float)
			vnpu_store_f64(o->data, o->dtype, off,
				       len ? a->fsum / (double)len : VNPU_NAN);
		else if (c->t[0].dtype == DRM_VNPU_DTYPE_UINT64)
			vnpu_store_s64(o->data, o->dtype, off,
				       len ? (s64)((u64)a->isum / len) : 0);
		else
			vnpu_store_s64(o->data, o->dtype, off,
				       len ? (s64)a->isum / (s64)len : 0);
		return;
	case DRM_VNPU_OP_REDUCE_MAX:
	case DRM_VNPU_OP_REDUCE_MIN:
		if (is_float)
			vnpu_store_f64(o->data, o->dtype, off, a->fsum);
		else
			vnpu_store_s64(o->data, o->dtype, off,
				       (s64)((u64)a->ibest ^ top));
		return;
	default:	/* sum, prod, L1, sum of squares */
		if (is_float)
			vnpu_store_f64(o->data, o->dtype, off, a->fsum);
		else
			vnpu_store_s64(o->data, o->dtype, off, (s64)a->isum);
		return;
	}
}

static void red_tile(const struct vnpu_op_call *c, u64 tile)
{
	struct vnpu_red_plan p;
	s64 offs[VNPU_RED_TENSORS], kidx[VNPU_RED_DIMS];
	struct vnpu_split_rows s;
	u64 row, end;

	if (red_plan(c, &p))
		return;
	if (vnpu_reduce_split_plan(c, &p, &s)) {
		vnpu_reduce_split_run(c, &p, &s, tile);
		return;
	}
	vnpu_red_plan_tile(&p, tile, &row, &end, offs, kidx);
	/* Contiguous fp32 rows: the vector loops find max, min and the args. */
	if (vnpu_reduce_is_extreme(c->op) && p.len &&
	    c->t[0].dtype == DRM_VNPU_DTYPE_FLOAT &&
	    vnpu_split_contiguous(&p, BIT(RED_X))) {
		for (; row < end; row++) {
			struct vnpu_split_part best;

			vnpu_reduce_extreme_f32(c, (const float *)c->t[0].data +
						offs[RED_X], p.len, 0, &best);
			vnpu_reduce_extreme_store(c, &best, 1, offs[RED_O]);
			vnpu_red_plan_next_row(&p, offs, kidx);
		}
		return;
	}
	for (; row < end; row++) {
		struct red_acc a = {
			.c = c,
			.op = c->op,
			.fsum = c->op == DRM_VNPU_OP_REDUCE_PROD ? 1.0 : 0.0,
			.isum = c->op == DRM_VNPU_OP_REDUCE_PROD ? 1 : 0,
			.fmax = -VNPU_INF,
			.last = red_is_arg(c->op) && vnpu_attr_int(c, 2, 0) == 1,
		};

		vnpu_red_walk(&p, offs, red_run, &a);
		red_store(c, &a, p.len, offs[RED_O]);
		vnpu_red_plan_next_row(&p, offs, kidx);
	}
}

/*
 * The reductions with a value for an empty row (VNPU_OP_EMPTY_OK): a row
 * of x is walked by vnpu_red_walk(), which returns before touching x when
 * the row has no elements, and the row's result (0, 1, NaN or -Inf) goes
 * to the output. x is empty only through a reduced dim (an empty kept dim
 * empties the output too). Max, min and the arg forms reject empty rows.
 */
const struct vnpu_op_impl vnpu_ops_reduce[] = {
	{ DRM_VNPU_OP_REDUCE_SUM, "reduce_sum", red_check, red_tiles, red_tile,
	  red_phases, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_REDUCE_MEAN, "reduce_mean", red_check, red_tiles, red_tile,
	  red_phases, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_REDUCE_MAX, "reduce_max", red_check, red_tiles, red_tile,
	  red_phases },
	{ DRM_VNPU_OP_REDUCE_MIN, "reduce_min", red_check, red_tiles, red_tile,
	  red_phases },
	{ DRM_VNPU_OP_REDUCE_PROD, "reduce_prod", red_check, red_tiles, red_tile,
	  NULL, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_ARGMAX, "argmax", red_check, red_tiles, red_tile,
	  red_phases },
	{ DRM_VNPU_OP_ARGMIN, "argmin", red_check, red_tiles, red_tile,
	  red_phases },
	{ DRM_VNPU_OP_REDUCE_L1, "reduce_l1", red_check, red_tiles, red_tile,
	  NULL, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_REDUCE_L2, "reduce_l2", red_check, red_tiles, red_tile,
	  red_phases, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_REDUCE_LOG_SUM, "reduce_log_sum", red_check, red_tiles,
	  red_tile, NULL, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_REDUCE_LOG_SUM_EXP, "reduce_log_sum_exp", red_check,
	  red_tiles, red_tile, NULL, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_REDUCE_SUM_SQUARE, "reduce_sum_square", red_check,
	  red_tiles, red_tile, red_phases, VNPU_OP_EMPTY_OK },
	{ 0 }
};
