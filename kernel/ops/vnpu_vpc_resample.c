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

static s16 vpc_weight(float w)
{
	return (s16)vnpu_rint((double)(w * (float)VPC_WONE));
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
static void vpc_coef(u32 mode, s32 in, s32 out, s32 d, u32 k, s32 *idx,
		     s16 *w)
{
	double scale = 1.0 / ((double)out / (double)in);	/* OpenCV's */
	float tscale = (float)in / (float)out;			/* TensorFlow's */
	float f;
	s32 s, t;

	if (in == out) {
		idx[0] = d;
		w[0] = VPC_WONE;
		return;
	}
	switch (mode) {
	case VPC_INTERP_CV_NEAREST:
		idx[0] = vpc_clamp((s32)vnpu_floor((double)d * scale), in);
		w[0] = VPC_WONE;
		return;
	case VPC_INTERP_TF_NEAREST:
		idx[0] = vpc_clamp((s32)vnpu_floor((double)((float)d * tscale)), in);
		w[0] = VPC_WONE;
		return;
	case VPC_INTERP_TF_LINEAR:
		f = (float)d * tscale;
		s = (s32)vnpu_floor((double)f);
		f -= (float)s;
		idx[0] = vpc_clamp(s, in);
		idx[1] = vpc_clamp(s + 1, in);
		w[1] = vpc_weight(f);
		w[0] = VPC_WONE - w[1];
		return;
	case VPC_INTERP_CV_LINEAR:
		f = (float)(((double)d + 0.5) * scale - 0.5);
		s = (s32)vnpu_floor((double)f);
		f -= (float)s;
		if (s < 0) {
			s = 0;
			f = 0;
		}
		if (s >= in - 1) {
			s = in - 1;
			f = 0;
		}
		idx[0] = s;
		idx[1] = vpc_clamp(s + 1, in);
		w[0] = vpc_weight(1.f - f);
		w[1] = vpc_weight(f);
		return;
	default: {	/* bicubic, OpenCV's INTER_CUBIC */
		float c[4];

		f = (float)(((double)d + 0.5) * scale - 0.5);
		s = (s32)vnpu_floor((double)f);
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

u64 vpc_rs_bytes(u32 mode, s32 in_w, s32 out_w, u32 nc)
{
	u64 kx = vpc_taps(mode, in_w, out_w), n = (u64)out_w;

	return VPC_ALIGN(n * kx * 4) + VPC_ALIGN(n * kx * 2) +
	       4 * VPC_ALIGN(n * nc * 4) + VPC_ALIGN(n * nc);
}

void vpc_rs_init(struct vpc_rs *rs, u8 **mem)
{
	u64 n = (u64)rs->out_w;
	s32 x, idx[4];
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
	for (x = 0; x < rs->out_w; x++) {
		vpc_coef(rs->mode, rs->in_w, rs->out_w, x, rs->kx, idx, w);
		for (t = 0; t < rs->kx; t++) {
			rs->xo[x * rs->kx + t] = (rs->x0 + idx[t]) * (s32)rs->src.step;
			rs->xw[x * rs->kx + t] = w[t];
		}
	}
	for (t = 0; t < 4; t++)
		rs->key[t] = -1;
}

/* One tap per column: bytes gathered, no arithmetic (exact). */
static __always_inline void vpc_gather_nc(const struct vpc_rs *rs,
					  const u8 *row, u32 nc)
{
	const s32 *xo = rs->xo;
	u8 *o = rs->out;
	s32 x, n = rs->out_w;
	u32 c;

	for (x = 0; x < n; x++, o += nc)
		for (c = 0; c < nc; c++)
			o[c] = row[xo[x] + rs->src.off[c]];
}

static void vpc_gather(const struct vpc_rs *rs, const u8 *row)
{
	switch (rs->src.nc) {
	case 1:
		vpc_gather_nc(rs, row, 1);
		break;
	case 2:
		vpc_gather_nc(rs, row, 2);
		break;
	case 3:
		vpc_gather_nc(rs, row, 3);
		break;
	default:
		vpc_gather_nc(rs, row, 4);
		break;
	}
}

/* The horizontal pass of a source row: sums of k taps, per channel. */
static __always_inline void vpc_hpass_k(const struct vpc_rs *rs,
					const u8 *row, s32 *d, u32 k, u32 nc)
{
	const s32 *xo = rs->xo;
	const s16 *xw = rs->xw;
	s32 x, n = rs->out_w;
	u32 c, t;

	for (x = 0; x < n; x++, xo += k, xw += k, d += nc)
		for (c = 0; c < nc; c++) {
			const u8 *p = row + rs->src.off[c];
			s32 s = 0;

			for (t = 0; t < k; t++)
				s += p[xo[t]] * xw[t];
			d[c] = s;
		}
}

#define VPC_HPASS_NC(k)							\
	do {								\
		switch (rs->src.nc) {					\
		case 1:							\
			vpc_hpass_k(rs, row, d, k, 1);			\
			break;						\
		case 2:							\
			vpc_hpass_k(rs, row, d, k, 2);			\
			break;						\
		case 3:							\
			vpc_hpass_k(rs, row, d, k, 3);			\
			break;						\
		default:						\
			vpc_hpass_k(rs, row, d, k, 4);			\
			break;						\
		}							\
	} while (0)

static void vpc_hpass(const struct vpc_rs *rs, const u8 *row, s32 *d)
{
	if (rs->kx == 1)
		VPC_HPASS_NC(1);
	else if (rs->kx == 2)
		VPC_HPASS_NC(2);
	else
		VPC_HPASS_NC(4);
}

/*
 * The vertical pass: k horizontal sums weighed, rounded to nearest
 * (VPC_WBITS * 2 fraction bits) and saturated. Linear weights are
 * non-negative and sum to VPC_WONE, so 32 bits hold 255 << 22; the
 * bicubic sums may exceed that and take 64.
 */
static void vpc_vpass(struct vpc_rs *rs, s32 *const *h, const s16 *w)
{
	s32 i, n = rs->out_w * (s32)rs->src.nc;
	u8 *o = rs->out;

	if (rs->ky == 1) {
		const s32 *a = h[0];

		for (i = 0; i < n; i++)
			o[i] = vpc_sat_u8((a[i] + (1 << (VPC_WBITS - 1))) >> VPC_WBITS);
	} else if (rs->ky == 2) {
		const s32 *a = h[0], *b = h[1];
		s32 wa = w[0], wb = w[1];

		for (i = 0; i < n; i++)
			o[i] = vpc_sat_u8((a[i] * wa + b[i] * wb +
					   (1 << (2 * VPC_WBITS - 1))) >> (2 * VPC_WBITS));
	} else {
		const s32 *a = h[0], *b = h[1], *c = h[2], *d = h[3];
		s64 wa = w[0], wb = w[1], wc = w[2], wd = w[3];

		for (i = 0; i < n; i++) {
			s64 v = a[i] * wa + b[i] * wb + c[i] * wc + d[i] * wd +
				(1 << (2 * VPC_WBITS - 1));

			/* |v| < 2^32: the quotient fits */
			o[i] = vpc_sat_u8((s32)(v >> (2 * VPC_WBITS)));
		}
	}
}

void vpc_rs_row(struct vpc_rs *rs, s32 y)
{
	u64 slot = VPC_ALIGN((u64)rs->out_w * rs->src.nc * 4) / 4;
	s32 idx[4], *h[4];
	s16 w[4];
	u32 t, s, u;

	vpc_coef(rs->mode, rs->in_h, rs->out_h, y, rs->ky, idx, w);
	if (rs->kx == 1 && rs->ky == 1) {
		vpc_gather(rs, rs->src.base + (s64)(rs->y0 + idx[0]) * rs->src.stride);
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
	vpc_vpass(rs, h, w);
}
