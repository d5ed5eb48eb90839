// SPDX-License-Identifier: MIT
/*
 * Host tests of atc's reductions, scans, masks and Einsum: the equation
 * reader (lib/compile/einsum.c) on the notations the ONNX suite uses and on
 * every malformed form, and lowering (lib/compile/lower_reduce.c): the
 * driver operator, its attributes and the views each node becomes, and
 * every rule that refuses a node.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "einsum.h"
#include "kselftest_harness.h"

#define ATC_LOWER_OPSET 13
#include "atc_lower_fixture.h"

#define F32 0
#define I64 9

/* Give node n one more input, t. */
static void add_input(struct ir_graph *g, int n, int t)
{
	struct ir_node *nd = &g->nodes[n];

	nd->inputs = realloc(nd->inputs, (size_t)(nd->nin + 1) * sizeof(int));
	nd->inputs[nd->nin++] = t;
}

/* Parse eq over operands of the given dims (rank per operand). */
static int parse(const char *eq, int nops, const int *rank,
		 const int64_t (*dims)[4], struct einsum *e, char *msg)
{
	struct ir_tensor ts[4];
	const struct ir_tensor *ops[4];
	int i;

	memset(ts, 0, sizeof(ts));
	for (i = 0; i < nops; i++) {
		ts[i].rank = rank[i];
		memcpy(ts[i].dims, dims[i], sizeof(dims[i]));
		ops[i] = &ts[i];
	}
	return einsum_parse(eq, nops, ops, e, msg, 192);
}

TEST(einsum_equations)
{
	static const int64_t bmm[2][4] = { { 5, 2, 3 }, { 5, 3, 4 } };
	static const int64_t diag[1][4] = { { 3, 5, 5 } };
	static const int64_t vec[2][4] = { { 5 }, { 5 } };
	static const int64_t mat[1][4] = { { 3, 4 } };
	static const int64_t bc[2][4] = { { 1, 2, 3 }, { 6, 3, 4 } };
	struct einsum e;
	char msg[192];

	/* batch matmul: b, i, k out; j summed */
	ASSERT_EQ(0, parse("bij, bjk -> bik", 2, (int[]){ 3, 3 }, bmm, &e, msg));
	EXPECT_EQ(3, e.nout);
	EXPECT_EQ(4, e.nall);
	EXPECT_EQ('b' - 'a', e.all[0]);
	EXPECT_EQ('i' - 'a', e.all[1]);
	EXPECT_EQ('k' - 'a', e.all[2]);
	EXPECT_EQ('j' - 'a', e.all[3]);
	EXPECT_EQ(3, e.size['j' - 'a']);
	/* the ellipsis and a diagonal */
	ASSERT_EQ(0, parse("...ii ->...i", 1, (int[]){ 3 }, diag, &e, msg));
	EXPECT_EQ(2, e.nout);
	EXPECT_EQ(52, e.out[0]);
	EXPECT_EQ(3, e.size[52]);
	EXPECT_EQ('i' - 'a', e.lab[0][1]);
	EXPECT_EQ('i' - 'a', e.lab[0][2]);
	/* implicit output: labels seen once (none here: a scalar) */
	ASSERT_EQ(0, parse("i,i", 2, (int[]){ 1, 1 }, vec, &e, msg));
	EXPECT_EQ(0, e.nout);
	EXPECT_EQ(1, e.nall);
	/* implicit output in ASCII order: "ji" transposes */
	ASSERT_EQ(0, parse("ji", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_EQ(2, e.nout);
	EXPECT_EQ('i' - 'a', e.out[0]);
	EXPECT_EQ(4, e.size[e.out[0]]);
	/* upper case sorts before lower case */
	ASSERT_EQ(0, parse("aB", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_EQ(26 + 'B' - 'A', e.out[0]);
	/* ellipsis dims broadcast (1 against 6) */
	ASSERT_EQ(0, parse("...ij,...jk->...ik", 2, (int[]){ 3, 3 }, bc, &e, msg));
	EXPECT_EQ(6, e.size[52]);

	/* refused */
	EXPECT_EQ(-1, parse("ij->k", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "in no input"));
	EXPECT_EQ(-1, parse("ij->ii", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "repeated"));
	EXPECT_EQ(-1, parse("ijk", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "does not match rank"));
	EXPECT_EQ(-1, parse("ij,jk", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "more terms"));
	EXPECT_EQ(-1, parse("i", 2, (int[]){ 1, 1 }, vec, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "fewer terms"));
	EXPECT_EQ(-1, parse("bij,bkj->bik", 2, (int[]){ 3, 3 }, bmm, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "has sizes"));
	EXPECT_EQ(-1, parse("i.j", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_NE(NULL, strstr(msg, "malformed"));
	EXPECT_EQ(-1, parse("i1", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_EQ(-1, parse("...i...", 1, (int[]){ 2 }, mat, &e, msg));
	EXPECT_EQ(-1, parse("ij->i-", 1, (int[]){ 2 }, mat, &e, msg));
	/* eight labels fit, nine do not */
	EXPECT_EQ(0, parse("abcd,efgh->abcdefgh", 2, (int[]){ 4, 4 },
			   (const int64_t[2][4]){ { 1, 1, 1, 1 }, { 1, 1, 1, 2 } },
			   &e, msg));
	EXPECT_EQ(8, e.nall);
	EXPECT_EQ(-1, parse("abc,def,ghi", 3, (int[]){ 3, 3, 3 },
			    (const int64_t[3][4]){ { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } },
			    &e, msg));
	EXPECT_NE(NULL, strstr(msg, "more than 8 labels"));
}

TEST_F(g, einsum_batch_matmul_is_mul_then_sum)
{
	static const int64_t dx[] = { 5, 2, 3 }, dw[] = { 5, 3, 4 }, dy[] = { 5, 2, 4 };
	int x = gb_input(&self->g, "x", 3, dx), w = gb_input(&self->g, "w", 3, dw);
	int y = gb_tensor(&self->g, "y", 3, dy, -1e31f), n;
	const struct om_tensor *a, *b, *p;

	gb_output(&self->g, y);
	n = gb_node(&self->g, "n", "Einsum", 2, (int[]){ x, w }, y);
	gb_str(&self->g, n, "equation", "bij,bjk->bik");
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(2, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_MUL, self->b.nodes[0].op);
	a = T(self, 0, 0);
	b = T(self, 0, 1);
	p = T(self, 0, 2);
	/* all labels b, i, k, j */
	ASSERT_EQ(4, a->rank);
	EXPECT_EQ(6, a->strides[0]);
	EXPECT_EQ(3, a->strides[1]);
	EXPECT_EQ(0, a->strides[2]);	/* x has no k */
	EXPECT_EQ(1, a->strides[3]);
	EXPECT_EQ(12, b->strides[0]);
	EXPECT_EQ(0, b->strides[1]);	/* w has no i */
	EXPECT_EQ(1, b->strides[2]);
	EXPECT_EQ(4, b->strides[3]);
	EXPECT_EQ(OM_LOC_ARENA, p->loc);
	EXPECT_EQ(3, p->shape[3]);
	EXPECT_EQ(DRM_VNPU_OP_REDUCE_SUM, self->b.nodes[1].op);
	EXPECT_EQ(1 << 3, self->b.nodes[1].ints[0]);
	EXPECT_EQ(0, self->b.nodes[1].ints[1]);
	EXPECT_EQ(OM_LOC_OUTPUT, T(self, 1, 1)->loc);
}

TEST_F(g, einsum_product_too_large_is_refused)
{
	static const int64_t d[] = { 65536, 65536 }, dy[] = { 1 };
	int x = gb_input(&self->g, "x", 2, d), w = gb_input(&self->g, "w", 2, d);
	int y = gb_tensor(&self->g, "y", 0, dy, -1e31f), n;

	gb_output(&self->g, y);
	/* the sum of every product: 2^64 elements in the scratch product */
	n = gb_node(&self->g, "n", "Einsum", 2, (int[]){ x, w }, y);
	gb_str(&self->g, n, "equation", "ab,cd->");
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "more than 4294967296 bytes"));
}

TEST_F(g, einsum_one_operand_views)
{
	static const int64_t dx[] = { 3, 5, 5 }, dy[] = { 3, 5 };
	int n = one_node(&self->g, "Einsum", 3, dx, 2, dy, F32);
	const struct om_tensor *v;

	gb_str(&self->g, n, "equation", "...ii->...i");
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_STRIDED_COPY, self->b.nodes[0].op);
	v = T(self, 0, 0);
	ASSERT_EQ(2, v->rank);
	EXPECT_EQ(25, v->strides[0]);
	EXPECT_EQ(6, v->strides[1]);	/* the diagonal: 5 + 1 */
	/* a sum over j */
	self->g.tensors[self->g.nodes[n].outputs[0]].rank = 1;
	self->g.nodes[n].attrs[0].s = "bij->b";
	self->g.tensors[self->g.nodes[n].outputs[0]].dims[0] = 3;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_REDUCE_SUM, self->b.nodes[1].op);
	EXPECT_EQ(6, self->b.nodes[1].ints[0]);
	/* a malformed equation is refused with the reader's message */
	self->g.nodes[n].attrs[0].s = "bi->q";
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "does not match rank"));
}

TEST_F(g, reductions_new_ops_and_noop)
{
	static const int64_t dx[] = { 2, 3, 4 }, dy[] = { 2, 1, 4 };
	static const struct { const char *onnx; uint32_t op; } m[] = {
		{ "ReduceL1", DRM_VNPU_OP_REDUCE_L1 },
		{ "ReduceL2", DRM_VNPU_OP_REDUCE_L2 },
		{ "ReduceLogSum", DRM_VNPU_OP_REDUCE_LOG_SUM },
		{ "ReduceLogSumExp", DRM_VNPU_OP_REDUCE_LOG_SUM_EXP },
		{ "ReduceSumSquare", DRM_VNPU_OP_REDUCE_SUM_SQUARE },
		{ "ReduceMin", DRM_VNPU_OP_REDUCE_MIN },
		{ "ReduceProd", DRM_VNPU_OP_REDUCE_PROD },
	};
	int n = one_node(&self->g, "ReduceL1", 3, dx, 3, dy, F32), k, e;
	int64_t axes[1] = { -2 };
	unsigned int i;

	gb_ints(&self->g, n, "axes", axes, 1);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		self->g.nodes[n].op_type = (char *)m[i].onnx;
		ASSERT_EQ(0, run(self));
		EXPECT_EQ(m[i].op, self->b.nodes[i].op);
		EXPECT_EQ(1 << 1, self->b.nodes[i].ints[0]);
		EXPECT_EQ(1, self->b.nodes[i].ints[1]);
	}
	/* ReduceSum, axes an empty constant input, noop_with_empty_axes: a copy */
	self->g.nodes[n].op_type = "ReduceSum";
	self->g.nodes[n].nattrs = 0;
	gb_int(&self->g, n, "noop_with_empty_axes", 1);
	e = gb_const(&self->g, "axes", I64, 1, 0, axes, 8);
	add_input(&self->g, n, e);
	memcpy(self->g.tensors[self->g.nodes[n].outputs[0]].dims, dx, sizeof(dx));
	ASSERT_EQ(0, run(self));
	k = (int)i;
	EXPECT_EQ(DRM_VNPU_OP_STRIDED_COPY, self->b.nodes[k].op);
	/* without noop: every dim */
	self->g.nodes[n].attrs[0].i = 0;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_REDUCE_SUM, self->b.nodes[k + 1].op);
	EXPECT_EQ(7, self->b.nodes[k + 1].ints[0]);
}

TEST_F(g, argmax_cumsum_trilu_hardmax)
{
	static const int64_t dx[] = { 3, 4, 5 }, da[] = { 3, 5 };
	int n = one_node(&self->g, "ArgMin", 3, dx, 2, da, F32), c, k;

	self->g.tensors[self->g.nodes[n].outputs[0]].dtype = I64;
	gb_int(&self->g, n, "axis", -2);
	gb_int(&self->g, n, "keepdims", 0);
	gb_int(&self->g, n, "select_last_index", 1);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_ARGMIN, self->b.nodes[0].op);
	EXPECT_EQ(1 << 1, self->b.nodes[0].ints[0]);
	EXPECT_EQ(0, self->b.nodes[0].ints[1]);
	EXPECT_EQ(1, self->b.nodes[0].ints[2]);
	self->g.nodes[n].attrs[0].i = 3;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "outside the rank"));

	/* CumSum: the axis a constant input, exclusive and reverse */
	self->g.nodes[n].op_type = "CumSum";
	self->g.nodes[n].nattrs = 0;
	gb_int(&self->g, n, "exclusive", 1);
	gb_int(&self->g, n, "reverse", 1);
	self->g.tensors[self->g.nodes[n].outputs[0]].dtype = 0;
	self->g.tensors[self->g.nodes[n].outputs[0]].rank = 3;
	memcpy(self->g.tensors[self->g.nodes[n].outputs[0]].dims, dx, sizeof(dx));
	c = gb_const(&self->g, "axis", I64, 0, 1, (int64_t[]){ -1 }, 8);
	add_input(&self->g, n, c);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_CUMSUM, self->b.nodes[1].op);
	EXPECT_EQ(2, self->b.nodes[1].ints[0]);
	EXPECT_EQ(1, self->b.nodes[1].ints[1]);
	EXPECT_EQ(1, self->b.nodes[1].ints[2]);
	/* an axis that is not a constant is refused */
	self->g.nodes[n].inputs[1] = self->g.nodes[n].inputs[0];
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "must be a constant"));

	/* Trilu: k from a constant input, upper by default */
	self->g.nodes[n].op_type = "Trilu";
	self->g.nodes[n].nattrs = 0;
	k = gb_const(&self->g, "k", I64, 0, 1, (int64_t[]){ -2 }, 8);
	self->g.nodes[n].inputs[1] = k;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_TRILU, self->b.nodes[2].op);
	EXPECT_EQ(1, self->b.nodes[2].ints[0]);
	EXPECT_EQ(-2, self->b.nodes[2].ints[1]);
	gb_int(&self->g, n, "upper", 0);
	self->g.nodes[n].nin = 1;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(0, self->b.nodes[3].ints[0]);
	EXPECT_EQ(0, self->b.nodes[3].ints[1]);

	/* Hardmax: one axis from opset 13 (default -1) */
	self->g.nodes[n].op_type = "Hardmax";
	self->g.nodes[n].nattrs = 0;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_HARDMAX, self->b.nodes[4].op);
	EXPECT_EQ(2, self->b.nodes[4].ints[0]);
	EXPECT_EQ(3, T(self, 4, 0)->rank);
	/* before 13: coerced to 2-D at the axis (default 1): [3, 20] */
	self->g.opset = 11;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(1, self->b.nodes[5].ints[0]);
	EXPECT_EQ(2, T(self, 5, 0)->rank);
	EXPECT_EQ(3, T(self, 5, 0)->shape[0]);
	EXPECT_EQ(20, T(self, 5, 0)->shape[1]);
	EXPECT_EQ(20, T(self, 5, 1)->shape[1]);
	gb_int(&self->g, n, "axis", 0);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(1, T(self, 6, 0)->shape[0]);
	EXPECT_EQ(60, T(self, 6, 0)->shape[1]);
}

TEST_HARNESS_MAIN
