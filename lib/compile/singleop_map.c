// SPDX-License-Identifier: MIT
/*
 * CANN single-op types and attributes as ONNX-form IR: the table says
 * how many inputs each type takes and builds its nodes; the rest of atc
 * (inference, lowering, planning) is shared with model compilation, so a
 * single op runs the tasks the same op runs inside a model.
 */
#include <string.h>

#include "singleop_int.h"

#define ONE(x) (int[]){ (x) }

static int attr_bool(const struct sop_graph *s, const char *name, int def)
{
	const struct sop_attr *a = sop_attr(s->d, name);

	return a && (a->kind == SOP_BOOL || a->kind == SOP_INT) ? a->i != 0 : def;
}

/* A list_int attribute of exactly n values into v; 1 found, 0 absent. */
static int attr_ints(struct sop_graph *s, const char *name, int n, int64_t *v)
{
	const struct sop_attr *a = sop_attr(s->d, name);

	if (!a)
		return 0;
	if (a->kind != SOP_LIST_INT || (n >= 0 && a->count != n))
		return sg_fail(s, "attribute %s must be a list of %d ints", name, n);
	memcpy(v, a->ints, sizeof(int64_t) * (size_t)a->count);
	return 1;
}

/* Every description input to one node of the same arity, same output. */
static int same(struct sop_graph *s, const char *onnx)
{
	return sg_node(s, onnx, s->in, s->d->nin, s->out, 1) < 0 ? -1 : 0;
}

#define SAME(fn, onnx) static int fn(struct sop_graph *s) { return same(s, onnx); }
SAME(b_add, "Add")
SAME(b_sub, "Sub")
SAME(b_mul, "Mul")
SAME(b_div, "Div")
SAME(b_max, "Max")
SAME(b_min, "Min")
SAME(b_pow, "Pow")
SAME(b_eq, "Equal")
SAME(b_lt, "Less")
SAME(b_gt, "Greater")
SAME(b_le, "LessOrEqual")
SAME(b_ge, "GreaterOrEqual")
SAME(b_and, "And")
SAME(b_or, "Or")
SAME(u_abs, "Abs")
SAME(u_neg, "Neg")
SAME(u_exp, "Exp")
SAME(u_log, "Log")
SAME(u_sqrt, "Sqrt")
SAME(u_relu, "Relu")
SAME(u_sigmoid, "Sigmoid")
SAME(u_tanh, "Tanh")
SAME(u_recip, "Reciprocal")
SAME(u_floor, "Floor")
SAME(u_ceil, "Ceil")
SAME(u_erf, "Erf")
SAME(u_sin, "Sin")
SAME(u_cos, "Cos")
SAME(u_not, "Not")
SAME(u_sign, "Sign")
SAME(u_round, "Round")

/* CANN's Gelu op (and its golden) is the tanh approximation. */
static int u_gelu(struct sop_graph *s)
{
	int n = sg_node(s, "Gelu", s->in, 1, s->out, 1);

	return n < 0 ? -1 : ir_set_attr_str(&s->g->nodes[n], "approximate", "tanh");
}

static int u_square(struct sop_graph *s)
{
	int ins[2] = { s->in[0], s->in[0] };

	return sg_node(s, "Mul", ins, 2, s->out, 1) < 0 ? -1 : 0;
}

static int u_rsqrt(struct sop_graph *s)
{
	int t = sg_tmp(s);

	if (t < 0 || sg_node(s, "Sqrt", s->in, 1, ONE(t), 1) < 0)
		return -1;
	return sg_node(s, "Reciprocal", ONE(t), 1, s->out, 1) < 0 ? -1 : 0;
}

static int u_leaky_relu(struct sop_graph *s)
{
	const struct sop_attr *a = sop_attr(s->d, "negative_slope");
	int n = sg_node(s, "LeakyRelu", s->in, 1, s->out, 1);

	if (n < 0)
		return -1;
	return ir_set_attr_float(&s->g->nodes[n], "alpha",
				 a && a->kind == SOP_FLOAT ? a->f : 0.0f);
}

/* ONNX's TensorProto type of an aclDataType, or -1. */
static int onnx_type_of(int acl)
{
	int t;

	for (t = 1; t <= 16; t++)
		if (ir_dtype_from_onnx(t) == acl)
			return t;
	return -1;
}

static int u_cast(struct sop_graph *s)
{
	const struct sop_attr *a = sop_attr(s->d, "dst_type");
	int to = onnx_type_of(a ? (int)a->i : s->d->out[0].dtype);
	int n;

	if (a && (int)a->i != s->d->out[0].dtype)
		return sg_fail(s, "dst_type %lld differs from the output's dtype %d",
			       (long long)a->i, s->d->out[0].dtype);
	if (to < 0)
		return sg_fail(s, "cannot cast to dtype %d", s->d->out[0].dtype);
	n = sg_node(s, "Cast", s->in, 1, s->out, 1);
	return n < 0 ? -1 : ir_set_attr_int(&s->g->nodes[n], "to", to);
}

/* Input k transposed in its last two dims when flag is set. */
static int maybe_t(struct sop_graph *s, int k, int flag)
{
	const struct sop_tensor *t = &s->d->in[k];
	int64_t perm[SOP_MAX_RANK];
	int i, out, n;

	if (!flag)
		return s->in[k];
	if (t->rank < 2)
		return sg_fail(s, "input %d: a transposed operand needs 2 dims or more", k);
	for (i = 0; i < t->rank; i++)
		perm[i] = i;
	perm[t->rank - 2] = t->rank - 1;
	perm[t->rank - 1] = t->rank - 2;
	out = sg_tmp(s);
	if (out < 0)
		return -1;
	n = sg_node(s, "Transpose", ONE(s->in[k]), 1, ONE(out), 1);
	if (n < 0 || ir_set_attr_ints(&s->g->nodes[n], "perm", perm,
				      (size_t)t->rank))
		return -1;
	return out;
}

static int matmul_with(struct sop_graph *s, const char *ta, const char *tb)
{
	int a = maybe_t(s, 0, attr_bool(s, ta, 0));
	int b = a < 0 ? -1 : maybe_t(s, 1, attr_bool(s, tb, 0));
	int ab[2] = { a, b }, y;

	if (b < 0)
		return -1;
	if (s->d->nin < 3 || s->in[2] < 0)
		return sg_node(s, "MatMul", ab, 2, s->out, 1) < 0 ? -1 : 0;
	y = sg_tmp(s);
	if (y < 0 || sg_node(s, "MatMul", ab, 2, ONE(y), 1) < 0)
		return -1;
	ab[0] = y;
	ab[1] = s->in[2];
	return sg_node(s, "Add", ab, 2, s->out, 1) < 0 ? -1 : 0;
}

static int m_matmul(struct sop_graph *s)
{
	return matmul_with(s, "transpose_x1", "transpose_x2");
}

static int m_batch_matmul(struct sop_graph *s)
{
	return matmul_with(s, "adj_x1", "adj_x2");
}

/* CANN's GEMM: alpha * op(a) @ op(b) + beta * c, alpha and beta tensors. */
static int m_gemm(struct sop_graph *s)
{
	int a = maybe_t(s, 0, attr_bool(s, "transpose_a", 0));
	int b = a < 0 ? -1 : maybe_t(s, 1, attr_bool(s, "transpose_b", 0));
	int ab = sg_tmp(s), x = sg_tmp(s), y = sg_tmp(s);

	if (b < 0 || ab < 0 || x < 0 || y < 0 ||
	    sg_node(s, "MatMul", (int[]){ a, b }, 2, ONE(ab), 1) < 0 ||
	    sg_node(s, "Mul", (int[]){ s->in[3], ab }, 2, ONE(x), 1) < 0 ||
	    sg_node(s, "Mul", (int[]){ s->in[4], s->in[2] }, 2, ONE(y), 1) < 0)
		return -1;
	return sg_node(s, "Add", (int[]){ x, y }, 2, s->out, 1) < 0 ? -1 : 0;
}

/* Tensor t (rank 4) permuted by perm into a new tensor; its index or -1. */
static int permuted(struct sop_graph *s, int t, const int64_t *perm)
{
	int out = sg_tmp(s), n;

	if (out < 0)
		return -1;
	n = sg_node(s, "Transpose", ONE(t), 1, ONE(out), 1);
	if (n < 0 || ir_set_attr_ints(&s->g->nodes[n], "perm", perm, 4))
		return -1;
	return out;
}

#define FMT_NCHW	0
#define FMT_NHWC	1
#define FMT_ND		2
#define FMT_HWCN	16

/*
 * CANN's Conv2D. The layout of x and y is their tensor format (NCHW or
 * NHWC; a data_format attribute, when given, must agree); strides and
 * dilations are 4 ints in that layout's order. The filter's format says
 * its layout: NCHW (out, in, kh, kw), NHWC (out, kh, kw, in), HWCN (kh,
 * kw, in, out), or ND for x's layout. The ONNX node computes NCHW with
 * transposes around it.
 */
static int m_conv2d(struct sop_graph *s)
{
	static const int64_t to_nchw[4] = { 0, 3, 1, 2 }, hwcn[4] = { 3, 2, 0, 1 },
			     to_nhwc[4] = { 0, 2, 3, 1 };
	const struct sop_attr *fmt = sop_attr(s->d, "data_format");
	const struct sop_attr *grp = sop_attr(s->d, "groups");
	int64_t st[4], p[4], dl[4] = { 1, 1, 1, 1 }, v[4];
	int nin = s->d->nin > 3 ? 3 : s->d->nin, n, r, h, y;
	int xf = s->d->in[0].format, wf = s->d->in[1].format;
	int yf = s->d->out[0].format, nhwc = xf == FMT_NHWC;
	int ins[3];

	if (fmt && (fmt->kind != SOP_STRING ||
		    (strcmp(fmt->s, "NCHW") && strcmp(fmt->s, "NHWC"))))
		return sg_fail(s, "data_format must be NCHW or NHWC");
	if (xf == FMT_ND && fmt)
		nhwc = !strcmp(fmt->s, "NHWC");
	else if (xf != FMT_NCHW && xf != FMT_NHWC)
		return sg_fail(s, "input 0: format %d: NCHW, NHWC or ND", xf);
	else if (fmt && nhwc != !strcmp(fmt->s, "NHWC"))
		return sg_fail(s, "data_format %s differs from input 0's format",
			       fmt->s);
	if (yf == FMT_ND)
		yf = nhwc ? FMT_NHWC : FMT_NCHW;
	if (yf != (nhwc ? FMT_NHWC : FMT_NCHW))
		return sg_fail(s, "output 0: format %d differs from input 0's layout", yf);
	if (s->d->in[0].rank != 4 || s->d->in[1].rank != 4)
		return sg_fail(s, "x and filter must have 4 dims");
	if (attr_ints(s, "strides", 4, st) != 1 || attr_ints(s, "pads", 4, p) != 1)
		return sg_fail(s, "Conv2D needs the attributes strides and pads (4 ints each)");
	if (attr_ints(s, "dilations", 4, dl) < 0)
		return -1;
	memcpy(ins, s->in, sizeof(int) * (size_t)nin);
	if (nhwc && (ins[0] = permuted(s, s->in[0], to_nchw)) < 0)
		return -1;
	if (wf == FMT_ND)
		wf = nhwc ? FMT_NHWC : FMT_NCHW;
	if (wf == FMT_NHWC)
		ins[1] = permuted(s, s->in[1], to_nchw);
	else if (wf == FMT_HWCN)
		ins[1] = permuted(s, s->in[1], hwcn);
	else if (wf != FMT_NCHW)
		return sg_fail(s, "input 1: filter format %d: NCHW, NHWC, HWCN or ND", wf);
	if (ins[1] < 0)
		return -1;
	y = nhwc ? sg_tmp(s) : s->out[0];
	if (y < 0)
		return -1;
	n = sg_node(s, "Conv", ins, nin, ONE(y), 1);
	if (n < 0)
		return -1;
	h = nhwc ? 1 : 2;
	v[0] = st[h];
	v[1] = st[h + 1];
	r = ir_set_attr_ints(&s->g->nodes[n], "strides", v, 2);
	v[0] = dl[h];
	v[1] = dl[h + 1];
	r |= ir_set_attr_ints(&s->g->nodes[n], "dilations", v, 2);
	/* CANN: top, bottom, left, right; ONNX: begins, then ends */
	v[0] = p[0];
	v[1] = p[2];
	v[2] = p[1];
	v[3] = p[3];
	r |= ir_set_attr_ints(&s->g->nodes[n], "pads", v, 4);
	r |= ir_set_attr_int(&s->g->nodes[n], "group", grp ? grp->i : 1);
	if (r)
		return -1;
	if (!nhwc)
		return 0;
	n = sg_node(s, "Transpose", ONE(y), 1, s->out, 1);
	return n < 0 ? -1 : ir_set_attr_ints(&s->g->nodes[n], "perm", to_nhwc, 4);
}

static int one_axis(struct sop_graph *s, const char *onnx)
{
	int64_t axes[SOP_MAX_RANK] = { -1 };
	const struct sop_attr *a = sop_attr(s->d, "axes");
	int n;

	if (a && (a->kind != SOP_LIST_INT || a->count != 1))
		return sg_fail(s, "axes must be a list of one int");
	if (a)
		axes[0] = a->ints[0];
	n = sg_node(s, onnx, s->in, 1, s->out, 1);
	return n < 0 ? -1 : ir_set_attr_int(&s->g->nodes[n], "axis", axes[0]);
}

static int m_softmax(struct sop_graph *s)
{
	return one_axis(s, "Softmax");
}

static int m_log_softmax(struct sop_graph *s)
{
	return one_axis(s, "LogSoftmax");
}

/* ReduceXxxD: axes and keep_dims attributes (axes required). */
static int reduce(struct sop_graph *s, const char *onnx, int axes_input)
{
	const struct sop_attr *a = sop_attr(s->d, "axes");
	int keep = attr_bool(s, "keep_dims", 0), n, c;

	if (!a || a->kind != SOP_LIST_INT || !a->count || a->count > SOP_MAX_RANK)
		return sg_fail(s, "%s needs the attribute axes (a list of ints)",
			       s->d->type);
	if (axes_input) {
		c = sg_const_ints(s, a->ints, a->count, 0);
		if (c < 0)
			return -1;
		n = sg_node(s, onnx, (int[]){ s->in[0], c }, 2, s->out, 1);
	} else {
		n = sg_node(s, onnx, s->in, 1, s->out, 1);
		if (n >= 0 && ir_set_attr_ints(&s->g->nodes[n], "axes", a->ints,
					       (size_t)a->count))
			return -1;
	}
	return n < 0 ? -1 : ir_set_attr_int(&s->g->nodes[n], "keepdims", keep);
}

static int r_sum(struct sop_graph *s) { return reduce(s, "ReduceSum", 1); }
static int r_mean(struct sop_graph *s) { return reduce(s, "ReduceMean", 0); }
static int r_max(struct sop_graph *s) { return reduce(s, "ReduceMax", 0); }

static int m_transpose(struct sop_graph *s)
{
	int64_t perm[SOP_MAX_RANK];
	int n, r = s->d->in[0].rank;

	if (attr_ints(s, "perm", r, perm) != 1)
		return sg_fail(s, "TransposeD needs the attribute perm (%d ints)", r);
	n = sg_node(s, "Transpose", s->in, 1, s->out, 1);
	return n < 0 ? -1 : ir_set_attr_ints(&s->g->nodes[n], "perm", perm,
					     (size_t)r);
}

static int m_concat(struct sop_graph *s)
{
	const struct sop_attr *a = sop_attr(s->d, "concat_dim");
	int n;

	if (!a || a->kind != SOP_INT)
		return sg_fail(s, "ConcatD needs the int attribute concat_dim");
	n = sg_node(s, "Concat", s->in, s->d->nin, s->out, 1);
	return n < 0 ? -1 : ir_set_attr_int(&s->g->nodes[n], "axis", a->i);
}

/* BiasAdd (NCHW or ND): bias over dim 1, or the last dim for ND. */
static int m_bias_add(struct sop_graph *s)
{
	const struct sop_attr *fmt = sop_attr(s->d, "data_format");
	const struct sop_tensor *x = &s->d->in[0];
	int64_t shape[SOP_MAX_RANK];
	int i, c, b, nchw = !fmt || (fmt->kind == SOP_STRING &&
				      !strcmp(fmt->s, "NCHW"));

	if (fmt && fmt->kind == SOP_STRING && strcmp(fmt->s, "NCHW") &&
	    strcmp(fmt->s, "NHWC"))
		return sg_fail(s, "data_format %s: NCHW or NHWC", fmt->s);
	if (!nchw || x->rank < 2)
		return same(s, "Add");
	for (i = 0; i < x->rank - 1; i++)
		shape[i] = i ? 1 : -1;
	c = sg_const_ints(s, shape, x->rank - 1, 0);
	b = sg_tmp(s);
	if (c < 0 || b < 0 ||
	    sg_node(s, "Reshape", (int[]){ s->in[1], c }, 2, ONE(b), 1) < 0)
		return -1;
	return sg_node(s, "Add", (int[]){ s->in[0], b }, 2, s->out, 1) < 0 ? -1 : 0;
}

/*
 * CANN's Slice: y = x[offsets[i] : offsets[i] + size[i]] per dim, a size
 * of -1 running to the end. Slice takes offsets and size as constant
 * inputs (is_const with const_value, or aclSetTensorConst), SliceD as
 * list_int attributes; either way they become the constant starts and
 * ends of an ONNX Slice (the two inputs stay unread model inputs).
 */
static int slice_with(struct sop_graph *s, const int64_t *off, const int64_t *sz,
		      int n)
{
	const struct sop_tensor *x = &s->d->in[0];
	int64_t st[SOP_MAX_RANK], en[SOP_MAX_RANK];
	int i, a, b;

	if (n != x->rank)
		return sg_fail(s, "offsets and size need %d values (x's rank), not %d",
			       x->rank, n);
	for (i = 0; i < n; i++) {
		if (off[i] < 0 || off[i] > x->dims[i] || sz[i] < -1 ||
		    (sz[i] >= 0 && off[i] + sz[i] > x->dims[i]))
			return sg_fail(s, "dim %d: offset %lld size %lld is outside 0..%lld",
				       i, (long long)off[i], (long long)sz[i],
				       (long long)x->dims[i]);
		st[i] = off[i];
		en[i] = sz[i] < 0 ? x->dims[i] : off[i] + sz[i];
	}
	if (!n)
		return same(s, "Identity");
	a = sg_const_ints(s, st, n, 0);
	b = sg_const_ints(s, en, n, 0);
	if (a < 0 || b < 0)
		return -1;
	return sg_node(s, "Slice", (int[]){ s->in[0], a, b }, 3, s->out, 1) < 0 ?
	       -1 : 0;
}

static int m_slice(struct sop_graph *s)
{
	const struct sop_tensor *o = &s->d->in[1], *z = &s->d->in[2];

	if (!o->nconst || !z->nconst)
		return sg_fail(s, "offsets and size (inputs 1 and 2) must be constant (is_const with const_value)");
	if (o->nconst != z->nconst)
		return sg_fail(s, "offsets has %d values, size %d", o->nconst,
			       z->nconst);
	return slice_with(s, o->cval, z->cval, o->nconst);
}

static int m_slice_d(struct sop_graph *s)
{
	const struct sop_attr *o = sop_attr(s->d, "offsets"), *z = sop_attr(s->d, "size");

	if (!o || !z || o->kind != SOP_LIST_INT || z->kind != SOP_LIST_INT)
		return sg_fail(s, "SliceD needs the list_int attributes offsets and size");
	if (o->count != z->count)
		return sg_fail(s, "offsets has %d values, size %d", o->count, z->count);
	return slice_with(s, o->ints, z->ints, o->count);
}

static const struct sop_map maps[] = {
	{ "Abs", 1, 1, 1, u_abs },
	{ "Add", 2, 2, 1, b_add },
	{ "AddV2", 2, 2, 1, b_add },
	{ "BatchMatMul", 2, 3, 1, m_batch_matmul },
	{ "BatchMatMulV2", 2, 3, 1, m_batch_matmul },
	{ "BiasAdd", 2, 2, 1, m_bias_add },
	{ "Cast", 1, 1, 1, u_cast },
	{ "Ceil", 1, 1, 1, u_ceil },
	{ "ConcatD", 1, SOP_MAX_IO, 1, m_concat },
	{ "Conv2D", 2, 4, 1, m_conv2d },
	{ "Cos", 1, 1, 1, u_cos },
	{ "Div", 2, 2, 1, b_div },
	{ "Equal", 2, 2, 1, b_eq },
	{ "Erf", 1, 1, 1, u_erf },
	{ "Exp", 1, 1, 1, u_exp },
	{ "Floor", 1, 1, 1, u_floor },
	{ "GEMM", 5, 5, 1, m_gemm },
	{ "Gelu", 1, 1, 1, u_gelu },
	{ "Greater", 2, 2, 1, b_gt },
	{ "GreaterEqual", 2, 2, 1, b_ge },
	{ "LeakyRelu", 1, 1, 1, u_leaky_relu },
	{ "Less", 2, 2, 1, b_lt },
	{ "LessEqual", 2, 2, 1, b_le },
	{ "Log", 1, 1, 1, u_log },
	{ "LogSoftmaxV2", 1, 1, 1, m_log_softmax },
	{ "LogicalAnd", 2, 2, 1, b_and },
	{ "LogicalNot", 1, 1, 1, u_not },
	{ "LogicalOr", 2, 2, 1, b_or },
	{ "MatMul", 2, 3, 1, m_matmul },
	{ "MatMulV2", 2, 3, 1, m_matmul },
	{ "Maximum", 2, 2, 1, b_max },
	{ "Minimum", 2, 2, 1, b_min },
	{ "Mul", 2, 2, 1, b_mul },
	{ "Neg", 1, 1, 1, u_neg },
	{ "Pow", 2, 2, 1, b_pow },
	{ "RealDiv", 2, 2, 1, b_div },
	{ "Reciprocal", 1, 1, 1, u_recip },
	{ "ReduceMaxD", 1, 1, 1, r_max },
	{ "ReduceMeanD", 1, 1, 1, r_mean },
	{ "ReduceSumD", 1, 1, 1, r_sum },
	{ "Relu", 1, 1, 1, u_relu },
	{ "Round", 1, 1, 1, u_round },
	{ "Rsqrt", 1, 1, 1, u_rsqrt },
	{ "Sigmoid", 1, 1, 1, u_sigmoid },
	{ "Sign", 1, 1, 1, u_sign },
	{ "Sin", 1, 1, 1, u_sin },
	{ "Slice", 3, 3, 1, m_slice },
	{ "SliceD", 1, 1, 1, m_slice_d },
	{ "SoftmaxV2", 1, 1, 1, m_softmax },
	{ "Sqrt", 1, 1, 1, u_sqrt },
	{ "Square", 1, 1, 1, u_square },
	{ "Sub", 2, 2, 1, b_sub },
	{ "Tanh", 1, 1, 1, u_tanh },
	{ "TransposeD", 1, 1, 1, m_transpose },
};

const struct sop_map *sop_map_find(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (!strcmp(maps[i].type, type))
			return &maps[i];
	return NULL;
}

int sop_known(const char *type)
{
	return sop_map_find(type) != NULL;
}
