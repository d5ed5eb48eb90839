// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Matrix multiplication: MATMUL (batched, numpy broadcasting of the batch
 * dims, 1-D operands as in numpy) and GEMM (alpha * a @ b + beta * c), on
 * the GEMM engine. A piece is one block of C (at most VNPU_GEMM_MC rows by
 * VNPU_GEMM_NC columns, fewer when the depth is large) of one batch entry,
 * of at most VNPU_OPS_PIECE_WORK multiply-adds: a depth beyond what the
 * smallest block allows (vnpu_gemm_plan_block()) is rejected.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_gemm.h"

/**
 * struct mm_plan - a matmul call, decoded
 * @m: rows of each product
 * @n: columns
 * @k: depth
 * @nb: batch dims (the output's leading dims)
 * @bshape: batch shape
 * @a_bs: batch strides of a (0 where broadcast)
 * @b_bs: batch strides of b
 * @o_bs: batch strides of the output
 * @c_bs: batch strides of the bias c
 * @batch: product of @bshape
 * @a_rs: row stride of op(a)
 * @a_cs: column stride of op(a)
 * @b_rs: row stride of op(b)
 * @b_cs: column stride of op(b)
 * @o_rs: row stride of the output
 * @o_cs: column stride of the output
 * @c_rs: row stride of c
 * @c_cs: column stride of c
 * @mc: rows per piece
 * @nc: columns per piece
 * @tm: pieces along m
 * @tn: pieces along n
 * @has_c: a bias is added
 * @alpha: scale of the product
 * @beta: scale of c
 * @act: fused activation, applied after the bias
 */
struct mm_plan {
	s64 m, n, k;
	u32 nb;
	s64 bshape[VNPU_OPS_MAX_RANK];
	s64 a_bs[VNPU_OPS_MAX_RANK], b_bs[VNPU_OPS_MAX_RANK];
	s64 o_bs[VNPU_OPS_MAX_RANK], c_bs[VNPU_OPS_MAX_RANK];
	s64 batch;
	s64 a_rs, a_cs, b_rs, b_cs, o_rs, o_cs, c_rs, c_cs;
	s64 mc, nc, tm, tn;
	bool has_c;
	float alpha, beta;
	struct vnpu_act act;
};

static int mm_plan(const struct vnpu_op_call *c, struct mm_plan *p)
{
	const struct vnpu_tview *a = &c->t[0], *b = &c->t[1];
	const struct vnpu_tview *o = &c->t[c->num_in];
	bool gemm = c->op == DRM_VNPU_OP_GEMM;
	s64 ta = vnpu_attr_int(c, 0, 0), tb = vnpu_attr_int(c, 1, 0), k2;
	u32 an, bn, d, orank, t;
	bool a_vec, b_vec;

	if (c->num_out != 1 || c->num_in < 2 || c->num_in > (gemm ? 3u : 2u))
		return -VNPU_OPS_EINVAL;
	for (t = 0; t <= c->num_in; t++) {
		if (!vnpu_dtype_is_float(c->t[t].dtype) ||
		    c->t[t].dtype != o->dtype ||
		    c->t[t].rank > VNPU_OPS_MAX_RANK)
			return -VNPU_OPS_EINVAL;
		for (d = 0; d < c->t[t].rank; d++)
			if (c->t[t].shape[d] < 0 || c->t[t].strides[d] < 0)
				return -VNPU_OPS_EINVAL;
	}
	if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1) || !a->rank ||
	    !b->rank || vnpu_act_get(c, &p->act))
		return -VNPU_OPS_EINVAL;

	a_vec = a->rank == 1;
	b_vec = b->rank == 1;
	if (a_vec) {
		p->m = 1;
		p->k = a->shape[0];
		p->a_rs = 0;
		p->a_cs = a->strides[0];
	} else if (ta) {
		p->k = a->shape[a->rank - 2];
		p->m = a->shape[a->rank - 1];
		p->a_rs = a->strides[a->rank - 1];
		p->a_cs = a->strides[a->rank - 2];
	} else {
		p->m = a->shape[a->rank - 2];
		p->k = a->shape[a->rank - 1];
		p->a_rs = a->strides[a->rank - 2];
		p->a_cs = a->strides[a->rank - 1];
	}
	if (b_vec) {
		k2 = b->shape[0];
		p->n = 1;
		p->b_rs = b->strides[0];
		p->b_cs = 0;
	} else if (tb) {
		p->n = b->shape[b->rank - 2];
		k2 = b->shape[b->rank - 1];
		p->b_rs = b->strides[b->rank - 1];
		p->b_cs = b->strides[b->rank - 2];
	} else {
		k2 = b->shape[b->rank - 2];
		p->n = b->shape[b->rank - 1];
		p->b_rs = b->strides[b->rank - 2];
		p->b_cs = b->strides[b->rank - 1];
	}
	if (k2 != p->k)
		return -VNPU_OPS_EINVAL;

	/* Batch dims broadcast numpy-style, aligned from the right. */
	an = a_vec ? 0 : a->rank - 2;
	bn = b_vec ? 0 : b->rank - 2;
	p->nb = an > bn ? an : bn;
	orank = p->nb + !a_vec + !b_vec;
	if (o->rank != orank)
		return -VNPU_OPS_EINVAL;
	p->batch = 1;
	for (d = 0; d < p->nb; d++) {
		s64 sa = 1, sb = 1, sa_st = 0, sb_st = 0;

		if (d >= p->nb - an) {
			sa = a->shape[d - (p->nb - an)];
			sa_st = a->strides[d - (p->nb - an)];
		}
		if (d >= p->nb - bn) {
			sb = b->shape[d - (p->nb - bn)];
			sb_st = b->strides[d - (p->nb - bn)];
		}
		if (sa != sb && sa != 1 && sb != 1)
			return -VNPU_OPS_EINVAL;
		p->bshape[d] = sa == 1 ? sb : sa;
		p->a_bs[d] = sa == 1 ? 0 : sa_st;
		p->b_bs[d] = sb == 1 ? 0 : sb_st;
		p->o_bs[d] = o->strides[d];
		if (o->shape[d] != p->bshape[d])
			return -VNPU_OPS_EINVAL;
		p->batch *= p->bshape[d];
	}
	if ((!a_vec && o->shape[p->nb] != p->m) ||
	    (!b_vec && o->shape[orank - 1] != p->n))
		return -VNPU_OPS_EINVAL;
	p->o_rs = a_vec ? 0 : o->strides[p->nb];
	p->o_cs = b_vec ? 0 : o->strides[orank - 1];

	p->alpha = gemm ? vnpu_attr_float(c, 0, 1.0f) : 1.0f;
	p->beta = gemm ? vnpu_attr_float(c, 1, 1.0f) : 0.0f;
	p->has_c = c->num_in == 3 && p->beta != 0.0f;
	if (c->num_in == 3) {
		const struct vnpu_tview *ins[1] = { &c->t[2] };
		struct vnpu_iter it;

		if (vnpu_iter_init(&it, o, ins, 1))
			return -VNPU_OPS_EINVAL;
		for (d = 0; d < p->nb; d++)
			p->c_bs[d] = it.strides[1][d];
		p->c_rs = a_vec ? 0 : it.strides[1][p->nb];
		p->c_cs = b_vec ? 0 : it.strides[1][orank - 1];
	}

	/* Pieces: blocks of C, smaller when the depth is large. */
	if (vnpu_gemm_plan_block(p->m, p->n, p->k, &p->mc, &p->nc))
		return -VNPU_OPS_EINVAL;
	p->tm = (p->m + p->mc - 1) / p->mc;
	p->tn = (p->n + p->nc - 1) / p->nc;
	return 0;
}

static int mm_check(const struct vnpu_op_call *c)
{
	struct mm_plan p;

	return mm_plan(c, &p);
}

static u64 mm_tiles(const struct vnpu_op_call *c)
{
	struct mm_plan p;

	if (mm_plan(c, &p))
		return 0;
	return (u64)p.batch * (u64)p.tm * (u64)p.tn;
}

static void mm_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[c->num_in];
	float *scratch = c->scratch, *blk;
	s64 ao = 0, bo = 0, oo = 0, co = 0, i0, j0, mc, nc, rsc, i, j;
	struct vnpu_gemm g;
	struct mm_plan p;
	u64 bi;
	bool direct;
	u32 d;

	if (mm_plan(c, &p))
		return;
	bi = tile / (u64)(p.tm * p.tn);
	i0 = (s64)(tile / (u64)p.tn % (u64)p.tm) * p.mc;
	j0 = (s64)(tile % (u64)p.tn) * p.nc;
	mc = p.m - i0 < p.mc ? p.m - i0 : p.mc;
	nc = p.n - j0 < p.nc ? p.n - j0 : p.nc;
	for (d = p.nb; d-- > 0;) {
		s64 idx = (s64)(bi % (u64)p.bshape[d]);

		bi /= (u64)p.bshape[d];
		ao += idx * p.a_bs[d];
		bo += idx * p.b_bs[d];
		oo += idx * p.o_bs[d];
		co += idx * p.c_bs[d];
	}
	oo += i0 * p.o_rs + j0 * p.o_cs;
	co += i0 * p.c_rs + j0 * p.c_cs;

	vnpu_gemm_init(&g, c->cpu);
	g.m = p.m;
	g.n = p.n;
	g.k = p.k;
	g.alpha = p.alpha;
	g.a_dtype = c->t[0].dtype;
	g.b_dtype = c->t[1].dtype;
	g.a = (const char *)c->t[0].data + ao * vnpu_dtype_size(g.a_dtype);
	g.b = (const char *)c->t[1].data + bo * vnpu_dtype_size(g.b_dtype);
	g.a_rs = p.a_rs;
	g.a_cs = p.a_cs;
	g.b_rs = p.b_rs;
	g.b_cs = p.b_cs;
	g.act = p.act;
	g.call = c;
	/* The next piece of this product, if it is in the same batch entry. */
	if ((tile + 1) % (u64)(p.tm * p.tn)) {
		g.next_i0 = (s64)((tile + 1) / (u64)p.tn % (u64)p.tm) * p.mc;
		g.next_j0 = (s64)((tile + 1) % (u64)p.tn) * p.nc;
	}

	/* fp32 rows go straight to the output, the rest through scratch. */
	direct = o->dtype == DRM_VNPU_DTYPE_FLOAT && (p.o_cs == 1 || nc == 1);
	if (direct) {
		blk = (float *)o->data + oo;
		rsc = p.o_rs;
	} else {
		blk = scratch + VNPU_GEMM_SCRATCH_FLOATS;
		rsc = nc;
	}
	if (p.has_c)
		for (i = 0; i < mc; i++)
			for (j = 0; j < nc; j++)
				blk[i * rsc + j] = p.beta *
					vnpu_gemm_ld(c->t[2].data, c->t[2].dtype,
						     co + i * p.c_rs + j * p.c_cs);
	vnpu_gemm_block(&g, i0, mc, j0, nc, blk, rsc, p.has_c, scratch);
	if (direct)
		return;
	for (i = 0; i < mc; i++)
		for (j = 0; j < nc; j++)
			vnpu_gemm_st(o->data, o->dtype,
				     oo + i * p.o_rs + j * p.o_cs, blk[i * rsc + j]);
}

/*
 * Empty operands (VNPU_OP_EMPTY_OK): with a non-empty output, only the
 * depth K can be 0 (an empty batch, M or N dim empties the output, and c
 * broadcasts to the output), and vnpu_gemm_block() of depth 0 writes 0
 * (or beta * c) and the activation without reading a or b.
 */
const struct vnpu_op_impl vnpu_ops_matmul[] = {
	{ DRM_VNPU_OP_MATMUL, "matmul", mm_check, mm_tiles, mm_run, NULL,
	  VNPU_OP_EMPTY_OK },
	{ DRM_VNPU_OP_GEMM, "gemm", mm_check, mm_tiles, mm_run, NULL,
	  VNPU_OP_EMPTY_OK },
	{ 0 }
};
