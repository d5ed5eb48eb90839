// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Sorting: SORT (stable) and TOPK along one axis, giving values and INT64
 * indices.
 *
 * Each fiber (line along the axis) is sorted on its own in the engine's
 * scratch memory. Every element becomes an unsigned key whose order is
 * the wanted one (floats: -Inf < ... < -0 = +0 < ... < +Inf < NaN, so NaN
 * sorts last ascending and first descending; descending uses the key's
 * complement), and a stable sort of the keys (insertion sort for short
 * fibers, LSD radix sort over the key's bytes otherwise) orders the
 * positions: equal elements keep their input order. Values are copied
 * bit for bit from the input.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

/* Longest axis: keys and positions, twice, fit in the scratch memory. */
#define SORT_MAX_AXIS	(64u << 10)
/* Fibers up to this long are insertion sorted. */
#define SORT_SMALL	64
/* Radix sort's cost per fiber beyond its elements (histograms). */
#define SORT_RADIX_COST	512

/* The scratch memory of one fiber. */
struct sort_mem {
	u32 *hist;		/* 8 x 256 counters */
	u64 *key[2];
	u32 *pos[2];
};

static void sort_mem_init(struct sort_mem *m, void *scratch, u32 n)
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
static u64 float_key(u64 b, u32 bits, u64 inf)
{
	u64 sign = 1ULL << (bits - 1), mask = (sign << 1) - 1;
	u64 mag = b & (sign - 1);

	if (mag > inf)
		return mask;
	if (!mag)
		return sign;
	return b & sign ? ~b & mask : b | sign;
}

static u64 sort_key(const void *data, u32 dtype, s64 off)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		return float_key(((const u32 *)data)[off], 32, 0x7f800000);
	case DRM_VNPU_DTYPE_FLOAT16:
		return float_key(((const u16 *)data)[off], 16, 0x7c00);
	case DRM_VNPU_DTYPE_BF16:
		return float_key(((const u16 *)data)[off], 16, 0x7f80);
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
		return float_key(((const u64 *)data)[off], 64,
				 0x7ff0000000000000ULL);
	default:		/* INT64 */
		return ((const u64 *)data)[off] ^ (1ULL << 63);
	}
}

static void insertion_sort(u64 *key, u32 *pos, u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++) {
		u64 k = key[i];
		u32 p = pos[i];

		for (j = i; j > 0 && key[j - 1] > k; j--) {
			key[j] = key[j - 1];
			pos[j] = pos[j - 1];
		}
		key[j] = k;
		pos[j] = p;
	}
}

/*
 * Stable LSD radix sort of key[0] and pos[0] over the low @bytes bytes of
 * the keys. Returns which of the two buffers holds the result.
 */
static u32 radix_sort(struct sort_mem *m, u32 n, u32 bytes)
{
	u32 cur = 0, b, i;

	for (i = 0; i < bytes * 256; i++)
		m->hist[i] = 0;
	for (i = 0; i < n; i++)
		for (b = 0; b < bytes; b++)
			m->hist[b * 256 + ((m->key[0][i] >> (8 * b)) & 255)]++;
	for (b = 0; b < bytes; b++) {
		u32 *h = m->hist + b * 256, sum = 0;

		/* A byte that is the same everywhere orders nothing. */
		if (h[(m->key[cur][0] >> (8 * b)) & 255] == n)
			continue;
		for (i = 0; i < 256; i++) {
			u32 t = h[i];

			h[i] = sum;
			sum += t;
		}
		for (i = 0; i < n; i++) {
			u64 k = m->key[cur][i];
			u32 d = h[(k >> (8 * b)) & 255]++;

			m->key[!cur][d] = k;
			m->pos[!cur][d] = m->pos[cur][i];
		}
		cur = !cur;
	}
	return cur;
}

static bool sort_is_topk(const struct vnpu_op_call *c)
{
	return c->op == DRM_VNPU_OP_TOPK;
}

static s64 sort_axis(const struct vnpu_op_call *c)
{
	return vnpu_move_axis(c, 0, -1, c->t[0].rank);
}

static int sort_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *v = &c->t[1], *ix = &c->t[2];
	s64 axis;
	u32 d;

	if (!vnpu_move_io_ok(c, 1, 2) || v->dtype != x->dtype ||
	    ix->dtype != DRM_VNPU_DTYPE_INT64 || !x->rank ||
	    v->rank != x->rank || !vnpu_move_same_shape(v, ix))
		return -VNPU_OPS_EINVAL;
	axis = sort_axis(c);
	if (axis < 0 || x->shape[axis] > SORT_MAX_AXIS)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (d != axis && v->shape[d] != x->shape[d])
			return -VNPU_OPS_EINVAL;
	if (sort_is_topk(c) ? v->shape[axis] > x->shape[axis] :
	    v->shape[axis] != x->shape[axis])
		return -VNPU_OPS_EINVAL;
	return 0;
}

/* Fibers, and how many a piece takes (*per). */
static u64 sort_fibers(const struct vnpu_op_call *c, s64 axis, u64 *per)
{
	const struct vnpu_tview *x = &c->t[0];
	u64 n, cost;

	*per = 1;
	if (axis < 0 || !vnpu_tview_elems(&c->t[1]))
		return 0;
	n = (u64)x->shape[axis];
	cost = n > SORT_SMALL ? n + SORT_RADIX_COST : n;
	*per = VNPU_OPS_TILE_ELEMS / cost;
	if (!*per)
		*per = 1;
	return vnpu_tview_elems(x) / n;
}

static u64 sort_tiles(const struct vnpu_op_call *c)
{
	u64 per, fibers = sort_fibers(c, sort_axis(c), &per);

	return (fibers + per - 1) / per;
}

static void sort_fiber(const struct vnpu_op_call *c, struct sort_mem *m,
		       s64 axis, const s64 *idx, bool desc)
{
	const struct vnpu_tview *x = &c->t[0], *v = &c->t[1], *ix = &c->t[2];
	u32 n = (u32)x->shape[axis], esize = vnpu_dtype_size(x->dtype);
	u64 mask = esize == 8 ? ~0ULL : (1ULL << (8 * esize)) - 1;
	s64 xo = vnpu_move_offset(x, idx), xs = x->strides[axis];
	s64 vo = vnpu_move_offset(v, idx), vs = v->strides[axis];
	s64 io = vnpu_move_offset(ix, idx), is = ix->strides[axis];
	s64 j, k = v->shape[axis];
	u32 i, cur = 0;

	for (i = 0; i < n; i++) {
		u64 key = sort_key(x->data, x->dtype, xo + i * xs);

		m->key[0][i] = desc ? ~key & mask : key;
		m->pos[0][i] = i;
	}
	if (n <= SORT_SMALL)
		insertion_sort(m->key[0], m->pos[0], n);
	else
		cur = radix_sort(m, n, esize);
	for (j = 0; j < k; j++) {
		u32 p = m->pos[cur][j];

		vnpu_move_copy1(v->data, vo + j * vs, x->data, xo + p * xs, esize);
		((s64 *)ix->data)[io + j * is] = p;
	}
}

static void sort_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0];
	s64 axis = sort_axis(c);
	s64 fshape[VNPU_OPS_MAX_RANK], idx[VNPU_OPS_MAX_RANK];
	bool desc = sort_is_topk(c) ? vnpu_attr_int(c, 2, 1) != 0 :
		    vnpu_attr_int(c, 1, 0) != 0;
	struct sort_mem m;
	u64 per, fibers, f, end;
	u32 d;

	fibers = sort_fibers(c, axis, &per);
	if (!fibers)
		return;
	sort_mem_init(&m, c->scratch, (u32)x->shape[axis]);
	for (d = 0; d < x->rank; d++)
		fshape[d] = d == axis ? 1 : x->shape[d];
	f = tile * per;
	end = fibers - f > per ? f + per : fibers;
	for (; f < end; f++) {
		vnpu_move_unravel(fshape, x->rank, f, idx);
		sort_fiber(c, &m, axis, idx, desc);
	}
}

const struct vnpu_op_impl vnpu_ops_sort[] = {
	{ DRM_VNPU_OP_TOPK, "topk", sort_check, sort_tiles, sort_tile },
	{ DRM_VNPU_OP_SORT, "sort", sort_check, sort_tiles, sort_tile },
	{ 0 }
};
