// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * VPC: DVPP's vision preprocessing core on whole picture buffers. Kind 0
 * resamples a rectangle of the source into a rectangle of the
 * destination: plane by plane while both pictures are YUV (or both RGB),
 * else through full-resolution rows converted by the colour matrix.
 * Kinds 1 (PyrDown) and 2 (MakeBorder) are in vnpu_vpc_border.c. A piece
 * is a band of destination rows (row pairs for 4:2:0).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_vpc.h"

#define VPC_ALIGN(n)	(((n) + 63) & ~(u64)63)

enum vpc_path { VPC_SAME_YUV, VPC_SAME_RGB, VPC_YUV_TO_RGB, VPC_RGB_TO_YUV };

/* One piece's state of a kind 0 call. */
struct vpc_job {
	const struct vpc_args *a;
	enum vpc_path path;
	struct vpc_rs p0;	/* luma, or RGB */
	struct vpc_rs p1;	/* chroma, when the source has it and it is used */
	bool has_p1;
	struct vpc_plane d0;	/* destination luma, or RGB */
	struct vpc_plane d1;	/* destination chroma */
	bool d_chroma;		/* the destination has chroma */
	bool fill_alpha;	/* the destination has alpha, the source not */
	u32 rows;		/* destination rows per unit */
	u8 *rgb;		/* a converted row */
	s32 *u, *v, *usum, *vsum;
};

static int vpc_check(const struct vnpu_op_call *c)
{
	struct vpc_args a;

	return vpc_parse(c, &a);
}

static u64 vpc_tiles(const struct vnpu_op_call *c)
{
	struct vpc_args a;
	u32 units, per;

	if (vpc_parse(c, &a))
		return 0;
	vpc_units(&a, &units, &per);
	return ((u64)units + per - 1) / per;
}

/* @n pixels of @src (@snc channels each) into row @y, column @x of @d. */
static void vpc_store(const struct vpc_plane *d, s32 y, s32 x, s32 n,
		      const u8 *src, u32 snc)
{
	u8 *p = d->base + y * d->stride + (s64)x * d->step;
	s32 i;
	u32 c;

	if (d->nc == 1 && d->step == 1) {
		p += d->off[0];
		for (i = 0; i < n; i++)
			p[i] = src[i * snc];
		return;
	}
	for (i = 0; i < n; i++, p += d->step, src += snc)
		for (c = 0; c < d->nc; c++)
			p[d->off[c]] = src[c];
}

/*
 * Target row @ry of @rs into row @y, column @x of @d: straight into the
 * destination when it is laid out as the resampler's rows are (luma,
 * U before V, RGB into RGB), else through rs->out.
 */
static void vpc_row_to(struct vpc_rs *rs, s32 ry, const struct vpc_plane *d,
		       s32 y, s32 x)
{
	bool direct = d->step == rs->src.nc && d->nc == rs->src.nc;
	u32 c;

	for (c = 0; c < d->nc; c++)
		direct &= d->off[c] == (s32)c;
	if (direct) {
		vpc_rs_row(rs, ry, d->base + y * d->stride + (s64)x * d->step);
		return;
	}
	vpc_rs_row(rs, ry, rs->out);
	vpc_store(d, y, x, rs->out_w, rs->out, rs->src.nc);
}

/* Channel @off of @n pixels of row @y from column @x set to @v. */
static void vpc_fill(const struct vpc_plane *d, s32 y, s32 x, s32 n, s32 off,
		     u8 v)
{
	u8 *p = d->base + y * d->stride + (s64)x * d->step + off;
	s32 i;

	for (i = 0; i < n; i++, p += d->step)
		*p = v;
}

static void vpc_job_init(struct vpc_job *j, const struct vpc_args *a,
			 void *scratch, u32 cpu)
{
	const struct vpc_fmt *sf = a->src.f, *df = a->dst.f;
	bool s_alpha = sf->rgb && sf->off[3] >= 0;
	bool d_alpha = df->rgb && df->off[3] >= 0;
	u8 *mem = scratch;
	u64 n = (u64)a->dr.w;

	j->a = a;
	if (!sf->rgb)
		j->path = df->rgb ? VPC_YUV_TO_RGB : VPC_SAME_YUV;
	else
		j->path = df->rgb ? VPC_SAME_RGB : VPC_RGB_TO_YUV;
	j->d_chroma = !df->rgb && df->sx;
	j->rows = df->sy == 2 ? 2 : 1;
	j->fill_alpha = d_alpha && !s_alpha;

	/* the first plane: luma or RGB at the destination rectangle's size */
	if (sf->rgb)
		vpc_plane_rgb(&a->src, s_alpha && d_alpha, &j->p0.src);
	else
		vpc_plane_luma(&a->src, &j->p0.src);
	j->p0.x0 = a->sr.x;
	j->p0.y0 = a->sr.y;
	j->p0.in_w = a->sr.w;
	j->p0.in_h = a->sr.h;
	j->p0.out_w = a->dr.w;
	j->p0.out_h = a->dr.h;
	j->p0.mode = a->interp;
	j->p0.avx2 = cpu & VNPU_CPU_AVX2_FMA;
	j->p0.sse2 = cpu & VNPU_CPU_SSE2;
	vpc_rs_init(&j->p0, &mem);

	/* chroma, at the destination's chroma size or, for RGB, full size */
	j->has_p1 = !sf->rgb && sf->sx && (j->d_chroma || df->rgb);
	if (j->has_p1) {
		vpc_plane_chroma(&a->src, &j->p1.src);
		j->p1.x0 = a->sr.x / sf->sx;
		j->p1.y0 = a->sr.y / sf->sy;
		j->p1.in_w = a->sr.w / sf->sx;
		j->p1.in_h = a->sr.h / sf->sy;
		j->p1.out_w = df->rgb ? a->dr.w : a->dr.w / df->sx;
		j->p1.out_h = df->rgb ? a->dr.h : a->dr.h / df->sy;
		j->p1.mode = a->interp;
		j->p1.avx2 = cpu & VNPU_CPU_AVX2_FMA;
		j->p1.sse2 = cpu & VNPU_CPU_SSE2;
		vpc_rs_init(&j->p1, &mem);
	}

	if (df->rgb)
		vpc_plane_rgb(&a->dst, s_alpha && d_alpha, &j->d0);
	else
		vpc_plane_luma(&a->dst, &j->d0);
	if (j->d_chroma)
		vpc_plane_chroma(&a->dst, &j->d1);

	j->rgb = mem;
	mem += VPC_ALIGN(n * 4);
	j->u = (s32 *)mem;
	mem += VPC_ALIGN(n * 4);
	j->v = (s32 *)mem;
	mem += VPC_ALIGN(n * 4);
	j->usum = (s32 *)mem;
	mem += VPC_ALIGN(n * 4);
	j->vsum = (s32 *)mem;
}

/* Destination chroma row @u from the source's chroma, or grey. */
static void vpc_chroma_row(struct vpc_job *j, s32 u)
{
	const struct vpc_args *a = j->a;
	const struct vpc_fmt *df = a->dst.f;
	s32 y = a->dr.y / df->sy + u, x = a->dr.x / df->sx;
	s32 n = a->dr.w / df->sx;

	if (j->has_p1) {
		vpc_row_to(&j->p1, u, &j->d1, y, x);
	} else {
		vpc_fill(&j->d1, y, x, n, j->d1.off[0], 128);
		vpc_fill(&j->d1, y, x, n, j->d1.off[1], 128);
	}
}

/*
 * RGB to YUV: the rows of unit @u converted; chroma is the mean of
 * the U and V of the pixels it covers (1, 2 or 4), before rounding.
 */
static void vpc_rgb_to_yuv_unit(struct vpc_job *j, s32 u)
{
	const struct vpc_args *a = j->a;
	const struct vpc_fmt *df = a->dst.f;
	s32 n = a->dr.w, cn = j->d_chroma ? n / df->sx : 0, i, r;
	u32 shift = 16;

	for (i = 0; i < cn; i++) {
		j->usum[i] = 0;
		j->vsum[i] = 0;
	}
	for (r = 0; r < (s32)j->rows; r++) {
		s32 y = u * (s32)j->rows + r;

		vpc_rs_row(&j->p0, y, j->p0.out);
		vpc_rgb_to_y(a->csc, j->p0.out, j->p0.src.nc, n, j->rgb);
		vpc_store(&j->d0, a->dr.y + y, a->dr.x, n, j->rgb, 1);
		if (!cn)
			continue;
		vpc_rgb_to_uv(a->csc, j->p0.out, j->p0.src.nc, n, j->u, j->v);
		for (i = 0; i < n; i++) {
			j->usum[i / df->sx] += j->u[i];
			j->vsum[i / df->sx] += j->v[i];
		}
	}
	if (!cn)
		return;
	shift += (df->sx == 2) + (j->rows == 2);
	for (i = 0; i < cn; i++) {
		j->rgb[2 * i] = vpc_uv_round(j->usum[i], shift);
		j->rgb[2 * i + 1] = vpc_uv_round(j->vsum[i], shift);
	}
	vpc_store(&j->d1, a->dr.y / df->sy + u, a->dr.x / df->sx, cn, j->rgb, 2);
}

static void vpc_unit(struct vpc_job *j, s32 u)
{
	const struct vpc_args *a = j->a;
	s32 n = a->dr.w, r;

	switch (j->path) {
	case VPC_SAME_YUV:
		for (r = 0; r < (s32)j->rows; r++) {
			s32 y = u * (s32)j->rows + r;

			vpc_row_to(&j->p0, y, &j->d0, a->dr.y + y, a->dr.x);
		}
		if (j->d_chroma)
			vpc_chroma_row(j, u);
		break;
	case VPC_SAME_RGB:
		vpc_row_to(&j->p0, u, &j->d0, a->dr.y + u, a->dr.x);
		break;
	case VPC_YUV_TO_RGB:
		vpc_rs_row(&j->p0, u, j->p0.out);
		if (j->has_p1)
			vpc_rs_row(&j->p1, u, j->p1.out);
		vpc_yuv_to_rgb(a->csc, j->p0.out, j->has_p1 ? j->p1.out : NULL,
			       n, j->rgb);
		vpc_store(&j->d0, a->dr.y + u, a->dr.x, n, j->rgb, 3);
		break;
	case VPC_RGB_TO_YUV:
		vpc_rgb_to_yuv_unit(j, u);
		return;
	}
	if (j->fill_alpha)
		vpc_fill(&j->d0, a->dr.y + u, a->dr.x, n, a->dst.f->off[3], 255);
}

static void vpc_run(const struct vnpu_op_call *c, u64 tile)
{
	struct vpc_args a;
	struct vpc_job j;
	u32 units, per, u, end;

	if (vpc_parse(c, &a))
		return;
	vpc_units(&a, &units, &per);
	if (tile >= ((u64)units + per - 1) / per)
		return;
	u = (u32)tile * per;
	end = units - u < per ? units : u + per;
	if (a.kind == VPC_KIND_PYRDOWN) {
		vpc_pyrdown_rows(&a, (s32)u, (s32)end, c->scratch);
		return;
	}
	if (a.kind == VPC_KIND_BORDER) {
		vpc_border_rows(&a, (s32)u, (s32)end, c->scratch);
		return;
	}
	vpc_job_init(&j, &a, c->scratch, c->cpu);
	for (; u < end; u++)
		vpc_unit(&j, (s32)u);
}

const struct vnpu_op_impl vnpu_ops_vpc[] = {
	{ DRM_VNPU_OP_VPC, "vpc", vpc_check, vpc_tiles, vpc_run },
	{ 0 }
};
