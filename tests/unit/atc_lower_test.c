// SPDX-License-Identifier: MIT
/*
 * Host tests of atc's lowering (tools/atc/lower*.c) with the planner and
 * writer: IR graphs built by hand (as inference and fusion leave them)
 * become .om nodes whose operators, tensor locations, attributes, weights
 * and arena offsets are checked one by one.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "lower.h"
#include "om_write.h"
#include "atc_ir_builder.h"
#include "kselftest_harness.h"

struct net {
	struct ir_graph g;
	int x, w1, b1, c1, w2, b2, c2, a, r, f, wm, y, f2;
	int conv1, conv2, add, relu, flat, mm, id;
};

/*
 * x[1,3,8,8] -> Conv(pad 1)+Relu (fused) -> c1 -> Conv(pad 1) -> c2;
 * a = c2 + c1 (residual); r = Relu(a); f = Reshape(r) [1,256];
 * y = MatMul(f, wm[256,10]) (output 0); f2 = Identity(f) (output 1).
 */
static void make_net(struct net *n)
{
	static const int64_t dx[] = { 1, 3, 8, 8 }, dw1[] = { 4, 3, 3, 3 },
		dw2[] = { 4, 4, 3, 3 }, db[] = { 4 }, dc[] = { 1, 4, 8, 8 },
		df[] = { 1, 256 }, dwm[] = { 256, 10 }, dy[] = { 1, 10 },
		pads[] = { 1, 1, 1, 1 };
	struct ir_graph *g = &n->g;

	gb_init(g);
	n->x = gb_input(g, "x", 4, dx);
	n->w1 = gb_tensor(g, "w1", 4, dw1, 0.5f);
	n->b1 = gb_tensor(g, "b1", 1, db, 0.25f);
	n->c1 = gb_tensor(g, "c1", 4, dc, -1e31f);
	n->w2 = gb_tensor(g, "w2", 4, dw2, 1.5f);
	n->b2 = gb_tensor(g, "b2", 1, db, 2.5f);
	n->c2 = gb_tensor(g, "c2", 4, dc, -1e31f);
	n->a = gb_tensor(g, "a", 4, dc, -1e31f);
	n->r = gb_tensor(g, "r", 4, dc, -1e31f);
	n->f = gb_tensor(g, "f", 2, df, -1e31f);
	n->wm = gb_tensor(g, "wm", 2, dwm, 3.5f);
	n->y = gb_tensor(g, "y", 2, dy, -1e31f);
	n->f2 = gb_tensor(g, "f2", 2, df, -1e31f);
	gb_output(g, n->y);
	gb_output(g, n->f2);
	n->conv1 = gb_node(g, "conv1", "Conv", 3, (int[]){ n->x, n->w1, n->b1 }, n->c1);
	gb_ints(g, n->conv1, "pads", pads, 4);
	g->nodes[n->conv1].act.kind = 1;
	n->conv2 = gb_node(g, "conv2", "Conv", 3, (int[]){ n->c1, n->w2, n->b2 }, n->c2);
	gb_ints(g, n->conv2, "pads", pads, 4);
	n->add = gb_node(g, "add", "Add", 2, (int[]){ n->c2, n->c1 }, n->a);
	n->relu = gb_node(g, "relu", "Relu", 1, (int[]){ n->a }, n->r);
	n->flat = gb_node(g, "flat", "Reshape", 1, (int[]){ n->r }, n->f);
	n->mm = gb_node(g, "mm", "MatMul", 2, (int[]){ n->f, n->wm }, n->y);
	n->id = gb_node(g, "id", "Identity", 1, (int[]){ n->f }, n->f2);
}

static const struct om_tensor *tn(const struct om_build *b,
				  const struct om_node *n, int i)
{
	return &b->tensors[n->tensors[i]];
}

static const char *str(const struct om_build *b, uint32_t off)
{
	return b->strings + off;
}

FIXTURE(net) {
	struct net n;
	struct om_build b;
	struct lower_weights w;
	struct lower_result r;
	struct plan_stats ps;
	char err[512];
};

FIXTURE_SETUP(net)
{
	make_net(&self->n);
	ASSERT_EQ(0, om_build_init(&self->b));
	ASSERT_EQ(0, lower_weights_init(&self->w, &self->n.g));
	self->b.nin = 1;
	self->b.nout = 2;
}

FIXTURE_TEARDOWN(net)
{
	lower_result_free(&self->r);
	lower_weights_free(&self->w);
	om_build_free(&self->b);
	gb_free(&self->n.g);
}

static int lower_and_plan(struct __test_metadata *_metadata,
			  FIXTURE_DATA(net) *self)
{
	int ret = lower_graph(&self->n.g, &self->b, &self->w, &self->r,
			      self->err, sizeof(self->err));

	if (ret) {
		TH_LOG("lower: %s", self->err);
		return ret;
	}
	ret = plan_arena(self->r.bufs, self->r.nbufs, &self->ps);
	if (!ret)
		lower_apply_plan(&self->b, &self->r);
	return ret;
}

TEST_F(net, tasks_operators_and_locations)
{
	const struct om_build *b = &self->b;
	const struct om_node *nd;
	float f;

	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	/* conv, conv, add, relu, matmul, copy; Reshape and Identity are views */
	ASSERT_EQ(6u, self->r.node_count);
	EXPECT_EQ(2, self->r.views);
	EXPECT_EQ(1, self->r.copies);
	nd = &b->nodes[0];
	EXPECT_EQ(DRM_VNPU_OP_CONV2D, nd->op);
	EXPECT_STREQ("conv1", str(b, nd->name));
	EXPECT_EQ(3u, nd->num_inputs);
	EXPECT_EQ(1u, nd->num_outputs);
	EXPECT_EQ(1u, nd->has_attrs);
	EXPECT_EQ(1, nd->ints[0]);		/* stride */
	EXPECT_EQ(1, nd->ints[2]);		/* pad top */
	EXPECT_EQ(1, nd->ints[5]);		/* pad right */
	EXPECT_EQ(1, nd->ints[6]);		/* dilation */
	EXPECT_EQ(1, nd->ints[8]);		/* groups */
	EXPECT_EQ(DRM_VNPU_ACT_RELU, nd->ints[DRM_VNPU_ATTR_ACT]);
	EXPECT_EQ(OM_LOC_INPUT, tn(b, nd, 0)->loc);
	EXPECT_EQ(0u, tn(b, nd, 0)->index);
	EXPECT_STREQ("x", str(b, tn(b, nd, 0)->name));
	EXPECT_EQ(OM_LOC_WEIGHT, tn(b, nd, 1)->loc);
	EXPECT_EQ(OM_LOC_WEIGHT, tn(b, nd, 2)->loc);
	EXPECT_EQ(OM_LOC_ARENA, tn(b, nd, 3)->loc);
	EXPECT_EQ(4u, tn(b, nd, 3)->rank);
	EXPECT_EQ(64, tn(b, nd, 3)->strides[1]);
	/* the weight's bytes are the constant's */
	memcpy(&f, b->weights + tn(b, nd, 1)->offset + 4 * sizeof(float), 4);
	EXPECT_EQ(4.5f, f);
	memcpy(&f, b->weights + tn(b, nd, 2)->offset, 4);
	EXPECT_EQ(0.25f, f);
	EXPECT_EQ(0, tn(b, nd, 1)->offset % OM_WEIGHT_ALIGN);
	EXPECT_EQ(0, tn(b, nd, 2)->offset % OM_WEIGHT_ALIGN);
	nd = &b->nodes[1];
	EXPECT_EQ(DRM_VNPU_OP_CONV2D, nd->op);
	EXPECT_EQ(DRM_VNPU_ACT_NONE, nd->ints[DRM_VNPU_ATTR_ACT]);
	EXPECT_EQ(tn(b, &b->nodes[0], 3)->offset, tn(b, nd, 0)->offset);
	nd = &b->nodes[2];
	EXPECT_EQ(DRM_VNPU_OP_ADD, nd->op);
	EXPECT_STREQ("add", str(b, nd->name));
	nd = &b->nodes[3];
	EXPECT_EQ(DRM_VNPU_OP_RELU, nd->op);
	nd = &b->nodes[4];
	EXPECT_EQ(DRM_VNPU_OP_MATMUL, nd->op);
	EXPECT_EQ(OM_LOC_ARENA, tn(b, nd, 0)->loc);	/* f: a view of r */
	EXPECT_EQ(2u, tn(b, nd, 0)->rank);
	EXPECT_EQ(256, tn(b, nd, 0)->shape[1]);
	EXPECT_EQ(tn(b, &b->nodes[3], 1)->offset, tn(b, nd, 0)->offset);
	EXPECT_EQ(OM_LOC_WEIGHT, tn(b, nd, 1)->loc);
	EXPECT_EQ(OM_LOC_OUTPUT, tn(b, nd, 2)->loc);
	EXPECT_EQ(0u, tn(b, nd, 2)->index);
	nd = &b->nodes[5];
	EXPECT_EQ(OM_OP_COPY, nd->op);
	EXPECT_EQ(OM_LOC_ARENA, tn(b, nd, 0)->loc);
	EXPECT_EQ(tn(b, &b->nodes[3], 1)->offset, tn(b, nd, 0)->offset);
	EXPECT_EQ(OM_LOC_OUTPUT, tn(b, nd, 1)->loc);
	EXPECT_EQ(1u, tn(b, nd, 1)->index);
	/* 5 constants, each once: wm (the last used) ends the section */
	EXPECT_EQ((int64_t)b->nweights,
		  self->w.offset[self->n.wm] + 256 * 10 * 4);
	EXPECT_EQ(-1, self->w.offset[self->n.x]);
}

TEST_F(net, plan_in_place_and_bounds)
{
	const struct om_build *b = &self->b;
	uint64_t act = 4 * 8 * 8 * 4;	/* bytes of c1, c2, a, r */
	uint32_t i;

	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	/* the add writes over an input dying there, the relu over the add */
	EXPECT_GE(self->ps.inplace, 2);
	EXPECT_EQ(tn(b, &b->nodes[2], 2)->offset, tn(b, &b->nodes[3], 1)->offset);
	EXPECT_TRUE(tn(b, &b->nodes[2], 2)->offset == tn(b, &b->nodes[2], 0)->offset ||
		    tn(b, &b->nodes[2], 2)->offset == tn(b, &b->nodes[2], 1)->offset);
	/* c1 lives across conv2: c1 and c2 are apart */
	EXPECT_NE(tn(b, &b->nodes[1], 0)->offset, tn(b, &b->nodes[1], 3)->offset);
	EXPECT_EQ(2 * act, self->ps.arena_size);
	EXPECT_EQ(2 * act, self->ps.lower_bound);
	EXPECT_EQ(4 * act, self->ps.naive_size);
	for (i = 0; i < b->ntensors; i++) {
		const struct om_tensor *t = &b->tensors[i];
		uint64_t end = t->offset + (uint64_t)(t->shape[0] * t->strides[0]) * 4;

		if (t->loc == OM_LOC_ARENA)
			EXPECT_LE(end, self->ps.arena_size);
	}
}

TEST_F(net, weights_written_once_across_variants)
{
	size_t w;
	uint32_t first;

	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	w = self->b.nweights;
	first = self->b.nnodes;
	lower_result_free(&self->r);
	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	EXPECT_EQ(w, self->b.nweights);
	EXPECT_EQ(first, self->r.first_node);
	EXPECT_EQ(6u, self->r.node_count);
	EXPECT_EQ(self->b.tensors[self->b.nodes[1].tensors[1]].offset,
		  self->b.tensors[self->b.nodes[first + 1].tensors[1]].offset);
}

TEST_F(net, stats_per_op_type)
{
	int i, conv = -1, reshape = -1;

	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	for (i = 0; i < self->r.nstats; i++) {
		if (!strcmp(self->r.stats[i].op_type, "Conv"))
			conv = i;
		if (!strcmp(self->r.stats[i].op_type, "Reshape"))
			reshape = i;
	}
	ASSERT_GE(conv, 0);
	ASSERT_GE(reshape, 0);
	EXPECT_EQ(2, self->r.stats[conv].nodes);
	EXPECT_EQ(2, self->r.stats[conv].tasks);
	EXPECT_EQ(1, self->r.stats[reshape].nodes);
	EXPECT_EQ(0, self->r.stats[reshape].tasks);
}

TEST_F(net, unknown_op_named)
{
	self->n.g.nodes[self->n.relu].op_type = "Frobnicate";
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "'relu' (Frobnicate)"));
}

TEST_F(net, uninferred_tensor_named)
{
	self->n.g.tensors[self->n.c2].rank = -1;
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "'c2' has no inferred shape"));
}

TEST_F(net, library_rejection_reported)
{
	/* MatMul of [1,256] by [256,10] into a [1,256] "y": phase 1 says no */
	self->n.g.tensors[self->n.y].dims[1] = 256;
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "'mm' (MatMul): the operator library rejects it"));
}

TEST_F(net, bad_conv_rank_and_view_size)
{
	self->n.g.tensors[self->n.f].dims[1] = 255;
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "'flat' (Reshape)"));
	EXPECT_NE(NULL, strstr(self->err, "differ in size"));
}

TEST_F(net, constant_size_mismatch_rejected)
{
	self->n.g.tensors[self->n.b1].nbytes = 12;
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "constant 'b1' holds 12 bytes"));
}

TEST_F(net, weight_table_must_match_graph)
{
	self->w.n = 3;
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "weight table"));
}

TEST_F(net, clip_activation_as_attribute_or_task)
{
	struct ir_node *c = &self->n.g.nodes[self->n.conv2];
	struct ir_node *a = &self->n.g.nodes[self->n.add];
	const struct om_node *nd;
	float lo, hi;

	c->act.kind = 2;
	c->act.lo = 0.0f;
	c->act.hi = 6.0f;
	a->act.kind = 2;	/* on an Add: one more CLAMP task */
	a->act.lo = -1.0f;
	a->act.hi = 1.0f;
	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	nd = &self->b.nodes[1];
	EXPECT_EQ(DRM_VNPU_ACT_CLIP, nd->ints[DRM_VNPU_ATTR_ACT]);
	memcpy(&lo, &nd->floats[DRM_VNPU_ATTR_ACT_LO], 4);
	memcpy(&hi, &nd->floats[DRM_VNPU_ATTR_ACT_HI], 4);
	EXPECT_EQ(0.0f, lo);
	EXPECT_EQ(6.0f, hi);
	nd = &self->b.nodes[3];
	EXPECT_EQ(DRM_VNPU_OP_CLAMP, nd->op);
	EXPECT_EQ(3, nd->ints[0]);
	memcpy(&lo, &nd->floats[0], 4);
	memcpy(&hi, &nd->floats[1], 4);
	EXPECT_EQ(-1.0f, lo);
	EXPECT_EQ(1.0f, hi);
	/* the clamp works in place on the add's output */
	EXPECT_EQ(self->b.tensors[self->b.nodes[2].tensors[2]].offset,
		  self->b.tensors[nd->tensors[1]].offset);
	EXPECT_EQ(self->b.tensors[nd->tensors[0]].offset,
		  self->b.tensors[nd->tensors[1]].offset);
	/* bad bounds are refused */
	c->act.lo = 7.0f;
	lower_result_free(&self->r);
	EXPECT_EQ(-1, lower_graph(&self->n.g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "clip bounds"));
}

TEST_F(net, asymmetric_pads_and_gemm)
{
	/* pads top 1, left 2, bottom 1, right 0 keep conv1's 8x8 output */
	static const int64_t pads[] = { 1, 2, 1, 0 }, db[] = { 10, 256 },
		dc[] = { 10 };
	struct ir_graph *g = &self->n.g;
	struct ir_node *mm = &g->nodes[self->n.mm];
	const struct om_node *nd;
	float alpha, beta;
	int wb, bb;

	memcpy(g->nodes[self->n.conv1].attrs[0].ints, pads, sizeof(pads));
	/* y = Gemm(f, wb^T, bb) instead of the MatMul */
	wb = gb_tensor(g, "wb", 2, db, 0.0f);
	bb = gb_tensor(g, "bb", 1, dc, 0.0f);
	mm->op_type = "Gemm";
	free(mm->inputs);
	mm->inputs = malloc(3 * sizeof(int));
	mm->inputs[0] = self->n.f;
	mm->inputs[1] = wb;
	mm->inputs[2] = bb;
	mm->nin = 3;
	gb_int(g, self->n.mm, "transB", 1);
	mm->act.kind = 1;
	lower_weights_free(&self->w);
	ASSERT_EQ(0, lower_weights_init(&self->w, g));
	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	nd = &self->b.nodes[0];
	EXPECT_EQ(1, nd->ints[2]);
	EXPECT_EQ(2, nd->ints[3]);
	EXPECT_EQ(1, nd->ints[4]);
	EXPECT_EQ(0, nd->ints[5]);
	nd = &self->b.nodes[4];
	EXPECT_EQ(DRM_VNPU_OP_GEMM, nd->op);
	EXPECT_STREQ("mm", str(&self->b, nd->name));
	EXPECT_EQ(3u, nd->num_inputs);
	EXPECT_EQ(0, nd->ints[0]);
	EXPECT_EQ(1, nd->ints[1]);
	EXPECT_EQ(DRM_VNPU_ACT_RELU, nd->ints[DRM_VNPU_ATTR_ACT]);
	memcpy(&alpha, &nd->floats[0], 4);
	memcpy(&beta, &nd->floats[1], 4);
	EXPECT_EQ(1.0f, alpha);
	EXPECT_EQ(1.0f, beta);
	EXPECT_EQ(OM_LOC_WEIGHT, tn(&self->b, nd, 1)->loc);
	EXPECT_EQ(10, tn(&self->b, nd, 1)->shape[0]);
	EXPECT_EQ(OM_LOC_OUTPUT, tn(&self->b, nd, 3)->loc);
	/* the fused ReLU made no extra task */
	EXPECT_EQ(6u, self->r.node_count);
}

TEST_F(net, matmul_bias_then_activation)
{
	static const int64_t dc[] = { 10 };
	struct ir_graph *g = &self->n.g;
	struct ir_node *mm = &g->nodes[self->n.mm];
	const struct om_node *nd;
	const struct om_tensor *bias;
	int bb;

	/* fuse.c's MatMul + bias form, with a fused ReLU */
	bb = gb_tensor(g, "mm.bias", 1, dc, 0.0f);
	mm->inputs = realloc(mm->inputs, 3 * sizeof(int));
	mm->inputs[2] = bb;
	mm->nin = 3;
	mm->act.kind = 1;
	lower_weights_free(&self->w);
	ASSERT_EQ(0, lower_weights_init(&self->w, g));
	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	/* matmul, then the bias added in place, then the ReLU in place */
	ASSERT_EQ(8u, self->r.node_count);
	nd = &self->b.nodes[4];
	EXPECT_EQ(DRM_VNPU_OP_MATMUL, nd->op);
	EXPECT_EQ(DRM_VNPU_ACT_NONE, nd->ints[DRM_VNPU_ATTR_ACT]);
	nd = &self->b.nodes[5];
	EXPECT_EQ(DRM_VNPU_OP_ADD, nd->op);
	bias = tn(&self->b, nd, 1);
	EXPECT_EQ(OM_LOC_WEIGHT, bias->loc);
	EXPECT_EQ(2u, bias->rank);
	EXPECT_EQ(1, bias->shape[0]);
	EXPECT_EQ(10, bias->shape[1]);
	EXPECT_EQ(0, bias->strides[0]);
	EXPECT_EQ(OM_LOC_OUTPUT, tn(&self->b, nd, 0)->loc);
	EXPECT_EQ(OM_LOC_OUTPUT, tn(&self->b, nd, 2)->loc);
	nd = &self->b.nodes[6];
	EXPECT_EQ(DRM_VNPU_OP_RELU, nd->op);
	EXPECT_EQ(OM_LOC_OUTPUT, tn(&self->b, nd, 1)->loc);
	EXPECT_EQ(OM_OP_COPY, self->b.nodes[7].op);
	/* a bias that is not over the last dim is refused */
	g->tensors[bb].dims[0] = 9;
	lower_result_free(&self->r);
	EXPECT_EQ(-1, lower_graph(g, &self->b, &self->w, &self->r,
				  self->err, sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "'mm' (MatMul): the bias"));
}

TEST_F(net, in_place_over_an_input_read_twice_the_same_way)
{
	/* a = c2 * c2: both operands are one view of c2, which dies here */
	struct ir_graph *g = &self->n.g;

	g->nodes[self->n.add].op_type = "Mul";
	g->nodes[self->n.add].inputs[1] = self->n.c2;
	ASSERT_EQ(0, lower_and_plan(_metadata, self));
	EXPECT_EQ(DRM_VNPU_OP_MUL, self->b.nodes[2].op);
	EXPECT_EQ(self->b.tensors[self->b.nodes[2].tensors[2]].offset,
		  self->b.tensors[self->b.nodes[2].tensors[0]].offset);
	/* c1 is now read by conv2 only: conv2's output cannot go over it
	 * (a convolution is not elementwise), so c1 and c2 stay apart */
	EXPECT_NE(self->b.tensors[self->b.nodes[1].tensors[0]].offset,
		  self->b.tensors[self->b.nodes[1].tensors[3]].offset);
}

TEST_HARNESS_MAIN
