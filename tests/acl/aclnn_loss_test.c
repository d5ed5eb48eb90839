// SPDX-License-Identifier: MIT
/*
 * aclnnNLLLoss, aclnnInstanceNorm and aclnnGroupNorm on the real driver
 * against C references: every reduction with weights and an ignored
 * class, the total weight, a (C) input, transposed (non-contiguous)
 * inputs, both data formats of instance norm with its mean and variance,
 * group norm's mean and rstd, and the codes for bad dtypes, shapes, values
 * and NULLs.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "aclnnop/aclnn_group_norm.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

enum { N = 4, C = 5 };

TEST_F(nn, nll_loss_reductions)
{
	/* self stored as (C, N) and seen as (N, C): strides (1, N) */
	float lp[C * N], w[C] = { 1, 0.5f, 2, 1.5f, 0.25f }, o[N], s, tw;
	int64_t t[N] = { 0, 2, 4, 1 }, sx[2] = { N, C }, stx[2] = { 1, N };
	int64_t sn[1] = { N }, sc[1] = { C };
	void *od = dev(self, NULL, sizeof(o)), *sd = dev(self, NULL, 4);
	void *twd = dev(self, NULL, 4);
	aclTensor *tx, *tt, *tw_, *to, *ts, *ttw;
	aclOpExecutor *ex;
	uint64_t ws;
	int64_t red;
	int i;

	for (i = 0; i < C * N; i++)
		lp[i] = -fabsf(frand(i)) - 0.1f * i;
	tx = view(sx, 2, stx, 0, C * N, ACL_FLOAT, dev(self, lp, sizeof(lp)));
	tt = tens(sn, 1, ACL_INT64, dev(self, t, sizeof(t)));
	tw_ = tens(sc, 1, ACL_FLOAT, dev(self, w, sizeof(w)));
	to = tens(sn, 1, ACL_FLOAT, od);
	ts = tens(NULL, 0, ACL_FLOAT, sd);
	ttw = tens(NULL, 0, ACL_FLOAT, twd);
	for (red = 0; red < 3; red++) {
		float sum = 0, wsum = 0, got;

		ASSERT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, tw_, red, 2,
							  red ? ts : to, ttw, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnNLLLoss, ws, ex));
		get(o, od, sizeof(o));
		get(&s, sd, 4);
		get(&tw, twd, 4);
		for (i = 0; i < N; i++) {
			/* element (i, t[i]) of the transposed storage */
			float l = t[i] == 2 ? 0 : -lp[t[i] * N + i] * w[t[i]];

			sum += l;
			wsum += t[i] == 2 ? 0 : w[t[i]];
			if (!red)
				EXPECT_TRUE(CLOSE(o[i], l)) TH_LOG("none %d: %g vs %g", i, o[i], l);
		}
		got = red ? s : 0;
		if (red == 1)
			EXPECT_TRUE(CLOSE(got, sum / wsum)) TH_LOG("mean %g vs %g", got, sum / wsum);
		if (red == 2)
			EXPECT_TRUE(CLOSE(got, sum)) TH_LOG("sum %g vs %g", got, sum);
		EXPECT_TRUE(CLOSE(tw, wsum)) TH_LOG("total weight %g vs %g", tw, wsum);
	}
	aclDestroyTensor(tx);
	aclDestroyTensor(tt);
	aclDestroyTensor(tw_);
	aclDestroyTensor(to);
	aclDestroyTensor(ts);
	aclDestroyTensor(ttw);
}

TEST_F(nn, nll_loss_one_sample_no_weight)
{
	float lp[C] = { -1, -2, -0.5f, -3, -0.25f }, s, tw;
	int32_t t = 3;
	int64_t sc[1] = { C };
	void *sd = dev(self, NULL, 4), *twd = dev(self, NULL, 4);
	aclTensor *tx = tens(sc, 1, ACL_FLOAT, dev(self, lp, sizeof(lp)));
	aclTensor *tt = tens(NULL, 0, ACL_INT32, dev(self, &t, sizeof(t)));
	aclTensor *ts = tens(NULL, 0, ACL_FLOAT, sd), *ttw = tens(NULL, 0, ACL_FLOAT, twd);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 1, -100, ts, ttw, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnNLLLoss, ws, ex));
	get(&s, sd, 4);
	get(&tw, twd, 4);
	EXPECT_TRUE(CLOSE(s, 3.0f));
	EXPECT_TRUE(CLOSE(tw, 1.0f));
	/* the ignored class: nothing taken, the mean is 0 / 0 */
	ASSERT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 1, 3, ts, ttw, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnNLLLoss, ws, ex));
	get(&s, sd, 4);
	get(&tw, twd, 4);
	EXPECT_TRUE(isnan(s));
	EXPECT_EQ(0.0f, tw);
	aclDestroyTensor(tx);
	aclDestroyTensor(tt);
	aclDestroyTensor(ts);
	aclDestroyTensor(ttw);
}

/*
 * CANN's example (ops-nn loss/nll_loss/docs/aclnnNLLLoss.md): self
 * [[0, 1, 2], [3, 4, 5]], target [0, 2] INT32, weight [1.1, 1.2, 1.3],
 * out (2,) for reduction none and totalWeightOut of shape (1,): out =
 * [-0 * 1.1, -5 * 1.3]. With reduction mean and sum, out is (1,) too:
 * -6.5 / 2.4 and -6.5, total weight 2.4. A (2,) out for mean is refused.
 */
TEST_F(nn, nll_loss_doc_example)
{
	float x[6] = { 0, 1, 2, 3, 4, 5 }, w[3] = { 1.1f, 1.2f, 1.3f }, o[2], tw;
	int32_t t[2] = { 0, 2 };
	int64_t sx[2] = { 2, 3 }, st[1] = { 2 }, sw[1] = { 3 }, s1[1] = { 1 };
	void *od = dev(self, NULL, 8), *twd = dev(self, NULL, 4);
	aclTensor *tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *tt = tens(st, 1, ACL_INT32, dev(self, t, sizeof(t)));
	aclTensor *tww = tens(sw, 1, ACL_FLOAT, dev(self, w, sizeof(w)));
	aclTensor *to = tens(st, 1, ACL_FLOAT, od), *to1 = tens(s1, 1, ACL_FLOAT, od);
	aclTensor *ttw = tens(s1, 1, ACL_FLOAT, twd);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, tww, 0, -100, to, ttw, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnNLLLoss, ws, ex));
	get(o, od, sizeof(o));
	EXPECT_TRUE(CLOSE(o[0], 0.0f));
	EXPECT_TRUE(CLOSE(o[1], -6.5f));
	ASSERT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, tww, 1, -100, to1, ttw, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnNLLLoss, ws, ex));
	get(o, od, 4);
	get(&tw, twd, 4);
	EXPECT_TRUE(CLOSE(o[0], -6.5f / 2.4f));
	EXPECT_TRUE(CLOSE(tw, 2.4f));
	ASSERT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, tww, 2, -100, to1, ttw, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnNLLLoss, ws, ex));
	get(o, od, 4);
	EXPECT_TRUE(CLOSE(o[0], -6.5f));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, tww, 1, -100, to, ttw, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, tww, 1, -100, to1, to, &ws, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(tt);
	aclDestroyTensor(tww);
	aclDestroyTensor(to);
	aclDestroyTensor(to1);
	aclDestroyTensor(ttw);
}

TEST_F(nn, nll_loss_rejects)
{
	int64_t sx[2] = { N, C }, sn[1] = { N }, sn1[1] = { N + 1 }, sc1[1] = { C + 1 };
	int64_t sx3[3] = { N, C, 2 };
	void *d = dev(self, NULL, 4096);
	aclTensor *tx = tens(sx, 2, ACL_FLOAT, d), *tx3 = tens(sx3, 3, ACL_FLOAT, d);
	aclTensor *txi = tens(sx, 2, ACL_INT32, d), *tt = tens(sn, 1, ACL_INT64, d);
	aclTensor *ttf = tens(sn, 1, ACL_FLOAT, d), *tt1 = tens(sn1, 1, ACL_INT64, d);
	aclTensor *twb = tens(sc1, 1, ACL_FLOAT, d), *to = tens(sn, 1, ACL_FLOAT, d);
	aclTensor *ts = tens(NULL, 0, ACL_FLOAT, d), *tsh = tens(NULL, 0, ACL_FLOAT16, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(0, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 2, -100, ts, ts, &ws, &ex));
	aclDestroyAclOpExecutor(ex);
	EXPECT_EQ(NUL, aclnnNLLLossGetWorkspaceSize(NULL, tt, NULL, 2, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(NUL, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 2, -100, ts, NULL, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(txi, tt, NULL, 2, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, ttf, NULL, 2, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt1, NULL, 2, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, twb, 2, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 3, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, -1, -100, ts, ts, &ws, &ex));
	/* out's shape follows the reduction; dtypes follow self */
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 0, -100, ts, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 1, -100, to, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 1, -100, ts, tsh, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx, tt, NULL, 1, -100, ts, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnNLLLossGetWorkspaceSize(tx3, tt, NULL, 1, -100, ts, ts, &ws, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(tx3);
	aclDestroyTensor(txi);
	aclDestroyTensor(tt);
	aclDestroyTensor(ttf);
	aclDestroyTensor(tt1);
	aclDestroyTensor(twb);
	aclDestroyTensor(to);
	aclDestroyTensor(ts);
	aclDestroyTensor(tsh);
}

enum { B = 2, CH = 3, H = 2, W = 3, E = B * CH * H * W };

/* x[n, c, h, w] at index i of the layout (NCHW, or NHWC when nhwc). */
static int at4(int nhwc, int n, int c, int h, int w)
{
	return nhwc ? ((n * H + h) * W + w) * CH + c : ((n * CH + c) * H + h) * W + w;
}

static void instance_norm_case(struct __test_metadata *_metadata,
			       FIXTURE_DATA(nn) *self, int nhwc)
{
	float x[E], y[E], g[CH] = { 1, 0.5f, 2 }, b[CH] = { 0, -1, 0.5f };
	float m[B * CH], v[B * CH];
	int64_t sx[4], st[4], stx[4], sc[1] = { CH };
	void *yd = dev(self, NULL, sizeof(y)), *md = dev(self, NULL, sizeof(m));
	void *vd = dev(self, NULL, sizeof(v)), *xd;
	aclTensor *tx, *tg, *tb, *ty, *tm, *tv;
	aclOpExecutor *ex;
	uint64_t ws;
	int n, c, i, d;

	/* x stored reversed (W, H, C, N for NCHW) and seen through strides */
	if (nhwc) {
		int64_t s[4] = { B, H, W, CH }, t[4] = { B, 1, 1, CH };

		memcpy(sx, s, sizeof(s));
		memcpy(st, t, sizeof(t));
	} else {
		int64_t s[4] = { B, CH, H, W }, t[4] = { B, CH, 1, 1 };

		memcpy(sx, s, sizeof(s));
		memcpy(st, t, sizeof(t));
	}
	stx[0] = 1;
	for (d = 1; d < 4; d++)
		stx[d] = stx[d - 1] * sx[d - 1];
	for (i = 0; i < E; i++)
		x[i] = frand(i * 3 + nhwc) * (1 + i % 4);
	xd = dev(self, x, sizeof(x));
	tx = view(sx, 4, stx, 0, E, ACL_FLOAT, xd);
	tg = tens(sc, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	tb = tens(sc, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	ty = tens(sx, 4, ACL_FLOAT, yd);
	tm = tens(st, 4, ACL_FLOAT, md);
	tv = tens(st, 4, ACL_FLOAT, vd);
	ASSERT_EQ(0, aclnnInstanceNormGetWorkspaceSize(tx, tg, tb, nhwc ? "NHWC" : "NCHW",
						       1e-5, ty, tm, tv, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInstanceNorm, ws, ex));
	get(y, yd, sizeof(y));
	get(m, md, sizeof(m));
	get(v, vd, sizeof(v));
	for (n = 0; n < B; n++)
		for (c = 0; c < CH; c++) {
			float mean = 0, var = 0;
			int h, w;

			/* element (n, c, h, w) of the reversed storage */
#define XV(h_, w_) (nhwc ? x[(((c * W + (w_)) * H + (h_)) * B + n)] : \
			   x[(((w_) * H + (h_)) * CH + c) * B + n])
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					mean += XV(h, w);
			mean /= H * W;
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++)
					var += (XV(h, w) - mean) * (XV(h, w) - mean);
			var /= H * W;
			EXPECT_TRUE(CLOSE(m[n * CH + c], mean));
			EXPECT_TRUE(CLOSE(v[n * CH + c], var));
			for (h = 0; h < H; h++)
				for (w = 0; w < W; w++) {
					float want = (XV(h, w) - mean) / sqrtf(var + 1e-5f) * g[c] + b[c];

					EXPECT_TRUE(CLOSE(y[at4(nhwc, n, c, h, w)], want))
						TH_LOG("%s (%d %d %d %d): %g vs %g",
						       nhwc ? "NHWC" : "NCHW", n, c, h, w,
						       y[at4(nhwc, n, c, h, w)], want);
				}
#undef XV
		}
	aclDestroyTensor(tx);
	aclDestroyTensor(tg);
	aclDestroyTensor(tb);
	aclDestroyTensor(ty);
	aclDestroyTensor(tm);
	aclDestroyTensor(tv);
}

TEST_F(nn, instance_norm_nchw)
{
	instance_norm_case(_metadata, self, 0);
}

TEST_F(nn, instance_norm_nhwc)
{
	instance_norm_case(_metadata, self, 1);
}

TEST_F(nn, instance_norm_rejects)
{
	int64_t sx[4] = { B, CH, H, W }, sx3[3] = { B, CH, H }, sc[1] = { CH };
	int64_t sc1[1] = { CH + 1 }, st[4] = { B, CH, 1, 1 }, stb[4] = { B, CH, H, 1 };
	void *d = dev(self, NULL, 4096);
	aclTensor *tx = tens(sx, 4, ACL_FLOAT, d), *tx3 = tens(sx3, 3, ACL_FLOAT, d);
	aclTensor *txi = tens(sx, 4, ACL_INT32, d), *tg = tens(sc, 1, ACL_FLOAT, d);
	aclTensor *tg1 = tens(sc1, 1, ACL_FLOAT, d), *tgh = tens(sc, 1, ACL_FLOAT16, d);
	aclTensor *tm = tens(st, 4, ACL_FLOAT, d), *tmb = tens(stb, 4, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(0, aclnnInstanceNormGetWorkspaceSize(tx, tg, tg, "NCHW", 1e-5, tx, tm, tm, &ws, &ex));
	aclDestroyAclOpExecutor(ex);
	EXPECT_EQ(NUL, aclnnInstanceNormGetWorkspaceSize(tx, tg, tg, NULL, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInstanceNormGetWorkspaceSize(tx, NULL, tg, "NCHW", 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInstanceNormGetWorkspaceSize(tx, tg, tg, "NCHW", 1e-5, tx, tm, NULL, &ws, &ex));
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(tx, tg, tg, "NCDHW", 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(txi, tg, tg, "NCHW", 1e-5, txi, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(tx3, tg, tg, "NCHW", 1e-5, tx3, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(tx, tg1, tg, "NCHW", 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(tx, tg, tgh, "NCHW", 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(tx, tg, tg, "NCHW", 1e-5, tx, tmb, tm, &ws, &ex));
	/* NHWC wants (N, 1, 1, C) statistics */
	EXPECT_EQ(INV, aclnnInstanceNormGetWorkspaceSize(tx, tg, tg, "NHWC", 1e-5, tx, tm, tm, &ws, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(tx3);
	aclDestroyTensor(txi);
	aclDestroyTensor(tg);
	aclDestroyTensor(tg1);
	aclDestroyTensor(tgh);
	aclDestroyTensor(tm);
	aclDestroyTensor(tmb);
}

enum { GN = 2, GC = 4, GH = 2, GW = 3, GG = 2, GE = GN * GC * GH * GW };

/* x stored contiguously, or reversed (W, H, C, N) and seen through strides. */
static void group_norm_case(struct __test_metadata *_metadata,
			    FIXTURE_DATA(nn) *self, int reversed)
{
	float x[GE], y[GE], g[GC] = { 1, 0.5f, 2, -1 }, b[GC] = { 0, -1, 0.5f, 2 };
	float m[GN * GG], r[GN * GG];
	int64_t sx[4] = { GN, GC, GH, GW }, rev[4] = { 1, GN, GN * GC, GN * GC * GH };
	int64_t sc[1] = { GC }, ss[2] = { GN, GG };
	void *yd = dev(self, NULL, sizeof(y)), *md = dev(self, NULL, sizeof(m));
	void *rd = dev(self, NULL, sizeof(r)), *xd;
	aclTensor *tx, *tg, *tb, *ty, *tm, *tr;
	aclOpExecutor *ex;
	uint64_t ws;
	int n, grp, c, h, w;

	for (n = 0; n < GE; n++)
		x[n] = frand(n * 5 + reversed) * (1 + n % 3);
	xd = dev(self, x, sizeof(x));
	tx = reversed ? view(sx, 4, rev, 0, GE, ACL_FLOAT, xd) : tens(sx, 4, ACL_FLOAT, xd);
	tg = tens(sc, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	tb = tens(sc, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	ty = tens(sx, 4, ACL_FLOAT, yd);
	tm = tens(ss, 2, ACL_FLOAT, md);
	tr = tens(ss, 2, ACL_FLOAT, rd);
	ASSERT_EQ(0, aclnnGroupNormGetWorkspaceSize(tx, tg, tb, GN, GC, GH * GW, GG, 1e-5,
						    ty, tm, tr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGroupNorm, ws, ex));
	get(y, yd, sizeof(y));
	get(m, md, sizeof(m));
	get(r, rd, sizeof(r));
#define GX(n_, c_, h_, w_) (reversed ? x[(((w_) * GH + (h_)) * GC + (c_)) * GN + (n_)] : \
				     x[(((n_) * GC + (c_)) * GH + (h_)) * GW + (w_)])
	for (n = 0; n < GN; n++)
		for (grp = 0; grp < GG; grp++) {
			int cg = GC / GG, cnt = cg * GH * GW;
			float mean = 0, var = 0, rstd;

			for (c = grp * cg; c < (grp + 1) * cg; c++)
				for (h = 0; h < GH; h++)
					for (w = 0; w < GW; w++)
						mean += GX(n, c, h, w);
			mean /= cnt;
			for (c = grp * cg; c < (grp + 1) * cg; c++)
				for (h = 0; h < GH; h++)
					for (w = 0; w < GW; w++)
						var += (GX(n, c, h, w) - mean) * (GX(n, c, h, w) - mean);
			var /= cnt;
			rstd = 1 / sqrtf(var + 1e-5f);
			EXPECT_TRUE(CLOSE(m[n * GG + grp], mean));
			EXPECT_TRUE(CLOSE(r[n * GG + grp], rstd));
			for (c = grp * cg; c < (grp + 1) * cg; c++)
				for (h = 0; h < GH; h++)
					for (w = 0; w < GW; w++) {
						float want = (GX(n, c, h, w) - mean) * rstd * g[c] + b[c];
						float got = y[((n * GC + c) * GH + h) * GW + w];

						EXPECT_TRUE(CLOSE(got, want))
							TH_LOG("(%d %d %d %d): %g vs %g", n, c, h, w, got, want);
					}
		}
#undef GX
	aclDestroyTensor(tx);
	aclDestroyTensor(tg);
	aclDestroyTensor(tb);
	aclDestroyTensor(ty);
	aclDestroyTensor(tm);
	aclDestroyTensor(tr);
}

TEST_F(nn, group_norm_contiguous)
{
	group_norm_case(_metadata, self, 0);
}

TEST_F(nn, group_norm_transposed_input)
{
	group_norm_case(_metadata, self, 1);
}

TEST_F(nn, group_norm_rejects)
{
	int64_t sx[4] = { GN, GC, GH, GW }, sx1[1] = { GC }, sc[1] = { GC };
	int64_t sc1[1] = { GC + 1 }, ss[2] = { GN, GG }, ssb[2] = { GN, GC };
	void *d = dev(self, NULL, 4096);
	aclTensor *tx = tens(sx, 4, ACL_FLOAT, d), *tx1 = tens(sx1, 1, ACL_FLOAT, d);
	aclTensor *txi = tens(sx, 4, ACL_INT32, d), *tg = tens(sc, 1, ACL_FLOAT, d);
	aclTensor *tg1 = tens(sc1, 1, ACL_FLOAT, d), *tm = tens(ss, 2, ACL_FLOAT, d);
	aclTensor *tmb = tens(ssb, 2, ACL_FLOAT, d), *tmh = tens(ss, 2, ACL_FLOAT16, d);
	aclOpExecutor *ex;
	uint64_t ws;
	const int HW = GH * GW;

	EXPECT_EQ(0, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, GG, 1e-5, tx, tm, tm, &ws, &ex));
	aclDestroyAclOpExecutor(ex);
	/* gamma and beta are optional */
	EXPECT_EQ(0, aclnnGroupNormGetWorkspaceSize(tx, NULL, NULL, GN, GC, HW, GG, 1e-5, tx, tm, tm, &ws, &ex));
	aclDestroyAclOpExecutor(ex);
	EXPECT_EQ(NUL, aclnnGroupNormGetWorkspaceSize(NULL, tg, tg, GN, GC, HW, GG, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, GG, 1e-5, tx, NULL, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(txi, tg, tg, GN, GC, HW, GG, 1e-5, txi, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx1, tg, tg, GN, GC, HW, GG, 1e-5, tx1, tm, tm, &ws, &ex));
	/* N, C, HxW must be self's; group must divide C */
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN + 1, GC, HW, GG, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW + 1, GG, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, 3, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, 0, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg1, tg, GN, GC, HW, GG, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, NULL, tg, GN, GC, HW, GG, 1e-5, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, GG, 1e-5, tx, tmb, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, GG, 1e-5, tx, tm, tmh, &ws, &ex));
	/* CANN's document (ops-nn norm/group_norm): eps must be above 0 */
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, GG, 0.0, tx, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tx, tg, tg, GN, GC, HW, GG, -1e-5, tx, tm, tm, &ws, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(tx1);
	aclDestroyTensor(txi);
	aclDestroyTensor(tg);
	aclDestroyTensor(tg1);
	aclDestroyTensor(tm);
	aclDestroyTensor(tmb);
	aclDestroyTensor(tmh);
}

TEST_HARNESS_MAIN
