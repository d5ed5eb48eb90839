// SPDX-License-Identifier: MIT
/*
 * ir_from_onnx: the decoded ModelProto (protobuf-c) into atc's graph.
 * Everything a pass later relies on is checked here once: every name is
 * defined once and before its use, constants have exactly as many bytes as
 * their dims say, dims fit IR_MAX_RANK.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_import.h"
#include "ir_control.h"
#include "onnx.pb-c.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* Fill t (dtype, dims, data) from a TensorProto; what = for messages. */
static int tensor_from_proto(struct ir_graph *g, int ti,
			     const Onnx__TensorProto *p, const char *what,
			     char *err, size_t errlen)
{
	struct ir_tensor *t = &g->tensors[ti];
	int dt = ir_dtype_from_onnx(p->data_type);
	size_t esz, i, n = 1, have;
	void *data;

	if (dt == -2)
		return ERR("%s: tensor data type %d is not supported", what,
			   (int)p->data_type);
	if (dt == OM_DTYPE_STRING)
		return ERR("%s: string constants are not supported (strings are graph inputs and outputs)",
			   what);
	if (p->n_dims > IR_MAX_RANK)
		return ERR("%s: rank %zu is above %d", what, p->n_dims,
			   IR_MAX_RANK);
	if (p->has_data_location && p->data_location ==
	    ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
		return ERR("%s: external tensor data is not supported", what);
	for (i = 0; i < p->n_dims; i++) {
		if (p->dims[i] < 0 || p->dims[i] > (1LL << 40) ||
		    (p->dims[i] && n > (SIZE_MAX >> 4) / (size_t)p->dims[i]))
			return ERR("%s: bad dim %lld", what,
				   (long long)p->dims[i]);
		n *= (size_t)p->dims[i];
		t->dims[i] = p->dims[i];
	}
	t->rank = (int)p->n_dims;
	t->dtype = dt;
	esz = ir_dtype_size(dt);
	data = malloc(n * esz + 1);
	if (!data)
		return ERR("%s: out of memory", what);
	t->data = data;
	t->nbytes = n * esz;
	if (p->has_raw_data) {
		if (p->raw_data.len != n * esz)
			return ERR("%s: raw_data has %zu bytes, its dims need %zu",
				   what, p->raw_data.len, n * esz);
		if (n)
			memcpy(data, p->raw_data.data, n * esz);
		return 0;
	}
	/* the typed field each ONNX data type is stored in */
	switch (p->data_type) {
	case 1:
		have = p->n_float_data;
		break;
	case 11:
		have = p->n_double_data;
		break;
	case 7:
		have = p->n_int64_data;
		break;
	case 12: case 13:
		have = p->n_uint64_data;
		break;
	default:	/* int32, int16, int8, uint8, uint16, bool, float16, bf16 */
		have = p->n_int32_data;
		break;
	}
	if (have != n)
		return ERR("%s: holds %zu values, its dims need %zu", what, have, n);
	for (i = 0; i < n; i++) {
		switch (p->data_type) {
		case 1:
			((float *)data)[i] = p->float_data[i];
			break;
		case 11:
			((double *)data)[i] = p->double_data[i];
			break;
		case 7:
			((int64_t *)data)[i] = p->int64_data[i];
			break;
		case 12:
			((uint32_t *)data)[i] = (uint32_t)p->uint64_data[i];
			break;
		case 13:
			((uint64_t *)data)[i] = p->uint64_data[i];
			break;
		case 10: case 16:	/* the 16 bits of the half, as int32 */
			((uint16_t *)data)[i] = (uint16_t)p->int32_data[i];
			break;
		default:
			ir_put_i64(t, (int64_t)i, p->int32_data[i]);
			break;
		}
	}
	return 0;
}

static int attr_from_proto(struct ir_graph *g, struct ir_node *n,
			   struct ir_attr *a, const Onnx__AttributeProto *p,
			   char *err, size_t errlen)
{
	char what[300];
	size_t i;

	memset(a, 0, sizeof(*a));
	a->tensor = -1;
	a->name = strdup(p->name ? p->name : "");
	if (!a->name)
		return ERR("out of memory");
	a->kind = p->type;
	switch (p->type) {
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
		a->f = p->f;
		break;
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT:
		a->i = p->i;
		break;
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
		a->s = malloc(p->s.len + 1);
		if (!a->s)
			return ERR("out of memory");
		if (p->s.len)
			memcpy(a->s, p->s.data, p->s.len);
		a->s[p->s.len] = '\0';
		break;
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
		a->count = p->n_floats;
		a->floats = malloc(sizeof(float) * (a->count ? a->count : 1));
		if (!a->floats)
			return ERR("out of memory");
		for (i = 0; i < a->count; i++)
			a->floats[i] = p->floats[i];
		break;
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
		a->count = p->n_ints;
		a->ints = malloc(sizeof(int64_t) * (a->count ? a->count : 1));
		if (!a->ints)
			return ERR("out of memory");
		for (i = 0; i < a->count; i++)
			a->ints[i] = p->ints[i];
		break;
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR: {
		char base[300];
		int k, ti;

		if (!p->t)
			return ERR("node %s: attribute %s has no tensor", n->name,
				   a->name);
		snprintf(base, sizeof(base), "%s.%s", n->name, a->name);
		snprintf(what, sizeof(what), "node %s: attribute %s", n->name,
			 a->name);
		/* a fresh unique name: attributes are not graph values */
		for (k = 1, ti = ir_add_tensor(g, base); ti < 0 && k < 1000; k++) {
			char alt[320];

			snprintf(alt, sizeof(alt), "%s_%d", base, k);
			ti = ir_add_tensor(g, alt);
		}
		if (ti < 0)
			return ERR("%s: out of memory", what);
		a->tensor = ti;
		return tensor_from_proto(g, ti, p->t, what, err, errlen);
	}
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS: {
		/* joined with ',' in s (RNN's activations); count of them */
		size_t len = 1, off = 0;

		for (i = 0; i < p->n_strings; i++)
			len += p->strings[i].len + 1;
		a->s = malloc(len);
		a->ints = calloc(p->n_strings + 1, sizeof(*a->ints));
		if (!a->s || !a->ints)
			return ERR("out of memory");
		for (i = 0; i < p->n_strings; i++) {
			a->ints[i] = (int64_t)p->strings[i].len;
			if (i)
				a->s[off++] = ',';
			if (p->strings[i].len)
				memcpy(a->s + off, p->strings[i].data, p->strings[i].len);
			off += p->strings[i].len;
		}
		a->s[off] = '\0';
		a->count = p->n_strings;
		break;
	}
	default:
		/* graphs, sparse tensors: only their kind is kept; no
		 * supported operator takes them */
		a->count = p->n_strings + p->n_graphs + p->n_tensors;
		break;
	}
	return 0;
}

static int add_io(int **list, int *count, int t)
{
	int *p = realloc(*list, sizeof(int) * (size_t)(*count + 1));

	if (!p)
		return -1;
	p[(*count)++] = t;
	*list = p;
	return 0;
}

static int input_from_proto(struct ir_graph *g, const Onnx__ValueInfoProto *v,
			    char *err, size_t errlen)
{
	const Onnx__TypeProto__Tensor *tt;
	struct ir_tensor *t;
	int ti;
	size_t i;

	if (!v->name || !*v->name)
		return ERR("a graph input has no name");
	if (ir_find_tensor(g, v->name) >= 0)	/* an initializer */
		return 0;
	ti = ir_add_tensor(g, v->name);
	if (ti < 0)
		return ERR("out of memory");
	t = &g->tensors[ti];
	if (!v->type || v->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
	    !v->type->tensor_type)
		return ERR("graph input %s is not a tensor", v->name);
	tt = v->type->tensor_type;
	t->dtype = ir_dtype_from_onnx(tt->elem_type);
	if (t->dtype == -2)
		return ERR("graph input %s: data type %d is not supported",
			   v->name, (int)tt->elem_type);
	if (tt->shape) {
		if (tt->shape->n_dim > IR_MAX_RANK)
			return ERR("graph input %s: rank %zu is above %d",
				   v->name, tt->shape->n_dim, IR_MAX_RANK);
		t->rank = (int)tt->shape->n_dim;
		for (i = 0; i < tt->shape->n_dim; i++) {
			const Onnx__TensorShapeProto__Dimension *d =
				tt->shape->dim[i];

			t->dims[i] = d->value_case ==
				ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
				d->dim_value >= 0 ? d->dim_value : -1;
		}
		t->batched = t->rank > 0 && t->dims[0] < 0;
	}
	t->input_index = g->ninputs;
	if (add_io(&g->inputs, &g->ninputs, ti))
		return ERR("out of memory");
	return 0;
}

int ir_node_from_proto(struct ir_graph *g, const Onnx__NodeProto *p,
		       size_t idx, char *err, size_t errlen)
{
	char name[64];
	struct ir_node *n;
	int ni, ti;
	size_t i;

	if (!p->op_type || !*p->op_type)
		return ERR("node %zu has no op_type", idx);
	snprintf(name, sizeof(name), "%s_%zu", p->op_type, idx);
	ni = ir_add_node(g, p->name && *p->name ? p->name : name, p->op_type,
			 (int)p->n_input, (int)p->n_output);
	if (ni < 0)
		return ERR("out of memory");
	n = &g->nodes[ni];
	if (p->domain && strcmp(p->domain, "ai.onnx")) {
		free(n->domain);
		n->domain = strdup(p->domain);
		if (!n->domain)
			return ERR("out of memory");
	}
	for (i = 0; i < p->n_input; i++) {
		if (!p->input[i] || !*p->input[i])
			continue;	/* an omitted optional input */
		ti = ir_find_tensor(g, p->input[i]);
		if (ti < 0)
			return ERR("node %s (%s): input %s is not defined before it",
				   n->name, n->op_type, p->input[i]);
		n->inputs[i] = ti;
	}
	for (i = 0; i < p->n_output; i++) {
		if (!p->output[i] || !*p->output[i])
			continue;
		if (ir_find_tensor(g, p->output[i]) >= 0)
			return ERR("node %s (%s): output %s is already defined",
				   n->name, n->op_type, p->output[i]);
		ti = ir_add_tensor(g, p->output[i]);
		if (ti < 0)
			return ERR("out of memory");
		g->tensors[ti].producer = ni;
		n = &g->nodes[ni];
		n->outputs[i] = ti;
	}
	n->attrs = calloc(p->n_attribute ? p->n_attribute : 1, sizeof(*n->attrs));
	if (!n->attrs)
		return ERR("out of memory");
	for (i = 0; i < p->n_attribute; i++) {
		n = &g->nodes[ni];
		n->nattrs = (int)i + 1;
		if (attr_from_proto(g, n, &n->attrs[i], p->attribute[i], err,
				    errlen))
			return -1;
	}
	return 0;
}

static int build(const struct Onnx__ModelProto *m, struct ir_graph *g,
		 char *err, size_t errlen)
{
	const Onnx__GraphProto *gp = m->graph;
	size_t i, j;

	memset(g, 0, sizeof(*g));
	g->opset = 1;
	for (i = 0; i < m->n_opset_import; i++) {
		const char *d = m->opset_import[i]->domain;

		if (!d || !*d || !strcmp(d, "ai.onnx"))
			g->opset = m->opset_import[i]->version;
	}
	if (!gp)
		return ERR("the model has no graph");
	g->name = strdup(gp->name ? gp->name : "");
	if (!g->name)
		return ERR("out of memory");
	for (i = 0; i < gp->n_initializer; i++) {
		const Onnx__TensorProto *p = gp->initializer[i];
		char what[300];
		int ti;

		if (!p->name || !*p->name)
			return ERR("initializer %zu has no name", i);
		if (ir_find_tensor(g, p->name) >= 0)
			return ERR("initializer %s is defined twice", p->name);
		ti = ir_add_tensor(g, p->name);
		if (ti < 0)
			return ERR("out of memory");
		snprintf(what, sizeof(what), "initializer %s", p->name);
		if (tensor_from_proto(g, ti, p, what, err, errlen))
			return -1;
	}
	for (i = 0; i < gp->n_input; i++)
		if (input_from_proto(g, gp->input[i], err, errlen))
			return -1;
	for (i = 0; i < gp->n_node; i++) {
		/* Scan and If become plain nodes (ir_control.c) */
		int r = ir_expand_control(g, gp->node[i], i, err, errlen);

		if (r < 0 || (r > 0 && ir_node_from_proto(g, gp->node[i], i, err, errlen)))
			return -1;
	}
	for (i = 0; i < gp->n_output; i++) {
		const char *name = gp->output[i]->name;
		int ti = name ? ir_find_tensor(g, name) : -1;

		if (ti < 0)
			return ERR("graph output %s is not produced by any node",
				   name ? name : "(unnamed)");
		for (j = 0; j < i; j++)
			if (g->outputs[j] == ti)
				return ERR("graph output %s is listed twice", name);
		g->tensors[ti].output_index = (int)i;
		if (add_io(&g->outputs, &g->noutputs, ti))
			return ERR("out of memory");
	}
	if (!g->noutputs)
		return ERR("the graph has no outputs");
	return 0;
}

int ir_from_onnx(const struct Onnx__ModelProto *m, struct ir_graph *g,
		 char *err, size_t errlen)
{
	if (build(m, g, err, errlen)) {
		ir_free(g);
		return -1;
	}
	return 0;
}
