// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Convolution and pooling, NCHW.
 *
 * CONV2D and CONV1D (H = 1) run on the GEMM engine per (image, group):
 * C[cout, oh * ow] = W[cout, cin * kh * kw] x im2col(x), where the im2col
 * matrix is never built: the B packer reads the input windows straight
 * into the packed panels. Convolutions with one or two output channels per
 * group (depthwise) use a direct loop instead. CONV_TRANSPOSE2D and the
 * pools are direct loops over output rows.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_gemm.h"

/*
 * Multiply-adds (or window taps) a direct piece aims at; a piece is at
 * least one output row, which may do up to VNPU_OPS_PIECE_WORK.
 */
#define CONV_DIRECT_BUDGET	4194304LL	/* 2^22 */
/* Widest output row the direct loops keep in scratch. */
#define CONV_MAX_ROW		65536

static s64 min_s64(s64 a, s64 b)
{
	return a < b ? a : b;
}

static s64 max_s64(s64 a, s64 b)
{
	return a > b ? a : b;
}

/* Rank 3 (N, C, L) as rank 4 (N, C, 1, L). */
static void view4(struct vnpu_tview *d, const struct vnpu_tview *s)
{
	*d = *s;
	if (s->rank != 3)
		return;
	d->rank = 4;
	d->shape[3] = s->shape[2];
	d->strides[3] = s->strides[2];
	d->shape[2] = 1;
	d->strides[2] = 0;
}

static bool views_ok(const struct vnpu_op_call *c, u32 dtype)
{
	u32 t, d;

	for (t = 0; t < c->num_in + c->num_out; t++) {
		if (c->t[t].dtype != dtype || c->t[t].rank > VNPU_OPS_MAX_RANK)
			return false;
		for (d = 0; d < c->t[t].rank; d++)
			if (c->t[t].shape[d] < 0 || c->t[t].strides[d] < 0 ||
			    c->t[t].shape[d] > (1LL << 31))
				return false;
	}
	return vnpu_dtype_is_float(dtype);
}

/* Rows of an output plane per piece, given the work of one row. */
static s64 rows_per_piece(s64 rows, s64 row_work, s64 budget)
{
	s64 r = budget / max_s64(row_work, 1);

	return max_s64(1, min_s64(r, rows));
}

/**
 * struct conv_plan - a convolution, decoded
 * @x: input as 4-D
 * @w: weights as 4-D
 * @o: output as 4-D
 * @has_bias: a bias input is present
 * @transpose: CONV_TRANSPOSE2D
 * @n: images
 * @ci: input channels
 * @h: input height
 * @wd: input width
 * @co: output channels
 * @kh: kernel height
 * @kw: kernel width
 * @oh: output height
 * @ow: output width
 * @sh: stride, vertical
 * @sw: stride, horizontal
 * @pt: pad top
 * @pl: pad left
 * @dh: dilation, vertical
 * @dw: dilation, horizontal
 * @groups: groups
 * @cig: input channels per group
 * @cog: output channels per group
 * @direct: direct loops rather than the GEMM engine
 * @rpt: output rows per piece (direct)
 * @tpp: pieces per output plane (direct)
 * @gk: GEMM depth
 * @gn: GEMM columns (oh * ow)
 * @mc: rows of a GEMM piece
 * @nc: columns of a GEMM piece
 * @tm: GEMM pieces along the output channels of a group
 * @tn: GEMM pieces along the columns
 * @act: fused activation, applied after the bias
 */
struct conv_plan {
	struct vnpu_tview x, w, o;
	bool has_bias, transpose;
	s64 n, ci, h, wd, co, kh, kw, oh, ow;
	s64 sh, sw, pt, pl, dh, dw, groups, cig, cog;
	bool direct;
	s64 rpt, tpp;
	s64 gk, gn, mc, nc, tm, tn;
	struct vnpu_act act;
};

static int conv_plan(const struct vnpu_op_call *c, struct conv_plan *p)
{
	bool one_d = c->op == DRM_VNPU_OP_CONV1D;
	u32 rank = one_d ? 3 : 4;
	s64 pb, pr, oph = 0, opw = 0, numh, numw;

	if (c->num_out != 1 || c->num_in < 2 || c->num_in > 3 ||
	    !views_ok(c, c->t[0].dtype))
		return -VNPU_OPS_EINVAL;
	if (c->t[0].rank != rank || c->t[1].rank != rank ||
	    c->t[c->num_in].rank != rank)
		return -VNPU_OPS_EINVAL;
	view4(&p->x, &c->t[0]);
	view4(&p->w, &c->t[1]);
	view4(&p->o, &c->t[c->num_in]);
	p->has_bias = c->num_in == 3;
	p->transpose = c->op == DRM_VNPU_OP_CONV_TRANSPOSE2D;
	if (one_d) {
		p->sh = 1;
		p->sw = vnpu_attr_int(c, 0, 1);
		p->pt = 0;
		pb = 0;
		p->pl = vnpu_attr_int(c, 2, 0);
		pr = vnpu_attr_int(c, 4, 0);
		p->dh = 1;
		p->dw = vnpu_attr_int(c, 6, 1);
	} else {
		p->sh = vnpu_attr_int(c, 0, 1);
		p->sw = vnpu_attr_int(c, 1, 1);
		p->pt = vnpu_attr_int(c, 2, 0);
		p->pl = vnpu_attr_int(c, 3, 0);
		pb = vnpu_attr_int(c, 4, 0);
		pr = vnpu_attr_int(c, 5, 0);
		p->dh = vnpu_attr_int(c, 6, 1);
		p->dw = vnpu_attr_int(c, 7, 1);
	}
	p->groups = vnpu_attr_int(c, 8, 1);
	if (p->transpose) {
		oph = vnpu_attr_int(c, 9, 0);
		opw = vnpu_attr_int(c, 10, 0);
	}
	if (p->sh < 1 || p->sw < 1 || p->dh < 1 || p->dw < 1 ||
	    p->sh > (1 << 20) || p->sw > (1 << 20) || p->dh > (1 << 20) ||
	    p->dw > (1 << 20) || p->pt < 0 || p->pl < 0 || pb < 0 || pr < 0 ||
	    p->pt > (1 << 20) || p->pl > (1 << 20) || pb > (1 << 20) ||
	    pr > (1 << 20) || p->groups < 1 || oph < 0 || opw < 0 ||
	    (p->transpose && (oph >= max_s64(p->sh, p->dh) ||
			      opw >= max_s64(p->sw, p->dw))) ||
	    vnpu_act_get(c, &p->act))
		return -VNPU_OPS_EINVAL;

	p->n = p->x.shape[0];
	p->ci = p->x.shape[1];
	p->h = p->x.shape[2];
	p->wd = p->x.shape[3];
	p->kh = p->w.shape[2];
	p->kw = p->w.shape[3];
	if (p->ci % p->groups)
		return -VNPU_OPS_EINVAL;
	p->cig = p->ci / p->groups;
	if (p->transpose) {
		/* w: [cin, cout / groups, kh, kw] */
		if (p->w.shape[0] != p->ci)
			return -VNPU_OPS_EINVAL;
		p->cog = p->w.shape[1];
		p->co = p->cog * p->groups;
		p->oh = (p->h - 1) * p->sh - p->pt - pb + p->dh * (p->kh - 1) +
			oph + 1;
		p->ow = (p->wd - 1) * p->sw - p->pl - pr + p->dw * (p->kw - 1) +
			opw + 1;
		if (p->h < 1 || p->wd < 1 || p->kh < 1 || p->kw < 1 ||
		    p->oh < 1 || p->ow < 1)
			return -VNPU_OPS_EINVAL;
	} else {
		/* w: [cout, cin / groups, kh, kw] */
		p->co = p->w.shape[0];
		if (p->co % p->groups || p->w.shape[1] != p->cig)
			return -VNPU_OPS_EINVAL;
		p->cog = p->co / p->groups;
		numh = p->h + p->pt + pb - p->dh * (p->kh - 1) - 1;
		numw = p->wd + p->pl + pr - p->dw * (p->kw - 1) - 1;
		if (numh < 0 || numw < 0 || p->kh < 1 || p->kw < 1)
			return -VNPU_OPS_EINVAL;
		p->oh = numh / p->sh + 1;
		p->ow = numw / p->sw + 1;
	}
	if (p->o.shape[0] != p->n || p->o.shape[1] != p->co ||
	    p->o.shape[2] != p->oh || p->o.shape[3] != p->ow)
		return -VNPU_OPS_EINVAL;
	if (p->has_bias && (c->t[2].rank != 1 || c->t[2].shape[0] != p->co))
		return -VNPU_OPS_EINVAL;

	if (__builtin_mul_overflow(p->cig, p->kh, &p->gk) ||
	    __builtin_mul_overflow(p->gk, p->kw, &p->gk))
		return -VNPU_OPS_EINVAL;
	p->gn = p->oh * p->ow;
	p->direct = p->transpose || (p->cog < 4 && p->ow <= CONV_MAX_ROW);
	if (p->direct) {
		/* A piece is at least one output row: ow * gk taps. */
		if (p->ow > CONV_MAX_ROW ||
		    !vnpu_piece_fits((u64)p->ow, (u64)p->gk, 1))
			return -VNPU_OPS_EINVAL;
		p->rpt = rows_per_piece(p->oh, p->ow * p->gk, CONV_DIRECT_BUDGET);
		p->tpp = (p->oh + p->rpt - 1) / p->rpt;
		return 0;
	}
	if (vnpu_gemm_plan_block(p->cog, p->gn, p->gk, &p->mc, &p->nc))
		return -VNPU_OPS_EINVAL;
	p->tm = (p->cog + p->mc - 1) / p->mc;
	p->tn = (p->gn + p->nc - 1) / p->nc;
	return 0;
}

static int conv_check(const struct vnpu_op_call *c)
{
	struct conv_plan p;

	return conv_plan(c, &p);
}

static u64 conv_tiles(const struct vnpu_op_call *c)
{
	struct conv_plan p;

	if (conv_plan(c, &p))
		return 0;
	if (p.direct)
		return (u64)(p.n * p.co * p.tpp);
	return (u64)(p.n * p.groups * p.tm * p.tn);
}

/* What the conv packers need: the plan and the (image, group) origin. */
struct conv_ctx {
	const struct conv_plan *p;
	const char *x;		/* channel 0 of the group in this image */
	const char *w;		/* output channel 0 of the group */
	u32 dtype;
};

/*
 * A(i, k) = w[i, ci, kh, kw] with k = (ci * kh + kh') * kw + kw', row i at
 * dst + i * VNPU_GEMM_AS (weights that are not a plain matrix).
 */
static void conv_pack_a(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 p0,
			s64 kc, float *dst)
{
	const struct conv_ctx *cx = g->ctx;
	const struct conv_plan *p = cx->p;
	const s64 *ws = p->w.strides;
	s64 i, q;

	for (q = 0; q < kc; q++) {
		s64 k = p0 + q, kx = k % p->kw, ky = (k / p->kw) % p->kh;
		s64 ch = k / (p->kw * p->kh);
		s64 off = ch * ws[1] + ky * ws[2] + kx * ws[3] + i0 * ws[0];

		for (i = 0; i < mc; i++)
			dst[i * VNPU_GEMM_AS + q] =
				vnpu_gemm_ld(cx->w, cx->dtype, off + i * ws[0]);
	}
}

/*
 * @run values of input row @iy of channel @ch from column @ix on, step sw:
 * zeros in the padding, a copy in between (contiguous for fp32 at stride 1).
 */
static void conv_copy_run(const struct conv_ctx *cx, s64 ch, s64 iy, s64 ix,
			  s64 run, float *d)
{
	const struct conv_plan *p = cx->p;
	const s64 *xs = p->x.strides;
	s64 base = ch * xs[1] + iy * xs[2], t = 0, mid, end;

	if (iy < 0 || iy >= p->h) {
		for (; t < run; t++)
			d[t] = 0;
		return;
	}
	for (; t < run && ix < 0; t++, ix += p->sw)
		d[t] = 0;
	/* Columns ix, ix + sw, ... still left of the right edge. */
	mid = ix < p->wd ? min_s64(run - t, (p->wd - ix + p->sw - 1) / p->sw) : 0;
	end = t + mid;
	if (cx->dtype == DRM_VNPU_DTYPE_FLOAT && p->sw == 1 && xs[3] == 1) {
		const float *s = (const float *)cx->x + base + ix - t;

		for (; t + 4 <= end; t += 4)
			__builtin_memcpy(d + t, s + t, 4 * sizeof(float));
		for (; t < end; t++)
			d[t] = s[t];
	} else if (cx->dtype == DRM_VNPU_DTYPE_FLOAT) {
		const float *s = (const float *)cx->x + base;

		for (; t < end; t++, ix += p->sw)
			d[t] = s[ix * xs[3]];
	} else {
		for (; t < end; t++, ix += p->sw)
			d[t] = vnpu_gemm_ld(cx->x, cx->dtype, base + ix * xs[3]);
	}
	for (; t < run; t++)
		d[t] = 0;
}

/*
 * B(k, j) = x[ci, oy * sh - pt + ky * dh, ox * sw - pl + kx * dw] (0 in the
 * padding) with k = (ci, ky, kx) and j = (oy, ox): im2col, packed. Depth
 * by depth, the columns go in runs along one output row within one sliver.
 */
static void conv_pack_b(const struct vnpu_gemm *g, s64 p0, s64 kc, s64 j0,
			s64 nc, float *dst)
{
	const struct conv_ctx *cx = g->ctx;
	const struct conv_plan *p = cx->p;
	s64 nr = g->nr, q, j;
	s64 kx = p0 % p->kw, ky = (p0 / p->kw) % p->kh;
	s64 ch = p0 / (p->kw * p->kh);
	s64 oy0 = j0 / p->ow, ox0 = j0 % p->ow;

	for (q = 0; q < kc; q++) {
		s64 oy = oy0, ox = ox0, s = 0, lane = 0;

		for (j = 0; j < nc;) {
			s64 run = min_s64(min_s64(nc - j, p->ow - ox), nr - lane);

			conv_copy_run(cx, ch, oy * p->sh - p->pt + ky * p->dh,
				      ox * p->sw - p->pl + kx * p->dw, run,
				      dst + s * kc * nr + q * nr + lane);
			j += run;
			ox += run;
			lane += run;
			if (ox == p->ow) {
				ox = 0;
				oy++;
			}
			if (lane == nr) {
				lane = 0;
				s++;
			}
		}
		for (; lane && lane < nr; lane++)
			dst[s * kc * nr + q * nr + lane] = 0;
		if (++kx == p->kw) {
			kx = 0;
			if (++ky == p->kh) {
				ky = 0;
				ch++;
			}
		}
	}
}

static void conv_run_gemm(const struct vnpu_op_call *c,
			  const struct conv_plan *p, u64 tile)
{
	float *scratch = c->scratch, *blk;
	u32 dt = p->x.dtype, sz = vnpu_dtype_size(dt);
	s64 img, grp, i0, j0, mc, nc, rsc, i, j, obase;
	struct conv_ctx cx;
	struct vnpu_gemm g;
	bool direct;

	img = (s64)(tile / (u64)(p->groups * p->tm * p->tn));
	grp = (s64)(tile / (u64)(p->tm * p->tn) % (u64)p->groups);
	i0 = (s64)(tile / (u64)p->tn % (u64)p->tm) * p->mc;
	j0 = (s64)(tile % (u64)p->tn) * p->nc;
	mc = min_s64(p->mc, p->cog - i0);
	nc = min_s64(p->nc, p->gn - j0);

	cx.p = p;
	cx.dtype = dt;
	cx.x = (const char *)p->x.data +
	       (img * p->x.strides[0] + grp * p->cig * p->x.strides[1]) * sz;
	cx.w = (const char *)p->w.data + grp * p->cog * p->w.strides[0] * sz;
	vnpu_gemm_init(&g, c->cpu);
	g.m = p->cog;
	g.n = p->gn;
	g.k = p->gk;
	g.alpha = 1.0f;
	g.ctx = &cx;
	g.pack_a = conv_pack_a;
	g.pack_b = conv_pack_b;
	if (p->w.strides[3] == 1 && p->w.strides[2] == p->kw &&
	    p->w.strides[1] == p->kw * p->kh) {
		/* Weights are a plain row-major matrix. */
		vnpu_gemm_init(&g, c->cpu);
		g.pack_b = conv_pack_b;
		g.a = cx.w;
		g.a_dtype = dt;
		g.a_rs = p->w.strides[0];
		g.a_cs = 1;
	}
	g.act = p->act;
	g.call = c;

	obase = img * p->o.strides[0] + (grp * p->cog + i0) * p->o.strides[1];
	direct = dt == DRM_VNPU_DTYPE_FLOAT && p->o.strides[3] == 1 &&
		 (p->o.strides[2] == p->ow || p->oh == 1);
	if (direct) {
		blk = (float *)p->o.data + obase + j0;
		rsc = p->o.strides[1];
	} else {
		blk = scratch + VNPU_GEMM_SCRATCH_FLOATS;
		rsc = nc;
	}
	if (p->has_bias)
		for (i = 0; i < mc; i++) {
			float b = vnpu_gemm_ld(c->t[2].data, dt,
					       (grp * p->cog + i0 + i) *
					       c->t[2].strides[0]);

			for (j = 0; j < nc; j++)
				blk[i * rsc + j] = b;
		}
	vnpu_gemm_block(&g, i0, mc, j0, nc, blk, rsc, p->has_bias, scratch);
	if (direct)
		return;
	for (i = 0; i < mc; i++)
		for (j = 0; j < nc; j++) {
			s64 oy = (j0 + j) / p->ow, ox = (j0 + j) % p->ow;

			vnpu_gemm_st(p->o.data, dt,
				     obase + i * p->o.strides[1] +
				     oy * p->o.strides[2] + ox * p->o.strides[3],
				     blk[i * rsc + j]);
		}
}

/* acc[ox] += wv * x[row, ox * sw + off] where the column is inside. */
static void conv_direct_tap(const struct conv_plan *p, float *acc, s64 xrow,
			    s64 off, float wv)
{
	u32 dt = p->x.dtype;
	s64 xs3 = p->x.strides[3], x;
	/* ox with 0 <= ox * sw + off < wd */
	s64 lo = off >= 0 ? 0 : (-off + p->sw - 1) / p->sw;
	s64 hi = p->wd - off <= 0 ? 0 : (p->wd - off + p->sw - 1) / p->sw;

	hi = min_s64(hi, p->ow);
	if (dt == DRM_VNPU_DTYPE_FLOAT && p->sw == 1 && xs3 == 1) {
		const float *xr = (const float *)p->x.data + xrow + off;

		for (x = lo; x < hi; x++)
			acc[x] += wv * xr[x];
		return;
	}
	for (x = lo; x < hi; x++)
		acc[x] += wv * vnpu_gemm_ld(p->x.data, dt,
					    xrow + (x * p->sw + off) * xs3);
}

/* Direct convolution of output rows [y0, y1) of one plane (img, oc). */
static void conv_run_direct(const struct vnpu_op_call *c,
			    const struct conv_plan *p, s64 img, s64 oc,
			    s64 y0, s64 y1)
{
	float *acc = c->scratch;
	u32 dt = p->x.dtype;
	s64 grp = oc / p->cog, ci, ky, kx, y, x;
	const s64 *xs = p->x.strides, *ws = p->w.strides;
	float b = p->has_bias ? vnpu_gemm_ld(c->t[2].data, dt,
					     oc * c->t[2].strides[0]) : 0.0f;
	u64 work = 0;	/* taps since the last heartbeat */

	for (y = y0; y < y1; y++) {
		for (x = 0; x < p->ow; x++)
			acc[x] = b;
		for (ci = 0; ci < p->cig; ci++) {
			/* One row alone may be a whole piece. */
			vnpu_op_beat_work(c, &work, (u64)(p->ow * p->kh * p->kw));
			for (ky = 0; ky < p->kh; ky++) {
				s64 iy = y * p->sh - p->pt + ky * p->dh;
				s64 xrow = img * xs[0] + (grp * p->cig + ci) * xs[1] +
					   iy * xs[2];

				if (iy < 0 || iy >= p->h)
					continue;
				for (kx = 0; kx < p->kw; kx++)
					conv_direct_tap(p, acc, xrow, kx * p->dw - p->pl,
							vnpu_gemm_ld(p->w.data, dt,
								     oc * ws[0] + ci * ws[1] +
								     ky * ws[2] + kx * ws[3]));
			}
		}
		for (x = 0; x < p->ow; x++)
			vnpu_gemm_st(p->o.data, dt,
				     img * p->o.strides[0] + oc * p->o.strides[1] +
				     y * p->o.strides[2] + x * p->o.strides[3],
				     vnpu_act_apply(&p->act, acc[x]));
	}
}

/* Transposed convolution of output rows [y0, y1) of one plane: a gather. */
static void convt_run(const struct vnpu_op_call *c, const struct conv_plan *p,
		      s64 img, s64 oc, s64 y0, s64 y1)
{
	float *acc = c->scratch;
	u32 dt = p->x.dtype;
	s64 grp = oc / p->cog, ocl = oc % p->cog, ci, ky, kx, y, x;
	const s64 *xs = p->x.strides, *ws = p->w.strides;
	float b = p->has_bias ? vnpu_gemm_ld(c->t[2].data, dt,
					     oc * c->t[2].strides[0]) : 0.0f;
	u64 work = 0;	/* taps since the last heartbeat */

	for (y = y0; y < y1; y++) {
		for (x = 0; x < p->ow; x++)
			acc[x] = b;
		for (ky = 0; ky < p->kh; ky++) {
			s64 ty = y + p->pt - ky * p->dh, iy;

			if (ty < 0 || ty % p->sh)
				continue;
			iy = ty / p->sh;
			if (iy >= p->h)
				continue;
			for (ci = grp * p->cig; ci < (grp + 1) * p->cig; ci++) {
				s64 xrow = img * xs[0] + ci * xs[1] + iy * xs[2];

				vnpu_op_beat_work(c, &work, (u64)(p->kw * p->wd));
				for (kx = 0; kx < p->kw; kx++) {
					float wv = vnpu_gemm_ld(p->w.data, dt,
								ci * ws[0] + ocl * ws[1] +
								ky * ws[2] + kx * ws[3]);
					s64 off = kx * p->dw - p->pl;
					/* x = ix * sw + off for 0 <= ix < wd */
					s64 ix = off >= 0 ? 0 : (-off + p->sw - 1) / p->sw;

					for (x = ix * p->sw + off; ix < p->wd && x < p->ow;
					     ix++, x += p->sw)
						acc[x] += wv * vnpu_gemm_ld(p->x.data, dt,
									    xrow + ix * xs[3]);
				}
			}
		}
		for (x = 0; x < p->ow; x++)
			vnpu_gemm_st(p->o.data, dt,
				     img * p->o.strides[0] + oc * p->o.strides[1] +
				     y * p->o.strides[2] + x * p->o.strides[3],
				     vnpu_act_apply(&p->act, acc[x]));
	}
}

static void conv_run(const struct vnpu_op_call *c, u64 tile)
{
	struct conv_plan p;
	s64 plane, y0;

	if (conv_plan(c, &p))
		return;
	if (!p.direct) {
		conv_run_gemm(c, &p, tile);
		return;
	}
	plane = (s64)(tile / (u64)p.tpp);
	y0 = (s64)(tile % (u64)p.tpp) * p.rpt;
	if (p.transpose)
		convt_run(c, &p, plane / p.co, plane % p.co, y0,
			  min_s64(y0 + p.rpt, p.oh));
	else
		conv_run_direct(c, &p, plane / p.co, plane % p.co, y0,
				min_s64(y0 + p.rpt, p.oh));
}

/**
 * struct pool_plan - a pooling call, decoded
 * @x: input as 4-D
 * @o: output as 4-D
 * @n: images
 * @c: channels
 * @h: input height
 * @w: input width
 * @oh: output height
 * @ow: output width
 * @kh: window height
 * @kw: window width
 * @sh: stride, vertical
 * @sw: stride, horizontal
 * @pt: pad top
 * @pl: pad left
 * @pb: pad bottom
 * @pr: pad right
 * @dh: dilation, vertical
 * @dw: dilation, horizontal
 * @incl: average counts the padding
 * @rpt: output rows per piece
 * @tpp: pieces per plane
 */
struct pool_plan {
	struct vnpu_tview x, o;
	s64 n, c, h, w, oh, ow, kh, kw, sh, sw, pt, pl, pb, pr, dh, dw;
	bool incl;
	s64 rpt, tpp;
};

static s64 pool_out(s64 in, s64 k, s64 s, s64 pa, s64 pz, s64 d, bool ceil)
{
	s64 num = in + pa + pz - d * (k - 1) - 1, o;

	if (num < 0)
		return -1;
	o = (ceil ? (num + s - 1) / s : num / s) + 1;
	/* The last window must start inside the input or the left padding. */
	if (ceil && (o - 1) * s >= in + pa)
		o--;
	return o;
}

static int pool_plan(const struct vnpu_op_call *c, struct pool_plan *p)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 ceil;
	u32 d;

	if (c->num_in != 1 || c->num_out != 1 || !views_ok(c, x->dtype))
		return -VNPU_OPS_EINVAL;
	if (c->op == DRM_VNPU_OP_GLOBAL_AVG_POOL ||
	    c->op == DRM_VNPU_OP_GLOBAL_MAX_POOL) {
		/* [N, C, ...] -> [N, C, 1, ...] or [N, C] */
		if (x->rank < 3 || x->rank > 4 ||
		    (o->rank != x->rank && o->rank != 2))
			return -VNPU_OPS_EINVAL;
		for (d = 2; d < o->rank; d++)
			if (o->shape[d] != 1)
				return -VNPU_OPS_EINVAL;
		view4(&p->x, x);
		p->o = *o;
		p->o.rank = 4;
		for (d = o->rank; d < 4; d++) {
			p->o.shape[d] = 1;
			p->o.strides[d] = 0;
		}
		if (o->rank == 3) {
			p->o.shape[2] = 1;
			p->o.strides[2] = 0;
		}
		p->kh = p->x.shape[2];
		p->kw = p->x.shape[3];
		p->oh = 1;
		p->ow = 1;
	} else {
		if (x->rank != 4 || o->rank != 4)
			return -VNPU_OPS_EINVAL;
		p->x = *x;
		p->o = *o;
		p->oh = o->shape[2];
		p->ow = o->shape[3];
	}
	p->n = p->x.shape[0];
	p->c = p->x.shape[1];
	p->h = p->x.shape[2];
	p->w = p->x.shape[3];
	if (p->o.shape[0] != p->n || p->o.shape[1] != p->c)
		return -VNPU_OPS_EINVAL;
	if (c->op == DRM_VNPU_OP_MAX_POOL2D || c->op == DRM_VNPU_OP_AVG_POOL2D) {
		if (!c->has_attrs)
			return -VNPU_OPS_EINVAL;	/* the window is required */
		p->kh = c->attrs.ints[0];
		p->kw = c->attrs.ints[1];
		p->sh = c->attrs.ints[2];
		p->sw = c->attrs.ints[3];
		p->pt = c->attrs.ints[4];
		p->pl = c->attrs.ints[5];
		p->pb = c->attrs.ints[6];
		p->pr = c->attrs.ints[7];
		p->dh = c->attrs.ints[8];
		p->dw = c->attrs.ints[9];
		ceil = c->attrs.ints[10];
		p->incl = c->attrs.ints[11] != 0;
		if (p->kh < 1 || p->kw < 1 || p->sh < 1 || p->sw < 1 ||
		    p->dh < 1 || p->dw < 1 || p->pt < 0 || p->pl < 0 ||
		    p->pb < 0 || p->pr < 0 || (ceil != 0 && ceil != 1) ||
		    (c->attrs.ints[11] != 0 && c->attrs.ints[11] != 1) ||
		    p->kh > (1 << 20) || p->kw > (1 << 20) || p->sh > (1 << 20) ||
		    p->sw > (1 << 20) || p->dh > (1 << 20) || p->dw > (1 << 20) ||
		    p->pt > (1 << 20) || p->pl > (1 << 20) || p->pb > (1 << 20) ||
		    p->pr > (1 << 20))
			return -VNPU_OPS_EINVAL;
		if (pool_out(p->h, p->kh, p->sh, p->pt, p->pb, p->dh, ceil) != p->oh ||
		    pool_out(p->w, p->kw, p->sw, p->pl, p->pr, p->dw, ceil) != p->ow)
			return -VNPU_OPS_EINVAL;
	} else if (c->op == DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D) {
		if (p->oh < 1 || p->ow < 1 || p->h < 1 || p->w < 1)
			return -VNPU_OPS_EINVAL;
		/* Largest window: h / oh rows, ceil(h / oh) + 1 if uneven. */
		p->kh = p->h / p->oh + (p->h % p->oh ? 2 : 0);
		p->kw = p->w / p->ow + (p->w % p->ow ? 2 : 0);
	} else if (p->h < 1 || p->w < 1) {
		return -VNPU_OPS_EINVAL;	/* global pool of nothing */
	}
	/* A piece is at least one output row: ow windows of kh * kw taps. */
	if (!vnpu_piece_fits((u64)p->ow, (u64)p->kh, (u64)p->kw))
		return -VNPU_OPS_EINVAL;
	p->rpt = rows_per_piece(p->oh, p->ow * p->kh * p->kw, CONV_DIRECT_BUDGET);
	p->tpp = (p->oh + p->rpt - 1) / p->rpt;
	return 0;
}

static int pool_check(const struct vnpu_op_call *c)
{
	struct pool_plan p;

	return pool_plan(c, &p);
}

static u64 pool_tiles(const struct vnpu_op_call *c)
{
	struct pool_plan p;

	if (pool_plan(c, &p))
		return 0;
	return (u64)(p.n * p.c * p.tpp);
}

/* One output element of a max or average window. */
static float pool_window(const struct vnpu_op_call *c,
			 const struct pool_plan *p, s64 xb, s64 y0, s64 y1,
			 s64 x0, s64 x1, s64 dh, s64 dw, s64 count)
{
	bool is_max = c->op == DRM_VNPU_OP_MAX_POOL2D ||
		      c->op == DRM_VNPU_OP_GLOBAL_MAX_POOL;
	u32 dt = p->x.dtype;
	float m = -__builtin_inff();
	double sum = 0;
	s64 y, x;

	for (y = y0; y < y1; y += dh) {
		s64 row = xb + y * p->x.strides[2];

		for (x = x0; x < x1; x += dw) {
			float v = vnpu_gemm_ld(p->x.data, dt, row + x * p->x.strides[3]);

			if (!is_max)
				sum += v;
			else if (v != v)
				return v;	/* NaN wins */
			else if (v > m)
				m = v;
		}
	}
	if (is_max)
		return m;
	return count ? (float)(sum / (double)count) : 0.0f;
}

/* First tap index t >= 0 with a + t * d >= lo. */
static s64 first_tap(s64 a, s64 d, s64 lo)
{
	return a >= lo ? 0 : (lo - a + d - 1) / d;
}

static void pool_run(const struct vnpu_op_call *c, u64 tile)
{
	struct pool_plan p;
	s64 plane, img, ch, y, x, ya, yz, xa, xz, xb, y0, y1;

	if (pool_plan(c, &p))
		return;
	plane = (s64)(tile / (u64)p.tpp);
	img = plane / p.c;
	ch = plane % p.c;
	y0 = (s64)(tile % (u64)p.tpp) * p.rpt;
	y1 = min_s64(y0 + p.rpt, p.oh);
	xb = img * p.x.strides[0] + ch * p.x.strides[1];
	for (y = y0; y < y1; y++)
		for (x = 0; x < p.ow; x++) {
			s64 cnt, ty0, ty1, tx0, tx1;
			float v;

			if (c->op == DRM_VNPU_OP_MAX_POOL2D ||
			    c->op == DRM_VNPU_OP_AVG_POOL2D) {
				ya = y * p.sh - p.pt;
				xa = x * p.sw - p.pl;
				/* Taps inside the input, and inside the padding. */
				ty0 = first_tap(ya, p.dh, 0);
				ty1 = min_s64(p.kh, ya >= p.h ? 0 :
					      (p.h - ya + p.dh - 1) / p.dh);
				tx0 = first_tap(xa, p.dw, 0);
				tx1 = min_s64(p.kw, xa >= p.w ? 0 :
					      (p.w - xa + p.dw - 1) / p.dw);
				ty1 = max_s64(ty1, ty0);
				tx1 = max_s64(tx1, tx0);
				cnt = (ty1 - ty0) * (tx1 - tx0);
				if (p.incl)
					cnt = min_s64(p.kh, (p.h + p.pb - ya + p.dh - 1) /
						      p.dh) *
					      min_s64(p.kw, (p.w + p.pr - xa + p.dw - 1) /
						      p.dw);
				v = pool_window(c, &p, xb, ya + ty0 * p.dh,
						ya + ty1 * p.dh, xa + tx0 * p.dw,
						xa + tx1 * p.dw, p.dh, p.dw, cnt);
			} else if (c->op == DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D) {
				ya = y * p.h / p.oh;
				yz = ((y + 1) * p.h + p.oh - 1) / p.oh;
				xa = x * p.w / p.ow;
				xz = ((x + 1) * p.w + p.ow - 1) / p.ow;
				v = pool_window(c, &p, xb, ya, yz, xa, xz, 1, 1,
						(yz - ya) * (xz - xa));
			} else {
				v = pool_window(c, &p, xb, 0, p.h, 0, p.w, 1, 1,
						p.h * p.w);
			}
			vnpu_gemm_st(p.o.data, p.o.dtype,
				     img * p.o.strides[0] + ch * p.o.strides[1] +
				     y * p.o.strides[2] + x * p.o.strides[3], v);
		}
}

const struct vnpu_op_impl vnpu_ops_conv[] = {
	{ DRM_VNPU_OP_CONV2D, "conv2d", conv_check, conv_tiles, conv_run },
	{ DRM_VNPU_OP_CONV1D, "conv1d", conv_check, conv_tiles, conv_run },
	{ DRM_VNPU_OP_CONV_TRANSPOSE2D, "conv_transpose2d", conv_check,
	  conv_tiles, conv_run },
	{ DRM_VNPU_OP_MAX_POOL2D, "max_pool2d", pool_check, pool_tiles, pool_run },
	{ DRM_VNPU_OP_AVG_POOL2D, "avg_pool2d", pool_check, pool_tiles, pool_run },
	{ DRM_VNPU_OP_GLOBAL_AVG_POOL, "global_avg_pool", pool_check, pool_tiles,
	  pool_run },
	{ DRM_VNPU_OP_GLOBAL_MAX_POOL, "global_max_pool", pool_check, pool_tiles,
	  pool_run },
	{ DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, "adaptive_avg_pool2d", pool_check,
	  pool_tiles, pool_run },
	{ 0 }
};
