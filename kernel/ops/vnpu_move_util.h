/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers of the data movement, sort and resize operators: views, axes,
 * element copies by size (no conversion), walking an output row by row
 * and strided copies between views of one shape.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_MOVE_UTIL_H__
#define __VNPU_MOVE_UTIL_H__

#include "vnpu_ops_impl.h"

/* Most elements one view may have (keeps tile counts and sums exact). */
#define VNPU_MOVE_MAX_ELEMS	0x4000000000000000ULL

/*
 * A view the library can address: known dtype, rank in range,
 * non-negative shape and strides, an element count that fits.
 */
static inline bool vnpu_move_view_ok(const struct vnpu_tview *v)
{
	u64 n = 1;
	u32 d;

	if (v->rank > VNPU_OPS_MAX_RANK || !vnpu_dtype_is_compute(v->dtype) ||
	    vnpu_tview_last(v) < 0)
		return false;
	for (d = 0; d < v->rank; d++) {
		if (v->shape[d] < 0 || v->strides[d] < 0)
			return false;
		if (__builtin_mul_overflow(n, (u64)v->shape[d], &n))
			n = VNPU_MOVE_MAX_ELEMS + 1;
	}
	return n <= VNPU_MOVE_MAX_ELEMS || vnpu_tview_elems(v) == 0;
}

/* The numbers of tensors are right and every view is addressable. */
static inline bool vnpu_move_io_ok(const struct vnpu_op_call *c, u32 nin,
				   u32 nout)
{
	u32 k;

	if (c->num_in != nin || c->num_out != nout ||
	    nin + nout > VNPU_OPS_MAX_TENSORS)
		return false;
	for (k = 0; k < nin + nout; k++)
		if (!vnpu_move_view_ok(&c->t[k]))
			return false;
	return true;
}

static inline bool vnpu_move_same_shape(const struct vnpu_tview *a,
					const struct vnpu_tview *b)
{
	u32 d;

	if (a->rank != b->rank)
		return false;
	for (d = 0; d < a->rank; d++)
		if (a->shape[d] != b->shape[d])
			return false;
	return true;
}

static inline bool vnpu_move_index_dtype(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_INT32 || dtype == DRM_VNPU_DTYPE_INT64;
}

/*
 * The axis in attribute ints[@i] (@dflt without attributes); negative
 * values count from the end. Returns the axis, or -1 when out of range.
 */
static inline s64 vnpu_move_axis(const struct vnpu_op_call *c, u32 i,
				 s64 dflt, u32 rank)
{
	s64 axis = vnpu_attr_int(c, i, dflt);

	if (axis < 0)
		axis += rank;
	return axis >= 0 && axis < (s64)rank ? axis : -1;
}

/*
 * An index read from @ix at element offset @off, for an axis of @n:
 * negative indices count from the end (Python style). Returns the index
 * in [0, n), or -1 when it is out of range.
 */
static inline s64 vnpu_move_index(const struct vnpu_tview *ix, s64 off, s64 n)
{
	s64 i = ix->dtype == DRM_VNPU_DTYPE_INT32 ?
		((const s32 *)ix->data)[off] : ((const s64 *)ix->data)[off];

	if (i < 0)
		i += n;
	return i >= 0 && i < n ? i : -1;
}

/* Element offset of multi-index @idx in @v. */
static inline s64 vnpu_move_offset(const struct vnpu_tview *v, const s64 *idx)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < v->rank; d++)
		off += idx[d] * v->strides[d];
	return off;
}

/* Row-major multi-index of linear element @lin of @shape. */
static inline void vnpu_move_unravel(const s64 *shape, u32 rank, u64 lin,
				     s64 *idx)
{
	u32 d;

	for (d = rank; d-- > 0;) {
		idx[d] = (s64)(lin % (u64)shape[d]);
		lin /= (u64)shape[d];
	}
}

/* Elements [*begin, *end) of piece @tile of VNPU_OPS_TILE_ELEMS each. */
static inline void vnpu_move_range(u64 elems, u64 tile, u64 *begin, u64 *end)
{
	*begin = tile * VNPU_OPS_TILE_ELEMS;
	if (*begin > elems)
		*begin = elems;
	*end = elems - *begin > VNPU_OPS_TILE_ELEMS ?
	       *begin + VNPU_OPS_TILE_ELEMS : elems;
}

#define VNPU_MOVE_RUN(type) do {					\
	type *d_ = (type *)dst + doff;					\
	const type *s_ = (const type *)src + soff;			\
	s64 i_;								\
									\
	if (dinc == 1 && sinc == 1) {					\
		for (i_ = 0; i_ < count; i_++)				\
			d_[i_] = s_[i_];				\
	} else {							\
		for (i_ = 0; i_ < count; i_++)				\
			d_[i_ * dinc] = s_[i_ * sinc];			\
	}								\
} while (0)

/*
 * Copy @count elements of @esize bytes, from @src at element offsets
 * soff + i * sinc to @dst at doff + i * dinc, bit for bit.
 */
static inline void vnpu_move_copy_run(void *dst, s64 doff, s64 dinc,
				      const void *src, s64 soff, s64 sinc,
				      s64 count, u32 esize)
{
	switch (esize) {
	case 1:
		VNPU_MOVE_RUN(u8);
		break;
	case 2:
		VNPU_MOVE_RUN(u16);
		break;
	case 4:
		VNPU_MOVE_RUN(u32);
		break;
	default:
		VNPU_MOVE_RUN(u64);
		break;
	}
}

/* Copy one element of @esize bytes. */
static inline void vnpu_move_copy1(void *dst, s64 doff, const void *src,
				   s64 soff, u32 esize)
{
	switch (esize) {
	case 1:
		((u8 *)dst)[doff] = ((const u8 *)src)[soff];
		break;
	case 2:
		((u16 *)dst)[doff] = ((const u16 *)src)[soff];
		break;
	case 4:
		((u32 *)dst)[doff] = ((const u32 *)src)[soff];
		break;
	default:
		((u64 *)dst)[doff] = ((const u64 *)src)[soff];
		break;
	}
}

/*
 * Call @fn for the elements of @shape with row-major indices
 * [begin, end), one piece of a row at a time: @idx is the multi-index of
 * the piece's first element, @count its length along the last dimension
 * (1 for rank 0). @end must not exceed the number of elements.
 */
static inline void vnpu_move_rows(const s64 *shape, u32 rank, u64 begin,
				  u64 end,
				  void (*fn)(void *ctx, const s64 *idx,
					     s64 count),
				  void *ctx)
{
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };
	u64 pos = begin;
	u32 d;

	if (begin >= end)
		return;
	if (!rank) {
		fn(ctx, idx, 1);
		return;
	}
	vnpu_move_unravel(shape, rank, begin, idx);
	while (pos < end) {
		s64 count = shape[rank - 1] - idx[rank - 1];

		if ((u64)count > end - pos)
			count = (s64)(end - pos);
		fn(ctx, idx, count);
		pos += (u64)count;
		idx[rank - 1] = 0;
		for (d = rank - 1; d-- > 0;) {
			if (++idx[d] < shape[d])
				break;
			idx[d] = 0;
		}
	}
}

/*
 * Copy elements [begin, end) (row-major) of @src to @dst, two views of
 * one shape and element size. Dimensions that are contiguous in both
 * are merged first, so contiguous data moves in long runs.
 */
void vnpu_move_copy_views(const struct vnpu_tview *dst,
			  const struct vnpu_tview *src, u64 begin, u64 end);

/*
 * How SCATTER and SCATTER_ND combine an update with the element already
 * there (the UAPI's reduction attribute values).
 */
#define VNPU_MOVE_REDUCE_NONE	0	/* replace */
#define VNPU_MOVE_REDUCE_ADD	1
#define VNPU_MOVE_REDUCE_MUL	2
#define VNPU_MOVE_REDUCE_MAX	3
#define VNPU_MOVE_REDUCE_MIN	4

/* A reduction the dtype supports (BOOL only replaces). */
static inline bool vnpu_move_reduce_ok(s64 mode, u32 dtype)
{
	if (mode == VNPU_MOVE_REDUCE_NONE)
		return true;
	return mode > VNPU_MOVE_REDUCE_NONE && mode <= VNPU_MOVE_REDUCE_MIN &&
	       dtype != DRM_VNPU_DTYPE_BOOL;
}

/*
 * dst[doff] = dst[doff] (op @mode) src[soff], elements of @dtype: floats
 * in double then rounded once to the dtype, integers wrapping to its
 * width. VNPU_MOVE_REDUCE_NONE copies the bits.
 */
void vnpu_move_reduce1(void *dst, s64 doff, const void *src, s64 soff,
		       u32 dtype, s64 mode);

#endif /* __VNPU_MOVE_UTIL_H__ */
