// SPDX-License-Identifier: MIT
/* The front end's passes in their order, for one compiled variant. */
#include <stdio.h>
#include <string.h>

#include "ir.h"

/* Free g but keep the inputs it needed constant, for atc's message. */
static void free_keep_needs(struct ir_graph *g)
{
	char **need = g->need;
	int nneed = g->nneed;

	g->need = NULL;
	g->nneed = 0;
	ir_free(g);
	g->need = need;
	g->nneed = nneed;
}

int ir_front_passes(struct ir_graph *g, const char *input_shape,
		    int64_t batch, struct ir_fuse_stats *stats, char *err,
		    size_t errlen)
{
	int ret;

	if (ir_check_supported(g, false, err, errlen))
		goto unsupported;
	if (ir_apply_input_shape(g, input_shape, err, errlen))
		goto fail;
	if (batch > 0 && !ir_set_batch(g, batch)) {
		snprintf(err, errlen,
			 "--dynamic_batch_size: no input has a dynamic batch dim (give dim 0 as -1 in --input_shape)");
		goto fail;
	}
	ret = ir_infer(g, err, errlen);
	if (ret == IR_EUNSUPPORTED)	/* a Gradient over an op without a rule */
		goto unsupported;
	if (ret < 0 || ir_fold(g, err, errlen) < 0 ||
	    ir_fuse(g, stats, err, errlen) < 0)
		goto fail;
	/* fusions leave nodes without readers (a fused Conv's old output) */
	if (ir_remove_dead(g) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (ir_check_supported(g, true, err, errlen))
		goto unsupported;
	return 0;
unsupported:
	free_keep_needs(g);
	return IR_EUNSUPPORTED;
fail:
	free_keep_needs(g);
	return -1;
}
