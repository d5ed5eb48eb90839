// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * VPC: resampling one plane of 1 to 4 byte channels, separably. The taps
 * of each output column are computed once per piece (the coordinate
 * arithmetic of the reference each mode follows, in float or double as
 * it does), those of a row once per row; the inner loops are integer
 * multiply-adds with weights of VPC_WBITS fraction bits. A horizontal
 * pass of a source row is kept while later output rows need it, as
 * OpenCV keeps its ring of rows.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_vpc.h"
#include "vnpu_math.h"

#define VPC_ALIGN(n)	(((n) + 63) & ~(u64)63)

u32 vpc_taps(u32 mode, s32 in, s32 out)
{
	if (in == out)
		return 1;	/* a copy along this axis, whatever the mode */
	switch (mode) {
	case VPC_INTERP_DEFAULT:
		return 4;
	case VPC_INTERP_CV_LINEAR:
	case VPC_INTERP_TF_LINEAR:
		return 2;
	default:
		return 1;
	}
}

static s32 vpc_clamp(s32 v, s32 n)
{
	return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* floor() of a coordinate (|v| < 2^30). */
static s32 vpc_floor(double v)
{
	s32 t = (s32)v;

	return t - (v < (double)t);
}

/* A weight in fixed point, rounded half to even as OpenCV's cvRound. */
static s16 vpc_weight(float w)
{
	double x = (double)(w * (float)VPC_WONE);
	s32 t = vpc_floor(x + 0.5);

	if ((double)t - x == 0.5 && (t & 1))
		t--;
	return (s16)t;
}

/* @v / 2^@r rounded to nearest, ties to even (@v < 2^25). */
static s32 vpc_rne(u32 v, u32 r)
{
	u32 q, rem, half;

	if (!r)
		return (s32)v;
	if (r > 26)
		return 0;
	q = v >> r;
	rem = v & ((1u << r) - 1);
	half = 1u << (r - 1);
	return (s32)(q + (rem > half || (rem == half && (q & 1))));
}

bool vpc_frac_weights(float f, s32 *s, s16 *w0, s16 *w1)
{
	u32 b, e, m, q, frac;

	__builtin_memcpy(&b, &f, sizeof(b));
	e = b >> 23;		/* the sign is bit 8 of it: negative fails below */
	m = b & 0x7fffff;
	if (e >= 150) {		/* an integer, or not a number >= 0 */
		if (e > 150 + 6)
			return false;
		*s = (s32)((m | 0x800000) << (e - 150));
		*w0 = VPC_WONE;
		*w1 = 0;
		return true;
	}
	if (e)
		m |= 0x800000;
	else
		e = 1;		/* subnormal: m * 2^-149 */
	q = 150 - e;		/* f = m * 2^-q */
	if (q <= 24) {
		/* the fraction in units of 2^-24; 1 - it is exact as well */
		*s = (s32)(m >> q);
		frac = (m & ((1u << q) - 1)) << (24 - q);
	} else {
		/* f < 1/2: 1 - f rounds to a multiple of 2^-24 */
		*s = 0;
		*w1 = (s16)vpc_rne(m, q - 11);
		*w0 = (s16)vpc_rne(0x1000000 - vpc_rne(m, q - 24), 24 - VPC_WBITS);
		return true;
	}
	*w1 = (s16)vpc_rne(frac, 24 - VPC_WBITS);
	*w0 = (s16)vpc_rne(0x1000000 - frac, 24 - VPC_WBITS);
	return true;
}

/* OpenCV's interpolateCubic(), A = -0.75, in float as it computes. */
static void vpc_cubic(float x, float *c)
{
	const float a = -0.75f;

	c[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
	c[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
	c[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
	c[3] = 1.f - c[0] - c[1] - c[2];
}

/*
 * The @k taps of output coordinate @d along an axis from @in to @out:
 * source indices clamped to [0, in) and their weights.
 */
static void vpc_axis_init(struct vpc_axis *ax, u32 mode, s32 in, s32 out)
{
	ax->mode = mode;
	ax->in = in;
	ax->out = out;
	ax->scale = 1.0 / ((double)out / (double)in);
	ax->tscale = (float)in / (float)out;
}

static void vpc_coef(const struct vpc_axis *ax, s32 d, s32 *idx, s16 *w)
{
	u32 mode = ax->mode;
	s32 in = ax->in, out = ax->out;
	double scale = ax->scale;
	float tscale = ax->tscale;
	float f;
	s32 s, t;

	if (in == out) {
		idx[0] = d;
		w[0] = VPC_WONE;
		return;
	}
	switch (mode) {
	case VPC_INTERP_CV_NEAREST:
		idx[0] = vpc_clamp(vpc_floor((double)d * scale), in);
		w[0] = VPC_WONE;
		return;
	case VPC_INTERP_TF_NEAREST:
		idx[0] = vpc_clamp(vpc_floor((double)((float)d * tscale)), in);
		w[0] = VPC_WONE;
		return;
	case VPC_INTERP_TF_LINEAR:
		/* f >= 0: its floor and weights from its bits */
		if (!vpc_frac_weights((float)d * tscale, &s, &w[0], &w[1])) {
			s = 0;
			w[1] = 0;
		}
		idx[0] = vpc_clamp(s, in);
		idx[1] = vpc_clamp(s + 1, in);
		w[0] = VPC_WONE - w[1];
		return;
	case VPC_INTERP_CV_LINEAR:
		f = (float)(((double)d + 0.5) * scale - 0.5);
		/* f < 0 (left of the first centre): the first column alone */
		if (!vpc_frac_weights(f, &s, &w[0], &w[1]) || s >= in - 1) {
			s = f > 0 ? in - 1 : 0;
			w[0] = VPC_WONE;
			w[1] = 0;
		}
		idx[0] = s;
		idx[1] = vpc_clamp(s + 1, in);
		return;
	default: {	/* bicubic, OpenCV's INTER_CUBIC */
		float c[4];

		f = (float)(((double)d + 0.5) * scale - 0.5);
		s = vpc_floor((double)f);
		f -= (float)s;
		vpc_cubic(f, c);
		for (t = 0; t < 4; t++) {
			idx[t] = vpc_clamp(s - 1 + t, in);
			w[t] = vpc_weight(c[t]);
		}
		return;
	}
	}
}

void vpc_rs_init(struct vpc_rs *rs, u8 **mem)
{
	u64 n = (u64)rs->out_w;
	s32 x, idx[4];
	struct vpc_axis ax;
	s16 w[4];
	u32 t, ky_max;

	rs->kx = vpc_taps(rs->mode, rs->in_w, rs->out_w);
	rs->ky = vpc_taps(rs->mode, rs->in_h, rs->out_h);
	ky_max = rs->ky;
	rs->xo = (s32 *)*mem;
	*mem += VPC_ALIGN(n * rs->kx * 4);
	rs->xw = (s16 *)*mem;
	*mem += VPC_ALIGN(n * rs->kx * 2);
	rs->rows = (s32 *)*mem;
	*mem += ky_max * VPC_ALIGN(n * rs->src.nc * 4);
	rs->out = *mem;
	*mem += VPC_ALIGN(n * rs->src.nc);
	vpc_axis_init(&ax, rs->mode, rs->in_w, rs->out_w);
	vpc_axis_init(&rs->ay, rs->mode, rs->in_h, rs->out_h);
	for (x = 0; x < rs->out_w; x++) {
		vpc_coef(&ax, x, idx, w);
		for (t = 0; t < rs->kx; t++) {
			rs->xo[x * rs->kx + t] = (rs->x0 + idx[t]) * (s32)rs->src.step;
			rs->xw[x * rs->kx + t] = w[t];
		}
	}
	for (t = 0; t < 4; t++)
		rs->key[t] = -1;
	rs->lanes = NULL;
	rs->pofs = NULL;
	rs->groups = 0;
	/*
	 * bilinear shrinking vertically: a pixel's taps in one load where
	 * the layout allows (SSE2 beats AVX2's gathers there)
	 */
	if ((rs->sse2 || !rs->avx2) && rs->kx == 2 && rs->ky == 2 &&
	    rs->in_h > rs->out_h)
		vpc_pairs_init(rs, mem);
	if (!rs->pofs && rs->avx2 && rs->kx == 2 && rs->ky == 2 &&
	    rs->in_h > rs->out_h) {
		u64 m = n * rs->src.nc, sz = VPC_ALIGN(m * 4) / 4, i;
		s32 *g0, *g1, *w0, *w1, *gap;
		u32 c;

		rs->lanes = (s32 *)*mem;
		*mem += 4 * sz * 4 + VPC_ALIGN((m / 8 + 1) * 4);
		g0 = rs->lanes;
		g1 = g0 + sz;
		w0 = g1 + sz;
		w1 = w0 + sz;
		gap = w1 + sz;
		rs->lane_min = rs->xo[0] + rs->src.off[0] - 3;
		for (x = 0; x < rs->out_w; x++)
			for (c = 0; c < rs->src.nc; c++) {
				i = (u64)x * rs->src.nc + c;
				g0[i] = rs->xo[2 * x] + rs->src.off[c] - 3;
				g1[i] = rs->xo[2 * x + 1] + rs->src.off[c] - 3;
				w0[i] = rs->xw[2 * x];
				w1[i] = rs->xw[2 * x + 1];
				if (g0[i] < rs->lane_min)
					rs->lane_min = g0[i];
			}
		/*
		 * Per 8 lanes, the distance of the second tap from the first
		 * when it is the same 1..3 bytes in all of them (one gather
		 * then reads both taps), else 0.
		 */
		for (i = 0; i + 8 <= m; i += 8) {
			s32 d = g1[i] - g0[i];
			u32 k;

			for (k = 1; k < 8; k++)
				if (g1[i + k] - g0[i + k] != d)
					d = 0;
			gap[i / 8] = d >= 1 && d <= 3 ? d : 0;
		}
	}
}

/* One tap per column: bytes gathered, no arithmetic (exact). */
static __always_inline void vpc_gather_nc(const struct vpc_rs *rs,
					  const u8 *row, u8 *__restrict o,
					  u32 nc)
{
	const s32 *__restrict xo = rs->xo;
	s32 x, n = rs->out_w, off[4];
	u32 c;

	for (c = 0; c < nc; c++)
		off[c] = rs->src.off[c];
	for (x = 0; x < n; x++, o += nc)
		for (c = 0; c < nc; c++)
			o[c] = row[xo[x] + off[c]];
}

static void vpc_gather(const struct vpc_rs *rs, const u8 *row, u8 *o)
{
	switch (rs->src.nc) {
	case 1:
		vpc_gather_nc(rs, row, o, 1);
		break;
	case 2:
		vpc_gather_nc(rs, row, o, 2);
		break;
	case 3:
		vpc_gather_nc(rs, row, o, 3);
		break;
	default:
		vpc_gather_nc(rs, row, o, 4);
		break;
	}
}

/*
 * The horizontal pass of a source row: sums of k taps, per channel.
 * The offsets live in locals: the stores could alias @rs otherwise.
 */
static __always_inline void vpc_hpass_k(const struct vpc_rs *rs,
					const u8 *row, s32 *__restrict d,
					u32 k, u32 nc)
{
	const s32 *__restrict xo = rs->xo;
	const s16 *__restrict xw = rs->xw;
	s32 x, n = rs->out_w, off[4];
	u32 c, t;

	for (c = 0; c < nc; c++)
		off[c] = rs->src.off[c];
	for (x = 0; x < n; x++, xo += k, xw += k, d += nc)
		for (c = 0; c < nc; c++) {
			const u8 *p = row + off[c];
			s32 s = 0;

			for (t = 0; t < k; t++)
				s += p[xo[t]] * xw[t];
			d[c] = s;
		}
}

/* The pass with the taps and channels as constants, for the compiler. */
static void vpc_hpass(const struct vpc_rs *rs, const u8 *row, s32 *d)
{
	switch (rs->kx * 8 + rs->src.nc) {
	case 8 + 1:
		vpc_hpass_k(rs, row, d, 1, 1);
		break;
	case 8 + 2:
		vpc_hpass_k(rs, row, d, 1, 2);
		break;
	case 8 + 3:
		vpc_hpass_k(rs, row, d, 1, 3);
		break;
	case 8 + 4:
		vpc_hpass_k(rs, row, d, 1, 4);
		break;
	case 16 + 1:
		vpc_hpass_k(rs, row, d, 2, 1);
		break;
	case 16 + 2:
		vpc_hpass_k(rs, row, d, 2, 2);
		break;
	case 16 + 3:
		vpc_hpass_k(rs, row, d, 2, 3);
		break;
	case 16 + 4:
		vpc_hpass_k(rs, row, d, 2, 4);
		break;
	case 32 + 1:
		vpc_hpass_k(rs, row, d, 4, 1);
		break;
	case 32 + 2:
		vpc_hpass_k(rs, row, d, 4, 2);
		break;
	case 32 + 3:
		vpc_hpass_k(rs, row, d, 4, 3);
		break;
	default:
		vpc_hpass_k(rs, row, d, 4, 4);
		break;
	}
}

#define VPC_ROUND2	(1 << (2 * VPC_WBITS - 1))

static void vpc_vpass1(const s32 *__restrict a, u8 *__restrict o, s32 n)
{
	s32 i;

	for (i = 0; i < n; i++)
		o[i] = vpc_sat_u8((a[i] + (1 << (VPC_WBITS - 1))) >> VPC_WBITS);
}

static void vpc_vpass2(const s32 *__restrict a, const s32 *__restrict b,
		       s32 wa, s32 wb, u8 *__restrict o, s32 n)
{
	s32 i;

	for (i = 0; i < n; i++)
		o[i] = (u8)((a[i] * wa + b[i] * wb + VPC_ROUND2) >> (2 * VPC_WBITS));
}

static void vpc_vpass4(const s32 *__restrict a, const s32 *__restrict b,
		       const s32 *__restrict c, const s32 *__restrict d,
		       const s16 *w, u8 *__restrict o, s32 n)
{
	s64 wa = w[0], wb = w[1], wc = w[2], wd = w[3];
	s32 i;

	for (i = 0; i < n; i++) {
		s64 v = a[i] * wa + b[i] * wb + c[i] * wc + d[i] * wd + VPC_ROUND2;

		/* |v| < 2^32: the quotient fits */
		o[i] = vpc_sat_u8((s32)(v >> (2 * VPC_WBITS)));
	}
}

/*
 * The vertical pass: k horizontal sums weighed, rounded to nearest
 * (VPC_WBITS * 2 fraction bits) and saturated. Linear weights are
 * non-negative and each pair sums to VPC_WONE (one more at most where
 * both were rounded up), so 32 bits hold the sums and they stay within
 * 255; the bicubic sums may exceed both and take 64 bits and a clamp.
 */
static void vpc_vpass(struct vpc_rs *rs, s32 *const *h, const s16 *w, u8 *o)
{
	s32 n = rs->out_w * (s32)rs->src.nc;

	if (rs->ky == 1)
		vpc_vpass1(h[0], o, n);
	else if (rs->ky == 2)
		vpc_vpass2(h[0], h[1], w[0], w[1], o, n);
	else
		vpc_vpass4(h[0], h[1], h[2], h[3], w, o, n);
}

/*
 * Bilinear when the source shrinks vertically: a source row serves one
 * or two output rows, so keeping horizontal passes gains nothing; both
 * passes are done per output pixel instead, in the same arithmetic (the
 * same sums rounded the same way).
 */
static __always_inline void vpc_linear2_nc(const struct vpc_rs *rs,
					   const u8 *r0, const u8 *r1,
					   s32 wa, s32 wb, u8 *__restrict o,
					   u32 nc)
{
	const s32 *__restrict xo = rs->xo;
	const s16 *__restrict xw = rs->xw;
	s32 x, n = rs->out_w, off[4];
	u32 c;

	for (c = 0; c < nc; c++)
		off[c] = rs->src.off[c];
	for (x = 0; x < n; x++, xo += 2, xw += 2, o += nc) {
		s32 o0 = xo[0], o1 = xo[1], w0 = xw[0], w1 = xw[1];

		for (c = 0; c < nc; c++) {
			s32 h0 = r0[o0 + off[c]] * w0 + r0[o1 + off[c]] * w1;
			s32 h1 = r1[o0 + off[c]] * w0 + r1[o1 + off[c]] * w1;

			/* weights >= 0, each pair's sum <= VPC_WONE + 1: <= 255 */
			o[c] = (u8)((h0 * wa + h1 * wb + VPC_ROUND2) >>
				    (2 * VPC_WBITS));
		}
	}
}

#ifdef __x86_64__
/* Vector types as vnpu_gemm.c spells them. */
#define vpc_v8si	s32 __attribute__((vector_size(32)))
#define vpc_v4si	s32 __attribute__((vector_size(16)))
#define vpc_v8hi	s16 __attribute__((vector_size(16)))
#define vpc_v16qi	char __attribute__((vector_size(16)))

/* The two taps of 8 lanes of a row: 32-bit gathers ending at the taps. */
__attribute__((target("avx2")))
static __always_inline void vpc_taps8(const int *p, vpc_v8si x0, vpc_v8si x1,
				      s32 gap, vpc_v8si *a0, vpc_v8si *a1)
{
	const vpc_v8si all = { -1, -1, -1, -1, -1, -1, -1, -1 };
	vpc_v8si g = __builtin_ia32_gathersiv8si(all, p, x1, all, 1);

	*a1 = (g >> 24) & 0xff;
	if (gap)
		*a0 = (g >> (24 - 8 * gap)) & 0xff;
	else
		*a0 = (__builtin_ia32_gathersiv8si(all, p, x0, all, 1) >> 24) & 0xff;
}

/*
 * vpc_linear2_nc() with AVX2, eight output bytes at a time: 32-bit
 * gathers ending at each tap's byte (so nothing past it is read; the
 * caller makes sure the 3 bytes before the first tap are the picture's),
 * one gather for both taps where they are 1 to 3 bytes apart, and the
 * same integer arithmetic.
 */
__attribute__((target("avx2")))
static void vpc_linear2_avx2(const struct vpc_rs *rs, const u8 *r0,
			     const u8 *r1, s32 wa, s32 wb, u8 *o)
{
	s32 n = rs->out_w * (s32)rs->src.nc, i;
	u64 sz = VPC_ALIGN((u64)n * 4) / 4;
	const s32 *g0 = rs->lanes, *g1 = g0 + sz, *w0 = g1 + sz, *w1 = w0 + sz;
	const s32 *gap = w1 + sz;
	const vpc_v8si vwa = { wa, wa, wa, wa, wa, wa, wa, wa };
	const vpc_v8si vwb = { wb, wb, wb, wb, wb, wb, wb, wb };
	const int *p0 = (const int *)(const void *)r0;
	const int *p1 = (const int *)(const void *)r1;

	for (i = 0; i + 8 <= n; i += 8) {
		union { vpc_v8si v; vpc_v4si h[2]; } v;
		vpc_v8si x0, x1, a0, a1, b0, b1, v0, v1;
		vpc_v8hi zero = { 0 };
		vpc_v16qi q;

		__builtin_memcpy(&x0, g0 + i, sizeof(x0));
		__builtin_memcpy(&x1, g1 + i, sizeof(x1));
		__builtin_memcpy(&v0, w0 + i, sizeof(v0));
		__builtin_memcpy(&v1, w1 + i, sizeof(v1));
		vpc_taps8(p0, x0, x1, gap[i / 8], &a0, &a1);
		vpc_taps8(p1, x0, x1, gap[i / 8], &b0, &b1);
		v.v = ((a0 * v0 + a1 * v1) * vwa + (b0 * v0 + b1 * v1) * vwb +
		       VPC_ROUND2) >> (2 * VPC_WBITS);
		/* 0..255: the packs only narrow */
		q = __builtin_ia32_packuswb128(__builtin_ia32_packssdw128(v.h[0], v.h[1]),
					       zero);
		__builtin_memcpy(o + i, &q, 8);
	}
	for (; i < n; i++) {
		s32 h0 = r0[g0[i] + 3] * w0[i] + r0[g1[i] + 3] * w1[i];
		s32 h1 = r1[g0[i] + 3] * w0[i] + r1[g1[i] + 3] * w1[i];

		o[i] = (u8)((h0 * wa + h1 * wb + VPC_ROUND2) >> (2 * VPC_WBITS));
	}
}
#endif

static void vpc_linear2(const struct vpc_rs *rs, const s32 *idx,
			const s16 *w, u8 *o)
{
	const u8 *r0 = rs->src.base + (s64)(rs->y0 + idx[0]) * rs->src.stride;
	const u8 *r1 = rs->src.base + (s64)(rs->y0 + idx[1]) * rs->src.stride;

#ifdef __x86_64__
	/* rows are in order: r0 holds the lowest address a gather reads */
	if (rs->lanes && (r0 < r1 ? r0 : r1) - rs->src.data + rs->lane_min >= 0) {
		vpc_linear2_avx2(rs, r0, r1, w[0], w[1], o);
		return;
	}
#endif
	if (rs->pofs) {
		vpc_linear2_pairs(rs, r0, r1, w[0], w[1], o);
		return;
	}
	switch (rs->src.nc) {
	case 1:
		vpc_linear2_nc(rs, r0, r1, w[0], w[1], o, 1);
		break;
	case 2:
		vpc_linear2_nc(rs, r0, r1, w[0], w[1], o, 2);
		break;
	case 3:
		vpc_linear2_nc(rs, r0, r1, w[0], w[1], o, 3);
		break;
	default:
		vpc_linear2_nc(rs, r0, r1, w[0], w[1], o, 4);
		break;
	}
}

void vpc_rs_row(struct vpc_rs *rs, s32 y, u8 *out)
{
	u64 slot = VPC_ALIGN((u64)rs->out_w * rs->src.nc * 4) / 4;
	s32 idx[4], *h[4];
	s16 w[4];
	u32 t, s, u;

	vpc_coef(&rs->ay, y, idx, w);
	if (rs->kx == 1 && rs->ky == 1) {
		vpc_gather(rs, rs->src.base + (s64)(rs->y0 + idx[0]) * rs->src.stride,
			   out);
		return;
	}
	if (rs->kx == 2 && rs->ky == 2 && rs->in_h > rs->out_h) {
		vpc_linear2(rs, idx, w, out);
		return;
	}
	for (t = 0; t < rs->ky; t++) {
		h[t] = NULL;
		for (s = 0; s < rs->ky; s++)
			if (rs->key[s] == idx[t])
				h[t] = rs->rows + s * slot;
		if (h[t])
			continue;
		/* a slot no row of this output row needs */
		for (s = 0; s < rs->ky; s++) {
			for (u = 0; u < rs->ky; u++)
				if (rs->key[s] == idx[u])
					break;
			if (u == rs->ky)
				break;
		}
		rs->key[s] = idx[t];
		h[t] = rs->rows + s * slot;
		vpc_hpass(rs, rs->src.base + (s64)(rs->y0 + idx[t]) * rs->src.stride,
			  h[t]);
	}
	vpc_vpass(rs, h, w, out);
}
