// SPDX-License-Identifier: MIT
/*
 * aclnn pools on the driver's N-d pool against C references:
 * MaxPool2dWithIndices (values and PyTorch's indices within the plane,
 * INT64 and INT32, a non-contiguous input, ceil mode) and AvgPool2d with
 * a divisor override; bad dtypes, shapes and arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

enum { C = 3, H = 7, W = 6, K = 3, S = 2, P = 1 };

/* x[c][h][w] of the non-contiguous view: every other element of a row. */
static float at(const float *x, int c, int h, int w)
{
	return x[(c * H + h) * 2 * W + 2 * w];
}

/* Max of the window at (i, j) and the index of its first maximum. */
static float max_ref(const float *x, int c, int i, int j, int64_t *idx)
{
	float m = -INFINITY;
	int h, w;

	for (h = i * S - P; h < i * S - P + K; h++)
		for (w = j * S - P; w < j * S - P + K; w++)
			if (h >= 0 && h < H && w >= 0 && w < W && at(x, c, h, w) > m) {
				m = at(x, c, h, w);
				*idx = h * W + w;
			}
	return m;
}

TEST_F(nn, max_pool2d_with_indices)
{
	/* ceil mode: 4 rows; (6 + 2 - 3) / 2 rounds up to 4 columns */
	enum { OH = 4, OW = 4 };
	float x[C * H * 2 * W], o[C * OH * OW];
	int64_t idx[C * OH * OW], want_i = 0;
	int32_t idx32[C * OH * OW];
	int64_t sx[4] = { 1, C, H, W }, st[4] = { C * H * 2 * W, H * 2 * W, 2 * W, 2 };
	int64_t so[4] = { 1, C, OH, OW }, bad[4] = { 1, C, OH, OW + 1 };
	int64_t k[2] = { K, K }, s[2] = { S, S }, p[2] = { P, P }, big[2] = { 2, 2 };
	aclIntArray *ak = ia(k, 2), *as = ia(s, 2), *ap = ia(p, 2), *apb = ia(big, 2);
	aclTensor *tx, *to, *ti, *ti32, *tbad, *tf, *th;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *id, *id32;
	int c, i, j, bad_n = 0;

	for (i = 0; i < (int)(sizeof(x) / 4); i++)
		x[i] = frand(i * 5 + 3) + 0.001f * (float)i;
	tx = view(sx, 4, st, 0, C * H * 2 * W, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	id = dev(self, NULL, sizeof(idx));
	id32 = dev(self, NULL, sizeof(idx32));
	to = tens(so, 4, ACL_FLOAT, od);
	ti = tens(so, 4, ACL_INT64, id);
	ti32 = tens(so, 4, ACL_INT32, id32);
	ASSERT_EQ(0, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, ap, NULL, true,
								to, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMaxPool2dWithIndices, ws, ex));
	get(o, od, sizeof(o));
	get(idx, id, sizeof(idx));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++) {
				float m = max_ref(x, c, i, j, &want_i);

				bad_n += o[(c * OH + i) * OW + j] != m ||
					 idx[(c * OH + i) * OW + j] != want_i;
			}
	EXPECT_EQ(0, bad_n);
	/* INT32 indices, the same values */
	ASSERT_EQ(0, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, ap, NULL, true,
								to, ti32, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMaxPool2dWithIndices, ws, ex));
	get(idx32, id32, sizeof(idx32));
	for (i = 0; i < C * OH * OW; i++)
		bad_n += idx32[i] != idx[i];
	EXPECT_EQ(0, bad_n);
	/* wrong shapes, dtypes, padding above half the window, NULLs */
	tbad = tens(bad, 4, ACL_FLOAT, od);
	EXPECT_EQ(INV, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, ap, NULL, true,
								  tbad, ti, &ws, &ex));
	tbad = tens(so, 4, ACL_FLOAT, id);
	EXPECT_EQ(INV, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, ap, NULL, true,
								  to, tbad, &ws, &ex));
	tf = tens(so, 4, ACL_FLOAT16, od);
	EXPECT_EQ(INV, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, ap, NULL, true,
								  tf, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, apb, NULL, true,
								  to, ti, &ws, &ex));
	th = tens(so, 3, ACL_FLOAT, od);
	EXPECT_EQ(INV, aclnnMaxPool2dWithIndicesGetWorkspaceSize(th, ak, as, ap, NULL, true,
								  to, ti, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tx, ak, as, ap, NULL, true,
								  to, NULL, &ws, &ex));
}

TEST_F(nn, avg_pool2d_divisor_override)
{
	enum { OH = 4, OW = 4 };
	float x[C * H * 2 * W], o[C * OH * OW];
	int64_t sx[4] = { 1, C, H, W }, st[4] = { C * H * 2 * W, H * 2 * W, 2 * W, 2 };
	int64_t so[4] = { 1, C, OH, OW };
	int64_t k[2] = { K, K }, s[2] = { S, S }, p[2] = { P, P };
	aclIntArray *ak = ia(k, 2), *as = ia(s, 2), *ap = ia(p, 2);
	aclTensor *tx, *to;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int c, i, j, h, w, bad_n = 0;

	for (i = 0; i < (int)(sizeof(x) / 4); i++)
		x[i] = frand(i);
	tx = view(sx, 4, st, 0, C * H * 2 * W, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 4, ACL_FLOAT, od);
	/* every window divided by 5, however many taps it has */
	ASSERT_EQ(0, aclnnAvgPool2dGetWorkspaceSize(tx, ak, as, ap, true, false, 5, 0, to,
						    &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++) {
				float sum = 0;

				for (h = i * S - P; h < i * S - P + K; h++)
					for (w = j * S - P; w < j * S - P + K; w++)
						if (h >= 0 && h < H && w >= 0 && w < W)
							sum += at(x, c, h, w);
				bad_n += !CLOSE(o[(c * OH + i) * OW + j], sum / 5);
			}
	EXPECT_EQ(0, bad_n);
	EXPECT_EQ(INV, aclnnAvgPool2dGetWorkspaceSize(tx, ak, as, ap, true, false, -1, 0, to,
						      &ws, &ex));
}

/*
 * The pooling shapes of CANN's documents (ops-nn pooling/avg_pool3_d
 * aclnnAvgPool2d.md, adaptive_avg_pool2d): its AvgPool2d example (self
 * [1, 16, 4, 4], a 4x4 kernel, stride 1, no padding, out [1, 16, 1, 1]:
 * each channel's mean), and the (C, H, W) self the documents allow, for
 * AvgPool2d, MaxPool2d and AdaptiveAvgPool2d; a 2-D self is refused.
 */
TEST_F(nn, pool_doc_example_and_chw)
{
	float x[256], o[16], mean[16], mx[16];
	int64_t s4[4] = { 1, 16, 4, 4 }, so4[4] = { 1, 16, 1, 1 };
	int64_t s3[3] = { 16, 4, 4 }, so3[3] = { 16, 1, 1 }, s2[2] = { 16, 16 };
	int64_t k[2] = { 4, 4 }, st[2] = { 1, 1 }, pd[2] = { 0, 0 }, dl[2] = { 1, 1 }, os[2] = { 1, 1 };
	aclIntArray *ak = ia(k, 2), *ast = ia(st, 2), *apd = ia(pd, 2), *adl = ia(dl, 2), *aos = ia(os, 2);
	void *xd, *od = dev(self, NULL, sizeof(o));
	aclOpExecutor *ex;
	uint64_t ws;
	int c, i;

	for (i = 0; i < 256; i++)
		x[i] = frand(i) * (1 + i % 4);
	for (c = 0; c < 16; c++) {
		mean[c] = 0;
		mx[c] = -1e30f;
		for (i = 0; i < 16; i++) {
			mean[c] += x[c * 16 + i] / 16;
			mx[c] = fmaxf(mx[c], x[c * 16 + i]);
		}
	}
	xd = dev(self, x, sizeof(x));
	ASSERT_EQ(0, aclnnAvgPool2dGetWorkspaceSize(tens(s4, 4, ACL_FLOAT, xd), ak, ast, apd,
						    false, true, 0, 0, tens(so4, 4, ACL_FLOAT, od),
						    &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < 16; c++)
		EXPECT_TRUE(CLOSE(o[c], mean[c]));

	memset(o, 0, sizeof(o));
	aclrtMemset(od, sizeof(o), 0, sizeof(o));
	ASSERT_EQ(0, aclnnAvgPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), ak, ast, apd,
						    false, true, 0, 0, tens(so3, 3, ACL_FLOAT, od),
						    &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < 16; c++)
		EXPECT_TRUE(CLOSE(o[c], mean[c]));

	ASSERT_EQ(0, aclnnMaxPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), ak, ast, apd, adl,
						    false, tens(so3, 3, ACL_FLOAT, od), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMaxPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < 16; c++)
		EXPECT_EQ(mx[c], o[c]);

	aclrtMemset(od, sizeof(o), 0, sizeof(o));
	ASSERT_EQ(0, aclnnAdaptiveAvgPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), aos,
							    tens(so3, 3, ACL_FLOAT, od), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdaptiveAvgPool2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < 16; c++)
		EXPECT_TRUE(CLOSE(o[c], mean[c]));

	/* MaxPool2dWithIndices and a divisorOverride AvgPool2d on (C, H, W) */
	{
		int64_t idx[16];
		void *id = dev(self, NULL, sizeof(idx));

		ASSERT_EQ(0, aclnnMaxPool2dWithIndicesGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), ak,
			  ast, apd, adl, false, tens(so3, 3, ACL_FLOAT, od),
			  tens(so3, 3, ACL_INT64, id), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnMaxPool2dWithIndices, ws, ex));
		get(o, od, sizeof(o));
		get(idx, id, sizeof(idx));
		for (c = 0; c < 16; c++) {
			EXPECT_EQ(mx[c], o[c]);
			ASSERT_TRUE(idx[c] >= 0 && idx[c] < 16);
			EXPECT_EQ(mx[c], x[c * 16 + idx[c]]);
		}
		ASSERT_EQ(0, aclnnAvgPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), ak, ast, apd,
							    false, true, 8, 0,
							    tens(so3, 3, ACL_FLOAT, od), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnAvgPool2d, ws, ex));
		get(o, od, sizeof(o));
		for (c = 0; c < 16; c++)
			EXPECT_TRUE(CLOSE(o[c], mean[c] * 2));
	}
	/* AdaptiveMaxPool2d on (C, H, W): even bins (1x1) and uneven (3x3) */
	{
		int64_t idx[144], s33[3] = { 16, 3, 3 }, o33[2] = { 3, 3 };
		float o3[144];
		void *id = dev(self, NULL, sizeof(idx)), *o3d = dev(self, NULL, sizeof(o3));
		aclIntArray *a33 = ia(o33, 2);
		int oi, oj, h, w;

		ASSERT_EQ(0, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), aos,
			  tens(so3, 3, ACL_FLOAT, od), tens(so3, 3, ACL_INT64, id), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnAdaptiveMaxPool2d, ws, ex));
		get(o, od, sizeof(o));
		for (c = 0; c < 16; c++)
			EXPECT_EQ(mx[c], o[c]);
		ASSERT_EQ(0, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), a33,
			  tens(s33, 3, ACL_FLOAT, o3d), tens(s33, 3, ACL_INT64, id), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnAdaptiveMaxPool2d, ws, ex));
		get(o3, o3d, sizeof(o3));
		get(idx, id, sizeof(idx));
		for (c = 0; c < 16; c++)
			for (oi = 0; oi < 3; oi++)
				for (oj = 0; oj < 3; oj++) {
					float m = -1e30f;

					for (h = oi * 4 / 3; h < ((oi + 1) * 4 + 2) / 3; h++)
						for (w = oj * 4 / 3; w < ((oj + 1) * 4 + 2) / 3; w++)
							m = fmaxf(m, x[c * 16 + h * 4 + w]);
					EXPECT_EQ(m, o3[(c * 3 + oi) * 3 + oj]);
					ASSERT_TRUE(idx[(c * 3 + oi) * 3 + oj] >= 0 &&
						    idx[(c * 3 + oi) * 3 + oj] < 16);
					EXPECT_EQ(m, x[c * 16 + idx[(c * 3 + oi) * 3 + oj]]);
				}
		aclDestroyIntArray(a33);
	}
	/* a 2-D self, and a 3-D self with a 4-D out */
	EXPECT_EQ(INV, aclnnAvgPool2dGetWorkspaceSize(tens(s2, 2, ACL_FLOAT, xd), ak, ast, apd,
						      false, true, 0, 0, tens(so3, 2, ACL_FLOAT, od),
						      &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPool2dGetWorkspaceSize(tens(s3, 3, ACL_FLOAT, xd), ak, ast, apd, adl,
						      false, tens(so4, 4, ACL_FLOAT, od), &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool2dGetWorkspaceSize(tens(s2, 2, ACL_FLOAT, xd), aos,
							      tens(so3, 2, ACL_FLOAT, od), &ws, &ex));
	aclDestroyIntArray(ak);
	aclDestroyIntArray(ast);
	aclDestroyIntArray(apd);
	aclDestroyIntArray(adl);
	aclDestroyIntArray(aos);
}

TEST_HARNESS_MAIN
