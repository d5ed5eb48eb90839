// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Unary elementwise operators, ABS .. ISNAN and ISINF: x -> out; x
 * broadcasts to the output's shape, any strides.
 *
 * Numerics:
 * - FLOAT, FLOAT16, BF16 evaluate in double with the library's math
 *   (vnpu_math.c) and round to nearest even when stored, so fp32 results
 *   are within about one ulp; DOUBLE is staged in double, so within about
 *   one ulp of double. The fp32 contiguous fast paths of RELU, ABS,
 *   NEG (exact) and SIGMOID, SILU (own fp32 exp, a few ulp) are vectorised.
 * - Integers (INT8 .. UINT64) support ABS, NEG (both wrap:
 *   ABS(MIN) = MIN), SIGN, RELU, CLAMP (bounds ceil(lo) and floor(hi),
 *   a NaN bound is ignored), FLOOR, CEIL, ROUND (identity), LOGICAL_NOT,
 *   ISNAN and ISINF (always false); UINT64 values are unsigned (ABS and
 *   RELU keep them). BOOL supports LOGICAL_NOT, ISNAN and ISINF.
 * - NaN: RELU, LEAKY_RELU, SIGN, FLOOR, CEIL, ROUND keep it; CLAMP returns
 *   NaN for a NaN input or a NaN bound; LOGICAL_NOT(NaN) is false.
 * - GELU: ints[0] 0 is x/2 erfc(-x/sqrt 2), 1 is the tanh form written
 *   as x sigmoid(2u) (no cancellation for negative x). SOFTPLUS returns x
 *   where beta x > threshold. ROUND is half to even.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

struct un_ctx {
	const struct vnpu_op_call *c;
	u32 op;
	u32 dtype;		/* of the input */
	bool avx2;
	bool gelu_tanh;
	bool has_lo, has_hi;
	bool uns;		/* UINT64 */
	u32 inf_mask;		/* ISINF: bit 0 +Inf, bit 1 -Inf */
	float p0, p1;		/* slope; beta, threshold; lo, hi */
	s64 ilo, ihi;
	float *fa, *fo;		/* staging buffers in scratch */
	s64 *ia, *io;
	double *da, *dout;	/* DOUBLE: the same memory as ia, io */
	u8 *bo;
};

static bool op_is_bool_out(u32 op)
{
	return op == DRM_VNPU_OP_LOGICAL_NOT || op == DRM_VNPU_OP_ISNAN ||
	       op == DRM_VNPU_OP_ISINF;
}

/* The BOOL result of LOGICAL_NOT, ISNAN or ISINF of a float. */
static u8 un_f64_bool(const struct un_ctx *u, double x)
{
	switch (u->op) {
	case DRM_VNPU_OP_ISNAN:
		return x != x;
	case DRM_VNPU_OP_ISINF:
		return ((u->inf_mask & 1) && x > 1.7976931348623157e308) ||
		       ((u->inf_mask & 2) && x < -1.7976931348623157e308);
	default:
		return x == 0;
	}
}

static double sigmoid(double x)
{
	double e = vnpu_exp(-vnpu_fabs(x));

	return x >= 0 ? 1 / (1 + e) : e / (1 + e);
}

static double un_f64(const struct un_ctx *u, double x)
{
	double t;

	switch (u->op) {
	case DRM_VNPU_OP_ABS:
		return vnpu_fabs(x);
	case DRM_VNPU_OP_NEG:
		return -x;
	case DRM_VNPU_OP_EXP:
		return vnpu_exp(x);
	case DRM_VNPU_OP_LOG:
		return vnpu_log(x);
	case DRM_VNPU_OP_SQRT:
		return vnpu_sqrt(x);
	case DRM_VNPU_OP_RSQRT:
		return 1 / vnpu_sqrt(x);
	case DRM_VNPU_OP_RECIPROCAL:
		return 1 / x;
	case DRM_VNPU_OP_SIN:
		return vnpu_sin(x);
	case DRM_VNPU_OP_COS:
		return vnpu_cos(x);
	case DRM_VNPU_OP_ERF:
		return vnpu_erf(x);
	case DRM_VNPU_OP_RELU:
		return x < 0 ? 0 : x;
	case DRM_VNPU_OP_LEAKY_RELU:
		return x < 0 ? (double)u->p0 * x : x;
	case DRM_VNPU_OP_GELU:
		if (u->gelu_tanh) {
			t = 0.7978845608028654 * (x + 0.044715 * x * x * x);
			return x * sigmoid(2 * t);
		}
		return 0.5 * x * vnpu_erfc(-x * 0.7071067811865476);
	case DRM_VNPU_OP_SIGMOID:
		return sigmoid(x);
	case DRM_VNPU_OP_SILU:
		return x * sigmoid(x);
	case DRM_VNPU_OP_TANH:
		return vnpu_tanh(x);
	case DRM_VNPU_OP_SOFTPLUS:
		t = (double)u->p0 * x;
		if (t > u->p1)
			return x;
		return vnpu_log1p(vnpu_exp(t)) / u->p0;
	case DRM_VNPU_OP_CLAMP:
		if (u->has_lo)
			x = u->p0 != u->p0 ? u->p0 : (x < u->p0 ? u->p0 : x);
		if (u->has_hi)
			x = u->p1 != u->p1 ? u->p1 : (x > u->p1 ? u->p1 : x);
		return x;
	case DRM_VNPU_OP_FLOOR:
		return vnpu_floor(x);
	case DRM_VNPU_OP_CEIL:
		return vnpu_ceil(x);
	case DRM_VNPU_OP_ROUND:
		return vnpu_rint(x);
	default:		/* SIGN */
		return x > 0 ? 1 : x < 0 ? -1 : x;
	}
}

/*
 * exp(x) of 8 fp32 lanes for x in [-87, 0] (Cephes expf: Cody-Waite
 * reduction, degree-6 polynomial, about 1 ulp).
 */
#define UN_V8_EXP_NEG(x) ({						\
	VNPU_ELT_V8F __x = (x), __fx, __p;				\
	VNPU_ELT_V8I __n;						\
	__fx = __x * 1.44269504088896341f + 0.5f;			\
	__n = __builtin_convertvector(__fx, VNPU_ELT_V8I);		\
	__n += (VNPU_ELT_V8I)(__builtin_convertvector(__n, VNPU_ELT_V8F) > __fx); \
	__fx = __builtin_convertvector(__n, VNPU_ELT_V8F);		\
	__x = __x - __fx * 0.693359375f + __fx * 0.000212194440f;	\
	__p = 0.00019875691500f * __x + 0.0013981999507f;		\
	__p = __p * __x + 0.0083334519073f;				\
	__p = __p * __x + 0.041665795894f;				\
	__p = __p * __x + 0.16666665459f;				\
	__p = __p * __x + 0.50000001201f;				\
	__p = __p * __x * __x + __x + 1.0f;				\
	__p * (VNPU_ELT_V8F)((__n + 127) << 23);			\
})

/* fp32 contiguous fast paths; returns the elements done. */
static inline s64 un_f32_fast(const struct un_ctx *u, float *o,
			      const float *a, s64 n)
{
	const VNPU_ELT_V8I sign = (VNPU_ELT_V8I){ 0 } + (-0x7fffffff - 1);
	const VNPU_ELT_V8F zero = { 0 }, one = zero + 1.0f;
	s64 i = 0;

	switch (u->op) {
	case DRM_VNPU_OP_RELU:
		for (; i + 8 <= n; i += 8) {
			VNPU_ELT_V8F x = VNPU_ELT_LD(a + i);

			/* NaN < 0 is false, so NaN stays */
			VNPU_ELT_ST(o + i, (VNPU_ELT_V8F)((VNPU_ELT_V8I)x & ~(x < zero)));
		}
		break;
	case DRM_VNPU_OP_ABS:
		for (; i + 8 <= n; i += 8)
			VNPU_ELT_ST(o + i, (VNPU_ELT_V8F)((VNPU_ELT_V8I)VNPU_ELT_LD(a + i) &
							  ~sign));
		break;
	case DRM_VNPU_OP_NEG:
		for (; i + 8 <= n; i += 8)
			VNPU_ELT_ST(o + i, (VNPU_ELT_V8F)((VNPU_ELT_V8I)VNPU_ELT_LD(a + i) ^
							  sign));
		break;
	case DRM_VNPU_OP_SIGMOID:
	case DRM_VNPU_OP_SILU:
		for (; i + 8 <= n; i += 8) {
			VNPU_ELT_V8F x = VNPU_ELT_LD(a + i), ax, e, pos, neg, s;
			VNPU_ELT_V8I big;

			ax = (VNPU_ELT_V8F)((VNPU_ELT_V8I)x & ~sign);
			big = ~(ax <= 87.0f);	/* also NaN */
			if (big[0] | big[1] | big[2] | big[3] | big[4] | big[5] |
			    big[6] | big[7])
				break;
			e = UN_V8_EXP_NEG(-ax);
			pos = one / (one + e);
			neg = e / (one + e);
			s = (VNPU_ELT_V8F)(((VNPU_ELT_V8I)pos & ~(x < zero)) |
					   ((VNPU_ELT_V8I)neg & (x < zero)));
			if (u->op == DRM_VNPU_OP_SILU)
				s *= x;
			VNPU_ELT_ST(o + i, s);
		}
		break;
	}
	return i;
}

__attribute__((flatten))
static s64 un_f32_fast_base(const struct un_ctx *u, float *o, const float *a,
			    s64 n)
{
	return un_f32_fast(u, o, a, n);
}

__attribute__((target("avx2,fma"), flatten))
static s64 un_f32_fast_avx2(const struct un_ctx *u, float *o, const float *a,
			    s64 n)
{
	return un_f32_fast(u, o, a, n);
}

static void un_f32_arr(const struct un_ctx *u, float *o, const float *a,
		       s64 n, bool f32)
{
	s64 i = 0;

	if (f32 && (u->op == DRM_VNPU_OP_RELU || u->op == DRM_VNPU_OP_ABS ||
		    u->op == DRM_VNPU_OP_NEG || u->op == DRM_VNPU_OP_SIGMOID ||
		    u->op == DRM_VNPU_OP_SILU)) {
		/* Resume after a lane the vector path left for the scalar one. */
		while (i < n) {
			s64 k = u->avx2 ? un_f32_fast_avx2(u, o + i, a + i, n - i) :
				un_f32_fast_base(u, o + i, a + i, n - i);
			s64 end = i + k + 8 < n ? i + k + 8 : n;

			for (i += k; i < end; i++)
				o[i] = (float)un_f64(u, a[i]);
		}
		return;
	}
	for (; i < n; i++)
		o[i] = (float)un_f64(u, a[i]);
}

static s64 un_s64(const struct un_ctx *u, s64 x)
{
	if (u->uns && x < 0) {	/* a UINT64 of 2^63 or more */
		switch (u->op) {
		case DRM_VNPU_OP_NEG:
			return (s64)(0 - (u64)x);
		case DRM_VNPU_OP_SIGN:
			return 1;
		case DRM_VNPU_OP_CLAMP:	/* above every bound but hi */
			return u->has_hi ? u->ihi : x;
		default:
			return x;
		}
	}
	switch (u->op) {
	case DRM_VNPU_OP_ABS:
		return x < 0 ? (s64)(0 - (u64)x) : x;
	case DRM_VNPU_OP_NEG:
		return (s64)(0 - (u64)x);
	case DRM_VNPU_OP_SIGN:
		return x > 0 ? 1 : x < 0 ? -1 : 0;
	case DRM_VNPU_OP_RELU:
		return x < 0 ? 0 : x;
	case DRM_VNPU_OP_CLAMP:
		x = x < u->ilo ? u->ilo : x;
		return x > u->ihi ? u->ihi : x;
	default:		/* FLOOR, CEIL, ROUND */
		return x;
	}
}

static void un_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct un_ctx *u = p;
	const struct vnpu_tview *x = &u->c->t[0], *o = &u->c->t[1];
	bool flt = vnpu_dtype_is_float(u->dtype);
	bool f32 = u->dtype == DRM_VNPU_DTYPE_FLOAT;
	s64 done, n, i;

	for (done = 0; done < count; done += n) {
		s64 oo = offs[0] + done * inner[0];
		s64 xo = offs[1] + done * inner[1];

		n = count - done < VNPU_ELT_CHUNK ? count - done : VNPU_ELT_CHUNK;
		if (u->dtype == DRM_VNPU_DTYPE_DOUBLE) {
			vnpu_elt_load_f64(u->da, x->data, x->dtype, xo, inner[1], n);
			if (op_is_bool_out(u->op)) {
				for (i = 0; i < n; i++)
					u->bo[i] = un_f64_bool(u, u->da[i]);
				vnpu_elt_store_bool(o->data, oo, inner[0], u->bo, n);
				continue;
			}
			for (i = 0; i < n; i++)
				u->dout[i] = un_f64(u, u->da[i]);
			vnpu_elt_store_f64(o->data, o->dtype, oo, inner[0], u->dout, n);
		} else if (u->op == DRM_VNPU_OP_ISNAN || u->op == DRM_VNPU_OP_ISINF) {
			if (flt) {
				vnpu_elt_load_f32(u->fa, x->data, x->dtype, xo, inner[1], n);
				for (i = 0; i < n; i++)
					u->bo[i] = un_f64_bool(u, u->fa[i]);
			} else {
				for (i = 0; i < n; i++)
					u->bo[i] = 0;
			}
			vnpu_elt_store_bool(o->data, oo, inner[0], u->bo, n);
		} else if (u->op == DRM_VNPU_OP_LOGICAL_NOT) {
			if (flt) {
				vnpu_elt_load_f32(u->fa, x->data, x->dtype, xo, inner[1], n);
				for (i = 0; i < n; i++)
					u->bo[i] = u->fa[i] == 0;
			} else {
				vnpu_elt_load_s64(u->ia, x->data, x->dtype, xo, inner[1], n);
				for (i = 0; i < n; i++)
					u->bo[i] = !u->ia[i];
			}
			vnpu_elt_store_bool(o->data, oo, inner[0], u->bo, n);
		} else if (flt) {
			const float *a = u->fa;
			float *r = u->fo;

			if (f32 && inner[1] == 1)
				a = (const float *)x->data + xo;
			else
				vnpu_elt_load_f32(u->fa, x->data, x->dtype, xo, inner[1], n);
			if (f32 && inner[0] == 1)
				r = (float *)o->data + oo;
			un_f32_arr(u, r, a, n, f32);
			if (r == u->fo)
				vnpu_elt_store_f32(o->data, o->dtype, oo, inner[0], r, n);
		} else {
			vnpu_elt_load_s64(u->ia, x->data, x->dtype, xo, inner[1], n);
			for (i = 0; i < n; i++)
				u->io[i] = un_s64(u, u->ia[i]);
			vnpu_elt_store_s64(o->data, o->dtype, oo, inner[0], u->io, n);
		}
	}
}

static bool un_int_op(u32 op)
{
	switch (op) {
	case DRM_VNPU_OP_ABS:
	case DRM_VNPU_OP_NEG:
	case DRM_VNPU_OP_SIGN:
	case DRM_VNPU_OP_RELU:
	case DRM_VNPU_OP_CLAMP:
	case DRM_VNPU_OP_FLOOR:
	case DRM_VNPU_OP_CEIL:
	case DRM_VNPU_OP_ROUND:
	case DRM_VNPU_OP_LOGICAL_NOT:
	case DRM_VNPU_OP_ISNAN:
	case DRM_VNPU_OP_ISINF:
		return true;
	default:
		return false;
	}
}

static int unary_check(const struct vnpu_op_call *c)
{
	struct vnpu_iter it;
	const struct vnpu_tview *ins[1] = { &c->t[0] };
	u32 dt = c->t[0].dtype;
	u32 odt = op_is_bool_out(c->op) ? DRM_VNPU_DTYPE_BOOL : dt;

	if (c->num_in != 1 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_is_compute(dt) || c->t[1].dtype != odt)
		return -VNPU_OPS_EINVAL;
	if (vnpu_elt_dtype_int(dt) && !un_int_op(c->op))
		return -VNPU_OPS_EINVAL;
	if (dt == DRM_VNPU_DTYPE_BOOL && !op_is_bool_out(c->op))
		return -VNPU_OPS_EINVAL;
	if (!vnpu_elt_shape_ok(&c->t[0]) || !vnpu_elt_shape_ok(&c->t[1]))
		return -VNPU_OPS_EINVAL;
	return vnpu_iter_init(&it, &c->t[1], ins, 1);
}

/*
 * Elements per tile, so that a tile stays well under a millisecond: the
 * transcendental functions cost 50-100 ns per element in double, ERF and
 * GELU (series / continued fraction) up to about 150 ns.
 */
static u64 un_tile_elems(u32 op)
{
	switch (op) {
	case DRM_VNPU_OP_ERF:
	case DRM_VNPU_OP_GELU:
		return VNPU_OPS_TILE_ELEMS / 16;
	case DRM_VNPU_OP_EXP:
	case DRM_VNPU_OP_LOG:
	case DRM_VNPU_OP_SIN:
	case DRM_VNPU_OP_COS:
	case DRM_VNPU_OP_TANH:
	case DRM_VNPU_OP_SOFTPLUS:
		return VNPU_OPS_TILE_ELEMS / 4;
	default:
		return VNPU_OPS_TILE_ELEMS;
	}
}

static u64 unary_tiles(const struct vnpu_op_call *c)
{
	return vnpu_elt_tiles(vnpu_tview_elems(&c->t[1]), un_tile_elems(c->op));
}

/* An integer clamp bound: ceil(lo) or floor(hi), saturated to int64. */
static s64 clamp_bound(float b, bool has, bool lo)
{
	double v = lo ? vnpu_ceil(b) : vnpu_floor(b);

	if (!has || b != b)
		return lo ? (s64)(-0x7fffffffffffffffLL - 1) : 0x7fffffffffffffffLL;
	if (v >= 9223372036854775807.0)
		return 0x7fffffffffffffffLL;
	if (v <= -9223372036854775808.0)
		return (s64)(-0x7fffffffffffffffLL - 1);
	return (s64)v;
}

static void unary_tile(const struct vnpu_op_call *c, u64 tile)
{
	u8 *s = c->scratch;
	struct un_ctx u = {
		.c = c,
		.op = c->op,
		.dtype = c->t[0].dtype,
		.avx2 = !!(c->cpu & VNPU_CPU_AVX2_FMA),
		.uns = c->t[0].dtype == DRM_VNPU_DTYPE_UINT64,
		.fa = (float *)s,
		.fo = (float *)(s + 4 * VNPU_ELT_CHUNK),
		.ia = (s64 *)(s + 8 * VNPU_ELT_CHUNK),
		.io = (s64 *)(s + 16 * VNPU_ELT_CHUNK),
		.da = (double *)(s + 8 * VNPU_ELT_CHUNK),
		.dout = (double *)(s + 16 * VNPU_ELT_CHUNK),
		.bo = s + 24 * VNPU_ELT_CHUNK,
	};
	struct vnpu_iter it;
	u64 begin, end;
	s64 flags;

	switch (c->op) {
	case DRM_VNPU_OP_LEAKY_RELU:
		u.p0 = vnpu_attr_float(c, 0, 0.01f);
		break;
	case DRM_VNPU_OP_ISINF:
		u.inf_mask = (u32)vnpu_attr_int(c, 0, 3) & 3;
		break;
	case DRM_VNPU_OP_GELU:
		u.gelu_tanh = vnpu_attr_int(c, 0, 0) == 1;
		break;
	case DRM_VNPU_OP_SOFTPLUS:
		u.p0 = vnpu_attr_float(c, 0, 1.0f);
		u.p1 = vnpu_attr_float(c, 1, 20.0f);
		break;
	case DRM_VNPU_OP_CLAMP:
		flags = vnpu_attr_int(c, 0, 0);
		u.has_lo = flags & 1;
		u.has_hi = flags & 2;
		u.p0 = vnpu_attr_float(c, 0, 0.0f);
		u.p1 = vnpu_attr_float(c, 1, 0.0f);
		u.ilo = clamp_bound(u.p0, u.has_lo, true);
		u.ihi = clamp_bound(u.p1, u.has_hi, false);
		break;
	}
	if (vnpu_elt_iter(&it, &c->t[1], c->t, 1, tile, un_tile_elems(c->op),
			  &begin, &end))
		return;
	vnpu_iter_run(&it, begin, end, un_run, &u);
}

#define UNARY(id, name) { DRM_VNPU_OP_##id, name, unary_check, unary_tiles, unary_tile }

const struct vnpu_op_impl vnpu_ops_unary[] = {
	UNARY(ABS, "abs"),
	UNARY(NEG, "neg"),
	UNARY(EXP, "exp"),
	UNARY(LOG, "log"),
	UNARY(SQRT, "sqrt"),
	UNARY(RSQRT, "rsqrt"),
	UNARY(RECIPROCAL, "reciprocal"),
	UNARY(SIN, "sin"),
	UNARY(COS, "cos"),
	UNARY(ERF, "erf"),
	UNARY(RELU, "relu"),
	UNARY(LEAKY_RELU, "leaky_relu"),
	UNARY(GELU, "gelu"),
	UNARY(SIGMOID, "sigmoid"),
	UNARY(SILU, "silu"),
	UNARY(TANH, "tanh"),
	UNARY(SOFTPLUS, "softplus"),
	UNARY(CLAMP, "clamp"),
	UNARY(FLOOR, "floor"),
	UNARY(CEIL, "ceil"),
	UNARY(ROUND, "round"),
	UNARY(SIGN, "sign"),
	UNARY(LOGICAL_NOT, "logical_not"),
	UNARY(ISNAN, "isnan"),
	UNARY(ISINF, "isinf"),
	{ 0 }
};
