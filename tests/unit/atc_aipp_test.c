// SPDX-License-Identifier: MIT
/*
 * atc --insert_op_conf (Documentation/aipp.md) on the host:
 *
 * - the aipp.cfg reader: CANN's sample configuration read field by field,
 *   CANN's defaults, comments and both block spellings, and every error
 *   (unknown, repeated, missing or out-of-range keys, unsupported
 *   formats, static keys in a dynamic block, ...) naming its line;
 * - the compiler: a Conv+Relu ONNX model built here compiled with and
 *   without a static configuration (NV12 -> RGB with the samples' matrix,
 *   mean, min and var; then crop, resize and padding too): the image
 *   input replaces the float one under the same name, the AIPP task comes
 *   first, the .om's AIPP record holds the parameters and the loader's
 *   validation accepts the file; run on the host (operator library), the
 *   AIPP model fed an NV12 image gives what the plain model gives for the
 *   image preprocessed here by a separate implementation of the formula;
 * - dynamic AIPP: the extra input ascend_dynamic_aipp_data, parameters
 *   given at run time for two different crops, bad ones refused;
 * - configurations that do not fit the model fail with atc's usage
 *   status and write no file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm/vnpu_accel.h>

#include "aipp_cfg.h"
#include "atc_compile.h"
#include "om_build.h"
#include "onnx_model.h"
#include "om_host_exec.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

static float bf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t fb(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* ------------------------------------------------------------ reader */

#define SAMPLE_CFG \
	"# the ResNet sample's configuration\n" \
	"aipp_op{\n" \
	"    aipp_mode:static\n" \
	"    input_format : YUV420SP_U8\n" \
	"    src_image_size_w : 224\n" \
	"    src_image_size_h : 224\n" \
	"    csc_switch : true\n" \
	"    rbuv_swap_switch : false\n" \
	"    matrix_r0c0 : 256\n    matrix_r0c1 : 0\n    matrix_r0c2 : 359\n" \
	"    matrix_r1c0 : 256\n    matrix_r1c1 : -88\n    matrix_r1c2 : -183\n" \
	"    matrix_r2c0 : 256\n    matrix_r2c1 : 454\n    matrix_r2c2 : 0\n" \
	"    input_bias_0 : 0\n    input_bias_1 : 128\n    input_bias_2 : 128\n" \
	"    crop: true\n" \
	"    load_start_pos_h : 0\n    load_start_pos_w : 0\n" \
	"    crop_size_w : 224\n    crop_size_h: 224\n" \
	"    min_chn_0 : 123.675\n    min_chn_1 : 116.28\n    min_chn_2 : 103.53\n" \
	"    var_reci_chn_0: 0.0171247538316637\n" \
	"    var_reci_chn_1: 0.0175070028011204\n" \
	"    var_reci_chn_2: 0.0174291938997821\n" \
	"}\n"

TEST(sample_configuration_field_by_field)
{
	static const int16_t m[9] = { 256, 0, 359, 256, -88, -183, 256, 454, 0 };
	struct compile_aipp a[4];
	char err[256] = "";

	ASSERT_EQ(1, aipp_cfg_parse(SAMPLE_CFG, a, 4, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(OM_AIPP_STATIC, a[0].mode);
	EXPECT_EQ(0, a[0].input);
	EXPECT_EQ(2, a[0].line);
	EXPECT_EQ(1u, a[0].p.input_format);
	EXPECT_EQ(224, a[0].p.src_w);
	EXPECT_EQ(224, a[0].p.src_h);
	EXPECT_EQ(1, a[0].p.csc_switch);
	EXPECT_EQ(0, a[0].p.rbuv_swap);
	EXPECT_EQ(0, memcmp(m, a[0].p.csc_matrix, sizeof(m)));
	EXPECT_EQ(0, a[0].p.csc_in_bias[0]);
	EXPECT_EQ(128, a[0].p.csc_in_bias[1]);
	EXPECT_EQ(128, a[0].p.csc_in_bias[2]);
	/* left out with csc on: CANN's default output bias */
	EXPECT_EQ(16, a[0].p.csc_out_bias[0]);
	EXPECT_EQ(1, a[0].p.crop_switch);
	EXPECT_EQ(224, a[0].p.crop_w);
	EXPECT_EQ(0, a[0].p.mean[0]);
	EXPECT_EQ(123.675f, bf(a[0].p.min[0]));
	EXPECT_EQ(103.53f, bf(a[0].p.min[2]));
	EXPECT_EQ((float)0.0174291938997821, bf(a[0].p.var_reci[2]));
	EXPECT_EQ(1.0f, bf(a[0].p.var_reci[3]));	/* default */
	EXPECT_EQ(0, a[0].p.scf_switch);
	EXPECT_EQ(0, a[0].p.pad_switch);
}

TEST(defaults_blocks_and_spellings)
{
	static const int16_t dm[9] = { 298, 516, 0, 298, -100, -208, 298, 0, 409 };
	static const char *cfg =
		"aipp_op: {   # colon before the brace\n"
		"  related_input_rank: 1 aipp_mode: static input_format: RGB888_U8\n"
		"  csc_switch: 1 padding: true padding_value: 2.5 left_padding_size: 3\n"
		"  mean_chn_3: -7 ax_swap_switch: False\n"
		"}\n"
		"aipp_op { aipp_mode : dynamic max_src_image_size : 150528\n"
		"  related_input_rank : 0 support_rotation: false }\n";
	struct compile_aipp a[4];
	char err[256] = "";
	int c;

	ASSERT_EQ(2, aipp_cfg_parse(cfg, a, 4, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, a[0].input);
	EXPECT_EQ(3u, a[0].p.input_format);
	EXPECT_EQ(0, memcmp(dm, a[0].p.csc_matrix, sizeof(dm)));
	for (c = 0; c < 3; c++) {
		EXPECT_EQ(c ? 128 : 16, a[0].p.csc_in_bias[c]);
		EXPECT_EQ(c ? 128 : 16, a[0].p.csc_out_bias[c]);
	}
	for (c = 0; c < 4; c++) {
		EXPECT_EQ(2.5f, bf(a[0].p.pad_value[c]));
		EXPECT_EQ(1.0f, bf(a[0].p.var_reci[c]));
	}
	EXPECT_EQ(3, a[0].p.pad_left);
	EXPECT_EQ(-7, a[0].p.mean[3]);
	EXPECT_EQ(OM_AIPP_DYNAMIC, a[1].mode);
	EXPECT_EQ(150528, a[1].max_src_size);
	EXPECT_EQ(0, a[1].input);
	EXPECT_EQ(6, a[1].line);

	/* without csc_switch the matrix stays zero */
	ASSERT_EQ(1, aipp_cfg_parse("aipp_op { aipp_mode: static input_format: YUV400_U8 }",
				    a, 4, err, sizeof(err))) TH_LOG("%s", err);
	for (c = 0; c < 9; c++)
		EXPECT_EQ(0, a[0].p.csc_matrix[c]);
	EXPECT_EQ(0, a[0].p.csc_in_bias[1]);
}

TEST(every_reader_error_names_its_line)
{
	static const struct { const char *cfg, *want; } bad[] = {
		{ "", "no aipp_op block" },
		{ "# only a comment\n", "no aipp_op block" },
		{ "multi_shape_op { }", "line 1: 'multi_shape_op': only aipp_op" },
		{ "aipp_op aipp_mode: static", "line 1: aipp_op needs '{'" },
		{ "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n",
		  "line 1: aipp_op has no closing '}'" },
		{ "aipp_op {\n\n aipp_mod: static }", "line 3: unknown key 'aipp_mod'" },
		{ "aipp_op { input_format: RGB888_U8 }", "needs aipp_mode" },
		{ "aipp_op { aipp_mode: stat }", "'stat' is not static or dynamic" },
		{ "aipp_op { aipp_mode static }", "aipp_mode needs ': value'" },
		{ "aipp_op { aipp_mode: }", "aipp_mode needs a value" },
		{ "aipp_op { aipp_mode: static aipp_mode: static }", "aipp_mode is given twice" },
		{ "aipp_op { aipp_mode: static }", "static needs input_format" },
		{ "aipp_op { aipp_mode: static input_format: NV12 }", "'NV12' is not an AIPP input format" },
		{ "aipp_op { aipp_mode: static input_format: YUYV_U8 }", "YUYV_U8 is not supported by vnpu" },
		{ "aipp_op { aipp_mode: static input_format: RAW10 }", "RAW10 is not supported by vnpu" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 8193 }",
		  "src_image_size_w: '8193' is not an integer in 0..8192" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_h: -1 }",
		  "src_image_size_h: '-1'" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 crop_size_w: 1.5 }",
		  "crop_size_w: '1.5' is not an integer" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 matrix_r1c1: 32768 }",
		  "matrix_r1c1: '32768' is not an integer in -32768..32767" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 input_bias_2: 256 }",
		  "input_bias_2: '256'" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 mean_chn_0: 40000 }",
		  "mean_chn_0: '40000'" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 var_reci_chn_1: nan }",
		  "var_reci_chn_1: 'nan' is not a finite number" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 min_chn_0: 1e39 }",
		  "min_chn_0: '1e39' is not a finite number" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 crop: yes }",
		  "crop: 'yes' is not true or false" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 single_line_mode: true }",
		  "single_line_mode: true is not supported" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 32 }",
		  "related_input_rank: '32' is not an integer in 0..31" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 max_src_image_size: 10 }",
		  "max_src_image_size is only for aipp_mode: dynamic" },
		{ "aipp_op { aipp_mode: dynamic }", "dynamic needs max_src_image_size" },
		{ "aipp_op { aipp_mode: dynamic max_src_image_size: 0 }",
		  "max_src_image_size: '0' is not an integer in 1.." },
		{ "aipp_op { aipp_mode: dynamic max_src_image_size: 9 csc_switch: true }",
		  "csc_switch is not allowed with aipp_mode: dynamic" },
		{ "aipp_op { aipp_mode: dynamic max_src_image_size: 9 support_rotation: true }",
		  "support_rotation: true is not supported" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 }\n"
		  "aipp_op { aipp_mode: static input_format: RGB888_U8 }",
		  "line 2: aipp_op blocks 1 and 2 are both for input 0" },
		{ "aipp_op { aipp_mode: dynamic max_src_image_size: 9 }\n"
		  "aipp_op { aipp_mode: dynamic max_src_image_size: 9 related_input_rank: 1 }",
		  "only one aipp_op block may be dynamic" },
		{ "aipp_op { aipp_mode: static input_format: RGB888_U8 } }",
		  "'}': only aipp_op blocks" },
	};
	struct compile_aipp a[2];
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		EXPECT_EQ(-1, aipp_cfg_parse(bad[i].cfg, a, 2, err, sizeof(err)))
			TH_LOG("accepted: %s", bad[i].cfg);
		EXPECT_NE(NULL, strstr(err, bad[i].want))
			TH_LOG("'%s' gave '%s', want '%s'", bad[i].cfg, err, bad[i].want);
	}
	/* more blocks than room */
	EXPECT_EQ(-1, aipp_cfg_parse("aipp_op { aipp_mode: static input_format: RGB888_U8 }\n"
				     "aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 1 }\n",
				     a, 1, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "more than 1 aipp_op blocks")) TH_LOG("%s", err);
	/* a file that is not there, or not text */
	EXPECT_EQ(-1, aipp_cfg_load("/nonexistent/aipp.cfg", a, 2, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "/nonexistent/aipp.cfg: No such file")) TH_LOG("%s", err);
}

/* ------------------------------------------------------- the model */

static void *zalloc(size_t n)
{
	return calloc(1, n);
}

static Onnx__ValueInfoProto *value(const char *name, int rank,
				   const int64_t *dims)
{
	Onnx__ValueInfoProto *v = zalloc(sizeof(*v));
	Onnx__TypeProto *t = zalloc(sizeof(*t));
	Onnx__TypeProto__Tensor *tt = zalloc(sizeof(*tt));
	Onnx__TensorShapeProto *sh = zalloc(sizeof(*sh));
	int i;

	onnx__value_info_proto__init(v);
	onnx__type_proto__init(t);
	onnx__type_proto__tensor__init(tt);
	onnx__tensor_shape_proto__init(sh);
	sh->n_dim = (size_t)rank;
	sh->dim = zalloc((size_t)rank * sizeof(*sh->dim));
	for (i = 0; i < rank; i++) {
		Onnx__TensorShapeProto__Dimension *d = zalloc(sizeof(*d));

		onnx__tensor_shape_proto__dimension__init(d);
		d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		d->dim_value = dims[i];
		sh->dim[i] = d;
	}
	tt->has_elem_type = 1;
	tt->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	tt->shape = sh;
	t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	t->tensor_type = tt;
	v->name = (char *)name;
	v->type = t;
	return v;
}

static Onnx__TensorProto *weight(const char *name, int rank,
				 const int64_t *dims, float scale)
{
	Onnx__TensorProto *t = zalloc(sizeof(*t));
	size_t n = 1, i;

	onnx__tensor_proto__init(t);
	t->name = (char *)name;
	t->n_dims = (size_t)rank;
	t->dims = zalloc((size_t)rank * sizeof(int64_t));
	memcpy(t->dims, dims, (size_t)rank * sizeof(int64_t));
	for (i = 0; i < (size_t)rank; i++)
		n *= (size_t)dims[i];
	t->has_data_type = 1;
	t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	t->n_float_data = n;
	t->float_data = zalloc(n * sizeof(float));
	for (i = 0; i < n; i++)
		t->float_data[i] = (float)((int)(i % 7) - 3) * scale;
	return t;
}

static Onnx__NodeProto *node(const char *name, const char *op, int nin,
			     const char *const *in, const char *out)
{
	Onnx__NodeProto *n = zalloc(sizeof(*n));

	onnx__node_proto__init(n);
	n->name = (char *)name;
	n->op_type = (char *)op;
	n->n_input = (size_t)nin;
	n->input = (char **)in;
	n->n_output = 1;
	n->output = zalloc(sizeof(char *));
	n->output[0] = (char *)out;
	return n;
}

#define IMG	8	/* the model's input is [1, 3, 8, 8] */

static const int64_t D_X[] = { 1, 3, IMG, IMG }, D_W[] = { 4, 3, 3, 3 },
	D_B[] = { 4 }, D_Y[] = { 1, 4, IMG, IMG }, PADS[] = { 1, 1, 1, 1 };

/* y = Relu(Conv3x3(x, pads 1) + b): the model with an image input "x". */
static int write_model(const char *path)
{
	static const char *cin[] = { "x", "w", "b" }, *rin[] = { "c" };
	Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
	Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
	Onnx__OperatorSetIdProto ops = ONNX__OPERATOR_SET_ID_PROTO__INIT, *opsp = &ops;
	Onnx__AttributeProto pads = ONNX__ATTRIBUTE_PROTO__INIT, *pp = &pads;
	Onnx__NodeProto *nodes[2];
	Onnx__TensorProto *inits[2];
	Onnx__ValueInfoProto *in, *out;
	uint8_t *buf;
	size_t len;
	FILE *f;
	int ok;

	nodes[0] = node("conv", "Conv", 3, cin, "c");
	pads.name = "pads";
	pads.has_type = 1;
	pads.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
	pads.n_ints = 4;
	pads.ints = (int64_t *)PADS;
	nodes[0]->n_attribute = 1;
	nodes[0]->attribute = &pp;
	nodes[1] = node("relu", "Relu", 1, rin, "y");
	inits[0] = weight("w", 4, D_W, 0.01f);
	inits[1] = weight("b", 1, D_B, 0.1f);
	in = value("x", 4, D_X);
	out = value("y", 4, D_Y);
	g.name = "aipp";
	g.n_node = 2;
	g.node = nodes;
	g.n_initializer = 2;
	g.initializer = inits;
	g.n_input = 1;
	g.input = &in;
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
	f = fopen(path, "wb");
	ok = f && fwrite(buf, 1, len, f) == len;
	if (f)
		fclose(f);
	free(buf);
	return ok ? 0 : -1;
}

/* ------------------------------------ the preprocessing, done here */

struct pre {
	int src_w, src_h;
	int crop_x, crop_y, crop_w, crop_h;	/* crop_w 0: no crop */
	int out_w, out_h;			/* scaled size (the window's if equal) */
	int top, left;				/* padding (bottom, right: the rest) */
	float min[3], var[3];
	int mean[3];
};

/* NV12 pixel -> RGB with the samples' matrix, integer arithmetic. */
static void rgb_of(const uint8_t *img, int w, int h, int x, int y, int rgb[3])
{
	int Y = img[y * w + x], U = img[w * h + (y / 2) * w + (x / 2) * 2] - 128;
	int V = img[w * h + (y / 2) * w + (x / 2) * 2 + 1] - 128;
	long r = 256L * Y + 359L * V, g = 256L * Y - 88L * U - 183L * V;
	long b = 256L * Y + 454L * U;
	long v[3] = { r, g, b };
	int c;

	for (c = 0; c < 3; c++) {
		long q = v[c] >= 0 ? v[c] / 256 : -((-v[c] + 255) / 256);

		rgb[c] = q < 0 ? 0 : q > 255 ? 255 : (int)q;
	}
}

/* The float [1, 3, IMG, IMG] the plain model takes for this NV12 image. */
static void preprocess(const struct pre *P, const uint8_t *img, float *x)
{
	int ww = P->crop_w ? P->crop_w : P->src_w, wh = P->crop_w ? P->crop_h : P->src_h;
	int ox = P->crop_w ? P->crop_x : 0, oy = P->crop_w ? P->crop_y : 0;
	int X, Y, c;

	for (Y = 0; Y < IMG; Y++) {
		for (X = 0; X < IMG; X++) {
			int sx = X - P->left, sy = Y - P->top, rgb[4][3];
			double v[3] = { 0, 0, 0 };

			if (sx >= 0 && sx < P->out_w && sy >= 0 && sy < P->out_h) {
				/* half-pixel bilinear, identity when sizes agree */
				double fx = (sx + 0.5) * ww / P->out_w - 0.5;
				double fy = (sy + 0.5) * wh / P->out_h - 0.5;
				int x0, y0, x1, y1;

				fx = fmax(fx, 0);
				fy = fmax(fy, 0);
				x0 = (int)fx;
				y0 = (int)fy;
				x1 = x0 + 1 < ww ? x0 + 1 : ww - 1;
				y1 = y0 + 1 < wh ? y0 + 1 : wh - 1;
				if (x0 >= ww - 1) {
					x0 = ww - 1;
					fx = x0;
				}
				if (y0 >= wh - 1) {
					y0 = wh - 1;
					fy = y0;
				}
				rgb_of(img, P->src_w, P->src_h, ox + x0, oy + y0, rgb[0]);
				rgb_of(img, P->src_w, P->src_h, ox + x1, oy + y0, rgb[1]);
				rgb_of(img, P->src_w, P->src_h, ox + x0, oy + y1, rgb[2]);
				rgb_of(img, P->src_w, P->src_h, ox + x1, oy + y1, rgb[3]);
				for (c = 0; c < 3; c++)
					v[c] = (1 - (fy - y0)) * ((1 - (fx - x0)) * rgb[0][c] +
								  (fx - x0) * rgb[1][c]) +
					       (fy - y0) * ((1 - (fx - x0)) * rgb[2][c] +
							    (fx - x0) * rgb[3][c]);
			}
			for (c = 0; c < 3; c++)
				x[(c * IMG + Y) * IMG + X] = (float)((v[c] - P->mean[c] - P->min[c]) *
								     P->var[c]);
		}
	}
}

/* ------------------------------------------------------ compiling */

FIXTURE(aipp) {
	char dir[64];
	char onnx[128], cfg[128], out[128], om[160];
	struct atc_options o;
};

FIXTURE_SETUP(aipp)
{
	strcpy(self->dir, "/tmp/atc_aipp_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->onnx, sizeof(self->onnx), "%s/net.onnx", self->dir);
	snprintf(self->cfg, sizeof(self->cfg), "%s/aipp.cfg", self->dir);
	snprintf(self->out, sizeof(self->out), "%s/net", self->dir);
	snprintf(self->om, sizeof(self->om), "%s/net.om", self->dir);
	ASSERT_EQ(0, write_model(self->onnx));
	memset(&self->o, 0, sizeof(self->o));
	self->o.model = self->onnx;
	self->o.framework = ATC_FRAMEWORK_ONNX;
	self->o.output = self->out;
	self->o.soc_version = "Ascend310";
	self->o.log = "error";
}

FIXTURE_TEARDOWN(aipp)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

static int put_cfg(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(text, f) >= 0;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

struct loaded {
	uint8_t *buf;
	size_t len;
	struct om_image img;
	struct om_exec x;
};

static int load(const char *path, struct loaded *l, char *why, size_t wl)
{
	FILE *f = fopen(path, "rb");

	memset(l, 0, sizeof(*l));
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	l->len = (size_t)ftell(f);
	rewind(f);
	l->buf = aligned_alloc(64, (l->len + 63) & ~(size_t)63);
	if (fread(l->buf, 1, l->len, f) != l->len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	if (om_read(l->buf, l->len, &l->img, why, wl))
		return -1;
	return omx_open(&l->x, l->buf, l->len);
}

static void random_nv12(uint8_t *img, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		img[i] = (uint8_t)(seed >> 16);
	}
}

/* Largest |a - b| over n floats, relative to the largest |b| (>= 1). */
static double max_err(const float *a, const float *b, size_t n)
{
	double e = 0, big = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		e = fmax(e, fabs((double)a[i] - b[i]));
		big = fmax(big, fabs((double)b[i]));
	}
	return e / big;
}

#define STATIC_CFG(extra) \
	"aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n" \
	" csc_switch: true\n" \
	" matrix_r0c0: 256 matrix_r0c1: 0 matrix_r0c2: 359\n" \
	" matrix_r1c0: 256 matrix_r1c1: -88 matrix_r1c2: -183\n" \
	" matrix_r2c0: 256 matrix_r2c1: 454 matrix_r2c2: 0\n" \
	" input_bias_0: 0 input_bias_1: 128 input_bias_2: 128\n" \
	" mean_chn_0: 3 mean_chn_1: 5 mean_chn_2: 7\n" \
	" min_chn_0: 123.675 min_chn_1: 116.28 min_chn_2: 103.53\n" \
	" var_reci_chn_0: 0.0171247538 var_reci_chn_1: 0.0175070028\n" \
	" var_reci_chn_2: 0.0174291939\n" extra "}\n"

/* Compile the plain model and one with cfg; run both; compare. */
static void static_case(struct __test_metadata *_metadata,
			FIXTURE_DATA(aipp) *self, const char *cfg,
			const struct pre *P)
{
	const size_t bytes = (size_t)P->src_w * P->src_h * 3 / 2;
	float x[3 * IMG * IMG], y_plain[4 * IMG * IMG], y_aipp[4 * IMG * IMG];
	struct loaded plain, ap;
	const struct om_aipp *rec;
	const struct om_node *first;
	char why[256] = "", plain_om[200];
	uint8_t *img = malloc(bytes);
	void *io[2];

	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	snprintf(plain_om, sizeof(plain_om), "%s/plain.om", self->dir);
	ASSERT_EQ(0, rename(self->om, plain_om));
	ASSERT_EQ(0, put_cfg(self->cfg, cfg));
	self->o.insert_op_conf = self->cfg;
	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	ASSERT_EQ(0, load(plain_om, &plain, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, load(self->om, &ap, why, sizeof(why))) TH_LOG("%s", why);

	/* the image input took the float input's place and name */
	EXPECT_EQ(0u, plain.img.naipp);
	ASSERT_EQ(1u, ap.img.nin);
	EXPECT_STREQ("x", ap.img.strings + ap.img.io[0].name);
	EXPECT_EQ(DRM_VNPU_DTYPE_UINT8, ap.img.io[0].dtype);
	EXPECT_EQ(2u, ap.img.io[0].rank);
	EXPECT_EQ(1, ap.img.io[0].dims[0]);
	EXPECT_EQ((int64_t)bytes, ap.img.io[0].dims[1]);
	EXPECT_EQ(bytes, ap.img.io[0].size);
	/* the AIPP task is the model's first */
	first = &ap.img.nodes[ap.img.variants[0].first_node];
	EXPECT_EQ(DRM_VNPU_OP_AIPP, first->op);
	EXPECT_EQ(OM_LOC_INPUT, ap.img.tensors[first->tensors[0]].loc);
	EXPECT_EQ(OM_LOC_WEIGHT, ap.img.tensors[first->tensors[1]].loc);
	EXPECT_EQ(0, ap.img.tensors[first->tensors[1]].strides[0]);
	EXPECT_EQ(OM_LOC_ARENA, ap.img.tensors[first->tensors[2]].loc);
	EXPECT_EQ(plain.img.variants[0].node_count + 1, ap.img.variants[0].node_count);
	/* its record */
	ASSERT_EQ(1u, ap.img.naipp);
	rec = &ap.img.aipp[0];
	EXPECT_EQ(OM_AIPP_STATIC, rec->mode);
	EXPECT_EQ(0u, rec->input);
	EXPECT_EQ(OM_AIPP_NO_INPUT, rec->params_input);
	EXPECT_EQ(DRM_VNPU_DTYPE_FLOAT, rec->out_dtype);
	EXPECT_EQ(3, rec->out_dims[1]);
	EXPECT_EQ(IMG, rec->out_dims[3]);
	EXPECT_EQ(0, memcmp(rec->params, ap.img.weights + ap.img.tensors[first->tensors[1]].offset,
			    OM_AIPP_PARAMS_SIZE));
	EXPECT_EQ(P->src_w, ((const struct drm_vnpu_aipp_params *)rec->params)->src_w);

	/* the same results from an NV12 image and its preprocessing here */
	random_nv12(img, bytes, 42);
	preprocess(P, img, x);
	io[0] = x;
	io[1] = y_plain;
	ASSERT_EQ(0, omx_run(&plain.x, 0, io));
	io[0] = img;
	io[1] = y_aipp;
	ASSERT_EQ(0, omx_run(&ap.x, 0, io));
	EXPECT_GT(1e-5, max_err(y_aipp, y_plain, 4 * IMG * IMG));
	free(img);
	free(plain.buf);
	free(ap.buf);
}

TEST_F(aipp, static_nv12_to_rgb_like_the_plain_model)
{
	struct pre P = { .src_w = IMG, .src_h = IMG, .out_w = IMG, .out_h = IMG,
			 .min = { 123.675f, 116.28f, 103.53f },
			 .var = { 0.0171247538f, 0.0175070028f, 0.0174291939f },
			 .mean = { 3, 5, 7 } };

	static_case(_metadata, self, STATIC_CFG(""), &P);
}

TEST_F(aipp, static_crop_resize_pad_like_the_plain_model)
{
	struct pre P = { .src_w = 12, .src_h = 10, .crop_x = 3, .crop_y = 2,
			 .crop_w = 8, .crop_h = 7, .out_w = 5, .out_h = 6,
			 .top = 1, .left = 2,
			 .min = { 123.675f, 116.28f, 103.53f },
			 .var = { 0.0171247538f, 0.0175070028f, 0.0174291939f },
			 .mean = { 3, 5, 7 } };

	/* padded pixels are 0 before the normalisation, as in preprocess() */
	static_case(_metadata, self, STATIC_CFG(
		" src_image_size_w: 12 src_image_size_h: 10\n"
		" crop: true load_start_pos_w: 3 load_start_pos_h: 2\n"
		" crop_size_w: 8 crop_size_h: 7\n"
		" resize: true\n"	/* output size derived: 8 - 3, 8 - 2 */
		" padding: true left_padding_size: 2 right_padding_size: 1\n"
		" top_padding_size: 1 bottom_padding_size: 1\n"), &P);
}

/* The dynamic input, and two crops set at run time. */
TEST_F(aipp, dynamic_parameters_at_run_time)
{
	const int sw = 16, sh = 12, maxb = sw * sh * 3 / 2;
	float x[3 * IMG * IMG], y_plain[4 * IMG * IMG], y_aipp[4 * IMG * IMG];
	struct drm_vnpu_aipp_params p;
	struct loaded plain, ap;
	char why[256] = "", plain_om[200], cfg[200];
	uint8_t img[16 * 12 * 3 / 2];
	void *io[3];
	int k, c;

	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	snprintf(plain_om, sizeof(plain_om), "%s/plain.om", self->dir);
	ASSERT_EQ(0, rename(self->om, plain_om));
	snprintf(cfg, sizeof(cfg), "aipp_op { aipp_mode: dynamic max_src_image_size: %d }\n",
		 maxb);
	ASSERT_EQ(0, put_cfg(self->cfg, cfg));
	self->o.insert_op_conf = self->cfg;
	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	ASSERT_EQ(0, load(plain_om, &plain, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, load(self->om, &ap, why, sizeof(why))) TH_LOG("%s", why);

	ASSERT_EQ(2u, ap.img.nin);
	EXPECT_STREQ("x", ap.img.strings + ap.img.io[0].name);
	EXPECT_EQ(maxb, ap.img.io[0].dims[1]);
	EXPECT_STREQ(OM_AIPP_DYNAMIC_NAME, ap.img.strings + ap.img.io[1].name);
	EXPECT_EQ(DRM_VNPU_DTYPE_UINT8, ap.img.io[1].dtype);
	EXPECT_EQ(OM_AIPP_PARAMS_SIZE, ap.img.io[1].dims[1]);
	ASSERT_EQ(1u, ap.img.naipp);
	EXPECT_EQ(OM_AIPP_DYNAMIC, ap.img.aipp[0].mode);
	EXPECT_EQ(1u, ap.img.aipp[0].params_input);

	random_nv12(img, sizeof(img), 7);
	for (k = 0; k < 2; k++) {
		struct pre P = { .src_w = sw, .src_h = sh, .crop_x = 2 + 4 * k,
				 .crop_y = k * 2, .crop_w = IMG, .crop_h = IMG,
				 .out_w = IMG, .out_h = IMG, .mean = { 1, 2, 3 } };
		static const int16_t m[9] = { 256, 0, 359, 256, -88, -183, 256, 454, 0 };

		memset(&p, 0, sizeof(p));
		p.input_format = 1;
		p.src_w = sw;
		p.src_h = sh;
		p.csc_switch = 1;
		memcpy(p.csc_matrix, m, sizeof(m));
		p.csc_in_bias[1] = p.csc_in_bias[2] = 128;
		p.crop_switch = 1;
		p.crop_x = P.crop_x;
		p.crop_y = P.crop_y;
		p.crop_w = p.crop_h = IMG;
		for (c = 0; c < 4; c++) {
			p.var_reci[c] = fb(0.5f);
			p.mean[c] = (int16_t)(c + 1);
		}
		P.var[0] = P.var[1] = P.var[2] = 0.5f;
		preprocess(&P, img, x);
		io[0] = x;
		io[1] = y_plain;
		ASSERT_EQ(0, omx_run(&plain.x, 0, io));
		io[0] = img;
		io[1] = &p;
		io[2] = y_aipp;
		ASSERT_EQ(0, omx_run(&ap.x, 0, io));
		EXPECT_GT(1e-5, max_err(y_aipp, y_plain, 4 * IMG * IMG)) TH_LOG("crop %d", k);
	}
	/* a crop past the image: the AIPP node refuses its data */
	p.crop_x = sw - IMG + 1;
	EXPECT_EQ(1, omx_run(&ap.x, 0, io));
	free(plain.buf);
	free(ap.buf);
}

/* Configurations the model cannot take: usage errors, no file. */
TEST_F(aipp, configurations_that_do_not_fit_the_model)
{
	static const char *const bad[] = {
		/* no second input */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 related_input_rank: 1 }",
		/* 4 x 4 images for an 8 x 8 input */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 4 }",
		/* resized to 6 where 8 is needed */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 8 "
		"src_image_size_h: 8 resize: true resize_output_w: 6 }",
		/* a crop needs the image's size */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 crop: true }",
		/* the crop leaves the image */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 10 "
		"src_image_size_h: 10 crop: true load_start_pos_w: 3 }",
		/* odd NV12 */
		"aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w: 9 "
		"src_image_size_h: 8 crop: true }",
		/* a grey image for three channels */
		"aipp_op { aipp_mode: static input_format: YUV400_U8 }",
		/* a grey image has no colours */
		"aipp_op { aipp_mode: static input_format: YUV400_U8 csc_switch: true }",
		/* ax swap of RGB */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 ax_swap_switch: true }",
		/* padding eats the image */
		"aipp_op { aipp_mode: static input_format: RGB888_U8 padding: true "
		"left_padding_size: 4 right_padding_size: 4 }",
	};
	unsigned int i;

	self->o.insert_op_conf = self->cfg;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(0, put_cfg(self->cfg, bad[i]));
		EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o)) TH_LOG("%s", bad[i]);
		EXPECT_NE(0, access(self->om, F_OK)) TH_LOG("%s wrote a file", bad[i]);
	}
	/* NHWC does not go with AIPP's NCHW output */
	ASSERT_EQ(0, put_cfg(self->cfg, STATIC_CFG("")));
	self->o.input_format = "NHWC";
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
	/* a reader error is a usage error too */
	self->o.input_format = NULL;
	ASSERT_EQ(0, put_cfg(self->cfg, "aipp_op { bogus: 1 }"));
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
	self->o.insert_op_conf = "/nonexistent.cfg";
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
}

TEST_HARNESS_MAIN
