// SPDX-License-Identifier: MIT
/*
 * Lowering, the graph walk: where every IR tensor lives (input, output,
 * weight or an arena buffer), which ONNX ops are views (no task: the
 * output aliases the input's memory), fused activations, and the copies
 * an output needs when it is not written in place by a task.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_int.h"

/* ONNX ops whose output is the input's bytes under another shape. */
static const char *const view_ops[] = {
	"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout",
};

int lw_fail(struct lower *L, const char *fmt, ...)
{
	size_t n = 0;
	va_list ap;

	if (L->node)
		n = (size_t)snprintf(L->err, L->errlen, "node '%s' (%s): ",
				     L->node->name ? L->node->name : "",
				     L->node->op_type);
	if (n < L->errlen) {
		va_start(ap, fmt);
		vsnprintf(L->err + n, L->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void lw_set_float(struct drm_vnpu_op_attrs *a, int i, float f)
{
	memcpy(&a->floats[i], &f, sizeof(f));
}

int lower_weights_init(struct lower_weights *w, const struct ir_graph *g)
{
	int i;

	w->n = g->ntensors;
	w->offset = malloc((size_t)(w->n ? w->n : 1) * sizeof(*w->offset));
	if (!w->offset)
		return -1;
	for (i = 0; i < w->n; i++)
		w->offset[i] = -1;
	return 0;
}

void lower_weights_free(struct lower_weights *w)
{
	free(w->offset);
	w->offset = NULL;
	w->n = 0;
}

void lower_result_free(struct lower_result *r)
{
	free(r->bufs);
	free(r->tensor_buf);
	memset(r, 0, sizeof(*r));
}

int lw_new_buf(struct lower *L, uint64_t n)
{
	struct lower_result *r = L->r;
	struct plan_buf *p;

	if (r->nbufs == L->cap_bufs) {
		int c = L->cap_bufs ? 2 * L->cap_bufs : 64;

		p = realloc(r->bufs, (size_t)c * sizeof(*p));
		if (!p)
			return lw_fail(L, "out of memory");
		r->bufs = p;
		L->cap_bufs = c;
	}
	p = &r->bufs[r->nbufs];
	memset(p, 0, sizeof(*p));
	p->size = n;
	p->first = p->last = -1;
	p->alias = p->inplace[0] = p->inplace[1] = -1;
	return r->nbufs++;
}

static uint64_t tensor_bytes(const struct ir_tensor *t)
{
	uint64_t n = ir_dtype_size(t->dtype);
	int i;

	for (i = 0; i < t->rank; i++)
		n *= (uint64_t)t->dims[i];
	return n;
}

static bool shape_known(const struct ir_tensor *t)
{
	int i;

	if (t->rank < 0 || t->rank > OM_MAX_RANK || !ir_dtype_size(t->dtype))
		return false;
	for (i = 0; i < t->rank; i++)
		if (t->dims[i] < 0)
			return false;
	return true;
}

int lw_locate(struct lower *L, int ti, struct tloc *out)
{
	const struct ir_tensor *t;
	struct tloc *l;
	int64_t off;
	int buf;

	if (ti < 0 || ti >= L->g->ntensors)
		return lw_fail(L, "tensor index %d out of range", ti);
	l = &L->loc[ti];
	t = &L->g->tensors[ti];
	if (l->ready) {
		*out = *l;
		return 0;
	}
	if (!shape_known(t))
		return lw_fail(L, "tensor '%s' has no inferred shape or dtype",
			       t->name ? t->name : "");
	if (t->input_index >= 0) {
		l->loc = OM_LOC_INPUT;
		l->index = (uint32_t)t->input_index;
	} else if (t->data) {
		if (L->w->offset[ti] < 0) {
			if (t->nbytes != tensor_bytes(t))
				return lw_fail(L, "constant '%s' holds %zu bytes, its shape %llu",
					       t->name ? t->name : "", t->nbytes,
					       (unsigned long long)tensor_bytes(t));
			off = om_add_weight(L->b, t->data, t->nbytes);
			if (off < 0)
				return lw_fail(L, "out of memory");
			L->w->offset[ti] = off;
		}
		l->loc = OM_LOC_WEIGHT;
		l->off = (uint64_t)L->w->offset[ti];
	} else if (t->output_index >= 0) {
		l->loc = OM_LOC_OUTPUT;
		l->index = (uint32_t)t->output_index;
	} else {
		buf = lw_new_buf(L, tensor_bytes(t));
		if (buf < 0)
			return -1;
		l->loc = OM_LOC_ARENA;
		l->buf = buf;
	}
	l->ready = true;
	*out = *l;
	return 0;
}

int lw_ir_view(struct lower *L, int ti, struct lw_view *v)
{
	const struct ir_tensor *t = &L->g->tensors[ti];
	struct tloc l;
	int64_t s = 1;
	uint32_t name;
	int i;

	if (lw_locate(L, ti, &l))
		return -1;
	name = om_add_string(L->b, t->name);
	if (name == UINT32_MAX)
		return lw_fail(L, "out of memory");
	memset(v, 0, sizeof(*v));
	v->t.loc = l.loc;
	v->t.index = l.index;
	v->t.offset = l.off;
	v->t.dtype = (uint32_t)t->dtype;
	v->t.rank = (uint32_t)t->rank;
	v->t.name = name;
	for (i = t->rank; i-- > 0;) {
		v->t.shape[i] = t->dims[i];
		v->t.strides[i] = s;
		s *= t->dims[i];
	}
	v->buf = l.loc == OM_LOC_ARENA ? l.buf : -1;
	return 0;
}

static bool contiguous(const struct om_tensor *t)
{
	int64_t s = 1;
	uint32_t i;

	for (i = t->rank; i-- > 0;) {
		if (t->shape[i] != 1 && t->strides[i] != s)
			return false;
		s *= t->shape[i];
	}
	return true;
}

static uint64_t view_bytes(const struct om_tensor *t)
{
	uint64_t n = ir_dtype_size((int)t->dtype);
	uint32_t i;

	for (i = 0; i < t->rank; i++)
		n *= (uint64_t)t->shape[i];
	return n;
}

/*
 * An elementwise task that writes a whole fresh buffer may take over an
 * input buffer read with exactly the output's layout; the planner does it
 * when that input dies at this task.
 */
static void note_inplace(struct lower *L, uint32_t op, const struct lw_view *v,
			 uint32_t nin, int task)
{
	const struct lw_view *o = &v[nin];
	struct plan_buf *ob;
	uint32_t i;
	int k = 0;

	if (op == OM_OP_COPY || op >= DRM_VNPU_OP_CAST || o->buf < 0)
		return;
	ob = &L->r->bufs[o->buf];
	if (ob->first != task || o->t.offset || !contiguous(&o->t) ||
	    view_bytes(&o->t) != ob->size)
		return;
	for (i = 0; i < nin && k < 2; i++) {
		const struct lw_view *x = &v[i];
		uint32_t j;

		/* another input reading x's buffer differently would see writes */
		for (j = 0; j < nin; j++)
			if (j != i && v[j].buf == x->buf &&
			    (v[j].t.offset != x->t.offset ||
			     memcmp(v[j].t.strides, x->t.strides,
				    sizeof(x->t.strides)) ||
			     memcmp(v[j].t.shape, x->t.shape,
				    sizeof(x->t.shape))))
				break;
		if (j < nin)
			continue;
		if (x->buf < 0 || x->buf == o->buf || x->t.offset ||
		    x->t.dtype != o->t.dtype || x->t.rank != o->t.rank ||
		    memcmp(x->t.shape, o->t.shape, sizeof(x->t.shape)) ||
		    !contiguous(&x->t) ||
		    L->r->bufs[x->buf].size != ob->size)
			continue;
		ob->inplace[k++] = x->buf;
	}
}

static int note_tensor(struct lower *L, const struct lw_view *v, uint32_t *idx)
{
	struct lower_result *r = L->r;
	uint32_t k;
	int64_t ti;
	int *p;

	ti = om_add_tensor(L->b, &v->t);
	if (ti < 0)
		return lw_fail(L, "out of memory");
	k = (uint32_t)ti - r->first_tensor;
	if ((int)k >= L->cap_tbuf) {
		int c = L->cap_tbuf ? 2 * L->cap_tbuf : 256;

		p = realloc(r->tensor_buf, (size_t)c * sizeof(*p));
		if (!p)
			return lw_fail(L, "out of memory");
		r->tensor_buf = p;
		L->cap_tbuf = c;
	}
	r->tensor_buf[k] = v->buf;
	r->tensor_count = k + 1;
	*idx = (uint32_t)ti;
	return 0;
}

int lw_emit(struct lower *L, uint32_t op, const struct lw_view *v,
	    uint32_t nin, uint32_t nout, const struct drm_vnpu_op_attrs *at)
{
	int task = (int)(L->b->nnodes - L->r->first_node);
	struct om_node n;
	uint32_t i;

	if (nin + nout > OM_MAX_NODE_TENSORS || !nout)
		return lw_fail(L, "a task with %u inputs and %u outputs does not fit",
			       nin, nout);
	/* strings live in host memory layouts only the host ops read */
	for (i = 0; !(op & OM_OP_HOST) && op != OM_OP_COPY && i < nin + nout; i++)
		if (v[i].t.dtype == OM_DTYPE_STRING)
			return lw_fail(L, "a device operator cannot take string tensors (%s of '%s'); only StringNormalizer and Cast run on strings",
				       i < nin ? "an input" : "an output",
				       L->node ? L->node->op_type : "?");
	memset(&n, 0, sizeof(n));
	n.op = op;
	n.num_inputs = nin;
	n.num_outputs = nout;
	n.name = om_add_string(L->b, L->node ? L->node->name : "");
	if (n.name == UINT32_MAX)
		return lw_fail(L, "out of memory");
	for (i = 0; i < nin + nout; i++) {
		struct plan_buf *pb;

		if (note_tensor(L, &v[i], &n.tensors[i]))
			return -1;
		if (v[i].buf < 0)
			continue;
		pb = &L->r->bufs[v[i].buf];
		if (pb->first < 0)
			pb->first = task;	/* an input read first: planned from here */
		if (task > pb->last)
			pb->last = task;
	}
	if (at) {
		n.has_attrs = 1;
		memcpy(n.ints, at->ints, sizeof(n.ints));
		memcpy(n.floats, at->floats, sizeof(n.floats));
	}
	if (om_add_node(L->b, &n) < 0)
		return lw_fail(L, "out of memory");
	note_inplace(L, op, v, nin, task);
	L->node_tasks++;
	return 0;
}

static bool is_view_op(const struct lower *L, const struct ir_node *n)
{
	size_t i;

	if (n->domain && *n->domain)
		return false;
	if (!strcmp(n->op_type, "Dropout") && !ir_dropout_is_identity(L->g, n))
		return false;	/* a DROPOUT task: the mask or training mode */
	for (i = 0; i < sizeof(view_ops) / sizeof(view_ops[0]); i++)
		if (!strcmp(n->op_type, view_ops[i]))
			return true;
	return false;
}

/* The output shares the input's memory: same place, its own shape. */
static int lower_view(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *in, *out;
	struct tloc l;

	if (n->nin < 1 || n->nout < 1 || n->inputs[0] < 0 || n->outputs[0] < 0)
		return lw_fail(L, "a view needs an input and an output");
	in = &L->g->tensors[n->inputs[0]];
	out = &L->g->tensors[n->outputs[0]];
	if (!shape_known(out))
		return lw_fail(L, "tensor '%s' has no inferred shape or dtype",
			       out->name ? out->name : "");
	if (out->dtype != in->dtype || tensor_bytes(out) != tensor_bytes(in))
		return lw_fail(L, "'%s' and '%s' differ in size or dtype",
			       in->name ? in->name : "", out->name ? out->name : "");
	if (lw_locate(L, n->inputs[0], &l))
		return -1;
	L->loc[n->outputs[0]] = l;
	L->r->views++;
	return 0;
}

static bool has_act_attr(uint32_t op)
{
	return op == DRM_VNPU_OP_CONV1D || op == DRM_VNPU_OP_CONV2D ||
	       op == DRM_VNPU_OP_CONV_TRANSPOSE2D || op == DRM_VNPU_OP_MATMUL ||
	       op == DRM_VNPU_OP_GEMM;
}

/* ints[DRM_VNPU_ATTR_ACT] and its bounds from a fused activation. */
static int act_attrs(struct lower *L, const struct ir_act *a,
		     struct drm_vnpu_op_attrs *at)
{
	if (a->kind == DRM_VNPU_ACT_RELU) {
		at->ints[DRM_VNPU_ATTR_ACT] = DRM_VNPU_ACT_RELU;
	} else if (a->kind == DRM_VNPU_ACT_CLIP) {
		if (!(a->lo <= a->hi))
			return lw_fail(L, "clip bounds %g > %g", a->lo, a->hi);
		at->ints[DRM_VNPU_ATTR_ACT] = DRM_VNPU_ACT_CLIP;
		lw_set_float(at, DRM_VNPU_ATTR_ACT_LO, a->lo);
		lw_set_float(at, DRM_VNPU_ATTR_ACT_HI, a->hi);
	} else {
		return lw_fail(L, "unknown fused activation %d", a->kind);
	}
	return 0;
}

/*
 * A fused activation goes into the task that writes the node's output if
 * that task takes one (CONV*, MATMUL, GEMM with attributes), else it is
 * one more task over the output, in place.
 */
static int lower_act(struct lower *L, const struct ir_node *n, uint32_t first)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];
	struct om_node *last;
	const struct om_tensor *o;

	if (!n->act.kind)
		return 0;
	if (n->nout < 1 || lw_ir_view(L, n->outputs[0], &v[0]))
		return -1;
	if (L->b->nnodes > first) {
		last = &L->b->nodes[L->b->nnodes - 1];
		o = &L->b->tensors[last->tensors[last->num_inputs]];
		if (has_act_attr(last->op) && last->num_outputs == 1 &&
		    (last->has_attrs || last->op == DRM_VNPU_OP_MATMUL) &&
		    o->loc == v[0].t.loc && o->index == v[0].t.index &&
		    o->offset == v[0].t.offset &&
		    L->r->tensor_buf[last->tensors[last->num_inputs] -
				     L->r->first_tensor] == v[0].buf) {
			memset(&at, 0, sizeof(at));
			memcpy(at.ints, last->ints, sizeof(at.ints));
			memcpy(at.floats, last->floats, sizeof(at.floats));
			if (act_attrs(L, &n->act, &at))
				return -1;
			memcpy(last->ints, at.ints, sizeof(at.ints));
			memcpy(last->floats, at.floats, sizeof(at.floats));
			last->has_attrs = 1;
			return 0;
		}
	}
	memset(&at, 0, sizeof(at));
	v[1] = v[0];
	if (n->act.kind == DRM_VNPU_ACT_RELU)
		return lw_emit(L, DRM_VNPU_OP_RELU, v, 1, 1, NULL);
	if (act_attrs(L, &n->act, &at))
		return -1;
	/* CLAMP: floats[0..1] bounds, ints[0] = both given. */
	at.ints[DRM_VNPU_ATTR_ACT] = 0;
	at.floats[0] = at.floats[DRM_VNPU_ATTR_ACT_LO];
	at.floats[1] = at.floats[DRM_VNPU_ATTR_ACT_HI];
	at.floats[DRM_VNPU_ATTR_ACT_LO] = at.floats[DRM_VNPU_ATTR_ACT_HI] = 0;
	at.ints[0] = 3;
	return lw_emit(L, DRM_VNPU_OP_CLAMP, v, 1, 1, &at);
}

static struct lower_opstat *opstat(struct lower_result *r, const char *op)
{
	int i;

	for (i = 0; i < r->nstats; i++)
		if (!strcmp(r->stats[i].op_type, op))
			return &r->stats[i];
	if (r->nstats == LOWER_MAX_OPSTATS)
		return NULL;
	snprintf(r->stats[r->nstats].op_type, sizeof(r->stats[0].op_type),
		 "%s", op);
	return &r->stats[r->nstats++];
}

/* Output j must be in the caller's buffer j: copy it there if it is not. */
static int lower_output(struct lower *L, int j)
{
	int ti = L->g->outputs[j];
	struct lw_view v[2];

	if (lw_ir_view(L, ti, &v[0]))
		return -1;
	if (v[0].t.loc == OM_LOC_OUTPUT && v[0].t.index == (uint32_t)j &&
	    v[0].t.offset == 0)
		return 0;
	v[1] = v[0];
	v[1].t.loc = OM_LOC_OUTPUT;
	v[1].t.index = (uint32_t)j;
	v[1].t.offset = 0;
	v[1].buf = -1;
	L->r->copies++;
	return lw_emit(L, OM_OP_COPY, v, 1, 1, NULL);
}

/*
 * The op families, tried in this order until one takes the node (a
 * lowerer returns 1 for "not mine"). The order matters because families
 * overlap by op name: the earlier ones claim only special forms and leave
 * the general form to a later, broader family. N-d and pooled windows
 * (POOL_ND, CONV_ND) come before the 2-D Conv of lower_direct and aclnn's
 * pools; normalizations' training and pre-opset-13 forms before aclnn's
 * BatchNorm/LayerNorm/Softmax; integer and mixed-type arithmetic
 * (lower_arith) before the one-operator table (lower_simple) and aclnn,
 * which would take Div, Pow or Max by name in any dtype. aclnn is last:
 * it is the fallback for whatever its phase 1 accepts.
 */
static int (*const lower_families[])(struct lower *L, const struct ir_node *n) = {
	lower_aipp,
	lower_window,
	lower_norm,
	lower_aicpu,
	lower_gen,
	lower_topk,
	lower_arith,
	lower_direct,
	lower_index,
	lower_activation,
	lower_reductions,
	lower_simple,
	lower_aclnn,
};

/*
 * Strings live in the host layout of om_format.h, which only the host
 * string operators read; a reshape keeps the buffer as it is, any other
 * operator would treat heads as numbers.
 */
static int refuse_strings(struct lower *L, const struct ir_node *n)
{
	static const char *const reshapes[] = {
		"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze",
	};
	const struct ir_graph *g = L->g;
	int k;

	if (lower_aicpu_strings(L, n))
		return 0;
	for (k = 0; k < (int)(sizeof(reshapes) / sizeof(reshapes[0])); k++)
		if (!strcmp(n->op_type, reshapes[k]))
			return 0;
	for (k = 0; k < n->nin + n->nout; k++) {
		int t = k < n->nin ? n->inputs[k] : n->outputs[k - n->nin];

		if (t >= 0 && g->tensors[t].dtype == OM_DTYPE_STRING)
			return lw_fail(L, "'%s' is a string tensor: a device operator cannot take string tensors; only StringNormalizer and Cast run on strings",
				       g->tensors[t].name);
	}
	return 0;
}

static int lower_node(struct lower *L, const struct ir_node *n)
{
	uint32_t first = L->b->nnodes;
	size_t nf = sizeof(lower_families) / sizeof(lower_families[0]), f;
	int ret = 1;

	if (refuse_strings(L, n))
		return -1;

	if (is_view_op(L, n))
		return lower_view(L, n);
	for (f = 0; ret == 1 && f < nf; f++)
		ret = lower_families[f](L, n);
	if (ret == 1)
		return lw_fail(L, "no lowering for this operator");
	if (ret)
		return ret;
	return lower_act(L, n, first);
}

int lower_graph(const struct ir_graph *g, struct om_build *b,
		struct lower_weights *w, struct lower_result *r,
		char *err, size_t errlen)
{
	struct lower L = { .g = g, .b = b, .w = w, .r = r, .err = err,
			   .errlen = errlen };
	struct lower_opstat *st;
	int i, ret = -1;

	memset(r, 0, sizeof(*r));
	r->first_node = b->nnodes;
	r->first_tensor = b->ntensors;
	if (w->n != g->ntensors) {
		snprintf(err, errlen, "the graph has %d tensors, its weight table %d",
			 g->ntensors, w->n);
		return -1;
	}
	L.loc = calloc((size_t)(g->ntensors ? g->ntensors : 1), sizeof(*L.loc));
	if (!L.loc) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < g->nnodes; i++) {
		const struct ir_node *n = &g->nodes[i];

		if (n->dead)
			continue;
		L.node = n;
		L.node_tasks = 0;
		if (lower_node(&L, n))
			goto out;
		st = opstat(r, n->op_type);
		if (st) {
			st->nodes++;
			st->tasks += L.node_tasks;
		}
	}
	L.node = NULL;
	for (i = 0; i < g->noutputs; i++)
		if (lower_output(&L, i))
			goto out;
	r->node_count = b->nnodes - r->first_node;
	if (!r->node_count) {
		snprintf(err, errlen, "the graph computes nothing (no task)");
		goto out;
	}
	ret = 0;
out:
	free(L.loc);
	return ret;
}

void lower_apply_plan(struct om_build *b, const struct lower_result *r)
{
	uint32_t i;
	int k;

	for (i = 0; i < r->tensor_count; i++) {
		k = r->tensor_buf[i];
		if (k >= 0)
			b->tensors[r->first_tensor + i].offset += r->bufs[k].offset;
	}
}
