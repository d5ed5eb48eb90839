// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Sums over long fp32 rows, split into chunks of VNPU_SPLIT_CHUNK
 * elements: phase 0 sums each chunk in double (of squares for
 * REDUCE_SUM_SQUARE and REDUCE_L2) into the call's shared memory, phase 1
 * (one piece per row) adds the row's partials in chunk order and stores
 * the result. The sum's order is fixed (sixteen lanes within a chunk, then
 * the chunks), so results do not depend on the engines; they may differ
 * from the unsplit row's sequential double sum in the last bits of the
 * double, which rarely shows after the rounding to fp32.
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

bool vnpu_reduce_split_plan(const struct vnpu_op_call *c,
			    const struct vnpu_red_plan *p,
			    struct vnpu_split_rows *s)
{
	switch (c->op) {
	case DRM_VNPU_OP_REDUCE_SUM:
	case DRM_VNPU_OP_REDUCE_MEAN:
	case DRM_VNPU_OP_REDUCE_SUM_SQUARE:
	case DRM_VNPU_OP_REDUCE_L2:
		break;
	default:
		return false;
	}
	if (c->t[0].dtype != DRM_VNPU_DTYPE_FLOAT ||
	    !vnpu_split_contiguous(p, BIT(RS_X)))
		return false;
	return vnpu_split_rows_init(s, p->rows, p->len);
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
		pt[first / VNPU_SPLIT_CHUNK].a =
			vnpu_split_sum_f32((const float *)c->t[0].data +
					   offs[RS_X] + first, n,
					   rs_squares(c->op), c->cpu);
		return;
	}
	row = tile - s->pieces;
	vnpu_split_row_offs(p, row, offs);
	pt = vnpu_split_parts(c, s, row);
	for (k = 0; k < s->chunks; k++)
		sum += pt[k].a;
	if (c->op == DRM_VNPU_OP_REDUCE_MEAN)
		sum /= (double)s->len;
	else if (c->op == DRM_VNPU_OP_REDUCE_L2)
		sum = vnpu_red_sqrt(sum);
	vnpu_store_f64(c->t[1].data, c->t[1].dtype, offs[RS_O], sum);
}
