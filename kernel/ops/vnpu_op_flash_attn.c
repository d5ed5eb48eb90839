// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FLASH_ATTN: fused scaled dot-product attention, flash style. A piece is
 * a block of up to FA_ROWS query rows of the heads that share one K/V
 * head in one batch (all N / Nkv of them: a GQA decode step's rows go
 * together); it walks the keys in tiles of FA_KEYS. Per tile, the scores
 * of the block's rows (q . k^T) and their weighted sums of V (P V) are
 * blocks of the GEMM engine (vnpu_gemm.h), K and V converted to fp32
 * and packed once per tile for the whole block; between the two, each
 * row's online softmax runs on its scores in fp32 with the vector exp of
 * the split softmax (vnpu_split_expsum_f32()): it keeps per row the
 * running maximum and the running sum of exponentials, rescaling the sum
 * and the row's V sums when the maximum grows. Pieces of a few rows
 * (decoding) use the kernels of vnpu_flash_attn_tile.h instead of the
 * GEMM engine. The Sq x Skv score matrix
 * never exists; a piece holds at most FA_ROWS x FA_KEYS scores. Pieces
 * run in any order on any engine, so a call spreads over the engines by
 * batch x K/V head x row block.
 *
 * Keys are dropped by the mask (non-zero), by the band and by an additive
 * pse of -Inf; a row left without keys is written as 0 (CANN's "row
 * invalid" correction) with lse +Inf.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"
#include "vnpu_expf.h"
#include "vnpu_gemm.h"
#include "vnpu_math.h"
#include "vnpu_split_util.h"

/* Query rows of a piece and keys of a tile. */
#define FA_ROWS		64
#define FA_KEYS		VNPU_GEMM_NC
#define FA_MAX_D	1024
/* Band limits: beyond any sequence a view can have. */
#define FA_BAND_MAX	((s64)BIT_ULL(40))

#define FA_PSE		BIT(0)
#define FA_MASK		BIT(1)
#define FA_LSE		BIT(2)

#define FA_BAND_NONE	0
#define FA_BAND_TL	1	/* anchored at the top-left corner */
#define FA_BAND_BR	2	/* anchored at the bottom-right corner */

struct fa_io {
	const struct vnpu_tview *q, *k, *v, *pse, *mask, *out, *lse;
};

static u32 fa_flags(const struct vnpu_op_call *c)
{
	return (u32)vnpu_attr_int(c, 0, 0);
}

static void fa_io(const struct vnpu_op_call *c, struct fa_io *io)
{
	u32 f = fa_flags(c), i = 3;

	io->q = &c->t[0];
	io->k = &c->t[1];
	io->v = &c->t[2];
	io->pse = f & FA_PSE ? &c->t[i++] : NULL;
	io->mask = f & FA_MASK ? &c->t[i++] : NULL;
	io->out = &c->t[i++];
	io->lse = f & FA_LSE ? &c->t[i] : NULL;
}

/* Query rows a piece takes: FA_ROWS, fewer when the keys are many. */
static s64 fa_rows(const struct fa_io *io)
{
	s64 per_row = io->k->shape[2] * (io->q->shape[3] + io->v->shape[3]);
	s64 r = per_row ? (s64)(VNPU_OPS_PIECE_WORK / (u64)per_row) : FA_ROWS;

	if (r > FA_ROWS)
		r = FA_ROWS;
	return r < 1 ? 1 : r;
}

static bool fa_dims_are(const struct vnpu_tview *t, s64 d0, s64 d1, s64 d2,
			s64 d3)
{
	return t->rank == 4 && t->shape[0] == d0 && t->shape[1] == d1 &&
	       t->shape[2] == d2 && t->shape[3] == d3;
}

static int fa_check(const struct vnpu_op_call *c)
{
	u32 f = fa_flags(c), nin, nout;
	s64 band = vnpu_attr_int(c, 1, FA_BAND_NONE);
	s64 pre = vnpu_attr_int(c, 2, 0), next = vnpu_attr_int(c, 3, 0);
	float scale = vnpu_attr_float(c, 0, 1.0f);
	s64 b, n, sq, dk, nkv, skv, dv;
	u64 work;
	struct fa_io io;

	if (f & ~(u32)(FA_PSE | FA_MASK | FA_LSE) ||
	    (u64)vnpu_attr_int(c, 0, 0) != f)
		return -VNPU_OPS_EINVAL;
	nin = 3 + !!(f & FA_PSE) + !!(f & FA_MASK);
	nout = 1 + !!(f & FA_LSE);
	if (!vnpu_move_io_ok(c, nin, nout))
		return -VNPU_OPS_EINVAL;
	fa_io(c, &io);
	if (io.q->rank != 4 || io.k->rank != 4 || io.v->rank != 4)
		return -VNPU_OPS_EINVAL;
	b = io.q->shape[0];
	n = io.q->shape[1];
	sq = io.q->shape[2];
	dk = io.q->shape[3];
	nkv = io.k->shape[1];
	skv = io.k->shape[2];
	dv = io.v->shape[3];
	if (!vnpu_dtype_is_float(io.q->dtype) ||
	    !vnpu_dtype_is_float(io.k->dtype) ||
	    !vnpu_dtype_is_float(io.v->dtype) ||
	    !vnpu_dtype_is_float(io.out->dtype) ||
	    !fa_dims_are(io.k, b, nkv, skv, dk) ||
	    !fa_dims_are(io.v, b, nkv, skv, dv) ||
	    !fa_dims_are(io.out, b, n, sq, dv) ||
	    nkv < 1 || n % nkv || dk > FA_MAX_D || dv > FA_MAX_D)
		return -VNPU_OPS_EINVAL;
	if (io.pse && (!vnpu_dtype_is_float(io.pse->dtype) ||
		       !fa_dims_are(io.pse, b, n, sq, skv)))
		return -VNPU_OPS_EINVAL;
	if (io.mask && ((io.mask->dtype != DRM_VNPU_DTYPE_BOOL &&
			 io.mask->dtype != DRM_VNPU_DTYPE_INT8 &&
			 io.mask->dtype != DRM_VNPU_DTYPE_UINT8) ||
			!fa_dims_are(io.mask, b, n, sq, skv)))
		return -VNPU_OPS_EINVAL;
	if (io.lse && (io.lse->dtype != DRM_VNPU_DTYPE_FLOAT ||
		       io.lse->rank != 3 || io.lse->shape[0] != b ||
		       io.lse->shape[1] != n || io.lse->shape[2] != sq))
		return -VNPU_OPS_EINVAL;
	if (band < FA_BAND_NONE || band > FA_BAND_BR ||
	    pre < -FA_BAND_MAX || pre > FA_BAND_MAX ||
	    next < -FA_BAND_MAX || next > FA_BAND_MAX ||
	    scale != scale || scale - scale != 0)
		return -VNPU_OPS_EINVAL;
	/* one query row against every key must fit a piece */
	if (__builtin_mul_overflow((u64)skv, (u64)(dk + dv), &work) ||
	    work > VNPU_OPS_PIECE_WORK)
		return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 fa_tiles(const struct vnpu_op_call *c)
{
	struct fa_io io;
	s64 r, g;
	u64 bn, t;

	fa_io(c, &io);
	/* rows without output columns (Dv 0) still have an lse */
	if (!io.q->shape[0] || !io.q->shape[1] || !io.q->shape[2])
		return 0;
	/* rows of the query heads sharing a K/V head, in blocks */
	r = fa_rows(&io);
	g = io.q->shape[1] / io.k->shape[1] * io.q->shape[2];
	if (__builtin_mul_overflow((u64)io.q->shape[0], (u64)io.k->shape[1], &bn) ||
	    __builtin_mul_overflow(bn, (u64)((g + r - 1) / r), &t))
		return 0;
	return t;
}

/* The element at @off of a float view, as fp32. */
static float fa_load1(const struct vnpu_tview *t, s64 off)
{
	return vnpu_gemm_ld(t->data, t->dtype, off);
}

/* The element of a float view at @off, for a GEMM operand. */
static const void *fa_at(const struct vnpu_tview *t, s64 off)
{
	return (const char *)t->data + off * (s64)vnpu_dtype_size(t->dtype);
}

/* Keys [*lo, *hi) the band leaves row @i (all of them without a band). */
static void fa_band(const struct vnpu_op_call *c, s64 i, s64 sq, s64 skv,
		    s64 *lo, s64 *hi)
{
	s64 band = vnpu_attr_int(c, 1, FA_BAND_NONE);
	s64 centre = i + (band == FA_BAND_BR ? skv - sq : 0);
	s64 a = centre - vnpu_attr_int(c, 2, 0);
	s64 z = centre + vnpu_attr_int(c, 3, 0) + 1;

	if (band == FA_BAND_NONE) {
		a = 0;
		z = skv;
	}
	*lo = a < 0 ? 0 : a > skv ? skv : a;
	*hi = z < *lo ? *lo : z > skv ? skv : z;
}

/*
 * Pieces of at most FA_DOT_ROWS rows (decoding) with heads of at most
 * FA_DOT_MAX_D use the few-row kernels (vnpu_flash_attn_tile.h), AVX-512,
 * AVX2 or SSE2; K and V tiles that are not fp32 rows are converted into
 * the scratch first, once per tile.
 */
#define FA_DOT_ROWS	8
#define FA_DOT_MAX_D	256

#define VF4	float __attribute__((vector_size(16)))
#define VF8	float __attribute__((vector_size(32)))
#define VF16	float __attribute__((vector_size(64)))
#define VU4	u32 __attribute__((vector_size(16)))
#define VU8	u32 __attribute__((vector_size(32)))
#define VU16	u32 __attribute__((vector_size(64)))
#define FA_SV	__builtin_shufflevector

/* The sums of four vectors' lanes: halves added, pairs interleaved. */
__attribute__((target("avx512f")))
static inline VF4 fa_red512(VF16 a0, VF16 a1, VF16 a2, VF16 a3)
{
	VF16 x = FA_SV(a0, a1, 0, 1, 2, 3, 4, 5, 6, 7,
		       16, 17, 18, 19, 20, 21, 22, 23) +
		 FA_SV(a0, a1, 8, 9, 10, 11, 12, 13, 14, 15,
		       24, 25, 26, 27, 28, 29, 30, 31);
	VF16 y = FA_SV(a2, a3, 0, 1, 2, 3, 4, 5, 6, 7,
		       16, 17, 18, 19, 20, 21, 22, 23) +
		 FA_SV(a2, a3, 8, 9, 10, 11, 12, 13, 14, 15,
		       24, 25, 26, 27, 28, 29, 30, 31);
	VF16 z = FA_SV(x, y, 0, 1, 2, 3, 8, 9, 10, 11,
		       16, 17, 18, 19, 24, 25, 26, 27) +
		 FA_SV(x, y, 4, 5, 6, 7, 12, 13, 14, 15,
		       20, 21, 22, 23, 28, 29, 30, 31);
	VF8 w = FA_SV(z, z, 0, 1, 4, 5, 8, 9, 12, 13) +
		FA_SV(z, z, 2, 3, 6, 7, 10, 11, 14, 15);

	return FA_SV(w, w, 0, 2, 4, 6) + FA_SV(w, w, 1, 3, 5, 7);
}

__attribute__((target("avx2,fma")))
static inline VF4 fa_red256(VF8 a0, VF8 a1, VF8 a2, VF8 a3)
{
	VF8 x = FA_SV(a0, a1, 0, 1, 2, 3, 8, 9, 10, 11) +
		FA_SV(a0, a1, 4, 5, 6, 7, 12, 13, 14, 15);
	VF8 y = FA_SV(a2, a3, 0, 1, 2, 3, 8, 9, 10, 11) +
		FA_SV(a2, a3, 4, 5, 6, 7, 12, 13, 14, 15);
	VF8 z = FA_SV(x, y, 0, 1, 4, 5, 8, 9, 12, 13) +
		FA_SV(x, y, 2, 3, 6, 7, 10, 11, 14, 15);

	return FA_SV(z, z, 0, 2, 4, 6) + FA_SV(z, z, 1, 3, 5, 7);
}

static inline VF4 fa_red128(VF4 a0, VF4 a1, VF4 a2, VF4 a3)
{
	VF4 x = FA_SV(a0, a1, 0, 1, 4, 5) + FA_SV(a0, a1, 2, 3, 6, 7);
	VF4 y = FA_SV(a2, a3, 0, 1, 4, 5) + FA_SV(a2, a3, 2, 3, 6, 7);

	return FA_SV(x, y, 0, 2, 4, 6) + FA_SV(x, y, 1, 3, 5, 7);
}

#define FA_VF	VF16
#define FA_VU	VU16
#define FA_W	16
#define FA_ATTR	__attribute__((target("avx512f")))
#define FA_RED4	fa_red512
#define FA_SFX	512
#include "vnpu_flash_attn_tile.h"

#define FA_VF	VF8
#define FA_VU	VU8
#define FA_W	8
#define FA_ATTR	__attribute__((target("avx2,fma")))
#define FA_RED4	fa_red256
#define FA_SFX	256
#include "vnpu_flash_attn_tile.h"

#define FA_VF	VF4
#define FA_VU	VU4
#define FA_W	4
#define FA_ATTR
#define FA_RED4	fa_red128
#define FA_SFX	128
#include "vnpu_flash_attn_tile.h"

/*
 * Scratch, after the GEMM engine's own: a K and a V tile converted for
 * the few-row kernels (rows dkp, dvp apart), the block's q rows, scaled (rows
 * dkp apart), their weighted sums of V (rows dvp apart), a tile of
 * scores (then of probabilities) per row, per row the running maximum
 * and sum, and the rows' band limits and coordinates.
 */
#define FA_SCRATCH_FLOATS \
	(VNPU_GEMM_SCRATCH_FLOATS + 2 * FA_KEYS * FA_DOT_MAX_D + \
	 2 * FA_ROWS * FA_MAX_D + \
	 FA_ROWS * FA_KEYS + 2 * FA_ROWS + 4 * FA_ROWS * 2)
#if FA_SCRATCH_FLOATS * 4 > VNPU_OPS_SCRATCH
#error "FLASH_ATTN's scratch does not fit"
#endif

/**
 * struct fa_piece - one piece's rows and scratch
 * @io: the call's tensors
 * @b: batch entry
 * @hk: K/V head
 * @rows: rows of the block
 * @dk: depth of q and k
 * @dv: columns of v
 * @dkp: row stride of @qf (@dk rounded up to 16)
 * @dvp: row stride of @acc (@dv rounded up to 16)
 * @kf: a K tile as fp32 for the few-row kernels
 * @vf: a V tile as fp32 for them
 * @qf: q rows, times the scale
 * @acc: weighted sums of V
 * @s: scores and probabilities, rows FA_KEYS apart
 * @mx: running maxima
 * @sum: running sums of exponentials
 * @lo: first key the band leaves each row
 * @hi: end of the keys the band leaves each row
 * @rh: query head of each row
 * @ri: query position of each row
 */
struct fa_piece {
	struct fa_io io;
	s64 b, hk, rows, dk, dv, dkp, dvp;
	float *kf, *vf, *qf, *acc, *s, *mx, *sum;
	s64 *lo, *hi, *rh, *ri;
};

/*
 * Mask, band and pse on row @r's scores of keys [j0, j0 + nk): masked
 * keys become -Inf.
 */
static void fa_mask_row(const struct fa_piece *p, s64 r, s64 j0, s64 nk,
			float *sr)
{
	const struct fa_io *io = &p->io;
	s64 h = p->rh[r], i = p->ri[r], j;

	for (j = 0; j < nk; j++) {
		s64 jj = j0 + j;

		if (jj < p->lo[r] || jj >= p->hi[r] ||
		    (io->mask &&
		     ((const u8 *)io->mask->data)[p->b * io->mask->strides[0] +
		      h * io->mask->strides[1] + i * io->mask->strides[2] +
		      jj * io->mask->strides[3]])) {
			sr[j] = -__builtin_inff();
			continue;
		}
		if (io->pse)
			sr[j] += fa_load1(io->pse, p->b * io->pse->strides[0] +
					  h * io->pse->strides[1] +
					  i * io->pse->strides[2] +
					  jj * io->pse->strides[3]);
	}
}

/*
 * Scores beyond the vector paths (a NaN, or +Inf): exponentials one at a
 * time as the scalar softmax takes them. Returns their sum; *@mn is the
 * new maximum.
 */
static float fa_exp_slow(float *sr, s64 nk, float mold, float *mn)
{
	float m = -__builtin_inff(), l = 0;
	s64 j;

	for (j = 0; j < nk; j++)
		if (sr[j] > m)
			m = sr[j];
	*mn = m > mold ? m : mold;
	for (j = 0; j < nk; j++) {
		sr[j] = softmax_expf(sr[j] - *mn);
		l += sr[j];
	}
	return l;
}

/*
 * The online softmax of row @r over the tile's scores: turns them into
 * probabilities against the new running maximum, rescales the row's sum
 * and V sums to it. A row the tile gives no key gets probabilities 0 and
 * keeps its state.
 */
static void fa_softmax_row(const struct vnpu_op_call *c,
			   const struct fa_piece *p, s64 r, s64 j0, s64 nk)
{
	float *sr = p->s + r * FA_KEYS, *ar = p->acc + r * p->dvp;
	float m, mn, alpha, l;
	bool nan = false;
	s64 j, d;

	if (p->lo[r] >= j0 + nk || p->hi[r] <= j0)
		goto none;	/* the band leaves this row no key here */
	if (p->io.mask || p->io.pse || p->lo[r] > j0 || p->hi[r] < j0 + nk)
		fa_mask_row(p, r, j0, nk, sr);
	m = vnpu_split_max_f32(sr, (u64)nk, &nan, c->cpu);
	if (m == -__builtin_inff())
		goto none;	/* no key of this tile counts */
	if (nan || m == __builtin_inff()) {
		l = fa_exp_slow(sr, nk, p->mx[r], &mn);
	} else {
		mn = m > p->mx[r] ? m : p->mx[r];
		l = (float)vnpu_split_expsum_f32(sr, sr, (u64)nk, mn, c->cpu);
	}
	alpha = softmax_expf(p->mx[r] - mn);
	if (alpha != 1.0f)
		for (d = 0; d < p->dv; d++)
			ar[d] *= alpha;
	p->mx[r] = mn;
	p->sum[r] = p->sum[r] * alpha + l;
	return;
none:
	for (j = 0; j < nk; j++)
		sr[j] = 0;
}

/* fp16 to fp32, eight at a time with F16C (exact, as vnpu_f16_to_f32()). */
__attribute__((target("avx,f16c")))
static void fa_f16_f16c(const u16 *src, float *dst, s64 n)
{
	s64 i = 0;

	for (; i + 8 <= n; i += 8) {
		short __attribute__((vector_size(16))) h;
		VF8 f;

		__builtin_memcpy(&h, src + i, sizeof(h));
		f = __builtin_ia32_vcvtph2ps256(h);
		__builtin_memcpy(dst + i, &f, sizeof(f));
	}
	for (; i < n; i++)
		dst[i] = vnpu_f16_to_f32(src[i]);
}

/* dst[0 .. n) = the @n elements of @t's last dim from @off, as fp32. */
static void fa_row_f32(const struct vnpu_tview *t, s64 off, s64 n,
		       float *dst, u32 cpu)
{
	s64 st = t->strides[3], d;

	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT: {
		const float *src = (const float *)t->data + off;

		for (d = 0; d < n; d++)
			dst[d] = src[d * st];
		break;
	}
	case DRM_VNPU_DTYPE_FLOAT16: {
		const u16 *src = (const u16 *)t->data + off;

		if (st == 1 && (cpu & VNPU_CPU_F16C) &&
		    (cpu & (VNPU_CPU_AVX2_FMA | VNPU_CPU_AVX512))) {
			fa_f16_f16c(src, dst, n);
			break;
		}
		for (d = 0; d < n; d++)
			dst[d] = vnpu_f16_to_f32(src[d * st]);
		break;
	}
	default: {
		const u16 *src = (const u16 *)t->data + off;

		for (d = 0; d < n; d++) {
			u32 u = (u32)src[d * st] << 16;

			__builtin_memcpy(&dst[d], &u, sizeof(u));
		}
		break;
	}
	}
}

/* Whether @t's rows can be read in place as fp32 with unit column stride. */
static bool fa_rows_are_f32(const struct vnpu_tview *t)
{
	return t->dtype == DRM_VNPU_DTYPE_FLOAT && t->strides[3] == 1;
}

/* dst[0 .. n) = scale * the @n elements of @t's last dim from @off. */
static void fa_row_in(const struct vnpu_tview *t, s64 off, s64 n, float scale,
		      float *dst, u32 cpu)
{
	s64 d;

	fa_row_f32(t, off, n, dst, cpu);
	for (d = 0; d < n; d++)
		dst[d] *= scale;
}

/*
 * fp32 to fp16, eight at a time with F16C, rounding to nearest even as
 * vnpu_f32_to_f16() does; NaNs (whose payload F16C keeps) go through it.
 */
__attribute__((target("avx,f16c")))
static void fa_f32_f16c(const float *src, float scale, u16 *dst, s64 n)
{
	s64 i = 0;
	int k;

	for (; i + 8 <= n; i += 8) {
		short __attribute__((vector_size(16))) h;
		VF8 f;

		__builtin_memcpy(&f, src + i, sizeof(f));
		f *= scale;
		h = __builtin_ia32_vcvtps2ph256(f, 0);
		__builtin_memcpy(dst + i, &h, sizeof(h));
		for (k = 0; k < 8; k++)
			if (f[k] != f[k])
				dst[i + k] = vnpu_f32_to_f16(f[k]);
	}
	for (; i < n; i++)
		dst[i] = vnpu_f32_to_f16(scale * src[i]);
}

/* The @n elements of @t's last dim from @off = scale * src[0 .. n). */
static void fa_row_out(const struct vnpu_tview *t, s64 off, s64 n,
		       float scale, const float *src, u32 cpu)
{
	s64 d;

	if (fa_rows_are_f32(t)) {
		float *dst = (float *)t->data + off;

		for (d = 0; d < n; d++)
			dst[d] = scale * src[d];
		return;
	}
	if (t->dtype == DRM_VNPU_DTYPE_FLOAT16 && t->strides[3] == 1 &&
	    (cpu & VNPU_CPU_F16C) &&
	    (cpu & (VNPU_CPU_AVX2_FMA | VNPU_CPU_AVX512))) {
		fa_f32_f16c(src, scale, (u16 *)t->data + off, n);
		return;
	}
	for (d = 0; d < n; d++)
		vnpu_gemm_st(t->data, t->dtype, off + d * t->strides[3],
			     scale * src[d]);
}

/*
 * The tile of @nk keys from @off of @t as fp32 rows with unit column
 * stride: where they are when @t is such, else converted into @buf (rows
 * @bs apart). *@rs is the row stride of the rows returned.
 */
static const float *fa_rows_f32(const struct vnpu_tview *t, s64 off, s64 nk,
				s64 n, float *buf, s64 bs, s64 *rs, u32 cpu)
{
	s64 j;

	if (fa_rows_are_f32(t)) {
		*rs = t->strides[2];
		return (const float *)t->data + off;
	}
	for (j = 0; j < nk; j++)
		fa_row_f32(t, off + j * t->strides[2], n, buf + j * bs, cpu);
	*rs = bs;
	return buf;
}

/* The scores of a few rows against the tile of @nk keys at @off of k. */
static void fa_dot_scores(const struct vnpu_op_call *c,
			  const struct fa_piece *p, s64 off, s64 nk)
{
	s64 ks;
	const float *k = fa_rows_f32(p->io.k, off, nk, p->dk, p->kf, p->dkp,
				     &ks, c->cpu);

	if (c->cpu & VNPU_CPU_AVX512)
		fa_dot512(p->qf, p->dkp, p->rows, k, ks, p->dk, nk, p->s);
	else if (c->cpu & VNPU_CPU_AVX2_FMA)
		fa_dot256(p->qf, p->dkp, p->rows, k, ks, p->dk, nk, p->s);
	else
		fa_dot128(p->qf, p->dkp, p->rows, k, ks, p->dk, nk, p->s);
}

/* Whether @rows rows of @n floats (@rs apart) are all finite. */
static bool fa_finite_rows(u32 cpu, const float *x, s64 rs, s64 rows, s64 n)
{
	if (cpu & VNPU_CPU_AVX512)
		return fa_finite512(x, rs, rows, n);
	if (cpu & VNPU_CPU_AVX2_FMA)
		return fa_finite256(x, rs, rows, n);
	return fa_finite128(x, rs, rows, n);
}

/*
 * Whether the tile of @nk values at @off of v is all finite, as fp32
 * rows with unit column stride where those are (vector units), else
 * element by element from the exponent bits of its dtype.
 */
static bool fa_v_finite(const struct vnpu_op_call *c, const struct vnpu_tview *t,
			s64 off, s64 nk, s64 n)
{
	s64 j, d;

	if (fa_rows_are_f32(t))
		return fa_finite_rows(c->cpu, (const float *)t->data + off,
				      t->strides[2], nk, n);
	for (j = 0; j < nk; j++)
		for (d = 0; d < n; d++) {
			s64 i = off + j * t->strides[2] + d * t->strides[3];
			u32 u;

			switch (t->dtype) {
			case DRM_VNPU_DTYPE_FLOAT:
				u = ((const u32 *)t->data)[i];
				if ((u & 0x7f800000u) == 0x7f800000u)
					return false;
				break;
			case DRM_VNPU_DTYPE_FLOAT16:
				u = ((const u16 *)t->data)[i];
				if ((u & 0x7c00u) == 0x7c00u)
					return false;
				break;
			default:
				u = ((const u16 *)t->data)[i];
				if ((u & 0x7f80u) == 0x7f80u)
					return false;
				break;
			}
		}
	return true;
}

/*
 * The V sums of a tile holding an Inf or a NaN: a key of probability 0
 * (dropped, or its exp underflowed) adds nothing, as in a softmax over
 * the kept keys, where the products would add 0 * Inf = NaN.
 */
static void fa_sums_exact(const struct fa_piece *p, s64 off, s64 nk)
{
	const struct vnpu_tview *v = p->io.v;
	s64 r, j, d;

	for (r = 0; r < p->rows; r++)
		for (j = 0; j < nk; j++) {
			float pj = p->s[r * FA_KEYS + j];

			if (pj == 0.0f)
				continue;
			for (d = 0; d < p->dv; d++)
				p->acc[r * p->dvp + d] +=
					pj * vnpu_gemm_ld(v->data, v->dtype,
							  off + j * v->strides[2] +
							  d * v->strides[3]);
		}
}

/*
 * Their weighted sums of the tile of @nk values at @off of v; a tile with
 * an Inf or a NaN is summed again, exactly, from the sums before it
 * (kept in @p->kf, free once the scores are made).
 */
static void fa_dot_sums(const struct vnpu_op_call *c,
			const struct fa_piece *p, s64 off, s64 nk)
{
	s64 vs, r, d;
	const float *v = fa_rows_f32(p->io.v, off, nk, p->dv, p->vf, p->dvp,
				     &vs, c->cpu);
	bool ok;

	for (r = 0; r < p->rows; r++)
		for (d = 0; d < p->dv; d++)
			p->kf[r * p->dvp + d] = p->acc[r * p->dvp + d];
	if (c->cpu & VNPU_CPU_AVX512)
		ok = fa_axpy512(p->s, p->rows, v, vs, p->dv, nk, p->acc,
				p->dvp);
	else if (c->cpu & VNPU_CPU_AVX2_FMA)
		ok = fa_axpy256(p->s, p->rows, v, vs, p->dv, nk, p->acc,
				p->dvp);
	else
		ok = fa_axpy128(p->s, p->rows, v, vs, p->dv, nk, p->acc,
				p->dvp);
	if (ok)
		return;
	for (r = 0; r < p->rows; r++)
		for (d = 0; d < p->dv; d++)
			p->acc[r * p->dvp + d] = p->kf[r * p->dvp + d];
	fa_sums_exact(p, off, nk);
}

/*
 * The GEMM engine's B packer for the scores: k^T from fp32 K rows with
 * unit column stride (b_rs 1, b_cs the key stride). The default packer
 * writes each of a sliver's columns down its depth, one element a
 * cache line; this one transposes 4 x 4 blocks in registers and stores
 * four keys at once. Sliver s at dst + s * kc * nr, element (p, j) at
 * p * nr + j, columns past nc zero.
 */
static void fa_pack_kt(const struct vnpu_gemm *g, s64 p0, s64 kc, s64 j0,
		       s64 nc, float *dst)
{
	const float *k = (const float *)g->b + p0 + j0 * g->b_cs;
	s64 nr = g->nr, s0, j, p, pm = kc & ~3LL;

	for (s0 = 0; s0 < nc; s0 += nr, dst += kc * nr) {
		for (j = 0; j < nr; j += 4) {
			const float *r[4];
			s64 n = nc - s0 - j, t;

			if (n >= 4) {
				for (t = 0; t < 4; t++)
					r[t] = k + (s0 + j + t) * g->b_cs;
				for (p = 0; p < pm; p += 4) {
					VF4 a0, a1, a2, a3, t0, t1, t2, t3, c[4];

					__builtin_memcpy(&a0, r[0] + p, sizeof(a0));
					__builtin_memcpy(&a1, r[1] + p, sizeof(a1));
					__builtin_memcpy(&a2, r[2] + p, sizeof(a2));
					__builtin_memcpy(&a3, r[3] + p, sizeof(a3));
					t0 = FA_SV(a0, a1, 0, 4, 1, 5);
					t1 = FA_SV(a0, a1, 2, 6, 3, 7);
					t2 = FA_SV(a2, a3, 0, 4, 1, 5);
					t3 = FA_SV(a2, a3, 2, 6, 3, 7);
					c[0] = FA_SV(t0, t2, 0, 1, 4, 5);
					c[1] = FA_SV(t0, t2, 2, 3, 6, 7);
					c[2] = FA_SV(t1, t3, 0, 1, 4, 5);
					c[3] = FA_SV(t1, t3, 2, 3, 6, 7);
					for (t = 0; t < 4; t++)
						__builtin_memcpy(dst + (p + t) * nr + j,
								 &c[t], sizeof(c[t]));
				}
				for (; p < kc; p++)
					for (t = 0; t < 4; t++)
						dst[p * nr + j + t] = r[t][p];
				continue;
			}
			for (p = 0; p < kc; p++)
				for (t = 0; t < 4; t++)
					dst[p * nr + j + t] = t < n ?
						k[(s0 + j + t) * g->b_cs + p] : 0;
		}
	}
}

/*
 * One block of rows against every key: per tile of FA_KEYS keys, the
 * scores q . k^T and the sums P V are GEMM blocks (the engine converts
 * and packs the tile's K and V once for all the rows), the online
 * softmax runs between them on the scores in place.
 */
static void fa_run(const struct vnpu_op_call *c, u64 tile)
{
	struct fa_piece p;
	struct fa_io *io = &p.io;
	struct vnpu_gemm gs, gp;
	s64 r, nqb, t0, g, skv, sq, j0, jlo, jhi, d, kb, vb;
	float *scratch = c->scratch, scale;
	u64 work = 0;
	bool dot, kconv, vconv;
	s64 ks;

	fa_io(c, io);
	scale = vnpu_attr_float(c, 0, 1.0f);
	sq = io->q->shape[2];
	p.dk = io->q->shape[3];
	p.dv = io->v->shape[3];
	p.dkp = (p.dk + 15) & ~15LL;
	p.dvp = (p.dv + 15) & ~15LL;
	skv = io->k->shape[2];
	/*
	 * The piece's rows: block t0 / rows of the g x Sq rows of the query
	 * heads that share K/V head hk, head-major, so they share each
	 * K and V tile's conversion (GQA decoding has g rows, not 1).
	 */
	p.rows = fa_rows(io);
	g = io->q->shape[1] / io->k->shape[1];
	nqb = (g * sq + p.rows - 1) / p.rows;
	t0 = (s64)(tile % (u64)nqb) * p.rows;
	p.hk = (s64)(tile / (u64)nqb % (u64)io->k->shape[1]);
	p.b = (s64)(tile / (u64)nqb / (u64)io->k->shape[1]);
	if (p.rows > g * sq - t0)
		p.rows = g * sq - t0;

	p.kf = scratch + VNPU_GEMM_SCRATCH_FLOATS;
	p.vf = p.kf + FA_KEYS * FA_DOT_MAX_D;
	p.qf = p.vf + FA_KEYS * FA_DOT_MAX_D;
	p.acc = p.qf + FA_ROWS * p.dkp;
	p.s = p.acc + FA_ROWS * p.dvp;
	p.mx = p.s + FA_ROWS * FA_KEYS;
	p.sum = p.mx + FA_ROWS;
	p.lo = (s64 *)(p.sum + FA_ROWS);
	p.hi = p.lo + FA_ROWS;
	p.rh = p.hi + FA_ROWS;
	p.ri = p.rh + FA_ROWS;

	jlo = skv;
	jhi = 0;
	for (r = 0; r < p.rows; r++) {
		float *qr = p.qf + r * p.dkp;

		p.rh[r] = p.hk * g + (t0 + r) / sq;
		p.ri[r] = (t0 + r) % sq;
		/* an empty q is NULL with any strides */
		if (p.dk)
			fa_row_in(io->q, p.b * io->q->strides[0] +
				  p.rh[r] * io->q->strides[1] +
				  p.ri[r] * io->q->strides[2], p.dk, scale, qr,
				  c->cpu);
		for (d = 0; d < p.dv; d++)
			p.acc[r * p.dvp + d] = 0;
		p.mx[r] = -__builtin_inff();
		p.sum[r] = 0;
		fa_band(c, p.ri[r], sq, skv, &p.lo[r], &p.hi[r]);
		if (p.lo[r] < p.hi[r]) {
			jlo = p.lo[r] < jlo ? p.lo[r] : jlo;
			jhi = p.hi[r] > jhi ? p.hi[r] : jhi;
		}
	}

	kb = p.b * io->k->strides[0] + p.hk * io->k->strides[1];
	vb = p.b * io->v->strides[0] + p.hk * io->v->strides[1];
	/* scores: q rows (m) by the tile's keys (n), at depth dk */
	vnpu_gemm_init(&gs, c->cpu);
	gs.m = p.rows;
	gs.k = p.dk;
	gs.alpha = 1.0f;
	gs.a = p.qf;
	gs.a_dtype = DRM_VNPU_DTYPE_FLOAT;
	gs.a_rs = p.dkp;
	gs.a_cs = 1;
	gs.b_dtype = io->k->dtype;
	gs.b_rs = io->k->strides[3];
	gs.b_cs = io->k->strides[2];
	/* other K and V tiles are converted to fp32 rows once, then packed */
	kconv = !fa_rows_are_f32(io->k) && p.dk >= 1 && p.dk <= FA_DOT_MAX_D;
	vconv = !fa_rows_are_f32(io->v) && p.dv >= 1 && p.dv <= FA_DOT_MAX_D;
	if (kconv) {
		gs.b_dtype = DRM_VNPU_DTYPE_FLOAT;
		gs.b_rs = 1;
		gs.b_cs = p.dkp;
	}
	if (kconv || fa_rows_are_f32(io->k))
		gs.pack_b = fa_pack_kt;
	gs.call = c;
	/* weighted sums: probabilities (m) by v's columns (n), at depth nk */
	vnpu_gemm_init(&gp, c->cpu);
	gp.m = p.rows;
	gp.n = p.dv;
	gp.alpha = 1.0f;
	gp.a = p.s;
	gp.a_dtype = DRM_VNPU_DTYPE_FLOAT;
	gp.a_rs = FA_KEYS;
	gp.a_cs = 1;
	gp.b_dtype = io->v->dtype;
	gp.b_rs = io->v->strides[2];
	gp.b_cs = io->v->strides[3];
	if (vconv) {
		gp.b_dtype = DRM_VNPU_DTYPE_FLOAT;
		gp.b_rs = p.dvp;
		gp.b_cs = 1;
	}
	gp.call = c;

	dot = p.rows <= FA_DOT_ROWS && p.dk >= 1 && p.dk <= FA_DOT_MAX_D &&
	      p.dv <= FA_DOT_MAX_D;
	for (j0 = jlo; j0 < jhi; j0 += FA_KEYS) {
		s64 nk = jhi - j0 < FA_KEYS ? jhi - j0 : FA_KEYS;

		if (dot) {
			fa_dot_scores(c, &p, kb + j0 * io->k->strides[2], nk);
		} else {
			gs.n = nk;
			gs.b = p.dk ? fa_at(io->k, kb + j0 * io->k->strides[2]) :
			       NULL;
			if (kconv)
				gs.b = fa_rows_f32(io->k, kb + j0 * io->k->strides[2],
						   nk, p.dk, p.kf, p.dkp, &ks,
						   c->cpu);
			vnpu_gemm_block(&gs, 0, p.rows, 0, nk, p.s, FA_KEYS,
					false, scratch);
		}
		for (r = 0; r < p.rows; r++)
			fa_softmax_row(c, &p, r, j0, nk);
		vnpu_op_beat_work(c, &work, (u64)(p.rows * nk));
		if (!p.dv)
			continue;
		if (dot) {
			fa_dot_sums(c, &p, vb + j0 * io->v->strides[2], nk);
			vnpu_op_beat_work(c, &work, (u64)(p.rows * nk * (p.dk + p.dv)));
			continue;
		}
		gp.k = nk;
		gp.b = fa_at(io->v, vb + j0 * io->v->strides[2]);
		if (vconv)
			gp.b = fa_rows_f32(io->v, vb + j0 * io->v->strides[2],
					   nk, p.dv, p.vf, p.dvp, &ks, c->cpu);
		if (vconv ? !fa_finite_rows(c->cpu, p.vf, p.dvp, nk, p.dv) :
		    !fa_v_finite(c, io->v, vb + j0 * io->v->strides[2], nk,
				 p.dv)) {
			fa_sums_exact(&p, vb + j0 * io->v->strides[2], nk);
			continue;
		}
		for (d = 0; d < p.dv; d += VNPU_GEMM_NC)
			vnpu_gemm_block(&gp, 0, p.rows, d,
					p.dv - d < VNPU_GEMM_NC ?
					p.dv - d : VNPU_GEMM_NC,
					p.acc + d, p.dvp, true, scratch);
	}

	for (r = 0; r < p.rows; r++) {
		s64 ob = p.b * io->out->strides[0] +
			 p.rh[r] * io->out->strides[1] +
			 p.ri[r] * io->out->strides[2];
		float inv = p.sum[r] > 0 ? 1.0f / p.sum[r] : 0.0f;

		if (p.dv)
			fa_row_out(io->out, ob, p.dv, inv, p.acc + r * p.dvp,
				   c->cpu);
		if (io->lse) {
			float lse = p.sum[r] > 0 ?
				p.mx[r] + (float)vnpu_log((double)p.sum[r]) :
				__builtin_inff();

			((float *)io->lse->data)[p.b * io->lse->strides[0] +
				p.rh[r] * io->lse->strides[1] +
				p.ri[r] * io->lse->strides[2]] = lse;
		}
	}
}

const struct vnpu_op_impl vnpu_ops_attn[] = {
	{ DRM_VNPU_OP_FLASH_ATTN, "flash_attn", fa_check, fa_tiles, fa_run,
	  NULL, VNPU_OP_EMPTY_OK },
	{ 0 }
};
