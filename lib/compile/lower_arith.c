// SPDX-License-Identifier: MIT
/*
 * Integer, logic and mixed-type arithmetic as driver tasks: Mod, BitShift,
 * IsInf, Round, CastLike; Max/Min/Sum/Mean over any number of inputs (one
 * task per extra input, accumulating in the output); Div on integers
 * (truncating, where aclnnDiv divides as floats); Pow whose exponent has
 * another type (converted first, or both sides through DOUBLE for an
 * integer base, as numpy computes it); and Add/Sub/Mul/Div/Pow in the
 * dtypes the aclnn layer does not take (DOUBLE, INT16, UINT16, UINT32,
 * UINT64), which the device computes directly.
 */
#include <string.h>

#include "lower_int.h"

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

static bool is_fp(uint32_t dt)
{
	return dt == DRM_VNPU_DTYPE_FLOAT || dt == DRM_VNPU_DTYPE_FLOAT16 ||
	       dt == DRM_VNPU_DTYPE_BF16 || dt == DRM_VNPU_DTYPE_DOUBLE;
}

/* The dtypes the aclnn layer's type promotion does not know. */
static bool aclnn_lacks(uint32_t dt)
{
	return dt == DRM_VNPU_DTYPE_DOUBLE || dt == DRM_VNPU_DTYPE_INT16 ||
	       dt == DRM_VNPU_DTYPE_UINT16 || dt == DRM_VNPU_DTYPE_UINT32 ||
	       dt == DRM_VNPU_DTYPE_UINT64;
}

static int dtype_of(struct lower *L, int ti)
{
	return L->g->tensors[ti].dtype;
}

/* A fresh contiguous arena buffer shaped like @like, of dtype @dt. */
static int tmp_view(struct lower *L, const struct lw_view *like, uint32_t dt,
		    struct lw_view *v)
{
	uint64_t bytes = ir_dtype_size((int)dt);
	int64_t s = 1;
	uint32_t k;

	*v = *like;
	for (k = 0; k < v->t.rank; k++)
		bytes *= (uint64_t)v->t.shape[k];
	v->buf = lw_new_buf(L, bytes ? bytes : 1);
	if (v->buf < 0)
		return -1;
	v->t.loc = OM_LOC_ARENA;
	v->t.index = 0;
	v->t.offset = 0;
	v->t.name = 0;
	v->t.dtype = dt;
	for (k = v->t.rank; k-- > 0;) {
		v->t.strides[k] = s;
		s *= v->t.shape[k];
	}
	return 0;
}

/* Input k of n broadcast to the output view o. */
static int in_view(struct lower *L, const struct ir_node *n, int k,
		   const struct lw_view *o, struct lw_view *v)
{
	if (k >= n->nin || n->inputs[k] < 0)
		return lw_fail(L, "input %d is missing", k);
	return lw_bview(L, n->inputs[k], o->t.rank, o->t.shape, v);
}

static int out_view(struct lower *L, const struct ir_node *n,
		    struct lw_view *o)
{
	if (n->nout < 1 || n->outputs[0] < 0)
		return lw_fail(L, "output 0 is missing");
	return lw_ir_view(L, n->outputs[0], o);
}

/* x (a view) converted to dtype dt in a fresh buffer shaped like o. */
static int cast_to(struct lower *L, const struct lw_view *x,
		   const struct lw_view *o, uint32_t dt, struct lw_view *res)
{
	struct lw_view v[2];

	if (tmp_view(L, o, dt, res))
		return -1;
	v[0] = *x;
	v[1] = *res;
	return lw_emit(L, DRM_VNPU_OP_CAST, v, 1, 1, NULL);
}

/* The integer n in dtype dt's bytes (n small: exact in every float type). */
static size_t small_int_bytes(uint32_t dt, int n, void *buf)
{
	float f = (float)n;
	double d = n;
	uint32_t bits;
	uint16_t h;
	int e = 0;

	switch (dt) {
	case DRM_VNPU_DTYPE_DOUBLE:
		memcpy(buf, &d, 8);
		return 8;
	case DRM_VNPU_DTYPE_BF16:	/* the top half of the fp32 bits */
		memcpy(&bits, &f, 4);
		h = (uint16_t)(bits >> 16);
		memcpy(buf, &h, 2);
		return 2;
	case DRM_VNPU_DTYPE_FLOAT16:	/* 1 <= n < 2048 */
		while ((n >> (e + 1)) > 0)
			e++;
		h = (uint16_t)(((e + 15) << 10) | ((n << (10 - e)) & 0x3ff));
		memcpy(buf, &h, 2);
		return 2;
	default:
		memcpy(buf, &f, 4);
		return 4;
	}
}

/*
 * Max/Min/Sum/Mean: the first two inputs into the output, then each
 * further input folded into it in place; one input is a copy. Mean
 * divides the sum by the count at the end.
 */
static int lower_variadic(struct lower *L, const struct ir_node *n, uint32_t op)
{
	struct lw_view o, v[3];
	unsigned char c[8];
	int64_t off;
	int k;

	if (out_view(L, n, &o))
		return -1;
	if (n->nin == 1) {
		if (lw_eltwise(L, n, DRM_VNPU_OP_STRIDED_COPY, 1, NULL))
			return -1;
	} else {
		if (lw_eltwise(L, n, op, 2, NULL))
			return -1;
		for (k = 2; k < n->nin; k++) {
			v[0] = o;
			if (in_view(L, n, k, &o, &v[1]))
				return -1;
			v[2] = o;
			if (lw_emit(L, op, v, 2, 1, NULL))
				return -1;
		}
	}
	if (!is(n, "Mean") || n->nin == 1)
		return 0;
	if (!is_fp(o.t.dtype))
		return lw_fail(L, "Mean takes a float type");
	off = om_add_weight(L->b, c, small_int_bytes(o.t.dtype, n->nin, c));
	if (off < 0)
		return lw_fail(L, "out of memory");
	v[0] = o;
	v[1] = o;
	v[1].buf = -1;
	v[1].t.loc = OM_LOC_WEIGHT;
	v[1].t.index = 0;
	v[1].t.offset = (uint64_t)off;
	v[1].t.name = 0;
	memset(v[1].t.strides, 0, sizeof(v[1].t.strides));
	v[2] = o;
	return lw_emit(L, DRM_VNPU_OP_DIV, v, 2, 1, NULL);
}

/*
 * Pow with an exponent of another type: the exponent converted to the
 * base's type for a float base or two integers; an integer base with a
 * float exponent computes in DOUBLE and truncates to the base's type.
 */
static int lower_pow_mixed(struct lower *L, const struct ir_node *n)
{
	struct lw_view o, x, y, v[3];
	uint32_t bt;

	if (out_view(L, n, &o) || in_view(L, n, 0, &o, &x) ||
	    in_view(L, n, 1, &o, &y))
		return -1;
	bt = x.t.dtype;
	if (y.t.dtype == DRM_VNPU_DTYPE_BOOL || bt == DRM_VNPU_DTYPE_BOOL)
		return lw_fail(L, "Pow does not take bool");
	if (is_fp(bt) || !is_fp(y.t.dtype)) {
		if (cast_to(L, &y, &o, bt, &v[1]))
			return -1;
		v[0] = x;
		v[2] = o;
		return lw_emit(L, DRM_VNPU_OP_POW, v, 2, 1, NULL);
	}
	if (cast_to(L, &x, &o, DRM_VNPU_DTYPE_DOUBLE, &v[0]) ||
	    cast_to(L, &y, &o, DRM_VNPU_DTYPE_DOUBLE, &v[1]) ||
	    tmp_view(L, &o, DRM_VNPU_DTYPE_DOUBLE, &v[2]) ||
	    lw_emit(L, DRM_VNPU_OP_POW, v, 2, 1, NULL))
		return -1;
	v[0] = v[2];
	v[1] = o;
	return lw_emit(L, DRM_VNPU_OP_CAST, v, 1, 1, NULL);
}

static const struct {
	const char *onnx;
	uint32_t op;
} arith[] = {
	{ "Add", DRM_VNPU_OP_ADD }, { "Sub", DRM_VNPU_OP_SUB },
	{ "Mul", DRM_VNPU_OP_MUL }, { "Div", DRM_VNPU_OP_DIV },
	{ "Pow", DRM_VNPU_OP_POW },
};

/* Add .. Pow when aclnn cannot take them; 1 = leave them to aclnn. */
static int lower_arith_binary(struct lower *L, const struct ir_node *n,
			      uint32_t op)
{
	uint32_t a, b;

	if (n->nin != 2 || n->inputs[0] < 0 || n->inputs[1] < 0)
		return 1;
	a = (uint32_t)dtype_of(L, n->inputs[0]);
	b = (uint32_t)dtype_of(L, n->inputs[1]);
	if (op == DRM_VNPU_OP_POW && a != b)
		return lower_pow_mixed(L, n);
	if (a != b)
		return 1;
	/* ONNX divides integers truncating; aclnnDiv would give floats */
	if (aclnn_lacks(a) ||
	    (op == DRM_VNPU_OP_DIV && !is_fp(a) && a != DRM_VNPU_DTYPE_BOOL))
		return lw_eltwise(L, n, op, 2, NULL);
	return 1;
}

int lower_arith(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	const struct ir_attr *a;
	size_t i;

	if (n->domain && *n->domain)
		return 1;
	memset(&at, 0, sizeof(at));
	for (i = 0; i < sizeof(arith) / sizeof(arith[0]); i++)
		if (is(n, arith[i].onnx))
			return lower_arith_binary(L, n, arith[i].op);
	if (is(n, "Mod")) {
		at.ints[0] = ir_attr_int(n, "fmod", 0) != 0;
		return lw_eltwise(L, n, DRM_VNPU_OP_MOD, 2, &at);
	}
	if (is(n, "BitShift")) {
		a = ir_attr(n, "direction");
		at.ints[0] = a && a->s && !strcmp(a->s, "RIGHT");
		return lw_eltwise(L, n, DRM_VNPU_OP_BITSHIFT, 2, &at);
	}
	if (is(n, "IsInf")) {
		at.ints[0] = (ir_attr_int(n, "detect_positive", 1) != 0) |
			     (ir_attr_int(n, "detect_negative", 1) != 0) << 1;
		return lw_eltwise(L, n, DRM_VNPU_OP_ISINF, 1, &at);
	}
	if (is(n, "Round"))
		return lw_eltwise(L, n, DRM_VNPU_OP_ROUND, 1, NULL);
	if (is(n, "CastLike"))
		return lw_eltwise(L, n, DRM_VNPU_OP_CAST, 1, NULL);
	if ((is(n, "Max") || is(n, "Min")) && n->nin != 2)
		return lower_variadic(L, n, is(n, "Max") ? DRM_VNPU_OP_MAXIMUM :
					    DRM_VNPU_OP_MINIMUM);
	if (is(n, "Sum") || is(n, "Mean"))
		return lower_variadic(L, n, DRM_VNPU_OP_ADD);
	return 1;
}
