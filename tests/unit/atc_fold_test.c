// SPDX-License-Identifier: MIT
/* Constant folding (values read back), Identity removal, dead nodes. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

TEST(folds_values)
{
	static const float w[6] = { 1, 2, 3, 4, 5, 6 };
	int64_t a[2] = { 6, 4 }, b = 2, st = 1, en = 3, ax = 1, cnt = 5;
	float four = 4;
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	const int64_t *v;
	const float *f;
	int n;

	tg_input(&g, "x", F32, 2, DIMS(2, 3));
	tg_const(&g, "a", I64, 1, DIMS(2), a);
	tg_const(&g, "b", I64, 0, NULL, &b);
	tg_const(&g, "w", F32, 2, DIMS(2, 3), w);
	tg_const(&g, "st", I64, 1, DIMS(1), &st);
	tg_const(&g, "en", I64, 1, DIMS(1), &en);
	tg_const(&g, "ax", I64, 1, DIMS(1), &ax);
	tg_const(&g, "four", F32, 0, NULL, &four);
	tg_const(&g, "cnt", I64, 0, NULL, &cnt);
	NODE(&g, "div", "Div", "a", "b", "->", "q");	/* int64 3, 2 */
	NODE(&g, "tr", "Transpose", "w", "->", "wt");	/* 3x2 */
	NODE(&g, "sl", "Slice", "w", "st", "en", "ax", "->", "ws");	/* 2x2 */
	NODE(&g, "sq", "Sqrt", "four", "->", "two");
	NODE(&g, "eq", "Equal", "a", "q", "->", "e");
	NODE(&g, "ca", "Cast", "q", "->", "qf");
	n = 5;
	ir_set_attr_int(&g.nodes[n], "to", 1);
	NODE(&g, "cs", "ConstantOfShape", "q", "->", "zeros");
	NODE(&g, "id", "Identity", "x", "->", "xi");
	NODE(&g, "mul", "Mul", "xi", "two", "->", "y");
	NODE(&g, "unused", "Relu", "x", "->", "dead_end");
	tg_output(&g, "y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	v = tg_t(&g, "q")->data;
	ASSERT_NE(NULL, v);
	EXPECT_EQ(3, v[0]);
	EXPECT_EQ(2, v[1]);
	f = tg_t(&g, "wt")->data;
	ASSERT_NE(NULL, f);
	EXPECT_EQ(4.0f, f[1]);
	EXPECT_EQ(2.0f, f[2]);
	f = tg_t(&g, "ws")->data;
	ASSERT_NE(NULL, f);
	EXPECT_EQ(2.0f, f[0]);
	EXPECT_EQ(6.0f, f[3]);
	EXPECT_EQ(2.0f, ((float *)tg_t(&g, "two")->data)[0]);
	EXPECT_EQ(0, ((uint8_t *)tg_t(&g, "e")->data)[0]);
	EXPECT_EQ(3.0f, ((float *)tg_t(&g, "qf")->data)[0]);
	EXPECT_EQ(6, ir_numel(tg_t(&g, "zeros")));
	/* the Mul reads x and a constant: it stays */
	EXPECT_EQ(NULL, tg_t(&g, "y")->data);
	EXPECT_LT(0, ir_fold(&g, err, sizeof(err)));
	EXPECT_EQ(0, tg_live(&g, "Identity"));
	EXPECT_EQ(0, tg_live(&g, "Relu"));
	EXPECT_EQ(1, tg_live(&g, "Mul"));
	EXPECT_EQ(ir_find_tensor(&g, "x"), g.nodes[8].inputs[0]);
	ir_free(&g);
}

TEST(gather_index_out_of_range)
{
	int64_t s[3] = { 1, 2, 3 }, i = 3;
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";

	tg_input(&g, "x", F32, 1, DIMS(3));
	tg_const(&g, "s", I64, 1, DIMS(3), s);
	tg_const(&g, "i", I64, 0, NULL, &i);
	NODE(&g, "ga", "Gather", "s", "i", "->", "y");
	NODE(&g, "r", "Relu", "x", "->", "z");
	tg_output(&g, "z");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "node ga (Gather): index 3 is out of range for dim 3")) TH_LOG("%s", err);
	ir_free(&g);
}

TEST_HARNESS_MAIN
