// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The GEMM engine: packing and register-tiled micro-kernels (see
 * vnpu_gemm.h). Vectors are GCC vector extensions; the AVX2 and AVX-512
 * kernels carry target attributes and are chosen at run time.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_gemm.h"

#define VF4	float __attribute__((vector_size(16)))
#define VF8	float __attribute__((vector_size(32)))
#define VF16	float __attribute__((vector_size(64)))

enum { KERN_SSE2, KERN_AVX2, KERN_AVX512 };

/*
 * One register tile: C[mr][nr] = alpha * A-sliver x B-sliver (+ C). @b is
 * aligned to the vector size; @c is any fp32 row with row stride @rsc.
 * Every accumulator has a name so that the compiler keeps them all in
 * registers.
 */
#define FMA_ROW2(v0, v1, x)						\
	do {								\
		float s_ = (x);						\
		(v0) += b0 * s_;					\
		(v1) += b1 * s_;					\
	} while (0)

#define STORE_ROW2(row, v0, v1)						\
	do {								\
		float *r_ = (row);					\
		__auto_type o0_ = (v0) * alpha;				\
		__auto_type o1_ = (v1) * alpha;				\
		__auto_type l0_ = o0_;					\
		__auto_type l1_ = o1_;					\
		const unsigned int w_ = sizeof(o0_) / sizeof(float);	\
		if (acc) {						\
			__builtin_memcpy(&l0_, r_, sizeof(l0_));	\
			__builtin_memcpy(&l1_, r_ + w_, sizeof(l1_));	\
			o0_ += l0_;					\
			o1_ += l1_;					\
		}							\
		__builtin_memcpy(r_, &o0_, sizeof(o0_));		\
		__builtin_memcpy(r_ + w_, &o1_, sizeof(o1_));		\
	} while (0)

__attribute__((target("avx512f")))
static void kern_14x32(s64 kc, const float *a, const float *b, float *c,
		       s64 rsc, float alpha, bool acc)
{
	VF16 c0_0 = { 0 }, c0_1 = { 0 }, c1_0 = { 0 }, c1_1 = { 0 };
	VF16 c2_0 = { 0 }, c2_1 = { 0 }, c3_0 = { 0 }, c3_1 = { 0 };
	VF16 c4_0 = { 0 }, c4_1 = { 0 }, c5_0 = { 0 }, c5_1 = { 0 };
	VF16 c6_0 = { 0 }, c6_1 = { 0 }, c7_0 = { 0 }, c7_1 = { 0 };
	VF16 c8_0 = { 0 }, c8_1 = { 0 }, c9_0 = { 0 }, c9_1 = { 0 };
	VF16 c10_0 = { 0 }, c10_1 = { 0 }, c11_0 = { 0 }, c11_1 = { 0 };
	VF16 c12_0 = { 0 }, c12_1 = { 0 }, c13_0 = { 0 }, c13_1 = { 0 };
	s64 p;

	for (p = 0; p < kc; p++) {
		VF16 b0 = *(const VF16 *)b, b1 = *(const VF16 *)(b + 16);

		FMA_ROW2(c0_0, c0_1, a[0]);
		FMA_ROW2(c1_0, c1_1, a[1]);
		FMA_ROW2(c2_0, c2_1, a[2]);
		FMA_ROW2(c3_0, c3_1, a[3]);
		FMA_ROW2(c4_0, c4_1, a[4]);
		FMA_ROW2(c5_0, c5_1, a[5]);
		FMA_ROW2(c6_0, c6_1, a[6]);
		FMA_ROW2(c7_0, c7_1, a[7]);
		FMA_ROW2(c8_0, c8_1, a[8]);
		FMA_ROW2(c9_0, c9_1, a[9]);
		FMA_ROW2(c10_0, c10_1, a[10]);
		FMA_ROW2(c11_0, c11_1, a[11]);
		FMA_ROW2(c12_0, c12_1, a[12]);
		FMA_ROW2(c13_0, c13_1, a[13]);
		a += 14;
		b += 32;
	}
	STORE_ROW2(c + 0 * rsc, c0_0, c0_1);
	STORE_ROW2(c + 1 * rsc, c1_0, c1_1);
	STORE_ROW2(c + 2 * rsc, c2_0, c2_1);
	STORE_ROW2(c + 3 * rsc, c3_0, c3_1);
	STORE_ROW2(c + 4 * rsc, c4_0, c4_1);
	STORE_ROW2(c + 5 * rsc, c5_0, c5_1);
	STORE_ROW2(c + 6 * rsc, c6_0, c6_1);
	STORE_ROW2(c + 7 * rsc, c7_0, c7_1);
	STORE_ROW2(c + 8 * rsc, c8_0, c8_1);
	STORE_ROW2(c + 9 * rsc, c9_0, c9_1);
	STORE_ROW2(c + 10 * rsc, c10_0, c10_1);
	STORE_ROW2(c + 11 * rsc, c11_0, c11_1);
	STORE_ROW2(c + 12 * rsc, c12_0, c12_1);
	STORE_ROW2(c + 13 * rsc, c13_0, c13_1);
}

__attribute__((target("avx2,fma")))
static void kern_6x16(s64 kc, const float *a, const float *b, float *c,
		      s64 rsc, float alpha, bool acc)
{
	VF8 c0_0 = { 0 }, c0_1 = { 0 }, c1_0 = { 0 }, c1_1 = { 0 };
	VF8 c2_0 = { 0 }, c2_1 = { 0 }, c3_0 = { 0 }, c3_1 = { 0 };
	VF8 c4_0 = { 0 }, c4_1 = { 0 }, c5_0 = { 0 }, c5_1 = { 0 };
	s64 p;

	for (p = 0; p < kc; p++) {
		VF8 b0 = *(const VF8 *)b, b1 = *(const VF8 *)(b + 8);

		FMA_ROW2(c0_0, c0_1, a[0]);
		FMA_ROW2(c1_0, c1_1, a[1]);
		FMA_ROW2(c2_0, c2_1, a[2]);
		FMA_ROW2(c3_0, c3_1, a[3]);
		FMA_ROW2(c4_0, c4_1, a[4]);
		FMA_ROW2(c5_0, c5_1, a[5]);
		a += 6;
		b += 16;
	}
	STORE_ROW2(c + 0 * rsc, c0_0, c0_1);
	STORE_ROW2(c + 1 * rsc, c1_0, c1_1);
	STORE_ROW2(c + 2 * rsc, c2_0, c2_1);
	STORE_ROW2(c + 3 * rsc, c3_0, c3_1);
	STORE_ROW2(c + 4 * rsc, c4_0, c4_1);
	STORE_ROW2(c + 5 * rsc, c5_0, c5_1);
}

static void kern_4x8(s64 kc, const float *a, const float *b, float *c,
		     s64 rsc, float alpha, bool acc)
{
	VF4 c0_0 = { 0 }, c0_1 = { 0 }, c1_0 = { 0 }, c1_1 = { 0 };
	VF4 c2_0 = { 0 }, c2_1 = { 0 }, c3_0 = { 0 }, c3_1 = { 0 };
	s64 p;

	for (p = 0; p < kc; p++) {
		VF4 b0 = *(const VF4 *)b, b1 = *(const VF4 *)(b + 4);

		FMA_ROW2(c0_0, c0_1, a[0]);
		FMA_ROW2(c1_0, c1_1, a[1]);
		FMA_ROW2(c2_0, c2_1, a[2]);
		FMA_ROW2(c3_0, c3_1, a[3]);
		a += 4;
		b += 8;
	}
	STORE_ROW2(c + 0 * rsc, c0_0, c0_1);
	STORE_ROW2(c + 1 * rsc, c1_0, c1_1);
	STORE_ROW2(c + 2 * rsc, c2_0, c2_1);
	STORE_ROW2(c + 3 * rsc, c3_0, c3_1);
}

static void kern(u32 which, s64 kc, const float *a, const float *b, float *c,
		 s64 rsc, float alpha, bool acc)
{
	switch (which) {
	case KERN_AVX512:
		kern_14x32(kc, a, b, c, rsc, alpha, acc);
		break;
	case KERN_AVX2:
		kern_6x16(kc, a, b, c, rsc, alpha, acc);
		break;
	default:
		kern_4x8(kc, a, b, c, rsc, alpha, acc);
		break;
	}
}

static s64 min_s64(s64 a, s64 b)
{
	return a < b ? a : b;
}

/* Row-major fp32 A: transpose mr x kc pieces. */
static void pack_a_rows_f32(const float *src, s64 rs, s64 rows, u32 mr,
			    s64 kc, float *d)
{
	s64 i, p;

	for (i = 0; i < rows; i++) {
		const float *s = src + i * rs;

		for (p = 0; p < kc; p++)
			d[p * mr + i] = s[p];
	}
	for (; i < mr; i++)
		for (p = 0; p < kc; p++)
			d[p * mr + i] = 0;
}

static void pack_a_strided(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 p0,
			   s64 kc, float *dst)
{
	u32 mr = g->mr;
	s64 r, i, p;

	for (r = 0; r < mc; r += mr, dst += kc * mr) {
		s64 rows = min_s64(mr, mc - r);
		s64 base = (i0 + r) * g->a_rs + p0 * g->a_cs;

		if (g->a_dtype == DRM_VNPU_DTYPE_FLOAT && g->a_cs == 1) {
			pack_a_rows_f32((const float *)g->a + base, g->a_rs,
					rows, mr, kc, dst);
			continue;
		}
		if (g->a_dtype == DRM_VNPU_DTYPE_FLOAT) {
			const float *s = (const float *)g->a + base;

			for (p = 0; p < kc; p++) {
				for (i = 0; i < rows; i++)
					dst[p * mr + i] = s[i * g->a_rs + p * g->a_cs];
				for (; i < mr; i++)
					dst[p * mr + i] = 0;
			}
			continue;
		}
		for (p = 0; p < kc; p++) {
			for (i = 0; i < rows; i++)
				dst[p * mr + i] =
					vnpu_gemm_ld(g->a, g->a_dtype,
						     base + i * g->a_rs + p * g->a_cs);
			for (; i < mr; i++)
				dst[p * mr + i] = 0;
		}
	}
}

/* Rows of nr contiguous fp32 values, nr a constant in each case. */
static void pack_b_rows_f32(const float *s, s64 rs, u32 nr, s64 kc, float *d)
{
	s64 p;

	switch (nr) {
	case 32:
		for (p = 0; p < kc; p++, s += rs, d += 32)
			__builtin_memcpy(d, s, 32 * sizeof(float));
		break;
	case 16:
		for (p = 0; p < kc; p++, s += rs, d += 16)
			__builtin_memcpy(d, s, 16 * sizeof(float));
		break;
	default:
		for (p = 0; p < kc; p++, s += rs, d += 8)
			__builtin_memcpy(d, s, 8 * sizeof(float));
		break;
	}
}

static void pack_b_strided(const struct vnpu_gemm *g, s64 p0, s64 kc, s64 j0,
			   s64 nc, float *dst)
{
	u32 nr = g->nr;
	s64 s, j, p;

	for (s = 0; s < nc; s += nr, dst += kc * nr) {
		s64 cols = min_s64(nr, nc - s);
		s64 base = p0 * g->b_rs + (j0 + s) * g->b_cs;

		if (g->b_dtype == DRM_VNPU_DTYPE_FLOAT && g->b_cs == 1 &&
		    cols == nr) {
			pack_b_rows_f32((const float *)g->b + base, g->b_rs, nr,
					kc, dst);
			continue;
		}
		if (g->b_dtype == DRM_VNPU_DTYPE_FLOAT) {
			const float *src = (const float *)g->b + base;

			for (p = 0; p < kc; p++) {
				for (j = 0; j < cols; j++)
					dst[p * nr + j] = src[p * g->b_rs + j * g->b_cs];
				for (; j < nr; j++)
					dst[p * nr + j] = 0;
			}
			continue;
		}
		for (p = 0; p < kc; p++) {
			for (j = 0; j < cols; j++)
				dst[p * nr + j] =
					vnpu_gemm_ld(g->b, g->b_dtype,
						     base + p * g->b_rs + j * g->b_cs);
			for (; j < nr; j++)
				dst[p * nr + j] = 0;
		}
	}
}

void vnpu_gemm_init(struct vnpu_gemm *g, u32 cpu)
{
	if (cpu & VNPU_CPU_AVX512) {
		g->kern = KERN_AVX512;
		g->mr = 14;
		g->nr = 32;
	} else if (cpu & VNPU_CPU_AVX2_FMA) {
		g->kern = KERN_AVX2;
		g->mr = 6;
		g->nr = 16;
	} else {
		g->kern = KERN_SSE2;
		g->mr = 4;
		g->nr = 8;
	}
	g->pack_a = pack_a_strided;
	g->pack_b = pack_b_strided;
	g->act.kind = DRM_VNPU_ACT_NONE;
}

int vnpu_act_get(const struct vnpu_op_call *c, struct vnpu_act *act)
{
	s64 kind = vnpu_attr_int(c, DRM_VNPU_ATTR_ACT, DRM_VNPU_ACT_NONE);

	act->kind = DRM_VNPU_ACT_NONE;
	act->lo = 0.0f;
	act->hi = 0.0f;
	switch (kind) {
	case DRM_VNPU_ACT_NONE:
	case DRM_VNPU_ACT_RELU:
		act->kind = (u32)kind;
		return 0;
	case DRM_VNPU_ACT_CLIP:
		act->lo = vnpu_attr_float(c, DRM_VNPU_ATTR_ACT_LO, 0.0f);
		act->hi = vnpu_attr_float(c, DRM_VNPU_ATTR_ACT_HI, 0.0f);
		/* Also false for a NaN bound. */
		if (!(act->lo <= act->hi))
			return -VNPU_OPS_EINVAL;
		act->kind = DRM_VNPU_ACT_CLIP;
		return 0;
	default:
		return -VNPU_OPS_EINVAL;
	}
}

/* A partial register tile from @tmp (row stride @nr) into C. */
static void gemm_store_part(float *c, s64 rsc, const float *tmp, u32 nr,
			    s64 rows, s64 cols, bool acc)
{
	s64 i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			c[i * rsc + j] = (acc ? c[i * rsc + j] : 0) +
					 tmp[i * nr + j];
}

/* The epilogue: activation over a stored rows x cols piece of C. */
static void gemm_act_tile(const struct vnpu_act *a, float *c, s64 rsc,
			  s64 rows, s64 cols)
{
	s64 i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			c[i * rsc + j] = vnpu_act_apply(a, c[i * rsc + j]);
}

void vnpu_gemm_block(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 j0,
		     s64 nc, float *c, s64 rsc, bool accumulate,
		     float *scratch)
{
	float *ap = scratch;
	float *bp = ap + VNPU_GEMM_MC * VNPU_GEMM_KC;
	float *tmp = bp + VNPU_GEMM_KC * VNPU_GEMM_NC;
	u32 mr = g->mr, nr = g->nr;
	s64 p0, ir, jr, i, j;

	if (g->k <= 0) {
		if (!accumulate)
			for (i = 0; i < mc; i++)
				for (j = 0; j < nc; j++)
					c[i * rsc + j] = 0;
		if (g->act.kind != DRM_VNPU_ACT_NONE)
			gemm_act_tile(&g->act, c, rsc, mc, nc);
		return;
	}
	for (p0 = 0; p0 < g->k; p0 += VNPU_GEMM_KC) {
		s64 kc = min_s64(VNPU_GEMM_KC, g->k - p0);
		bool acc = accumulate || p0;
		/* The last panel finishes each tile: activate it in cache. */
		bool act = g->act.kind != DRM_VNPU_ACT_NONE &&
			   p0 + kc >= g->k;

		g->pack_a(g, i0, mc, p0, kc, ap);
		g->pack_b(g, p0, kc, j0, nc, bp);
		for (jr = 0; jr < nc; jr += nr) {
			const float *bs = bp + (jr / nr) * kc * nr;
			s64 nre = min_s64(nr, nc - jr);

			for (ir = 0; ir < mc; ir += mr) {
				const float *as = ap + (ir / mr) * kc * mr;
				s64 mre = min_s64(mr, mc - ir);
				float *cc = c + ir * rsc + jr;

				if (mre == mr && nre == nr) {
					kern(g->kern, kc, as, bs, cc, rsc,
					     g->alpha, acc);
				} else {
					kern(g->kern, kc, as, bs, tmp, nr,
					     g->alpha, false);
					gemm_store_part(cc, rsc, tmp, nr, mre,
							nre, acc);
				}
				if (act)
					gemm_act_tile(&g->act, cc, rsc, mre,
						      nre);
			}
		}
	}
}
