// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Indexing by tuples and sequences: GATHER_ND, SCATTER_ND and
 * REVERSE_SEQUENCE (ONNX's GatherND, ScatterND and ReverseSequence).
 *
 * Elements move bit for bit by their size, whatever the dtype; only the
 * reductions of SCATTER_ND compute. Indices (INT32 or INT64) count from
 * the end when negative; a tuple with an index outside [-n, n) reads
 * zeros (GATHER_ND) or is skipped (SCATTER_ND). Nothing outside the views
 * is touched.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

/* The element an out-of-range tuple reads: zero of every size. */
static const u64 vnpu_index_zero;

static bool is_float(u32 dtype)
{
	return vnpu_dtype_is_float(dtype) || dtype == DRM_VNPU_DTYPE_DOUBLE;
}

void vnpu_move_reduce1(void *dst, s64 doff, const void *src, s64 soff,
		       u32 dtype, s64 mode)
{
	if (mode == VNPU_MOVE_REDUCE_NONE) {
		vnpu_move_copy1(dst, doff, src, soff, vnpu_dtype_size(dtype));
	} else if (is_float(dtype)) {
		double a = vnpu_load_f64(dst, dtype, doff);
		double b = vnpu_load_f64(src, dtype, soff);

		if (mode == VNPU_MOVE_REDUCE_ADD)
			a += b;
		else if (mode == VNPU_MOVE_REDUCE_MUL)
			a *= b;
		else if (mode == VNPU_MOVE_REDUCE_MAX)
			a = b > a || b != b ? b : a;
		else
			a = b < a || b != b ? b : a;
		vnpu_store_f64(dst, dtype, doff, a);
	} else {
		u64 a = (u64)vnpu_load_s64(dst, dtype, doff);
		u64 b = (u64)vnpu_load_s64(src, dtype, soff);
		bool uns = dtype == DRM_VNPU_DTYPE_UINT64;

		if (mode == VNPU_MOVE_REDUCE_ADD)
			a += b;
		else if (mode == VNPU_MOVE_REDUCE_MUL)
			a *= b;
		else if (mode == VNPU_MOVE_REDUCE_MAX)
			a = (uns ? b > a : (s64)b > (s64)a) ? b : a;
		else
			a = (uns ? b < a : (s64)b < (s64)a) ? b : a;
		vnpu_store_s64(dst, dtype, doff, (s64)a);
	}
}

/* Product of dims [from, to) of @shape (views are checked to fit). */
static u64 dims_prod(const s64 *shape, u32 from, u32 to)
{
	u64 n = 1;

	for (; from < to; from++)
		n *= (u64)shape[from];
	return n;
}

/*
 * Index tuple number @t of @ix (the last dim holds the tuples' @k values)
 * as the linear number of the slice it names in @shape[0 .. k - 1]; -1
 * when one of its indices is out of range.
 */
static s64 tuple_slice(const struct vnpu_tview *ix, u64 t, const s64 *shape,
		       u32 k)
{
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };
	s64 off, lin = 0;
	u32 j;

	vnpu_move_unravel(ix->shape, ix->rank - 1, t, idx);
	off = vnpu_move_offset(ix, idx);
	for (j = 0; j < k; j++) {
		s64 i = vnpu_move_index(ix, off + (s64)j * ix->strides[ix->rank - 1],
					shape[j]);

		if (i < 0)
			return -1;
		lin = lin * shape[j] + i;
	}
	return lin;
}

/* Element offset in @v of slice @lin of dims [0, k) (inner dims at 0). */
static s64 slice_offset(const struct vnpu_tview *v, u32 k, u64 lin)
{
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };

	vnpu_move_unravel(v->shape, k, lin, idx);
	return vnpu_move_offset(v, idx);
}

/*
 * Copy (or reduce) one slice: @rank inner dims of @shape, from @src's
 * dims starting at @sd to @dst's dims starting at @dd.
 */
struct slice_job {
	const struct vnpu_tview *dst, *src;
	s64 doff, soff;
	u32 dd, sd, rank;
	s64 mode;
	const s64 *shape;
};

static void slice_row(void *p, const s64 *idx, s64 count)
{
	const struct slice_job *j = p;
	s64 doff = j->doff, soff = j->soff, dinc = 0, sinc = 0, i;
	u32 d;

	for (d = 0; d < j->rank; d++) {
		doff += idx[d] * j->dst->strides[j->dd + d];
		soff += idx[d] * j->src->strides[j->sd + d];
	}
	if (j->rank) {
		dinc = j->dst->strides[j->dd + j->rank - 1];
		sinc = j->src->strides[j->sd + j->rank - 1];
	}
	if (j->mode == VNPU_MOVE_REDUCE_NONE) {
		vnpu_move_copy_run(j->dst->data, doff, dinc, j->src->data, soff,
				   sinc, count, vnpu_dtype_size(j->dst->dtype));
		return;
	}
	for (i = 0; i < count; i++)
		vnpu_move_reduce1(j->dst->data, doff + i * dinc, j->src->data,
				  soff + i * sinc, j->dst->dtype, j->mode);
}

static void slice_move(struct slice_job *j)
{
	vnpu_move_rows(j->shape, j->rank, 0, dims_prod(j->shape, 0, j->rank),
		       slice_row, j);
}

/* ---------------------------------------------------------- gather nd -- */

/*
 * GATHER_ND (x, index) -> out, batch dims b in ints[0]: index has the
 * shape [batch..., tuples..., k]; out[batch, tuple, rest] =
 * x[batch, index[batch, tuple, 0 .. k - 1], rest].
 */
static int gather_nd_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1], *o = &c->t[2];
	s64 b = vnpu_attr_int(c, 0, 0), k;
	u32 d, q;

	if (!vnpu_move_io_ok(c, 2, 1) || !vnpu_move_index_dtype(ix->dtype) ||
	    o->dtype != x->dtype || !ix->rank || !x->rank)
		return -VNPU_OPS_EINVAL;
	q = ix->rank;
	k = ix->shape[q - 1];
	if (b < 0 || b >= q || k < 1 || k > (s64)x->rank - b ||
	    o->rank != q - 1 + x->rank - (u32)(b + k))
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < (u32)b; d++)
		if (ix->shape[d] != x->shape[d])
			return -VNPU_OPS_EINVAL;
	for (d = 0; d < o->rank; d++) {
		s64 want = d < q - 1 ? ix->shape[d] : x->shape[d - (q - 1) + b + k];

		if (o->shape[d] != want)
			return -VNPU_OPS_EINVAL;
	}
	return 0;
}

struct gather_nd_ctx {
	const struct vnpu_op_call *c;
	u32 b, k, esize;
};

static void gather_nd_row(void *p, const s64 *idx, s64 count)
{
	const struct gather_nd_ctx *g = p;
	const struct vnpu_tview *x = &g->c->t[0], *ix = &g->c->t[1];
	const struct vnpu_tview *o = &g->c->t[2];
	u32 q = ix->rank, last = o->rank ? o->rank - 1 : 0, d;
	s64 oo = vnpu_move_offset(o, idx), os = o->rank ? o->strides[last] : 0;
	s64 ti[VNPU_OPS_MAX_RANK] = { 0 };
	s64 j;

	for (j = 0; j < count; j++) {
		s64 xo = 0, io;
		bool inside = true;

		/* the tuple: index dims of the output, last dim 0 */
		for (d = 0; d < q - 1; d++)
			ti[d] = idx[d] + (d == last ? j : 0);
		io = vnpu_move_offset(ix, ti);
		for (d = 0; d < g->b; d++)
			xo += ti[d] * x->strides[d];
		for (d = 0; d < g->k; d++) {
			s64 i = vnpu_move_index(ix, io + (s64)d * ix->strides[q - 1],
						x->shape[g->b + d]);

			if (i < 0)
				inside = false;
			else
				xo += i * x->strides[g->b + d];
		}
		for (d = q - 1; d < o->rank; d++)
			xo += (idx[d] + (d == last ? j : 0)) *
			      x->strides[d - (q - 1) + g->b + g->k];
		if (inside)
			vnpu_move_copy1(o->data, oo + j * os, x->data, xo, g->esize);
		else
			vnpu_move_copy1(o->data, oo + j * os, &vnpu_index_zero, 0,
					g->esize);
	}
}

static u64 gather_nd_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[2]));
}

static void gather_nd_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[2];
	struct gather_nd_ctx g = {
		.c = c,
		.b = (u32)vnpu_attr_int(c, 0, 0),
		.k = (u32)c->t[1].shape[c->t[1].rank - 1],
		.esize = vnpu_dtype_size(o->dtype),
	};
	u64 b, e;

	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, gather_nd_row, &g);
}

/* --------------------------------------------------------- scatter nd -- */

/*
 * SCATTER_ND (x, index, updates) -> out, ints[0] the reduction: out = x,
 * then for every tuple of index in row-major order, the slice of out it
 * names takes the tuple's slice of updates (replaced, added, multiplied,
 * maximum or minimum). A piece owns a run of the output's slices: it
 * copies them from x, then walks every tuple and applies those naming
 * one of its slices, so colliding tuples apply in order whatever order
 * the pieces run in.
 */
static int scatter_nd_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1];
	const struct vnpu_tview *up = &c->t[2], *o = &c->t[3];
	u32 q, k, d;

	if (!vnpu_move_io_ok(c, 3, 1) || !vnpu_move_index_dtype(ix->dtype) ||
	    o->dtype != x->dtype || up->dtype != x->dtype || !ix->rank ||
	    !x->rank || !vnpu_move_same_shape(o, x) ||
	    !vnpu_move_reduce_ok(vnpu_attr_int(c, 0, VNPU_MOVE_REDUCE_NONE),
				 x->dtype))
		return -VNPU_OPS_EINVAL;
	q = ix->rank;
	if (ix->shape[q - 1] < 1 || ix->shape[q - 1] > (s64)x->rank)
		return -VNPU_OPS_EINVAL;
	k = (u32)ix->shape[q - 1];
	if (up->rank != q - 1 + x->rank - k)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < up->rank; d++) {
		s64 want = d < q - 1 ? ix->shape[d] : x->shape[d - (q - 1) + k];

		if (up->shape[d] != want)
			return -VNPU_OPS_EINVAL;
	}
	/* a piece walks every tuple and may apply each to one slice */
	if (!vnpu_piece_fits(dims_prod(ix->shape, 0, q - 1),
			     dims_prod(x->shape, k, x->rank) + k, 1))
		return -VNPU_OPS_EINVAL;
	return 0;
}

/* Slices of the output, and how many one piece owns (*per). */
static u64 scatter_nd_slices(const struct vnpu_op_call *c, u64 *per)
{
	const struct vnpu_tview *o = &c->t[3];
	u32 k = (u32)c->t[1].shape[c->t[1].rank - 1];
	u64 inner = dims_prod(o->shape, k, o->rank);

	*per = 1;
	if (!vnpu_tview_elems(o))
		return 0;
	*per = VNPU_OPS_TILE_ELEMS / inner;
	if (!*per)
		*per = 1;
	return dims_prod(o->shape, 0, k);
}

static u64 scatter_nd_tiles(const struct vnpu_op_call *c)
{
	u64 per, slices = scatter_nd_slices(c, &per);

	return (slices + per - 1) / per;
}

static void scatter_nd_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1];
	const struct vnpu_tview *up = &c->t[2], *o = &c->t[3];
	u32 q = ix->rank, k = (u32)ix->shape[q - 1];
	struct slice_job j = {
		.rank = o->rank - k,
		.shape = &o->shape[k],
		.dd = k,
	};
	u64 per, slices = scatter_nd_slices(c, &per), first, end, s, t, tuples;

	if (!slices)
		return;
	first = tile * per;
	end = slices - first > per ? first + per : slices;
	j.dst = o;
	j.src = x;
	j.sd = k;
	j.mode = VNPU_MOVE_REDUCE_NONE;
	for (s = first; s < end; s++) {
		j.doff = slice_offset(o, k, s);
		j.soff = slice_offset(x, k, s);
		slice_move(&j);
	}
	j.src = up;
	j.sd = q - 1;
	j.mode = vnpu_attr_int(c, 0, VNPU_MOVE_REDUCE_NONE);
	tuples = dims_prod(ix->shape, 0, q - 1);
	for (t = 0; t < tuples; t++) {
		s64 lin = tuple_slice(ix, t, o->shape, k);

		if (lin < (s64)first || lin >= (s64)end)
			continue;
		j.doff = slice_offset(o, k, (u64)lin);
		j.soff = slice_offset(up, q - 1, t);
		slice_move(&j);
	}
}

/* --------------------------------------------------- reverse sequence -- */

/*
 * REVERSE_SEQUENCE (x, lengths) -> out, ints[0] the batch axis, ints[1]
 * the time axis: out[.., b, .., t, ..] = x[.., b, .., len - 1 - t, ..]
 * for t < len = lengths[b], else x itself. A length outside [0, T] is
 * taken as the nearest bound.
 */
static int reverse_seq_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *len = &c->t[1], *o = &c->t[2];
	s64 ba, ta;

	if (!vnpu_move_io_ok(c, 2, 1) || !vnpu_move_index_dtype(len->dtype) ||
	    o->dtype != x->dtype || x->rank < 2 || !vnpu_move_same_shape(o, x) ||
	    len->rank != 1)
		return -VNPU_OPS_EINVAL;
	ba = vnpu_move_axis(c, 0, 1, x->rank);
	ta = vnpu_move_axis(c, 1, 0, x->rank);
	if (ba < 0 || ta < 0 || ba == ta || len->shape[0] != x->shape[ba])
		return -VNPU_OPS_EINVAL;
	return 0;
}

struct reverse_seq_ctx {
	const struct vnpu_op_call *c;
	s64 ba, ta;
	u32 esize;
};

static s64 reverse_seq_len(const struct vnpu_tview *len, s64 b, s64 t_max)
{
	s64 off = b * len->strides[0];
	s64 n = len->dtype == DRM_VNPU_DTYPE_INT32 ?
		((const s32 *)len->data)[off] : ((const s64 *)len->data)[off];

	return n < 0 ? 0 : n > t_max ? t_max : n;
}

static void reverse_seq_row(void *p, const s64 *idx, s64 count)
{
	const struct reverse_seq_ctx *r = p;
	const struct vnpu_tview *x = &r->c->t[0], *o = &r->c->t[2];
	u32 last = o->rank - 1;
	s64 src[VNPU_OPS_MAX_RANK], j, n, t_max = x->shape[r->ta];
	s64 oo = vnpu_move_offset(o, idx), os = o->strides[last];

	for (j = 0; j < count; j++) {
		u32 d;

		for (d = 0; d < o->rank; d++)
			src[d] = idx[d];
		src[last] += j;
		n = reverse_seq_len(&r->c->t[1], src[r->ba], t_max);
		if (src[r->ta] < n)
			src[r->ta] = n - 1 - src[r->ta];
		vnpu_move_copy1(o->data, oo + j * os, x->data,
				vnpu_move_offset(x, src), r->esize);
	}
}

static u64 reverse_seq_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[2]));
}

static void reverse_seq_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[2];
	struct reverse_seq_ctx r = {
		.c = c,
		.ba = vnpu_move_axis(c, 0, 1, o->rank),
		.ta = vnpu_move_axis(c, 1, 0, o->rank),
		.esize = vnpu_dtype_size(o->dtype),
	};
	u64 b, e;

	if (r.ba < 0 || r.ta < 0)
		return;
	vnpu_move_range(vnpu_tview_elems(o), tile, &b, &e);
	vnpu_move_rows(o->shape, o->rank, b, e, reverse_seq_row, &r);
}

const struct vnpu_op_impl vnpu_ops_index[] = {
	{ DRM_VNPU_OP_GATHER_ND, "gather_nd", gather_nd_check, gather_nd_tiles,
	  gather_nd_tile },
	{ DRM_VNPU_OP_SCATTER_ND, "scatter_nd", scatter_nd_check,
	  scatter_nd_tiles, scatter_nd_tile },
	{ DRM_VNPU_OP_REVERSE_SEQUENCE, "reverse_sequence", reverse_seq_check,
	  reverse_seq_tiles, reverse_seq_tile },
	{ 0 }
};
