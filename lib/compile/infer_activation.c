// SPDX-License-Identifier: MIT
/* Inference of PRelu and Dropout's training form; when Dropout is a view. */
#include <string.h>

#include "infer_util.h"

/*
 * Before opset 7 a PRelu slope is per channel: a vector of X's dim 1 (or
 * one value shared by all channels).
 */
bool ir_prelu_per_channel(const struct ir_graph *g, const struct ir_node *n)
{
	const struct ir_tensor *x = &g->tensors[n->inputs[0]];
	const struct ir_tensor *s = &g->tensors[n->inputs[1]];

	return g->opset < 7 && s->rank == 1 && x->rank >= 2 &&
	       s->dims[0] == x->dims[1] && s->dims[0] != 1;
}

/* PRelu: the slope broadcasts to X (one way); Y is like X. */
INFER(prelu)
{
	int64_t dims[IR_MAX_RANK];
	int rank;
	char a[96], b[96];

	if (IN(1)->dtype != IN(0)->dtype)
		return NERR(n, "slope %s is %s, the input %s", IN(1)->name,
			    ir_dtype_name(IN(1)->dtype),
			    ir_dtype_name(IN(0)->dtype));
	if (ir_prelu_per_channel(g, n))
		return set_out_like(g, n, 0, IN(0));
	if (ir_broadcast(IN(0)->rank, IN(0)->dims, IN(1)->rank, IN(1)->dims,
			 &rank, dims) || rank != IN(0)->rank ||
	    memcmp(dims, IN(0)->dims, sizeof(int64_t) * (size_t)rank))
		return NERR(n, "slope %s (%s) does not broadcast to the input (%s)",
			    IN(1)->name, ir_dims_str(IN(1), b, sizeof(b)),
			    ir_dims_str(IN(0), a, sizeof(a)));
	return set_out_like(g, n, 0, IN(0));
}

/* Dropout: Y like X, the mask bool; ratio a float scalar, training bool. */
INFER(dropout)
{
	if (HAS_IN(1) && (!ir_dtype_is_float(IN(1)->dtype) || ir_numel(IN(1)) != 1))
		return NERR(n, "ratio %s must be a float scalar", IN(1)->name);
	if (HAS_IN(2) && (IN(2)->dtype != DT_BOOL || ir_numel(IN(2)) != 1))
		return NERR(n, "training_mode %s must be a bool scalar",
			    IN(2)->name);
	if (!ir_dropout_is_identity(g, n) && !ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "input %s is %s, training mode takes a float type",
			    IN(0)->name, ir_dtype_name(IN(0)->dtype));
	return infer_same(g, n, err, errlen);
}

bool ir_dropout_is_identity(const struct ir_graph *g, const struct ir_node *n)
{
	const struct ir_tensor *t;

	if (n->nout > 1 && n->outputs[1] >= 0 && ir_uses(g, n->outputs[1]))
		return false;
	if (n->nin < 3 || n->inputs[2] < 0)
		return true;
	t = &g->tensors[n->inputs[2]];
	return t->data && ir_numel(t) == 1 && !ir_get_i64(t, 0);
}
