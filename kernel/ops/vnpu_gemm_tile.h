/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The GEMM micro-kernel, written once and included by vnpu_gemm.c once
 * per ISA. Before each inclusion the includer defines:
 *
 *   TILE_VF	  the vector type (GCC vector extension)
 *   TILE_W	  floats per vector
 *   TILE_MR	  rows of a full tile: 12, 6 or 4
 *   TILE_ATTR	  the target attribute of the ISA (or nothing)
 *   TILE_FN	  the name of the tile function to define
 *   TILE_KERN	  the name of the kernel (row dispatch) to define
 *
 * A tile is TILE_MR (or fewer) rows by two vectors: C = alpha * A-rows x
 * B-sliver (+ C). @a is row 0 of the packed A sliver at depth 0 (row i at
 * a + i * VNPU_GEMM_AS), @b the B sliver (aligned, 2 * TILE_W floats per
 * depth step), @c any fp32 rows with row stride @rsc. The kernel inlines
 * the tile once per row count with @rows a constant, so the loops unroll
 * and the accumulators live in registers: the last rows of a block run a
 * tile of their own size instead of a padded one.
 *
 * Two kinds of prefetch ride along the depth loop, one request per step
 * at most so that they never queue up behind each other: first the lines
 * of the tile's rows of C (stored, and read when accumulating, at the
 * end), then the run @pf (lines of the next panel's sources), one every
 * other step; the caller asks for no more than fit. The rest of the loop
 * has no prefetch tests at all (the AVX2 loop is close to the front end's
 * limit: 20 vector instructions per 6 cycles).
 *
 * Packing can ride along too (@src): with @src->a set, the call copies
 * its rows of A from the source (row stride @src->a_rs) into the packed
 * sliver at @a, 16 depth steps at a time just before it uses them (the
 * depth is then a multiple of 16); with @src->b set, it reads B's rows
 * from the source (row stride @src->b_rs) and stores them into the packed
 * sliver at @b as it goes. The FMAs bound the loop, so these loads and
 * stores cost next to nothing here, where a separate pass over the panel
 * would wait on them.
 *
 * Copyright (C) 2026 The vnpu authors
 */

#define TILE_NAME2(f, s)	f##s
#define TILE_NAME(f, s)		TILE_NAME2(f, s)

/*
 * Depth step @p of a tile: @a and @b point at the step's packed A and B.
 * With @fused (a constant) and @src's operands set, the step first packs
 * what it reads.
 */
TILE_ATTR static __always_inline void
TILE_NAME(TILE_FN, _step)(const int rows, const bool fused, s64 p, float *a,
			  float *b, const struct gemm_src *src,
			  TILE_VF sum[TILE_MR][2])
{
	TILE_VF bv[2];
	int i, v;

	if (fused && src->a && !(p & 15)) {
#pragma GCC unroll 16
		for (i = 0; i < rows; i++)
			__builtin_memcpy(a + i * VNPU_GEMM_AS,
					 src->a + i * src->a_rs + p,
					 16 * sizeof(float));
	}
	if (fused && src->b) {
		const float *s = src->b + p * src->b_rs;

#pragma GCC unroll 4
		for (v = 0; v < 2; v++) {
			__builtin_memcpy(&bv[v], s + v * TILE_W, sizeof(bv[v]));
			*(TILE_VF *)(b + v * TILE_W) = bv[v];
		}
	} else {
#pragma GCC unroll 4
		for (v = 0; v < 2; v++)
			bv[v] = *(const TILE_VF *)(b + v * TILE_W);
	}
#pragma GCC unroll 16
	for (i = 0; i < rows; i++) {
		float s = a[i * VNPU_GEMM_AS];

#pragma GCC unroll 4
		for (v = 0; v < 2; v++)
			sum[i][v] += bv[v] * s;
	}
}

/* The tile's body; @fused (a constant) says whether @src is looked at. */
TILE_ATTR static __always_inline void
TILE_NAME(TILE_FN, _body)(const int rows, const bool fused, s64 kc, float *a,
			  float *b, float *c, s64 rsc, float alpha, bool acc,
			  const struct gemm_pf_run *pf,
			  const struct gemm_src *src)
{
	/* Cache lines of one row of the tile (a partial line counts). */
	const s64 row_lines = (2 * TILE_W + 15) / 16;
	const s64 c_lines = rows * row_lines;
	const float *pf_row = pf->row;
	s64 pf_line = pf->line, pf_left = pf->count, pf_lines = pf->lines;
	const TILE_VF zero = { 0 };
	TILE_VF sum[TILE_MR][2], o, l;
	s64 p;
	int i, v;

#pragma GCC unroll 16
	for (i = 0; i < rows; i++)
#pragma GCC unroll 4
		for (v = 0; v < 2; v++)
			sum[i][v] = zero;
	/* Three phases, so that the longest loop has no prefetch tests. */
	for (p = 0; p < kc && p < c_lines; p++) {
		__builtin_prefetch(c + p / row_lines * rsc + p % row_lines * 16,
				   1, 3);
		TILE_NAME(TILE_FN, _step)(rows, fused, p, a + p,
					  b + p * 2 * TILE_W, src, sum);
	}
	for (; p + 1 < kc && pf_left > 0; p += 2, pf_left--) {
		__builtin_prefetch(pf_row + pf_line * 16, 0, 2);
		if (++pf_line == pf_lines) {
			pf_line = 0;
			pf_row += pf->rs;
		}
		TILE_NAME(TILE_FN, _step)(rows, fused, p, a + p,
					  b + p * 2 * TILE_W, src, sum);
		TILE_NAME(TILE_FN, _step)(rows, fused, p + 1, a + p + 1,
					  b + (p + 1) * 2 * TILE_W, src, sum);
	}
	for (; p < kc; p++)
		TILE_NAME(TILE_FN, _step)(rows, fused, p, a + p,
					  b + p * 2 * TILE_W, src, sum);
#pragma GCC unroll 16
	for (i = 0; i < rows; i++)
#pragma GCC unroll 4
		for (v = 0; v < 2; v++) {
			float *r = c + i * rsc + v * TILE_W;

			o = sum[i][v] * alpha;
			if (acc) {
				__builtin_memcpy(&l, r, sizeof(l));
				o += l;
			}
			__builtin_memcpy(r, &o, sizeof(o));
		}
}

/*
 * Calls that pack are few (the first of each row sliver, the first row
 * sliver): they run a loop of their own so that the common loop keeps
 * every vector register for the accumulators.
 */
TILE_ATTR static __always_inline void
TILE_FN(const int rows, s64 kc, float *a, float *b, float *c, s64 rsc,
	float alpha, bool acc, const struct gemm_pf_run *pf,
	const struct gemm_src *src)
{
	if (src->a || src->b)
		TILE_NAME(TILE_FN, _body)(rows, true, kc, a, b, c, rsc, alpha,
					  acc, pf, src);
	else
		TILE_NAME(TILE_FN, _body)(rows, false, kc, a, b, c, rsc, alpha,
					  acc, pf, src);
}

/* One case per row count up to TILE_MR, each a tile of constant rows. */
TILE_ATTR static void
TILE_KERN(s64 rows, s64 kc, float *a, float *b, float *c,
	  s64 rsc, float alpha, bool acc, const struct gemm_pf_run *pf,
	  const struct gemm_src *src)
{
	switch (rows) {
#if TILE_MR >= 12
	case 12:
		TILE_FN(12, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 11:
		TILE_FN(11, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 10:
		TILE_FN(10, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 9:
		TILE_FN(9, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 8:
		TILE_FN(8, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 7:
		TILE_FN(7, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
#endif
#if TILE_MR >= 6
	case 6:
		TILE_FN(6, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 5:
		TILE_FN(5, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
#endif
	case 4:
		TILE_FN(4, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 3:
		TILE_FN(3, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case 2:
		TILE_FN(2, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	default:
		TILE_FN(1, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	}
}

#undef TILE_VF
#undef TILE_W
#undef TILE_MR
#undef TILE_ATTR
#undef TILE_FN
#undef TILE_NAME
#undef TILE_NAME2
#undef TILE_KERN
