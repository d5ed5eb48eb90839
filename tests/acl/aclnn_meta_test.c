// SPDX-License-Identifier: MIT
/*
 * aclnn descriptor objects and executors on the real driver: a
 * repeatable executor with new addresses, and the errors of the meta
 * API and of the two phases.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_cast.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, repeatable_executor)
{
	float a[4] = { 1, 2, 3, 4 }, b[4] = { 10, 20, 30, 40 }, c[4] = { -1, -2, -3, -4 };
	float o[4];
	int64_t sh[1] = { 4 };
	void *ad = dev(self, a, 16), *bd = dev(self, b, 16), *cd = dev(self, c, 16);
	void *o1 = dev(self, NULL, 16), *o2 = dev(self, NULL, 16);
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, ad), *tb = tens(sh, 1, ACL_FLOAT, bd);
	aclTensor *to = tens(sh, 1, ACL_FLOAT, o1);
	aclOpExecutor *ex;
	uint64_t ws;
	int i, k;

	ASSERT_EQ(0, aclnnMulGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, aclSetAclOpExecutorRepeatable(ex));
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, aclnnMul(NULL, 0, ex, self->s));
	ASSERT_EQ(0, aclrtSynchronizeStream(self->s));
	get(o, o1, 16);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(a[i] * b[i], o[i]);
	/* New addresses: input 1 -> c, output 0 -> o2. */
	ASSERT_EQ(0, aclSetInputTensorAddr(ex, 1, tb, cd));
	ASSERT_EQ(0, aclSetOutputTensorAddr(ex, 0, to, o2));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID, aclSetInputTensorAddr(ex, 2, tb, cd));
	ASSERT_EQ(0, aclnnMul(NULL, 0, ex, self->s));
	ASSERT_EQ(0, aclrtSynchronizeStream(self->s));
	get(o, o2, 16);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(a[i] * c[i], o[i]);
	/* aclSetTensorAddr counts inputs then outputs: 0 is self. */
	ASSERT_EQ(0, aclSetTensorAddr(ex, 0, ta, cd));
	ASSERT_EQ(0, aclnnMul(NULL, 0, ex, self->s));
	ASSERT_EQ(0, aclrtSynchronizeStream(self->s));
	get(o, o2, 16);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(c[i] * c[i], o[i]);
	EXPECT_EQ(0, aclDestroyAclOpExecutor(ex));
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
}

TEST_F(nn, errors)
{
	int64_t sh[1] = { 4 }, sh3[1] = { 3 };
	float one = 1;
	void *d = dev(self, NULL, 16);
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, d), *t3 = tens(sh3, 1, ACL_FLOAT, d);
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	uint64_t ws;
	int64_t *dims;
	uint64_t n;

	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnAddGetWorkspaceSize(NULL, ta, alpha, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnAddGetWorkspaceSize(ta, ta, NULL, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnReluGetWorkspaceSize(ta, ta, NULL, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnAddGetWorkspaceSize(ta, t3, alpha, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnReluGetWorkspaceSize(ta, t3, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnCastGetWorkspaceSize(ta, ACL_INT32, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclnnAdd(NULL, 0, NULL, self->s));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclSetAclOpExecutorRepeatable(NULL));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclDestroyAclOpExecutor(NULL));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclSetInputTensorAddr(NULL, 0, ta, d));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR, aclDestroyTensor(NULL));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR, aclGetViewShape(NULL, &dims, &n));
	EXPECT_EQ(NULL, aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, d));
	EXPECT_EQ(NULL, aclCreateScalar(NULL, ACL_FLOAT));
	/* A workspace is required when the executor needs one. */
	ASSERT_EQ(0, aclnnMulsGetWorkspaceSize(ta, alpha, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID, aclnnMuls(NULL, 0, ex, self->s));
	n = 0;
	/* Arrays and lists. */
	{
		int64_t v[3] = { 1, 2, 3 };
		aclIntArray *ia = aclCreateIntArray(v, 3);
		const aclTensor *l[1];
		aclTensorList *tl;

		ASSERT_EQ(0, aclGetIntArraySize(ia, &n));
		EXPECT_EQ(3, n);
		aclDestroyIntArray(ia);
		l[0] = tens(sh, 1, ACL_FLOAT, d);
		tl = aclCreateTensorList(l, 1);
		ASSERT_EQ(0, aclGetTensorListSize(tl, &n));
		EXPECT_EQ(1, n);
		EXPECT_EQ(0, aclDestroyTensorList(tl));
	}
	aclDestroyScalar(alpha);
	aclDestroyTensor(ta);
	aclDestroyTensor(t3);
}

TEST_HARNESS_MAIN
