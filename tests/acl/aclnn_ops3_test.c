// SPDX-License-Identifier: MIT
/*
 * aclnn operators built from several tasks or from strided views, on the
 * real driver against C references: aclnnConvTbc, aclnnConvDepthwise2d,
 * aclnnLayerNorm's mean and rstd outputs and aclnnCat of many tensors.
 * Each uses a non-contiguous input and checks NULL and bad-shape errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_cat.h"
/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

#define INV ACLNN_ERR_PARAM_INVALID
#define NUL ACLNN_ERR_PARAM_NULLPTR

static float frand(int i) { return (float)((i * 37 + 11) % 23) / 7.0f - 1.5f; }

static aclIntArray *ia(const int64_t *v, uint64_t n) { return aclCreateIntArray(v, n); }

/* A view with explicit strides and element offset into storage of size elems. */
static aclTensor *view(const int64_t *dims, uint64_t n, const int64_t *strides,
		       int64_t off, int64_t elems, aclDataType dt, void *d)
{
	return aclCreateTensor(dims, n, dt, strides, off, ACL_FORMAT_ND, &elems, 1, d);
}

TEST_F(nn, conv_tbc)
{
	/* self [T, B, CI] stored as [B, T, CI]; weight [K, CI, CO]; pad 1. */
	enum { T = 7, B = 2, CI = 3, K = 3, CO = 4, P = 1, TO = T + 2 * P - K + 1 };
	float x[B * T * CI], w[K * CI * CO], b[CO], o[TO * B * CO];
	int64_t sx[3] = { T, B, CI }, stx[3] = { CI, T * CI, 1 };
	int64_t sw[3] = { K, CI, CO }, sb[1] = { CO }, so[3] = { TO, B, CO };
	int64_t sbad[3] = { TO + 1, B, CO }, swbad[3] = { K, CI + 1, CO };
	aclTensor *tx, *tw, *tb, *to, *tbad, *twbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int t, bb, c, k, co;

	for (t = 0; t < B * T * CI; t++) x[t] = frand(t);
	for (t = 0; t < K * CI * CO; t++) w[t] = frand(3 * t + 2);
	for (t = 0; t < CO; t++) b[t] = 0.5f * t - 0.75f;
	tx = view(sx, 3, stx, 0, B * T * CI, ACL_FLOAT, dev(self, x, sizeof(x)));
	tw = tens(sw, 3, ACL_FLOAT, dev(self, w, sizeof(w)));
	tb = tens(sb, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	twbad = tens(swbad, 3, ACL_FLOAT, dev(self, NULL, sizeof(w) * 2));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	tbad = tens(sbad, 3, ACL_FLOAT, dev(self, NULL, sizeof(o) * 2));
	ASSERT_EQ(0, aclnnConvTbcGetWorkspaceSize(tx, tw, tb, P, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvTbc, ws, ex));
	get(o, od, sizeof(o));
	for (t = 0; t < TO; t++)
	for (bb = 0; bb < B; bb++)
	for (co = 0; co < CO; co++) {
		float acc = b[co];

		for (k = 0; k < K; k++) {
			int it = t - P + k;

			if (it < 0 || it >= T)
				continue;
			for (c = 0; c < CI; c++)
				acc += x[(bb * T + it) * CI + c] * w[(k * CI + c) * CO + co];
		}
		EXPECT_TRUE(CLOSE(o[(t * B + bb) * CO + co], acc));
	}
	EXPECT_EQ(NUL, aclnnConvTbcGetWorkspaceSize(NULL, tw, tb, P, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvTbcGetWorkspaceSize(tx, tw, NULL, P, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvTbcGetWorkspaceSize(tx, tw, tb, P, to, 0, NULL, &ex));
	EXPECT_EQ(INV, aclnnConvTbcGetWorkspaceSize(tx, tw, tb, P, tbad, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvTbcGetWorkspaceSize(tx, twbad, tb, P, to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvTbcGetWorkspaceSize(tx, tw, tb, -1, to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvTbcGetWorkspaceSize(tx, tw, tb, 0, to, 0, &ws, &ex));
}

TEST_F(nn, conv_depthwise2d)
{
	/*
	 * self [N, C, H, W] stored NHWC; weight [C * M, 1, KH, KW]; stride
	 * (1, 2), padding (1, 1), dilation (2, 1).
	 */
	enum { N = 2, C = 3, H = 5, W = 6, M = 2, CO = C * M, KH = 3, KW = 3 };
	enum { SH = 1, SW = 2, PH = 1, PW = 1, DH = 2, DW = 1 };
	enum { OH = (H + 2 * PH - DH * (KH - 1) - 1) / SH + 1 };
	enum { OW = (W + 2 * PW - DW * (KW - 1) - 1) / SW + 1 };
	float x[N * H * W * C], w[CO * KH * KW], b[CO], o[N * CO * OH * OW];
	int64_t sx[4] = { N, C, H, W }, stx[4] = { H * W * C, 1, W * C, C };
	int64_t sw[4] = { CO, 1, KH, KW }, sb[1] = { CO }, so[4] = { N, CO, OH, OW };
	int64_t sbad[4] = { N, CO, OH, OW + 1 }, swbad[4] = { C, 2, KH, KW };
	int64_t ks[2] = { KH, KW }, ksbad[2] = { KH, KW + 1 };
	int64_t st[2] = { SH, SW }, pd[2] = { PH, PW }, dl[2] = { DH, DW };
	aclIntArray *ak = ia(ks, 2), *akb = ia(ksbad, 2), *as = ia(st, 2);
	aclIntArray *ap = ia(pd, 2), *ad = ia(dl, 2);
	aclTensor *tx, *tw, *tb, *to, *tbad, *twbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, n, co, oh, ow, kh, kw, bias;

	for (i = 0; i < N * H * W * C; i++) x[i] = frand(i);
	for (i = 0; i < CO * KH * KW; i++) w[i] = frand(5 * i + 1);
	for (i = 0; i < CO; i++) b[i] = 0.25f * i - 0.5f;
	tx = view(sx, 4, stx, 0, N * H * W * C, ACL_FLOAT, dev(self, x, sizeof(x)));
	tw = tens(sw, 4, ACL_FLOAT, dev(self, w, sizeof(w)));
	tb = tens(sb, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	twbad = tens(swbad, 4, ACL_FLOAT, dev(self, w, sizeof(w)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 4, ACL_FLOAT, od);
	tbad = tens(sbad, 4, ACL_FLOAT, dev(self, NULL, sizeof(o) * 2));
	for (bias = 1; bias >= 0; bias--) {
		ASSERT_EQ(0, aclnnConvDepthwise2dGetWorkspaceSize(tx, tw, ak, bias ? tb : NULL,
				as, ap, ad, to, 0, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnConvDepthwise2d, ws, ex));
		get(o, od, sizeof(o));
		for (n = 0; n < N; n++)
		for (co = 0; co < CO; co++)
		for (oh = 0; oh < OH; oh++)
		for (ow = 0; ow < OW; ow++) {
			float acc = bias ? b[co] : 0;

			for (kh = 0; kh < KH; kh++)
			for (kw = 0; kw < KW; kw++) {
				int ih = oh * SH - PH + kh * DH, iw = ow * SW - PW + kw * DW;

				if (ih < 0 || ih >= H || iw < 0 || iw >= W)
					continue;
				acc += x[((n * H + ih) * W + iw) * C + co / M] *
				       w[(co * KH + kh) * KW + kw];
			}
			EXPECT_TRUE(CLOSE(o[((n * CO + co) * OH + oh) * OW + ow], acc));
		}
	}
	EXPECT_EQ(NUL, aclnnConvDepthwise2dGetWorkspaceSize(NULL, tw, ak, tb, as, ap, ad, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvDepthwise2dGetWorkspaceSize(tx, tw, NULL, tb, as, ap, ad, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvDepthwise2dGetWorkspaceSize(tx, tw, ak, tb, NULL, ap, ad, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvDepthwise2dGetWorkspaceSize(tx, tw, ak, tb, as, ap, ad, to, 0, &ws, NULL));
	EXPECT_EQ(INV, aclnnConvDepthwise2dGetWorkspaceSize(tx, tw, akb, tb, as, ap, ad, to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvDepthwise2dGetWorkspaceSize(tx, twbad, ak, tb, as, ap, ad, to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvDepthwise2dGetWorkspaceSize(tx, tw, ak, tb, as, ap, ad, tbad, 0, &ws, &ex));
	aclDestroyIntArray(ak); aclDestroyIntArray(akb); aclDestroyIntArray(as);
	aclDestroyIntArray(ap); aclDestroyIntArray(ad);
}

TEST_F(nn, layer_norm_mean_rstd)
{
	/* input [A, R, D] stored as [A, D, R], normalised over (R, D). */
	enum { A = 3, R = 4, D = 5, E = R * D };
	float x[A * D * R], g[E], bt[E], o[A * E], mean[A], rstd[A];
	int64_t sx[3] = { A, R, D }, stx[3] = { D * R, 1, R }, sg[2] = { R, D };
	int64_t sm[3] = { A, 1, 1 }, smbad[1] = { A }, smbad2[3] = { A, R, 1 };
	int64_t ns[2] = { R, D };
	aclIntArray *an = ia(ns, 2);
	aclTensor *tx, *tg, *tb, *to, *tm, *tr, *tmbad, *tmbad2, *tmint;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *md, *rd;
	int a, r, d, pass;

	for (a = 0; a < A * E; a++) x[a] = frand(a) * (1 + a % 4);
	for (a = 0; a < E; a++) { g[a] = 0.5f + 0.05f * a; bt[a] = 0.1f * a - 0.5f; }
	tx = view(sx, 3, stx, 0, A * E, ACL_FLOAT, dev(self, x, sizeof(x)));
	tg = tens(sg, 2, ACL_FLOAT, dev(self, g, sizeof(g)));
	tb = tens(sg, 2, ACL_FLOAT, dev(self, bt, sizeof(bt)));
	od = dev(self, NULL, sizeof(o));
	md = dev(self, NULL, sizeof(mean));
	rd = dev(self, NULL, sizeof(rstd));
	to = tens(sx, 3, ACL_FLOAT, od);
	tm = tens(sm, 3, ACL_FLOAT, md);
	tr = tens(sm, 3, ACL_FLOAT, rd);
	tmbad = tens(smbad, 1, ACL_FLOAT, md);
	tmbad2 = tens(smbad2, 3, ACL_FLOAT, dev(self, NULL, sizeof(mean) * R));
	tmint = tens(sm, 3, ACL_INT32, md);
	/* Pass 0: both statistics; pass 1: rstd alone, no weight or bias. */
	for (pass = 0; pass < 2; pass++) {
		aclrtMemset(md, sizeof(mean), 0, sizeof(mean));
		ASSERT_EQ(0, aclnnLayerNormGetWorkspaceSize(tx, an, pass ? NULL : tg,
				pass ? NULL : tb, 1e-5, to, pass ? NULL : tm, tr, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnLayerNorm, ws, ex));
		get(o, od, sizeof(o));
		get(mean, md, sizeof(mean));
		get(rstd, rd, sizeof(rstd));
		for (a = 0; a < A; a++) {
			double m = 0, v = 0;
			float rs;

			for (r = 0; r < R; r++)
				for (d = 0; d < D; d++)
					m += x[(a * D + d) * R + r];
			m /= E;
			for (r = 0; r < R; r++)
				for (d = 0; d < D; d++)
					v += (x[(a * D + d) * R + r] - m) * (x[(a * D + d) * R + r] - m);
			v /= E;
			rs = (float)(1.0 / sqrt(v + 1e-5));
			EXPECT_TRUE(CLOSE(mean[a], pass ? 0.0f : (float)m));
			EXPECT_TRUE(CLOSE(rstd[a], rs));
			for (r = 0; r < R; r++)
				for (d = 0; d < D; d++) {
					float y = (float)(x[(a * D + d) * R + r] - m) * rs;

					if (!pass)
						y = y * g[r * D + d] + bt[r * D + d];
					EXPECT_TRUE(CLOSE(o[(a * R + r) * D + d], y));
				}
		}
	}
	EXPECT_EQ(NUL, aclnnLayerNormGetWorkspaceSize(NULL, an, tg, tb, 1e-5, to, tm, tr, &ws, &ex));
	EXPECT_EQ(NUL, aclnnLayerNormGetWorkspaceSize(tx, NULL, tg, tb, 1e-5, to, tm, tr, &ws, &ex));
	EXPECT_EQ(INV, aclnnLayerNormGetWorkspaceSize(tx, an, tg, tb, 1e-5, to, tmbad, tr, &ws, &ex));
	EXPECT_EQ(INV, aclnnLayerNormGetWorkspaceSize(tx, an, tg, tb, 1e-5, to, tm, tmbad2, &ws, &ex));
	EXPECT_EQ(INV, aclnnLayerNormGetWorkspaceSize(tx, an, tg, tb, 1e-5, to, tmint, tr, &ws, &ex));
	aclDestroyIntArray(an);
}

/*
 * Cat of NT tensors (more than one CONCAT task takes) along dim 1 into a
 * transposed (non-contiguous) out: tensor i is [ROWS, 1 + i % 3] at an
 * offset into one buffer; tensor 5 is a transposed view, tensor 7 INT32.
 */
TEST_F(nn, cat_many)
{
	enum { NT = 37, ROWS = 3, MAXW = 3 };
	const aclTensor *l[NT + 1];
	float *x = calloc(NT * ROWS * MAXW, sizeof(float)), *o;
	int32_t xi[ROWS * MAXW];
	int64_t cols[NT], start[NT], total = 0, so[2], sto[2], sbad[2];
	aclTensorList *tl, *tlnull, *tlrank;
	aclTensor *to, *tbad, *t1;
	aclOpExecutor *ex;
	uint64_t ws;
	void *xd, *xid, *od;
	int i, r, c;

	for (i = 0; i < NT * ROWS * MAXW; i++) x[i] = (float)i;
	for (i = 0; i < ROWS * MAXW; i++) xi[i] = -100 - i;
	xd = dev(self, x, NT * ROWS * MAXW * sizeof(float));
	xid = dev(self, xi, sizeof(xi));
	for (i = 0; i < NT; i++) {
		int64_t dims[2] = { ROWS, 1 + i % 3 }, tr[2] = { 1, ROWS };

		cols[i] = dims[1];
		start[i] = total;
		total += dims[1];
		if (i == 5)		/* stored [cols, ROWS] */
			l[i] = view(dims, 2, tr, i * ROWS * MAXW, NT * ROWS * MAXW,
				    ACL_FLOAT, xd);
		else if (i == 7)
			l[i] = tens(dims, 2, ACL_INT32, xid);
		else
			l[i] = view(dims, 2, NULL, i * ROWS * MAXW, NT * ROWS * MAXW,
				    ACL_FLOAT, xd);
	}
	so[0] = ROWS; so[1] = total;
	sto[0] = 1; sto[1] = ROWS;	/* out stored [total, ROWS] */
	sbad[0] = ROWS; sbad[1] = total - 1;
	o = calloc(ROWS * total, sizeof(float));
	od = dev(self, NULL, ROWS * total * sizeof(float));
	to = view(so, 2, sto, 0, ROWS * total, ACL_FLOAT, od);
	tbad = tens(sbad, 2, ACL_FLOAT, od);
	tl = aclCreateTensorList(l, NT);
	ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, 1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
	get(o, od, ROWS * total * sizeof(float));
	for (i = 0; i < NT; i++)
		for (r = 0; r < ROWS; r++)
			for (c = 0; c < cols[i]; c++) {
				float e = i == 7 ? (float)xi[r * cols[i] + c] :
					  i == 5 ? x[i * ROWS * MAXW + c * ROWS + r] :
					  x[i * ROWS * MAXW + r * cols[i] + c];

				EXPECT_EQ(e, o[(start[i] + c) * ROWS + r]);
			}
	EXPECT_EQ(NUL, aclnnCatGetWorkspaceSize(NULL, 1, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnCatGetWorkspaceSize(tl, 1, NULL, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 1, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 2, to, &ws, &ex));
	/* A NULL entry, and a rank-1 tensor among rank-2 ones. */
	l[NT] = l[0];
	l[20] = NULL;
	tlnull = aclCreateTensorList(l, NT);
	EXPECT_EQ(NUL, aclnnCatGetWorkspaceSize(tlnull, 1, to, &ws, &ex));
	so[0] = ROWS;
	t1 = tens(so, 1, ACL_FLOAT, xd);
	l[20] = t1;
	tlrank = aclCreateTensorList(l, NT);
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tlrank, 1, to, &ws, &ex));
	free(x);
	free(o);
}

TEST_HARNESS_MAIN
