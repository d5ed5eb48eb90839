// SPDX-License-Identifier: MIT
/*
 * Host tests of lowering activations, unary math, PRelu, Clip and Dropout
 * (lib/compile/lower_activation.c): the driver operator of each ONNX op,
 * ONNX's attribute defaults in floats[], the slope's broadcast view (and
 * the opset-6 per-channel form), Clip bounds as attributes or as
 * MAXIMUM/MINIMUM tasks, and when Dropout is a view or a DROPOUT task.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "kselftest_harness.h"
#include "atc_lower_fixture.h"

/* The case table leaves trailing fields to their zero defaults. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define F32 0
#define I64 9
#define BOOL 12

TEST_F(g, unary_ops_and_attribute_defaults)
{
	static const struct {
		const char *onnx;
		uint32_t op;
		int nf;			/* floats[] expected */
		float f[3];
	} cases[] = {
		{ "Tan", DRM_VNPU_OP_TAN }, { "Asin", DRM_VNPU_OP_ASIN },
		{ "Acos", DRM_VNPU_OP_ACOS }, { "Atan", DRM_VNPU_OP_ATAN },
		{ "Sinh", DRM_VNPU_OP_SINH }, { "Cosh", DRM_VNPU_OP_COSH },
		{ "Asinh", DRM_VNPU_OP_ASINH }, { "Acosh", DRM_VNPU_OP_ACOSH },
		{ "Atanh", DRM_VNPU_OP_ATANH }, { "Softsign", DRM_VNPU_OP_SOFTSIGN },
		{ "HardSwish", DRM_VNPU_OP_HARD_SWISH },
		/* Elu: ONNX's alpha, scale and input scale 1 */
		{ "Elu", DRM_VNPU_OP_ELU, 3, { 1.0f, 1.0f, 1.0f } },
		{ "Selu", DRM_VNPU_OP_SELU, 2,
		  { 1.67326319217681884765625f, 1.05070102214813232421875f } },
		{ "Celu", DRM_VNPU_OP_CELU, 1, { 1.0f } },
		{ "ThresholdedRelu", DRM_VNPU_OP_THRESHOLDED_RELU, 1, { 1.0f } },
		{ "Shrink", DRM_VNPU_OP_SHRINK, 2, { 0.5f, 0.0f } },
		{ "HardSigmoid", DRM_VNPU_OP_HARD_SIGMOID, 2, { 0.2f, 0.5f } },
	};
	static const int64_t d[] = { 2, 5 };
	int n = one_node(&self->g, "Tan", 2, d, 2, d, F32);
	unsigned k;
	int i;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct om_node *o;

		self->g.nodes[n].op_type = (char *)cases[k].onnx;
		ASSERT_EQ(0, run(self)) TH_LOG("%s: %s", cases[k].onnx, self->err);
		ASSERT_EQ(1u, self->r.node_count);
		o = &self->b.nodes[k];
		EXPECT_EQ(cases[k].op, o->op) TH_LOG("%s", cases[k].onnx);
		for (i = 0; i < cases[k].nf; i++)
			EXPECT_EQ(cases[k].f[i], F(o, i)) TH_LOG("%s floats[%d]",
							      cases[k].onnx, i);
		EXPECT_EQ(OM_LOC_INPUT, T(self, k, 0)->loc);
		EXPECT_EQ(OM_LOC_OUTPUT, T(self, k, 1)->loc);
	}
	/* attributes given override the defaults */
	self->g.nodes[n].op_type = "Shrink";
	gb_attr(&self->g, n, "lambd", IR_ATTR_FLOAT)->f = 1.5f;
	gb_attr(&self->g, n, "bias", IR_ATTR_FLOAT)->f = 0.25f;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(1.5f, F(&self->b.nodes[k], 0));
	EXPECT_EQ(0.25f, F(&self->b.nodes[k], 1));
}

TEST_F(g, prelu_broadcast_and_per_channel)
{
	static const int64_t dx[] = { 2, 3, 4 }, ds[] = { 3, 1 }, dc[] = { 3 };
	int x = gb_input(&self->g, "x", 3, dx);
	int s = gb_tensor(&self->g, "s", 2, ds, 0.5f);
	int y = gb_tensor(&self->g, "y", 3, dx, -1e31f);
	int n;

	gb_output(&self->g, y);
	n = gb_node(&self->g, "p", "PRelu", 2, (int[]){ x, s }, y);
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_PRELU, self->b.nodes[0].op);
	/* slope [3, 1] seen as [2, 3, 4] with strides 0, 1, 0 */
	EXPECT_EQ(3u, T(self, 0, 1)->rank);
	EXPECT_EQ(0, T(self, 0, 1)->strides[0]);
	EXPECT_EQ(1, T(self, 0, 1)->strides[1]);
	EXPECT_EQ(0, T(self, 0, 1)->strides[2]);
	EXPECT_EQ(4, T(self, 0, 1)->shape[2]);
	/* opset 6: a slope [3] is per channel (dim 1) */
	self->g.tensors[s].rank = 1;
	memcpy(self->g.tensors[s].dims, dc, sizeof(dc));
	self->g.opset = 6;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_PRELU, self->b.nodes[1].op);
	EXPECT_EQ(0, T(self, 1, 1)->strides[0]);
	EXPECT_EQ(1, T(self, 1, 1)->strides[1]);
	EXPECT_EQ(0, T(self, 1, 1)->strides[2]);
	/* from opset 7 the same slope must broadcast numpy-style: [3] vs 4 */
	self->g.opset = 7;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "does not broadcast"));
	(void)n;
}

TEST_F(g, clip_bounds_attribute_or_tensor)
{
	static const int64_t d[] = { 6 };
	int64_t big = (1LL << 40) + 1, small = -3;
	int x = gb_input(&self->g, "x", 1, d);
	int y = gb_tensor(&self->g, "y", 1, d, -1e31f);
	int lo = gb_const(&self->g, "lo", I64, 0, 1, &small, 8);
	int hi = gb_const(&self->g, "hi", I64, 0, 1, &big, 8);
	int lo_in = gb_input(&self->g, "lo_in", 0, NULL);

	self->g.tensors[x].dtype = I64;
	self->g.tensors[y].dtype = I64;
	self->g.tensors[lo_in].dtype = I64;
	gb_output(&self->g, y);
	gb_node(&self->g, "c", "Clip", 3, (int[]){ x, lo, hi }, y);
	/* -3 is exact in fp32: an attribute; 2^40 + 1 is not: MINIMUM */
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_CLAMP, self->b.nodes[0].op);
	EXPECT_EQ(1, self->b.nodes[0].ints[0]);
	EXPECT_EQ(-3.0f, F(&self->b.nodes[0], 0));
	EXPECT_EQ(DRM_VNPU_OP_MINIMUM, self->b.nodes[1].op);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 1, 0)->loc);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 1, 1)->loc);
	EXPECT_EQ(0, T(self, 1, 1)->strides[0]);
	/* both bounds computed: MAXIMUM from x, then MINIMUM, no CLAMP */
	self->g.nodes[0].inputs[1] = lo_in;
	self->g.nodes[0].inputs[2] = lo_in;
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_MAXIMUM, self->b.nodes[2].op);
	EXPECT_EQ(OM_LOC_INPUT, T(self, 2, 0)->loc);
	EXPECT_EQ(DRM_VNPU_OP_MINIMUM, self->b.nodes[3].op);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 3, 0)->loc);
	/* no bounds: a plain copy through CLAMP without flags */
	self->g.nodes[0].nin = 1;
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_CLAMP, self->b.nodes[4].op);
	EXPECT_EQ(0, self->b.nodes[4].ints[0]);
}

TEST_F(g, dropout_view_or_task)
{
	static const int64_t d[] = { 3, 4 };
	uint8_t on = 1, off = 0;
	float ratio = 0.25f;
	int x = gb_input(&self->g, "x", 2, d);
	int y = gb_tensor(&self->g, "y", 2, d, -1e31f);
	int m = gb_tensor(&self->g, "m", 2, d, -1e31f);
	int r = gb_const(&self->g, "r", F32, 0, 1, &ratio, 4);
	int t_on = gb_const(&self->g, "t1", BOOL, 0, 1, &on, 1);
	int t_off = gb_const(&self->g, "t0", BOOL, 0, 1, &off, 1);
	int t_in = gb_input(&self->g, "t", 0, NULL);
	int n, y2;
	struct ir_node *nd;

	self->g.tensors[m].dtype = BOOL;
	self->g.tensors[t_in].dtype = BOOL;
	/* y = Dropout(x) feeds a Relu so the view is visible */
	y2 = gb_tensor(&self->g, "y2", 2, d, -1e31f);
	gb_output(&self->g, y2);
	n = gb_node(&self->g, "d", "Dropout", 3, (int[]){ x, r, t_off }, y);
	gb_node(&self->g, "relu", "Relu", 1, (int[]){ y }, y2);
	nd = &self->g.nodes[n];
	/* training off, no mask: a view, only the Relu's task */
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_NE(DRM_VNPU_OP_DROPOUT, self->b.nodes[0].op);
	/* training on: DROPOUT (x, ratio, training) -> (y, scratch mask) */
	nd->inputs[2] = t_on;
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_DROPOUT, self->b.nodes[1].op);
	EXPECT_EQ(3u, self->b.nodes[1].num_inputs);
	EXPECT_EQ(2u, self->b.nodes[1].num_outputs);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 1, 1)->loc);
	EXPECT_EQ((uint32_t)BOOL, T(self, 1, 4)->dtype);
	EXPECT_EQ(OM_LOC_ARENA, T(self, 1, 4)->loc);
	/* training a graph input, seed passed on */
	nd->inputs[2] = t_in;
	gb_int(&self->g, n, "seed", 42);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_DROPOUT, self->b.nodes[3].op);
	EXPECT_EQ(OM_LOC_INPUT, T(self, 3, 2)->loc);
	EXPECT_EQ(42, self->b.nodes[3].ints[0]);
	/* inference with the mask a graph output: DROPOUT with defaults */
	nd->nin = 1;
	nd->outputs = realloc(nd->outputs, 2 * sizeof(int));
	nd->outputs[1] = m;
	nd->nout = 2;
	self->g.tensors[m].producer = n;
	gb_output(&self->g, m);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_DROPOUT, self->b.nodes[5].op);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 5, 1)->loc);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 5, 2)->loc);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 5, 4)->loc);
}

TEST_HARNESS_MAIN
