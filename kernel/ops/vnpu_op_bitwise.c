// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Bitwise operators on integers: BITSHIFT, BITWISE_AND/OR/XOR (a, b) ->
 * out and BITWISE_NOT x -> out, numpy broadcasting, any strides.
 *
 * Every integer dtype (INT8 .. UINT64) is staged as int64; the narrow
 * unsigned ones load zero-extended, so an arithmetic shift of the staged
 * value is their logical shift, and UINT64 shifts right as unsigned. A
 * shift amount is read as unsigned: one of 64 or more (a negative one)
 * gives 0, or -1 for a right shift of a negative signed value; the result
 * wraps to the dtype's width when stored. BOOL takes AND, OR, XOR and NOT
 * (as logical operators), not BITSHIFT.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

struct bw_ctx {
	const struct vnpu_op_call *c;
	u32 op;
	u32 nin;
	bool right;		/* BITSHIFT: ints[0] 1 */
	bool uns;		/* UINT64: logical right shift */
	s64 *ia, *ib, *io;	/* staging buffers in scratch */
};

static s64 bw_shift(const struct bw_ctx *b, s64 x, s64 s)
{
	u64 n = (u64)s;

	if (!b->right)
		return n >= 64 ? 0 : (s64)((u64)x << n);
	if (b->uns)
		return n >= 64 ? 0 : (s64)((u64)x >> n);
	if (n >= 64)
		return x < 0 ? -1 : 0;
	return x >> n;
}

static void bw_chunk(const struct bw_ctx *b, s64 n)
{
	s64 i;

	switch (b->op) {
	case DRM_VNPU_OP_BITWISE_AND:
		for (i = 0; i < n; i++)
			b->io[i] = b->ia[i] & b->ib[i];
		break;
	case DRM_VNPU_OP_BITWISE_OR:
		for (i = 0; i < n; i++)
			b->io[i] = b->ia[i] | b->ib[i];
		break;
	case DRM_VNPU_OP_BITWISE_XOR:
		for (i = 0; i < n; i++)
			b->io[i] = b->ia[i] ^ b->ib[i];
		break;
	case DRM_VNPU_OP_BITSHIFT:
		for (i = 0; i < n; i++)
			b->io[i] = bw_shift(b, b->ia[i], b->ib[i]);
		break;
	default:		/* NOT; BOOL stores != 0, so use !x there */
		if (b->c->t[0].dtype == DRM_VNPU_DTYPE_BOOL)
			for (i = 0; i < n; i++)
				b->io[i] = !b->ia[i];
		else
			for (i = 0; i < n; i++)
				b->io[i] = ~b->ia[i];
		break;
	}
}

static void bw_run(void *p, const s64 *offs, const s64 *inner, s64 count)
{
	const struct bw_ctx *b = p;
	const struct vnpu_tview *t = b->c->t, *o = &b->c->t[b->nin];
	s64 done, n;

	for (done = 0; done < count; done += n) {
		n = count - done < VNPU_ELT_CHUNK ? count - done : VNPU_ELT_CHUNK;
		vnpu_elt_load_s64(b->ia, t[0].data, t[0].dtype,
				  offs[1] + done * inner[1], inner[1], n);
		if (b->nin == 2)
			vnpu_elt_load_s64(b->ib, t[1].data, t[1].dtype,
					  offs[2] + done * inner[2], inner[2], n);
		bw_chunk(b, n);
		vnpu_elt_store_s64(o->data, o->dtype, offs[0] + done * inner[0],
				   inner[0], b->io, n);
	}
}

static u32 bw_nin(u32 op)
{
	return op == DRM_VNPU_OP_BITWISE_NOT ? 1 : 2;
}

static int bw_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *ins[2] = { &c->t[0], &c->t[1] };
	u32 nin = bw_nin(c->op), dt = c->t[0].dtype, k;
	struct vnpu_iter it;
	s64 dir = vnpu_attr_int(c, 0, 0);

	if (c->num_in != nin || c->num_out != 1)
		return -VNPU_OPS_EINVAL;
	if (!vnpu_elt_dtype_int(dt) &&
	    (dt != DRM_VNPU_DTYPE_BOOL || c->op == DRM_VNPU_OP_BITSHIFT))
		return -VNPU_OPS_EINVAL;
	if (c->op == DRM_VNPU_OP_BITSHIFT && dir != 0 && dir != 1)
		return -VNPU_OPS_EINVAL;
	for (k = 0; k <= nin; k++)
		if (c->t[k].dtype != dt || !vnpu_elt_shape_ok(&c->t[k]))
			return -VNPU_OPS_EINVAL;
	return vnpu_iter_init(&it, &c->t[nin], ins, nin);
}

static u64 bw_tiles(const struct vnpu_op_call *c)
{
	return vnpu_elt_tiles(vnpu_tview_elems(&c->t[bw_nin(c->op)]),
			      VNPU_OPS_TILE_ELEMS);
}

static void bw_tile(const struct vnpu_op_call *c, u64 tile)
{
	u8 *s = c->scratch;
	struct bw_ctx b = {
		.c = c,
		.op = c->op,
		.nin = bw_nin(c->op),
		.right = vnpu_attr_int(c, 0, 0) == 1,
		.uns = c->t[0].dtype == DRM_VNPU_DTYPE_UINT64,
		.ia = (s64 *)s,
		.ib = (s64 *)(s + 8 * VNPU_ELT_CHUNK),
		.io = (s64 *)(s + 16 * VNPU_ELT_CHUNK),
	};
	struct vnpu_iter it;
	u64 begin, end;

	if (vnpu_elt_iter(&it, &c->t[b.nin], c->t, b.nin, tile,
			  VNPU_OPS_TILE_ELEMS, &begin, &end))
		return;
	vnpu_iter_run(&it, begin, end, bw_run, &b);
}

const struct vnpu_op_impl vnpu_ops_bitwise[] = {
	{ DRM_VNPU_OP_BITSHIFT, "bitshift", bw_check, bw_tiles, bw_tile },
	{ DRM_VNPU_OP_BITWISE_AND, "bitwise_and", bw_check, bw_tiles, bw_tile },
	{ DRM_VNPU_OP_BITWISE_OR, "bitwise_or", bw_check, bw_tiles, bw_tile },
	{ DRM_VNPU_OP_BITWISE_XOR, "bitwise_xor", bw_check, bw_tiles, bw_tile },
	{ DRM_VNPU_OP_BITWISE_NOT, "bitwise_not", bw_check, bw_tiles, bw_tile },
	{ 0 }
};
