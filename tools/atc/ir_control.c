// SPDX-License-Identifier: MIT
/*
 * Control flow expanded into the graph while it is read, so that the rest
 * of atc sees plain operators:
 *  - Scan (opset 9 and later) is unrolled over its sequence length, which
 *    the scan inputs' declared dims fix: per step a Gather takes each
 *    scan input's slice, the body's nodes follow with their names made
 *    unique, states chain from step to step, and each scan output is the
 *    Concat of its per-step values (Unsqueezed on its axis).
 *  - If computes both branches and selects with Where on the condition
 *    (branch outputs must broadcast to one another; a constant condition
 *    folds the choice away).
 * A body's node reads a name as: a formal input of the body (mapped to
 * this step's tensor), a name defined earlier in the body (this step's
 * copy), or else a tensor of the enclosing graph.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "ir_control.h"
#include "onnx.pb-c.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define NAME_MAX_LEN 512


static bool defined_in_body(const Onnx__GraphProto *b, const char *name,
			    size_t before)
{
	for (size_t i = 0; i < before && i < b->n_node; i++)
		for (size_t k = 0; k < b->node[i]->n_output; k++)
			if (b->node[i]->output[k] && !strcmp(b->node[i]->output[k], name))
				return true;
	return false;
}

/* The graph name body name stands for at node idx of this step (malloc'd). */
static char *map_name(const struct ir_rename *r, const char *name, size_t idx)
{
	char buf[NAME_MAX_LEN];

	if (!name || !*name)
		return strdup("");
	for (size_t i = 0; i < r->nformal; i++)
		if (!strcmp(r->formal[i], name))
			return strdup(r->actual[i]);
	if (defined_in_body(r->body, name, idx))
		snprintf(buf, sizeof(buf), "%s%s", r->prefix, name);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	return strdup(buf);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* One copy of the body's nodes under r's renaming. */
int ir_body_copy(struct ir_graph *g, const struct ir_rename *r, size_t idx0,
		 char *err, size_t errlen)
{
	for (size_t i = 0; i < r->body->n_node; i++) {
		Onnx__NodeProto p = *r->body->node[i];
		char name[NAME_MAX_LEN], **in, **out;
		int ret = 0;

		in = calloc(p.n_input + 1, sizeof(*in));
		out = calloc(p.n_output + 1, sizeof(*out));
		if (!in || !out) {
			free(in);
			free(out);
			return ERR("out of memory");
		}
		for (size_t k = 0; k < p.n_input; k++)
			if (!(in[k] = map_name(r, p.input[k], i)))
				ret = -1;
		for (size_t k = 0; k < p.n_output; k++) {
			snprintf(name, sizeof(name), "%s%s", r->prefix,
				 p.output[k] ? p.output[k] : "");
			if (!(out[k] = strdup(p.output[k] && *p.output[k] ? name : "")))
				ret = -1;
		}
		snprintf(name, sizeof(name), "%s%s_%zu", r->prefix,
			 p.name && *p.name ? p.name : p.op_type, i);
		p.name = name;
		p.input = in;
		p.output = out;
		if (ret)
			ret = ERR("out of memory");
		else
			ret = ir_node_from_proto(g, &p, idx0 + i, err, errlen);
		free_names(in, p.n_input);
		free_names(out, p.n_output);
		if (ret)
			return -1;
	}
	return 0;
}

static const Onnx__AttributeProto *attr(const Onnx__NodeProto *p, const char *name)
{
	for (size_t i = 0; i < p->n_attribute; i++)
		if (p->attribute[i]->name && !strcmp(p->attribute[i]->name, name))
			return p->attribute[i];
	return NULL;
}

static int64_t attr_at(const Onnx__NodeProto *p, const char *name, size_t k,
		       int64_t def)
{
	const Onnx__AttributeProto *a = attr(p, name);

	return a && k < a->n_ints ? a->ints[k] : def;
}

/* A new node op(in...) -> a new tensor named out; the node's index. */
static int add(struct ir_graph *g, const char *name, const char *op,
	       const int *in, int nin, const char *out)
{
	int ni = ir_add_node(g, name, op, nin, 1), ti;

	if (ni < 0)
		return -1;
	for (int k = 0; k < nin; k++)
		g->nodes[ni].inputs[k] = in[k];
	ti = ir_add_tensor(g, out);
	if (ti < 0)
		return -1;
	g->tensors[ti].producer = ni;
	g->nodes[ni].outputs[0] = ti;
	return ni;
}

static int expand_scan(struct ir_graph *g, const Onnx__NodeProto *p, size_t idx,
		       char *err, size_t errlen)
{
	const Onnx__AttributeProto *ba = attr(p, "body");
	const Onnx__GraphProto *b = ba ? ba->g : NULL;
	size_t m = (size_t)attr_at(p, "num_scan_inputs", 0, 0);
	int64_t mi = -1;
	size_t n, nk, steps;
	char pre[256], name[NAME_MAX_LEN];
	const char **formal = NULL, **actual = NULL;
	char **state = NULL, **scan_out = NULL;
	int ret = -1;

	{
		const Onnx__AttributeProto *na = attr(p, "num_scan_inputs");

		if (na)
			mi = na->i;
	}
	m = mi > 0 ? (size_t)mi : 0;
	if (g->opset < 9)	/* batch axis, sequence lengths: ir_scan8.c */
		return ir_expand_scan8(g, p, idx, err, errlen);
	if (!b || !m || m > p->n_input || b->n_input != p->n_input ||
	    b->n_output < p->n_input - m || p->n_output != b->n_output)
		return ERR("node %s (Scan): body and inputs do not match", p->name ? p->name : "");
	n = p->n_input - m;
	nk = b->n_output - n;
	{
		int ti = ir_find_tensor(g, p->input[n]);
		int64_t ax = attr_at(p, "scan_input_axes", 0, 0);
		const struct ir_tensor *t = ti >= 0 ? &g->tensors[ti] : NULL;

		if (ax < 0 && t)
			ax += t->rank;
		if (!t || t->rank < 1 || ax < 0 || ax >= t->rank || t->dims[ax] < 0 ||
		    t->dims[ax] > 4096)
			return ERR("node %s (Scan): the sequence length must be a known dim",
				   p->name ? p->name : "");
		steps = (size_t)t->dims[ax];
	}
	formal = calloc(b->n_input + 1, sizeof(*formal));
	actual = calloc(b->n_input + 1, sizeof(*actual));
	state = calloc(n + 1, sizeof(*state));
	scan_out = calloc(nk * steps + 1, sizeof(*scan_out));
	if (!formal || !actual || !state || !scan_out)
		goto nomem;
	for (size_t i = 0; i < b->n_input; i++)
		formal[i] = b->input[i]->name;
	for (size_t i = 0; i < n; i++)
		if (!(state[i] = strdup(p->input[i])))
			goto nomem;
	for (size_t t = 0; t < steps; t++) {
		struct ir_rename r = { b, pre, formal, (const char *const *)actual, b->n_input };
		char *elem[16] = { 0 };

		snprintf(pre, sizeof(pre), "%s/step%zu/", p->name && *p->name ? p->name : "scan", t);
		for (size_t j = 0; j < m && j < 16; j++) {
			int xi = ir_find_tensor(g, p->input[n + j]);
			int64_t ax = attr_at(p, "scan_input_axes", j, 0);
			int64_t at = attr_at(p, "scan_input_directions", j, 0) ? (int64_t)(steps - 1 - t) :
				     (int64_t)t;
			int ci, ni;

			if (xi < 0)
				goto bad;
			if (ax < 0)
				ax += g->tensors[xi].rank;
			snprintf(name, sizeof(name), "%sindex%zu", pre, j);
			ci = ir_add_const(g, name, 9, 0, NULL, &at);
			snprintf(name, sizeof(name), "%sslice%zu", pre, j);
			elem[j] = strdup(name);
			if (ci < 0 || !elem[j])
				goto nomem;
			snprintf(name, sizeof(name), "%sgather%zu", pre, j);
			ni = add(g, name, "Gather", (int[]){ xi, ci }, 2, elem[j]);
			if (ni < 0 || ir_set_attr_int(&g->nodes[ni], "axis", ax))
				goto nomem;
		}
		for (size_t i = 0; i < n; i++)
			actual[i] = state[i];
		for (size_t j = 0; j < m; j++)
			actual[n + j] = elem[j];
		ret = ir_body_copy(g, &r, idx * 1000 + t, err, errlen);
		for (size_t j = 0; j < m && j < 16; j++)
			free(elem[j]);
		if (ret)
			goto out;
		ret = -1;
		for (size_t i = 0; i < n; i++) {
			free(state[i]);
			snprintf(name, sizeof(name), "%s%s", pre, b->output[i]->name);
			if (!(state[i] = strdup(name)))
				goto nomem;
		}
		for (size_t k = 0; k < nk; k++) {
			snprintf(name, sizeof(name), "%s%s", pre, b->output[n + k]->name);
			if (!(scan_out[k * steps + t] = strdup(name)))
				goto nomem;
		}
	}
	for (size_t i = 0; i < n; i++) {
		int si = ir_find_tensor(g, state[i]);

		snprintf(name, sizeof(name), "%s/final%zu", p->name ? p->name : "scan", i);
		if (si < 0 || add(g, name, "Identity", &si, 1, p->output[i]) < 0)
			goto bad;
	}
	for (size_t k = 0; k < nk; k++) {
		int64_t ax = attr_at(p, "scan_output_axes", k, 0);
		bool rev = attr_at(p, "scan_output_directions", k, 0) != 0;
		int *parts = calloc(steps + 1, sizeof(*parts)), ni;

		if (!parts)
			goto nomem;
		for (size_t t = 0; t < steps; t++) {
			int si = ir_find_tensor(g, scan_out[k * steps + (rev ? steps - 1 - t : t)]);

			snprintf(name, sizeof(name), "%s/unsq%zu_%zu", p->name ? p->name : "scan", k, t);
			ni = si < 0 ? -1 : add(g, name, "Unsqueeze", &si, 1, name);
			if (ni < 0 || ir_set_attr_ints(&g->nodes[ni], "axes", &ax, 1)) {
				free(parts);
				goto bad;
			}
			parts[t] = g->nodes[ni].outputs[0];
		}
		snprintf(name, sizeof(name), "%s/concat%zu", p->name ? p->name : "scan", k);
		ni = add(g, name, "Concat", parts, (int)steps, p->output[n + k]);
		free(parts);
		if (ni < 0 || ir_set_attr_int(&g->nodes[ni], "axis", ax))
			goto bad;
	}
	ret = 0;
	goto out;
nomem:
	ret = ERR("out of memory");
	goto out;
bad:
	ret = ERR("node %s (Scan): cannot expand its body", p->name ? p->name : "");
out:
	free(formal);
	free(actual);
	free_names(state, n);
	free_names(scan_out, nk * steps);
	return ret;
}

static int expand_if(struct ir_graph *g, const Onnx__NodeProto *p, size_t idx,
		     char *err, size_t errlen)
{
	const Onnx__AttributeProto *ta = attr(p, "then_branch"), *ea = attr(p, "else_branch");
	const Onnx__GraphProto *br[2] = { ta ? ta->g : NULL, ea ? ea->g : NULL };
	char pre[2][256], name[NAME_MAX_LEN];
	int cond = p->n_input ? ir_find_tensor(g, p->input[0]) : -1;

	if (!br[0] || !br[1] || cond < 0 || br[0]->n_output != p->n_output ||
	    br[1]->n_output != p->n_output)
		return ERR("node %s (If): branches and outputs do not match", p->name ? p->name : "");
	for (int k = 0; k < 2; k++) {
		struct ir_rename r = { br[k], pre[k], NULL, NULL, 0 };

		snprintf(pre[k], sizeof(pre[k]), "%s/%s/", p->name && *p->name ? p->name : "if",
			 k ? "else" : "then");
		if (ir_body_copy(g, &r, idx * 1000 + (size_t)k * 500, err, errlen))
			return -1;
	}
	for (size_t i = 0; i < p->n_output; i++) {
		int in[3] = { cond, -1, -1 };

		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "%s%s", pre[k], br[k]->output[i]->name);
			in[1 + k] = ir_find_tensor(g, name);
		}
		snprintf(name, sizeof(name), "%s/select%zu", p->name ? p->name : "if", i);
		if (in[1] < 0 || in[2] < 0 || add(g, name, "Where", in, 3, p->output[i]) < 0)
			return ERR("node %s (If): a branch output is missing", p->name ? p->name : "");
	}
	return 0;
}

/* The constant scalar value of the graph tensor named name, or -1. */
static int const_scalar(struct ir_graph *g, const char *name, int64_t *v)
{
	int ti = name && *name ? ir_find_tensor(g, name) : -1;

	if (ti < 0)
		return -1;
	if (!g->tensors[ti].data) {
		ir_need_value(g, ti);	/* the runner may freeze it */
		return -1;
	}
	if (ir_numel(&g->tensors[ti]) != 1)
		return -1;
	*v = ir_get_i64(&g->tensors[ti], 0);
	return 0;
}

/* Whether the body passes its condition through unchanged. */
static bool cond_passes(const Onnx__GraphProto *b)
{
	const char *in = b->input[1]->name, *out = b->output[0]->name;

	if (!strcmp(in, out))
		return true;
	for (size_t i = 0; i < b->n_node; i++) {
		const Onnx__NodeProto *n = b->node[i];

		if (n->n_output >= 1 && n->output[0] && !strcmp(n->output[0], out))
			return !strcmp(n->op_type, "Identity") && n->n_input == 1 &&
			       !strcmp(n->input[0], in);
	}
	return false;
}

/*
 * Loop as a counted loop: a constant trip count, a constant true
 * condition (or none) that the body passes through unchanged. Unrolled
 * like Scan: iteration i sees iter_num = i; scan outputs are stacked on
 * a new first axis.
 */
static int expand_loop(struct ir_graph *g, const Onnx__NodeProto *p, size_t idx,
		       char *err, size_t errlen)
{
	const Onnx__AttributeProto *ba = attr(p, "body");
	const Onnx__GraphProto *b = ba ? ba->g : NULL;
	const char *nm = p->name && *p->name ? p->name : "loop";
	char pre[256], name[NAME_MAX_LEN];
	const char **formal = NULL, **actual = NULL;
	char **state = NULL, **scan_out = NULL;
	int64_t trips = 0, c = 1;
	size_t n, nk;
	int ret = -1, bad_trip, bad_cond = 0;

	if (!b || p->n_input < 2 || b->n_input != p->n_input || b->n_output < p->n_input - 1 ||
	    p->n_output != b->n_output - 1)
		return ERR("node %s (Loop): body and inputs do not match", nm);
	bad_trip = const_scalar(g, p->input[0], &trips);
	if (p->input[1] && *p->input[1])
		bad_cond = const_scalar(g, p->input[1], &c);
	/*
	 * Anything but a counted loop stays a Loop node, which atc names as
	 * unsupported (and, for inputs it could not read, as needed at
	 * compile time: the runner may freeze them and try again).
	 */
	if (bad_trip || bad_cond || trips < 0 || trips > 4096 || !c || !cond_passes(b))
		return 1;
	n = p->n_input - 2;
	nk = b->n_output - 1 - n;
	formal = calloc(b->n_input + 1, sizeof(*formal));
	actual = calloc(b->n_input + 1, sizeof(*actual));
	state = calloc(n + 1, sizeof(*state));
	scan_out = calloc(nk * (size_t)trips + 1, sizeof(*scan_out));
	if (!formal || !actual || !state || !scan_out)
		goto nomem;
	for (size_t i = 0; i < b->n_input; i++)
		formal[i] = b->input[i]->name;
	for (size_t i = 0; i < n; i++)
		if (!(state[i] = strdup(p->input[2 + i])))
			goto nomem;
	for (int64_t t = 0; t < trips; t++) {
		struct ir_rename r = { b, pre, formal, (const char *const *)actual, b->n_input };
		char iter[NAME_MAX_LEN];
		uint8_t one = 1;
		int ti, ci;

		snprintf(pre, sizeof(pre), "%s/iter%lld/", nm, (long long)t);
		snprintf(iter, sizeof(iter), "%siter_num", pre);
		ti = ir_add_const(g, iter, 9, 0, NULL, &t);
		snprintf(name, sizeof(name), "%scond", pre);
		ci = ir_add_const(g, name, 12, 0, NULL, &one);
		if (ti < 0 || ci < 0)
			goto nomem;
		/* names are not moved when the tensor array grows */
		actual[0] = g->tensors[ti].name;
		actual[1] = g->tensors[ci].name;
		for (size_t i = 0; i < n; i++)
			actual[2 + i] = state[i];
		if (ir_body_copy(g, &r, idx * 1000 + (size_t)t, err, errlen)) {
			ret = -1;
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			free(state[i]);
			snprintf(name, sizeof(name), "%s%s", pre, b->output[1 + i]->name);
			if (!(state[i] = strdup(name)))
				goto nomem;
		}
		for (size_t k = 0; k < nk; k++) {
			snprintf(name, sizeof(name), "%s%s", pre, b->output[1 + n + k]->name);
			if (!(scan_out[k * (size_t)trips + (size_t)t] = strdup(name)))
				goto nomem;
		}
	}
	for (size_t i = 0; i < n; i++) {
		int si = ir_find_tensor(g, state[i]);

		snprintf(name, sizeof(name), "%s/final%zu", nm, i);
		if (si < 0 || add(g, name, "Identity", &si, 1, p->output[i]) < 0)
			goto bad;
	}
	for (size_t k = 0; k < nk; k++) {
		int64_t ax = 0;
		int *parts = calloc((size_t)trips + 1, sizeof(*parts)), ni;

		if (!parts || !trips) {
			free(parts);
			goto bad;	/* an empty stack has no dims to infer */
		}
		for (int64_t t = 0; t < trips; t++) {
			int si = ir_find_tensor(g, scan_out[k * (size_t)trips + (size_t)t]);

			snprintf(name, sizeof(name), "%s/unsq%zu_%lld", nm, k, (long long)t);
			ni = si < 0 ? -1 : add(g, name, "Unsqueeze", &si, 1, name);
			if (ni < 0 || ir_set_attr_ints(&g->nodes[ni], "axes", &ax, 1)) {
				free(parts);
				goto bad;
			}
			parts[t] = g->nodes[ni].outputs[0];
		}
		snprintf(name, sizeof(name), "%s/concat%zu", nm, k);
		ni = add(g, name, "Concat", parts, (int)trips, p->output[n + k]);
		free(parts);
		if (ni < 0 || ir_set_attr_int(&g->nodes[ni], "axis", 0))
			goto bad;
	}
	ret = 0;
	goto out;
nomem:
	ret = ERR("out of memory");
	goto out;
bad:
	ret = ERR("node %s (Loop): cannot expand its body", nm);
out:
	free(formal);
	free(actual);
	free_names(state, n);
	free_names(scan_out, nk * (size_t)trips);
	return ret;
}

int ir_expand_control(struct ir_graph *g, const Onnx__NodeProto *p, size_t idx,
		      char *err, size_t errlen)
{
	if (!p->op_type || (p->domain && *p->domain && strcmp(p->domain, "ai.onnx")))
		return 1;
	if (!strcmp(p->op_type, "Scan"))
		return expand_scan(g, p, idx, err, errlen);
	if (!strcmp(p->op_type, "If"))
		return expand_if(g, p, idx, err, errlen);
	if (!strcmp(p->op_type, "Loop"))
		return expand_loop(g, p, idx, err, errlen);
	return 1;
}
