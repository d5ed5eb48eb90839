// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Scans and masks: x -> out of x's shape and dtype.
 *
 * CUMSUM: running sum along axis ints[0]; ints[1] 1 makes it exclusive
 * (out[i] is the sum of the elements before i, 0 for the first), ints[2]
 * 1 runs from the end of the axis. Floats accumulate in double and every
 * output is rounded once; integers accumulate in 64 bits and wrap to the
 * output's width. BOOL is refused.
 *
 * HARDMAX: 1 at the first maximum along axis ints[0] (the first NaN if
 * there is one, as argmax finds it), 0 elsewhere. BOOL is refused.
 *
 * TRILU: the last two dims as matrices; element (i, j) is kept if
 * j - i >= k (ints[0] 1, upper) or j - i <= k (ints[0] 0, lower) with
 * k = ints[1] (any value: far out of range keeps all or nothing), else
 * it is 0. Elements are copied as bytes, so every dtype works.
 *
 * CUMSUM and HARDMAX see the axis as a row (one per combination of the
 * other dims), so a row may hold at most VNPU_OPS_PIECE_WORK / 2 elements
 * (hardmax reads and writes it); a tile is a run of rows of about
 * VNPU_OPS_TILE_ELEMS elements. TRILU's rows are the last dim.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_reduce_util.h"

/*
 * Elements staged at a time: half the reductions' chunk, so the two
 * staging buffers that scan_tile inlines stay within the kernel's frame
 * limit (the sums run in element order either way).
 */
#define SCAN_CHUNK	(VNPU_RED_CHUNK / 2)

#define SCAN_X	0
#define SCAN_O	1

/* Floats are staged as double, everything else as int64. */
static bool scan_float(u32 dtype)
{
	return vnpu_dtype_is_float(dtype) || dtype == DRM_VNPU_DTYPE_DOUBLE;
}

static bool scan_same_shape(const struct vnpu_tview *x,
			    const struct vnpu_tview *o)
{
	u32 d;

	if (x->rank != o->rank || x->dtype != o->dtype ||
	    x->rank > VNPU_OPS_MAX_RANK)
		return false;
	for (d = 0; d < x->rank; d++)
		if (x->shape[d] != o->shape[d])
			return false;
	return true;
}

/*
 * The plan of CUMSUM and HARDMAX: the axis is the one reduced dim, walked
 * in both tensors. Integer code only.
 */
static int scan_plan(const struct vnpu_op_call *c, struct vnpu_red_plan *p)
{
	const struct vnpu_tview *x = &c->t[SCAN_X], *o = &c->t[SCAN_O];
	s64 axis = vnpu_attr_int(c, 0, 0);
	u32 d;

	if (c->num_in != 1 || c->num_out != 1 || !scan_same_shape(x, o))
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_size(x->dtype) || x->dtype == DRM_VNPU_DTYPE_BOOL)
		return -VNPU_OPS_EINVAL;
	if (axis < 0 || axis >= (s64)x->rank)
		return -VNPU_OPS_EINVAL;
	if (c->op == DRM_VNPU_OP_CUMSUM &&
	    ((u64)vnpu_attr_int(c, 1, 0) > 1 || (u64)vnpu_attr_int(c, 2, 0) > 1))
		return -VNPU_OPS_EINVAL;
	vnpu_red_plan_start(p, 2);
	for (d = 0; d < x->rank; d++) {
		s64 str[2] = { x->strides[d], o->strides[d] };

		if (d == axis)
			vnpu_red_plan_reduce(p, x->shape[d], str);
		else
			vnpu_red_plan_keep(p, x->shape[d], str);
	}
	vnpu_red_plan_finish(p);
	if (!vnpu_red_plan_fits(p, 2))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static int scan_check(const struct vnpu_op_call *c)
{
	struct vnpu_red_plan p;

	return scan_plan(c, &p);
}

static u64 scan_tiles(const struct vnpu_op_call *c)
{
	struct vnpu_red_plan p;

	if (scan_plan(c, &p))
		return 0;
	return vnpu_red_plan_tiles(&p);
}

/* Stride of the axis in tensor t (a size-1 axis was dropped: any). */
static s64 scan_stride(const struct vnpu_red_plan *p, u32 t)
{
	return p->nr ? p->rstr[t][0] : 0;
}

/*
 * One row of CUMSUM, chunk by chunk in the scan's direction: a reverse
 * scan loads each chunk forward and walks it backward.
 */
static void cumsum_row(const struct vnpu_op_call *c,
		       const struct vnpu_red_plan *p, const s64 *offs)
{
	const struct vnpu_tview *x = &c->t[SCAN_X], *o = &c->t[SCAN_O];
	bool excl = vnpu_attr_int(c, 1, 0), rev = vnpu_attr_int(c, 2, 0);
	bool is_f = scan_float(x->dtype);
	s64 sx = scan_stride(p, SCAN_X), so = scan_stride(p, SCAN_O);
	s64 len = (s64)p->len, done = 0;
	union {
		double f[SCAN_CHUNK];
		s64 i[SCAN_CHUNK];
	} buf;
	double fs = 0;
	u64 is = 0;

	while (done < len) {
		u32 n = len - done < SCAN_CHUNK ? (u32)(len - done) :
			SCAN_CHUNK;
		s64 first = rev ? len - done - n : done;
		u32 k;

		if (is_f)
			vnpu_red_load_f64(x->data, x->dtype,
					  offs[SCAN_X] + first * sx, sx, n,
					  buf.f);
		else
			vnpu_red_load_s64(x->data, x->dtype,
					  offs[SCAN_X] + first * sx, sx, n,
					  buf.i);
		for (k = 0; k < n; k++) {
			u32 j = rev ? n - 1 - k : k;
			s64 at = offs[SCAN_O] + (first + j) * so;

			if (is_f) {
				double v = buf.f[j];

				if (!excl)
					fs += v;
				vnpu_store_f64(o->data, o->dtype, at, fs);
				if (excl)
					fs += v;
			} else {
				u64 v = (u64)buf.i[j];

				if (!excl)
					is += v;
				vnpu_store_s64(o->data, o->dtype, at, (s64)is);
				if (excl)
					is += v;
			}
		}
		done += n;
	}
}

/* The index of the first maximum (or first NaN) of a row. */
static s64 hardmax_find(const struct vnpu_op_call *c,
			const struct vnpu_red_plan *p, const s64 *offs)
{
	const struct vnpu_tview *x = &c->t[SCAN_X];
	bool is_f = scan_float(x->dtype);
	s64 sx = scan_stride(p, SCAN_X), len = (s64)p->len, done = 0;
	s64 best = 0, ibest = 0;
	double fbest = 0;
	union {
		double f[SCAN_CHUNK];
		s64 i[SCAN_CHUNK];
	} buf;

	while (done < len) {
		u32 n = len - done < SCAN_CHUNK ? (u32)(len - done) :
			SCAN_CHUNK;
		u32 k;

		if (is_f) {
			vnpu_red_load_f64(x->data, x->dtype,
					  offs[SCAN_X] + done * sx, sx, n,
					  buf.f);
			for (k = 0; k < n; k++) {
				double v = buf.f[k];

				if (v != v)
					return done + k;
				if (!(done + k) || v > fbest) {
					fbest = v;
					best = done + k;
				}
			}
		} else {
			vnpu_red_load_s64(x->data, x->dtype,
					  offs[SCAN_X] + done * sx, sx, n,
					  buf.i);
			for (k = 0; k < n; k++)
				if (!(done + k) || buf.i[k] > ibest) {
					ibest = buf.i[k];
					best = done + k;
				}
		}
		done += n;
	}
	return best;
}

static void hardmax_row(const struct vnpu_op_call *c,
			const struct vnpu_red_plan *p, const s64 *offs)
{
	const struct vnpu_tview *o = &c->t[SCAN_O];
	s64 so = scan_stride(p, SCAN_O), best, i;

	if (!p->len)
		return;
	best = hardmax_find(c, p, offs);
	for (i = 0; i < (s64)p->len; i++)
		vnpu_store_s64(o->data, o->dtype, offs[SCAN_O] + i * so,
			       i == best);
}

static void scan_tile(const struct vnpu_op_call *c, u64 tile)
{
	struct vnpu_red_plan p;
	s64 offs[VNPU_RED_TENSORS], kidx[VNPU_RED_DIMS];
	u64 row, end;

	if (scan_plan(c, &p))
		return;
	vnpu_red_plan_tile(&p, tile, &row, &end, offs, kidx);
	for (; row < end; row++) {
		if (c->op == DRM_VNPU_OP_CUMSUM)
			cumsum_row(c, &p, offs);
		else
			hardmax_row(c, &p, offs);
		vnpu_red_plan_next_row(&p, offs, kidx);
	}
}

/* TRILU: rows of the last dim, (rows of a tile) x (cols) elements. */
static u64 trilu_rows(const struct vnpu_tview *x)
{
	u64 rows = 1;
	u32 d;

	for (d = 0; d + 1 < x->rank; d++)
		if (__builtin_mul_overflow(rows, (u64)x->shape[d], &rows))
			return ~0ULL;
	return rows;
}

static u64 trilu_per_tile(const struct vnpu_tview *x)
{
	u64 cols = (u64)x->shape[x->rank - 1];
	u64 per = VNPU_OPS_TILE_ELEMS / (cols ? cols : 1);

	return per ? per : 1;
}

static int trilu_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[SCAN_X], *o = &c->t[SCAN_O];
	s64 upper = vnpu_attr_int(c, 0, 1);

	if (c->num_in != 1 || c->num_out != 1 || !scan_same_shape(x, o))
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_size(x->dtype) || x->rank < 2)
		return -VNPU_OPS_EINVAL;
	if (upper != 0 && upper != 1)
		return -VNPU_OPS_EINVAL;
	if (trilu_rows(x) && !vnpu_piece_fits((u64)x->shape[x->rank - 1], 1, 1))
		return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 trilu_tiles(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[SCAN_X];
	u64 rows, per;

	if (trilu_check(c) || !vnpu_tview_elems(x))
		return 0;
	rows = trilu_rows(x);
	per = trilu_per_tile(x);
	return (rows + per - 1) / per;
}

/* Copy one element of @size bytes, or write zero bytes if !keep. */
static void trilu_put(u8 *dst, const u8 *src, u32 size, bool keep)
{
	switch (size) {
	case 1:
		*dst = keep ? *src : 0;
		break;
	case 2:
		*(u16 *)dst = keep ? *(const u16 *)src : 0;
		break;
	case 4:
		*(u32 *)dst = keep ? *(const u32 *)src : 0;
		break;
	default:
		*(u64 *)dst = keep ? *(const u64 *)src : 0;
		break;
	}
}

static void trilu_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[SCAN_X], *o = &c->t[SCAN_O];
	bool upper = vnpu_attr_int(c, 0, 1);
	s64 k = vnpu_attr_int(c, 1, 0);
	u32 r = x->rank, size = vnpu_dtype_size(x->dtype), d;
	u64 per, row, end, rows;
	s64 cols, m;

	if (trilu_check(c))
		return;
	rows = trilu_rows(x);
	per = trilu_per_tile(x);
	cols = x->shape[r - 1];
	m = x->shape[r - 2];
	row = tile * per;
	end = row + per < rows ? row + per : rows;
	for (; row < end; row++) {
		s64 xo = 0, oo = 0, i = (s64)(row % (u64)m), j;
		u64 rem = row;

		/* Element offsets of the row from its index in each dim. */
		for (d = r - 1; d-- > 0;) {
			s64 idx = (s64)(rem % (u64)x->shape[d]);

			rem /= (u64)x->shape[d];
			xo += idx * x->strides[d];
			oo += idx * o->strides[d];
		}
		for (j = 0; j < cols; j++) {
			/* j - i cannot overflow: both are below 2 ** 63. */
			bool keep = upper ? j - i >= k : j - i <= k;

			trilu_put((u8 *)o->data + (oo + j * o->strides[r - 1]) * size,
				  (const u8 *)x->data + (xo + j * x->strides[r - 1]) * size,
				  size, keep);
		}
	}
}

const struct vnpu_op_impl vnpu_ops_scan[] = {
	{ DRM_VNPU_OP_CUMSUM, "cumsum", scan_check, scan_tiles, scan_tile },
	{ DRM_VNPU_OP_TRILU, "trilu", trilu_check, trilu_tiles, trilu_tile },
	{ DRM_VNPU_OP_HARDMAX, "hardmax", scan_check, scan_tiles, scan_tile },
	{ 0 }
};
