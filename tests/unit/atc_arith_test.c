// SPDX-License-Identifier: MIT
/*
 * Host tests of the integer, logic and mixed-type arithmetic of atc
 * (lib/compile/infer_arith.c, lower_arith.c): the tasks each node becomes
 * (variadic chains accumulating in the output, Pow across types through
 * CASTs, integer Div and the wider dtypes straight to the device), their
 * attributes, and every inference rule that refuses a node.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "infer_util.h"
#include "kselftest_harness.h"
#include "atc_lower_fixture.h"

#define F32 DRM_VNPU_DTYPE_FLOAT
#define I32 DRM_VNPU_DTYPE_INT32
#define I64 DRM_VNPU_DTYPE_INT64
#define U16 DRM_VNPU_DTYPE_UINT16
#define F64 DRM_VNPU_DTYPE_DOUBLE
#define BOOL DRM_VNPU_DTYPE_BOOL

/* nin inputs of dtype dt and dims d[k] -> op -> y [ry dims dy] of dtype ydt. */
static int graph(struct ir_graph *g, const char *op, int nin, int dt,
		 const int64_t (*d)[2], int ry, const int64_t *dy, int ydt)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	int in[4], k, y;

	for (k = 0; k < nin; k++)
		in[k] = input_dt(g, names[k], dt, 2, d[k]);
	y = output_dt(g, "y", ydt, ry, dy);
	return gb_node(g, "n", op, nin, in, y);
}

TEST_F(g, sum_of_three_accumulates_in_the_output)
{
	static const int64_t d[3][2] = { { 2, 3 }, { 1, 3 }, { 2, 1 } };

	graph(&self->g, "Sum", 3, F32, d, 2, d[0], F32);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(2, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_ADD, self->b.nodes[0].op);
	EXPECT_EQ(DRM_VNPU_OP_ADD, self->b.nodes[1].op);
	/* the second ADD reads the output and c broadcast along dim 1 */
	EXPECT_EQ(T(self, 0, 2)->loc, T(self, 1, 0)->loc);
	EXPECT_EQ(T(self, 1, 2)->loc, T(self, 1, 0)->loc);
	EXPECT_EQ(0, T(self, 1, 1)->strides[1]);
	EXPECT_EQ(3, T(self, 1, 1)->shape[1]);
}

TEST_F(g, mean_divides_by_the_count_max_of_one_copies)
{
	static const int64_t d[2][2] = { { 2, 3 }, { 2, 3 } };
	float two;

	graph(&self->g, "Mean", 2, F32, d, 2, d[0], F32);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(2, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_ADD, self->b.nodes[0].op);
	EXPECT_EQ(DRM_VNPU_OP_DIV, self->b.nodes[1].op);
	EXPECT_EQ(OM_LOC_WEIGHT, T(self, 1, 1)->loc);
	memcpy(&two, self->b.weights + T(self, 1, 1)->offset, 4);
	EXPECT_EQ(2.0f, two);
	EXPECT_EQ(0, T(self, 1, 1)->strides[0]);
	gb_free(&self->g);
	gb_init(&self->g);
	om_build_free(&self->b);
	ASSERT_EQ(0, om_build_init(&self->b));
	graph(&self->g, "Max", 1, I32, d, 2, d[0], I32);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(1, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_STRIDED_COPY, self->b.nodes[0].op);
}

TEST_F(g, pow_int_base_float_exponent_goes_through_double)
{
	static const int64_t d[2][2] = { { 2, 3 }, { 2, 3 } };
	int n = graph(&self->g, "Pow", 2, I32, d, 2, d[0], I32);

	self->g.tensors[self->g.nodes[n].inputs[1]].dtype = F32;
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(4, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_CAST, self->b.nodes[0].op);
	EXPECT_EQ(F64, T(self, 0, 1)->dtype);
	EXPECT_EQ(DRM_VNPU_OP_CAST, self->b.nodes[1].op);
	EXPECT_EQ(DRM_VNPU_OP_POW, self->b.nodes[2].op);
	EXPECT_EQ(F64, T(self, 2, 2)->dtype);
	EXPECT_EQ(DRM_VNPU_OP_CAST, self->b.nodes[3].op);
	EXPECT_EQ(I32, T(self, 3, 1)->dtype);
	/* a float base: only the exponent is converted */
	self->g.tensors[self->g.nodes[n].inputs[0]].dtype = F32;
	self->g.tensors[self->g.nodes[n].inputs[1]].dtype = I64;
	self->g.tensors[self->g.nodes[n].outputs[0]].dtype = F32;
	om_build_free(&self->b);
	ASSERT_EQ(0, om_build_init(&self->b));
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(2, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_CAST, self->b.nodes[0].op);
	EXPECT_EQ(F32, T(self, 0, 1)->dtype);
	EXPECT_EQ(DRM_VNPU_OP_POW, self->b.nodes[1].op);
}

TEST_F(g, integer_div_and_wide_dtypes_go_to_the_device)
{
	static const int64_t d[2][2] = { { 2, 3 }, { 1, 3 } };
	int n = graph(&self->g, "Div", 2, I32, d, 2, d[0], I32);

	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(1, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_DIV, self->b.nodes[0].op);	/* no CAST to float */
	self->g.nodes[n].op_type = "Add";
	for (int k = 0; k < 2; k++)
		self->g.tensors[self->g.nodes[n].inputs[k]].dtype = U16;
	self->g.tensors[self->g.nodes[n].outputs[0]].dtype = U16;
	om_build_free(&self->b);
	ASSERT_EQ(0, om_build_init(&self->b));
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	ASSERT_EQ(1, self->b.nnodes);
	EXPECT_EQ(DRM_VNPU_OP_ADD, self->b.nodes[0].op);
	EXPECT_EQ(U16, T(self, 0, 2)->dtype);
}

TEST_F(g, attributes_of_mod_bitshift_isinf)
{
	static const int64_t d[2][2] = { { 2, 3 }, { 2, 3 } };
	int n = graph(&self->g, "Mod", 2, I32, d, 2, d[0], I32);

	gb_int(&self->g, n, "fmod", 1);
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_MOD, self->b.nodes[0].op);
	EXPECT_EQ(1, self->b.nodes[0].ints[0]);
	self->g.nodes[n].op_type = "BitShift";
	self->g.nodes[n].attrs[0].kind = IR_ATTR_STRING;
	self->g.nodes[n].attrs[0].name = "direction";
	self->g.nodes[n].attrs[0].s = "RIGHT";
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_BITSHIFT, self->b.nodes[1].op);
	EXPECT_EQ(1, self->b.nodes[1].ints[0]);
	self->g.nodes[n].attrs[0].s = "LEFT";
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(0, self->b.nodes[2].ints[0]);
	/* IsInf: detect_negative 0 leaves +Inf only */
	self->g.nodes[n].op_type = "IsInf";
	self->g.nodes[n].nin = 1;
	self->g.nodes[n].attrs[0].kind = IR_ATTR_INT;
	self->g.nodes[n].attrs[0].name = "detect_negative";
	self->g.nodes[n].attrs[0].i = 0;
	self->g.tensors[self->g.nodes[n].inputs[0]].dtype = F32;
	self->g.tensors[self->g.nodes[n].outputs[0]].dtype = BOOL;
	ASSERT_EQ(0, run(self)) TH_LOG("%s", self->err);
	EXPECT_EQ(DRM_VNPU_OP_ISINF, self->b.nodes[3].op);
	EXPECT_EQ(1, self->b.nodes[3].ints[0]);
}

/* Inference of one node over inputs of dtypes a and b; its result. */
static int infer_one(FIXTURE_DATA(g) *self, const char *op, int a, int b,
		     int (*fn)(struct ir_graph *, struct ir_node *, char *, size_t))
{
	static const int64_t d[2][2] = { { 2, 3 }, { 2, 3 } };
	int n, ret;

	gb_free(&self->g);
	gb_init(&self->g);
	n = graph(&self->g, op, b < 0 ? 1 : 2, a, d, 2, d[0], -1);
	if (b >= 0)
		self->g.tensors[self->g.nodes[n].inputs[1]].dtype = b;
	self->err[0] = 0;
	ret = fn(&self->g, &self->g.nodes[n], self->err, sizeof(self->err));
	return ret;
}

TEST_F(g, inference_rules_and_refusals)
{
	ASSERT_EQ(0, infer_one(self, "And", BOOL, BOOL, infer_logical));
	EXPECT_EQ(BOOL, self->g.tensors[self->g.nodes[0].outputs[0]].dtype);
	EXPECT_EQ(-1, infer_one(self, "Or", F32, BOOL, infer_logical));
	EXPECT_NE(NULL, strstr(self->err, "takes bool"));
	/* BitShift: a direction, integers */
	EXPECT_EQ(-1, infer_one(self, "BitShift", U16, U16, infer_bitshift));
	EXPECT_NE(NULL, strstr(self->err, "direction"));
	gb_str(&self->g, 0, "direction", "UP");
	EXPECT_EQ(-1, infer_bitshift(&self->g, &self->g.nodes[0], self->err,
				     sizeof(self->err)));
	self->g.nodes[0].attrs[0].s = "LEFT";
	EXPECT_EQ(0, infer_bitshift(&self->g, &self->g.nodes[0], self->err,
				    sizeof(self->err)));
	self->g.tensors[self->g.nodes[0].inputs[0]].dtype = F32;
	self->g.tensors[self->g.nodes[0].inputs[1]].dtype = F32;
	EXPECT_EQ(-1, infer_bitshift(&self->g, &self->g.nodes[0], self->err,
				     sizeof(self->err)));
	EXPECT_NE(NULL, strstr(self->err, "takes integers"));
	/* Mod: fmod 0 only for integers, never bool, fmod 0 or 1 */
	EXPECT_EQ(0, infer_one(self, "Mod", I32, I32, infer_mod));
	EXPECT_EQ(-1, infer_one(self, "Mod", F32, F32, infer_mod));
	EXPECT_NE(NULL, strstr(self->err, "fmod=0 needs integers"));
	gb_int(&self->g, 0, "fmod", 1);
	EXPECT_EQ(0, infer_mod(&self->g, &self->g.nodes[0], self->err,
			       sizeof(self->err)));
	self->g.nodes[0].attrs[0].i = 2;
	EXPECT_EQ(-1, infer_mod(&self->g, &self->g.nodes[0], self->err,
				sizeof(self->err)));
	EXPECT_EQ(-1, infer_one(self, "Mod", BOOL, BOOL, infer_mod));
	/* IsInf/IsNaN: floats, bool out; Mean: floats */
	ASSERT_EQ(0, infer_one(self, "IsInf", F64, -1, infer_float_test));
	EXPECT_EQ(BOOL, self->g.tensors[self->g.nodes[0].outputs[0]].dtype);
	EXPECT_EQ(-1, infer_one(self, "IsNaN", I32, -1, infer_float_test));
	EXPECT_EQ(-1, infer_one(self, "Mean", I64, I64, infer_mean));
	EXPECT_EQ(0, infer_one(self, "Mean", F64, F64, infer_mean));
	/* CastLike: the second input's dtype */
	ASSERT_EQ(0, infer_one(self, "CastLike", F32, F64, infer_castlike));
	EXPECT_EQ(F64, self->g.tensors[self->g.nodes[0].outputs[0]].dtype);
	/* to STRING (a host node); a dtype with no element size is refused */
	ASSERT_EQ(0, infer_one(self, "CastLike", F32, 13 /* ACL_STRING */, infer_castlike));
	EXPECT_EQ(13, self->g.tensors[self->g.nodes[0].outputs[0]].dtype);
	EXPECT_EQ(-1, infer_one(self, "CastLike", F32, 5 /* no such dtype */, infer_castlike));
}

TEST_HARNESS_MAIN
