/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Softmax, log-softmax, layer norm and RMS norm over long rows, split into
 * chunks (vnpu_op_norm_split.c); vnpu_op_norm.c decides and dispatches.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_NORM_SPLIT_H__
#define __VNPU_NORM_SPLIT_H__

#include "vnpu_split_util.h"

/*
 * Whether a call of plan @p (tensors x, out, gamma, beta as vnpu_op_norm.c
 * lays them out; @g, @b their call indices or -1) is split; fills @s.
 */
bool vnpu_norm_split_plan(const struct vnpu_op_call *c,
			  const struct vnpu_red_plan *p, int g, int b,
			  struct vnpu_split_rows *s);

/* Phases and their ends (struct vnpu_op_impl's phases) of a split call. */
u32 vnpu_norm_split_phases(const struct vnpu_op_call *c,
			   const struct vnpu_split_rows *s, u64 *ends);

/* Piece @tile of a split call; @eps the layer/RMS norm's epsilon. */
void vnpu_norm_split_run(const struct vnpu_op_call *c,
			 const struct vnpu_red_plan *p,
			 const struct vnpu_split_rows *s, int g, int b,
			 double eps, u64 tile);

#endif /* __VNPU_NORM_SPLIT_H__ */
