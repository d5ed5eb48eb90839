// SPDX-License-Identifier: MIT
/*
 * The front end over the three real models of issue 13, exported by
 * `make models` (tests/models/make_models.py) into build/models/ (skipped
 * when they are not there: torch missing or not exported yet). Each must
 * come out fully inferred, with only operators the back end lowers, and
 * the expected fusions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"
#include "onnx_import.h"
#include "onnx_model.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

#ifndef MODELS_DIR
#define MODELS_DIR "build/models"
#endif

static int count_live(const struct ir_graph *g, int *folded_shape_ops)
{
	int i, n = 0;

	*folded_shape_ops = 0;
	for (i = 0; i < g->nnodes; i++) {
		const struct ir_op *op;

		if (g->nodes[i].dead)
			continue;
		n++;
		op = ir_op_find(g->nodes[i].op_type);
		if (!op || !op->lowered)
			(*folded_shape_ops)++;
	}
	return n;
}

/* Load, run the front end; 1 when the file is missing (skip). */
static int front(const char *name, struct ir_graph *g,
		 struct ir_fuse_stats *st, char *err)
{
	char path[256];
	Onnx__ModelProto *m;
	int r;

	snprintf(path, sizeof(path), "%s/%s.onnx",
		 getenv("ATC_MODELS_DIR") ? getenv("ATC_MODELS_DIR") : MODELS_DIR,
		 name);
	if (access(path, R_OK))
		return 1;
	m = onnx_model_load(path, err, 512);
	if (!m)
		return -1;
	r = ir_front_end(m, NULL, 0, g, st, err, 512);
	onnx_model_free(m);
	return r;
}

static void check_all_inferred(struct __test_metadata *_metadata,
			       const struct ir_graph *g)
{
	int i, k;

	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].dead)
			continue;
		for (k = 0; k < g->nodes[i].nout; k++) {
			const struct ir_tensor *t;

			if (g->nodes[i].outputs[k] < 0)
				continue;
			t = &g->tensors[g->nodes[i].outputs[k]];
			EXPECT_LE(0, t->rank);
			EXPECT_LE(0, ir_numel(t));
			EXPECT_NE(-1, t->dtype);
		}
	}
}

TEST(resnet18)
{
	struct ir_fuse_stats st;
	struct ir_graph g;
	char err[512] = "";
	int r = front("resnet18", &g, &st, err), bad, out;

	if (r == 1)
		SKIP(return, "build/models/resnet18.onnx is missing (make models)");
	ASSERT_EQ(0, r) TH_LOG("%s", err);
	check_all_inferred(_metadata, &g);
	count_live(&g, &bad);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(20, tg_live(&g, "Conv"));
	EXPECT_EQ(0, tg_live(&g, "Identity"));
	EXPECT_EQ(0, tg_live(&g, "BatchNormalization"));
	EXPECT_EQ(1, tg_live(&g, "Gemm"));
	/* relus after a conv are fused; the 8 after a residual Add stay */
	EXPECT_EQ(9, st.act_relu);
	EXPECT_EQ(8, tg_live(&g, "Relu"));
	out = g.outputs[0];
	ASSERT_EQ(2, g.tensors[out].rank);
	EXPECT_EQ(1, g.tensors[out].dims[0]);
	EXPECT_EQ(1000, g.tensors[out].dims[1]);
	ir_free(&g);
}

TEST(mobilenet_v2)
{
	struct ir_fuse_stats st;
	struct ir_graph g;
	char err[512] = "";
	int r = front("mobilenet_v2", &g, &st, err), bad;

	if (r == 1)
		SKIP(return, "build/models/mobilenet_v2.onnx is missing");
	ASSERT_EQ(0, r) TH_LOG("%s", err);
	check_all_inferred(_metadata, &g);
	count_live(&g, &bad);
	EXPECT_EQ(0, bad);
	EXPECT_EQ(52, tg_live(&g, "Conv"));
	EXPECT_EQ(35, st.act_clip);
	EXPECT_EQ(0, tg_live(&g, "Clip"));
	EXPECT_EQ(0, tg_live(&g, "Constant"));
	EXPECT_EQ(1000, g.tensors[g.outputs[0]].dims[1]);
	ir_free(&g);
}

TEST(transformer_encoder_layer)
{
	static const char *const shape_ops[] = {
		"Shape", "Gather", "Unsqueeze", "Concat", "Constant",
		"ReduceMean", "Pow", "Sqrt", "Erf", "Identity",
	};
	struct ir_fuse_stats st;
	struct ir_graph g;
	char err[512] = "";
	int r = front("transformer", &g, &st, err), bad;
	size_t i;

	if (r == 1)
		SKIP(return, "build/models/transformer.onnx is missing");
	ASSERT_EQ(0, r) TH_LOG("%s", err);
	check_all_inferred(_metadata, &g);
	count_live(&g, &bad);
	EXPECT_EQ(0, bad);
	for (i = 0; i < sizeof(shape_ops) / sizeof(shape_ops[0]); i++)
		if (tg_live(&g, shape_ops[i])) {
			printf("# %s left after the front end\n", shape_ops[i]);
			EXPECT_EQ(0, tg_live(&g, shape_ops[i]));
		}
	EXPECT_EQ(2, st.layernorm);
	EXPECT_EQ(1, st.gelu);
	EXPECT_EQ(2, tg_live(&g, "LayerNormalization"));
	EXPECT_EQ(1, tg_live(&g, "Gelu"));
	EXPECT_EQ(1, tg_live(&g, "Softmax"));
	EXPECT_EQ(3, g.tensors[g.outputs[0]].rank);
	EXPECT_EQ(2, g.tensors[g.outputs[0]].dims[0]);
	EXPECT_EQ(16, g.tensors[g.outputs[0]].dims[1]);
	EXPECT_EQ(64, g.tensors[g.outputs[0]].dims[2]);
	ir_free(&g);
}

TEST_HARNESS_MAIN
