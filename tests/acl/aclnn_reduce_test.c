// SPDX-License-Identifier: MIT
/*
 * aclnn reductions (reduce family) on the real driver against C
 * references: ReduceSum, Mean, Amax, Amin, ArgMax.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

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

TEST_HARNESS_MAIN
