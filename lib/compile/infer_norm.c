// SPDX-License-Identifier: MIT
/* Inference of the normalizations and losses that lower_norm.c compiles:
 * InstanceNormalization, LRN, MeanVarianceNormalization,
 * NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. */
#include <string.h>

#include "infer_util.h"

static bool is_index(int dtype)
{
	return dtype == DT_INT64 || dtype == DT_INT32;
}

INFER(instancenorm)
{
	int k;

	if (IN(0)->rank < 3 || !ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "needs a float input with N, C and spatial dims");
	for (k = 1; k < 3; k++)
		if (IN(k)->rank != 1 || IN(k)->dims[0] != IN(0)->dims[1] ||
		    IN(k)->dtype != IN(0)->dtype)
			return NERR(n, "%s must have %lld values (the channels)",
				    IN(k)->name, (long long)IN(0)->dims[1]);
	return set_out_like(g, n, 0, IN(0));
}

INFER(lrn)
{
	const struct ir_attr *size = ir_attr(n, "size");

	if (!size || size->kind != IR_ATTR_INT || size->i < 1)
		return NERR(n, "needs a positive integer attribute 'size'");
	if (IN(0)->rank < 3 || !ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "needs a float input with N, C and spatial dims");
	return set_out_like(g, n, 0, IN(0));
}

INFER(mvn)
{
	const struct ir_attr *axes = ir_attr(n, "axes");
	size_t i;
	int ax;

	if (!ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "needs a float input");
	if (!axes && IN(0)->rank != 4)
		return NERR(n, "the default axes (0, 2, 3) need a 4-D input");
	for (i = 0; axes && i < axes->count; i++)
		if (norm_axis(n, axes->ints[i], IN(0)->rank, &ax, err, errlen))
			return -1;
	return set_out_like(g, n, 0, IN(0));
}

/* The reduction attribute: 0 none, 1 sum, 2 mean; -1 unknown. */
int loss_reduction(const struct ir_node *n)
{
	const struct ir_attr *a = ir_attr(n, "reduction");

	if (!a || !a->s || !strcmp(a->s, "mean"))
		return 2;
	if (!strcmp(a->s, "sum"))
		return 1;
	return strcmp(a->s, "none") ? -1 : 0;
}

/* Scores (N, C, d...), target (N, d...), [weight (C)] and the loss. */
static int infer_loss(struct ir_graph *g, struct ir_node *n, char *err,
		      size_t errlen)
{
	const struct ir_tensor *x = IN(0), *t = IN(1);
	int d, red = loss_reduction(n);

	if (red < 0)
		return NERR(n, "reduction must be none, sum or mean");
	if (x->rank < 2 || !ir_dtype_is_float(x->dtype))
		return NERR(n, "input %s must be float with N and C dims", x->name);
	if (!is_index(t->dtype) || t->rank != x->rank - 1)
		return NERR(n, "target %s must be integers of rank %d", t->name,
			    x->rank - 1);
	for (d = 0; d < t->rank; d++)
		if (t->dims[d] != x->dims[d ? d + 1 : 0])
			return NERR(n, "target %s does not match the input's N, d1...",
				    t->name);
	if (HAS_IN(2) && (IN(2)->rank != 1 || IN(2)->dims[0] != x->dims[1] ||
			  IN(2)->dtype != x->dtype))
		return NERR(n, "weight %s must have %lld values of the input's type",
			    IN(2)->name, (long long)x->dims[1]);
	if (red)
		return set_out(g, n, 0, x->dtype, 0, NULL);
	return set_out(g, n, 0, x->dtype, t->rank, t->dims);
}

INFER(nll_loss)
{
	return infer_loss(g, n, err, errlen);
}

INFER(sce_loss)
{
	if (infer_loss(g, n, err, errlen))
		return -1;
	/* log_prob: like the scores */
	return set_out_like(g, n, 1, IN(0));
}
