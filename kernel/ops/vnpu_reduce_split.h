/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sums (REDUCE_SUM, REDUCE_MEAN, REDUCE_SUM_SQUARE, REDUCE_L2) over long
 * fp32 rows, split into chunks (vnpu_op_reduce_split.c); vnpu_op_reduce.c
 * decides and dispatches.
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

#endif /* __VNPU_REDUCE_SPLIT_H__ */
