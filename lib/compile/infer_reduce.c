// SPDX-License-Identifier: MIT
/*
 * Inference of the arg-reductions, scans, masks and Einsum (the Reduce*
 * family shares infer_reduce in infer_nn.c).
 */
#include <string.h>

#include "einsum.h"
#include "infer_util.h"

/* ArgMax, ArgMin: one axis (default 0), kept as 1 unless keepdims=0. */
INFER(argreduce)
{
	const struct ir_tensor *x = IN(0);
	bool keep = ir_attr_int(n, "keepdims", 1);
	int64_t dims[IR_MAX_RANK], last = ir_attr_int(n, "select_last_index", 0);
	int axis, i, r = 0;

	if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, &axis, err, errlen))
		return -1;
	if (!x->rank)
		return NERR(n, "input %s is a scalar", x->name);
	if (last != 0 && last != 1)
		return NERR(n, "select_last_index must be 0 or 1");
	for (i = 0; i < x->rank; i++)
		if (i != axis)
			dims[r++] = x->dims[i];
		else if (keep)
			dims[r++] = 1;
	return set_out(g, n, 0, DT_INT64, r, dims);
}

/* A scalar (or 1-element) integer constant input; NERR if it is not. */
static int const_scalar(struct ir_graph *g, struct ir_node *n, int k,
			int64_t *v, char *err, size_t errlen)
{
	if (ir_const_ints(g, n->inputs[k], v, 1) != 1)
		return NERR(n, "input %s must be a constant integer scalar",
			    IN(k)->name);
	return 0;
}

/* CumSum: x's shape; the axis input must be constant and in range. */
INFER(cumsum)
{
	int64_t axis;
	int ax;

	if (const_scalar(g, n, 1, &axis, err, errlen) ||
	    norm_axis(n, axis, IN(0)->rank, &ax, err, errlen))
		return -1;
	if (!IN(0)->rank)
		return NERR(n, "input %s is a scalar", IN(0)->name);
	if (IN(0)->dtype == DT_BOOL)
		return NERR(n, "input %s is bool", IN(0)->name);
	return set_out_like(g, n, 0, IN(0));
}

/* Trilu: matrices in the last two dims; k (optional) constant. */
INFER(trilu)
{
	int64_t k;

	if (IN(0)->rank < 2)
		return NERR(n, "input %s has rank %d, needs at least 2",
			    IN(0)->name, IN(0)->rank);
	if (HAS_IN(1) && const_scalar(g, n, 1, &k, err, errlen))
		return -1;
	return set_out_like(g, n, 0, IN(0));
}

/* Hardmax: x's shape; axis default 1 before opset 13, -1 from it. */
INFER(hardmax)
{
	int axis;

	if (norm_axis(n, ir_attr_int(n, "axis", g->opset < 13 ? 1 : -1),
		      IN(0)->rank, &axis, err, errlen))
		return -1;
	if (!IN(0)->rank)
		return NERR(n, "input %s is a scalar", IN(0)->name);
	return infer_unary_float(g, n, err, errlen);
}

INFER(einsum)
{
	const struct ir_attr *eq = ir_attr(n, "equation");
	const struct ir_tensor *ops[EINSUM_MAX_OPS];
	int64_t dims[IR_MAX_RANK];
	struct einsum e;
	char msg[192];
	int i;

	if (!eq || !eq->s)
		return NERR(n, "needs the string attribute 'equation'");
	if (n->nin > EINSUM_MAX_OPS)
		return NERR(n, "takes at most %d inputs", EINSUM_MAX_OPS);
	for (i = 0; i < n->nin; i++) {
		if (!HAS_IN(i))
			return NERR(n, "input %d is missing", i);
		ops[i] = IN(i);
		if (ops[i]->dtype != IN(0)->dtype)
			return NERR(n, "inputs %s and %s differ in dtype",
				    IN(0)->name, ops[i]->name);
	}
	if (einsum_parse(eq->s, n->nin, ops, &e, msg, sizeof(msg)))
		return NERR(n, "%s", msg);
	for (i = 0; i < e.nout; i++)
		dims[i] = e.size[e.out[i]];
	return set_out(g, n, 0, IN(0)->dtype, e.nout, dims);
}
