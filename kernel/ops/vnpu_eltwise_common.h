/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Shared pieces of the elementwise families (binary, unary, cast): tile
 * ranges, a broadcasting iterator with merged dimensions, and staging of
 * strided elements of any dtype through contiguous fp32 / double / int64
 * buffers (DOUBLE computes in double; UINT64 is staged as its bit pattern
 * and the families compare, divide and shift it as unsigned).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_ELTWISE_COMMON_H__
#define __VNPU_ELTWISE_COMMON_H__

#include "vnpu_math.h"

/* Elements staged at a time; buffers live in the call's scratch memory. */
#define VNPU_ELT_CHUNK		1024

/*
 * The 8-lane fp32 vector of the fast paths (GCC vector extension), with
 * unaligned loads and stores.
 */
#define VNPU_ELT_V8F		float __attribute__((vector_size(32)))
#define VNPU_ELT_V8I		int __attribute__((vector_size(32)))
#define VNPU_ELT_LD(p)		({					\
	VNPU_ELT_V8F __v;						\
	__builtin_memcpy(&__v, (p), sizeof(__v));			\
	__v;								\
})
#define VNPU_ELT_ST(p, v)	({					\
	VNPU_ELT_V8F __s = (v);						\
	__builtin_memcpy((p), &__s, sizeof(__s));			\
})

/* An integer dtype (not BOOL): computed in int64 staging. */
static inline bool vnpu_elt_dtype_int(u32 dtype)
{
	return vnpu_dtype_is_int(dtype);
}

/* Whether a view's shape is valid (no negative sizes). */
bool vnpu_elt_shape_ok(const struct vnpu_tview *v);

/*
 * Set up @it over output @out and @nin inputs @in (consecutive views),
 * merging dimensions that are contiguous across all tensors and dropping
 * size-1 ones so the runs are as long as possible; the elements of tile
 * @tile (of @tile_elems elements each) go to [*begin, *end). Returns 0 or
 * -VNPU_OPS_EINVAL.
 */
int vnpu_elt_iter(struct vnpu_iter *it, const struct vnpu_tview *out,
		  const struct vnpu_tview *in, u32 nin, u64 tile,
		  u64 tile_elems, u64 *begin, u64 *end);

/* Tiles of @tile_elems elements covering @elems. */
static inline u64 vnpu_elt_tiles(u64 elems, u64 tile_elems)
{
	return (elems + tile_elems - 1) / tile_elems;
}

/* Strided elements of any dtype to and from contiguous buffers. */
void vnpu_elt_load_f32(float *dst, const void *base, u32 dtype, s64 off,
		       s64 st, s64 n);
void vnpu_elt_store_f32(void *base, u32 dtype, s64 off, s64 st,
			const float *src, s64 n);
void vnpu_elt_load_f64(double *dst, const void *base, u32 dtype, s64 off,
		       s64 st, s64 n);
void vnpu_elt_store_f64(void *base, u32 dtype, s64 off, s64 st,
			const double *src, s64 n);
void vnpu_elt_load_s64(s64 *dst, const void *base, u32 dtype, s64 off,
		       s64 st, s64 n);
/* Integers wrap to the dtype's width; BOOL is != 0. */
void vnpu_elt_store_s64(void *base, u32 dtype, s64 off, s64 st,
			const s64 *src, s64 n);
void vnpu_elt_store_bool(void *base, s64 off, s64 st, const u8 *src, s64 n);

#endif /* __VNPU_ELTWISE_COMMON_H__ */
