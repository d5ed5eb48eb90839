// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Integer matrix products (ONNX MatMulInteger and QLinearMatMul):
 * INT8/UINT8 a [..., M, K] and b [..., K, N] with batch dims that
 * broadcast, zero points subtracted, sums exact in 64 bits.
 * MATMUL_INT writes the INT32 sums; QLINEAR_MATMUL requantizes them,
 * saturate(round_half_even(sum * a_scale * b_scale / y_scale) + y_zp),
 * to the zero point's dtype.
 *
 * A piece is a run of output rows.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"
#include "vnpu_nd_util.h"

/**
 * struct mmi_plan - an integer matmul, decoded
 * @a: a's view
 * @b: b's view
 * @o: the output's view
 * @ia: input index of a
 * @ib: input index of b
 * @m: rows
 * @k: depth
 * @n: columns
 * @rows: the pieces, runs of output rows (batches * m rows of n)
 * @quant: QLINEAR_MATMUL
 */
struct mmi_plan {
	const struct vnpu_tview *a, *b, *o;
	u32 ia, ib;
	s64 m, k, n;
	struct vnpu_nd_split rows;
	bool quant;
};

static bool mmi_qtype(u32 dt)
{
	return dt == DRM_VNPU_DTYPE_INT8 || dt == DRM_VNPU_DTYPE_UINT8;
}

/* A scale or zero point of one element. */
static bool mmi_scalar(const struct vnpu_tview *v, bool is_float, u32 dt)
{
	return vnpu_tview_elems(v) == 1 && v->rank <= 1 &&
	       (is_float ? vnpu_dtype_is_float(v->dtype) : v->dtype == dt);
}

static int mmi_plan(const struct vnpu_op_call *c, struct mmi_plan *p)
{
	const struct vnpu_tview *a, *b, *o;
	u32 d, r;

	p->quant = c->op == DRM_VNPU_OP_QLINEAR_MATMUL;
	if (c->num_out != 1 || !vnpu_move_io_ok(c, c->num_in, 1))
		return -VNPU_OPS_EINVAL;
	if (p->quant) {
		/* a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp */
		if (c->num_in != 8)
			return -VNPU_OPS_EINVAL;
		p->ia = 0;
		p->ib = 3;
	} else {
		/* a, b, [a_zp, [b_zp]] */
		if (c->num_in < 2 || c->num_in > 4)
			return -VNPU_OPS_EINVAL;
		p->ia = 0;
		p->ib = 1;
	}
	p->a = &c->t[p->ia];
	p->b = &c->t[p->ib];
	p->o = &c->t[c->num_in];
	a = p->a;
	b = p->b;
	o = p->o;
	if (!mmi_qtype(a->dtype) || !mmi_qtype(b->dtype) || a->rank < 2 ||
	    b->rank < 2 || o->rank != (a->rank > b->rank ? a->rank : b->rank))
		return -VNPU_OPS_EINVAL;
	if (p->quant) {
		if (!mmi_scalar(&c->t[1], true, 0) ||
		    !mmi_scalar(&c->t[2], false, a->dtype) ||
		    !mmi_scalar(&c->t[4], true, 0) ||
		    !mmi_scalar(&c->t[5], false, b->dtype) ||
		    !mmi_scalar(&c->t[6], true, 0) ||
		    !mmi_scalar(&c->t[7], false, o->dtype) || !mmi_qtype(o->dtype))
			return -VNPU_OPS_EINVAL;
	} else {
		if (o->dtype != DRM_VNPU_DTYPE_INT32 ||
		    (c->num_in > 2 && !mmi_scalar(&c->t[2], false, a->dtype)) ||
		    (c->num_in > 3 && !mmi_scalar(&c->t[3], false, b->dtype)))
			return -VNPU_OPS_EINVAL;
	}
	r = o->rank;
	p->m = a->shape[a->rank - 2];
	p->k = a->shape[a->rank - 1];
	p->n = b->shape[b->rank - 1];
	if (b->shape[b->rank - 2] != p->k || o->shape[r - 2] != p->m ||
	    o->shape[r - 1] != p->n)
		return -VNPU_OPS_EINVAL;
	/* batch dims: each a or b dim is the output's or 1 */
	for (d = 0; d + 2 < r; d++) {
		s64 od = o->shape[d];
		s64 ad = d + a->rank >= r ? a->shape[d + a->rank - r] : 1;
		s64 bd = d + b->rank >= r ? b->shape[d + b->rank - r] : 1;

		if ((ad != od && ad != 1) || (bd != od && bd != 1) ||
		    (ad == 1 && bd == 1 && od != 1))
			return -VNPU_OPS_EINVAL;
	}
	return vnpu_nd_split(&p->rows, vnpu_tview_elems(o), p->n, p->k);
}

DEFINE_VNPU_ND_CHECK_TILES(mmi, struct mmi_plan, mmi_plan, rows)

static void mmi_run(const struct vnpu_op_call *c, u64 tile)
{
	struct mmi_plan p;
	const struct vnpu_tview *a, *b, *o;
	s64 row, first, last, azp = 0, bzp = 0, yzp = 0;
	double mult = 0;
	u32 r;

	if (mmi_plan(c, &p))
		return;
	a = p.a;
	b = p.b;
	o = p.o;
	r = o->rank;
	if (p.quant) {
		azp = vnpu_load_s64(c->t[2].data, c->t[2].dtype, 0);
		bzp = vnpu_load_s64(c->t[5].data, c->t[5].dtype, 0);
		yzp = vnpu_load_s64(c->t[7].data, c->t[7].dtype, 0);
		mult = (double)((float)vnpu_load_f64(c->t[1].data, c->t[1].dtype, 0) *
				(float)vnpu_load_f64(c->t[4].data, c->t[4].dtype, 0)) /
		       vnpu_load_f64(c->t[6].data, c->t[6].dtype, 0);
	} else {
		if (c->num_in > 2)
			azp = vnpu_load_s64(c->t[2].data, c->t[2].dtype, 0);
		if (c->num_in > 3)
			bzp = vnpu_load_s64(c->t[3].data, c->t[3].dtype, 0);
	}
	vnpu_nd_piece(&p.rows, tile, &first, &last);
	for (row = first; row < last; row++) {
		s64 i = row % p.m, rem = row / p.m, ao = 0, bo = 0, oo = 0, j, q;
		u32 d;

		for (d = r - 2; d-- > 0;) {
			s64 bi = rem % o->shape[d];

			rem /= o->shape[d];
			oo += bi * o->strides[d];
			if (d + a->rank >= r && a->shape[d + a->rank - r] != 1)
				ao += bi * a->strides[d + a->rank - r];
			if (d + b->rank >= r && b->shape[d + b->rank - r] != 1)
				bo += bi * b->strides[d + b->rank - r];
		}
		ao += i * a->strides[a->rank - 2];
		oo += i * o->strides[r - 2];
		for (j = 0; j < p.n; j++) {
			s64 acc = 0;

			for (q = 0; q < p.k; q++)
				acc += (vnpu_load_s64(a->data, a->dtype,
						      ao + q * a->strides[a->rank - 1]) - azp) *
				       (vnpu_load_s64(b->data, b->dtype,
						      bo + q * b->strides[b->rank - 2] +
						      j * b->strides[b->rank - 1]) - bzp);
			if (p.quant)
				vnpu_store_s64(o->data, o->dtype,
					       oo + j * o->strides[r - 1],
					       vnpu_nd_requant8((double)acc * mult,
								yzp, o->dtype));
			else
				vnpu_store_s64(o->data, o->dtype,
					       oo + j * o->strides[r - 1], acc);
		}
	}
}

const struct vnpu_op_impl vnpu_ops_matmul_int[] = {
	{ DRM_VNPU_OP_MATMUL_INT, "matmul_int", mmi_check, mmi_tiles, mmi_run },
	{ DRM_VNPU_OP_QLINEAR_MATMUL, "qlinear_matmul", mmi_check, mmi_tiles,
	  mmi_run },
	{ 0 }
};
