// SPDX-License-Identifier: MIT
/*
 * Reductions, arg-reductions, scans, masks and Einsum as driver tasks:
 * Reduce* (axes as an attribute or a constant input, keepdims,
 * noop_with_empty_axes) and ArgMax/ArgMin map to one REDUCE-family task,
 * CumSum, Trilu and Hardmax to their own operator, and Einsum to a
 * product of strided views (MUL) followed by a REDUCE_SUM over the
 * summed labels, or a single strided copy or reduction for one operand.
 */
#include <string.h>

#include "einsum.h"
#include "lower_int.h"

/* The largest scratch product of an Einsum (all labels at once). */
#define EINSUM_MAX_BYTES	(1ULL << 32)

struct reduce_map {
	const char *onnx;
	uint32_t op;
};

static const struct reduce_map reduces[] = {
	{ "ReduceSum", DRM_VNPU_OP_REDUCE_SUM },
	{ "ReduceMean", DRM_VNPU_OP_REDUCE_MEAN },
	{ "ReduceMax", DRM_VNPU_OP_REDUCE_MAX },
	{ "ReduceMin", DRM_VNPU_OP_REDUCE_MIN },
	{ "ReduceProd", DRM_VNPU_OP_REDUCE_PROD },
	{ "ReduceL1", DRM_VNPU_OP_REDUCE_L1 },
	{ "ReduceL2", DRM_VNPU_OP_REDUCE_L2 },
	{ "ReduceLogSum", DRM_VNPU_OP_REDUCE_LOG_SUM },
	{ "ReduceLogSumExp", DRM_VNPU_OP_REDUCE_LOG_SUM_EXP },
	{ "ReduceSumSquare", DRM_VNPU_OP_REDUCE_SUM_SQUARE },
};

static int in_of(const struct ir_node *n, int i)
{
	return i < n->nin ? n->inputs[i] : -1;
}

static int out_of(struct lower *L, const struct ir_node *n, struct lw_view *v)
{
	if (n->nout < 1 || n->outputs[0] < 0)
		return lw_fail(L, "the output is missing");
	return lw_ir_view(L, n->outputs[0], v);
}

/* A constant integer input (axes, axis, k); its count or -1. */
static int const_input(struct lower *L, const struct ir_node *n, int k,
		       int64_t *out, int max)
{
	int t = in_of(n, k), c;

	if (t < 0)
		return 0;
	c = ir_const_ints(L->g, t, out, max);
	if (c < 0)
		return lw_fail(L, "input '%s' must be a constant of at most %d integers",
			       L->g->tensors[t].name ? L->g->tensors[t].name : "",
			       max);
	return c;
}

static int lower_reduce_op(struct lower *L, const struct ir_node *n,
			   uint32_t op)
{
	const struct ir_attr *a = ir_attr(n, "axes");
	struct drm_vnpu_op_attrs at;
	int64_t axes[OM_MAX_RANK];
	struct lw_view v[2];
	int k, na, rank;

	if (lw_ir_view(L, in_of(n, 0), &v[0]) || out_of(L, n, &v[1]))
		return -1;
	rank = (int)v[0].t.rank;
	if (a) {
		if (a->count > OM_MAX_RANK)
			return lw_fail(L, "too many axes");
		na = (int)a->count;
		memcpy(axes, a->ints, (size_t)na * sizeof(int64_t));
	} else {
		na = const_input(L, n, 1, axes, OM_MAX_RANK);
		if (na < 0)
			return -1;
	}
	/* No axes with noop_with_empty_axes: the output is the input. */
	if (!na && ir_attr_int(n, "noop_with_empty_axes", 0))
		return lw_emit(L, DRM_VNPU_OP_STRIDED_COPY, v, 1, 1, NULL);
	memset(&at, 0, sizeof(at));
	for (k = 0; k < na; k++) {
		int64_t x = axes[k] < 0 ? axes[k] + rank : axes[k];

		if (x < 0 || x >= rank)
			return lw_fail(L, "axis %lld is outside rank %d",
				       (long long)axes[k], rank);
		at.ints[0] |= 1LL << x;
	}
	if (!na)
		at.ints[0] = (1LL << rank) - 1;
	at.ints[1] = ir_attr_int(n, "keepdims", 1) != 0;
	/* A reduction over nothing (a scalar) copies, as numpy does. */
	if (!at.ints[0])
		return lw_emit(L, DRM_VNPU_OP_STRIDED_COPY, v, 1, 1, NULL);
	return lw_emit(L, op, v, 1, 1, &at);
}

static int lower_arg(struct lower *L, const struct ir_node *n, uint32_t op)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];
	int64_t axis = ir_attr_int(n, "axis", 0);
	int rank;

	if (lw_ir_view(L, in_of(n, 0), &v[0]) || out_of(L, n, &v[1]))
		return -1;
	rank = (int)v[0].t.rank;
	if (axis < 0)
		axis += rank;
	if (axis < 0 || axis >= rank)
		return lw_fail(L, "axis is outside the rank");
	memset(&at, 0, sizeof(at));
	at.ints[0] = 1LL << axis;
	at.ints[1] = ir_attr_int(n, "keepdims", 1) != 0;
	at.ints[2] = ir_attr_int(n, "select_last_index", 0) != 0;
	return lw_emit(L, op, v, 1, 1, &at);
}

static int lower_cumsum(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];
	int64_t axis;
	int c;

	if (lw_ir_view(L, in_of(n, 0), &v[0]) || out_of(L, n, &v[1]))
		return -1;
	c = const_input(L, n, 1, &axis, 1);
	if (c < 0)
		return -1;
	if (c != 1)
		return lw_fail(L, "the axis input is missing");
	if (axis < 0)
		axis += v[0].t.rank;
	if (axis < 0 || axis >= (int64_t)v[0].t.rank)
		return lw_fail(L, "axis is outside the rank");
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	at.ints[1] = ir_attr_int(n, "exclusive", 0) != 0;
	at.ints[2] = ir_attr_int(n, "reverse", 0) != 0;
	return lw_emit(L, DRM_VNPU_OP_CUMSUM, v, 1, 1, &at);
}

static int lower_trilu(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];
	int64_t k = 0;

	if (lw_ir_view(L, in_of(n, 0), &v[0]) || out_of(L, n, &v[1]))
		return -1;
	if (const_input(L, n, 1, &k, 1) < 0)
		return -1;
	memset(&at, 0, sizeof(at));
	at.ints[0] = ir_attr_int(n, "upper", 1) != 0;
	at.ints[1] = k;
	return lw_emit(L, DRM_VNPU_OP_TRILU, v, 1, 1, &at);
}

/* Both views as [outer, inner] split at axis (contiguous tensors). */
static void as_2d(struct lw_view *v, int axis)
{
	int64_t outer = 1, inner = 1;
	uint32_t d;

	for (d = 0; d < v->t.rank; d++) {
		if ((int)d < axis)
			outer *= v->t.shape[d];
		else
			inner *= v->t.shape[d];
	}
	memset(v->t.shape, 0, sizeof(v->t.shape));
	memset(v->t.strides, 0, sizeof(v->t.strides));
	v->t.rank = 2;
	v->t.shape[0] = outer;
	v->t.shape[1] = inner;
	v->t.strides[0] = inner;
	v->t.strides[1] = 1;
}

/*
 * Hardmax: along one axis from opset 13; before it, over the input
 * coerced to 2-D at axis (the flattened dims from axis on are one row).
 */
static int lower_hardmax(struct lower *L, const struct ir_node *n)
{
	bool coerce = L->g->opset < 13;
	int64_t axis = ir_attr_int(n, "axis", coerce ? 1 : -1);
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];

	if (lw_ir_view(L, in_of(n, 0), &v[0]) || out_of(L, n, &v[1]))
		return -1;
	if (axis < 0)
		axis += v[0].t.rank;
	if (axis < 0 || axis >= (int64_t)v[0].t.rank)
		return lw_fail(L, "axis is outside the rank");
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	if (coerce) {
		as_2d(&v[0], (int)axis);
		as_2d(&v[1], (int)axis);
		at.ints[0] = 1;
	}
	return lw_emit(L, DRM_VNPU_OP_HARDMAX, v, 1, 1, &at);
}

/*
 * Operand i of an einsum seen over all its labels (output labels first):
 * a label's stride is the sum of the strides of the operand's dims with
 * that label (a diagonal), 0 where the operand lacks it or broadcasts.
 */
static void einsum_view(const struct einsum *e, int i, struct lw_view *v)
{
	struct om_tensor t = v->t;
	int a, d;

	memset(v->t.shape, 0, sizeof(v->t.shape));
	memset(v->t.strides, 0, sizeof(v->t.strides));
	v->t.rank = (uint32_t)e->nall;
	for (a = 0; a < e->nall; a++) {
		v->t.shape[a] = e->size[e->all[a]];
		for (d = 0; d < e->rank[i]; d++)
			if (e->lab[i][d] == e->all[a] && t.shape[d] != 1)
				v->t.strides[a] += t.strides[d];
	}
}

/* All of a product's labels summed over the ones not in the output. */
static int einsum_finish(struct lower *L, const struct einsum *e,
			 struct lw_view *v)
{
	struct drm_vnpu_op_attrs at;
	int a;

	if (e->nall == e->nout)
		return lw_emit(L, DRM_VNPU_OP_STRIDED_COPY, v, 1, 1, NULL);
	memset(&at, 0, sizeof(at));
	for (a = e->nout; a < e->nall; a++)
		at.ints[0] |= 1LL << a;
	return lw_emit(L, DRM_VNPU_OP_REDUCE_SUM, v, 1, 1, &at);
}

static int lower_einsum(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *ops[EINSUM_MAX_OPS];
	const struct ir_attr *eq = ir_attr(n, "equation");
	struct lw_view v[3], prod;
	struct einsum e;
	char msg[192];
	uint64_t elems;
	int i, a;

	if (n->nin < 1 || n->nin > EINSUM_MAX_OPS || !eq || !eq->s)
		return lw_fail(L, "needs an equation and 1 to %d inputs",
			       EINSUM_MAX_OPS);
	for (i = 0; i < n->nin; i++) {
		if (in_of(n, i) < 0)
			return lw_fail(L, "input %d is missing", i);
		ops[i] = &L->g->tensors[n->inputs[i]];
	}
	if (einsum_parse(eq->s, n->nin, ops, &e, msg, sizeof(msg)))
		return lw_fail(L, "%s", msg);
	if (out_of(L, n, &v[2]))
		return -1;
	if (lw_ir_view(L, n->inputs[0], &v[0]))
		return -1;
	einsum_view(&e, 0, &v[0]);
	if (n->nin == 1) {
		v[1] = v[2];
		return einsum_finish(L, &e, v);
	}
	/* The product of every operand over all labels, then the sum. */
	prod = v[2];
	if (e.nall != e.nout) {
		prod.t.rank = (uint32_t)e.nall;
		elems = ir_dtype_size((int)prod.t.dtype);
		for (a = e.nall; a-- > 0;) {
			prod.t.shape[a] = e.size[e.all[a]];
			prod.t.strides[a] = (int64_t)(elems /
					    ir_dtype_size((int)prod.t.dtype));
			if (__builtin_mul_overflow(elems, (uint64_t)e.size[e.all[a]],
						   &elems) || elems > EINSUM_MAX_BYTES)
				return lw_fail(L, "the product of every operand needs more than %llu bytes",
					       (unsigned long long)EINSUM_MAX_BYTES);
		}
		prod.buf = lw_new_buf(L, elems);
		if (prod.buf < 0)
			return -1;
		prod.t.loc = OM_LOC_ARENA;
		prod.t.index = 0;
		prod.t.offset = 0;
		prod.t.name = 0;
	}
	for (i = 1; i < n->nin; i++) {
		if (i > 1)
			v[0] = prod;
		if (lw_ir_view(L, n->inputs[i], &v[1]))
			return -1;
		einsum_view(&e, i, &v[1]);
		v[2] = prod;
		if (lw_emit(L, DRM_VNPU_OP_MUL, v, 2, 1, NULL))
			return -1;
	}
	if (e.nall == e.nout)
		return 0;
	v[0] = prod;
	if (out_of(L, n, &v[1]))
		return -1;
	return einsum_finish(L, &e, v);
}

int lower_reductions(struct lower *L, const struct ir_node *n)
{
	size_t i;

	if (n->domain && *n->domain)
		return 1;
	for (i = 0; i < sizeof(reduces) / sizeof(reduces[0]); i++)
		if (!strcmp(n->op_type, reduces[i].onnx))
			return lower_reduce_op(L, n, reduces[i].op);
	if (!strcmp(n->op_type, "ArgMax"))
		return lower_arg(L, n, DRM_VNPU_OP_ARGMAX);
	if (!strcmp(n->op_type, "ArgMin"))
		return lower_arg(L, n, DRM_VNPU_OP_ARGMIN);
	if (!strcmp(n->op_type, "CumSum"))
		return lower_cumsum(L, n);
	if (!strcmp(n->op_type, "Trilu"))
		return lower_trilu(L, n);
	if (!strcmp(n->op_type, "Hardmax"))
		return lower_hardmax(L, n);
	if (!strcmp(n->op_type, "Einsum"))
		return lower_einsum(L, n);
	return 1;
}
