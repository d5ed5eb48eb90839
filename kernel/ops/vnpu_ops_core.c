// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The operator library's core: the operator table, dtype sizes and
 * conversions, element access, attributes and the broadcasting iterator.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

/* Every family's table, searched in order. */
static const struct vnpu_op_impl *const vnpu_op_families[] = {
	vnpu_ops_eltwise,
	vnpu_ops_unary,
	vnpu_ops_cast,
	vnpu_ops_reduce,
	vnpu_ops_norm,
	vnpu_ops_matmul,
	vnpu_ops_conv,
	vnpu_ops_move,
	vnpu_ops_sort,
	vnpu_ops_resize,
	vnpu_ops_bitwise,
	vnpu_ops_index,
	vnpu_ops_activation,
	vnpu_ops_dropout,
	vnpu_ops_scan,
	vnpu_ops_norm_axes,
	vnpu_ops_loss,
	vnpu_ops_resize_nd,
	vnpu_ops_pool_nd,
	vnpu_ops_conv_nd,
	vnpu_ops_quant,
	vnpu_ops_matmul_int,
	vnpu_ops_unpool,
	vnpu_ops_grid_sample,
	vnpu_ops_roi_align,
	vnpu_ops_vpc,
	vnpu_ops_aipp,
	vnpu_ops_llm_solve,
	vnpu_ops_attn,
	vnpu_ops_rope,
	vnpu_ops_wq_matmul,
	vnpu_ops_grouped_matmul,
};

const struct vnpu_op_impl *vnpu_op_find(u32 op)
{
	const struct vnpu_op_impl *impl;
	u32 f;

	if (!op)
		return NULL;
	for (f = 0; f < ARRAY_SIZE(vnpu_op_families); f++)
		for (impl = vnpu_op_families[f]; impl->op; impl++)
			if (impl->op == op)
				return impl;
	return NULL;
}

int vnpu_op_check(const struct vnpu_op_impl *impl,
		  const struct vnpu_op_call *c)
{
	bool some_empty = false, out_elems = false;
	u32 i, n;

	if (!impl || c->num_in > VNPU_OPS_MAX_TENSORS ||
	    c->num_out > VNPU_OPS_MAX_TENSORS - c->num_in)
		return -VNPU_OPS_EINVAL;
	n = c->num_in + c->num_out;
	for (i = 0; i < n; i++) {
		const struct vnpu_tview *v = &c->t[i];

		if (v->rank > VNPU_OPS_MAX_RANK)
			return -VNPU_OPS_EINVAL;
		if (vnpu_tview_empty(v))
			some_empty = true;
		else if (i >= c->num_in)
			out_elems = true;
	}
	/*
	 * An empty tensor's data is NULL (nothing was mapped) but its
	 * strides are the caller's: an operator that computes an address
	 * in it, say from a clamped or a loaded index, reaches any kernel
	 * address. Only operators audited not to do that see such calls.
	 */
	if (some_empty && out_elems && !(impl->flags & VNPU_OP_EMPTY_OK))
		return -VNPU_OPS_EINVAL;
	return impl->check(c);
}

u64 vnpu_tview_elems(const struct vnpu_tview *v)
{
	u64 n = 1;
	u32 d;

	for (d = 0; d < v->rank; d++)
		n *= (u64)v->shape[d];
	return n;
}

s64 vnpu_tview_last(const struct vnpu_tview *v)
{
	s64 last = 0;
	u32 d;

	for (d = 0; d < v->rank; d++) {
		s64 step;

		if (v->shape[d] < 0 || v->strides[d] < 0)
			return -1;
		if (!v->shape[d])
			return 0;
		if (__builtin_mul_overflow(v->shape[d] - 1, v->strides[d], &step) ||
		    __builtin_add_overflow(last, step, &last))
			return -1;
	}
	return last;
}

/* Bit patterns, without relying on a C library. */
static u32 f32_bits(float f)
{
	union { float f; u32 u; } v = { .f = f };

	return v.u;
}

static float bits_f32(u32 u)
{
	union { float f; u32 u; } v = { .u = u };

	return v.f;
}

float vnpu_f16_to_f32(u16 h)
{
	u32 sign = (u32)(h & 0x8000) << 16;
	u32 exp = (h >> 10) & 0x1f;
	u32 man = h & 0x3ff;

	if (exp == 0x1f)		/* Inf, NaN (quiet it) */
		return bits_f32(sign | 0x7f800000 | (man << 13) | (man ? 0x400000 : 0));
	if (exp)			/* normal */
		return bits_f32(sign | ((exp + 112) << 23) | (man << 13));
	if (!man)
		return bits_f32(sign);
	/* Subnormal: value = man * 2^-24, exact in fp32. */
	return (sign ? -1.0f : 1.0f) * (float)man * (1.0f / 16777216.0f);
}

u16 vnpu_f32_to_f16(float f)
{
	u32 x = f32_bits(f);
	u32 sign = (x >> 16) & 0x8000;
	u32 abs = x & 0x7fffffff;
	u32 exp, man, r;

	if (abs >= 0x7f800000)		/* Inf or NaN */
		return sign | 0x7c00 | (abs > 0x7f800000 ? 0x200 : 0);
	if (abs >= 0x477ff000)		/* rounds to at least 65520: Inf */
		return sign | 0x7c00;
	if (abs < 0x38800000) {		/* below the smallest normal */
		/* Scale into the subnormal range and round to nearest even. */
		float a = bits_f32(abs) * 16777216.0f;	/* units of 2^-24 */
		u32 q = (u32)a;
		float rem = a - (float)q;

		if (rem > 0.5f || (rem == 0.5f && (q & 1)))
			q++;
		return sign | q;
	}
	exp = (abs >> 23) - 112;
	man = abs & 0x7fffff;
	r = (exp << 10) | (man >> 13);
	/* Round to nearest even on the 13 dropped bits. */
	if ((man & 0x1fff) > 0x1000 || ((man & 0x1fff) == 0x1000 && (r & 1)))
		r++;
	return sign | r;
}

float vnpu_bf16_to_f32(u16 b)
{
	return bits_f32((u32)b << 16);
}

u16 vnpu_f32_to_bf16(float f)
{
	u32 x = f32_bits(f);

	if ((x & 0x7fffffff) > 0x7f800000)	/* NaN: keep it quiet */
		return (x >> 16) | 0x40;
	x += 0x7fff + ((x >> 16) & 1);		/* nearest even */
	return x >> 16;
}

/*
 * Float to integer as CAST defines it: truncate toward zero, then wrap
 * modulo 2^64 exactly (callers narrow further); NaN and Inf give 0.
 */
static s64 f64_to_s64(double v)
{
	const double two64 = 18446744073709551616.0;
	double r;

	if (v != v || v - v != 0)	/* NaN or Inf */
		return 0;
	if (v > -9223372036854775808.0 && v < 9223372036854775808.0)
		return (s64)v;
	/* |v| >= 2^63: an integer, a multiple of 2^11 or more; exact steps. */
	r = v - two64 * __builtin_floor(v / two64);
	return (s64)(u64)r;
}

/* The integer cases of the switches below, from vnpu_dtypes.def. */
#define LOAD_F64_INT(NAME, type, ...)					\
	case DRM_VNPU_DTYPE_##NAME: {					\
		const type *p = base;					\
									\
		return (double)p[i];					\
	}
#define LOAD_S64_INT(NAME, type, ...)					\
	case DRM_VNPU_DTYPE_##NAME: {					\
		const type *p = base;					\
									\
		return (s64)p[i];					\
	}
#define STORE_S64_INT(NAME, type, ...)					\
	case DRM_VNPU_DTYPE_##NAME: {					\
		type *p = base;						\
									\
		p[i] = (type)v;						\
		break;							\
	}

double vnpu_load_f64(const void *base, u32 dtype, s64 i)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		return ((const float *)base)[i];
	case DRM_VNPU_DTYPE_FLOAT16:
		return vnpu_f16_to_f32(((const u16 *)base)[i]);
	case DRM_VNPU_DTYPE_BF16:
		return vnpu_bf16_to_f32(((const u16 *)base)[i]);
	case DRM_VNPU_DTYPE_DOUBLE:
		return ((const double *)base)[i];
	case DRM_VNPU_DTYPE_BOOL:
		return ((const u8 *)base)[i] != 0;
	/* Exact but for the 64-bit ones, which round to nearest even. */
#define VNPU_DTYPE_INT LOAD_F64_INT
#include "vnpu_dtypes.def"
	default:
		return 0;
	}
}

s64 vnpu_load_s64(const void *base, u32 dtype, s64 i)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_BOOL:
		return ((const u8 *)base)[i] != 0;
	/* UINT64 as its bit pattern */
#define VNPU_DTYPE_INT LOAD_S64_INT
#include "vnpu_dtypes.def"
#define VNPU_DTYPE_FLOAT VNPU_DTYPE_CASE
#include "vnpu_dtypes.def"
		return f64_to_s64(vnpu_load_f64(base, dtype, i));
	default:
		return 0;
	}
}

void vnpu_store_s64(void *base, u32 dtype, s64 i, s64 v)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_BOOL:
		((u8 *)base)[i] = v != 0;
		break;
	/* wraps to the width, as C does */
#define VNPU_DTYPE_INT STORE_S64_INT
#include "vnpu_dtypes.def"
#define VNPU_DTYPE_FLOAT VNPU_DTYPE_CASE
#include "vnpu_dtypes.def"
		vnpu_store_f64(base, dtype, i, (double)v);
		break;
	}
}

/*
 * @v rounded to single precision by round-to-odd: an inexact result keeps
 * its truncated value with the last bit set. Rounding that again to a
 * format of at most 22 significant bits (FLOAT16, BF16) gives the same
 * result as rounding @v directly, which plain nearest-even twice does not.
 */
static float f64_to_f32_odd(double v)
{
	float f = (float)v;
	u32 b = f32_bits(f);

	if ((double)f == v || v != v || (b & 0x7fffffff) == 0x7f800000)
		return f;		/* exact, NaN, or past every finite */
	if ((f < 0 ? -(double)f : (double)f) > (v < 0 ? -v : v))
		b--;			/* rounded away from zero: step back */
	return bits_f32(b | 1);
}

void vnpu_store_f64(void *base, u32 dtype, s64 i, double v)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		((float *)base)[i] = (float)v;
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		((u16 *)base)[i] = vnpu_f32_to_f16(f64_to_f32_odd(v));
		break;
	case DRM_VNPU_DTYPE_BF16:
		((u16 *)base)[i] = vnpu_f32_to_bf16(f64_to_f32_odd(v));
		break;
	case DRM_VNPU_DTYPE_DOUBLE:
		((double *)base)[i] = v;
		break;
	case DRM_VNPU_DTYPE_BOOL:
		((u8 *)base)[i] = v != 0;	/* NaN is true, as in numpy */
		break;
	default:
		/* Float to integer: truncate, then wrap to the width. */
		vnpu_store_s64(base, dtype, i, f64_to_s64(v));
		break;
	}
}

float vnpu_attr_float(const struct vnpu_op_call *c, u32 i, float dflt)
{
	return c->has_attrs ? bits_f32(c->attrs.floats[i]) : dflt;
}

s64 vnpu_attr_int(const struct vnpu_op_call *c, u32 i, s64 dflt)
{
	return c->has_attrs ? c->attrs.ints[i] : dflt;
}

int vnpu_iter_init(struct vnpu_iter *it, const struct vnpu_tview *out,
		   const struct vnpu_tview *const *ins, u32 nin)
{
	u32 t, d;

	if (nin > 3 || out->rank > VNPU_OPS_MAX_RANK)
		return -VNPU_OPS_EINVAL;
	it->rank = out->rank;
	it->n = nin + 1;
	for (d = 0; d < out->rank; d++) {
		it->shape[d] = out->shape[d];
		it->strides[0][d] = out->strides[d];
	}
	for (t = 0; t < nin; t++) {
		const struct vnpu_tview *in = ins[t];
		u32 lead;

		if (in->rank > out->rank)
			return -VNPU_OPS_EINVAL;
		lead = out->rank - in->rank;
		for (d = 0; d < out->rank; d++) {
			s64 size = d < lead ? 1 : in->shape[d - lead];

			if (size == out->shape[d])
				it->strides[t + 1][d] = d < lead ? 0 :
							in->strides[d - lead];
			else if (size == 1)
				it->strides[t + 1][d] = 0;
			else
				return -VNPU_OPS_EINVAL;
		}
	}
	return 0;
}

void vnpu_iter_run(const struct vnpu_iter *it, u64 begin, u64 end,
		   void (*fn)(void *ctx, const s64 *offs, const s64 *inner,
			      s64 count),
		   void *ctx)
{
	/* Written below the rank and it->n before they are read. */
	s64 idx[VNPU_OPS_MAX_RANK] VNPU_NOINIT, offs[4] VNPU_NOINIT;
	s64 inner[4] VNPU_NOINIT;
	s64 width = it->rank ? it->shape[it->rank - 1] : 1;
	u64 pos = begin, rem;
	u32 t, d;

	if (begin >= end || width <= 0)
		return;
	for (t = 0; t < it->n; t++)
		inner[t] = it->rank ? it->strides[t][it->rank - 1] : 0;

	/* Unravel the first index. */
	rem = begin;
	for (d = it->rank; d-- > 0;) {
		idx[d] = (s64)(rem % (u64)it->shape[d]);
		rem /= (u64)it->shape[d];
	}
	while (pos < end) {
		s64 start = it->rank ? idx[it->rank - 1] : 0;
		s64 count = width - start;

		if ((u64)count > end - pos)
			count = (s64)(end - pos);
		for (t = 0; t < it->n; t++) {
			offs[t] = 0;
			for (d = 0; d < it->rank; d++)
				offs[t] += idx[d] * it->strides[t][d];
		}
		fn(ctx, offs, inner, count);
		pos += (u64)count;
		/* Step to the start of the next row. */
		if (!it->rank)
			break;
		idx[it->rank - 1] = 0;
		for (d = it->rank - 1; d-- > 0;) {
			if (++idx[d] < it->shape[d])
				break;
			idx[d] = 0;
		}
	}
}
