// SPDX-License-Identifier: MIT
/*
 * Host tests of atc's front end: the command line (every option, the
 * required ones, unknown, repeated and bad values named) and the ONNX
 * reader (a model built and packed with protobuf-c decodes to the same
 * graph; every truncation and a flipped byte at every offset is either a
 * clean error or a model, never a crash).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atc_options.h"
#include "onnx_model.h"
#include "kselftest_harness.h"

static int parse(const char *const *args, struct atc_options *o, char *err)
{
	char *argv[16];
	int argc = 0;

	argv[argc++] = "atc";
	while (*args)
		argv[argc++] = (char *)*args++;
	return atc_parse_options(argc, argv, o, err, 256);
}

TEST(options_all_known)
{
	const char *a[] = { "--model=m.onnx", "--framework=5", "--output=out",
			    "--soc_version=Ascend310P3",
			    "--input_shape=x:1,3,224,224;y:1", "--input_format=NCHW",
			    "--output_type=FP32", "--precision_mode=force_fp32",
			    "--dynamic_batch_size=1,2,4,8", "--log=error",
			    "--insert_op_conf=aipp.cfg", NULL };
	struct atc_options o;
	char err[256] = "";

	ASSERT_EQ(0, parse(a, &o, err));
	EXPECT_STREQ("m.onnx", o.model);
	EXPECT_EQ(5, o.framework);
	EXPECT_STREQ("out", o.output);
	EXPECT_STREQ("Ascend310P3", o.soc_version);
	EXPECT_STREQ("x:1,3,224,224;y:1", o.input_shape);
	EXPECT_STREQ("NCHW", o.input_format);
	EXPECT_STREQ("FP32", o.output_type);
	EXPECT_STREQ("force_fp32", o.precision_mode);
	EXPECT_STREQ("1,2,4,8", o.dynamic_batch_size);
	EXPECT_STREQ("error", o.log);
	EXPECT_STREQ("aipp.cfg", o.insert_op_conf);
}

TEST(options_rejections_name_the_option)
{
	static const struct {
		const char *args[6];
		const char *says;
	} cases[] = {
		{ { "--framework=5", "--output=o", "--soc_version=s", NULL }, "--model" },
		{ { "--model=m", "--output=o", "--soc_version=s", NULL }, "--framework" },
		{ { "--model=m", "--framework=5", "--soc_version=s", NULL }, "--output" },
		{ { "--model=m", "--framework=5", "--output=o", NULL }, "--soc_version" },
		{ { "--model=m", "--framework=0", "--output=o", "--soc_version=s", NULL }, "--framework=0" },
		{ { "--model=m", "--framework=5x", "--output=o", "--soc_version=s", NULL }, "--framework=5x" },
		{ { "--model=m", "--model=n", NULL }, "--model is given twice" },
		{ { "--model=", NULL }, "--model needs a value" },
		{ { "--fusion_switch_file=a.cfg", NULL }, "--fusion_switch_file" },
		{ { "--singleop=o.json", "--insert_op_conf=a.cfg", "--output=o",
		    "--soc_version=s", NULL }, "--insert_op_conf" },
		{ { "--model=m", "--insert_op_conf=", NULL }, "--insert_op_conf needs a value" },
		{ { "--mode", NULL }, "--mode" },
		{ { "model.onnx", NULL }, "model.onnx" },
		{ { "--input_format=NC1HWC0", NULL }, "--input_format=NC1HWC0" },
		{ { "--log=loud", NULL }, "--log=loud" },
	};
	struct atc_options o;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "";

		EXPECT_EQ(-1, parse(cases[i].args, &o, err));
		EXPECT_NE(NULL, strstr(err, cases[i].says))
			TH_LOG("case %zu: '%s' does not name '%s'", i, err, cases[i].says);
	}
}

/* A two-node graph: y = Relu(Add(a, b)). */
static uint8_t *pack_model(size_t *len)
{
	Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
	Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
	Onnx__NodeProto add = ONNX__NODE_PROTO__INIT, relu = ONNX__NODE_PROTO__INIT;
	Onnx__NodeProto *nodes[2] = { &add, &relu };
	char *add_in[2] = { "a", "b" }, *add_out[1] = { "t" };
	char *relu_in[1] = { "t" }, *relu_out[1] = { "y" };
	uint8_t *buf;

	add.op_type = "Add";
	add.name = "add0";
	add.n_input = 2;
	add.input = add_in;
	add.n_output = 1;
	add.output = add_out;
	relu.op_type = "Relu";
	relu.name = "relu0";
	relu.n_input = 1;
	relu.input = relu_in;
	relu.n_output = 1;
	relu.output = relu_out;
	g.name = "g";
	g.n_node = 2;
	g.node = nodes;
	m.has_ir_version = 1;
	m.ir_version = 8;
	m.graph = &g;
	*len = onnx__model_proto__get_packed_size(&m);
	buf = malloc(*len);
	onnx__model_proto__pack(&m, buf);
	return buf;
}

TEST(onnx_decode_round_trip)
{
	size_t len;
	uint8_t *buf = pack_model(&len);
	char err[256] = "";
	Onnx__ModelProto *m = onnx_model_decode(buf, len, err, sizeof(err));

	ASSERT_NE(NULL, m) TH_LOG("%s", err);
	ASSERT_EQ(2, m->graph->n_node);
	EXPECT_STREQ("Add", m->graph->node[0]->op_type);
	EXPECT_STREQ("relu0", m->graph->node[1]->name);
	EXPECT_STREQ("t", m->graph->node[1]->input[0]);
	EXPECT_EQ(8, m->ir_version);
	onnx_model_free(m);
	free(buf);
}

TEST(onnx_decode_rejects_empty_and_graphless)
{
	Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
	uint8_t buf[16] = { 0 };
	char err[256] = "";
	size_t len;

	EXPECT_EQ(NULL, onnx_model_decode(buf, 0, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "empty"));
	m.has_ir_version = 1;
	m.ir_version = 8;
	len = onnx__model_proto__pack(&m, buf);
	EXPECT_EQ(NULL, onnx_model_decode(buf, len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "no graph"));
}

/* Every prefix and every single-byte corruption: an error or a model. */
TEST(onnx_decode_survives_truncation_and_corruption)
{
	size_t len, i, rejected = 0;
	uint8_t *buf = pack_model(&len), *bad = malloc(len);
	char err[256];

	for (i = 1; i < len; i++) {
		Onnx__ModelProto *m = onnx_model_decode(buf, i, err, sizeof(err));

		rejected += !m;
		onnx_model_free(m);
	}
	/* cut inside the graph: the graph field is incomplete */
	EXPECT_EQ(len - 1, rejected);
	for (i = 0; i < len; i++) {
		Onnx__ModelProto *m;

		memcpy(bad, buf, len);
		bad[i] ^= 0xa5;
		m = onnx_model_decode(bad, len, err, sizeof(err));
		onnx_model_free(m);
	}
	free(bad);
	free(buf);
}

TEST(onnx_load_names_the_file)
{
	char err[512] = "", path[] = "/tmp/atc_onnx_testXXXXXX";
	int fd = mkstemp(path);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(5, write(fd, "hello", 5));
	close(fd);
	EXPECT_EQ(NULL, onnx_model_load(path, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, path));
	EXPECT_NE(NULL, strstr(err, "not a valid ONNX model"));
	unlink(path);
	EXPECT_EQ(NULL, onnx_model_load("/nonexistent/m.onnx", err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "cannot open /nonexistent/m.onnx"));
}

TEST_HARNESS_MAIN
