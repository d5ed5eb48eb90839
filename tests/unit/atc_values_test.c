// SPDX-License-Identifier: MIT
/*
 * atc's compile-time values (a vnpu extension): a model whose Reshape
 * takes its shape from a graph input fails with the line naming that
 * input; --input_values freezes it from a TensorProto file, the input
 * leaves the compiled model and the result runs on the host; every bad
 * --input_values is refused with a message naming what is wrong. Also
 * ir_need_value's record: graph inputs only, each once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atc_compile.h"
#include "ir.h"
#include "onnx_model.h"
#include "om_host_exec.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

static const int64_t D_X[] = { 2, 3, 4 }, D_S[] = { 2 }, D_Y[] = { 4, 6 };
static const int64_t SHAPE[] = { 4, 6 }, THREE[] = { 2, 3, 4 };

static Onnx__ValueInfoProto *value(const char *name, int elem, int rank,
				   const int64_t *dims)
{
	Onnx__ValueInfoProto *v = calloc(1, sizeof(*v));
	Onnx__TypeProto *t = calloc(1, sizeof(*t));
	Onnx__TypeProto__Tensor *tt = calloc(1, sizeof(*tt));
	Onnx__TensorShapeProto *sh = calloc(1, sizeof(*sh));
	int i;

	onnx__value_info_proto__init(v);
	onnx__type_proto__init(t);
	onnx__type_proto__tensor__init(tt);
	onnx__tensor_shape_proto__init(sh);
	sh->n_dim = (size_t)rank;
	sh->dim = calloc((size_t)rank, sizeof(*sh->dim));
	for (i = 0; i < rank; i++) {
		sh->dim[i] = calloc(1, sizeof(*sh->dim[i]));
		onnx__tensor_shape_proto__dimension__init(sh->dim[i]);
		sh->dim[i]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		sh->dim[i]->dim_value = dims[i];
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

static int write_bytes(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(buf, 1, len, f) == len;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

/* y = Relu(Reshape(x, shape)), shape a graph input (INT64 [2]). */
static int write_model(const char *path)
{
	static const char *rin[] = { "x", "shape" }, *uin[] = { "r" };
	static char *rout[] = { "r" }, *uout[] = { "y" };
	Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
	Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
	Onnx__OperatorSetIdProto ops = ONNX__OPERATOR_SET_ID_PROTO__INIT, *opsp = &ops;
	Onnx__NodeProto reshape = ONNX__NODE_PROTO__INIT, relu = ONNX__NODE_PROTO__INIT;
	Onnx__NodeProto *nodes[] = { &reshape, &relu };
	Onnx__ValueInfoProto *in[2], *out;
	uint8_t *buf;
	size_t len;
	int ret;

	reshape.name = "reshape";
	reshape.op_type = "Reshape";
	reshape.n_input = 2;
	reshape.input = (char **)rin;
	reshape.n_output = 1;
	reshape.output = rout;
	relu.name = "relu";
	relu.op_type = "Relu";
	relu.n_input = 1;
	relu.input = (char **)uin;
	relu.n_output = 1;
	relu.output = uout;
	in[0] = value("x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 3, D_X);
	in[1] = value("shape", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 1, D_S);
	out = value("y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 2, D_Y);
	g.name = "values";
	g.n_node = 2;
	g.node = nodes;
	g.n_input = 2;
	g.input = in;
	g.n_output = 1;
	g.output = &out;
	ops.domain = "";
	ops.has_version = 1;
	ops.version = 13;
	m.has_ir_version = 1;
	m.ir_version = 8;
	m.n_opset_import = 1;
	m.opset_import = &opsp;
	m.graph = &g;
	len = onnx__model_proto__get_packed_size(&m);
	buf = malloc(len);
	onnx__model_proto__pack(&m, buf);
	ret = write_bytes(path, buf, len);
	free(buf);
	return ret;
}

/* A TensorProto file of n int64 values (or floats when as_float). */
static int write_tensor(const char *path, const int64_t *v, size_t n, bool as_float)
{
	Onnx__TensorProto t = ONNX__TENSOR_PROTO__INIT;
	int64_t dims[1] = { (int64_t)n };
	float f[8];
	uint8_t *buf;
	size_t len, i;
	int ret;

	t.name = "ignored";
	t.n_dims = 1;
	t.dims = dims;
	t.has_data_type = 1;
	if (as_float) {
		for (i = 0; i < n; i++)
			f[i] = (float)v[i];
		t.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
		t.n_float_data = n;
		t.float_data = f;
	} else {
		t.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
		t.n_int64_data = n;
		t.int64_data = (int64_t *)v;
	}
	len = onnx__tensor_proto__get_packed_size(&t);
	buf = malloc(len);
	onnx__tensor_proto__pack(&t, buf);
	ret = write_bytes(path, buf, len);
	free(buf);
	return ret;
}

FIXTURE(values) {
	char dir[64];
	char model[128], out[128], shape_pb[128], float_pb[128], junk[128], three_pb[128];
	char spec[512], log[128];
	struct atc_options o;
};

FIXTURE_SETUP(values)
{
	static const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0x0f };

	strcpy(self->dir, "/tmp/atc_values_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->model, sizeof(self->model), "%s/model.onnx", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/m", self->dir);
	snprintf(self->shape_pb, sizeof(self->shape_pb), "%s/shape.pb", self->dir);
	snprintf(self->float_pb, sizeof(self->float_pb), "%s/float.pb", self->dir);
	snprintf(self->junk, sizeof(self->junk), "%s/junk.pb", self->dir);
	snprintf(self->three_pb, sizeof(self->three_pb), "%s/three.pb", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/stderr", self->dir);
	ASSERT_EQ(0, write_model(self->model));
	ASSERT_EQ(0, write_tensor(self->shape_pb, SHAPE, 2, false));
	ASSERT_EQ(0, write_tensor(self->float_pb, SHAPE, 2, true));
	ASSERT_EQ(0, write_bytes(self->junk, junk, sizeof(junk)));
	ASSERT_EQ(0, write_tensor(self->three_pb, THREE, 3, false));
	memset(&self->o, 0, sizeof(self->o));
	self->o.model = self->model;
	self->o.framework = ATC_FRAMEWORK_ONNX;
	self->o.output = self->out;
	self->o.soc_version = "Ascend910B";
}

FIXTURE_TEARDOWN(values)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", self->dir);
}

/* atc_compile with its stderr captured into log; returns its status. */
static int compile_logged(struct atc_options *o, const char *log, char *text,
			  size_t len)
{
	int saved = dup(2), fd, ret;
	FILE *f;
	size_t n;

	fflush(stderr);
	fd = fileno(fopen(log, "w"));
	dup2(fd, 2);
	close(fd);
	ret = atc_compile(o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(log, "r");
	n = f ? fread(text, 1, len - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
	return ret;
}

TEST_F(values, names_the_input_it_needs)
{
	char text[4096], path[160];

	EXPECT_EQ(ATC_BAD_MODEL, compile_logged(&self->o, self->log, text, sizeof(text)));
	EXPECT_NE(NULL, strstr(text, "\natc: inputs needed at compile time: shape\n"))
		TH_LOG("stderr: %s", text);
	/* named once, and only the input a pass needed (not x) */
	EXPECT_EQ(NULL, strstr(text, "compile time: shape,"));
	snprintf(path, sizeof(path), "%s.om", self->out);
	EXPECT_NE(0, access(path, F_OK));
}

TEST_F(values, frozen_input_leaves_the_model_and_runs)
{
	static const char name[] = "x";
	struct om_exec x;
	const struct om_io *io;
	const char *strs;
	char text[4096], path[160];
	float in[24], y[24];
	void *bufs[2] = { in, y };
	uint8_t *file;
	FILE *f;
	long len;
	int i;

	snprintf(self->spec, sizeof(self->spec), "shape:%s", self->shape_pb);
	self->o.input_values = self->spec;
	ASSERT_EQ(ATC_OK, compile_logged(&self->o, self->log, text, sizeof(text)))
		TH_LOG("stderr: %s", text);
	EXPECT_EQ(NULL, strstr(text, "inputs needed"));
	snprintf(path, sizeof(path), "%s.om", self->out);
	f = fopen(path, "rb");
	ASSERT_NE(NULL, f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	file = aligned_alloc(64, ((size_t)len + 63) & ~(size_t)63);
	ASSERT_EQ((size_t)len, fread(file, 1, (size_t)len, f));
	fclose(f);
	ASSERT_EQ(0, omx_open(&x, file, (size_t)len));
	/* one input (x), one output (y of 4x6): shape is compiled in */
	ASSERT_EQ(2u, x.sec[OM_SEC_IO]->count);
	io = omx_sec(&x, OM_SEC_IO);
	strs = omx_sec(&x, OM_SEC_STRINGS);
	EXPECT_STREQ(name, strs + io[0].name);
	EXPECT_EQ(0u, io[0].flags & OM_IO_OUTPUT);
	EXPECT_EQ(OM_IO_OUTPUT, io[1].flags & OM_IO_OUTPUT);
	ASSERT_EQ(2u, io[1].rank);
	EXPECT_EQ(4, io[1].dims[0]);
	EXPECT_EQ(6, io[1].dims[1]);
	for (i = 0; i < 24; i++)
		in[i] = (float)(i - 12) * 0.5f;
	memset(y, 0xff, sizeof(y));
	ASSERT_EQ(0, omx_run(&x, 0, bufs));
	for (i = 0; i < 24; i++)
		EXPECT_EQ(in[i] > 0 ? in[i] : 0.0f, y[i]);
	free(file);
}

/* Each bad --input_values: usage status, a message naming it, no .om. */
TEST_F(values, bad_values_are_refused_by_name)
{
	struct {
		const char *fmt;	/* %s: a file */
		const char *file;
		const char *says;
	} cases[] = {
		{ "nosuch:%s", self->shape_pb, "the model has no input named nosuch" },
		{ "x:%s", self->float_pb, "x: the value's dims [2] are not the input's" },
		{ "shape:%s", self->float_pb, "shape holds ONNX data type 1, the model's input has 7" },
		{ "shape:%s", self->junk, "is not a TensorProto" },
		{ "shape:%s", self->three_pb, "shape: the value's dims [3] are not the input's" },
		{ "shape:%s/none.pb", self->dir, "cannot open" },
		{ "shape%s", "", "is not name:file.pb" },
		{ ":%s", self->shape_pb, "is not name:file.pb" },
		{ "shape:%s", "", "is not name:file.pb" },
	};
	char text[4096], path[160];
	size_t i;

	snprintf(path, sizeof(path), "%s.om", self->out);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(self->spec, sizeof(self->spec), cases[i].fmt, cases[i].file);
		self->o.input_values = self->spec;
		EXPECT_EQ(ATC_BAD_USAGE,
			  compile_logged(&self->o, self->log, text, sizeof(text)))
			TH_LOG("case %zu: %s", i, self->spec);
		EXPECT_NE(NULL, strstr(text, cases[i].says))
			TH_LOG("case %zu: %s", i, text);
		EXPECT_NE(NULL, strstr(text, "--input_values"));
		EXPECT_NE(0, access(path, F_OK));
	}
}

TEST(option_is_parsed)
{
	char *argv[] = { "atc", "--model=m.onnx", "--framework=5", "--output=o",
			 "--soc_version=Ascend910B", "--input_values=a:a.pb;b:b.pb" };
	char *twice[] = { "atc", "--model=m.onnx", "--framework=5", "--output=o",
			  "--soc_version=Ascend910B", "--input_values=a:a.pb",
			  "--input_values=b:b.pb" };
	char *empty[] = { "atc", "--model=m.onnx", "--framework=5", "--output=o",
			  "--soc_version=Ascend910B", "--input_values=" };
	struct atc_options o;
	char err[256];

	ASSERT_EQ(0, atc_parse_options(6, argv, &o, err, sizeof(err)));
	EXPECT_STREQ("a:a.pb;b:b.pb", o.input_values);
	EXPECT_EQ(-1, atc_parse_options(7, twice, &o, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "--input_values is given twice"));
	EXPECT_EQ(-1, atc_parse_options(6, empty, &o, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "--input_values needs a value"));
}

TEST(need_record_keeps_graph_inputs_once)
{
	struct ir_graph g;
	char buf[64];
	int a, b, c;

	memset(&g, 0, sizeof(g));
	a = ir_add_tensor(&g, "a");
	b = ir_add_tensor(&g, "b");
	c = ir_add_tensor(&g, "c");
	ASSERT_GE(c, 0);
	g.tensors[a].input_index = 0;
	g.tensors[b].input_index = 1;
	g.tensors[c].input_index = -1;	/* an intermediate tensor */
	ASSERT_EQ(0, ir_set_data(&g, b, "\1\0\0\0\0\0\0\0", 8));	/* has a value */
	ir_need_value(&g, a);
	ir_need_value(&g, b);
	ir_need_value(&g, c);
	ir_need_value(&g, a);
	ir_need_value(&g, -1);
	ir_need_value(&g, 99);
	EXPECT_EQ(1, g.nneed);
	EXPECT_STREQ("a", ir_needs_str(&g, buf, sizeof(buf)));
	g.tensors[c].input_index = 2;
	ir_need_value(&g, c);
	EXPECT_STREQ("a, c", ir_needs_str(&g, buf, sizeof(buf)));
	ir_free(&g);
	EXPECT_EQ(0, g.nneed);
	EXPECT_EQ(NULL, g.need);
}

/* A value computed from graph inputs names those inputs (Range's limit). */
TEST(need_record_follows_producers)
{
	struct ir_graph g;
	char buf[64];
	int x, k, s, t, cast, add;

	memset(&g, 0, sizeof(g));
	x = ir_add_tensor(&g, "x");
	k = ir_add_tensor(&g, "k");
	s = ir_add_tensor(&g, "s");
	t = ir_add_tensor(&g, "t");
	ASSERT_GE(t, 0);
	g.tensors[x].input_index = 0;
	g.tensors[k].input_index = 1;
	ASSERT_EQ(0, ir_set_data(&g, k, "\1\0\0\0", 4));	/* has a value */
	g.tensors[s].input_index = g.tensors[t].input_index = -1;
	cast = ir_add_node(&g, "cast", "Cast", 1, 1);
	add = ir_add_node(&g, "add", "Add", 2, 1);
	ASSERT_GE(add, 0);
	g.nodes[cast].inputs[0] = x;
	g.nodes[cast].outputs[0] = s;
	g.tensors[s].producer = cast;
	g.nodes[add].inputs[0] = s;
	g.nodes[add].inputs[1] = k;
	g.nodes[add].outputs[0] = t;
	g.tensors[t].producer = add;
	/* t = Cast(x) + k: x is needed, k has its value */
	ir_need_value(&g, t);
	EXPECT_EQ(1, g.nneed);
	EXPECT_STREQ("x", ir_needs_str(&g, buf, sizeof(buf)));
	ir_free(&g);
}

TEST_HARNESS_MAIN
