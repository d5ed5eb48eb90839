// SPDX-License-Identifier: MIT
/*
 * ir_from_onnx: a model built with the protobuf-c structs, packed and
 * decoded, becomes the graph (inputs without initializers, outputs,
 * constants from raw_data and typed fields, attributes of each kind,
 * opset); undefined and duplicate names are errors naming the node.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "onnx_import.h"
#include "onnx_model.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

static Onnx__TensorShapeProto__Dimension dim_v[4], dim_p;
static Onnx__TensorShapeProto__Dimension *dimsp[4];

/* A one-node model: y = Op(x, w) with the given node input names. */
static Onnx__ModelProto *model(const char *in0, const char *in1,
			       const char *out, bool dup_init)
{
	static Onnx__ModelProto m;
	static Onnx__GraphProto gr;
	static Onnx__NodeProto node, *nodes[1];
	static Onnx__TensorProto w, h, *inits[3];
	static Onnx__ValueInfoProto x, winp, y, *ins[2], *outs[1];
	static Onnx__TypeProto tx;
	static Onnx__TypeProto__Tensor ttx;
	static Onnx__TensorShapeProto shp;
	static Onnx__AttributeProto af, ai, as, aints, afl, *attrs[5];
	static Onnx__OperatorSetIdProto ops, *opsp[1];
	static char *nin[2], *nout[1];
	static int64_t wd[1] = { 3 }, hd[1] = { 2 }, ints[3] = { 1, 2, 3 };
	static float wf[3] = { 1.5f, -2, 0.25f }, fl[2] = { 0.5f, 4 };
	static uint8_t hraw[4] = { 0x00, 0x3c, 0x00, 0xc0 };	/* 1, -2 */
	int i;

	onnx__model_proto__init(&m);
	onnx__graph_proto__init(&gr);
	onnx__node_proto__init(&node);
	onnx__tensor_proto__init(&w);
	onnx__tensor_proto__init(&h);
	onnx__operator_set_id_proto__init(&ops);
	ops.domain = "";
	ops.has_version = 1;
	ops.version = 13;
	opsp[0] = &ops;
	m.n_opset_import = 1;
	m.opset_import = opsp;
	m.graph = &gr;
	gr.name = "g";
	/* w: float typed field; h: float16 raw bytes */
	w.name = "w";
	w.has_data_type = 1;
	w.data_type = 1;
	w.n_dims = 1;
	w.dims = wd;
	w.n_float_data = 3;
	w.float_data = wf;
	h.name = dup_init ? "w" : "h";
	h.has_data_type = 1;
	h.data_type = 10;
	h.n_dims = 1;
	h.dims = hd;
	h.has_raw_data = 1;
	h.raw_data.len = 4;
	h.raw_data.data = hraw;
	inits[0] = &w;
	inits[1] = &h;
	gr.n_initializer = 2;
	gr.initializer = inits;
	/* inputs: x [N(dynamic),3] and w (an initializer, listed as input) */
	for (i = 0; i < 2; i++) {
		onnx__tensor_shape_proto__dimension__init(&dim_v[i]);
		dimsp[i] = &dim_v[i];
	}
	onnx__tensor_shape_proto__dimension__init(&dim_p);
	dim_p.value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
	dim_p.dim_param = "N";
	dimsp[0] = &dim_p;
	dim_v[1].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
	dim_v[1].dim_value = 3;
	onnx__tensor_shape_proto__init(&shp);
	shp.n_dim = 2;
	shp.dim = dimsp;
	onnx__type_proto__tensor__init(&ttx);
	ttx.has_elem_type = 1;
	ttx.elem_type = 1;
	ttx.shape = &shp;
	onnx__type_proto__init(&tx);
	tx.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	tx.tensor_type = &ttx;
	onnx__value_info_proto__init(&x);
	x.name = "x";
	x.type = &tx;
	onnx__value_info_proto__init(&winp);
	winp.name = "w";
	winp.type = &tx;
	ins[0] = &x;
	ins[1] = &winp;
	gr.n_input = 2;
	gr.input = ins;
	onnx__value_info_proto__init(&y);
	y.name = (char *)"y";
	outs[0] = &y;
	gr.n_output = 1;
	gr.output = outs;
	/* the node, with one attribute of each kind */
	nin[0] = (char *)in0;
	nin[1] = (char *)in1;
	nout[0] = (char *)out;
	node.name = "add0";
	node.op_type = "Add";
	node.n_input = 2;
	node.input = nin;
	node.n_output = 1;
	node.output = nout;
	onnx__attribute_proto__init(&af);
	af.name = "f";
	af.has_type = 1;
	af.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
	af.has_f = 1;
	af.f = 0.75f;
	onnx__attribute_proto__init(&ai);
	ai.name = "i";
	ai.has_type = 1;
	ai.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
	ai.has_i = 1;
	ai.i = -7;
	onnx__attribute_proto__init(&as);
	as.name = "s";
	as.has_type = 1;
	as.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
	as.has_s = 1;
	as.s.len = 5;
	as.s.data = (uint8_t *)"SAME!";
	onnx__attribute_proto__init(&aints);
	aints.name = "is";
	aints.has_type = 1;
	aints.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
	aints.n_ints = 3;
	aints.ints = ints;
	onnx__attribute_proto__init(&afl);
	afl.name = "fs";
	afl.has_type = 1;
	afl.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
	afl.n_floats = 2;
	afl.floats = fl;
	attrs[0] = &af;
	attrs[1] = &ai;
	attrs[2] = &as;
	attrs[3] = &aints;
	attrs[4] = &afl;
	node.n_attribute = 5;
	node.attribute = attrs;
	nodes[0] = &node;
	gr.n_node = 1;
	gr.node = nodes;
	return &m;
}

/* Pack and decode, as atc reads a file. */
static Onnx__ModelProto *roundtrip(Onnx__ModelProto *m)
{
	size_t len = onnx__model_proto__get_packed_size(m);
	uint8_t *buf = malloc(len);
	Onnx__ModelProto *d;
	char err[256];

	onnx__model_proto__pack(m, buf);
	d = onnx_model_decode(buf, len, err, sizeof(err));
	free(buf);
	return d;
}

TEST(graph_from_onnx)
{
	Onnx__ModelProto *m = roundtrip(model("x", "w", "y", false));
	struct ir_graph g;
	char err[256] = "";
	const struct ir_attr *a;
	struct ir_tensor *t;

	ASSERT_NE(NULL, m);
	ASSERT_EQ(0, ir_from_onnx(m, &g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(13, g.opset);
	ASSERT_EQ(1, g.ninputs);	/* w is an initializer */
	t = &g.tensors[g.inputs[0]];
	EXPECT_STREQ("x", t->name);
	EXPECT_EQ(2, t->rank);
	EXPECT_EQ(-1, t->dims[0]);
	EXPECT_EQ(3, t->dims[1]);
	EXPECT_TRUE(t->batched);
	t = tg_t(&g, "w");
	ASSERT_TRUE(ir_is_const(&g, ir_find_tensor(&g, "w")));
	EXPECT_EQ(F32, t->dtype);
	EXPECT_EQ(-2.0f, ((float *)t->data)[1]);
	t = tg_t(&g, "h");
	EXPECT_EQ(1, t->dtype);	/* float16 */
	EXPECT_EQ(1.0, ir_get_f64(t, 0));
	EXPECT_EQ(-2.0, ir_get_f64(t, 1));
	ASSERT_EQ(1, g.nnodes);
	EXPECT_STREQ("Add", g.nodes[0].op_type);
	EXPECT_EQ(ir_find_tensor(&g, "x"), g.nodes[0].inputs[0]);
	EXPECT_EQ(0.75f, ir_attr_float(&g.nodes[0], "f", 0));
	EXPECT_EQ(-7, ir_attr_int(&g.nodes[0], "i", 0));
	EXPECT_EQ(42, ir_attr_int(&g.nodes[0], "absent", 42));
	a = ir_attr(&g.nodes[0], "s");
	ASSERT_NE(NULL, a);
	EXPECT_STREQ("SAME!", a->s);
	a = ir_attr(&g.nodes[0], "is");
	ASSERT_EQ(3, a->count);
	EXPECT_EQ(3, a->ints[2]);
	a = ir_attr(&g.nodes[0], "fs");
	ASSERT_EQ(2, a->count);
	EXPECT_EQ(4.0f, a->floats[1]);
	ASSERT_EQ(1, g.noutputs);
	EXPECT_EQ(0, g.tensors[g.outputs[0]].output_index);
	EXPECT_EQ(0, g.tensors[g.outputs[0]].producer);
	ir_free(&g);
	onnx_model_free(m);
}

TEST(errors_name_the_culprit)
{
	static const struct {
		const char *in0, *out;
		bool dup;
		const char *says;
	} cases[] = {
		{ "nope", "y", false, "node add0 (Add): input nope is not defined" },
		{ "x", "x", false, "node add0 (Add): output x is already defined" },
		{ "x", "z", false, "graph output y is not produced" },
		{ "x", "y", true, "initializer w is defined twice" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		Onnx__ModelProto *m = roundtrip(model(cases[i].in0, "w", cases[i].out,
						      cases[i].dup));
		struct ir_graph g;
		char err[256] = "";

		ASSERT_NE(NULL, m);
		EXPECT_EQ(-1, ir_from_onnx(m, &g, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, cases[i].says))
			TH_LOG("case %zu: '%s'", i, err);
		EXPECT_EQ(0, g.nnodes);	/* freed */
		onnx_model_free(m);
	}
}

TEST(bad_constant_sizes)
{
	Onnx__ModelProto *src = model("x", "w", "y", false);
	Onnx__ModelProto *m;
	struct ir_graph g;
	char err[256] = "";

	src->graph->initializer[0]->n_float_data = 2;	/* dims say 3 */
	m = roundtrip(src);
	src->graph->initializer[0]->n_float_data = 3;
	EXPECT_EQ(-1, ir_from_onnx(m, &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "initializer w: holds 2 values, its dims need 3"))
		TH_LOG("%s", err);
	onnx_model_free(m);
	src->graph->initializer[1]->raw_data.len = 3;
	m = roundtrip(src);
	src->graph->initializer[1]->raw_data.len = 4;
	EXPECT_EQ(-1, ir_from_onnx(m, &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "initializer h: raw_data has 3 bytes, its dims need 4"))
		TH_LOG("%s", err);
	onnx_model_free(m);
	src->graph->initializer[0]->data_type = 8;	/* string */
	m = roundtrip(src);
	src->graph->initializer[0]->data_type = 1;
	EXPECT_EQ(-1, ir_from_onnx(m, &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "initializer w: string constants are not supported"))
		TH_LOG("%s", err);
	onnx_model_free(m);
	src->graph->initializer[0]->data_type = 14;	/* complex64 */
	m = roundtrip(src);
	src->graph->initializer[0]->data_type = 1;
	EXPECT_EQ(-1, ir_from_onnx(m, &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "initializer w: tensor data type 14 is not supported"))
		TH_LOG("%s", err);
	onnx_model_free(m);
}

TEST(helpers)
{
	struct ir_graph g = { 0 };
	int64_t d[2] = { 2, 3 };
	int32_t v[6] = { 1, 2, 3, 4, 5, 6 };
	int c;

	c = ir_add_const(&g, "k", 3, 2, d, v);
	ASSERT_LE(0, c);
	EXPECT_EQ(-1, ir_add_tensor(&g, "k"));	/* names are unique */
	EXPECT_LT(c, ir_add_const(&g, "k", 3, 2, d, v));	/* k_1 */
	EXPECT_LE(0, ir_find_tensor(&g, "k_1"));
	EXPECT_EQ(6, ir_numel(&g.tensors[c]));
	EXPECT_EQ(24, g.tensors[c].nbytes);
	EXPECT_EQ(5, ir_get_i64(&g.tensors[c], 4));
	EXPECT_EQ(4, ir_dtype_size(3));
	EXPECT_EQ(2, ir_dtype_size(1));
	EXPECT_EQ(8, ir_dtype_size(9));
	EXPECT_EQ(0, ir_dtype_size(5));
	EXPECT_EQ(0, ir_dtype_from_onnx(1));
	EXPECT_EQ(9, ir_dtype_from_onnx(7));
	EXPECT_EQ(13, ir_dtype_from_onnx(8));	/* STRING: host ops only */
	EXPECT_EQ(-2, ir_dtype_from_onnx(14));
	EXPECT_FALSE(ir_is_const(&g, ir_add_tensor(&g, "plain")));
	ir_free(&g);
}

TEST_HARNESS_MAIN
