// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Grouped matrix multiplication (DRM_VNPU_OP_GROUPED_MATMUL), the
 * mixture-of-experts product: the rows of x are split into E consecutive
 * groups by a list read at run time, and group e is multiplied by its own
 * weight w[e]:
 *
 *   y[r, :] = x[r, :] @ w[e] (+ bias[e, :]) for start(e) <= r < end(e)
 *
 * Rows past the last group are set to 0. A piece is one block of y, as in
 * MATMUL (the same blocking, so the same piece bound); the block's rows
 * are cut where groups change, each run through the GEMM engine with its
 * group's weight. The list is INT64 device data: every piece reads it,
 * and one that is not non-decreasing within [0, M] (cumulative) or whose
 * counts are negative or sum past M fails the task (vnpu_op_bad_data()).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_gemm.h"

/* Groups a list may hold (CANN's bound for single-tensor weights). */
#define GMM_MAX_GROUPS	1024

/**
 * struct gmm_plan - a GROUPED_MATMUL call, decoded
 * @x: [m, k]
 * @w: [e, k, n]
 * @gl: the group list, INT64 [e], or NULL: one group of every row
 * @bias: [e, n] or NULL
 * @o: [m, n]
 * @m: rows
 * @n: columns
 * @k: depth
 * @e: groups
 * @counts: the list holds counts (else cumulative ends)
 * @mc: rows per piece
 * @nc: columns per piece
 * @tm: pieces along m
 * @tn: pieces along n
 */
struct gmm_plan {
	const struct vnpu_tview *x, *w, *gl, *bias, *o;
	s64 m, n, k, e;
	bool counts;
	s64 mc, nc, tm, tn;
};

static bool gmm_strides_ok(const struct vnpu_tview *v)
{
	u32 d;

	for (d = 0; d < v->rank; d++)
		if (v->shape[d] < 0 || v->strides[d] < 0)
			return false;
	return true;
}

static int gmm_plan(const struct vnpu_op_call *c, struct gmm_plan *p)
{
	s64 kind = vnpu_attr_int(c, 0, 0), has_bias = vnpu_attr_int(c, 1, 0);
	u32 i;

	u32 nl = kind != 2;	/* kind 2: no list, one group of all rows */

	if (kind < 0 || kind > 2 || (has_bias != 0 && has_bias != 1) ||
	    c->num_out != 1 || c->num_in != 2 + nl + (u32)has_bias)
		return -VNPU_OPS_EINVAL;
	p->counts = kind == 1;
	p->x = &c->t[0];
	p->w = &c->t[1];
	p->gl = nl ? &c->t[2] : NULL;
	p->bias = has_bias ? &c->t[2 + nl] : NULL;
	p->o = &c->t[c->num_in];
	for (i = 0; i <= c->num_in; i++)
		if (!gmm_strides_ok(&c->t[i]))
			return -VNPU_OPS_EINVAL;
	if (p->gl && (p->gl->rank != 1 || p->gl->dtype != DRM_VNPU_DTYPE_INT64))
		return -VNPU_OPS_EINVAL;
	if (p->x->rank != 2 || p->w->rank != 3 || p->o->rank != 2 ||
	    !vnpu_dtype_is_float(p->x->dtype) || !vnpu_dtype_is_float(p->w->dtype) ||
	    !vnpu_dtype_is_float(p->o->dtype))
		return -VNPU_OPS_EINVAL;
	p->m = p->x->shape[0];
	p->k = p->x->shape[1];
	p->e = p->w->shape[0];
	p->n = p->w->shape[2];
	if (p->w->shape[1] != p->k || (p->gl && p->gl->shape[0] != p->e) ||
	    (!p->gl && p->e != 1) ||
	    p->e < 1 || p->e > GMM_MAX_GROUPS ||
	    p->o->shape[0] != p->m || p->o->shape[1] != p->n)
		return -VNPU_OPS_EINVAL;
	if (p->bias && (p->bias->rank != 2 || p->bias->shape[0] != p->e ||
			p->bias->shape[1] != p->n ||
			!vnpu_dtype_is_float(p->bias->dtype)))
		return -VNPU_OPS_EINVAL;
	if (vnpu_gemm_plan_block(p->m, p->n, p->k, &p->mc, &p->nc))
		return -VNPU_OPS_EINVAL;
	p->tm = (p->m + p->mc - 1) / p->mc;
	p->tn = (p->n + p->nc - 1) / p->nc;
	return 0;
}

static int gmm_check(const struct vnpu_op_call *c)
{
	struct gmm_plan p;

	return gmm_plan(c, &p);
}

static u64 gmm_tiles(const struct vnpu_op_call *c)
{
	struct gmm_plan p;

	if (gmm_plan(c, &p))
		return 0;
	return (u64)p.tm * (u64)p.tn;
}

/*
 * The end row of the last group, or -1 when the list is bad: cumulative
 * ends must not decrease nor pass m, counts must not be negative nor sum
 * past m (E <= 1024 reads, nothing next to the block's work).
 */
static s64 gmm_last_end(const struct gmm_plan *p)
{
	const s64 *l;
	s64 s, end = 0, prev = 0, i;

	if (!p->gl)
		return p->m;
	l = p->gl->data;
	s = p->gl->strides[0];
	for (i = 0; i < p->e; i++) {
		s64 v = l[i * s];

		if (p->counts) {
			if (v < 0 || v > p->m - end)
				return -1;
			end += v;
		} else {
			if (v < prev || v > p->m)
				return -1;
			end = v;
			prev = v;
		}
	}
	return end;
}

static void gmm_run(const struct vnpu_op_call *c, u64 tile)
{
	float *scratch = c->scratch, *blk;
	s64 i0, j0, mc, nc, i, j, rsc, start = 0, g;
	struct gmm_plan p;
	struct vnpu_gemm gm;

	if (gmm_plan(c, &p))
		return;
	if (gmm_last_end(&p) < 0) {
		vnpu_op_bad_data(c);
		return;
	}
	i0 = (s64)(tile / (u64)p.tn) * p.mc;
	j0 = (s64)(tile % (u64)p.tn) * p.nc;
	mc = p.m - i0 < p.mc ? p.m - i0 : p.mc;
	nc = p.n - j0 < p.nc ? p.n - j0 : p.nc;
	blk = scratch + VNPU_GEMM_SCRATCH_FLOATS;
	rsc = nc;
	for (i = 0; i < mc; i++)
		for (j = 0; j < nc; j++)
			blk[i * rsc + j] = 0.0f;

	vnpu_gemm_init(&gm, c->cpu);
	gm.m = p.m;
	gm.n = p.n;
	gm.k = p.k;
	gm.alpha = 1.0f;
	gm.a = p.x->data;
	gm.a_dtype = p.x->dtype;
	gm.a_rs = p.x->strides[0];
	gm.a_cs = p.x->strides[1];
	gm.b_dtype = p.w->dtype;
	gm.b_rs = p.w->strides[1];
	gm.b_cs = p.w->strides[2];
	gm.call = c;
	for (g = 0; g < p.e && start < i0 + mc; g++) {
		s64 v = p.gl ? ((const s64 *)p.gl->data)[g * p.gl->strides[0]] : p.m;
		s64 end = v, r0, r1;
		float *rows;

		/*
		 * Checked above, but device memory may change under us:
		 * keep the group within [start, m] whatever is read now.
		 */
		if (p.counts && __builtin_add_overflow(start, v, &end))
			end = p.m;
		if (end < start || end > p.m)
			end = end < start ? start : p.m;

		r0 = start > i0 ? start : i0;
		r1 = end < i0 + mc ? end : i0 + mc;
		start = end;
		if (r1 <= r0)
			continue;
		rows = blk + (r0 - i0) * rsc;
		for (i = 0; p.bias && i < r1 - r0; i++)
			for (j = 0; j < nc; j++) {
				s64 at = g * p.bias->strides[0] +
					 (j0 + j) * p.bias->strides[1];

				rows[i * rsc + j] = vnpu_gemm_ld(p.bias->data,
								 p.bias->dtype, at);
			}
		gm.b = (const char *)p.w->data +
		       g * p.w->strides[0] * vnpu_dtype_size(p.w->dtype);
		vnpu_gemm_block(&gm, r0, r1 - r0, j0, nc, rows, rsc, !!p.bias,
				scratch);
	}
	for (i = 0; i < mc; i++)
		for (j = 0; j < nc; j++)
			vnpu_gemm_st(p.o->data, p.o->dtype,
				     (i0 + i) * p.o->strides[0] +
				     (j0 + j) * p.o->strides[1], blk[i * rsc + j]);
}

/* No VNPU_OP_EMPTY_OK: CANN refuses empty tensors here. */
const struct vnpu_op_impl vnpu_ops_grouped_matmul[] = {
	{ DRM_VNPU_OP_GROUPED_MATMUL, "grouped_matmul", gmm_check, gmm_tiles,
	  gmm_run },
	{ 0 }
};
