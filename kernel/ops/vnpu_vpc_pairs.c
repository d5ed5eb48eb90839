// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * VPC: bilinear shrinking vertically for a plane of bytes (luma) or of
 * byte pairs two bytes a pixel (semi-planar chroma), where a pixel's two
 * taps are the bytes of one load: a byte pair (luma) or two (U V U V).
 * Every sum is the scalar code's, exact:
 *
 *   T = wa * (a00 w0 + a01 w1) + wb * (a10 w0 + a11 w1),  (T + 2^21) >> 22
 *
 * With SSE2, eight output bytes at a time in 16-bit lanes: each column
 * weight is split as w = 64 wh + wl, so that every horizontal sum of a
 * row, H = a0 wh0 + a1 wh1 (at most 255 * 32) and L = a0 wl0 + a1 wl1
 * (at most 255 * 126), fits a lane; pmaddwd then weighs the two rows
 * into 32 bits and T = 64 (wa H0 + wb H1) + (wa L0 + wb L1). The taps are
 * inserted with pinsrw, a load per tap pair and row.
 *
 * Without, in 64-bit integers, one multiply per row and one for both:
 * (a0 + a1 2^20)(w1 + w0 2^20) holds a0 w0 + a1 w1 < 2^20 in bits 20..39
 * (a0 w1 < 2^20 below it), and (h0 + h1 2^32)(wb + wa 2^32) holds T in
 * bits 32..63 (h0 wb < 2^32 below it; the rest overflows away). Under an
 * emulator such as QEMU's TCG, where an SSE2 instruction costs 3 to 19 ns
 * and an integer one 0.3 to 2, this is the faster code.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_vpc.h"

#define VPC_ALIGN(n)	(((n) + 63) & ~(u64)63)
#define VPC_ROUND2	(1 << (2 * VPC_WBITS - 1))

/*
 * Per pixel, the start of the bytes its taps are in and their weights
 * for the bytes there: @u0 for the first tap's, @u1 for the one @span
 * bytes further. A tap clamped onto the other (both at the edge) is read
 * with a neighbour of zero weight, inside the row. False when the row
 * (@stride bytes, all readable) has no such neighbour.
 */
static bool vpc_sse2_pair(s32 o0, s32 o1, s32 w0, s32 w1, s32 span,
			  s64 stride, s32 *at, s32 *u0, s32 *u1)
{
	if (o1 == o0 + span) {
		*at = o0;
		*u0 = w0;
		*u1 = w1;
	} else if (o1 != o0) {
		return false;
	} else if (o0 >= span) {
		*at = o0 - span;
		*u0 = 0;
		*u1 = w0 + w1;
	} else {
		*at = o0;
		*u0 = w0 + w1;
		*u1 = 0;
	}
	return *at >= 0 && *at + 2 * (s64)span <= stride;
}

void vpc_pairs_init(struct vpc_rs *rs, u8 **mem)
{
	const struct vpc_plane *pl = &rs->src;
	u32 nc = pl->nc, x, c, k, span;
	u64 m = (u64)rs->out_w * nc;
	u8 *start = *mem;
	s32 base = 0;	/* luma: the byte; chroma: the pixel's first byte */

	rs->pofs = NULL;
	rs->groups = 0;
	if (nc == 1 && pl->step == 1) {
		span = 1;
		base = pl->off[0];
		rs->swap = false;
	} else if (nc == 2 && pl->step == 2 && pl->off[0] + pl->off[1] == 1) {
		span = 2;
		rs->swap = pl->off[0] == 1;
	} else {
		return;
	}
	rs->pofs = (s32 *)*mem;
	*mem += VPC_ALIGN((u64)rs->out_w * 4);
	rs->pwi = (u32 *)*mem;
	*mem += VPC_ALIGN((u64)rs->out_w * 4);
	rs->pw = (s16 *)*mem;
	if (rs->sse2)
		*mem += VPC_ALIGN(m / 8 * 64);
	for (x = 0; x < (u32)rs->out_w; x++) {
		s32 at, u[2];
		s16 *g;

		if (!vpc_sse2_pair(rs->xo[2 * x] + base, rs->xo[2 * x + 1] + base,
				   rs->xw[2 * x], rs->xw[2 * x + 1], (s32)span,
				   pl->stride, &at, &u[0], &u[1])) {
			rs->pofs = NULL;
			*mem = start;
			return;
		}
		rs->pofs[x] = at;
		rs->pwi[x] = (u32)u[1] | (u32)u[0] << 20;
		for (c = 0; rs->sse2 && c < nc; c++) {
			k = x * nc + c;
			if (k >= m / 8 * 8)
				break;
			g = rs->pw + k / 8 * 32 + k % 8;
			g[0] = (s16)(u[0] >> 6);
			g[8] = (s16)(u[1] >> 6);
			g[16] = (s16)(u[0] & 63);
			g[24] = (s16)(u[1] & 63);
		}
	}
	rs->groups = rs->sse2 ? (u32)(m / 8) : 0;
}

/* Pixels from @x on with 64-bit integer multiplies (see the top). */
static __always_inline void vpc_pairs_int(const struct vpc_rs *rs,
					  const u8 *r0, const u8 *r1,
					  s32 wa, s32 wb, u8 *__restrict o,
					  s32 x, u32 nc)
{
	const u64 wv = (u64)wb | (u64)wa << 32;
	const u64 rnd = (u64)VPC_ROUND2 << 32;
	const s32 *at = rs->pofs;
	const u32 *pwi = rs->pwi;
	u32 s0 = rs->swap, s1 = !rs->swap;
	s32 n = rs->out_w;

	for (; x < n; x++) {
		const u8 *p = r0 + at[x], *q = r1 + at[x];
		u64 w = pwi[x], a, b, h;

		if (nc == 1) {
			a = p[0] | (u64)p[1] << 20;
			b = q[0] | (u64)q[1] << 20;
			h = ((a * w >> 20) & 0xfffff) | ((b * w >> 20) & 0xfffff) << 32;
			o[x] = (u8)((h * wv + rnd) >> 54);
			continue;
		}
		a = p[s0] | (u64)p[s0 + 2] << 20;
		b = q[s0] | (u64)q[s0 + 2] << 20;
		h = ((a * w >> 20) & 0xfffff) | ((b * w >> 20) & 0xfffff) << 32;
		o[2 * x] = (u8)((h * wv + rnd) >> 54);
		a = p[s1] | (u64)p[s1 + 2] << 20;
		b = q[s1] | (u64)q[s1 + 2] << 20;
		h = ((a * w >> 20) & 0xfffff) | ((b * w >> 20) & 0xfffff) << 32;
		o[2 * x + 1] = (u8)((h * wv + rnd) >> 54);
	}
}

#ifdef __x86_64__
#define vpc_v8hi	s16 __attribute__((vector_size(16)))
#define vpc_v8hu	u16 __attribute__((vector_size(16)))
#define vpc_v4si	s32 __attribute__((vector_size(16)))
#define vpc_v16qi	char __attribute__((vector_size(16)))

static __always_inline s32 vpc_ld16(const u8 *p)
{
	u16 v;

	__builtin_memcpy(&v, p, 2);
	return v;
}

#define VPC_SET(x, p, k)	((x) = __builtin_ia32_vec_set_v8hi((x), vpc_ld16(p), (k)))

/* The first and second taps of 8 output bytes of a row, one per lane. */
static __always_inline void vpc_taps_row(const u8 *r, const s32 *at, u32 nc,
					 vpc_v8hi *t0, vpc_v8hi *t1)
{
	const vpc_v16qi zero = { 0 };
	vpc_v8hi x = { 0 };

	if (nc == 1) {
		/* a pixel's taps are a byte pair: first tap low */
		VPC_SET(x, r + at[0], 0);
		VPC_SET(x, r + at[1], 1);
		VPC_SET(x, r + at[2], 2);
		VPC_SET(x, r + at[3], 3);
		VPC_SET(x, r + at[4], 4);
		VPC_SET(x, r + at[5], 5);
		VPC_SET(x, r + at[6], 6);
		VPC_SET(x, r + at[7], 7);
		*t0 = x & 0xff;
		*t1 = (vpc_v8hi)((vpc_v8hu)x >> 8);
		return;
	}
	/* four pixels' first taps (both channels), then their second */
	VPC_SET(x, r + at[0], 0);
	VPC_SET(x, r + at[1], 1);
	VPC_SET(x, r + at[2], 2);
	VPC_SET(x, r + at[3], 3);
	VPC_SET(x, r + at[0] + 2, 4);
	VPC_SET(x, r + at[1] + 2, 5);
	VPC_SET(x, r + at[2] + 2, 6);
	VPC_SET(x, r + at[3] + 2, 7);
	*t0 = (vpc_v8hi)__builtin_ia32_punpcklbw128((vpc_v16qi)x, zero);
	*t1 = (vpc_v8hi)__builtin_ia32_punpckhbw128((vpc_v16qi)x, zero);
}

static __always_inline void vpc_linear2_sse2_nc(const struct vpc_rs *rs,
						const u8 *r0, const u8 *r1,
						s32 wa, s32 wb, u8 *o, u32 nc)
{
	const vpc_v8hi vw = { wa, wb, wa, wb, wa, wb, wa, wb };
	const vpc_v4si round = { VPC_ROUND2, VPC_ROUND2, VPC_ROUND2, VPC_ROUND2 };
	const vpc_v8hi zero = { 0 };
	const s32 *at = rs->pofs;
	const s16 *pw = rs->pw;
	u32 g;

	for (g = 0; g < rs->groups; g++, at += 8 / nc, pw += 32, o += 8) {
		vpc_v8hi a0, a1, b0, b1, wh0, wh1, wl0, wl1, h0, h1, l0, l1, q;
		vpc_v4si hl, hh, ll, lh, tl, th;

		vpc_taps_row(r0, at, nc, &a0, &a1);
		vpc_taps_row(r1, at, nc, &b0, &b1);
		__builtin_memcpy(&wh0, pw, 16);
		__builtin_memcpy(&wh1, pw + 8, 16);
		__builtin_memcpy(&wl0, pw + 16, 16);
		__builtin_memcpy(&wl1, pw + 24, 16);
		h0 = a0 * wh0 + a1 * wh1;
		l0 = a0 * wl0 + a1 * wl1;
		h1 = b0 * wh0 + b1 * wh1;
		l1 = b0 * wl0 + b1 * wl1;
		hl = __builtin_ia32_pmaddwd128(__builtin_ia32_punpcklwd128(h0, h1), vw);
		hh = __builtin_ia32_pmaddwd128(__builtin_ia32_punpckhwd128(h0, h1), vw);
		ll = __builtin_ia32_pmaddwd128(__builtin_ia32_punpcklwd128(l0, l1), vw);
		lh = __builtin_ia32_pmaddwd128(__builtin_ia32_punpckhwd128(l0, l1), vw);
		tl = ((hl << 6) + ll + round) >> (2 * VPC_WBITS);
		th = ((hh << 6) + lh + round) >> (2 * VPC_WBITS);
		/*
		 * 0..255 in 32-bit lanes, so the words of their halves are
		 * 0..255 or 0: two unsigned packs only narrow (cheaper than
		 * packssdw where an emulator runs SSE2)
		 */
		q = (vpc_v8hi)__builtin_ia32_packuswb128((vpc_v8hi)tl, (vpc_v8hi)th);
		q = (vpc_v8hi)__builtin_ia32_packuswb128(q, zero);
		/* V U in memory: each pixel's two bytes swapped */
		if (nc == 2 && rs->swap)
			q = (vpc_v8hi)(((vpc_v8hu)q << 8) | ((vpc_v8hu)q >> 8));
		__builtin_memcpy(o, &q, 8);
	}
}

#endif

void vpc_linear2_pairs(const struct vpc_rs *rs, const u8 *r0, const u8 *r1,
		       s32 wa, s32 wb, u8 *o)
{
	u32 nc = rs->src.nc;
	s32 x = (s32)(rs->groups * 8 / nc);

#ifdef __x86_64__
	if (rs->groups) {
		if (nc == 1)
			vpc_linear2_sse2_nc(rs, r0, r1, wa, wb, o, 1);
		else
			vpc_linear2_sse2_nc(rs, r0, r1, wa, wb, o, 2);
	}
#endif
	if (nc == 1)
		vpc_pairs_int(rs, r0, r1, wa, wb, o, x, 1);
	else
		vpc_pairs_int(rs, r0, r1, wa, wb, o, x, 2);
}
