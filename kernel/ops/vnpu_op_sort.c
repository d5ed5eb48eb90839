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
 * bit for bit from the input. Fibers longer than VNPU_SORT_MAX_AXIS are
 * split into chunks across engines (vnpu_sort_split.c) where that is
 * supported, and refused otherwise.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_sort.h"

/* Fibers up to this long are insertion sorted. */
#define SORT_SMALL	64
/* Radix sort's cost per fiber beyond its elements (histograms). */
#define SORT_RADIX_COST	512

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
static u32 radix_sort(struct vnpu_sort_mem *m, u32 n, u32 bytes)
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

u32 vnpu_sort_keys(struct vnpu_sort_mem *m, u32 n, u32 bytes)
{
	if (n <= SORT_SMALL) {
		insertion_sort(m->key[0], m->pos[0], n);
		return 0;
	}
	return radix_sort(m, n, bytes);
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
	if (axis < 0)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (d != axis && v->shape[d] != x->shape[d])
			return -VNPU_OPS_EINVAL;
	if (sort_is_topk(c) ? v->shape[axis] > x->shape[axis] :
	    v->shape[axis] != x->shape[axis])
		return -VNPU_OPS_EINVAL;
	if (x->shape[axis] > VNPU_SORT_MAX_AXIS) {
		struct vnpu_split_rows s;

		if (!vnpu_sort_split_plan(c, axis, &s))
			return -VNPU_OPS_EINVAL;
	}
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

static u32 sort_phases(const struct vnpu_op_call *c, u64 *ends)
{
	u64 per, fibers;
	struct vnpu_split_rows s;
	s64 axis = sort_axis(c);

	if (vnpu_sort_split_plan(c, axis, &s))
		return vnpu_sort_split_phases(c, &s, ends);
	fibers = sort_fibers(c, axis, &per);
	ends[0] = (fibers + per - 1) / per;
	return 1;
}

static u64 sort_tiles(const struct vnpu_op_call *c)
{
	u64 ends[VNPU_OPS_MAX_PHASES];

	return ends[sort_phases(c, ends) - 1];
}

static void sort_fiber(const struct vnpu_op_call *c, struct vnpu_sort_mem *m,
		       s64 axis, const s64 *idx, bool desc)
{
	const struct vnpu_tview *x = &c->t[0], *v = &c->t[1], *ix = &c->t[2];
	u32 n = (u32)x->shape[axis], esize = vnpu_dtype_size(x->dtype);
	u64 mask = vnpu_sort_mask(esize);
	s64 xo = vnpu_move_offset(x, idx), xs = x->strides[axis];
	s64 vo = vnpu_move_offset(v, idx), vs = v->strides[axis];
	s64 io = vnpu_move_offset(ix, idx), is = ix->strides[axis];
	s64 j, k = v->shape[axis];
	u32 i, cur;

	for (i = 0; i < n; i++) {
		u64 key = vnpu_sort_key(x->data, x->dtype, xo + i * xs);

		m->key[0][i] = desc ? ~key & mask : key;
		m->pos[0][i] = i;
	}
	cur = vnpu_sort_keys(m, n, esize);
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
	struct vnpu_sort_mem m;
	struct vnpu_split_rows s;
	u64 per, fibers, f, end;
	u32 d;

	if (vnpu_sort_split_plan(c, axis, &s)) {
		vnpu_sort_split_run(c, axis, &s, tile);
		return;
	}
	fibers = sort_fibers(c, axis, &per);
	if (!fibers)
		return;
	vnpu_sort_mem_init(&m, c->scratch, (u32)x->shape[axis]);
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
	{ DRM_VNPU_OP_TOPK, "topk", sort_check, sort_tiles, sort_tile,
	  sort_phases },
	{ DRM_VNPU_OP_SORT, "sort", sort_check, sort_tiles, sort_tile,
	  sort_phases },
	{ 0 }
};
