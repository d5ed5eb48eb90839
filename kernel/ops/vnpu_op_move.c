// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Data movement: strided copy, concat, split, slice, gather, scatter,
 * index select, where, pad, tile, one-hot, arange and fill.
 *
 * Elements move bit for bit by their size, whatever the dtype; only the
 * operators that make values (PAD's constant, ONE_HOT, ARANGE, FILL)
 * convert, with the library's cast rules. Indices (INT32 or INT64) count
 * from the end when negative, Python style; an index outside [-n, n)
 * reads as zero (GATHER, INDEX_SELECT), is skipped (SCATTER) or gives a
 * row of "off" values (ONE_HOT). Nothing outside the views is touched.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

/* The element an out-of-range index reads: zero of every size. */
static const u64 vnpu_move_zero;

#define PAD_CONSTANT	0
#define PAD_REFLECT	1
#define PAD_EDGE	2

static u64 out0_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[c->num_in]));
}

/* ------------------------------------------------------- strided copy -- */

struct copy_ctx {
	void *dst;
	const void *src;
	u32 esize;
};

static void copy_fn(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct copy_ctx *x = p;

	vnpu_move_copy_run(x->dst, offs[0], inner[0], x->src, offs[1],
			   inner[1], count, x->esize);
}

/*
 * Merge the dimensions of @n views of one shape that are contiguous in
 * all of them (and drop size-1 ones): the row-major order of the
 * elements, and so their linear indices, stay the same.
 */
static void collapse(struct vnpu_tview *v, u32 n)
{
	u32 d, t, r = 0;

	for (d = 0; d < v[0].rank; d++) {
		s64 size = v[0].shape[d];
		bool merge = r > 0;

		if (size == 1)
			continue;
		for (t = 0; t < n && merge; t++) {
			s64 span;

			if (__builtin_mul_overflow(v[t].strides[d], size, &span) ||
			    span != v[t].strides[r - 1])
				merge = false;
		}
		for (t = 0; t < n; t++) {
			if (merge) {
				v[t].shape[r - 1] *= size;
				v[t].strides[r - 1] = v[t].strides[d];
			} else {
				v[t].shape[r] = size;
				v[t].strides[r] = v[t].strides[d];
			}
		}
		if (!merge)
			r++;
	}
	for (t = 0; t < n; t++)
		v[t].rank = r;
}

void vnpu_move_copy_views(const struct vnpu_tview *dst,
			  const struct vnpu_tview *src, u64 begin, u64 end)
{
	struct vnpu_tview v[2];
	const struct vnpu_tview *ins[1] = { &v[1] };
	struct copy_ctx x = {
		.dst = dst->data,
		.src = src->data,
		.esize = vnpu_dtype_size(dst->dtype),
	};
	struct vnpu_iter it;

	if (begin >= end)
		return;
	v[0] = *dst;
	v[1] = *src;
	collapse(v, 2);
	if (vnpu_iter_init(&it, &v[0], ins, 1))
		return;
	vnpu_iter_run(&it, begin, end, copy_fn, &x);
}

static int copy_check(const struct vnpu_op_call *c)
{
	if (!vnpu_move_io_ok(c, 1, 1) || c->t[0].dtype != c->t[1].dtype ||
	    !vnpu_move_same_shape(&c->t[0], &c->t[1]))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static void copy_tile(const struct vnpu_op_call *c, u64 tile)
{
	u64 b, e;

	vnpu_move_range(vnpu_tview_elems(&c->t[1]), tile, &b, &e);
	vnpu_move_copy_views(&c->t[1], &c->t[0], b, e);
}

/* ----------------------------------------------------- concat, split -- */

/*
 * CONCAT and SPLIT relate one big tensor to several small ones laid side
 * by side along the axis; each small tensor is a strided copy to or from
 * a part of the big one, in pieces of its own.
 */
static const struct vnpu_tview *joint_big(const struct vnpu_op_call *c,
					  bool split)
{
	return split ? &c->t[0] : &c->t[c->num_in];
}

static int joint_check(const struct vnpu_op_call *c, bool split)
{
	const struct vnpu_tview *big;
	u32 n = split ? c->num_out : c->num_in;
	s64 axis, sum = 0;
	u32 k, d;

	if (n < 1 || (split ? c->num_in : c->num_out) != 1 ||
	    !vnpu_move_io_ok(c, c->num_in, c->num_out))
		return -VNPU_OPS_EINVAL;
	big = joint_big(c, split);
	axis = vnpu_move_axis(c, 0, 0, big->rank);
	if (axis < 0)
		return -VNPU_OPS_EINVAL;
	for (k = 0; k < n; k++) {
		const struct vnpu_tview *small = &c->t[split ? 1 + k : k];

		if (small->dtype != big->dtype || small->rank != big->rank)
			return -VNPU_OPS_EINVAL;
		for (d = 0; d < big->rank; d++)
			if (d != axis && small->shape[d] != big->shape[d])
				return -VNPU_OPS_EINVAL;
		if (__builtin_add_overflow(sum, small->shape[axis], &sum))
			return -VNPU_OPS_EINVAL;
	}
	return sum == big->shape[axis] ? 0 : -VNPU_OPS_EINVAL;
}

static u64 joint_tiles(const struct vnpu_op_call *c, bool split)
{
	u32 n = split ? c->num_out : c->num_in;
	u64 tiles = 0;
	u32 k;

	for (k = 0; k < n; k++)
		tiles += vnpu_tiles_for(vnpu_tview_elems(&c->t[split ? 1 + k : k]));
	return tiles;
}

static void joint_tile(const struct vnpu_op_call *c, u64 tile, bool split)
{
	const struct vnpu_tview *big = joint_big(c, split);
	u32 n = split ? c->num_out : c->num_in;
	s64 axis = vnpu_move_axis(c, 0, 0, big->rank);
	s64 at = 0;
	u32 k;

	if (axis < 0)
		return;
	for (k = 0; k < n; k++) {
		const struct vnpu_tview *small = &c->t[split ? 1 + k : k];
		u64 elems = vnpu_tview_elems(small);
		u64 tiles = vnpu_tiles_for(elems);

		if (tile < tiles) {
			struct vnpu_tview part = *big;
			u64 b, e;

			part.data = (u8 *)big->data + at * big->strides[axis] *
				    vnpu_dtype_size(big->dtype);
			part.shape[axis] = small->shape[axis];
			vnpu_move_range(elems, tile, &b, &e);
			if (split)
				vnpu_move_copy_views(small, &part, b, e);
			else
				vnpu_move_copy_views(&part, small, b, e);
			return;
		}
		tile -= tiles;
		at += small->shape[axis];
	}
}

static int concat_check(const struct vnpu_op_call *c)
{
	return joint_check(c, false);
}

static u64 concat_tiles(const struct vnpu_op_call *c)
{
	return joint_tiles(c, false);
}

static void concat_tile(const struct vnpu_op_call *c, u64 tile)
{
	joint_tile(c, tile, false);
}

static int split_check(const struct vnpu_op_call *c)
{
	return joint_check(c, true);
}

static u64 split_tiles(const struct vnpu_op_call *c)
{
	return joint_tiles(c, true);
}

static void split_tile(const struct vnpu_op_call *c, u64 tile)
{
	joint_tile(c, tile, true);
}

/* -------------------------------------------------------------- slice -- */

static int slice_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	u32 d;

	if (!vnpu_move_io_ok(c, 1, 1) || x->dtype != o->dtype || x->rank != o->rank)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++) {
		s64 start = vnpu_attr_int(c, d, 0);
		s64 step = vnpu_attr_int(c, 8 + d, 1);
		s64 last;

		if (!step || start < 0)
			return -VNPU_OPS_EINVAL;
		if (!o->shape[d]) {
			if (start > x->shape[d])
				return -VNPU_OPS_EINVAL;
			continue;
		}
		/* the first and the last index read must both be inside */
		if (start >= x->shape[d] ||
		    __builtin_mul_overflow(o->shape[d] - 1, step, &last) ||
		    __builtin_add_overflow(last, start, &last) ||
		    last < 0 || last >= x->shape[d])
			return -VNPU_OPS_EINVAL;
	}
	return 0;
}

struct slice_ctx {
	const struct vnpu_op_call *c;
	u32 esize;
};

/* Negative steps: each row's source offset from the starts and steps. */
static void slice_row(void *p, const s64 *idx, s64 count)
{
	const struct slice_ctx *q = p;
	const struct vnpu_tview *x = &q->c->t[0], *o = &q->c->t[1];
	u32 last = o->rank - 1, d;
	s64 xo = 0;

	for (d = 0; d < o->rank; d++)
		xo += (vnpu_attr_int(q->c, d, 0) +
		       idx[d] * vnpu_attr_int(q->c, 8 + d, 1)) * x->strides[d];
	vnpu_move_copy_run(o->data, vnpu_move_offset(o, idx), o->strides[last],
			   x->data, xo,
			   vnpu_attr_int(q->c, 8 + last, 1) * x->strides[last],
			   count, q->esize);
}

static void slice_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	struct vnpu_tview v = *x;
	struct slice_ctx q = { .c = c, .esize = vnpu_dtype_size(o->dtype) };
	u64 elems = vnpu_tview_elems(o), b, e;
	s64 off = 0;
	u32 d;

	if (!elems)
		return;
	vnpu_move_range(elems, tile, &b, &e);
	for (d = 0; d < x->rank; d++) {
		if (vnpu_attr_int(c, 8 + d, 1) < 0) {
			vnpu_move_rows(o->shape, o->rank, b, e, slice_row, &q);
			return;
		}
	}
	for (d = 0; d < x->rank; d++) {
		s64 step = vnpu_attr_int(c, 8 + d, 1);

		off += vnpu_attr_int(c, d, 0) * x->strides[d];
		v.shape[d] = o->shape[d];
		v.strides[d] = o->shape[d] > 1 ? step * x->strides[d] : 0;
	}
	v.data = (u8 *)x->data + off * vnpu_dtype_size(x->dtype);
	vnpu_move_copy_views(o, &v, b, e);
}

/* ------------------------------------------ gather and index select -- */

struct index_ctx {
	const struct vnpu_op_call *c;
	s64 axis;
	u32 esize;
};

/* Offset in @v of multi-index @idx without the contribution of @skip. */
static s64 offset_but(const struct vnpu_tview *v, const s64 *idx, s64 skip)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < v->rank; d++)
		if (d != skip)
			off += idx[d] * v->strides[d];
	return off;
}

static int gather_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1], *o = &c->t[2];
	s64 axis;
	u32 d;

	if (!vnpu_move_io_ok(c, 2, 1) || !vnpu_move_index_dtype(ix->dtype) ||
	    o->dtype != x->dtype || !x->rank || ix->rank != x->rank ||
	    !vnpu_move_same_shape(o, ix))
		return -VNPU_OPS_EINVAL;
	axis = vnpu_move_axis(c, 0, 0, x->rank);
	if (axis < 0)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (d != axis && ix->shape[d] > x->shape[d])
			return -VNPU_OPS_EINVAL;
	return 0;
}

static void gather_row(void *p, const s64 *idx, s64 count)
{
	const struct index_ctx *g = p;
	const struct vnpu_tview *x = &g->c->t[0], *ix = &g->c->t[1];
	const struct vnpu_tview *o = &g->c->t[2];
	u32 last = o->rank - 1;
	s64 oo = vnpu_move_offset(o, idx), io = vnpu_move_offset(ix, idx);
	s64 xo = offset_but(x, idx, g->axis);
	s64 xs = last == g->axis ? 0 : x->strides[last];
	s64 j;

	for (j = 0; j < count; j++) {
		s64 i = vnpu_move_index(ix, io + j * ix->strides[last],
					x->shape[g->axis]);
		s64 dst = oo + j * o->strides[last];

		if (i < 0)
			vnpu_move_copy1(o->data, dst, &vnpu_move_zero, 0, g->esize);
		else
			vnpu_move_copy1(o->data, dst, x->data,
					xo + j * xs + i * x->strides[g->axis],
					g->esize);
	}
}

static void gather_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[2];
	struct index_ctx g = {
		.c = c,
		.axis = vnpu_move_axis(c, 0, 0, c->t[0].rank),
		.esize = vnpu_dtype_size(o->dtype),
	};
	u64 b, e;

	if (g.axis < 0)
		return;
	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, gather_row, &g);
}

static int index_select_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1], *o = &c->t[2];
	s64 axis;
	u32 d;

	if (!vnpu_move_io_ok(c, 2, 1) || !vnpu_move_index_dtype(ix->dtype) ||
	    ix->rank > 1 || o->dtype != x->dtype || !x->rank ||
	    o->rank != x->rank)
		return -VNPU_OPS_EINVAL;
	axis = vnpu_move_axis(c, 0, 0, x->rank);
	if (axis < 0)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (d != axis && o->shape[d] != x->shape[d])
			return -VNPU_OPS_EINVAL;
	return (u64)o->shape[axis] == vnpu_tview_elems(ix) ? 0 : -VNPU_OPS_EINVAL;
}

static void index_select_row(void *p, const s64 *idx, s64 count)
{
	const struct index_ctx *g = p;
	const struct vnpu_tview *x = &g->c->t[0], *ix = &g->c->t[1];
	const struct vnpu_tview *o = &g->c->t[2];
	u32 last = o->rank - 1;
	s64 ixs = ix->rank ? ix->strides[0] : 0, n = x->shape[g->axis];
	s64 oo = vnpu_move_offset(o, idx), os = o->strides[last];
	s64 xo = offset_but(x, idx, g->axis), i, j;

	if (last != g->axis) {
		/* One index for the whole run. */
		i = vnpu_move_index(ix, idx[g->axis] * ixs, n);
		if (i < 0)
			vnpu_move_copy_run(o->data, oo, os, &vnpu_move_zero, 0, 0,
					   count, g->esize);
		else
			vnpu_move_copy_run(o->data, oo, os, x->data,
					   xo + i * x->strides[g->axis],
					   x->strides[last], count, g->esize);
		return;
	}
	for (j = 0; j < count; j++) {
		i = vnpu_move_index(ix, (idx[last] + j) * ixs, n);
		if (i < 0)
			vnpu_move_copy1(o->data, oo + j * os, &vnpu_move_zero, 0,
					g->esize);
		else
			vnpu_move_copy1(o->data, oo + j * os, x->data,
					xo + i * x->strides[last], g->esize);
	}
}

static void index_select_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[2];
	struct index_ctx g = {
		.c = c,
		.axis = vnpu_move_axis(c, 0, 0, c->t[0].rank),
		.esize = vnpu_dtype_size(o->dtype),
	};
	u64 b, e;

	if (g.axis < 0)
		return;
	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, index_select_row, &g);
}

/* ------------------------------------------------------------ scatter -- */

/*
 * SCATTER works fiber by fiber: a fiber is a line of the output along the
 * axis. A piece takes whole fibers, copies x into them, then writes src
 * through the index in the index's row-major order; every write to an
 * output element happens in the piece that owns its fiber, so when
 * indices collide the last one in row-major order wins (or, with the
 * reduction in ints[1], each one is added or multiplied in, in that
 * order), whatever order the pieces run in.
 */
static int scatter_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1];
	const struct vnpu_tview *src = &c->t[2], *o = &c->t[3];
	s64 axis;
	u32 d;

	if (!vnpu_move_io_ok(c, 3, 1) || !vnpu_move_index_dtype(ix->dtype) ||
	    o->dtype != x->dtype || src->dtype != x->dtype || !x->rank ||
	    ix->rank != x->rank || src->rank != x->rank ||
	    !vnpu_move_same_shape(o, x) ||
	    !vnpu_move_reduce_ok(vnpu_attr_int(c, 1, VNPU_MOVE_REDUCE_NONE),
				 x->dtype))
		return -VNPU_OPS_EINVAL;
	axis = vnpu_move_axis(c, 0, 0, x->rank);
	if (axis < 0)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (ix->shape[d] > src->shape[d] ||
		    (d != axis && ix->shape[d] > x->shape[d]))
			return -VNPU_OPS_EINVAL;
	/* A piece is at least one fiber: its copy and its index line. */
	if (!vnpu_piece_fits((u64)o->shape[axis] + (u64)ix->shape[axis], 1, 1))
		return -VNPU_OPS_EINVAL;
	return 0;
}

/* Fibers of the output, and how many a piece takes (*per). */
static u64 scatter_fibers(const struct vnpu_op_call *c, s64 axis, u64 *per)
{
	const struct vnpu_tview *ix = &c->t[1], *o = &c->t[3];
	u64 elems = vnpu_tview_elems(o);

	*per = 1;
	if (!elems || axis < 0)
		return 0;
	*per = VNPU_OPS_TILE_ELEMS / ((u64)o->shape[axis] + (u64)ix->shape[axis]);
	if (!*per)
		*per = 1;
	return elems / (u64)o->shape[axis];
}

static u64 scatter_tiles(const struct vnpu_op_call *c)
{
	u64 per, fibers;

	fibers = scatter_fibers(c, vnpu_move_axis(c, 0, 0, c->t[0].rank), &per);
	return (fibers + per - 1) / per;
}

static void scatter_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1];
	const struct vnpu_tview *src = &c->t[2], *o = &c->t[3];
	s64 axis = vnpu_move_axis(c, 0, 0, x->rank);
	s64 mode = vnpu_attr_int(c, 1, VNPU_MOVE_REDUCE_NONE);
	u32 esize = vnpu_dtype_size(o->dtype);
	s64 fshape[VNPU_OPS_MAX_RANK], idx[VNPU_OPS_MAX_RANK];
	u64 per, fibers, f, end;
	u32 d;

	fibers = scatter_fibers(c, axis, &per);
	if (!fibers)
		return;
	for (d = 0; d < o->rank; d++)
		fshape[d] = d == axis ? 1 : o->shape[d];
	f = tile * per;
	end = fibers - f > per ? f + per : fibers;
	for (; f < end; f++) {
		s64 oo, io, so, i;
		bool inside = true;

		vnpu_move_unravel(fshape, o->rank, f, idx);
		oo = vnpu_move_offset(o, idx);
		vnpu_move_copy_run(o->data, oo, o->strides[axis], x->data,
				   vnpu_move_offset(x, idx), x->strides[axis],
				   o->shape[axis], esize);
		for (d = 0; d < o->rank; d++)
			if (d != axis && idx[d] >= ix->shape[d])
				inside = false;
		if (!inside)
			continue;
		io = vnpu_move_offset(ix, idx);
		so = vnpu_move_offset(src, idx);
		for (i = 0; i < ix->shape[axis]; i++) {
			s64 t = vnpu_move_index(ix, io + i * ix->strides[axis],
						o->shape[axis]);

			if (t >= 0)
				vnpu_move_reduce1(o->data, oo + t * o->strides[axis],
						  src->data,
						  so + i * src->strides[axis],
						  o->dtype, mode);
		}
	}
}

/* -------------------------------------------------------------- where -- */

static int where_iter(const struct vnpu_op_call *c, struct vnpu_iter *it)
{
	const struct vnpu_tview *ins[3] = { &c->t[0], &c->t[1], &c->t[2] };

	return vnpu_iter_init(it, &c->t[3], ins, 3);
}

static int where_check(const struct vnpu_op_call *c)
{
	struct vnpu_iter it;

	if (!vnpu_move_io_ok(c, 3, 1) || c->t[0].dtype != DRM_VNPU_DTYPE_BOOL ||
	    c->t[1].dtype != c->t[3].dtype || c->t[2].dtype != c->t[3].dtype)
		return -VNPU_OPS_EINVAL;
	return where_iter(c, &it);
}

static void where_fn(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct vnpu_op_call *c = p;
	const u8 *cond = c->t[0].data;
	u32 esize = vnpu_dtype_size(c->t[3].dtype);
	s64 i;

	for (i = 0; i < count; i++) {
		if (cond[offs[1] + i * inner[1]])
			vnpu_move_copy1(c->t[3].data, offs[0] + i * inner[0],
					c->t[1].data, offs[2] + i * inner[2], esize);
		else
			vnpu_move_copy1(c->t[3].data, offs[0] + i * inner[0],
					c->t[2].data, offs[3] + i * inner[3], esize);
	}
}

static void where_tile(const struct vnpu_op_call *c, u64 tile)
{
	struct vnpu_iter it;
	u64 b, e;

	if (where_iter(c, &it))
		return;
	vnpu_move_range(vnpu_tview_elems(&c->t[3]), tile, &b, &e);
	vnpu_iter_run(&it, b, e, where_fn, (void *)c);
}

/* ---------------------------------------------------------------- pad -- */

static int pad_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	s64 mode = vnpu_attr_int(c, 16, PAD_CONSTANT);
	u32 d;

	if (!vnpu_move_io_ok(c, 1, 1) || x->dtype != o->dtype || x->rank != o->rank ||
	    !x->rank || mode < PAD_CONSTANT || mode > PAD_EDGE)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++) {
		s64 before = vnpu_attr_int(c, 2 * d, 0);
		s64 after = vnpu_attr_int(c, 2 * d + 1, 0);
		s64 n = x->shape[d], want;

		if (before < 0 || after < 0 ||
		    __builtin_add_overflow(n, before, &want) ||
		    __builtin_add_overflow(want, after, &want) ||
		    want != o->shape[d])
			return -VNPU_OPS_EINVAL;
		if (!before && !after)
			continue;
		if (mode == PAD_REFLECT && (before >= n || after >= n))
			return -VNPU_OPS_EINVAL;
		if (mode == PAD_EDGE && !n)
			return -VNPU_OPS_EINVAL;
	}
	return 0;
}

/* Source coordinate of output coordinate @j (minus the padding before). */
static s64 pad_src(s64 j, s64 n, s64 mode)
{
	if (j >= 0 && j < n)
		return j;
	if (mode == PAD_REFLECT)
		return j < 0 ? -j : 2 * (n - 1) - j;
	if (mode == PAD_EDGE)
		return j < 0 ? 0 : n - 1;
	return -1;
}

struct pad_ctx {
	const struct vnpu_op_call *c;
	s64 mode;
	u32 esize;
	u64 value;	/* the constant, as an element of the dtype */
};

static void pad_row(void *p, const s64 *idx, s64 count)
{
	const struct pad_ctx *q = p;
	const struct vnpu_tview *x = &q->c->t[0], *o = &q->c->t[1];
	u32 last = o->rank - 1, d;
	s64 oo = vnpu_move_offset(o, idx), os = o->strides[last];
	s64 before = vnpu_attr_int(q->c, 2 * last, 0);
	s64 xo = 0, j;

	for (d = 0; d < last; d++) {
		s64 s = pad_src(idx[d] - vnpu_attr_int(q->c, 2 * d, 0),
				x->shape[d], q->mode);

		if (s < 0) {
			vnpu_move_copy_run(o->data, oo, os, &q->value, 0, 0,
					   count, q->esize);
			return;
		}
		xo += s * x->strides[d];
	}
	for (j = 0; j < count; j++) {
		s64 s = pad_src(idx[last] + j - before, x->shape[last], q->mode);

		if (s < 0)
			vnpu_move_copy1(o->data, oo + j * os, &q->value, 0,
					q->esize);
		else
			vnpu_move_copy1(o->data, oo + j * os, x->data,
					xo + s * x->strides[last], q->esize);
	}
}

static void pad_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[1];
	struct pad_ctx q = {
		.c = c,
		.mode = vnpu_attr_int(c, 16, PAD_CONSTANT),
		.esize = vnpu_dtype_size(o->dtype),
	};
	u64 b, e;

	vnpu_store_f64(&q.value, o->dtype, 0, vnpu_attr_float(c, 0, 0.0f));
	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, pad_row, &q);
}

/* --------------------------------------------------------------- tile -- */

static int tile_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	u32 d;

	if (!vnpu_move_io_ok(c, 1, 1) || x->dtype != o->dtype || x->rank != o->rank ||
	    !x->rank)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < x->rank; d++)
		if (!x->shape[d] ? o->shape[d] != 0 : o->shape[d] % x->shape[d])
			return -VNPU_OPS_EINVAL;
	return 0;
}

static void tile_row(void *p, const s64 *idx, s64 count)
{
	const struct vnpu_op_call *c = p;
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[1];
	u32 last = o->rank - 1, esize = vnpu_dtype_size(o->dtype), d;
	s64 oo = vnpu_move_offset(o, idx), os = o->strides[last];
	s64 n = x->shape[last], col = idx[last] % n, xo = 0, j = 0;

	for (d = 0; d < last; d++)
		xo += (idx[d] % x->shape[d]) * x->strides[d];
	/* Whole or partial copies of the input row. */
	while (j < count) {
		s64 run = n - col < count - j ? n - col : count - j;

		vnpu_move_copy_run(o->data, oo + j * os, os, x->data,
				   xo + col * x->strides[last], x->strides[last],
				   run, esize);
		j += run;
		col = 0;
	}
}

static void tile_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[1];
	u64 b, e;

	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, tile_row, (void *)c);
}

/* ------------------------------------------------------------ one-hot -- */

/*
 * ONE_HOT takes the on and off values from the attributes, or from two
 * more inputs (off, then on) in the output's dtype whose first elements
 * are copied bit for bit (ONNX's values input seen as two views, aclnn's
 * offValue and onValue tensors).
 */
static int one_hot_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *ix = &c->t[0], *o = &c->t[c->num_in];
	u32 d, k;

	if ((c->num_in != 1 && c->num_in != 3) ||
	    !vnpu_move_io_ok(c, c->num_in, 1) ||
	    !vnpu_move_index_dtype(ix->dtype) || o->rank != ix->rank + 1)
		return -VNPU_OPS_EINVAL;
	for (k = 1; k < c->num_in; k++)
		if (c->t[k].dtype != o->dtype || !vnpu_tview_elems(&c->t[k]))
			return -VNPU_OPS_EINVAL;
	for (d = 0; d < ix->rank; d++)
		if (o->shape[d] != ix->shape[d])
			return -VNPU_OPS_EINVAL;
	return 0;
}

struct one_hot_ctx {
	const struct vnpu_op_call *c;
	u32 esize;
	u64 on, off;
};

static void one_hot_row(void *p, const s64 *idx, s64 count)
{
	const struct one_hot_ctx *q = p;
	const struct vnpu_tview *ix = &q->c->t[0], *o = &q->c->t[q->c->num_in];
	u32 last = o->rank - 1;
	s64 depth = o->shape[last], os = o->strides[last];
	s64 oo = vnpu_move_offset(o, idx);
	s64 hot = vnpu_move_index(ix, vnpu_move_offset(ix, idx), depth);
	s64 j;

	for (j = 0; j < count; j++)
		vnpu_move_copy1(o->data, oo + j * os,
				idx[last] + j == hot ? &q->on : &q->off, 0,
				q->esize);
}

static void one_hot_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[c->num_in];
	struct one_hot_ctx q = {
		.c = c,
		.esize = vnpu_dtype_size(o->dtype),
	};
	u64 b, e;

	if (c->num_in == 3) {
		vnpu_move_copy1(&q.off, 0, c->t[1].data, 0, q.esize);
		vnpu_move_copy1(&q.on, 0, c->t[2].data, 0, q.esize);
	} else {
		vnpu_store_f64(&q.on, o->dtype, 0, vnpu_attr_float(c, 0, 1.0f));
		vnpu_store_f64(&q.off, o->dtype, 0, vnpu_attr_float(c, 1, 0.0f));
	}
	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, one_hot_row, &q);
}

/* ----------------------------------------------------- arange, fill -- */

static int gen_check(const struct vnpu_op_call *c)
{
	return vnpu_move_io_ok(c, 0, 1) ? 0 : -VNPU_OPS_EINVAL;
}

struct gen_ctx {
	const struct vnpu_tview *o;
	u32 esize;
	u64 value;	/* FILL: the value, as an element of the dtype */
	u64 pos;	/* ARANGE: linear index of the next element */
	double fstart, fstep;
	s64 istart, istep;
};

static void fill_fn(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct gen_ctx *g = p;

	vnpu_move_copy_run(g->o->data, offs[0], inner[0], &g->value, 0, 0,
			   count, g->esize);
}

static void arange_fn(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	struct gen_ctx *g = p;
	s64 i;

	for (i = 0; i < count; i++) {
		u64 k = g->pos + (u64)i;
		s64 off = offs[0] + i * inner[0];

		if (vnpu_dtype_is_fp(g->o->dtype))
			vnpu_store_f64(g->o->data, g->o->dtype, off,
				       g->fstart + (double)k * g->fstep);
		else
			vnpu_store_s64(g->o->data, g->o->dtype, off,
				       (s64)((u64)g->istart + k * (u64)g->istep));
	}
	g->pos += (u64)count;
}

static void gen_tile(const struct vnpu_op_call *c, u64 tile, bool arange)
{
	const struct vnpu_tview *o = &c->t[0];
	struct gen_ctx g = {
		.o = o,
		.esize = vnpu_dtype_size(o->dtype),
	};
	struct vnpu_iter it;
	u64 b, e;

	if (vnpu_iter_init(&it, o, NULL, 0))
		return;
	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	if (arange) {
		g.pos = b;
		g.fstart = vnpu_attr_float(c, 0, 0.0f);
		g.fstep = vnpu_attr_float(c, 1, 1.0f);
		g.istart = vnpu_attr_int(c, 0, 0);
		g.istep = vnpu_attr_int(c, 1, 1);
		vnpu_iter_run(&it, b, e, arange_fn, &g);
		return;
	}
	if (vnpu_dtype_is_fp(o->dtype))
		vnpu_store_f64(&g.value, o->dtype, 0, vnpu_attr_float(c, 0, 0.0f));
	else
		vnpu_store_s64(&g.value, o->dtype, 0, vnpu_attr_int(c, 0, 0));
	vnpu_iter_run(&it, b, e, fill_fn, &g);
}

static void arange_tile(const struct vnpu_op_call *c, u64 tile)
{
	gen_tile(c, tile, true);
}

static void fill_tile(const struct vnpu_op_call *c, u64 tile)
{
	gen_tile(c, tile, false);
}

/*
 * Empty tensors (VNPU_OP_EMPTY_OK): CONCAT and SPLIT give an empty piece
 * (an input of CONCAT, an output of SPLIT) no pieces of work, so
 * joint_tile() never looks at its view; PAD reads x only at pad_src()
 * coordinates inside [0, n) of every dim, so an x with an empty dim
 * (constant mode; the others reject it) only yields the constant.
 */
const struct vnpu_op_impl vnpu_ops_move[] = {
	{ DRM_VNPU_OP_STRIDED_COPY, "strided_copy", copy_check, out0_tiles, copy_tile },
	{ DRM_VNPU_OP_CONCAT, "concat", concat_check, concat_tiles, concat_tile,
	  NULL, VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_SPLIT, "split", split_check, split_tiles, split_tile, NULL,
	  VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_SLICE, "slice", slice_check, out0_tiles, slice_tile },
	{ DRM_VNPU_OP_GATHER, "gather", gather_check, out0_tiles, gather_tile },
	{ DRM_VNPU_OP_SCATTER, "scatter", scatter_check, scatter_tiles, scatter_tile },
	{ DRM_VNPU_OP_INDEX_SELECT, "index_select", index_select_check, out0_tiles,
	  index_select_tile },
	{ DRM_VNPU_OP_WHERE, "where", where_check, out0_tiles, where_tile },
	{ DRM_VNPU_OP_PAD, "pad", pad_check, out0_tiles, pad_tile, NULL,
	  VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_TILE, "tile", tile_check, out0_tiles, tile_tile },
	{ DRM_VNPU_OP_ONE_HOT, "one_hot", one_hot_check, out0_tiles, one_hot_tile },
	{ DRM_VNPU_OP_ARANGE, "arange", gen_check, out0_tiles, arange_tile },
	{ DRM_VNPU_OP_FILL, "fill", gen_check, out0_tiles, fill_tile },
	{ 0 }
};
