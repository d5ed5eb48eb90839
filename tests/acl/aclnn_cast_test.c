// SPDX-License-Identifier: MIT
/*
 * aclnnCast (cast family) on the real driver, and dtype promotion through
 * CAST tasks in the workspace.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_div.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, cast_and_promotion)
{
	int32_t ai[4] = { 1, -2, 7, 100 };
	float bf[4] = { 0.5f, 0.25f, -1, 2 }, o[4];
	int32_t oi[4];
	int64_t sh[1] = { 4 };
	void *od = dev(self, NULL, sizeof(o)), *oid = dev(self, NULL, sizeof(oi));
	void *fd = dev(self, bf, sizeof(bf));
	aclTensor *ta = tens(sh, 1, ACL_INT32, dev(self, ai, sizeof(ai)));
	aclTensor *tb = tens(sh, 1, ACL_FLOAT, fd);
	aclTensor *to = tens(sh, 1, ACL_FLOAT, od);
	aclTensor *toi = tens(sh, 1, ACL_INT32, oid);
	aclOpExecutor *ex;
	uint64_t ws;
	float one = 1;
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	int i;

	/* int32 + float -> float: the int32 operand is cast in the workspace. */
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	EXPECT_GE(ws, sizeof(float) * 4);
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], ai[i] + bf[i]));
	/* A float result cannot go into an int32 out. */
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnAddGetWorkspaceSize(ta, tb, alpha, toi, &ws, &ex));
	/* Cast float -> int32 truncates toward zero. */
	ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tb, ACL_INT32, toi, &ws, &ex));
	EXPECT_EQ(0, ws);
	ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
	get(oi, oid, sizeof(oi));
	for (i = 0; i < 4; i++)
		EXPECT_EQ((int32_t)bf[i], oi[i]);
	/* float16 * float -> float: fp16 data made by a Cast. */
	{
		void *hd = dev(self, NULL, 8);
		aclTensor *th = tens(sh, 1, ACL_FLOAT16, hd);

		ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tb, ACL_FLOAT16, th, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
		ASSERT_EQ(0, aclnnMulGetWorkspaceSize(th, tb, to, &ws, &ex));
		EXPECT_GT(ws, 0);
		ASSERT_EQ(0, run(self, aclnnMul, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 4; i++)
			EXPECT_TRUE(CLOSE(o[i], bf[i] * bf[i]));
		aclDestroyTensor(th);
	}
	aclDestroyScalar(alpha);
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyTensor(toi);
}

TEST_HARNESS_MAIN
