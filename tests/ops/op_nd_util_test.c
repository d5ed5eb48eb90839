// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the N-d operators' shared helpers (vnpu_nd_util.h): how
 * an output is cut into pieces of whole lines, check() and tiles() from
 * a plan, the window walk, a line's position and 8-bit requantization.
 */
#include "ops_test_util.h"
#include "vnpu_nd_util.h"
#include "kselftest_harness.h"

#define W	((s64)VNPU_OPS_PIECE_WORK)

TEST(nd_split_pieces)
{
	struct vnpu_nd_split s;
	s64 first, last, next = 0;
	u64 t;

	/* small lines: everything in one piece */
	ASSERT_EQ(0, vnpu_nd_split(&s, 1000, 10, 1));
	EXPECT_EQ(100, s.lines);
	EXPECT_EQ(VNPU_ND_BUDGET / 10, s.lpp);
	EXPECT_EQ(1, vnpu_nd_tiles(&s));

	/* 100 x 1000 work a line: 41 lines a piece, the last piece short */
	ASSERT_EQ(0, vnpu_nd_split(&s, 100000, 100, 1000));
	EXPECT_EQ(1000, s.lines);
	EXPECT_EQ(41, s.lpp);
	ASSERT_EQ(25, vnpu_nd_tiles(&s));
	for (t = 0; t < 25; t++) {
		vnpu_nd_piece(&s, t, &first, &last);
		EXPECT_EQ(next, first);
		EXPECT_EQ(t < 24 ? 41 : 16, last - first);
		next = last;
	}
	EXPECT_EQ(1000, next);

	/* a line over the budget still makes a piece of its own */
	ASSERT_EQ(0, vnpu_nd_split(&s, 2048 * 3, 2048, 4096));
	EXPECT_EQ(1, s.lpp);
	EXPECT_EQ(3, vnpu_nd_tiles(&s));
	vnpu_nd_piece(&s, 2, &first, &last);
	EXPECT_EQ(2, first);
	EXPECT_EQ(3, last);
}

TEST(nd_split_limits)
{
	struct vnpu_nd_split s;

	/* one line is at most VNPU_OPS_PIECE_WORK, products never wrap */
	EXPECT_EQ(0, vnpu_nd_split(&s, 8192, 8192, W / 8192));
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_nd_split(&s, 8192, 8192, W / 8192 + 1));
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_nd_split(&s, 1, 1LL << 40, 1LL << 40));
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_nd_split(&s, 1, W + 1, 1));

	/* no output: nothing to run */
	ASSERT_EQ(0, vnpu_nd_split(&s, 0, 7, 3));
	EXPECT_EQ(0, s.lines);
	EXPECT_EQ(0, vnpu_nd_tiles(&s));
	/* lines of no elements (MATMUL_INT with n = 0) */
	ASSERT_EQ(0, vnpu_nd_split(&s, 0, 0, 5));
	EXPECT_EQ(0, vnpu_nd_tiles(&s));
	/* no work an element (k = 0): lines still run, budget-sized pieces */
	ASSERT_EQ(0, vnpu_nd_split(&s, 12, 3, 0));
	EXPECT_EQ(4, s.lines);
	EXPECT_EQ(VNPU_ND_BUDGET, s.lpp);
	EXPECT_EQ(1, vnpu_nd_tiles(&s));
}

TEST(nd_in_range)
{
	EXPECT_TRUE(vnpu_nd_in_range(0, 0));
	EXPECT_FALSE(vnpu_nd_in_range(0, 1));
	EXPECT_FALSE(vnpu_nd_in_range(-1, 0));
	EXPECT_TRUE(vnpu_nd_in_range(VNPU_ND_LIMIT, 1));
	EXPECT_FALSE(vnpu_nd_in_range(VNPU_ND_LIMIT + 1, 1));
	EXPECT_EQ(1LL << 20, VNPU_ND_LIMIT);
}

/* A toy operator: its plan fails for op 0 and splits 10 lines by 3. */
struct toy_plan {
	int unused;
	struct vnpu_nd_split pieces;
};

static int toy_plan(const struct vnpu_op_call *c, struct toy_plan *p)
{
	if (!c->op)
		return -VNPU_OPS_EINVAL;
	p->pieces.lines = 10;
	p->pieces.lpp = 3;
	return 0;
}

DEFINE_VNPU_ND_CHECK_TILES(toy, struct toy_plan, toy_plan, pieces)

TEST(nd_check_tiles)
{
	struct vnpu_op_call c;

	memset(&c, 0, sizeof(c));
	EXPECT_EQ(-VNPU_OPS_EINVAL, toy_check(&c));
	EXPECT_EQ(0, toy_tiles(&c));
	c.op = 1;
	EXPECT_EQ(0, toy_check(&c));
	EXPECT_EQ(4, toy_tiles(&c));
}

TEST(nd_next_and_line_pos)
{
	const s64 k[3] = { 2, 3, 1 }, out[2] = { 4, 5 };
	s64 t[3] = { 0, 0, 0 }, pos[2] = { -1, -1 };
	int visits = 0;

	/* every tap once, last dim fastest, then back to the start */
	do {
		EXPECT_EQ(visits / 3, t[0]);
		EXPECT_EQ(visits % 3, t[1]);
		EXPECT_EQ(0, t[2]);
		visits++;
	} while (vnpu_nd_next(t, k, 3));
	EXPECT_EQ(6, visits);
	EXPECT_EQ(0, t[0] | t[1] | t[2]);
	EXPECT_FALSE(vnpu_nd_next(t, k, 0));

	/* line 123 of [.., 4, 5]: (6 * 4 + 0) * 5 + 3 */
	EXPECT_EQ(6, vnpu_nd_line_pos(123, out, 2, pos));
	EXPECT_EQ(0, pos[0]);
	EXPECT_EQ(3, pos[1]);
	EXPECT_EQ(123, vnpu_nd_line_pos(123, out, 0, pos));
}

TEST(nd_requant8)
{
	/* halves to even, before the zero point */
	EXPECT_EQ(2, vnpu_nd_requant8(2.5, 0, DRM_VNPU_DTYPE_INT8));
	EXPECT_EQ(4, vnpu_nd_requant8(3.5, 0, DRM_VNPU_DTYPE_INT8));
	EXPECT_EQ(-2, vnpu_nd_requant8(-2.5, 0, DRM_VNPU_DTYPE_INT8));
	EXPECT_EQ(-3, vnpu_nd_requant8(-2.6, 0, DRM_VNPU_DTYPE_INT8));
	EXPECT_EQ(13, vnpu_nd_requant8(2.5, 11, DRM_VNPU_DTYPE_UINT8));
	/* saturation, huge values and NaN */
	EXPECT_EQ(127, vnpu_nd_requant8(127.5, 0, DRM_VNPU_DTYPE_INT8));
	EXPECT_EQ(-128, vnpu_nd_requant8(-1e30, 0, DRM_VNPU_DTYPE_INT8));
	EXPECT_EQ(255, vnpu_nd_requant8(1e30, 0, DRM_VNPU_DTYPE_UINT8));
	EXPECT_EQ(0, vnpu_nd_requant8(-3, 2, DRM_VNPU_DTYPE_UINT8));
	EXPECT_EQ(0, vnpu_nd_requant8(NAN, 0, DRM_VNPU_DTYPE_UINT8));
	EXPECT_EQ(-128, vnpu_nd_requant8(NAN, 0, DRM_VNPU_DTYPE_INT8));
}

TEST_HARNESS_MAIN
