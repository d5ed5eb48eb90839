// SPDX-License-Identifier: MIT
/*
 * Inference and folding of the indexing and shape operators
 * (lib/compile/infer_index.c): output shapes and dtypes, Size and EyeLike
 * folded from shapes alone (also as graph outputs, which lowering then
 * copies from the weights), and every rule that refuses a node.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

#define I32T 3
#define F64T 11

static void expect_dims(struct __test_metadata *_metadata,
			const struct ir_tensor *t, int rank, const int64_t *dims)
{
	int i;

	ASSERT_EQ(rank, t->rank);
	for (i = 0; i < rank; i++)
		EXPECT_EQ(dims[i], t->dims[i]) TH_LOG("dim %d", i);
}

TEST(shapes_of_the_indexing_ops)
{
	int64_t depth = 6, rep[3] = { 2, 1, 3 };
	struct ir_graph g = { .opset = 16 };
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 3, DIMS(2, 4, 3));
	tg_input(&g, "i", I64, 3, DIMS(2, 5, 1));
	tg_input(&g, "j", I64, 2, DIMS(6, 2));
	tg_input(&g, "u", F32, 2, DIMS(6, 3));
	tg_input(&g, "v", I32T, 1, DIMS(2));
	tg_input(&g, "len", I64, 1, DIMS(4));
	tg_const(&g, "depth", I64, 0, NULL, &depth);
	tg_const(&g, "rep", I64, 1, DIMS(3), rep);
	n = NODE(&g, "gn", "GatherND", "x", "i", "->", "gn_y");
	ir_set_attr_int(&g.nodes[n], "batch_dims", 1);
	NODE(&g, "sn", "ScatterND", "x", "j", "u", "->", "sn_y");
	n = NODE(&g, "oh", "OneHot", "i", "depth", "v", "->", "oh_y");
	ir_set_attr_int(&g.nodes[n], "axis", 1);
	NODE(&g, "ti", "Tile", "x", "rep", "->", "ti_y");
	NODE(&g, "rs", "ReverseSequence", "x", "len", "->", "rs_y");
	n = NODE(&g, "ge", "GatherElements", "x", "i", "->", "ge_y");
	ir_set_attr_int(&g.nodes[n], "axis", 1);
	tg_output(&g, "gn_y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	expect_dims(_metadata, tg_t(&g, "gn_y"), 3, DIMS(2, 5, 3));
	expect_dims(_metadata, tg_t(&g, "sn_y"), 3, DIMS(2, 4, 3));
	expect_dims(_metadata, tg_t(&g, "oh_y"), 4, DIMS(2, 6, 5, 1));
	EXPECT_EQ(I32T, tg_t(&g, "oh_y")->dtype);	/* the values' dtype */
	expect_dims(_metadata, tg_t(&g, "ti_y"), 3, DIMS(4, 4, 9));
	expect_dims(_metadata, tg_t(&g, "rs_y"), 3, DIMS(2, 4, 3));
	expect_dims(_metadata, tg_t(&g, "ge_y"), 3, DIMS(2, 5, 1));
	ir_free(&g);
}

/* One node that inference must refuse with a message containing want. */
static void refuses(struct __test_metadata *_metadata, const char *op,
		    const char *attr, int64_t value, const char *want)
{
	int64_t one = 1, rep[2] = { 2, 2 };
	struct ir_graph g = { .opset = 16 };
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 3, DIMS(2, 4, 3));
	tg_input(&g, "i", I64, 2, DIMS(2, 4));
	tg_input(&g, "f", F32, 1, DIMS(2));
	tg_input(&g, "len", I64, 1, DIMS(3));
	tg_const(&g, "one", I64, 0, NULL, &one);
	tg_const(&g, "rep", I64, 1, DIMS(2), rep);
	if (!strcmp(op, "GatherND"))
		n = NODE(&g, "n", op, "x", "i", "->", "y");
	else if (!strcmp(op, "GatherElements"))
		n = NODE(&g, "n", op, "x", "f", "->", "y");
	else if (!strcmp(op, "ScatterND"))
		n = NODE(&g, "n", op, "x", "i", "x", "->", "y");
	else if (!strcmp(op, "OneHot"))
		n = NODE(&g, "n", op, "i", "len", "f", "->", "y");
	else if (!strcmp(op, "Tile"))
		n = NODE(&g, "n", op, "x", "rep", "->", "y");
	else if (!strcmp(op, "EyeLike"))
		n = NODE(&g, "n", op, "x", "->", "y");
	else
		n = NODE(&g, "n", op, "x", "len", "->", "y");
	if (attr)
		ir_set_attr_int(&g.nodes[n], attr, value);
	tg_output(&g, "y");
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", op);
	EXPECT_NE(NULL, strstr(err, want)) TH_LOG("%s: %s", op, err);
	ir_free(&g);
}

TEST(rejections)
{
	/* tuples of 4 into rank 3 */
	refuses(_metadata, "GatherND", NULL, 0, "tuples of 4 do not fit rank 3");
	refuses(_metadata, "GatherND", "batch_dims", 2, "batch_dims 2");
	refuses(_metadata, "GatherElements", NULL, 0, "are float32, not int32/int64");
	/* updates x [2, 4, 3] for tuples of 4: wrong rank */
	refuses(_metadata, "ScatterND", NULL, 0, "updates have rank 3");
	refuses(_metadata, "OneHot", NULL, 0, "depth (len) must be a constant scalar");
	refuses(_metadata, "Tile", NULL, 0, "repeats has 2 values for rank 3");
	refuses(_metadata, "ReverseSequence", NULL, 0, "sequence_lens must be int32/int64 of 4 values");
	refuses(_metadata, "ReverseSequence", "batch_axis", 0, "batch_axis and time_axis are the same");
	refuses(_metadata, "EyeLike", NULL, 0, "input rank is 3, not 2");
}

/*
 * Size, EyeLike (k = 1, dtype DOUBLE) and Shape computed from shapes:
 * folded even as graph outputs, and their producers gone.
 */
TEST(size_eye_like_shape_fold_as_outputs)
{
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	const double *eye;
	int n, i, j;

	tg_input(&g, "x", F32, 2, DIMS(3, 4));
	NODE(&g, "sz", "Size", "x", "->", "size");
	n = NODE(&g, "ey", "EyeLike", "x", "->", "eye");
	ir_set_attr_int(&g.nodes[n], "k", 1);
	ir_set_attr_int(&g.nodes[n], "dtype", 11);	/* ONNX DOUBLE */
	NODE(&g, "sh", "Shape", "x", "->", "shape");
	tg_output(&g, "size");
	tg_output(&g, "eye");
	tg_output(&g, "shape");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_LE(0, ir_fold(&g, err, sizeof(err)));
	EXPECT_EQ(0, tg_live(&g, "Size"));
	EXPECT_EQ(0, tg_live(&g, "EyeLike"));
	EXPECT_EQ(0, tg_live(&g, "Shape"));
	ASSERT_NE(NULL, tg_t(&g, "size")->data);
	EXPECT_EQ(0, tg_t(&g, "size")->rank);
	EXPECT_EQ(12, ((int64_t *)tg_t(&g, "size")->data)[0]);
	EXPECT_EQ(F64T, tg_t(&g, "eye")->dtype);
	eye = tg_t(&g, "eye")->data;
	ASSERT_NE(NULL, eye);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			EXPECT_EQ(j == i + 1 ? 1.0 : 0.0, eye[i * 4 + j]);
	EXPECT_EQ(4, ((int64_t *)tg_t(&g, "shape")->data)[1]);
	ir_free(&g);
}

/* Flatten's axis in [-rank, rank]: -1 of a rank-4 input is 3. */
TEST(flatten_negative_axis)
{
	struct ir_graph g = { .opset = 13 };
	char err[256] = "";
	int n;

	tg_input(&g, "x", F32, 4, DIMS(2, 3, 4, 5));
	n = NODE(&g, "fl", "Flatten", "x", "->", "y");
	ir_set_attr_int(&g.nodes[n], "axis", -1);
	tg_output(&g, "y");
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	expect_dims(_metadata, tg_t(&g, "y"), 2, DIMS(24, 5));
	g.nodes[n].attrs[0].i = -4;
	ASSERT_EQ(0, ir_infer(&g, err, sizeof(err))) TH_LOG("%s", err);
	expect_dims(_metadata, tg_t(&g, "y"), 2, DIMS(1, 120));
	g.nodes[n].attrs[0].i = -5;
	EXPECT_EQ(-1, ir_infer(&g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "axis -5 is outside [-4, 4]")) TH_LOG("%s", err);
	ir_free(&g);
}

TEST_HARNESS_MAIN
