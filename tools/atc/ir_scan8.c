// SPDX-License-Identifier: MIT
/*
 * Scan's opset 8 form, unrolled while the graph is read: the states and
 * scan inputs carry a batch axis 0, the scan inputs their sequence on
 * axis 1, and the body sees one batch element's states and one step's
 * slices. Per batch element b: a Gather takes b from each state and scan
 * input, the body is copied once per step (a Gather takes step t, or
 * S-1-t for a reversed direction), states chain from step to step; each
 * scan output is the Concat of its per-step values Unsqueezed on axis 0,
 * and every output is then the Concat over b of its per-element values
 * Unsqueezed on axis 0. sequence_lens, when given, must be a constant
 * whose lengths are all the maximum: shorter sequences (zero-padded scan
 * outputs, reversal within the length) are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "ir_control.h"
#include "onnx.pb-c.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define LEN 512
#define SCAN8_MAX_STEPS 4096	/* batch x sequence copies of the body */
#define SCAN8_MAX_IO 16

static const Onnx__AttributeProto *attr(const Onnx__NodeProto *p, const char *name)
{
	for (size_t i = 0; i < p->n_attribute; i++)
		if (p->attribute[i]->name && !strcmp(p->attribute[i]->name, name))
			return p->attribute[i];
	return NULL;
}

/* op(in...) -> a new tensor named out, with an int attribute or ints. */
static int add(struct ir_graph *g, const char *out, const char *op,
	       const int *in, int nin, const char *aname, int64_t av)
{
	int ni = ir_add_node(g, out, op, nin, 1), ti;

	if (ni < 0)
		return -1;
	memcpy(g->nodes[ni].inputs, in, sizeof(int) * (size_t)nin);
	ti = ir_add_tensor(g, out);
	if (ti < 0)
		return -1;
	g->tensors[ti].producer = ni;
	g->nodes[ni].outputs[0] = ti;
	if (!strcmp(aname, "axes") ? ir_set_attr_ints(&g->nodes[ni], aname, &av, 1) :
	    ir_set_attr_int(&g->nodes[ni], aname, av))
		return -1;
	return ti;
}

/* Gather(t, index) on axis 0 into a tensor named out. */
static int take(struct ir_graph *g, int t, int64_t index, const char *out)
{
	char name[LEN];
	int c;

	snprintf(name, sizeof(name), "%s/index", out);
	c = ir_add_const(g, name, 9, 0, NULL, &index);
	return c < 0 ? -1 : add(g, out, "Gather", (int[]){ t, c }, 2, "axis", 0);
}

/* Concat on axis 0 of the parts, each Unsqueezed on axis 0 first. */
static int stack(struct ir_graph *g, const int *parts, size_t n, const char *out)
{
	int *u = calloc(n + 1, sizeof(int)), ret = -1;
	char name[LEN];

	if (!u)
		return -1;
	for (size_t k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "%s/unsq%zu", out, k);
		u[k] = add(g, name, "Unsqueeze", &parts[k], 1, "axes", 0);
		if (u[k] < 0)
			goto out;
	}
	ret = add(g, out, "Concat", u, (int)n, "axis", 0);
out:
	free(u);
	return ret;
}

/* Every sequence length must be known and the maximum. */
static int check_lens(struct ir_graph *g, const Onnx__NodeProto *p,
		      const char *nm, int64_t batch, int64_t steps,
		      char *err, size_t errlen)
{
	int t = ir_find_tensor(g, p->input[0]);
	const struct ir_tensor *lt;

	if (t < 0)
		return ERR("node %s (Scan): sequence_lens %s is not defined", nm, p->input[0]);
	lt = &g->tensors[t];
	if (!lt->data) {
		ir_need_value(g, t);
		return ERR("node %s (Scan): the opset 8 form's sequence_lens %s must be known at compile time",
			   nm, lt->name);
	}
	if (ir_numel(lt) != batch || (lt->dtype != 3 && lt->dtype != 9))
		return ERR("node %s (Scan): sequence_lens must be int32 or int64 [%lld]",
			   nm, (long long)batch);
	for (int64_t b = 0; b < batch; b++)
		if (ir_get_i64(lt, b) != steps)
			return ERR("node %s (Scan): sequence_lens[%lld] is %lld, not the maximum %lld: shorter sequences are not supported",
				   nm, (long long)b, (long long)ir_get_i64(lt, b),
				   (long long)steps);
	return 0;
}

struct scan8 {
	const Onnx__GraphProto *body;
	const char *nm;
	size_t n, m, k;			/* states, scan inputs, scan outputs */
	int64_t batch, steps;
	int in[2 * SCAN8_MAX_IO];	/* states then scan inputs */
	const Onnx__AttributeProto *dirs;
};

/* The body over every step of batch element b; per-element results out. */
static int one_element(struct ir_graph *g, const struct scan8 *s, int64_t b,
		       int *fin, int *scan_parts, size_t idx, char *err,
		       size_t errlen)
{
	const char *formal[2 * SCAN8_MAX_IO], *actual[2 * SCAN8_MAX_IO];
	char names[SCAN8_MAX_IO][LEN], pre[LEN / 2], name[LEN];
	int xb[SCAN8_MAX_IO], st[SCAN8_MAX_IO];
	int *steps_out = calloc((size_t)s->steps * s->k + 1, sizeof(int));

	if (!steps_out)
		return ERR("out of memory");
	for (size_t i = 0; i < s->n + s->m; i++) {
		formal[i] = s->body->input[i]->name;
		snprintf(name, sizeof(name), "%s/b%lld/%s%zu", s->nm, (long long)b,
			 i < s->n ? "state" : "input", i);
		if ((i < s->n ? (st[i] = take(g, s->in[i], b, name)) :
		     (xb[i - s->n] = take(g, s->in[i], b, name))) < 0)
			goto nomem;
	}
	for (int64_t t = 0; t < s->steps; t++) {
		struct ir_rename r = { s->body, pre, formal, actual, s->n + s->m };

		snprintf(pre, sizeof(pre), "%s/b%lld/t%lld/", s->nm, (long long)b,
			 (long long)t);
		for (size_t i = 0; i < s->n; i++)
			actual[i] = g->tensors[st[i]].name;
		for (size_t j = 0; j < s->m; j++) {
			bool rev = s->dirs && j < s->dirs->n_ints && s->dirs->ints[j];
			int e;

			snprintf(names[j], LEN, "%sslice%zu", pre, j);
			e = take(g, xb[j], rev ? s->steps - 1 - t : t, names[j]);
			if (e < 0)
				goto nomem;
			actual[s->n + j] = g->tensors[e].name;
		}
		if (ir_body_copy(g, &r, idx * 1000 + (size_t)t, err, errlen))
			goto fail;
		for (size_t i = 0; i < s->n + s->k; i++) {
			int o;

			snprintf(name, sizeof(name), "%s%s", pre, s->body->output[i]->name);
			o = ir_find_tensor(g, name);
			if (o < 0) {
				(void)ERR("node %s (Scan): the body does not compute %s",
					  s->nm, s->body->output[i]->name);
				goto fail;
			}
			if (i < s->n)
				st[i] = o;
			else
				steps_out[(i - s->n) * (size_t)s->steps + (size_t)t] = o;
		}
	}
	for (size_t i = 0; i < s->n; i++)
		fin[i] = st[i];
	for (size_t k = 0; k < s->k; k++) {
		snprintf(name, sizeof(name), "%s/b%lld/out%zu", s->nm, (long long)b, k);
		scan_parts[k] = stack(g, &steps_out[k * (size_t)s->steps],
				      (size_t)s->steps, name);
		if (scan_parts[k] < 0)
			goto nomem;
	}
	free(steps_out);
	return 0;
nomem:
	(void)ERR("out of memory");
fail:
	free(steps_out);
	return -1;
}

int ir_expand_scan8(struct ir_graph *g, const Onnx__NodeProto *p, size_t idx,
		    char *err, size_t errlen)
{
	const Onnx__AttributeProto *ba = attr(p, "body"), *na = attr(p, "num_scan_inputs");
	struct scan8 s = { .body = ba ? ba->g : NULL,
			   .nm = p->name && *p->name ? p->name : "scan",
			   .dirs = attr(p, "directions") };
	int *fin = NULL, *parts = NULL, ret = -1;
	const struct ir_tensor *x0;

	if (!s.body || !na || na->i < 1 || p->n_input < 2 ||
	    (size_t)na->i > p->n_input - 1 || p->n_input - 1 > 2 * SCAN8_MAX_IO)
		return ERR("node %s (Scan): the opset 8 form needs sequence_lens, states and num_scan_inputs scan inputs",
			   s.nm);
	s.m = (size_t)na->i;
	s.n = p->n_input - 1 - s.m;
	if (s.m > SCAN8_MAX_IO || s.n > SCAN8_MAX_IO ||
	    s.body->n_input != s.n + s.m || s.body->n_output < s.n ||
	    p->n_output != s.body->n_output || s.body->n_output - s.n > SCAN8_MAX_IO)
		return ERR("node %s (Scan): body and inputs do not match (opset 8 form)", s.nm);
	s.k = s.body->n_output - s.n;
	for (size_t i = 0; i < s.n + s.m; i++) {
		s.in[i] = ir_find_tensor(g, p->input[1 + i]);
		if (s.in[i] < 0)
			return ERR("node %s (Scan): input %s is not defined", s.nm, p->input[1 + i]);
	}
	x0 = &g->tensors[s.in[s.n]];
	if (x0->rank < 2 || x0->dims[0] < 1 || x0->dims[1] < 1)
		return ERR("node %s (Scan): scan input %s needs known batch and sequence dims",
			   s.nm, x0->name);
	s.batch = x0->dims[0];
	s.steps = x0->dims[1];
	if (s.batch * s.steps > SCAN8_MAX_STEPS)
		return ERR("node %s (Scan): %lld x %lld body copies (at most %d)", s.nm,
			   (long long)s.batch, (long long)s.steps, SCAN8_MAX_STEPS);
	for (size_t i = 0; i < s.n + s.m; i++) {
		const struct ir_tensor *t = &g->tensors[s.in[i]];

		if (t->rank < (i < s.n ? 1 : 2) || t->dims[0] != s.batch ||
		    (i >= s.n && t->dims[1] != s.steps))
			return ERR("node %s (Scan): %s's batch or sequence dim differs from %s's",
				   s.nm, t->name, x0->name);
	}
	if (p->input[0] && *p->input[0] &&
	    check_lens(g, p, s.nm, s.batch, s.steps, err, errlen))
		return -1;
	fin = calloc((size_t)s.batch * (s.n + s.k) + 1, sizeof(int));
	parts = calloc((size_t)s.batch + 1, sizeof(int));
	if (!fin || !parts) {
		(void)ERR("out of memory");
		goto out;
	}
	for (int64_t b = 0; b < s.batch; b++)
		if (one_element(g, &s, b, &fin[b * (int64_t)(s.n + s.k)],
				&fin[b * (int64_t)(s.n + s.k) + (int64_t)s.n],
				idx * 100 + (size_t)b, err, errlen))
			goto out;
	for (size_t o = 0; o < s.n + s.k; o++) {
		for (int64_t b = 0; b < s.batch; b++)
			parts[b] = fin[b * (int64_t)(s.n + s.k) + (int64_t)o];
		if (!p->output[o] || !*p->output[o])
			continue;
		if (ir_find_tensor(g, p->output[o]) >= 0) {
			(void)ERR("node %s (Scan): output %s is already defined",
				  s.nm, p->output[o]);
			goto out;
		}
		if (stack(g, parts, (size_t)s.batch, p->output[o]) < 0) {
			(void)ERR("out of memory");
			goto out;
		}
	}
	ret = 0;
out:
	free(fin);
	free(parts);
	return ret;
}
