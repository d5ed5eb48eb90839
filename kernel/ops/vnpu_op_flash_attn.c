// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FLASH_ATTN: fused scaled dot-product attention, flash style. A piece is
 * a block of up to FA_ROWS query rows of the heads that share one K/V
 * head in one batch (all N / Nkv of them: a GQA decode step's rows go
 * together); it walks the keys in tiles of FA_KEYS, converting each K and
 * V tile to fp32 in its scratch memory once for the whole block, and
 * keeps per row the running
 * maximum, the running sum of exponentials and the weighted sum of V
 * (the online softmax), rescaling both when the maximum grows. The
 * Sq x Skv score matrix never exists; a piece holds at most FA_ROWS x
 * FA_KEYS scores. Pieces run in any order on any engine, so a call
 * spreads over the engines by batch x K/V head x row block.
 *
 * Keys are dropped by the mask (non-zero), by the band and by an additive
 * pse of -Inf; a row left without keys is written as 0 (CANN's "row
 * invalid" correction) with lse +Inf.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"
#include "vnpu_expf.h"
#include "vnpu_math.h"

/* Query rows of a piece and keys of a tile. */
#define FA_ROWS		32
#define FA_KEYS		64
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

/*
 * SSE2 vectors (x86-64's baseline, always there): the scores of a row
 * against 32 keys at a time and the weighted sums of V, four lanes wide.
 */
#define VF4	float __attribute__((vector_size(16)))

/* @n elements @stride apart from @off of a float view, as fp32 @dstride apart. */
static void fa_load(float *dst, s64 dstride, const struct vnpu_tview *t,
		    s64 off, s64 stride, s64 n)
{
	s64 i;

	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT: {
		const float *p = (const float *)t->data + off;

		if (stride == 1 && dstride == 1) {	/* contiguous rows */
			for (i = 0; i < n; i++)
				dst[i] = p[i];
			break;
		}
		for (i = 0; i < n; i++)
			dst[i * dstride] = p[i * stride];
		break;
	}
	case DRM_VNPU_DTYPE_FLOAT16: {
		const u16 *p = (const u16 *)t->data + off;

		for (i = 0; i < n; i++)
			dst[i * dstride] = vnpu_f16_to_f32(p[i * stride]);
		break;
	}
	default: {
		const u16 *p = (const u16 *)t->data + off;

		for (i = 0; i < n; i++)
			dst[i * dstride] = vnpu_bf16_to_f32(p[i * stride]);
		break;
	}
	}
}

static float fa_load1(const struct vnpu_tview *t, s64 off)
{
	float v;

	fa_load(&v, 1, t, off, 1, 1);
	return v;
}

static void fa_store(const struct vnpu_tview *t, s64 off, float v)
{
	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		((float *)t->data)[off] = v;
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		((u16 *)t->data)[off] = vnpu_f32_to_f16(v);
		break;
	default:
		((u16 *)t->data)[off] = vnpu_f32_to_bf16(v);
		break;
	}
}

/*
 * sr[0 .. nk) = qr . key j, from the tile transposed: kt[d * FA_KEYS + j].
 * Lanes past nk (up to the next 32) are computed from whatever the tile
 * holds there and never read.
 */
static void fa_scores(const float *qr, const float *kt, s64 dk, s64 nk,
		      float *sr)
{
	s64 h, d;
	int i;

	for (h = 0; h < nk; h += 32) {
		VF4 a[8] = { 0 };

		for (d = 0; d < dk; d++) {
			const VF4 *k = (const VF4 *)(kt + d * FA_KEYS + h);
			float q = qr[d];

			for (i = 0; i < 8; i++)
				a[i] += q * k[i];
		}
		for (i = 0; i < 8; i++)
			((VF4 *)(sr + h))[i] = a[i];
	}
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
 * Scratch: q rows and their V sums (rows FA_MAX_D apart), the K tile
 * transposed, the V tile (rows dvp apart: dv rounded up to 4, zero
 * padded), a tile of scores per row, and per row the maximum and sum.
 */
static void fa_run(const struct vnpu_op_call *c, u64 tile)
{
	struct fa_io io;
	s64 r = 0, rows, nqb, b, hk, t0, g, dk, dv, dvp, skv, sq, j0, jlo, jhi;
	float *qf, *acc, *mx, *sum, *kt, *vf, *s, scale;
	s64 lo[FA_ROWS], hi[FA_ROWS], rh[FA_ROWS], ri[FA_ROWS];
	u64 work = 0;

	fa_io(c, &io);
	scale = vnpu_attr_float(c, 0, 1.0f);
	sq = io.q->shape[2];
	dk = io.q->shape[3];
	dv = io.v->shape[3];
	dvp = (dv + 3) & ~3LL;
	skv = io.k->shape[2];
	/*
	 * The piece's rows: block t0 / rows of the g x Sq rows of the query
	 * heads that share K/V head hk, head-major, so they share each
	 * K and V tile's conversion (GQA decoding has g rows, not 1).
	 */
	rows = fa_rows(&io);
	g = io.q->shape[1] / io.k->shape[1];
	nqb = (g * sq + rows - 1) / rows;
	t0 = (s64)(tile % (u64)nqb) * rows;
	hk = (s64)(tile / (u64)nqb % (u64)io.k->shape[1]);
	b = (s64)(tile / (u64)nqb / (u64)io.k->shape[1]);
	if (rows > g * sq - t0)
		rows = g * sq - t0;
	for (r = 0; r < rows; r++) {
		rh[r] = hk * g + (t0 + r) / sq;
		ri[r] = (t0 + r) % sq;
	}

	qf = c->scratch;
	acc = qf + FA_ROWS * FA_MAX_D;
	kt = acc + FA_ROWS * FA_MAX_D;
	vf = kt + FA_KEYS * FA_MAX_D;
	s = vf + FA_KEYS * FA_MAX_D;
	mx = s + FA_ROWS * FA_KEYS;
	sum = mx + FA_ROWS;

	jlo = skv;
	jhi = 0;
	for (r = 0; r < rows; r++) {
		float *qr = qf + r * FA_MAX_D;
		s64 d;

		if (dk)	/* an empty q is NULL with any strides */
			fa_load(qr, 1, io.q, b * io.q->strides[0] +
				rh[r] * io.q->strides[1] + ri[r] * io.q->strides[2],
				io.q->strides[3], dk);
		for (d = 0; d < dk; d++)
			qr[d] *= scale;
		for (d = 0; d < dvp; d++)
			acc[r * FA_MAX_D + d] = 0;
		mx[r] = -__builtin_inff();
		sum[r] = 0;
		fa_band(c, ri[r], sq, skv, &lo[r], &hi[r]);
		if (lo[r] < hi[r]) {
			jlo = lo[r] < jlo ? lo[r] : jlo;
			jhi = hi[r] > jhi ? hi[r] : jhi;
		}
	}

	for (j0 = jlo; j0 < jhi; j0 += FA_KEYS) {
		s64 nk = jhi - j0 < FA_KEYS ? jhi - j0 : FA_KEYS, j, d;
		s64 kb = b * io.k->strides[0] + hk * io.k->strides[1];
		s64 vb = b * io.v->strides[0] + hk * io.v->strides[1];

		for (j = 0; j < nk; j++) {
			float *vr = vf + j * dvp;

			if (dk)
				fa_load(kt + j, FA_KEYS, io.k,
					kb + (j0 + j) * io.k->strides[2],
					io.k->strides[3], dk);
			if (dv)
				fa_load(vr, 1, io.v,
					vb + (j0 + j) * io.v->strides[2],
					io.v->strides[3], dv);
			for (d = dv; d < dvp; d++)
				vr[d] = 0;
		}
		for (r = 0; r < rows; r++) {
			float *sr = s + r * FA_KEYS;
			VF4 *ar = (VF4 *)(acc + r * FA_MAX_D);
			float m = -__builtin_inff(), mn, alpha, l;
			s64 h = rh[r], i = ri[r];

			if (lo[r] >= j0 + nk || hi[r] <= j0)
				continue;	/* the band leaves this row no key here */
			fa_scores(qf + r * FA_MAX_D, kt, dk, nk, sr);
			for (j = 0; j < nk; j++) {
				s64 jj = j0 + j;

				if (jj < lo[r] || jj >= hi[r] ||
				    (io.mask &&
				     ((const u8 *)io.mask->data)[b * io.mask->strides[0] +
				      h * io.mask->strides[1] + i * io.mask->strides[2] +
				      jj * io.mask->strides[3]])) {
					sr[j] = -__builtin_inff();
					continue;
				}
				if (io.pse)
					sr[j] += fa_load1(io.pse, b * io.pse->strides[0] +
							  h * io.pse->strides[1] +
							  i * io.pse->strides[2] +
							  jj * io.pse->strides[3]);
				if (sr[j] > m)
					m = sr[j];
			}
			if (m == -__builtin_inff())
				continue;	/* no key of this tile counts */
			mn = m > mx[r] ? m : mx[r];
			alpha = softmax_expf(mx[r] - mn);
			l = sum[r] * alpha;
			if (alpha != 1.0f)
				for (d = 0; d < dvp / 4; d++)
					ar[d] *= alpha;
			for (j = 0; j < nk; j++) {
				const VF4 *vr = (const VF4 *)(vf + j * dvp);
				float p = softmax_expf(sr[j] - mn);

				if (p == 0.0f)
					continue;
				l += p;
				for (d = 0; d < dvp / 4; d++)
					ar[d] += p * vr[d];
			}
			mx[r] = mn;
			sum[r] = l;
		}
		vnpu_op_beat_work(c, &work, (u64)(rows * nk * (dk + dv)));
	}

	for (r = 0; r < rows; r++) {
		s64 ob = b * io.out->strides[0] + rh[r] * io.out->strides[1] +
			 ri[r] * io.out->strides[2], d;
		float inv = sum[r] > 0 ? 1.0f / sum[r] : 0.0f;

		for (d = 0; d < dv; d++)
			fa_store(io.out, ob + d * io.out->strides[3],
				 acc[r * FA_MAX_D + d] * inv);
		if (io.lse) {
			float lse = sum[r] > 0 ?
				mx[r] + (float)vnpu_log((double)sum[r]) :
				__builtin_inff();

			((float *)io.lse->data)[b * io.lse->strides[0] +
				rh[r] * io.lse->strides[1] +
				ri[r] * io.lse->strides[2]] = lse;
		}
	}
}

const struct vnpu_op_impl vnpu_ops_attn[] = {
	{ DRM_VNPU_OP_FLASH_ATTN, "flash_attn", fa_check, fa_tiles, fa_run,
	  NULL, VNPU_OP_EMPTY_OK },
	{ 0 }
};
