/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Long rows split into chunks that run on several engines. A row of a
 * softmax, a normalisation or a reduction longer than VNPU_SPLIT_CHUNK
 * elements becomes chunks of VNPU_SPLIT_CHUNK elements (the last one
 * shorter); a first phase computes one partial result per chunk into the
 * call's shared memory, later phases combine the partials of a row in
 * chunk order (so the result does not depend on which engine ran what) and
 * finish each chunk, or store the row's result.
 *
 * Whether a call is split depends only on its shapes and strides, never
 * on the number of engines, so results are the same on every device and
 * on the host.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_SPLIT_UTIL_H__
#define __VNPU_SPLIT_UTIL_H__

#include "vnpu_reduce_util.h"

/* Elements of a chunk: a piece of about a millisecond natively. */
#define VNPU_SPLIT_CHUNK	(64u << 10)

/* A chunk's partial results (what they mean is the operator's). */
struct vnpu_split_part {
	double a;
	double b;
};

/* Partials a call may keep: chunks over all its rows. */
#define VNPU_SPLIT_PARTS	(VNPU_OPS_SHARED / sizeof(struct vnpu_split_part))

/*
 * The most work one split call may do, all its phases together, in the
 * element-operations of VNPU_OPS_PIECE_WORK: 2^32, the budget of 64
 * pieces, a few seconds natively. A call with phases may have to run to
 * its end without parking (when there is no memory to park its partial
 * results in), so this bounds what one call holds an engine for. Each
 * family counts its work with vnpu_split_work_add() when it plans a call
 * and refuses to split (check() fails) beyond it; the weights are in
 * Documentation/ops.md, "Long rows split across engines".
 */
#define VNPU_SPLIT_CALL_WORK	BIT_ULL(32)

/* *@w += @a * @b, saturating at ~0 on overflow. */
static inline void vnpu_split_work_add(u64 *w, u64 a, u64 b)
{
	u64 ab;

	if (__builtin_mul_overflow(a, b, &ab) ||
	    __builtin_add_overflow(*w, ab, w))
		*w = ~0ULL;
}

/**
 * struct vnpu_split_rows - a call's rows cut into chunks
 * @rows: rows of the call
 * @len: elements of a row
 * @chunks: chunks of a row
 * @pieces: chunks of the call (@rows * @chunks), the pieces of a phase
 */
struct vnpu_split_rows {
	u64 rows;
	u64 len;
	u64 chunks;
	u64 pieces;
};

/*
 * Cut @rows rows of @len elements into chunks. False (nothing to split)
 * for rows of at most one chunk, and for calls whose partials would not
 * fit the shared memory.
 */
static inline bool vnpu_split_rows_init(struct vnpu_split_rows *s, u64 rows,
					u64 len)
{
	if (!rows || len <= VNPU_SPLIT_CHUNK)
		return false;
	s->rows = rows;
	s->len = len;
	s->chunks = (len + VNPU_SPLIT_CHUNK - 1) / VNPU_SPLIT_CHUNK;
	if (__builtin_mul_overflow(rows, s->chunks, &s->pieces) ||
	    s->pieces > VNPU_SPLIT_PARTS)
		return false;
	return true;
}

/*
 * Piece @piece of a chunk phase: its row, and the chunk's first element
 * and length within the row.
 */
static inline void vnpu_split_chunk(const struct vnpu_split_rows *s,
				    u64 piece, u64 *row, u64 *first, u64 *n)
{
	u64 k = piece % s->chunks;

	*row = piece / s->chunks;
	*first = k * VNPU_SPLIT_CHUNK;
	*n = s->len - *first < VNPU_SPLIT_CHUNK ? s->len - *first :
	     VNPU_SPLIT_CHUNK;
}

/* The partials of row @row (s->chunks of them). */
static inline struct vnpu_split_part *
vnpu_split_parts(const struct vnpu_op_call *c, const struct vnpu_split_rows *s,
		 u64 row)
{
	return (struct vnpu_split_part *)vnpu_ops_shared(c) + row * s->chunks;
}

/* Element offsets (per plan tensor) of the first element of row @row. */
static inline void vnpu_split_row_offs(const struct vnpu_red_plan *p, u64 row,
				       s64 *offs)
{
	struct vnpu_red_plan one = *p;
	s64 kidx[VNPU_RED_DIMS];
	u64 b, e;

	one.per_tile = 1;
	vnpu_red_plan_tile(&one, row, &b, &e, offs, kidx);
}

/*
 * Whether a finished plan's rows are one run, contiguous (stride 1) in
 * the tensors of @need (a bit per plan tensor); tensors not in @need must
 * have stride 0 or 1 along it (absent ones have 0).
 */
static inline bool vnpu_split_contiguous(const struct vnpu_red_plan *p,
					 u32 need)
{
	u32 t;

	if (p->nr != 1)
		return false;
	for (t = 0; t < p->nt; t++) {
		s64 st = p->rstr[t][0];

		if ((need & BIT(t)) ? st != 1 : (st != 0 && st != 1))
			return false;
	}
	return true;
}

/* The fp32 loops (vnpu_split_f32.c); @cpu picks the vector variant. */
/* Sum of x[0..n) (@sq: of squares) in double, in a fixed order. */
double vnpu_split_sum_f32(const float *x, u64 n, bool sq, u32 cpu);
/* Largest element (-Inf if none), NaNs aside; *@nan says if there was one. */
float vnpu_split_max_f32(const float *x, u64 n, bool *nan, u32 cpu);
/* Smallest element (+Inf if none), NaNs aside; *@nan says if there was one. */
float vnpu_split_min_f32(const float *x, u64 n, bool *nan, u32 cpu);
/* y[i] = exp(x[i] - m) in single precision, m the finite maximum of x. */
void vnpu_split_exp_f32(const float *x, float *y, u64 n, float m, u32 cpu);
/*
 * Both: y[i] = exp(x[i] - m), and the sum of the y[i]: each of the
 * sixteen lanes adds its exps in float over groups of
 * VNPU_SPLIT_SUM_GROUP blocks of sixteen, the group's partial widened and
 * added to the lane's sum in double; the lanes are folded in order, then
 * the last n mod 16 exps added in double.
 */
#define VNPU_SPLIT_SUM_GROUP	8
double vnpu_split_expsum_f32(const float *x, float *y, u64 n, float m,
			     u32 cpu);
/* y[i] *= f. */
void vnpu_split_scale_f32(float *y, u64 n, float f, u32 cpu);
/**
 * struct vnpu_split_norm - a chunk of a layer or RMS norm's output
 * @x: input
 * @g: gamma, or NULL
 * @b: beta, or NULL
 * @y: output
 * @n: elements
 * @shift: the row's mean (0 for RMS norm)
 * @scale: 1 / the row's deviation
 */
struct vnpu_split_norm {
	const float *x;
	const float *g;
	const float *b;
	float *y;
	u64 n;
	double shift;
	double scale;
};

/* Sum of (x[i] - mean)^2 in double, in a fixed order (vnpu_split_norm_f32.c). */
double vnpu_split_sqdev_f32(const float *x, u64 n, double mean, u32 cpu);
/* y[i] = ((x[i] - shift) * scale) * g[i] + b[i], rounded in double. */
void vnpu_split_norm_f32(const struct vnpu_split_norm *a, u32 cpu);
/* Log-softmax's output: y[i] = ((x[i] - m) + off), rounded in double. */
void vnpu_split_logsm_f32(const float *x, float *y, u64 n, double m,
			  double off, u32 cpu);
/* y[i] = f. */
void vnpu_split_fill_f32(float *y, u64 n, float f);

#endif /* __VNPU_SPLIT_UTIL_H__ */
