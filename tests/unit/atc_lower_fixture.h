/* SPDX-License-Identifier: MIT */
/*
 * The fixture of atc's lowering tests: a hand-built IR graph (see
 * atc_ir_builder.h) lowered by lower_graph() into an .om build, and the
 * helpers to build one-node graphs and read the tasks back.
 *
 * A test file includes it after kselftest_harness.h. The opset the graph
 * starts with is ATC_LOWER_OPSET when the file defines it, else the
 * builder's default; each TEST_F may still change self->g.opset.
 */
#ifndef ATC_LOWER_FIXTURE_H
#define ATC_LOWER_FIXTURE_H

#include <string.h>

#include "lower.h"
#include "atc_ir_builder.h"

FIXTURE(g) {
	struct ir_graph g;
	struct om_build b;
	struct lower_weights w;
	struct lower_result r;
	char err[512];
};

FIXTURE_SETUP(g)
{
	gb_init(&self->g);
#ifdef ATC_LOWER_OPSET
	self->g.opset = ATC_LOWER_OPSET;
#endif
	ASSERT_EQ(0, om_build_init(&self->b));
}

FIXTURE_TEARDOWN(g)
{
	lower_result_free(&self->r);
	lower_weights_free(&self->w);
	om_build_free(&self->b);
	gb_free(&self->g);
}

/*
 * Lower the graph as it is now: 0, -1 with the reason in self->err, or -2
 * when the weights could not be gathered. Tasks accumulate in self->b, so
 * a test may edit the graph and lower it again.
 */
static inline int run(FIXTURE_DATA(g) *self)
{
	lower_weights_free(&self->w);
	if (lower_weights_init(&self->w, &self->g))
		return -2;
	lower_result_free(&self->r);
	return lower_graph(&self->g, &self->b, &self->w, &self->r, self->err,
			   sizeof(self->err));
}

/* The k-th tensor view of task node. */
static inline const struct om_tensor *T(FIXTURE_DATA(g) *self, int node, int k)
{
	return &self->b.tensors[self->b.nodes[node].tensors[k]];
}

/* The i-th float attribute of a task (stored as its bits). */
static inline float F(const struct om_node *n, int i)
{
	float f;

	memcpy(&f, &n->floats[i], 4);
	return f;
}

/* A graph input of dtype dt. */
static inline int input_dt(struct ir_graph *g, const char *name, int dt,
			   int rank, const int64_t *dims)
{
	int t = gb_input(g, name, rank, dims);

	g->tensors[t].dtype = dt;
	return t;
}

/* A graph output of dtype dt, shaped as inference would leave it. */
static inline int output_dt(struct ir_graph *g, const char *name, int dt,
			    int rank, const int64_t *dims)
{
	int t = gb_tensor(g, name, rank, dims, -1e31f);

	g->tensors[t].dtype = dt;
	gb_output(g, t);
	return t;
}

/* x [rx dims dx] -> op -> y [ry dims dy] of dtype ydt; the node index. */
static inline int one_node(struct ir_graph *g, const char *op, int rx,
			   const int64_t *dx, int ry, const int64_t *dy, int ydt)
{
	int x = gb_input(g, "x", rx, dx);
	int y = output_dt(g, "y", ydt, ry, dy);

	return gb_node(g, "n", op, 1, (int[]){ x }, y);
}

#endif /* ATC_LOWER_FIXTURE_H */
