// SPDX-License-Identifier: MIT
/*
 * Ops that map onto one driver operator each (or one per output) with no
 * aclnn entry point that fits: elementwise ops with ONNX's broadcasting,
 * Cast, Where, and the data movement
 * that is a strided view (Slice, Split, Expand) or one MOVE-family task
 * (Gather, Pad). Clip and the activations: lower_activation.c; Resize:
 * lower_window.c.
 * Broadcast inputs are given the output's rank with stride
 * 0 along the broadcast dims, so the task reads them as numpy would.
 */
#include <string.h>

#include "lower_int.h"

struct unary_map {
	const char *onnx;
	uint32_t op;
};

static const struct unary_map unary[] = {
	{ "Erf", DRM_VNPU_OP_ERF }, { "Reciprocal", DRM_VNPU_OP_RECIPROCAL },
	{ "Not", DRM_VNPU_OP_LOGICAL_NOT }, { "Floor", DRM_VNPU_OP_FLOOR },
	{ "Ceil", DRM_VNPU_OP_CEIL }, { "Sin", DRM_VNPU_OP_SIN },
	{ "Cos", DRM_VNPU_OP_COS }, { "Sign", DRM_VNPU_OP_SIGN },
	{ "IsNaN", DRM_VNPU_OP_ISNAN }, { "Softplus", DRM_VNPU_OP_SOFTPLUS },
	{ "GlobalMaxPool", DRM_VNPU_OP_GLOBAL_MAX_POOL },
};

static const struct unary_map binary[] = {
	{ "Equal", DRM_VNPU_OP_EQ }, { "Greater", DRM_VNPU_OP_GT },
	{ "Less", DRM_VNPU_OP_LT }, { "GreaterOrEqual", DRM_VNPU_OP_GE },
	{ "LessOrEqual", DRM_VNPU_OP_LE }, { "Max", DRM_VNPU_OP_MAXIMUM },
	{ "Min", DRM_VNPU_OP_MINIMUM }, { "And", DRM_VNPU_OP_LOGICAL_AND },
	{ "Or", DRM_VNPU_OP_LOGICAL_OR }, { "Xor", DRM_VNPU_OP_LOGICAL_XOR },
};

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

static int input(const struct ir_node *n, int i)
{
	return i < n->nin ? n->inputs[i] : -1;
}

/* IR tensor ti seen with rank r and shape out (numpy broadcasting). */
static int bview(struct lower *L, int ti, uint32_t r, const int64_t *out,
		 struct lw_view *v)
{
	struct om_tensor t;
	uint32_t k, shift;

	if (lw_ir_view(L, ti, v))
		return -1;
	t = v->t;
	if (t.rank > r)
		return lw_fail(L, "an input has more dims than the output");
	shift = r - t.rank;
	v->t.rank = r;
	for (k = 0; k < r; k++) {
		int64_t d = k < shift ? 1 : t.shape[k - shift];
		int64_t s = k < shift ? 0 : t.strides[k - shift];

		if (d != out[k] && d != 1)
			return lw_fail(L, "an input does not broadcast to the output");
		v->t.shape[k] = out[k];
		v->t.strides[k] = d == out[k] ? s : 0;
	}
	return 0;
}

/* A constant's values as int64 (INT64 or INT32 data); count or -1. */
static int const_ints(struct lower *L, int ti, int64_t *out, int max)
{
	const struct ir_tensor *t;
	int64_t n = 1;
	int i;

	if (ti < 0)
		return 0;
	t = &L->g->tensors[ti];
	if (!t->data)
		ir_need_value(L->g, ti);
	if (!t->data || t->rank < 0)
		return lw_fail(L, "input '%s' must be a constant",
			       t->name ? t->name : "");
	for (i = 0; i < t->rank; i++)
		n *= t->dims[i];
	if (n > max || (t->dtype != 9 && t->dtype != 3) ||
	    t->nbytes != (size_t)n * (t->dtype == 9 ? 8 : 4))
		return lw_fail(L, "input '%s' must hold at most %d integers",
			       t->name ? t->name : "", max);
	for (i = 0; i < n; i++) {
		if (t->dtype == 9) {
			memcpy(&out[i], (const char *)t->data + 8 * i, 8);
		} else {
			int32_t v;

			memcpy(&v, (const char *)t->data + 4 * i, 4);
			out[i] = v;
		}
	}
	return (int)n;
}

/* A constant float scalar (FLOAT data); 0, or -1 if it is not one. */
static int const_float(struct lower *L, int ti, float *f)
{
	const struct ir_tensor *t = &L->g->tensors[ti];

	if (!t->data)
		ir_need_value(L->g, ti);
	if (!t->data || t->dtype != 0 || t->nbytes != sizeof(float))
		return lw_fail(L, "input '%s' must be a constant float scalar",
			       t->name ? t->name : "");
	memcpy(f, t->data, sizeof(*f));
	return 0;
}

static int out_view(struct lower *L, const struct ir_node *n, int k,
		    struct lw_view *v)
{
	if (k >= n->nout || n->outputs[k] < 0)
		return lw_fail(L, "output %d is missing", k);
	return lw_ir_view(L, n->outputs[k], v);
}

static int lower_eltwise(struct lower *L, const struct ir_node *n,
			 uint32_t op, int nin, const struct drm_vnpu_op_attrs *at)
{
	struct lw_view v[4];
	int i;

	if (out_view(L, n, 0, &v[nin]))
		return -1;
	for (i = 0; i < nin; i++)
		if (input(n, i) < 0 ||
		    bview(L, n->inputs[i], v[nin].t.rank, v[nin].t.shape, &v[i]))
			return input(n, i) < 0 ? lw_fail(L, "input %d is missing", i) : -1;
	return lw_emit(L, op, v, (uint32_t)nin, 1, at);
}

/* For the other op files: see lower_int.h. */
int lw_bview(struct lower *L, int ti, uint32_t r, const int64_t *out,
	     struct lw_view *v)
{
	return bview(L, ti, r, out, v);
}

int lw_eltwise(struct lower *L, const struct ir_node *n, uint32_t op, int nin,
	       const struct drm_vnpu_op_attrs *at)
{
	return lower_eltwise(L, n, op, nin, at);
}

/* Slice (steps >= 1): the output is a strided view of the input. */
static int lower_slice(struct lower *L, const struct ir_node *n)
{
	int64_t st[OM_MAX_RANK], en[OM_MAX_RANK], ax[OM_MAX_RANK], sp[OM_MAX_RANK];
	struct lw_view v[2];
	int ns, ne, na, nsp, k, r;

	if (lw_ir_view(L, input(n, 0), &v[0]) || out_view(L, n, 0, &v[1]))
		return -1;
	r = (int)v[0].t.rank;
	ns = const_ints(L, input(n, 1), st, OM_MAX_RANK);
	ne = const_ints(L, input(n, 2), en, OM_MAX_RANK);
	na = input(n, 3) >= 0 ? const_ints(L, input(n, 3), ax, OM_MAX_RANK) : ns;
	nsp = input(n, 4) >= 0 ? const_ints(L, input(n, 4), sp, OM_MAX_RANK) : ns;
	if (ns < 0 || ne < 0 || na < 0 || nsp < 0)
		return -1;
	if (ne != ns || na != ns || nsp != ns)
		return lw_fail(L, "starts, ends, axes and steps differ in length");
	for (k = 0; k < ns; k++) {
		int64_t a = input(n, 3) >= 0 ? ax[k] : k;
		int64_t step = input(n, 4) >= 0 ? sp[k] : 1;
		int64_t dim, s, e, cnt;

		if (a < 0)
			a += r;
		if (a < 0 || a >= r || step < 1)
			return lw_fail(L, "axis %lld or step %lld is not supported",
				       (long long)a, (long long)step);
		dim = v[0].t.shape[a];
		s = st[k] < 0 ? st[k] + dim : st[k];
		e = en[k] < 0 ? en[k] + dim : en[k];
		s = s < 0 ? 0 : s > dim ? dim : s;
		e = e < 0 ? 0 : e > dim ? dim : e;
		cnt = e > s ? (e - s + step - 1) / step : 0;
		v[0].t.offset += (uint64_t)(s * v[0].t.strides[a]) *
				 ir_dtype_size((int)v[0].t.dtype);
		v[0].t.shape[a] = cnt;
		v[0].t.strides[a] *= step;
	}
	if (memcmp(v[0].t.shape, v[1].t.shape, sizeof(v[0].t.shape)))
		return lw_fail(L, "the slice does not give the inferred shape");
	return lw_emit(L, DRM_VNPU_OP_STRIDED_COPY, v, 1, 1, NULL);
}

/* Split: each output a strided copy of its part of the input. */
static int lower_split(struct lower *L, const struct ir_node *n)
{
	int64_t axis = ir_attr_int(n, "axis", 0), off = 0;
	struct lw_view in, v[2];
	int k, r;

	if (lw_ir_view(L, input(n, 0), &in))
		return -1;
	r = (int)in.t.rank;
	if (axis < 0)
		axis += r;
	if (axis < 0 || axis >= r)
		return lw_fail(L, "axis is outside the rank");
	for (k = 0; k < n->nout; k++) {
		if (n->outputs[k] < 0)
			continue;
		if (out_view(L, n, k, &v[1]))
			return -1;
		v[0] = in;
		v[0].t.shape[axis] = v[1].t.shape[axis];
		v[0].t.offset += (uint64_t)(off * in.t.strides[axis]) *
				 ir_dtype_size((int)in.t.dtype);
		off += v[1].t.shape[axis];
		if (off > in.t.shape[axis])
			return lw_fail(L, "the outputs are longer than the input");
		if (lw_emit(L, DRM_VNPU_OP_STRIDED_COPY, v, 1, 1, NULL))
			return -1;
	}
	return 0;
}

/* Gather: INDEX_SELECT with the indices as a vector. */
static int lower_gather(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];
	int64_t axis = ir_attr_int(n, "axis", 0), cnt = 1;
	uint32_t k, r, j = 0;

	if (lw_ir_view(L, input(n, 0), &v[0]) ||
	    lw_ir_view(L, input(n, 1), &v[1]) || out_view(L, n, 0, &v[2]))
		return -1;
	r = v[0].t.rank;
	if (axis < 0)
		axis += r;
	if (axis < 0 || axis >= (int64_t)r)
		return lw_fail(L, "axis is outside the rank");
	for (k = 0; k < v[1].t.rank; k++)
		cnt *= v[1].t.shape[k];
	v[1].t.rank = 1;
	memset(v[1].t.shape, 0, sizeof(v[1].t.shape));
	memset(v[1].t.strides, 0, sizeof(v[1].t.strides));
	v[1].t.shape[0] = cnt;
	v[1].t.strides[0] = 1;
	/* the output's bytes as x's dims with the axis replaced by cnt */
	v[2].t.rank = r;
	memset(v[2].t.shape, 0, sizeof(v[2].t.shape));
	memset(v[2].t.strides, 0, sizeof(v[2].t.strides));
	for (k = 0; k < r; k++)
		v[2].t.shape[k] = k == axis ? cnt : v[0].t.shape[k];
	for (k = r, cnt = 1; k-- > 0; j++) {
		v[2].t.strides[k] = cnt;
		cnt *= v[2].t.shape[k];
	}
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	return lw_emit(L, DRM_VNPU_OP_INDEX_SELECT, v, 2, 1, &at);
}

static int lower_pad(struct lower *L, const struct ir_node *n)
{
	const struct ir_attr *ma = ir_attr(n, "mode"), *pa = ir_attr(n, "pads");
	struct drm_vnpu_op_attrs at;
	int64_t p[2 * OM_MAX_RANK];
	struct lw_view v[2];
	int np, k, r;
	float f = 0.0f;

	if (lw_ir_view(L, input(n, 0), &v[0]) || out_view(L, n, 0, &v[1]))
		return -1;
	r = (int)v[0].t.rank;
	if (pa) {
		np = (int)pa->count;
		if (np > 2 * OM_MAX_RANK)
			return lw_fail(L, "too many pads");
		memcpy(p, pa->ints, (size_t)np * sizeof(int64_t));
	} else {
		np = const_ints(L, input(n, 1), p, 2 * OM_MAX_RANK);
		if (np < 0)
			return -1;
	}
	if (np != 2 * r || input(n, 3) >= 0)
		return lw_fail(L, "pads must give every dim (no axes input)");
	memset(&at, 0, sizeof(at));
	for (k = 0; k < r; k++) {
		if (p[k] < 0 || p[k + r] < 0)
			return lw_fail(L, "negative pads are not supported");
		at.ints[2 * k] = p[k];
		at.ints[2 * k + 1] = p[k + r];
	}
	if (!ma || !ma->s || !strcmp(ma->s, "constant"))
		at.ints[16] = 0;
	else if (!strcmp(ma->s, "reflect"))
		at.ints[16] = 1;
	else if (!strcmp(ma->s, "edge"))
		at.ints[16] = 2;
	else
		return lw_fail(L, "mode '%s' is not supported", ma->s);
	if (input(n, 2) >= 0 && const_float(L, n->inputs[2], &f))
		return -1;
	if (ir_attr(n, "value"))
		f = ir_attr_float(n, "value", 0.0f);
	lw_set_float(&at, 0, f);
	return lw_emit(L, DRM_VNPU_OP_PAD, v, 1, 1, &at);
}

int lower_simple(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	size_t i;

	if (n->domain && *n->domain)
		return 1;
	for (i = 0; i < sizeof(unary) / sizeof(unary[0]); i++)
		if (is(n, unary[i].onnx))
			return lower_eltwise(L, n, unary[i].op, 1, NULL);
	for (i = 0; i < sizeof(binary) / sizeof(binary[0]); i++)
		if (is(n, binary[i].onnx)) {
			if (n->nin != 2)
				return lw_fail(L, "takes two inputs here");
			return lower_eltwise(L, n, binary[i].op, 2, NULL);
		}
	if (is(n, "LeakyRelu")) {
		memset(&at, 0, sizeof(at));
		lw_set_float(&at, 0, ir_attr_float(n, "alpha", 0.01f));
		return lower_eltwise(L, n, DRM_VNPU_OP_LEAKY_RELU, 1, &at);
	}
	if (is(n, "Cast"))
		return lower_eltwise(L, n, DRM_VNPU_OP_CAST, 1, NULL);
	if (is(n, "Where"))
		return lower_eltwise(L, n, DRM_VNPU_OP_WHERE, 3, NULL);
	if (is(n, "Expand"))
		return lower_eltwise(L, n, DRM_VNPU_OP_STRIDED_COPY, 1, NULL);
	if (is(n, "Slice"))
		return lower_slice(L, n);
	if (is(n, "Split"))
		return lower_split(L, n);
	if (is(n, "Gather"))
		return lower_gather(L, n);
	if (is(n, "Pad"))
		return lower_pad(L, n);
	return 1;
}
