// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The GEMM engine: packing and register-tiled micro-kernels (see
 * vnpu_gemm.h). Vectors are GCC vector extensions; the AVX2 and AVX-512
 * kernels carry target attributes and are chosen at run time.
 *
 * Packed A keeps rows (depth contiguous, row stride VNPU_GEMM_AS), so
 * packing a row-major A (matmul activations, convolution weights) is a
 * plain copy; the kernels broadcast one value of each row per depth step
 * and multiply it with NR packed values of B.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_gemm.h"

#define VF4	float __attribute__((vector_size(16)))
#define VF8	float __attribute__((vector_size(32)))
#define VF16	float __attribute__((vector_size(64)))

enum { KERN_SSE2, KERN_AVX2, KERN_AVX512 };

/**
 * struct gemm_pf_run - cache lines a kernel call prefetches
 * @row: the source row the next line is in
 * @rs: row stride of the source, in floats
 * @lines: lines per row
 * @line: the next line of @row
 * @count: lines to request
 */
struct gemm_pf_run {
	const float *row;
	s64 rs, lines, line, count;
};

/**
 * struct gemm_src - operands a kernel call packs as it goes (or NULL)
 * @a: row 0 of its rows of A at the panel's depth (row-major fp32)
 * @a_rs: row stride of A
 * @b: depth row 0 of its columns of B (row-major fp32)
 * @b_rs: row stride of B
 */
struct gemm_src {
	const float *a;
	s64 a_rs;
	const float *b;
	s64 b_rs;
};

/* AVX-512: 12 x 32, 24 zmm accumulators. */
#define TILE_VF		VF16
#define TILE_W		16
#define TILE_MR		12
#define TILE_ATTR	__attribute__((target("avx512f")))
#define TILE_FN		tile512
#define TILE_KERN	kern512
#include "vnpu_gemm_tile.h"

/* AVX2 + FMA: 6 x 16, 12 ymm accumulators. */
#define TILE_VF		VF8
#define TILE_W		8
#define TILE_MR		6
#define TILE_ATTR	__attribute__((target("avx2,fma")))
#define TILE_FN		tile256
#define TILE_KERN	kern256
#include "vnpu_gemm_tile.h"

/* SSE2 (always there on x86-64): 4 x 8. */
#define TILE_VF		VF4
#define TILE_W		4
#define TILE_MR		4
#define TILE_ATTR
#define TILE_FN		tile128
#define TILE_KERN	kern128
#include "vnpu_gemm_tile.h"

/* The tile of @rows (1 .. mr) rows of variant @which. */
static void kern_rows(u32 which, s64 rows, s64 kc, float *a, float *b,
		      float *c, s64 rsc, float alpha, bool acc,
		      const struct gemm_pf_run *pf, const struct gemm_src *src)
{
	switch (which) {
	case KERN_AVX512:
		kern512(rows, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	case KERN_AVX2:
		kern256(rows, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	default:
		kern128(rows, kc, a, b, c, rsc, alpha, acc, pf, src);
		break;
	}
}

static s64 min_s64(s64 a, s64 b)
{
	return a < b ? a : b;
}

/*
 * Rows of a source panel sit a page or more apart in a large matrix, where
 * the hardware prefetchers stop: the packers ask for the row this many
 * rows ahead of the one they copy.
 */
#define GEMM_PF_ROWS	4

/* Ask for @n floats from @s into the cache, one request per line. */
static void prefetch_f32(const float *s, s64 n)
{
	s64 i;

	for (i = 0; i < n; i += 16)
		__builtin_prefetch(s + i);
}

/* Copy @n floats; fixed-size chunks so that no library call is emitted. */
static void copy_f32(float *d, const float *s, s64 n)
{
	s64 i = 0;

	for (; i + 16 <= n; i += 16)
		__builtin_memcpy(d + i, s + i, 16 * sizeof(float));
	for (; i < n; i++)
		d[i] = s[i];
}

/*
 * Rows [i0, i0 + mc) of A at depth [p0, p0 + kc): row i at
 * dst + i * VNPU_GEMM_AS. Row-major fp32 is a copy per row, column-major
 * fp32 (a transposed operand) reads down its columns.
 */
static void pack_a_strided(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 p0,
			   s64 kc, float *dst)
{
	s64 base = i0 * g->a_rs + p0 * g->a_cs, i, p;

	if (g->a_dtype == DRM_VNPU_DTYPE_FLOAT && g->a_cs == 1) {
		const float *s = (const float *)g->a + base;

		for (i = 0; i < mc; i++) {
			if (i + GEMM_PF_ROWS < mc)
				prefetch_f32(s + (i + GEMM_PF_ROWS) * g->a_rs, kc);
			copy_f32(dst + i * VNPU_GEMM_AS, s + i * g->a_rs, kc);
		}
		return;
	}
	if (g->a_dtype == DRM_VNPU_DTYPE_FLOAT) {
		const float *s = (const float *)g->a + base;

		for (p = 0; p < kc; p++)
			for (i = 0; i < mc; i++)
				dst[i * VNPU_GEMM_AS + p] =
					s[i * g->a_rs + p * g->a_cs];
		return;
	}
	for (p = 0; p < kc; p++)
		for (i = 0; i < mc; i++)
			dst[i * VNPU_GEMM_AS + p] =
				vnpu_gemm_ld(g->a, g->a_dtype,
					     base + i * g->a_rs + p * g->a_cs);
}

/*
 * The full slivers of a row-major fp32 B, depth row by depth row (each
 * row read once, front to back): @full slivers of nr columns, nr a
 * constant in each case.
 */
static void pack_b_rows_f32(const float *s, s64 rs, u32 nr, s64 full, s64 kc,
			    float *d)
{
	s64 p, j;

	for (p = 0; p < kc; p++, s += rs) {
		float *dp = d + p * nr;

		if (p + GEMM_PF_ROWS < kc)
			prefetch_f32(s + GEMM_PF_ROWS * rs, full * nr);
		switch (nr) {
		case 32:
			for (j = 0; j < full; j++)
				__builtin_memcpy(dp + j * kc * 32, s + j * 32,
						 32 * sizeof(float));
			break;
		case 16:
			for (j = 0; j < full; j++)
				__builtin_memcpy(dp + j * kc * 16, s + j * 16,
						 16 * sizeof(float));
			break;
		default:
			for (j = 0; j < full; j++)
				__builtin_memcpy(dp + j * kc * 8, s + j * 8,
						 8 * sizeof(float));
			break;
		}
	}
}

static void pack_b_strided(const struct vnpu_gemm *g, s64 p0, s64 kc, s64 j0,
			   s64 nc, float *dst)
{
	u32 nr = g->nr;
	s64 s = 0, j, p;

	if (g->b_dtype == DRM_VNPU_DTYPE_FLOAT && g->b_cs == 1) {
		s = nc / nr * nr;
		pack_b_rows_f32((const float *)g->b + p0 * g->b_rs + j0,
				g->b_rs, nr, nc / nr, kc, dst);
		dst += s * kc;
	}
	for (; s < nc; s += nr, dst += kc * nr) {
		s64 cols = min_s64(nr, nc - s);
		s64 base = p0 * g->b_rs + (j0 + s) * g->b_cs;

		if (g->b_dtype == DRM_VNPU_DTYPE_FLOAT) {
			const float *src = (const float *)g->b + base;

			/* Along each column: contiguous for a transposed B. */
			for (j = 0; j < cols; j++)
				for (p = 0; p < kc; p++)
					dst[p * nr + j] = src[p * g->b_rs + j * g->b_cs];
			for (p = 0; p < kc; p++)
				for (j = cols; j < nr; j++)
					dst[p * nr + j] = 0;
			continue;
		}
		for (p = 0; p < kc; p++) {
			for (j = 0; j < cols; j++)
				dst[p * nr + j] =
					vnpu_gemm_ld(g->b, g->b_dtype,
						     base + p * g->b_rs + j * g->b_cs);
			for (; j < nr; j++)
				dst[p * nr + j] = 0;
		}
	}
}

void vnpu_gemm_init(struct vnpu_gemm *g, u32 cpu)
{
	if (cpu & VNPU_CPU_AVX512) {
		g->kern = KERN_AVX512;
		g->mr = 12;
		g->nr = 32;
	} else if (cpu & VNPU_CPU_AVX2_FMA) {
		g->kern = KERN_AVX2;
		g->mr = 6;
		g->nr = 16;
	} else {
		g->kern = KERN_SSE2;
		g->mr = 4;
		g->nr = 8;
	}
	g->pack_a = pack_a_strided;
	g->pack_b = pack_b_strided;
	g->act.kind = DRM_VNPU_ACT_NONE;
	g->next_i0 = -1;
	g->next_j0 = -1;
	g->call = NULL;
}

/**
 * vnpu_gemm_probe() - one micro-kernel call, for timing the variants
 * @cpu: VNPU_CPU_* bits: the variant is the one vnpu_gemm_init() picks
 * @buf: VNPU_GEMM_PROBE_FLOATS floats, any finite values
 *
 * Return: the floating-point operations the call did.
 */
u64 vnpu_gemm_probe(u32 cpu, float *buf)
{
	const s64 kc = VNPU_GEMM_PROBE_KC;
	struct gemm_pf_run pf = { 0 };
	struct gemm_src src = { 0 };
	struct vnpu_gemm g;
	float *b, *c;

	vnpu_gemm_init(&g, cpu);
	b = buf + g.mr * kc;
	c = b + kc * g.nr;
	kern_rows(g.kern, g.mr, kc, buf, b, c, g.nr, 1.0f, false, &pf, &src);
	return 2ull * g.mr * g.nr * kc;
}

int vnpu_act_get(const struct vnpu_op_call *c, struct vnpu_act *act)
{
	s64 kind = vnpu_attr_int(c, DRM_VNPU_ATTR_ACT, DRM_VNPU_ACT_NONE);

	act->kind = DRM_VNPU_ACT_NONE;
	act->lo = 0.0f;
	act->hi = 0.0f;
	switch (kind) {
	case DRM_VNPU_ACT_NONE:
	case DRM_VNPU_ACT_RELU:
		act->kind = (u32)kind;
		return 0;
	case DRM_VNPU_ACT_CLIP:
		act->lo = vnpu_attr_float(c, DRM_VNPU_ATTR_ACT_LO, 0.0f);
		act->hi = vnpu_attr_float(c, DRM_VNPU_ATTR_ACT_HI, 0.0f);
		/* Also false for a NaN bound. */
		if (!(act->lo <= act->hi))
			return -VNPU_OPS_EINVAL;
		act->kind = DRM_VNPU_ACT_CLIP;
		return 0;
	default:
		return -VNPU_OPS_EINVAL;
	}
}

/* A partial register tile from @tmp (row stride @nr) into C. */
static void gemm_store_part(float *c, s64 rsc, const float *tmp, u32 nr,
			    s64 rows, s64 cols, bool acc)
{
	s64 i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			c[i * rsc + j] = (acc ? c[i * rsc + j] : 0) +
					 tmp[i * nr + j];
}

/* The epilogue: activation over a stored rows x cols piece of C. */
static void gemm_act_tile(const struct vnpu_act *a, float *c, s64 rsc,
			  s64 rows, s64 cols)
{
	s64 i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++)
			c[i * rsc + j] = vnpu_act_apply(a, c[i * rsc + j]);
}

/*
 * Prefetching the next panel while the kernels work on this one: the
 * kernels leave the memory system idle, so the rows of A and B the next
 * pack reads are requested into L2 a few lines per kernel call, and the
 * pack then copies from L2 instead of waiting on L3 or DRAM. Only for the
 * default packers of row-major fp32 operands (their source is known).
 */
struct gemm_pf {
	const float *base[2];	/* row 0 of the next A and B panel */
	s64 rs[2];		/* their row strides */
	s64 rows[2];		/* rows to fetch */
	s64 lines[2];		/* lines per row */
	u32 t;			/* 0: A, 1: B, 2: done */
	s64 row, line;		/* the cursor */
	s64 per_call;		/* lines a kernel call requests */
};

static void gemm_pf_init(struct gemm_pf *pf, const struct vnpu_gemm *g,
			 s64 i0, s64 mc, s64 p1, s64 j0, s64 nc, s64 calls)
{
	s64 kc = min_s64(VNPU_GEMM_KC, g->k - p1), total = 0;
	u32 t;

	pf->t = 2;
	pf->per_call = 0;
	pf->rows[0] = 0;
	pf->rows[1] = 0;
	if (kc <= 0 && g->next_i0 >= 0 && g->next_j0 >= 0) {
		/* The last panel: the next block's first one instead. */
		i0 = g->next_i0;
		j0 = g->next_j0;
		mc = min_s64(mc, g->m - i0);
		nc = min_s64(nc, g->n - j0);
		p1 = 0;
		kc = min_s64(VNPU_GEMM_KC, g->k);
	}
	if (kc <= 0 || mc <= 0 || nc <= 0)
		return;
	if (g->pack_a == pack_a_strided && g->a_dtype == DRM_VNPU_DTYPE_FLOAT &&
	    g->a_cs == 1) {
		pf->base[0] = (const float *)g->a + i0 * g->a_rs + p1;
		pf->rs[0] = g->a_rs;
		pf->rows[0] = mc;
		pf->lines[0] = (kc + 15) / 16;
	}
	if (g->pack_b == pack_b_strided && g->b_dtype == DRM_VNPU_DTYPE_FLOAT &&
	    g->b_cs == 1) {
		pf->base[1] = (const float *)g->b + p1 * g->b_rs + j0;
		pf->rs[1] = g->b_rs;
		pf->rows[1] = kc;
		pf->lines[1] = (nc + 15) / 16;
	}
	for (t = 0; t < 2; t++)
		total += pf->rows[t] * pf->lines[t];
	pf->t = pf->rows[0] ? 0 : pf->rows[1] ? 1 : 2;
	pf->row = 0;
	pf->line = 0;
	/* One call spare: a call's run stops where A's rows end. */
	calls = calls > 1 ? calls - 1 : 1;
	pf->per_call = (total + calls - 1) / calls;
}

/*
 * The next kernel call's share of the prefetches, as a run of lines for
 * the kernel to request along its depth loop: at most @slots lines, and
 * never past the end of the current source (A's rows, then B's).
 */
static void gemm_pf_take(struct gemm_pf *pf, struct gemm_pf_run *run,
			 s64 slots)
{
	s64 left, lines;

	run->count = 0;
	if (pf->t >= 2)
		return;
	lines = pf->lines[pf->t];
	left = (pf->rows[pf->t] - pf->row) * lines - pf->line;
	run->row = pf->base[pf->t] + pf->row * pf->rs[pf->t];
	run->rs = pf->rs[pf->t];
	run->lines = lines;
	run->line = pf->line;
	run->count = min_s64(min_s64(pf->per_call, slots), left);
	if (run->count < 0)
		run->count = 0;
	if (run->count < left) {
		pf->line += run->count;
		pf->row += pf->line / lines;
		pf->line %= lines;
		return;
	}
	pf->row = 0;
	pf->line = 0;
	pf->t = pf->t == 0 && pf->rows[1] ? 1 : 2;
}

void vnpu_gemm_block(const struct vnpu_gemm *g, s64 i0, s64 mc, s64 j0,
		     s64 nc, float *c, s64 rsc, bool accumulate,
		     float *scratch)
{
	float *ap = scratch;
	float *bp = ap + VNPU_GEMM_MC * VNPU_GEMM_AS;
	float *tmp = bp + VNPU_GEMM_KC * VNPU_GEMM_NC;
	u32 mr = g->mr, nr = g->nr;
	s64 p0, ir, jr, i, j;
	/* Multiply-adds since the last heartbeat. */
	u64 work = 0;
	/* Row-major fp32 operands pack inside the kernel calls. */
	bool fuse_a = g->pack_a == pack_a_strided &&
		      g->a_dtype == DRM_VNPU_DTYPE_FLOAT && g->a_cs == 1;
	bool fuse_b = g->pack_b == pack_b_strided &&
		      g->b_dtype == DRM_VNPU_DTYPE_FLOAT && g->b_cs == 1;

	if (g->k <= 0) {
		if (!accumulate)
			for (i = 0; i < mc; i++)
				for (j = 0; j < nc; j++)
					c[i * rsc + j] = 0;
		if (g->act.kind != DRM_VNPU_ACT_NONE)
			gemm_act_tile(&g->act, c, rsc, mc, nc);
		return;
	}
	for (p0 = 0; p0 < g->k; p0 += VNPU_GEMM_KC) {
		s64 kc = min_s64(VNPU_GEMM_KC, g->k - p0);
		bool acc = accumulate || p0;
		/* The last panel finishes each tile: activate it in cache. */
		bool act = g->act.kind != DRM_VNPU_ACT_NONE &&
			   p0 + kc >= g->k;

		/* Lines of C a kernel call prefetches per row of its tile. */
		s64 row_lines = (nr + 15) / 16;
		struct gemm_pf_run run;
		struct gemm_pf pf;
		struct gemm_src src;
		bool fa = fuse_a && !(kc & 15), fb = fuse_b && !(nc % nr);

		if (!fa)
			g->pack_a(g, i0, mc, p0, kc, ap);
		if (!fb)
			g->pack_b(g, p0, kc, j0, nc, bp);
		gemm_pf_init(&pf, g, i0, mc, p0 + kc, j0, nc,
			     ((mc + mr - 1) / mr) * ((nc + nr - 1) / nr));
		src.a_rs = g->a_rs;
		src.b_rs = g->b_rs;
		/* A sliver stays in L1 while the B panel streams from L2. */
		for (ir = 0; ir < mc; ir += mr) {
			s64 mre = min_s64(mr, mc - ir);
			float *as = ap + ir * VNPU_GEMM_AS;

			for (jr = 0; jr < nc; jr += nr) {
				float *bs = bp + (jr / nr) * kc * nr;
				s64 nre = min_s64(nr, nc - jr);
				float *cc = c + ir * rsc + jr;

				gemm_pf_take(&pf, &run, (kc - mre * row_lines) / 2);
				/*
				 * The first call of each row sliver packs its
				 * A, the first row sliver packs B.
				 */
				src.a = fa && !jr ? (const float *)g->a +
					(i0 + ir) * g->a_rs + p0 : NULL;
				src.b = fb && !ir ? (const float *)g->b +
					p0 * g->b_rs + j0 + jr : NULL;
				if (nre == nr) {
					kern_rows(g->kern, mre, kc, as, bs, cc,
						  rsc, g->alpha, acc, &run,
						  &src);
				} else {
					kern_rows(g->kern, mre, kc, as, bs, tmp,
						  nr, g->alpha, false, &run,
						  &src);
					gemm_store_part(cc, rsc, tmp, nr, mre,
							nre, acc);
				}
				if (act)
					gemm_act_tile(&g->act, cc, rsc, mre,
						      nre);
			}
			/* A block is up to seconds of emulated work. */
			vnpu_op_beat_work(g->call, &work, (u64)(mre * nc * kc));
		}
	}
}
