// SPDX-License-Identifier: MIT
/* Fusions: Conv+BN gives the unfused result (host reference), bias and
 * activation fusion, and no fusion when an intermediate has another reader. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

/* 1x1 conv over 2 input channels, 2 output channels, 2x2 image. */
static void conv1x1(const float *x, const float *w, const float *b, float *y)
{
	for (int o = 0; o < 2; o++)
		for (int p = 0; p < 4; p++) {
			float s = b ? b[o] : 0;

			for (int c = 0; c < 2; c++)
				s += w[o * 2 + c] * x[c * 4 + p];
			y[o * 4 + p] = s;
		}
}

static void build(struct ir_graph *g, bool extra_reader)
{
	static const float w[4] = { 0.5f, -1, 2, 0.25f };
	static const float sc[2] = { 1.5f, -0.5f }, be[2] = { 0.1f, 0.2f };
	static const float mu[2] = { 0.3f, -0.4f }, var[2] = { 2, 0.5f };
	int n;

	memset(g, 0, sizeof(*g));
	g->opset = 13;
	tg_input(g, "x", F32, 4, DIMS(1, 2, 2, 2));
	tg_const(g, "w", F32, 4, DIMS(2, 2, 1, 1), w);
	tg_const(g, "sc", F32, 1, DIMS(2), sc);
	tg_const(g, "be", F32, 1, DIMS(2), be);
	tg_const(g, "mu", F32, 1, DIMS(2), mu);
	tg_const(g, "var", F32, 1, DIMS(2), var);
	NODE(g, "conv", "Conv", "x", "w", "->", "c");
	n = NODE(g, "bn", "BatchNormalization", "c", "sc", "be", "mu", "var", "->", "b");
	ir_set_attr_float(&g->nodes[n], "epsilon", 1e-5f);
	NODE(g, "relu", "Relu", "b", "->", "y");
	tg_output(g, "y");
	if (extra_reader) {
		NODE(g, "other", "Neg", "c", "->", "z");
		tg_output(g, "z");
	}
}

TEST(conv_bn_relu_matches_reference)
{
	static const float x[8] = { 1, -2, 3, 0.5f, -1, 4, 2, -3 };
	struct ir_fuse_stats st;
	struct ir_graph g;
	char err[256] = "";
	float ref[8], got[8];
	const struct ir_node *conv;

	build(&g, false);
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	/* unfused reference: conv, then batchnorm, then relu */
	conv1x1(x, (float *)tg_t(&g, "w")->data, NULL, ref);
	for (int o = 0; o < 2; o++)
		for (int p = 0; p < 4; p++) {
			float *v = &ref[o * 4 + p];
			float s = ((float *)tg_t(&g, "sc")->data)[o];

			*v = (*v - ((float *)tg_t(&g, "mu")->data)[o]) /
			     sqrtf(((float *)tg_t(&g, "var")->data)[o] + 1e-5f) * s +
			     ((float *)tg_t(&g, "be")->data)[o];
			*v = *v > 0 ? *v : 0;
		}
	ASSERT_EQ(0, ir_fuse(&g, &st, err, sizeof(err)));
	EXPECT_EQ(1, st.conv_bn);
	EXPECT_EQ(1, st.act_relu);
	EXPECT_EQ(0, tg_live(&g, "BatchNormalization"));
	EXPECT_EQ(0, tg_live(&g, "Relu"));
	conv = &g.nodes[0];
	ASSERT_EQ(3, conv->nin);
	EXPECT_EQ(IR_ACT_RELU, conv->act.kind);
	EXPECT_EQ(ir_find_tensor(&g, "y"), conv->outputs[0]);
	conv1x1(x, g.tensors[conv->inputs[1]].data, g.tensors[conv->inputs[2]].data, got);
	for (int i = 0; i < 8; i++) {
		got[i] = got[i] > 0 ? got[i] : 0;
		EXPECT_TRUE(fabsf(got[i] - ref[i]) < 1e-5f) TH_LOG("%d: %g vs %g", i, got[i], ref[i]);
	}
	ir_free(&g);
}

TEST(no_fusion_with_another_reader)
{
	struct ir_fuse_stats st;
	struct ir_graph g;
	char err[256] = "";

	build(&g, true);
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ir_fuse(&g, &st, err, sizeof(err)));
	EXPECT_EQ(0, st.conv_bn);
	EXPECT_EQ(1, tg_live(&g, "BatchNormalization"));
	ir_free(&g);
}

TEST(no_fusion_of_training_batchnorm)
{
	struct ir_fuse_stats st;
	struct ir_graph g;
	char err[256] = "";

	build(&g, false);
	ir_set_attr_int(&g.nodes[g.tensors[ir_find_tensor(&g, "b")].producer],
			"training_mode", 1);
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ir_fuse(&g, &st, err, sizeof(err)));
	EXPECT_EQ(0, st.conv_bn);
	EXPECT_EQ(1, tg_live(&g, "BatchNormalization"));
	ir_free(&g);
}

TEST(matmul_add_clip)
{
	static const float w[6] = { 1, 2, 3, 4, 5, 6 }, b[3] = { 0.5f, 1, 2 };
	float lo = 0, hi = 6;
	struct ir_fuse_stats st;
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	char s[256];

	tg_input(&g, "x", F32, 3, DIMS(4, 5, 2));
	tg_input(&g, "x2", F32, 2, DIMS(5, 2));
	tg_const(&g, "w", F32, 2, DIMS(2, 3), w);
	tg_const(&g, "b", F32, 1, DIMS(3), b);
	tg_const(&g, "lo", F32, 0, NULL, &lo);
	tg_const(&g, "hi", F32, 0, NULL, &hi);
	NODE(&g, "mm", "MatMul", "x", "w", "->", "m");
	NODE(&g, "add", "Add", "b", "m", "->", "a");
	NODE(&g, "clip", "Clip", "a", "lo", "hi", "->", "y");
	NODE(&g, "mm2", "MatMul", "x2", "w", "->", "m2");
	NODE(&g, "add2", "Add", "m2", "b", "->", "y2");
	tg_output(&g, "y");
	tg_output(&g, "y2");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ir_fuse(&g, &st, err, sizeof(err)));
	EXPECT_EQ(1, st.bias);
	EXPECT_EQ(1, st.matmul_gemm);
	EXPECT_EQ(1, st.act_clip);
	EXPECT_STREQ("MatMul", g.nodes[0].op_type);
	EXPECT_EQ(3, g.nodes[0].nin);
	EXPECT_EQ(IR_ACT_CLIP, g.nodes[0].act.kind);
	EXPECT_EQ(6.0f, g.nodes[0].act.hi);
	EXPECT_STREQ("Gemm", g.nodes[3].op_type);
	EXPECT_EQ(0, tg_live(&g, "Add"));
	ir_fuse_stats_str(&st, s, sizeof(s));
	EXPECT_NE(NULL, strstr(s, "clip 1"));
	ir_free(&g);
}

TEST(layernorm_and_gelu_patterns)
{
	static const float gam[4] = { 1, 2, 3, 4 }, bet[4] = { 0 };
	float two = 2, eps = 1e-5f, sq2 = 1.4142135f, one = 1, half = 0.5f;
	int64_t ax = -1;
	struct ir_fuse_stats st;
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 3, DIMS(2, 3, 4));
	tg_const(&g, "gam", F32, 1, DIMS(4), gam);
	tg_const(&g, "bet", F32, 1, DIMS(4), bet);
	tg_const(&g, "two", F32, 0, NULL, &two);
	tg_const(&g, "eps", F32, 0, NULL, &eps);
	tg_const(&g, "sq2", F32, 0, NULL, &sq2);
	tg_const(&g, "one", F32, 0, NULL, &one);
	tg_const(&g, "half", F32, 0, NULL, &half);
	n = NODE(&g, "rm1", "ReduceMean", "x", "->", "mu");
	ir_set_attr_ints(&g.nodes[n], "axes", &ax, 1);
	NODE(&g, "sub", "Sub", "x", "mu", "->", "d");
	NODE(&g, "pow", "Pow", "d", "two", "->", "d2");
	n = NODE(&g, "rm2", "ReduceMean", "d2", "->", "v");
	ir_set_attr_ints(&g.nodes[n], "axes", &ax, 1);
	NODE(&g, "ae", "Add", "v", "eps", "->", "ve");
	NODE(&g, "sq", "Sqrt", "ve", "->", "sd");
	NODE(&g, "div", "Div", "d", "sd", "->", "nrm");
	NODE(&g, "mul", "Mul", "nrm", "gam", "->", "sc");
	NODE(&g, "add", "Add", "sc", "bet", "->", "ln");
	NODE(&g, "gd", "Div", "ln", "sq2", "->", "t1");
	NODE(&g, "erf", "Erf", "t1", "->", "t2");
	NODE(&g, "a1", "Add", "t2", "one", "->", "t3");
	NODE(&g, "m1", "Mul", "ln", "t3", "->", "t4");
	NODE(&g, "m2", "Mul", "half", "t4", "->", "y");
	tg_output(&g, "y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, ir_fuse(&g, &st, err, sizeof(err)));
	EXPECT_EQ(1, st.layernorm);
	EXPECT_EQ(1, st.gelu);
	ASSERT_EQ(2, tg_live(&g, "LayerNormalization") + tg_live(&g, "Gelu"));
	EXPECT_EQ(2, g.nodes[8].nin == 3 && g.nodes[8].inputs[0] == ir_find_tensor(&g, "x") ? 2 : 0);
	EXPECT_EQ(1e-5f, ir_attr_float(&g.nodes[8], "epsilon", 0));
	EXPECT_STREQ("Gelu", g.nodes[13].op_type);
	EXPECT_EQ(ir_find_tensor(&g, "ln"), g.nodes[13].inputs[0]);
	ASSERT_EQ(0, ir_remove_dead(&g) < 0);
	EXPECT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	ir_free(&g);
}

TEST_HARNESS_MAIN
