// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of FLASH_ATTN and ROPE against naive references in double:
 * every float dtype, GQA and MQA head ratios, additive pse (with -Inf),
 * boolean masks broadcast by zero strides, bands anchored either way,
 * rows left without keys, long sequences over many key tiles and row
 * blocks with lengths no multiple of a tile, permuted (BSND-like) views,
 * pieces run backwards, empty key sets, every vector unit the host has
 * (head dims no multiple of a vector, deep and wide heads), and every
 * check() rejection.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

#define F32	DRM_VNPU_DTYPE_FLOAT
#define F16	DRM_VNPU_DTYPE_FLOAT16
#define BF16	DRM_VNPU_DTYPE_BF16

static const u32 fdtypes[] = { F32, F16, BF16 };

/*
 * A 4-D tensor of logical @shape whose memory holds the dims in the order
 * @perm (outermost first): perm {0, 2, 1, 3} is a BSND buffer seen as BNSD.
 */
static void mk4(struct ot_tensor *t, u32 dtype, const s64 *shape,
		const int *perm)
{
	static const int id[4] = { 0, 1, 2, 3 };
	s64 ms[4], st[4];
	int d;

	if (!perm)
		perm = id;
	for (d = 0; d < 4; d++)
		ms[d] = shape[perm[d]];
	ot_make(t, dtype, 4, ms);
	for (d = 0; d < 4; d++)
		st[perm[d]] = t->v.strides[d];
	for (d = 0; d < 4; d++) {
		t->v.shape[d] = shape[d];
		t->v.strides[d] = st[d];
	}
}

static double at4(const struct ot_tensor *t, s64 a, s64 b, s64 c, s64 d)
{
	s64 idx[4] = { a, b, c, d };

	return ot_get(t, idx);
}

struct fa_case {
	s64 b, n, nkv, sq, skv, dk, dv;
	u32 dt;			/* q, k, v, out */
	bool pse, mask, lse;
	bool pse_bcast;		/* pse repeated over heads (stride 0) */
	bool mask_bcast;	/* mask [Sq, Skv] repeated over B and N */
	int band;
	s64 pre, next;
	const int *perm;	/* memory order of q, k, v and out */
	float scale;
	bool reversed;		/* run the pieces last to first */
	double mask_p;		/* probability of a masked key */
	double pse_inf_p;	/* probability of a -Inf pse element */
	u32 cpu;		/* VNPU_CPU_* bits to run with (0: the host's) */
	bool poison_v;		/* Inf and NaN in v at the keys the mask drops */
};

/* Keys the band leaves row i: [lo, hi). */
static void ref_band(const struct fa_case *fc, s64 i, s64 *lo, s64 *hi)
{
	s64 c = i + (fc->band == 2 ? fc->skv - fc->sq : 0);

	*lo = fc->band ? c - fc->pre : 0;
	*hi = fc->band ? c + fc->next + 1 : fc->skv;
	if (*lo < 0)
		*lo = 0;
	if (*hi > fc->skv)
		*hi = fc->skv;
}

static int run_fa(struct __test_metadata *_metadata, const struct fa_case *fc,
		  u64 seed)
{
	s64 qs[4] = { fc->b, fc->n, fc->sq, fc->dk };
	s64 ks[4] = { fc->b, fc->nkv, fc->skv, fc->dk };
	s64 vs[4] = { fc->b, fc->nkv, fc->skv, fc->dv };
	s64 os[4] = { fc->b, fc->n, fc->sq, fc->dv };
	s64 ms[4] = { fc->b, fc->n, fc->sq, fc->skv };
	s64 ls[3] = { fc->b, fc->n, fc->sq };
	struct ot_tensor q, k, v, pse, mask, out, lse, *ts[7];
	struct drm_vnpu_op_attrs at = { 0 };
	double tol = ot_tolerance(fc->dt), *sc;
	u32 nin = 3, nout = 1, fl = 0;
	s64 b, h, i, j, d, bad = 0;
	u64 st = seed * 7919 + 3;

	mk4(&q, fc->dt, qs, fc->perm);
	mk4(&k, fc->dt, ks, fc->perm);
	mk4(&v, fc->dt, vs, fc->perm);
	mk4(&out, fc->dt, os, fc->perm);
	ot_fill(&q, seed, -1, 1);
	ot_fill(&k, seed + 1, -1, 1);
	ot_fill(&v, seed + 2, -1, 1);
	ts[0] = &q;
	ts[1] = &k;
	ts[2] = &v;
	if (fc->pse) {
		s64 ps[4] = { fc->b, fc->pse_bcast ? 1 : fc->n, fc->sq, fc->skv };

		ot_make(&pse, F16, 4, ps);
		ot_fill(&pse, seed + 3, -2, 2);
		for (i = 0; i < (s64)vnpu_tview_elems(&pse.v); i++)
			if (ot_rand(&st, 0, 1) < fc->pse_inf_p)
				vnpu_store_f64(pse.v.data, F16, i, -INFINITY);
		if (fc->pse_bcast) {
			pse.v.shape[1] = fc->n;
			pse.v.strides[1] = 0;
		}
		ts[nin++] = &pse;
		fl |= 1;
	}
	if (fc->mask) {
		s64 m2[4] = { 1, 1, fc->sq, fc->skv };

		ot_make(&mask, DRM_VNPU_DTYPE_BOOL, 4, fc->mask_bcast ? m2 : ms);
		for (i = 0; i < (s64)vnpu_tview_elems(&mask.v); i++)
			((u8 *)mask.v.data)[i] = ot_rand(&st, 0, 1) < fc->mask_p;
		if (fc->mask_bcast) {
			mask.v.shape[0] = fc->b;
			mask.v.shape[1] = fc->n;
			mask.v.strides[0] = 0;
			mask.v.strides[1] = 0;
		}
		ts[nin++] = &mask;
		fl |= 2;
		/* dropped for every row (a broadcast mask of one query row) */
		for (j = 0; fc->poison_v && j < fc->skv; j++) {
			s64 mi[4] = { 0, 0, 0, j };

			if (!ot_get(&mask, mi))
				continue;
			for (b = 0; b < fc->b; b++)
				for (h = 0; h < fc->nkv; h++)
					for (d = 0; d < fc->dv; d++)
						vnpu_store_f64(v.v.data, fc->dt,
							       b * v.v.strides[0] +
							       h * v.v.strides[1] +
							       j * v.v.strides[2] +
							       d * v.v.strides[3],
							       j % 2 ? NAN : INFINITY);
		}
	}
	ts[nin] = &out;
	if (fc->lse) {
		ot_make(&lse, F32, 3, ls);
		ts[nin + 1] = &lse;
		nout = 2;
		fl |= 4;
	}
	at.ints[0] = fl;
	at.ints[1] = fc->band;
	at.ints[2] = fc->pre;
	at.ints[3] = fc->next;
	memcpy(&at.floats[0], &fc->scale, 4);

	if (fc->reversed) {
		struct vnpu_op_call *c = ot_call_own(DRM_VNPU_OP_FLASH_ATTN, ts,
						     nin, nout, &at, fc->cpu);

		EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(DRM_VNPU_OP_FLASH_ATTN), c));
		ot_run_reversed(c);
		ot_call_free(c);
	} else {
		EXPECT_EQ(0, ot_run(DRM_VNPU_OP_FLASH_ATTN, ts, nin, nout, &at,
				    fc->cpu ? fc->cpu : vnpu_ops_host_cpu()));
	}

	sc = calloc((size_t)fc->skv + 1, sizeof(double));
	for (b = 0; b < fc->b; b++)
		for (h = 0; h < fc->n; h++)
			for (i = 0; i < fc->sq; i++) {
				s64 hk = h / (fc->n / fc->nkv), lo, hi;
				double m = -INFINITY, l = 0;

				ref_band(fc, i, &lo, &hi);
				for (j = 0; j < fc->skv; j++) {
					double s = 0;

					sc[j] = -INFINITY;
					if (j < lo || j >= hi)
						continue;
					if (fc->mask && at4(&mask, b, h, i, j) != 0)
						continue;
					for (d = 0; d < fc->dk; d++)
						s += at4(&q, b, h, i, d) *
						     at4(&k, b, hk, j, d);
					s *= fc->scale;
					if (fc->pse)
						s += at4(&pse, b, h, i, j);
					sc[j] = s;
					if (s > m)
						m = s;
				}
				for (j = 0; j < fc->skv; j++)
					if (m > -INFINITY)
						l += (sc[j] = exp(sc[j] - m));
				for (d = 0; d < fc->dv; d++) {
					double want = 0, got = at4(&out, b, h, i, d);

					for (j = 0; m > -INFINITY && j < fc->skv; j++)
						if (sc[j] != 0)	/* a dropped key adds nothing */
							want += sc[j] * at4(&v, b, hk, j, d);
					if (l > 0)
						want /= l;
					if (!ot_close(got, want, tol, tol) && bad++ < 4)
						TH_LOG("out[%lld,%lld,%lld,%lld] %g want %g",
						       (long long)b, (long long)h,
						       (long long)i, (long long)d, got, want);
				}
				if (fc->lse) {
					s64 li[3] = { b, h, i };
					double want = l > 0 ? m + log(l) : INFINITY;
					double got = ot_get(&lse, li);

					if (!ot_close(got, want, 1e-5, 1e-5) && bad++ < 4)
						TH_LOG("lse[%lld,%lld,%lld] %g want %g",
						       (long long)b, (long long)h,
						       (long long)i, got, want);
				}
			}
	free(sc);
	ot_free(&q);
	ot_free(&k);
	ot_free(&v);
	ot_free(&out);
	if (fc->pse)
		ot_free(&pse);
	if (fc->mask)
		ot_free(&mask);
	if (fc->lse)
		ot_free(&lse);
	return bad ? 1 : 0;
}

static const int bsnd[4] = { 0, 2, 1, 3 };
/* the head dim outermost but one: every row strided */
static const int bnds[4] = { 0, 1, 3, 2 };

TEST(flash_attn_dtypes_gqa_pse_mask_lse)
{
	unsigned int t;
	int bad = 0;

	for (t = 0; t < ARRAY_SIZE(fdtypes); t++) {
		struct fa_case fc = { .b = 2, .n = 4, .nkv = 2, .sq = 5,
				      .skv = 70, .dk = 16, .dv = 8,
				      .dt = fdtypes[t], .pse = true,
				      .mask = true, .lse = true, .scale = 0.25f,
				      .mask_p = 0.3 };

		bad += run_fa(_metadata, &fc, 10 + t);
		fc.perm = bsnd;
		fc.pse_bcast = true;
		fc.mask_bcast = true;
		bad += run_fa(_metadata, &fc, 20 + t);
	}
	EXPECT_EQ(0, bad);
}

TEST(flash_attn_head_ratios)
{
	static const s64 ratio[][2] = { { 1, 1 }, { 8, 8 }, { 8, 4 }, { 8, 1 },
					{ 6, 3 }, { 3, 1 } };
	unsigned int r;
	int bad = 0;

	for (r = 0; r < ARRAY_SIZE(ratio); r++) {
		struct fa_case fc = { .b = 2, .n = ratio[r][0],
				      .nkv = ratio[r][1], .sq = 3, .skv = 33,
				      .dk = 8, .dv = 8, .dt = F32, .lse = true,
				      .scale = 0.35f };

		bad += run_fa(_metadata, &fc, 30 + r);
	}
	EXPECT_EQ(0, bad);
}

TEST(flash_attn_long_sequences_many_tiles)
{
	/* many row blocks and key tiles, neither a multiple of its size */
	struct fa_case fc = { .b = 1, .n = 2, .nkv = 1, .sq = 97, .skv = 389,
			      .dk = 40, .dv = 24, .dt = F16, .pse = true,
			      .mask = true, .lse = true, .scale = 0.158f,
			      .mask_p = 0.1, .perm = bsnd };
	struct fa_case big = { .b = 1, .n = 1, .nkv = 1, .sq = 2, .skv = 3001,
			       .dk = 64, .dv = 64, .dt = F32, .lse = true,
			       .scale = 0.125f };
	/* large scores: the running maximum grows tile after tile */
	struct fa_case hot = { .b = 1, .n = 1, .nkv = 1, .sq = 33, .skv = 200,
			       .dk = 4, .dv = 4, .dt = F32, .lse = true,
			       .scale = 30.0f };
	int bad = 0;

	bad += run_fa(_metadata, &fc, 40);
	bad += run_fa(_metadata, &big, 41);
	bad += run_fa(_metadata, &hot, 42);
	fc.reversed = true;
	bad += run_fa(_metadata, &fc, 43);
	EXPECT_EQ(0, bad);
}

TEST(flash_attn_bands_and_empty_rows)
{
	struct fa_case fc = { .b = 2, .n = 2, .nkv = 2, .sq = 40, .skv = 100,
			      .dk = 8, .dv = 8, .dt = F32, .lse = true,
			      .scale = 0.3f };
	/* rows whose keys are all masked or -Inf: zeros and lse +Inf */
	struct fa_case dead = { .b = 1, .n = 2, .nkv = 1, .sq = 6, .skv = 5,
				.dk = 8, .dv = 8, .dt = BF16, .pse = true,
				.mask = true, .lse = true, .scale = 0.3f,
				.mask_p = 0.7, .pse_inf_p = 0.5 };
	int bad = 0;

	fc.band = 1;		/* causal, top-left: j <= i */
	fc.pre = 1 << 20;
	fc.next = 0;
	bad += run_fa(_metadata, &fc, 50);
	fc.band = 2;		/* causal, bottom-right */
	bad += run_fa(_metadata, &fc, 51);
	fc.pre = 7;		/* a narrow band, right of the diagonal */
	fc.next = 3;
	bad += run_fa(_metadata, &fc, 52);
	fc.band = 1;
	fc.pre = -5;		/* a band that leaves early rows nothing */
	fc.next = 8;
	bad += run_fa(_metadata, &fc, 53);
	fc.sq = 120;		/* Sq > Skv, bottom-right: first rows empty */
	fc.band = 2;
	fc.pre = 1 << 20;
	fc.next = 0;
	bad += run_fa(_metadata, &fc, 54);
	bad += run_fa(_metadata, &dead, 55);
	EXPECT_EQ(0, bad);
}

TEST(flash_attn_decode_and_odd_dims)
{
	struct fa_case fc = { .b = 3, .n = 4, .nkv = 1, .sq = 1, .skv = 129,
			      .dk = 13, .dv = 7, .dt = F16, .pse = true,
			      .pse_bcast = true, .lse = true, .scale = 0.28f };
	int bad = 0;

	bad += run_fa(_metadata, &fc, 60);
	fc.dk = 1;
	fc.dv = 1;
	fc.skv = 1;
	bad += run_fa(_metadata, &fc, 61);
	EXPECT_EQ(0, bad);
}

/*
 * Each vector unit the host has (the GEMM micro-kernels, the few-row
 * kernels of decoding and the exps differ): head dims no multiple of a
 * vector, depths over several GEMM panels and V wider than a GEMM block,
 * row blocks and key tiles cut short, GQA, masks, pse, lse and bands.
 */
TEST(flash_attn_vector_units)
{
	static const u32 units[] = {
		VNPU_CPU_SSE2 | VNPU_CPU_AVX2_FMA | VNPU_CPU_AVX512 | VNPU_CPU_F16C,
		VNPU_CPU_SSE2 | VNPU_CPU_AVX2_FMA | VNPU_CPU_F16C,
		VNPU_CPU_SSE2,
	};
	struct fa_case cases[] = {
		{ .b = 1, .n = 8, .nkv = 2, .sq = 40, .skv = 300, .dk = 72,
		  .dv = 40, .dt = F32, .pse = true, .mask = true, .lse = true,
		  .scale = 0.118f, .mask_p = 0.2, .pse_inf_p = 0.05,
		  .perm = bsnd },
		{ .b = 2, .n = 2, .nkv = 1, .sq = 3, .skv = 260, .dk = 520,
		  .dv = 300, .dt = F16, .lse = true, .scale = 0.044f },
		{ .b = 1, .n = 8, .nkv = 2, .sq = 1, .skv = 700, .dk = 128,
		  .dv = 128, .dt = BF16, .mask = true, .mask_bcast = true,
		  .lse = true, .scale = 0.088f, .mask_p = 0.4 },
		{ .b = 1, .n = 1, .nkv = 1, .sq = 300, .skv = 600, .dk = 33,
		  .dv = 17, .dt = F32, .lse = true, .band = 2,
		  .pre = 1 << 20, .scale = 0.17f },
		/* decoding: the few-row kernels on fp32 rows in place */
		{ .b = 2, .n = 4, .nkv = 1, .sq = 1, .skv = 531, .dk = 136,
		  .dv = 200, .dt = F32, .mask = true, .lse = true,
		  .scale = 0.086f, .mask_p = 0.3, .perm = bsnd },
		{ .b = 1, .n = 8, .nkv = 1, .sq = 1, .skv = 300, .dk = 64,
		  .dv = 64, .dt = F16, .pse = true, .lse = true,
		  .scale = 0.125f, .pse_inf_p = 0.1 },
		{ .b = 1, .n = 3, .nkv = 3, .sq = 2, .skv = 258, .dk = 256,
		  .dv = 256, .dt = F32, .pse = true, .lse = true,
		  .scale = 0.0625f },
		/* strided rows converted for both paths */
		{ .b = 1, .n = 4, .nkv = 2, .sq = 9, .skv = 270, .dk = 24,
		  .dv = 40, .dt = F16, .lse = true, .scale = 0.2f,
		  .perm = bnds },
		{ .b = 1, .n = 4, .nkv = 1, .sq = 1, .skv = 270, .dk = 24,
		  .dv = 40, .dt = BF16, .lse = true, .scale = 0.2f,
		  .perm = bnds },
		{ .b = 1, .n = 4, .nkv = 1, .sq = 1, .skv = 270, .dk = 24,
		  .dv = 40, .dt = F32, .lse = true, .scale = 0.2f,
		  .perm = bnds },
		/* dropped keys whose v is Inf or NaN add nothing */
		{ .b = 2, .n = 4, .nkv = 1, .sq = 1, .skv = 600, .dk = 64,
		  .dv = 136, .dt = F32, .mask = true, .mask_bcast = true,
		  .lse = true, .scale = 0.125f, .mask_p = 0.2,
		  .poison_v = true },
		{ .b = 1, .n = 4, .nkv = 2, .sq = 1, .skv = 300, .dk = 40,
		  .dv = 24, .dt = F16, .mask = true, .mask_bcast = true,
		  .scale = 0.16f, .mask_p = 0.2, .poison_v = true },
		{ .b = 1, .n = 16, .nkv = 1, .sq = 1, .skv = 530, .dk = 32,
		  .dv = 48, .dt = BF16, .mask = true, .mask_bcast = true,
		  .lse = true, .scale = 0.18f, .mask_p = 0.3, .poison_v = true },
		{ .b = 1, .n = 16, .nkv = 2, .sq = 1, .skv = 300, .dk = 64,
		  .dv = 64, .dt = F32, .mask = true, .mask_bcast = true,
		  .scale = 0.125f, .mask_p = 0.1, .poison_v = true },
		{ .b = 1, .n = 2, .nkv = 2, .sq = 70, .skv = 513, .dk = 16,
		  .dv = 16, .dt = F32, .lse = true, .band = 1, .pre = 100,
		  .next = 300, .scale = 0.25f, .reversed = true },
	};
	u32 host = vnpu_ops_host_cpu();
	unsigned int u, i;
	int bad = 0, ran = 0;

	for (u = 0; u < ARRAY_SIZE(units); u++) {
		if ((units[u] & host) != units[u])
			continue;
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			cases[i].cpu = units[u];
			bad += run_fa(_metadata, &cases[i], 70 + 10 * u + i);
		}
		ran++;
	}
	EXPECT_LE(1, ran);
	EXPECT_EQ(0, bad);
}

/* No keys at all: out 0, lse +Inf; and no rows: no pieces. */
TEST(flash_attn_empty)
{
	s64 qs[4] = { 2, 2, 3, 4 }, ks[4] = { 2, 1, 0, 4 }, os[4] = { 2, 2, 3, 4 };
	s64 ls[3] = { 2, 2, 3 }, i;
	struct ot_tensor q, k, v, o, l, *ts[5] = { &q, &k, &v, &o, &l };
	struct drm_vnpu_op_attrs at = { .ints = { 4 } };
	struct vnpu_op_call *c;

	ot_make(&q, F32, 4, qs);
	ot_make(&k, F32, 4, ks);
	ot_make(&v, F32, 4, ks);
	ot_make(&o, F32, 4, os);
	ot_make(&l, F32, 3, ls);
	ot_fill(&q, 1, -1, 1);
	ot_fill(&o, 2, 5, 6);
	/* empty views reach no memory: NULL (ot_run) and far strides */
	for (i = 0; i < 4; i++)
		k.v.strides[i] = v.v.strides[i] = 1LL << 40;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_FLASH_ATTN, ts, 3, 2, &at, 0));
	for (i = 0; i < 48; i++)
		EXPECT_EQ(0.0f, ((float *)o.v.data)[i]);
	for (i = 0; i < 12; i++)
		EXPECT_TRUE(isinf(((float *)l.v.data)[i]));
	/* no head dim of q and k: every score is 0, out the mean of v */
	q.v.shape[3] = 0;
	k.v.shape[2] = v.v.shape[2] = 5;
	k.v.shape[3] = 0;
	ot_free(&v);
	ot_make(&v, F32, 4, (s64[4]){ 2, 1, 5, 4 });
	ot_fill(&v, 3, -1, 1);
	for (i = 0; i < 4; i++)
		q.v.strides[i] = 1LL << 40;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_FLASH_ATTN, ts, 3, 2, &at, 0));
	for (i = 0; i < 4; i++) {
		float want = 0;
		s64 j;

		for (j = 0; j < 5; j++)
			want += ((float *)v.v.data)[j * 4 + i] / 5;
		EXPECT_TRUE(fabs(((float *)o.v.data)[i] - want) < 1e-5);
		EXPECT_TRUE(fabs(((float *)l.v.data)[0] - log(5.0)) < 1e-5);
	}
	q.v.shape[2] = 0;
	o.v.shape[2] = 0;
	l.v.shape[2] = 0;
	c = ot_call_new(DRM_VNPU_OP_FLASH_ATTN, ts, 3, 2, &at, 0, NULL);
	EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(DRM_VNPU_OP_FLASH_ATTN), c));
	EXPECT_EQ(0, vnpu_op_find(DRM_VNPU_OP_FLASH_ATTN)->tiles(c));
	free(c);
	ot_free(&q);
	ot_free(&k);
	ot_free(&v);
	ot_free(&o);
	ot_free(&l);
}

/* Pieces: blocks of 32 rows per (batch, K/V head); fewer for long keys. */
TEST(flash_attn_tiles)
{
	s64 qs[4] = { 3, 4, 70, 64 }, ks[4] = { 3, 2, 100, 64 };
	struct ot_tensor q, k, v, o, *ts[4] = { &q, &k, &v, &o };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_FLASH_ATTN);
	struct vnpu_op_call *c;

	ot_make(&q, F32, 4, qs);
	ot_make(&k, F32, 4, ks);
	ot_make(&v, F32, 4, ks);
	ot_make(&o, F32, 4, qs);
	c = ot_call_new(DRM_VNPU_OP_FLASH_ATTN, ts, 3, 1, NULL, 0, NULL);
	EXPECT_EQ(0, vnpu_op_check(impl, c));
	/* per batch and K/V head, blocks of 64 of its 2 heads' 140 rows */
	EXPECT_EQ(3 * 2 * 3, impl->tiles(c));
	/* 2^26 / (2^18 * 128) = 2 rows a piece */
	c->t[1].shape[2] = c->t[2].shape[2] = 1 << 18;
	EXPECT_EQ(3 * 2 * 70, impl->tiles(c));
	free(c);
	ot_free(&q);
	ot_free(&k);
	ot_free(&v);
	ot_free(&o);
}

TEST(flash_attn_rejects)
{
	s64 qs[4] = { 2, 4, 3, 8 }, ks[4] = { 2, 2, 5, 8 }, ms[4] = { 2, 4, 3, 5 };
	s64 ls[3] = { 2, 4, 3 };
	struct ot_tensor q, k, v, o, p, m, l;
	struct ot_tensor *ts[7] = { &q, &k, &v, &p, &m, &o, &l };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_FLASH_ATTN);
	struct drm_vnpu_op_attrs at = { .ints = { 7 } };
	struct vnpu_op_call *c;
	float f;

	ot_make(&q, F32, 4, qs);
	ot_make(&k, F16, 4, ks);
	ot_make(&v, BF16, 4, ks);
	ot_make(&o, F16, 4, qs);
	ot_make(&p, F32, 4, ms);
	ot_make(&m, DRM_VNPU_DTYPE_UINT8, 4, ms);
	ot_make(&l, F32, 3, ls);
	c = ot_call_new(DRM_VNPU_OP_FLASH_ATTN, ts, 5, 2, &at, 0, NULL);
	EXPECT_EQ(0, vnpu_op_check(impl, c));

#define REJECT(stmt) do {						\
		struct vnpu_op_call save = *c;				\
		stmt;							\
		EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, c));	\
		*c = save;						\
	} while (0)
	REJECT(c->attrs.ints[0] = 8);			/* unknown flag */
	REJECT(c->attrs.ints[0] = 1LL << 32);
	REJECT(c->attrs.ints[0] = 3);			/* lse not counted */
	REJECT(c->num_in = 4);
	REJECT(c->t[0].rank = 3);
	REJECT(c->t[1].shape[1] = 3);			/* 4 % 3 heads */
	REJECT(c->t[1].shape[0] = 1);			/* batch */
	REJECT(c->t[1].shape[3] = 7);			/* Dk */
	REJECT(c->t[2].shape[2] = 4);			/* Skv */
	REJECT(c->t[5].shape[3] = 7);			/* out's D */
	REJECT(c->t[5].shape[1] = 2);			/* out's heads */
	REJECT(c->t[0].dtype = DRM_VNPU_DTYPE_INT32);
	REJECT(c->t[1].dtype = DRM_VNPU_DTYPE_DOUBLE);
	REJECT(c->t[5].dtype = DRM_VNPU_DTYPE_INT8);
	REJECT(c->t[3].dtype = DRM_VNPU_DTYPE_INT8);	/* pse */
	REJECT(c->t[3].shape[3] = 6);
	REJECT(c->t[4].dtype = F32);			/* mask */
	REJECT(c->t[4].shape[2] = 1);
	REJECT(c->t[6].dtype = F16);			/* lse */
	REJECT(c->t[6].rank = 4);
	REJECT(c->t[6].shape[2] = 2);
	REJECT(c->attrs.ints[1] = 3);			/* band */
	REJECT(c->attrs.ints[1] = -1);
	REJECT(c->attrs.ints[2] = (1LL << 40) + 1);
	REJECT(c->attrs.ints[3] = -(1LL << 40) - 1);
	f = NAN;
	REJECT(memcpy(&c->attrs.floats[0], &f, 4));
	f = INFINITY;
	REJECT(memcpy(&c->attrs.floats[0], &f, 4));
	REJECT(c->t[0].strides[2] = -1);
	/* head dims past 1024; one row's keys past a piece */
	REJECT(c->t[0].shape[3] = c->t[1].shape[3] = 1025);
	REJECT(c->t[1].shape[2] = c->t[2].shape[2] = c->t[3].shape[3] =
	       c->t[4].shape[3] = (1 << 22) + 1);
#undef REJECT
	free(c);
	ot_free(&q);
	ot_free(&k);
	ot_free(&v);
	ot_free(&o);
	ot_free(&p);
	ot_free(&m);
	ot_free(&l);
}

/* ------------------------------------------------------------------ ROPE */

static double rope_ref(const double *x, const double *cs, const double *sn,
		       s64 d, s64 e, int mode)
{
	s64 h = d / 2, q = d / 4;
	double a = x[e], rot;

	switch (mode) {
	case 0:
		rot = e < h ? -x[e + h] : x[e - h];
		break;
	case 1:
		rot = e % 2 ? x[e - 1] : -x[e + 1];
		break;
	case 2:
		rot = (e / q) % 2 ? x[e - q] : -x[e + q];
		break;
	default:
		a = e < h ? x[2 * e] : x[2 * (e - h) + 1];
		rot = e < h ? -x[2 * e + 1] : x[2 * (e - h)];
		break;
	}
	return a * cs[e] + rot * sn[e];
}

/* x [B, S, N, D], cos/sin broadcast over the dims @bc marks (bits 0..2). */
static int run_rope(struct __test_metadata *_metadata, u32 dt, const s64 *xs,
		    int bc, int mode, bool inplace, const int *perm, u64 seed)
{
	s64 cs[4], idx[4], e, r, rows = xs[0] * xs[1] * xs[2], d = xs[3];
	struct ot_tensor x, x0, c, s, o, *ts[4];
	double xr[64], cr[64], sr[64], tol = ot_tolerance(dt);
	int k, bad = 0;

	for (k = 0; k < 4; k++)
		cs[k] = k < 3 && (bc >> k) & 1 ? 1 : xs[k];
	mk4(&x, dt, xs, perm);
	mk4(&x0, dt, xs, NULL);
	ot_make(&c, dt, 4, cs);
	ot_make(&s, dt, 4, cs);
	ot_fill(&x, seed, -2, 2);
	ot_fill(&c, seed + 1, -1, 1);
	ot_fill(&s, seed + 2, -1, 1);
	for (r = 0; r < rows * d; r++) {	/* a copy of x before it runs */
		s64 t = r;

		for (k = 3; k >= 0; k--) {
			idx[k] = t % xs[k];
			t /= xs[k];
		}
		vnpu_store_f64(x0.v.data, dt, r, ot_get(&x, idx));
	}
	if (inplace)
		o = x;
	else
		mk4(&o, dt, xs, perm);
	ts[0] = &x;
	ts[1] = &c;
	ts[2] = &s;
	ts[3] = &o;
	{
		struct drm_vnpu_op_attrs at = { .ints = { mode } };

		EXPECT_EQ(0, ot_run(DRM_VNPU_OP_ROPE, ts, 3, 1, &at,
				    vnpu_ops_host_cpu()));
	}
	for (r = 0; r < rows; r++) {
		idx[0] = r / (xs[1] * xs[2]);
		idx[1] = r / xs[2] % xs[1];
		idx[2] = r % xs[2];
		for (e = 0; e < d; e++) {
			s64 ci[4];

			idx[3] = e;
			xr[e] = vnpu_load_f64(x0.v.data, dt, r * d + e);
			for (k = 0; k < 4; k++)
				ci[k] = cs[k] == 1 && k < 3 ? 0 : idx[k];
			cr[e] = ot_get(&c, ci);
			sr[e] = ot_get(&s, ci);
		}
		for (e = 0; e < d; e++) {
			double want = rope_ref(xr, cr, sr, d, e, mode), got;

			idx[3] = e;
			got = ot_get(&o, idx);
			if (!ot_close(got, want, tol, tol) && bad++ < 4)
				TH_LOG("rope mode %d [%lld][%lld] %g want %g", mode,
				       (long long)r, (long long)e, got, want);
		}
	}
	ot_free(&x);
	ot_free(&x0);
	ot_free(&c);
	ot_free(&s);
	if (!inplace)
		ot_free(&o);
	return bad ? 1 : 0;
}

TEST(rope_modes_dtypes_broadcast)
{
	static const int bcs[] = { 0, 7, 5, 6, 3, 2, 1, 4 };
	s64 xs[4] = { 2, 5, 3, 16 };
	unsigned int t, b;
	int mode, bad = 0;

	for (mode = 0; mode < 4; mode++)
		for (t = 0; t < ARRAY_SIZE(fdtypes); t++)
			for (b = 0; b < ARRAY_SIZE(bcs); b++)
				bad += run_rope(_metadata, fdtypes[t], xs, bcs[b],
						mode, b == 3, b % 2 ? bsnd : NULL,
						mode * 100 + t * 10 + b);
	EXPECT_EQ(0, bad);
}

TEST(rope_many_rows_and_odd_sizes)
{
	s64 big[4] = { 1, 900, 4, 64 }, tiny[4] = { 1, 1, 1, 4 };
	s64 two[4] = { 3, 1, 7, 2 };
	int mode, bad = 0;

	for (mode = 0; mode < 4; mode++) {
		bad += run_rope(_metadata, F32, big, 5, mode, false, NULL, 1 + mode);
		bad += run_rope(_metadata, F16, tiny, 7, mode, true, NULL, 2);
		if (mode != 2)
			bad += run_rope(_metadata, BF16, two, 2, mode, false, bsnd, 3);
	}
	EXPECT_EQ(0, bad);
}

TEST(rope_rejects)
{
	s64 xs[4] = { 2, 3, 4, 8 }, cs[4] = { 1, 3, 1, 8 };
	struct ot_tensor x, c, s, o, *ts[4] = { &x, &c, &s, &o };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_ROPE);
	struct drm_vnpu_op_attrs at = { .ints = { 2 } };
	struct vnpu_op_call *cl;

	ot_make(&x, F32, 4, xs);
	ot_make(&c, F16, 4, cs);
	ot_make(&s, F32, 4, cs);
	ot_make(&o, BF16, 4, xs);
	cl = ot_call_new(DRM_VNPU_OP_ROPE, ts, 3, 1, &at, 0, NULL);
	EXPECT_EQ(0, vnpu_op_check(impl, cl));
#define REJECT(stmt) do {						\
		struct vnpu_op_call save = *cl;				\
		stmt;							\
		EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, cl));	\
		*cl = save;						\
	} while (0)
	REJECT(cl->attrs.ints[0] = 4);
	REJECT(cl->attrs.ints[0] = -1);
	REJECT(cl->t[0].shape[3] = cl->t[1].shape[3] = cl->t[2].shape[3] =
	       cl->t[3].shape[3] = 6);			/* quarter: D % 4 */
	REJECT(cl->attrs.ints[0] = 0; cl->t[0].shape[3] = cl->t[1].shape[3] =
	       cl->t[2].shape[3] = cl->t[3].shape[3] = 7);
	REJECT(cl->t[1].shape[1] = 2);			/* neither 1 nor S */
	REJECT(cl->t[2].shape[3] = 4);			/* D */
	REJECT(cl->t[1].rank = 3);
	REJECT(cl->t[3].shape[2] = 3);			/* out's shape */
	REJECT(cl->t[0].dtype = DRM_VNPU_DTYPE_INT32);
	REJECT(cl->t[2].dtype = DRM_VNPU_DTYPE_DOUBLE);
	REJECT(cl->num_in = 2);
	REJECT(cl->t[0].rank = 0; cl->t[1].rank = 0; cl->t[2].rank = 0;
	       cl->t[3].rank = 0);
#undef REJECT
	free(cl);
	ot_free(&x);
	ot_free(&c);
	ot_free(&s);
	ot_free(&o);
}

TEST_HARNESS_MAIN
