// SPDX-License-Identifier: MIT
/*
 * Shape and type inference: the driver (graph inputs, --input_shape, the
 * batch, node by node in order with folding as soon as a node's inputs are
 * constant) and the helpers the per-op functions share. The per-op
 * functions are in infer_*.c, listed in ops.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"
#include "ir_gradient.h"

int ir_broadcast(int ra, const int64_t *a, int rb, const int64_t *b,
		 int *rout, int64_t *out)
{
	int r = ra > rb ? ra : rb, i;

	for (i = 0; i < r; i++) {
		int64_t da = i < r - ra ? 1 : a[i - (r - ra)];
		int64_t db = i < r - rb ? 1 : b[i - (r - rb)];

		if (da != db && da != 1 && db != 1)
			return -1;
		out[i] = da == 1 ? db : da;
	}
	*rout = r;
	return 0;
}

int ir_const_ints(const struct ir_graph *g, int t, int64_t *out, int max)
{
	const struct ir_tensor *c;
	int64_t n, i;

	if (!ir_is_const(g, t)) {
		ir_need_value(g, t);
		return -1;
	}
	c = &g->tensors[t];
	n = ir_numel(c);
	if (n < 0 || n > max)
		return -1;
	for (i = 0; i < n; i++)
		out[i] = ir_get_i64(c, i);
	return (int)n;
}

int set_out(struct ir_graph *g, struct ir_node *n, int k, int dtype, int rank,
	    const int64_t *dims)
{
	struct ir_tensor *t;

	if (k >= n->nout || n->outputs[k] < 0)
		return 0;	/* an omitted optional output */
	t = &g->tensors[n->outputs[k]];
	t->dtype = dtype;
	t->rank = rank;
	if (rank > 0)
		memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
	return 0;
}

int set_out_like(struct ir_graph *g, struct ir_node *n, int k,
		 const struct ir_tensor *like)
{
	return set_out(g, n, k, like->dtype, like->rank, like->dims);
}

int norm_axis(const struct ir_node *n, int64_t axis, int rank, int *out,
	      char *err, size_t errlen)
{
	if (axis < -rank || axis >= rank || (rank == 0 && axis))
		return NERR(n, "axis %lld is out of range for rank %d",
			    (long long)axis, rank);
	*out = (int)(axis < 0 ? axis + rank : axis);
	return 0;
}

int ir_apply_input_shape(struct ir_graph *g, const char *spec,
			 char *err, size_t errlen)
{
	char *copy, *item, *save = NULL;
	int ret = -1;

	if (!spec || !*spec)
		return 0;
	copy = strdup(spec);
	if (!copy)
		return snprintf(err, errlen, "out of memory"), -1;
	for (item = strtok_r(copy, ";", &save); item;
	     item = strtok_r(NULL, ";", &save)) {
		char *colon = strrchr(item, ':'), *p, *end;
		int64_t dims[IR_MAX_RANK];
		struct ir_tensor *t;
		int ti, rank = 0;

		if (!colon || colon == item) {
			snprintf(err, errlen, "--input_shape: '%s' is not name:dims",
				 item);
			goto out;
		}
		*colon = '\0';
		ti = ir_find_tensor(g, item);
		if (ti < 0 || g->tensors[ti].input_index < 0) {
			snprintf(err, errlen,
				 "--input_shape: the model has no input named %s",
				 item);
			goto out;
		}
		t = &g->tensors[ti];
		for (p = colon + 1; *p; p = end + (*end == ',')) {
			long long v;

			errno = 0;
			v = strtoll(p, &end, 10);
			if (end == p || errno || (*end && *end != ',') ||
			    v < -1 || v > (1LL << 31) || rank == IR_MAX_RANK ||
			    (v == -1 && rank > 0)) {
				snprintf(err, errlen,
					 "--input_shape: bad dims '%s' for %s (numbers >= 0; only dim 0 may be -1, the batch of --dynamic_batch_size; at most %d dims)",
					 colon + 1, item, IR_MAX_RANK);
				goto out;
			}
			dims[rank++] = v;
		}
		if (t->rank >= 0 && rank != t->rank) {
			snprintf(err, errlen,
				 "--input_shape: %s has %d dims in the model, %d given",
				 item, t->rank, rank);
			goto out;
		}
		t->rank = rank;
		memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
		t->batched = rank > 0 && dims[0] == -1;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

int ir_set_batch(struct ir_graph *g, int64_t batch)
{
	int i, n = 0;

	for (i = 0; i < g->ninputs; i++) {
		struct ir_tensor *t = &g->tensors[g->inputs[i]];

		if (t->batched && t->rank > 0) {
			t->dims[0] = batch;
			n++;
		}
	}
	return n;
}

static int check_inputs(const struct ir_graph *g, char *err, size_t errlen)
{
	int i, d;

	for (i = 0; i < g->ninputs; i++) {
		const struct ir_tensor *t = &g->tensors[g->inputs[i]];
		char buf[128];

		if (t->rank < 0)
			return snprintf(err, errlen,
					"graph input %s has no shape in the model: give it with --input_shape",
					t->name), -1;
		for (d = 0; d < t->rank; d++)
			if (t->dims[d] < 0)
				break;
		if (d == t->rank)
			continue;
		ir_dims_str(t, buf, sizeof(buf));
		return snprintf(err, errlen,
				"graph input %s has a dynamic dim %d (%s): give its shape with --input_shape%s",
				t->name, d, buf,
				d == 0 && t->batched ?
				" (or the batch sizes with --dynamic_batch_size)" : ""), -1;
	}
	return 0;
}

/* Inputs of node n present as the op needs, with their types inferred. */
static int check_node_inputs(const struct ir_graph *g, const struct ir_node *n,
			     const struct ir_op *op, char *err, size_t errlen)
{
	int k;

	if (n->nin < op->min_in || n->nin > op->max_in)
		return NERR(n, "has %d inputs, the operator takes %d to %d",
			    n->nin, op->min_in, op->max_in);
	for (k = 0; k < n->nout && n->outputs[k] < 0; k++)
		;
	if (k == n->nout)
		return NERR(n, "has no output");
	for (k = 0; k < n->nin; k++) {
		int t = n->inputs[k];

		if (t < 0) {
			if (k < op->min_in)
				return NERR(n, "input %d is required", k);
			continue;
		}
		if (g->tensors[t].rank < 0 ||
		    g->tensors[t].dtype == IR_DT_UNDEFINED)
			return NERR(n, "input %s has no inferred shape",
				    g->tensors[t].name);
	}
	return 0;
}

int ir_infer(struct ir_graph *g, char *err, size_t errlen)
{
	int i, k;

	if (check_inputs(g, err, errlen))
		return -1;
	for (i = 0; i < g->nnodes; i++) {
		struct ir_node *n = &g->nodes[i];
		const struct ir_op *op;
		bool all_const = true;

		if (n->dead)
			continue;
		k = ir_gradient_node(g, i, err, errlen);
		if (k == 1)
			k = ir_sequence_node(g, i, err, errlen);
		if (k < 0)
			return k;
		if (!k) {
			i--;	/* node i is now what replaced it */
			continue;
		}
		n = &g->nodes[i];
		op = ir_op_find(n->op_type);
		if (!op || !ir_op_domain_ok(n, op))
			return NERR(n, "is not a supported operator");
		if (check_node_inputs(g, n, op, err, errlen) ||
		    op->infer(g, n, err, errlen))
			return -1;
		n = &g->nodes[i];
		for (k = 0; k < n->nout; k++) {
			const struct ir_tensor *t;

			if (n->outputs[k] < 0)
				continue;
			t = &g->tensors[n->outputs[k]];
			if (t->rank < 0 || t->dtype == IR_DT_UNDEFINED ||
			    ir_numel(t) < 0)
				return NERR(n, "output %s could not be inferred",
					    t->name);
		}
		for (k = 0; k < n->nin; k++)
			if (n->inputs[k] >= 0 && !ir_is_const(g, n->inputs[k]))
				all_const = false;
		if (op->fold && (all_const || op->fold_on_shape) &&
		    ir_fold_node(g, i, err, errlen) < 0)
			return -1;
	}
	return 0;
}
