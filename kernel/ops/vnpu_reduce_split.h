/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sums (REDUCE_SUM, REDUCE_MEAN, REDUCE_SUM_SQUARE, REDUCE_L2) and
 * extremes (REDUCE_MAX, REDUCE_MIN, ARGMAX, ARGMIN) over long fp32 rows,
 * split into chunks (vnpu_op_reduce_split.c); vnpu_op_reduce.c decides
 * and dispatches.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_REDUCE_SPLIT_H__
#define __VNPU_REDUCE_SPLIT_H__

#include "vnpu_split_util.h"

/* Whether a reduction of plan @p (tensors x, out) is split; fills @s. */
bool vnpu_reduce_split_plan(const struct vnpu_op_call *c,
			    const struct vnpu_red_plan *p,
			    struct vnpu_split_rows *s);

/* Phases and their ends of a split reduction. */
u32 vnpu_reduce_split_phases(const struct vnpu_split_rows *s, u64 *ends);

/* Piece @tile of a split reduction. */
void vnpu_reduce_split_run(const struct vnpu_op_call *c,
			   const struct vnpu_red_plan *p,
			   const struct vnpu_split_rows *s, u64 tile);

/* REDUCE_MAX, REDUCE_MIN, ARGMAX or ARGMIN. */
bool vnpu_reduce_is_extreme(u32 op);

/*
 * An extreme of the fp32 elements x[0..n), the first of them element
 * @first of its row: the value (@pt->a) and row index (@pt->b) of the
 * element the unsplit walk keeps. Chunks of a split row, and whole
 * contiguous rows.
 */
void vnpu_reduce_extreme_f32(const struct vnpu_op_call *c, const float *x,
			     u64 n, u64 first, struct vnpu_split_part *pt);

/* Combine @nparts such results of one row in order and store it at @off. */
void vnpu_reduce_extreme_store(const struct vnpu_op_call *c,
			       const struct vnpu_split_part *pt, u64 nparts,
			       s64 off);

#endif /* __VNPU_REDUCE_SPLIT_H__ */
