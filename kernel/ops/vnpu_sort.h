/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What SORT and TOPK share (vnpu_op_sort.c, and the long rows split into
 * chunks of vnpu_sort_split.c): every element becomes an unsigned key whose
 * order is the wanted one (floats: -Inf < ... < -0 = +0 < ... < +Inf <
 * NaN; descending uses the key's complement), and positions ordered by
 * (key, position) give the stable order.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_SORT_H__
#define __VNPU_SORT_H__

#include "vnpu_move_util.h"
#include "vnpu_split_util.h"

/* Longest axis sorted as one piece: keys and positions, twice, in scratch. */
#define VNPU_SORT_MAX_AXIS	(64u << 10)

/* The scratch memory of one fiber (or chunk). */
struct vnpu_sort_mem {
	u32 *hist;		/* 8 x 256 counters */
	u64 *key[2];
	u32 *pos[2];
};

/* Lay out @m for fibers of up to @n elements from @scratch. */
static inline void vnpu_sort_mem_init(struct vnpu_sort_mem *m, void *scratch,
				      u32 n)
{
	u8 *p = scratch;

	m->hist = (u32 *)p;
	p += 8 * 256 * sizeof(u32);
	m->key[0] = (u64 *)p;
	p += n * sizeof(u64);
	m->key[1] = (u64 *)p;
	p += n * sizeof(u64);
	m->pos[0] = (u32 *)p;
	p += n * sizeof(u32);
	m->pos[1] = (u32 *)p;
}

/*
 * Order-preserving key of an IEEE float of @bits bits (bit pattern @b)
 * whose magnitudes above @inf are NaNs: NaN above everything, -0 = +0.
 */
static inline u64 vnpu_sort_float_key(u64 b, u32 bits, u64 inf)
{
	u64 sign = 1ULL << (bits - 1), mask = (sign << 1) - 1;
	u64 mag = b & (sign - 1);

	if (mag > inf)
		return mask;
	if (!mag)
		return sign;
	return b & sign ? ~b & mask : b | sign;
}

/* The ascending key of element @off of @data. */
static inline u64 vnpu_sort_key(const void *data, u32 dtype, s64 off)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		return vnpu_sort_float_key(((const u32 *)data)[off], 32,
					   0x7f800000);
	case DRM_VNPU_DTYPE_FLOAT16:
		return vnpu_sort_float_key(((const u16 *)data)[off], 16, 0x7c00);
	case DRM_VNPU_DTYPE_BF16:
		return vnpu_sort_float_key(((const u16 *)data)[off], 16, 0x7f80);
	case DRM_VNPU_DTYPE_INT8:
		return ((const u8 *)data)[off] ^ 0x80;
	case DRM_VNPU_DTYPE_UINT8:
		return ((const u8 *)data)[off];
	case DRM_VNPU_DTYPE_BOOL:
		return ((const u8 *)data)[off] != 0;
	case DRM_VNPU_DTYPE_INT32:
		return ((const u32 *)data)[off] ^ 0x80000000u;
	case DRM_VNPU_DTYPE_INT16:
		return ((const u16 *)data)[off] ^ 0x8000u;
	case DRM_VNPU_DTYPE_UINT16:
		return ((const u16 *)data)[off];
	case DRM_VNPU_DTYPE_UINT32:
		return ((const u32 *)data)[off];
	case DRM_VNPU_DTYPE_UINT64:
		return ((const u64 *)data)[off];
	case DRM_VNPU_DTYPE_DOUBLE:
		return vnpu_sort_float_key(((const u64 *)data)[off], 64,
					   0x7ff0000000000000ULL);
	default:		/* INT64 */
		return ((const u64 *)data)[off] ^ (1ULL << 63);
	}
}

/* All ones in the low bytes of a key of an @esize-byte element. */
static inline u64 vnpu_sort_mask(u32 esize)
{
	return esize == 8 ? ~0ULL : (1ULL << (8 * esize)) - 1;
}

/*
 * Stable sort of m->key[0] and m->pos[0] (@n of them, keys of @bytes
 * bytes). Returns which of the two buffers holds the result.
 */
u32 vnpu_sort_keys(struct vnpu_sort_mem *m, u32 n, u32 bytes);

/*
 * Long SORT and TOPK fibers split into chunks of VNPU_SPLIT_CHUNK
 * (vnpu_sort_split.c). Whether a call of axis @axis splits: fills @s.
 */
bool vnpu_sort_split_plan(const struct vnpu_op_call *c, s64 axis,
			  struct vnpu_split_rows *s);
/* Its phases and their ends. */
u32 vnpu_sort_split_phases(const struct vnpu_op_call *c,
			   const struct vnpu_split_rows *s, u64 *ends);
/* Piece @tile of a split call. */
void vnpu_sort_split_run(const struct vnpu_op_call *c, s64 axis,
			 const struct vnpu_split_rows *s, u64 tile);

#endif /* __VNPU_SORT_H__ */
