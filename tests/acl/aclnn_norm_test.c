// SPDX-License-Identifier: MIT
/*
 * aclnn normalisations (norm family) on the real driver against C
 * references: softmax, layer norm (with its mean and rstd outputs), RMS
 * norm and batch norm, with bad-shape and NULL cases.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, softmax_rows)
{
	float a[6] = { 1, 2, 3, -1, 0, 5 }, o[6];
	int64_t sh[2] = { 2, 3 };
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 2, ACL_FLOAT, dev(self, a, sizeof(a)));
	aclTensor *to = tens(sh, 2, ACL_FLOAT, od);
	aclOpExecutor *ex;
	uint64_t ws;
	int r, i;

	ASSERT_EQ(0, aclnnSoftmaxGetWorkspaceSize(ta, -1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSoftmax, ws, ex));
	get(o, od, sizeof(o));
	for (r = 0; r < 2; r++) {
		float s = 0;

		for (i = 0; i < 3; i++)
			s += expf(a[r * 3 + i]);
		for (i = 0; i < 3; i++)
			EXPECT_TRUE(CLOSE(o[r * 3 + i], expf(a[r * 3 + i]) / s));
	}
	ASSERT_EQ(0, aclnnLogSoftmaxGetWorkspaceSize(ta, 0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLogSoftmax, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 3; i++) {
		float s = expf(a[i]) + expf(a[3 + i]);

		EXPECT_TRUE(CLOSE(o[i], a[i] - logf(s)));
		EXPECT_TRUE(CLOSE(o[3 + i], a[3 + i] - logf(s)));
	}
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnSoftmaxGetWorkspaceSize(ta, 2, to, &ws, &ex));
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
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

/*
 * aclnnRmsNorm as CANN's document (ops-nn norm/rms_norm/docs/
 * aclnnRmsNorm.md) runs it: x [2, 16] = 0..7 twice per row, gamma the
 * same 16 values, rstdOut [2, 1] FLOAT32. Every row has E[x^2] = 17.5, so
 * rstd = 1 / sqrt(17.5 + 1e-6) and y = x * rstd * gamma. Then the
 * document's 4-D form (gamma [4, 8], rstd [2, 3, 1, 1]), a FLOAT16 x with
 * a FLOAT32 gamma, and the rstdOut shapes and dtypes it rules out.
 */
TEST_F(nn, rms_norm_doc_example)
{
	float x[32], g[16], y[32], rs[2], x4[192], g4[32], y4[192], rs4[6];
	int64_t sx[2] = { 2, 16 }, sg[1] = { 16 }, sr[2] = { 2, 1 }, sr2[2] = { 2, 16 };
	int64_t sx4[4] = { 2, 3, 4, 8 }, sg4[2] = { 4, 8 }, sr4[4] = { 2, 3, 1, 1 };
	int64_t sr4bad[4] = { 2, 3, 4, 1 };
	aclFloat16 xh[32], yh[32];
	aclTensor *tx, *tg, *ty, *tr, *txh, *tyh;
	void *yd, *rd, *yhd;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, r;

	for (i = 0; i < 32; i++) { x[i] = (float)(i % 8); xh[i] = aclFloatToFloat16(x[i]); }
	for (i = 0; i < 16; i++) g[i] = (float)(i % 8);
	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	tg = tens(sg, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	yd = dev(self, NULL, sizeof(y));
	ty = tens(sx, 2, ACL_FLOAT, yd);
	rd = dev(self, NULL, sizeof(rs));
	tr = tens(sr, 2, ACL_FLOAT, rd);
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty, tr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(y, yd, sizeof(y));
	get(rs, rd, sizeof(rs));
	for (r = 0; r < 2; r++)
		EXPECT_TRUE(CLOSE(rs[r], 0.23904572f));
	for (i = 0; i < 32; i++)
		EXPECT_TRUE(CLOSE(y[i], x[i] * 0.23904572f * g[i % 16]));

	/* 4-D: gamma [4, 8] normalises the last two dims. */
	for (i = 0; i < 192; i++) x4[i] = frand(i) * (1 + i % 5);
	for (i = 0; i < 32; i++) g4[i] = 0.25f + 0.05f * i;
	yd = dev(self, NULL, sizeof(y4));
	rd = dev(self, NULL, sizeof(rs4));
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tens(sx4, 4, ACL_FLOAT, dev(self, x4, sizeof(x4))),
						  tens(sg4, 2, ACL_FLOAT, dev(self, g4, sizeof(g4))),
						  1e-6, tens(sx4, 4, ACL_FLOAT, yd),
						  tens(sr4, 4, ACL_FLOAT, rd), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(y4, yd, sizeof(y4));
	get(rs4, rd, sizeof(rs4));
	for (r = 0; r < 6; r++) {
		double ms = 0;
		float e;

		for (i = 0; i < 32; i++)
			ms += (double)x4[r * 32 + i] * x4[r * 32 + i];
		e = (float)(1.0 / sqrt(ms / 32 + 1e-6));
		EXPECT_TRUE(CLOSE(rs4[r], e));
		for (i = 0; i < 32; i++)
			EXPECT_TRUE(CLOSE(y4[r * 32 + i], x4[r * 32 + i] * e * g4[i]));
	}

	/* FLOAT16 x and yOut with the FLOAT32 gamma the dtype table allows. */
	txh = tens(sx, 2, ACL_FLOAT16, dev(self, xh, sizeof(xh)));
	yhd = dev(self, NULL, sizeof(yh));
	tyh = tens(sx, 2, ACL_FLOAT16, yhd);
	rd = dev(self, NULL, sizeof(rs));
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(txh, tg, 1e-6, tyh,
						  tens(sr, 2, ACL_FLOAT, rd), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(yh, yhd, sizeof(yh));
	get(rs, rd, sizeof(rs));
	EXPECT_TRUE(CLOSE(rs[1], 0.23904572f));
	for (i = 0; i < 32; i++)
		EXPECT_LE(fabsf(aclFloat16ToFloat(yh[i]) - x[i] * 0.23904572f * g[i % 16]),
			  2e-3f * (1 + x[i] * g[i % 16]));

	/*
	 * rstdOut: FLOAT32 only, normalised dims 1, one value per row (a
	 * lower rank such as [2] is CANN's too: aclnn_llm_widen_test).
	 */
	yd = dev(self, NULL, sizeof(y4));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr2, 2, ACL_FLOAT, yd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr, 2, ACL_FLOAT16, yd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sg, 1, ACL_FLOAT, yd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tens(sx4, 4, ACL_FLOAT, yd),
		  tens(sg4, 2, ACL_FLOAT, yd), 1e-6,
		  tens(sx4, 4, ACL_FLOAT, yd),
		  tens(sr4bad, 4, ACL_FLOAT, yd), &ws, &ex));
	/* A FLOAT16 gamma under a FLOAT32 x is not in the table. */
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tens(sg, 1, ACL_FLOAT16, yd),
		  1e-6, ty, tr, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRmsNormGetWorkspaceSize(tx, NULL, 1e-6, ty, tr, &ws, &ex));
}

/*
 * aclnnLayerNorm's dtype and optional-input rules from CANN's document
 * (ops-nn norm/layer_norm_v4): a FLOAT16 input with FLOAT weight and
 * bias, and a bias without a weight (the weight is then all ones); a
 * weight and a bias of different dtypes are refused.
 */
TEST_F(nn, layer_norm_doc_dtypes)
{
	enum { R = 2, D = 8 };
	float x[R * D], g[D], b[D], o[R * D], ref[R * D];
	aclFloat16 xh[R * D], oh[R * D];
	int64_t sx[2] = { R, D }, sg[1] = { D }, ns[1] = { D };
	aclIntArray *an = ia(ns, 1);
	aclTensor *tx, *txh, *tg, *tb, *to, *toh, *tgh;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *ohd;
	int r, i;

	for (i = 0; i < R * D; i++) {
		x[i] = frand(i) * (1 + i % 3);
		xh[i] = aclFloatToFloat16(x[i]);
		x[i] = aclFloat16ToFloat(xh[i]);
	}
	for (i = 0; i < D; i++) { g[i] = 0.5f + 0.1f * i; b[i] = 0.2f * i - 0.5f; }
	for (r = 0; r < R; r++) {
		double m = 0, v = 0;

		for (i = 0; i < D; i++) m += x[r * D + i];
		m /= D;
		for (i = 0; i < D; i++) v += (x[r * D + i] - m) * (x[r * D + i] - m);
		v /= D;
		for (i = 0; i < D; i++)
			ref[r * D + i] = (float)((x[r * D + i] - m) / sqrt(v + 1e-5));
	}
	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	txh = tens(sx, 2, ACL_FLOAT16, dev(self, xh, sizeof(xh)));
	tg = tens(sg, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	tb = tens(sg, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	tgh = tens(sg, 1, ACL_FLOAT16, dev(self, NULL, D * 2));
	ohd = dev(self, NULL, sizeof(oh));
	toh = tens(sx, 2, ACL_FLOAT16, ohd);
	od = dev(self, NULL, sizeof(o));
	to = tens(sx, 2, ACL_FLOAT, od);

	ASSERT_EQ(0, aclnnLayerNormGetWorkspaceSize(txh, an, tg, tb, 1e-5, toh, NULL, NULL, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLayerNorm, ws, ex));
	get(oh, ohd, sizeof(oh));
	for (i = 0; i < R * D; i++) {
		float e = ref[i] * g[i % D] + b[i % D];

		EXPECT_LE(fabsf(aclFloat16ToFloat(oh[i]) - e), 4e-3f * (1 + fabsf(e)))
			TH_LOG("fp16 %d: %g vs %g", i, aclFloat16ToFloat(oh[i]), e);
	}
	/* a bias alone: weight ones */
	ASSERT_EQ(0, aclnnLayerNormGetWorkspaceSize(tx, an, NULL, tb, 1e-5, to, NULL, NULL, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLayerNorm, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < R * D; i++)
		EXPECT_TRUE(CLOSE(o[i], ref[i] + b[i % D]));
	/* weight FLOAT16 and bias FLOAT; a FLOAT16 weight under a FLOAT input */
	EXPECT_EQ(INV, aclnnLayerNormGetWorkspaceSize(txh, an, tgh, tb, 1e-5, toh, NULL, NULL, &ws, &ex));
	EXPECT_EQ(INV, aclnnLayerNormGetWorkspaceSize(tx, an, tgh, NULL, 1e-5, to, NULL, NULL, &ws, &ex));
	aclDestroyIntArray(an);
}

TEST_HARNESS_MAIN
