/* SPDX-License-Identifier: MIT */
/*
 * Lowering: the inferred, fused IR of one variant becomes the .om's task
 * list (nodes of driver operators over tensor views), plus the arena
 * buffers plan.c places.
 */
#ifndef VNPU_ATC_LOWER_H
#define VNPU_ATC_LOWER_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "om_build.h"
#include "plan.h"

#define LOWER_MAX_OPSTATS	64

/* Per ONNX op type: how many IR nodes and driver tasks (for --log=info). */
struct lower_opstat {
	char op_type[32];
	int nodes, tasks;
};

/* What persists across variants: weights are written once per constant. */
struct lower_weights {
	int64_t *offset;	/* per IR tensor: WEIGHTS offset, or -1 */
	int n;
};

struct lower_result {
	uint32_t first_node, node_count;
	uint32_t first_tensor, tensor_count;
	struct plan_buf *bufs;	/* arena buffers, in order of creation */
	int nbufs;
	int *tensor_buf;	/* per tensor of this variant: buffer or -1 */
	int views;		/* IR nodes lowered to no task (aliases) */
	int copies;		/* OM_OP_COPY nodes for outputs */
	struct lower_opstat stats[LOWER_MAX_OPSTATS];
	int nstats;
};

int lower_weights_init(struct lower_weights *w, const struct ir_graph *g);
void lower_weights_free(struct lower_weights *w);

/*
 * Append g's tasks and tensors to b (arena offsets relative to their
 * buffer until lower_apply_plan). Returns 0, or -1 with a message naming
 * the node that could not be lowered.
 */
int lower_graph(const struct ir_graph *g, struct om_build *b,
		struct lower_weights *w, struct lower_result *r,
		char *err, size_t errlen);
/* Add each planned buffer's offset to the arena tensors of r. */
void lower_apply_plan(struct om_build *b, const struct lower_result *r);
void lower_result_free(struct lower_result *r);

#endif /* VNPU_ATC_LOWER_H */
