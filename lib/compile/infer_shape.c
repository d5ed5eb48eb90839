// SPDX-License-Identifier: MIT
/*
 * Inference of the operators that move data or compute shapes: the values
 * of their shape-like inputs (Reshape's shape, Slice's starts, ...) must
 * be constant by the time they are inferred, which folding of the
 * Shape/Gather/Concat chains before them makes them.
 */
#include <math.h>
#include <string.h>

#include "infer_util.h"

/* Constant input k as up to max ints; NERR naming it when it is not. */
static int const_input(struct ir_graph *g, struct ir_node *n, int k,
		       const char *what, int64_t *out, int max,
		       char *err, size_t errlen)
{
	int c = ir_const_ints(g, n->inputs[k], out, max);

	if (c < 0)
		return NERR(n, "%s (%s) must be a constant of at most %d values after folding",
			    what, IN(k)->name, max);
	return c;
}

INFER(flatten)
{
	int64_t dims[2] = { 1, 1 }, a = ir_attr_int(n, "axis", 1);
	int axis, i;

	/* axis in [-rank, rank]: a negative one counts from rank */
	if (a < -IN(0)->rank || a > IN(0)->rank)
		return NERR(n, "axis %lld is outside [-%d, %d]", (long long)a,
			    IN(0)->rank, IN(0)->rank);
	axis = (int)(a < 0 ? a + IN(0)->rank : a);
	for (i = 0; i < IN(0)->rank; i++)
		dims[i >= axis] *= IN(0)->dims[i];
	return set_out(g, n, 0, IN(0)->dtype, 2, dims);
}

INFER(reshape)
{
	int64_t shape[IR_MAX_RANK], known = 1, total = ir_numel(IN(0));
	bool allowzero = ir_attr_int(n, "allowzero", 0);
	int r, i, minus = -1;

	r = const_input(g, n, 1, "shape", shape, IR_MAX_RANK, err, errlen);
	if (r < 0)
		return -1;
	for (i = 0; i < r; i++) {
		if (shape[i] == 0 && !allowzero) {
			if (i >= IN(0)->rank)
				return NERR(n, "shape dim %d is 0 (copy) beyond the input's rank",
					    i);
			shape[i] = IN(0)->dims[i];
		}
		if (shape[i] == -1) {
			if (minus >= 0)
				return NERR(n, "shape has more than one -1");
			minus = i;
			continue;
		}
		if (shape[i] < 0)
			return NERR(n, "shape dim %d is %lld", i,
				    (long long)shape[i]);
		known *= shape[i];
	}
	if (minus >= 0) {
		if (!known || total % known)
			return NERR(n, "cannot infer the -1 dim: %lld elements into blocks of %lld",
				    (long long)total, (long long)known);
		shape[minus] = total / known;
		known *= shape[minus];
	}
	if (known != total)
		return NERR(n, "reshaping %lld elements into %lld", (long long)total,
			    (long long)known);
	return set_out(g, n, 0, IN(0)->dtype, r, shape);
}

/* The permutation of a Transpose (default: reversed dims); NERR if bad. */
int transpose_perm(struct ir_node *n, int rank, int *perm, char *err,
		   size_t errlen)
{
	const struct ir_attr *a = ir_attr(n, "perm");
	bool seen[IR_MAX_RANK] = { 0 };
	int i;

	if (a && (a->kind != IR_ATTR_INTS || a->count != (size_t)rank))
		return NERR(n, "perm must have %d values", rank);
	for (i = 0; i < rank; i++) {
		int64_t p = a ? a->ints[i] : rank - 1 - i;

		if (p < 0 || p >= rank || seen[p])
			return NERR(n, "perm is not a permutation of %d dims", rank);
		seen[p] = true;
		perm[i] = (int)p;
	}
	return 0;
}

INFER(transpose)
{
	int64_t dims[IR_MAX_RANK];
	int perm[IR_MAX_RANK], i;

	if (transpose_perm(n, IN(0)->rank, perm, err, errlen))
		return -1;
	for (i = 0; i < IN(0)->rank; i++)
		dims[i] = IN(0)->dims[perm[i]];
	return set_out(g, n, 0, IN(0)->dtype, IN(0)->rank, dims);
}

/* Axes from input 1 (opset >= 13) or the axes attribute; count or -1. */
static int axes_of(struct ir_graph *g, struct ir_node *n, int64_t *axes,
		   char *err, size_t errlen)
{
	const struct ir_attr *a = ir_attr(n, "axes");

	if (HAS_IN(1))
		return const_input(g, n, 1, "axes", axes, IR_MAX_RANK, err,
				   errlen);
	if (!a)
		return 0;
	if (a->kind != IR_ATTR_INTS || a->count > IR_MAX_RANK)
		return NERR(n, "bad axes attribute");
	memcpy(axes, a->ints, sizeof(int64_t) * a->count);
	return (int)a->count;
}

INFER(squeeze)
{
	int64_t axes[IR_MAX_RANK], dims[IR_MAX_RANK];
	bool drop[IR_MAX_RANK] = { 0 };
	int na = axes_of(g, n, axes, err, errlen), i, r = 0, ax;

	if (na < 0)
		return -1;
	for (i = 0; i < na; i++) {
		if (norm_axis(n, axes[i], IN(0)->rank, &ax, err, errlen))
			return -1;
		if (IN(0)->dims[ax] != 1)
			return NERR(n, "dim %d is %lld, not 1", ax,
				    (long long)IN(0)->dims[ax]);
		drop[ax] = true;
	}
	for (i = 0; i < IN(0)->rank; i++)
		if (!(na ? drop[i] : IN(0)->dims[i] == 1))
			dims[r++] = IN(0)->dims[i];
	return set_out(g, n, 0, IN(0)->dtype, r, dims);
}

INFER(unsqueeze)
{
	int64_t axes[IR_MAX_RANK], dims[IR_MAX_RANK];
	bool added[IR_MAX_RANK] = { 0 };
	int na = axes_of(g, n, axes, err, errlen), r, i, j = 0, ax;

	if (na < 0)
		return -1;
	if (!na)
		return NERR(n, "needs axes");
	r = IN(0)->rank + na;
	if (r > IR_MAX_RANK)
		return NERR(n, "the output rank %d is above %d", r, IR_MAX_RANK);
	for (i = 0; i < na; i++) {
		if (norm_axis(n, axes[i], r, &ax, err, errlen))
			return -1;
		if (added[ax])
			return NERR(n, "axis %lld is given twice", (long long)axes[i]);
		added[ax] = true;
	}
	for (i = 0; i < r; i++)
		dims[i] = added[i] ? 1 : IN(0)->dims[j++];
	return set_out(g, n, 0, IN(0)->dtype, r, dims);
}

INFER(concat)
{
	int64_t dims[IR_MAX_RANK];
	int axis, k, d;

	if (norm_axis(n, ir_attr_int(n, "axis", 0), IN(0)->rank, &axis, err,
		      errlen))
		return -1;
	memcpy(dims, IN(0)->dims, sizeof(dims));
	for (k = 1; k < n->nin; k++) {
		if (!HAS_IN(k))
			return NERR(n, "input %d is missing", k);
		if (IN(k)->dtype != IN(0)->dtype || IN(k)->rank != IN(0)->rank)
			return NERR(n, "input %s differs from %s in type or rank",
				    IN(k)->name, IN(0)->name);
		for (d = 0; d < IN(0)->rank; d++)
			if (d != axis && IN(k)->dims[d] != dims[d])
				return NERR(n, "input %s differs in dim %d",
					    IN(k)->name, d);
		dims[axis] += IN(k)->dims[axis];
	}
	return set_out(g, n, 0, IN(0)->dtype, IN(0)->rank, dims);
}

INFER(split)
{
	int64_t parts[64], dims[IR_MAX_RANK], sum = 0;
	const struct ir_attr *a = ir_attr(n, "split");
	int axis, np = 0, k;

	if (norm_axis(n, ir_attr_int(n, "axis", 0), IN(0)->rank, &axis, err,
		      errlen))
		return -1;
	if (n->nout > 64)
		return NERR(n, "more than 64 outputs");
	if (HAS_IN(1)) {
		np = const_input(g, n, 1, "split", parts, 64, err, errlen);
		if (np < 0)
			return -1;
	} else if (a && a->kind == IR_ATTR_INTS && a->count <= 64) {
		np = (int)a->count;
		memcpy(parts, a->ints, sizeof(int64_t) * (size_t)np);
	} else {
		int64_t len = IN(0)->dims[axis], each = (len + n->nout - 1) / n->nout;

		/* equal parts; the last one smaller when it does not divide */
		for (k = 0; k < n->nout; k++)
			parts[k] = len - each * k < each ? len - each * k : each;
		np = n->nout;
	}
	if (np != n->nout)
		return NERR(n, "split has %d parts for %d outputs", np, n->nout);
	for (k = 0; k < np; k++) {
		if (parts[k] < 0)
			return NERR(n, "split part %d is negative", k);
		sum += parts[k];
	}
	if (sum != IN(0)->dims[axis])
		return NERR(n, "split parts add up to %lld, dim %d is %lld",
			    (long long)sum, axis, (long long)IN(0)->dims[axis]);
	memcpy(dims, IN(0)->dims, sizeof(dims));
	for (k = 0; k < np; k++) {
		dims[axis] = parts[k];
		set_out(g, n, k, IN(0)->dtype, IN(0)->rank, dims);
	}
	return 0;
}

/* ONNX's clamping of one Slice axis: first index and output length. */
static void slice_axis(int64_t dim, int64_t start, int64_t end, int64_t step,
		       int64_t *first, int64_t *len)
{
	if (start < 0)
		start += dim;
	if (end < 0 && end > INT64_MIN / 2)
		end += dim;
	else if (end <= INT64_MIN / 2)
		end = -1;
	if (step > 0) {
		start = start < 0 ? 0 : start > dim ? dim : start;
		end = end < 0 ? 0 : end > dim ? dim : end;
		*len = end > start ? (end - start + step - 1) / step : 0;
	} else {
		start = start < 0 ? -1 : start > dim - 1 ? dim - 1 : start;
		end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
		*len = start > end ? (start - end + (-step) - 1) / (-step) : 0;
	}
	*first = start;
}

int slice_params(struct ir_graph *g, struct ir_node *n, int64_t *first,
		 int64_t *step, int64_t *dims, char *err, size_t errlen)
{
	int64_t starts[IR_MAX_RANK], ends[IR_MAX_RANK], axes[IR_MAX_RANK];
	int64_t steps[IR_MAX_RANK];
	const struct ir_tensor *x = IN(0);
	bool seen[IR_MAX_RANK] = { 0 };
	int ns, ne, na, i, ax;

	if (g->opset < 10) {
		const struct ir_attr *s = ir_attr(n, "starts"), *e = ir_attr(n, "ends");
		const struct ir_attr *a = ir_attr(n, "axes");

		if (!s || !e || s->count != e->count || s->count > IR_MAX_RANK ||
		    (a && a->count != s->count))
			return NERR(n, "needs starts and ends of one length");
		ns = ne = (int)s->count;
		memcpy(starts, s->ints, sizeof(int64_t) * (size_t)ns);
		memcpy(ends, e->ints, sizeof(int64_t) * (size_t)ns);
		na = a ? ns : 0;
		if (a)
			memcpy(axes, a->ints, sizeof(int64_t) * (size_t)ns);
	} else {
		if (n->nin < 3)
			return NERR(n, "needs starts and ends inputs");
		/* probe all four first: atc then names every input it needs */
		for (i = 1; i < n->nin && i <= 4; i++)
			if (HAS_IN(i))
				ir_const_ints(g, n->inputs[i], steps, IR_MAX_RANK);
		ns = const_input(g, n, 1, "starts", starts, IR_MAX_RANK, err, errlen);
		if (ns < 0)
			return -1;
		ne = const_input(g, n, 2, "ends", ends, IR_MAX_RANK, err, errlen);
		if (ne < 0)
			return -1;
		na = HAS_IN(3) ? const_input(g, n, 3, "axes", axes, IR_MAX_RANK,
					     err, errlen) : 0;
		if (na < 0)
			return -1;
		if (ne != ns || (HAS_IN(3) && na != ns))
			return NERR(n, "starts, ends and axes differ in length");
		if (HAS_IN(4)) {
			int nst = const_input(g, n, 4, "steps", steps,
					      IR_MAX_RANK, err, errlen);

			if (nst < 0)
				return -1;
			if (nst != ns)
				return NERR(n, "steps differ in length from starts");
		}
	}
	for (i = 0; i < x->rank; i++) {
		first[i] = 0;
		step[i] = 1;
		dims[i] = x->dims[i];
	}
	for (i = 0; i < ns; i++) {
		int64_t st = n->nin > 4 && HAS_IN(4) ? steps[i] : 1;

		if (norm_axis(n, na ? axes[i] : i, x->rank, &ax, err, errlen))
			return -1;
		if (seen[ax])
			return NERR(n, "axis %d is sliced twice", ax);
		seen[ax] = true;
		if (!st)
			return NERR(n, "step 0 on axis %d", ax);
		step[ax] = st;
		slice_axis(x->dims[ax], starts[i], ends[i], st, &first[ax],
			   &dims[ax]);
	}
	return 0;
}

INFER(slice)
{
	int64_t first[IR_MAX_RANK], step[IR_MAX_RANK], dims[IR_MAX_RANK];

	if (slice_params(g, n, first, step, dims, err, errlen))
		return -1;
	return set_out(g, n, 0, IN(0)->dtype, IN(0)->rank, dims);
}

INFER(gather)
{
	const struct ir_tensor *x = IN(0), *idx = IN(1);
	int64_t dims[IR_MAX_RANK];
	int axis, i, r = 0;

	if (norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, &axis, err, errlen))
		return -1;
	if (idx->dtype != DT_INT64 && idx->dtype != DT_INT32)
		return NERR(n, "indices %s are %s, not int32/int64", idx->name,
			    ir_dtype_name(idx->dtype));
	if (x->rank - 1 + idx->rank > IR_MAX_RANK)
		return NERR(n, "the output rank is above %d", IR_MAX_RANK);
	for (i = 0; i < axis; i++)
		dims[r++] = x->dims[i];
	for (i = 0; i < idx->rank; i++)
		dims[r++] = idx->dims[i];
	for (i = axis + 1; i < x->rank; i++)
		dims[r++] = x->dims[i];
	return set_out(g, n, 0, x->dtype, r, dims);
}

INFER(shape)
{
	int64_t r = IN(0)->rank, start = ir_attr_int(n, "start", 0);
	int64_t end = ir_attr_int(n, "end", r), len;

	start = start < 0 ? start + r : start;
	end = end < 0 ? end + r : end;
	start = start < 0 ? 0 : start > r ? r : start;
	end = end < 0 ? 0 : end > r ? r : end;
	len = end > start ? end - start : 0;
	return set_out(g, n, 0, DT_INT64, 1, &len);
}

INFER(constant_of_shape)
{
	const struct ir_attr *v = ir_attr(n, "value");
	int64_t dims[IR_MAX_RANK];
	int r, i, dt = DT_FLOAT;

	if (IN(0)->rank != 1)
		return NERR(n, "the shape input must be 1-D");
	r = const_input(g, n, 0, "shape", dims, IR_MAX_RANK, err, errlen);
	if (r < 0)
		return -1;
	for (i = 0; i < r; i++)
		if (dims[i] < 0)
			return NERR(n, "shape dim %d is negative", i);
	if (v) {
		if (v->kind != IR_ATTR_TENSOR ||
		    ir_numel(&g->tensors[v->tensor]) != 1)
			return NERR(n, "value must be a one-element tensor");
		dt = g->tensors[v->tensor].dtype;
	}
	return set_out(g, n, 0, dt, r, dims);
}

INFER(expand)
{
	int64_t shape[IR_MAX_RANK], dims[IR_MAX_RANK];
	int r = const_input(g, n, 1, "shape", shape, IR_MAX_RANK, err, errlen);

	if (r < 0)
		return -1;
	if (ir_broadcast(IN(0)->rank, IN(0)->dims, r, shape, &r, dims))
		return NERR(n, "input %s does not broadcast to the shape",
			    IN(0)->name);
	return set_out(g, n, 0, IN(0)->dtype, r, dims);
}

INFER(range)
{
	static const char *const what[3] = { "start", "limit", "delta" };
	double start, limit, delta, count;
	int64_t len, probe;
	int k, bad = -1;

	/* through ir_const_ints, which notes every input atc needs frozen */
	for (k = 2; k >= 0; k--)
		if (ir_const_ints(g, n->inputs[k], &probe, 1) != 1)
			bad = k;
	if (bad >= 0)
		return NERR(n, "%s (%s) must be a constant scalar", what[bad],
			    IN(bad)->name);
	start = ir_get_f64(IN(0), 0);
	limit = ir_get_f64(IN(1), 0);
	delta = ir_get_f64(IN(2), 0);
	if (delta == 0)
		return NERR(n, "delta is 0");
	count = ceil((limit - start) / delta);
	if (count > (1 << 30))
		return NERR(n, "more than 2^30 values");
	len = count > 0 ? (int64_t)count : 0;
	return set_out(g, n, 0, IN(0)->dtype, 1, &len);
}

INFER(pad)
{
	int64_t pads[2 * IR_MAX_RANK], axes[IR_MAX_RANK], dims[IR_MAX_RANK];
	int r = IN(0)->rank, np, na = 0, i;
	const struct ir_attr *a = ir_attr(n, "pads");

	if (g->opset < 11) {
		if (!a || a->kind != IR_ATTR_INTS || a->count != 2 * (size_t)r)
			return NERR(n, "needs pads with %d values", 2 * r);
		memcpy(pads, a->ints, sizeof(int64_t) * 2 * (size_t)r);
		np = 2 * r;
	} else {
		np = const_input(g, n, 1, "pads", pads, 2 * IR_MAX_RANK, err,
				 errlen);
		if (np < 0)
			return -1;
		if (HAS_IN(3)) {
			na = const_input(g, n, 3, "axes", axes, IR_MAX_RANK, err,
					 errlen);
			if (na < 0)
				return -1;
		}
	}
	if (np != 2 * (na ? na : r))
		return NERR(n, "pads has %d values, needs %d", np, 2 * (na ? na : r));
	memcpy(dims, IN(0)->dims, sizeof(dims));
	for (i = 0; i < np / 2; i++) {
		int ax = i;

		if (na && norm_axis(n, axes[i], r, &ax, err, errlen))
			return -1;
		dims[ax] += pads[i] + pads[i + np / 2];
		if (dims[ax] < 0)
			return NERR(n, "padding leaves dim %d negative", ax);
	}
	return set_out(g, n, 0, IN(0)->dtype, r, dims);
}
