// SPDX-License-Identifier: MIT
/*
 * atc: CANN's model converter, vnpu's version. This first stage reads the
 * command line and the ONNX model and lists the graph; compiling to an
 * offline model (.om) is the models issue's work in progress.
 */
#include <stdio.h>

#include "atc_options.h"
#include "onnx_model.h"

int main(int argc, char **argv)
{
	struct atc_options o;
	Onnx__ModelProto *m;
	Onnx__GraphProto *g;
	char err[512];
	size_t i;

	if (atc_parse_options(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "atc: %s\n", err);
		return 2;
	}
	m = onnx_model_load(o.model, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "atc: %s\n", err);
		return 1;
	}
	g = m->graph;
	printf("model %s: graph '%s', %zu inputs, %zu outputs, %zu nodes, %zu initializers\n",
	       o.model, g->name ? g->name : "", g->n_input, g->n_output,
	       g->n_node, g->n_initializer);
	for (i = 0; i < g->n_node; i++)
		printf("  node %zu: %s (%s)\n", i,
		       g->node[i]->name ? g->node[i]->name : "",
		       g->node[i]->op_type ? g->node[i]->op_type : "?");
	fprintf(stderr, "atc: writing %s.om is not implemented yet\n", o.output);
	onnx_model_free(m);
	return 3;
}
