// SPDX-License-Identifier: MIT
/*
 * Inference of the indexing operators (GatherElements, GatherND, Scatter,
 * ScatterElements, ScatterND, OneHot, ReverseSequence), Tile, and the
 * two that depend on a shape only and always fold (Size, EyeLike).
 * Shape-like operands (OneHot's depth, Tile's repeats) are read with
 * ir_const_ints; indices and updates stay runtime data.
 */
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"

static bool is_index_dtype(int dt)
{
	return dt == DT_INT32 || dt == DT_INT64;
}

INFER(gather_elements)
{
	const struct ir_tensor *x = IN(0), *idx = IN(1);
	int axis, d;

	if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, &axis, err, errlen))
		return -1;
	if (!is_index_dtype(idx->dtype))
		return NERR(n, "indices %s are %s, not int32/int64", idx->name,
			    ir_dtype_name(idx->dtype));
	if (idx->rank != x->rank)
		return NERR(n, "indices have rank %d, data %d", idx->rank, x->rank);
	for (d = 0; d < x->rank; d++)
		if (d != axis && idx->dims[d] > x->dims[d])
			return NERR(n, "indices dim %d is %lld, data's %lld", d,
				    (long long)idx->dims[d], (long long)x->dims[d]);
	return set_out(g, n, 0, x->dtype, idx->rank, idx->dims);
}

INFER(gather_nd)
{
	const struct ir_tensor *x = IN(0), *idx = IN(1);
	int64_t b = ir_attr_int(n, "batch_dims", 0), k, dims[IR_MAX_RANK];
	int r = 0, d;

	if (!is_index_dtype(idx->dtype))
		return NERR(n, "indices %s are %s, not int32/int64", idx->name,
			    ir_dtype_name(idx->dtype));
	if (idx->rank < 1 || x->rank < 1)
		return NERR(n, "data and indices need rank >= 1");
	k = idx->dims[idx->rank - 1];
	if (b < 0 || b >= idx->rank || b >= x->rank || k < 1 || k > x->rank - b)
		return NERR(n, "batch_dims %lld and tuples of %lld do not fit rank %d",
			    (long long)b, (long long)k, x->rank);
	for (d = 0; d < b; d++)
		if (idx->dims[d] != x->dims[d])
			return NERR(n, "batch dim %d differs", d);
	if (idx->rank - 1 + x->rank - b - k > IR_MAX_RANK)
		return NERR(n, "the output rank is above %d", IR_MAX_RANK);
	for (d = 0; d < idx->rank - 1; d++)
		dims[r++] = idx->dims[d];
	for (d = (int)(b + k); d < x->rank; d++)
		dims[r++] = x->dims[d];
	return set_out(g, n, 0, x->dtype, r, dims);
}

/* The reduction attribute of ScatterElements/ScatterND as the UAPI's. */
int scatter_reduction(const struct ir_node *n)
{
	const struct ir_attr *a = ir_attr(n, "reduction");

	if (!a || !a->s || !strcmp(a->s, "none"))
		return 0;
	if (!strcmp(a->s, "add"))
		return 1;
	if (!strcmp(a->s, "mul"))
		return 2;
	if (!strcmp(a->s, "max"))
		return 3;
	if (!strcmp(a->s, "min"))
		return 4;
	return -1;
}

INFER(scatter_elements)
{
	const struct ir_tensor *x = IN(0), *idx = IN(1), *up = IN(2);
	int axis, d;

	if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, &axis, err, errlen))
		return -1;
	if (!is_index_dtype(idx->dtype))
		return NERR(n, "indices %s are %s, not int32/int64", idx->name,
			    ir_dtype_name(idx->dtype));
	if (scatter_reduction(n) < 0)
		return NERR(n, "unknown reduction");
	if (idx->rank != x->rank || up->rank != x->rank || up->dtype != x->dtype)
		return NERR(n, "data, indices and updates differ in rank or type");
	for (d = 0; d < x->rank; d++)
		if (idx->dims[d] != up->dims[d] ||
		    (d != axis && idx->dims[d] > x->dims[d]))
			return NERR(n, "indices and updates differ in dim %d", d);
	return set_out_like(g, n, 0, x);
}

INFER(scatter_nd)
{
	const struct ir_tensor *x = IN(0), *idx = IN(1), *up = IN(2);
	int64_t k;
	int d;

	if (!is_index_dtype(idx->dtype))
		return NERR(n, "indices %s are %s, not int32/int64", idx->name,
			    ir_dtype_name(idx->dtype));
	if (scatter_reduction(n) < 0)
		return NERR(n, "unknown reduction");
	if (idx->rank < 1 || x->rank < 1 || up->dtype != x->dtype)
		return NERR(n, "data, indices and updates do not match");
	k = idx->dims[idx->rank - 1];
	if (k < 1 || k > x->rank || up->rank != idx->rank - 1 + x->rank - k)
		return NERR(n, "updates have rank %d, need %lld", up->rank,
			    (long long)(idx->rank - 1 + x->rank - k));
	for (d = 0; d < up->rank; d++) {
		int64_t want = d < idx->rank - 1 ? idx->dims[d] :
			       x->dims[d - (idx->rank - 1) + k];

		if (up->dims[d] != want)
			return NERR(n, "updates dim %d is %lld, not %lld", d,
				    (long long)up->dims[d], (long long)want);
	}
	return set_out_like(g, n, 0, x);
}

INFER(one_hot)
{
	const struct ir_tensor *idx = IN(0), *vals = IN(2);
	int64_t depth, dims[IR_MAX_RANK];
	int axis, r = idx->rank + 1, i, j = 0;

	if (r > IR_MAX_RANK)
		return NERR(n, "the output rank is above %d", IR_MAX_RANK);
	if (ir_const_ints(g, n->inputs[1], &depth, 1) != 1)
		return NERR(n, "depth (%s) must be a constant scalar", IN(1)->name);
	if (depth < 1)
		return NERR(n, "depth is %lld", (long long)depth);
	if (ir_numel(vals) != 2)
		return NERR(n, "values must have two elements");
	if (norm_axis(n, ir_attr_int(n, "axis", -1), r, &axis, err, errlen))
		return -1;
	for (i = 0; i < r; i++)
		dims[i] = i == axis ? depth : idx->dims[j++];
	return set_out(g, n, 0, vals->dtype, r, dims);
}

INFER(tile)
{
	const struct ir_tensor *x = IN(0);
	int64_t rep[IR_MAX_RANK], dims[IR_MAX_RANK];
	int c = ir_const_ints(g, n->inputs[1], rep, IR_MAX_RANK), d;

	if (c < 0)
		return NERR(n, "repeats (%s) must be a constant of at most %d values",
			    IN(1)->name, IR_MAX_RANK);
	if (c != x->rank)
		return NERR(n, "repeats has %d values for rank %d", c, x->rank);
	for (d = 0; d < c; d++) {
		if (rep[d] < 0)
			return NERR(n, "repeats %d is negative", d);
		dims[d] = x->dims[d] * rep[d];
	}
	return set_out(g, n, 0, x->dtype, x->rank, dims);
}

INFER(reverse_sequence)
{
	const struct ir_tensor *x = IN(0), *len = IN(1);
	int ba, ta;

	if (x->rank < 2)
		return NERR(n, "input rank is %d, needs 2 or more", x->rank);
	if (norm_axis(n, ir_attr_int(n, "batch_axis", 1), x->rank, &ba, err,
		      errlen) ||
	    norm_axis(n, ir_attr_int(n, "time_axis", 0), x->rank, &ta, err,
		      errlen))
		return -1;
	if (ba == ta)
		return NERR(n, "batch_axis and time_axis are the same");
	if (!is_index_dtype(len->dtype) || len->rank != 1 ||
	    len->dims[0] != x->dims[ba])
		return NERR(n, "sequence_lens must be int32/int64 of %lld values",
			    (long long)x->dims[ba]);
	return set_out_like(g, n, 0, x);
}

INFER(size)
{
	return set_out(g, n, 0, DT_INT64, 0, NULL);
}

INFER(eye_like)
{
	const struct ir_tensor *x = IN(0);
	int dt = (int)ir_attr_int(n, "dtype", -1);

	if (x->rank != 2)
		return NERR(n, "input rank is %d, not 2", x->rank);
	if (dt >= 0) {
		dt = ir_dtype_from_onnx((int32_t)dt);
		if (dt < 0)
			return NERR(n, "dtype %lld is not supported",
				    (long long)ir_attr_int(n, "dtype", -1));
	} else {
		dt = x->dtype;
	}
	return set_out(g, n, 0, dt, 2, x->dims);
}

/* Output 0's data for its inferred shape, zeroed; NULL on no memory. */
static struct ir_tensor *fresh_out(struct ir_graph *g, struct ir_node *n)
{
	struct ir_tensor *t = &g->tensors[n->outputs[0]];
	size_t bytes = (size_t)ir_numel(t) * ir_dtype_size(t->dtype);

	free(t->data);
	t->data = calloc(1, bytes ? bytes : 1);
	t->nbytes = bytes;
	return t->data ? t : NULL;
}

FOLD(size)
{
	struct ir_tensor *t = fresh_out(g, n);

	if (!t)
		return NERR(n, "out of memory");
	ir_put_i64(t, 0, ir_numel(IN(0)));
	return 0;
}

FOLD(eye_like)
{
	struct ir_tensor *t = fresh_out(g, n);
	int64_t k = ir_attr_int(n, "k", 0), i;

	if (!t)
		return NERR(n, "out of memory");
	for (i = 0; i < t->dims[0]; i++) {
		int64_t j = i + k;

		if (j < 0 || j >= t->dims[1])
			continue;
		if (ir_dtype_is_float(t->dtype))
			ir_put_f64(t, i * t->dims[1] + j, 1.0);
		else
			ir_put_i64(t, i * t->dims[1] + j, 1);
	}
	return 0;
}
