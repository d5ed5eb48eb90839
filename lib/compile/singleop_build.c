// SPDX-License-Identifier: MIT
/*
 * One op description to a single-op .om: a graph of the description's
 * inputs and outputs around the nodes its mapping builds, then the model
 * compiler's own passes (inference, folding, lowering, planning). The
 * inferred outputs must be exactly the described ones: a description
 * whose shapes or dtypes the op cannot produce is refused here, not at
 * execution.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "om_write.h"
#include "singleop_int.h"

int sg_fail(struct sop_graph *s, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(s->err, s->errlen, "%s: ", s->d->type);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < s->errlen)
		vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return SOP_EINVAL;
}

int sg_tmp(struct sop_graph *s)
{
	char name[32];

	snprintf(name, sizeof(name), "t%d", s->ntmp++);
	return ir_add_tensor(s->g, name);
}

int sg_const_ints(struct sop_graph *s, const int64_t *v, int n, int scalar)
{
	int64_t dims[1] = { n };

	return ir_add_const(s->g, "c", 9 /* INT64 */, scalar ? 0 : 1, dims, v);
}

int sg_node(struct sop_graph *s, const char *op_type, const int *ins, int nin,
	    const int *outs, int nout)
{
	char name[96];
	int n, k;

	snprintf(name, sizeof(name), "%s_%d", op_type, s->g->nnodes);
	n = ir_add_node(s->g, name, op_type, nin, nout);
	if (n < 0)
		return -1;
	for (k = 0; k < nin; k++)
		s->g->nodes[n].inputs[k] = ins[k];
	for (k = 0; k < nout; k++) {
		s->g->nodes[n].outputs[k] = outs[k];
		if (outs[k] >= 0)
			s->g->tensors[outs[k]].producer = n;
	}
	return n;
}

static int check_tensor(struct sop_graph *s, const struct sop_tensor *t,
			const char *what, int k)
{
	int i;

	if (t->rank < 0 || t->rank > SOP_MAX_RANK)
		return sg_fail(s, "%s %d: rank %d is not 0..%d", what, k, t->rank,
			       SOP_MAX_RANK);
	if (!ir_dtype_size(t->dtype))
		return sg_fail(s, "%s %d: dtype %d is not supported", what, k,
			       t->dtype);
	for (i = 0; i < t->rank; i++)
		if (t->dims[i] < 0)
			return sg_fail(s, "%s %d: dim %d is %lld (single-op models have static shapes)",
				       what, k, i, (long long)t->dims[i]);
	return 0;
}

/* The description's tensors as graph inputs and outputs. */
static int add_io(struct sop_graph *s)
{
	struct ir_graph *g = s->g;
	char name[16];
	int k;

	g->inputs = malloc(sizeof(int) * (size_t)(s->d->nin ? s->d->nin : 1));
	g->outputs = malloc(sizeof(int) * (size_t)s->d->nout);
	if (!g->inputs || !g->outputs)
		return SOP_ENOMEM;
	for (k = 0; k < s->d->nin + s->d->nout; k++) {
		int in = k < s->d->nin, i = in ? k : k - s->d->nin;
		const struct sop_tensor *d = in ? &s->d->in[i] : &s->d->out[i];
		int t, r = check_tensor(s, d, in ? "input" : "output", i);

		if (r)
			return r;
		snprintf(name, sizeof(name), "%c%d", in ? 'x' : 'y', i);
		t = ir_add_tensor(g, name);
		if (t < 0)
			return SOP_ENOMEM;
		if (in) {
			g->tensors[t].dtype = d->dtype;
			g->tensors[t].rank = d->rank;
			memcpy(g->tensors[t].dims, d->dims,
			       sizeof(int64_t) * (size_t)d->rank);
			g->tensors[t].input_index = i;
			g->inputs[g->ninputs++] = t;
			s->in[i] = t;
		} else {
			g->tensors[t].output_index = i;
			g->outputs[g->noutputs++] = t;
			s->out[i] = t;
		}
	}
	return 0;
}

/* The inferred outputs against the described ones. */
static int check_outputs(struct sop_graph *s)
{
	char a[128], b[128];
	int k, i;

	for (k = 0; k < s->d->nout; k++) {
		const struct ir_tensor *t = &s->g->tensors[s->out[k]];
		const struct sop_tensor *d = &s->d->out[k];
		int same = t->dtype == d->dtype && t->rank == d->rank;

		for (i = 0; same && i < d->rank; i++)
			same = t->dims[i] == d->dims[i];
		if (same)
			continue;
		ir_dims_str(t, a, sizeof(a));
		snprintf(b, sizeof(b), "%d", d->rank);
		for (i = 0; i < d->rank; i++)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%lld",
				 i ? "x" : ":", (long long)d->dims[i]);
		return sg_fail(s, "output %d: the op computes %s %s, the description says dtype %d, rank %s",
			       k, ir_dtype_name(t->dtype), a, d->dtype, b);
	}
	return 0;
}

static int front(struct sop_graph *s)
{
	const struct sop_map *m = sop_map_find(s->d->type);
	int r;

	if (!m) {
		snprintf(s->err, s->errlen, "op type %s is not supported", s->d->type);
		return SOP_EUNSUPPORTED;
	}
	if (s->d->nin < m->min_in || s->d->nin > m->max_in || s->d->nout != m->nout)
		return sg_fail(s, "takes %d..%d inputs and %d outputs, not %d and %d",
			       m->min_in, m->max_in, m->nout, s->d->nin, s->d->nout);
	s->g->opset = 13;
	r = add_io(s);
	if (!r)
		r = m->build(s) ? (s->err[0] ? SOP_EINVAL : SOP_ENOMEM) : 0;
	if (r)
		return r;
	if (ir_check_supported(s->g, false, s->err, s->errlen))
		return SOP_EUNSUPPORTED;
	if (ir_infer(s->g, s->err, s->errlen) < 0)
		return SOP_EINVAL;
	r = check_outputs(s);
	if (r)
		return r;
	if (ir_fold(s->g, s->err, s->errlen) < 0 || ir_remove_dead(s->g) < 0)
		return SOP_EINVAL;
	if (ir_check_supported(s->g, true, s->err, s->errlen))
		return SOP_EUNSUPPORTED;
	return 0;
}

static int record_io(struct om_build *b, const struct sop_desc *d,
		     const struct ir_graph *g)
{
	uint32_t k;
	int i;

	b->nin = (uint32_t)d->nin;
	b->nout = (uint32_t)d->nout;
	for (k = 0; k < b->nin + b->nout; k++) {
		int in = k < b->nin;
		const struct sop_tensor *t = in ? &d->in[k] : &d->out[k - b->nin];
		const struct ir_tensor *it = &g->tensors[in ? g->inputs[k] :
					     g->outputs[k - b->nin]];
		struct om_io *io = &b->io[k];
		struct om_dims *dm = &b->dims[k];
		uint64_t size = ir_dtype_size(t->dtype);

		memset(io, 0, sizeof(*io));
		memset(dm, 0, sizeof(*dm));
		io->name = om_add_string(b, it->name);
		if (io->name == UINT32_MAX)
			return -1;
		io->dtype = (uint32_t)t->dtype;
		io->format = (uint32_t)t->format;
		io->rank = dm->rank = (uint32_t)t->rank;
		for (i = 0; i < t->rank; i++) {
			io->dims[i] = dm->dims[i] = t->dims[i];
			size *= (uint64_t)t->dims[i];
		}
		io->size = size;
		io->flags = in ? 0 : OM_IO_OUTPUT;
	}
	return 0;
}

static int back(struct sop_graph *s, struct om_build *b)
{
	struct lower_weights w;
	struct lower_result r;
	struct plan_stats ps;
	struct om_variant *v = &b->variants[0];
	int ret = 0;

	if (lower_weights_init(&w, s->g))
		return SOP_ENOMEM;
	memset(&r, 0, sizeof(r));
	if (lower_graph(s->g, b, &w, &r, s->err, s->errlen))
		ret = SOP_EUNSUPPORTED;
	else if (plan_arena(r.bufs, r.nbufs, &ps))
		ret = SOP_ENOMEM;
	if (!ret) {
		lower_apply_plan(b, &r);
		memset(v, 0, sizeof(*v));
		v->first_node = r.first_node;
		v->node_count = r.node_count;
		v->arena_size = ps.arena_size;
		v->naive_size = ps.naive_size;
		v->lower_bound = ps.lower_bound;
		b->nvariants = 1;
		if (record_io(b, s->d, s->g))
			ret = SOP_ENOMEM;
	}
	lower_result_free(&r);
	lower_weights_free(&w);
	return ret;
}

int sop_compile(const struct sop_desc *d, uint8_t **img, size_t *len,
		char *err, size_t errlen)
{
	char *key = malloc(SOP_KEY_MAX);
	struct ir_graph g;
	struct om_build b;
	struct sop_graph s;
	int ret;

	memset(&g, 0, sizeof(g));
	memset(&s, 0, sizeof(s));
	s.g = &g;
	s.d = d;
	s.err = err;
	s.errlen = errlen;
	err[0] = '\0';
	if (d->nin < 0 || d->nin > SOP_MAX_IO || d->nout < 1 || d->nout > SOP_MAX_IO) {
		snprintf(err, errlen, "%s: %d inputs and %d outputs (0..%d, 1..%d)",
			 d->type, d->nin, d->nout, SOP_MAX_IO, SOP_MAX_IO);
		return SOP_EINVAL;
	}
	if (!key || om_build_init(&b)) {
		free(key);
		return SOP_ENOMEM;
	}
	ret = front(&s);
	if (!ret)
		ret = back(&s, &b);
	if (!ret && sop_key(d, key, SOP_KEY_MAX) < 0) {
		snprintf(err, errlen, "%s: the description is too long", d->type);
		ret = SOP_EINVAL;
	}
	if (!ret) {
		b.op_key = key;
		if (om_serialize(&b, img, len))
			ret = SOP_ENOMEM;
		b.op_key = NULL;
	}
	if (ret == SOP_ENOMEM && !err[0])
		snprintf(err, errlen, "out of memory");
	om_build_free(&b);
	ir_free(&g);
	free(key);
	return ret;
}
