// SPDX-License-Identifier: MIT
/*
 * Constant folding (a node whose inputs are all constant is evaluated on
 * the host and its outputs become constants), Identity/Dropout removal and
 * dead-node removal. The per-op evaluators are the fold_* functions the
 * op table (ops.c) lists.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"

/* Largest constant folding makes: bigger results stay computed on device. */
#define FOLD_MAX_BYTES (64u << 20)

/* Output k's data, allocated for its inferred shape; NULL on no memory. */
static struct ir_tensor *out_data(struct ir_graph *g, struct ir_node *n, int k)
{
	struct ir_tensor *t = &g->tensors[n->outputs[k]];
	size_t bytes = (size_t)ir_numel(t) * ir_dtype_size(t->dtype);

	free(t->data);
	t->data = calloc(1, bytes ? bytes : 1);
	t->nbytes = bytes;
	return t->data ? t : NULL;
}

#define OUT_OR_NOMEM(t, k) do { \
	(t) = out_data(g, n, (k)); \
	if (!(t)) \
		return NERR(n, "out of memory"); \
} while (0)

/* Row-major strides of dims, 0 where a dim broadcasts (is 1). */
static void bcast_strides(const struct ir_tensor *in, int rank, int64_t *st)
{
	int64_t s = 1;
	int i, off = rank - in->rank;

	for (i = rank - 1; i >= 0; i--) {
		int64_t d = i < off ? 1 : in->dims[i - off];

		st[i] = d == 1 ? 0 : s;
		s *= d;
	}
}

/* Offset in an input (strides st) of output element o (dims of out). */
static int64_t offset_of(const struct ir_tensor *out, const int64_t *st,
			 int64_t o)
{
	int64_t off = 0;
	int i;

	for (i = out->rank - 1; i >= 0; i--) {
		off += (o % out->dims[i]) * st[i];
		o /= out->dims[i];
	}
	return off;
}

FOLD(constant)
{
	static const char *const names[] = {
		"value", "value_float", "value_floats", "value_int",
		"value_ints",
	};
	const struct ir_attr *a = NULL;
	struct ir_tensor *t;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !a; i++)
		a = ir_attr(n, names[i]);
	OUT_OR_NOMEM(t, 0);
	switch (a->kind) {
	case IR_ATTR_TENSOR:
		memcpy(t->data, g->tensors[a->tensor].data, t->nbytes);
		break;
	case IR_ATTR_FLOAT:
		((float *)t->data)[0] = a->f;
		break;
	case IR_ATTR_INT:
		((int64_t *)t->data)[0] = a->i;
		break;
	case IR_ATTR_FLOATS:
		memcpy(t->data, a->floats, t->nbytes);
		break;
	case IR_ATTR_INTS:
		memcpy(t->data, a->ints, t->nbytes);
		break;
	}
	return 0;
}

/* Identity, Dropout, Reshape, Flatten, Squeeze, Unsqueeze: same bytes. */
FOLD(copy)
{
	struct ir_tensor *t;

	OUT_OR_NOMEM(t, 0);
	memcpy(t->data, IN(0)->data, t->nbytes);
	return 0;
}

FOLD(cast)
{
	struct ir_tensor *t;
	int64_t i, cnt;

	OUT_OR_NOMEM(t, 0);
	cnt = ir_numel(t);
	for (i = 0; i < cnt; i++) {
		if (ir_dtype_is_float(IN(0)->dtype) || ir_dtype_is_float(t->dtype))
			ir_put_f64(t, i, ir_get_f64(IN(0), i));
		else
			ir_put_i64(t, i, ir_get_i64(IN(0), i));
	}
	return 0;
}

static double eval_f(const char *op, const double *v, int nv)
{
	double x = v[0], y = nv > 1 ? v[1] : 0;

	if (!strcmp(op, "Add")) return x + y;
	if (!strcmp(op, "Sub")) return x - y;
	if (!strcmp(op, "Mul")) return x * y;
	if (!strcmp(op, "Div")) return x / y;
	if (!strcmp(op, "Pow")) return pow(x, y);
	if (!strcmp(op, "Max")) return x > y || nv == 1 ? x : y;
	if (!strcmp(op, "Min")) return x < y || nv == 1 ? x : y;
	if (!strcmp(op, "Equal")) return x == y;
	if (!strcmp(op, "Less")) return x < y;
	if (!strcmp(op, "Greater")) return x > y;
	if (!strcmp(op, "Not")) return !x;
	if (!strcmp(op, "Sqrt")) return sqrt(x);
	if (!strcmp(op, "Neg")) return -x;
	if (!strcmp(op, "Abs")) return fabs(x);
	if (!strcmp(op, "Exp")) return exp(x);
	if (!strcmp(op, "Log")) return log(x);
	if (!strcmp(op, "Reciprocal")) return 1 / x;
	if (!strcmp(op, "Relu")) return x > 0 ? x : 0;
	if (!strcmp(op, "Sigmoid")) return 1 / (1 + exp(-x));
	if (!strcmp(op, "Tanh")) return tanh(x);
	if (!strcmp(op, "Erf")) return erf(x);
	return NAN;
}

/* Integer arithmetic for integer tensors (shape computations). */
static int eval_i(const char *op, const int64_t *v, int nv, int64_t *out)
{
	int64_t x = v[0], y = nv > 1 ? v[1] : 0;

	if (!strcmp(op, "Add")) *out = (int64_t)((uint64_t)x + (uint64_t)y);
	else if (!strcmp(op, "Sub")) *out = (int64_t)((uint64_t)x - (uint64_t)y);
	else if (!strcmp(op, "Mul")) *out = (int64_t)((uint64_t)x * (uint64_t)y);
	else if (!strcmp(op, "Div")) {
		if (!y || (x == INT64_MIN && y == -1))
			return -1;
		*out = x / y;
	} else if (!strcmp(op, "Max")) *out = x > y || nv == 1 ? x : y;
	else if (!strcmp(op, "Min")) *out = x < y || nv == 1 ? x : y;
	else if (!strcmp(op, "Equal")) *out = x == y;
	else if (!strcmp(op, "Less")) *out = x < y;
	else if (!strcmp(op, "Greater")) *out = x > y;
	else if (!strcmp(op, "Not")) *out = !x;
	else if (!strcmp(op, "Neg")) *out = (int64_t)(0 - (uint64_t)x);
	else if (!strcmp(op, "Abs")) *out = x < 0 ? (int64_t)(0 - (uint64_t)x) : x;
	else if (!strcmp(op, "Relu")) *out = x > 0 ? x : 0;
	else
		return 1;	/* no integer form: evaluate in double */
	return 0;
}

/* Unary, binary and variadic elementwise operators with broadcasting. */
FOLD(elementwise)
{
	int64_t st[8][IR_MAX_RANK], o, cnt;
	struct ir_tensor *t;
	bool integer = true;
	int k, nin = n->nin;

	if (nin > 8)
		return 1;
	for (k = 0; k < nin; k++)
		if (ir_dtype_is_float(IN(k)->dtype))
			integer = false;
	OUT_OR_NOMEM(t, 0);
	for (k = 0; k < nin; k++)
		bcast_strides(IN(k), t->rank, st[k]);
	cnt = ir_numel(t);
	for (o = 0; o < cnt; o++) {
		double fv[8];
		int64_t iv[8], r;
		int e = 1;

		for (k = 0; k < nin; k++) {
			int64_t off = offset_of(t, st[k], o);

			fv[k] = ir_get_f64(IN(k), off);
			iv[k] = ir_get_i64(IN(k), off);
		}
		/* Max/Min over many inputs: fold them pairwise */
		if (integer) {
			e = eval_i(n->op_type, iv, nin > 1 ? 2 : 1, &r);
			for (k = 2; !e && k < nin; k++) {
				int64_t pair[2] = { r, iv[k] };

				e = eval_i(n->op_type, pair, 2, &r);
			}
			if (e < 0)
				return NERR(n, "integer division by zero while folding");
		}
		if (!e) {
			ir_put_i64(t, o, r);
		} else {
			double v = eval_f(n->op_type, fv, nin > 1 ? 2 : 1);

			for (k = 2; k < nin; k++) {
				double pair[2] = { v, fv[k] };

				v = eval_f(n->op_type, pair, 2);
			}
			ir_put_f64(t, o, v);
		}
	}
	return 0;
}

FOLD(where)
{
	int64_t st[3][IR_MAX_RANK], o, cnt;
	struct ir_tensor *t;
	int k;

	OUT_OR_NOMEM(t, 0);
	for (k = 0; k < 3; k++)
		bcast_strides(IN(k), t->rank, st[k]);
	cnt = ir_numel(t);
	for (o = 0; o < cnt; o++) {
		int pick = ir_get_i64(IN(0), offset_of(t, st[0], o)) ? 1 : 2;
		int64_t off = offset_of(t, st[pick], o);

		memcpy((char *)t->data + o * ir_dtype_size(t->dtype),
		       (char *)IN(pick)->data + off * ir_dtype_size(t->dtype),
		       ir_dtype_size(t->dtype));
	}
	return 0;
}

FOLD(shape)
{
	int64_t r = IN(0)->rank, start = ir_attr_int(n, "start", 0), i;
	struct ir_tensor *t;

	start = start < 0 ? start + r : start;
	start = start < 0 ? 0 : start > r ? r : start;
	OUT_OR_NOMEM(t, 0);
	for (i = 0; i < t->dims[0]; i++)
		((int64_t *)t->data)[i] = IN(0)->dims[start + i];
	return 0;
}

FOLD(gather)
{
	const struct ir_tensor *x = IN(0), *idx = IN(1);
	int64_t outer = 1, inner = 1, ni = ir_numel(idx), o, j, dim;
	size_t esz = ir_dtype_size(x->dtype);
	struct ir_tensor *t;
	int axis, i;

	norm_axis(n, ir_attr_int(n, "axis", 0), x->rank, &axis, err, errlen);
	dim = x->dims[axis];
	for (i = 0; i < axis; i++)
		outer *= x->dims[i];
	for (i = axis + 1; i < x->rank; i++)
		inner *= x->dims[i];
	for (j = 0; j < ni; j++) {
		int64_t v = ir_get_i64(idx, j);

		if (v < -dim || v >= dim)
			return NERR(n, "index %lld is out of range for dim %lld",
				    (long long)v, (long long)dim);
	}
	OUT_OR_NOMEM(t, 0);
	for (o = 0; o < outer; o++)
		for (j = 0; j < ni; j++) {
			int64_t v = ir_get_i64(idx, j);

			v = v < 0 ? v + dim : v;
			memcpy((char *)t->data + ((o * ni + j) * inner) * esz,
			       (char *)x->data + ((o * dim + v) * inner) * esz,
			       (size_t)inner * esz);
		}
	return 0;
}

FOLD(concat)
{
	int64_t outer = 1, off = 0, o;
	size_t esz = ir_dtype_size(IN(0)->dtype);
	struct ir_tensor *t;
	int axis, k, i;

	norm_axis(n, ir_attr_int(n, "axis", 0), IN(0)->rank, &axis, err, errlen);
	OUT_OR_NOMEM(t, 0);
	for (i = 0; i < axis; i++)
		outer *= t->dims[i];
	for (k = 0; k < n->nin; k++) {
		int64_t chunk = ir_numel(IN(k)) / (outer ? outer : 1);
		int64_t row = ir_numel(t) / (outer ? outer : 1);

		for (o = 0; o < outer; o++)
			memcpy((char *)t->data + (o * row + off) * esz,
			       (char *)IN(k)->data + o * chunk * esz,
			       (size_t)chunk * esz);
		off += chunk;
	}
	return 0;
}

/* Element o of out, read from in at first + step * index per dim. */
FOLD(slice)
{
	int64_t first[IR_MAX_RANK], step[IR_MAX_RANK], dims[IR_MAX_RANK], o;
	int64_t cnt;
	size_t esz = ir_dtype_size(IN(0)->dtype);
	struct ir_tensor *t;

	if (slice_params(g, n, first, step, dims, err, errlen))
		return -1;
	OUT_OR_NOMEM(t, 0);
	cnt = ir_numel(t);
	for (o = 0; o < cnt; o++) {
		int64_t rest = o, src = 0, mul = 1;
		int i;

		for (i = t->rank - 1; i >= 0; i--) {
			int64_t idx = rest % t->dims[i];

			rest /= t->dims[i];
			src += (first[i] + step[i] * idx) * mul;
			mul *= IN(0)->dims[i];
		}
		memcpy((char *)t->data + o * esz, (char *)IN(0)->data + src * esz,
		       esz);
	}
	return 0;
}

FOLD(transpose)
{
	int64_t st[IR_MAX_RANK], cnt, o, s = 1;
	size_t esz = ir_dtype_size(IN(0)->dtype);
	int perm[IR_MAX_RANK], i;
	struct ir_tensor *t;

	if (transpose_perm(n, IN(0)->rank, perm, err, errlen))
		return -1;
	for (i = IN(0)->rank - 1; i >= 0; i--) {
		st[i] = s;
		s *= IN(0)->dims[i];
	}
	OUT_OR_NOMEM(t, 0);
	cnt = ir_numel(t);
	for (o = 0; o < cnt; o++) {
		int64_t rest = o, src = 0;

		for (i = t->rank - 1; i >= 0; i--) {
			src += (rest % t->dims[i]) * st[perm[i]];
			rest /= t->dims[i];
		}
		memcpy((char *)t->data + o * esz, (char *)IN(0)->data + src * esz,
		       esz);
	}
	return 0;
}

FOLD(constant_of_shape)
{
	const struct ir_attr *v = ir_attr(n, "value");
	struct ir_tensor *t;
	int64_t i, cnt;
	size_t esz;

	OUT_OR_NOMEM(t, 0);
	if (!v)
		return 0;	/* float zeros */
	esz = ir_dtype_size(t->dtype);
	cnt = ir_numel(t);
	for (i = 0; i < cnt; i++)
		memcpy((char *)t->data + i * esz, g->tensors[v->tensor].data, esz);
	return 0;
}

FOLD(expand)
{
	int64_t st[IR_MAX_RANK], cnt, o;
	size_t esz = ir_dtype_size(IN(0)->dtype);
	struct ir_tensor *t;

	OUT_OR_NOMEM(t, 0);
	bcast_strides(IN(0), t->rank, st);
	cnt = ir_numel(t);
	for (o = 0; o < cnt; o++)
		memcpy((char *)t->data + o * esz,
		       (char *)IN(0)->data + offset_of(t, st, o) * esz, esz);
	return 0;
}

FOLD(range)
{
	struct ir_tensor *t;
	int64_t i, cnt;

	OUT_OR_NOMEM(t, 0);
	cnt = ir_numel(t);
	for (i = 0; i < cnt; i++) {
		if (ir_dtype_is_float(t->dtype))
			ir_put_f64(t, i, ir_get_f64(IN(0), 0) +
					 (double)i * ir_get_f64(IN(2), 0));
		else
			ir_put_i64(t, i, ir_get_i64(IN(0), 0) +
					 i * ir_get_i64(IN(2), 0));
	}
	return 0;
}

int ir_fold_node(struct ir_graph *g, int i, char *err, size_t errlen)
{
	struct ir_node *n = &g->nodes[i];
	const struct ir_op *op = ir_op_find(n->op_type);
	int k, r;

	if (n->dead || !op || !op->fold || n->domain[0])
		return 0;
	for (k = 0; k < n->nin; k++)
		if (n->inputs[k] >= 0 && !op->fold_on_shape &&
		    !ir_is_const(g, n->inputs[k]))
			return 0;
	for (k = 0; k < n->nout; k++) {
		const struct ir_tensor *t;

		if (n->outputs[k] < 0)
			continue;
		t = &g->tensors[n->outputs[k]];
		/*
		 * A graph output folds too: lowering copies its value from the
		 * weights into the caller's buffer.
		 */
		if (t->rank < 0 || ir_numel(t) < 0 ||
		    (size_t)ir_numel(t) * ir_dtype_size(t->dtype) > FOLD_MAX_BYTES)
			return 0;
	}
	if (n->nout != 1 || n->outputs[0] < 0)
		return 0;
	r = op->fold(g, n, err, errlen);
	if (r < 0)
		return -1;
	if (r > 0)
		return 0;
	n = &g->nodes[i];
	n->dead = true;
	g->tensors[n->outputs[0]].producer = -1;
	return 1;
}

/* Every live use of tensor from replaced by to. */
static void replace_uses(struct ir_graph *g, int from, int to)
{
	int i, k;

	for (i = 0; i < g->nnodes; i++)
		for (k = 0; !g->nodes[i].dead && k < g->nodes[i].nin; k++)
			if (g->nodes[i].inputs[k] == from)
				g->nodes[i].inputs[k] = to;
}

/* Identity and Dropout (inference: identity) out of the graph. */
static int remove_identities(struct ir_graph *g)
{
	int i, removed = 0;

	for (i = 0; i < g->nnodes; i++) {
		struct ir_node *n = &g->nodes[i];
		int in, out, p;

		if (n->dead || n->nin < 1 || n->inputs[0] < 0 ||
		    (strcmp(n->op_type, "Identity") && strcmp(n->op_type, "Dropout")))
			continue;
		if (!strcmp(n->op_type, "Dropout") && !ir_dropout_is_identity(g, n))
			continue;	/* the mask is read, or training mode */
		if (n->nout > 1 && n->outputs[1] >= 0 &&
		    ir_uses(g, n->outputs[1]))
			continue;	/* the mask is read */
		in = n->inputs[0];
		out = n->outputs[0];
		if (g->tensors[out].output_index < 0) {
			replace_uses(g, out, in);
		} else {
			/* a graph output keeps its name: its producer writes it */
			p = g->tensors[in].producer;
			if (p < 0 || ir_uses(g, in) != 1 ||
			    g->tensors[in].output_index >= 0)
				continue;
			for (int k = 0; k < g->nodes[p].nout; k++)
				if (g->nodes[p].outputs[k] == in)
					g->nodes[p].outputs[k] = out;
			g->tensors[out].producer = p;
		}
		n->dead = true;
		removed++;
	}
	return removed;
}

int ir_remove_dead(struct ir_graph *g)
{
	bool *needed = calloc((size_t)g->ntensors + 1, 1);
	int i, k, removed = 0;

	if (!needed)
		return -1;
	for (i = 0; i < g->noutputs; i++)
		needed[g->outputs[i]] = true;
	for (i = g->nnodes - 1; i >= 0; i--) {
		struct ir_node *n = &g->nodes[i];
		bool live = false;

		if (n->dead)
			continue;
		for (k = 0; k < n->nout; k++)
			if (n->outputs[k] >= 0 && needed[n->outputs[k]])
				live = true;
		if (!live) {
			n->dead = true;
			removed++;
			continue;
		}
		for (k = 0; k < n->nin; k++)
			if (n->inputs[k] >= 0)
				needed[n->inputs[k]] = true;
	}
	free(needed);
	return removed;
}

int ir_fold(struct ir_graph *g, char *err, size_t errlen)
{
	int i, folded = 0, r;

	for (i = 0; i < g->nnodes; i++) {
		r = ir_fold_node(g, i, err, errlen);
		if (r < 0)
			return -1;
		folded += r;
	}
	folded += remove_identities(g);
	r = ir_remove_dead(g);
	if (r < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return folded + r;
}
