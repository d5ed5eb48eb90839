// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * VPC kinds 1 and 2: PyrDown (OpenCV's pyrDown on a YUV400 picture: the
 * 5 x 5 Gaussian [1 4 6 4 1]^2 / 256, every other row and column, border
 * BORDER_REFLECT_101) and MakeBorder (a rectangle copied, the rest of
 * the destination filled as OpenCV's copyMakeBorder fills it). Both are
 * exact integer arithmetic.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_vpc.h"
#include "vnpu_math.h"

/*
 * OpenCV's borderInterpolate() for the reflecting and replicating
 * borders, with a remainder instead of its loop: index @p of a line of
 * @len into [0, len).
 */
static s32 vpc_border_index(s32 p, s32 len, u32 type)
{
	s32 period, q;

	if (p >= 0 && p < len)
		return p;
	if (type == VPC_BORDER_REPLICATE)
		return p < 0 ? 0 : len - 1;
	if (len == 1)
		return 0;
	period = type == VPC_BORDER_REFLECT ? 2 * len : 2 * len - 2;
	q = p % period;
	if (q < 0)
		q += period;
	return q < len ? q : period - q - (type == VPC_BORDER_REFLECT);
}

void vpc_pyrdown_rows(const struct vpc_args *a, s32 y0, s32 y1, void *scratch)
{
	const struct vpc_pic *s = &a->src, *d = &a->dst;
	s32 w = s->w, *col = scratch, y, x, k;
	const u8 *r[5];

	for (y = y0; y < y1; y++) {
		u8 *o = d->data + (s64)y * d->ws;

		for (k = 0; k < 5; k++)
			r[k] = s->data + (s64)vpc_border_index(2 * y - 2 + k, s->h,
							       VPC_BORDER_REFLECT_101) * s->ws;
		/* columns summed first: col[x + 2] holds column x */
		for (x = 0; x < w; x++)
			col[x + 2] = r[0][x] + 4 * (r[1][x] + r[3][x]) +
				     6 * r[2][x] + r[4][x];
		col[0] = col[2 + vpc_border_index(-2, w, VPC_BORDER_REFLECT_101)];
		col[1] = col[2 + vpc_border_index(-1, w, VPC_BORDER_REFLECT_101)];
		col[w + 2] = col[2 + vpc_border_index(w, w, VPC_BORDER_REFLECT_101)];
		col[w + 3] = col[2 + vpc_border_index(w + 1, w, VPC_BORDER_REFLECT_101)];
		for (x = 0; x < d->w; x++) {
			const s32 *c = &col[2 * x];

			o[x] = (u8)((c[0] + 4 * (c[1] + c[3]) + 6 * c[2] + c[4] +
				     128) >> 8);
		}
	}
}

/* A border value (float bits) as a byte: rounded, saturated. */
static u8 vpc_border_byte(u32 bits)
{
	union { u32 u; float f; } v = { .u = bits };
	double r = vnpu_rint((double)v.f);

	return r <= 0 ? 0 : r >= 255 ? 255 : (u8)r;
}

void vpc_border_rows(const struct vpc_args *a, s32 y0, s32 y1, void *scratch)
{
	const struct vpc_pic *s = &a->src, *d = &a->dst;
	const struct vpc_rect *sr = &a->sr, *dr = &a->dr;
	s32 bpp = d->f->bpp, *xs = scratch, x, y, k;
	u8 val[4];

	for (k = 0; k < 4; k++)
		val[k] = vpc_border_byte(a->bval[k]);
	/* the source column of each destination column, -1 for the value */
	for (x = 0; x < d->w; x++) {
		s32 p = x - dr->x;

		if (a->border == VPC_BORDER_CONSTANT && (p < 0 || p >= sr->w))
			xs[x] = -1;
		else
			xs[x] = (sr->x + vpc_border_index(p, sr->w, a->border)) * bpp;
	}
	for (y = y0; y < y1; y++) {
		u8 *o = d->data + (s64)y * d->ws;
		s32 p = y - dr->y;
		const u8 *row;

		if (a->border == VPC_BORDER_CONSTANT && (p < 0 || p >= sr->h)) {
			for (x = 0; x < d->w; x++)
				for (k = 0; k < bpp; k++)
					o[x * bpp + k] = val[k];
			continue;
		}
		row = s->data + (s64)(sr->y + vpc_border_index(p, sr->h, a->border)) * s->ws;
		for (x = 0; x < d->w; x++)
			for (k = 0; k < bpp; k++)
				o[x * bpp + k] = xs[x] < 0 ? val[k] : row[xs[x] + k];
	}
}
