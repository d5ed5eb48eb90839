// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Softmax and normalisation. Float dtypes only (FLOAT, FLOAT16, BF16);
 * every tensor of a call has the input's dtype, the output has its shape.
 * Statistics accumulate in double and results are rounded once on store.
 *
 * Each normalised group of elements (a softmax row, a layer-norm row, a
 * group, a batch-norm channel plane) is one row of the plan; a tile is a
 * run of rows of about VNPU_OPS_TILE_ELEMS elements (at least one row),
 * so a row may hold at most VNPU_OPS_PIECE_WORK / NORM_COST elements
 * (NORM_COST_SOFTMAX for softmax).
 * A row of up to VNPU_OPS_SCRATCH / 8 elements is read once and kept in
 * the engine's scratch memory as doubles for the later passes; longer rows
 * are read again.
 *
 * Special values follow PyTorch: softmax subtracts the row's maximum, so a
 * row holding NaN, +Inf, or only -Inf gives NaN everywhere, and -Inf
 * elements of other rows give 0 (log-softmax: -Inf). A NaN or Inf in a
 * normalised row makes the whole row NaN.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_expf.h"
#include "vnpu_norm_split.h"

/* The plan's tensors. */
#define NORM_X		0
#define NORM_O		1
#define NORM_G		2
#define NORM_B		3
#define NORM_MEAN	4
#define NORM_VAR	5

/*
 * Work per element of a row, in the units of VNPU_OPS_PIECE_WORK (one
 * element read and accumulated). Layer, group and RMS norm read a row up
 * to three times (mean, variance, output); softmax and log-softmax also
 * take one or two exps in double per element, which is what dominates
 * (in a TCG guest a 2^24-element softmax row took 15 s against 1.8 s for
 * a 2^26-element sum). So rows may hold VNPU_OPS_PIECE_WORK / 32
 * elements for softmax (2 Mi) and VNPU_OPS_PIECE_WORK / 4 (16 Mi) for
 * the norms.
 */
#define NORM_COST		4
#define NORM_COST_SOFTMAX	32

/* Doubles of scratch a row may keep. */
#define NORM_CACHE	(VNPU_OPS_SCRATCH / sizeof(double))

/**
 * struct norm_layout - where the optional tensors are
 * @g: index of gamma in the call, or -1
 * @b: index of beta, or -1
 * @mean: index of the running mean (batch norm), or -1
 * @var: index of the running variance, or -1
 * @eps: the default of floats[0]
 */
struct norm_layout {
	int g;
	int b;
	int mean;
	int var;
	float eps;
};

static bool norm_same_shape(const struct vnpu_tview *a,
			    const struct vnpu_tview *b)
{
	u32 d;

	if (a->rank != b->rank)
		return false;
	for (d = 0; d < a->rank; d++)
		if (a->shape[d] != b->shape[d])
			return false;
	return true;
}

/* Output, dtypes and ranks common to every operator of the family. */
static int norm_check_common(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0];
	u32 i;

	if (c->num_in < 1 || c->num_in > 5 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_is_float(x->dtype))
		return -VNPU_OPS_EINVAL;
	for (i = 0; i <= c->num_in; i++)
		if (c->t[i].dtype != x->dtype ||
		    c->t[i].rank > VNPU_OPS_MAX_RANK)
			return -VNPU_OPS_EINVAL;
	if (!norm_same_shape(x, &c->t[c->num_in]))
		return -VNPU_OPS_EINVAL;
	return 0;
}

/* An axis attribute, negative counting from the end; -1 when invalid. */
static int norm_axis(const struct vnpu_op_call *c, u32 rank)
{
	s64 a = vnpu_attr_int(c, 0, -1);

	if (a < 0)
		a += rank;
	return a >= 0 && a < rank ? (int)a : -1;
}

/* A 1-D parameter of @n elements. */
static bool norm_is_vec(const struct vnpu_tview *v, s64 n)
{
	return v->rank == 1 && v->shape[0] == n;
}

/* Whether a planned call's rows are split into chunks (@s may be NULL). */
static bool norm_split(const struct vnpu_op_call *c,
		       const struct vnpu_red_plan *p,
		       const struct norm_layout *l, struct vnpu_split_rows *s)
{
	struct vnpu_split_rows tmp;

	return vnpu_norm_split_plan(c, p, l->g, l->b, s ? s : &tmp);
}

/*
 * The plan of a call (checking it): tensors x, out, then gamma, beta,
 * mean, var (strides 0 where absent).
 */
static int norm_plan(const struct vnpu_op_call *c, struct vnpu_red_plan *p,
		     struct norm_layout *l)
{
	const struct vnpu_tview *x = &c->t[0], *o;
	const struct vnpu_tview *g = NULL, *b = NULL, *mv = NULL, *vv = NULL;
	s64 str[VNPU_RED_TENSORS];
	u32 d, nin = c->num_in;
	int axis, ret = norm_check_common(c);

	if (ret)
		return ret;
	o = &c->t[nin];
	l->g = -1;
	l->b = -1;
	l->mean = -1;
	l->var = -1;
	l->eps = 0.00001f;
	vnpu_red_plan_start(p, VNPU_RED_TENSORS);

	switch (c->op) {
	case DRM_VNPU_OP_SOFTMAX:
	case DRM_VNPU_OP_LOG_SOFTMAX:
		if (nin != 1)
			return -VNPU_OPS_EINVAL;
		axis = x->rank ? norm_axis(c, x->rank) : 0;
		if (axis < 0 || (!x->rank && vnpu_attr_int(c, 0, -1) != 0 &&
				 vnpu_attr_int(c, 0, -1) != -1))
			return -VNPU_OPS_EINVAL;
		for (d = 0; d < x->rank; d++) {
			__builtin_memset(str, 0, sizeof(str));
			str[NORM_X] = x->strides[d];
			str[NORM_O] = o->strides[d];
			if (d == (u32)axis)
				vnpu_red_plan_reduce(p, x->shape[d], str);
			else
				vnpu_red_plan_keep(p, x->shape[d], str);
		}
		break;

	case DRM_VNPU_OP_LAYER_NORM:
	case DRM_VNPU_OP_RMS_NORM:
		if (nin > (c->op == DRM_VNPU_OP_LAYER_NORM ? 3u : 2u))
			return -VNPU_OPS_EINVAL;
		if (c->op == DRM_VNPU_OP_RMS_NORM)
			l->eps = 0.000001f;
		axis = norm_axis(c, x->rank);
		if (axis < 0)
			return -VNPU_OPS_EINVAL;
		if (nin > 1)
			l->g = 1;
		if (nin > 2)
			l->b = 2;
		g = l->g < 0 ? NULL : &c->t[l->g];
		b = l->b < 0 ? NULL : &c->t[l->b];
		for (d = 0; d < 2; d++) {
			const struct vnpu_tview *w = d ? b : g;
			u32 k;

			if (!w)
				continue;
			if (w->rank != x->rank - (u32)axis)
				return -VNPU_OPS_EINVAL;
			for (k = 0; k < w->rank; k++)
				if (w->shape[k] != x->shape[axis + k])
					return -VNPU_OPS_EINVAL;
		}
		for (d = 0; d < x->rank; d++) {
			__builtin_memset(str, 0, sizeof(str));
			str[NORM_X] = x->strides[d];
			str[NORM_O] = o->strides[d];
			if (d < (u32)axis) {
				vnpu_red_plan_keep(p, x->shape[d], str);
				continue;
			}
			if (g)
				str[NORM_G] = g->strides[d - axis];
			if (b)
				str[NORM_B] = b->strides[d - axis];
			vnpu_red_plan_reduce(p, x->shape[d], str);
		}
		break;

	case DRM_VNPU_OP_BATCH_NORM:
		if (nin < 3 || x->rank < 2)
			return -VNPU_OPS_EINVAL;
		l->mean = 1;
		l->var = 2;
		if (nin > 3)
			l->g = 3;
		if (nin > 4)
			l->b = 4;
		mv = &c->t[1];
		vv = &c->t[2];
		g = l->g < 0 ? NULL : &c->t[l->g];
		b = l->b < 0 ? NULL : &c->t[l->b];
		if (!norm_is_vec(mv, x->shape[1]) || !norm_is_vec(vv, x->shape[1]) ||
		    (g && !norm_is_vec(g, x->shape[1])) ||
		    (b && !norm_is_vec(b, x->shape[1])))
			return -VNPU_OPS_EINVAL;
		for (d = 0; d < x->rank; d++) {
			__builtin_memset(str, 0, sizeof(str));
			str[NORM_X] = x->strides[d];
			str[NORM_O] = o->strides[d];
			if (d == 1) {
				str[NORM_MEAN] = mv->strides[0];
				str[NORM_VAR] = vv->strides[0];
				str[NORM_G] = g ? g->strides[0] : 0;
				str[NORM_B] = b ? b->strides[0] : 0;
			}
			if (d < 2)
				vnpu_red_plan_keep(p, x->shape[d], str);
			else
				vnpu_red_plan_reduce(p, x->shape[d], str);
		}
		break;

	case DRM_VNPU_OP_GROUP_NORM: {
		s64 groups = vnpu_attr_int(c, 0, 1), cg;

		if (nin > 3 || x->rank < 2 || groups < 1 || groups > x->shape[1] ||
		    x->shape[1] % groups)
			return -VNPU_OPS_EINVAL;
		if (nin > 1)
			l->g = 1;
		if (nin > 2)
			l->b = 2;
		g = l->g < 0 ? NULL : &c->t[l->g];
		b = l->b < 0 ? NULL : &c->t[l->b];
		if ((g && !norm_is_vec(g, x->shape[1])) ||
		    (b && !norm_is_vec(b, x->shape[1])))
			return -VNPU_OPS_EINVAL;
		cg = x->shape[1] / groups;
		/* N and the groups are kept, channels of a group reduced. */
		__builtin_memset(str, 0, sizeof(str));
		str[NORM_X] = x->strides[0];
		str[NORM_O] = o->strides[0];
		vnpu_red_plan_keep(p, x->shape[0], str);
		str[NORM_X] = cg * x->strides[1];
		str[NORM_O] = cg * o->strides[1];
		str[NORM_G] = g ? cg * g->strides[0] : 0;
		str[NORM_B] = b ? cg * b->strides[0] : 0;
		vnpu_red_plan_keep(p, groups, str);
		str[NORM_X] = x->strides[1];
		str[NORM_O] = o->strides[1];
		str[NORM_G] = g ? g->strides[0] : 0;
		str[NORM_B] = b ? b->strides[0] : 0;
		vnpu_red_plan_reduce(p, cg, str);
		for (d = 2; d < x->rank; d++) {
			__builtin_memset(str, 0, sizeof(str));
			str[NORM_X] = x->strides[d];
			str[NORM_O] = o->strides[d];
			vnpu_red_plan_reduce(p, x->shape[d], str);
		}
		break;
	}

	default:
		return -VNPU_OPS_EINVAL;
	}
	vnpu_red_plan_finish(p);
	/* A row is one piece, unless it is split into chunks. */
	if (!vnpu_red_plan_fits(p, c->op == DRM_VNPU_OP_SOFTMAX ||
				c->op == DRM_VNPU_OP_LOG_SOFTMAX ?
				NORM_COST_SOFTMAX : NORM_COST) &&
	    !norm_split(c, p, l, NULL))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static int norm_check(const struct vnpu_op_call *c)
{
	struct vnpu_red_plan p;
	struct norm_layout l;

	return norm_plan(c, &p, &l);
}

static u32 norm_phases(const struct vnpu_op_call *c, u64 *ends)
{
	struct vnpu_split_rows s;
	struct vnpu_red_plan p;
	struct norm_layout l;

	if (norm_plan(c, &p, &l)) {
		ends[0] = 0;
		return 1;
	}
	if (norm_split(c, &p, &l, &s))
		return vnpu_norm_split_phases(c, &s, ends);
	ends[0] = vnpu_red_plan_tiles(&p);
	return 1;
}

static u64 norm_tiles(const struct vnpu_op_call *c)
{
	u64 ends[VNPU_OPS_MAX_PHASES];

	return ends[norm_phases(c, ends) - 1];
}

/* Passes over a row. */
enum norm_pass {
	NORM_MAX,	/* softmax: the maximum; caches x */
	NORM_SUMEXP,	/* softmax: sum of exp(x - max); caches exp for softmax */
	NORM_SUM,	/* layer/group norm: the sum; caches x */
	NORM_SQDEV,	/* layer/group norm: squared deviations from the mean */
	NORM_SQ,	/* rms norm: sum of squares; caches x */
	NORM_WRITE,	/* every operator: the output */
};

/**
 * struct norm_row - state of the row being normalised
 * @c: the call
 * @l: where the optional tensors are
 * @pass: the pass under way
 * @cache: the row as doubles (NULL when it does not fit)
 * @pos: elements of the row seen in this pass
 * @acc: the pass's accumulator
 * @max: softmax: the row's maximum
 * @shift: subtracted from x on write (mean, or max for log-softmax)
 * @scale: multiplies on write (1 / std, 1 / sum of exps)
 * @offset: added after scaling (-log of the sum for log-softmax)
 * @beat_work: work since the call's last heartbeat (a row at the bound is
 *	       seconds of emulated work, see vnpu_op_beat_work())
 */
struct norm_row {
	const struct vnpu_op_call *c;
	const struct norm_layout *l;
	enum norm_pass pass;
	double *cache;
	u64 pos;
	double acc;
	double max;
	double shift;
	double scale;
	double offset;
	u64 beat_work;
};

static void norm_stat_chunk(struct norm_row *r, double *v, u32 n)
{
	double s = r->acc;
	u32 i;

	switch (r->pass) {
	case NORM_MAX:
		for (i = 0; i < n; i++)
			if (v[i] > s)
				s = v[i];
		break;
	case NORM_SUMEXP: {
		/* Softmax keeps the exps in the cache; the rest recompute. */
		double e[VNPU_RED_CHUNK], m = r->max;
		double *dst = r->cache && r->c->op == DRM_VNPU_OP_SOFTMAX ? v : e;

		for (i = 0; i < n; i++)
			dst[i] = vnpu_red_exp(v[i] - m);
		for (i = 0; i < n; i++)
			s += dst[i];
		break;
	}
	case NORM_SUM:
		for (i = 0; i < n; i++)
			s += v[i];
		break;
	case NORM_SQDEV:
		for (i = 0; i < n; i++)
			s += (v[i] - r->shift) * (v[i] - r->shift);
		break;
	default:	/* NORM_SQ */
		for (i = 0; i < n; i++)
			s += v[i] * v[i];
		break;
	}
	r->acc = s;
}

/* The output of a chunk, from x (or from exp(x - max) for softmax). */
static void norm_write_chunk(struct norm_row *r, const s64 *offs,
			     const s64 *inner, double *v, u32 n)
{
	const struct vnpu_op_call *c = r->c;
	double w[VNPU_RED_CHUNK];
	u32 i, dt = c->t[0].dtype;

	switch (c->op) {
	case DRM_VNPU_OP_SOFTMAX:
		if (!r->cache)
			for (i = 0; i < n; i++)
				v[i] = vnpu_red_exp(v[i] - r->max);
		for (i = 0; i < n; i++)
			v[i] *= r->scale;
		break;
	case DRM_VNPU_OP_LOG_SOFTMAX:
		for (i = 0; i < n; i++)
			v[i] = (v[i] - r->shift) + r->offset;
		break;
	default:
		for (i = 0; i < n; i++)
			v[i] = (v[i] - r->shift) * r->scale;
		if (r->l->g >= 0) {
			vnpu_red_load_f64(c->t[r->l->g].data, dt, offs[NORM_G],
					  inner[NORM_G], n, w);
			for (i = 0; i < n; i++)
				v[i] *= w[i];
		}
		if (r->l->b >= 0) {
			vnpu_red_load_f64(c->t[r->l->b].data, dt, offs[NORM_B],
					  inner[NORM_B], n, w);
			for (i = 0; i < n; i++)
				v[i] += w[i];
		}
		break;
	}
	vnpu_red_store_f64(c->t[c->num_in].data, dt, offs[NORM_O],
			   inner[NORM_O], n, v);
}

static void norm_run(void *ctx, const s64 *offs, const s64 *inner, s64 count)
{
	struct norm_row *r = ctx;
	const struct vnpu_tview *x = &r->c->t[0];
	double buf[VNPU_RED_CHUNK], *v;
	s64 done = 0, k;
	u32 t;

	while (done < count) {
		u32 n = count - done < VNPU_RED_CHUNK ? (u32)(count - done) :
			VNPU_RED_CHUNK;
		s64 o[VNPU_RED_TENSORS];

		for (t = 0; t < VNPU_RED_TENSORS; t++)
			o[t] = offs[t] + done * inner[t];
		if (r->cache && r->pass != NORM_MAX && r->pass != NORM_SUM &&
		    r->pass != NORM_SQ) {
			v = r->cache + r->pos;	/* filled by the first pass */
		} else {
			v = r->cache ? r->cache + r->pos : buf;
			vnpu_red_load_f64(x->data, x->dtype, o[NORM_X],
					  inner[NORM_X], n, v);
		}
		if (r->pass == NORM_WRITE) {
			/* Keep the cache intact: write from a copy. */
			if (v != buf)
				for (k = 0; k < n; k++)
					buf[k] = v[k];
			norm_write_chunk(r, o, inner, buf, n);
		} else {
			norm_stat_chunk(r, v, n);
		}
		r->pos += n;
		done += n;
		/* A pass costs about half an element's NORM_COST. */
		vnpu_op_beat_work(r->c, &r->beat_work, (u64)n *
				  (r->c->op == DRM_VNPU_OP_SOFTMAX ||
				   r->c->op == DRM_VNPU_OP_LOG_SOFTMAX ?
				   NORM_COST_SOFTMAX / 2 : NORM_COST / 2));
	}
}

static void norm_do_pass(struct norm_row *r, const struct vnpu_red_plan *p,
			 const s64 *offs, enum norm_pass pass, double init)
{
	r->pass = pass;
	r->pos = 0;
	r->acc = init;
	vnpu_red_walk(p, offs, norm_run, r);
}

static void norm_row(struct norm_row *r, const struct vnpu_red_plan *p,
		     const s64 *offs)
{
	const struct vnpu_op_call *c = r->c;
	const struct norm_layout *l = r->l;
	double n = (double)p->len, eps = vnpu_attr_float(c, 0, l->eps);

	switch (c->op) {
	case DRM_VNPU_OP_SOFTMAX:
	case DRM_VNPU_OP_LOG_SOFTMAX:
		norm_do_pass(r, p, offs, NORM_MAX, -VNPU_INF);
		r->max = r->acc;
		norm_do_pass(r, p, offs, NORM_SUMEXP, 0.0);
		r->shift = r->max;
		r->scale = 1.0 / r->acc;
		r->offset = -vnpu_log(r->acc);
		break;
	case DRM_VNPU_OP_RMS_NORM:
		norm_do_pass(r, p, offs, NORM_SQ, 0.0);
		r->shift = 0.0;
		r->scale = 1.0 / vnpu_red_sqrt(r->acc / n + eps);
		break;
	case DRM_VNPU_OP_BATCH_NORM:
		r->shift = vnpu_load_f64(c->t[l->mean].data, c->t[0].dtype,
					 offs[NORM_MEAN]);
		r->scale = 1.0 / vnpu_red_sqrt(vnpu_load_f64(c->t[l->var].data,
							 c->t[0].dtype,
							 offs[NORM_VAR]) + eps);
		break;
	default:	/* layer norm, group norm */
		norm_do_pass(r, p, offs, NORM_SUM, 0.0);
		r->shift = r->acc / n;
		norm_do_pass(r, p, offs, NORM_SQDEV, 0.0);
		r->scale = 1.0 / vnpu_red_sqrt(r->acc / n + eps);
		break;
	}
	norm_do_pass(r, p, offs, NORM_WRITE, 0.0);
}

/*
 * Softmax of one contiguous fp32 row without going through double: the
 * common case, at several times the speed. Rows with NaN or +Inf, or with
 * nothing but -Inf, take the general path, which defines those results.
 */
static bool softmax_f32_row(const float *x, float *y, u64 len)
{
	float max = -__builtin_inff(), inv;
	double sum = 0;
	u64 i;

	for (i = 0; i < len; i++)
		max = x[i] > max ? x[i] : max;
	for (i = 0; i < len; i++)
		if (x[i] != x[i])
			return false;
	if (max == __builtin_inff() || max == -__builtin_inff())
		return false;
	for (i = 0; i < len; i++)
		y[i] = softmax_expf(x[i] - max);
	for (i = 0; i < len; i++)
		sum += y[i];
	inv = (float)(1.0 / sum);
	for (i = 0; i < len; i++)
		y[i] *= inv;
	return true;
}

static void norm_tile(const struct vnpu_op_call *c, u64 tile)
{
	struct vnpu_red_plan p;
	struct norm_layout l;
	s64 offs[VNPU_RED_TENSORS], kidx[VNPU_RED_DIMS];
	u64 row, end;
	struct norm_row r = { .c = c, .l = &l };
	struct vnpu_split_rows s;

	if (norm_plan(c, &p, &l))
		return;
	if (norm_split(c, &p, &l, &s)) {
		vnpu_norm_split_run(c, &p, &s, l.g, l.b,
				    vnpu_attr_float(c, 0, l.eps), tile);
		return;
	}
	/* Batch norm reads every element once: nothing to keep. */
	if (c->scratch && p.len <= NORM_CACHE && c->op != DRM_VNPU_OP_BATCH_NORM)
		r.cache = c->scratch;
	vnpu_red_plan_tile(&p, tile, &row, &end, offs, kidx);
	for (; row < end; row++) {
		bool fast = c->op == DRM_VNPU_OP_SOFTMAX &&
			    c->t[0].dtype == DRM_VNPU_DTYPE_FLOAT &&
			    p.nr == 1 && p.rstr[NORM_X][0] == 1 &&
			    p.rstr[NORM_O][0] == 1;

		if (!fast || !softmax_f32_row((const float *)c->t[0].data +
					      offs[NORM_X],
					      (float *)c->t[c->num_in].data +
					      offs[NORM_O], p.len))
			norm_row(&r, &p, offs);
		vnpu_red_plan_next_row(&p, offs, kidx);
	}
}

const struct vnpu_op_impl vnpu_ops_norm[] = {
	{ DRM_VNPU_OP_SOFTMAX, "softmax", norm_check, norm_tiles, norm_tile,
	  norm_phases },
	{ DRM_VNPU_OP_LOG_SOFTMAX, "log_softmax", norm_check, norm_tiles,
	  norm_tile, norm_phases },
	{ DRM_VNPU_OP_LAYER_NORM, "layer_norm", norm_check, norm_tiles,
	  norm_tile, norm_phases },
	{ DRM_VNPU_OP_RMS_NORM, "rms_norm", norm_check, norm_tiles, norm_tile,
	  norm_phases },
	{ DRM_VNPU_OP_BATCH_NORM, "batch_norm", norm_check, norm_tiles,
	  norm_tile },
	{ DRM_VNPU_OP_GROUP_NORM, "group_norm", norm_check, norm_tiles,
	  norm_tile },
	{ 0 }
};
