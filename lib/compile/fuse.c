// SPDX-License-Identifier: MIT
/*
 * Fusions: fewer, bigger device tasks. Each rewrites the last node of a
 * pattern (so every input it reads is already computed where it stands in
 * the order) or the first one when the pattern's other nodes only feed
 * it, and marks the rest dead. A pattern fuses only when its intermediate
 * tensors have no reader outside it.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* The live node producing t when its op_type is op, else -1. */
static int producer_of(const struct ir_graph *g, int t, const char *op)
{
	int p = t >= 0 ? g->tensors[t].producer : -1;

	if (p < 0 || g->nodes[p].dead || strcmp(g->nodes[p].op_type, op) ||
	    g->nodes[p].domain[0])
		return -1;
	return p;
}

/* The single value of constant t (any numeric type), or false. */
static bool const_scalar(const struct ir_graph *g, int t, double *v)
{
	if (!ir_is_const(g, t) || ir_numel(&g->tensors[t]) != 1)
		return false;
	*v = ir_get_f64(&g->tensors[t], 0);
	return true;
}

/* Node p writes tensor out (taking over the output of a fused node). */
static void take_output(struct ir_graph *g, int p, int out)
{
	g->nodes[p].outputs[0] = out;
	g->tensors[out].producer = p;
}

static int set_nin(struct ir_node *n, int nin)
{
	int *p = realloc(n->inputs, sizeof(int) * (size_t)nin), k;

	if (!p)
		return -1;
	for (k = n->nin; k < nin; k++)
		p[k] = -1;
	n->inputs = p;
	n->nin = nin;
	return 0;
}

/* Conv(x, W, b) -> BatchNormalization: W and b rescaled per channel. */
static int fuse_conv_bn(struct ir_graph *g, int bi)
{
	struct ir_node *bn = &g->nodes[bi];
	int ci = producer_of(g, bn->inputs[0], "Conv"), k;
	const struct ir_tensor *w, *s, *beta, *mean, *var, *bias;
	double eps = ir_attr_float(bn, "epsilon", 1e-5f);
	int64_t m, per, c, i;
	int64_t wdims[IR_MAX_RANK];
	char wname[256];
	float *nw, *nb;
	int wt, bt, wrank;

	if (ci < 0 || ir_sole_consumer(g, bn->inputs[0]) != bi)
		return 0;
	/* training mode normalizes with the batch's statistics */
	if (ir_attr_int(bn, "training_mode", 0))
		return 0;
	for (k = 1; k < 5; k++)
		if (!ir_is_const(g, bn->inputs[k]))
			return 0;
	if (!ir_is_const(g, g->nodes[ci].inputs[1]) ||
	    (g->nodes[ci].nin > 2 && g->nodes[ci].inputs[2] >= 0 &&
	     !ir_is_const(g, g->nodes[ci].inputs[2])))
		return 0;
	w = &g->tensors[g->nodes[ci].inputs[1]];
	if (w->dtype != 0)
		return 0;	/* float32 weights only */
	bias = g->nodes[ci].nin > 2 && g->nodes[ci].inputs[2] >= 0 ?
	       &g->tensors[g->nodes[ci].inputs[2]] : NULL;
	s = &g->tensors[bn->inputs[1]];
	beta = &g->tensors[bn->inputs[2]];
	mean = &g->tensors[bn->inputs[3]];
	var = &g->tensors[bn->inputs[4]];
	m = w->dims[0];
	per = ir_numel(w) / m;
	nw = malloc(sizeof(float) * (size_t)ir_numel(w));
	nb = malloc(sizeof(float) * (size_t)m);
	if (!nw || !nb) {
		free(nw);
		free(nb);
		return -1;
	}
	for (c = 0; c < m; c++) {
		double f = ir_get_f64(s, c) / sqrt(ir_get_f64(var, c) + eps);

		for (i = 0; i < per; i++)
			nw[c * per + i] = (float)(((const float *)w->data)[c * per + i] * f);
		nb[c] = (float)(((bias ? ir_get_f64(bias, c) : 0) -
				 ir_get_f64(mean, c)) * f + ir_get_f64(beta, c));
	}
	/* ir_add_const may move g->tensors: copy what it reads from w */
	memcpy(wdims, w->dims, sizeof(wdims));
	wrank = w->rank;
	snprintf(wname, sizeof(wname), "%s", w->name);
	wt = ir_add_const(g, wname, 0, wrank, wdims, nw);
	bt = wt < 0 ? -1 : ir_add_const(g, "conv_bn_bias", 0, 1, &m, nb);
	free(nw);
	free(nb);
	if (bt < 0 || set_nin(&g->nodes[ci], 3))
		return -1;
	g->nodes[ci].inputs[1] = wt;
	g->nodes[ci].inputs[2] = bt;
	take_output(g, ci, g->nodes[bi].outputs[0]);
	g->nodes[bi].dead = true;
	return 1;
}

/*
 * The vector of constant c along output axis `axis` of a rank-r output
 * with `len` elements there, when c is 1 everywhere else; NULL if not.
 */
static float *channel_vector(const struct ir_graph *g, int c, int r, int axis,
			     int64_t len)
{
	const struct ir_tensor *t = &g->tensors[c];
	int off = r - t->rank, i;
	float *v;

	if (!ir_is_const(g, c) || off < 0 || t->dtype != 0)
		return NULL;
	for (i = 0; i < t->rank; i++) {
		int64_t want = i + off == axis ? len : 1;

		if (t->dims[i] != want && !(i + off == axis && t->dims[i] == 1))
			return NULL;
	}
	v = malloc(sizeof(float) * (size_t)len);
	if (!v)
		return NULL;
	for (i = 0; i < len; i++)
		v[i] = (float)ir_get_f64(t, ir_numel(t) == 1 ? 0 : i);
	return v;
}

/* Conv/Gemm/MatMul -> Add(constant per channel or column) -> bias input. */
static int fuse_bias(struct ir_graph *g, int ai, struct ir_fuse_stats *st)
{
	static const char *const ops[] = { "Conv", "ConvTranspose", "Gemm", "MatMul" };
	struct ir_node *add = &g->nodes[ai];
	const struct ir_tensor *out;
	int side, p = -1, o, axis, bt, orank;
	size_t k;
	int64_t len;
	float *v;

	for (side = 0; side < 2 && p < 0; side++)
		for (k = 0; k < 4 && p < 0; k++)
			p = producer_of(g, add->inputs[side], ops[k]);
	if (p < 0)
		return 0;
	side--;
	o = add->inputs[!side];
	if (ir_sole_consumer(g, add->inputs[side]) != ai ||
	    g->nodes[p].act.kind || !ir_is_const(g, o))
		return 0;
	out = &g->tensors[g->nodes[p].outputs[0]];
	if (out->dtype != 0 || g->tensors[add->outputs[0]].rank != out->rank)
		return 0;	/* the Add must not broadcast the output up */
	axis = strncmp(g->nodes[p].op_type, "Conv", 4) ? out->rank - 1 : 1;
	len = out->dims[axis];
	if (!strcmp(g->nodes[p].op_type, "Gemm") &&
	    ir_attr_float(&g->nodes[p], "beta", 1.0f) != 1.0f)
		return 0;
	v = channel_vector(g, o, out->rank, axis, len);
	if (!v)
		return 0;
	if (g->nodes[p].nin > 2 && g->nodes[p].inputs[2] >= 0) {
		/* add to the existing bias when it is a constant vector too */
		const struct ir_tensor *b = &g->tensors[g->nodes[p].inputs[2]];
		int64_t i;

		if (!ir_is_const(g, g->nodes[p].inputs[2]) || b->rank != 1 ||
		    b->dims[0] != len || b->dtype != 0) {
			free(v);
			return 0;
		}
		for (i = 0; i < len; i++)
			v[i] += ((const float *)b->data)[i];
	}
	orank = out->rank;
	bt = ir_add_const(g, g->tensors[o].name, 0, 1, &len, v);
	free(v);
	if (bt < 0 || set_nin(&g->nodes[p], 3))
		return -1;
	g->nodes[p].inputs[2] = bt;
	if (!strcmp(g->nodes[p].op_type, "MatMul") && orank == 2 &&
	    g->tensors[g->nodes[p].inputs[0]].rank == 2 &&
	    g->tensors[g->nodes[p].inputs[1]].rank == 2) {
		if (ir_set_op_type(&g->nodes[p], "Gemm"))
			return -1;
		st->matmul_gemm++;
	} else {
		st->bias++;
	}
	take_output(g, p, g->nodes[ai].outputs[0]);
	g->nodes[ai].dead = true;
	return 1;
}

/* Conv/ConvTranspose/Gemm/MatMul -> Relu or Clip(constant) -> act. */
static int fuse_act(struct ir_graph *g, int ri, struct ir_fuse_stats *st)
{
	static const char *const ops[] = { "Conv", "ConvTranspose", "Gemm", "MatMul" };
	struct ir_node *r = &g->nodes[ri];
	bool clip = !strcmp(r->op_type, "Clip");
	double lo = -FLT_MAX, hi = FLT_MAX;
	int p = -1;
	size_t k;

	for (k = 0; k < 4 && p < 0; k++)
		p = producer_of(g, r->inputs[0], ops[k]);
	if (p < 0 || g->nodes[p].act.kind ||
	    ir_sole_consumer(g, r->inputs[0]) != ri ||
	    g->tensors[r->inputs[0]].dtype != 0)
		return 0;
	if (clip) {
		if (g->opset < 11) {
			lo = ir_attr_float(r, "min", -FLT_MAX);
			hi = ir_attr_float(r, "max", FLT_MAX);
		}
		if ((r->nin > 1 && r->inputs[1] >= 0 && !const_scalar(g, r->inputs[1], &lo)) ||
		    (r->nin > 2 && r->inputs[2] >= 0 && !const_scalar(g, r->inputs[2], &hi)))
			return 0;
		if (!(lo <= hi))
			return 0;	/* NaN or crossed bounds: keep the Clip */
		g->nodes[p].act.kind = IR_ACT_CLIP;
		g->nodes[p].act.lo = (float)lo;
		g->nodes[p].act.hi = (float)hi;
		st->act_clip++;
	} else {
		g->nodes[p].act.kind = IR_ACT_RELU;
		st->act_relu++;
	}
	take_output(g, p, r->outputs[0]);
	r->dead = true;
	return 1;
}

/* Input of n other than t (binary n), and which side t is on. */
static int other_input(const struct ir_node *n, int t)
{
	if (n->nin != 2)
		return -2;
	if (n->inputs[0] == t)
		return n->inputs[1];
	if (n->inputs[1] == t)
		return n->inputs[0];
	return -2;
}

/* The node reading t alone with op_type op, else -1. */
static int sole(const struct ir_graph *g, int t, const char *op)
{
	int c = ir_sole_consumer(g, t);

	return c >= 0 && !strcmp(g->nodes[c].op_type, op) ? c : -1;
}

static bool last_axis_mean(const struct ir_graph *g, int ri, int rank)
{
	const struct ir_attr *a = ir_attr(&g->nodes[ri], "axes");

	return g->nodes[ri].nin == 1 && a && a->kind == IR_ATTR_INTS &&
	       a->count == 1 && (a->ints[0] == -1 || a->ints[0] == rank - 1) &&
	       ir_attr_int(&g->nodes[ri], "keepdims", 1) == 1;
}

/*
 * torch's LayerNorm at opset < 17, matched from its Div:
 * Sub(x, ReduceMean(x)) / Sqrt(ReduceMean(Pow(Sub, 2)) + eps) * gamma + beta.
 */
static int fuse_layernorm(struct ir_graph *g, int di, struct ir_fuse_stats *st)
{
	struct ir_node *div = &g->nodes[di];
	int sub, rm1, sq, ae, rm2, pw, mul, add, x, gamma, beta, rank;
	double eps, two;
	int64_t d;

	if (div->nin != 2)
		return 0;
	sub = producer_of(g, div->inputs[0], "Sub");
	sq = producer_of(g, div->inputs[1], "Sqrt");
	if (sub < 0 || sq < 0)
		return 0;
	x = g->nodes[sub].inputs[0];
	rm1 = producer_of(g, g->nodes[sub].inputs[1], "ReduceMean");
	ae = producer_of(g, g->nodes[sq].inputs[0], "Add");
	if (rm1 < 0 || ae < 0 || g->nodes[rm1].inputs[0] != x)
		return 0;
	rank = g->tensors[x].rank;
	d = g->tensors[x].dims[rank - 1];
	rm2 = producer_of(g, g->nodes[ae].inputs[0], "ReduceMean");
	if (rm2 < 0 || !const_scalar(g, g->nodes[ae].inputs[1], &eps))
		return 0;
	pw = producer_of(g, g->nodes[rm2].inputs[0], "Pow");
	if (pw < 0 || g->nodes[pw].inputs[0] != div->inputs[0] ||
	    !const_scalar(g, g->nodes[pw].inputs[1], &two) || two != 2)
		return 0;
	if (!last_axis_mean(g, rm1, rank) || !last_axis_mean(g, rm2, rank))
		return 0;
	/* the Sub feeds exactly the Pow and the Div */
	if (ir_uses(g, div->inputs[0]) != 2 ||
	    ir_sole_consumer(g, g->nodes[rm1].outputs[0]) != sub ||
	    ir_sole_consumer(g, g->nodes[pw].outputs[0]) != rm2 ||
	    ir_sole_consumer(g, g->nodes[rm2].outputs[0]) != ae ||
	    ir_sole_consumer(g, g->nodes[ae].outputs[0]) != sq ||
	    ir_sole_consumer(g, g->nodes[sq].outputs[0]) != di)
		return 0;
	mul = sole(g, div->outputs[0], "Mul");
	if (mul < 0)
		return 0;
	gamma = other_input(&g->nodes[mul], div->outputs[0]);
	add = sole(g, g->nodes[mul].outputs[0], "Add");
	if (add < 0)
		return 0;
	beta = other_input(&g->nodes[add], g->nodes[mul].outputs[0]);
	if (gamma < 0 || beta < 0 || !ir_is_const(g, gamma) ||
	    !ir_is_const(g, beta) || g->tensors[gamma].rank != 1 ||
	    g->tensors[beta].rank != 1 || g->tensors[gamma].dims[0] != d ||
	    g->tensors[beta].dims[0] != d)
		return 0;
	if (set_nin(&g->nodes[add], 3) ||
	    ir_set_op_type(&g->nodes[add], "LayerNormalization") ||
	    ir_set_attr_int(&g->nodes[add], "axis", -1) ||
	    ir_set_attr_float(&g->nodes[add], "epsilon", (float)eps))
		return -1;
	g->nodes[add].inputs[0] = x;
	g->nodes[add].inputs[1] = gamma;
	g->nodes[add].inputs[2] = beta;
	g->nodes[sub].dead = g->nodes[rm1].dead = g->nodes[sq].dead = true;
	g->nodes[ae].dead = g->nodes[rm2].dead = g->nodes[pw].dead = true;
	g->nodes[di].dead = g->nodes[mul].dead = true;
	st->layernorm++;
	return 1;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-4 * fabs(b);
}

/*
 * torch's exact Gelu, matched from its Erf:
 * 0.5 * (x * (Erf(x / sqrt2) + 1)), or (x * 0.5) * (Erf(x / sqrt2) + 1),
 * either operand order in each Mul.
 */
static int fuse_gelu(struct ir_graph *g, int ei, struct ir_fuse_stats *st)
{
	int dv = producer_of(g, g->nodes[ei].inputs[0], "Div");
	int x, a1, m1, m2, half, t;
	double c;

	if (dv < 0 || !const_scalar(g, g->nodes[dv].inputs[1], &c) ||
	    !near(c, sqrt(2.0)) ||
	    ir_sole_consumer(g, g->nodes[dv].outputs[0]) != ei)
		return 0;
	x = g->nodes[dv].inputs[0];
	a1 = sole(g, g->nodes[ei].outputs[0], "Add");
	if (a1 < 0 || !const_scalar(g, other_input(&g->nodes[a1],
						   g->nodes[ei].outputs[0]), &c) ||
	    c != 1)
		return 0;
	m1 = sole(g, g->nodes[a1].outputs[0], "Mul");
	if (m1 < 0)
		return 0;
	t = other_input(&g->nodes[m1], g->nodes[a1].outputs[0]);
	if (t == x) {
		/* (x * (erf + 1)) * 0.5 */
		m2 = sole(g, g->nodes[m1].outputs[0], "Mul");
		if (m2 < 0 || !const_scalar(g, other_input(&g->nodes[m2],
							   g->nodes[m1].outputs[0]), &c) ||
		    c != 0.5)
			return 0;
		g->nodes[m1].dead = true;
	} else {
		/* (x * 0.5) * (erf + 1) */
		half = producer_of(g, t, "Mul");
		if (half < 0 || ir_sole_consumer(g, t) != m1 ||
		    other_input(&g->nodes[half], x) < 0 ||
		    !const_scalar(g, other_input(&g->nodes[half], x), &c) ||
		    c != 0.5)
			return 0;
		m2 = m1;
		g->nodes[half].dead = true;
	}
	if (set_nin(&g->nodes[m2], 1) || ir_set_op_type(&g->nodes[m2], "Gelu"))
		return -1;
	g->nodes[m2].inputs[0] = x;
	g->nodes[dv].dead = g->nodes[ei].dead = g->nodes[a1].dead = true;
	st->gelu++;
	return 1;
}

int ir_fuse(struct ir_graph *g, struct ir_fuse_stats *st,
	    char *err, size_t errlen)
{
	struct ir_fuse_stats local;
	int i, r = 0;

	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	/* order matters: BN into Conv, then the bias, then the activation */
	for (i = 0; i < g->nnodes && r >= 0; i++)
		if (!g->nodes[i].dead && !strcmp(g->nodes[i].op_type, "BatchNormalization"))
			st->conv_bn += r = fuse_conv_bn(g, i);
	for (i = 0; i < g->nnodes && r >= 0; i++) {
		if (g->nodes[i].dead)
			continue;
		if (!strcmp(g->nodes[i].op_type, "Div"))
			r = fuse_layernorm(g, i, st);
		else if (!strcmp(g->nodes[i].op_type, "Erf"))
			r = fuse_gelu(g, i, st);
	}
	for (i = 0; i < g->nnodes && r >= 0; i++)
		if (!g->nodes[i].dead && !strcmp(g->nodes[i].op_type, "Add"))
			r = fuse_bias(g, i, st);
	for (i = 0; i < g->nnodes && r >= 0; i++)
		if (!g->nodes[i].dead && (!strcmp(g->nodes[i].op_type, "Relu") ||
					  !strcmp(g->nodes[i].op_type, "Clip")))
			r = fuse_act(g, i, st);
	if (r < 0) {
		snprintf(err, errlen, "out of memory while fusing");
		return -1;
	}
	return 0;
}

void ir_fuse_stats_str(const struct ir_fuse_stats *st, char *buf, size_t len)
{
	snprintf(buf, len,
		 "conv+batchnorm %d, bias %d, matmul+add->gemm %d, relu %d, clip %d, layernorm %d, gelu %d",
		 st->conv_bn, st->bias, st->matmul_gemm, st->act_relu,
		 st->act_clip, st->layernorm, st->gelu);
}
