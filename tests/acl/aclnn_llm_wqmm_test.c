// SPDX-License-Identifier: MIT
/*
 * aclnnWeightQuantBatchMatmulV2 on the real driver against a C reference
 * that dequantises the weight in double: ggml's Q8_0 and Q4_0 layouts
 * (the weight and its FLOAT16 scales seen transposed, group size 32, the
 * split views starting at an element offset), INT8 and INT4 row-major
 * weights with per-channel and per-tensor scales, offsets, bias of both
 * shapes, FLOAT16 and BF16, a transposed x; every validation rule's
 * code (161001 NULL, 161002 invalid). TransMatmulWeight (a no-op on ND)
 * and CalculateMatmulWeightSize(V2) (the ND element count).
 * GroupedMatmulV3 in its three supported forms (one x split by a
 * cumulative group list, lists of matmuls, lists stacked into one y),
 * a list that breaks the rules failing the task, and every refusal.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "aclnnop/aclnn_grouped_matmul_v3.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

/* bf16 <-> float, round to nearest even (no NaN here). */
static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

static float from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint16_t enc(aclDataType dt, float f)
{
	return dt == ACL_BF16 ? to_bf16(f) : aclFloatToFloat16(f);
}

static float dec(aclDataType dt, uint16_t h)
{
	return dt == ACL_BF16 ? from_bf16(h) : aclFloat16ToFloat(h);
}

enum { SC_TENSOR, SC_CHANNEL_1D, SC_CHANNEL_2D, SC_GROUP };

struct wcase {
	aclDataType dt;
	bool int4;
	bool wt;	/* ggml: weight and scales stored [n][k], seen transposed */
	int gs;
	int sc;		/* SC_* */
	bool off;
	int bias;	/* 0 none, 1 [n], 2 [1, n] */
	bool xt;	/* x a transposed view */
	int m, n, k;
	int skip;	/* weight rows of n before the view (ggml's splits) */
};

/* Run one case; returns the number of wrong outputs (or -1: refused). */
static int wq_case(FIXTURE_DATA(nn) *self, const struct wcase *c)
{
	int m = c->m, n = c->n, k = c->k, nt = c->n + c->skip, i, j, q, bad = 0;
	int g = c->sc == SC_GROUP ? (k + c->gs - 1) / c->gs : 1;
	int sn = c->sc == SC_TENSOR ? 1 : n;	/* scale columns */
	int *wv = calloc((size_t)k * n, sizeof(int));
	size_t wbytes = c->int4 ? (size_t)nt * k / 2 : (size_t)nt * k;
	uint8_t *wb = calloc(wbytes, 1);
	uint16_t *x = calloc((size_t)m * k, 2), *s = calloc((size_t)g * nt, 2);
	uint16_t *o = calloc((size_t)m * n, 2), *off = calloc((size_t)g * nt, 2);
	aclDataType bdt = c->dt == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16;
	float *bf = calloc(n, 4);
	uint16_t *bh = calloc(n, 2);
	int64_t xd[2] = { m, k }, xs[2] = { c->xt ? 1 : k, c->xt ? m : 1 };
	int64_t wd[2] = { k, n }, ws_[2], sd[2], ss[2], od[2] = { m, n };
	int64_t bd[2] = { 1, n }, woff = 0, soff = 0;
	aclTensor *tx, *tw, *ts, *to, *toff = NULL, *tb = NULL;
	void *odev;
	aclOpExecutor *ex;
	uint64_t wsz;
	int ret, nb0 = self->nbufs;

	for (i = 0; i < m * k; i++)
		x[i] = enc(c->dt, frand(i * 3 + 1) * 0.5f);
	for (q = 0; q < k; q++)
		for (j = 0; j < n; j++) {
			int v = c->int4 ? (q * 7 + j * 13 + 3) % 16 - 8 :
					  (q * 37 + j * 91 + 5) % 256 - 128;
			long at;

			wv[q * n + j] = v;
			if (!c->int4) {
				at = c->wt ? (long)(j + c->skip) * k + q : (long)q * n + j;
				wb[at] = (uint8_t)(int8_t)v;
				continue;
			}
			/* nibble index; the even one is the low nibble */
			at = c->wt ? (long)(j + c->skip) * k + q : (long)q * n + j;
			wb[at / 2] |= (uint8_t)((v & 15) << (at % 2 * 4));
		}
	for (i = 0; i < g * nt; i++) {
		s[i] = enc(c->dt, 0.002f + 0.001f * (float)((i * 5) % 17));
		off[i] = enc(c->dt, (float)((i * 3) % 9) - 4.0f);
	}
	for (j = 0; j < n; j++) {
		bf[j] = frand(j + 5);
		bh[j] = aclFloatToFloat16(bf[j]);
	}
	/* weight view */
	if (c->wt) {
		ws_[0] = 1;
		ws_[1] = k;
		woff = (int64_t)c->skip * k;
	} else {
		ws_[0] = n;
		ws_[1] = 1;
	}
	tx = view(xd, 2, xs, 0, (int64_t)m * k, c->dt, dev(self, x, (size_t)m * k * 2));
	tw = view(wd, 2, ws_, woff, (int64_t)nt * k, c->int4 ? ACL_INT4 : ACL_INT8,
		  dev(self, wb, wbytes));
	/* scale and offset views */
	if (c->sc == SC_TENSOR || c->sc == SC_CHANNEL_1D) {
		sd[0] = sn;
		ss[0] = 1;
	} else if (c->wt) {
		sd[0] = g;
		sd[1] = n;
		ss[0] = 1;
		ss[1] = g;
		soff = (int64_t)c->skip * g;
	} else {
		sd[0] = g;
		sd[1] = n;
		ss[0] = n;
		ss[1] = 1;
	}
	ts = view(sd, c->sc == SC_TENSOR || c->sc == SC_CHANNEL_1D ? 1 : 2, ss, soff,
		  (int64_t)g * nt, c->dt, dev(self, s, (size_t)g * nt * 2));
	if (c->off)
		toff = view(sd, c->sc == SC_TENSOR || c->sc == SC_CHANNEL_1D ? 1 : 2, ss,
			    soff, (int64_t)g * nt, c->dt,
			    dev(self, off, (size_t)g * nt * 2));
	if (c->bias)
		tb = tens(c->bias == 1 ? bd + 1 : bd, c->bias, bdt,
			  bdt == ACL_FLOAT ? dev(self, bf, (size_t)n * 4) :
					     dev(self, bh, (size_t)n * 2));
	odev = dev(self, NULL, (size_t)m * n * 2);
	to = tens(od, 2, c->dt, odev);
	ret = aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(tx, tw, ts, toff, NULL, NULL, tb,
							     c->gs, to, &wsz, &ex);
	if (!ret)
		ret = run(self, aclnnWeightQuantBatchMatmulV2, wsz, ex);
	if (ret) {
		bad = -1;
		goto out;
	}
	get(o, odev, (size_t)m * n * 2);
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double want = 0, mag = 0, got;

			for (q = 0; q < k; q++) {
				int gi = c->sc == SC_GROUP ? q / c->gs : 0;
				double w = wv[q * n + j], t;
				int si;

				/* stored [n][g] when transposed, [g][n] else */
				if (c->sc == SC_TENSOR)
					si = 0;
				else if (c->sc == SC_CHANNEL_1D)
					si = j;
				else if (c->wt)
					si = (j + c->skip) * g + gi;
				else
					si = gi * n + j;
				if (c->off)
					w += dec(c->dt, off[si]);
				w *= dec(c->dt, s[si]);
				t = dec(c->dt, x[c->xt ? q * m + i : i * k + q]) * w;
				want += t;
				mag += fabs(t);
			}
			if (c->bias) {
				double b = bdt == ACL_FLOAT ? bf[j] : aclFloat16ToFloat(bh[j]);

				want += b;
				mag += fabs(b);
			}
			got = dec(c->dt, o[i * n + j]);
			if (fabs(got - want) > (c->dt == ACL_BF16 ? 8e-3 : 1e-3) * mag + 1e-4) {
				if (bad < 3)
					fprintf(stderr, "  [%d, %d]: got %g want %g\n", i, j, got,
						want);
				bad++;
			}
		}
out:
	while (self->nbufs > nb0)	/* the fixture holds 16: free this case's */
		aclrtFree(self->bufs[--self->nbufs]);
	aclDestroyTensor(tx);
	aclDestroyTensor(tw);
	aclDestroyTensor(ts);
	aclDestroyTensor(to);
	if (toff)
		aclDestroyTensor(toff);
	if (tb)
		aclDestroyTensor(tb);
	free(wv);
	free(wb);
	free(x);
	free(s);
	free(o);
	free(off);
	free(bf);
	free(bh);
	return bad;
}

/* ggml's Q8_0: weight [n][k] INT8, FLOAT16 scales [n][k / 32], both transposed. */
TEST_F(nn, ggml_q8_0)
{
	struct wcase c = { .dt = ACL_FLOAT16, .wt = true, .gs = 32, .sc = SC_GROUP,
			   .m = 3, .n = 10, .k = 96 };

	EXPECT_EQ(0, wq_case(self, &c));
	c.m = 1;		/* MUL_MAT_ID: one token, an expert's view */
	c.skip = 7;		/* the view starts 7 rows of n in (a split) */
	EXPECT_EQ(0, wq_case(self, &c));
	c.m = 5;
	c.n = 33;
	c.k = 32;		/* k == 32: ggml passes group size 0 */
	c.gs = 0;
	c.sc = SC_CHANNEL_2D;
	EXPECT_EQ(0, wq_case(self, &c));
}

/* ggml's Q4_0: two k per byte, the even k in the low nibble. */
TEST_F(nn, ggml_q4_0)
{
	struct wcase c = { .dt = ACL_FLOAT16, .int4 = true, .wt = true, .gs = 32,
			   .sc = SC_GROUP, .m = 4, .n = 9, .k = 128 };

	EXPECT_EQ(0, wq_case(self, &c));
	c.skip = 5;
	c.m = 1;
	EXPECT_EQ(0, wq_case(self, &c));
	c.m = 300;		/* more than one block of rows */
	c.n = 70;
	c.skip = 0;
	EXPECT_EQ(0, wq_case(self, &c));
}

TEST_F(nn, row_major_weights_offsets_bias)
{
	static const aclDataType dts[2] = { ACL_FLOAT16, ACL_BF16 };
	int d, i4;

	for (d = 0; d < 2; d++)
		for (i4 = 0; i4 < 2; i4++) {
			struct wcase c = { .dt = dts[d], .int4 = i4, .sc = SC_CHANNEL_1D,
					   .off = true, .bias = 1, .m = 7, .n = 12, .k = 40 };

			EXPECT_EQ(0, wq_case(self, &c)) TH_LOG("dt %d int4 %d 1d", d, i4);
			c.sc = SC_TENSOR;
			c.bias = 2;
			c.xt = true;
			EXPECT_EQ(0, wq_case(self, &c)) TH_LOG("dt %d int4 %d tensor", d, i4);
			c.sc = SC_GROUP;
			c.gs = 32;
			c.k = 72;
			c.xt = false;
			EXPECT_EQ(0, wq_case(self, &c)) TH_LOG("dt %d int4 %d group", d, i4);
			c.sc = SC_CHANNEL_2D;
			c.gs = 0;
			c.wt = true;
			c.bias = 0;
			EXPECT_EQ(0, wq_case(self, &c)) TH_LOG("dt %d int4 %d 2d", d, i4);
		}
}

/* Every rule, one at a time, from a valid call. */
TEST_F(nn, wq_refusals)
{
	int64_t xd[2] = { 2, 64 }, wd[2] = { 64, 4 }, sd[2] = { 2, 4 }, s1[1] = { 4 };
	int64_t od[2] = { 2, 4 }, x3[3] = { 1, 2, 64 }, bd[1] = { 5 }, sbad[2] = { 3, 4 };
	int64_t wodd[2] = { 64, 3 }, xodd[2] = { 2, 63 }, wks[2] = { 63, 4 };
	int64_t wt_st[2] = { 1, 64 }, wt63[2] = { 1, 63 }, xz[2] = { 0, 64 }, oz[2] = { 0, 4 };
	int64_t xbig[2] = { 2, 65536 }, wbig[2] = { 65536, 4 }, z2[2] = { 0, 0 };
	void *d = dev(self, NULL, 4096);
	aclTensor *x = tens(xd, 2, ACL_FLOAT16, d), *w = tens(wd, 2, ACL_INT8, d);
	aclTensor *w4 = tens(wd, 2, ACL_INT4, d), *s = tens(sd, 2, ACL_FLOAT16, d);
	/* the output in a buffer of its own: tasks may not write what they read */
	aclTensor *sc = tens(s1, 1, ACL_FLOAT16, d);
	aclTensor *o = tens(od, 2, ACL_FLOAT16, dev(self, NULL, 64));
	aclTensor *xf = tens(xd, 2, ACL_FLOAT, d), *wh = tens(wd, 2, ACL_FLOAT16, d);
	aclTensor *sb = tens(sd, 2, ACL_BF16, d), *ob = tens(od, 2, ACL_BF16, d);
	aclTensor *x3t = tens(x3, 3, ACL_FLOAT16, d), *bb = tens(bd, 1, ACL_FLOAT16, d);
	aclTensor *bf = tens(s1, 1, ACL_FLOAT, d), *ssb = tens(sbad, 2, ACL_FLOAT16, d);
	aclTensor *u64 = tens(s1, 1, ACL_UINT64, d), *qo = tens(s1, 1, ACL_FLOAT, d);
	aclTensor *w4odd = tens(wodd, 2, ACL_INT4, d);
	aclTensor *xo = tens(xodd, 2, ACL_FLOAT16, d), *wk = tens(wks, 2, ACL_INT8, d);
	aclTensor *w4t = view(wd, 2, wt_st, 1, 512, ACL_INT4, d);
	aclTensor *w4k = view(wks, 2, wt63, 0, 512, ACL_INT4, d);
	aclTensor *wnz = aclCreateTensor(wd, 2, ACL_INT8, NULL, 0, ACL_FORMAT_FRACTAL_NZ,
					 wd, 2, d);
	aclTensor *x0 = tens(xz, 2, ACL_FLOAT16, d), *o0 = tens(oz, 2, ACL_FLOAT16, d);
	aclTensor *xb = view(xbig, 2, z2, 0, 1, ACL_FLOAT16, d);
	aclTensor *wb = view(wbig, 2, z2, 0, 1, ACL_INT8, d);
	aclOpExecutor *ex;
	uint64_t ws;

#define WQ(X, W, S, OFF, QS, QO, B, GS, Y)					\
	aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(X, W, S, OFF, QS, QO, B, GS, Y, \
						       &ws, &ex)
	/* the valid call, then run it */
	ASSERT_EQ(0, WQ(x, w, s, s, NULL, NULL, sc, 32, o));
	EXPECT_EQ(0, run(self, aclnnWeightQuantBatchMatmulV2, ws, ex));
	ASSERT_EQ(0, WQ(x, w4, sc, NULL, NULL, NULL, NULL, 0, o));
	EXPECT_EQ(0, run(self, aclnnWeightQuantBatchMatmulV2, ws, ex));
	/* NULLs */
	EXPECT_EQ(NUL, WQ(NULL, w, s, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(NUL, WQ(x, NULL, s, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(NUL, WQ(x, w, NULL, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(NUL, WQ(x, w, s, NULL, NULL, NULL, NULL, 32, NULL));
	EXPECT_EQ(NUL, aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
			       x, w, s, NULL, NULL, NULL, NULL, 32, o, NULL, &ex));
	EXPECT_EQ(NUL, aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
			       x, w, s, NULL, NULL, NULL, NULL, 32, o, &ws, NULL));
	/* dtypes */
	EXPECT_EQ(INV, WQ(xf, w, s, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(INV, WQ(x, wh, s, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(INV, WQ(x, w, sb, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(INV, WQ(x, w, s, sb, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, NULL, 32, ob));
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, bf, 32, o));	/* f16 x: f16 bias */
	/* output quantisation: refused, and an offset alone is an error */
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, qo, NULL, 32, o));
	EXPECT_EQ(INV, WQ(x, w, s, NULL, u64, NULL, NULL, 32, o));
	/* shapes */
	EXPECT_EQ(INV, WQ(x3t, w, s, NULL, NULL, NULL, NULL, 32, o));
	EXPECT_EQ(INV, WQ(x, wk, s, NULL, NULL, NULL, NULL, 32, o));	/* k differs */
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, NULL, 32, x));	/* y [2, 64] */
	EXPECT_EQ(INV, WQ(x, w, ssb, NULL, NULL, NULL, NULL, 32, o));	/* 3 groups */
	EXPECT_EQ(INV, WQ(x, w, s, sc, NULL, NULL, NULL, 32, o));	/* offset shape */
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, bb, 32, o));	/* bias [5] */
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, NULL, 0, o));	/* [2, 4] w/o groups */
	EXPECT_EQ(INV, WQ(xb, wb, sc, NULL, NULL, NULL, NULL, 0, o));	/* k > 65535 */
	EXPECT_EQ(INV, WQ(x0, w, s, NULL, NULL, NULL, NULL, 32, o0));	/* empty m */
	/* antiquantGroupSize: multiple of 32 in [32, k - 1] */
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, NULL, 16, o));
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, NULL, 48, o));
	EXPECT_EQ(INV, WQ(x, w, sc, NULL, NULL, NULL, NULL, 64, o));
	EXPECT_EQ(INV, WQ(x, w, s, NULL, NULL, NULL, NULL, -32, o));
	/* INT4: odd inner dim, a nibble offset; an NZ weight */
	EXPECT_EQ(INV, WQ(x, w4odd, sc, NULL, NULL, NULL, NULL, 0, o));
	EXPECT_EQ(INV, WQ(x, w4t, sc, NULL, NULL, NULL, NULL, 0, o));
	EXPECT_EQ(INV, WQ(xo, w4k, sc, NULL, NULL, NULL, NULL, 0, o));
	EXPECT_EQ(INV, WQ(x, wnz, sc, NULL, NULL, NULL, NULL, 0, o));
#undef WQ
}

TEST_F(nn, calculate_weight_size)
{
	int64_t a[2] = { 510, 270 }, b[3] = { 2, 3, 4 }, one[1] = { 5 };
	int64_t seven[7] = { 1, 1, 1, 1, 1, 1, 1 }, zero[2] = { 4, 0 };
	int64_t huge[3] = { 1LL << 40, 1LL << 40, 1LL << 40 };
	aclIntArray *ta = ia(a, 2), *tb = ia(b, 3), *t1 = ia(one, 1), *t7 = ia(seven, 7);
	aclIntArray *t0 = ia(zero, 2), *th = ia(huge, 3);
	uint64_t sz = 0;

	EXPECT_EQ(0, aclnnCalculateMatmulWeightSizeV2(ta, ACL_INT8, &sz));
	EXPECT_EQ(510u * 270u, sz);
	EXPECT_EQ(0, aclnnCalculateMatmulWeightSizeV2(tb, ACL_BF16, &sz));
	EXPECT_EQ(24u, sz);
	EXPECT_EQ(0, aclnnCalculateMatmulWeightSize(ta, &sz));
	EXPECT_EQ(510u * 270u, sz);
	EXPECT_EQ(NUL, aclnnCalculateMatmulWeightSizeV2(NULL, ACL_FLOAT16, &sz));
	EXPECT_EQ(NUL, aclnnCalculateMatmulWeightSizeV2(ta, ACL_FLOAT16, NULL));
	EXPECT_EQ(NUL, aclnnCalculateMatmulWeightSize(NULL, &sz));
	EXPECT_EQ(NUL, aclnnCalculateMatmulWeightSize(ta, NULL));
	EXPECT_EQ(INV, aclnnCalculateMatmulWeightSizeV2(ta, ACL_FLOAT, &sz));
	EXPECT_EQ(INV, aclnnCalculateMatmulWeightSizeV2(t1, ACL_FLOAT16, &sz));
	EXPECT_EQ(INV, aclnnCalculateMatmulWeightSizeV2(t7, ACL_FLOAT16, &sz));
	EXPECT_EQ(INV, aclnnCalculateMatmulWeightSizeV2(t0, ACL_FLOAT16, &sz));
	EXPECT_EQ(INV, aclnnCalculateMatmulWeightSize(th, &sz));
	aclDestroyIntArray(ta);
	aclDestroyIntArray(tb);
	aclDestroyIntArray(t1);
	aclDestroyIntArray(t7);
	aclDestroyIntArray(t0);
	aclDestroyIntArray(th);
}

/* ND is the preferred format: the transform leaves the weight as it is. */
TEST_F(nn, trans_matmul_weight_keeps_nd)
{
	uint16_t w[6 * 8], back[6 * 8];
	int64_t d2[2] = { 6, 8 }, d1[1] = { 48 }, dz[2] = { 0, 8 };
	void *wd;
	aclTensor *t, *tf, *t1, *tz, *tnz;
	aclOpExecutor *ex;
	uint64_t ws = 99;
	int i;

	for (i = 0; i < 48; i++)
		w[i] = aclFloatToFloat16(frand(i));
	wd = dev(self, w, sizeof(w));
	t = tens(d2, 2, ACL_FLOAT16, wd);
	ASSERT_EQ(0, aclnnTransMatmulWeightGetWorkspaceSize(t, &ws, &ex));
	EXPECT_EQ(0u, ws);
	EXPECT_EQ(0, run(self, aclnnTransMatmulWeight, ws, ex));
	get(back, wd, sizeof(back));
	EXPECT_EQ(0, memcmp(w, back, sizeof(w)));
	tf = tens(d2, 2, ACL_FLOAT, wd);
	t1 = tens(d1, 1, ACL_FLOAT16, wd);
	tz = tens(dz, 2, ACL_INT8, wd);
	tnz = aclCreateTensor(d2, 2, ACL_INT8, NULL, 0, ACL_FORMAT_FRACTAL_NZ, d2, 2, wd);
	EXPECT_EQ(NUL, aclnnTransMatmulWeightGetWorkspaceSize(NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTransMatmulWeightGetWorkspaceSize(t, NULL, &ex));
	EXPECT_EQ(NUL, aclnnTransMatmulWeightGetWorkspaceSize(t, &ws, NULL));
	EXPECT_EQ(INV, aclnnTransMatmulWeightGetWorkspaceSize(tf, &ws, &ex));
	EXPECT_EQ(INV, aclnnTransMatmulWeightGetWorkspaceSize(t1, &ws, &ex));
	EXPECT_EQ(INV, aclnnTransMatmulWeightGetWorkspaceSize(tz, &ws, &ex));
	EXPECT_EQ(INV, aclnnTransMatmulWeightGetWorkspaceSize(tnz, &ws, &ex));
	aclDestroyTensor(t);
	aclDestroyTensor(tf);
	aclDestroyTensor(t1);
	aclDestroyTensor(tz);
	aclDestroyTensor(tnz);
}

/* A list of tensors (the prototype takes const pointers). */
#define TL(v, n) aclCreateTensorList((const aclTensor *const *)(v), (n))

/* Reference of one matmul group: rows [r0, r1) of x with w[g] (+ b[g]). */
static int gmm_check_rows(const float *x, const float *w, const float *b,
			  const float *y, int r0, int r1, int k, int n, bool wt,
			  double tol)
{
	int i, j, q, bad = 0;

	for (i = r0; i < r1; i++)
		for (j = 0; j < n; j++) {
			double want = b ? b[j] : 0, mag = b ? fabs(b[j]) : 0;

			for (q = 0; q < k; q++) {
				double t = (double)x[i * k + q] *
					   w[wt ? j * k + q : q * n + j];

				want += t;
				mag += fabs(t);
			}
			if (fabs(y[i * n + j] - want) > tol * mag + 1e-5) {
				if (bad < 3)
					fprintf(stderr, "  row %d col %d: got %g want %g\n",
						i, j, y[i * n + j], want);
				bad++;
			}
		}
	return bad;
}

static void f16_round(float *v, uint16_t *h, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		h[i] = aclFloatToFloat16(v[i]);
		v[i] = aclFloat16ToFloat(h[i]);
	}
}

/* MoE: one x [m, k] whose rows go to e experts by cumulative ends. */
TEST_F(nn, gmm_single_split_by_group_list)
{
	enum { M = 10, K = 6, E = 3, N = 5 };
	float x[M * K], w[E * K * N], b[E * N], y[M * N];
	uint16_t xh[M * K], wh[E * K * N], bh[E * N], yh[M * N];
	int64_t gl[E] = { 2, 2, 7 }, bad_gl[E] = { 3, 2, 7 };
	int64_t xd[2] = { M, K }, wd[3] = { E, K, N }, bd[2] = { E, N }, gd[1] = { E };
	int64_t yd[2] = { M, N };
	aclTensor *tx, *tw, *tb, *tg, *ty, *tgb;
	aclTensorList *lx, *lw, *lb, *ly;
	void *yd_;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, g, start = 0, bad = 0;

	for (i = 0; i < M * K; i++)
		x[i] = frand(i);
	for (i = 0; i < E * K * N; i++)
		w[i] = frand(i * 5 + 2) * 0.5f;
	for (i = 0; i < E * N; i++)
		b[i] = frand(i + 9);
	f16_round(x, xh, M * K);
	f16_round(w, wh, E * K * N);
	f16_round(b, bh, E * N);
	tx = tens(xd, 2, ACL_FLOAT16, dev(self, xh, sizeof(xh)));
	tw = tens(wd, 3, ACL_FLOAT16, dev(self, wh, sizeof(wh)));
	tb = tens(bd, 2, ACL_FLOAT16, dev(self, bh, sizeof(bh)));
	tg = tens(gd, 1, ACL_INT64, dev(self, gl, sizeof(gl)));
	tgb = tens(gd, 1, ACL_INT64, dev(self, bad_gl, sizeof(bad_gl)));
	for (i = 0; i < M * N; i++)
		yh[i] = aclFloatToFloat16(77.0f);	/* all must be written */
	yd_ = dev(self, yh, sizeof(yh));
	ty = tens(yd, 2, ACL_FLOAT16, yd_);
	lx = TL(&tx, 1);
	lw = TL(&tw, 1);
	lb = TL(&tb, 1);
	ly = TL(&ty, 1);
	ASSERT_EQ(0, aclnnGroupedMatmulV3GetWorkspaceSize(lx, lw, lb, NULL, NULL, NULL, NULL,
							  tg, 2, 0, ly, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGroupedMatmulV3, ws, ex));
	get(yh, yd_, sizeof(yh));
	for (i = 0; i < M * N; i++)
		y[i] = aclFloat16ToFloat(yh[i]);
	for (g = 0; g < E; g++) {
		bad += gmm_check_rows(x, w + g * K * N, b + g * N, y, start, (int)gl[g],
				      K, N, false, 2e-3);
		start = (int)gl[g];
	}
	for (i = start * N; i < M * N; i++)	/* past the last group: 0 */
		bad += y[i] != 0.0f;
	EXPECT_EQ(0, bad);
	/* a decreasing list fails the task */
	ASSERT_EQ(0, aclnnGroupedMatmulV3GetWorkspaceSize(lx, lw, lb, NULL, NULL, NULL, NULL,
							  tgb, 2, 0, ly, &ws, &ex));
	EXPECT_NE(0, run(self, aclnnGroupedMatmulV3, ws, ex));
}

/* groupType -1: independent matmuls, one transposed weight, FLOAT. */
TEST_F(nn, gmm_list_of_matmuls)
{
	float x0[3 * 4], w0[4 * 5], b0[5], y0[3 * 5], x1[2 * 7], w1t[3 * 7], b1[3], y1[2 * 3];
	int64_t x0d[2] = { 3, 4 }, w0d[2] = { 4, 5 }, b0d[1] = { 5 }, y0d[2] = { 3, 5 };
	int64_t x1d[2] = { 2, 7 }, w1d[2] = { 7, 3 }, w1s[2] = { 1, 7 }, b1d[1] = { 3 };
	int64_t y1d[2] = { 2, 3 };
	aclTensor *xs[2], *wsv[2], *bs[2], *ys[2];
	void *yd0, *yd1;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, bad;

	for (i = 0; i < 12; i++)
		x0[i] = frand(i);
	for (i = 0; i < 20; i++)
		w0[i] = frand(i + 3);
	for (i = 0; i < 14; i++)
		x1[i] = frand(i + 7);
	for (i = 0; i < 21; i++)
		w1t[i] = frand(i * 2 + 1);
	for (i = 0; i < 5; i++)
		b0[i] = frand(i + 11);
	for (i = 0; i < 3; i++)
		b1[i] = frand(i + 13);
	xs[0] = tens(x0d, 2, ACL_FLOAT, dev(self, x0, sizeof(x0)));
	xs[1] = tens(x1d, 2, ACL_FLOAT, dev(self, x1, sizeof(x1)));
	wsv[0] = tens(w0d, 2, ACL_FLOAT, dev(self, w0, sizeof(w0)));
	wsv[1] = view(w1d, 2, w1s, 0, 21, ACL_FLOAT, dev(self, w1t, sizeof(w1t)));
	bs[0] = tens(b0d, 1, ACL_FLOAT, dev(self, b0, sizeof(b0)));
	bs[1] = tens(b1d, 1, ACL_FLOAT, dev(self, b1, sizeof(b1)));
	yd0 = dev(self, NULL, sizeof(y0));
	yd1 = dev(self, NULL, sizeof(y1));
	ys[0] = tens(y0d, 2, ACL_FLOAT, yd0);
	ys[1] = tens(y1d, 2, ACL_FLOAT, yd1);
	ASSERT_EQ(0, aclnnGroupedMatmulV3GetWorkspaceSize(
			     TL(xs, 2), TL(wsv, 2),
			     TL(bs, 2), NULL, NULL, NULL, NULL, NULL, 0, -1,
			     TL(ys, 2), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGroupedMatmulV3, ws, ex));
	get(y0, yd0, sizeof(y0));
	get(y1, yd1, sizeof(y1));
	bad = gmm_check_rows(x0, w0, b0, y0, 0, 3, 4, 5, false, 1e-5);
	bad += gmm_check_rows(x1, w1t, b1, y1, 0, 2, 7, 3, true, 1e-5);
	EXPECT_EQ(0, bad);
}

/* groupType 0 with x and weight lists, y their rows stacked; BF16 x, FLOAT bias. */
TEST_F(nn, gmm_lists_stacked_bf16)
{
	enum { K = 8, N = 4 };
	static const int rows[3] = { 2, 1, 3 };
	float x[6 * K], w[3 * K * N], b[3 * N], y[6 * N];
	uint16_t xh[6 * K], wh[3 * K * N], yh[6 * N];
	int64_t wd[2] = { K, N }, bd[1] = { N }, yd[2] = { 6, N };
	aclTensor *xs[3], *wsv[3], *bs[3], *ty;
	void *xdv, *wdv, *bdv, *ydv;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, g, r = 0, bad = 0;

	for (i = 0; i < 6 * K; i++) {
		xh[i] = to_bf16(frand(i));
		x[i] = from_bf16(xh[i]);
	}
	for (i = 0; i < 3 * K * N; i++) {
		wh[i] = to_bf16(frand(i + 4) * 0.5f);
		w[i] = from_bf16(wh[i]);
	}
	for (i = 0; i < 3 * N; i++)
		b[i] = frand(i + 17);
	xdv = dev(self, xh, sizeof(xh));
	wdv = dev(self, wh, sizeof(wh));
	bdv = dev(self, b, sizeof(b));
	for (g = 0; g < 3; g++) {
		int64_t xd[2] = { rows[g], K }, st[2] = { K, 1 };

		xs[g] = view(xd, 2, st, r * K, 6 * K, ACL_BF16, xdv);
		bs[g] = view(bd, 1, st + 1, g * N, 3 * N, ACL_FLOAT, bdv);
		r += rows[g];
	}
	for (g = 0; g < 3; g++) {	/* row-major [K, N] weights */
		int64_t st[2] = { N, 1 };

		wsv[g] = view(wd, 2, st, g * K * N, 3 * K * N, ACL_BF16, wdv);
	}
	ydv = dev(self, NULL, sizeof(yh));
	ty = tens(yd, 2, ACL_BF16, ydv);
	ASSERT_EQ(0, aclnnGroupedMatmulV3GetWorkspaceSize(
			     TL(xs, 3), TL(wsv, 3),
			     TL(bs, 3), NULL, NULL, NULL, NULL, NULL, 3, 0,
			     TL(&ty, 1), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGroupedMatmulV3, ws, ex));
	get(yh, ydv, sizeof(yh));
	for (i = 0; i < 6 * N; i++)
		y[i] = from_bf16(yh[i]);
	for (g = 0, r = 0; g < 3; r += rows[g], g++)
		bad += gmm_check_rows(x, w + g * K * N, b + g * N, y, r, r + rows[g], K, N,
				      false, 8e-3);
	EXPECT_EQ(0, bad);
}

TEST_F(nn, gmm_refusals)
{
	int64_t xd[2] = { 4, 8 }, wd[3] = { 2, 8, 3 }, gd[1] = { 2 }, yd[2] = { 4, 3 };
	int64_t w2[2] = { 8, 3 }, wk[3] = { 2, 7, 3 }, bd[2] = { 2, 3 }, g3[1] = { 3 };
	int64_t y5[2] = { 5, 3 };
	void *d = dev(self, NULL, 4096);
	aclTensor *x = tens(xd, 2, ACL_FLOAT16, d), *w = tens(wd, 3, ACL_FLOAT16, d);
	aclTensor *g = tens(gd, 1, ACL_INT64, d), *y = tens(yd, 2, ACL_FLOAT16, d);
	aclTensor *g32 = tens(gd, 1, ACL_INT32, d), *gl3 = tens(g3, 1, ACL_INT64, d);
	aclTensor *wkk = tens(wk, 3, ACL_FLOAT16, d), *bf = tens(bd, 2, ACL_FLOAT, d);
	aclTensor *b16 = tens(bd, 2, ACL_FLOAT16, d), *w2d = tens(w2, 2, ACL_FLOAT16, d);
	aclTensor *wf = tens(wd, 3, ACL_FLOAT, d), *y5t = tens(y5, 2, ACL_FLOAT16, d);
	aclTensor *xi = tens(xd, 2, ACL_INT8, d);
	aclTensorList *lx = TL(&x, 1), *lw = TL(&w, 1);
	aclTensorList *ly = TL(&y, 1), *lwk = TL(&wkk, 1);
	aclTensorList *lbf = TL(&bf, 1), *lb = TL(&b16, 1);
	aclTensorList *lw2 = TL(&w2d, 1), *lwf = TL(&wf, 1);
	aclTensorList *ly5 = TL(&y5t, 1), *lxi = TL(&xi, 1);
	const aclTensor *two_w[2] = { w2d, w2d }, *two_x[2] = { x, x };
	aclTensorList *lw22 = TL(two_w, 2), *lx2 = TL(two_x, 2);
	aclOpExecutor *ex;
	uint64_t ws;

#define GMM(X, W, B, AS, GL, SI, GT, Y)					\
	aclnnGroupedMatmulV3GetWorkspaceSize(X, W, B, NULL, NULL, AS, NULL, GL, SI, GT, Y, \
					     &ws, &ex)
	ASSERT_EQ(0, GMM(lx, lw, lb, NULL, g, 2, 0, ly));	/* valid */
	aclDestroyAclOpExecutor(ex);
	EXPECT_EQ(NUL, GMM(NULL, lw, lb, NULL, g, 2, 0, ly));
	EXPECT_EQ(NUL, GMM(lx, NULL, lb, NULL, g, 2, 0, ly));
	EXPECT_EQ(NUL, GMM(lx, lw, lb, NULL, g, 2, 0, NULL));
	EXPECT_EQ(NUL, GMM(lx, lw, lb, NULL, NULL, 2, 0, ly));	/* list needed */
	EXPECT_EQ(NUL, aclnnGroupedMatmulV3GetWorkspaceSize(lx, lw, lb, NULL, NULL, NULL, NULL,
							    g, 2, 0, ly, NULL, &ex));
	EXPECT_EQ(NUL, aclnnGroupedMatmulV3GetWorkspaceSize(lx, lw, lb, NULL, NULL, NULL, NULL,
							    g, 2, 0, ly, &ws, NULL));
	EXPECT_EQ(INV, GMM(lx, lw, lb, lb, g, 2, 0, ly));	/* antiquant: not here */
	EXPECT_EQ(INV, GMM(lx, lw, lb, NULL, g, 2, 2, ly));	/* groupType 2 */
	EXPECT_EQ(INV, GMM(lx, lw, lb, NULL, g, 2, 1, ly));	/* groupType 1 */
	EXPECT_EQ(INV, GMM(lx, lw, lb, NULL, g, 0, 0, ly));	/* splitItem */
	EXPECT_EQ(INV, GMM(lx, lw, lb, NULL, g32, 2, 0, ly));	/* list dtype */
	EXPECT_EQ(INV, GMM(lx, lw, lb, NULL, gl3, 2, 0, ly));	/* list length */
	EXPECT_EQ(INV, GMM(lx, lwk, NULL, NULL, g, 2, 0, ly));	/* k differs */
	EXPECT_EQ(INV, GMM(lx, lw, lbf, NULL, g, 2, 0, ly));	/* f16 x: f16 bias */
	EXPECT_EQ(INV, GMM(lx, lwf, NULL, NULL, g, 2, 0, ly));	/* weight dtype */
	EXPECT_EQ(INV, GMM(lxi, lw, NULL, NULL, g, 2, 0, ly));	/* x dtype */
	EXPECT_EQ(INV, GMM(lx, lw, NULL, NULL, g, 2, 0, ly5));	/* y rows */
	EXPECT_EQ(INV, GMM(lx, lw22, NULL, NULL, g, 2, 0, ly));	/* x single, w list */
	EXPECT_EQ(INV, GMM(lx, lw2, NULL, NULL, g, 0, -1, ly));	/* -1 takes no list */
	EXPECT_EQ(INV, GMM(lx, lw2, NULL, NULL, NULL, 2, -1, ly));	/* -1: splitItem */
	EXPECT_EQ(INV, GMM(lx2, lw2, NULL, NULL, NULL, 0, -1, ly));	/* list lengths */
	EXPECT_EQ(INV, GMM(lx2, lw22, NULL, NULL, NULL, 2, 0, ly));	/* 8 rows into 4 */
	ASSERT_EQ(0, GMM(lx, lw2, NULL, NULL, NULL, 0, -1, ly));	/* valid -1 */
	aclDestroyAclOpExecutor(ex);
#undef GMM
}

TEST_HARNESS_MAIN
