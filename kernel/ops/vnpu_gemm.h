/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The GEMM engine: blocked, packed fp32 matrix multiplication in the
 * GotoBLAS/BLIS style, shared by MATMUL, GEMM and the convolutions.
 *
 * C[m, n] = alpha * sum_k A[m, k] * B[k, n] (+ C). A caller describes A and
 * B either as strided matrices of any float dtype (the default packers) or
 * through its own packers (implicit im2col for convolutions), and asks for
 * one block of C at a time: vnpu_gemm_block() packs KC-deep panels of A and
 * B into the scratch memory and runs a register-tiled micro-kernel over
 * them (12x32 with AVX-512, 6x16 with AVX2+FMA, 4x8 with SSE2; the last
 * rows of a block run a kernel of fewer rows, never padded ones).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_GEMM_H__
#define __VNPU_GEMM_H__

#include "vnpu_ops_impl.h"

/*
 * Blocking: rows and columns of C per block, depth of a packed panel. A
 * 256 x 256 block at depth 1024 is one piece (2^26 multiply-adds), so a
 * product of n = 256, 512, 1024 splits into square blocks with no thin
 * leftover rows (the last rows of a block need not fill a register tile).
 */
#define VNPU_GEMM_MC		256
#define VNPU_GEMM_NC		256	/* a multiple of every NR (32, 16, 8) */
#define VNPU_GEMM_KC		256
/*
 * The deepest product: a 12 x 32 block counted as padded to 14 x 32 rows
 * fits one piece, K <= 149 796, the bound the ABI documents.
 */
#define VNPU_GEMM_MAX_K		(VNPU_OPS_PIECE_WORK / (14 * 32))
/*
 * Row stride of packed A in floats: a panel row plus one cache line, so
 * that the rows of a sliver fall in different L1 sets.
 */
#define VNPU_GEMM_AS		(VNPU_GEMM_KC + 16)
#define VNPU_GEMM_MAX_MR	12
#define VNPU_GEMM_MAX_NR	32

/* Floats of scratch the engine uses, from the start of the scratch area. */
#define VNPU_GEMM_SCRATCH_FLOATS \
	(VNPU_GEMM_MC * VNPU_GEMM_AS + VNPU_GEMM_KC * VNPU_GEMM_NC + \
	 VNPU_GEMM_MAX_MR * VNPU_GEMM_MAX_NR)

/**
 * struct vnpu_act - a fused activation (DRM_VNPU_ATTR_ACT)
 * @kind: DRM_VNPU_ACT_NONE, _RELU or _CLIP
 * @lo: CLIP's lower bound
 * @hi: CLIP's upper bound
 */
struct vnpu_act {
	u32 kind;
	float lo, hi;
};

/*
 * Read a call's fused activation: 0, or -VNPU_OPS_EINVAL for an unknown
 * kind or a CLIP with a NaN bound or lo > hi.
 */
int vnpu_act_get(const struct vnpu_op_call *c, struct vnpu_act *act);

/*
 * The activation of one value. NaN passes through both functions (the
 * comparisons are false), like the non-fused operators.
 */
static inline float vnpu_act_apply(const struct vnpu_act *a, float v)
{
	if (a->kind == DRM_VNPU_ACT_RELU)
		return v < 0.0f ? 0.0f : v;
	if (a->kind == DRM_VNPU_ACT_CLIP)
		return v < a->lo ? a->lo : v > a->hi ? a->hi : v;
	return v;
}

/**
 * struct vnpu_gemm - one matrix product
 * @m: rows of C
 * @n: columns of C
 * @k: depth
 * @alpha: scale of the product
 * @mr: micro-kernel rows (set by vnpu_gemm_init())
 * @nr: micro-kernel columns (set by vnpu_gemm_init())
 * @kern: micro-kernel variant (set by vnpu_gemm_init())
 * @pack_a: packer of A (default: strided @a): rows [i0, i0 + mc) and depth
 *	    [p0, p0 + kc) into @dst, element (i0 + i, p0 + p) at
 *	    dst[i * VNPU_GEMM_AS + p] (rows kept whole: a row-major A packs by
 *	    copying)
 * @pack_b: packer of B (default: strided @b): depth [p0, p0 + kc) and
 *	    columns [j0, j0 + nc), sliver s at dst + s * kc * nr, element
 *	    (p, j) at p * nr + j; columns beyond zero
 * @a: A for the default packer, element (i, p) at a_rs * i + a_cs * p
 * @a_dtype: its dtype (FLOAT, FLOAT16 or BF16)
 * @a_rs: row stride of A
 * @a_cs: column stride of A
 * @b: B for the default packer, element (p, j) at b_rs * p + b_cs * j
 * @b_dtype: its dtype
 * @b_rs: row stride of B
 * @b_cs: column stride of B
 * @ctx: for custom packers
 * @act: applied to each element of C as its last panel is stored
 *	 (vnpu_gemm_init() sets none)
 * @next_i0: first row of the block the caller will likely ask for next, or
 *	     -1 (vnpu_gemm_init()'s default): while the last panel runs, its
 *	     first panel is prefetched (a hint only)
 * @next_j0: first column of that block
 * @call: the operator call whose heartbeat (vnpu_op_beat()) hears about
 *	  the block's progress, about every VNPU_OPS_BEAT_WORK multiply-adds
 *	  (vnpu_gemm_init() sets none)
 */
struct vnpu_gemm {
	s64 m, n, k;
	float alpha;
	u32 mr, nr, kern;
	void (*pack_a)(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 p0,
		       s64 kc, float *dst);
	void (*pack_b)(const struct vnpu_gemm *g, s64 p0, s64 kc, s64 j0,
		       s64 nc, float *dst);
	const void *a;
	u32 a_dtype;
	s64 a_rs, a_cs;
	const void *b;
	u32 b_dtype;
	s64 b_rs, b_cs;
	const void *ctx;
	struct vnpu_act act;
	s64 next_i0, next_j0;
	const struct vnpu_op_call *call;
};

/* @x rounded up to a multiple of @r. */
static inline u64 vnpu_gemm_roundup(u64 x, u64 r)
{
	return (x + r - 1) / r * r;
}

/*
 * Multiply-adds of one block of C of @mc x @nc (already clipped to the
 * matrix) at depth @k fit one piece (VNPU_OPS_PIECE_WORK), whichever
 * micro-kernel runs it: columns are padded to its NR (at most 32), rows
 * are not (edge rows run a kernel of fewer rows). Deeper than
 * VNPU_GEMM_MAX_K never fits.
 */
static inline bool vnpu_gemm_block_fits(s64 mc, s64 nc, s64 k)
{
	return k <= (s64)VNPU_GEMM_MAX_K &&
	       vnpu_piece_fits((u64)mc,
			       vnpu_gemm_roundup((u64)nc, VNPU_GEMM_MAX_NR),
			       (u64)k);
}

/* Whether blocks of @mc x @nc of a product of @m x @n at depth @k fit. */
static inline bool vnpu_gemm_blocks_fit(s64 m, s64 n, s64 k, s64 mc, s64 nc)
{
	return vnpu_gemm_block_fits(m < mc ? m : mc, n < nc ? n : nc, k);
}

/*
 * Block size of a product of @m x @n at depth @k (all >= 0): the largest
 * of VNPU_GEMM_MC x VNPU_GEMM_NC, shrunk (columns halved down to
 * VNPU_GEMM_MAX_NR, rows halved down to 64, then 12) until a block fits
 * one piece. Returns 0, or -VNPU_OPS_EINVAL for a depth beyond
 * VNPU_GEMM_MAX_K = 149796.
 */
static inline int vnpu_gemm_plan_block(s64 m, s64 n, s64 k, s64 *mc, s64 *nc)
{
	*mc = VNPU_GEMM_MC;
	*nc = VNPU_GEMM_NC;
	while (*nc > VNPU_GEMM_MAX_NR && !vnpu_gemm_blocks_fit(m, n, k, *mc, *nc))
		*nc /= 2;
	while (*mc > 64 && !vnpu_gemm_blocks_fit(m, n, k, *mc, *nc))
		*mc /= 2;
	if (!vnpu_gemm_blocks_fit(m, n, k, *mc, *nc))
		*mc = 12;
	return vnpu_gemm_blocks_fit(m, n, k, *mc, *nc) ? 0 : -VNPU_OPS_EINVAL;
}

/* Pick the micro-kernel for @cpu, set the default packers. */
void vnpu_gemm_init(struct vnpu_gemm *g, u32 cpu);

/*
 * Compute the block C[i0 .. i0 + mc, j0 .. j0 + nc] (mc <= VNPU_GEMM_MC,
 * nc <= VNPU_GEMM_NC) into fp32 @c (row stride @rsc, unit column stride):
 * c = act(alpha * A B, plus the old c when @accumulate). Uses the first
 * VNPU_GEMM_SCRATCH_FLOATS floats of @scratch (64-byte aligned).
 */
void vnpu_gemm_block(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 j0,
		     s64 nc, float *c, s64 rsc, bool accumulate,
		     float *scratch);

/* An element of any float dtype as fp32. */
static inline float vnpu_gemm_ld(const void *base, u32 dtype, s64 i)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT16:
		return vnpu_f16_to_f32(((const u16 *)base)[i]);
	case DRM_VNPU_DTYPE_BF16:
		return vnpu_bf16_to_f32(((const u16 *)base)[i]);
	default:
		return ((const float *)base)[i];
	}
}

/* Store fp32 @v as an element of any float dtype. */
static inline void vnpu_gemm_st(void *base, u32 dtype, s64 i, float v)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT16:
		((u16 *)base)[i] = vnpu_f32_to_f16(v);
		break;
	case DRM_VNPU_DTYPE_BF16:
		((u16 *)base)[i] = vnpu_f32_to_bf16(v);
		break;
	default:
		((float *)base)[i] = v;
		break;
	}
}

#endif /* __VNPU_GEMM_H__ */
