/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers shared by operator implementations: dtype conversions, element
 * access and attributes. Floating point appears here, so only operator
 * files (FPU units in the module) include this.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_OPS_IMPL_H__
#define __VNPU_OPS_IMPL_H__

#include "vnpu_ops.h"

/* Conversions used by every operator (round to nearest even). */
float vnpu_f16_to_f32(u16 h);
u16 vnpu_f32_to_f16(float f);
float vnpu_bf16_to_f32(u16 b);
u16 vnpu_f32_to_bf16(float f);

/* Read element @i (an element offset) of any dtype as double / int64. */
double vnpu_load_f64(const void *base, u32 dtype, s64 i);
s64 vnpu_load_s64(const void *base, u32 dtype, s64 i);
/* Store with the library's cast rules (see Documentation/ops.md). */
void vnpu_store_f64(void *base, u32 dtype, s64 i, double v);
void vnpu_store_s64(void *base, u32 dtype, s64 i, s64 v);

/*
 * Whether a dtype is a floating-point one computed in fp32 (FLOAT, FLOAT16,
 * BF16); vnpu_dtype_is_fp() also takes DOUBLE.
 */
static inline bool vnpu_dtype_is_float(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_FLOAT || dtype == DRM_VNPU_DTYPE_FLOAT16 ||
	       dtype == DRM_VNPU_DTYPE_BF16;
}

/* Attribute helpers: a float attribute, or its default without attrs. */
float vnpu_attr_float(const struct vnpu_op_call *c, u32 i, float dflt);
s64 vnpu_attr_int(const struct vnpu_op_call *c, u32 i, s64 dflt);

/**
 * struct vnpu_iter - walks an output and the inputs that broadcast to it
 * @rank: dimensions (the output's)
 * @n: tensors: the output first, then the inputs
 * @shape: the output's shape
 * @strides: per tensor, strides aligned to the output (0 where broadcast)
 */
struct vnpu_iter {
	u32 rank;
	u32 n;
	s64 shape[VNPU_OPS_MAX_RANK];
	s64 strides[4][VNPU_OPS_MAX_RANK];
};

/*
 * Set up @it over @out with @nin inputs broadcasting numpy-style (trailing
 * dimensions aligned, size 1 or missing dimensions repeat). Returns 0, or
 * -VNPU_OPS_EINVAL when an input does not broadcast to @out.
 */
int vnpu_iter_init(struct vnpu_iter *it, const struct vnpu_tview *out,
		   const struct vnpu_tview *const *ins, u32 nin);

/*
 * Call @fn for the output elements with linear (row-major) indices
 * [begin, end), one run along the innermost dimension at a time: @offs are
 * the element offsets of the run's first element in each tensor, @inner
 * the innermost strides, @count the run length.
 */
void vnpu_iter_run(const struct vnpu_iter *it, u64 begin, u64 end,
		   void (*fn)(void *ctx, const s64 *offs, const s64 *inner,
			      s64 count),
		   void *ctx);

/* Pieces of VNPU_OPS_TILE_ELEMS elements covering @elems. */
static inline u64 vnpu_tiles_for(u64 elems)
{
	return (elems + VNPU_OPS_TILE_ELEMS - 1) / VNPU_OPS_TILE_ELEMS;
}

#endif /* __VNPU_OPS_IMPL_H__ */
