// SPDX-License-Identifier: MIT
/*
 * Inference of the arg-reductions, scans and masks (infer_reduce.c) and
 * of the Reduce* family's new members: output shapes and dtypes, and the
 * errors that name the node (or the graph input needed as a constant).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

#define EXPECT_DIMS(t, r, ...) do { \
	const int64_t _d[] = { __VA_ARGS__ }; \
	ASSERT_EQ(r, (t)->rank); \
	for (int _i = 0; _i < (r); _i++) \
		EXPECT_EQ(_d[_i], (t)->dims[_i]); \
} while (0)

TEST(arg_scan_mask_shapes)
{
	struct ir_graph g = { .opset = 14 };
	int64_t axis = -1, k = 2, ax[1] = { 1 };
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 3, DIMS(2, 3, 4));
	tg_const(&g, "axis", I64, 0, DIMS(1), &axis);
	tg_const(&g, "k", I64, 0, DIMS(1), &k);
	n = NODE(&g, "am", "ArgMax", "x", "->", "a");
	ir_set_attr_int(&g.nodes[n], "axis", -2);
	ir_set_attr_int(&g.nodes[n], "keepdims", 0);
	n = NODE(&g, "an", "ArgMin", "x", "->", "b");
	ir_set_attr_int(&g.nodes[n], "select_last_index", 1);
	NODE(&g, "cs", "CumSum", "x", "axis", "->", "c");
	NODE(&g, "tu", "Trilu", "x", "k", "->", "t");
	NODE(&g, "hm", "Hardmax", "x", "->", "h");
	n = NODE(&g, "l2", "ReduceL2", "x", "->", "l");
	ir_set_attr_ints(&g.nodes[n], "axes", ax, 1);
	tg_output(&g, "a");
	tg_output(&g, "b");
	tg_output(&g, "c");
	tg_output(&g, "t");
	tg_output(&g, "h");
	tg_output(&g, "l");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "a"), 2, 2, 4);
	EXPECT_EQ(I64, tg_t(&g, "a")->dtype);
	EXPECT_DIMS(tg_t(&g, "b"), 3, 1, 3, 4);
	EXPECT_DIMS(tg_t(&g, "c"), 3, 2, 3, 4);
	EXPECT_EQ(F32, tg_t(&g, "c")->dtype);
	EXPECT_DIMS(tg_t(&g, "t"), 3, 2, 3, 4);
	EXPECT_DIMS(tg_t(&g, "h"), 3, 2, 3, 4);
	EXPECT_DIMS(tg_t(&g, "l"), 3, 2, 1, 4);
	ir_free(&g);
}

TEST(refusals_name_the_node)
{
	struct ir_graph g = { .opset = 14 };
	char err[256] = "", need[64];
	int n;

	/* CumSum's axis a graph input: refused, and the input is needed */
	tg_input(&g, "x", F32, 2, DIMS(2, 3));
	tg_input(&g, "ax", I64, 0, DIMS(1));
	NODE(&g, "cs", "CumSum", "x", "ax", "->", "c");
	tg_output(&g, "c");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "node cs (CumSum)"));
	EXPECT_NE(NULL, strstr(err, "constant integer scalar"));
	EXPECT_STREQ("ax", ir_needs_str(&g, need, sizeof(need)));
	ir_free(&g);

	/* Trilu of a vector */
	memset(&g, 0, sizeof(g));
	g.opset = 14;
	tg_input(&g, "v", F32, 1, DIMS(5));
	NODE(&g, "tu", "Trilu", "v", "->", "t");
	tg_output(&g, "t");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "needs at least 2"));
	ir_free(&g);

	/* ArgMax: axis outside the rank, select_last_index not 0/1 */
	memset(&g, 0, sizeof(g));
	g.opset = 13;
	tg_input(&g, "x", F32, 2, DIMS(2, 3));
	n = NODE(&g, "am", "ArgMax", "x", "->", "a");
	ir_set_attr_int(&g.nodes[n], "axis", 2);
	tg_output(&g, "a");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "axis 2 is out of range"));
	ir_set_attr_int(&g.nodes[n], "axis", 1);
	ir_set_attr_int(&g.nodes[n], "select_last_index", 2);
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "select_last_index"));
	ir_free(&g);

	/* Hardmax takes a float type */
	memset(&g, 0, sizeof(g));
	g.opset = 13;
	tg_input(&g, "i", I64, 2, DIMS(2, 3));
	NODE(&g, "hm", "Hardmax", "i", "->", "h");
	tg_output(&g, "h");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "float type"));
	ir_free(&g);
}

TEST_HARNESS_MAIN
