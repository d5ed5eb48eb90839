// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * VPC: the pixel formats, the checks of a call and its pieces. Integer
 * code only: check() and tiles() run outside the FPU sections.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_vpc.h"

/* Taps a piece aims at (about a millisecond of work natively). */
#define VPC_PIECE_BUDGET	0x100000u
/*
 * A resize of at least VPC_SPLIT_PIECES times this many taps is cut into
 * at least VPC_SPLIT_PIECES pieces, so that idle engines share it: the
 * engines share only calls of 8 pieces or more (kernel/vnpu_split.c), and
 * a piece of 2^15 taps is much more than what each piece sets up again
 * (its column taps: a few operations per output column).
 */
#define VPC_SPLIT_PIECES	8u
#define VPC_SPLIT_TAPS		0x8000u

const struct vpc_fmt vpc_fmts[VPC_NFMT] = {
	/* rgb bpp sx sy semi crow ystep cstep  off */
	[VPC_YUV400]   = { 0, 1, 0, 0, 0, 0, 1, 0, { 0, -1, -1, -1 } },
	[VPC_NV12]     = { 0, 1, 2, 2, 1, 1, 1, 2, { 0, 0, 1, -1 } },
	[VPC_NV21]     = { 0, 1, 2, 2, 1, 1, 1, 2, { 0, 1, 0, -1 } },
	[VPC_YUV422SP] = { 0, 1, 2, 1, 1, 1, 1, 2, { 0, 0, 1, -1 } },
	[VPC_YVU422SP] = { 0, 1, 2, 1, 1, 1, 1, 2, { 0, 1, 0, -1 } },
	[VPC_YUV444SP] = { 0, 1, 1, 1, 1, 2, 1, 2, { 0, 0, 1, -1 } },
	[VPC_YVU444SP] = { 0, 1, 1, 1, 1, 2, 1, 2, { 0, 1, 0, -1 } },
	/* packed 4:2:2: a pair of pixels in 4 bytes */
	[VPC_YUYV]     = { 0, 2, 2, 1, 0, 0, 2, 4, { 0, 1, 3, -1 } },
	[VPC_UYVY]     = { 0, 2, 2, 1, 0, 0, 2, 4, { 1, 0, 2, -1 } },
	[VPC_YVYU]     = { 0, 2, 2, 1, 0, 0, 2, 4, { 0, 3, 1, -1 } },
	[VPC_VYUY]     = { 0, 2, 2, 1, 0, 0, 2, 4, { 1, 2, 0, -1 } },
	[VPC_YUV444P]  = { 0, 3, 1, 1, 0, 0, 3, 3, { 0, 1, 2, -1 } },
	/* RGB: offsets of R, G, B, A */
	[VPC_RGB888]   = { 1, 3, 0, 0, 0, 0, 0, 3, { 0, 1, 2, -1 } },
	[VPC_BGR888]   = { 1, 3, 0, 0, 0, 0, 0, 3, { 2, 1, 0, -1 } },
	[VPC_ARGB8888] = { 1, 4, 0, 0, 0, 0, 0, 4, { 1, 2, 3, 0 } },
	[VPC_ABGR8888] = { 1, 4, 0, 0, 0, 0, 0, 4, { 3, 2, 1, 0 } },
	[VPC_RGBA8888] = { 1, 4, 0, 0, 0, 0, 0, 4, { 0, 1, 2, 3 } },
	[VPC_BGRA8888] = { 1, 4, 0, 0, 0, 0, 0, 4, { 2, 1, 0, 3 } },
};

static bool vpc_in(s64 v, s64 lo, s64 hi)
{
	return v >= lo && v <= hi;
}

/*
 * A picture's five ints and its tensor: dimensions and strides in their
 * ranges (so that no product below overflows), subsampled dimensions
 * even, and the tensor holding every plane.
 */
static int vpc_pic_parse(const struct vnpu_op_call *c, u32 first,
			 const struct vnpu_tview *t, struct vpc_pic *p)
{
	const __s64 *in = &c->attrs.ints[first];
	const struct vpc_fmt *f;
	u64 need, chroma;

	if (t->dtype != DRM_VNPU_DTYPE_UINT8 || t->rank != 1 ||
	    t->strides[0] != 1 || t->shape[0] < 0 ||
	    !vpc_in(in[0], 0, VPC_NFMT - 1) ||
	    !vpc_in(in[1], 1, VPC_MAX_DIM) || !vpc_in(in[2], 1, VPC_MAX_DIM))
		return -VNPU_OPS_EINVAL;
	f = &vpc_fmts[in[0]];
	/* width * bpp <= 8192 * 4: no overflow */
	if (!vpc_in(in[3], in[1] * f->bpp, VPC_MAX_STRIDE) ||
	    !vpc_in(in[4], in[2], VPC_MAX_STRIDE))
		return -VNPU_OPS_EINVAL;
	if ((f->sx == 2 && (in[1] & 1)) || (f->sy == 2 && (in[2] & 1)))
		return -VNPU_OPS_EINVAL;
	p->f = f;
	p->fmt = (u32)in[0];
	p->w = (s32)in[1];
	p->h = (s32)in[2];
	p->ws = (s32)in[3];
	p->hs = (s32)in[4];
	p->data = t->data;
	/* strides are at most 2^14: the sizes stay below 2^31 */
	need = (u64)p->ws * (u64)p->hs;
	if (f->semi) {
		chroma = (u64)p->ws * f->crow * (u64)(p->hs / f->sy);
		if (__builtin_add_overflow(need, chroma, &need))
			return -VNPU_OPS_EINVAL;
	}
	if (need > (u64)t->shape[0])
		return -VNPU_OPS_EINVAL;
	return 0;
}

/*
 * A rectangle of a picture: width 0 (with the other three 0) is all of
 * it; else inside it, and even where the format subsamples chroma.
 */
static int vpc_rect_parse(const __s64 *in, const struct vpc_pic *p,
			  struct vpc_rect *r)
{
	const struct vpc_fmt *f = p->f;

	if (!in[2]) {
		if (in[0] || in[1] || in[3])
			return -VNPU_OPS_EINVAL;
		r->x = 0;
		r->y = 0;
		r->w = p->w;
		r->h = p->h;
		return 0;
	}
	if (!vpc_in(in[0], 0, p->w - 1) || !vpc_in(in[1], 0, p->h - 1) ||
	    !vpc_in(in[2], 1, p->w - in[0]) || !vpc_in(in[3], 1, p->h - in[1]))
		return -VNPU_OPS_EINVAL;
	if ((f->sx == 2 && ((in[0] | in[2]) & 1)) ||
	    (f->sy == 2 && ((in[1] | in[3]) & 1)))
		return -VNPU_OPS_EINVAL;
	r->x = (s32)in[0];
	r->y = (s32)in[1];
	r->w = (s32)in[2];
	r->h = (s32)in[3];
	return 0;
}

static bool vpc_f32_is_nan(u32 bits)
{
	return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu);
}

/* Formats MakeBorder takes: one plane of whole pixels. */
static bool vpc_border_fmt(u32 fmt)
{
	return fmt == VPC_YUV400 || (fmt >= VPC_YUV444P && fmt <= VPC_BGRA8888);
}

int vpc_parse(const struct vnpu_op_call *c, struct vpc_args *a)
{
	const __s64 *in = c->attrs.ints;
	u32 i;

	if (!c->has_attrs || c->num_in != 1 || c->num_out != 1 ||
	    !vpc_in(in[VPC_A_KIND], VPC_KIND_RESIZE, VPC_KIND_BORDER) ||
	    !vpc_in(in[VPC_A_INTERP], VPC_INTERP_DEFAULT, VPC_INTERP_TF_NEAREST) ||
	    !vpc_in(in[VPC_A_CSC], 0, VPC_CSC_COUNT - 1) ||
	    !vpc_in(in[VPC_A_BORDER], VPC_BORDER_CONSTANT, VPC_BORDER_REFLECT_101))
		return -VNPU_OPS_EINVAL;
	a->kind = (u32)in[VPC_A_KIND];
	a->interp = (u32)in[VPC_A_INTERP];
	a->csc = (u32)in[VPC_A_CSC];
	a->border = (u32)in[VPC_A_BORDER];
	for (i = 0; i < 4; i++)
		a->bval[i] = c->attrs.floats[i];
	if (vpc_pic_parse(c, VPC_A_SRC, &c->t[0], &a->src) ||
	    vpc_pic_parse(c, VPC_A_DST, &c->t[1], &a->dst) ||
	    vpc_rect_parse(&in[VPC_A_SRECT], &a->src, &a->sr) ||
	    vpc_rect_parse(&in[VPC_A_DRECT], &a->dst, &a->dr))
		return -VNPU_OPS_EINVAL;
	switch (a->kind) {
	case VPC_KIND_PYRDOWN:
		/* whole pictures of luma, the destination half the size */
		for (i = VPC_A_SRECT; i < VPC_A_DRECT + 4; i++)
			if (in[i])
				return -VNPU_OPS_EINVAL;
		if (a->src.fmt != VPC_YUV400 || a->dst.fmt != VPC_YUV400 ||
		    a->dst.w != (a->src.w + 1) / 2 ||
		    a->dst.h != (a->src.h + 1) / 2)
			return -VNPU_OPS_EINVAL;
		break;
	case VPC_KIND_BORDER:
		if (a->src.fmt != a->dst.fmt || !vpc_border_fmt(a->src.fmt) ||
		    a->sr.w != a->dr.w || a->sr.h != a->dr.h)
			return -VNPU_OPS_EINVAL;
		if (a->border == VPC_BORDER_CONSTANT)
			for (i = 0; i < 4; i++)
				if (vpc_f32_is_nan(a->bval[i]))
					return -VNPU_OPS_EINVAL;
		break;
	}
	return 0;
}

void vpc_units(const struct vpc_args *a, u32 *units, u32 *per_piece)
{
	u64 cost;

	if (a->kind == VPC_KIND_RESIZE) {
		u32 rows = a->dst.f->sy == 2 ? 2 : 1;
		/* the mode's taps: a chroma plane may scale where luma does not */
		u32 k = a->interp == VPC_INTERP_DEFAULT ? 4 :
			(a->interp == VPC_INTERP_CV_LINEAR ||
			 a->interp == VPC_INTERP_TF_LINEAR) ? 2 : 1;

		*units = (u32)a->dr.h / rows;
		/*
		 * Each unit's rows of the first plane (luma: 1 channel, RGB:
		 * up to 4) and a chroma row of 2 channels (at most full
		 * width), every tap read once per source row needed, plus
		 * the vertical pass and the store.
		 */
		cost = (u64)a->dr.w * (rows * (a->src.f->rgb || a->dst.f->rgb ? 4 : 1) + 2) *
		       (k * k + k + 2);
		if (cost < VPC_PIECE_BUDGET && *units >= VPC_SPLIT_PIECES &&
		    cost * *units >= VPC_SPLIT_PIECES * VPC_SPLIT_TAPS) {
			*per_piece = *units / VPC_SPLIT_PIECES;
			if ((u64)*per_piece * cost > VPC_PIECE_BUDGET)
				*per_piece = VPC_PIECE_BUDGET / (u32)cost;
			return;
		}
	} else if (a->kind == VPC_KIND_PYRDOWN) {
		*units = (u32)a->dst.h;
		cost = 5 * ((u64)a->src.w + (u64)a->dst.w) + 8;
	} else {
		*units = (u32)a->dst.h;
		cost = (u64)a->dst.w * a->dst.f->bpp * 2 + 8;
	}
	*per_piece = cost >= VPC_PIECE_BUDGET ? 1 : (u32)(VPC_PIECE_BUDGET / cost);
}

void vpc_plane_luma(const struct vpc_pic *p, struct vpc_plane *pl)
{
	pl->base = p->data;
	pl->data = p->data;
	pl->stride = p->ws;
	pl->step = p->f->ystep;
	pl->nc = 1;
	pl->off[0] = p->f->off[0];
}

void vpc_plane_chroma(const struct vpc_pic *p, struct vpc_plane *pl)
{
	const struct vpc_fmt *f = p->f;

	pl->base = p->data;
	pl->data = p->data;
	pl->stride = p->ws;
	if (f->semi) {
		pl->base += (s64)p->ws * p->hs;
		pl->stride *= f->crow;
	}
	pl->step = f->cstep;
	pl->nc = 2;
	pl->off[0] = f->off[1];
	pl->off[1] = f->off[2];
}

void vpc_plane_rgb(const struct vpc_pic *p, bool alpha, struct vpc_plane *pl)
{
	u32 i;

	pl->base = p->data;
	pl->data = p->data;
	pl->stride = p->ws;
	pl->step = p->f->cstep;
	pl->nc = alpha ? 4 : 3;
	for (i = 0; i < 4; i++)
		pl->off[i] = p->f->off[i];
}
