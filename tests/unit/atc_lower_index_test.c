// SPDX-License-Identifier: MIT
/*
 * Host tests of lowering the indexing ops (lib/compile/lower_index.c): one
 * hand-built graph per op, checking the driver operator, its attributes
 * and the views it reads and writes (OneHot's permuted output, the cast
 * of float indices, a backward Slice's first index and steps), and the
 * rules that refuse a node.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "kselftest_harness.h"
#include "atc_lower_fixture.h"

#define F32 0
#define I32 3
#define I64 9

TEST_F(g, gather_elements_is_gather)
{
	static const int64_t dx[] = { 3, 4 }, di[] = { 3, 2 };
	int x = input_dt(&self->g, "x", F32, 2, dx);
	int i = input_dt(&self->g, "i", I64, 2, di);
	int y = output_dt(&self->g, "y", F32, 2, di);
	int n = gb_node(&self->g, "ge", "GatherElements", 2, (int[]){ x, i }, y);

	gb_int(&self->g, n, "axis", -1);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_GATHER, self->b.nodes[0].op);
	EXPECT_EQ(1, self->b.nodes[0].ints[0]);
	EXPECT_EQ(OM_LOC_INPUT, T(self, 0, 1)->loc);	/* indices stay runtime */
	EXPECT_EQ(1u, T(self, 0, 1)->index);
	self->g.nodes[n].attrs[0].i = 2;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "axis 2 is outside rank 2"));
}

TEST_F(g, gather_nd_and_scatter_nd_attrs)
{
	static const int64_t dx[] = { 2, 4, 3 }, di[] = { 2, 5, 1 }, dy[] = { 2, 5, 3 };
	static const int64_t ds[] = { 6, 2 };
	int x = input_dt(&self->g, "x", F32, 3, dx);
	int i = input_dt(&self->g, "i", I32, 3, di);
	int y = output_dt(&self->g, "y", F32, 3, dy);
	int n = gb_node(&self->g, "gn", "GatherND", 2, (int[]){ x, i }, y);
	int si, su, sy, m;

	gb_int(&self->g, n, "batch_dims", 1);
	si = input_dt(&self->g, "si", I64, 2, ds);
	su = input_dt(&self->g, "su", F32, 2, (int64_t[]){ 6, 3 });
	sy = output_dt(&self->g, "sy", F32, 3, dx);
	m = gb_node(&self->g, "sn", "ScatterND", 3, (int[]){ x, si, su }, sy);
	gb_str(&self->g, m, "reduction", "mul");
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_GATHER_ND, self->b.nodes[0].op);
	EXPECT_EQ(1, self->b.nodes[0].ints[0]);
	EXPECT_EQ(DRM_VNPU_OP_SCATTER_ND, self->b.nodes[1].op);
	EXPECT_EQ(2, self->b.nodes[1].ints[0]);
	EXPECT_EQ(3u, self->b.nodes[1].num_inputs);
	self->g.nodes[m].attrs[0].s = "median";
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "unknown reduction"));
}

TEST_F(g, scatter_elements_reduction_and_axis)
{
	static const int64_t dx[] = { 3, 3 }, di[] = { 1, 2 };
	int x = input_dt(&self->g, "x", F32, 2, dx);
	int i = input_dt(&self->g, "i", I64, 2, di);
	int u = input_dt(&self->g, "u", F32, 2, di);
	int y = output_dt(&self->g, "y", F32, 2, dx);
	int n = gb_node(&self->g, "se", "ScatterElements", 3, (int[]){ x, i, u }, y);

	gb_int(&self->g, n, "axis", -1);
	gb_str(&self->g, n, "reduction", "add");
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_SCATTER, self->b.nodes[0].op);
	EXPECT_EQ(1, self->b.nodes[0].ints[0]);
	EXPECT_EQ(1, self->b.nodes[0].ints[1]);
	self->g.nodes[n].op_type = "Scatter";	/* the opset 9 name */
	self->g.nodes[n].attrs[1].s = "none";
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(0, self->b.nodes[1].ints[1]);
}

/*
 * OneHot with float indices and axis 0: a CAST to INT64 into the arena,
 * then ONE_HOT writing the output seen as [3, depth] through strides.
 */
TEST_F(g, one_hot_casts_indices_and_moves_depth_last)
{
	static const int64_t di[] = { 3 }, dv[] = { 2 }, dy[] = { 5, 3 };
	int64_t depth = 5;
	int i = input_dt(&self->g, "i", F32, 1, di);
	int d = gb_const(&self->g, "depth", I64, 0, 1, &depth, 8);
	int v = input_dt(&self->g, "v", F32, 1, dv);
	int y = output_dt(&self->g, "y", F32, 2, dy);
	int n = gb_node(&self->g, "oh", "OneHot", 3, (int[]){ i, d, v }, y);

	gb_int(&self->g, n, "axis", 0);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(2u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_CAST, self->b.nodes[0].op);
	EXPECT_EQ((uint32_t)I64, T(self, 0, 1)->dtype);
	EXPECT_EQ(OM_LOC_ARENA, T(self, 0, 1)->loc);
	EXPECT_EQ(DRM_VNPU_OP_ONE_HOT, self->b.nodes[1].op);
	EXPECT_EQ(3u, self->b.nodes[1].num_inputs);
	/* off and on: one-element views of the values, at run time */
	EXPECT_EQ(OM_LOC_INPUT, T(self, 1, 1)->loc);
	EXPECT_EQ(0u, T(self, 1, 1)->offset);
	EXPECT_EQ(1, T(self, 1, 1)->shape[0]);
	EXPECT_EQ(4u, T(self, 1, 2)->offset);
	EXPECT_EQ(3, T(self, 1, 3)->shape[0]);
	EXPECT_EQ(5, T(self, 1, 3)->shape[1]);
	EXPECT_EQ(1, T(self, 1, 3)->strides[0]);
	EXPECT_EQ(3, T(self, 1, 3)->strides[1]);
	self->g.nodes[n].attrs[0].i = 2;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "axis 2 is outside rank 2"));
}

TEST_F(g, tile_and_reverse_sequence)
{
	static const int64_t dx[] = { 2, 3 }, dy[] = { 4, 3 }, dl[] = { 3 };
	int64_t rep[2] = { 2, 1 };
	int x = input_dt(&self->g, "x", F32, 2, dx);
	int r = gb_const(&self->g, "rep", I64, 1, 2, rep, 8);
	int y = output_dt(&self->g, "y", F32, 2, dy);
	int l = input_dt(&self->g, "l", I64, 1, dl);
	int z = output_dt(&self->g, "z", F32, 2, dx);
	int n;

	gb_node(&self->g, "ti", "Tile", 2, (int[]){ x, r }, y);
	n = gb_node(&self->g, "rs", "ReverseSequence", 2, (int[]){ x, l }, z);
	gb_int(&self->g, n, "batch_axis", 1);
	gb_int(&self->g, n, "time_axis", 0);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_TILE, self->b.nodes[0].op);
	EXPECT_EQ(4, T(self, 0, 1)->shape[0]);
	EXPECT_EQ(DRM_VNPU_OP_REVERSE_SEQUENCE, self->b.nodes[1].op);
	EXPECT_EQ(1, self->b.nodes[1].ints[0]);
	EXPECT_EQ(0, self->b.nodes[1].ints[1]);
	self->g.nodes[n].attrs[1].i = -3;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "time_axis -3 is outside rank 2"));
}

/* x [2, 8][:, 6:0:-2] = columns 6, 4, 2: SLICE from 6 with step -2. */
TEST_F(g, backward_slice_is_a_slice_task)
{
	static const int64_t dx[] = { 2, 8 }, dy[] = { 2, 3 };
	int64_t st = 6, en = 0, ax = -1, sp = -2;
	int x = input_dt(&self->g, "x", F32, 2, dx);
	int y = output_dt(&self->g, "y", F32, 2, dy);
	int c[4], n;

	c[0] = gb_const(&self->g, "st", I64, 1, 1, &st, 8);
	c[1] = gb_const(&self->g, "en", I64, 1, 1, &en, 8);
	c[2] = gb_const(&self->g, "ax", I64, 1, 1, &ax, 8);
	c[3] = gb_const(&self->g, "sp", I64, 1, 1, &sp, 8);
	n = gb_node(&self->g, "sl", "Slice", 5, (int[]){ x, c[0], c[1], c[2], c[3] }, y);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_SLICE, self->b.nodes[0].op);
	EXPECT_EQ(0, self->b.nodes[0].ints[0]);
	EXPECT_EQ(6, self->b.nodes[0].ints[1]);
	EXPECT_EQ(1, self->b.nodes[0].ints[8]);
	EXPECT_EQ(-2, self->b.nodes[0].ints[9]);
	EXPECT_EQ(8, T(self, 0, 0)->shape[1]);	/* the whole input */
	/* out-of-range starts clamp: 100 reads from 7 */
	st = 100;
	memcpy(self->g.tensors[c[0]].data, &st, 8);
	self->g.tensors[y].dims[1] = 4;
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(7, self->b.nodes[1].ints[1]);
	/* a shape other than the inferred one is refused */
	self->g.tensors[y].dims[1] = 3;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "not give the inferred shape"));
	(void)n;
}

TEST_HARNESS_MAIN
