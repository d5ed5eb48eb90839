// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * CAST: x converted to the output's dtype, between all thirteen dtypes
 * (the eight compute dtypes and the storage-only INT16, UINT16, UINT32,
 * UINT64 and DOUBLE); x broadcasts to the output's shape, any strides.
 *
 * Rules:
 * - float to integer truncates toward zero, then wraps modulo 2^width
 *   (exactly, whatever the magnitude); NaN and +-Inf give 0.
 * - integer to float rounds to nearest even, directly from the integer
 *   (no double rounding through fp32 for FLOAT16 and BF16; UINT64 as an
 *   unsigned value); values past the largest finite number become +-Inf.
 * - float to a narrower float rounds to nearest even, once (DOUBLE to
 *   FLOAT16 / BF16 too), overflow gives +-Inf, NaN stays NaN (quiet);
 *   widening float conversions are exact.
 * - anything to BOOL is x != 0 (NaN is true, -0 false); BOOL to a number
 *   is 0 or 1. Integer to integer wraps.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

struct cast_ctx {
	const struct vnpu_op_call *c;
	float *f;		/* staging buffers in scratch */
	s64 *i;
};

union cast_f32_bits {
	float f;
	u32 u;
};

/* Truncate toward zero, then reduce modulo 2^64; NaN and Inf give 0. */
static s64 f32_to_wrapped(float x)
{
	union cast_f32_bits v = { .f = x };
	int e = (int)((v.u >> 23) & 0xff);
	u64 m = (v.u & 0x7fffff) | 0x800000, r;

	if (e == 0xff)
		return 0;
	if (x > -9.2233720368547758e18f && x < 9.2233720368547758e18f)
		return (s64)x;
	e -= 127 + 23;		/* |x| = m 2^e, e >= 40 here */
	r = e >= 64 ? 0 : m << e;
	return (s64)(x < 0 ? 0 - r : r);
}

/*
 * The integer with magnitude @mag (negative if @neg) rounded to @bits
 * significant bits (nearest even), as an exact float.
 */
static float int_round_to_float(u64 mag, bool neg, int bits)
{
	u64 q, rem, half;
	union cast_f32_bits scale;
	int top, shift;
	float r;

	if (mag < (1ULL << bits))
		return neg ? -(float)mag : (float)mag;
	top = 63 - __builtin_clzll(mag);
	shift = top + 1 - bits;
	q = mag >> shift;
	rem = mag & ((1ULL << shift) - 1);
	half = 1ULL << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	scale.u = (u32)(shift + 127) << 23;
	r = (float)q * scale.f;
	return neg ? -r : r;
}

/* An integer loaded as s64 (UINT64: its bit pattern) rounded to @bits. */
static float int_to_float(s64 v, bool is_u64, int bits)
{
	if (is_u64 || v >= 0)
		return int_round_to_float((u64)v, false, bits);
	return int_round_to_float(0 - (u64)v, true, bits);
}

/* Either side DOUBLE: one element at a time through a double. */
static void cast_run_f64(const struct vnpu_tview *x, const struct vnpu_tview *o,
			 const s64 *offs, const s64 *inner, s64 count)
{
	s64 k;

	for (k = 0; k < count; k++)
		vnpu_store_f64(o->data, o->dtype, offs[0] + k * inner[0],
			       vnpu_load_f64(x->data, x->dtype,
					     offs[1] + k * inner[1]));
}

static void cast_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct cast_ctx *cc = p;
	const struct vnpu_tview *x = &cc->c->t[0], *o = &cc->c->t[1];
	bool from_float = vnpu_dtype_is_float(x->dtype);
	bool from_u64 = x->dtype == DRM_VNPU_DTYPE_UINT64;
	s64 done, n, k;

	if (x->dtype == DRM_VNPU_DTYPE_DOUBLE || o->dtype == DRM_VNPU_DTYPE_DOUBLE) {
		cast_run_f64(x, o, offs, inner, count);
		return;
	}
	for (done = 0; done < count; done += n) {
		s64 oo = offs[0] + done * inner[0];
		s64 xo = offs[1] + done * inner[1];

		n = count - done < VNPU_ELT_CHUNK ? count - done : VNPU_ELT_CHUNK;
		if (from_float) {
			vnpu_elt_load_f32(cc->f, x->data, x->dtype, xo, inner[1], n);
			if (vnpu_dtype_is_float(o->dtype)) {
				vnpu_elt_store_f32(o->data, o->dtype, oo, inner[0], cc->f, n);
				continue;
			}
			for (k = 0; k < n; k++)
				cc->i[k] = o->dtype == DRM_VNPU_DTYPE_BOOL ?
					   cc->f[k] != 0 : f32_to_wrapped(cc->f[k]);
			vnpu_elt_store_s64(o->data, o->dtype, oo, inner[0], cc->i, n);
			continue;
		}
		vnpu_elt_load_s64(cc->i, x->data, x->dtype, xo, inner[1], n);
		if (!vnpu_dtype_is_float(o->dtype)) {
			vnpu_elt_store_s64(o->data, o->dtype, oo, inner[0], cc->i, n);
			continue;
		}
		for (k = 0; k < n; k++) {
			switch (o->dtype) {
			case DRM_VNPU_DTYPE_FLOAT16:
				cc->f[k] = int_to_float(cc->i[k], from_u64, 11);
				break;
			case DRM_VNPU_DTYPE_BF16:
				cc->f[k] = int_to_float(cc->i[k], from_u64, 8);
				break;
			default:
				cc->f[k] = int_to_float(cc->i[k], from_u64, 24);
				break;
			}
		}
		vnpu_elt_store_f32(o->data, o->dtype, oo, inner[0], cc->f, n);
	}
}

static int cast_check(const struct vnpu_op_call *c)
{
	struct vnpu_iter it;
	const struct vnpu_tview *ins[1] = { &c->t[0] };

	if (c->num_in != 1 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_size(c->t[0].dtype) || !vnpu_dtype_size(c->t[1].dtype))
		return -VNPU_OPS_EINVAL;
	if (!vnpu_elt_shape_ok(&c->t[0]) || !vnpu_elt_shape_ok(&c->t[1]))
		return -VNPU_OPS_EINVAL;
	return vnpu_iter_init(&it, &c->t[1], ins, 1);
}

static u64 cast_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[1]));
}

static void cast_tile(const struct vnpu_op_call *c, u64 tile)
{
	u8 *s = c->scratch;
	struct cast_ctx cc = {
		.c = c,
		.f = (float *)s,
		.i = (s64 *)(s + 4 * VNPU_ELT_CHUNK),
	};
	struct vnpu_iter it;
	u64 begin, end;

	if (vnpu_elt_iter(&it, &c->t[1], c->t, 1, tile, VNPU_OPS_TILE_ELEMS,
			  &begin, &end))
		return;
	vnpu_iter_run(&it, begin, end, cast_run, &cc);
}

const struct vnpu_op_impl vnpu_ops_cast[] = {
	{ DRM_VNPU_OP_CAST, "cast", cast_check, cast_tiles, cast_tile },
	{ 0 }
};
