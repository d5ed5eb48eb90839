// SPDX-License-Identifier: MIT
/*
 * atc's normalizations and losses (lib/compile/infer_norm.c, lower_norm.c):
 * inferred shapes of LayerNormalization's Mean/InvStdDev, training
 * BatchNormalization's running statistics and the losses; the tasks each
 * lowers to (NORM_AXES masks and flags, the running-statistic ADD/SUB
 * with the momentum, LOG_SOFTMAX + NLL_LOSS, Softmax before opset 13 as
 * 2-D); and every rule that refuses a node, by its message.
 */
#include <stdlib.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "ir.h"
#include "lower.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

#define I32T 3

#define EXPECT_DIMS(t, r, ...) do { \
	const int64_t _d[] = { __VA_ARGS__ }; \
	ASSERT_EQ(r, (t)->rank); \
	for (int _i = 0; _i < (r); _i++) \
		EXPECT_EQ(_d[_i], (t)->dims[_i]); \
} while (0)

static void set_str(struct ir_node *n, const char *name, const char *v)
{
	struct ir_attr *a;

	ir_set_attr_int(n, name, 0);
	a = (struct ir_attr *)ir_attr(n, name);
	a->kind = IR_ATTR_STRING;
	a->s = strdup(v);
}

/* Infer and lower g; the tasks in b. 0, or -1 with the message in err. */
static int compile(struct ir_graph *g, struct om_build *b, char *err, size_t len)
{
	struct lower_weights w;
	struct lower_result r;
	int ret;

	if (ir_infer(g, err, len))
		return -1;
	if (om_build_init(b))
		return -1;
	if (lower_weights_init(&w, g))
		return -1;
	ret = lower_graph(g, b, &w, &r, err, len);
	lower_result_free(&r);
	lower_weights_free(&w);
	return ret;
}

static float attr_f(const struct om_node *n, int i)
{
	float f;

	memcpy(&f, &n->floats[i], 4);
	return f;
}

static const struct om_tensor *tensor(const struct om_build *b, int node, int k)
{
	return &b->tensors[b->nodes[node].tensors[k]];
}

TEST(layernorm_statistics_outputs)
{
	struct ir_graph g = { .opset = 17 };
	struct om_build b;
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 4, DIMS(2, 3, 4, 5));
	tg_input(&g, "w", F32, 3, DIMS(3, 4, 5));
	tg_input(&g, "bias", F32, 1, DIMS(5));
	n = NODE(&g, "ln", "LayerNormalization", "x", "w", "bias", "->", "y", "mean", "inv");
	ir_set_attr_int(&g.nodes[n], "axis", 1);
	ir_set_attr_float(&g.nodes[n], "epsilon", 0.25f);
	tg_output(&g, "y");
	tg_output(&g, "mean");
	tg_output(&g, "inv");
	ASSERT_EQ(0, compile(&g, &b, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "mean"), 4, 2, 1, 1, 1);
	EXPECT_DIMS(tg_t(&g, "inv"), 4, 2, 1, 1, 1);
	ASSERT_EQ(1u, b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_NORM_AXES, b.nodes[0].op);
	EXPECT_EQ(3u, b.nodes[0].num_inputs);
	EXPECT_EQ(3u, b.nodes[0].num_outputs);
	EXPECT_EQ(0xe, b.nodes[0].ints[0]);
	EXPECT_EQ(0, b.nodes[0].ints[1]);
	EXPECT_EQ(0.25f, attr_f(&b.nodes[0], 0));
	/* the bias (5) is seen at x's rank, trailing, size-1 dims in front */
	EXPECT_EQ(4u, tensor(&b, 0, 2)->rank);
	EXPECT_EQ(1, tensor(&b, 0, 2)->shape[1]);
	EXPECT_EQ(5, tensor(&b, 0, 2)->shape[3]);
	EXPECT_EQ(0, tensor(&b, 0, 2)->strides[2]);
	om_build_free(&b);
	ir_free(&g);
}

TEST(batchnorm_training_running_statistics)
{
	struct ir_graph g = { .opset = 15 };
	struct om_build b;
	char err[256] = "";
	int n, k;

	tg_input(&g, "x", F32, 4, DIMS(2, 3, 4, 5));
	tg_input(&g, "s", F32, 1, DIMS(3));
	tg_input(&g, "bias", F32, 1, DIMS(3));
	tg_input(&g, "m", F32, 1, DIMS(3));
	tg_input(&g, "v", F32, 1, DIMS(3));
	n = NODE(&g, "bn", "BatchNormalization", "x", "s", "bias", "m", "v", "->",
		 "y", "rm", "rv");
	ir_set_attr_int(&g.nodes[n], "training_mode", 1);
	ir_set_attr_float(&g.nodes[n], "momentum", 0.75f);
	tg_output(&g, "y");
	tg_output(&g, "rm");
	tg_output(&g, "rv");
	ASSERT_EQ(0, compile(&g, &b, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_DIMS(tg_t(&g, "rm"), 1, 3);
	EXPECT_DIMS(tg_t(&g, "rv"), 1, 3);
	/* NORM_AXES over N, H, W with the variance, then SUB, ADD per statistic */
	ASSERT_EQ(5u, b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_NORM_AXES, b.nodes[0].op);
	EXPECT_EQ(0xd, b.nodes[0].ints[0]);
	EXPECT_EQ(2, b.nodes[0].ints[1]);
	for (k = 0; k < 2; k++) {
		EXPECT_EQ(DRM_VNPU_OP_SUB, b.nodes[1 + 2 * k].op);
		EXPECT_EQ(1.0f, attr_f(&b.nodes[1 + 2 * k], 0));
		EXPECT_EQ(DRM_VNPU_OP_ADD, b.nodes[2 + 2 * k].op);
		EXPECT_EQ(0.75f, attr_f(&b.nodes[2 + 2 * k], 0));
		EXPECT_EQ(OM_LOC_OUTPUT, tensor(&b, 2 + 2 * k, 2)->loc);
		EXPECT_EQ((uint32_t)(1 + k), tensor(&b, 2 + 2 * k, 2)->index);
	}
	om_build_free(&b);
	ir_free(&g);
	/* running statistics without training mode are refused */
	memset(&g, 0, sizeof(g));
	g.opset = 15;
	tg_input(&g, "x", F32, 4, DIMS(2, 3, 4, 5));
	tg_input(&g, "s", F32, 1, DIMS(3));
	tg_input(&g, "bias", F32, 1, DIMS(3));
	tg_input(&g, "m", F32, 1, DIMS(3));
	tg_input(&g, "v", F32, 1, DIMS(3));
	NODE(&g, "bn", "BatchNormalization", "x", "s", "bias", "m", "v", "->", "y", "rm");
	tg_output(&g, "y");
	tg_output(&g, "rm");
	EXPECT_EQ(-1, compile(&g, &b, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "running statistics need training_mode=1")) TH_LOG("%s", err);
	om_build_free(&b);
	ir_free(&g);
}

TEST(losses_shapes_and_tasks)
{
	struct ir_graph g = { .opset = 13 };
	struct om_build b;
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 3, DIMS(3, 5, 2));
	tg_input(&g, "t", I64, 2, DIMS(3, 2));
	tg_input(&g, "w", F32, 1, DIMS(5));
	n = NODE(&g, "sce", "SoftmaxCrossEntropyLoss", "x", "t", "w", "->", "z", "lp");
	ir_set_attr_int(&g.nodes[n], "ignore_index", -1);
	set_str(&g.nodes[n], "reduction", "sum");
	n = NODE(&g, "nll", "NegativeLogLikelihoodLoss", "lp", "t", "->", "l");
	set_str(&g.nodes[n], "reduction", "none");
	tg_output(&g, "z");
	tg_output(&g, "lp");
	tg_output(&g, "l");
	ASSERT_EQ(0, compile(&g, &b, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, tg_t(&g, "z")->rank);
	EXPECT_DIMS(tg_t(&g, "lp"), 3, 3, 5, 2);
	EXPECT_DIMS(tg_t(&g, "l"), 2, 3, 2);
	ASSERT_EQ(3u, b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_LOG_SOFTMAX, b.nodes[0].op);
	EXPECT_EQ(1, b.nodes[0].ints[0]);
	EXPECT_EQ(DRM_VNPU_OP_NLL_LOSS, b.nodes[1].op);
	EXPECT_EQ(3u, b.nodes[1].num_inputs);
	EXPECT_EQ(1, b.nodes[1].ints[0]);	/* sum */
	EXPECT_EQ(-1, b.nodes[1].ints[1]);
	EXPECT_EQ(1, b.nodes[1].ints[2]);
	EXPECT_EQ(DRM_VNPU_OP_NLL_LOSS, b.nodes[2].op);
	EXPECT_EQ(2u, b.nodes[2].num_inputs);
	EXPECT_EQ(0, b.nodes[2].ints[0]);	/* none */
	EXPECT_EQ(0, b.nodes[2].ints[2]);	/* no ignore_index */
	om_build_free(&b);
	ir_free(&g);
}

TEST(instance_mvn_lrn_softmax2d_tasks)
{
	struct ir_graph g = { .opset = 11 };
	struct om_build b;
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 4, DIMS(2, 3, 4, 5));
	tg_input(&g, "s", F32, 1, DIMS(3));
	n = NODE(&g, "in", "InstanceNormalization", "x", "s", "s", "->", "a");
	ir_set_attr_float(&g.nodes[n], "epsilon", 0.5f);
	n = NODE(&g, "mvn", "MeanVarianceNormalization", "a", "->", "c");
	ir_set_attr_ints(&g.nodes[n], "axes", DIMS(1, -1), 2);
	n = NODE(&g, "lrn", "LRN", "c", "->", "d");
	ir_set_attr_int(&g.nodes[n], "size", 3);
	ir_set_attr_float(&g.nodes[n], "beta", 0.5f);
	NODE(&g, "sm", "Softmax", "d", "->", "e");
	tg_output(&g, "e");
	ASSERT_EQ(0, compile(&g, &b, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(4u, b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_NORM_AXES, b.nodes[0].op);
	EXPECT_EQ(0xc, b.nodes[0].ints[0]);
	EXPECT_EQ(0.5f, attr_f(&b.nodes[0], 0));
	EXPECT_EQ(3, tensor(&b, 0, 1)->shape[1]);	/* scale along C */
	EXPECT_EQ(1, tensor(&b, 0, 1)->shape[2]);
	EXPECT_EQ(DRM_VNPU_OP_NORM_AXES, b.nodes[1].op);
	EXPECT_EQ(0xa, b.nodes[1].ints[0]);
	EXPECT_EQ(1, b.nodes[1].ints[1]);		/* eps on the std */
	EXPECT_EQ(1e-9f, attr_f(&b.nodes[1], 0));
	EXPECT_EQ(DRM_VNPU_OP_LRN, b.nodes[2].op);
	EXPECT_EQ(3, b.nodes[2].ints[0]);
	EXPECT_EQ(0.0001f, attr_f(&b.nodes[2], 0));
	EXPECT_EQ(0.5f, attr_f(&b.nodes[2], 1));
	EXPECT_EQ(1.0f, attr_f(&b.nodes[2], 2));
	/* opset 11, axis 1: the dims from 1 on flattened into one row */
	EXPECT_EQ(DRM_VNPU_OP_SOFTMAX, b.nodes[3].op);
	EXPECT_EQ(2u, tensor(&b, 3, 0)->rank);
	EXPECT_EQ(2, tensor(&b, 3, 0)->shape[0]);
	EXPECT_EQ(60, tensor(&b, 3, 0)->shape[1]);
	EXPECT_EQ(1, b.nodes[3].ints[0]);
	om_build_free(&b);
	ir_free(&g);
}

/* One node over inputs of the given dtypes and dims; the inference error. */
struct bad_case {
	const char *op;
	int nin;
	int dt[3], rank[3];
	int64_t dims[3][4];
	const char *attr;	/* "size", "reduction=avg", "axes", ... */
	int nout;
	const char *says;
};

TEST(refusals_name_the_node)
{
	static const struct bad_case cases[] = {
		{ "InstanceNormalization", 3, { F32, F32, F32 }, { 2, 1, 1 }, { { 2, 3 }, { 3 }, { 3 } },
		  NULL, 1, "node bad (InstanceNormalization): needs a float input with N, C and spatial dims" },
		{ "InstanceNormalization", 3, { F32, F32, F32 }, { 3, 1, 1 }, { { 2, 3, 4 }, { 4 }, { 3 } },
		  NULL, 1, "s0 must have 3 values (the channels)" },
		{ "LRN", 1, { F32 }, { 4 }, { { 1, 2, 3, 4 } }, NULL, 1,
		  "node bad (LRN): needs a positive integer attribute 'size'" },
		{ "LRN", 1, { F32 }, { 2 }, { { 1, 2 } }, "size", 1,
		  "node bad (LRN): needs a float input with N, C and spatial dims" },
		{ "MeanVarianceNormalization", 1, { F32 }, { 3 }, { { 1, 2, 3 } }, NULL, 1,
		  "the default axes (0, 2, 3) need a 4-D input" },
		{ "MeanVarianceNormalization", 1, { F32 }, { 3 }, { { 1, 2, 3 } }, "axes", 1,
		  "axis 3 is out of range for rank 3" },
		{ "MeanVarianceNormalization", 1, { I64 }, { 4 }, { { 1, 2, 3, 4 } }, NULL, 1,
		  "node bad (MeanVarianceNormalization): needs a float input" },
		{ "NegativeLogLikelihoodLoss", 2, { F32, I64 }, { 2, 1 }, { { 3, 5 }, { 3 } },
		  "reduction=avg", 1, "reduction must be none, sum or mean" },
		{ "NegativeLogLikelihoodLoss", 2, { F32, F32 }, { 2, 1 }, { { 3, 5 }, { 3 } },
		  NULL, 1, "target s0 must be integers of rank 1" },
		{ "NegativeLogLikelihoodLoss", 2, { F32, I32T }, { 2, 1 }, { { 3, 5 }, { 4 } },
		  NULL, 1, "target s0 does not match the input's N, d1..." },
		{ "NegativeLogLikelihoodLoss", 2, { F32, I64 }, { 1, 0 }, { { 5 }, { 0 } },
		  NULL, 1, "input x must be float with N and C dims" },
		{ "SoftmaxCrossEntropyLoss", 3, { F32, I64, F32 }, { 2, 1, 1 }, { { 3, 5 }, { 3 }, { 4 } },
		  NULL, 2, "weight s1 must have 5 values of the input's type" },
		{ "BatchNormalization", 1, { F32 }, { 2 }, { { 3, 5 } }, "training", 4,
		  "the saved mean and variance outputs are not supported" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		struct ir_graph g = { .opset = 15 };
		const char *io[12];
		char err[256] = "", name[3][4] = { "x", "s0", "s1" };
		int k, n, nio = 0;

		for (k = 0; k < c->nin; k++)
			tg_input(&g, name[k], c->dt[k], c->rank[k], c->dims[k]);
		for (k = 0; k < c->nin; k++)
			io[nio++] = name[k];
		if (!strcmp(c->op, "BatchNormalization")) {
			/* scale, B, mean and var over the 5 channels */
			static const char *p[] = { "p1", "p2", "p3", "p4" };

			for (k = 0; k < 4; k++) {
				tg_input(&g, p[k], F32, 1, DIMS(5));
				io[nio++] = p[k];
			}
		}
		io[nio++] = "->";
		{
			static const char *outs[] = { "y", "o1", "o2", "o3" };

			for (k = 0; k < c->nout; k++)
				io[nio++] = outs[k];
		}
		io[nio] = NULL;
		n = tg_node(&g, "bad", c->op, io);
		if (c->attr && !strcmp(c->attr, "size"))
			ir_set_attr_int(&g.nodes[n], "size", 3);
		if (c->attr && !strcmp(c->attr, "axes"))
			ir_set_attr_ints(&g.nodes[n], "axes", DIMS(0, 3), 2);
		if (c->attr && !strcmp(c->attr, "reduction=avg"))
			set_str(&g.nodes[n], "reduction", "avg");
		if (c->attr && !strcmp(c->attr, "training"))
			ir_set_attr_int(&g.nodes[n], "training_mode", 1);
		tg_output(&g, "y");
		EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err))) TH_LOG("%zu", i);
		EXPECT_NE(NULL, strstr(err, c->says)) TH_LOG("%zu: %s", i, err);
		ir_free(&g);
	}
}

TEST_HARNESS_MAIN
