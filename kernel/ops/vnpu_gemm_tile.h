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
 * other step; the caller asks for no more than fit.
 *
 * Copyright (C) 2026 The vnpu authors
 */

TILE_ATTR static __always_inline void
TILE_FN(const int rows, s64 kc, const float *a, const float *b, float *c,
	s64 rsc, float alpha, bool acc, const struct gemm_pf_run *pf)
{
	/* Cache lines of one row of the tile (a partial line counts). */
	const s64 row_lines = (2 * TILE_W + 15) / 16;
	const s64 c_lines = rows * row_lines;
	const float *pf_row = pf->row;
	s64 pf_line = pf->line, pf_left = pf->count, pf_lines = pf->lines;
	const TILE_VF zero = { 0 };
	TILE_VF sum[TILE_MR][2], bv[2], o, l;
	s64 p;
	int i, v;

#pragma GCC unroll 16
	for (i = 0; i < rows; i++)
#pragma GCC unroll 4
		for (v = 0; v < 2; v++)
			sum[i][v] = zero;
	for (p = 0; p < kc; p++, a++, b += 2 * TILE_W) {
		if (p < c_lines)
			__builtin_prefetch(c + p / row_lines * rsc +
					   p % row_lines * 16, 1, 3);
		else if ((p & 1) && pf_left > 0) {
			__builtin_prefetch(pf_row + pf_line * 16, 0, 2);
			pf_left--;
			if (++pf_line == pf_lines) {
				pf_line = 0;
				pf_row += pf->rs;
			}
		}
#pragma GCC unroll 4
		for (v = 0; v < 2; v++)
			bv[v] = *(const TILE_VF *)(b + v * TILE_W);
#pragma GCC unroll 16
		for (i = 0; i < rows; i++) {
			float s = a[i * VNPU_GEMM_AS];

#pragma GCC unroll 4
			for (v = 0; v < 2; v++)
				sum[i][v] += bv[v] * s;
		}
	}
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

/* One case per row count up to TILE_MR, each a tile of constant rows. */
TILE_ATTR static void
TILE_KERN(s64 rows, s64 kc, const float *a, const float *b, float *c,
	  s64 rsc, float alpha, bool acc, const struct gemm_pf_run *pf)
{
	switch (rows) {
#if TILE_MR >= 12
	case 12:
		TILE_FN(12, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 11:
		TILE_FN(11, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 10:
		TILE_FN(10, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 9:
		TILE_FN(9, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 8:
		TILE_FN(8, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 7:
		TILE_FN(7, kc, a, b, c, rsc, alpha, acc, pf);
		break;
#endif
#if TILE_MR >= 6
	case 6:
		TILE_FN(6, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 5:
		TILE_FN(5, kc, a, b, c, rsc, alpha, acc, pf);
		break;
#endif
	case 4:
		TILE_FN(4, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 3:
		TILE_FN(3, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	case 2:
		TILE_FN(2, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	default:
		TILE_FN(1, kc, a, b, c, rsc, alpha, acc, pf);
		break;
	}
}

#undef TILE_VF
#undef TILE_W
#undef TILE_MR
#undef TILE_ATTR
#undef TILE_FN
#undef TILE_KERN
