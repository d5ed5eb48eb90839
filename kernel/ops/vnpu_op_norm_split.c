// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Softmax, log-softmax, layer norm and RMS norm of long fp32 rows, split
 * into chunks of VNPU_SPLIT_CHUNK elements that run on any engine. The
 * chunk's partials go to the call's shared memory; every piece of a later
 * phase first combines its row's partials, in chunk order, so each piece
 * finds the same row statistics whichever engines ran the chunks.
 *
 * Softmax: phase 0 finds the chunk's maximum m_k, writes e = exp(x - m_k)
 * to the output and sums it (s_k) in the same pass; phase 1 takes
 * M = max m_k and S = sum s_k exp(m_k - M) and scales its chunk by
 * exp(m_k - M) / S. One exp per element (the exp costs more than reading
 * the chunk again from cache), as the unsplit row, but rounded differently:
 * an element gets exp(x - m_k) (single precision) times a factor rounded
 * to single precision, where the unsplit row computes exp(x - max) times
 * 1 / sum; the two differ by a few ulp. A row holding NaN or +Inf, or only
 * -Inf, is NaN as in the unsplit row.
 * Log-softmax: phase 0 sums exp(x - m_k) the same way (through the
 * output), phase 1 writes (x - M) - log S in double.
 * Layer norm: phase 0 sums each chunk, phase 1 sums the squared
 * deviations from the mean, phase 2 writes; RMS norm: phase 0 sums the
 * squares, phase 1 writes. The sums are in double in a fixed order
 * (chunks, and sixteen lanes within a chunk), so they may differ from the
 * unsplit row's sequential sums in the last bits; each element is then
 * computed exactly as the unsplit row computes it.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_norm_split.h"

/* Plan tensors, as in vnpu_op_norm.c. */
#define NS_X	0
#define NS_O	1
#define NS_G	2
#define NS_B	3

bool vnpu_norm_split_plan(const struct vnpu_op_call *c,
			  const struct vnpu_red_plan *p, int g, int b,
			  struct vnpu_split_rows *s)
{
	u32 need = BIT(NS_X) | BIT(NS_O);
	/*
	 * Work per element over all phases, and per partial a later piece
	 * combines (every piece of a later phase combines its whole row).
	 * Softmax: the maximum 1, exp and sum 4, the scale 1 (log-softmax's
	 * output in double: 2), and a double exp per partial, 32. Layer norm:
	 * sum, squared deviations, the output with gamma and beta (2); RMS
	 * norm: sum of squares and the output.
	 */
	u64 elem, part, later, work = 0;

	switch (c->op) {
	case DRM_VNPU_OP_SOFTMAX:
		elem = 6;
		part = 32;
		later = 1;
		break;
	case DRM_VNPU_OP_LOG_SOFTMAX:
		elem = 7;
		part = 32;
		later = 1;
		break;
	case DRM_VNPU_OP_LAYER_NORM:
		elem = 4;
		part = 1;
		later = 2;
		break;
	case DRM_VNPU_OP_RMS_NORM:
		elem = 3;
		part = 1;
		later = 1;
		break;
	default:
		return false;
	}
	if (c->t[0].dtype != DRM_VNPU_DTYPE_FLOAT)
		return false;
	if (g >= 0)
		need |= BIT(NS_G);
	if (b >= 0)
		need |= BIT(NS_B);
	if (!vnpu_split_contiguous(p, need) ||
	    !vnpu_split_rows_init(s, p->rows, p->len))
		return false;
	vnpu_split_work_add(&work, s->rows * s->len, elem);
	vnpu_split_work_add(&work, later * s->pieces * s->chunks, part);
	return work <= VNPU_SPLIT_CALL_WORK;
}

u32 vnpu_norm_split_phases(const struct vnpu_op_call *c,
			   const struct vnpu_split_rows *s, u64 *ends)
{
	u32 n = c->op == DRM_VNPU_OP_LAYER_NORM ? 3 : 2, i;

	for (i = 0; i < n; i++)
		ends[i] = (i + 1) * s->pieces;
	return n;
}

/**
 * struct ns_chunk - the chunk a piece works on
 * @x: its input
 * @y: its output
 * @g: gamma at the chunk, or NULL
 * @b: beta at the chunk, or NULL
 * @n: its elements
 * @parts: its row's partials
 * @k: its index in the row
 */
struct ns_chunk {
	const float *x;
	float *y;
	const float *g;
	const float *b;
	u64 n;
	struct vnpu_split_part *parts;
	u64 k;
};

/* Softmax's row statistics: false for a row that is all NaN. */
static bool ns_softmax_stats(const struct vnpu_split_rows *s,
			     const struct vnpu_split_part *pt, double *max,
			     double *sum)
{
	double m = -VNPU_INF, t = 0;
	u64 k;

	for (k = 0; k < s->chunks; k++) {
		if (pt[k].b != pt[k].b)
			return false;
		m = pt[k].a > m ? pt[k].a : m;
	}
	if (m == VNPU_INF || m == -VNPU_INF)
		return false;
	for (k = 0; k < s->chunks; k++)
		if (pt[k].a != -VNPU_INF)
			t += pt[k].b * vnpu_red_exp(pt[k].a - m);
	*max = m;
	*sum = t;
	return true;
}

/* Phase 0 of (log-)softmax: the chunk's maximum and sum of exps. */
static void ns_softmax_part(const struct vnpu_op_call *c, struct ns_chunk *k)
{
	struct vnpu_split_part *pt = &k->parts[k->k];
	bool nan;
	float m = vnpu_split_max_f32(k->x, k->n, &nan, c->cpu);

	pt->a = m;
	pt->b = 0;
	if (nan || m == __builtin_inff()) {
		pt->b = VNPU_NAN;
		return;
	}
	if (m == -__builtin_inff())
		return;
	pt->b = vnpu_split_expsum_f32(k->x, k->y, k->n, m, c->cpu);
}

/* Phase 1 of (log-)softmax: the chunk's output. */
static void ns_softmax_write(const struct vnpu_op_call *c,
			     const struct vnpu_split_rows *s,
			     struct ns_chunk *k)
{
	const struct vnpu_split_part *pt = &k->parts[k->k];
	double m, sum, off;

	if (!ns_softmax_stats(s, k->parts, &m, &sum)) {
		vnpu_split_fill_f32(k->y, k->n, (float)VNPU_NAN);
		return;
	}
	if (c->op == DRM_VNPU_OP_LOG_SOFTMAX) {
		off = -vnpu_log(sum);
		vnpu_split_logsm_f32(k->x, k->y, k->n, m, off, c->cpu);
		return;
	}
	if (pt->a == -VNPU_INF) {		/* exp(-Inf - M) */
		vnpu_split_fill_f32(k->y, k->n, 0.0f);
		return;
	}
	vnpu_split_scale_f32(k->y, k->n,
			     (float)(vnpu_red_exp(pt->a - m) / sum), c->cpu);
}

/* The sum of a row's partials @a (@b), in chunk order. */
static double ns_row_sum(const struct vnpu_split_rows *s,
			 const struct vnpu_split_part *pt, bool b)
{
	double t = 0;
	u64 k;

	for (k = 0; k < s->chunks; k++)
		t += b ? pt[k].b : pt[k].a;
	return t;
}

/* The output of layer and RMS norm: ((x - shift) * scale) * g + b. */
static void ns_norm_write(const struct vnpu_op_call *c, struct ns_chunk *k,
			  double shift, double scale)
{
	struct vnpu_split_norm a = {
		.x = k->x, .g = k->g, .b = k->b, .y = k->y, .n = k->n,
		.shift = shift, .scale = scale,
	};

	vnpu_split_norm_f32(&a, c->cpu);
}

void vnpu_norm_split_run(const struct vnpu_op_call *c,
			 const struct vnpu_red_plan *p,
			 const struct vnpu_split_rows *s, int g, int b,
			 double eps, u64 tile)
{
	u32 phase = (u32)(tile / s->pieces);
	s64 offs[VNPU_RED_TENSORS];
	struct ns_chunk k;
	u64 row, first;
	double len = (double)s->len, mean;

	vnpu_split_chunk(s, tile % s->pieces, &row, &first, &k.n);
	vnpu_split_row_offs(p, row, offs);
	k.x = (const float *)c->t[0].data + offs[NS_X] + first;
	k.y = (float *)c->t[c->num_in].data + offs[NS_O] + first;
	k.g = g < 0 ? NULL : (const float *)c->t[g].data + offs[NS_G] + first;
	k.b = b < 0 ? NULL : (const float *)c->t[b].data + offs[NS_B] + first;
	k.parts = vnpu_split_parts(c, s, row);
	k.k = first / VNPU_SPLIT_CHUNK;

	switch (c->op) {
	case DRM_VNPU_OP_SOFTMAX:
	case DRM_VNPU_OP_LOG_SOFTMAX:
		if (!phase)
			ns_softmax_part(c, &k);
		else
			ns_softmax_write(c, s, &k);
		break;
	case DRM_VNPU_OP_RMS_NORM:
		if (!phase)
			k.parts[k.k].a = vnpu_split_sum_f32(k.x, k.n, true,
							    c->cpu);
		else
			ns_norm_write(c, &k, 0.0, 1.0 /
				      vnpu_red_sqrt(ns_row_sum(s, k.parts,
							       false) / len +
						    eps));
		break;
	default:	/* layer norm */
		if (!phase) {
			k.parts[k.k].a = vnpu_split_sum_f32(k.x, k.n, false,
							    c->cpu);
			break;
		}
		mean = ns_row_sum(s, k.parts, false) / len;
		if (phase == 1)
			k.parts[k.k].b = vnpu_split_sqdev_f32(k.x, k.n, mean,
							      c->cpu);
		else
			ns_norm_write(c, &k, mean, 1.0 /
				      vnpu_red_sqrt(ns_row_sum(s, k.parts,
							       true) / len +
						    eps));
		break;
	}
}
