// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Binary elementwise operators, ADD .. LOGICAL_XOR and MOD: (a, b) -> out
 * with numpy broadcasting and any strides.
 *
 * Numerics:
 * - FLOAT, FLOAT16, BF16 compute in fp32 and round to nearest even when
 *   stored; POW and MOD go through double (vnpu_pow, vnpu_fmod) for
 *   accuracy. DOUBLE computes in double throughout.
 * - MOD: ints[0] 0 gives the sign of b (Python's %), 1 the sign of a (C's
 *   fmod); floats: NaN for b = 0, a itself for an infinite b and fmod.
 *   Integers: x mod 0 = 0.
 * - The integers (INT8 .. UINT64) wrap (two's complement); UINT64 divides,
 *   compares, takes MAXIMUM/MINIMUM and POW exponents as unsigned. DIV truncates
 *   toward zero, x / 0 = 0 and MIN / -1 = MIN. POW is exact (wrapping);
 *   a negative exponent gives 1 for a base of 1, +-1 for -1 and 0 for
 *   any other base. The float alpha of ADD/SUB is truncated toward zero.
 * - BOOL: ADD and MAXIMUM are logical or, MUL and MINIMUM logical and
 *   (alpha is ignored); SUB, DIV, POW and MOD are rejected.
 * - MAXIMUM/MINIMUM return NaN when either input is NaN, and order -0
 *   below +0.
 * - Comparisons and logical operators take inputs of any one dtype and
 *   write BOOL; NaN compares unequal to everything, and is true as a
 *   truth value (like every non-zero value; -0 is false).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

struct bin_ctx {
	const struct vnpu_op_call *c;
	u32 op;
	u32 dtype;		/* of the inputs */
	bool avx2;
	bool uns;		/* UINT64: unsigned compare and divide */
	bool fmod;		/* MOD: C's fmod rather than Python's % */
	float alpha;
	s64 ialpha;
	float *fa, *fb, *fo;	/* staging buffers in scratch */
	s64 *ia, *ib, *io;
	double *da, *db, *dout;	/* DOUBLE: the same memory as ia, ib, io */
	u8 *bo;
};

static bool op_is_bool_out(u32 op)
{
	return op >= DRM_VNPU_OP_EQ && op <= DRM_VNPU_OP_LOGICAL_XOR;
}

static float f32_max(float a, float b)
{
	if (a != a)
		return a;
	if (b != b)
		return b;
	if (a == b)	/* +0 over -0 */
		return __builtin_signbit(a) ? b : a;
	return a > b ? a : b;
}

static float f32_min(float a, float b)
{
	if (a != a)
		return a;
	if (b != b)
		return b;
	if (a == b)
		return __builtin_signbit(a) ? a : b;
	return a < b ? a : b;
}

/* a mod b in double; @fmod: sign of a, else sign of b. */
static double f64_mod(double a, double b, bool fmod)
{
	double r = vnpu_fmod(a, b);

	if (!fmod && r != 0 && !__builtin_signbit(r) != !__builtin_signbit(b))
		r += b;
	else if (!fmod && r == 0)
		r = b < 0 ? -0.0 : 0.0;
	return r;
}

static double f64_max(double a, double b)
{
	if (a != a)
		return a;
	if (b != b)
		return b;
	if (a == b)
		return __builtin_signbit(a) ? b : a;
	return a > b ? a : b;
}

static double f64_min(double a, double b)
{
	if (a != a)
		return a;
	if (b != b)
		return b;
	if (a == b)
		return __builtin_signbit(a) ? a : b;
	return a < b ? a : b;
}

static double f64_bin(u32 op, double a, double b, double alpha, bool fmod)
{
	switch (op) {
	case DRM_VNPU_OP_ADD:
		return a + alpha * b;
	case DRM_VNPU_OP_SUB:
		return a - alpha * b;
	case DRM_VNPU_OP_MUL:
		return a * b;
	case DRM_VNPU_OP_DIV:
		return a / b;
	case DRM_VNPU_OP_POW:
		return vnpu_pow(a, b);
	case DRM_VNPU_OP_MOD:
		return f64_mod(a, b, fmod);
	case DRM_VNPU_OP_MAXIMUM:
		return f64_max(a, b);
	default:
		return f64_min(a, b);
	}
}

static inline float f32_bin(u32 op, float a, float b, float alpha, bool fmod)
{
	switch (op) {
	case DRM_VNPU_OP_ADD:
		return a + alpha * b;
	case DRM_VNPU_OP_SUB:
		return a - alpha * b;
	case DRM_VNPU_OP_MUL:
		return a * b;
	case DRM_VNPU_OP_DIV:
		return a / b;
	case DRM_VNPU_OP_POW:
		return (float)vnpu_pow(a, b);
	case DRM_VNPU_OP_MOD:
		return (float)f64_mod(a, b, fmod);
	case DRM_VNPU_OP_MAXIMUM:
		return f32_max(a, b);
	default:
		return f32_min(a, b);
	}
}

/*
 * fp32 arithmetic on contiguous arrays: 8-lane vectors (two SSE registers
 * in the baseline build, one AVX register in the AVX2 one), then a
 * scalar tail. Both builds share this body.
 */
static inline void f32_bin_body(u32 op, float *o, const float *a,
				const float *b, s64 n, float alpha, bool fmod)
{
	s64 i = 0;

	switch (op) {
	case DRM_VNPU_OP_ADD:
		if (alpha == 1.0f) {
			for (; i + 16 <= n; i += 16) {
				VNPU_ELT_ST(o + i, VNPU_ELT_LD(a + i) + VNPU_ELT_LD(b + i));
				VNPU_ELT_ST(o + i + 8,
					    VNPU_ELT_LD(a + i + 8) + VNPU_ELT_LD(b + i + 8));
			}
			for (; i < n; i++)
				o[i] = a[i] + b[i];
			return;
		}
		for (; i + 8 <= n; i += 8)
			VNPU_ELT_ST(o + i, VNPU_ELT_LD(a + i) + alpha * VNPU_ELT_LD(b + i));
		break;
	case DRM_VNPU_OP_SUB:
		for (; i + 8 <= n; i += 8)
			VNPU_ELT_ST(o + i, VNPU_ELT_LD(a + i) - alpha * VNPU_ELT_LD(b + i));
		break;
	case DRM_VNPU_OP_MUL:
		for (; i + 8 <= n; i += 8)
			VNPU_ELT_ST(o + i, VNPU_ELT_LD(a + i) * VNPU_ELT_LD(b + i));
		break;
	case DRM_VNPU_OP_DIV:
		for (; i + 8 <= n; i += 8)
			VNPU_ELT_ST(o + i, VNPU_ELT_LD(a + i) / VNPU_ELT_LD(b + i));
		break;
	}
	for (; i < n; i++)
		o[i] = f32_bin(op, a[i], b[i], alpha, fmod);
}

__attribute__((flatten))
static void f32_bin_base(u32 op, float *o, const float *a, const float *b,
			 s64 n, float alpha, bool fmod)
{
	f32_bin_body(op, o, a, b, n, alpha, fmod);
}

__attribute__((target("avx2,fma"), flatten))
static void f32_bin_avx2(u32 op, float *o, const float *a, const float *b,
			 s64 n, float alpha, bool fmod)
{
	f32_bin_body(op, o, a, b, n, alpha, fmod);
}

/*
 * The comparison and logical operators over arrays of one element type.
 * The switch sits outside the loops so that every loop body is a single
 * compare the compiler can keep branch-free (and vectorise where it may).
 */
#define DEFINE_CMP_WALKER(name, elem_t)					\
static void name(u32 op, u8 *o, const elem_t *a, const elem_t *b, s64 n) \
{									\
	s64 i;								\
									\
	switch (op) {							\
	case DRM_VNPU_OP_EQ:						\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] == b[i];				\
		break;							\
	case DRM_VNPU_OP_NE:						\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] != b[i];				\
		break;							\
	case DRM_VNPU_OP_LT:						\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] < b[i];				\
		break;							\
	case DRM_VNPU_OP_LE:						\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] <= b[i];				\
		break;							\
	case DRM_VNPU_OP_GT:						\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] > b[i];				\
		break;							\
	case DRM_VNPU_OP_GE:						\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] >= b[i];				\
		break;							\
	case DRM_VNPU_OP_LOGICAL_AND:					\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] != 0 && b[i] != 0;			\
		break;							\
	case DRM_VNPU_OP_LOGICAL_OR:					\
		for (i = 0; i < n; i++)					\
			o[i] = a[i] != 0 || b[i] != 0;			\
		break;							\
	default:							\
		for (i = 0; i < n; i++)					\
			o[i] = (a[i] != 0) != (b[i] != 0);		\
		break;							\
	}								\
}

DEFINE_CMP_WALKER(f32_cmp, float)
DEFINE_CMP_WALKER(f64_cmp, double)
DEFINE_CMP_WALKER(s64_cmp, s64)

/* Exact integer power, wrapping; see the numerics at the top. */
static s64 s64_pow(s64 a, s64 b, bool uns)
{
	u64 r = 1, base = (u64)a, e = (u64)b;

	if (b < 0 && !uns) {
		if (a == 1)
			return 1;
		if (a == -1)
			return (b & 1) ? -1 : 1;
		return 0;
	}
	while (e) {
		if (e & 1)
			r *= base;
		base *= base;
		e >>= 1;
	}
	return (s64)r;
}

/* Integer a mod b (0 for b = 0); @fmod: sign of a, else sign of b. */
static s64 s64_mod(s64 a, s64 b, bool uns, bool fmod)
{
	s64 r;

	if (!b)
		return 0;
	if (uns)
		return (s64)((u64)a % (u64)b);
	if (b == -1)	/* MIN % -1 would trap */
		return 0;
	r = a % b;
	if (!fmod && r && (r ^ b) < 0)	/* signs differ */
		r += b;
	return r;
}

static s64 s64_bin(u32 op, s64 a, s64 b, s64 alpha, bool uns, bool fmod)
{
	switch (op) {
	case DRM_VNPU_OP_ADD:
		return (s64)((u64)a + (u64)alpha * (u64)b);
	case DRM_VNPU_OP_SUB:
		return (s64)((u64)a - (u64)alpha * (u64)b);
	case DRM_VNPU_OP_MUL:
		return (s64)((u64)a * (u64)b);
	case DRM_VNPU_OP_DIV:
		if (!b)
			return 0;
		if (uns)
			return (s64)((u64)a / (u64)b);
		if (b == -1)	/* MIN / -1 wraps instead of trapping */
			return (s64)(0 - (u64)a);
		return a / b;
	case DRM_VNPU_OP_POW:
		return s64_pow(a, b, uns);
	case DRM_VNPU_OP_MOD:
		return s64_mod(a, b, uns, fmod);
	case DRM_VNPU_OP_MAXIMUM:
		if (uns)
			return (u64)a > (u64)b ? a : b;
		return a > b ? a : b;
	default:
		if (uns)
			return (u64)a < (u64)b ? a : b;
		return a < b ? a : b;
	}
}

static void s64_bin_arr(const struct bin_ctx *bc, s64 *o, const s64 *a,
			const s64 *b, s64 n)
{
	u32 op = bc->op;
	s64 alpha = bc->ialpha;
	s64 i;

	if (bc->dtype == DRM_VNPU_DTYPE_BOOL) {
		bool or = op == DRM_VNPU_OP_ADD || op == DRM_VNPU_OP_MAXIMUM;

		for (i = 0; i < n; i++)
			o[i] = or ? (a[i] | b[i]) : (a[i] & b[i]);
		return;
	}
	switch (op) {
	case DRM_VNPU_OP_ADD:
		if (alpha == 1) {
			for (i = 0; i < n; i++)
				o[i] = (s64)((u64)a[i] + (u64)b[i]);
			return;
		}
		break;
	case DRM_VNPU_OP_MUL:
		for (i = 0; i < n; i++)
			o[i] = (s64)((u64)a[i] * (u64)b[i]);
		return;
	}
	for (i = 0; i < n; i++)
		o[i] = s64_bin(op, a[i], b[i], alpha, bc->uns, bc->fmod);
}

/* UINT64 compares as unsigned: flipping the top bit orders it as signed. */
static void u64_to_ordered(s64 *v, s64 n)
{
	s64 i;

	for (i = 0; i < n; i++)
		v[i] = (s64)((u64)v[i] ^ (1ULL << 63));
}

/* DOUBLE: staged and computed in double. */
static void bin_chunk_f64(const struct bin_ctx *bc, s64 oo, s64 xo, s64 yo,
			  const s64 *inner, s64 n)
{
	const struct vnpu_tview *x = &bc->c->t[0], *y = &bc->c->t[1];
	const struct vnpu_tview *o = &bc->c->t[2];
	double alpha = bc->alpha;
	s64 i;

	vnpu_elt_load_f64(bc->da, x->data, x->dtype, xo, inner[1], n);
	vnpu_elt_load_f64(bc->db, y->data, y->dtype, yo, inner[2], n);
	if (op_is_bool_out(bc->op)) {
		f64_cmp(bc->op, bc->bo, bc->da, bc->db, n);
		vnpu_elt_store_bool(o->data, oo, inner[0], bc->bo, n);
		return;
	}
	for (i = 0; i < n; i++)
		bc->dout[i] = f64_bin(bc->op, bc->da[i], bc->db[i], alpha, bc->fmod);
	vnpu_elt_store_f64(o->data, o->dtype, oo, inner[0], bc->dout, n);
}

/* One run of @count elements: staged in chunks through scratch. */
static void bin_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct bin_ctx *bc = p;
	const struct vnpu_tview *x = &bc->c->t[0], *y = &bc->c->t[1];
	const struct vnpu_tview *o = &bc->c->t[2];
	bool flt = vnpu_dtype_is_float(bc->dtype);
	bool f32 = bc->dtype == DRM_VNPU_DTYPE_FLOAT;
	bool boolout = op_is_bool_out(bc->op);
	s64 done, n;

	for (done = 0; done < count; done += n) {
		s64 oo = offs[0] + done * inner[0];
		s64 xo = offs[1] + done * inner[1];
		s64 yo = offs[2] + done * inner[2];

		n = count - done < VNPU_ELT_CHUNK ? count - done : VNPU_ELT_CHUNK;
		if (bc->dtype == DRM_VNPU_DTYPE_DOUBLE) {
			bin_chunk_f64(bc, oo, xo, yo, inner, n);
			continue;
		}
		if (flt) {
			const float *a = bc->fa, *b = bc->fb;
			float *r = bc->fo;

			if (f32 && inner[1] == 1)
				a = (const float *)x->data + xo;
			else
				vnpu_elt_load_f32(bc->fa, x->data, x->dtype, xo, inner[1], n);
			if (f32 && inner[2] == 1)
				b = (const float *)y->data + yo;
			else
				vnpu_elt_load_f32(bc->fb, y->data, y->dtype, yo, inner[2], n);
			if (boolout) {
				f32_cmp(bc->op, bc->bo, a, b, n);
				vnpu_elt_store_bool(o->data, oo, inner[0], bc->bo, n);
				continue;
			}
			if (f32 && inner[0] == 1)
				r = (float *)o->data + oo;
			if (bc->avx2)
				f32_bin_avx2(bc->op, r, a, b, n, bc->alpha, bc->fmod);
			else
				f32_bin_base(bc->op, r, a, b, n, bc->alpha, bc->fmod);
			if (r == bc->fo)
				vnpu_elt_store_f32(o->data, o->dtype, oo, inner[0], r, n);
			continue;
		}
		vnpu_elt_load_s64(bc->ia, x->data, x->dtype, xo, inner[1], n);
		vnpu_elt_load_s64(bc->ib, y->data, y->dtype, yo, inner[2], n);
		if (boolout) {
			if (bc->uns && bc->op >= DRM_VNPU_OP_LT &&
			    bc->op <= DRM_VNPU_OP_GE) {
				u64_to_ordered(bc->ia, n);
				u64_to_ordered(bc->ib, n);
			}
			s64_cmp(bc->op, bc->bo, bc->ia, bc->ib, n);
			vnpu_elt_store_bool(o->data, oo, inner[0], bc->bo, n);
			continue;
		}
		s64_bin_arr(bc, bc->io, bc->ia, bc->ib, n);
		vnpu_elt_store_s64(o->data, o->dtype, oo, inner[0], bc->io, n);
	}
}

static int binary_check(const struct vnpu_op_call *c)
{
	struct vnpu_iter it VNPU_NOINIT;	/* vnpu_iter_init() fills it */
	const struct vnpu_tview *ins[2] = { &c->t[0], &c->t[1] };
	u32 dt = c->t[0].dtype;
	u32 odt = op_is_bool_out(c->op) ? DRM_VNPU_DTYPE_BOOL : dt;

	if (c->num_in != 2 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_is_compute(dt) || c->t[1].dtype != dt || c->t[2].dtype != odt)
		return -VNPU_OPS_EINVAL;
	if (dt == DRM_VNPU_DTYPE_BOOL &&
	    (c->op == DRM_VNPU_OP_SUB || c->op == DRM_VNPU_OP_DIV ||
	     c->op == DRM_VNPU_OP_POW || c->op == DRM_VNPU_OP_MOD))
		return -VNPU_OPS_EINVAL;
	if (!vnpu_elt_shape_ok(&c->t[0]) || !vnpu_elt_shape_ok(&c->t[1]) ||
	    !vnpu_elt_shape_ok(&c->t[2]))
		return -VNPU_OPS_EINVAL;
	return vnpu_iter_init(&it, &c->t[2], ins, 2);
}

/*
 * POW costs a double log and exp per element, MOD up to about 190 64-bit
 * divisions (vnpu_fmod) for far-apart DOUBLE magnitudes: smaller tiles
 * (a MOD tile of the worst case takes about 0.7 ms).
 */
static u64 bin_tile_elems(u32 op)
{
	if (op == DRM_VNPU_OP_MOD)
		return VNPU_OPS_TILE_ELEMS / 64;
	return op == DRM_VNPU_OP_POW ? VNPU_OPS_TILE_ELEMS / 4 :
	       VNPU_OPS_TILE_ELEMS;
}

static u64 out0_tiles(const struct vnpu_op_call *c)
{
	return vnpu_elt_tiles(vnpu_tview_elems(&c->t[c->num_in]),
			      bin_tile_elems(c->op));
}

/* Float alpha to an integer: truncated toward zero, NaN is 0. */
static s64 alpha_to_s64(float a)
{
	if (a != a)
		return 0;
	if (a >= 9.2233720368547758e18f)
		return (s64)0x7fffffffffffffffLL;
	if (a <= -9.2233720368547758e18f)
		return (s64)(-0x7fffffffffffffffLL - 1);
	return (s64)a;
}

static void binary_tile(const struct vnpu_op_call *c, u64 tile)
{
	u8 *s = c->scratch;
	struct bin_ctx bc = {
		.c = c,
		.op = c->op,
		.dtype = c->t[0].dtype,
		.avx2 = !!(c->cpu & VNPU_CPU_AVX2_FMA),
		.uns = c->t[0].dtype == DRM_VNPU_DTYPE_UINT64,
		.alpha = 1.0f,
		.fa = (float *)s,
		.fb = (float *)(s + 4 * VNPU_ELT_CHUNK),
		.fo = (float *)(s + 8 * VNPU_ELT_CHUNK),
		.ia = (s64 *)(s + 12 * VNPU_ELT_CHUNK),
		.ib = (s64 *)(s + 20 * VNPU_ELT_CHUNK),
		.io = (s64 *)(s + 28 * VNPU_ELT_CHUNK),
		.da = (double *)(s + 12 * VNPU_ELT_CHUNK),
		.db = (double *)(s + 20 * VNPU_ELT_CHUNK),
		.dout = (double *)(s + 28 * VNPU_ELT_CHUNK),
		.bo = s + 36 * VNPU_ELT_CHUNK,
	};
	struct vnpu_iter it VNPU_NOINIT;	/* vnpu_elt_iter() fills it */
	u64 begin, end;

	if (c->op == DRM_VNPU_OP_ADD || c->op == DRM_VNPU_OP_SUB)
		bc.alpha = vnpu_attr_float(c, 0, 1.0f);
	bc.ialpha = alpha_to_s64(bc.alpha);
	if (c->op == DRM_VNPU_OP_MOD)
		bc.fmod = vnpu_attr_int(c, 0, 0) == 1;
	if (vnpu_elt_iter(&it, &c->t[2], c->t, 2, tile, bin_tile_elems(c->op),
			  &begin, &end))
		return;
	vnpu_iter_run(&it, begin, end, bin_run, &bc);
}

const struct vnpu_op_impl vnpu_ops_eltwise[] = {
	{ DRM_VNPU_OP_ADD, "add", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_SUB, "sub", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_MUL, "mul", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_DIV, "div", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_POW, "pow", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_MAXIMUM, "maximum", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_MINIMUM, "minimum", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_EQ, "eq", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_NE, "ne", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_LT, "lt", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_LE, "le", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_GT, "gt", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_GE, "ge", binary_check, out0_tiles, binary_tile },
	{ DRM_VNPU_OP_LOGICAL_AND, "logical_and", binary_check, out0_tiles,
	  binary_tile },
	{ DRM_VNPU_OP_LOGICAL_OR, "logical_or", binary_check, out0_tiles,
	  binary_tile },
	{ DRM_VNPU_OP_LOGICAL_XOR, "logical_xor", binary_check, out0_tiles,
	  binary_tile },
	{ DRM_VNPU_OP_MOD, "mod", binary_check, out0_tiles, binary_tile },
	{ 0 }
};
