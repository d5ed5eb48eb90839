// SPDX-License-Identifier: MIT
/*
 * String tensors in atc: STRING typing (Cast and CastLike to and from
 * STRING, StringNormalizer's data-dependent [C] / [1, C] output and its
 * refusals), lowering to host nodes (the Cast direction by dtypes, the
 * stopwords as a UINT8 weight in the string layout with a comma inside a
 * word kept), and a device operator handed a string tensor refused with
 * a message that says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "lower.h"
#include "atc_ir_builder.h"
#include "kselftest_harness.h"
#include "atc_lower_fixture.h"

#include "../../lib/aicpu/aicpu_ops.h"
#include "../../lib/om/om_format.h"

#define F32 0
#define STR OM_DTYPE_STRING

static int infer(FIXTURE_DATA(g) *self)
{
	return ir_infer(&self->g, self->err, sizeof(self->err));
}

/* An output tensor to be inferred. */
static int later(struct ir_graph *g, const char *name)
{
	int t = gb_tensor(g, name, 0, NULL, -1e31f);

	g->tensors[t].rank = -1;
	g->tensors[t].dtype = -1;
	return t;
}

TEST(dtype_table_and_sizes)
{
	EXPECT_EQ(STR, ir_dtype_from_onnx(8));
	EXPECT_EQ(-2, ir_dtype_from_onnx(14));	/* complex64 */
	EXPECT_EQ((size_t)OM_STRING_ELEM_BYTES, ir_dtype_size(STR));
	EXPECT_STREQ("string", ir_dtype_name(STR));
}

TEST_F(g, cast_types_and_host_nodes)
{
	int x = gb_input(&self->g, "x", 2, (int64_t[]){ 3, 4 }), y, n;
	const struct om_node *hn;

	y = later(&self->g, "y");
	gb_output(&self->g, y);
	n = gb_node(&self->g, "c", "Cast", 1, (int[]){ x }, y);
	gb_attr(&self->g, n, "to", IR_ATTR_INT)->i = 8;
	ASSERT_EQ(0, infer(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(STR, self->g.tensors[y].dtype);
	EXPECT_EQ(2, self->g.tensors[y].rank);
	EXPECT_FALSE(self->g.tensors[y].dynamic);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(1, (int)self->b.nnodes);
	hn = &self->b.nodes[0];
	EXPECT_EQ(OM_OP_HOST | AICPU_OP_CAST_STRING, hn->op);
	EXPECT_EQ(1u, hn->num_inputs);
	EXPECT_EQ(STR, self->b.tensors[hn->tensors[1]].dtype);
}

TEST_F(g, castlike_from_string_reads_only_its_first_input)
{
	int x = input_dt(&self->g, "x", STR, 1, (int64_t[]){ 5 });
	int like = gb_input(&self->g, "like", 1, (int64_t[]){ 1 }), y;
	const struct om_node *hn;

	y = later(&self->g, "y");
	gb_output(&self->g, y);
	gb_node(&self->g, "c", "CastLike", 2, (int[]){ x, like }, y);
	ASSERT_EQ(0, infer(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(F32, self->g.tensors[y].dtype);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	hn = &self->b.nodes[0];
	EXPECT_EQ(OM_OP_HOST | AICPU_OP_CAST_STRING, hn->op);
	EXPECT_EQ(1u, hn->num_inputs);
	EXPECT_EQ(1, hn->ints[AICPU_ATTR_IN]);
	EXPECT_EQ(STR, self->b.tensors[hn->tensors[0]].dtype);
}

TEST_F(g, strnorm_typing_and_stopwords_weight)
{
	int x = input_dt(&self->g, "x", STR, 2, (int64_t[]){ 1, 6 }), y, n;
	struct ir_attr *a;
	const struct om_node *hn;
	const struct om_tensor *w;
	struct om_string_head h[2];
	const uint8_t *wb;

	y = later(&self->g, "y");
	gb_output(&self->g, y);
	n = gb_node(&self->g, "sn", "StringNormalizer", 1, (int[]){ x }, y);
	gb_attr(&self->g, n, "case_change_action", IR_ATTR_STRING)->s = strdup("LOWER");
	a = gb_attr(&self->g, n, "stopwords", IR_ATTR_STRINGS);
	a->s = strdup("a,b,cd");	/* two words: "a,b" and "cd" */
	a->count = 2;
	a->ints = malloc(2 * sizeof(int64_t));
	a->ints[0] = 3;
	a->ints[1] = 2;
	ASSERT_EQ(0, infer(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(STR, self->g.tensors[y].dtype);
	ASSERT_EQ(2, self->g.tensors[y].rank);
	EXPECT_EQ(1, self->g.tensors[y].dims[0]);
	EXPECT_EQ(6, self->g.tensors[y].dims[1]);
	EXPECT_TRUE(self->g.tensors[y].dynamic);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	hn = &self->b.nodes[0];
	EXPECT_EQ(OM_OP_HOST | AICPU_OP_STRNORM, hn->op);
	EXPECT_EQ(3, hn->ints[AICPU_ATTR_IN]);
	EXPECT_EQ(1, hn->ints[0]);	/* LOWER */
	EXPECT_EQ(0, hn->ints[1]);	/* case-insensitive by default */
	EXPECT_EQ(2, hn->ints[2]);
	w = &self->b.tensors[hn->tensors[1]];
	ASSERT_EQ(OM_LOC_WEIGHT, w->loc);
	EXPECT_EQ(4u, w->dtype);	/* UINT8 */
	EXPECT_EQ(32 + 4 + 3, w->shape[0]);
	wb = self->b.weights + w->offset;
	memcpy(h, wb, sizeof(h));
	EXPECT_EQ(32, h[0].offset);
	EXPECT_EQ(3, h[0].len);
	EXPECT_EQ(0, memcmp(wb + h[0].offset, "a,b", 3));
	EXPECT_EQ(36, h[1].offset);
	EXPECT_EQ(2, h[1].len);
	EXPECT_EQ(0, memcmp(wb + h[1].offset, "cd", 2));
}

TEST_F(g, strnorm_refusals)
{
	int x = input_dt(&self->g, "x", STR, 2, (int64_t[]){ 2, 3 }), y;

	y = later(&self->g, "y");
	gb_output(&self->g, y);
	gb_node(&self->g, "sn", "StringNormalizer", 1, (int[]){ x }, y);
	EXPECT_EQ(-1, infer(self));
	EXPECT_NE(NULL, strstr(self->err, "[C] or [1, C]")) TH_LOG("%s", self->err);
	self->g.tensors[x].dtype = F32;
	self->g.tensors[x].dims[0] = 1;
	EXPECT_EQ(-1, infer(self));
	EXPECT_NE(NULL, strstr(self->err, "takes strings")) TH_LOG("%s", self->err);
}

/* Locales with other case rules, and unknown case actions, are refused. */
TEST_F(g, strnorm_locale_and_action_refused)
{
	int x = input_dt(&self->g, "x", STR, 1, (int64_t[]){ 3 }), y, n;
	char msg[512] = "";
	struct ir_attr *loc, *act;

	y = later(&self->g, "y");
	gb_output(&self->g, y);
	n = gb_node(&self->g, "sn", "StringNormalizer", 1, (int[]){ x }, y);
	loc = gb_attr(&self->g, n, "locale", IR_ATTR_STRING);
	loc->s = strdup("en_US");
	act = gb_attr(&self->g, n, "case_change_action", IR_ATTR_STRING);
	act->s = strdup("UPPER");
	EXPECT_EQ(0, ir_check_supported(&self->g, false, msg, sizeof(msg))) TH_LOG("%s", msg);
	free(loc->s);
	loc->s = strdup("tr_TR");
	EXPECT_EQ(1, ir_check_supported(&self->g, false, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "StringNormalizer locale=tr_TR")) TH_LOG("%s", msg);
	free(loc->s);
	loc->s = strdup("C.UTF-8");
	free(act->s);
	act->s = strdup("TITLE");
	EXPECT_EQ(1, ir_check_supported(&self->g, false, msg, sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "case_change_action=TITLE")) TH_LOG("%s", msg);
	free(loc->s);
	free(act->s);
}

/* A string reaching a device operator is refused by name. */
TEST_F(g, device_operator_refuses_strings)
{
	int x = input_dt(&self->g, "x", STR, 1, (int64_t[]){ 4 });
	int z = input_dt(&self->g, "z", STR, 1, (int64_t[]){ 4 }), y;

	y = gb_tensor(&self->g, "y", 1, (int64_t[]){ 8 }, -1e31f);
	self->g.tensors[y].dtype = STR;
	gb_output(&self->g, y);
	gb_attr(&self->g, gb_node(&self->g, "cat", "Concat", 2, (int[]){ x, z }, y),
		"axis", IR_ATTR_INT)->i = 0;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "cannot take string tensors")) TH_LOG("%s", self->err);
}

TEST_HARNESS_MAIN
