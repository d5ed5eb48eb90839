// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * MAX_UNPOOL: ONNX MaxUnpool. The output is zero but for the elements
 * the INT64 indices name, which receive x's values. An index is a flat
 * offset into the tensor the pool read (as POOL_ND's indices are):
 * [N, C] and spatial dims ints[0 ..] (the output's without attributes).
 * When the output is larger (ONNX's output_shape), an element keeps its
 * coordinates; indices that land outside the output are skipped.
 * Later elements win where indices repeat, so the one piece runs in
 * order; its work (zeroing plus scattering) is bounded by check().
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

static int unpool_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1], *o = &c->t[2];
	u64 work;
	u32 d;

	if (c->num_in != 2 || c->num_out != 1 || !vnpu_move_io_ok(c, 2, 1) ||
	    ix->dtype != DRM_VNPU_DTYPE_INT64 || o->dtype != x->dtype ||
	    !vnpu_move_same_shape(x, ix) || o->rank != x->rank || x->rank < 3 ||
	    o->shape[0] != x->shape[0] || o->shape[1] != x->shape[1])
		return -VNPU_OPS_EINVAL;
	if (__builtin_add_overflow(vnpu_tview_elems(x), vnpu_tview_elems(o),
				   &work) || work > VNPU_OPS_PIECE_WORK)
		return -VNPU_OPS_EINVAL;
	for (d = 2; d < x->rank; d++) {
		s64 n = vnpu_attr_int(c, d - 2, o->shape[d]);

		if (n < 1 || n > (1LL << 31))
			return -VNPU_OPS_EINVAL;
	}
	return 0;
}

static u64 unpool_tiles(const struct vnpu_op_call *c)
{
	return 1;
}

/* Offset of row-major element @e of @v. */
static s64 unpool_offset(const struct vnpu_tview *v, u64 e)
{
	s64 rem = (s64)e, off = 0;
	u32 d;

	for (d = v->rank; d-- > 0;) {
		off += rem % v->shape[d] * v->strides[d];
		rem /= v->shape[d];
	}
	return off;
}

static void unpool_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *x = &c->t[0], *ix = &c->t[1], *o = &c->t[2];
	u64 e, nx = vnpu_tview_elems(x), no = vnpu_tview_elems(o);
	/* room for the largest dtype */
	u32 es = vnpu_dtype_size(o->dtype);
	u8 zero[16] = { 0 };

	for (e = 0; e < no; e++)
		vnpu_move_copy1(o->data, unpool_offset(o, e), zero, 0, es);
	for (e = 0; e < nx; e++) {
		s64 i = vnpu_load_s64(ix->data, ix->dtype, unpool_offset(ix, e));

		s64 off = 0;
		u32 d;

		if (i < 0)
			continue;
		/* coordinates in the index space, then in the output */
		for (d = o->rank; d-- > 0;) {
			s64 n = d >= 2 ? vnpu_attr_int(c, d - 2, o->shape[d]) :
				o->shape[d];
			s64 q = d ? i % n : i;

			i = d ? i / n : 0;
			if (q >= o->shape[d])
				break;
			off += q * o->strides[d];
		}
		if (d < o->rank)
			continue;
		vnpu_move_copy1(o->data, off, x->data, unpool_offset(x, e), es);
	}
}

const struct vnpu_op_impl vnpu_ops_unpool[] = {
	{ DRM_VNPU_OP_MAX_UNPOOL, "max_unpool", unpool_check, unpool_tiles,
	  unpool_run },
	{ 0 }
};
