// SPDX-License-Identifier: MIT
/* Shape and type inference: per-op shapes, broadcasting, --input_shape,
 * the batch, and errors that name the node. */
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

TEST(broadcast_rules)
{
	int64_t out[8];
	int r;

	ASSERT_EQ(0, ir_broadcast(3, DIMS(2, 1, 4), 2, DIMS(3, 1), &r, out));
	EXPECT_EQ(3, r);
	EXPECT_EQ(2, out[0]);
	EXPECT_EQ(3, out[1]);
	EXPECT_EQ(4, out[2]);
	EXPECT_EQ(-1, ir_broadcast(2, DIMS(2, 3), 1, DIMS(4), &r, out));
}

TEST(conv_pool_gemm_chain)
{
	struct ir_graph g = { .opset = 13 };
	float w[8 * 3 * 3 * 3] = { 0 }, fc[10 * 8] = { 0 };
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 4, DIMS(1, 3, 32, 32));
	tg_const(&g, "w", F32, 4, DIMS(8, 3, 3, 3), w);
	tg_const(&g, "fc", F32, 2, DIMS(10, 8), fc);
	n = NODE(&g, "conv", "Conv", "x", "w", "->", "c");
	ir_set_attr_ints(&g.nodes[n], "strides", DIMS(2, 2), 2);
	ir_set_attr_ints(&g.nodes[n], "pads", DIMS(1, 1, 1, 1), 4);
	n = NODE(&g, "pool", "MaxPool", "c", "->", "p");
	ir_set_attr_ints(&g.nodes[n], "kernel_shape", DIMS(3, 3), 2);
	ir_set_attr_ints(&g.nodes[n], "strides", DIMS(2, 2), 2);
	ir_set_attr_int(&g.nodes[n], "ceil_mode", 1);
	NODE(&g, "gap", "GlobalAveragePool", "p", "->", "q");
	NODE(&g, "flat", "Flatten", "q", "->", "f");
	n = NODE(&g, "fc", "Gemm", "f", "fc", "->", "y");
	ir_set_attr_int(&g.nodes[n], "transB", 1);
	tg_output(&g, "y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "c"), 4, 1, 8, 16, 16);
	EXPECT_DIMS(tg_t(&g, "p"), 4, 1, 8, 8, 8);	/* ceil: (16-3+1)/2+1 */
	EXPECT_DIMS(tg_t(&g, "q"), 4, 1, 8, 1, 1);
	EXPECT_DIMS(tg_t(&g, "f"), 2, 1, 8);
	EXPECT_DIMS(tg_t(&g, "y"), 2, 1, 10);
	ir_free(&g);
}

TEST(same_upper_becomes_pads)
{
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	const struct ir_attr *a;
	int n;

	tg_input(&g, "x", F32, 4, DIMS(1, 1, 5, 5));
	n = NODE(&g, "ap", "AveragePool", "x", "->", "y");
	ir_set_attr_ints(&g.nodes[n], "kernel_shape", DIMS(2, 2), 2);
	ir_set_attr_ints(&g.nodes[n], "strides", DIMS(2, 2), 2);
	g.nodes[n].nattrs = g.nodes[n].nattrs;
	{
		struct ir_attr *s;

		ir_set_attr_int(&g.nodes[n], "auto_pad", 0);
		s = (struct ir_attr *)ir_attr(&g.nodes[n], "auto_pad");
		s->kind = IR_ATTR_STRING;
		s->s = strdup("SAME_UPPER");
	}
	tg_output(&g, "y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "y"), 4, 1, 1, 3, 3);
	a = ir_attr(&g.nodes[n], "pads");
	ASSERT_NE(NULL, a);
	EXPECT_EQ(0, a->ints[0]);
	EXPECT_EQ(1, a->ints[2]);
	EXPECT_STREQ("NOTSET", ir_attr(&g.nodes[n], "auto_pad")->s);
	ir_free(&g);
}

TEST(matmul_broadcast_transpose_reduce_softmax)
{
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	int n;

	tg_input(&g, "a", F32, 4, DIMS(2, 1, 5, 3));
	tg_input(&g, "b", F32, 3, DIMS(4, 3, 7));
	NODE(&g, "mm", "MatMul", "a", "b", "->", "m");
	n = NODE(&g, "tr", "Transpose", "m", "->", "t");
	ir_set_attr_ints(&g.nodes[n], "perm", DIMS(0, 1, 3, 2), 4);
	n = NODE(&g, "rm", "ReduceMean", "t", "->", "r");
	ir_set_attr_ints(&g.nodes[n], "axes", DIMS(-1), 1);
	ir_set_attr_int(&g.nodes[n], "keepdims", 0);
	NODE(&g, "sm", "Softmax", "r", "->", "s");
	tg_output(&g, "s");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "m"), 4, 2, 4, 5, 7);
	EXPECT_DIMS(tg_t(&g, "t"), 4, 2, 4, 7, 5);
	EXPECT_DIMS(tg_t(&g, "r"), 3, 2, 4, 7);
	ir_free(&g);
}

TEST(shape_chain_folds_into_reshape)
{
	struct ir_graph g = { .opset = 13 };
	int64_t idx = 0, axes0 = 0, minus1 = -1;
	char err[256] = "";

	tg_input(&g, "x", F32, 3, DIMS(2, 16, 64));
	tg_const(&g, "i0", I64, 0, NULL, &idx);
	tg_const(&g, "ax", I64, 1, DIMS(1), &axes0);
	tg_const(&g, "m1", I64, 1, DIMS(1), &minus1);
	NODE(&g, "sh", "Shape", "x", "->", "s");
	NODE(&g, "ga", "Gather", "s", "i0", "->", "b");
	NODE(&g, "un", "Unsqueeze", "b", "ax", "->", "bu");
	NODE(&g, "cc", "Concat", "bu", "m1", "->", "shape");
	g.nodes[3].nattrs = 0;
	ir_set_attr_int(&g.nodes[3], "axis", 0);
	NODE(&g, "rs", "Reshape", "x", "shape", "->", "y");
	tg_output(&g, "y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "y"), 2, 2, 1024);
	EXPECT_TRUE(g.nodes[0].dead && g.nodes[1].dead && g.nodes[2].dead &&
		    g.nodes[3].dead);
	EXPECT_FALSE(g.nodes[4].dead);
	ir_free(&g);
}

TEST(input_shape_and_batch)
{
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";

	tg_input(&g, "x", F32, 4, DIMS(-1, 3, 8, 8));
	g.tensors[0].batched = true;
	NODE(&g, "r", "Relu", "x", "->", "y");
	tg_output(&g, "y");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "graph input x has a dynamic dim 0")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "--input_shape")) TH_LOG("%s", err);
	EXPECT_EQ(-1, ir_apply_input_shape(&g, "z:1,3,8,8", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "no input named z")) TH_LOG("%s", err);
	EXPECT_EQ(-1, ir_apply_input_shape(&g, "x:1,3,8", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "x has 4 dims in the model, 3 given")) TH_LOG("%s", err);
	EXPECT_EQ(-1, ir_apply_input_shape(&g, "x:1,-1,8,8", err, sizeof(err)));
	EXPECT_EQ(-1, ir_apply_input_shape(&g, "x:1,a,8,8", err, sizeof(err)));
	ASSERT_EQ(0, ir_apply_input_shape(&g, "x:-1,3,8,8", err, sizeof(err)));
	EXPECT_EQ(1, ir_set_batch(&g, 4));
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "y"), 4, 4, 3, 8, 8);
	ir_free(&g);
}

TEST(errors_name_the_node)
{
	static const struct {
		const char *op;
		int64_t bd[4];
		int br;
		const char *says;
	} cases[] = {
		{ "Add", { 2, 4 }, 2, "node bad (Add): shapes 2x3 and 2x4 (b) do not broadcast" },
		{ "MatMul", { 4, 5 }, 2, "node bad (MatMul): inner dims differ: 3 and 4" },
		{ "Concat", { 2, 3, 1 }, 3, "node bad (Concat): input b differs from a in type or rank" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ir_graph g = { .opset = 13 };
		char err[256] = "";

		tg_input(&g, "a", F32, 2, DIMS(2, 3));
		tg_input(&g, "b", F32, cases[i].br, cases[i].bd);
		NODE(&g, "bad", cases[i].op, "a", "b", "->", "y");
		tg_output(&g, "y");
		EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, cases[i].says)) TH_LOG("%zu: %s", i, err);
		ir_free(&g);
	}
}

TEST(reshape_not_constant_and_bad_count)
{
	struct ir_graph g = { .opset = 13 };
	int64_t bad[2] = { 5, -1 };
	char err[256] = "";

	tg_input(&g, "x", F32, 2, DIMS(2, 3));
	tg_input(&g, "s", I64, 1, DIMS(2));
	NODE(&g, "rs", "Reshape", "x", "s", "->", "y");
	tg_output(&g, "y");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "node rs (Reshape): shape (s) must be a constant")) TH_LOG("%s", err);
	ir_free(&g);
	memset(&g, 0, sizeof(g));
	g.opset = 13;
	tg_input(&g, "x", F32, 2, DIMS(2, 3));
	tg_const(&g, "s", I64, 1, DIMS(2), bad);
	NODE(&g, "rs", "Reshape", "x", "s", "->", "y");
	tg_output(&g, "y");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "cannot infer the -1 dim: 6 elements into blocks of 5")) TH_LOG("%s", err);
	ir_free(&g);
}

TEST_HARNESS_MAIN
