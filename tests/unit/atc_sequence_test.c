// SPDX-License-Identifier: MIT
/*
 * ONNX sequences resolved at compile time (lib/compile/ir_sequence.c): each
 * list edit with ONNX's position rules (negative positions, the default
 * end), SequenceLength as a constant, SequenceAt as an Identity of the
 * element, ConcatFromSequence and SplitToSequence as tensor nodes, and
 * the refusals (positions not known at compile time, out of range,
 * sequence graph outputs and inputs, mixed dtypes).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

static void expect_dims(struct __test_metadata *_metadata,
			const struct ir_tensor *t, int rank, const int64_t *dims)
{
	int i;

	ASSERT_EQ(rank, t->rank);
	for (i = 0; i < rank; i++)
		EXPECT_EQ(dims[i], t->dims[i]) TH_LOG("dim %d", i);
}

/* x, y, z: float [2,3,4] inputs */
static void xyz(struct ir_graph *g)
{
	tg_input(g, "x", F32, 3, DIMS(2, 3, 4));
	tg_input(g, "y", F32, 3, DIMS(2, 3, 4));
	tg_input(g, "z", F32, 3, DIMS(2, 3, 4));
}

/* The tensor the Identity producing "out" reads, by name, or "". */
static const char *picked(struct ir_graph *g)
{
	const struct ir_tensor *o = tg_t(g, "out");
	const struct ir_node *n;

	if (!o || o->producer < 0)
		return "";
	n = &g->nodes[o->producer];
	if (n->dead || strcmp(n->op_type, "Identity"))
		return "";
	return g->tensors[n->inputs[0]].name;
}

static void pos_const(struct ir_graph *g, const char *name, int64_t v)
{
	tg_const(g, name, I64, 0, NULL, &v);
}

/*
 * [x, y] then z inserted at pos (none: absent), then SequenceAt(at):
 * the element picked, or NULL when inference refused (err in err).
 */
static const char *insert_then_at(bool has_pos, int64_t pos, int64_t at,
				  char *err, size_t errlen, char *buf)
{
	struct ir_graph g = { .opset = 17 };
	const char *r = NULL;

	xyz(&g);
	pos_const(&g, "pos", pos);
	pos_const(&g, "at", at);
	NODE(&g, "e", "SequenceEmpty", "->", "s0");
	NODE(&g, "i1", "SequenceInsert", "s0", "x", "->", "s1");
	NODE(&g, "i2", "SequenceInsert", "s1", "y", "->", "s2");
	if (has_pos)
		NODE(&g, "i3", "SequenceInsert", "s2", "z", "pos", "->", "s3");
	else
		NODE(&g, "i3", "SequenceInsert", "s2", "z", "->", "s3");
	NODE(&g, "a", "SequenceAt", "s3", "at", "->", "out");
	tg_output(&g, "out");
	if (!ir_infer(&g, err, errlen)) {
		strcpy(buf, picked(&g));
		r = buf;
	}
	ir_free(&g);
	return r;
}

TEST(insert_positions)
{
	char err[256] = "", b[64];

	/* default: at the end */
	EXPECT_STREQ("z", insert_then_at(false, 0, 2, err, sizeof(err), b));
	EXPECT_STREQ("x", insert_then_at(false, 0, 0, err, sizeof(err), b));
	EXPECT_STREQ("z", insert_then_at(true, 0, 0, err, sizeof(err), b));
	EXPECT_STREQ("x", insert_then_at(true, 0, 1, err, sizeof(err), b));
	/* -1: before the last; len: the end; -len: the front */
	EXPECT_STREQ("z", insert_then_at(true, -1, 1, err, sizeof(err), b));
	EXPECT_STREQ("y", insert_then_at(true, -1, 2, err, sizeof(err), b));
	EXPECT_STREQ("z", insert_then_at(true, 2, -1, err, sizeof(err), b));
	EXPECT_STREQ("z", insert_then_at(true, -2, 0, err, sizeof(err), b));
	/* At's negative positions count from the end */
	EXPECT_STREQ("y", insert_then_at(true, 0, -1, err, sizeof(err), b));
	EXPECT_STREQ("z", insert_then_at(true, 0, -3, err, sizeof(err), b));
}

TEST(positions_out_of_range)
{
	char err[256] = "", b[64];

	EXPECT_EQ(NULL, insert_then_at(true, 3, 0, err, sizeof(err), b));
	EXPECT_NE(NULL, strstr(err, "position 3 out of range")) TH_LOG("%s", err);
	EXPECT_EQ(NULL, insert_then_at(true, -3, 0, err, sizeof(err), b));
	EXPECT_NE(NULL, strstr(err, "position -3 out of range")) TH_LOG("%s", err);
	EXPECT_EQ(NULL, insert_then_at(true, 0, 3, err, sizeof(err), b));
	EXPECT_NE(NULL, strstr(err, "node a (SequenceAt)")) TH_LOG("%s", err);
	EXPECT_EQ(NULL, insert_then_at(true, 0, -4, err, sizeof(err), b));
	EXPECT_NE(NULL, strstr(err, "out of range")) TH_LOG("%s", err);
}

/* [x, y, z] erased at pos (none: absent), then At(at) and Length. */
static const char *erase_then_at(bool has_pos, int64_t pos, int64_t at,
				 int64_t *len, char *err, size_t errlen,
				 char *buf)
{
	struct ir_graph g = { .opset = 17 };
	const char *r = NULL;

	xyz(&g);
	pos_const(&g, "pos", pos);
	pos_const(&g, "at", at);
	NODE(&g, "c", "SequenceConstruct", "x", "y", "z", "->", "s1");
	if (has_pos)
		NODE(&g, "er", "SequenceErase", "s1", "pos", "->", "s2");
	else
		NODE(&g, "er", "SequenceErase", "s1", "->", "s2");
	NODE(&g, "a", "SequenceAt", "s2", "at", "->", "out");
	NODE(&g, "l", "SequenceLength", "s2", "->", "len");
	tg_output(&g, "out");
	tg_output(&g, "len");
	if (!ir_infer(&g, err, errlen)) {
		const struct ir_tensor *l = tg_t(&g, "len");

		strcpy(buf, picked(&g));
		*len = l->data && l->dtype == I64 && l->rank == 0 ?
		       *(int64_t *)l->data : -1;
		r = buf;
	}
	ir_free(&g);
	return r;
}

TEST(erase_positions_and_length)
{
	char err[256] = "", b[64];
	int64_t len = 0;

	/* default: the last one */
	EXPECT_STREQ("y", erase_then_at(false, 0, -1, &len, err, sizeof(err), b));
	EXPECT_EQ(2, len);
	EXPECT_STREQ("y", erase_then_at(true, 0, 0, &len, err, sizeof(err), b));
	EXPECT_STREQ("z", erase_then_at(true, 1, 1, &len, err, sizeof(err), b));
	EXPECT_STREQ("y", erase_then_at(true, -3, 0, &len, err, sizeof(err), b));
	EXPECT_EQ(NULL, erase_then_at(true, 3, 0, &len, err, sizeof(err), b));
	EXPECT_NE(NULL, strstr(err, "node er (SequenceErase): position 3 out of range"))
		TH_LOG("%s", err);
	EXPECT_EQ(NULL, erase_then_at(true, -4, 0, &len, err, sizeof(err), b));
	EXPECT_NE(NULL, strstr(err, "out of range")) TH_LOG("%s", err);
}

TEST(erase_from_empty_refused)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "";

	NODE(&g, "e", "SequenceEmpty", "->", "s0");
	NODE(&g, "er", "SequenceErase", "s0", "->", "s1");
	NODE(&g, "l", "SequenceLength", "s1", "->", "len");
	tg_output(&g, "len");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "the sequence is empty")) TH_LOG("%s", err);
	ir_free(&g);
}

TEST(concat_from_sequence)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "";
	int n;

	xyz(&g);
	NODE(&g, "c", "SequenceConstruct", "x", "y", "z", "->", "s");
	n = NODE(&g, "cat", "ConcatFromSequence", "s", "->", "out");
	ir_set_attr_int(&g.nodes[n], "axis", 1);
	n = NODE(&g, "stk", "ConcatFromSequence", "s", "->", "out2");
	ir_set_attr_int(&g.nodes[n], "axis", -1);
	ir_set_attr_int(&g.nodes[n], "new_axis", 1);
	tg_output(&g, "out");
	tg_output(&g, "out2");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	expect_dims(_metadata, tg_t(&g, "out"), 3, DIMS(2, 9, 4));
	/* new_axis: -1 is after the last dim */
	expect_dims(_metadata, tg_t(&g, "out2"), 4, DIMS(2, 3, 4, 3));
	EXPECT_EQ(2, tg_live(&g, "Concat"));
	EXPECT_EQ(3, tg_live(&g, "Unsqueeze"));
	EXPECT_EQ(0, tg_live(&g, "ConcatFromSequence"));
	EXPECT_EQ(0, tg_live(&g, "SequenceConstruct"));
	EXPECT_EQ(3, g.nodes[g.tensors[ir_find_tensor(&g, "out")].producer].nin);
	ir_free(&g);
}

TEST(concat_axis_out_of_range)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "";
	int n;

	xyz(&g);
	NODE(&g, "c", "SequenceConstruct", "x", "y", "->", "s");
	n = NODE(&g, "cat", "ConcatFromSequence", "s", "->", "out");
	ir_set_attr_int(&g.nodes[n], "axis", 3);	/* ok only with new_axis */
	tg_output(&g, "out");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "axis 3 out of range")) TH_LOG("%s", err);
	ir_free(&g);
}

/*
 * SplitToSequence of x [2,3,4] on axis with split (NULL: none, else
 * rank-0 or 1-D of nsplit values) and keepdims; the length and the
 * dims of element at.
 */
static int split_case(struct __test_metadata *_metadata, int64_t opset,
		      int64_t axis, const int64_t *split, int split_rank,
		      int64_t nsplit, int64_t keepdims, int64_t at,
		      int64_t *len, struct ir_tensor *elem, char *err,
		      size_t errlen)
{
	struct ir_graph g = { .opset = opset };
	int n, r;

	tg_input(&g, "x", F32, 3, DIMS(2, 3, 4));
	pos_const(&g, "at", at);
	if (split) {
		tg_const(&g, "sp", I64, split_rank, &nsplit, split);
		n = NODE(&g, "sts", "SplitToSequence", "x", "sp", "->", "s");
	} else {
		n = NODE(&g, "sts", "SplitToSequence", "x", "->", "s");
	}
	ir_set_attr_int(&g.nodes[n], "axis", axis);
	ir_set_attr_int(&g.nodes[n], "keepdims", keepdims);
	NODE(&g, "a", "SequenceAt", "s", "at", "->", "out");
	NODE(&g, "l", "SequenceLength", "s", "->", "len");
	tg_output(&g, "out");
	tg_output(&g, "len");
	r = ir_infer(&g, err, errlen);
	if (!r) {
		*len = *(int64_t *)tg_t(&g, "len")->data;
		*elem = *tg_t(&g, "out");
		EXPECT_EQ(1, tg_live(&g, "Split"));
		EXPECT_EQ(0, tg_live(&g, "SplitToSequence"));
	}
	ir_free(&g);
	return r;
}

TEST(split_to_sequence)
{
	struct ir_tensor e;
	char err[256] = "";
	int64_t len = 0, three = 3, sizes[3] = { 1, 2, 1 };

	/* no split: chunks of 1; keepdims=0 squeezes them */
	ASSERT_EQ(0, split_case(_metadata, 17, 0, NULL, 0, 0, 0, 1, &len, &e,
				err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(2, len);
	expect_dims(_metadata, &e, 2, DIMS(3, 4));
	ASSERT_EQ(0, split_case(_metadata, 17, -1, NULL, 0, 0, 1, 0, &len, &e,
				err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(4, len);
	expect_dims(_metadata, &e, 3, DIMS(2, 3, 1));
	/* a scalar split: equal chunks, the last one shorter */
	ASSERT_EQ(0, split_case(_metadata, 17, 2, &three, 0, 1, 0, -1, &len,
				&e, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(2, len);
	expect_dims(_metadata, &e, 3, DIMS(2, 3, 1));	/* not squeezed */
	/* 1-D split: the given sizes; the opset 11 form too */
	ASSERT_EQ(0, split_case(_metadata, 11, 2, sizes, 1, 3, 1, 1, &len, &e,
				err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(3, len);
	expect_dims(_metadata, &e, 3, DIMS(2, 3, 2));
	ASSERT_EQ(0, split_case(_metadata, 11, 0, NULL, 0, 0, 0, 0, &len, &e,
				err, sizeof(err))) TH_LOG("%s", err);
	expect_dims(_metadata, &e, 2, DIMS(3, 4));
}

TEST(split_refusals)
{
	struct ir_tensor e;
	char err[256] = "";
	int64_t len, zero = 0, bad[2] = { 1, 2 };

	EXPECT_EQ(-1, split_case(_metadata, 17, 2, bad, 1, 2, 1, 0, &len, &e,
				 err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "add up to 3, dim is 4")) TH_LOG("%s", err);
	EXPECT_EQ(-1, split_case(_metadata, 17, 2, &zero, 0, 1, 1, 0, &len, &e,
				 err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "must be positive")) TH_LOG("%s", err);
	EXPECT_EQ(-1, split_case(_metadata, 17, 3, NULL, 0, 0, 1, 0, &len, &e,
				 err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "axis 3 out of range")) TH_LOG("%s", err);
}

TEST(position_not_known_at_compile_time)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "", buf[64];

	xyz(&g);
	tg_input(&g, "p", I64, 0, NULL);
	NODE(&g, "c", "SequenceConstruct", "x", "y", "->", "s");
	NODE(&g, "a", "SequenceAt", "s", "p", "->", "out");
	tg_output(&g, "out");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "known at compile time")) TH_LOG("%s", err);
	EXPECT_STREQ("p", ir_needs_str(&g, buf, sizeof(buf)));
	ir_free(&g);
}

TEST(sequence_graph_output_refused)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "";

	xyz(&g);
	NODE(&g, "c", "SequenceConstruct", "x", "y", "->", "s");
	tg_output(&g, "s");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "sequence graph output is not supported"))
		TH_LOG("%s", err);
	ir_free(&g);
}

TEST(tensor_where_sequence_expected_refused)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "";

	xyz(&g);
	pos_const(&g, "at", 0);
	NODE(&g, "a", "SequenceAt", "x", "at", "->", "out");
	tg_output(&g, "out");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "input x is not a sequence")) TH_LOG("%s", err);
	ir_free(&g);
}

TEST(mixed_dtypes_refused)
{
	struct ir_graph g = { .opset = 17 };
	char err[256] = "";

	xyz(&g);
	tg_input(&g, "i", I64, 1, DIMS(2));
	NODE(&g, "c", "SequenceConstruct", "x", "i", "->", "s");
	NODE(&g, "l", "SequenceLength", "s", "->", "len");
	tg_output(&g, "len");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "element i is")) TH_LOG("%s", err);
	ir_free(&g);
}

TEST_HARNESS_MAIN
