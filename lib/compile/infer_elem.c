// SPDX-License-Identifier: MIT
/* Inference of elementwise operators: unary, binary with broadcasting,
 * comparisons, Where, Cast, Clip, Softmax, and Constant. */
#include <string.h>

#include "infer_util.h"

/* Output 0 (and a Dropout mask, if asked for) like input 0. */
INFER(same)
{
	set_out_like(g, n, 0, IN(0));
	if (n->nout > 1)	/* Dropout's mask: all true in inference */
		set_out(g, n, 1, DT_BOOL, IN(0)->rank, IN(0)->dims);
	return 0;
}

INFER(unary_float)
{
	if (!ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "input %s is %s, the operator takes a float type",
			    IN(0)->name, ir_dtype_name(IN(0)->dtype));
	return infer_same(g, n, err, errlen);
}

INFER(softmax)
{
	int axis;

	if (norm_axis(n, ir_attr_int(n, "axis", g->opset < 13 ? 1 : -1),
		      IN(0)->rank, &axis, err, errlen))
		return -1;
	return infer_unary_float(g, n, err, errlen);
}

INFER(cast)
{
	const struct ir_attr *to = ir_attr(n, "to");
	int dt;

	if (!to || to->kind != IR_ATTR_INT)
		return NERR(n, "needs the integer attribute 'to'");
	dt = ir_dtype_from_onnx((int32_t)to->i);
	if (dt < 0)
		return NERR(n, "cannot cast to ONNX type %lld", (long long)to->i);
	return set_out(g, n, 0, dt, IN(0)->rank, IN(0)->dims);
}

INFER(not)
{
	if (IN(0)->dtype != DT_BOOL)
		return NERR(n, "input %s is %s, Not takes bool", IN(0)->name,
			    ir_dtype_name(IN(0)->dtype));
	return infer_same(g, n, err, errlen);
}

INFER(clip)
{
	int k;

	for (k = 1; k < 3; k++) {
		if (!HAS_IN(k))
			continue;
		if (ir_numel(IN(k)) != 1)
			return NERR(n, "bound %s must be a scalar", IN(k)->name);
		if (IN(k)->dtype != IN(0)->dtype)
			return NERR(n, "bound %s is %s, the input %s", IN(k)->name,
				    ir_dtype_name(IN(k)->dtype),
				    ir_dtype_name(IN(0)->dtype));
	}
	return infer_same(g, n, err, errlen);
}

/* The broadcast shape of all inputs from first on; NERR when they clash. */
static int broadcast_all(struct ir_graph *g, struct ir_node *n, int first,
			 int *rank, int64_t *dims, char *err, size_t errlen)
{
	int k;

	*rank = IN(first)->rank;
	memcpy(dims, IN(first)->dims, sizeof(int64_t) * (size_t)*rank);
	for (k = first + 1; k < n->nin; k++) {
		int64_t out[IR_MAX_RANK];
		char a[96], b[96];
		struct ir_tensor tmp = { .rank = *rank };

		memcpy(tmp.dims, dims, sizeof(int64_t) * (size_t)*rank);
		if (ir_broadcast(*rank, dims, IN(k)->rank, IN(k)->dims, rank,
				 out))
			return NERR(n, "shapes %s and %s (%s) do not broadcast",
				    ir_dims_str(&tmp, a, sizeof(a)),
				    ir_dims_str(IN(k), b, sizeof(b)),
				    IN(k)->name);
		memcpy(dims, out, sizeof(out));
	}
	return 0;
}

static int same_dtypes(struct ir_graph *g, struct ir_node *n, int first,
		       int last, char *err, size_t errlen)
{
	int k;

	for (k = first + 1; k <= last; k++)
		if (IN(k)->dtype != IN(first)->dtype)
			return NERR(n, "inputs %s (%s) and %s (%s) differ in type",
				    IN(first)->name,
				    ir_dtype_name(IN(first)->dtype),
				    IN(k)->name, ir_dtype_name(IN(k)->dtype));
	return 0;
}

/* Add, Sub, Mul, Div, Pow (whose exponent may have another type). */
INFER(binary)
{
	int64_t dims[IR_MAX_RANK];
	int rank;

	if (strcmp(n->op_type, "Pow") && same_dtypes(g, n, 0, 1, err, errlen))
		return -1;
	if (broadcast_all(g, n, 0, &rank, dims, err, errlen))
		return -1;
	return set_out(g, n, 0, IN(0)->dtype, rank, dims);
}

INFER(variadic)
{
	int64_t dims[IR_MAX_RANK];
	int rank;

	if (same_dtypes(g, n, 0, n->nin - 1, err, errlen) ||
	    broadcast_all(g, n, 0, &rank, dims, err, errlen))
		return -1;
	return set_out(g, n, 0, IN(0)->dtype, rank, dims);
}

INFER(compare)
{
	int64_t dims[IR_MAX_RANK];
	int rank;

	if (same_dtypes(g, n, 0, 1, err, errlen) ||
	    broadcast_all(g, n, 0, &rank, dims, err, errlen))
		return -1;
	return set_out(g, n, 0, DT_BOOL, rank, dims);
}

INFER(where)
{
	int64_t dims[IR_MAX_RANK];
	int rank;

	if (IN(0)->dtype != DT_BOOL)
		return NERR(n, "condition %s is %s, not bool", IN(0)->name,
			    ir_dtype_name(IN(0)->dtype));
	if (same_dtypes(g, n, 1, 2, err, errlen) ||
	    broadcast_all(g, n, 0, &rank, dims, err, errlen))
		return -1;
	return set_out(g, n, 0, IN(1)->dtype, rank, dims);
}

INFER(constant)
{
	static const char *const names[] = {
		"value", "value_float", "value_floats", "value_int",
		"value_ints",
	};
	const struct ir_attr *a = NULL;
	int64_t one;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !a; i++)
		a = ir_attr(n, names[i]);
	if (!a)
		return NERR(n, "has none of the value attributes this compiler reads (value, value_float(s), value_int(s))");
	switch (a->kind) {
	case IR_ATTR_TENSOR:
		return set_out_like(g, n, 0, &g->tensors[a->tensor]);
	case IR_ATTR_FLOAT:
		return set_out(g, n, 0, DT_FLOAT, 0, NULL);
	case IR_ATTR_INT:
		return set_out(g, n, 0, DT_INT64, 0, NULL);
	case IR_ATTR_FLOATS:
		one = (int64_t)a->count;
		return set_out(g, n, 0, DT_FLOAT, 1, &one);
	case IR_ATTR_INTS:
		one = (int64_t)a->count;
		return set_out(g, n, 0, DT_INT64, 1, &one);
	}
	return NERR(n, "attribute %s has the wrong kind", a->name);
}
