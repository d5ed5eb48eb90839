// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * TRI_SOLVE: (a [..., N, N], b [..., N, K]) -> x [..., N, K] with
 * a x = b for each batch entry, a triangular: forward substitution for a
 * lower a (ints[0] 0), backward for an upper one (ints[0] 1); ints[1] 1
 * takes a's diagonal as ones without reading it. Only a's triangle is
 * read, so a transposed a is a view with its last two strides swapped
 * (and ints[0] flipped). The batch dims are the same in all three views
 * (the caller broadcasts with stride 0).
 *
 * FLOAT, FLOAT16, BF16 and DOUBLE, one dtype for all three. A column of x
 * is solved in double in the scratch memory and stored once, rounded. A
 * zero diagonal gives Inf or NaN, as IEEE division does.
 *
 * A piece is a run of columns of one batch entry, of about
 * VNPU_OPS_PIECE_WORK multiply-adds (N * N / 2 a column): N * N must fit
 * in one piece, and a column of doubles in the scratch memory.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

#define TS_A	0
#define TS_B	1
#define TS_X	2

static bool ts_dtype(u32 dtype)
{
	return vnpu_dtype_is_float(dtype) || dtype == DRM_VNPU_DTYPE_DOUBLE;
}

/* Columns a piece solves: at least one. */
static u64 ts_cols_per_piece(s64 n)
{
	u64 work = (u64)n * (u64)n;

	return work && work < VNPU_OPS_PIECE_WORK ? VNPU_OPS_PIECE_WORK / work : 1;
}

static int ts_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *a = &c->t[TS_A], *b = &c->t[TS_B];
	const struct vnpu_tview *x = &c->t[TS_X];
	s64 upper = vnpu_attr_int(c, 0, 0), unit = vnpu_attr_int(c, 1, 0);
	u32 r = a->rank, d;
	s64 n;

	if (c->num_in != 2 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!ts_dtype(a->dtype) || b->dtype != a->dtype || x->dtype != a->dtype)
		return -VNPU_OPS_EINVAL;
	if (r < 2 || r > VNPU_OPS_MAX_RANK || b->rank != r || x->rank != r)
		return -VNPU_OPS_EINVAL;
	if ((upper != 0 && upper != 1) || (unit != 0 && unit != 1))
		return -VNPU_OPS_EINVAL;
	n = a->shape[r - 1];
	if (a->shape[r - 2] != n || b->shape[r - 2] != n)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < r; d++)
		if (x->shape[d] != b->shape[d] ||
		    (d + 2 < r && a->shape[d] != b->shape[d]))
			return -VNPU_OPS_EINVAL;
	/*
	 * A column's multiply-adds in one piece (overflow-safe); then
	 * n <= 2^13 and its doubles fit the scratch memory.
	 */
	if (!vnpu_piece_fits((u64)n, (u64)n, 1) ||
	    (u64)n * sizeof(double) > VNPU_OPS_SCRATCH - VNPU_OPS_SHARED)
		return -VNPU_OPS_EINVAL;
	return 0;
}

/* Batch entries and column pieces of each. */
static u64 ts_batches(const struct vnpu_tview *x)
{
	u64 nb = 1;
	u32 d;

	for (d = 0; d + 2 < x->rank; d++)
		nb *= (u64)x->shape[d];
	return nb;
}

static u64 ts_pieces_per_batch(const struct vnpu_tview *x)
{
	u64 k = (u64)x->shape[x->rank - 1];
	u64 per = ts_cols_per_piece(x->shape[x->rank - 2]);

	return (k + per - 1) / per;
}

static u64 ts_tiles(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[TS_X];

	if (ts_check(c) || !vnpu_tview_elems(x))
		return 0;
	return ts_batches(x) * ts_pieces_per_batch(x);
}

/* Element offset of batch entry @bi's matrix in @v. */
static s64 ts_batch_offset(const struct vnpu_tview *v, u64 bi)
{
	s64 off = 0;
	u32 d;

	for (d = v->rank - 2; d-- > 0;) {
		off += (s64)(bi % (u64)v->shape[d]) * v->strides[d];
		bi /= (u64)v->shape[d];
	}
	return off;
}

static void ts_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *a = &c->t[TS_A], *b = &c->t[TS_B];
	const struct vnpu_tview *x = &c->t[TS_X];
	bool upper = vnpu_attr_int(c, 0, 0), unit = vnpu_attr_int(c, 1, 0);
	double *col = c->scratch;
	u32 r = x->rank;
	s64 n, k, per, j0, j1, j, s, i, t;
	s64 ao, bo, xo, ars, acs, brs, bcs, xrs, xcs;
	u64 pieces, bi, work = 0;

	if (ts_check(c))
		return;
	n = x->shape[r - 2];
	k = x->shape[r - 1];
	per = (s64)ts_cols_per_piece(n);
	pieces = ts_pieces_per_batch(x);
	bi = tile / pieces;
	j0 = (s64)(tile % pieces) * per;
	j1 = j0 + per < k ? j0 + per : k;
	ao = ts_batch_offset(a, bi);
	bo = ts_batch_offset(b, bi);
	xo = ts_batch_offset(x, bi);
	ars = a->strides[r - 2];
	acs = a->strides[r - 1];
	brs = b->strides[r - 2];
	bcs = b->strides[r - 1];
	xrs = x->strides[r - 2];
	xcs = x->strides[r - 1];
	for (j = j0; j < j1; j++) {
		for (s = 0; s < n; s++) {
			double v;

			i = upper ? n - 1 - s : s;
			v = vnpu_load_f64(b->data, b->dtype, bo + i * brs + j * bcs);
			/* the rows solved before this one */
			for (t = upper ? i + 1 : 0; t < (upper ? n : i); t++)
				v -= vnpu_load_f64(a->data, a->dtype,
						   ao + i * ars + t * acs) * col[t];
			if (!unit)
				v /= vnpu_load_f64(a->data, a->dtype,
						   ao + i * ars + i * acs);
			col[i] = v;
			vnpu_op_beat_work(c, &work, (u64)n);
		}
		for (i = 0; i < n; i++)
			vnpu_store_f64(x->data, x->dtype, xo + i * xrs + j * xcs,
				       col[i]);
	}
}

const struct vnpu_op_impl vnpu_ops_llm_solve[] = {
	{ DRM_VNPU_OP_TRI_SOLVE, "tri_solve", ts_check, ts_tiles, ts_run },
	{ 0 }
};
