// SPDX-License-Identifier: MIT
/*
 * The graph's shared lookups and builders: every pass changes the graph
 * through these, so tensors and nodes stay consistent (names unique,
 * constants always with data, dims within IR_MAX_RANK).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "../om/om_format.h"
#include "../../kernel/ops/vnpu_dtype.h"

int ir_find_tensor(const struct ir_graph *g, const char *name)
{
	int i;

	for (i = 0; i < g->ntensors; i++)
		if (!strcmp(g->tensors[i].name, name))
			return i;
	return -1;
}

int ir_add_tensor(struct ir_graph *g, const char *name)
{
	struct ir_tensor *t;

	if (ir_find_tensor(g, name) >= 0)
		return -1;
	if (g->ntensors == g->cap_tensors) {
		int cap = g->cap_tensors ? 2 * g->cap_tensors : 64;
		void *p = realloc(g->tensors, (size_t)cap * sizeof(*t));

		if (!p)
			return -1;
		g->tensors = p;
		g->cap_tensors = cap;
	}
	t = &g->tensors[g->ntensors];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name)
		return -1;
	t->dtype = IR_DT_UNDEFINED;
	t->rank = -1;
	t->producer = -1;
	t->input_index = -1;
	t->output_index = -1;
	return g->ntensors++;
}

int ir_add_node(struct ir_graph *g, const char *name, const char *op_type,
		int nin, int nout)
{
	struct ir_node *n;
	int i;

	if (g->nnodes == g->cap_nodes) {
		int cap = g->cap_nodes ? 2 * g->cap_nodes : 64;
		void *p = realloc(g->nodes, (size_t)cap * sizeof(*n));

		if (!p)
			return -1;
		g->nodes = p;
		g->cap_nodes = cap;
	}
	n = &g->nodes[g->nnodes];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->op_type = strdup(op_type);
	n->domain = strdup("");
	n->inputs = malloc(sizeof(int) * (size_t)(nin ? nin : 1));
	n->outputs = malloc(sizeof(int) * (size_t)(nout ? nout : 1));
	if (!n->name || !n->op_type || !n->domain || !n->inputs || !n->outputs) {
		free(n->name);
		free(n->op_type);
		free(n->domain);
		free(n->inputs);
		free(n->outputs);
		return -1;
	}
	for (i = 0; i < nin; i++)
		n->inputs[i] = -1;
	for (i = 0; i < nout; i++)
		n->outputs[i] = -1;
	n->nin = nin;
	n->nout = nout;
	return g->nnodes++;
}

int ir_set_data(struct ir_graph *g, int t, const void *data, size_t nbytes)
{
	void *p = malloc(nbytes ? nbytes : 1);

	if (!p)
		return -1;
	if (nbytes)
		memcpy(p, data, nbytes);
	free(g->tensors[t].data);
	g->tensors[t].data = p;
	g->tensors[t].nbytes = nbytes;
	return 0;
}

int ir_add_const(struct ir_graph *g, const char *base, int dtype, int rank,
		 const int64_t *dims, const void *data)
{
	char name[256];
	struct ir_tensor *t;
	int i, k;

	snprintf(name, sizeof(name), "%s", base);
	for (k = 1; ir_find_tensor(g, name) >= 0; k++)
		snprintf(name, sizeof(name), "%s_%d", base, k);
	i = ir_add_tensor(g, name);
	if (i < 0 || rank < 0 || rank > IR_MAX_RANK)
		return -1;
	t = &g->tensors[i];
	t->dtype = dtype;
	t->rank = rank;
	memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
	if (ir_set_data(g, i, data, (size_t)ir_numel(t) * ir_dtype_size(dtype)))
		return -1;
	return i;
}

const struct ir_attr *ir_attr(const struct ir_node *n, const char *name)
{
	int i;

	for (i = 0; i < n->nattrs; i++)
		if (!strcmp(n->attrs[i].name, name))
			return &n->attrs[i];
	return NULL;
}

int64_t ir_attr_int(const struct ir_node *n, const char *name, int64_t def)
{
	const struct ir_attr *a = ir_attr(n, name);

	return a && a->kind == IR_ATTR_INT ? a->i : def;
}

float ir_attr_float(const struct ir_node *n, const char *name, float def)
{
	const struct ir_attr *a = ir_attr(n, name);

	return a && a->kind == IR_ATTR_FLOAT ? a->f : def;
}

/* The attribute called name, added empty when the node has none. */
static struct ir_attr *attr_slot(struct ir_node *n, const char *name)
{
	struct ir_attr *a = (struct ir_attr *)ir_attr(n, name);
	void *p;

	if (a) {
		free(a->s);
		free(a->ints);
		free(a->floats);
		a->s = NULL;
		a->ints = NULL;
		a->floats = NULL;
		a->count = 0;
		return a;
	}
	p = realloc(n->attrs, sizeof(*a) * (size_t)(n->nattrs + 1));
	if (!p)
		return NULL;
	n->attrs = p;
	a = &n->attrs[n->nattrs];
	memset(a, 0, sizeof(*a));
	a->name = strdup(name);
	if (!a->name)
		return NULL;
	a->tensor = -1;
	n->nattrs++;
	return a;
}

int ir_set_attr_int(struct ir_node *n, const char *name, int64_t v)
{
	struct ir_attr *a = attr_slot(n, name);

	if (!a)
		return -1;
	a->kind = IR_ATTR_INT;
	a->i = v;
	return 0;
}

int ir_set_attr_str(struct ir_node *n, const char *name, const char *v)
{
	struct ir_attr *a = attr_slot(n, name);

	if (!a)
		return -1;
	a->s = strdup(v);
	if (!a->s)
		return -1;
	a->kind = IR_ATTR_STRING;
	return 0;
}

int ir_set_attr_float(struct ir_node *n, const char *name, float v)
{
	struct ir_attr *a = attr_slot(n, name);

	if (!a)
		return -1;
	a->kind = IR_ATTR_FLOAT;
	a->f = v;
	return 0;
}

int ir_set_attr_ints(struct ir_node *n, const char *name, const int64_t *v,
		     size_t count)
{
	struct ir_attr *a = attr_slot(n, name);

	if (!a)
		return -1;
	a->kind = IR_ATTR_INTS;
	a->ints = malloc(sizeof(int64_t) * (count ? count : 1));
	if (!a->ints)
		return -1;
	if (count)
		memcpy(a->ints, v, sizeof(int64_t) * count);
	a->count = count;
	return 0;
}

int ir_set_op_type(struct ir_node *n, const char *op_type)
{
	char *s = strdup(op_type);

	if (!s)
		return -1;
	free(n->op_type);
	n->op_type = s;
	return 0;
}

size_t ir_dtype_size(int dtype)
{
	/* each element's share of a string buffer (om_format.h) */
	if (dtype == OM_DTYPE_STRING)
		return OM_STRING_ELEM_BYTES;
	return vnpu_dtype_size((uint32_t)dtype);
}

bool ir_dtype_is_float(int dtype)
{
	return vnpu_dtype_is_fp((uint32_t)dtype);
}

const char *ir_dtype_name(int dtype)
{
	const char *s = vnpu_dtype_name((uint32_t)dtype);

	if (dtype == OM_DTYPE_STRING)
		return "string";
	return s ? s : "undefined";
}

int64_t ir_numel(const struct ir_tensor *t)
{
	int64_t n = 1;
	int i;

	if (t->rank < 0)
		return -1;
	for (i = 0; i < t->rank; i++) {
		if (t->dims[i] < 0)
			return -1;
		n *= t->dims[i];
	}
	return n;
}

bool ir_is_const(const struct ir_graph *g, int tensor)
{
	return tensor >= 0 && tensor < g->ntensors && g->tensors[tensor].data;
}

/*
 * Through at most this many producers (a Cast, an Add, ... of an input),
 * visiting at most NEED_VISITS tensors (wide nodes such as Concat).
 */
#define NEED_DEPTH	8
#define NEED_VISITS	256

static void need_value(const struct ir_graph *g, int t, int depth, int *visits)
{
	struct ir_graph *rec = (struct ir_graph *)g;	/* the side record only */
	const struct ir_tensor *x;
	char **need, *name;
	int i, p;

	if (t < 0 || t >= g->ntensors || ++*visits > NEED_VISITS)
		return;
	x = &g->tensors[t];
	p = x->producer;
	if (!x->data && x->input_index < 0 && p >= 0 && p < g->nnodes &&
	    depth < NEED_DEPTH) {
		for (i = 0; i < g->nodes[p].nin; i++)
			need_value(g, g->nodes[p].inputs[i], depth + 1, visits);
		return;
	}
	if (x->data || x->input_index < 0 || !x->name)
		return;
	for (i = 0; i < g->nneed; i++)
		if (!strcmp(g->need[i], x->name))
			return;
	need = realloc(rec->need, (size_t)(g->nneed + 1) * sizeof(*need));
	if (!need)
		return;		/* only a hint is lost */
	rec->need = need;
	name = strdup(x->name);
	if (name)
		need[rec->nneed++] = name;
}

void ir_need_value(const struct ir_graph *g, int t)
{
	int visits = 0;

	need_value(g, t, 0, &visits);
}

const char *ir_needs_str(const struct ir_graph *g, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < g->nneed && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 g->need[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

int ir_uses(const struct ir_graph *g, int tensor)
{
	int i, j, uses = g->tensors[tensor].output_index >= 0;

	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].dead)
			continue;
		for (j = 0; j < g->nodes[i].nin; j++)
			uses += g->nodes[i].inputs[j] == tensor;
	}
	return uses;
}

int ir_sole_consumer(const struct ir_graph *g, int t)
{
	int i, j, found = -1;

	if (g->tensors[t].output_index >= 0)
		return -1;
	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].dead)
			continue;
		for (j = 0; j < g->nodes[i].nin; j++) {
			if (g->nodes[i].inputs[j] != t)
				continue;
			if (found >= 0)
				return -1;
			found = i;
		}
	}
	return found;
}

/* IEEE half to float and back (round to nearest even), for constants. */
static float half_to_float(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v;

	if (e == 0)
		v = ldexpf((float)m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexpf((float)(m | 0x400), e - 25);
	return (h & 0x8000) ? -v : v;
}

static uint16_t float_to_half(float f)
{
	uint32_t x, sign, mant;
	int e;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	e = (int)((x >> 23) & 0xff) - 127 + 15;
	mant = x & 0x7fffff;
	if (((x >> 23) & 0xff) == 0xff)
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		mant |= 0x800000;
		{
			int shift = 14 - e;
			uint32_t half = mant >> shift;
			uint32_t rest = mant & ((1u << shift) - 1);
			uint32_t mid = 1u << (shift - 1);

			if (rest > mid || (rest == mid && (half & 1)))
				half++;
			return (uint16_t)(sign | half);
		}
	}
	{
		uint32_t h = sign | ((uint32_t)e << 10) | (mant >> 13);
		uint32_t rest = mant & 0x1fff;

		if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
			h++;
		return (uint16_t)h;
	}
}

double ir_get_f64(const struct ir_tensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
	case DT_FLOAT: return ((const float *)p)[i];
	case DT_DOUBLE: return ((const double *)p)[i];
	case DT_FLOAT16: return half_to_float(((const uint16_t *)p)[i]);
	case DT_BF16: {
		uint32_t x = (uint32_t)((const uint16_t *)p)[i] << 16;
		float f;

		memcpy(&f, &x, 4);
		return f;
	}
	}
	return (double)ir_get_i64(t, i);
}

/* The integer cases of the switches below, one per integer dtype. */
#define GET_INT(NAME, type, ...) \
	case DT_##NAME: return (int64_t)((const type *)p)[i];
#define PUT_INT(NAME, type, ...) \
	case DT_##NAME: ((type *)p)[i] = (type)v; return;

int64_t ir_get_i64(const struct ir_tensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
#define VNPU_DTYPE_INT GET_INT
#include "../../kernel/ops/vnpu_dtypes.def"
	case DT_BOOL: return ((const uint8_t *)p)[i];
	}
	if (ir_dtype_is_float(t->dtype)) {
		double v = ir_get_f64(t, i);

		/* C's conversion is undefined out of range: clamp */
		if (!(v == v))
			return 0;
		if (v >= 9.2e18)
			return INT64_MAX;
		if (v <= -9.2e18)
			return INT64_MIN;
		return (int64_t)v;
	}
	return 0;
}

void ir_put_f64(struct ir_tensor *t, int64_t i, double v)
{
	void *p = t->data;

	switch (t->dtype) {
	case DT_FLOAT: ((float *)p)[i] = (float)v; return;
	case DT_DOUBLE: ((double *)p)[i] = v; return;
	case DT_FLOAT16: ((uint16_t *)p)[i] = float_to_half((float)v); return;
	case DT_BF16: {
		float f = (float)v;
		uint32_t x;

		memcpy(&x, &f, 4);
		x += 0x7fff + ((x >> 16) & 1);
		((uint16_t *)p)[i] = (uint16_t)(x >> 16);
		return;
	}
	case DT_BOOL: ((uint8_t *)p)[i] = v != 0; return;
	}
	if (!(v == v))
		v = 0;
	if (v >= 9.2e18)
		v = 9.2e18;
	if (v <= -9.2e18)
		v = -9.2e18;
	ir_put_i64(t, i, (int64_t)v);
}

void ir_put_i64(struct ir_tensor *t, int64_t i, int64_t v)
{
	void *p = t->data;

	switch (t->dtype) {
#define VNPU_DTYPE_INT PUT_INT
#include "../../kernel/ops/vnpu_dtypes.def"
	case DT_BOOL: ((uint8_t *)p)[i] = v != 0; return;
	}
	if (ir_dtype_is_float(t->dtype))
		ir_put_f64(t, i, (double)v);
}

const char *ir_dims_str(const struct ir_tensor *t, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	if (t->rank < 0) {
		snprintf(buf, len, "?");
		return buf;
	}
	buf[0] = '\0';
	if (t->rank == 0)
		snprintf(buf, len, "scalar");
	for (i = 0; i < t->rank && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%lld", i ? "x" : "",
				 (long long)t->dims[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	return buf;
}

static void attr_free(struct ir_attr *a)
{
	free(a->name);
	free(a->s);
	free(a->ints);
	free(a->floats);
}

void ir_free(struct ir_graph *g)
{
	int i, j;

	for (i = 0; i < g->ntensors; i++) {
		free(g->tensors[i].name);
		free(g->tensors[i].data);
		free(g->tensors[i].seq);
	}
	for (i = 0; i < g->nnodes; i++) {
		struct ir_node *n = &g->nodes[i];

		free(n->name);
		free(n->op_type);
		free(n->domain);
		free(n->inputs);
		free(n->outputs);
		for (j = 0; j < n->nattrs; j++)
			attr_free(&n->attrs[j]);
		free(n->attrs);
	}
	free(g->tensors);
	free(g->nodes);
	free(g->inputs);
	free(g->outputs);
	free(g->name);
	for (i = 0; i < g->nneed; i++)
		free(g->need[i]);
	free(g->need);
	memset(g, 0, sizeof(*g));
}
