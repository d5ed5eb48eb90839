/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by the reductions and the normalisations: a plan that
 * splits a tensor's dims into kept dims (one output position or row each)
 * and reduced dims (walked within a row), a row walker, chunked loads and
 * stores, and a fast exp for softmax.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_REDUCE_UTIL_H__
#define __VNPU_REDUCE_UTIL_H__

#include "vnpu_math.h"

/* Dims of a plan: group norm splits C into groups, so one more than a view. */
#define VNPU_RED_DIMS		(VNPU_OPS_MAX_RANK + 1)
/* Tensors a plan walks together (batch norm: x, out, mean, var, g, b). */
#define VNPU_RED_TENSORS	6
/* Elements a chunk of loads or stores holds. */
#define VNPU_RED_CHUNK		128

/*
 * Square root by Newton's method from a bit-pattern guess, to about one
 * ulp; for a few values per row. (__builtin_sqrt may call sqrt() for
 * negative arguments unless the unit is built with -fno-math-errno, and
 * the module has no sqrt().)
 */
static inline double vnpu_red_sqrt(double x)
{
	union { double d; u64 u; } g;
	double scale = 1.0;
	int i;

	if (x != x || x < 0)
		return VNPU_NAN;
	if (x == 0 || x == VNPU_INF)
		return x;
	g.d = x;
	if (!(g.u >> 52)) {		/* subnormal: scale by 2^200 */
		x *= 1606938044258990275541962092341162602522202993782792835301376.0;
		scale = 1.0 / 1267650600228229401496703205376.0;	/* 2^-100 */
		g.d = x;
	}
	g.u = (g.u >> 1) + (1023ULL << 51);	/* within about 6 % */
	for (i = 0; i < 5; i++)
		g.d = 0.5 * (g.d + x / g.d);
	return g.d * scale;
}

/**
 * struct vnpu_red_plan - rows of a reduction or normalisation
 * @nt: tensors walked (their element offsets are tracked together)
 * @nk: kept dims; every combination of their indices is one row
 * @nr: reduced dims, walked in row-major order within a row
 * @ksize: size of each kept dim
 * @kstr: per tensor, stride of each kept dim
 * @rsize: size of each reduced dim
 * @rstr: per tensor, stride of each reduced dim
 * @rows: number of rows (product of @ksize; ~0 when it overflows)
 * @len: elements of a row (product of @rsize; ~0 when it overflows)
 * @per_tile: rows one tile handles
 */
struct vnpu_red_plan {
	u32 nt;
	u32 nk;
	u32 nr;
	s64 ksize[VNPU_RED_DIMS];
	s64 kstr[VNPU_RED_TENSORS][VNPU_RED_DIMS];
	s64 rsize[VNPU_RED_DIMS];
	s64 rstr[VNPU_RED_TENSORS][VNPU_RED_DIMS];
	u64 rows;
	u64 len;
	u64 per_tile;
};

/* Start an empty plan over @nt tensors. */
void vnpu_red_plan_start(struct vnpu_red_plan *p, u32 nt);

/*
 * Append a kept or reduced dim of @size; @str[t] is its stride in tensor
 * t (0 where the tensor does not vary along it). Returns -VNPU_OPS_EINVAL
 * when the plan is full.
 */
int vnpu_red_plan_keep(struct vnpu_red_plan *p, s64 size, const s64 *str);
int vnpu_red_plan_reduce(struct vnpu_red_plan *p, s64 size, const s64 *str);

/*
 * Finish a plan: drop reduced dims of size 1, merge reduced dims that are
 * contiguous in every tensor (row-major order within a row is kept), and
 * work out rows, row length and rows per tile.
 */
void vnpu_red_plan_finish(struct vnpu_red_plan *p);

/*
 * Whether a row of a finished plan, at @cost units of work per element,
 * fits one piece (VNPU_OPS_PIECE_WORK): a piece is at least one row.
 */
static inline bool vnpu_red_plan_fits(const struct vnpu_red_plan *p,
				      u32 cost)
{
	return !p->rows || vnpu_piece_fits(p->len, cost, 1);
}

/* Tiles of a finished plan (0 when there are no rows). */
static inline u64 vnpu_red_plan_tiles(const struct vnpu_red_plan *p)
{
	return (p->rows + p->per_tile - 1) / p->per_tile;
}

/*
 * Rows [*begin, *end) of tile @tile, with @offs[t] the element offsets of
 * row *begin in each tensor and @kidx its kept-dim indices.
 */
void vnpu_red_plan_tile(const struct vnpu_red_plan *p, u64 tile, u64 *begin,
			u64 *end, s64 *offs, s64 *kidx);

/* Step @kidx and @offs from one row to the next. */
void vnpu_red_plan_next_row(const struct vnpu_red_plan *p, s64 *offs,
			    s64 *kidx);

/*
 * Walk one row whose first element is at @offs: @fn gets runs along the
 * last reduced dim (@offs per tensor, @inner the strides, @count the run
 * length), in row-major order.
 */
void vnpu_red_walk(const struct vnpu_red_plan *p, const s64 *offs,
		   void (*fn)(void *ctx, const s64 *offs, const s64 *inner,
			      s64 count),
		   void *ctx);

/* Load @n elements at @off, @stride apart, as double / int64. */
void vnpu_red_load_f64(const void *base, u32 dtype, s64 off, s64 stride,
		       u32 n, double *buf);
void vnpu_red_load_s64(const void *base, u32 dtype, s64 off, s64 stride,
		       u32 n, s64 *buf);
/* Store @n doubles at @off, @stride apart, rounding to @dtype. */
void vnpu_red_store_f64(void *base, u32 dtype, s64 off, s64 stride, u32 n,
			const double *buf);

/*
 * e ** x in double, to about 1e-14 relative: Taylor series of degree 11
 * after reduction by ln 2, without divisions. NaN stays NaN, -Inf gives 0,
 * +Inf gives +Inf.
 */
static inline double vnpu_red_exp(double x)
{
	union { double d; u64 u; } s;
	double r, p, k;
	s64 n;

	if (!(x > -745.2))			/* NaN or underflow */
		return x != x ? x : 0.0;
	if (x > 709.0)
		return vnpu_exp(x);		/* overflow edge, Inf */
	k = x * 1.44269504088896338700;
	n = (s64)(k + (k < 0 ? -0.5 : 0.5));
	r = (x - (double)n * 0.693147180369123816490) -
	    (double)n * 0.000000000190821492927058770002;
	p = 0.00000000208767569878680989792;
	p = p * r + 0.0000000250521083854417187751;
	p = p * r + 0.000000275573192239858906526;
	p = p * r + 0.00000275573192239858906526;
	p = p * r + 0.0000248015873015873015873;
	p = p * r + 0.000198412698412698412698;
	p = p * r + 0.00138888888888888888889;
	p = p * r + 0.00833333333333333333333;
	p = p * r + 0.0416666666666666666667;
	p = p * r + 0.166666666666666666667;
	p = p * r + 0.5;
	p = p * r + 1.0;
	p = p * r + 1.0;
	if (n < -1020) {			/* subnormal result: two steps */
		s.u = (u64)(n + 54 + 1023) << 52;
		return p * s.d / 18014398509481984.0;	/* 2^54 */
	}
	s.u = (u64)(n + 1023) << 52;
	return p * s.d;
}

#endif /* __VNPU_REDUCE_UTIL_H__ */
