// SPDX-License-Identifier: MIT
/*
 * aclnn dtype promotion with the dtypes UAPI 1.5 added (INT16, UINT16,
 * UINT32, UINT64, DOUBLE) on the real driver: int16 + int32 -> int32 from
 * a strided int16 view, double + float -> double, uint8 * int8 -> int16,
 * uint32 + int32 -> int64, uint16 - uint8 -> uint16, double / int16;
 * uint64 with a signed integer (no common dtype), a result into a lower
 * category and unsupported dtypes are refused (161002), NULLs (161001).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_div.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

enum { E = 6 };

TEST_F(nn, promote_integers)
{
	int16_t a16[2 * E] = { 30000, 0, -30000, 0, 7, 0, -1, 0, 255, 0, -256, 0 };
	int32_t b32[E] = { 70000, -70000, 5, -2147483000, 1, 0 }, o32[E];
	uint8_t u8[E] = { 200, 255, 0, 1, 128, 17 };
	int8_t i8[E] = { -3, 127, -128, -1, 2, 0 };
	int16_t o16[E];
	uint32_t u32[E] = { 4000000000u, 0, 1, 2147483648u, 7, 4294967295u };
	int64_t o64[E];
	uint16_t u16[E] = { 65535, 300, 0, 1, 40000, 9 }, ou16[E];
	int64_t sh[1] = { E }, st[1] = { 2 };
	float one = 1;
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	aclTensor *ta, *tb, *to, *tu8, *ti8, *to16, *tu32, *to64, *tu16, *tou16, *tu64;
	void *d32, *d16, *d64, *du16;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, bad_n = 0;

	/* int16 (every other element) + int32 -> int32 */
	ta = view(sh, 1, st, 0, 2 * E, ACL_INT16, dev(self, a16, sizeof(a16)));
	tb = tens(sh, 1, ACL_INT32, dev(self, b32, sizeof(b32)));
	d32 = dev(self, NULL, sizeof(o32));
	to = tens(sh, 1, ACL_INT32, d32);
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	EXPECT_NE(0, ws);	/* the int16 operand is cast first */
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(o32, d32, sizeof(o32));
	for (i = 0; i < E; i++)
		bad_n += o32[i] != (int32_t)(a16[2 * i] + b32[i]);
	EXPECT_EQ(0, bad_n);
	/* uint8 * int8 -> int16 (no longer refused) */
	tu8 = tens(sh, 1, ACL_UINT8, dev(self, u8, sizeof(u8)));
	ti8 = tens(sh, 1, ACL_INT8, dev(self, i8, sizeof(i8)));
	d16 = dev(self, NULL, sizeof(o16));
	to16 = tens(sh, 1, ACL_INT16, d16);
	ASSERT_EQ(0, aclnnMulGetWorkspaceSize(tu8, ti8, to16, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMul, ws, ex));
	get(o16, d16, sizeof(o16));
	for (i = 0; i < E; i++)
		bad_n += o16[i] != (int16_t)(u8[i] * i8[i]);
	EXPECT_EQ(0, bad_n);
	/* uint32 + int32 -> int64: no wrap at 2^31 or 2^32 */
	tu32 = tens(sh, 1, ACL_UINT32, dev(self, u32, sizeof(u32)));
	d64 = dev(self, NULL, sizeof(o64));
	to64 = tens(sh, 1, ACL_INT64, d64);
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(tu32, tb, alpha, to64, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(o64, d64, sizeof(o64));
	for (i = 0; i < E; i++)
		bad_n += o64[i] != (int64_t)u32[i] + b32[i];
	EXPECT_EQ(0, bad_n);
	/* uint16 - uint8 -> uint16, wrapping as unsigned */
	tu16 = tens(sh, 1, ACL_UINT16, dev(self, u16, sizeof(u16)));
	du16 = dev(self, NULL, sizeof(ou16));
	tou16 = tens(sh, 1, ACL_UINT16, du16);
	ASSERT_EQ(0, aclnnSubGetWorkspaceSize(tu16, tu8, alpha, tou16, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSub, ws, ex));
	get(ou16, du16, sizeof(ou16));
	for (i = 0; i < E; i++)
		bad_n += ou16[i] != (uint16_t)(u16[i] - u8[i]);
	EXPECT_EQ(0, bad_n);
	/* uint64 with a signed integer has no common dtype; int32 into uint8 out is
	 * allowed (same category), a float result into an integer out is not
	 */
	tu64 = tens(sh, 1, ACL_UINT64, d64);
	EXPECT_EQ(INV, aclnnAddGetWorkspaceSize(tu64, tb, alpha, to64, &ws, &ex));
	EXPECT_EQ(INV, aclnnMulGetWorkspaceSize(ti8, tu64, to64, &ws, &ex));
	EXPECT_EQ(0, aclnnAddGetWorkspaceSize(tu64, tu32, alpha, tu64, &ws, &ex));
	EXPECT_EQ(0, aclDestroyAclOpExecutor(ex));
	EXPECT_EQ(INV, aclnnDivGetWorkspaceSize(ta, tb, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddGetWorkspaceSize(ta, NULL, alpha, to, &ws, &ex));
	aclDestroyScalar(alpha);
}

TEST_F(nn, promote_double)
{
	double a[E] = { 1e300, -0.1, 1.0 / 3, 1e-310, -7.5, 3 }, od[E];
	float b[E] = { 1.5f, 0.1f, 1.0f / 3, 2.0f, -0.25f, 1e30f };
	int16_t c16[E] = { 3, -7, 1000, 1, -2, 9 };
	int64_t sh[1] = { E }, sh2[2] = { 2, E / 2 };
	float one = 1;
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	aclTensor *ta, *tb, *to, *tc, *tof, *t2;
	void *dd;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, bad_n = 0;

	ta = tens(sh, 1, ACL_DOUBLE, dev(self, a, sizeof(a)));
	tb = tens(sh, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	dd = dev(self, NULL, sizeof(od));
	to = tens(sh, 1, ACL_DOUBLE, dd);
	/* double + float -> double, exact in double */
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(od, dd, sizeof(od));
	for (i = 0; i < E; i++)
		bad_n += od[i] != a[i] + (double)b[i];
	EXPECT_EQ(0, bad_n);
	/* double / int16 -> double */
	tc = tens(sh, 1, ACL_INT16, dev(self, c16, sizeof(c16)));
	ASSERT_EQ(0, aclnnDivGetWorkspaceSize(ta, tc, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnDiv, ws, ex));
	get(od, dd, sizeof(od));
	for (i = 0; i < E; i++)
		bad_n += od[i] != a[i] / (double)c16[i];
	EXPECT_EQ(0, bad_n);
	/* a double result into FLOAT out is allowed (cast), into INT16 not */
	tof = tens(sh, 1, ACL_FLOAT, dev(self, NULL, E * 4));
	EXPECT_EQ(0, aclnnMulGetWorkspaceSize(ta, tb, tof, &ws, &ex));
	EXPECT_EQ(0, aclDestroyAclOpExecutor(ex));
	EXPECT_EQ(INV, aclnnMulGetWorkspaceSize(ta, tb, tc, &ws, &ex));
	/* shapes that do not broadcast */
	t2 = tens(sh2, 2, ACL_DOUBLE, dd);
	EXPECT_EQ(INV, aclnnAddGetWorkspaceSize(ta, t2, alpha, to, &ws, &ex));
	aclDestroyScalar(alpha);
}

TEST_HARNESS_MAIN
