// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of MATMUL and GEMM against a naive double reference: odd
 * sizes, transposes, strided inputs and outputs, batch broadcasting, 1-D
 * operands, alpha/beta/bias, fp16/bf16, every micro-kernel variant, and
 * check() rejections.
 *
 * Tolerance: |got - want| <= rtol * sqrt(k + 1) * S + dtype rounding * S,
 * where S = sum |alpha a b| + |beta c| (the magnitude of the terms),
 * rtol = 1e-6 for fp32 (one ulp is 6e-8); fp16 and bf16 add their rounding
 * of the stored output (1e-3, 8e-3) relative to S.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

/* Layouts of a test matrix's last two dims. */
enum { L_CONTIG, L_PADDED, L_COLSTRIDE2, L_COLMAJOR, L_NLAYOUTS };

/*
 * A tensor of @shape whose last two dims (or one) have layout @lay, over a
 * private buffer big enough for it.
 */
static void mk(struct ot_tensor *t, u32 dtype, u32 rank, const s64 *shape,
	       int lay)
{
	s64 inner, outer, stride;
	int d;

	ot_make(t, dtype, rank, shape);
	if (lay == L_CONTIG || rank == 0)
		return;
	free(t->buf);
	inner = shape[rank - 1];
	outer = rank >= 2 ? shape[rank - 2] : 1;
	switch (lay) {
	case L_PADDED:
		t->v.strides[rank - 1] = 1;
		if (rank >= 2)
			t->v.strides[rank - 2] = inner + 5;
		stride = (inner + 5) * (outer ? outer : 1);
		break;
	case L_COLSTRIDE2:
		t->v.strides[rank - 1] = 2;
		if (rank >= 2)
			t->v.strides[rank - 2] = 2 * inner + 3;
		stride = (2 * inner + 3) * (outer ? outer : 1);
		break;
	default:		/* column-major last two dims */
		t->v.strides[rank - 1] = rank >= 2 ? (outer ? outer : 1) : 1;
		if (rank >= 2)
			t->v.strides[rank - 2] = 1;
		stride = (inner ? inner : 1) * (outer ? outer : 1);
		break;
	}
	for (d = (int)rank - 3; d >= 0; d--) {
		t->v.strides[d] = stride;
		stride *= shape[d] ? shape[d] : 1;
	}
	t->bytes = (size_t)stride * vnpu_dtype_size(dtype) + 64;
	t->buf = calloc(1, t->bytes);
	t->v.data = t->buf;
}

static double get_at(const struct ot_tensor *t, const s64 *idx)
{
	return ot_get(t, idx);
}

/* Tolerance factor of the stored dtype. */
static double out_rtol(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_FLOAT ? 0 : ot_tolerance(dtype);
}

struct mm_case {
	u32 dtype;
	u32 ar, br;		/* ranks */
	s64 ash[VNPU_OPS_MAX_RANK], bsh[VNPU_OPS_MAX_RANK];
	int ta, tb;
	int alay, blay, olay;
	int has_c;
	u32 cr;
	s64 csh[VNPU_OPS_MAX_RANK];
	float alpha, beta;
	int gemm;
	u32 cpu;
};

/* Run one case and compare every output element with the reference. */
static int run_case(struct __test_metadata *_metadata, const struct mm_case *mc)
{
	struct ot_tensor a, b, cc, o;
	struct ot_tensor *ts[4];
	struct drm_vnpu_op_attrs at;
	s64 osh[VNPU_OPS_MAX_RANK], m, n, k, nb, an, bn, d;
	s64 ashape[VNPU_OPS_MAX_RANK], bshape[VNPU_OPS_MAX_RANK];
	u32 orank, nin = 2;
	int a_vec = mc->ar == 1, b_vec = mc->br == 1;
	u64 total, e;
	int bad = 0;

	memcpy(ashape, mc->ash, sizeof(ashape));
	memcpy(bshape, mc->bsh, sizeof(bshape));
	/* Logical m, k, n from the (possibly transposed) stored shapes. */
	if (a_vec) {
		m = 1;
		k = ashape[0];
	} else {
		m = mc->ta ? ashape[mc->ar - 1] : ashape[mc->ar - 2];
		k = mc->ta ? ashape[mc->ar - 2] : ashape[mc->ar - 1];
	}
	n = b_vec ? 1 : (mc->tb ? bshape[mc->br - 2] : bshape[mc->br - 1]);
	an = a_vec ? 0 : mc->ar - 2;
	bn = b_vec ? 0 : mc->br - 2;
	nb = an > bn ? an : bn;
	for (d = 0; d < nb; d++) {
		s64 sa = d >= nb - an ? ashape[d - (nb - an)] : 1;
		s64 sb = d >= nb - bn ? bshape[d - (nb - bn)] : 1;

		osh[d] = sa == 1 ? sb : sa;
	}
	orank = nb;
	if (!a_vec)
		osh[orank++] = m;
	if (!b_vec)
		osh[orank++] = n;

	mk(&a, mc->dtype, mc->ar, ashape, mc->alay);
	mk(&b, mc->dtype, mc->br, bshape, mc->blay);
	mk(&o, mc->dtype, orank, osh, mc->olay);
	ot_fill(&a, 11 + m, -1, 1);
	ot_fill(&b, 13 + n, -1, 1);
	/* Poison the output: nothing may read it. */
	memset(o.buf, 0xff, o.bytes);
	ts[0] = &a;
	ts[1] = &b;
	if (mc->has_c) {
		mk(&cc, mc->dtype, mc->cr, mc->csh, L_CONTIG);
		ot_fill(&cc, 17, -2, 2);
		ts[nin++] = &cc;
	}
	ts[nin] = &o;
	memset(&at, 0, sizeof(at));
	at.ints[0] = mc->ta;
	at.ints[1] = mc->tb;
	memcpy(&at.floats[0], &mc->alpha, 4);
	memcpy(&at.floats[1], &mc->beta, 4);
	EXPECT_EQ(0, ot_run(mc->gemm ? DRM_VNPU_OP_GEMM : DRM_VNPU_OP_MATMUL,
			    ts, nin, 1, &at, mc->cpu));

	total = vnpu_tview_elems(&o.v);
	for (e = 0; e < total && !bad; e++) {
		s64 oi[VNPU_OPS_MAX_RANK], ai[VNPU_OPS_MAX_RANK];
		s64 bi[VNPU_OPS_MAX_RANK], ci[VNPU_OPS_MAX_RANK];
		s64 i, j, p, rem = (s64)e;
		double want = 0, mag = 0, got, tol;

		for (d = orank; d-- > 0;) {
			oi[d] = rem % osh[d];
			rem /= osh[d];
		}
		i = a_vec ? 0 : oi[nb];
		j = b_vec ? 0 : oi[orank - 1];
		for (d = 0; d < an; d++)
			ai[d] = ashape[d] == 1 ? 0 : oi[d + nb - an];
		for (d = 0; d < bn; d++)
			bi[d] = bshape[d] == 1 ? 0 : oi[d + nb - bn];
		for (p = 0; p < k; p++) {
			double x, y;

			if (a_vec) {
				ai[0] = p;
			} else {
				ai[an] = mc->ta ? p : i;
				ai[an + 1] = mc->ta ? i : p;
			}
			if (b_vec) {
				bi[0] = p;
			} else {
				bi[bn] = mc->tb ? j : p;
				bi[bn + 1] = mc->tb ? p : j;
			}
			x = get_at(&a, ai);
			y = get_at(&b, bi);
			want += x * y;
			mag += fabs(x * y);
		}
		want *= mc->alpha;
		mag *= fabs(mc->alpha);
		if (mc->has_c && mc->beta != 0) {
			for (d = 0; d < (s64)mc->cr; d++)
				ci[d] = mc->csh[d] == 1 ? 0 :
					oi[d + orank - mc->cr];
			want += mc->beta * get_at(&cc, ci);
			mag += fabs(mc->beta * get_at(&cc, ci));
		}
		got = ot_get(&o, oi);
		tol = 1e-6 * sqrt((double)k + 1) * mag + out_rtol(mc->dtype) * mag +
		      1e-30;
		if (!(fabs(got - want) <= tol)) {
			bad = 1;
			TH_LOG("m %lld n %lld k %lld ta %d tb %d lay %d/%d/%d cpu %u dtype %u: elem %llu got %.9g want %.9g",
			       (long long)m, (long long)n, (long long)k, mc->ta,
			       mc->tb, mc->alay, mc->blay, mc->olay, mc->cpu,
			       mc->dtype, (unsigned long long)e, got, want);
		}
	}
	EXPECT_EQ(0, bad);
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
	if (mc->has_c)
		ot_free(&cc);
	return bad;
}

/* A 2-D product (m x k) @ (k x n), stored shapes following the transposes. */
static void set_2d(struct mm_case *mc, s64 m, s64 n, s64 k, int ta, int tb)
{
	mc->ar = 2;
	mc->br = 2;
	mc->ta = ta;
	mc->tb = tb;
	mc->ash[0] = ta ? k : m;
	mc->ash[1] = ta ? m : k;
	mc->bsh[0] = tb ? n : k;
	mc->bsh[1] = tb ? k : n;
}

static u32 cpus[3];

static void init_cpus(void)
{
	u32 host = vnpu_ops_host_cpu();

	cpus[0] = host;
	cpus[1] = host & VNPU_CPU_AVX2_FMA;
	cpus[2] = 0;
}

TEST(matmul_odd_sizes_all_kernels)
{
	static const s64 sz[] = { 1, 7, 17, 33, 100, 257 };
	int mi, ni, ki, v, fails = 0;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (mi = 0; mi < 6; mi++)
			for (ni = 0; ni < 6; ni++)
				for (ki = 0; ki < 6; ki++) {
					struct mm_case mc = {
						.dtype = DRM_VNPU_DTYPE_FLOAT,
						.alpha = 1, .cpu = cpus[v],
					};

					if (v && (sz[mi] * sz[ni] * sz[ki] > 300000))
						continue;
					set_2d(&mc, sz[mi], sz[ni], sz[ki], 0, 0);
					fails += run_case(_metadata, &mc);
					if (fails)
						return;
				}
}

/*
 * The probe the module times at load (simd=auto) is one real micro-kernel
 * call: with every operand 1.0 each element of its C is the depth, and it
 * reports the flops of its variant's tile.
 */
TEST(gemm_probe_computes_each_variant)
{
	static const u64 tile[3][2] = { { 12, 32 }, { 6, 16 }, { 4, 8 } };
	static const u32 feats[3] = { VNPU_CPU_AVX512 | VNPU_CPU_AVX2_FMA,
				      VNPU_CPU_AVX2_FMA, 0 };
	static float buf[VNPU_GEMM_PROBE_FLOATS];
	const u64 kc = VNPU_GEMM_PROBE_KC;
	u32 host = vnpu_ops_host_cpu();
	int v, tested = 0;
	u64 i;

	for (v = 0; v < 3; v++) {
		u64 mr = tile[v][0], nr = tile[v][1];
		float *c = buf + mr * kc + kc * nr;

		if ((feats[v] & host) != feats[v])
			continue;
		for (i = 0; i < VNPU_GEMM_PROBE_FLOATS; i++)
			buf[i] = 1.0f;
		EXPECT_EQ(2 * mr * nr * kc, vnpu_gemm_probe(feats[v], buf));
		for (i = 0; i < mr * nr; i++)
			if (c[i] != (float)kc)
				break;
		EXPECT_EQ(mr * nr, i);
		tested++;
	}
	EXPECT_LE(1, tested);
}

TEST(matmul_transposes_and_layouts)
{
	static const s64 sz[][3] = {
		{ 7, 17, 33 }, { 100, 33, 257 }, { 33, 100, 17 }, { 257, 7, 100 },
		{ 1, 257, 33 },
	};
	int s, ta, tb, al, bl, ol, v;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (s = 0; s < 5; s++)
			for (ta = 0; ta < 2; ta++)
				for (tb = 0; tb < 2; tb++)
					for (al = 0; al < L_NLAYOUTS; al++) {
						struct mm_case mc = {
							.dtype = DRM_VNPU_DTYPE_FLOAT,
							.alpha = 1, .cpu = cpus[v],
						};

						bl = (al + ta + 2 * tb) % L_NLAYOUTS;
						ol = (al + s) % 3;
						set_2d(&mc, sz[s][0], sz[s][1],
						       sz[s][2], ta, tb);
						mc.alay = al;
						mc.blay = bl;
						mc.olay = ol;
						if (run_case(_metadata, &mc))
							return;
					}
}

/*
 * Every row count of every micro-kernel (edge rows run a kernel of fewer
 * rows: 1..12 with AVX-512, 1..6 with AVX2, 1..4 with SSE2), within one
 * block and past the end of a 256-row block, against column counts around
 * the register tile (8, 16, 32 wide) and depths of 1, one panel and a
 * panel and a bit: plain, transposed and strided operands, and GEMM with
 * alpha and an accumulated bias.
 */
TEST(matmul_tile_edges_all_kernels)
{
	static const s64 ms[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
				  23, 25, 257, 263 };
	static const s64 ns[] = { 1, 15, 32, 33, 70 };
	static const s64 ks[] = { 1, 256, 259 };
	unsigned int mi, ni, ki;
	int v, t = 0;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (mi = 0; mi < ARRAY_SIZE(ms); mi++)
			for (ni = 0; ni < ARRAY_SIZE(ns); ni++)
				for (ki = 0; ki < ARRAY_SIZE(ks); ki++, t++) {
					struct mm_case mc = {
						.dtype = DRM_VNPU_DTYPE_FLOAT,
						.alpha = 1, .cpu = cpus[v],
					};

					/* The big blocks at one depth only. */
					if (ms[mi] > 100 && ki != 2)
						continue;
					set_2d(&mc, ms[mi], ns[ni], ks[ki], t % 5 == 1,
					       t % 7 == 3);
					mc.alay = t % L_NLAYOUTS;
					mc.blay = (t / 3) % L_NLAYOUTS;
					mc.olay = t % 3;
					if (t % 4 == 2) {
						mc.gemm = 1;
						mc.alpha = -0.5f;
						mc.beta = 2.0f;
						mc.has_c = 1;
						mc.cr = 2;
						mc.csh[0] = ms[mi];
						mc.csh[1] = ns[ni];
					}
					ASSERT_EQ(0, run_case(_metadata, &mc));
				}
}

/*
 * Row-major fp32 operands are packed by the kernel calls themselves (A's
 * rows by the first call of each row sliver when the panel depth is a
 * multiple of 16, B by the first row sliver when the columns fill whole
 * slivers), everything else by the packers. Mix the two: depths of one
 * and two short 16-deep panels and a panel plus 16, column counts that
 * fill 16- and 32-wide slivers or not, a partial last row sliver, row
 * padding, a transposed operand, GEMM's accumulated bias.
 */
TEST(matmul_packing_in_kernel_edges)
{
	static const s64 ms[] = { 1, 12, 13, 25, 257 };
	static const s64 ns[] = { 16, 32, 48, 64, 96 };
	static const s64 ks[] = { 16, 32, 272, 528 };
	unsigned int mi, ni, ki;
	int v, t = 0;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (mi = 0; mi < ARRAY_SIZE(ms); mi++)
			for (ni = 0; ni < ARRAY_SIZE(ns); ni++)
				for (ki = 0; ki < ARRAY_SIZE(ks); ki++, t++) {
					struct mm_case mc = {
						.dtype = DRM_VNPU_DTYPE_FLOAT,
						.alpha = 1, .cpu = cpus[v],
					};

					if (ms[mi] > 100 && ks[ki] > 300)
						continue;
					set_2d(&mc, ms[mi], ns[ni], ks[ki], t % 5 == 4,
					       t % 7 == 6);
					/* Mostly contiguous or padded rows. */
					mc.alay = t % 3 ? t % 2 : L_COLSTRIDE2;
					mc.blay = (t / 2) % 2;
					mc.olay = t % 3;
					if (t % 4 == 1) {
						mc.gemm = 1;
						mc.alpha = 0.75f;
						mc.beta = -1.5f;
						mc.has_c = 1;
						mc.cr = 2;
						mc.csh[0] = ms[mi];
						mc.csh[1] = ns[ni];
					}
					ASSERT_EQ(0, run_case(_metadata, &mc));
				}
}

/*
 * Large products split into pieces, once per CPU variant: one test per
 * variant, so that each stays well inside the harness's 30 s on a loaded
 * machine (the naive reference dominates).
 */
static void large_spans_pieces(struct __test_metadata *_metadata, int v)
{
	struct mm_case mc = { .dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 1 };

	init_cpus();
	mc.cpu = cpus[v];
	set_2d(&mc, 530, 600, 700, 0, 0);
	ASSERT_EQ(0, run_case(_metadata, &mc));
	set_2d(&mc, 300, 270, 5000, 1, 1);	/* deep: smaller pieces */
	ASSERT_EQ(0, run_case(_metadata, &mc));
}

TEST(matmul_large_spans_pieces_variant0)
{
	large_spans_pieces(_metadata, 0);
}

TEST(matmul_large_spans_pieces_variant1)
{
	large_spans_pieces(_metadata, 1);
}

TEST(matmul_large_spans_pieces_variant2)
{
	large_spans_pieces(_metadata, 2);
}

TEST(matmul_batch_broadcast)
{
	struct mm_case mc = {
		.dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 1, .ar = 4, .br = 3,
		.ash = { 2, 1, 17, 33 }, .bsh = { 3, 33, 20 },
	};

	mc.cpu = vnpu_ops_host_cpu();
	ASSERT_EQ(0, run_case(_metadata, &mc));
	mc.ta = 1;
	mc.tb = 1;
	mc.ash[2] = 33;
	mc.ash[3] = 17;
	mc.bsh[1] = 20;
	mc.bsh[2] = 33;
	mc.alay = L_PADDED;
	mc.olay = L_COLSTRIDE2;
	ASSERT_EQ(0, run_case(_metadata, &mc));
}

TEST(matmul_batch_shared_operand)
{
	/* b shared by every batch entry of a; a broadcast against b. */
	struct mm_case m2 = {
		.dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 1, .ar = 3,
		.br = 2, .ash = { 5, 40, 64 }, .bsh = { 64, 48 },
		.cpu = vnpu_ops_host_cpu(),
	};
	struct mm_case m3 = {
		.dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 1, .ar = 2,
		.br = 4, .ash = { 9, 12 }, .bsh = { 2, 3, 12, 31 },
		.cpu = 0,
	};

	ASSERT_EQ(0, run_case(_metadata, &m2));
	ASSERT_EQ(0, run_case(_metadata, &m3));
}

TEST(matmul_vectors)
{
	struct mm_case mc = { .dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 1 };

	mc.cpu = vnpu_ops_host_cpu();
	mc.ar = 1;		/* [k] @ [k, n] -> [n] */
	mc.br = 2;
	mc.ash[0] = 37;
	mc.bsh[0] = 37;
	mc.bsh[1] = 50;
	ASSERT_EQ(0, run_case(_metadata, &mc));
	mc.ar = 2;		/* [m, k] @ [k] -> [m] */
	mc.br = 1;
	mc.ash[0] = 45;
	mc.ash[1] = 37;
	mc.bsh[0] = 37;
	ASSERT_EQ(0, run_case(_metadata, &mc));
	mc.ar = 1;		/* [k] @ [k] -> [] */
	mc.ash[0] = 37;
	mc.alay = L_COLSTRIDE2;
	ASSERT_EQ(0, run_case(_metadata, &mc));
	mc.ar = 1;		/* [k] @ [2, k, n] -> [2, n] */
	mc.br = 3;
	mc.bsh[0] = 2;
	mc.bsh[1] = 37;
	mc.bsh[2] = 9;
	ASSERT_EQ(0, run_case(_metadata, &mc));
}

TEST(gemm_alpha_beta_bias)
{
	static const struct {
		u32 cr;
		s64 csh[2];
	} biases[] = {
		{ 1, { 40 } }, { 2, { 30, 1 } }, { 2, { 30, 40 } }, { 1, { 1 } },
		{ 0, { 0 } }, { 2, { 1, 40 } },
	};
	unsigned int i;
	int v;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (i = 0; i < ARRAY_SIZE(biases); i++) {
			struct mm_case mc = {
				.dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 0.75f,
				.beta = -1.5f, .gemm = 1, .has_c = 1,
				.cr = biases[i].cr, .cpu = cpus[v],
			};

			memcpy(mc.csh, biases[i].csh, sizeof(mc.csh));
			set_2d(&mc, 30, 40, 300, i & 1, (i >> 1) & 1);
			mc.olay = i % 3;
			ASSERT_EQ(0, run_case(_metadata, &mc));
		}
	/* GEMM without c, and k = 0 (the result is beta * c only). */
	{
		struct mm_case mc = {
			.dtype = DRM_VNPU_DTYPE_FLOAT, .alpha = 2, .beta = 3,
			.gemm = 1, .cpu = vnpu_ops_host_cpu(),
		};

		set_2d(&mc, 20, 70, 33, 0, 1);
		ASSERT_EQ(0, run_case(_metadata, &mc));
		set_2d(&mc, 20, 70, 0, 0, 0);
		ASSERT_EQ(0, run_case(_metadata, &mc));
		mc.has_c = 1;
		mc.cr = 2;
		mc.csh[0] = 20;
		mc.csh[1] = 70;
		ASSERT_EQ(0, run_case(_metadata, &mc));
	}
}

TEST(gemm_beta_zero_ignores_c)
{
	struct ot_tensor a, b, cc, o;
	struct ot_tensor *ts[4] = { &a, &b, &cc, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 sa[2] = { 3, 4 }, sb[2] = { 4, 5 }, so[2] = { 3, 5 };
	float one = 1, zero = 0, nan = NAN;
	s64 i;

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 2, sa);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 2, sb);
	ot_make(&cc, DRM_VNPU_DTYPE_FLOAT, 2, so);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, so);
	ot_fill(&a, 1, -1, 1);
	ot_fill(&b, 2, -1, 1);
	for (i = 0; i < 15; i++)
		((float *)cc.buf)[i] = nan;
	memcpy(&at.floats[0], &one, 4);
	memcpy(&at.floats[1], &zero, 4);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GEMM, ts, 3, 1, &at, vnpu_ops_host_cpu()));
	for (i = 0; i < 15; i++)
		ASSERT_FALSE(isnan(((float *)o.buf)[i]));
	ot_free(&a);
	ot_free(&b);
	ot_free(&cc);
	ot_free(&o);
}

TEST(matmul_fp16_bf16)
{
	static const u32 dts[] = { DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16 };
	unsigned int i;
	int v;

	init_cpus();
	for (i = 0; i < 2; i++)
		for (v = 0; v < 3; v += 2) {
			struct mm_case mc = {
				.dtype = dts[i], .alpha = 1, .cpu = cpus[v],
			};
			struct mm_case g = {
				.dtype = dts[i], .alpha = 0.5f, .beta = 2,
				.gemm = 1, .has_c = 1, .cr = 1, .csh = { 33 },
				.cpu = cpus[v],
			};

			set_2d(&mc, 17, 33, 100, 0, 1);
			ASSERT_EQ(0, run_case(_metadata, &mc));
			set_2d(&mc, 100, 7, 257, 1, 0);
			mc.alay = L_PADDED;
			ASSERT_EQ(0, run_case(_metadata, &mc));
			set_2d(&g, 40, 33, 64, 0, 0);
			ASSERT_EQ(0, run_case(_metadata, &g));
		}
}

static int try_call(u32 op, u32 dt, u32 ar, const s64 *ash, u32 br,
		    const s64 *bsh, u32 orank, const s64 *osh,
		    const struct drm_vnpu_op_attrs *at, u32 odt)
{
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	int ret;

	ot_make(&a, dt, ar, ash);
	ot_make(&b, dt, br, bsh);
	ot_make(&o, odt, orank, osh);
	ret = ot_run(op, ts, 2, 1, at, 0);
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
	return ret;
}

/*
 * Fused activations of MATMUL and GEMM (with a bias), for every dtype and
 * micro-kernel: the output with RELU or CLIP equals the activation of the
 * output without it, bit for bit. The depth spans two packed panels (the
 * activation belongs after the last one only) and m, n leave partial
 * register tiles; a padded output takes the path through scratch.
 */
TEST(matmul_gemm_fused_activations)
{
	static const u32 dts[3] = { DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16,
				    DRM_VNPU_DTYPE_BF16 };
	static const int acts[2] = { DRM_VNPU_ACT_RELU, DRM_VNPU_ACT_CLIP };
	const s64 ash[2] = { 23, 300 }, bsh[2] = { 300, 37 }, csh[1] = { 37 };
	const s64 osh[2] = { 23, 37 };
	int v, d, a, gemm, lay;

	init_cpus();
	for (v = 0; v < 3; v++)
	for (d = 0; d < 3; d++)
	for (gemm = 0; gemm < 2; gemm++)
	for (lay = 0; lay < 2; lay++)
	for (a = 0; a < 2; a++) {
		struct ot_tensor x, y, c, plain, fused;
		struct ot_tensor *ts[4] = { &x, &y, &c, &plain };
		struct drm_vnpu_op_attrs at = { 0 };
		u32 op = gemm ? DRM_VNPU_OP_GEMM : DRM_VNPU_OP_MATMUL;
		u32 nin = gemm ? 3 : 2;
		float alpha = 0.75f, beta = -1.5f;
		long changed;

		mk(&x, dts[d], 2, ash, L_CONTIG);
		mk(&y, dts[d], 2, bsh, L_CONTIG);
		mk(&c, dts[d], 1, csh, L_CONTIG);
		mk(&plain, dts[d], 2, osh, lay ? L_PADDED : L_CONTIG);
		mk(&fused, dts[d], 2, osh, lay ? L_PADDED : L_CONTIG);
		ot_fill(&x, 5 + d, -0.2, 0.2);
		ot_fill(&y, 7 + v, -0.2, 0.2);
		ot_fill(&c, 9, -1, 1);
		memset(fused.buf, 0xff, fused.bytes);
		if (gemm) {
			memcpy(&at.floats[0], &alpha, 4);
			memcpy(&at.floats[1], &beta, 4);
		}
		ts[nin] = &plain;
		ASSERT_EQ(0, ot_run(op, ts, nin, 1, &at, cpus[v]));
		ot_set_act(&at, acts[a], -0.5f, 0.75f);
		ts[nin] = &fused;
		ASSERT_EQ(0, ot_run(op, ts, nin, 1, &at, cpus[v]));
		changed = ot_act_compare(&plain, &fused, acts[a], -0.5f, 0.75f);
		EXPECT_LT(0, changed)
			TH_LOG("op %u dtype %u cpu %u layout %d act %d: %ld",
			       op, dts[d], cpus[v], lay, acts[a], changed);
		EXPECT_GT(23 * 37, changed);
		ot_free(&x);
		ot_free(&y);
		ot_free(&c);
		ot_free(&plain);
		ot_free(&fused);
	}
}

/* An empty depth: the activation of the bias alone (beta * c). */
TEST(gemm_fused_activation_empty_depth)
{
	const s64 ash[2] = { 5, 0 }, bsh[2] = { 0, 6 }, csh[2] = { 5, 6 };
	struct ot_tensor x, y, c, o;
	struct ot_tensor *ts[4] = { &x, &y, &c, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	float alpha = 1, beta = 2;
	s64 i, j;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, ash);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, bsh);
	ot_make(&c, DRM_VNPU_DTYPE_FLOAT, 2, csh);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, csh);
	ot_fill(&c, 3, -1, 1);
	memcpy(&at.floats[0], &alpha, 4);
	memcpy(&at.floats[1], &beta, 4);
	ot_set_act(&at, DRM_VNPU_ACT_RELU, 0, 0);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GEMM, ts, 3, 1, &at, vnpu_ops_host_cpu()));
	for (i = 0; i < 5; i++)
		for (j = 0; j < 6; j++) {
			s64 idx[2] = { i, j };
			float cv = 2.0f * (float)ot_get(&c, idx);

			EXPECT_EQ(cv < 0 ? 0.0f : cv, (float)ot_get(&o, idx));
		}
	ot_free(&x);
	ot_free(&y);
	ot_free(&c);
	ot_free(&o);
}

/* Bad activations fail check() for MATMUL and GEMM; good edge cases pass. */
TEST(matmul_gemm_activation_rejects)
{
	const s64 sh[2] = { 4, 4 };
	struct ot_tensor x, y, o;
	struct ot_tensor *ts[3] = { &x, &y, &o };
	struct drm_vnpu_op_attrs at;
	u32 ops[2] = { DRM_VNPU_OP_MATMUL, DRM_VNPU_OP_GEMM };
	int k;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, sh);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, sh);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, sh);
	for (k = 0; k < 2; k++) {
		float one = 1.0f;

		memset(&at, 0, sizeof(at));
		memcpy(&at.floats[0], &one, 4);
		ot_set_act(&at, 3, 0, 0);
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, -1, 0, 0);
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(ops[k], ts, 2, 1, &at, 0));
		at.ints[DRM_VNPU_ATTR_ACT] = 1LL << 32 | DRM_VNPU_ACT_RELU;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, DRM_VNPU_ACT_CLIP, 1.0f, 0.5f);
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, DRM_VNPU_ACT_CLIP, NAN, 1.0f);
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, DRM_VNPU_ACT_CLIP, 0.0f, NAN);
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, DRM_VNPU_ACT_CLIP, 0.5f, 0.5f);
		EXPECT_EQ(0, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, DRM_VNPU_ACT_CLIP, -INFINITY, INFINITY);
		EXPECT_EQ(0, ot_run(ops[k], ts, 2, 1, &at, 0));
		ot_set_act(&at, DRM_VNPU_ACT_RELU, NAN, NAN);	/* bounds unused */
		EXPECT_EQ(0, ot_run(ops[k], ts, 2, 1, &at, 0));
	}
	ot_free(&x);
	ot_free(&y);
	ot_free(&o);
}

TEST(matmul_check_rejects)
{
	const u32 F = DRM_VNPU_DTYPE_FLOAT, M = DRM_VNPU_OP_MATMUL;
	s64 a[3] = { 2, 3, 4 }, b[3] = { 2, 4, 5 }, o[3] = { 2, 3, 5 };
	s64 bk[2] = { 5, 5 }, ow[3] = { 2, 3, 6 }, bb[3] = { 3, 4, 5 };
	s64 ob[3] = { 3, 3, 5 };
	struct drm_vnpu_op_attrs at = { 0 };

	EXPECT_EQ(0, try_call(M, F, 3, a, 3, b, 3, o, NULL, F));
	/* k mismatch */
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 3, a, 2, bk, 3, o, NULL, F));
	/* wrong output shape, rank */
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 3, a, 3, b, 3, ow, NULL, F));
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 3, a, 3, b, 2, o + 1, NULL, F));
	/* batch dims that do not broadcast */
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 3, a, 3, bb, 3, ob, NULL, F));
	/* dtypes: mismatch, integers */
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 3, a, 3, b, 3, o, NULL,
					     DRM_VNPU_DTYPE_FLOAT16));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  try_call(M, DRM_VNPU_DTYPE_INT32, 3, a, 3, b, 3, o, NULL,
			   DRM_VNPU_DTYPE_INT32));
	/* transpose flags must be 0 or 1 */
	at.ints[0] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 3, a, 3, b, 3, o, &at, F));
	/* rank 0 operands */
	EXPECT_EQ(-VNPU_OPS_EINVAL, try_call(M, F, 0, a, 3, b, 3, o, NULL, F));
}

TEST(gemm_check_rejects)
{
	const u32 F = DRM_VNPU_DTYPE_FLOAT;
	struct ot_tensor ta, tb, tc, to;
	struct ot_tensor *ts[4] = { &ta, &tb, &tc, &to };
	s64 sa[2] = { 3, 4 }, sb[2] = { 4, 5 }, so[2] = { 3, 5 };
	s64 sc[1] = { 3 };

	ot_make(&ta, F, 2, sa);
	ot_make(&tb, F, 2, sb);
	ot_make(&tc, F, 1, sc);
	ot_make(&to, F, 2, so);
	/* c that does not broadcast to the output */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GEMM, ts, 3, 1, NULL, 0));
	/* MATMUL takes no third input */
	tc.v.shape[0] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MATMUL, ts, 3, 1, NULL, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GEMM, ts, 3, 1, NULL, 0));
	ot_free(&ta);
	ot_free(&tb);
	ot_free(&tc);
	ot_free(&to);
}

TEST_HARNESS_MAIN
