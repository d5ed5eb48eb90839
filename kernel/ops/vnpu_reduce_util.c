// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Row plans, row walking and chunked element access for the reductions
 * and normalisations.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_reduce_util.h"

void vnpu_red_plan_start(struct vnpu_red_plan *p, u32 nt)
{
	__builtin_memset(p, 0, sizeof(*p));
	p->nt = nt;
}

int vnpu_red_plan_keep(struct vnpu_red_plan *p, s64 size, const s64 *str)
{
	u32 t;

	if (p->nk >= VNPU_RED_DIMS)
		return -VNPU_OPS_EINVAL;
	p->ksize[p->nk] = size;
	for (t = 0; t < p->nt; t++)
		p->kstr[t][p->nk] = str[t];
	p->nk++;
	return 0;
}

int vnpu_red_plan_reduce(struct vnpu_red_plan *p, s64 size, const s64 *str)
{
	u32 t;

	if (p->nr >= VNPU_RED_DIMS)
		return -VNPU_OPS_EINVAL;
	p->rsize[p->nr] = size;
	for (t = 0; t < p->nt; t++)
		p->rstr[t][p->nr] = str[t];
	p->nr++;
	return 0;
}

/* Whether reduced dim @d + 1 continues dim @d in every tensor. */
static bool red_mergeable(const struct vnpu_red_plan *p, u32 d)
{
	u32 t;

	for (t = 0; t < p->nt; t++)
		if (p->rstr[t][d] != p->rstr[t][d + 1] * p->rsize[d + 1])
			return false;
	return true;
}

void vnpu_red_plan_finish(struct vnpu_red_plan *p)
{
	u32 d, n = 0, t;

	/* Saturating: a call this large is refused by the piece budget. */
	p->rows = 1;
	for (d = 0; d < p->nk; d++)
		if (__builtin_mul_overflow(p->rows, (u64)p->ksize[d], &p->rows))
			p->rows = ~0ULL;
	p->len = 1;
	for (d = 0; d < p->nr; d++)
		if (__builtin_mul_overflow(p->len, (u64)p->rsize[d], &p->len))
			p->len = ~0ULL;
	/* Size-1 dims do not move; an empty row needs no walking at all. */
	for (d = 0; d < p->nr; d++) {
		if (p->rsize[d] == 1)
			continue;
		p->rsize[n] = p->rsize[d];
		for (t = 0; t < p->nt; t++)
			p->rstr[t][n] = p->rstr[t][d];
		n++;
	}
	p->nr = n;
	for (d = 0; d + 1 < p->nr;) {
		if (!red_mergeable(p, d)) {
			d++;
			continue;
		}
		p->rsize[d] *= p->rsize[d + 1];
		for (t = 0; t < p->nt; t++)
			p->rstr[t][d] = p->rstr[t][d + 1];
		for (n = d + 1; n + 1 < p->nr; n++) {
			p->rsize[n] = p->rsize[n + 1];
			for (t = 0; t < p->nt; t++)
				p->rstr[t][n] = p->rstr[t][n + 1];
		}
		p->nr--;
	}
	p->per_tile = VNPU_OPS_TILE_ELEMS / (p->len ? p->len : 1);
	if (!p->per_tile)
		p->per_tile = 1;
}

void vnpu_red_plan_tile(const struct vnpu_red_plan *p, u64 tile, u64 *begin,
			u64 *end, s64 *offs, s64 *kidx)
{
	u64 rem;
	u32 d, t;

	*begin = tile * p->per_tile;
	*end = *begin + p->per_tile < p->rows ? *begin + p->per_tile : p->rows;
	rem = *begin;
	for (d = p->nk; d-- > 0;) {
		kidx[d] = (s64)(rem % (u64)p->ksize[d]);
		rem /= (u64)p->ksize[d];
	}
	for (t = 0; t < p->nt; t++) {
		offs[t] = 0;
		for (d = 0; d < p->nk; d++)
			offs[t] += kidx[d] * p->kstr[t][d];
	}
}

void vnpu_red_plan_next_row(const struct vnpu_red_plan *p, s64 *offs,
			    s64 *kidx)
{
	u32 d, t;

	for (d = p->nk; d-- > 0;) {
		if (++kidx[d] < p->ksize[d]) {
			for (t = 0; t < p->nt; t++)
				offs[t] += p->kstr[t][d];
			return;
		}
		kidx[d] = 0;
		for (t = 0; t < p->nt; t++)
			offs[t] -= (p->ksize[d] - 1) * p->kstr[t][d];
	}
}

void vnpu_red_walk(const struct vnpu_red_plan *p, const s64 *offs,
		   void (*fn)(void *ctx, const s64 *offs, const s64 *inner,
			      s64 count),
		   void *ctx)
{
	s64 idx[VNPU_RED_DIMS] = { 0 };
	s64 cur[VNPU_RED_TENSORS], inner[VNPU_RED_TENSORS] = { 0 };
	u32 last, d, t;

	if (!p->len)
		return;
	if (!p->nr) {
		fn(ctx, offs, inner, 1);
		return;
	}
	last = p->nr - 1;
	for (t = 0; t < p->nt; t++) {
		inner[t] = p->rstr[t][last];
		cur[t] = offs[t];
	}
	for (;;) {
		fn(ctx, cur, inner, p->rsize[last]);
		for (d = last; d-- > 0;) {
			if (++idx[d] < p->rsize[d]) {
				for (t = 0; t < p->nt; t++)
					cur[t] += p->rstr[t][d];
				break;
			}
			idx[d] = 0;
			for (t = 0; t < p->nt; t++)
				cur[t] -= (p->rsize[d] - 1) * p->rstr[t][d];
		}
		if (d == (u32)-1)
			return;
	}
}

void vnpu_red_load_f64(const void *base, u32 dtype, s64 off, s64 stride,
		       u32 n, double *buf)
{
	u32 i;

	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT: {
		const float *x = (const float *)base + off;

		if (stride == 1)
			for (i = 0; i < n; i++)
				buf[i] = x[i];
		else
			for (i = 0; i < n; i++)
				buf[i] = x[i * stride];
		break;
	}
	case DRM_VNPU_DTYPE_FLOAT16: {
		const u16 *x = (const u16 *)base + off;

		for (i = 0; i < n; i++)
			buf[i] = vnpu_f16_to_f32(x[i * stride]);
		break;
	}
	case DRM_VNPU_DTYPE_BF16: {
		const u16 *x = (const u16 *)base + off;

		for (i = 0; i < n; i++)
			buf[i] = vnpu_bf16_to_f32(x[i * stride]);
		break;
	}
	default:
		for (i = 0; i < n; i++)
			buf[i] = vnpu_load_f64(base, dtype, off + i * stride);
		break;
	}
}

void vnpu_red_load_s64(const void *base, u32 dtype, s64 off, s64 stride,
		       u32 n, s64 *buf)
{
	u32 i;

	switch (dtype) {
	case DRM_VNPU_DTYPE_INT32: {
		const s32 *x = (const s32 *)base + off;

		for (i = 0; i < n; i++)
			buf[i] = x[i * stride];
		break;
	}
	case DRM_VNPU_DTYPE_INT64: {
		const s64 *x = (const s64 *)base + off;

		for (i = 0; i < n; i++)
			buf[i] = x[i * stride];
		break;
	}
	default:
		for (i = 0; i < n; i++)
			buf[i] = vnpu_load_s64(base, dtype, off + i * stride);
		break;
	}
}

void vnpu_red_store_f64(void *base, u32 dtype, s64 off, s64 stride, u32 n,
			const double *buf)
{
	u32 i;

	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT: {
		float *y = (float *)base + off;

		for (i = 0; i < n; i++)
			y[i * stride] = (float)buf[i];
		break;
	}
	case DRM_VNPU_DTYPE_FLOAT16: {
		u16 *y = (u16 *)base + off;

		for (i = 0; i < n; i++)
			y[i * stride] = vnpu_f32_to_f16((float)buf[i]);
		break;
	}
	case DRM_VNPU_DTYPE_BF16: {
		u16 *y = (u16 *)base + off;

		for (i = 0; i < n; i++)
			y[i * stride] = vnpu_f32_to_bf16((float)buf[i]);
		break;
	}
	default:
		for (i = 0; i < n; i++)
			vnpu_store_f64(base, dtype, off + i * stride, buf[i]);
		break;
	}
}
