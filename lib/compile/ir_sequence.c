// SPDX-License-Identifier: MIT
/*
 * ONNX sequences resolved at compile time. atc is a static compiler: once
 * every position operand is a constant, a sequence is just a list of
 * tensors known while the graph is inferred. ir_infer calls
 * ir_sequence_node on each node before inferring it, so the inputs before
 * it are inferred and folded; a sequence operator then becomes list edits
 * on its output tensor (Construct, Empty, Insert, Erase), a constant
 * (Length) or plain tensor nodes inserted in its place (At -> Identity,
 * ConcatFromSequence -> [Unsqueeze...] Concat, SplitToSequence -> Split
 * [Squeeze...]), and the sequence node goes dead. A sequence that is a
 * graph input or output has no tensor form and is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"

#define SEQ_MAX 4096		/* elements of one sequence */
#define ERRN(n, fmt, ...) \
	(snprintf(err, errlen, "node %s (%s): " fmt, (n)->name, \
		  (n)->op_type, ##__VA_ARGS__), -1)

static const char *const seq_ops[] = {
	"SequenceEmpty", "SequenceConstruct", "SequenceInsert",
	"SequenceErase", "SequenceAt", "SequenceLength",
	"ConcatFromSequence", "SplitToSequence", NULL,
};

static bool is_seq_op(const struct ir_node *n)
{
	if (n->domain && *n->domain && strcmp(n->domain, "ai.onnx"))
		return false;
	for (int i = 0; seq_ops[i]; i++)
		if (!strcmp(n->op_type, seq_ops[i]))
			return true;
	return false;
}

int ir_sequence_unresolved(struct ir_graph *g, struct ir_node *n,
			   char *err, size_t errlen)
{
	return ERRN(n, "sequence operator not resolved at compile time");
}

/* Make tensor t the sequence elems[0..len) of element type dtype. */
static int set_seq(struct ir_graph *g, int t, int dtype, const int *elems,
		   int len)
{
	int *v = malloc(sizeof(int) * (size_t)(len ? len : 1));

	if (!v)
		return -1;
	if (len)
		memcpy(v, elems, sizeof(int) * (size_t)len);
	free(g->tensors[t].seq);
	g->tensors[t].seq = v;
	g->tensors[t].seq_len = len;
	g->tensors[t].is_seq = true;
	g->tensors[t].dtype = dtype;
	return 0;
}

/* A new non-constant tensor named after base, made unique. */
static int new_tensor(struct ir_graph *g, const char *base)
{
	char name[512];

	snprintf(name, sizeof(name), "%s", base);
	for (int k = 1; ir_find_tensor(g, name) >= 0; k++)
		snprintf(name, sizeof(name), "%s_%d", base, k);
	return ir_add_tensor(g, name);
}

/*
 * A new node at index *at (the nodes from there move up by one, producers
 * follow); *at then points past it. Its index, or -1.
 */
static int insert_node(struct ir_graph *g, int *at, const char *name,
		       const char *op, int nin, int nout)
{
	int ni = ir_add_node(g, name, op, nin, nout);
	struct ir_node tmp;

	if (ni < 0)
		return -1;
	tmp = g->nodes[ni];
	memmove(&g->nodes[*at + 1], &g->nodes[*at],
		sizeof(tmp) * (size_t)(ni - *at));
	g->nodes[*at] = tmp;
	for (int t = 0; t < g->ntensors; t++)
		if (g->tensors[t].producer >= *at)
			g->tensors[t].producer++;
	return (*at)++;
}

/* Node op(in[0..nin)) -> out (an existing tensor, or -1: a new one). */
static int emit(struct ir_graph *g, int *at, const char *base, const char *op,
		const int *in, int nin, int out)
{
	char name[512];
	int ni;

	snprintf(name, sizeof(name), "%s_%s", base, op);
	if (out < 0 && (out = new_tensor(g, name)) < 0)
		return -1;
	ni = insert_node(g, at, name, op, nin, 1);
	if (ni < 0)
		return -1;
	memcpy(g->nodes[ni].inputs, in, sizeof(int) * (size_t)nin);
	g->nodes[ni].outputs[0] = out;
	g->tensors[out].producer = ni;
	return ni;
}

/* An int64 1-D constant for an axes/split operand. */
static int ints_const(struct ir_graph *g, const char *base, const int64_t *v,
		      int64_t count)
{
	return ir_add_const(g, base, DT_INT64, 1, &count, v);
}

/* Squeeze or Unsqueeze of one axis, in the opset's form. */
static int axis_node(struct ir_graph *g, int *at, const char *base,
		     const char *op, int in, int64_t axis, int out)
{
	int ni, c = -1, ins[2] = { in, -1 };

	if (g->opset >= 13) {
		c = ints_const(g, base, &axis, 1);
		if (c < 0)
			return -1;
		ins[1] = c;
	}
	ni = emit(g, at, base, op, ins, g->opset >= 13 ? 2 : 1, out);
	if (ni < 0 || (g->opset < 13 &&
		       ir_set_attr_ints(&g->nodes[ni], "axes", &axis, 1)))
		return -1;
	return ni;
}

/* The sequence node n reads at input k: its tensor, or -1 (err set). */
static const struct ir_tensor *seq_in(struct ir_graph *g, struct ir_node *n,
				      int k, char *err, size_t errlen)
{
	const struct ir_tensor *t;

	if (k >= n->nin || n->inputs[k] < 0) {
		snprintf(err, errlen, "node %s (%s): input %d is missing",
			 n->name, n->op_type, k);
		return NULL;
	}
	t = &g->tensors[n->inputs[k]];
	if (!t->is_seq) {
		snprintf(err, errlen,
			 "node %s (%s): input %s is not a sequence built in the graph (a sequence graph input is not supported)",
			 n->name, n->op_type, t->name);
		return NULL;
	}
	return t;
}

/*
 * Position operand k of n (absent: def) in [-len, len + extra), made
 * non-negative; -1 with err set when it is not a constant scalar or out
 * of range.
 */
static int position(struct ir_graph *g, struct ir_node *n, int k, int len,
		    int extra, int64_t def, int64_t *pos, char *err,
		    size_t errlen)
{
	int64_t p = def;

	if (k < n->nin && n->inputs[k] >= 0) {
		int t = n->inputs[k];

		if (ir_const_ints(g, t, &p, 1) != 1 || g->tensors[t].rank > 1 ||
		    ir_dtype_is_float(g->tensors[t].dtype))
			return ERRN(n, "position %s must be a constant integer scalar (known at compile time)",
				    g->tensors[t].name);
	}
	if (p < -(int64_t)len || p >= (int64_t)len + extra)
		return ERRN(n, "position %lld out of range for a sequence of %d",
			    (long long)p, len);
	*pos = p < 0 ? p + len : p;
	return 0;
}

static int check_elem(struct ir_graph *g, struct ir_node *n, int dtype, int t,
		      char *err, size_t errlen)
{
	const struct ir_tensor *e = &g->tensors[t];

	if (e->is_seq)
		return ERRN(n, "sequences of sequences are not supported");
	if (e->dtype != dtype)
		return ERRN(n, "element %s is %s, the sequence holds %s", e->name,
			    ir_dtype_name(e->dtype), ir_dtype_name(dtype));
	return 0;
}

static int do_construct(struct ir_graph *g, struct ir_node *n, int out,
			char *err, size_t errlen)
{
	int dtype = IR_DT_UNDEFINED;

	if (n->nin < 1 || n->nin > SEQ_MAX)
		return ERRN(n, "needs 1 to %d inputs", SEQ_MAX);
	for (int k = 0; k < n->nin; k++) {
		if (n->inputs[k] < 0)
			return ERRN(n, "input %d is missing", k);
		if (!k)
			dtype = g->tensors[n->inputs[0]].dtype;
		if (check_elem(g, n, dtype, n->inputs[k], err, errlen))
			return -1;
	}
	return set_seq(g, out, dtype, n->inputs, n->nin);
}

static int do_empty(struct ir_graph *g, struct ir_node *n, int out,
		    char *err, size_t errlen)
{
	int dtype = ir_dtype_from_onnx((int32_t)ir_attr_int(n, "dtype", 1));

	if (dtype < 0)
		return ERRN(n, "dtype %lld is not supported",
			    (long long)ir_attr_int(n, "dtype", 1));
	return set_seq(g, out, dtype, NULL, 0);
}

static int do_insert(struct ir_graph *g, struct ir_node *n, int out,
		     char *err, size_t errlen)
{
	const struct ir_tensor *s = seq_in(g, n, 0, err, errlen);
	int elems[SEQ_MAX], len, dtype;
	int64_t p;

	if (!s)
		return -1;
	len = s->seq_len;
	dtype = s->dtype;
	if (n->nin < 2 || n->inputs[1] < 0)
		return ERRN(n, "the tensor to insert is missing");
	if (len >= SEQ_MAX)
		return ERRN(n, "more than %d elements", SEQ_MAX);
	if (check_elem(g, n, dtype, n->inputs[1], err, errlen) ||
	    position(g, n, 2, len, 1, len, &p, err, errlen))
		return -1;
	memcpy(elems, s->seq, sizeof(int) * (size_t)p);
	elems[p] = n->inputs[1];
	memcpy(&elems[p + 1], &s->seq[p], sizeof(int) * (size_t)(len - p));
	return set_seq(g, out, dtype, elems, len + 1);
}

static int do_erase(struct ir_graph *g, struct ir_node *n, int out,
		    char *err, size_t errlen)
{
	const struct ir_tensor *s = seq_in(g, n, 0, err, errlen);
	int elems[SEQ_MAX], len;
	int64_t p;

	if (!s)
		return -1;
	len = s->seq_len;
	if (!len)
		return ERRN(n, "the sequence is empty");
	if (position(g, n, 1, len, 0, -1, &p, err, errlen))
		return -1;
	memcpy(elems, s->seq, sizeof(int) * (size_t)p);
	memcpy(&elems[p], &s->seq[p + 1], sizeof(int) * (size_t)(len - p - 1));
	return set_seq(g, out, s->dtype, elems, len - 1);
}

static int do_length(struct ir_graph *g, struct ir_node *n, int out,
		     char *err, size_t errlen)
{
	const struct ir_tensor *s = seq_in(g, n, 0, err, errlen);
	int64_t len;

	if (!s)
		return -1;
	len = s->seq_len;
	g->tensors[out].dtype = DT_INT64;
	g->tensors[out].rank = 0;
	g->tensors[out].producer = -1;
	return ir_set_data(g, out, &len, sizeof(len));
}

/* SequenceAt: an Identity of the element in n's place (at). */
static int do_at(struct ir_graph *g, int *at, struct ir_node *n, int out,
		 char *err, size_t errlen)
{
	const struct ir_tensor *s = seq_in(g, n, 0, err, errlen);
	int elem;
	int64_t p;
	char base[512];

	if (!s)
		return -1;
	if (position(g, n, 1, s->seq_len, 0, 0, &p, err, errlen))
		return -1;
	elem = s->seq[p];
	snprintf(base, sizeof(base), "%s", n->name);
	return emit(g, at, base, "Identity", &elem, 1, out) < 0 ? -1 : 0;
}

static int do_concat(struct ir_graph *g, int *at, struct ir_node *n, int out,
		     char *err, size_t errlen)
{
	const struct ir_tensor *s = seq_in(g, n, 0, err, errlen);
	const struct ir_attr *ax = ir_attr(n, "axis");
	int64_t new_axis = ir_attr_int(n, "new_axis", 0), axis;
	int elems[SEQ_MAX], len, rank, ni;
	char base[512];

	if (!s)
		return -1;
	len = s->seq_len;
	if (!ax)
		return ERRN(n, "attribute axis is required");
	if (new_axis != 0 && new_axis != 1)
		return ERRN(n, "new_axis must be 0 or 1");
	if (!len)
		return ERRN(n, "the sequence is empty");
	memcpy(elems, s->seq, sizeof(int) * (size_t)len);
	rank = g->tensors[elems[0]].rank;
	axis = ax->i;
	if (axis < -(rank + new_axis) || axis >= rank + new_axis)
		return ERRN(n, "axis %lld out of range for rank %d",
			    (long long)axis, rank);
	if (axis < 0)
		axis += rank + new_axis;
	snprintf(base, sizeof(base), "%s", n->name);
	for (int k = 0; new_axis && k < len; k++) {
		ni = axis_node(g, at, base, "Unsqueeze", elems[k], axis, -1);
		if (ni < 0)
			return -1;
		elems[k] = g->nodes[ni].outputs[0];
	}
	ni = emit(g, at, base, "Concat", elems, len, out);
	if (ni < 0 || ir_set_attr_int(&g->nodes[ni], "axis", axis))
		return -1;
	return 0;
}

/* The chunk sizes SplitToSequence n cuts dim d into; count or -1. */
static int split_sizes(struct ir_graph *g, struct ir_node *n, int64_t d,
		       int64_t *sz, bool *given, char *err, size_t errlen)
{
	int t = n->nin > 1 ? n->inputs[1] : -1, cnt;
	int64_t sum = 0, c;

	*given = t >= 0;
	if (t < 0) {
		if (d > SEQ_MAX)
			return ERRN(n, "more than %d elements", SEQ_MAX);
		for (int64_t i = 0; i < d; i++)
			sz[i] = 1;
		return (int)d;
	}
	if (g->tensors[t].rank > 1 || ir_dtype_is_float(g->tensors[t].dtype))
		return ERRN(n, "split must be an integer scalar or 1-D tensor");
	cnt = ir_const_ints(g, t, sz, SEQ_MAX);
	if (cnt < 0)
		return ERRN(n, "split %s must be known at compile time",
			    g->tensors[t].name);
	if (g->tensors[t].rank == 0) {
		c = sz[0];
		if (c <= 0)
			return ERRN(n, "split %lld must be positive", (long long)c);
		if ((d + c - 1) / c > SEQ_MAX)
			return ERRN(n, "more than %d elements", SEQ_MAX);
		for (cnt = 0; sum < d; cnt++) {
			sz[cnt] = d - sum < c ? d - sum : c;
			sum += sz[cnt];
		}
		return cnt;
	}
	for (int i = 0; i < cnt; i++) {
		if (sz[i] < 0 || sz[i] > d)
			return ERRN(n, "split size %lld out of range",
				    (long long)sz[i]);
		sum += sz[i];
	}
	if (sum != d)
		return ERRN(n, "split sizes add up to %lld, dim is %lld",
			    (long long)sum, (long long)d);
	return cnt;
}

static int do_split(struct ir_graph *g, int *at, struct ir_node *n, int out,
		    char *err, size_t errlen)
{
	const struct ir_tensor *x;
	int64_t sz[SEQ_MAX], axis = ir_attr_int(n, "axis", 0), d;
	int elems[SEQ_MAX], cnt, xt, ni, c = -1, dtype;
	bool given, squeeze;
	char base[512];

	if (n->nin < 1 || n->inputs[0] < 0)
		return ERRN(n, "input is missing");
	xt = n->inputs[0];
	x = &g->tensors[xt];
	if (x->is_seq || x->rank < 0)
		return ERRN(n, "input %s is not a tensor of known shape", x->name);
	if (axis < -x->rank || axis >= x->rank)
		return ERRN(n, "axis %lld out of range for rank %d",
			    (long long)axis, x->rank);
	if (axis < 0)
		axis += x->rank;
	d = x->dims[axis];
	dtype = x->dtype;
	cnt = split_sizes(g, n, d, sz, &given, err, errlen);
	if (cnt < 0)
		return -1;
	squeeze = !given && !ir_attr_int(n, "keepdims", 1);
	snprintf(base, sizeof(base), "%s", n->name);
	if (!cnt)
		return set_seq(g, out, dtype, NULL, 0);
	if (g->opset >= 13 && (c = ints_const(g, base, sz, cnt)) < 0)
		return -1;
	ni = insert_node(g, at, base, "Split", g->opset >= 13 ? 2 : 1, cnt);
	if (ni < 0)
		return -1;
	g->nodes[ni].inputs[0] = xt;
	if (c >= 0)
		g->nodes[ni].inputs[1] = c;
	if (ir_set_attr_int(&g->nodes[ni], "axis", axis) ||
	    (c < 0 && ir_set_attr_ints(&g->nodes[ni], "split", sz,
				       (size_t)cnt)))
		return -1;
	for (int k = 0; k < cnt; k++) {
		char nm[560];
		int t;

		snprintf(nm, sizeof(nm), "%s_part%d", base, k);
		t = new_tensor(g, nm);
		if (t < 0)
			return -1;
		g->nodes[ni].outputs[k] = t;
		g->tensors[t].producer = ni;
		elems[k] = t;
	}
	for (int k = 0; squeeze && k < cnt; k++) {
		int sq = axis_node(g, at, base, "Squeeze", elems[k], axis, -1);

		if (sq < 0)
			return -1;
		elems[k] = g->nodes[sq].outputs[0];
	}
	return set_seq(g, out, dtype, elems, cnt);
}

int ir_sequence_node(struct ir_graph *g, int i, char *err, size_t errlen)
{
	struct ir_node *n = &g->nodes[i];
	const char *op = n->op_type;
	int at = i, out, ret;

	if (!is_seq_op(n))
		return 1;
	if (errlen)
		*err = 0;
	if (n->nout != 1 || n->outputs[0] < 0)
		return ERRN(n, "needs one output");
	out = n->outputs[0];
	if (g->tensors[out].output_index >= 0 && strcmp(op, "SequenceAt") &&
	    strcmp(op, "SequenceLength") && strcmp(op, "ConcatFromSequence"))
		return ERRN(n, "output %s is a sequence: a sequence graph output is not supported",
			    g->tensors[out].name);
	if (!strcmp(op, "SequenceEmpty"))
		ret = do_empty(g, n, out, err, errlen);
	else if (!strcmp(op, "SequenceConstruct"))
		ret = do_construct(g, n, out, err, errlen);
	else if (!strcmp(op, "SequenceInsert"))
		ret = do_insert(g, n, out, err, errlen);
	else if (!strcmp(op, "SequenceErase"))
		ret = do_erase(g, n, out, err, errlen);
	else if (!strcmp(op, "SequenceLength"))
		ret = do_length(g, n, out, err, errlen);
	else if (!strcmp(op, "SequenceAt"))
		ret = do_at(g, &at, n, out, err, errlen);
	else if (!strcmp(op, "ConcatFromSequence"))
		ret = do_concat(g, &at, n, out, err, errlen);
	else
		ret = do_split(g, &at, n, out, err, errlen);
	if (ret < 0) {
		if (!*err)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* the sequence node moved up past what was inserted before it */
	g->nodes[at].dead = true;
	return 0;
}
