// SPDX-License-Identifier: MIT
/*
 * The host operators (lib/aicpu) on the host with ASan and UBSan: each
 * against values worked out by hand or by a direct formula here, and
 * every bad argument an op checks giving -EINVAL with a reason instead
 * of a crash.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "kselftest_harness.h"
#include "aicpu_test_call.h"

TEST(nonzero)
{
	uint8_t x[4] = { 1, 0, 0, 1 };
	int64_t y[8], want[4] = { 0, 1, 0, 1 };
	struct aicpu_call c;

	call_init(&c, AICPU_OP_NONZERO, 1, 1);
	c.t[0] = tens(x, BOOL, 2, (int64_t[]){ 2, 2 }, 4);
	c.t[1] = tens(y, I64, 2, (int64_t[]){ 2, 4 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(2, c.t[1].rank);
	EXPECT_EQ(2, c.t[1].dims[0]);
	EXPECT_EQ(2, c.t[1].dims[1]);
	EXPECT_EQ(0, memcmp(y, want, sizeof(want)));
	/* an output too small for the bound is refused */
	c.t[1].cap = 8;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	EXPECT_NE(0, c.why[0]);
}

TEST(unique_sorted_and_not)
{
	float x[6] = { 2, 1, 1, 3, 4, 3 }, y[6];
	int64_t idx[6], inv[6], cnt[6];
	static const float ys[4] = { 1, 2, 3, 4 }, yu[4] = { 2, 1, 3, 4 };
	static const int64_t is[4] = { 1, 0, 3, 4 }, invs[6] = { 1, 0, 0, 2, 3, 2 },
		cs[4] = { 2, 1, 2, 1 }, iu[4] = { 0, 1, 3, 4 },
		invu[6] = { 0, 1, 1, 2, 3, 2 }, cu[4] = { 1, 2, 2, 1 };
	struct aicpu_call c;

	for (int sorted = 0; sorted < 2; sorted++) {
		call_init(&c, AICPU_OP_UNIQUE, 1, 4);
		c.ints[0] = sorted;
		c.t[0] = tens(x, F32, 1, (int64_t[]){ 6 }, sizeof(x));
		c.t[1] = tens(y, F32, 1, (int64_t[]){ 6 }, sizeof(y));
		c.t[2] = tens(idx, I64, 1, (int64_t[]){ 6 }, sizeof(idx));
		c.t[3] = tens(inv, I64, 1, (int64_t[]){ 6 }, sizeof(inv));
		c.t[4] = tens(cnt, I64, 1, (int64_t[]){ 6 }, sizeof(cnt));
		ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
		EXPECT_EQ(4, c.t[1].dims[0]);
		EXPECT_EQ(4, c.t[2].dims[0]);
		EXPECT_EQ(6, c.t[3].dims[0]);
		EXPECT_EQ(0, memcmp(y, sorted ? ys : yu, sizeof(ys)));
		EXPECT_EQ(0, memcmp(idx, sorted ? is : iu, sizeof(is)));
		EXPECT_EQ(0, memcmp(inv, sorted ? invs : invu, sizeof(invs)));
		EXPECT_EQ(0, memcmp(cnt, sorted ? cs : cu, sizeof(cs)));
	}
}

TEST(unique_axis)
{
	int32_t x[9] = { 1, 0, 0, 1, 0, 0, 2, 3, 4 }, y[9];
	static const int32_t want[6] = { 1, 0, 0, 2, 3, 4 };
	int64_t cnt[3];
	struct aicpu_call c;

	call_init(&c, AICPU_OP_UNIQUE, 1, 2);
	c.ints[AICPU_ATTR_OUT] = 1 | 8;	/* Y and counts */
	c.ints[0] = 1;
	c.ints[1] = 1;
	c.ints[2] = -2;
	c.t[0] = tens(x, I32, 2, (int64_t[]){ 3, 3 }, sizeof(x));
	c.t[1] = tens(y, I32, 2, (int64_t[]){ 3, 3 }, sizeof(y));
	c.t[2] = tens(cnt, I64, 1, (int64_t[]){ 3 }, sizeof(cnt));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(2, c.t[1].dims[0]);
	EXPECT_EQ(3, c.t[1].dims[1]);
	EXPECT_EQ(0, memcmp(y, want, sizeof(want)));
	EXPECT_EQ(2, cnt[0]);
	EXPECT_EQ(1, cnt[1]);
	c.ints[2] = 2;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST(compress)
{
	float x[6] = { 1, 2, 3, 4, 5, 6 }, y[6];
	uint8_t cond[3] = { 0, 1, 1 }, flat[5] = { 0, 1, 0, 0, 1 };
	struct aicpu_call c;

	call_init(&c, AICPU_OP_COMPRESS, 2, 1);
	c.ints[0] = 1;
	c.ints[1] = 0;
	c.t[0] = tens(x, F32, 2, (int64_t[]){ 3, 2 }, sizeof(x));
	c.t[1] = tens(cond, BOOL, 1, (int64_t[]){ 3 }, 3);
	c.t[2] = tens(y, F32, 2, (int64_t[]){ 3, 2 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(2, c.t[2].dims[0]);
	EXPECT_EQ(0, memcmp(y, (float[]){ 3, 4, 5, 6 }, 16));
	c.ints[0] = 0;	/* flattened; a condition shorter than X */
	c.t[1] = tens(flat, BOOL, 1, (int64_t[]){ 5 }, 5);
	c.t[2] = tens(y, F32, 1, (int64_t[]){ 5 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(2, c.t[2].dims[0]);
	EXPECT_EQ(0, memcmp(y, (float[]){ 2, 5 }, 8));
	c.ints[0] = 1;
	c.ints[1] = 5;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST(nms)
{
	/* boxes 0 and 1 overlap (IoU 0.81); box 2 is apart */
	float boxes[12] = { 0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 5, 1, 6 };
	float scores[3] = { 0.9f, 0.95f, 0.5f }, iou = 0.5f, thr = 0.0f;
	int64_t maxo = 3, sel[9 * 3];
	struct aicpu_call c;

	call_init(&c, AICPU_OP_NMS, 5, 1);
	c.t[0] = tens(boxes, F32, 3, (int64_t[]){ 1, 3, 4 }, sizeof(boxes));
	c.t[1] = tens(scores, F32, 3, (int64_t[]){ 1, 1, 3 }, sizeof(scores));
	c.t[2] = tens(&maxo, I64, 1, (int64_t[]){ 1 }, 8);
	c.t[3] = tens(&iou, F32, 1, (int64_t[]){ 1 }, 4);
	c.t[4] = tens(&thr, F32, 1, (int64_t[]){ 1 }, 4);
	c.t[5] = tens(sel, I64, 2, (int64_t[]){ 3, 3 }, sizeof(sel));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	ASSERT_EQ(2, c.t[5].dims[0]);
	EXPECT_EQ(0, memcmp(sel, (int64_t[]){ 0, 0, 1, 0, 0, 2 }, 48));
	thr = 0.6f;	/* box 2 is below the score threshold */
	ASSERT_EQ(0, aicpu_run(&c));
	EXPECT_EQ(1, c.t[5].dims[0]);
	c.t[1].dims[2] = 4;	/* scores do not match the boxes */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST(det)
{
	float x[2 * 9] = { 1, 2, 0, 3, 4, 0, 0, 0, 1,  2, 0, 0, 0, 2, 0, 0, 0, 2 }, y[2];
	float sing[4] = { 1, 2, 2, 4 };
	struct aicpu_call c;

	call_init(&c, AICPU_OP_DET, 1, 1);
	c.t[0] = tens(x, F32, 3, (int64_t[]){ 2, 3, 3 }, sizeof(x));
	c.t[1] = tens(y, F32, 1, (int64_t[]){ 2 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_TRUE(fabsf(y[0] + 2.0f) < 1e-5f);
	EXPECT_TRUE(fabsf(y[1] - 8.0f) < 1e-5f);
	c.t[0] = tens(sing, F32, 2, (int64_t[]){ 2, 2 }, sizeof(sing));
	c.t[1] = tens(y, F32, 0, NULL, 4);
	ASSERT_EQ(0, aicpu_run(&c));
	EXPECT_EQ(0.0f, y[0]);
	c.t[0].dims[1] = 3;	/* not square */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST(optimizers)
{
	float r = 0.1f, x[2] = { 1, 2 }, g[2] = { -1, 0.5f }, h[2] = { 0.5f, 1 };
	float v[2] = { 0.2f, -0.1f }, xo[2], ho[2], vo[2];
	int64_t t = 3;
	struct aicpu_call c;

	/* Adagrad: norm 0.01, eps 1e-6, decay 0.1 */
	call_init(&c, AICPU_OP_ADAGRAD, 5, 2);
	c.floats[0] = 0.01f;
	c.floats[1] = 1e-6f;
	c.floats[2] = 0.1f;
	c.t[0] = tens(&r, F32, 0, NULL, 4);
	c.t[1] = tens(&t, I64, 0, NULL, 8);
	c.t[2] = tens(x, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[3] = tens(g, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[4] = tens(h, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[5] = tens(xo, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[6] = tens(ho, F32, 1, (int64_t[]){ 2 }, 8);
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	for (int i = 0; i < 2; i++) {
		double rr = 0.1 / (1 + 3 * 0.1), gr = 0.01 * x[i] + g[i];
		double hn = h[i] + gr * gr;

		EXPECT_TRUE(fabs(ho[i] - hn) < 1e-6);
		EXPECT_TRUE(fabs(xo[i] - (x[i] - rr * gr / (sqrt(hn) + 1e-6))) < 1e-6);
	}
	/* Momentum, Nesterov: alpha 0.9, beta 0.1, norm 0 */
	call_init(&c, AICPU_OP_MOMENTUM, 5, 2);
	c.ints[0] = 1;
	c.floats[0] = 0.9f;
	c.floats[1] = 0.1f;
	c.t[0] = tens(&r, F32, 0, NULL, 4);
	c.t[1] = tens(&t, I64, 0, NULL, 8);
	c.t[2] = tens(x, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[3] = tens(g, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[4] = tens(v, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[5] = tens(xo, F32, 1, (int64_t[]){ 2 }, 8);
	c.t[6] = tens(vo, F32, 1, (int64_t[]){ 2 }, 8);
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	for (int i = 0; i < 2; i++) {
		double vn = 0.9 * v[i] + 0.1 * g[i];

		EXPECT_TRUE(fabs(vo[i] - vn) < 1e-6);
		EXPECT_TRUE(fabs(xo[i] - (x[i] - 0.1 * (g[i] + 0.9 * vn))) < 1e-6);
	}
	c.t[4].dims[0] = 1;	/* V of another size than X */
	c.t[4].cap = 4;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	c.nin = 4;		/* not whole groups */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

/* h_t = tanh(w x_t + r h_{t-1} + wb + rb), one unit, forward and reverse. */
TEST(rnn_one_unit)
{
	float x[3] = { 0.5f, -1, 2 }, w = 0.7f, r = -0.3f, b[2] = { 0.1f, 0.05f };
	float y[3], yh, want[3], h = 0;
	struct aicpu_call c;

	for (int rev = 0; rev < 2; rev++) {
		call_init(&c, AICPU_OP_RNN, 4, 2);
		c.ints[0] = 1;
		c.ints[1] = rev;
		c.ints[8] = 1;		/* Tanh */
		c.t[0] = tens(x, F32, 3, (int64_t[]){ 3, 1, 1 }, sizeof(x));
		c.t[1] = tens(&w, F32, 3, (int64_t[]){ 1, 1, 1 }, 4);
		c.t[2] = tens(&r, F32, 3, (int64_t[]){ 1, 1, 1 }, 4);
		c.t[3] = tens(b, F32, 2, (int64_t[]){ 1, 2 }, 8);
		c.t[4] = tens(y, F32, 4, (int64_t[]){ 3, 1, 1, 1 }, sizeof(y));
		c.t[5] = tens(&yh, F32, 3, (int64_t[]){ 1, 1, 1 }, 4);
		ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
		h = 0;
		for (int s = 0; s < 3; s++) {
			int t = rev ? 2 - s : s;

			h = tanhf(w * x[t] + r * h + b[0] + b[1]);
			want[t] = h;
		}
		for (int k = 0; k < 3; k++) {
			EXPECT_TRUE(fabsf(y[k] - want[k]) < 1e-6f);
		}
		EXPECT_TRUE(fabsf(yh - h) < 1e-6f);
	}
	c.ints[0] = 2;	/* hidden_size does not match W */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

/* DFT of x[j] = j (n = 4) is [6, -2+2i, -2, -2-2i]; the inverse undoes it. */
TEST(dft_and_inverse)
{
	float x[4] = { 0, 1, 2, 3 }, y[8], z[8];
	static const float want[8] = { 6, 0, -2, 2, -2, 0, -2, -2 };
	struct aicpu_call c;

	call_init(&c, AICPU_OP_DFT, 1, 1);
	c.ints[0] = 1;
	c.ints[1] = 4;
	c.t[0] = tens(x, F32, 3, (int64_t[]){ 1, 4, 1 }, sizeof(x));
	c.t[1] = tens(y, F32, 3, (int64_t[]){ 1, 4, 2 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	for (int i = 0; i < 8; i++) {
		EXPECT_TRUE(fabsf(y[i] - want[i]) < 1e-5f);
	}
	c.ints[2] = 1;	/* inverse of the spectrum */
	c.t[0] = tens(y, F32, 3, (int64_t[]){ 1, 4, 2 }, sizeof(y));
	c.t[1] = tens(z, F32, 3, (int64_t[]){ 1, 4, 2 }, sizeof(z));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	for (int i = 0; i < 4; i++)
		EXPECT_TRUE(fabsf(z[2 * i] - x[i]) < 1e-5f && fabsf(z[2 * i + 1]) < 1e-5f);
	c.ints[3] = 1;	/* onesided: 3 bins; Y's buffer holds them */
	c.ints[2] = 0;
	c.t[0] = tens(x, F32, 3, (int64_t[]){ 1, 4, 1 }, sizeof(x));
	ASSERT_EQ(0, aicpu_run(&c));
	EXPECT_EQ(3, c.t[1].dims[1]);
	c.ints[0] = 2;	/* the complex dim is not a signal axis */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

/* STFT: frames of 4 every 2 over 8 samples, one-sided: 3 frames of 3 bins. */
TEST(stft_frames)
{
	float x[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, y[3 * 3 * 2];
	struct aicpu_call c;

	call_init(&c, AICPU_OP_STFT, 1, 1);
	c.ints[0] = 2;
	c.ints[1] = 4;
	c.ints[2] = 1;
	c.t[0] = tens(x, F32, 3, (int64_t[]){ 1, 8, 1 }, sizeof(x));
	c.t[1] = tens(y, F32, 4, (int64_t[]){ 1, 3, 3, 2 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(3, c.t[1].dims[1]);
	for (int f = 0; f < 3; f++) {
		/* frame f is 2f + (0..3): DC 8f + 6, bin 1 -2+2i, bin 2 -2 */
		EXPECT_TRUE(fabsf(y[f * 6] - (8.0f * f + 6)) < 1e-4f);
		EXPECT_TRUE(fabsf(y[f * 6 + 2] + 2) < 1e-4f && fabsf(y[f * 6 + 3] - 2) < 1e-4f);
		EXPECT_TRUE(fabsf(y[f * 6 + 4] + 2) < 1e-4f);
	}
	c.ints[1] = 9;	/* a frame longer than the signal */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

/*
 * TfIdfVectorizer, bigrams only, no skip: of the pooled bigrams (5,6),
 * (7,8), (6,7) the tokens hold each once; unigram slots stay 0. With
 * skip 1 (gap 2) the pairs (7,5)... add nothing new, (6,8) is not pooled.
 */
TEST(tfidf_bigrams)
{
	int32_t x[12] = { 1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8 };
	int64_t pool[10] = { 2, 3, 5, 4, 5, 6, 7, 8, 6, 7 }, cnt[2] = { 0, 4 };
	int64_t idx[7] = { 0, 1, 2, 3, 4, 5, 6 };
	float y[7], w[7] = { 1, 1, 1, 1, 0.5f, 2, 3 };
	static const float tf[7] = { 0, 0, 0, 0, 1, 1, 1 }, tfidf[7] = { 0, 0, 0, 0, 0.5f, 2, 3 };
	struct aicpu_call c;

	call_init(&c, AICPU_OP_TFIDF, 4, 1);
	c.ints[1] = 2;
	c.ints[2] = 2;
	c.t[0] = tens(x, I32, 1, (int64_t[]){ 12 }, sizeof(x));
	c.t[1] = tens(pool, I64, 1, (int64_t[]){ 10 }, sizeof(pool));
	c.t[2] = tens(cnt, I64, 1, (int64_t[]){ 2 }, sizeof(cnt));
	c.t[3] = tens(idx, I64, 1, (int64_t[]){ 7 }, sizeof(idx));
	c.t[4] = tens(y, F32, 1, (int64_t[]){ 7 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(0, memcmp(y, tf, sizeof(tf)));
	call_init(&c, AICPU_OP_TFIDF, 5, 1);	/* TFIDF with weights */
	c.ints[0] = 2;
	c.ints[1] = 2;
	c.ints[2] = 2;
	c.t[0] = tens(x, I32, 1, (int64_t[]){ 12 }, sizeof(x));
	c.t[1] = tens(pool, I64, 1, (int64_t[]){ 10 }, sizeof(pool));
	c.t[2] = tens(cnt, I64, 1, (int64_t[]){ 2 }, sizeof(cnt));
	c.t[3] = tens(idx, I64, 1, (int64_t[]){ 7 }, sizeof(idx));
	c.t[4] = tens(w, F32, 1, (int64_t[]){ 7 }, sizeof(w));
	c.t[5] = tens(y, F32, 1, (int64_t[]){ 7 }, sizeof(y));
	ASSERT_EQ(0, aicpu_run(&c)) TH_LOG("%s", c.why);
	EXPECT_EQ(0, memcmp(y, tfidf, sizeof(tfidf)));
	c.ints[2] = 3;	/* longer n-grams than the pool has levels */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST(bad_calls_fail_cleanly)
{
	float x[4] = { 0 };
	struct aicpu_call c;

	call_init(&c, AICPU_OP_COUNT, 1, 1);
	c.t[0] = tens(x, F32, 1, (int64_t[]){ 4 }, 16);
	c.t[1] = tens(x, F32, 1, (int64_t[]){ 4 }, 16);
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	call_init(&c, AICPU_OP_DET, 1, 1);
	c.t[0] = tens(x, F32, 2, (int64_t[]){ 2, 2 }, 16);
	c.t[1] = tens(x, 99, 0, NULL, 16);	/* no such dtype */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	c.t[1] = tens(x, F32, 0, NULL, 16);
	c.t[0].dims[0] = INT64_MAX;		/* overflowing dims */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	c.t[0].dims[0] = -2;
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
	c.nin = 16;				/* too many tensors */
	EXPECT_EQ(-EINVAL, aicpu_run(&c));
}

TEST_HARNESS_MAIN
