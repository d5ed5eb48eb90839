// SPDX-License-Identifier: MIT
/*
 * aclnn elementwise binary operators (eltwise family) on the real driver:
 * Add with broadcasting and alpha, the scalar forms of Add, Sub, Mul, Div
 * and Pow, against C references.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, add_broadcast_alpha)
{
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[3] = { 10, 20, 30 }, o[6];
	int64_t sa[2] = { 2, 3 }, sb[1] = { 3 };
	float al = 0.5f;
	aclTensor *ta = tens(sa, 2, ACL_FLOAT, dev(self, a, sizeof(a)));
	aclTensor *tb = tens(sb, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *to = tens(sa, 2, ACL_FLOAT, od);
	aclScalar *alpha = aclCreateScalar(&al, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 1;
	int i;

	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	EXPECT_EQ(0, ws);
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] + 0.5f * b[i % 3]));
	/* Sub, Mul, Div on the same operands. */
	ASSERT_EQ(0, aclnnSubGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSub, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] - 0.5f * b[i % 3]));
	ASSERT_EQ(0, aclnnMulGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMul, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] * b[i % 3]));
	ASSERT_EQ(0, aclnnDivGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnDiv, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] / b[i % 3]));
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyScalar(alpha);
}

TEST_F(nn, scalars)
{
	float a[4] = { 1, -2, 3, -4 }, o[4], two = 2, al = 1;
	int64_t sh[1] = { 4 };
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, dev(self, a, sizeof(a)));
	aclTensor *to = tens(sh, 1, ACL_FLOAT, od);
	aclScalar *s2 = aclCreateScalar(&two, ACL_FLOAT);
	aclScalar *s1 = aclCreateScalar(&al, ACL_FLOAT);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnMulsGetWorkspaceSize(ta, s2, to, &ws, &ex));
	EXPECT_GT(ws, 0);	/* the scalar lives in the workspace */
	ASSERT_EQ(0, run(self, aclnnMuls, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] * 2));
	ASSERT_EQ(0, aclnnAddsGetWorkspaceSize(ta, s2, s1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdds, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] + 2));
	/* Powers: a scalar exponent, then a tensor of exponents. */
	ASSERT_EQ(0, aclnnPowTensorScalarGetWorkspaceSize(ta, s2, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowTensorScalar, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] * a[i]));
	{
		float e[4] = { 3, 2, 1, 0 };
		int64_t bad[1] = { 3 };
		aclTensor *te = tens(sh, 1, ACL_FLOAT, dev(self, e, sizeof(e)));
		aclTensor *tb = tens(bad, 1, ACL_FLOAT, dev(self, e, 12));
		aclnnStatus st;

		ASSERT_EQ(0, aclnnPowTensorTensorGetWorkspaceSize(ta, te, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnPowTensorTensor, ws, ex));
		get(o, od, sizeof(o));
		/* An exponent that does not broadcast is refused in phase 1. */
		st = aclnnPowTensorTensorGetWorkspaceSize(ta, tb, to, &ws, &ex);
		aclDestroyTensor(tb);
		aclDestroyTensor(te);
		EXPECT_NE(0, st);
		EXPECT_TRUE(CLOSE(o[0], 1.0f));
		EXPECT_TRUE(CLOSE(o[1], 4.0f));
		EXPECT_TRUE(CLOSE(o[2], 3.0f));
		EXPECT_TRUE(CLOSE(o[3], 1.0f));
	}
	aclDestroyScalar(s1);
	aclDestroyScalar(s2);
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}


/*
 * CANN's example for aclnnPowTensorScalar (math/pow/examples/test_aclnn_pow.cpp):
 * FLOAT [2, 2] = {0, 1, 2, 3} ** 4.1f. Then the document's rule that an
 * integer power needs exponent >= 0: INT32 ** -1 (INT64 scalar) is 161002,
 * INT32 ** -1.0 (a float scalar) is a FLOAT power and allowed.
 */
TEST_F(nn, pow_tensor_scalar_cann_example)
{
	float x[4] = { 0, 1, 2, 3 }, o[4], e = 4.1f, ef = -1.0f;
	int32_t xi[4] = { 1, 2, 4, 5 };
	int64_t sh[2] = { 2, 2 }, em = -1, ep = 2;
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *tx = tens(sh, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *ti = tens(sh, 2, ACL_INT32, dev(self, xi, sizeof(xi)));
	aclTensor *to = tens(sh, 2, ACL_FLOAT, od);
	aclTensor *toi = tens(sh, 2, ACL_INT32, od);
	aclScalar *se = aclCreateScalar(&e, ACL_FLOAT);
	aclScalar *sneg = aclCreateScalar(&em, ACL_INT64);
	aclScalar *spos = aclCreateScalar(&ep, ACL_INT64);
	aclScalar *sf = aclCreateScalar(&ef, ACL_FLOAT);
	int32_t oi[4];
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnPowTensorScalarGetWorkspaceSize(tx, se, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowTensorScalar, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], powf(x[i], 4.1f))) TH_LOG("%g", o[i]);
	EXPECT_TRUE(CLOSE(o[3], 90.405977f));	/* 3 ** 4.1 */
	EXPECT_EQ(INV, aclnnPowTensorScalarGetWorkspaceSize(ti, sneg, toi, &ws, &ex));
	ASSERT_EQ(0, aclnnPowTensorScalarGetWorkspaceSize(ti, spos, toi, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowTensorScalar, ws, ex));
	get(oi, od, sizeof(oi));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(xi[i] * xi[i], oi[i]);
	ASSERT_EQ(0, aclnnPowTensorScalarGetWorkspaceSize(ti, sf, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowTensorScalar, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], 1.0f / xi[i]));
	aclDestroyScalar(se);
	aclDestroyScalar(sneg);
	aclDestroyScalar(spos);
	aclDestroyScalar(sf);
	aclDestroyTensor(tx);
	aclDestroyTensor(ti);
	aclDestroyTensor(to);
	aclDestroyTensor(toi);
}

TEST_HARNESS_MAIN
