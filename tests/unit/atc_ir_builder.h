/* SPDX-License-Identifier: MIT */
/*
 * A small builder of atc IR graphs for the back end's host tests: graphs
 * as inference and fusion leave them (shapes and dtypes set, constants
 * with data), so lowering, planning and writing are tested alone.
 */
#ifndef ATC_IR_BUILDER_H
#define ATC_IR_BUILDER_H

#include <stdlib.h>
#include <string.h>

#include "ir.h"

#define GB_MAX 64

static struct ir_tensor gb_tensors[GB_MAX];
static struct ir_node gb_nodes[GB_MAX];
static int gb_ins[GB_MAX], gb_outs[GB_MAX];

static inline void gb_init(struct ir_graph *g)
{
	memset(g, 0, sizeof(*g));
	memset(gb_tensors, 0, sizeof(gb_tensors));
	memset(gb_nodes, 0, sizeof(gb_nodes));
	g->tensors = gb_tensors;
	g->nodes = gb_nodes;
	g->inputs = gb_ins;
	g->outputs = gb_outs;
	g->opset = 17;
}

static inline void gb_free(struct ir_graph *g)
{
	int i, k;

	for (i = 0; i < g->ntensors; i++)
		free(g->tensors[i].data);
	for (i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].inputs);
		free(g->nodes[i].outputs);
		for (k = 0; k < g->nodes[i].nattrs; k++)
			free(g->nodes[i].attrs[k].ints);
		free(g->nodes[i].attrs);
	}
}

/* A float tensor of the given dims; fill > -1e30: a constant of that value + i. */
static inline int gb_tensor(struct ir_graph *g, const char *name, int rank,
		     const int64_t *dims, float fill)
{
	struct ir_tensor *t = &g->tensors[g->ntensors];
	int64_t n = 1, i;

	t->name = (char *)name;
	t->dtype = 0;	/* ACL_FLOAT */
	t->rank = rank;
	for (i = 0; i < rank; i++) {
		t->dims[i] = dims[i];
		n *= dims[i];
	}
	t->producer = -1;
	t->input_index = t->output_index = -1;
	if (fill > -1e30f) {
		float *d = malloc((size_t)n * sizeof(float));

		for (i = 0; i < n; i++)
			d[i] = fill + (float)i;
		t->data = d;
		t->nbytes = (size_t)n * sizeof(float);
	}
	return g->ntensors++;
}

/* A constant of any dtype: rank 0 or 1 holding n values of esize bytes. */
static inline int gb_const(struct ir_graph *g, const char *name, int dtype, int rank,
		    int64_t n, const void *values, size_t esize)
{
	struct ir_tensor *t = &g->tensors[g->ntensors];

	memset(t, 0, sizeof(*t));
	t->name = (char *)name;
	t->dtype = dtype;
	t->rank = rank;
	t->dims[0] = rank ? n : 0;
	t->producer = -1;
	t->input_index = t->output_index = -1;
	t->nbytes = (size_t)n * esize;
	t->data = malloc(t->nbytes ? t->nbytes : 1);
	memcpy(t->data, values, t->nbytes);
	return g->ntensors++;
}

static inline int gb_input(struct ir_graph *g, const char *name, int rank,
		    const int64_t *dims)
{
	int t = gb_tensor(g, name, rank, dims, -1e31f);

	g->tensors[t].input_index = g->ninputs;
	g->inputs[g->ninputs++] = t;
	return t;
}

static inline void gb_output(struct ir_graph *g, int t)
{
	if (g->tensors[t].output_index < 0)
		g->tensors[t].output_index = g->noutputs;
	g->outputs[g->noutputs++] = t;
}

static inline int gb_node(struct ir_graph *g, const char *name, const char *op,
		   int nin, const int *in, int out)
{
	struct ir_node *n = &g->nodes[g->nnodes];

	n->name = (char *)name;
	n->op_type = (char *)op;
	n->domain = "";
	n->inputs = malloc((size_t)nin * sizeof(int));
	memcpy(n->inputs, in, (size_t)nin * sizeof(int));
	n->nin = nin;
	n->outputs = malloc(sizeof(int));
	n->outputs[0] = out;
	n->nout = 1;
	g->tensors[out].producer = g->nnodes;
	return g->nnodes++;
}

static inline struct ir_attr *gb_attr(struct ir_graph *g, int node, const char *name,
			       int kind)
{
	struct ir_node *n = &g->nodes[node];
	struct ir_attr *a;

	n->attrs = realloc(n->attrs, (size_t)(n->nattrs + 1) * sizeof(*a));
	a = &n->attrs[n->nattrs++];
	memset(a, 0, sizeof(*a));
	a->name = (char *)name;
	a->kind = kind;
	return a;
}

static inline void gb_ints(struct ir_graph *g, int node, const char *name,
		    const int64_t *v, size_t count)
{
	struct ir_attr *a = gb_attr(g, node, name, IR_ATTR_INTS);

	a->ints = malloc(count * sizeof(int64_t));
	memcpy(a->ints, v, count * sizeof(int64_t));
	a->count = count;
}

static inline void gb_str(struct ir_graph *g, int node, const char *name, char *v)
{
	gb_attr(g, node, name, IR_ATTR_STRING)->s = v;
}

static inline void gb_int(struct ir_graph *g, int node, const char *name, int64_t v)
{
	gb_attr(g, node, name, IR_ATTR_INT)->i = v;
}

#endif /* ATC_IR_BUILDER_H */
