// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Weight-quantised matrix multiplication (DRM_VNPU_OP_WQ_MATMUL):
 *
 *   y[m, n] = sum_k x[m, k] * (w[k, n] + offset[g, n]) * scale[g, n]
 *	       + bias[n],  g = k / group (g = 0 without groups)
 *
 * with INT8 weights or INT4 ones packed two to a byte. The weight is never
 * expanded: the GEMM engine asks for one KC x NC panel of B at a time, and
 * the packer here dequantises exactly that panel into fp32 (wq_pack_b()).
 * A piece is one block of y, as in MATMUL, so the engines split the
 * blocks between them and every block yields.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_gemm.h"

enum { WQ_INT8, WQ_INT4_K, WQ_INT4_N };

/**
 * struct wq_plan - a WQ_MATMUL call, decoded
 * @x: activations [m, k]
 * @w: weight bytes ([k, n] INT8, [k / 2, n] or [k, n / 2] for INT4)
 * @s: scales [groups, n]
 * @off: offsets [groups, n] or NULL
 * @bias: bias [n] or NULL
 * @o: the output [m, n]
 * @m: rows
 * @n: columns
 * @k: depth
 * @gs: depth of a group of scales (k without groups)
 * @pack: WQ_INT8, WQ_INT4_K (two k per byte) or WQ_INT4_N (two n)
 * @mc: rows per piece
 * @nc: columns per piece
 * @tm: pieces along m
 * @tn: pieces along n
 */
struct wq_plan {
	const struct vnpu_tview *x, *w, *s, *off, *bias, *o;
	s64 m, n, k, gs;
	u32 pack;
	s64 mc, nc, tm, tn;
};

static bool wq_2d(const struct vnpu_tview *v, s64 d0, s64 d1, bool flt)
{
	if (v->rank != 2 || v->shape[0] != d0 || v->shape[1] != d1 ||
	    v->strides[0] < 0 || v->strides[1] < 0)
		return false;
	return !flt || vnpu_dtype_is_float(v->dtype);
}

static int wq_plan(const struct vnpu_op_call *c, struct wq_plan *p)
{
	s64 gs = vnpu_attr_int(c, 0, 0), pack = vnpu_attr_int(c, 1, 0);
	s64 has_off = vnpu_attr_int(c, 2, 0), has_bias = vnpu_attr_int(c, 3, 0);
	const struct vnpu_tview *w;
	s64 groups, wk, wn;
	u32 i;

	if (pack < WQ_INT8 || pack > WQ_INT4_N || (has_off != 0 && has_off != 1) ||
	    (has_bias != 0 && has_bias != 1) || gs < 0)
		return -VNPU_OPS_EINVAL;
	if (c->num_out != 1 || c->num_in != 3 + (u32)has_off + (u32)has_bias)
		return -VNPU_OPS_EINVAL;
	p->pack = (u32)pack;
	p->x = &c->t[0];
	p->w = &c->t[1];
	w = p->w;
	p->s = &c->t[2];
	p->off = has_off ? &c->t[3] : NULL;
	p->bias = has_bias ? &c->t[3 + has_off] : NULL;
	p->o = &c->t[c->num_in];
	if (p->x->rank != 2 || w->rank != 2 || w->dtype != DRM_VNPU_DTYPE_INT8)
		return -VNPU_OPS_EINVAL;
	p->m = p->x->shape[0];
	p->k = p->x->shape[1];
	wk = w->shape[0];
	wn = w->shape[1];
	/* INT4: the packed dim holds two values per byte. */
	if ((p->pack == WQ_INT4_K && __builtin_mul_overflow(wk, 2, &wk)) ||
	    (p->pack == WQ_INT4_N && __builtin_mul_overflow(wn, 2, &wn)))
		return -VNPU_OPS_EINVAL;
	p->n = wn;
	if (p->m < 0 || p->k < 0 || wk != p->k || p->n < 0 ||
	    !wq_2d(p->x, p->m, p->k, true) || !wq_2d(w, w->shape[0], w->shape[1], false) ||
	    !wq_2d(p->o, p->m, p->n, true))
		return -VNPU_OPS_EINVAL;
	/*
	 * Groups: k / gs rounded up rows of scales; one without groups or
	 * when gs reaches k (then gs is k: sums with it cannot overflow).
	 */
	p->gs = gs && gs < p->k ? gs : (p->k ? p->k : 1);
	groups = (p->k + p->gs - 1) / p->gs;
	if (!groups)
		groups = 1;
	if (!wq_2d(p->s, groups, p->n, true) ||
	    (p->off && !wq_2d(p->off, groups, p->n, true)))
		return -VNPU_OPS_EINVAL;
	if (p->bias && (p->bias->rank != 1 || p->bias->shape[0] != p->n ||
			p->bias->strides[0] < 0 ||
			!vnpu_dtype_is_float(p->bias->dtype)))
		return -VNPU_OPS_EINVAL;
	for (i = 0; i < c->num_in + 1; i++)
		if (c->t[i].rank > 2)
			return -VNPU_OPS_EINVAL;
	if (vnpu_gemm_plan_block(p->m, p->n, p->k, &p->mc, &p->nc))
		return -VNPU_OPS_EINVAL;
	p->tm = (p->m + p->mc - 1) / p->mc;
	p->tn = (p->n + p->nc - 1) / p->nc;
	return 0;
}

static int wq_check(const struct vnpu_op_call *c)
{
	struct wq_plan p;

	return wq_plan(c, &p);
}

static u64 wq_tiles(const struct vnpu_op_call *c)
{
	struct wq_plan p;

	if (wq_plan(c, &p))
		return 0;
	return (u64)p.tm * (u64)p.tn;
}

/* A signed nibble: the low one of @b when @hi is 0. */
static inline s32 wq_nib(u8 b, u32 hi)
{
	return (s32)((b >> (hi * 4)) & 15) - (((b >> (hi * 4)) & 8) << 1);
}

/* Weight element (k, n) as an integer. */
static inline s32 wq_w(const struct wq_plan *p, s64 k, s64 n)
{
	const s8 *w = p->w->data;
	s64 r = p->w->strides[0], cs = p->w->strides[1];

	switch (p->pack) {
	case WQ_INT4_K:
		return wq_nib((u8)w[(k >> 1) * r + n * cs], k & 1);
	case WQ_INT4_N:
		return wq_nib((u8)w[k * r + (n >> 1) * cs], n & 1);
	default:
		return w[k * r + n * cs];
	}
}

/*
 * The GEMM engine's B packer: depth [p0, p0 + kc) and columns [j0, j0 +
 * nc) of the dequantised weight, sliver s at dst + s * kc * nr, (p, j) at
 * p * nr + j, columns past nc zero. Column by column, group by group, so
 * a scale and offset are read once per run of the group's depth.
 */
static void wq_pack_b(const struct vnpu_gemm *g, s64 p0, s64 kc, s64 j0,
		      s64 nc, float *dst)
{
	const struct wq_plan *p = g->ctx;
	const s8 *w = p->w->data;
	s64 nr = g->nr, ncr = vnpu_gemm_roundup((u64)nc, (u64)nr);
	s64 r = p->w->strides[0], cs = p->w->strides[1], j;

	for (j = 0; j < ncr; j++) {
		float *d = dst + (j / nr) * kc * nr + j % nr;
		s64 n = j0 + j, q = 0;

		if (j >= nc) {
			for (q = 0; q < kc; q++)
				d[q * nr] = 0.0f;
			continue;
		}
		while (q < kc) {
			s64 kk = p0 + q, grp = kk / p->gs;
			s64 end = (grp + 1) * p->gs - p0;
			float sc, of = 0.0f;

			if (end > kc)
				end = kc;
			sc = vnpu_gemm_ld(p->s->data, p->s->dtype,
					  grp * p->s->strides[0] + n * p->s->strides[1]);
			if (p->off)
				of = vnpu_gemm_ld(p->off->data, p->off->dtype,
						  grp * p->off->strides[0] +
						  n * p->off->strides[1]);
			if (p->pack == WQ_INT4_K && !((p0 + q) & 1)) {
				/* whole bytes: two depth steps each */
				const s8 *b = w + ((p0 + q) >> 1) * r + n * cs;

				for (; q + 1 < end; q += 2, b += r) {
					d[q * nr] = ((float)wq_nib((u8)*b, 0) + of) * sc;
					d[(q + 1) * nr] = ((float)wq_nib((u8)*b, 1) + of) * sc;
				}
			} else if (p->pack == WQ_INT8) {
				const s8 *b = w + (p0 + q) * r + n * cs;

				for (; q < end; q++, b += r)
					d[q * nr] = ((float)*b + of) * sc;
			}
			for (; q < end; q++)
				d[q * nr] = ((float)wq_w(p, p0 + q, n) + of) * sc;
		}
	}
}

/*
 * Decoding (a few rows of x) with the weight contiguous along k, ggml's
 * layout: packing whole B panels for one row of output would cost as
 * much as the product, so these calls skip the engine and take dot
 * products down the weight's columns instead, decoding 8 weights at a
 * time into a vector once for every row of x. Per group g the sums of
 * x · w are scaled as one: sum_k x (w + off) s = s (sum_k x w + off
 * sum_k x), the sums of x per group taken once per piece.
 */
#define WQ_GEMV_ROWS	4
/* Scratch floats for x and its group sums: 2 MiB less the engine's. */
#define WQ_GEMV_FLOATS	(VNPU_OPS_SCRATCH / 4 - VNPU_GEMM_SCRATCH_FLOATS - \
			 VNPU_GEMM_MC * VNPU_GEMM_NC - 64)

#define WQ_VF8	float __attribute__((vector_size(32)))
#define WQ_VI8	s32 __attribute__((vector_size(32)))
#define WQ_VU8	u32 __attribute__((vector_size(32)))
#define WQ_VQ4	u64 __attribute__((vector_size(32)))

/*
 * A scale, offset or bias element: FLOAT16 converted inline (the library's
 * conversion is a call, and every scale of the weight is read once per
 * call here), rare Inf and NaN through the library.
 */
static __always_inline float wq_ld(const void *base, u32 dtype, s64 i)
{
	union { u32 u; float f; } v;
	u16 h;
	u32 e;

	if (dtype != DRM_VNPU_DTYPE_FLOAT16)
		return vnpu_gemm_ld(base, dtype, i);
	h = ((const u16 *)base)[i];
	e = (h >> 10) & 0x1f;
	if (e == 0x1f)
		return vnpu_f16_to_f32(h);
	if (e) {
		v.u = ((u32)(h & 0x8000) << 16) | ((e + 112) << 23) |
		      ((u32)(h & 0x3ff) << 13);
		return v.f;
	}
	v.f = (float)(h & 0x3ff) * (1.0f / 16777216);	/* 2^-24 */
	return h & 0x8000 ? -v.f : v.f;
}

static bool wq_gemv_ok(const struct wq_plan *p)
{
	s64 g = (p->k + p->gs - 1) / p->gs;

	return p->m <= WQ_GEMV_ROWS && p->w->strides[0] == 1 &&
	       (p->pack == WQ_INT8 || p->pack == WQ_INT4_K) &&
	       p->m * (p->k + 8 + g) <= WQ_GEMV_FLOATS;
}

/*
 * Weights k .. k + 7 of a column starting at @col, as floats, into @out.
 * Lanes are filled from whole words and sign-extended by a left shift
 * that puts the value at the top and an arithmetic right shift (vector
 * shifts; converting byte vectors directly compiles to scalar code).
 */
static __always_inline void wq_dec8(WQ_VF8 *out, const s8 *col, s64 k,
				    bool int4)
{
	WQ_VU8 u;

	if (int4) {	/* nibble l of the little-endian word is k + l */
		static const WQ_VU8 sh = { 28, 24, 20, 16, 12, 8, 4, 0 };
		u32 w0;

		__builtin_memcpy(&w0, col + k / 2, 4);
		u = (w0 + (WQ_VU8){}) << sh;	/* broadcast, shift */
		*out = __builtin_convertvector((WQ_VI8)u >> 28, WQ_VF8);
	} else {
		/*
		 * A broadcast 64-bit word: lanes alternate its halves, so
		 * they hold elements 0, 4, 1, 5, 2, 6, 3, 7; one shuffle
		 * puts them in order.
		 */
		static const WQ_VU8 sh = { 24, 24, 16, 16, 8, 8, 0, 0 };
		WQ_VF8 f;
		u64 q;

		WQ_VQ4 qv;

		__builtin_memcpy(&q, col + k, 8);
		qv = q + (WQ_VQ4){};	/* broadcast */
		u = (WQ_VU8)qv << sh;
		f = __builtin_convertvector((WQ_VI8)u >> 24, WQ_VF8);
		*out = __builtin_shufflevector(f, f, 0, 2, 4, 6, 1, 3, 5, 7);
	}
}

/*
 * Columns [j0, j0 + nc) of every row: @xf holds x's rows in fp32 (row
 * stride @xs), @xg their sums per group (row stride @gn) when there are
 * offsets.
 */
static __always_inline void wq_gemv_body(const struct wq_plan *p,
					 const struct vnpu_op_call *c,
					 const float *xf, s64 xs, const float *xg,
					 s64 gn, s64 j0, s64 nc, bool int4,
					 const int m)
{
	const s8 *w = p->w->data;
	s64 cs = p->w->strides[1], j, q, g;
	int i;
	u64 work = 0;

	for (j = j0; j < j0 + nc; j++) {
		const s8 *col = w + j * cs;
		WQ_VF8 tot[WQ_GEMV_ROWS] = { { 0 } };
		float tail[WQ_GEMV_ROWS] = { 0 };

		for (g = 0, q = 0; q < p->k; g++) {
			s64 end = q + p->gs < p->k ? q + p->gs : p->k;
			WQ_VF8 acc[WQ_GEMV_ROWS] = { { 0 } };
			float part[WQ_GEMV_ROWS] = { 0 }, sc, of = 0;

			sc = wq_ld(p->s->data, p->s->dtype,
				   g * p->s->strides[0] + j * p->s->strides[1]);
			if (p->off)
				of = wq_ld(p->off->data, p->off->dtype,
					   g * p->off->strides[0] +
					   j * p->off->strides[1]);
			/* a nibble pair straddling the group start: scalar */
			for (; q < end && int4 && (q & 1); q++)
#pragma GCC unroll 4
				for (i = 0; i < m; i++)
					part[i] += xf[i * xs + q] *
						   (float)wq_nib((u8)col[q / 2], 1);
			for (; q + 8 <= end; q += 8) {
				WQ_VF8 wv;

				wq_dec8(&wv, col, q, int4);

				for (i = 0; i < m; i++) {
					WQ_VF8 xv;

					__builtin_memcpy(&xv, xf + i * xs + q, sizeof(xv));
					acc[i] += xv * wv;
				}
			}
			for (; q < end; q++) {
				float wf = int4 ? (float)wq_nib((u8)col[q / 2], q & 1) :
						  (float)col[q];

#pragma GCC unroll 4
				for (i = 0; i < m; i++)
					part[i] += xf[i * xs + q] * wf;
			}
#pragma GCC unroll 4
			for (i = 0; i < m; i++) {
				tot[i] += acc[i] * sc;
				tail[i] += part[i] * sc;
				if (p->off)
					tail[i] += of * sc * xg[i * gn + g];
			}
		}
		for (i = 0; i < m; i++) {
			float v = tail[i];
			int l;

			for (l = 0; l < 8; l++)
				v += tot[i][l];
			if (p->bias)
				v += wq_ld(p->bias->data, p->bias->dtype,
						  j * p->bias->strides[0]);
			vnpu_gemm_st(p->o->data, p->o->dtype,
				     i * p->o->strides[0] + j * p->o->strides[1], v);
		}
		vnpu_op_beat_work(c, &work, (u64)(m * p->k));
	}
}

/* The body for @int4 with a constant row count (1 .. WQ_GEMV_ROWS). */
static __always_inline void wq_gemv_rows(const struct wq_plan *p,
					 const struct vnpu_op_call *c,
					 const float *xf, s64 xs, const float *xg,
					 s64 gn, s64 j0, s64 nc, bool int4)
{
	switch (p->m) {
	case 1:
		wq_gemv_body(p, c, xf, xs, xg, gn, j0, nc, int4, 1);
		break;
	case 2:
		wq_gemv_body(p, c, xf, xs, xg, gn, j0, nc, int4, 2);
		break;
	case 3:
		wq_gemv_body(p, c, xf, xs, xg, gn, j0, nc, int4, 3);
		break;
	default:
		wq_gemv_body(p, c, xf, xs, xg, gn, j0, nc, int4, 4);
		break;
	}
}

/*
 * One function per packing and instruction set: the four row counts of a
 * packing share a frame, and the two packings do not add up in one.
 */
#define WQ_GEMV_ARGS	const struct wq_plan *p, const struct vnpu_op_call *c, \
			const float *xf, s64 xs, const float *xg, s64 gn, \
			s64 j0, s64 nc

static noinline __attribute__((target("avx2,fma"))) void
wq_gemv_avx2_i4(WQ_GEMV_ARGS)
{
	wq_gemv_rows(p, c, xf, xs, xg, gn, j0, nc, true);
}

static noinline __attribute__((target("avx2,fma"))) void
wq_gemv_avx2_i8(WQ_GEMV_ARGS)
{
	wq_gemv_rows(p, c, xf, xs, xg, gn, j0, nc, false);
}

static noinline void wq_gemv_sse2_i4(WQ_GEMV_ARGS)
{
	wq_gemv_rows(p, c, xf, xs, xg, gn, j0, nc, true);
}

static noinline void wq_gemv_sse2_i8(WQ_GEMV_ARGS)
{
	wq_gemv_rows(p, c, xf, xs, xg, gn, j0, nc, false);
}

static void wq_gemv_avx2(const struct wq_plan *p, const struct vnpu_op_call *c,
			 const float *xf, s64 xs, const float *xg, s64 gn,
			 s64 j0, s64 nc)
{
	if (p->pack == WQ_INT4_K)
		wq_gemv_avx2_i4(p, c, xf, xs, xg, gn, j0, nc);
	else
		wq_gemv_avx2_i8(p, c, xf, xs, xg, gn, j0, nc);
}

static void wq_gemv_sse2(const struct wq_plan *p, const struct vnpu_op_call *c,
			 const float *xf, s64 xs, const float *xg, s64 gn,
			 s64 j0, s64 nc)
{
	if (p->pack == WQ_INT4_K)
		wq_gemv_sse2_i4(p, c, xf, xs, xg, gn, j0, nc);
	else
		wq_gemv_sse2_i8(p, c, xf, xs, xg, gn, j0, nc);
}

/* One piece of the decoding path: x in fp32, then the columns. */
static void wq_gemv(const struct wq_plan *p, const struct vnpu_op_call *c,
		    s64 j0, s64 nc)
{
	float *xf = (float *)c->scratch, *xg;
	s64 xs = vnpu_gemm_roundup((u64)p->k, 8), gn, i, q;

	gn = (p->k + p->gs - 1) / p->gs;
	xg = xf + p->m * xs;
	for (i = 0; i < p->m; i++)
		for (q = 0; q < p->k; q++)
			xf[i * xs + q] = wq_ld(p->x->data, p->x->dtype,
					       i * p->x->strides[0] +
					       q * p->x->strides[1]);
	for (i = 0; p->off && i < p->m; i++)
		for (q = 0; q < gn; q++) {
			s64 k, e = (q + 1) * p->gs < p->k ? (q + 1) * p->gs : p->k;
			float sum = 0;

			for (k = q * p->gs; k < e; k++)
				sum += xf[i * xs + k];
			xg[i * gn + q] = sum;
		}
	if (c->cpu & VNPU_CPU_AVX2_FMA)
		wq_gemv_avx2(p, c, xf, xs, xg, gn, j0, nc);
	else
		wq_gemv_sse2(p, c, xf, xs, xg, gn, j0, nc);
}

static void wq_run(const struct vnpu_op_call *c, u64 tile)
{
	float *scratch = c->scratch, *blk;
	s64 i0, j0, mc, nc, i, j, rsc;
	struct vnpu_gemm g;
	struct wq_plan p;
	bool direct;

	if (wq_plan(c, &p))
		return;
	i0 = (s64)(tile / (u64)p.tn) * p.mc;
	j0 = (s64)(tile % (u64)p.tn) * p.nc;
	mc = p.m - i0 < p.mc ? p.m - i0 : p.mc;
	nc = p.n - j0 < p.nc ? p.n - j0 : p.nc;
	if (wq_gemv_ok(&p)) {	/* m <= 4 < MC: a piece is all rows */
		wq_gemv(&p, c, j0, nc);
		return;
	}

	vnpu_gemm_init(&g, c->cpu);
	g.m = p.m;
	g.n = p.n;
	g.k = p.k;
	g.alpha = 1.0f;
	g.a = p.x->data;
	g.a_dtype = p.x->dtype;
	g.a_rs = p.x->strides[0];
	g.a_cs = p.x->strides[1];
	g.pack_b = wq_pack_b;
	g.ctx = &p;
	g.call = c;
	if (tile + 1 < (u64)p.tm * (u64)p.tn) {
		g.next_i0 = (s64)((tile + 1) / (u64)p.tn) * p.mc;
		g.next_j0 = (s64)((tile + 1) % (u64)p.tn) * p.nc;
	}

	direct = p.o->dtype == DRM_VNPU_DTYPE_FLOAT &&
		 (p.o->strides[1] == 1 || nc == 1);
	if (direct) {
		blk = (float *)p.o->data + i0 * p.o->strides[0] +
		      j0 * p.o->strides[1];
		rsc = p.o->strides[0];
	} else {
		blk = scratch + VNPU_GEMM_SCRATCH_FLOATS;
		rsc = nc;
	}
	/* The bias starts the sums, as GEMM's c does. */
	if (p.bias)
		for (i = 0; i < mc; i++)
			for (j = 0; j < nc; j++)
				blk[i * rsc + j] = vnpu_gemm_ld(p.bias->data, p.bias->dtype,
								(j0 + j) * p.bias->strides[0]);
	vnpu_gemm_block(&g, i0, mc, j0, nc, blk, rsc, !!p.bias, scratch);
	if (direct)
		return;
	for (i = 0; i < mc; i++)
		for (j = 0; j < nc; j++)
			vnpu_gemm_st(p.o->data, p.o->dtype,
				     (i0 + i) * p.o->strides[0] +
				     (j0 + j) * p.o->strides[1], blk[i * rsc + j]);
}

/*
 * No VNPU_OP_EMPTY_OK: CANN refuses empty tensors here, and so does the
 * library's shared rule (an empty x or weight next to a non-empty output).
 */
const struct vnpu_op_impl vnpu_ops_wq_matmul[] = {
	{ DRM_VNPU_OP_WQ_MATMUL, "wq_matmul", wq_check, wq_tiles, wq_run },
	{ 0 }
};
