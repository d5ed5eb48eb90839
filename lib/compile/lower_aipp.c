// SPDX-License-Identifier: MIT
/*
 * The AIPP node aipp.c put in front of a model input: one
 * DRM_VNPU_OP_AIPP task from the image input and the parameters (a
 * weight repeated over the batch with stride 0 for static AIPP, the
 * ascend_dynamic_aipp_data input for dynamic AIPP) into the tensor the
 * model's first layers read.
 */
#include <string.h>

#include "aipp.h"
#include "lower_int.h"

int lower_aipp(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *par;
	struct lw_view v[3];

	if (strcmp(n->op_type, AIPP_OP_TYPE) || !n->domain ||
	    strcmp(n->domain, "vnpu"))
		return 1;
	if (n->nin != 2 || n->nout != 1 || n->inputs[0] < 0 ||
	    n->inputs[1] < 0 || n->outputs[0] < 0)
		return lw_fail(L, "an AIPP node reads an image and parameters");
	if (lw_ir_view(L, n->inputs[0], &v[0]) ||
	    lw_ir_view(L, n->inputs[1], &v[1]) ||
	    lw_ir_view(L, n->outputs[0], &v[2]))
		return -1;
	par = &L->g->tensors[n->inputs[1]];
	if (par->data) {
		/* one block for every image */
		v[1].t.shape[0] = v[2].t.shape[0];
		v[1].t.strides[0] = 0;
	}
	return lw_emit(L, DRM_VNPU_OP_AIPP, v, 2, 1, NULL);
}
