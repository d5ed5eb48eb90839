// SPDX-License-Identifier: MIT
/*
 * ONNX's Gradient operator differentiated by atc (lib/compile/ir_gradient.c):
 * small models built here, compiled by atc_compile and run on the host
 * with the operator library's host build. Each gradient output is checked
 * against a central finite difference of sum(y) (the seed is ones of y's
 * shape) computed with the same compiled model, or against a closed form:
 * every derivative rule, numpy broadcasting summed back, both ReduceSum
 * forms (opset 12 attribute, opset 13 input), an x with no path to y
 * (zeros), the gradient taken at inputs other than xs, and a Gradient over
 * an operator with no rule (ATC_UNSUPPORTED, naming op and node).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atc_compile.h"
#include "onnx_model.h"
#include "om_host_exec.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define MAXT 8

#define EXPECT_CLOSE(want, got, tol) \
	EXPECT_TRUE(fabs((double)(want) - (double)(got)) <= (tol)) \
		TH_LOG("want %g, got %g", (double)(want), (double)(got))

/* --- a tiny model description, turned into an ONNX ModelProto --- */

struct tin {
	const char *name;
	int rank;
	int64_t dims[4];
};

struct tnode {
	const char *op, *in, *out;	/* names split on spaces */
	const char *attrs;		/* "name:kind=value;..." kinds s S i I f */
};

struct tconst {
	const char *name;
	int elem;			/* ONNX data type: 1 float, 7 int64 */
	int rank;
	int64_t dims[2];
	double v[8];
};

struct tmodel {
	int opset;
	struct tin in[MAXT];
	struct tconst c[4];
	struct tnode n[8];
	const char *outputs;		/* y first, then the gradients */
};

static char **split(const char *s, char sep, size_t *n)
{
	char *d = strdup(s), **v = calloc(strlen(s) + 2, sizeof(*v));

	*n = 0;
	for (char *p = strtok(d, sep == ' ' ? " " : sep == ';' ? ";" : ","); p;
	     p = strtok(NULL, sep == ' ' ? " " : sep == ';' ? ";" : ","))
		v[(*n)++] = p;
	return v;
}

static Onnx__AttributeProto *attr(const char *spec)
{
	Onnx__AttributeProto *a = calloc(1, sizeof(*a));
	char *s = strdup(spec), *kind = strchr(s, ':'), *val = strchr(s, '=');
	size_t n;
	char **parts;

	onnx__attribute_proto__init(a);
	*kind++ = 0;
	*val++ = 0;
	a->name = s;
	a->has_type = 1;
	switch (*kind) {
	case 's':
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
		a->has_s = 1;
		a->s.data = (uint8_t *)val;
		a->s.len = strlen(val);
		break;
	case 'S':
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
		parts = split(val, ',', &n);
		a->n_strings = n;
		a->strings = calloc(n + 1, sizeof(*a->strings));
		for (size_t k = 0; k < n; k++) {
			a->strings[k].data = (uint8_t *)parts[k];
			a->strings[k].len = strlen(parts[k]);
		}
		break;
	case 'i':
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
		a->has_i = 1;
		a->i = atoll(val);
		break;
	case 'I':
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
		parts = split(val, ',', &n);
		a->n_ints = n;
		a->ints = calloc(n + 1, sizeof(int64_t));
		for (size_t k = 0; k < n; k++)
			a->ints[k] = atoll(parts[k]);
		break;
	default:
		a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
		a->has_f = 1;
		a->f = strtof(val, NULL);
	}
	return a;
}

static Onnx__ValueInfoProto *value(const char *name, const struct tin *t)
{
	Onnx__ValueInfoProto *v = calloc(1, sizeof(*v));
	Onnx__TypeProto *ty = calloc(1, sizeof(*ty));
	Onnx__TypeProto__Tensor *tt = calloc(1, sizeof(*tt));
	Onnx__TensorShapeProto *sh = calloc(1, sizeof(*sh));

	onnx__value_info_proto__init(v);
	v->name = (char *)name;
	if (!t)
		return v;	/* a graph output: atc infers it */
	onnx__type_proto__init(ty);
	onnx__type_proto__tensor__init(tt);
	onnx__tensor_shape_proto__init(sh);
	sh->n_dim = (size_t)t->rank;
	sh->dim = calloc((size_t)t->rank + 1, sizeof(*sh->dim));
	for (int i = 0; i < t->rank; i++) {
		sh->dim[i] = calloc(1, sizeof(*sh->dim[i]));
		onnx__tensor_shape_proto__dimension__init(sh->dim[i]);
		sh->dim[i]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		sh->dim[i]->dim_value = t->dims[i];
	}
	tt->has_elem_type = 1;
	tt->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	tt->shape = sh;
	ty->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	ty->tensor_type = tt;
	v->type = ty;
	return v;
}

static Onnx__TensorProto *initializer(const struct tconst *c)
{
	Onnx__TensorProto *t = calloc(1, sizeof(*t));
	int64_t n = 1;

	onnx__tensor_proto__init(t);
	t->name = (char *)c->name;
	t->n_dims = (size_t)c->rank;
	t->dims = (int64_t *)c->dims;
	for (int d = 0; d < c->rank; d++)
		n *= c->dims[d];
	t->has_data_type = 1;
	t->data_type = c->elem;
	if (c->elem == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT) {
		t->n_float_data = (size_t)n;
		t->float_data = calloc((size_t)n, sizeof(float));
		for (int64_t k = 0; k < n; k++)
			t->float_data[k] = (float)c->v[k];
	} else {
		t->n_int64_data = (size_t)n;
		t->int64_data = calloc((size_t)n, sizeof(int64_t));
		for (int64_t k = 0; k < n; k++)
			t->int64_data[k] = (int64_t)c->v[k];
	}
	return t;
}

static int write_model(const struct tmodel *tm, const char *path)
{
	Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
	Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
	Onnx__OperatorSetIdProto o1 = ONNX__OPERATOR_SET_ID_PROTO__INIT;
	Onnx__OperatorSetIdProto o2 = ONNX__OPERATOR_SET_ID_PROTO__INIT;
	Onnx__OperatorSetIdProto *ops[2] = { &o1, &o2 };
	Onnx__NodeProto *nodes[8];
	Onnx__ValueInfoProto *in[MAXT], *out[MAXT];
	Onnx__TensorProto *init[4];
	size_t n, len;
	char **outs = split(tm->outputs, ' ', &n);
	uint8_t *buf;
	FILE *f;
	int ret;

	g.n_output = n;
	for (size_t k = 0; k < n; k++)
		out[k] = value(outs[k], NULL);
	for (n = 0; n < MAXT && tm->in[n].name; n++)
		in[n] = value(tm->in[n].name, &tm->in[n]);
	g.n_input = n;
	for (n = 0; n < 4 && tm->c[n].name; n++)
		init[n] = initializer(&tm->c[n]);
	g.n_initializer = n;
	for (n = 0; n < 8 && tm->n[n].op; n++) {
		const struct tnode *t = &tm->n[n];
		Onnx__NodeProto *p = calloc(1, sizeof(*p));
		size_t na = 0;
		char **as = t->attrs ? split(t->attrs, ';', &na) : NULL;

		onnx__node_proto__init(p);
		p->op_type = (char *)t->op;
		p->input = split(t->in, ' ', &p->n_input);
		p->output = split(t->out, ' ', &p->n_output);
		p->name = strdup(p->output[0]);
		if (!strcmp(t->op, "Gradient"))
			p->domain = "ai.onnx.preview.training";
		p->n_attribute = na;
		p->attribute = calloc(na + 1, sizeof(*p->attribute));
		for (size_t k = 0; k < na; k++)
			p->attribute[k] = attr(as[k]);
		nodes[n] = p;
	}
	g.n_node = n;
	g.node = nodes;
	g.input = in;
	g.output = out;
	g.initializer = init;
	g.name = "grad";
	o1.domain = "";
	o1.has_version = 1;
	o1.version = tm->opset;
	o2.domain = "ai.onnx.preview.training";
	o2.has_version = 1;
	o2.version = 1;
	m.has_ir_version = 1;
	m.ir_version = 8;
	m.n_opset_import = 2;
	m.opset_import = ops;
	m.graph = &g;
	len = onnx__model_proto__get_packed_size(&m);
	buf = malloc(len);
	onnx__model_proto__pack(&m, buf);
	f = fopen(path, "wb");
	ret = f && fwrite(buf, 1, len, f) == len ? 0 : -1;
	if (f)
		fclose(f);
	free(buf);
	return ret;
}

/* --- compile and run --- */

struct run {
	char dir[64], log[96], text[4096];
	uint8_t *file;
	struct om_exec x;
	int nin, nout;
	size_t count[2 * MAXT];		/* elements per io, inputs first */
	float *buf[2 * MAXT];
};

static int compile(struct run *r, const struct tmodel *tm)
{
	struct atc_options o = { .framework = ATC_FRAMEWORK_ONNX,
				 .soc_version = "x", .log = "error" };
	char model[96], stem[96], om[100];
	int saved, fd, ret;
	FILE *f;
	long len;
	size_t n;

	memset(r, 0, sizeof(*r));
	strcpy(r->dir, "/tmp/atc_grad_XXXXXX");
	if (!mkdtemp(r->dir))
		return -1;
	snprintf(model, sizeof(model), "%s/m.onnx", r->dir);
	snprintf(stem, sizeof(stem), "%s/m", r->dir);
	snprintf(om, sizeof(om), "%s/m.om", r->dir);
	snprintf(r->log, sizeof(r->log), "%s/log", r->dir);
	if (write_model(tm, model))
		return -1;
	o.model = model;
	o.output = stem;
	fflush(stderr);
	saved = dup(2);
	fd = fileno(fopen(r->log, "w"));
	dup2(fd, 2);
	close(fd);
	ret = atc_compile(&o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(r->log, "r");
	n = f ? fread(r->text, 1, sizeof(r->text) - 1, f) : 0;
	r->text[n] = 0;
	if (f)
		fclose(f);
	if (ret != ATC_OK)
		return ret;
	f = fopen(om, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	r->file = aligned_alloc(64, ((size_t)len + 63) & ~(size_t)63);
	if (fread(r->file, 1, (size_t)len, f) != (size_t)len || omx_open(&r->x, r->file, (size_t)len)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	{
		const struct om_io *io = omx_sec(&r->x, OM_SEC_IO);
		uint32_t nio = r->x.sec[OM_SEC_IO]->count;

		for (uint32_t k = 0; k < nio && k < 2 * MAXT; k++) {
			size_t c = 1;

			for (uint32_t d = 0; d < io[k].rank; d++)
				c *= (size_t)io[k].dims[d];
			r->count[k] = c;
			r->buf[k] = calloc(c + 1, sizeof(float));
			if (io[k].flags & OM_IO_OUTPUT)
				r->nout++;
			else
				r->nin++;
		}
	}
	return ATC_OK;
}

static void release(struct run *r)
{
	char cmd[96];

	for (int k = 0; k < 2 * MAXT; k++)
		free(r->buf[k]);
	free(r->file);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", r->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", r->dir);
}

/* Run once; sum(y) (output 0) in double. */
static int run_sum(struct run *r, double *sum)
{
	void *io[2 * MAXT];

	for (int k = 0; k < r->nin + r->nout; k++)
		io[k] = r->buf[k];
	if (omx_run(&r->x, 0, io))
		return -1;
	*sum = 0;
	for (size_t e = 0; e < r->count[r->nin]; e++)
		*sum += r->buf[r->nin][e];
	return 0;
}

/* Deterministic inputs: magnitudes in [0.3, 1.3], signs alternating unless positive. */
static void fill_inputs(struct run *r, bool positive)
{
	unsigned int s = 12345;

	for (int k = 0; k < r->nin; k++)
		for (size_t e = 0; e < r->count[k]; e++) {
			s = s * 1103515245u + 12345u;
			r->buf[k][e] = 0.3f + (float)((s >> 8) % 1000) / 1000.0f;
			if (!positive && (e + (size_t)k) % 2)
				r->buf[k][e] = -r->buf[k][e];
		}
}

/*
 * Gradient output k (graph output 1 + k) against the central difference
 * of sum(y) over input k, for the first nx inputs.
 */
static void check_fd(struct __test_metadata *_metadata, const struct tmodel *tm,
		     int nx, bool positive)
{
	const double h = 1e-2;
	struct run r;
	int bad = 0;

	ASSERT_EQ(ATC_OK, compile(&r, tm)) TH_LOG("atc: %s", r.text);
	ASSERT_EQ(1 + nx, r.nout);
	fill_inputs(&r, positive);
	for (int k = 0; k < nx; k++) {
		float *g;
		double s;

		ASSERT_EQ(0, run_sum(&r, &s));
		ASSERT_EQ(r.count[k], r.count[r.nin + 1 + k]) TH_LOG("gradient %d's size", k);
		g = malloc(r.count[k] * sizeof(float));
		memcpy(g, r.buf[r.nin + 1 + k], r.count[k] * sizeof(float));
		for (size_t e = 0; e < r.count[k]; e++) {
			float x0 = r.buf[k][e];
			double sp, sm, fd;

			r.buf[k][e] = x0 + (float)h;
			ASSERT_EQ(0, run_sum(&r, &sp));
			r.buf[k][e] = x0 - (float)h;
			ASSERT_EQ(0, run_sum(&r, &sm));
			r.buf[k][e] = x0;
			fd = (sp - sm) / (2 * h);
			if (!(fabs(fd - g[e]) <= 2e-2 * fmax(1.0, fabs(fd))) && bad++ < 8)
				TH_LOG("input %d element %zu: gradient %g, finite difference %g",
				       k, e, g[e], fd);
		}
		free(g);
	}
	EXPECT_EQ(0, bad);
	release(&r);
}

#define GRAD(xs, y, in, out) \
	{ "Gradient", in, out, "xs:S=" xs ";y:s=" y }

TEST(add_mul_broadcast)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 2, { 2, 3 } }, { "b", 1, { 3 } }, { "c", 2, { 2, 1 } } },
		.n = { { "Add", "a b", "t" }, { "Mul", "t c", "y" },
		       GRAD("a,b,c", "y", "a b c", "ga gb gc") },
		.outputs = "y ga gb gc",
	};

	check_fd(_metadata, &m, 3, false);
}

/* Scalars as in ONNX's own test: d(a*(a+b))/da = 2a + b, /db = a. */
TEST(scalar_add_and_mul_closed_form)
{
	static const struct tmodel m = {
		.opset = 12,
		.in = { { "a", 0 }, { "b", 0 } },
		.n = { { "Add", "a b", "c" }, { "Mul", "c a", "d" },
		       GRAD("a,b", "d", "a b", "da db") },
		.outputs = "d da db",
	};
	struct run r;
	double s;

	ASSERT_EQ(ATC_OK, compile(&r, &m)) TH_LOG("atc: %s", r.text);
	r.buf[0][0] = 1.5f;
	r.buf[1][0] = -2.0f;
	ASSERT_EQ(0, run_sum(&r, &s));
	EXPECT_EQ(1.5f * (1.5f - 2.0f), r.buf[2][0]);
	EXPECT_EQ(2 * 1.5f - 2.0f, r.buf[3][0]);
	EXPECT_EQ(1.5f, r.buf[4][0]);
	release(&r);
}

TEST(sub_div_neg_sum)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 2, { 2, 3 } }, { "b", 2, { 1, 3 } } },
		.n = { { "Sub", "a b", "s" }, { "Div", "s b", "d" },
		       { "Neg", "d", "n" }, { "Sum", "n a b", "y" },
		       GRAD("a,b", "y", "a b", "ga gb") },
		.outputs = "y ga gb",
	};

	check_fd(_metadata, &m, 2, true);
}

TEST(activations)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "x", 2, { 2, 3 } } },
		.n = { { "Sigmoid", "x", "s" }, { "Tanh", "x", "t" },
		       { "Exp", "x", "e" }, { "Relu", "x", "r" },
		       { "Identity", "x", "i" }, { "Sum", "s t e r i", "y" },
		       GRAD("x", "y", "x", "gx") },
		.outputs = "y gx",
	};

	check_fd(_metadata, &m, 1, false);
}

TEST(log_sqrt_pow)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "x", 2, { 2, 3 } }, { "q", 1, { 3 } } },
		.c = { { "three", 1, 0, { 0 }, { 3 } }, { "half", 7, 0, { 0 }, { 2 } } },
		.n = { { "Log", "x", "l" }, { "Sqrt", "x", "s" },
		       { "Pow", "x three", "p" }, { "Pow", "x q", "p2" },
		       { "Pow", "x half", "p3" }, { "Sum", "l s p p2 p3", "y" },
		       GRAD("x,q", "y", "x q", "gx gq") },
		.outputs = "y gx gq",
	};

	check_fd(_metadata, &m, 2, true);
}

TEST(matmul_batched_broadcast)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 3, { 2, 2, 3 } }, { "b", 2, { 3, 4 } }, { "w", 2, { 2, 4 } } },
		.n = { { "MatMul", "a b", "p" }, { "Mul", "p w", "y" },
		       GRAD("a,b,w", "y", "a b w", "ga gb gw") },
		.outputs = "y ga gb gw",
	};

	check_fd(_metadata, &m, 3, false);
}

TEST(gemm_transposed)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 2, { 3, 2 } }, { "b", 2, { 4, 3 } }, { "c", 1, { 4 } },
			{ "w", 2, { 2, 4 } } },
		.n = { { "Gemm", "a b c", "p", "transA:i=1;transB:i=1;alpha:f=0.5;beta:f=2" },
		       { "Mul", "p w", "y" },
		       GRAD("a,b,c,w", "y", "a b c w", "ga gb gc gw") },
		.outputs = "y ga gb gc gw",
	};

	check_fd(_metadata, &m, 4, false);
}

TEST(gemm_plain)
{
	/* w is a z here: three inputs, two gradients */
	static const struct tmodel mz = {
		.opset = 13,
		.in = { { "a", 2, { 2, 3 } }, { "b", 2, { 3, 4 } }, { "w", 2, { 2, 4 } } },
		.n = { { "Gemm", "a b", "p" }, { "Mul", "p w", "y" },
		       { "Gradient", "a b w", "ga gb", "xs:S=a,b;zs:S=w;y:s=y" } },
		.outputs = "y ga gb",
	};

	check_fd(_metadata, &mz, 2, false);
}

TEST(reductions_both_opsets)
{
	static const struct tmodel m13 = {
		.opset = 13,
		.in = { { "x", 3, { 2, 3, 4 } }, { "w", 2, { 2, 4 } } },
		.c = { { "ax", 7, 1, { 1 }, { 1 } } },
		.n = { { "ReduceSum", "x ax", "r1", "keepdims:i=0" },
		       { "ReduceMean", "x", "r2", "axes:I=-2;keepdims:i=0" },
		       { "Add", "r1 r2", "s" }, { "Mul", "s w", "y" },
		       GRAD("x,w", "y", "x w", "gx gw") },
		.outputs = "y gx gw",
	};
	static const struct tmodel m12 = {
		.opset = 12,
		.in = { { "x", 3, { 2, 3, 4 } }, { "w", 1, { 4 } } },
		.n = { { "ReduceSum", "x", "r1", "axes:I=0,1" },
		       { "ReduceMean", "x", "r2" },
		       { "Mul", "r1 w", "m" }, { "Add", "m r2", "y" },
		       GRAD("x,w", "y", "x w", "gx gw") },
		.outputs = "y gx gw",
	};

	check_fd(_metadata, &m13, 2, false);
	check_fd(_metadata, &m12, 2, false);
}

TEST(reshape_flatten_transpose)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "x", 3, { 2, 3, 4 } }, { "w", 2, { 6, 4 } } },
		.c = { { "shape", 7, 1, { 2 }, { 6, 4 } } },
		.n = { { "Transpose", "x", "t", "perm:I=2,0,1" },
		       { "Flatten", "t", "f", "axis:i=1" },
		       { "Reshape", "f shape", "r" }, { "Mul", "r w", "y" },
		       GRAD("x", "y", "x", "gx") },
		.outputs = "y gx",
	};

	check_fd(_metadata, &m, 1, false);
}

/* b reaches nothing, c reaches only an output that is not y: zeros. */
TEST(unreachable_x_gets_zeros)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 2, { 2, 3 } }, { "b", 1, { 5 } }, { "c", 2, { 2, 3 } } },
		.n = { { "Relu", "a", "y" }, { "Exp", "c", "e" },
		       GRAD("a,b,c", "y", "a b c", "ga gb gc") },
		.outputs = "y ga gb gc e",
	};
	struct run r;
	double s;

	ASSERT_EQ(ATC_OK, compile(&r, &m)) TH_LOG("atc: %s", r.text);
	ASSERT_EQ(5u, r.count[r.nin + 2]);
	ASSERT_EQ(6u, r.count[r.nin + 3]);
	fill_inputs(&r, false);
	for (int k = 1; k <= 3; k++)
		for (size_t e = 0; e < r.count[r.nin + k]; e++)
			r.buf[r.nin + k][e] = 7;
	ASSERT_EQ(0, run_sum(&r, &s));
	for (size_t e = 0; e < 6; e++)
		EXPECT_EQ(r.buf[0][e] > 0 ? 1.0f : 0.0f, r.buf[r.nin + 1][e]);
	for (size_t e = 0; e < 5; e++)
		EXPECT_EQ(0.0f, r.buf[r.nin + 2][e]);
	for (size_t e = 0; e < 6; e++)
		EXPECT_EQ(0.0f, r.buf[r.nin + 3][e]);
	release(&r);
}

/* The Gradient's inputs give the point: d(a*b)/da at a2 is b, /db is a2. */
TEST(gradient_at_other_inputs)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 1, { 3 } }, { "b", 1, { 3 } }, { "a2", 1, { 3 } } },
		.n = { { "Mul", "a b", "y" }, { "Exp", "y", "e" },
		       GRAD("a,b", "e", "a2 b", "ga gb") },
		.outputs = "e ga gb",
	};
	struct run r;
	double s;

	ASSERT_EQ(ATC_OK, compile(&r, &m)) TH_LOG("atc: %s", r.text);
	fill_inputs(&r, false);
	ASSERT_EQ(0, run_sum(&r, &s));
	for (int e = 0; e < 3; e++) {
		float a = r.buf[0][e], b = r.buf[1][e], a2 = r.buf[2][e];
		float ey = expf(a2 * b);

		(void)a;
		EXPECT_CLOSE(ey * b, r.buf[r.nin + 1][e], 1e-5 * fabsf(ey * b) + 1e-6);
		EXPECT_CLOSE(ey * a2, r.buf[r.nin + 2][e], 1e-5 * fabsf(ey * a2) + 1e-6);
		/* the forward output itself still uses a */
		EXPECT_CLOSE(expf(a * b), r.buf[r.nin][e], 1e-5 * expf(a * b));
	}
	release(&r);
}

/* An intermediate tensor as x (the spec's dY/dH): a leaf, y = h * b. */
TEST(intermediate_x_is_a_leaf)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "a", 1, { 3 } }, { "b", 1, { 3 } } },
		.n = { { "Exp", "a", "h" }, { "Mul", "h b", "y" },
		       GRAD("h,a", "y", "h a", "gh ga") },
		.outputs = "y gh ga",
	};
	struct run r;
	double s;

	ASSERT_EQ(ATC_OK, compile(&r, &m)) TH_LOG("atc: %s", r.text);
	fill_inputs(&r, false);
	ASSERT_EQ(0, run_sum(&r, &s));
	for (int e = 0; e < 3; e++) {
		/* y does not depend on a once h is independent */
		EXPECT_EQ(r.buf[1][e], r.buf[r.nin + 1][e]);
		EXPECT_EQ(0.0f, r.buf[r.nin + 2][e]);
	}
	release(&r);
}

TEST(no_rule_is_unsupported)
{
	static const struct tmodel m = {
		.opset = 13,
		.in = { { "x", 1, { 3 } } },
		.n = { { "Sin", "x", "s" }, { "Exp", "s", "y" },
		       GRAD("x", "y", "x", "gx") },
		.outputs = "y gx",
	};
	/* Sin off the path to y needs no rule */
	static const struct tmodel ok = {
		.opset = 13,
		.in = { { "x", 1, { 3 } } },
		.n = { { "Sin", "x", "s" }, { "Exp", "x", "y" },
		       GRAD("x", "y", "x", "gx") },
		.outputs = "y gx s",
	};
	static const struct tmodel split = {
		.opset = 13,
		.in = { { "x", 1, { 4 } } },
		.n = { { "Split", "x", "s0 s1" }, { "Exp", "s1", "y" },
		       GRAD("x", "y", "x", "gx") },
		.outputs = "y gx",
	};
	struct run r;

	EXPECT_EQ(ATC_UNSUPPORTED, compile(&r, &m));
	EXPECT_NE(NULL, strstr(r.text, "no derivative rule for Sin (node s)")) TH_LOG("%s", r.text);
	EXPECT_NE(NULL, strstr(r.text, "Gradient node gx")) TH_LOG("%s", r.text);
	release(&r);
	EXPECT_EQ(ATC_OK, compile(&r, &ok)) TH_LOG("%s", r.text);
	release(&r);
	/* a second output on the path: Split's rule would be needed */
	EXPECT_EQ(ATC_UNSUPPORTED, compile(&r, &split));
	EXPECT_NE(NULL, strstr(r.text, "no derivative rule for Split (node s0)")) TH_LOG("%s", r.text);
	release(&r);
}

TEST(malformed_gradient_refused)
{
	static const struct tmodel bad_y = {
		.opset = 13,
		.in = { { "x", 1, { 3 } } },
		.n = { { "Exp", "x", "y" }, GRAD("x", "nosuch", "x", "gx") },
		.outputs = "y gx",
	};
	static const struct tmodel bad_count = {
		.opset = 13,
		.in = { { "x", 1, { 3 } }, { "z", 1, { 3 } } },
		.n = { { "Exp", "x", "y" }, GRAD("x", "y", "x z", "gx") },
		.outputs = "y gx",
	};
	static const struct tmodel bad_shape = {
		.opset = 13,
		.in = { { "x", 1, { 3 } }, { "z", 1, { 4 } } },
		.n = { { "Exp", "x", "y" }, GRAD("x", "y", "z", "gx") },
		.outputs = "y gx",
	};
	struct run r;

	EXPECT_EQ(ATC_BAD_MODEL, compile(&r, &bad_y));
	EXPECT_NE(NULL, strstr(r.text, "y names nosuch")) TH_LOG("%s", r.text);
	release(&r);
	EXPECT_EQ(ATC_BAD_MODEL, compile(&r, &bad_count));
	EXPECT_NE(NULL, strstr(r.text, "has 2 inputs, xs and zs name 1")) TH_LOG("%s", r.text);
	release(&r);
	EXPECT_EQ(ATC_BAD_MODEL, compile(&r, &bad_shape));
	EXPECT_NE(NULL, strstr(r.text, "differs in shape or dtype from x")) TH_LOG("%s", r.text);
	release(&r);
}

TEST_HARNESS_MAIN
