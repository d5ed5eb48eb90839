// SPDX-License-Identifier: MIT
/*
 * atc end to end on the host: a small ONNX model built here with
 * protobuf-c (Conv+Relu, a 1x1 Conv, a residual Add, Flatten, MatMul+Add)
 * goes through the whole pipeline (atc_compile: front end, lowering,
 * planning, writing), and the .om it writes is checked by reading its
 * bytes (and by the loader's own validation, om_read): header and
 * section CRCs, the fused tasks in order, where each
 * tensor lives, the arena against the plan, dynamic batch variants; and
 * each exit status (bad model, bad option, unsupported op, unwritable
 * output). The compiled model also runs on the host (the operator
 * library's host build) against a plain C reference of the network.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm/vnpu_accel.h>

#include "atc_compile.h"
#include "om_build.h"
#include "onnx_model.h"
#include "om_host_exec.h"
#include "kselftest_harness.h"

/* The harness's setjmp and short test bodies trip -Wclobbered at -O1. */
#pragma GCC diagnostic ignored "-Wclobbered"

/* --- a tiny ONNX builder (test only; everything leaks into the process) */

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
		if (dims[i] < 0) {
			d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
			d->dim_param = "N";
		} else {
			d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
			d->dim_value = dims[i];
		}
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

/* A float initializer whose element i is (i % 7 - 3) * scale. */
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

static void ints_attr(Onnx__NodeProto *n, const char *name, int count,
		      const int64_t *v)
{
	Onnx__AttributeProto *a = zalloc(sizeof(*a));

	onnx__attribute_proto__init(a);
	a->name = (char *)name;
	a->has_type = 1;
	a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
	a->n_ints = (size_t)count;
	a->ints = (int64_t *)v;
	n->attribute = realloc(n->attribute, (n->n_attribute + 1) * sizeof(a));
	n->attribute[n->n_attribute++] = a;
}

static const int64_t D_X[] = { 1, 3, 8, 8 }, D_XDYN[] = { -1, 3, 8, 8 },
	D_W1[] = { 4, 3, 3, 3 }, D_B[] = { 4 }, D_W2[] = { 4, 3, 1, 1 },
	D_WM[] = { 256, 10 }, D_BM[] = { 10 }, D_Y[] = { 1, 10 },
	D_YDYN[] = { -1, 10 }, PADS[] = { 1, 1, 1, 1 };

/*
 * y = MatMul(Flatten(Relu(Conv3x3(x)) + Conv1x1(x)), wm) + bm; with bad_op
 * the Relu is an op no one lowers; with late_relu the Relu comes after the
 * Add instead (a task of its own, not fused into the Conv).
 */
static const char *write_model(const char *dir, bool dynamic, const char *bad_op,
			       bool late_relu)
{
	static char path[256];
	static const char *c1in[] = { "x", "w1", "b1" }, *rin[] = { "c1" },
		*c2in[] = { "x", "w2", "b2" }, *ain[] = { "r", "c2" },
		*fin[] = { "a" }, *min[] = { "f", "wm" }, *bin[] = { "m", "bm" },
		*lrin[] = { "a0" }, *lain[] = { "c1", "c2" };
	Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
	Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
	Onnx__OperatorSetIdProto ops = ONNX__OPERATOR_SET_ID_PROTO__INIT, *opsp = &ops;
	Onnx__NodeProto *nodes[7];
	Onnx__TensorProto *inits[6];
	Onnx__ValueInfoProto *in, *out;
	uint8_t *buf;
	size_t len;
	FILE *f;

	nodes[0] = node("conv1", "Conv", 3, c1in, "c1");
	ints_attr(nodes[0], "pads", 4, PADS);
	nodes[1] = node("relu1", bad_op ? bad_op : "Relu", 1, rin, "r");
	nodes[2] = node("conv2", "Conv", 3, c2in, "c2");
	nodes[3] = node("add1", "Add", 2, ain, "a");
	if (late_relu) {
		nodes[1] = nodes[2];
		nodes[2] = node("add1", "Add", 2, lain, "a0");
		nodes[3] = node("relu1", "Relu", 1, lrin, "a");
	}
	nodes[4] = node("flat", "Flatten", 1, fin, "f");
	nodes[5] = node("mm", "MatMul", 2, min, "m");
	nodes[6] = node("bias", "Add", 2, bin, "y");
	inits[0] = weight("w1", 4, D_W1, 0.05f);
	inits[1] = weight("b1", 1, D_B, 0.1f);
	inits[2] = weight("w2", 4, D_W2, 0.2f);
	inits[3] = weight("b2", 1, D_B, 0.3f);
	inits[4] = weight("wm", 2, D_WM, 0.01f);
	inits[5] = weight("bm", 1, D_BM, 0.5f);
	in = value("x", 4, dynamic ? D_XDYN : D_X);
	out = value("y", 2, dynamic ? D_YDYN : D_Y);
	g.name = "e2e";
	g.n_node = 7;
	g.node = nodes;
	g.n_initializer = 6;
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
	snprintf(path, sizeof(path), "%s/model.onnx", dir);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len)
		path[0] = '\0';
	if (f)
		fclose(f);
	free(buf);
	return path;
}

/* --- reading the written file */

struct om_file {
	uint8_t *buf;
	size_t len;
	struct om_header h;
	struct om_section sec[8];
	const struct om_tensor *tensors;
	const struct om_node *nodes;
	const struct om_io *io;
	const struct om_variant *var;
	const struct om_dims *dims;
	const char *strings;
	uint32_t nnodes, ntensors, nio, nvar;
	uint64_t nweights;
};

static int read_om(const char *path, struct om_file *o)
{
	FILE *f = fopen(path, "rb");
	uint32_t i;

	memset(o, 0, sizeof(*o));
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	o->len = (size_t)ftell(f);
	rewind(f);
	o->buf = aligned_alloc(64, (o->len + 63) & ~(size_t)63);
	if (fread(o->buf, 1, o->len, f) != o->len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	memcpy(&o->h, o->buf, sizeof(o->h));
	if (o->h.section_count > 8)
		return -1;
	memcpy(o->sec, o->buf + sizeof(o->h), o->h.section_count * sizeof(o->sec[0]));
	for (i = 0; i < o->h.section_count; i++) {
		const void *p = o->buf + o->sec[i].offset;

		switch (o->sec[i].type) {
		case OM_SEC_STRINGS: o->strings = p; break;
		case OM_SEC_TENSORS: o->tensors = p; o->ntensors = o->sec[i].count; break;
		case OM_SEC_NODES: o->nodes = p; o->nnodes = o->sec[i].count; break;
		case OM_SEC_IO: o->io = p; o->nio = o->sec[i].count; break;
		case OM_SEC_WEIGHTS: o->nweights = o->sec[i].size; break;
		case OM_SEC_VARIANTS: o->var = p; o->nvar = o->sec[i].count; break;
		case OM_SEC_VARIANT_DIMS: o->dims = p; break;
		}
	}
	return 0;
}

/* The loader's own validation (lib/om/om_read.c) accepts the file. */
static int loader_accepts(struct __test_metadata *_metadata,
			  const struct om_file *f)
{
	struct om_image img;
	char why[256] = "";
	int ret = om_read(f->buf, f->len, &img, why, sizeof(why));

	if (ret)
		TH_LOG("om_read: %s", why);
	return ret;
}

static uint64_t view_end(const struct om_tensor *t)
{
	uint64_t end = 0;
	uint32_t d;

	for (d = 0; d < t->rank; d++)
		end += (uint64_t)(t->shape[d] - 1) * (uint64_t)t->strides[d];
	return t->offset + (end + 1) * 4;	/* every tensor here is FLOAT */
}

FIXTURE(e2e) {
	char dir[64];
	char out[128];
	char om[160];
	struct atc_options o;
	struct om_file f;
};

FIXTURE_SETUP(e2e)
{
	strcpy(self->dir, "/tmp/atc_e2e_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->out, sizeof(self->out), "%s/net", self->dir);
	snprintf(self->om, sizeof(self->om), "%s/net.om", self->dir);
	memset(&self->o, 0, sizeof(self->o));
	self->o.framework = ATC_FRAMEWORK_ONNX;
	self->o.output = self->out;
	self->o.soc_version = "Ascend310";
	self->o.log = "error";
}

FIXTURE_TEARDOWN(e2e)
{
	char cmd[128];

	free(self->f.buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

TEST_F(e2e, compiles_and_the_file_is_consistent)
{
	struct om_file *f = &self->f;
	uint8_t hdr[sizeof(struct om_header) + 8 * sizeof(struct om_section)];
	static const uint32_t want[] = {
		DRM_VNPU_OP_CONV2D, DRM_VNPU_OP_CONV2D, DRM_VNPU_OP_ADD,
		DRM_VNPU_OP_GEMM,
	};
	uint32_t i, k;

	self->o.model = write_model(self->dir, false, NULL, false);
	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	ASSERT_EQ(0, read_om(self->om, f));
	EXPECT_EQ(0, loader_accepts(_metadata, f));
	EXPECT_EQ(OM_MAGIC, f->h.magic);
	EXPECT_EQ(f->len, f->h.file_size);
	ASSERT_EQ(7u, f->h.section_count);
	/* every CRC */
	memcpy(hdr, f->buf, sizeof(struct om_header) + 7 * sizeof(struct om_section));
	memset(hdr + offsetof(struct om_header, header_crc), 0, 4);
	EXPECT_EQ(f->h.header_crc, om_crc32(0, hdr, sizeof(struct om_header) +
					    7 * sizeof(struct om_section)));
	for (i = 0; i < 7; i++)
		EXPECT_EQ(f->sec[i].crc, om_crc32(0, f->buf + f->sec[i].offset,
						  f->sec[i].size));
	/* Relu fused into conv1, MatMul + Add into a Gemm, Flatten a view */
	ASSERT_EQ(1u, f->nvar);
	EXPECT_EQ(0u, f->var[0].batch);
	ASSERT_EQ(4u, f->nnodes);
	EXPECT_EQ(4u, f->var[0].node_count);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(want[i], f->nodes[i].op);
	EXPECT_EQ(DRM_VNPU_ACT_RELU, f->nodes[0].ints[DRM_VNPU_ATTR_ACT]);
	EXPECT_EQ(DRM_VNPU_ACT_NONE, f->nodes[1].ints[DRM_VNPU_ATTR_ACT]);
	EXPECT_STREQ("conv1", f->strings + f->nodes[0].name);
	EXPECT_EQ(1, f->nodes[0].ints[2]);	/* pads */
	EXPECT_EQ(0, f->nodes[1].ints[2]);
	/* locations: x read by both convs, y written by the Gemm */
	EXPECT_EQ(OM_LOC_INPUT, f->tensors[f->nodes[0].tensors[0]].loc);
	EXPECT_EQ(OM_LOC_INPUT, f->tensors[f->nodes[1].tensors[0]].loc);
	EXPECT_EQ(OM_LOC_WEIGHT, f->tensors[f->nodes[0].tensors[1]].loc);
	EXPECT_EQ(3u, f->nodes[3].num_inputs);
	EXPECT_EQ(OM_LOC_OUTPUT, f->tensors[f->nodes[3].tensors[3]].loc);
	EXPECT_EQ(OM_LOC_ARENA, f->tensors[f->nodes[3].tensors[0]].loc);
	EXPECT_EQ(2u, f->tensors[f->nodes[3].tensors[0]].rank);	/* the view */
	/* the residual Add writes over one of its dying inputs */
	EXPECT_TRUE(f->tensors[f->nodes[2].tensors[2]].offset ==
		    f->tensors[f->nodes[2].tensors[0]].offset ||
		    f->tensors[f->nodes[2].tensors[2]].offset ==
		    f->tensors[f->nodes[2].tensors[1]].offset);
	/* every arena view inside the arena, every weight inside WEIGHTS */
	for (i = 0; i < f->nnodes; i++)
		for (k = 0; k < f->nodes[i].num_inputs + f->nodes[i].num_outputs; k++) {
			const struct om_tensor *t = &f->tensors[f->nodes[i].tensors[k]];

			if (t->loc == OM_LOC_ARENA)
				EXPECT_LE(view_end(t), f->var[0].arena_size);
			if (t->loc == OM_LOC_WEIGHT) {
				EXPECT_EQ(0u, t->offset % OM_WEIGHT_ALIGN);
				EXPECT_LE(view_end(t), f->nweights);
			}
		}
	/* c1 and c2 live together: two 1 KiB buffers; naive adds a */
	EXPECT_EQ(2048u, f->var[0].arena_size);
	EXPECT_EQ(2048u, f->var[0].lower_bound);
	EXPECT_EQ(3072u, f->var[0].naive_size);
	/* io: the input, then the output */
	ASSERT_EQ(2u, f->nio);
	EXPECT_STREQ("x", f->strings + f->io[0].name);
	EXPECT_EQ(0u, f->io[0].flags);
	EXPECT_EQ(1u * 3 * 8 * 8 * 4, f->io[0].size);
	EXPECT_EQ(0u, f->io[0].format);		/* NCHW */
	EXPECT_EQ(OM_IO_OUTPUT, f->io[1].flags);
	EXPECT_EQ(40u, f->io[1].size);
	EXPECT_EQ(2u, f->io[1].format);		/* ND */
}

TEST_F(e2e, dynamic_batch_variants)
{
	struct om_file *f = &self->f;
	uint32_t v;

	self->o.model = write_model(self->dir, true, NULL, false);
	self->o.input_shape = "x:-1,3,8,8";
	self->o.dynamic_batch_size = "1,4,2";
	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	ASSERT_EQ(0, read_om(self->om, f));
	EXPECT_EQ(0, loader_accepts(_metadata, f));
	ASSERT_EQ(3u, f->nvar);
	EXPECT_EQ(1u, f->var[0].batch);
	EXPECT_EQ(4u, f->var[1].batch);
	EXPECT_EQ(2u, f->var[2].batch);
	for (v = 0; v < 3; v++) {
		EXPECT_EQ(4u * v, f->var[v].first_node);
		EXPECT_EQ(4u, f->var[v].node_count);
		EXPECT_EQ(2048u * f->var[v].batch, f->var[v].arena_size);
		EXPECT_EQ((int64_t)f->var[v].batch, f->dims[2 * v].dims[0]);
		EXPECT_EQ((int64_t)f->var[v].batch, f->dims[2 * v + 1].dims[0]);
		EXPECT_EQ(10, f->dims[2 * v + 1].dims[1]);
	}
	/* io: the largest batch, both batched */
	EXPECT_EQ(4, f->io[0].dims[0]);
	EXPECT_EQ(OM_IO_BATCHED, f->io[0].flags);
	EXPECT_EQ(OM_IO_BATCHED | OM_IO_OUTPUT, f->io[1].flags);
	EXPECT_EQ(4u * 3 * 8 * 8 * 4, f->io[0].size);
	/* weights once for all three variants: w1 w2 b1 b2 wm bm, aligned */
	EXPECT_LE(f->nweights, 4u * (108 + 12 + 4 + 4 + 2560 + 10) + 6 * 64);
	EXPECT_GE(f->nweights, 4u * (108 + 12 + 4 + 4 + 2560 + 10));
}

TEST_F(e2e, exit_statuses)
{
	char nodir[200];

	/* 4: an op vnpu does not run, named with its node */
	self->o.model = write_model(self->dir, false, "Bernoulli", false);
	EXPECT_EQ(ATC_UNSUPPORTED, atc_compile(&self->o));
	EXPECT_NE(0, access(self->om, F_OK));
	/* 1: no such model */
	self->o.model = "/nonexistent/model.onnx";
	EXPECT_EQ(ATC_BAD_MODEL, atc_compile(&self->o));
	/* 1: a batch size without a batched input */
	self->o.model = write_model(self->dir, false, NULL, false);
	self->o.dynamic_batch_size = "1,2";
	EXPECT_EQ(ATC_BAD_MODEL, atc_compile(&self->o));
	/* 2: an output type vnpu does not write, bad batch lists */
	self->o.dynamic_batch_size = NULL;
	self->o.output_type = "FP16";
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
	self->o.output_type = "FP32";
	self->o.dynamic_batch_size = "1,1";
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
	self->o.dynamic_batch_size = "0";
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
	self->o.dynamic_batch_size = "2,";
	EXPECT_EQ(ATC_BAD_USAGE, atc_compile(&self->o));
	self->o.dynamic_batch_size = NULL;
	/* 3: the output cannot be written */
	snprintf(nodir, sizeof(nodir), "%s/no/such/dir/net", self->dir);
	self->o.output = nodir;
	EXPECT_EQ(ATC_INTERNAL, atc_compile(&self->o));
	/* 0 with the options CANN scripts pass */
	self->o.output = self->out;
	self->o.precision_mode = "allow_fp32_to_fp16";
	self->o.input_format = "NCHW";
	EXPECT_EQ(ATC_OK, atc_compile(&self->o));
	EXPECT_EQ(0, access(self->om, F_OK));
}

/* The network in plain C, weights as weight() makes them. */
static float wv(size_t i, float scale)
{
	return (float)((int)(i % 7) - 3) * scale;
}

static void reference(const float *x, float *y, bool late_relu)
{
	static float a[4][8][8];
	float f[256];
	int o, c, i, j, di, dj, k;

	for (o = 0; o < 4; o++)
		for (i = 0; i < 8; i++)
			for (j = 0; j < 8; j++) {
				float s = wv((size_t)o, 0.1f), s2 = wv((size_t)o, 0.3f);

				for (c = 0; c < 3; c++) {
					for (di = 0; di < 3; di++)
						for (dj = 0; dj < 3; dj++) {
							int ii = i + di - 1, jj = j + dj - 1;

							if (ii < 0 || ii > 7 || jj < 0 || jj > 7)
								continue;
							s += x[(c * 8 + ii) * 8 + jj] *
							     wv((size_t)(((o * 3 + c) * 3 + di) * 3 + dj), 0.05f);
						}
					s2 += x[(c * 8 + i) * 8 + j] * wv((size_t)(o * 3 + c), 0.2f);
				}
				if (late_relu)
					a[o][i][j] = s + s2 > 0 ? s + s2 : 0;
				else
					a[o][i][j] = (s > 0 ? s : 0) + s2;
			}
	memcpy(f, a, sizeof(f));
	for (k = 0; k < 10; k++) {
		float s = wv((size_t)k, 0.5f);

		for (i = 0; i < 256; i++)
			s += f[i] * wv((size_t)(i * 10 + k), 0.01f);
		y[k] = s;
	}
}

static bool close_to(float got, float want)
{
	return fabsf(got - want) <= 1e-4f * (1.0f + fabsf(want));
}

/*
 * Whether the operator library applies DRM_VNPU_ATTR_ACT (UAPI 1.4): a
 * 1x1 convolution of -1 with weight 1 and a fused ReLU must give 0.
 */
static bool ops_fuse_activations(void)
{
	static float x = -1.0f, w = 1.0f, y = 5.0f;
	static char scratch[VNPU_OPS_SCRATCH] __attribute__((aligned(64)));
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_CONV2D);
	struct vnpu_op_call c;
	void *data[3] = { &x, &w, &y };
	int k, d;

	memset(&c, 0, sizeof(c));
	c.op = DRM_VNPU_OP_CONV2D;
	c.num_in = 2;
	c.num_out = 1;
	c.has_attrs = 1;
	c.attrs.ints[0] = c.attrs.ints[1] = 1;
	c.attrs.ints[6] = c.attrs.ints[7] = 1;
	c.attrs.ints[8] = 1;
	c.attrs.ints[DRM_VNPU_ATTR_ACT] = DRM_VNPU_ACT_RELU;
	c.scratch = scratch;
	for (k = 0; k < 3; k++) {
		c.t[k].data = data[k];
		c.t[k].rank = 4;
		for (d = 0; d < 4; d++) {
			c.t[k].shape[d] = 1;
			c.t[k].strides[d] = 1;
		}
	}
	if (!impl || vnpu_op_check(impl, &c))
		return false;
	impl->run(&c, 0);
	return y == 0.0f;
}

/* Compile model (late_relu or not) at batch 1 and 2, run both, compare. */
static void run_and_compare(struct __test_metadata *_metadata,
			    FIXTURE_DATA(e2e) *self, bool late_relu)
{
	float x[2][3 * 8 * 8], y[2][10], ref[10];
	struct om_exec ex;
	void *io[2] = { x, y };
	int i, b;

	for (i = 0; i < 3 * 8 * 8; i++) {
		x[0][i] = (float)((i * 37) % 23) / 23.0f - 0.5f;
		x[1][i] = -x[0][i];
	}
	self->o.model = write_model(self->dir, true, NULL, late_relu);
	self->o.input_shape = "x:-1,3,8,8";
	self->o.dynamic_batch_size = "1,2";
	ASSERT_EQ(ATC_OK, atc_compile(&self->o));
	free(self->f.buf);
	ASSERT_EQ(0, read_om(self->om, &self->f));
	EXPECT_EQ(0, loader_accepts(_metadata, &self->f));
	ASSERT_EQ(0, omx_open(&ex, self->f.buf, self->f.len));
	/* the late ReLU is a task of its own, in place over the Add */
	EXPECT_EQ(late_relu ? 5u : 4u, self->f.var[0].node_count);
	/* batch 1, then both samples in the batch-2 variant */
	memset(y, 0, sizeof(y));
	ASSERT_EQ(0, omx_run(&ex, 0, io));
	reference(x[0], ref, late_relu);
	for (i = 0; i < 10; i++) {
		if (!close_to(y[0][i], ref[i]))
			TH_LOG("batch 1, y[%d] = %g, reference %g", i, y[0][i], ref[i]);
		EXPECT_TRUE(close_to(y[0][i], ref[i]));
	}
	memset(y, 0, sizeof(y));
	ASSERT_EQ(0, omx_run(&ex, 1, io));
	for (b = 0; b < 2; b++) {
		reference(x[b], ref, late_relu);
		for (i = 0; i < 10; i++) {
			if (!close_to(y[b][i], ref[i]))
				TH_LOG("batch 2, y[%d][%d] = %g, reference %g", b, i,
				       y[b][i], ref[i]);
			EXPECT_TRUE(close_to(y[b][i], ref[i]));
		}
	}
	EXPECT_NE(0.0f, ref[0]);
}

TEST_F(e2e, runs_on_the_host_like_the_reference)
{
	run_and_compare(_metadata, self, true);
}

TEST_F(e2e, fused_relu_runs_on_the_host_like_the_reference)
{
	if (!ops_fuse_activations())
		SKIP(return, "the operator library does not apply DRM_VNPU_ATTR_ACT yet (UAPI 1.4 kernel part)");
	run_and_compare(_metadata, self, false);
}

TEST(batch_list_parser)
{
	int64_t b[OM_MAX_VARIANTS + 1];
	char err[128], many[256] = "1";
	int i;

	EXPECT_EQ(4, atc_parse_batches("1,2,4,8", b, err, sizeof(err)));
	EXPECT_EQ(8, b[3]);
	EXPECT_EQ(-1, atc_parse_batches("", b, err, sizeof(err)));
	EXPECT_EQ(-1, atc_parse_batches("1,,2", b, err, sizeof(err)));
	EXPECT_EQ(-1, atc_parse_batches("1,x", b, err, sizeof(err)));
	EXPECT_EQ(-1, atc_parse_batches("-2", b, err, sizeof(err)));
	EXPECT_EQ(-1, atc_parse_batches("4,2,4", b, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "4 is given twice"));
	for (i = 2; i <= OM_MAX_VARIANTS + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), ",%d", i);
	EXPECT_EQ(-1, atc_parse_batches(many, b, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "more than 32"));
}

TEST_HARNESS_MAIN
