// SPDX-License-Identifier: MIT
/*
 * Unary math and activations with parameters: one driver operator each
 * (the TAN .. HARD_SWISH family, PRELU), ONNX's attribute defaults turned
 * into the operator's floats[]; Clip with constant bounds as CLAMP's
 * attributes and computed bounds as MAXIMUM / MINIMUM; Dropout when its
 * mask is read or training mode may be on, as DROPOUT.
 */
#include <string.h>

#include "lower_int.h"

/* ONNX op -> operator, with up to two float attributes and defaults. */
struct act_map {
	const char *onnx;
	uint32_t op;
	const char *attr[3];	/* NULL: floats[k] is always dflt[k] */
	float dflt[3];
	int nf;			/* floats[] the operator reads */
};

static const struct act_map acts[] = {
	{ "Tan", DRM_VNPU_OP_TAN, { NULL }, { 0 }, 0 },
	{ "Asin", DRM_VNPU_OP_ASIN, { NULL }, { 0 }, 0 },
	{ "Acos", DRM_VNPU_OP_ACOS, { NULL }, { 0 }, 0 },
	{ "Atan", DRM_VNPU_OP_ATAN, { NULL }, { 0 }, 0 },
	{ "Sinh", DRM_VNPU_OP_SINH, { NULL }, { 0 }, 0 },
	{ "Cosh", DRM_VNPU_OP_COSH, { NULL }, { 0 }, 0 },
	{ "Asinh", DRM_VNPU_OP_ASINH, { NULL }, { 0 }, 0 },
	{ "Acosh", DRM_VNPU_OP_ACOSH, { NULL }, { 0 }, 0 },
	{ "Atanh", DRM_VNPU_OP_ATANH, { NULL }, { 0 }, 0 },
	{ "Softsign", DRM_VNPU_OP_SOFTSIGN, { NULL }, { 0 }, 0 },
	{ "HardSwish", DRM_VNPU_OP_HARD_SWISH, { NULL }, { 0 }, 0 },
	/* ONNX's Elu has no scales: both stay 1 */
	{ "Elu", DRM_VNPU_OP_ELU, { "alpha" }, { 1.0f, 1.0f, 1.0f }, 3 },
	{ "Selu", DRM_VNPU_OP_SELU, { "alpha", "gamma" },
	  { 1.67326319217681884765625f, 1.05070102214813232421875f }, 2 },
	{ "Celu", DRM_VNPU_OP_CELU, { "alpha" }, { 1.0f }, 1 },
	{ "ThresholdedRelu", DRM_VNPU_OP_THRESHOLDED_RELU, { "alpha" }, { 1.0f },
	  1 },
	{ "Shrink", DRM_VNPU_OP_SHRINK, { "lambd", "bias" }, { 0.5f, 0.0f }, 2 },
	{ "HardSigmoid", DRM_VNPU_OP_HARD_SIGMOID, { "alpha", "beta" },
	  { 0.2f, 0.5f }, 2 },
};

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

static int input(const struct ir_node *n, int i)
{
	return i < n->nin ? n->inputs[i] : -1;
}

/* IR tensor ti read with the rank and shape of out (numpy broadcasting). */
static int broadcast_view(struct lower *L, int ti, const struct lw_view *out,
			  struct lw_view *v)
{
	return lw_bview(L, ti, out->t.rank, out->t.shape, v);
}

static int out_view(struct lower *L, const struct ir_node *n, int k,
		    struct lw_view *v)
{
	if (k >= n->nout || n->outputs[k] < 0)
		return lw_fail(L, "output %d is missing", k);
	return lw_ir_view(L, n->outputs[k], v);
}

/* Output 0 from inputs 0 .. nin-1, each broadcast to the output. */
static int emit_eltwise(struct lower *L, const struct ir_node *n, uint32_t op,
			int nin, const struct drm_vnpu_op_attrs *at)
{
	struct lw_view v[3];
	int i;

	if (out_view(L, n, 0, &v[nin]))
		return -1;
	for (i = 0; i < nin; i++) {
		if (input(n, i) < 0)
			return lw_fail(L, "input %d is missing", i);
		if (broadcast_view(L, n->inputs[i], &v[nin], &v[i]))
			return -1;
	}
	return lw_emit(L, op, v, (uint32_t)nin, 1, at);
}

static int lower_mapped(struct lower *L, const struct ir_node *n,
			const struct act_map *m)
{
	struct drm_vnpu_op_attrs at;
	int k;

	memset(&at, 0, sizeof(at));
	for (k = 0; k < m->nf; k++)
		lw_set_float(&at, k, m->attr[k] ? ir_attr_float(n, m->attr[k], m->dflt[k]) :
			     m->dflt[k]);
	return emit_eltwise(L, n, m->op, 1, m->nf ? &at : NULL);
}

/*
 * A Clip bound that is a constant scalar held exactly by an fp32
 * attribute; false for a computed bound or one fp32 would round (a big
 * int64), which then goes through MAXIMUM / MINIMUM as a tensor.
 */
static bool bound_as_attr(struct lower *L, int ti, float *f)
{
	const struct ir_tensor *t = &L->g->tensors[ti];
	double d;

	if (!t->data || ir_numel(t) != 1)
		return false;
	d = ir_get_f64(t, 0);
	*f = (float)d;
	if (d != d)
		return true;
	if ((double)*f != d)
		return false;
	/* int64 beyond 2^53 is not exact in the double either */
	return ir_dtype_is_float(t->dtype) ||
	       (ir_get_i64(t, 0) == (int64_t)d);
}

static int lower_clip(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];
	const struct ir_attr *a;
	int tensor_bound[2] = { -1, -1 };
	int k, ti;
	float f;

	memset(&at, 0, sizeof(at));
	if (L->g->opset < 11) {
		static const char *const names[2] = { "min", "max" };

		for (k = 0; k < 2; k++) {
			a = ir_attr(n, names[k]);
			if (a) {
				lw_set_float(&at, k, a->f);
				at.ints[0] |= 1 << k;
			}
		}
	} else {
		for (k = 0; k < 2; k++) {
			ti = input(n, k + 1);
			if (ti < 0)
				continue;
			if (bound_as_attr(L, ti, &f)) {
				lw_set_float(&at, k, f);
				at.ints[0] |= 1 << k;
			} else {
				tensor_bound[k] = ti;
			}
		}
	}
	if (out_view(L, n, 0, &v[2]) || broadcast_view(L, input(n, 0), &v[2], &v[0]))
		return -1;
	/* constant bounds (or, with none at all, a plain copy) into y first */
	if (at.ints[0] || (tensor_bound[0] < 0 && tensor_bound[1] < 0)) {
		v[1] = v[2];
		if (lw_emit(L, DRM_VNPU_OP_CLAMP, v, 1, 1, &at))
			return -1;
		v[0] = v[2];
	}
	/* then each computed bound: max(., lo), then min(., hi), into y */
	for (k = 0; k < 2; k++) {
		if (tensor_bound[k] < 0)
			continue;
		if (broadcast_view(L, tensor_bound[k], &v[2], &v[1]))
			return -1;
		if (lw_emit(L, k ? DRM_VNPU_OP_MINIMUM : DRM_VNPU_OP_MAXIMUM, v, 2,
			    1, NULL))
			return -1;
		v[0] = v[2];
	}
	return 0;
}

/* PRelu; an opset-6 per-channel slope [C] is read as [C, 1, ...] at dim 1. */
static int lower_prelu(struct lower *L, const struct ir_node *n)
{
	struct lw_view v[3];
	uint32_t k;
	int64_t st;

	if (!ir_prelu_per_channel(L->g, n))
		return emit_eltwise(L, n, DRM_VNPU_OP_PRELU, 2, NULL);
	if (out_view(L, n, 0, &v[2]) || lw_ir_view(L, n->inputs[0], &v[0]) ||
	    lw_ir_view(L, n->inputs[1], &v[1]))
		return -1;
	st = v[1].t.strides[0];
	v[1].t.rank = v[2].t.rank;
	for (k = 0; k < v[2].t.rank; k++) {
		v[1].t.shape[k] = v[2].t.shape[k];
		v[1].t.strides[k] = k == 1 ? st : 0;
	}
	return lw_emit(L, DRM_VNPU_OP_PRELU, v, 2, 1, NULL);
}

/* A scalar weight of one dtype for a Dropout input the model leaves out. */
static int weight_scalar(struct lower *L, const void *p, size_t size,
			 uint32_t dtype, struct lw_view *v)
{
	int64_t off = om_add_weight(L->b, p, size);

	if (off < 0)
		return lw_fail(L, "out of memory");
	memset(v, 0, sizeof(*v));
	v->buf = -1;
	v->t.loc = OM_LOC_WEIGHT;
	v->t.offset = (uint64_t)off;
	v->t.dtype = dtype;
	v->t.rank = 0;
	return 0;
}

/*
 * DROPOUT (x, ratio, training_mode) -> (y, mask); a missing ratio is
 * ONNX's 0.5, a missing training_mode false, an unread mask a scratch
 * buffer. seed is passed on (the device's generator is its own: random
 * masks match no other implementation, ratio 0 and inference are exact).
 */
static int lower_dropout(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[5];
	const float half = 0.5f;
	const uint8_t off = 0;
	uint64_t bytes;
	uint32_t k;

	if (lw_ir_view(L, input(n, 0), &v[0]) || out_view(L, n, 0, &v[3]))
		return -1;
	if (input(n, 1) >= 0) {
		if (lw_ir_view(L, n->inputs[1], &v[1]))
			return -1;
	} else if (weight_scalar(L, &half, sizeof(half), 0, &v[1])) {
		return -1;
	}
	if (input(n, 2) >= 0) {
		if (lw_ir_view(L, n->inputs[2], &v[2]))
			return -1;
	} else if (weight_scalar(L, &off, 1, DRM_VNPU_DTYPE_BOOL, &v[2])) {
		return -1;
	}
	if (n->nout > 1 && n->outputs[1] >= 0) {
		if (out_view(L, n, 1, &v[4]))
			return -1;
	} else {
		v[4] = v[3];
		for (k = 0, bytes = 1; k < v[3].t.rank; k++)
			bytes *= (uint64_t)v[3].t.shape[k];
		v[4].buf = lw_new_buf(L, bytes ? bytes : 1);
		if (v[4].buf < 0)
			return -1;
		v[4].t.loc = OM_LOC_ARENA;
		v[4].t.index = 0;
		v[4].t.offset = 0;
		v[4].t.name = 0;
		v[4].t.dtype = DRM_VNPU_DTYPE_BOOL;
	}
	memset(&at, 0, sizeof(at));
	at.ints[0] = ir_attr_int(n, "seed", 0);
	return lw_emit(L, DRM_VNPU_OP_DROPOUT, v, 3, 2, &at);
}

int lower_activation(struct lower *L, const struct ir_node *n)
{
	size_t i;

	if (n->domain && *n->domain)
		return 1;
	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (is(n, acts[i].onnx))
			return lower_mapped(L, n, &acts[i]);
	if (is(n, "PRelu"))
		return lower_prelu(L, n);
	if (is(n, "Clip"))
		return lower_clip(L, n);
	if (is(n, "Dropout"))
		return lower_dropout(L, n);
	return 1;
}
