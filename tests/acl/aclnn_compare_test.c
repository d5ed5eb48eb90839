// SPDX-License-Identifier: MIT
/*
 * aclnn comparisons, logical and bitwise operators, Maximum/Minimum,
 * Remainder and the rounding operators on the real driver against C
 * references: broadcasting, a non-contiguous input, dtype promotion, and
 * the error codes for bad dtypes and shapes.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_ge_scalar.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

typedef aclnnStatus (*bin_ws)(const aclTensor *, const aclTensor *, aclTensor *,
			      uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*un_ws)(const aclTensor *, aclTensor *, uint64_t *,
			     aclOpExecutor **);

/* a [2, 4] float, b [4] (broadcast along rows), one tie per row. */
static const float fa[8] = { -3, -1.5f, 0.25f, 2, 0.5f, 1, NAN, 4 };
static const float fb[4] = { -1.5f, -1.5f, 2, 2 };

static float ref_cmp(int k, float x, float y)
{
	switch (k) {
	case 0: return x == y;
	case 1: return x != y;
	case 2: return x < y;
	case 3: return x <= y;
	case 4: return x > y;
	case 5: return x >= y;
	case 6: return x != 0 && y != 0;
	case 7: return x != 0 || y != 0;
	default: return (x != 0) != (y != 0);
	}
}

TEST_F(nn, comparisons_and_logical_broadcast)
{
	static const struct {
		bin_ws ws;
		launch_fn run;
	} ops[] = {
		{ aclnnEqTensorGetWorkspaceSize, aclnnEqTensor },
		{ aclnnNeTensorGetWorkspaceSize, aclnnNeTensor },
		{ aclnnLtTensorGetWorkspaceSize, aclnnLtTensor },
		{ aclnnLeTensorGetWorkspaceSize, aclnnLeTensor },
		{ aclnnGtTensorGetWorkspaceSize, aclnnGtTensor },
		{ aclnnGeTensorGetWorkspaceSize, aclnnGeTensor },
		{ aclnnLogicalAndGetWorkspaceSize, aclnnLogicalAnd },
		{ aclnnLogicalOrGetWorkspaceSize, aclnnLogicalOr },
		{ aclnnLogicalXorGetWorkspaceSize, aclnnLogicalXor },
	};
	int64_t sa[2] = { 2, 4 }, sb[1] = { 4 };
	void *ad = dev(self, fa, sizeof(fa)), *bd = dev(self, fb, sizeof(fb));
	void *od = dev(self, NULL, 8);
	aclTensor *ta = tens(sa, 2, ACL_FLOAT, ad), *tb = tens(sb, 1, ACL_FLOAT, bd);
	aclTensor *to = tens(sa, 2, ACL_BOOL, od);
	unsigned int k, i;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		aclOpExecutor *ex = NULL;
		uint64_t ws = 0;
		uint8_t o[8];

		ASSERT_EQ(ACLNN_SUCCESS, ops[k].ws(ta, tb, to, &ws, &ex));
		ASSERT_EQ(0, run(self, ops[k].run, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 8; i++)
			EXPECT_EQ((uint8_t)ref_cmp(k, fa[i], fb[i % 4]), o[i]) {
				TH_LOG("op %u element %u", k, i);
			}
	}
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
}

/* Maximum of an int32 transposed view and an int64 (promoted), Remainder. */
TEST_F(nn, maximum_minimum_remainder_noncontiguous)
{
	int32_t a[6] = { -7, 7, 3, -3, 10, -10 };	/* storage [3, 2] */
	int64_t b[6] = { 2, -2, 4, 3, 3, 3 };		/* [2, 3] */
	int64_t o[6], sa[2] = { 2, 3 }, st[2] = { 1, 2 };
	void *ad = dev(self, a, sizeof(a)), *bd = dev(self, b, sizeof(b));
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = view(sa, 2, st, 0, 6, ACL_INT32, ad);
	aclTensor *tb = tens(sa, 2, ACL_INT64, bd), *to = tens(sa, 2, ACL_INT64, od);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 0;
	int i, j;

	ASSERT_EQ(ACLNN_SUCCESS, aclnnMaximumGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMaximum, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++) {
			int64_t x = a[j * 2 + i], y = b[i * 3 + j];

			EXPECT_EQ(x > y ? x : y, o[i * 3 + j]);
		}
	ASSERT_EQ(ACLNN_SUCCESS, aclnnMinimumGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMinimum, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++) {
			int64_t x = a[j * 2 + i], y = b[i * 3 + j];

			EXPECT_EQ(x < y ? x : y, o[i * 3 + j]);
		}
	/* remainder takes the divisor's sign: Python's % */
	ASSERT_EQ(ACLNN_SUCCESS,
		  aclnnRemainderTensorTensorGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRemainderTensorTensor, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++) {
			int64_t x = a[j * 2 + i], y = b[i * 3 + j], r = x % y;

			if (r && (r < 0) != (y < 0))
				r += y;
			EXPECT_EQ(r, o[i * 3 + j]);
		}
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
}

TEST_F(nn, bitwise_and_not)
{
	static const struct {
		bin_ws ws;
		launch_fn run;
		char op;
	} ops[] = {
		{ aclnnBitwiseAndTensorGetWorkspaceSize, aclnnBitwiseAndTensor, '&' },
		{ aclnnBitwiseOrTensorGetWorkspaceSize, aclnnBitwiseOrTensor, '|' },
		{ aclnnBitwiseXorTensorGetWorkspaceSize, aclnnBitwiseXorTensor, '^' },
	};
	int32_t a[4] = { 0x0f0f, -1, 12, -8 }, b[4] = { 0x00ff, 5, 10, 3 }, o[4];
	uint8_t ba[4] = { 0, 1, 0, 1 }, bo[4];
	int64_t s[1] = { 4 };
	void *ad = dev(self, a, sizeof(a)), *bd = dev(self, b, sizeof(b));
	void *od = dev(self, NULL, sizeof(o)), *bad = dev(self, ba, 4);
	void *bod = dev(self, NULL, 4);
	aclTensor *ta = tens(s, 1, ACL_INT32, ad), *tb = tens(s, 1, ACL_INT32, bd);
	aclTensor *to = tens(s, 1, ACL_INT32, od), *tba = tens(s, 1, ACL_BOOL, bad);
	aclTensor *tbo = tens(s, 1, ACL_BOOL, bod);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 0;
	unsigned int k, i;

	for (k = 0; k < 3; k++) {
		ASSERT_EQ(ACLNN_SUCCESS, ops[k].ws(ta, tb, to, &ws, &ex));
		ASSERT_EQ(0, run(self, ops[k].run, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 4; i++)
			EXPECT_EQ(ops[k].op == '&' ? (a[i] & b[i]) :
				  ops[k].op == '|' ? (a[i] | b[i]) : (a[i] ^ b[i]), o[i]);
	}
	ASSERT_EQ(ACLNN_SUCCESS, aclnnBitwiseNotGetWorkspaceSize(ta, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnBitwiseNot, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(~a[i], o[i]);
	/* BOOL: logical */
	ASSERT_EQ(ACLNN_SUCCESS, aclnnBitwiseNotGetWorkspaceSize(tba, tbo, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnBitwiseNot, ws, ex));
	get(bo, bod, 4);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(!ba[i], bo[i]);
	ASSERT_EQ(ACLNN_SUCCESS, aclnnLogicalNotGetWorkspaceSize(ta, tbo, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLogicalNot, ws, ex));
	get(bo, bod, 4);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(!a[i], bo[i]);
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyTensor(tba);
	aclDestroyTensor(tbo);
}

static float r_recip(float x) { return 1 / x; }
static float r_sign(float x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

TEST_F(nn, rounding_and_reciprocal)
{
	static const struct {
		un_ws ws;
		launch_fn run;
		float (*ref)(float);
	} ops[] = {
		{ aclnnFloorGetWorkspaceSize, aclnnFloor, floorf },
		{ aclnnCeilGetWorkspaceSize, aclnnCeil, ceilf },
		{ aclnnRoundGetWorkspaceSize, aclnnRound, rintf },	/* half to even */
		{ aclnnSignGetWorkspaceSize, aclnnSign, r_sign },
		{ aclnnReciprocalGetWorkspaceSize, aclnnReciprocal, r_recip },
	};
	float a[8] = { -2.5f, -1.5f, -0.4f, 0.5f, 1.5f, 2.5f, 3.7f, -3.7f }, o[8];
	int64_t s[1] = { 8 };
	void *ad = dev(self, a, sizeof(a)), *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(s, 1, ACL_FLOAT, ad), *to = tens(s, 1, ACL_FLOAT, od);
	unsigned int k, i;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		aclOpExecutor *ex = NULL;
		uint64_t ws = 0;

		ASSERT_EQ(ACLNN_SUCCESS, ops[k].ws(ta, to, &ws, &ex));
		ASSERT_EQ(0, run(self, ops[k].run, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 8; i++)
			EXPECT_TRUE(CLOSE(o[i], ops[k].ref(a[i]))) {
				TH_LOG("op %u x %g got %g", k, a[i], o[i]);
			}
	}
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}

typedef aclnnStatus (*scalar_ws)(const aclTensor *, const aclScalar *, aclTensor *,
				 uint64_t *, aclOpExecutor **);

/* An int32 tensor against a float scalar compares in FLOAT (2 < 2.5). */
TEST_F(nn, scalar_comparisons_promote)
{
	static const struct {
		scalar_ws ws;
		launch_fn run;
	} ops[] = {
		{ aclnnEqScalarGetWorkspaceSize, aclnnEqScalar },
		{ aclnnNeScalarGetWorkspaceSize, aclnnNeScalar },
		{ aclnnLtScalarGetWorkspaceSize, aclnnLtScalar },
		{ aclnnLeScalarGetWorkspaceSize, aclnnLeScalar },
		{ aclnnGtScalarGetWorkspaceSize, aclnnGtScalar },
		{ aclnnGeScalarGetWorkspaceSize, aclnnGeScalar },
	};
	int32_t a[6] = { -3, 2, 3, 7, 2, 0 };
	double half = 2.5;
	int64_t two = 2, s[1] = { 6 };
	void *ad = dev(self, a, sizeof(a)), *od = dev(self, NULL, 8);
	aclTensor *ta = tens(s, 1, ACL_INT32, ad), *to = tens(s, 1, ACL_BOOL, od);
	aclScalar *sf = aclCreateScalar(&half, ACL_DOUBLE);
	aclScalar *si = aclCreateScalar(&two, ACL_INT64);
	unsigned int k, i, v;

	for (v = 0; v < 2; v++)
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			double y = v ? 2 : 2.5;
			aclOpExecutor *ex = NULL;
			uint64_t ws = 0;
			uint8_t o[6];

			ASSERT_EQ(ACLNN_SUCCESS, ops[k].ws(ta, v ? si : sf, to, &ws, &ex));
			ASSERT_EQ(0, run(self, ops[k].run, ws, ex));
			get(o, od, sizeof(o));
			for (i = 0; i < 6; i++)
				EXPECT_EQ((uint8_t)ref_cmp(k, (float)a[i], (float)y), o[i]) {
					TH_LOG("op %u scalar %g element %u", k, y, i);
				}
		}
	/* an out of another shape; no scalar */
	{
		int64_t s3[1] = { 3 };
		aclTensor *t3 = tens(s3, 1, ACL_BOOL, od);
		aclOpExecutor *ex = NULL;
		uint64_t ws = 0;

		EXPECT_EQ(INV, aclnnEqScalarGetWorkspaceSize(ta, sf, t3, &ws, &ex));
		EXPECT_EQ(NUL, aclnnGtScalarGetWorkspaceSize(ta, NULL, to, &ws, &ex));
		EXPECT_EQ(NULL, ex);
		aclDestroyTensor(t3);
	}
	aclDestroyScalar(sf);
	aclDestroyScalar(si);
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}

TEST_F(nn, bad_dtypes_and_shapes)
{
	int64_t s4[1] = { 4 }, s3[1] = { 3 }, s22[2] = { 2, 2 };
	void *d = dev(self, NULL, 64);
	aclTensor *f4 = tens(s4, 1, ACL_FLOAT, d), *f3 = tens(s3, 1, ACL_FLOAT, d);
	aclTensor *b4 = tens(s4, 1, ACL_BOOL, d), *i4 = tens(s4, 1, ACL_INT32, d);
	aclTensor *f22 = tens(s22, 2, ACL_FLOAT, d), *u16 = tens(s4, 1, ACL_UINT16, d);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 7;

	/* shapes that do not broadcast; an out of the wrong shape */
	EXPECT_EQ(INV, aclnnEqTensorGetWorkspaceSize(f4, f3, b4, &ws, &ex));
	EXPECT_EQ(INV, aclnnMaximumGetWorkspaceSize(f4, f4, f22, &ws, &ex));
	EXPECT_EQ(INV, aclnnFloorGetWorkspaceSize(f4, f22, &ws, &ex));
	EXPECT_EQ(INV, aclnnLogicalNotGetWorkspaceSize(f4, f22, &ws, &ex));
	/* a float result into an integer out; bitwise on floats */
	EXPECT_EQ(INV, aclnnMaximumGetWorkspaceSize(f4, f4, i4, &ws, &ex));
	EXPECT_EQ(INV, aclnnBitwiseAndTensorGetWorkspaceSize(f4, f4, f4, &ws, &ex));
	EXPECT_EQ(INV, aclnnBitwiseNotGetWorkspaceSize(f4, f4, &ws, &ex));
	/* remainder of BOOLs; a dtype the aclnn layer does not take */
	EXPECT_EQ(INV, aclnnRemainderTensorTensorGetWorkspaceSize(b4, b4, b4, &ws, &ex));
	EXPECT_EQ(INV, aclnnLtTensorGetWorkspaceSize(u16, u16, b4, &ws, &ex));
	/* NULLs */
	EXPECT_EQ(NUL, aclnnGeTensorGetWorkspaceSize(NULL, f4, b4, &ws, &ex));
	EXPECT_EQ(NUL, aclnnSignGetWorkspaceSize(f4, f4, NULL, &ex));
	EXPECT_EQ(NUL, aclnnLogicalOrGetWorkspaceSize(b4, b4, b4, &ws, NULL));
	EXPECT_EQ(7, ws);
	EXPECT_EQ(NULL, ex);
	aclDestroyTensor(f4);
	aclDestroyTensor(f3);
	aclDestroyTensor(b4);
	aclDestroyTensor(i4);
	aclDestroyTensor(f22);
	aclDestroyTensor(u16);
}

/*
 * CANN's example for aclnnSign (math/sign/examples/test_aclnn_sign.cpp):
 * FLOAT [4, 2] = 1 ... 8 -> all 1, plus a zero and negatives; then the
 * BOOL case of its document (and Abs's BOOL entry): a BOOL is itself.
 */
TEST_F(nn, sign_abs_cann_example_bool)
{
	float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, y[8] = { -3, 0, 2, -0.5f, 1, -1, 0, 9 }, o[8];
	uint8_t b[8] = { 1, 0, 0, 1, 1, 1, 0, 1 }, ob[8];
	int64_t sh[2] = { 4, 2 };
	void *od = dev(self, NULL, sizeof(o)), *obd = dev(self, NULL, sizeof(ob));
	aclTensor *tx = tens(sh, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *ty = tens(sh, 2, ACL_FLOAT, dev(self, y, sizeof(y)));
	aclTensor *tb = tens(sh, 2, ACL_BOOL, dev(self, b, sizeof(b)));
	aclTensor *to = tens(sh, 2, ACL_FLOAT, od), *tob = tens(sh, 2, ACL_BOOL, obd);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnSignGetWorkspaceSize(tx, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSign, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(1.0f, o[i]);
	ASSERT_EQ(0, aclnnSignGetWorkspaceSize(ty, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSign, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(y[i] > 0 ? 1.0f : y[i] < 0 ? -1.0f : 0.0f, o[i]);
	ASSERT_EQ(0, aclnnSignGetWorkspaceSize(tb, tob, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSign, ws, ex));
	get(ob, obd, sizeof(ob));
	EXPECT_EQ(0, memcmp(b, ob, sizeof(b)));
	memset(ob, 7, sizeof(ob));
	aclrtMemcpy(obd, sizeof(ob), ob, sizeof(ob), ACL_MEMCPY_HOST_TO_DEVICE);
	ASSERT_EQ(0, aclnnAbsGetWorkspaceSize(tb, tob, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAbs, ws, ex));
	get(ob, obd, sizeof(ob));
	EXPECT_EQ(0, memcmp(b, ob, sizeof(b)));
	/* a BOOL Floor stays refused (BOOL is not in Floor's document) */
	EXPECT_EQ(INV, aclnnFloorGetWorkspaceSize(tb, tob, &ws, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(ty);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyTensor(tob);
}

TEST_HARNESS_MAIN
