// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of WQ_MATMUL against a naive reference that dequantises the
 * whole weight first and then multiplies in double: INT8 and INT4 packed
 * along K or N, row-major and transposed (ggml's) weight layouts,
 * per-tensor, per-channel and per-group scales with and without offsets,
 * bias, fp32/fp16/bf16, odd M/N/K across block edges, every micro-kernel
 * variant, empty depth refused, and check() rejections of every
 * attribute rule.
 *
 * Tolerance: |got - want| <= 1e-6 * sqrt(k + 1) * S + rounding(out) * S,
 * S = sum of |terms| (the stored dtype's rounding as in op_matmul_test).
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

enum { P_INT8, P_INT4_K, P_INT4_N };

struct wq_case {
	u32 dtype;		/* x, scale, offset, bias, out */
	s64 m, n, k;
	int pack;
	bool wt;		/* weight stored transposed: [n][k] bytes */
	s64 gs;			/* 0: per channel (or per tensor) */
	bool per_tensor;	/* scale [1, n] with stride 0 along n */
	bool off, bias;
	bool xt;		/* x a column-major view */
	u32 cpu;
};

static u64 seed_of(const struct wq_case *c)
{
	return (u64)(c->m * 131 + c->n * 7 + c->k * 3 + c->pack + c->gs * 11);
}

/* Encode value @v at (@k, @n) of the weight into @b (layout of @c). */
static void put_w(const struct wq_case *c, u8 *b, s64 k, s64 n, int v)
{
	/* logical byte grid: bk x bn */
	s64 bk = c->pack == P_INT4_K ? c->k / 2 : c->k;
	s64 bn = c->pack == P_INT4_N ? c->n / 2 : c->n;
	s64 r = c->pack == P_INT4_K ? k / 2 : k;
	s64 q = c->pack == P_INT4_N ? n / 2 : n;
	s64 at = c->wt ? q * bk + r : r * bn + q;
	int hi = c->pack == P_INT4_K ? (int)(k & 1) :
		 c->pack == P_INT4_N ? (int)(n & 1) : 0;

	if (c->pack == P_INT8) {
		b[at] = (u8)(s8)v;
		return;
	}
	b[at] = (u8)((b[at] & (hi ? 0x0f : 0xf0)) | ((v & 15) << (hi * 4)));
}

/* Run one case; returns the number of wrong elements. */
static int run_case(struct __test_metadata *_metadata, const struct wq_case *c)
{
	s64 groups = c->gs ? (c->k + c->gs - 1) / c->gs : 1;
	s64 bk = c->pack == P_INT4_K ? c->k / 2 : c->k;
	s64 bn = c->pack == P_INT4_N ? c->n / 2 : c->n;
	struct ot_tensor x, w, s, off, bias, o, *ts[6];
	struct drm_vnpu_op_attrs at = { 0 };
	s64 shp[2], i, j, q, bad = 0;
	int *wv, nin = 3, ret;
	u64 st = seed_of(c) + 1;
	double rt = c->dtype == DRM_VNPU_DTYPE_FLOAT ? 0 : ot_tolerance(c->dtype);

	shp[0] = c->m;
	shp[1] = c->k;
	ot_make(&x, c->dtype, 2, shp);
	if (c->xt) {		/* column-major x */
		x.v.strides[0] = 1;
		x.v.strides[1] = c->m;
	}
	ot_fill(&x, seed_of(c), -1, 1);
	shp[0] = bk;
	shp[1] = bn;
	ot_make(&w, DRM_VNPU_DTYPE_INT8, 2, shp);
	if (c->wt) {
		w.v.strides[0] = 1;
		w.v.strides[1] = bk;
	}
	shp[0] = groups;
	shp[1] = c->n;
	ot_make(&s, c->dtype, 2, shp);
	ot_fill(&s, seed_of(c) + 2, 0.01, 0.1);
	if (c->per_tensor)
		s.v.strides[1] = 0;
	ot_make(&off, c->dtype, 2, shp);
	ot_fill(&off, seed_of(c) + 3, -4, 4);
	if (c->per_tensor)
		off.v.strides[1] = 0;
	shp[0] = c->n;
	ot_make(&bias, c->dtype, 1, shp);
	ot_fill(&bias, seed_of(c) + 4, -2, 2);
	shp[0] = c->m;
	shp[1] = c->n;
	ot_make(&o, c->dtype, 2, shp);

	wv = malloc(sizeof(*wv) * (size_t)(c->k * c->n + 1));
	for (q = 0; q < c->k; q++)
		for (j = 0; j < c->n; j++) {
			int lo = c->pack == P_INT8 ? -128 : -8;
			int v = (int)floor(ot_rand(&st, lo, -lo));

			wv[q * c->n + j] = v;
			put_w(c, w.buf, q, j, v);
		}
	ts[0] = &x;
	ts[1] = &w;
	ts[2] = &s;
	if (c->off)
		ts[nin++] = &off;
	if (c->bias)
		ts[nin++] = &bias;
	ts[nin] = &o;
	at.ints[0] = c->gs;
	at.ints[1] = c->pack;
	at.ints[2] = c->off;
	at.ints[3] = c->bias;
	ret = ot_run(DRM_VNPU_OP_WQ_MATMUL, ts, nin, 1, &at, c->cpu);
	EXPECT_EQ(0, ret);
	for (i = 0; i < c->m && !ret; i++)
		for (j = 0; j < c->n; j++) {
			double want = 0, mag = 0, got;
			s64 ix[2];

			for (q = 0; q < c->k; q++) {
				s64 g = c->gs ? q / c->gs : 0;
				s64 si[2] = { g, c->per_tensor ? 0 : j };
				double dq = wv[q * c->n + j], t;

				ix[0] = i;
				ix[1] = q;
				if (c->off)
					dq += ot_get(&off, si);
				dq *= ot_get(&s, si);
				t = ot_get(&x, ix) * dq;
				want += t;
				mag += fabs(t);
			}
			if (c->bias) {
				ix[0] = j;
				want += ot_get(&bias, ix);
				mag += fabs(ot_get(&bias, ix));
			}
			ix[0] = i;
			ix[1] = j;
			got = ot_get(&o, ix);
			if (fabs(got - want) > 1e-6 * sqrt((double)c->k + 1) * mag +
					       rt * mag + 1e-30) {
				if (bad++ < 4)
					TH_LOG("m %lld n %lld k %lld pack %d gs %lld: [%lld, %lld] got %g want %g",
					       (long long)c->m, (long long)c->n,
					       (long long)c->k, c->pack,
					       (long long)c->gs, (long long)i,
					       (long long)j, got, want);
			}
		}
	free(wv);
	ot_free(&x);
	ot_free(&w);
	ot_free(&s);
	ot_free(&off);
	ot_free(&bias);
	ot_free(&o);
	EXPECT_EQ(0, bad);
	return (int)bad + (ret != 0);
}

static u32 cpus[3];

static void init_cpus(void)
{
	u32 host = vnpu_ops_host_cpu();

	cpus[0] = host;
	cpus[1] = host & VNPU_CPU_AVX2_FMA;
	cpus[2] = 0;
}

/* Odd M, N, K (K even for INT4 along K, N even along N) across blocks. */
TEST(wq_odd_sizes_packings_kernels)
{
	static const s64 ms[] = { 1, 7, 13, 260 };
	static const s64 ns[] = { 2, 34, 258, 300 };
	static const s64 ks[] = { 2, 66, 258, 514 };
	int mi, ni, ki, pk, v, fails = 0;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (pk = 0; pk < 3; pk++)
			for (mi = 0; mi < 4; mi++)
				for (ni = 0; ni < 4; ni++)
					for (ki = 0; ki < 4; ki++) {
						struct wq_case c = {
							.dtype = DRM_VNPU_DTYPE_FLOAT,
							.m = ms[mi], .n = ns[ni],
							.k = ks[ki], .pack = pk,
							.cpu = cpus[v],
						};

						if (c.m * c.n * c.k > 4000000 && v)
							continue;
						c.n -= pk != P_INT4_N && ni & 1;
						c.wt = (mi + ni) & 1;
						c.bias = ki & 1;
						fails += run_case(_metadata, &c);
						if (fails)
							return;
					}
}

/* Groups of 32 (ggml's Q8_0 / Q4_0) and others, K not a multiple. */
TEST(wq_per_group_and_offsets)
{
	static const s64 gss[] = { 32, 64, 5, 1, 300 };
	static const s64 ks[] = { 32, 96, 100, 610 };
	int gi, ki, pk, fails = 0;

	init_cpus();
	for (pk = 0; pk < 3; pk++)
		for (gi = 0; gi < 5; gi++)
			for (ki = 0; ki < 4; ki++) {
				struct wq_case c = {
					.dtype = DRM_VNPU_DTYPE_FLOAT,
					.m = 9, .n = 70, .k = ks[ki],
					.pack = pk, .gs = gss[gi],
					.off = ki & 1, .bias = gi & 1,
					.wt = pk != P_INT4_N, .cpu = cpus[0],
				};

				fails += run_case(_metadata, &c);
				if (fails)
					return;
			}
}

/*
 * The decoding path (m <= 4, weight contiguous along k): groups whose
 * starts split INT4 byte pairs (5), single-element groups, K past the
 * vector width and not a multiple of it, offsets, per-tensor scales,
 * every variant; m = 5 and a row-major weight take the GEMM again.
 */
TEST(wq_decode_rows_groups_offsets)
{
	static const s64 gss[] = { 0, 32, 5, 1, 300 }, ms[] = { 1, 2, 4, 5 };
	int gi, mi, pk, v, fails = 0;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (pk = 0; pk < 2; pk++)
			for (gi = 0; gi < 5; gi++)
				for (mi = 0; mi < 4; mi++) {
					struct wq_case c = {
						.dtype = DRM_VNPU_DTYPE_FLOAT,
						.m = ms[mi], .n = 19, .k = 610,
						.pack = pk, .gs = gss[gi], .wt = true,
						.off = (gi + mi) & 1, .bias = mi & 1,
						.per_tensor = !gss[gi] && mi == 2,
						.xt = mi == 3, .cpu = cpus[v],
					};

					fails += run_case(_metadata, &c);
					ASSERT_EQ(0, fails) TH_LOG("v %d pk %d gs %lld m %lld",
								   v, pk, (long long)gss[gi],
								   (long long)ms[mi]);
				}
	/* fp16 and bf16 on the decoding path */
	for (v = 0; v < 2; v++) {
		struct wq_case c = {
			.dtype = v ? DRM_VNPU_DTYPE_BF16 : DRM_VNPU_DTYPE_FLOAT16,
			.m = 1, .n = 300, .k = 96, .pack = P_INT4_K, .gs = 32,
			.wt = true, .bias = true, .cpu = cpus[0],
		};

		EXPECT_EQ(0, run_case(_metadata, &c));
	}
}

TEST(wq_per_tensor_per_channel)
{
	int pk, pt, fails = 0;

	init_cpus();
	for (pk = 0; pk < 3; pk++)
		for (pt = 0; pt < 2; pt++) {
			struct wq_case c = {
				.dtype = DRM_VNPU_DTYPE_FLOAT, .m = 17, .n = 40,
				.k = 130, .pack = pk, .per_tensor = pt,
				.off = true, .bias = true, .cpu = cpus[0],
			};

			fails += run_case(_metadata, &c);
			ASSERT_EQ(0, fails);
		}
}

TEST(wq_fp16_bf16_and_views)
{
	static const u32 dts[] = { DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16 };
	int d, pk, fails = 0;

	init_cpus();
	for (d = 0; d < 2; d++)
		for (pk = 0; pk < 3; pk++) {
			struct wq_case c = {
				.dtype = dts[d], .m = 21, .n = 266, .k = 288,
				.pack = pk, .gs = 32, .wt = pk == P_INT4_K,
				.bias = true, .xt = pk == P_INT8, .cpu = cpus[0],
			};

			fails += run_case(_metadata, &c);
			ASSERT_EQ(0, fails);
		}
}

/* Depth 0 leaves x and the weight empty: refused (CANN has no empty case). */
TEST(wq_depth_zero_refused)
{
	s64 xs[2] = { 3, 0 }, ws[2] = { 0, 5 }, ss[2] = { 1, 5 }, os[2] = { 3, 5 };
	struct ot_tensor x, w, s, o, *ts[4] = { &x, &w, &s, &o };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&w, DRM_VNPU_DTYPE_INT8, 2, ws);
	ot_make(&s, DRM_VNPU_DTYPE_FLOAT, 2, ss);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, os);
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_WQ_MATMUL, ts, 3, 1, NULL, 0));
	ot_free(&x);
	ot_free(&w);
	ot_free(&s);
	ot_free(&o);
}

/* A valid call's tensors, to break one rule at a time. */
struct rej {
	struct ot_tensor x, w, s, off, b, o;
	struct drm_vnpu_op_attrs at;
};

static void rej_make(struct rej *r)
{
	s64 xs[2] = { 4, 64 }, ws[2] = { 32, 6 }, ss[2] = { 2, 6 };
	s64 bs[1] = { 6 }, os[2] = { 4, 6 };

	ot_make(&r->x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&r->w, DRM_VNPU_DTYPE_INT8, 2, ws);
	ot_make(&r->s, DRM_VNPU_DTYPE_FLOAT, 2, ss);
	ot_make(&r->off, DRM_VNPU_DTYPE_FLOAT, 2, ss);
	ot_make(&r->b, DRM_VNPU_DTYPE_FLOAT, 1, bs);
	ot_make(&r->o, DRM_VNPU_DTYPE_FLOAT, 2, os);
	memset(&r->at, 0, sizeof(r->at));
	r->at.ints[0] = 32;
	r->at.ints[1] = P_INT4_K;
	r->at.ints[2] = 1;
	r->at.ints[3] = 1;
}

static int rej_run(struct rej *r)
{
	struct ot_tensor *ts[6] = { &r->x, &r->w, &r->s, &r->off, &r->b, &r->o };
	int ret = ot_run(DRM_VNPU_OP_WQ_MATMUL, ts, 5, 1, &r->at, 0);

	ot_free(&r->x);
	ot_free(&r->w);
	ot_free(&r->s);
	ot_free(&r->off);
	ot_free(&r->b);
	ot_free(&r->o);
	return ret;
}

TEST(wq_check_rejects)
{
	struct rej r;
	struct ot_tensor *ts[6];
	int i;

	rej_make(&r);
	EXPECT_EQ(0, rej_run(&r));
	for (i = 0; i < 19; i++) {
		rej_make(&r);
		switch (i) {
		case 0: r.at.ints[1] = 3; break;		/* packing */
		case 1: r.at.ints[1] = -1; break;
		case 2: r.at.ints[2] = 2; break;		/* offset flag */
		case 3: r.at.ints[3] = -1; break;		/* bias flag */
		case 4: r.at.ints[0] = -32; break;		/* group size */
		case 5: r.at.ints[0] = 16; break;		/* 4 groups, 2 given */
		case 6: r.at.ints[1] = P_INT8; break;		/* k 32 != 64 */
		case 7: r.w.v.dtype = DRM_VNPU_DTYPE_UINT8; break;
		case 8: r.x.v.dtype = DRM_VNPU_DTYPE_INT32; break;
		case 9: r.s.v.dtype = DRM_VNPU_DTYPE_INT8; break;
		case 10: r.off.v.shape[1] = 5; break;
		case 11: r.b.v.shape[0] = 7; break;
		case 12: r.o.v.shape[0] = 5; break;
		case 13: r.o.v.dtype = DRM_VNPU_DTYPE_INT32; break;
		case 14: r.x.v.rank = 3; r.x.v.shape[2] = 1; break;
		case 15: r.b.v.rank = 2; r.b.v.shape[1] = 1; break;
		case 16: r.s.v.strides[0] = -1; break;
		case 17: r.at.ints[1] = P_INT4_N; break;	/* n 12 != 6 */
		case 18: r.x.v.shape[1] = 149796 * 2 + 2;	/* too deep */
			 r.w.v.shape[0] = 149796 + 1;
			 r.at.ints[0] = 0; r.s.v.shape[0] = 1;
			 r.off.v.shape[0] = 1;
			 r.x.v.strides[0] = 0; r.w.v.strides[0] = 0;
			 break;
		}
		EXPECT_EQ(-VNPU_OPS_EINVAL, rej_run(&r)) TH_LOG("rule %d", i);
	}
	/* Input counts that do not match the flags. */
	rej_make(&r);
	ts[0] = &r.x; ts[1] = &r.w; ts[2] = &r.s; ts[3] = &r.off; ts[4] = &r.o;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_WQ_MATMUL, ts, 4, 1, &r.at, 0));
	r.at.ints[3] = 0;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_WQ_MATMUL, ts, 4, 1, &r.at, 0));
	ts[4] = &r.b; ts[5] = &r.o;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_WQ_MATMUL, ts, 4, 2, &r.at, 0));
	rej_run(&r);
}

/* A group size past k is one group (no overflow rounding k up to it). */
TEST(wq_group_beyond_depth_is_one_group)
{
	struct rej r;

	rej_make(&r);
	r.at.ints[0] = INT64_MAX;
	r.s.v.shape[0] = 1;
	r.off.v.shape[0] = 1;
	EXPECT_EQ(0, rej_run(&r));
	rej_make(&r);			/* the decoding path (m 4, k contiguous) */
	r.at.ints[0] = INT64_MAX;
	r.s.v.shape[0] = 1;
	r.off.v.shape[0] = 1;
	r.w.v.strides[0] = 1;
	r.w.v.strides[1] = 32;
	EXPECT_EQ(0, rej_run(&r));
	rej_make(&r);
	r.at.ints[0] = INT64_MAX;	/* 2 rows of scales: one expected */
	EXPECT_EQ(-VNPU_OPS_EINVAL, rej_run(&r));
}

TEST_HARNESS_MAIN
