/* SPDX-License-Identifier: MIT */
/* Building small atc graphs directly in the IR, for the pass tests. */
#ifndef VNPU_ATC_TEST_UTIL_H
#define VNPU_ATC_TEST_UTIL_H

#include <stdarg.h>
#include <string.h>

#include "ir.h"

#define F32 0
#define I64 9
#define BOOLT 12

/* A graph input of the given dims (rank from the -100 terminated list). */
static inline int tg_input(struct ir_graph *g, const char *name, int dtype,
			   int rank, const int64_t *dims)
{
	int t = ir_add_tensor(g, name);

	g->tensors[t].dtype = dtype;
	g->tensors[t].rank = rank;
	memcpy(g->tensors[t].dims, dims, sizeof(int64_t) * (size_t)rank);
	g->inputs = realloc(g->inputs, sizeof(int) * (size_t)(g->ninputs + 1));
	g->tensors[t].input_index = g->ninputs;
	g->inputs[g->ninputs++] = t;
	return t;
}

static inline int tg_const(struct ir_graph *g, const char *name, int dtype,
			   int rank, const int64_t *dims, const void *data)
{
	return ir_add_const(g, name, dtype, rank, dims, data);
}

/* A node: op, then input names (NULL for omitted) up to "->", then outputs. */
static inline int tg_node(struct ir_graph *g, const char *name, const char *op,
			  const char *const *io)
{
	int nin = 0, nout = 0, i, n;

	while (strcmp(io[nin], "->"))
		nin++;
	while (io[nin + 1 + nout])
		nout++;
	n = ir_add_node(g, name, op, nin, nout);
	for (i = 0; i < nin; i++)
		g->nodes[n].inputs[i] = io[i] ? ir_find_tensor(g, io[i]) : -1;
	for (i = 0; i < nout; i++) {
		int t = ir_find_tensor(g, io[nin + 1 + i]);

		if (t < 0)
			t = ir_add_tensor(g, io[nin + 1 + i]);
		g->tensors[t].producer = n;
		g->nodes[n].outputs[i] = t;
	}
	return n;
}
#define NODE(g, name, op, ...) \
	tg_node(g, name, op, (const char *const[]){ __VA_ARGS__, NULL })

static inline void tg_output(struct ir_graph *g, const char *name)
{
	int t = ir_find_tensor(g, name);

	g->outputs = realloc(g->outputs, sizeof(int) * (size_t)(g->noutputs + 1));
	g->tensors[t].output_index = g->noutputs;
	g->outputs[g->noutputs++] = t;
}

static inline struct ir_tensor *tg_t(struct ir_graph *g, const char *name)
{
	int t = ir_find_tensor(g, name);

	return t < 0 ? NULL : &g->tensors[t];
}

static inline int tg_live(const struct ir_graph *g, const char *op)
{
	int i, n = 0;

	for (i = 0; i < g->nnodes; i++)
		n += !g->nodes[i].dead && !strcmp(g->nodes[i].op_type, op);
	return n;
}

#define DIMS(...) ((const int64_t[]){ __VA_ARGS__ })

#endif /* VNPU_ATC_TEST_UTIL_H */
