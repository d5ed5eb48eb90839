// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * ROPE: rotary position embedding along the last dim, y = x * cos +
 * rotate(x) * sin in fp32, in the four modes of CANN's
 * RotaryPositionEmbedding (see DRM_VNPU_OP_ROPE). A piece is a run of
 * whole rows; each row of x is read into scratch before its output is
 * written, so out may be x itself.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

#define ROPE_MAX_D	65536

static int rope_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *o = &c->t[3];
	s64 mode = vnpu_attr_int(c, 0, 0), d;
	u32 k, i;

	if (!vnpu_move_io_ok(c, 3, 1) || !x->rank ||
	    !vnpu_move_same_shape(x, o) || mode < 0 || mode > 3)
		return -VNPU_OPS_EINVAL;
	for (k = 0; k < 4; k++)
		if (!vnpu_dtype_is_float(c->t[k].dtype))
			return -VNPU_OPS_EINVAL;
	for (k = 1; k < 3; k++) {
		const struct vnpu_tview *t = &c->t[k];

		if (t->rank != x->rank ||
		    t->shape[x->rank - 1] != x->shape[x->rank - 1])
			return -VNPU_OPS_EINVAL;
		for (i = 0; i + 1 < x->rank; i++)
			if (t->shape[i] != x->shape[i] && t->shape[i] != 1)
				return -VNPU_OPS_EINVAL;
	}
	d = x->shape[x->rank - 1];
	if (d > ROPE_MAX_D || d % (mode == 2 ? 4 : 2))
		return -VNPU_OPS_EINVAL;
	return 0;
}

/* Rows of a piece: about VNPU_OPS_TILE_ELEMS elements. */
static u64 rope_rows(const struct vnpu_op_call *c)
{
	s64 d = c->t[0].shape[c->t[0].rank - 1];
	u64 r = d ? VNPU_OPS_TILE_ELEMS / (u64)d : 1;

	return r ? r : 1;
}

static u64 rope_tiles(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0];
	s64 d = x->shape[x->rank - 1];
	u64 rows, per = rope_rows(c);

	if (!d || vnpu_tview_empty(x))
		return 0;
	rows = vnpu_tview_elems(x) / (u64)d;
	return (rows + per - 1) / per;
}

static float rope_ld(const struct vnpu_tview *t, s64 off)
{
	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		return ((const float *)t->data)[off];
	case DRM_VNPU_DTYPE_FLOAT16:
		return vnpu_f16_to_f32(((const u16 *)t->data)[off]);
	default:
		return vnpu_bf16_to_f32(((const u16 *)t->data)[off]);
	}
}

static void rope_st(const struct vnpu_tview *t, s64 off, float v)
{
	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		((float *)t->data)[off] = v;
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		((u16 *)t->data)[off] = vnpu_f32_to_f16(v);
		break;
	default:
		((u16 *)t->data)[off] = vnpu_f32_to_bf16(v);
		break;
	}
}

/* The first element of row @row in each of x, cos, sin and out. */
static void rope_row_offs(const struct vnpu_op_call *c, u64 row, s64 *offs)
{
	const struct vnpu_tview *x = &c->t[0];
	u32 k;
	int i;

	for (k = 0; k < 4; k++)
		offs[k] = 0;
	for (i = (int)x->rank - 2; i >= 0; i--) {
		s64 idx = (s64)(row % (u64)x->shape[i]);

		row /= (u64)x->shape[i];
		for (k = 0; k < 4; k++)
			if (c->t[k].shape[i] != 1)
				offs[k] += idx * c->t[k].strides[i];
	}
}

static void rope_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *co = &c->t[1], *si = &c->t[2];
	const struct vnpu_tview *o = &c->t[3];
	s64 mode = vnpu_attr_int(c, 0, 0), d = x->shape[x->rank - 1];
	s64 h = d / 2, q = d / 4, e;
	u32 l = x->rank - 1;
	u64 per = rope_rows(c), rows = vnpu_tview_elems(x) / (u64)d, row, end;
	float *xr = c->scratch;

	end = (tile + 1) * per < rows ? (tile + 1) * per : rows;
	for (row = tile * per; row < end; row++) {
		s64 offs[4];

		rope_row_offs(c, row, offs);
		for (e = 0; e < d; e++)
			xr[e] = rope_ld(x, offs[0] + e * x->strides[l]);
		for (e = 0; e < d; e++) {
			float a, rot;

			switch (mode) {
			case 0:
				a = xr[e];
				rot = e < h ? -xr[e + h] : xr[e - h];
				break;
			case 1:
				a = xr[e];
				rot = e % 2 ? xr[e - 1] : -xr[e + 1];
				break;
			case 2:
				a = xr[e];
				rot = (e / q) % 2 ? xr[e - q] : -xr[e + q];
				break;
			default:
				a = e < h ? xr[2 * e] : xr[2 * (e - h) + 1];
				rot = e < h ? -xr[2 * e + 1] : xr[2 * (e - h)];
				break;
			}
			rope_st(o, offs[3] + e * o->strides[l],
				a * rope_ld(co, offs[1] + e * co->strides[l]) +
				rot * rope_ld(si, offs[2] + e * si->strides[l]));
		}
	}
}

const struct vnpu_op_impl vnpu_ops_rope[] = {
	{ DRM_VNPU_OP_ROPE, "rope", rope_check, rope_tiles, rope_run },
	{ 0 }
};
