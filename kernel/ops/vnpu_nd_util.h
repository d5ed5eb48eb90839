/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers of the direct-loop N-d operators (CONV_ND, POOL_ND and
 * MATMUL_INT): a piece is a run of whole output lines, so check() and
 * tiles() follow from an operator's plan; walking a window's taps; and
 * the 8-bit requantization of the quantized ones.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_ND_UTIL_H__
#define __VNPU_ND_UTIL_H__

#include "vnpu_ops_impl.h"

/* Work (multiply-adds, window taps) a piece aims at. */
#define VNPU_ND_BUDGET	4194304LL
/* Largest size, stride, pad, dilation or group count of a window. */
#define VNPU_ND_LIMIT	((s64)BIT_ULL(20))

/**
 * struct vnpu_nd_split - an output cut into pieces of whole lines
 * @lines: output lines (0: nothing to run)
 * @lpp: lines per piece, at least 1
 */
struct vnpu_nd_split {
	s64 lines;
	s64 lpp;
};

/* @v lies in [@lo, VNPU_ND_LIMIT]. */
static inline bool vnpu_nd_in_range(s64 v, s64 lo)
{
	return v >= lo && v <= VNPU_ND_LIMIT;
}

/*
 * Cut an output of @elems elements into lines of @len elements, each
 * element costing @work, about VNPU_ND_BUDGET work a piece. Returns
 * -VNPU_OPS_EINVAL when one line exceeds VNPU_OPS_PIECE_WORK (a piece
 * never splits a line), else 0.
 */
int vnpu_nd_split(struct vnpu_nd_split *s, u64 elems, s64 len, s64 work);

static inline u64 vnpu_nd_tiles(const struct vnpu_nd_split *s)
{
	return s->lines ? (u64)((s->lines + s->lpp - 1) / s->lpp) : 0;
}

/* The lines [*@first, *@last) of piece @tile. */
static inline void vnpu_nd_piece(const struct vnpu_nd_split *s, u64 tile,
				 s64 *first, s64 *last)
{
	*first = (s64)tile * s->lpp;
	*last = *first + s->lpp < s->lines ? *first + s->lpp : s->lines;
}

/*
 * check() and tiles() of an operator from its plan,
 * int @plan(const struct vnpu_op_call *, @plan_t *), whose split is in
 * member @split: both plan afresh, as run() does.
 */
#define DEFINE_VNPU_ND_CHECK_TILES(pfx, plan_t, plan, split)		\
static int pfx##_plan_tiles(const struct vnpu_op_call *c, u64 *tiles)	\
{									\
	plan_t p;							\
	int ret = plan(c, &p);						\
									\
	*tiles = ret ? 0 : vnpu_nd_tiles(&p.split);			\
	return ret;							\
}									\
									\
static int pfx##_check(const struct vnpu_op_call *c)			\
{									\
	u64 n;								\
									\
	return pfx##_plan_tiles(c, &n);					\
}									\
									\
static u64 pfx##_tiles(const struct vnpu_op_call *c)			\
{									\
	u64 n;								\
									\
	pfx##_plan_tiles(c, &n);					\
	return n;							\
}

/*
 * Output line @line's position in the first @n dims of @out (into @pos,
 * last dim fastest); returns what is left, image * channels + channel.
 */
static inline s64 vnpu_nd_line_pos(s64 line, const s64 *out, u32 n, s64 *pos)
{
	while (n-- > 0) {
		pos[n] = line % out[n];
		line /= out[n];
	}
	return line;
}

/*
 * Step @t through [0, @k) in each of @n dims, last dim fastest; false
 * once every position was visited (@t is all zero again).
 */
static inline bool vnpu_nd_next(s64 *t, const s64 *k, u32 n)
{
	while (n-- > 0) {
		if (++t[n] < k[n])
			return true;
		t[n] = 0;
	}
	return false;
}

/*
 * Round half to even, add the zero point @zp and saturate to the 8-bit
 * dtype @dt (INT8, else UINT8).
 */
s64 vnpu_nd_requant8(double v, s64 zp, u32 dt);

#endif /* __VNPU_ND_UTIL_H__ */
