// SPDX-License-Identifier: MIT
/*
 * ONNX's Gradient (ai.onnx.preview.training, opset 1) as reverse-mode
 * automatic differentiation done at compile time.
 *
 * When inference reaches a Gradient node, everything before it has
 * shapes. The pass then
 *  1. finds the nodes between the independent tensors (xs and zs, which
 *     are leaves even when a node computes them) and y;
 *  2. when the Gradient's inputs are not the tensors xs/zs name, copies
 *     those nodes reading the given values instead (the gradient is taken
 *     at the Gradient's inputs, as the operator defines);
 *  3. walks them backwards from a seed of ones of y's shape, emitting
 *     each derivative rule as ordinary ONNX nodes, adding up the
 *     contributions a tensor gets from several readers, and summing a
 *     broadcast gradient back to its input's shape;
 *  4. binds output k to the gradient of xs[k] through an Identity (zeros
 *     of x's shape when no path from x reaches y).
 * Inference, folding, lowering and planning then treat the emitted nodes
 * like any others. Only float tensors carry gradients: an integer tensor
 * (a shape, an index) computed from x is a constant of the derivative.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_gradient.h"

#define NAME_LEN 512

struct gctx {
	struct ir_graph *g;
	int at;			/* where the next emitted node goes */
	const char *base;	/* the Gradient node's name, for new names */
	int dtype;		/* y's: every gradient has it */
	int *grad;		/* per forward tensor: its gradient, or -1 */
	char *map_active;	/* per forward tensor: carries a gradient */
	int *map;		/* forward tensor -> the value used for it */
	char *leaf;		/* per forward tensor: named by xs or zs */
	int serial;		/* numbers new names: no search for a free one */
	char *err;
	size_t errlen;
};

/* -1 with "out of memory" unless a message is already there. */
static int oom(struct gctx *c)
{
	if (!*c->err)
		snprintf(c->err, c->errlen, "out of memory");
	return -1;
}

static int new_tensor(struct ir_graph *g, const char *base)
{
	char name[NAME_LEN];

	snprintf(name, sizeof(name), "%s", base);
	for (int k = 1; ir_find_tensor(g, name) >= 0; k++)
		snprintf(name, sizeof(name), "%s_%d", base, k);
	return ir_add_tensor(g, name);
}

/* A new node at c->at (later nodes move up one, producers follow). */
static int insert_node(struct gctx *c, const char *name, const char *op,
		       int nin, int nout)
{
	struct ir_graph *g = c->g;
	int ni = ir_add_node(g, name, op, nin, nout);
	struct ir_node tmp;

	if (ni < 0)
		return -1;
	tmp = g->nodes[ni];
	memmove(&g->nodes[c->at + 1], &g->nodes[c->at],
		sizeof(tmp) * (size_t)(ni - c->at));
	g->nodes[c->at] = tmp;
	for (int t = 0; t < g->ntensors; t++)
		if (g->tensors[t].producer >= c->at)
			g->tensors[t].producer++;
	return c->at++;
}

/* op(a, b, d) (-2 ends the list) into a new tensor; its node, or -1. */
static int emit_node(struct gctx *c, const char *op, int a, int b, int d)
{
	struct ir_graph *g = c->g;
	int in[3] = { a, b, d }, nin = 0, ni, out;
	char name[NAME_LEN];

	while (nin < 3 && in[nin] != -2)
		if (in[nin++] < 0)
			return -1;	/* an operand failed (no memory) */
	snprintf(name, sizeof(name), "%s_grad%d_%s", c->base, c->serial++, op);
	out = new_tensor(g, name);
	if (out < 0)
		return -1;
	snprintf(name, sizeof(name), "%s", g->tensors[out].name);
	ni = insert_node(c, name, op, nin, 1);
	if (ni < 0)
		return -1;
	memcpy(g->nodes[ni].inputs, in, sizeof(int) * (size_t)nin);
	g->nodes[ni].outputs[0] = out;
	g->tensors[out].producer = ni;
	return ni;
}

/* The same, returning the output tensor (-1 on no memory). */
static int emit(struct gctx *c, const char *op, int a, int b)
{
	int ni = emit_node(c, op, a, b, -2);

	return ni < 0 ? -1 : c->g->nodes[ni].outputs[0];
}

static int emit1(struct gctx *c, const char *op, int a)
{
	return emit(c, op, a, -2);
}

/* A constant of y's dtype and the given shape, every element v. */
static int fill_const(struct gctx *c, const char *what, int rank,
		      const int64_t *dims, double v)
{
	char name[NAME_LEN];
	int64_t n = 1;
	void *zero;
	int t;

	for (int d = 0; d < rank; d++)
		n *= dims[d];
	zero = calloc((size_t)(n ? n : 1), ir_dtype_size(c->dtype));
	if (!zero)
		return -1;
	snprintf(name, sizeof(name), "%s_grad%d_%s", c->base, c->serial++, what);
	t = ir_add_const(c->g, name, c->dtype, rank, dims, zero);
	free(zero);
	if (t >= 0 && v != 0)
		for (int64_t k = 0; k < n; k++)
			ir_put_f64(&c->g->tensors[t], k, v);
	return t;
}

static int scalar(struct gctx *c, double v)
{
	return fill_const(c, "const", 0, NULL, v);
}

static int ints_const(struct gctx *c, const int64_t *v, int64_t count)
{
	char name[NAME_LEN];

	snprintf(name, sizeof(name), "%s_grad%d_ints", c->base, c->serial++);
	return ir_add_const(c->g, name, DT_INT64, 1, &count, v);
}

static int reshape_to(struct gctx *c, int t, int rank, const int64_t *dims)
{
	int s = ints_const(c, dims, rank);

	return s < 0 ? -1 : emit(c, "Reshape", t, s);
}

/* ReduceSum over axes, keeping them (1), in the opset's form. */
static int reduce_sum(struct gctx *c, int t, const int64_t *axes, int na)
{
	int ni, s = -2;

	if (c->g->opset >= 13 && (s = ints_const(c, axes, na)) < 0)
		return -1;
	ni = emit_node(c, "ReduceSum", t, s, -2);
	if (ni < 0 || ir_set_attr_int(&c->g->nodes[ni], "keepdims", 1) ||
	    (c->g->opset < 13 &&
	     ir_set_attr_ints(&c->g->nodes[ni], "axes", axes, (size_t)na)))
		return -1;
	return c->g->nodes[ni].outputs[0];
}

/*
 * A gradient t of shape (rf, df) summed over the dims numpy broadcasting
 * added or stretched, back to the shape of forward tensor x.
 */
static int unbroadcast(struct gctx *c, int t, int rf, const int64_t *df, int x)
{
	const struct ir_tensor *xt = &c->g->tensors[x];
	int64_t axes[IR_MAX_RANK], xd[IR_MAX_RANK];
	int lead = rf - xt->rank, na = 0, xr = xt->rank;

	if (t < 0)
		return -1;
	if (lead < 0)
		return -1;
	memcpy(xd, xt->dims, sizeof(int64_t) * (size_t)xr);
	for (int d = 0; d < rf; d++)
		if (d < lead || (xd[d - lead] == 1 && df[d] != 1))
			axes[na++] = d;
	if (!na)
		return t;
	t = reduce_sum(c, t, axes, na);
	return lead || t < 0 ? reshape_to(c, t, xr, xd) : t;
}

/* Swap the last two dims of a rank-r tensor. */
static int swap_last(struct gctx *c, int t, int r)
{
	int64_t perm[IR_MAX_RANK];
	int ni;

	for (int d = 0; d < r; d++)
		perm[d] = d;
	perm[r - 2] = r - 1;
	perm[r - 1] = r - 2;
	ni = emit_node(c, "Transpose", t, -2, -2);
	if (ni < 0 || ir_set_attr_ints(&c->g->nodes[ni], "perm", perm, (size_t)r))
		return -1;
	return c->g->nodes[ni].outputs[0];
}

/* Add contribution v to the gradient of forward tensor t. */
static int acc(struct gctx *c, int t, int v)
{
	if (v < 0)
		return -1;
	if (c->grad[t] >= 0)
		v = emit(c, "Add", c->grad[t], v);
	if (v < 0)
		return -1;
	c->grad[t] = v;
	return 0;
}

#define FWD_MAX_IN 16

/* One forward node as the backward rules see it. */
struct fwd {
	char op[64];
	int nin;
	int o[FWD_MAX_IN];	/* original input tensors (gradient keys) */
	int v[FWD_MAX_IN];	/* the values read (copies' inputs) */
	int out_o, out_v;	/* output 0, original and value */
	int node;		/* the node computing out_v */
	int gy;			/* gradient of output 0 */
};

#define T(k) (&c->g->tensors[f->o[k]])
#define OUT (&c->g->tensors[f->out_o])
#define ACTIVE(k) (f->nin > (k) && f->o[k] >= 0 && c->map_active[f->o[k]])

/* The gradient reaching input k of an elementwise node, summed to its shape. */
static int acc_bcast(struct gctx *c, const struct fwd *f, int k, int v)
{
	int64_t od[IR_MAX_RANK];
	int r = OUT->rank;

	memcpy(od, OUT->dims, sizeof(od));
	return acc(c, f->o[k], unbroadcast(c, v, r, od, f->o[k]));
}

static int rule_arith(struct gctx *c, const struct fwd *f)
{
	const char *op = f->op;
	int gy = f->gy, ret = 0;

	for (int k = 0; k < f->nin && !ret; k++) {
		int v = gy;

		if (!ACTIVE(k))
			continue;
		if (!strcmp(op, "Sub") && k == 1)
			v = emit1(c, "Neg", gy);
		else if (!strcmp(op, "Mul"))
			v = emit(c, "Mul", gy, f->v[1 - k]);
		else if (!strcmp(op, "Div") && k == 0)
			v = emit(c, "Div", gy, f->v[1]);
		else if (!strcmp(op, "Div"))	/* d(a/b)/db = -(a/b)/b */
			v = emit1(c, "Neg", emit(c, "Div",
						 emit(c, "Mul", gy, f->out_v),
						 f->v[1]));
		ret = acc_bcast(c, f, k, v);
	}
	return ret;
}

/* Pow's exponent as a value of y's dtype (a constant converted). */
static int pow_exponent(struct gctx *c, const struct fwd *f)
{
	const struct ir_tensor *p = T(1);
	int64_t n = ir_numel(p);
	int t;

	if (p->dtype == c->dtype)
		return f->v[1];
	if (!p->data || f->v[1] != f->o[1])
		return -3;
	t = fill_const(c, "exponent", p->rank, p->dims, 0);
	for (int64_t k = 0; t >= 0 && k < n; k++)
		ir_put_f64(&c->g->tensors[t], k,
			   ir_get_f64(&c->g->tensors[f->o[1]], k));
	return t;
}

static int rule_pow(struct gctx *c, const struct fwd *f)
{
	int gy = f->gy, v;

	if (ACTIVE(0)) {
		int p = pow_exponent(c, f);

		if (p == -3)
			return -3;
		/* d(a^p)/da = p * a^(p-1) */
		v = emit(c, "Mul", gy, emit(c, "Mul", p,
			 emit(c, "Pow", f->v[0], emit(c, "Sub", p, scalar(c, 1)))));
		if (acc_bcast(c, f, 0, v))
			return -1;
	}
	if (ACTIVE(1)) {
		/* d(a^p)/dp = a^p * ln a */
		v = emit(c, "Mul", gy, emit(c, "Mul", f->out_v,
					    emit1(c, "Log", f->v[0])));
		if (acc_bcast(c, f, 1, v))
			return -1;
	}
	return 0;
}

/* Relu, Sigmoid, Tanh, Exp, Log, Sqrt, Neg, Identity: one input. */
static int rule_unary(struct gctx *c, const struct fwd *f)
{
	const char *op = f->op;
	int gy = f->gy, x = f->v[0], y = f->out_v, v;

	if (!strcmp(op, "Relu"))
		v = emit_node(c, "Where", emit(c, "Greater", x, scalar(c, 0)),
			      gy, scalar(c, 0));
	else if (!strcmp(op, "Sigmoid"))
		v = emit(c, "Mul", gy,
			 emit(c, "Mul", y, emit(c, "Sub", scalar(c, 1), y)));
	else if (!strcmp(op, "Tanh"))
		v = emit(c, "Mul", gy,
			 emit(c, "Sub", scalar(c, 1), emit(c, "Mul", y, y)));
	else if (!strcmp(op, "Exp"))
		v = emit(c, "Mul", gy, y);
	else if (!strcmp(op, "Log"))
		v = emit(c, "Div", gy, x);
	else if (!strcmp(op, "Sqrt"))
		v = emit(c, "Div", emit(c, "Mul", gy, scalar(c, 0.5)), y);
	else if (!strcmp(op, "Neg"))
		v = emit1(c, "Neg", gy);
	else
		v = gy;
	if (!strcmp(op, "Relu") && v >= 0)
		v = c->g->nodes[v].outputs[0];
	return acc(c, f->o[0], v);
}

static int rule_matmul(struct gctx *c, const struct fwd *f)
{
	int ra = T(0)->rank, rb = T(1)->rank, r = OUT->rank;
	int64_t d[IR_MAX_RANK];

	if (ra < 2 || rb < 2)
		return -3;
	memcpy(d, OUT->dims, sizeof(d));
	if (ACTIVE(0)) {
		/* dA = dY . B^T, over the broadcast batch dims */
		d[r - 2] = T(0)->dims[ra - 2];
		d[r - 1] = T(0)->dims[ra - 1];
		if (acc(c, f->o[0], unbroadcast(c, emit(c, "MatMul", f->gy,
						swap_last(c, f->v[1], rb)), r, d, f->o[0])))
			return -1;
	}
	memcpy(d, OUT->dims, sizeof(d));
	if (ACTIVE(1)) {
		/* dB = A^T . dY */
		d[r - 2] = T(1)->dims[rb - 2];
		d[r - 1] = T(1)->dims[rb - 1];
		if (acc(c, f->o[1], unbroadcast(c, emit(c, "MatMul",
						swap_last(c, f->v[0], ra), f->gy), r, d, f->o[1])))
			return -1;
	}
	return 0;
}

static int scale(struct gctx *c, int t, double s)
{
	return s == 1 ? t : emit(c, "Mul", t, scalar(c, s));
}

static int rule_gemm(struct gctx *c, const struct fwd *f)
{
	const struct ir_node *n = &c->g->nodes[f->node];
	bool ta = ir_attr_int(n, "transA", 0), tb = ir_attr_int(n, "transB", 0);
	double alpha = ir_attr_float(n, "alpha", 1);
	double beta = ir_attr_float(n, "beta", 1);
	int v;

	if (ACTIVE(0)) {
		/* op(A) = A: dA = dY . op(B)^T; op(A) = A^T: dA = op(B) . dY^T */
		int opb = tb ? swap_last(c, f->v[1], 2) : f->v[1];
		int opbt = tb ? f->v[1] : swap_last(c, f->v[1], 2);

		v = ta ? emit(c, "MatMul", opb, swap_last(c, f->gy, 2)) :
			 emit(c, "MatMul", f->gy, opbt);
		if (acc(c, f->o[0], scale(c, v, alpha)))
			return -1;
	}
	if (ACTIVE(1)) {
		/* op(B) = B: dB = op(A)^T . dY; op(B) = B^T: dB = dY^T . op(A) */
		int opa = ta ? swap_last(c, f->v[0], 2) : f->v[0];
		int opat = ta ? f->v[0] : swap_last(c, f->v[0], 2);

		v = tb ? emit(c, "MatMul", swap_last(c, f->gy, 2), opa) :
			 emit(c, "MatMul", opat, f->gy);
		if (acc(c, f->o[1], scale(c, v, alpha)))
			return -1;
	}
	if (ACTIVE(2) && acc_bcast(c, f, 2, scale(c, f->gy, beta)))
		return -1;
	return 0;
}

/* ReduceSum / ReduceMean: dY put back on the reduced dims and spread. */
static int rule_reduce(struct gctx *c, const struct fwd *f)
{
	const struct ir_node *n = &c->g->nodes[f->node];
	const struct ir_attr *a = ir_attr(n, "axes");
	int64_t axes[IR_MAX_RANK], kd[IR_MAX_RANK], xd[IR_MAX_RANK], cnt = 1;
	int na = 0, r = T(0)->rank, v;
	bool red[IR_MAX_RANK] = { false };

	if (f->nin > 1 && f->v[1] >= 0) {
		na = ir_const_ints(c->g, f->v[1], axes, IR_MAX_RANK);
		if (na < 0)
			return -3;
	} else if (a && a->kind == IR_ATTR_INTS) {
		if (a->count > IR_MAX_RANK)
			return -3;
		na = (int)a->count;
		memcpy(axes, a->ints, sizeof(int64_t) * a->count);
	}
	if (!na && ir_attr_int(n, "noop_with_empty_axes", 0))
		return acc(c, f->o[0], f->gy);
	for (int k = 0; k < na; k++) {
		int64_t ax = axes[k] < 0 ? axes[k] + r : axes[k];

		if (ax < 0 || ax >= r)
			return -3;
		red[ax] = true;
	}
	memcpy(xd, T(0)->dims, sizeof(xd));
	for (int d = 0; d < r; d++) {
		if (!na)
			red[d] = true;
		kd[d] = red[d] ? 1 : xd[d];
		cnt *= red[d] ? xd[d] : 1;
	}
	v = emit(c, "Expand", reshape_to(c, f->gy, r, kd), ints_const(c, xd, r));
	if (!strcmp(f->op, "ReduceMean"))
		v = scale(c, v, cnt ? 1.0 / (double)cnt : 1);
	return acc(c, f->o[0], v);
}

static int rule_shape(struct gctx *c, const struct fwd *f)
{
	const struct ir_tensor *x = T(0);
	int64_t inv[IR_MAX_RANK], xd[IR_MAX_RANK];
	int r = x->rank, ni;

	memcpy(xd, x->dims, sizeof(xd));
	if (strcmp(f->op, "Transpose"))
		return acc(c, f->o[0], reshape_to(c, f->gy, r, xd));
	{
		const struct ir_attr *a = ir_attr(&c->g->nodes[f->node], "perm");

		for (int d = 0; d < r; d++) {
			int64_t p = a && a->kind == IR_ATTR_INTS &&
				    a->count == (size_t)r ? a->ints[d] : r - 1 - d;

			if (p < 0 || p >= r)
				return -3;
			inv[p] = d;
		}
	}
	ni = emit_node(c, "Transpose", f->gy, -2, -2);
	if (ni < 0 || ir_set_attr_ints(&c->g->nodes[ni], "perm", inv, (size_t)r))
		return -1;
	return acc(c, f->o[0], c->g->nodes[ni].outputs[0]);
}

/* 0 done, -1 no memory, 1 no rule for this op, -3 a form not handled. */
static int backward(struct gctx *c, const struct fwd *f)
{
	static const char *const arith[] = { "Add", "Sub", "Mul", "Div", "Sum", NULL };
	static const char *const unary[] = { "Relu", "Sigmoid", "Tanh", "Exp",
		"Log", "Sqrt", "Neg", "Identity", NULL };
	static const char *const shape[] = { "Reshape", "Flatten", "Squeeze",
		"Unsqueeze", "Transpose", NULL };
	const char *op = f->op;

	for (int k = 0; arith[k]; k++)
		if (!strcmp(op, arith[k]))
			return rule_arith(c, f);
	for (int k = 0; unary[k]; k++)
		if (!strcmp(op, unary[k]))
			return rule_unary(c, f);
	for (int k = 0; shape[k]; k++)
		if (!strcmp(op, shape[k]))
			return rule_shape(c, f);
	if (!strcmp(op, "Pow"))
		return rule_pow(c, f);
	if (!strcmp(op, "MatMul") && f->nin == 2)
		return rule_matmul(c, f);
	if (!strcmp(op, "Gemm"))
		return rule_gemm(c, f);
	if (!strcmp(op, "ReduceSum") || !strcmp(op, "ReduceMean"))
		return rule_reduce(c, f);
	return 1;
}

int ir_gradient_unresolved(struct ir_graph *g, struct ir_node *n,
			   char *err, size_t errlen)
{
	snprintf(err, errlen, "node %s (Gradient): not expanded", n->name);
	return -1;
}

/* The names of a STRINGS attribute (joined with ","), split in place. */
static int split_names(char *s, char **out, int max)
{
	int n = 0;

	if (!s || !*s)
		return 0;
	for (char *p = s; n < max; p++) {
		out[n++] = p;
		p = strchr(p, ',');
		if (!p)
			return n;
		*p = 0;
	}
	return -1;
}

#define GRAD_MAX_XS 64

struct gnode {
	char *xs_s, *zs_s;
	char *xs[GRAD_MAX_XS], *zs[GRAD_MAX_XS];
	int X[GRAD_MAX_XS], Z[GRAD_MAX_XS];
	int nx, nz, y;
};

#define GERR(fmt, ...) (snprintf(err, errlen, "node %s (Gradient): " fmt, \
				 n->name, ##__VA_ARGS__), -1)

/* xs, zs and y resolved to tensors and checked against the inputs. */
static int parse(struct ir_graph *g, int i, struct gnode *p, char *err,
		 size_t errlen)
{
	const struct ir_node *n = &g->nodes[i];
	const struct ir_attr *xa = ir_attr(n, "xs"), *za = ir_attr(n, "zs");
	const struct ir_attr *ya = ir_attr(n, "y");

	if (!xa || xa->kind != IR_ATTR_STRINGS || !ya || ya->kind != IR_ATTR_STRING)
		return GERR("needs the attributes xs (strings) and y (a string)");
	p->xs_s = strdup(xa->s ? xa->s : "");
	p->zs_s = strdup(za && za->s ? za->s : "");
	if (!p->xs_s || !p->zs_s)
		return GERR("out of memory");
	p->nx = split_names(p->xs_s, p->xs, GRAD_MAX_XS);
	p->nz = split_names(p->zs_s, p->zs, GRAD_MAX_XS);
	if (p->nx <= 0 || p->nz < 0)
		return GERR("xs must name 1 to %d tensors, zs at most %d",
			    GRAD_MAX_XS, GRAD_MAX_XS);
	if (n->nin != p->nx + p->nz)
		return GERR("has %d inputs, xs and zs name %d", n->nin, p->nx + p->nz);
	if (n->nout > p->nx)
		return GERR("has %d outputs, xs names %d", n->nout, p->nx);
	p->y = ir_find_tensor(g, ya->s ? ya->s : "");
	if (p->y < 0)
		return GERR("y names %s, not a tensor of the graph", ya->s ? ya->s : "");
	if (g->tensors[p->y].producer >= i)
		return GERR("y %s is computed after the Gradient node", ya->s);
	if (g->tensors[p->y].rank < 0 || !ir_dtype_is_float(g->tensors[p->y].dtype))
		return GERR("y %s is not a float tensor", ya->s);
	for (int k = 0; k < p->nx + p->nz; k++) {
		const char *name = k < p->nx ? p->xs[k] : p->zs[k - p->nx];
		int t = ir_find_tensor(g, name);
		const struct ir_tensor *tt, *in;

		if (t < 0 || g->tensors[t].producer >= i)
			return GERR("%s names %s, not a tensor computed before it",
				    k < p->nx ? "xs" : "zs", name);
		if (n->inputs[k] < 0)
			return GERR("input %d (for %s) is missing", k, name);
		tt = &g->tensors[t];
		in = &g->tensors[n->inputs[k]];
		if (tt->rank != in->rank || tt->dtype != in->dtype ||
		    memcmp(tt->dims, in->dims, sizeof(int64_t) * (size_t)(tt->rank > 0 ? tt->rank : 0)))
			return GERR("input %d (%s) differs in shape or dtype from %s",
				    k, in->name, name);
		if (k < p->nx)
			p->X[k] = t;
		else
			p->Z[k - p->nx] = t;
	}
	return 0;
}

/* A deep copy of node j's attributes onto node d. */
static int copy_attrs(struct ir_graph *g, int d, int j)
{
	const struct ir_node *s = &g->nodes[j];
	struct ir_attr *a = calloc((size_t)s->nattrs + 1, sizeof(*a));

	if (!a)
		return -1;
	g->nodes[d].attrs = a;
	for (int k = 0; k < s->nattrs; k++) {
		const struct ir_attr *o = &s->attrs[k];

		a[k] = *o;
		a[k].name = strdup(o->name);
		a[k].s = o->s ? strdup(o->s) : NULL;
		a[k].ints = o->ints ? malloc(sizeof(int64_t) * (o->count + 1)) : NULL;
		a[k].floats = o->floats ? malloc(sizeof(float) * (o->count + 1)) : NULL;
		g->nodes[d].nattrs = k + 1;
		if (!a[k].name || (o->s && !a[k].s) || (o->ints && !a[k].ints) ||
		    (o->floats && !a[k].floats))
			return -1;
		if (o->ints)
			memcpy(a[k].ints, o->ints, sizeof(int64_t) * o->count);
		if (o->floats)
			memcpy(a[k].floats, o->floats, sizeof(float) * o->count);
	}
	return 0;
}

/* Node j again, reading the mapped values; its index or -1. */
static int clone_node(struct gctx *c, int j)
{
	struct ir_graph *g = c->g;
	char name[NAME_LEN];
	int ni, nin = g->nodes[j].nin, nout = g->nodes[j].nout;

	snprintf(name, sizeof(name), "%s_at_%s", c->base, g->nodes[j].name);
	ni = insert_node(c, name, g->nodes[j].op_type, nin, nout);
	if (ni < 0 || copy_attrs(g, ni, j))
		return -1;
	free(g->nodes[ni].domain);
	g->nodes[ni].domain = strdup(g->nodes[j].domain);
	if (!g->nodes[ni].domain)
		return -1;
	for (int k = 0; k < nin; k++) {
		int t = g->nodes[j].inputs[k];

		g->nodes[ni].inputs[k] = t < 0 ? -1 : c->map[t];
	}
	for (int k = 0; k < nout; k++) {
		int o = g->nodes[j].outputs[k], t;

		if (o < 0 || c->leaf[o])
			continue;	/* a leaf keeps the Gradient's input */
		snprintf(name, sizeof(name), "%s_at_%s", c->base, g->tensors[o].name);
		t = new_tensor(g, name);
		if (t < 0)
			return -1;
		g->tensors[t].producer = ni;
		g->nodes[ni].outputs[k] = t;
		c->map[o] = t;
	}
	return ni;
}

/* Bind the Gradient's outputs (node gi) to the gradients of xs. */
static int bind_outputs(struct gctx *c, int gi, const struct gnode *p)
{
	struct ir_graph *g = c->g;

	for (int k = 0; k < g->nodes[gi].nout; k++) {
		int out = g->nodes[gi].outputs[k], src, ni;
		char name[NAME_LEN];

		if (out < 0)
			continue;
		src = c->grad[p->X[k]];
		if (src < 0) {	/* y does not depend on x: zeros */
			const struct ir_tensor *x = &g->tensors[p->X[k]];
			int64_t d[IR_MAX_RANK];

			memcpy(d, x->dims, sizeof(d));
			src = fill_const(c, "zeros", x->rank, d, 0);
			if (src < 0)
				return -1;
		}
		snprintf(name, sizeof(name), "%s_out%d", c->base, k);
		ni = insert_node(c, name, "Identity", 1, 1);
		if (ni < 0)
			return -1;
		gi++;	/* the Gradient node moved up past it */
		g->nodes[ni].inputs[0] = src;
		g->nodes[ni].outputs[0] = out;
		g->tensors[out].producer = ni;
	}
	return gi;
}

/* The forward node j as struct fwd (its copy's values when it has one). */
static int load_fwd(struct gctx *c, int j, int mj, struct fwd *f)
{
	const struct ir_node *n = &c->g->nodes[j];

	if (n->nin > FWD_MAX_IN || n->nout < 1 || n->outputs[0] < 0)
		return -3;
	snprintf(f->op, sizeof(f->op), "%s", n->op_type);
	f->nin = n->nin;
	for (int k = 0; k < n->nin; k++) {
		f->o[k] = n->inputs[k];
		f->v[k] = c->g->nodes[mj].inputs[k];
	}
	f->out_o = n->outputs[0];
	f->out_v = c->g->nodes[mj].outputs[0];
	f->node = mj;
	f->gy = c->grad[f->out_o];
	return 0;
}

static int expand(struct gctx *c, int i, struct gnode *p, char *need_node,
		  int *mnode)
{
	struct ir_graph *g = c->g;
	int nt = g->ntensors, ret;
	char *need = calloc((size_t)nt, 1), *leaf = c->leaf;
	const char *n_name = g->nodes[i].name;

	if (!need)
		return oom(c);
	for (int k = 0; k < p->nx; k++)
		leaf[p->X[k]] = 1;
	for (int k = 0; k < p->nz; k++)
		leaf[p->Z[k]] = 1;
	/* 1. the nodes y depends on, back to the leaves */
	need[p->y] = !leaf[p->y];
	for (int j = i - 1; j >= 0; j--) {
		const struct ir_node *n = &g->nodes[j];
		bool used = false;

		for (int k = 0; k < n->nout; k++)
			if (n->outputs[k] >= 0 && need[n->outputs[k]] &&
			    g->tensors[n->outputs[k]].producer == j)
				used = true;
		if (!used)
			continue;
		need_node[j] = 1;
		for (int k = 0; k < n->nin; k++)
			if (n->inputs[k] >= 0 && !leaf[n->inputs[k]])
				need[n->inputs[k]] = 1;
	}
	free(need);
	/* 2. which tensors carry a gradient; copies where inputs differ */
	for (int t = 0; t < nt; t++)
		c->map[t] = t;
	for (int k = 0; k < p->nx; k++) {
		c->map[p->X[k]] = g->nodes[i].inputs[k];
		c->map_active[p->X[k]] = ir_dtype_is_float(g->tensors[p->X[k]].dtype);
	}
	for (int k = 0; k < p->nz; k++)
		c->map[p->Z[k]] = g->nodes[i].inputs[p->nx + k];
	for (int j = 0; j < i; j++) {
		const struct ir_node *n = &g->nodes[j];
		bool act = false, moved = false;

		mnode[j] = j;
		if (!need_node[j])
			continue;
		for (int k = 0; k < n->nin; k++) {
			int t = n->inputs[k];

			act |= t >= 0 && c->map_active[t];
			moved |= t >= 0 && c->map[t] != t;
		}
		for (int k = 0; k < n->nout; k++)
			if (n->outputs[k] >= 0 && !leaf[n->outputs[k]])
				c->map_active[n->outputs[k]] = act &&
					ir_dtype_is_float(g->tensors[n->outputs[k]].dtype);
		if (moved) {
			mnode[j] = clone_node(c, j);
			if (mnode[j] < 0)
				return oom(c);
		}
	}
	/* 3. backwards from ones of y's shape */
	{
		int64_t d[IR_MAX_RANK];

		memcpy(d, g->tensors[p->y].dims, sizeof(d));
		c->grad[p->y] = fill_const(c, "seed", g->tensors[p->y].rank, d, 1);
		if (c->grad[p->y] < 0)
			return oom(c);
	}
	for (int j = i - 1; j >= 0; j--) {
		struct fwd f;
		bool act_in = false;

		if (!need_node[j] || g->nodes[j].nout < 1)
			continue;
		for (int k = 0; k < g->nodes[j].nin; k++)
			act_in |= g->nodes[j].inputs[k] >= 0 &&
				  c->map_active[g->nodes[j].inputs[k]];
		if (!act_in)
			continue;
		ret = load_fwd(c, j, mnode[j], &f);
		for (int k = 1; !ret && k < g->nodes[j].nout; k++)
			if (g->nodes[j].outputs[k] >= 0 &&
			    c->grad[g->nodes[j].outputs[k]] >= 0)
				ret = 1;	/* rules cover output 0 only */
		if (!ret && f.gy < 0)
			continue;	/* output 0 does not reach y */
		if (!ret)
			ret = backward(c, &f);
		if (ret == 1 || ret == -3) {
			snprintf(c->err, c->errlen,
				 "atc: Gradient node %s: no derivative rule for %s%s (node %s)",
				 n_name, g->nodes[j].op_type,
				 ret == -3 ? " in this form" : "", g->nodes[j].name);
			return IR_EUNSUPPORTED;
		}
		if (ret)
			return oom(c);
	}
	/* 4. outputs */
	ret = bind_outputs(c, c->at, p);
	if (ret < 0)
		return oom(c);
	g->nodes[ret].dead = true;
	return 0;
}

int ir_gradient_node(struct ir_graph *g, int i, char *err, size_t errlen)
{
	struct ir_node *n = &g->nodes[i];
	struct gnode p = { 0 };
	struct gctx c = { .g = g, .at = i, .err = err, .errlen = errlen };
	char *need_node = NULL;
	int *mnode = NULL, nt, ret;

	if (strcmp(n->op_type, "Gradient"))
		return 1;
	if (errlen)
		*err = 0;
	ret = parse(g, i, &p, err, errlen);
	if (ret)
		goto out;
	nt = g->ntensors;
	c.base = n->name;
	c.dtype = g->tensors[p.y].dtype;
	c.grad = malloc(sizeof(int) * (size_t)nt);
	c.map = malloc(sizeof(int) * (size_t)nt);
	c.map_active = calloc((size_t)nt, 1);
	c.leaf = calloc((size_t)nt, 1);
	need_node = calloc((size_t)i + 1, 1);
	mnode = calloc((size_t)i + 1, sizeof(int));
	if (!c.grad || !c.map || !c.map_active || !c.leaf || !need_node || !mnode) {
		ret = oom(&c);
		goto out;
	}
	for (int t = 0; t < nt; t++)
		c.grad[t] = -1;
	/* the name outlives the node's moves: nodes move, strings do not */
	ret = expand(&c, i, &p, need_node, mnode);
out:
	free(p.xs_s);
	free(p.zs_s);
	free(c.grad);
	free(c.map);
	free(c.map_active);
	free(c.leaf);
	free(need_node);
	free(mnode);
	return ret;
}
