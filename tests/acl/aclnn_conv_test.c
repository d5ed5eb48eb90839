// SPDX-License-Identifier: MIT
/*
 * aclnn convolutions and pooling (conv family) on the real driver against
 * C references: Convolution (also transposed), ConvTbc and
 * ConvDepthwise2d on non-contiguous inputs, MaxPool2d, AvgPool2d,
 * AdaptiveAvgPool2d; bad shapes and NULLs.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, convolution)
{
	/* x [2, 4, 5, 6], w [6, 2, 3, 3] groups 2, stride (2, 1), pad 1, dil 1 */
	enum { N = 2, C = 4, H = 5, W = 6, CO = 6, G = 2, KH = 3, KW = 3 };
	float x[N * C * H * W], w[CO * (C / G) * KH * KW], b[CO];
	int64_t sx[4] = { N, C, H, W }, sw[4] = { CO, C / G, KH, KW }, sb[1] = { CO };
	int64_t st[2] = { 2, 1 }, pd[2] = { 1, 1 }, dl[2] = { 1, 1 }, op0[2] = { 0, 0 };
	int64_t OH = (H + 2 - KH) / 2 + 1, OW = W + 2 - KW + 1;
	int64_t so[4] = { N, CO, OH, OW }, bad[4] = { N, CO, OH + 1, OW };
	float *o = malloc(N * CO * OH * OW * 4);
	aclTensor *tx, *tw, *tb, *to, *tbad;
	aclIntArray *as = ia(st, 2), *ap = ia(pd, 2), *ad = ia(dl, 2), *ao = ia(op0, 2);
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, n, co, oh, ow, ci, kh, kw;

	for (i = 0; i < (int)(sizeof(x) / 4); i++) x[i] = frand(i);
	for (i = 0; i < (int)(sizeof(w) / 4); i++) w[i] = frand(i * 3 + 1);
	for (i = 0; i < CO; i++) b[i] = 0.25f * i;
	tx = tens(sx, 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	tw = tens(sw, 4, ACL_FLOAT, dev(self, w, sizeof(w)));
	tb = tens(sb, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	od = dev(self, NULL, N * CO * OH * OW * 4);
	to = tens(so, 4, ACL_FLOAT, od);
	tbad = tens(bad, 4, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, ao, G, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(o, od, N * CO * OH * OW * 4);
	for (n = 0; n < N; n++)
	for (co = 0; co < CO; co++)
	for (oh = 0; oh < OH; oh++)
	for (ow = 0; ow < OW; ow++) {
		int g = co / (CO / G);
		float acc = b[co];

		for (ci = 0; ci < C / G; ci++)
		for (kh = 0; kh < KH; kh++)
		for (kw = 0; kw < KW; kw++) {
			int ih = oh * 2 - 1 + kh, iw = ow - 1 + kw;

			if (ih < 0 || ih >= H || iw < 0 || iw >= W)
				continue;
			acc += x[((n * C + g * (C / G) + ci) * H + ih) * W + iw] *
			       w[((co * (C / G) + ci) * KH + kh) * KW + kw];
		}
		EXPECT_TRUE(CLOSE(o[((n * CO + co) * OH + oh) * OW + ow], acc));
	}
	/* Without bias. */
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, as, ap, ad, false, ao, G, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(o, od, 4);
	{
		float acc = 0;

		for (ci = 0; ci < C / G; ci++)
		for (kh = 1; kh < KH; kh++)
		for (kw = 1; kw < KW; kw++)
			acc += x[(ci * H + kh - 1) * W + kw - 1] * w[(ci * KH + kh) * KW + kw];
		EXPECT_TRUE(CLOSE(o[0], acc));
	}
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, ao, G, tbad, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, ao, 3, to, 0, &ws, &ex));
	free(o);
	aclDestroyIntArray(as); aclDestroyIntArray(ap); aclDestroyIntArray(ad); aclDestroyIntArray(ao);
}

static float pool_ref(const float *x, int H, int W, int oh, int ow, int k, int s,
		      int p, bool max, bool cip)
{
	float acc = max ? -INFINITY : 0;
	int n = 0, kh, kw;

	for (kh = 0; kh < k; kh++)
	for (kw = 0; kw < k; kw++) {
		int ih = oh * s - p + kh, iw = ow * s - p + kw;

		if (ih < 0 || ih >= H || iw < 0 || iw >= W) {
			if (ih < H + p && iw < W + p)
				n += cip;
			continue;
		}
		n++;
		if (max)
			acc = fmaxf(acc, x[ih * W + iw]);
		else
			acc += x[ih * W + iw];
	}
	return max ? acc : acc / n;
}

TEST_F(nn, pooling)
{
	enum { N = 1, C = 2, H = 7, W = 6 };
	float x[N * C * H * W], o[64];
	int64_t sx[4] = { N, C, H, W }, k3[2] = { 3, 3 }, s2[2] = { 2, 2 }, p1[2] = { 1, 1 };
	int64_t OH = (H + 2 - 3) / 2 + 1, OW = (W + 2 - 3) / 2 + 1;
	int64_t so[4] = { N, C, OH, OW }, bad[4] = { N, C, OH, OW + 1 };
	int64_t sa[4] = { N, C, 3, 2 }, osz[2] = { 3, 2 };
	aclIntArray *ak = ia(k3, 2), *as = ia(s2, 2), *ap = ia(p1, 2), *ao = ia(osz, 2);
	aclTensor *tx, *to, *tbad, *ta;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int c, i, j;

	for (i = 0; i < N * C * H * W; i++) x[i] = frand(i);
	tx = tens(sx, 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 4, ACL_FLOAT, od);
	tbad = tens(bad, 4, ACL_FLOAT, od);
	ta = tens(sa, 4, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnMaxPool2dGetWorkspaceSize(tx, ak, as, ap, NULL, false, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMaxPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++)
				EXPECT_TRUE(CLOSE(o[(c * OH + i) * OW + j],
						  pool_ref(x + c * H * W, H, W, i, j, 3, 2, 1, true, false)));
	EXPECT_EQ(INV, aclnnMaxPool2dGetWorkspaceSize(tx, ak, as, ap, NULL, false, tbad, &ws, &ex));

	ASSERT_EQ(0, aclnnAvgPool2dGetWorkspaceSize(tx, ak, as, ap, false, true, 0, 0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++)
				EXPECT_TRUE(CLOSE(o[(c * OH + i) * OW + j],
						  pool_ref(x + c * H * W, H, W, i, j, 3, 2, 1, false, true)));
	ASSERT_EQ(0, aclnnAvgPool2dGetWorkspaceSize(tx, ak, as, ap, false, false, 0, 0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	EXPECT_TRUE(CLOSE(o[0], pool_ref(x, H, W, 0, 0, 3, 2, 1, false, false)));
	EXPECT_EQ(INV, aclnnAvgPool2dGetWorkspaceSize(tx, ak, as, ap, false, true, 0, 0, tbad, &ws, &ex));

	/* Adaptive: 7 x 6 -> 3 x 2; bins [floor(i*H/oh), ceil((i+1)*H/oh)). */
	ASSERT_EQ(0, aclnnAdaptiveAvgPool2dGetWorkspaceSize(tx, ao, ta, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdaptiveAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 2; j++) {
				int h0 = i * H / 3, h1 = ((i + 1) * H + 2) / 3;
				int w0 = j * W / 2, w1 = ((j + 1) * W + 1) / 2, h, w;
				float acc = 0;

				for (h = h0; h < h1; h++)
					for (w = w0; w < w1; w++)
						acc += x[(c * H + h) * W + w];
				EXPECT_TRUE(CLOSE(o[(c * 3 + i) * 2 + j],
						  acc / ((h1 - h0) * (w1 - w0))));
			}
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool2dGetWorkspaceSize(tx, ao, to, &ws, &ex));
	aclDestroyIntArray(ak); aclDestroyIntArray(as); aclDestroyIntArray(ap); aclDestroyIntArray(ao);
}

TEST_F(nn, convolution_transposed)
{
	/* x [1, 2, 3, 3], w [2, 3, 3, 3] (cin, cout), stride 2, pad 1, output padding 1 -> [1, 3, 6, 6] */
	enum { CI = 2, H = 3, CO = 3, K = 3, S = 2, P = 1, OP = 1 };
	enum { OH = (H - 1) * S - 2 * P + K + OP };
	float x[CI * H * H], w[CI * CO * K * K], o[CO * OH * OH], ref[CO * OH * OH];
	int64_t sx[4] = { 1, CI, H, H }, sw[4] = { CI, CO, K, K }, so[4] = { 1, CO, OH, OH };
	int64_t bad[4] = { 1, CO, OH - 1, OH };
	int64_t st[1] = { S }, pd[1] = { P }, dl[1] = { 1 }, op1[1] = { OP };
	aclIntArray *as = ia(st, 1), *ap = ia(pd, 1), *ad = ia(dl, 1), *ao = ia(op1, 1);
	aclTensor *tx, *tw, *to, *tbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, ci, co, ih, iw, kh, kw;

	for (i = 0; i < CI * H * H; i++) x[i] = frand(i);
	for (i = 0; i < CI * CO * K * K; i++) w[i] = frand(2 * i + 5);
	memset(ref, 0, sizeof(ref));
	for (ci = 0; ci < CI; ci++)
	for (co = 0; co < CO; co++)
	for (ih = 0; ih < H; ih++)
	for (iw = 0; iw < H; iw++)
	for (kh = 0; kh < K; kh++)
	for (kw = 0; kw < K; kw++) {
		int oh = ih * S - P + kh, ow = iw * S - P + kw;

		if (oh < 0 || oh >= OH || ow < 0 || ow >= OH)
			continue;
		ref[(co * OH + oh) * OH + ow] += x[(ci * H + ih) * H + iw] *
						 w[((ci * CO + co) * K + kh) * K + kw];
	}
	tx = tens(sx, 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	tw = tens(sw, 4, ACL_FLOAT, dev(self, w, sizeof(w)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 4, ACL_FLOAT, od);
	tbad = tens(bad, 4, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, as, ap, ad, true, ao, 1, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < CO * OH * OH; i++)
		EXPECT_TRUE(CLOSE(o[i], ref[i]));
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, as, ap, ad, true, ao, 1, tbad, 0, &ws, &ex));
	aclDestroyIntArray(as); aclDestroyIntArray(ap); aclDestroyIntArray(ad); aclDestroyIntArray(ao);
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

/*
 * A 3-D input to aclnnConvolution is conv1d in CANN's document (ops-nn
 * conv/convolution_forward/docs/aclnnConvolution.md): input (N, C, L),
 * weight (Cout, C / groups, K), one value each for stride, padding and
 * dilation. Plain with bias (stride 2, padding 1) and transposed (stride
 * 2, outputPadding 1), against direct references; two padding values and
 * a 4-D weight are refused.
 */
TEST_F(nn, conv1d_doc_rank)
{
	float x[42], w[36], b[4], o[32], xt[6], wt[12], ot[21];
	int64_t sx[3] = { 2, 3, 7 }, sw[3] = { 4, 3, 3 }, sb[1] = { 4 }, so[3] = { 2, 4, 4 };
	int64_t sxt[3] = { 1, 2, 3 }, swt[3] = { 2, 3, 2 }, sot[3] = { 1, 3, 7 };
	int64_t sw4[4] = { 4, 3, 1, 3 }, st[1] = { 2 }, pd[1] = { 1 }, pd0[1] = { 0 };
	int64_t dl[1] = { 1 }, op0[1] = { 0 }, op1[1] = { 1 }, pd2[2] = { 1, 1 };
	aclIntArray *ast = ia(st, 1), *apd = ia(pd, 1), *apd0 = ia(pd0, 1), *adl = ia(dl, 1);
	aclIntArray *aop0 = ia(op0, 1), *aop1 = ia(op1, 1), *apd2 = ia(pd2, 2);
	void *xd, *wd, *bd, *od, *otd;
	aclOpExecutor *ex;
	uint64_t ws;
	int n, c, l, k, i;

	for (i = 0; i < 42; i++) x[i] = frand(i);
	for (i = 0; i < 36; i++) w[i] = frand(i + 5) * 0.5f;
	for (i = 0; i < 4; i++) b[i] = 0.25f * i - 0.5f;
	for (i = 0; i < 6; i++) xt[i] = frand(i + 3);
	for (i = 0; i < 12; i++) wt[i] = frand(i + 9);
	xd = dev(self, x, sizeof(x));
	wd = dev(self, w, sizeof(w));
	bd = dev(self, b, sizeof(b));
	od = dev(self, NULL, sizeof(o));
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tens(sx, 3, ACL_FLOAT, xd), tens(sw, 3, ACL_FLOAT, wd),
						      tens(sb, 1, ACL_FLOAT, bd), ast, apd, adl, false,
						      aop0, 1, tens(so, 3, ACL_FLOAT, od), 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(o, od, sizeof(o));
	for (n = 0; n < 2; n++)
		for (c = 0; c < 4; c++)
			for (l = 0; l < 4; l++) {
				float r = b[c];

				for (i = 0; i < 3; i++)
					for (k = 0; k < 3; k++) {
						int p = l * 2 - 1 + k;

						if (p >= 0 && p < 7)
							r += x[(n * 3 + i) * 7 + p] * w[(c * 3 + i) * 3 + k];
					}
				EXPECT_TRUE(CLOSE(o[(n * 4 + c) * 4 + l], r))
					TH_LOG("conv1d %d %d %d: %g vs %g", n, c, l, o[(n * 4 + c) * 4 + l], r);
			}

	otd = dev(self, NULL, sizeof(ot));
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tens(sxt, 3, ACL_FLOAT, dev(self, xt, sizeof(xt))),
						      tens(swt, 3, ACL_FLOAT, dev(self, wt, sizeof(wt))),
						      NULL, ast, apd0, adl, true, aop1, 1,
						      tens(sot, 3, ACL_FLOAT, otd), 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(ot, otd, sizeof(ot));
	{
		/* out[o][2i + k] += x[c][i] * w[c][o][k]; position 6 is the output padding */
		float ref[21] = { 0 };

		for (c = 0; c < 2; c++)
			for (i = 0; i < 3; i++)
				for (n = 0; n < 3; n++)
					for (k = 0; k < 2; k++)
						ref[n * 7 + i * 2 + k] += xt[c * 3 + i] * wt[(c * 3 + n) * 2 + k];
		for (i = 0; i < 21; i++)
			EXPECT_TRUE(CLOSE(ot[i], ref[i])) TH_LOG("conv1d transposed %d: %g vs %g", i, ot[i], ref[i]);
	}
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tens(sx, 3, ACL_FLOAT, xd), tens(sw, 3, ACL_FLOAT, wd),
							tens(sb, 1, ACL_FLOAT, bd), ast, apd2, adl, false,
							aop0, 1, tens(so, 3, ACL_FLOAT, od), 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tens(sx, 3, ACL_FLOAT, xd), tens(sw4, 4, ACL_FLOAT, wd),
							tens(sb, 1, ACL_FLOAT, bd), ast, apd, adl, false,
							aop0, 1, tens(so, 3, ACL_FLOAT, od), 0, &ws, &ex));
	aclDestroyIntArray(ast); aclDestroyIntArray(apd); aclDestroyIntArray(apd0);
	aclDestroyIntArray(adl); aclDestroyIntArray(aop0); aclDestroyIntArray(aop1);
	aclDestroyIntArray(apd2);
}

TEST_HARNESS_MAIN
