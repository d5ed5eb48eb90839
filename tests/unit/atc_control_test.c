// SPDX-License-Identifier: MIT
/*
 * Control flow read into plain operators (tools/atc/ir_control.c): Scan
 * unrolled over its sequence length, a counted Loop unrolled, If as both
 * branches and a Where; Scan's opset 8 form unrolled per batch element;
 * what is not expanded (opset 8 sequence lengths below the maximum or not
 * constant, a Loop whose trip count is not a constant) refused or left
 * for the supported-op check, with the trip count named as needed at
 * compile time.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "onnx_import.h"
#include "onnx.pb-c.h"
#include "kselftest_harness.h"

static void *zalloc(size_t n)
{
	return calloc(1, n);
}

static Onnx__ValueInfoProto *value(const char *name, int elem, int rank,
				   const int64_t *dims)
{
	Onnx__ValueInfoProto *v = zalloc(sizeof(*v));
	Onnx__TypeProto *t = zalloc(sizeof(*t));
	Onnx__TypeProto__Tensor *tt = zalloc(sizeof(*tt));
	Onnx__TensorShapeProto *sh = zalloc(sizeof(*sh));

	onnx__value_info_proto__init(v);
	onnx__type_proto__init(t);
	onnx__type_proto__tensor__init(tt);
	onnx__tensor_shape_proto__init(sh);
	sh->n_dim = (size_t)rank;
	sh->dim = zalloc((size_t)(rank + 1) * sizeof(*sh->dim));
	for (int i = 0; i < rank; i++) {
		Onnx__TensorShapeProto__Dimension *d = zalloc(sizeof(*d));

		onnx__tensor_shape_proto__dimension__init(d);
		d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		d->dim_value = dims[i];
		sh->dim[i] = d;
	}
	tt->has_elem_type = 1;
	tt->elem_type = elem;
	tt->shape = sh;
	t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	t->tensor_type = tt;
	v->name = (char *)name;
	v->type = t;
	return v;
}

/* A scalar INT64 or BOOL initializer. */
static Onnx__TensorProto *scalar(const char *name, int elem, int64_t v)
{
	Onnx__TensorProto *t = zalloc(sizeof(*t));

	onnx__tensor_proto__init(t);
	t->name = (char *)name;
	t->has_data_type = 1;
	t->data_type = elem;
	if (elem == ONNX__TENSOR_PROTO__DATA_TYPE__INT64) {
		t->n_int64_data = 1;
		t->int64_data = zalloc(sizeof(int64_t));
		t->int64_data[0] = v;
	} else {
		t->n_int32_data = 1;
		t->int32_data = zalloc(sizeof(int32_t));
		t->int32_data[0] = (int32_t)v;
	}
	return t;
}

static Onnx__NodeProto *node(const char *op, int nin, const char **in, int nout,
			     const char **out)
{
	Onnx__NodeProto *n = zalloc(sizeof(*n));

	onnx__node_proto__init(n);
	n->name = (char *)op;
	n->op_type = (char *)op;
	n->n_input = (size_t)nin;
	n->input = (char **)in;
	n->n_output = (size_t)nout;
	n->output = (char **)out;
	return n;
}

static void attr(Onnx__NodeProto *n, Onnx__AttributeProto *a)
{
	n->attribute = realloc(n->attribute, (n->n_attribute + 1) * sizeof(a));
	n->attribute[n->n_attribute++] = a;
}

static void int_attr(Onnx__NodeProto *n, const char *name, int64_t v)
{
	Onnx__AttributeProto *a = zalloc(sizeof(*a));

	onnx__attribute_proto__init(a);
	a->name = (char *)name;
	a->has_type = 1;
	a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
	a->has_i = 1;
	a->i = v;
	attr(n, a);
}

static void graph_attr(Onnx__NodeProto *n, const char *name, Onnx__GraphProto *g)
{
	Onnx__AttributeProto *a = zalloc(sizeof(*a));

	onnx__attribute_proto__init(a);
	a->name = (char *)name;
	a->has_type = 1;
	a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
	a->g = g;
	attr(n, a);
}

static Onnx__GraphProto *graph(void)
{
	Onnx__GraphProto *g = zalloc(sizeof(*g));

	onnx__graph_proto__init(g);
	g->name = "g";
	g->node = zalloc(16 * sizeof(*g->node));
	g->input = zalloc(16 * sizeof(*g->input));
	g->output = zalloc(16 * sizeof(*g->output));
	g->initializer = zalloc(16 * sizeof(*g->initializer));
	return g;
}

static Onnx__ModelProto *model(Onnx__GraphProto *g, int64_t opset)
{
	Onnx__ModelProto *m = zalloc(sizeof(*m));
	Onnx__OperatorSetIdProto *o = zalloc(sizeof(*o));

	onnx__model_proto__init(m);
	onnx__operator_set_id_proto__init(o);
	o->domain = "";
	o->has_version = 1;
	o->version = opset;
	m->n_opset_import = 1;
	m->opset_import = zalloc(sizeof(o));
	m->opset_import[0] = o;
	m->graph = g;
	return m;
}

static int count(const struct ir_graph *g, const char *op)
{
	int n = 0;

	for (int i = 0; i < g->nnodes; i++)
		n += !g->nodes[i].dead && !strcmp(g->nodes[i].op_type, op);
	return n;
}

#define F ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define B ONNX__TENSOR_PROTO__DATA_TYPE__BOOL
#define I ONNX__TENSOR_PROTO__DATA_TYPE__INT64

/* y = initial + sum of x's rows, z = the running sums (x [3, 2]). */
static Onnx__ModelProto *scan_model(int64_t opset)
{
	static const char *add_in[] = { "sum_in", "next" }, *add_out[] = { "sum_out" };
	static const char *id_in[] = { "sum_out" }, *id_out[] = { "scan_out" };
	static const char *s_in[] = { "initial", "x" }, *s_out[] = { "y", "z" };
	Onnx__GraphProto *b = graph(), *g = graph();
	Onnx__NodeProto *s;

	b->node[b->n_node++] = node("Add", 2, add_in, 1, add_out);
	b->node[b->n_node++] = node("Identity", 1, id_in, 1, id_out);
	b->input[b->n_input++] = value("sum_in", F, 1, (int64_t[]){ 2 });
	b->input[b->n_input++] = value("next", F, 1, (int64_t[]){ 2 });
	b->output[b->n_output++] = value("sum_out", F, 1, (int64_t[]){ 2 });
	b->output[b->n_output++] = value("scan_out", F, 1, (int64_t[]){ 2 });
	s = node("Scan", 2, s_in, 2, s_out);
	graph_attr(s, "body", b);
	int_attr(s, "num_scan_inputs", 1);
	g->node[g->n_node++] = s;
	g->input[g->n_input++] = value("initial", F, 1, (int64_t[]){ 2 });
	g->input[g->n_input++] = value("x", F, 2, (int64_t[]){ 3, 2 });
	g->output[g->n_output++] = value("y", F, 1, (int64_t[]){ 2 });
	g->output[g->n_output++] = value("z", F, 2, (int64_t[]){ 3, 2 });
	return model(g, opset);
}

TEST(scan_is_unrolled)
{
	struct ir_graph g;
	struct ir_fuse_stats st;
	char err[512];
	int z;

	ASSERT_EQ(0, ir_from_onnx(scan_model(9), &g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, count(&g, "Scan"));
	EXPECT_EQ(3, count(&g, "Gather"));
	EXPECT_EQ(3, count(&g, "Add"));
	EXPECT_EQ(3, count(&g, "Unsqueeze"));
	EXPECT_EQ(1, count(&g, "Concat"));
	ir_free(&g);
	ASSERT_EQ(0, ir_front_end(scan_model(9), NULL, 0, &g, &st, err, sizeof(err)))
		TH_LOG("%s", err);
	z = g.outputs[1];
	EXPECT_EQ(2, g.tensors[z].rank);
	EXPECT_EQ(3, g.tensors[z].dims[0]);
	EXPECT_EQ(2, g.tensors[z].dims[1]);
	ir_free(&g);
	/* the opset 8 form (batch axis, sequence lengths) is refused by name */
	EXPECT_EQ(-1, ir_from_onnx(scan_model(8), &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "opset 8"));
}

/*
 * Scan's opset 8 form: initial [2, 2] and x [2, 3, 2] carry batch axis 0
 * (x's sequence on axis 1); lens: 0 none, 1 a constant [3, 3], 2 a
 * constant [3, 1], 3 a graph input. x is scanned in reverse when rev.
 */
static Onnx__ModelProto *scan8_model(int lens, bool rev)
{
	static const char *add_in[] = { "sum_in", "next" }, *add_out[] = { "sum_out" };
	static const char *id_in[] = { "sum_out" }, *id_out[] = { "scan_out" };
	static const char *s_in[] = { "lens", "initial", "x" }, *s_in0[] = { "", "initial", "x" };
	static const char *s_out[] = { "y", "z" };
	Onnx__GraphProto *b = graph(), *g = graph();
	Onnx__NodeProto *s;

	b->node[b->n_node++] = node("Add", 2, add_in, 1, add_out);
	b->node[b->n_node++] = node("Identity", 1, id_in, 1, id_out);
	b->input[b->n_input++] = value("sum_in", F, 1, (int64_t[]){ 2 });
	b->input[b->n_input++] = value("next", F, 1, (int64_t[]){ 2 });
	b->output[b->n_output++] = value("sum_out", F, 1, (int64_t[]){ 2 });
	b->output[b->n_output++] = value("scan_out", F, 1, (int64_t[]){ 2 });
	s = node("Scan", 3, lens ? s_in : s_in0, 2, s_out);
	graph_attr(s, "body", b);
	int_attr(s, "num_scan_inputs", 1);
	if (rev) {
		Onnx__AttributeProto *a = zalloc(sizeof(*a));

		onnx__attribute_proto__init(a);
		a->name = "directions";
		a->has_type = 1;
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
		a->n_ints = 1;
		a->ints = zalloc(sizeof(int64_t));
		a->ints[0] = 1;
		attr(s, a);
	}
	g->node[g->n_node++] = s;
	if (lens == 1 || lens == 2) {
		Onnx__TensorProto *t = scalar("lens", I, 3);

		t->n_dims = 1;
		t->dims = zalloc(sizeof(int64_t));
		t->dims[0] = 2;
		t->n_int64_data = 2;
		t->int64_data = zalloc(2 * sizeof(int64_t));
		t->int64_data[0] = 3;
		t->int64_data[1] = lens == 1 ? 3 : 1;
		g->initializer[g->n_initializer++] = t;
	}
	if (lens == 3)
		g->input[g->n_input++] = value("lens", I, 1, (int64_t[]){ 2 });
	g->input[g->n_input++] = value("initial", F, 2, (int64_t[]){ 2, 2 });
	g->input[g->n_input++] = value("x", F, 3, (int64_t[]){ 2, 3, 2 });
	g->output[g->n_output++] = value("y", F, 2, (int64_t[]){ 2, 2 });
	g->output[g->n_output++] = value("z", F, 3, (int64_t[]){ 2, 3, 2 });
	return model(g, 8);
}

/* The step each Gather of x's batch-element slice takes, in node order. */
static void slice_steps(const struct ir_graph *g, int64_t *out, int max)
{
	int n = 0;

	for (int i = 0; i < g->nnodes && n < max; i++) {
		const struct ir_node *nd = &g->nodes[i];
		const struct ir_tensor *ix;

		if (strcmp(nd->op_type, "Gather") || !strstr(g->tensors[nd->outputs[0]].name, "slice"))
			continue;
		ix = &g->tensors[nd->inputs[1]];
		out[n++] = ix->data ? *(const int64_t *)ix->data : -1;
	}
}

TEST(scan_opset8_batch_unrolled)
{
	struct ir_graph g;
	struct ir_fuse_stats st;
	char err[512];
	int64_t steps[6];

	for (int lens = 0; lens <= 1; lens++) {
		ASSERT_EQ(0, ir_from_onnx(scan8_model(lens, false), &g, err, sizeof(err)))
			TH_LOG("%s", err);
		/* a body copy per batch element and step */
		EXPECT_EQ(0, count(&g, "Scan"));
		EXPECT_EQ(6, count(&g, "Add"));
		/* per element: state, input, 3 slices */
		EXPECT_EQ(10, count(&g, "Gather"));
		/* z per element, then y and z over the batch */
		EXPECT_EQ(4, count(&g, "Concat"));
		slice_steps(&g, steps, 6);
		EXPECT_EQ(0, steps[0]);
		EXPECT_EQ(2, steps[2]);
		ir_free(&g);
	}
	ASSERT_EQ(0, ir_front_end(scan8_model(0, false), NULL, 0, &g, &st, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(2, g.tensors[g.outputs[0]].rank);
	EXPECT_EQ(2, g.tensors[g.outputs[0]].dims[0]);
	EXPECT_EQ(2, g.tensors[g.outputs[0]].dims[1]);
	EXPECT_EQ(3, g.tensors[g.outputs[1]].rank);
	EXPECT_EQ(2, g.tensors[g.outputs[1]].dims[0]);
	EXPECT_EQ(3, g.tensors[g.outputs[1]].dims[1]);
	EXPECT_EQ(2, g.tensors[g.outputs[1]].dims[2]);
	ir_free(&g);
	/* reversed: the steps run 2, 1, 0 */
	ASSERT_EQ(0, ir_from_onnx(scan8_model(0, true), &g, err, sizeof(err))) TH_LOG("%s", err);
	slice_steps(&g, steps, 6);
	EXPECT_EQ(2, steps[0]);
	EXPECT_EQ(1, steps[1]);
	EXPECT_EQ(0, steps[2]);
	ir_free(&g);
}

TEST(scan_opset8_lengths_refused)
{
	struct ir_graph g;
	char err[512];

	EXPECT_EQ(-1, ir_from_onnx(scan8_model(2, false), &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "sequence_lens[1] is 1, not the maximum 3")) TH_LOG("%s", err);
	EXPECT_EQ(-1, ir_from_onnx(scan8_model(3, false), &g, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "sequence_lens lens must be known at compile time"))
		TH_LOG("%s", err);
}

/* res = y + 1 + 1 + ... (trips times): a counted Loop. */
static Onnx__ModelProto *loop_model(bool trips_const)
{
	static const char *c_in[] = { "cond_in" }, *c_out[] = { "cond_out" };
	static const char *a_in[] = { "y_in", "one" }, *a_out[] = { "y_out" };
	static const char *l_in[] = { "trips", "cond", "y" }, *l_out[] = { "res" };
	Onnx__GraphProto *b = graph(), *g = graph();
	Onnx__NodeProto *l;

	b->node[b->n_node++] = node("Identity", 1, c_in, 1, c_out);
	b->node[b->n_node++] = node("Add", 2, a_in, 1, a_out);
	b->input[b->n_input++] = value("iter", I, 0, NULL);
	b->input[b->n_input++] = value("cond_in", B, 0, NULL);
	b->input[b->n_input++] = value("y_in", F, 1, (int64_t[]){ 1 });
	b->output[b->n_output++] = value("cond_out", B, 0, NULL);
	b->output[b->n_output++] = value("y_out", F, 1, (int64_t[]){ 1 });
	l = node("Loop", 3, l_in, 1, l_out);
	graph_attr(l, "body", b);
	g->node[g->n_node++] = l;
	if (trips_const)
		g->initializer[g->n_initializer++] = scalar("trips", I, 4);
	else
		g->input[g->n_input++] = value("trips", I, 0, NULL);
	g->initializer[g->n_initializer++] = scalar("cond", B, 1);
	g->initializer[g->n_initializer++] = scalar("one", I, 0);
	g->initializer[g->n_initializer - 1]->data_type = I;
	g->input[g->n_input++] = value("y", F, 1, (int64_t[]){ 1 });
	g->output[g->n_output++] = value("res", F, 1, (int64_t[]){ 1 });
	return model(g, 11);
}

TEST(counted_loop_is_unrolled_else_left)
{
	struct ir_graph g;
	char err[512];

	ASSERT_EQ(0, ir_from_onnx(loop_model(true), &g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, count(&g, "Loop"));
	EXPECT_EQ(4, count(&g, "Add"));
	ir_free(&g);
	/* a trip count from a graph input: left a Loop, the input needed */
	ASSERT_EQ(0, ir_from_onnx(loop_model(false), &g, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, count(&g, "Loop"));
	ASSERT_EQ(1, g.nneed);
	EXPECT_STREQ("trips", g.need[0]);
	ir_free(&g);
}

/* res = cond ? a : b, each branch an Identity of an outer tensor. */
TEST(if_is_both_branches_and_where)
{
	static const char *t_in[] = { "a" }, *t_out[] = { "t" };
	static const char *e_in[] = { "b" }, *e_out[] = { "e" };
	static const char *i_in[] = { "cond" }, *i_out[] = { "res" };
	Onnx__GraphProto *tb = graph(), *eb = graph(), *g = graph();
	Onnx__NodeProto *n = node("If", 1, i_in, 1, i_out);
	struct ir_graph ig;
	char err[512];
	int w = -1;

	tb->node[tb->n_node++] = node("Identity", 1, t_in, 1, t_out);
	tb->output[tb->n_output++] = value("t", F, 1, (int64_t[]){ 3 });
	eb->node[eb->n_node++] = node("Identity", 1, e_in, 1, e_out);
	eb->output[eb->n_output++] = value("e", F, 1, (int64_t[]){ 3 });
	graph_attr(n, "then_branch", tb);
	graph_attr(n, "else_branch", eb);
	g->node[g->n_node++] = n;
	g->input[g->n_input++] = value("cond", B, 0, NULL);
	g->input[g->n_input++] = value("a", F, 1, (int64_t[]){ 3 });
	g->input[g->n_input++] = value("b", F, 1, (int64_t[]){ 3 });
	g->output[g->n_output++] = value("res", F, 1, (int64_t[]){ 3 });
	ASSERT_EQ(0, ir_from_onnx(model(g, 11), &ig, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0, count(&ig, "If"));
	EXPECT_EQ(1, count(&ig, "Where"));
	for (int i = 0; i < ig.nnodes; i++)
		if (!strcmp(ig.nodes[i].op_type, "Where"))
			w = i;
	ASSERT_LE(0, w);
	EXPECT_EQ(ir_find_tensor(&ig, "cond"), ig.nodes[w].inputs[0]);
	EXPECT_EQ(ig.outputs[0], ig.nodes[w].outputs[0]);
	/* the branches read the outer a and b */
	EXPECT_EQ(ir_find_tensor(&ig, "a"),
		  ig.nodes[ig.tensors[ig.nodes[w].inputs[1]].producer].inputs[0]);
	EXPECT_EQ(ir_find_tensor(&ig, "b"),
		  ig.nodes[ig.tensors[ig.nodes[w].inputs[2]].producer].inputs[0]);
	ir_free(&ig);
}

TEST_HARNESS_MAIN
