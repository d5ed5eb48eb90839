// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DROPOUT: (x, ratio, training) -> (y, mask), ONNX's Dropout with its
 * training-mode inputs read at run time. Inference (training false) is a
 * copy and an all-true mask. In training the keep decision of an element
 * is u >= ratio with u in [0, 1) from a 64-bit mix (splitmix64's
 * finaliser) of the seed and the element's offset in y: reproducible for
 * a seed and layout, independent of tiling, but no other framework's
 * random stream. Kept elements are scaled by 1 / (1 - ratio) in double,
 * so ratio 0 returns x exactly.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

struct drop_ctx {
	const struct vnpu_op_call *c;
	bool training;
	double ratio, scale;
	u64 seed;
	float *fa, *fo;
	u8 *mask;
};

static u64 drop_mix(u64 z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void drop_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct drop_ctx *u = p;
	const struct vnpu_tview *x = &u->c->t[0], *y = &u->c->t[3];
	const struct vnpu_tview *m = &u->c->t[4];
	s64 done, n, i;

	for (done = 0; done < count; done += n) {
		s64 yo = offs[0] + done * inner[0];
		s64 xo = offs[1] + done * inner[1];
		s64 mo = offs[2] + done * inner[2];

		n = count - done < VNPU_ELT_CHUNK ? count - done : VNPU_ELT_CHUNK;
		vnpu_elt_load_f32(u->fa, x->data, x->dtype, xo, inner[1], n);
		for (i = 0; i < n; i++) {
			u64 h = drop_mix(u->seed ^ drop_mix((u64)(yo + i * inner[0])));
			double r = (double)(h >> 11) * (1.0 / 9007199254740992.0);
			bool keep = !u->training || r >= u->ratio;

			u->mask[i] = keep;
			u->fo[i] = !u->training ? u->fa[i] :
				   keep ? (float)(u->fa[i] * u->scale) : 0.0f;
		}
		vnpu_elt_store_f32(y->data, y->dtype, yo, inner[0], u->fo, n);
		vnpu_elt_store_bool(m->data, mo, inner[2], u->mask, n);
	}
}

static bool scalar_view(const struct vnpu_tview *v)
{
	return vnpu_elt_shape_ok(v) && vnpu_tview_elems(v) == 1;
}

static int dropout_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *ins[2] = { &c->t[0], &c->t[4] };
	struct vnpu_iter it;
	u32 dt = c->t[0].dtype, d;

	if (c->num_in != 3 || c->num_out != 2)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_dtype_is_float(dt) || c->t[3].dtype != dt ||
	    c->t[4].dtype != DRM_VNPU_DTYPE_BOOL ||
	    !vnpu_dtype_is_float(c->t[1].dtype) ||
	    c->t[2].dtype != DRM_VNPU_DTYPE_BOOL)
		return -VNPU_OPS_EINVAL;
	if (!scalar_view(&c->t[1]) || !scalar_view(&c->t[2]) ||
	    !vnpu_elt_shape_ok(&c->t[0]) || !vnpu_elt_shape_ok(&c->t[3]) ||
	    !vnpu_elt_shape_ok(&c->t[4]))
		return -VNPU_OPS_EINVAL;
	/* the mask has y's shape exactly (x may broadcast, as elsewhere) */
	if (c->t[4].rank != c->t[3].rank)
		return -VNPU_OPS_EINVAL;
	for (d = 0; d < c->t[3].rank; d++)
		if (c->t[4].shape[d] != c->t[3].shape[d])
			return -VNPU_OPS_EINVAL;
	return vnpu_iter_init(&it, &c->t[3], ins, 2);
}

static u64 dropout_tiles(const struct vnpu_op_call *c)
{
	return vnpu_elt_tiles(vnpu_tview_elems(&c->t[3]), VNPU_OPS_TILE_ELEMS / 2);
}

/* The first element of a scalar view (any rank, all sizes 1). */
static double scalar_f64(const struct vnpu_tview *v)
{
	return vnpu_load_f64(v->data, v->dtype, 0);
}

static void dropout_tile(const struct vnpu_op_call *c, u64 tile)
{
	u8 *s = c->scratch;
	struct drop_ctx u = {
		.c = c,
		.seed = (u64)vnpu_attr_int(c, 0, 0),
		.fa = (float *)s,
		.fo = (float *)(s + 4 * VNPU_ELT_CHUNK),
		.mask = s + 8 * VNPU_ELT_CHUNK,
	};
	struct vnpu_tview views[2] = { c->t[0], c->t[4] };
	struct vnpu_iter it;
	u64 begin, end;

	u.training = vnpu_load_s64(c->t[2].data, c->t[2].dtype, 0) != 0;
	u.ratio = scalar_f64(&c->t[1]);
	if (u.ratio != u.ratio || u.ratio < 0)
		u.ratio = 0;	/* no valid ratio drops nothing */
	u.scale = u.ratio < 1 ? 1 / (1 - u.ratio) : 0;
	if (vnpu_elt_iter(&it, &c->t[3], views, 2, tile, VNPU_OPS_TILE_ELEMS / 2,
			  &begin, &end))
		return;
	vnpu_iter_run(&it, begin, end, drop_run, &u);
}

const struct vnpu_op_impl vnpu_ops_dropout[] = {
	{ DRM_VNPU_OP_DROPOUT, "dropout", dropout_check, dropout_tiles,
	  dropout_tile },
	{ 0 }
};
