// SPDX-License-Identifier: MIT
/*
 * The second set of aclnn operators (lib/nn/nn_ops2.c) on the real driver:
 * each against a C reference, plus one bad-shape case per operator.
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
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_sort.h"
/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

#define INV ACLNN_ERR_PARAM_INVALID

static float frand(int i) { return (float)((i * 37 + 11) % 23) / 7.0f - 1.5f; }

static aclIntArray *ia(const int64_t *v, uint64_t n) { return aclCreateIntArray(v, n); }

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

TEST_F(nn, norms)
{
	enum { R = 3, D = 8 };
	float x[R * D], g[D], b[D], o[R * D];
	int64_t sx[2] = { R, D }, sg[1] = { D }, sbad[1] = { D - 1 }, ns[1] = { D };
	aclIntArray *an = ia(ns, 1);
	aclTensor *tx, *tg, *tb, *to, *tgbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int r, i;

	for (i = 0; i < R * D; i++) x[i] = frand(i) * (1 + i % 3);
	for (i = 0; i < D; i++) { g[i] = 0.5f + 0.1f * i; b[i] = 0.2f * i - 0.5f; }
	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	tg = tens(sg, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	tb = tens(sg, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	tgbad = tens(sbad, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	od = dev(self, NULL, sizeof(o));
	to = tens(sx, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnLayerNormGetWorkspaceSize(tx, an, tg, tb, 1e-5, to, NULL, NULL, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLayerNorm, ws, ex));
	get(o, od, sizeof(o));
	for (r = 0; r < R; r++) {
		float m = 0, v = 0;

		for (i = 0; i < D; i++) m += x[r * D + i];
		m /= D;
		for (i = 0; i < D; i++) v += (x[r * D + i] - m) * (x[r * D + i] - m);
		v /= D;
		for (i = 0; i < D; i++)
			EXPECT_TRUE(CLOSE(o[r * D + i], (x[r * D + i] - m) / sqrtf(v + 1e-5f) * g[i] + b[i]));
	}
	EXPECT_EQ(INV, aclnnLayerNormGetWorkspaceSize(tx, an, tgbad, NULL, 1e-5, to, NULL, NULL, &ws, &ex));

	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, to, NULL, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(o, od, sizeof(o));
	for (r = 0; r < R; r++) {
		float ms = 0;

		for (i = 0; i < D; i++) ms += x[r * D + i] * x[r * D + i];
		ms /= D;
		for (i = 0; i < D; i++)
			EXPECT_TRUE(CLOSE(o[r * D + i], x[r * D + i] / sqrtf(ms + 1e-6f) * g[i]));
	}
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tgbad, 1e-6, to, NULL, &ws, &ex));
	aclDestroyIntArray(an);
}

TEST_F(nn, reductions)
{
	enum { A = 3, B = 4, C = 5 };
	float x[A * B * C], o[A * C], o2[A * C];
	int64_t sx[3] = { A, B, C }, so[2] = { A, C }, sk[3] = { A, 1, C }, bad[2] = { A, B };
	int64_t d1[1] = { 1 }, dn[1] = { -2 }, s0[1] = { 1 };
	int64_t io[A * C];
	aclIntArray *a1 = ia(d1, 1), *an = ia(dn, 1), *a0 = aclCreateIntArray(NULL, 0);
	aclTensor *tx, *to, *tk, *tbad, *ti, *t1;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *idd;
	int a, c, b;

	for (a = 0; a < A * B * C; a++) x[a] = frand(a) + 0.01f * a;
	tx = tens(sx, 3, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 2, ACL_FLOAT, od);
	tk = tens(sk, 3, ACL_FLOAT, od);
	tbad = tens(bad, 2, ACL_FLOAT, od);
	t1 = tens(s0, 0, ACL_FLOAT, od);
	idd = dev(self, NULL, sizeof(io));
	ti = tens(so, 2, ACL_INT64, idd);

	ASSERT_EQ(0, aclnnReduceSumGetWorkspaceSize(tx, a1, false, ACL_FLOAT, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnReduceSum, ws, ex));
	get(o, od, sizeof(o));
	for (a = 0; a < A; a++)
		for (c = 0; c < C; c++) {
			float s = 0;

			for (b = 0; b < B; b++) s += x[(a * B + b) * C + c];
			EXPECT_TRUE(CLOSE(o[a * C + c], s));
		}
	EXPECT_EQ(INV, aclnnReduceSumGetWorkspaceSize(tx, a1, false, ACL_FLOAT, tbad, &ws, &ex));

	ASSERT_EQ(0, aclnnMeanGetWorkspaceSize(tx, an, true, ACL_FLOAT, tk, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMean, ws, ex));
	get(o, od, sizeof(o));
	for (a = 0; a < A; a++)
		for (c = 0; c < C; c++) {
			float s = 0;

			for (b = 0; b < B; b++) s += x[(a * B + b) * C + c];
			EXPECT_TRUE(CLOSE(o[a * C + c], s / B));
		}
	EXPECT_EQ(INV, aclnnMeanGetWorkspaceSize(tx, an, false, ACL_FLOAT, tk, &ws, &ex));

	/* Sum over everything (empty dim list) into a rank-0 tensor. */
	ASSERT_EQ(0, aclnnReduceSumGetWorkspaceSize(tx, a0, false, ACL_FLOAT, t1, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnReduceSum, ws, ex));
	get(o, od, 4);
	{
		float s = 0;

		for (a = 0; a < A * B * C; a++) s += x[a];
		EXPECT_TRUE(fabsf(o[0] - s) < 1e-3f);
	}

	ASSERT_EQ(0, aclnnAmaxGetWorkspaceSize(tx, a1, false, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAmax, ws, ex));
	get(o, od, sizeof(o));
	ASSERT_EQ(0, aclnnAminGetWorkspaceSize(tx, a1, false, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAmin, ws, ex));
	get(o2, od, sizeof(o2));
	ASSERT_EQ(0, aclnnArgMaxGetWorkspaceSize(tx, 1, false, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArgMax, ws, ex));
	get(io, idd, sizeof(io));
	for (a = 0; a < A; a++)
		for (c = 0; c < C; c++) {
			float mx = -INFINITY, mn = INFINITY;
			int64_t am = 0;

			for (b = 0; b < B; b++) {
				float v = x[(a * B + b) * C + c];

				if (v > mx) { mx = v; am = b; }
				mn = fminf(mn, v);
			}
			EXPECT_EQ(mx, o[a * C + c]);
			EXPECT_EQ(mn, o2[a * C + c]);
			EXPECT_EQ(am, io[a * C + c]);
		}
	EXPECT_EQ(INV, aclnnAmaxGetWorkspaceSize(tx, a1, true, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnAminGetWorkspaceSize(tx, a1, false, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tx, 1, false, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tx, 3, false, ti, &ws, &ex));
	aclDestroyIntArray(a1); aclDestroyIntArray(an); aclDestroyIntArray(a0);
}

TEST_F(nn, permute_cat)
{
	enum { A = 2, B = 3, C = 4 };
	float x[A * B * C], o[A * B * (2 * C + 2)], y[A * B * 2];
	int64_t sx[3] = { A, B, C }, so[3] = { C, A, B }, perm[3] = { 2, 0, 1 }, perm_bad[3] = { 2, 0, 0 };
	int64_t sy[3] = { A, B, 2 }, sc[3] = { A, B, C + 2 + C }, scbad[3] = { A, B, C + 1 };
	aclIntArray *ap = ia(perm, 3), *apb = ia(perm_bad, 3);
	aclTensor *tx, *to, *ty, *tc, *tcbad;
	const aclTensor *l[3];
	aclTensorList *tl;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int a, b, c;

	for (a = 0; a < A * B * C; a++) x[a] = (float)a;
	for (a = 0; a < A * B * 2; a++) y[a] = -1.0f - a;
	tx = tens(sx, 3, ACL_FLOAT, dev(self, x, sizeof(x)));
	ty = tens(sy, 3, ACL_FLOAT, dev(self, y, sizeof(y)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnPermuteGetWorkspaceSize(tx, ap, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPermute, ws, ex));
	get(o, od, sizeof(float) * A * B * C);
	for (c = 0; c < C; c++)
		for (a = 0; a < A; a++)
			for (b = 0; b < B; b++)
				EXPECT_EQ(x[(a * B + b) * C + c], o[(c * A + a) * B + b]);
	EXPECT_EQ(INV, aclnnPermuteGetWorkspaceSize(tx, apb, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnPermuteGetWorkspaceSize(tx, ap, tx, &ws, &ex));

	tc = tens(sc, 3, ACL_FLOAT, od);
	tcbad = tens(scbad, 3, ACL_FLOAT, od);
	l[0] = tx; l[1] = ty; l[2] = tx;
	tl = aclCreateTensorList(l, 3);
	ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, -1, tc, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
	get(o, od, sizeof(o));
	for (a = 0; a < A; a++)
		for (b = 0; b < B; b++)
			for (c = 0; c < 2 * C + 2; c++) {
				float e = c < C ? x[(a * B + b) * C + c] :
					  c < C + 2 ? y[(a * B + b) * 2 + c - C] :
					  x[(a * B + b) * C + c - C - 2];
				EXPECT_EQ(e, o[(a * B + b) * (2 * C + 2) + c]);
			}
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, -1, tcbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 0, tc, &ws, &ex));
	aclDestroyIntArray(ap); aclDestroyIntArray(apb);
}

TEST_F(nn, fill_copy)
{
	float o[12], src[4] = { 1, 2, 3, 4 };
	int32_t io[12];
	int64_t s[2] = { 3, 4 }, s1[1] = { 4 }, sbad[1] = { 3 };
	float fv = 2.5f;
	int32_t iv = 7;
	aclScalar *sf = aclCreateScalar(&fv, ACL_FLOAT), *si = aclCreateScalar(&iv, ACL_INT32);
	void *od = dev(self, NULL, sizeof(o)), *idd = dev(self, NULL, sizeof(io));
	aclTensor *to = tens(s, 2, ACL_FLOAT, od), *ti = tens(s, 2, ACL_INT32, idd);
	aclTensor *tsrc = tens(s1, 1, ACL_FLOAT, dev(self, src, sizeof(src)));
	aclTensor *tbad = tens(sbad, 1, ACL_FLOAT, dev(self, src, sizeof(src)));
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnInplaceFillScalarGetWorkspaceSize(to, sf, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceFillScalar, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(2.5f, o[i]);
	ASSERT_EQ(0, aclnnInplaceFillScalarGetWorkspaceSize(ti, si, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceFillScalar, ws, ex));
	get(io, idd, sizeof(io));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(7, io[i]);
	EXPECT_EQ(INV, aclnnInplaceFillScalarGetWorkspaceSize(ti, sf, &ws, &ex));

	/* Copy with broadcast and a cast to INT32. */
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(to, tsrc, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(src[i % 4], o[i]);
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(ti, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(io, idd, sizeof(io));
	for (i = 0; i < 12; i++)
		EXPECT_EQ((int)src[i % 4], io[i]);
	EXPECT_EQ(INV, aclnnInplaceCopyGetWorkspaceSize(to, tbad, &ws, &ex));
	aclDestroyScalar(sf); aclDestroyScalar(si);
}

TEST_F(nn, slice_gather_index_select)
{
	enum { A = 3, B = 7 };
	float x[A * B], o[64];
	int64_t sx[2] = { A, B }, ss[2] = { A, 3 }, sbad[2] = { A, 4 };
	int64_t gi[A * 2] = { 6, 0, 1, 1, 3, 5 }, sgi[2] = { A, 2 };
	int32_t si[4] = { 2, 0, 2, 1 };
	int64_t ssi[1] = { 4 }, sso[2] = { 4, B };
	aclTensor *tx, *ts, *tbad, *tgi, *tgo, *tsi, *tso;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int a, b;

	for (a = 0; a < A * B; a++) x[a] = (float)a;
	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(float) * 64);
	ts = tens(ss, 2, ACL_FLOAT, od);
	tbad = tens(sbad, 2, ACL_FLOAT, od);
	/* x[:, 1:-1:2] -> columns 1, 3, 5 */
	ASSERT_EQ(0, aclnnSliceGetWorkspaceSize(tx, -1, 1, -1, 2, ts, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSlice, ws, ex));
	get(o, od, sizeof(float) * A * 3);
	for (a = 0; a < A; a++)
		for (b = 0; b < 3; b++)
			EXPECT_EQ(x[a * B + 1 + 2 * b], o[a * 3 + b]);
	EXPECT_EQ(INV, aclnnSliceGetWorkspaceSize(tx, 1, 1, -1, 2, tbad, &ws, &ex));

	tgi = tens(sgi, 2, ACL_INT64, dev(self, gi, sizeof(gi)));
	tgo = tens(sgi, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnGatherGetWorkspaceSize(tx, 1, tgi, tgo, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGather, ws, ex));
	get(o, od, sizeof(float) * A * 2);
	for (a = 0; a < A; a++)
		for (b = 0; b < 2; b++)
			EXPECT_EQ(x[a * B + gi[a * 2 + b]], o[a * 2 + b]);
	EXPECT_EQ(INV, aclnnGatherGetWorkspaceSize(tx, 1, tgi, ts, &ws, &ex));

	tsi = tens(ssi, 1, ACL_INT32, dev(self, si, sizeof(si)));
	tso = tens(sso, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnIndexSelectGetWorkspaceSize(tx, 0, tsi, tso, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnIndexSelect, ws, ex));
	get(o, od, sizeof(float) * 4 * B);
	for (a = 0; a < 4; a++)
		for (b = 0; b < B; b++)
			EXPECT_EQ(x[si[a] * B + b], o[a * B + b]);
	EXPECT_EQ(INV, aclnnIndexSelectGetWorkspaceSize(tx, 1, tsi, tso, &ws, &ex));
}

TEST_F(nn, where_pad_repeat)
{
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[3] = { -1, -2, -3 }, o[64];
	uint8_t cnd[6] = { 1, 0, 1, 0, 0, 1 };
	int64_t s23[2] = { 2, 3 }, s3[1] = { 3 }, s22[2] = { 2, 2 };
	int64_t pads[4] = { 1, 2, 0, 1 }, sp[2] = { 3, 6 }, rep[3] = { 2, 1, 2 }, sr[3] = { 2, 2, 6 };
	float pv = 9.0f;
	aclScalar *val = aclCreateScalar(&pv, ACL_FLOAT);
	aclIntArray *ap = aclCreateIntArray(pads, 4), *ar = aclCreateIntArray(rep, 3);
	aclTensor *ta, *tb, *tc, *to, *tbad, *tp, *tr;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, j, k;

	ta = tens(s23, 2, ACL_FLOAT, dev(self, a, sizeof(a)));
	tb = tens(s3, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	tc = tens(s23, 2, ACL_BOOL, dev(self, cnd, sizeof(cnd)));
	od = dev(self, NULL, sizeof(o));
	to = tens(s23, 2, ACL_FLOAT, od);
	tbad = tens(s22, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnSWhereGetWorkspaceSize(tc, ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSWhere, ws, ex));
	get(o, od, sizeof(float) * 6);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(cnd[i] ? a[i] : b[i % 3], o[i]);
	EXPECT_EQ(INV, aclnnSWhereGetWorkspaceSize(tc, ta, tb, tbad, &ws, &ex));

	/* [2, 3] padded: last dim (1, 2), first dim (0, 1) -> [3, 6] */
	tp = tens(sp, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnConstantPadNdGetWorkspaceSize(ta, ap, val, tp, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConstantPadNd, ws, ex));
	get(o, od, sizeof(float) * 18);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 6; j++)
			EXPECT_EQ(i < 2 && j >= 1 && j < 4 ? a[i * 3 + j - 1] : 9.0f, o[i * 6 + j]);
	EXPECT_EQ(INV, aclnnConstantPadNdGetWorkspaceSize(ta, ap, val, to, &ws, &ex));

	/* [2, 3] repeated (2, 1, 2) -> [2, 2, 6] */
	tr = tens(sr, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnRepeatGetWorkspaceSize(ta, ar, tr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRepeat, ws, ex));
	get(o, od, sizeof(float) * 24);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 6; j++)
				EXPECT_EQ(a[i * 3 + j % 3], o[(k * 2 + i) * 6 + j]);
	EXPECT_EQ(INV, aclnnRepeatGetWorkspaceSize(ta, ar, tp, &ws, &ex));
	aclDestroyScalar(val);
	aclDestroyIntArray(ap); aclDestroyIntArray(ar);
}

TEST_F(nn, topk_sort)
{
	enum { R = 2, N = 6 };
	float x[R * N] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8 }, v[R * N];
	int64_t ix[R * N], sx[2] = { R, N }, sk[2] = { R, 3 };
	aclTensor *tx, *tv, *ti, *tvk, *tik;
	aclOpExecutor *ex;
	uint64_t ws;
	void *vd, *id;
	int r, i;

	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	vd = dev(self, NULL, sizeof(v));
	id = dev(self, NULL, sizeof(ix));
	tv = tens(sx, 2, ACL_FLOAT, vd);
	ti = tens(sx, 2, ACL_INT64, id);
	tvk = tens(sk, 2, ACL_FLOAT, vd);
	tik = tens(sk, 2, ACL_INT64, id);
	ASSERT_EQ(0, aclnnSortGetWorkspaceSize(tx, true, -1, false, tv, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSort, ws, ex));
	get(v, vd, sizeof(v));
	get(ix, id, sizeof(ix));
	for (r = 0; r < R; r++)
		for (i = 0; i < N; i++) {
			EXPECT_EQ(x[r * N + ix[r * N + i]], v[r * N + i]);
			if (i)
				EXPECT_TRUE(v[r * N + i - 1] <= v[r * N + i]);
			/* stable: equal values keep their order */
			if (i && v[r * N + i - 1] == v[r * N + i])
				EXPECT_TRUE(ix[r * N + i - 1] < ix[r * N + i]);
		}
	EXPECT_EQ(INV, aclnnSortGetWorkspaceSize(tx, true, -1, false, tvk, tik, &ws, &ex));

	ASSERT_EQ(0, aclnnTopkGetWorkspaceSize(tx, 3, 1, true, true, tvk, tik, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnTopk, ws, ex));
	get(v, vd, sizeof(float) * R * 3);
	get(ix, id, sizeof(int64_t) * R * 3);
	{
		float want[R * 3] = { 9, 5, 4, 8, 6, 5 };

		for (i = 0; i < R * 3; i++) {
			EXPECT_EQ(want[i], v[i]);
			EXPECT_EQ(x[(i / 3) * N + ix[i]], v[i]);
		}
	}
	EXPECT_EQ(INV, aclnnTopkGetWorkspaceSize(tx, 4, 1, true, true, tvk, tik, &ws, &ex));
	EXPECT_EQ(INV, aclnnTopkGetWorkspaceSize(tx, 3, 1, true, true, tvk, ti, &ws, &ex));
}

TEST_F(nn, batch_norm)
{
	enum { N = 2, C = 3, HW = 4 };
	float x[N * C * HW], o[N * C * HW];
	float m[C] = { 0.5f, -1, 2 }, v[C] = { 1, 4, 0.25f }, w[C] = { 2, 0.5f, -1 }, b[C] = { 0, 1, -2 };
	int64_t sx[3] = { N, C, HW }, sc[1] = { C }, sbad[1] = { C + 1 };
	aclTensor *tx, *tm, *tv, *tw, *tb, *to, *tbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i;

	for (i = 0; i < N * C * HW; i++) x[i] = frand(i) * 2;
	tx = tens(sx, 3, ACL_FLOAT, dev(self, x, sizeof(x)));
	tm = tens(sc, 1, ACL_FLOAT, dev(self, m, sizeof(m)));
	tv = tens(sc, 1, ACL_FLOAT, dev(self, v, sizeof(v)));
	tw = tens(sc, 1, ACL_FLOAT, dev(self, w, sizeof(w)));
	tb = tens(sc, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	tbad = tens(sbad, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	od = dev(self, NULL, sizeof(o));
	to = tens(sx, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnBatchNormGetWorkspaceSize(tx, tw, tb, tm, tv, false, 0.1, 1e-5, to, NULL, NULL, &ws, &ex));
	EXPECT_LT(0, ws);
	ASSERT_EQ(0, run(self, aclnnBatchNorm, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < N * C * HW; i++) {
		int c = (i / HW) % C;

		EXPECT_TRUE(CLOSE(o[i], (x[i] - m[c]) / sqrtf(v[c] + 1e-5f) * w[c] + b[c]));
	}
	/* Without weight and bias: no workspace. */
	ASSERT_EQ(0, aclnnBatchNormGetWorkspaceSize(tx, NULL, NULL, tm, tv, false, 0.1, 1e-5, to, NULL, NULL, &ws, &ex));
	EXPECT_EQ(0, ws);
	ASSERT_EQ(0, run(self, aclnnBatchNorm, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < N * C * HW; i++) {
		int c = (i / HW) % C;

		EXPECT_TRUE(CLOSE(o[i], (x[i] - m[c]) / sqrtf(v[c] + 1e-5f)));
	}
	EXPECT_EQ(INV, aclnnBatchNormGetWorkspaceSize(tx, tw, tbad, tm, tv, false, 0.1, 1e-5, to, NULL, NULL, &ws, &ex));
	EXPECT_EQ(INV, aclnnBatchNormGetWorkspaceSize(tx, tw, tb, tm, tv, true, 0.1, 1e-5, to, NULL, NULL, &ws, &ex));
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

TEST_HARNESS_MAIN
