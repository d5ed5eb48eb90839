// SPDX-License-Identifier: MIT
/*
 * Host tests of lib/compile/lower_window.c and of the inference it relies
 * on: which pools go to POOL_ND and with which attributes (indices,
 * asymmetric pads), DepthToSpace / SpaceToDepth as one copy between 6-D
 * views, Resize's scales as float bits and its roi input, quantization
 * parameters, inputs given out of order, ConvTranspose's output_shape
 * turned into pads.
 */
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "infer_util.h"
#include "kselftest_harness.h"

#define ATC_LOWER_OPSET 13
#include "atc_lower_fixture.h"

#define F32 0
#define I8 2
#define U8 4
#define I64 9

TEST_F(g, pools_with_indices_or_asymmetric_pads_go_to_pool_nd)
{
	static const int64_t dx[] = { 1, 2, 5, 5 }, dy[] = { 1, 2, 3, 3 };
	static const int64_t k[] = { 2, 2 }, pads[] = { 1, 0, 0, 1 };
	int n = one_node(&self->g, "MaxPool", 4, dx, 4, dy, F32), ix;
	struct ir_node *nd = &self->g.nodes[n];

	gb_ints(&self->g, n, "kernel_shape", k, 2);
	gb_ints(&self->g, n, "strides", k, 2);
	gb_ints(&self->g, n, "pads", pads, 4);
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_POOL_ND, self->b.nodes[0].op);
	EXPECT_EQ(1u, self->b.nodes[0].num_outputs);
	EXPECT_EQ(0, self->b.nodes[0].ints[0]);		/* max */
	EXPECT_EQ(2, self->b.nodes[0].ints[4]);		/* window */
	EXPECT_EQ(2, self->b.nodes[0].ints[7]);		/* stride */
	EXPECT_EQ(1, self->b.nodes[0].ints[10]);	/* top */
	EXPECT_EQ(0, self->b.nodes[0].ints[11]);	/* left */
	EXPECT_EQ(0, self->b.nodes[0].ints[13]);	/* bottom */
	EXPECT_EQ(1, self->b.nodes[0].ints[14]);	/* right */
	EXPECT_EQ(1, self->b.nodes[0].ints[16]);	/* dilation */
	/* the indices output: a second INT64 output, column-major asked */
	ix = gb_tensor(&self->g, "i", 4, dy, -1e31f);
	self->g.tensors[ix].dtype = I64;
	gb_output(&self->g, ix);
	nd->outputs = realloc(nd->outputs, 2 * sizeof(int));
	nd->outputs[1] = ix;
	nd->nout = 2;
	gb_int(&self->g, n, "storage_order", 1);
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_POOL_ND, self->b.nodes[1].op);
	EXPECT_EQ(2u, self->b.nodes[1].num_outputs);
	EXPECT_EQ(1, self->b.nodes[1].ints[3]);
	EXPECT_EQ((uint32_t)I64, T(self, 1, 2)->dtype);
	/* GlobalMaxPool: the whole plane as the window */
	nd->op_type = "GlobalMaxPool";
	nd->nout = 1;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_POOL_ND, self->b.nodes[2].op);
	EXPECT_EQ(5, self->b.nodes[2].ints[4]);
	EXPECT_EQ(5, self->b.nodes[2].ints[5]);
}

TEST_F(g, depth_to_space_and_back_are_one_copy)
{
	static const int64_t dd[] = { 1, 8, 3, 3 }, dw[] = { 1, 2, 6, 6 };
	static const int64_t crd[] = { 72, 36, 3, 18, 1, 9 };
	static const int64_t dcr[] = { 72, 9, 3, 36, 1, 18 };
	static const int64_t wide[] = { 72, 36, 12, 6, 2, 1 };
	int n = one_node(&self->g, "DepthToSpace", 4, dd, 4, dw, F32), i;

	gb_int(&self->g, n, "blocksize", 2);
	ASSERT_EQ(0, run(self));
	ASSERT_EQ(1u, self->r.node_count);
	EXPECT_EQ(DRM_VNPU_OP_STRIDED_COPY, self->b.nodes[0].op);
	ASSERT_EQ(6u, T(self, 0, 0)->rank);
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(dcr[i], T(self, 0, 0)->strides[i]);	/* DCR default */
		EXPECT_EQ(wide[i], T(self, 0, 1)->strides[i]);
	}
	gb_str(&self->g, n, "mode", strdup("CRD"));
	ASSERT_EQ(0, run(self));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(crd[i], T(self, 1, 0)->strides[i]);
	/* SpaceToDepth reads the wide side and writes DCR order */
	self->g.nodes[n].op_type = "SpaceToDepth";
	self->g.nodes[n].nattrs = 1;
	memcpy(self->g.tensors[0].dims, dw, sizeof(dw));
	memcpy(self->g.tensors[1].dims, dd, sizeof(dd));
	ASSERT_EQ(0, run(self));
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(wide[i], T(self, 2, 0)->strides[i]);
		EXPECT_EQ(dcr[i], T(self, 2, 1)->strides[i]);
	}
}

TEST_F(g, resize_scales_bits_and_roi)
{
	static const int64_t dx[] = { 1, 1, 4, 4 }, dy[] = { 1, 1, 2, 2 };
	static const float sc[] = { 1, 1, 0.6f, 0.6f }, roi[8] = { 0 };
	int n = one_node(&self->g, "Resize", 4, dx, 4, dy, F32), s, r;
	struct ir_node *nd = &self->g.nodes[n];
	uint32_t bits;

	s = gb_const(&self->g, "scales", F32, 1, 4, sc, 4);
	r = gb_const(&self->g, "roi", F32, 1, 8, roi, 4);
	nd->inputs = realloc(nd->inputs, 3 * sizeof(int));
	nd->inputs[1] = -1;
	nd->inputs[2] = s;
	nd->nin = 3;
	gb_str(&self->g, n, "mode", strdup("cubic"));
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_RESIZE_ND, self->b.nodes[0].op);
	EXPECT_EQ(2, self->b.nodes[0].ints[0]);
	EXPECT_EQ(1u, self->b.nodes[0].num_inputs);
	memcpy(&bits, &sc[2], 4);
	EXPECT_EQ(bits, self->b.nodes[0].ints[8 + 2]);	/* 0.6, not 2 / 4 */
	/* tf_crop_and_resize reads the roi as a second input */
	nd->inputs[1] = r;
	gb_str(&self->g, n, "coordinate_transformation_mode",
	       strdup("tf_crop_and_resize"));
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(5, self->b.nodes[1].ints[1]);
	EXPECT_EQ(2u, self->b.nodes[1].num_inputs);
	/* Upsample (and Resize before opset 11): asymmetric, floor */
	nd->op_type = "Upsample";
	nd->inputs[2] = -1;
	nd->inputs[1] = s;
	self->g.nodes[n].nattrs = 0;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(3, self->b.nodes[2].ints[1]);
	EXPECT_EQ(2, self->b.nodes[2].ints[2]);
	EXPECT_EQ(bits, self->b.nodes[2].ints[8 + 3]);
}

TEST_F(g, quantization_parameters_and_input_gaps)
{
	static const int64_t dx[] = { 2, 3 };
	float scale = 0.5f;
	uint8_t zp = 3;
	int n = one_node(&self->g, "QuantizeLinear", 2, dx, 2, dx, U8), s, z, b;
	struct ir_node *nd = &self->g.nodes[n];

	s = gb_const(&self->g, "s", F32, 0, 1, &scale, 4);
	z = gb_const(&self->g, "z", U8, 0, 1, &zp, 1);
	nd->inputs = realloc(nd->inputs, 4 * sizeof(int));
	nd->inputs[1] = s;
	nd->inputs[2] = z;
	nd->nin = 3;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_QUANTIZE_LINEAR, self->b.nodes[0].op);
	EXPECT_EQ(3u, self->b.nodes[0].num_inputs);
	/* scalars travel as one-element vectors */
	EXPECT_EQ(1u, T(self, 0, 1)->rank);
	EXPECT_EQ(1, T(self, 0, 1)->shape[0]);
	EXPECT_EQ(1u, T(self, 0, 2)->rank);
	EXPECT_EQ(1, self->b.nodes[0].ints[0]);	/* axis */
	/* MatMulInteger with b's zero point but not a's cannot be numbered */
	self->g.tensors[0].dtype = U8;
	b = gb_input(&self->g, "b", 2, (int64_t[]){ 3, 1 });
	self->g.tensors[b].dtype = U8;
	self->g.tensors[1].dtype = 3;
	self->g.tensors[1].dims[1] = 1;
	nd->op_type = "MatMulInteger";
	nd->inputs[1] = b;
	nd->inputs[2] = -1;
	nd->inputs[3] = z;
	nd->nin = 4;
	EXPECT_EQ(-1, run(self));
	EXPECT_NE(NULL, strstr(self->err, "input 3 is given without input 2"));
	nd->inputs[2] = z;
	ASSERT_EQ(0, run(self));
	EXPECT_EQ(DRM_VNPU_OP_MATMUL_INT, self->b.nodes[1].op);
	EXPECT_EQ(4u, self->b.nodes[1].num_inputs);
}

TEST(conv_transpose_output_shape_becomes_pads)
{
	static const int64_t dx[] = { 1, 1, 3, 3 }, dw[] = { 1, 2, 3, 3 };
	static const int64_t st[] = { 3, 2 }, os[] = { 10, 8 };
	struct ir_graph g;
	char err[256];
	const struct ir_attr *p;
	int x, w, y, n;

	gb_init(&g);
	g.opset = 11;
	x = gb_input(&g, "x", 4, dx);
	w = gb_input(&g, "w", 4, dw);
	y = gb_tensor(&g, "y", 0, dx, -1e31f);
	n = gb_node(&g, "n", "ConvTranspose", 2, (int[]){ x, w }, y);
	gb_ints(&g, n, "strides", st, 2);
	gb_ints(&g, n, "output_shape", os, 2);
	ASSERT_EQ(0, infer_conv_transpose(&g, &g.nodes[n], err, sizeof(err)));
	EXPECT_EQ(10, g.tensors[y].dims[2]);
	EXPECT_EQ(8, g.tensors[y].dims[3]);
	/* natural sizes 9 x 7: no pads, one extra row and column */
	p = ir_attr(&g.nodes[n], "pads");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, p->ints[0] | p->ints[1] | p->ints[2] | p->ints[3]);
	/* smaller than natural: the difference is split, more at the start */
	g.nodes[n].attrs[1].ints[0] = 7;
	g.nodes[n].attrs[1].ints[1] = 6;
	ASSERT_EQ(0, infer_conv_transpose(&g, &g.nodes[n], err, sizeof(err)));
	p = ir_attr(&g.nodes[n], "pads");
	EXPECT_EQ(1, p->ints[0]);	/* 9 - 7 = 2: 1 and 1 */
	EXPECT_EQ(1, p->ints[2]);
	EXPECT_EQ(1, p->ints[1]);	/* 7 - 6 = 1: 1 at the start */
	EXPECT_EQ(0, p->ints[3]);
	gb_free(&g);
}

TEST_HARNESS_MAIN
