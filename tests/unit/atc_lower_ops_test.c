// SPDX-License-Identifier: MIT
/*
 * Host tests of lowering the single-task ops (lib/compile/lower_simple.c):
 * one small hand-built graph per op, checking the driver operator, its
 * attributes and the views it reads (broadcasts as stride-0 dims, slices
 * as offsets and strides), and every rule that refuses a node.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "kselftest_harness.h"
#include "atc_lower_fixture.h"

#include "../../lib/aicpu/aicpu_ops.h"

#define F32 0
#define I32 3
#define I64 9
#define BOOL 12

TEST_F(g, clip_bounds_from_constant_inputs)
{
	static const int64_t d[] = { 2, 3 };
	float lo = 0.0f, hi = 6.0f;
	int n = one_node(&self->g, "Clip", 2, d, 2, d, F32);
	int l = gb_const(&self->g, "lo", F32, 0, 1, &lo, 4);
	int h = gb_const(&self->g, "hi", F32, 0, 1, &hi, 4);
	struct ir_node *nd = &self->g.nodes[n];

	nd->inputs = realloc(nd->inputs, 3 * sizeof(int));
	nd->inputs[1] = l;
	nd->inputs[2] = h;
	nd->nin = 3;
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_CLAMP, self->b.nodes[0].op);
	EXPECT_EQ(3, self->b.nodes[0].ints[0]);
	EXPECT_EQ(0.0f, F(&self->b.nodes[0], 0));
	EXPECT_EQ(6.0f, F(&self->b.nodes[0], 1));
	/* only a max: bit 1 alone */
	nd->inputs[1] = -1;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(2, self->b.nodes[1].ints[0]);
	/* a computed lower bound: CLAMP by the constant max, then MAXIMUM in place */
	nd->inputs[1] = nd->inputs[0];
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_CLAMP, self->b.nodes[2].op);
	EXPECT_EQ(2, self->b.nodes[2].ints[0]);
	EXPECT_EQ(DRM_VNPU_OP_MAXIMUM, self->b.nodes[3].op);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 3, 0)->loc);
	EXPECT_EQ(OM_LOC_INPUT, T(self, 3, 1)->loc);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 3, 2)->loc);
}

TEST_F(g, binary_broadcast_is_a_zero_stride)
{
	static const int64_t da[] = { 2, 3 }, db[] = { 3 };
	int a = gb_input(&self->g, "a", 2, da), b = gb_input(&self->g, "b", 1, db);
	int y = gb_tensor(&self->g, "y", 2, da, -1e31f);

	self->g.tensors[y].dtype = BOOL;
	gb_output(&self->g, y);
	gb_node(&self->g, "eq", "Equal", 2, (int[]){ a, b }, y);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_EQ, self->b.nodes[0].op);
	EXPECT_EQ(2u, T(self, 0, 1)->rank);
	EXPECT_EQ(2, T(self, 0, 1)->shape[0]);
	EXPECT_EQ(0, T(self, 0, 1)->strides[0]);
	EXPECT_EQ(1, T(self, 0, 1)->strides[1]);
	EXPECT_EQ(3, T(self, 0, 0)->strides[0]);
	EXPECT_EQ((uint32_t)BOOL, T(self, 0, 2)->dtype);
	/* [4] does not broadcast to [2, 3] */
	self->g.tensors[b].dims[0] = 4;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "does not broadcast"));
}

TEST_F(g, where_with_a_scalar_and_cast)
{
	static const int64_t d[] = { 2, 3 };
	float zero = 0.0f;
	int c = gb_input(&self->g, "c", 2, d), a = gb_input(&self->g, "a", 2, d);
	int z = gb_const(&self->g, "z", F32, 0, 1, &zero, 4);
	int y = gb_tensor(&self->g, "y", 2, d, -1e31f);
	int yi = gb_tensor(&self->g, "yi", 2, d, -1e31f);

	self->g.tensors[c].dtype = BOOL;
	self->g.tensors[yi].dtype = I32;
	gb_output(&self->g, yi);
	gb_node(&self->g, "w", "Where", 3, (int[]){ c, a, z }, y);
	gb_node(&self->g, "c", "Cast", 1, (int[]){ y }, yi);
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_WHERE, self->b.nodes[0].op);
	EXPECT_EQ(3u, self->b.nodes[0].num_inputs);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 0, 2)->loc);
	EXPECT_EQ(0, T(self, 0, 2)->strides[0]);
	EXPECT_EQ(0, T(self, 0, 2)->strides[1]);
	EXPECT_EQ(OM_LOC_ARENA, T(self, 0, 3)->loc);
	EXPECT_EQ(DRM_VNPU_OP_CAST, self->b.nodes[1].op);
	EXPECT_EQ((uint32_t)I32, T(self, 1, 1)->dtype);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 1, 1)->loc);
}

TEST_F(g, reductions_axes_attr_and_input)
{
	static const int64_t dx[] = { 2, 3, 4 }, dy[] = { 2, 3 };
	int64_t axes[] = { 0, -1 };
	int n = one_node(&self->g, "ReduceMean", 3, dx, 3, dx, F32), k;
	struct ir_node *nd = &self->g.nodes[n];

	self->g.tensors[nd->outputs[0]].rank = 2;
	memcpy(self->g.tensors[nd->outputs[0]].dims, dy, sizeof(dy));
	gb_ints(&self->g, n, "axes", axes + 1, 1);
	gb_int(&self->g, n, "keepdims", 0);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_REDUCE_MEAN, self->b.nodes[0].op);
	EXPECT_EQ(1 << 2, self->b.nodes[0].ints[0]);
	EXPECT_EQ(0, self->b.nodes[0].ints[1]);
	/* ReduceSum with the axes as a constant input (opset 13) */
	nd->op_type = "ReduceSum";
	nd->nattrs = 1;	/* the axes attribute becomes keepdims=1 */
	nd->attrs[0].name = "keepdims";
	nd->attrs[0].kind = IR_ATTR_INT;
	nd->attrs[0].i = 1;
	self->g.tensors[nd->outputs[0]].rank = 3;
	self->g.tensors[nd->outputs[0]].dims[0] = 1;
	self->g.tensors[nd->outputs[0]].dims[1] = 3;
	self->g.tensors[nd->outputs[0]].dims[2] = 1;
	k = gb_const(&self->g, "axes", I64, 1, 2, axes, 8);
	nd->inputs = realloc(nd->inputs, 2 * sizeof(int));
	nd->inputs[1] = k;
	nd->nin = 2;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_REDUCE_SUM, self->b.nodes[1].op);
	EXPECT_EQ((1 << 0) | (1 << 2), self->b.nodes[1].ints[0]);
	EXPECT_EQ(1, self->b.nodes[1].ints[1]);
	/* an axis outside the rank is refused */
	axes[1] = 3;
	memcpy(self->g.tensors[k].data, axes, sizeof(axes));
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "axis 3 is outside rank 3"));
	/* a non-constant axes input is refused */
	nd->inputs[1] = nd->inputs[0];
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "must be a constant"));
}

TEST_F(g, slice_is_a_strided_view)
{
	static const int64_t dx[] = { 2, 8 }, dy[] = { 2, 3 };
	int64_t st = 1, en = -1, ax = 1, sp = 2;
	int n = one_node(&self->g, "Slice", 2, dx, 2, dy, F32);
	struct ir_node *nd = &self->g.nodes[n];

	nd->inputs = realloc(nd->inputs, 5 * sizeof(int));
	nd->inputs[1] = gb_const(&self->g, "st", I64, 1, 1, &st, 8);
	nd->inputs[2] = gb_const(&self->g, "en", I64, 1, 1, &en, 8);
	nd->inputs[3] = gb_const(&self->g, "ax", I64, 1, 1, &ax, 8);
	nd->inputs[4] = gb_const(&self->g, "sp", I64, 1, 1, &sp, 8);
	nd->nin = 5;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_STRIDED_COPY, self->b.nodes[0].op);
	EXPECT_EQ(OM_LOC_INPUT, T(self, 0, 0)->loc);
	EXPECT_EQ(4u, T(self, 0, 0)->offset);	/* element 1 */
	EXPECT_EQ(3, T(self, 0, 0)->shape[1]);	/* 1, 3, 5 */
	EXPECT_EQ(8, T(self, 0, 0)->strides[0]);
	EXPECT_EQ(2, T(self, 0, 0)->strides[1]);
	/* a step of 0 is refused (negative ones are SLICE tasks: lower_index.c) */
	sp = 0;
	memcpy(self->g.tensors[nd->inputs[4]].data, &sp, 8);
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "step 0 on axis 1"));
	/* a result that is not the inferred shape is refused */
	sp = 1;
	memcpy(self->g.tensors[nd->inputs[4]].data, &sp, 8);
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "not give the inferred shape"));
}

TEST_F(g, split_into_strided_copies)
{
	static const int64_t dx[] = { 2, 6 }, d1[] = { 2, 2 }, d2[] = { 2, 4 };
	int x = gb_input(&self->g, "x", 2, dx);
	int y1 = gb_tensor(&self->g, "y1", 2, d1, -1e31f);
	int y2 = gb_tensor(&self->g, "y2", 2, d2, -1e31f);
	struct ir_node *nd;
	int n;

	gb_output(&self->g, y1);
	gb_output(&self->g, y2);
	n = gb_node(&self->g, "sp", "Split", 1, (int[]){ x }, y1);
	nd = &self->g.nodes[n];
	nd->outputs = realloc(nd->outputs, 2 * sizeof(int));
	nd->outputs[1] = y2;
	nd->nout = 2;
	gb_int(&self->g, n, "axis", -1);
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(0u, T(self, 0, 0)->offset);
	EXPECT_EQ(2, T(self, 0, 0)->shape[1]);
	EXPECT_EQ(8u, T(self, 1, 0)->offset);
	EXPECT_EQ(4, T(self, 1, 0)->shape[1]);
	EXPECT_EQ(6, T(self, 1, 0)->strides[0]);
	EXPECT_EQ(1u, T(self, 1, 1)->index);
	/* outputs longer than the input are refused */
	self->g.tensors[y2].dims[1] = 5;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "longer than the input"));
}

TEST_F(g, gather_as_index_select)
{
	static const int64_t dx[] = { 10, 4 }, dy[] = { 2, 3, 4 };
	int64_t idx[6] = { 0, 9, 2, 3, 4, 5 };
	int x = gb_input(&self->g, "x", 2, dx);
	int i = gb_const(&self->g, "idx", I64, 1, 6, idx, 8);
	int y = gb_tensor(&self->g, "y", 3, dy, -1e31f);

	self->g.tensors[i].rank = 2;	/* [2, 3] */
	self->g.tensors[i].dims[0] = 2;
	self->g.tensors[i].dims[1] = 3;
	gb_output(&self->g, y);
	gb_node(&self->g, "ga", "Gather", 2, (int[]){ x, i }, y);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_INDEX_SELECT, self->b.nodes[0].op);
	EXPECT_EQ(0, self->b.nodes[0].ints[0]);
	EXPECT_EQ(1u, T(self, 0, 1)->rank);
	EXPECT_EQ(6, T(self, 0, 1)->shape[0]);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 0, 1)->loc);
	EXPECT_EQ(2u, T(self, 0, 2)->rank);
	EXPECT_EQ(6, T(self, 0, 2)->shape[0]);
	EXPECT_EQ(4, T(self, 0, 2)->shape[1]);
	EXPECT_EQ(4, T(self, 0, 2)->strides[0]);
}

TEST_F(g, pad_modes_and_rules)
{
	static const int64_t dx[] = { 2, 3 }, dy[] = { 2, 6 };
	int64_t pads[4] = { 0, 1, 0, 2 };
	float v = 7.0f;
	int n = one_node(&self->g, "Pad", 2, dx, 2, dy, F32);
	struct ir_node *nd = &self->g.nodes[n];
	int p = gb_const(&self->g, "pads", I64, 1, 4, pads, 8);

	nd->inputs = realloc(nd->inputs, 3 * sizeof(int));
	nd->inputs[1] = p;
	nd->inputs[2] = gb_const(&self->g, "v", F32, 0, 1, &v, 4);
	nd->nin = 3;
	gb_str(&self->g, n, "mode", "edge");
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_PAD, self->b.nodes[0].op);
	EXPECT_EQ(0, self->b.nodes[0].ints[0]);
	EXPECT_EQ(0, self->b.nodes[0].ints[1]);
	EXPECT_EQ(1, self->b.nodes[0].ints[2]);
	EXPECT_EQ(2, self->b.nodes[0].ints[3]);
	EXPECT_EQ(2, self->b.nodes[0].ints[16]);
	EXPECT_EQ(7.0f, F(&self->b.nodes[0], 0));
	nd->attrs[0].s = "wrap";
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "mode 'wrap' is not supported"));
	nd->attrs[0].s = "reflect";
	pads[3] = -1;
	memcpy(self->g.tensors[p].data, pads, sizeof(pads));
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "negative pads"));
}

TEST_F(g, unary_table_and_leaky_relu)
{
	static const int64_t d[] = { 4 };
	int n = one_node(&self->g, "Erf", 1, d, 1, d, F32);

	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_ERF, self->b.nodes[0].op);
	EXPECT_EQ(0u, self->b.nodes[0].has_attrs);
	self->g.nodes[n].op_type = "LeakyRelu";
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_LEAKY_RELU, self->b.nodes[1].op);
	EXPECT_EQ(0.01f, F(&self->b.nodes[1], 0));
	self->g.nodes[n].op_type = "Reciprocal";
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_RECIPROCAL, self->b.nodes[2].op);
}

TEST_F(g, hard_swish_one_task_and_resize)
{
	static const int64_t d[] = { 1, 2, 3, 3 }, dy[] = { 1, 2, 6, 6 };
	int n = one_node(&self->g, "HardSwish", 4, d, 4, d, F32);

	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_HARD_SWISH, self->b.nodes[0].op);
	EXPECT_EQ(OM_LOC_INPUT, T(self, 0, 0)->loc);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 0, 1)->loc);
	/* HardSigmoid: one task, alpha given, beta ONNX's default */
	self->g.nodes[n].op_type = "HardSigmoid";
	gb_attr(&self->g, n, "alpha", IR_ATTR_FLOAT)->f = 0.25f;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_HARD_SIGMOID, self->b.nodes[1].op);
	EXPECT_EQ(0.25f, F(&self->b.nodes[1], 0));
	EXPECT_EQ(0.5f, F(&self->b.nodes[1], 1));
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 1, 1)->loc);
	/* Resize: one task, ONNX's defaults, scales from the sizes */
	self->g.nodes[n].op_type = "Resize";
	memcpy(self->g.tensors[self->g.nodes[n].outputs[0]].dims, dy, sizeof(dy));
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_RESIZE_ND, self->b.nodes[2].op);
	EXPECT_EQ(0, self->b.nodes[2].ints[0]);	/* nearest */
	EXPECT_EQ(0, self->b.nodes[2].ints[1]);	/* half_pixel */
	EXPECT_EQ(0, self->b.nodes[2].ints[2]);	/* round_prefer_floor */
	EXPECT_EQ(0, self->b.nodes[2].ints[8 + 2]);	/* out / in */
	EXPECT_EQ(-0.75f, F(&self->b.nodes[2], 0));
	/* any rank; a mode ONNX does not define fails */
	self->g.tensors[0].rank = 3;
	self->g.tensors[self->g.nodes[n].outputs[0]].rank = 3;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_RESIZE_ND, self->b.nodes[3].op);
	gb_attr(&self->g, n, "mode", IR_ATTR_STRING)->s = strdup("area");
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "unknown mode"));
}

/*
 * A host operator becomes one host node with its presence masks; its
 * data-dependent output must be a graph output written in place, and no
 * other node may read it.
 */
TEST_F(g, host_node_and_dynamic_output_rules)
{
	int x = gb_input(&self->g, "x", 2, (int64_t[]){ 2, 3 }), y, z, n;
	const struct om_node *hn;

	y = gb_tensor(&self->g, "y", 2, (int64_t[]){ 2, 6 }, -1e31f);
	self->g.tensors[y].dtype = I64;
	self->g.tensors[y].dynamic = true;
	gb_output(&self->g, y);
	gb_node(&self->g, "nz", "NonZero", 1, (int[]){ x }, y);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	hn = &self->b.nodes[0];
	EXPECT_EQ(OM_OP_HOST | AICPU_OP_NONZERO, hn->op);
	EXPECT_EQ(1, hn->has_attrs);
	EXPECT_EQ(1, hn->ints[AICPU_ATTR_IN]);
	EXPECT_EQ(1, hn->ints[AICPU_ATTR_OUT]);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 0, 1)->loc);
	EXPECT_EQ(1, (int)self->b.nnodes);	/* written in place: no copy */
	/* another node reading the dynamic tensor is refused */
	z = gb_tensor(&self->g, "z", 2, (int64_t[]){ 2, 6 }, -1e31f);
	self->g.tensors[z].dtype = I64;
	gb_output(&self->g, z);
	n = gb_node(&self->g, "neg", "Neg", 1, (int[]){ y }, z);
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "cannot read it")) TH_LOG("%s", self->err);
	/* nor may it live in the arena (not a graph output) */
	self->g.nodes[n].dead = true;
	self->g.noutputs = 0;
	self->g.tensors[y].output_index = -1;
	self->g.tensors[z].output_index = -1;
	gb_output(&self->g, x);
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "must be a graph output")) TH_LOG("%s", self->err);
}

TEST_HARNESS_MAIN
