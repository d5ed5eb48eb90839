// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Binary elementwise operators.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

struct binary_ctx {
	const struct vnpu_op_call *c;
	float alpha;
};

/* One run of a binary op; fp32 has a fast path, the rest go through double. */
static void add_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct binary_ctx *b = p;
	const struct vnpu_tview *o = &b->c->t[2];
	const struct vnpu_tview *x = &b->c->t[0], *y = &b->c->t[1];
	s64 i;

	if (o->dtype == DRM_VNPU_DTYPE_FLOAT && inner[0] == 1 &&
	    inner[1] == 1 && inner[2] == 1) {
		float *out = (float *)o->data + offs[0];
		const float *a = (const float *)x->data + offs[1];
		const float *c = (const float *)y->data + offs[2];

		for (i = 0; i < count; i++)
			out[i] = a[i] + b->alpha * c[i];
		return;
	}
	for (i = 0; i < count; i++) {
		s64 oo = offs[0] + i * inner[0];
		s64 xo = offs[1] + i * inner[1];
		s64 yo = offs[2] + i * inner[2];

		if (vnpu_dtype_is_float(o->dtype))
			vnpu_store_f64(o->data, o->dtype, oo,
				       vnpu_load_f64(x->data, x->dtype, xo) +
				       (double)b->alpha *
				       vnpu_load_f64(y->data, y->dtype, yo));
		else
			vnpu_store_s64(o->data, o->dtype, oo,
				       (s64)((u64)vnpu_load_s64(x->data, x->dtype, xo) +
					     (u64)vnpu_load_s64(y->data, y->dtype, yo) *
					     (u64)(s64)b->alpha));
	}
}

static int binary_check(const struct vnpu_op_call *c)
{
	struct vnpu_iter it;
	const struct vnpu_tview *ins[2] = { &c->t[0], &c->t[1] };

	if (c->num_in != 2 || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (c->t[0].dtype != c->t[2].dtype || c->t[1].dtype != c->t[2].dtype ||
	    !vnpu_dtype_size(c->t[2].dtype))
		return -VNPU_OPS_EINVAL;
	return vnpu_iter_init(&it, &c->t[2], ins, 2);
}

static u64 out0_tiles(const struct vnpu_op_call *c)
{
	return vnpu_tiles_for(vnpu_tview_elems(&c->t[c->num_in]));
}

static void add_tile(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *ins[2] = { &c->t[0], &c->t[1] };
	struct binary_ctx b = {
		.c = c,
		.alpha = vnpu_attr_float(c, 0, 1.0f),
	};
	u64 elems = vnpu_tview_elems(&c->t[2]);
	u64 begin = tile * VNPU_OPS_TILE_ELEMS;
	u64 end = begin + VNPU_OPS_TILE_ELEMS < elems ?
		  begin + VNPU_OPS_TILE_ELEMS : elems;
	struct vnpu_iter it;

	if (vnpu_iter_init(&it, &c->t[2], ins, 2))
		return;
	vnpu_iter_run(&it, begin, end, add_run, &b);
}

const struct vnpu_op_impl vnpu_ops_eltwise[] = {
	{ DRM_VNPU_OP_ADD, "add", binary_check, out0_tiles, add_tile },
	{ 0 }
};
