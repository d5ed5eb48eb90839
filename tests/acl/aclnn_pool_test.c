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

TEST_HARNESS_MAIN
