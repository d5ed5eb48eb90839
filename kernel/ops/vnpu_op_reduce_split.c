// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Reductions over long fp32 rows, split into chunks of VNPU_SPLIT_CHUNK
 * elements: phase 0 reduces each chunk into the call's shared memory,
 * phase 1 (one piece per row) combines the row's partials in chunk order
 * and stores the result.
 *
 * Sums (REDUCE_SUM, _MEAN, _SUM_SQUARE, _L2) add in double (squares for
 * the last two). The order is fixed (sixteen lanes within a chunk, then
 * the chunks), so results do not depend on the engines; they may differ
 * from the unsplit row's sequential double sum in the last bits of the
 * double, which rarely shows after the rounding to fp32.
 *
 * Extremes (REDUCE_MAX, _MIN, ARGMAX, ARGMIN) keep, per chunk, the best
 * element and its index: the vector loop finds the value, a scan the
 * first (ARG* with ints[2] 1: last) element equal to it, or the first
 * (last) NaN when there is one. The combine applies the unsplit rule to
 * the chunks' bests in order (NaN wins; ties keep the earlier chunk, or
 * the later with ints[2] 1), so the result is the unsplit one exactly,
 * down to which of -0 and +0 a maximum of zeros returns.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"
#include "vnpu_reduce_split.h"

/* Plan tensors, as in vnpu_op_reduce.c. */
#define RS_X	0
#define RS_O	1

static bool rs_squares(u32 op)
{
	return op == DRM_VNPU_OP_REDUCE_SUM_SQUARE || op == DRM_VNPU_OP_REDUCE_L2;
}

static bool rs_is_arg(u32 op)
{
	return op == DRM_VNPU_OP_ARGMAX || op == DRM_VNPU_OP_ARGMIN;
}

bool vnpu_reduce_is_extreme(u32 op)
{
	return rs_is_arg(op) || op == DRM_VNPU_OP_REDUCE_MAX ||
	       op == DRM_VNPU_OP_REDUCE_MIN;
}

static bool rs_want_max(u32 op)
{
	return op == DRM_VNPU_OP_REDUCE_MAX || op == DRM_VNPU_OP_ARGMAX;
}

/* Ties and NaNs select the last index (ONNX's select_last_index). */
static bool rs_last(const struct vnpu_op_call *c)
{
	return rs_is_arg(c->op) && vnpu_attr_int(c, 2, 0) == 1;
}

/*
 * Index in x[0..n) of the element the unsplit walk would keep: the first
 * (@last: the last) NaN if @nan, else the first (last) equal to @m.
 */
static u64 rs_find(const float *x, u64 n, float m, bool nan, bool last)
{
	u64 i;

	if (last) {
		for (i = n; i-- > 1;)
			if (nan ? x[i] != x[i] : x[i] == m)
				return i;
		return 0;
	}
	for (i = 0; i + 1 < n; i++)
		if (nan ? x[i] != x[i] : x[i] == m)
			return i;
	return n - 1;
}

void vnpu_reduce_extreme_f32(const struct vnpu_op_call *c, const float *x,
			     u64 n, u64 first, struct vnpu_split_part *pt)
{
	bool nan, last = rs_last(c);
	float m = rs_want_max(c->op) ? vnpu_split_max_f32(x, n, &nan, c->cpu) :
		  vnpu_split_min_f32(x, n, &nan, c->cpu);
	u64 i;

	/* Only the arg forms, NaNs and zeros (which sign?) need the index. */
	if (!rs_is_arg(c->op) && !nan && m != 0) {
		pt->a = m;
		pt->b = 0;
		return;
	}
	i = rs_find(x, n, m, nan, last);
	pt->a = x[i];
	pt->b = (double)(first + i);
}

void vnpu_reduce_extreme_store(const struct vnpu_op_call *c,
			       const struct vnpu_split_part *pt, u64 nparts,
			       s64 off)
{
	bool want_max = rs_want_max(c->op), last = rs_last(c), nan = false;
	double best = pt[0].a, idx = pt[0].b;
	u64 k;

	for (k = 0; k < nparts; k++) {
		double v = pt[k].a;

		if (v != v) {
			if (!nan || last) {
				best = v;
				idx = pt[k].b;
			}
			nan = true;
			if (!last)
				break;
			continue;
		}
		if (nan || !k)
			continue;
		if ((want_max ? v > best : v < best) || (last && v == best)) {
			best = v;
			idx = pt[k].b;
		}
	}
	if (rs_is_arg(c->op))
		((s64 *)c->t[1].data)[off] = (s64)idx;
	else
		vnpu_store_f64(c->t[1].data, c->t[1].dtype, off, best);
}

bool vnpu_reduce_split_plan(const struct vnpu_op_call *c,
			    const struct vnpu_red_plan *p,
			    struct vnpu_split_rows *s)
{
	u64 work = 0;

	switch (c->op) {
	case DRM_VNPU_OP_REDUCE_SUM:
	case DRM_VNPU_OP_REDUCE_MEAN:
	case DRM_VNPU_OP_REDUCE_SUM_SQUARE:
	case DRM_VNPU_OP_REDUCE_L2:
	case DRM_VNPU_OP_REDUCE_MAX:
	case DRM_VNPU_OP_REDUCE_MIN:
	case DRM_VNPU_OP_ARGMAX:
	case DRM_VNPU_OP_ARGMIN:
		break;
	default:
		return false;
	}
	if (c->t[0].dtype != DRM_VNPU_DTYPE_FLOAT ||
	    !vnpu_split_contiguous(p, BIT(RS_X)) ||
	    !vnpu_split_rows_init(s, p->rows, p->len))
		return false;
	/*
	 * Phase 0 reads every element (the extremes may scan a chunk again
	 * for the index): 2 each; phase 1 combines each row's partials.
	 */
	vnpu_split_work_add(&work, s->rows * s->len, 2);
	vnpu_split_work_add(&work, s->pieces, 1);
	return work <= VNPU_SPLIT_CALL_WORK;
}

u32 vnpu_reduce_split_phases(const struct vnpu_split_rows *s, u64 *ends)
{
	ends[0] = s->pieces;
	ends[1] = s->pieces + s->rows;
	return 2;
}

void vnpu_reduce_split_run(const struct vnpu_op_call *c,
			   const struct vnpu_red_plan *p,
			   const struct vnpu_split_rows *s, u64 tile)
{
	s64 offs[VNPU_RED_TENSORS];
	struct vnpu_split_part *pt;
	u64 row, first, n, k;
	double sum = 0;

	if (tile < s->pieces) {
		vnpu_split_chunk(s, tile, &row, &first, &n);
		vnpu_split_row_offs(p, row, offs);
		pt = vnpu_split_parts(c, s, row);
		if (vnpu_reduce_is_extreme(c->op)) {
			vnpu_reduce_extreme_f32(c, (const float *)c->t[0].data +
						offs[RS_X] + first, n, first,
						&pt[first / VNPU_SPLIT_CHUNK]);
			return;
		}
		pt[first / VNPU_SPLIT_CHUNK].a =
			vnpu_split_sum_f32((const float *)c->t[0].data +
					   offs[RS_X] + first, n,
					   rs_squares(c->op), c->cpu);
		return;
	}
	row = tile - s->pieces;
	vnpu_split_row_offs(p, row, offs);
	pt = vnpu_split_parts(c, s, row);
	if (vnpu_reduce_is_extreme(c->op)) {
		vnpu_reduce_extreme_store(c, pt, s->chunks, offs[RS_O]);
		return;
	}
	for (k = 0; k < s->chunks; k++)
		sum += pt[k].a;
	if (c->op == DRM_VNPU_OP_REDUCE_MEAN)
		sum /= (double)s->len;
	else if (c->op == DRM_VNPU_OP_REDUCE_L2)
		sum = vnpu_red_sqrt(sum);
	vnpu_store_f64(c->t[1].data, c->t[1].dtype, offs[RS_O], sum);
}
