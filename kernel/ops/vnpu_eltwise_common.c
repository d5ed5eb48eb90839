// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Shared pieces of the elementwise families.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_eltwise_common.h"

bool vnpu_elt_shape_ok(const struct vnpu_tview *v)
{
	u32 d;

	if (v->rank > VNPU_OPS_MAX_RANK)
		return false;
	for (d = 0; d < v->rank; d++)
		if (v->shape[d] < 0)
			return false;
	return true;
}

static void elt_coalesce(struct vnpu_iter *it)
{
	/* Entries below r are written before they are read. */
	s64 shape[VNPU_OPS_MAX_RANK] VNPU_NOINIT;
	s64 strides[4][VNPU_OPS_MAX_RANK] VNPU_NOINIT;
	u32 r = 0, d, t;

	for (d = 0; d < it->rank; d++)
		if (!it->shape[d])
			return;		/* empty: nothing runs anyway */
	for (d = 0; d < it->rank; d++) {
		bool merge = r > 0;

		if (it->shape[d] == 1)
			continue;
		for (t = 0; merge && t < it->n; t++)
			if (strides[t][r - 1] != it->strides[t][d] * it->shape[d])
				merge = false;
		if (merge) {
			shape[r - 1] *= it->shape[d];
			for (t = 0; t < it->n; t++)
				strides[t][r - 1] = it->strides[t][d];
			continue;
		}
		shape[r] = it->shape[d];
		for (t = 0; t < it->n; t++)
			strides[t][r] = it->strides[t][d];
		r++;
	}
	if (!r) {
		shape[0] = 1;
		for (t = 0; t < it->n; t++)
			strides[t][0] = 0;
		r = 1;
	}
	it->rank = r;
	for (d = 0; d < r; d++) {
		it->shape[d] = shape[d];
		for (t = 0; t < it->n; t++)
			it->strides[t][d] = strides[t][d];
	}
}

int vnpu_elt_iter(struct vnpu_iter *it, const struct vnpu_tview *out,
		  const struct vnpu_tview *in, u32 nin, u64 tile,
		  u64 tile_elems, u64 *begin, u64 *end)
{
	const struct vnpu_tview *ins[3];
	u64 elems = vnpu_tview_elems(out);
	u32 t;

	if (nin > ARRAY_SIZE(ins))
		return -VNPU_OPS_EINVAL;
	for (t = 0; t < nin; t++)
		ins[t] = &in[t];
	if (vnpu_iter_init(it, out, ins, nin))
		return -VNPU_OPS_EINVAL;
	elt_coalesce(it);
	*begin = tile < vnpu_elt_tiles(elems, tile_elems) ?
		 tile * tile_elems : elems;
	*end = elems - *begin > tile_elems ? *begin + tile_elems : elems;
	return 0;
}

/*
 * The integer cases of the load and store switches below, one per integer
 * dtype of vnpu_dtypes.def: element off + i * st of @base as @type.
 */
#define ELT_LOAD_INT(NAME, type, ...)					\
	case DRM_VNPU_DTYPE_##NAME: {					\
		const type *p = base;					\
									\
		for (i = 0; i < n; i++)					\
			dst[i] = p[off + i * st];			\
		break;							\
	}

void vnpu_elt_load_f32(float *dst, const void *base, u32 dtype, s64 off,
		       s64 st, s64 n)
{
	s64 i;

	/* Through double as ever: a direct conversion could round differently. */
	if (dtype == DRM_VNPU_DTYPE_UINT64) {
		for (i = 0; i < n; i++)
			dst[i] = (float)vnpu_load_f64(base, dtype, off + i * st);
		return;
	}
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		for (i = 0; i < n; i++)
			dst[i] = ((const float *)base)[off + i * st];
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		for (i = 0; i < n; i++)
			dst[i] = vnpu_f16_to_f32(((const u16 *)base)[off + i * st]);
		break;
	case DRM_VNPU_DTYPE_BF16:
		for (i = 0; i < n; i++)
			dst[i] = vnpu_bf16_to_f32(((const u16 *)base)[off + i * st]);
		break;
	case DRM_VNPU_DTYPE_BOOL:
		for (i = 0; i < n; i++)
			dst[i] = ((const u8 *)base)[off + i * st] != 0;
		break;
#define VNPU_DTYPE_INT ELT_LOAD_INT
#include "vnpu_dtypes.def"
	default:	/* DOUBLE */
		for (i = 0; i < n; i++)
			dst[i] = (float)vnpu_load_f64(base, dtype, off + i * st);
		break;
	}
}

void vnpu_elt_store_f32(void *base, u32 dtype, s64 off, s64 st,
			const float *src, s64 n)
{
	s64 i;

	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		for (i = 0; i < n; i++)
			((float *)base)[off + i * st] = src[i];
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		for (i = 0; i < n; i++)
			((u16 *)base)[off + i * st] = vnpu_f32_to_f16(src[i]);
		break;
	case DRM_VNPU_DTYPE_BF16:
		for (i = 0; i < n; i++)
			((u16 *)base)[off + i * st] = vnpu_f32_to_bf16(src[i]);
		break;
	default:
		for (i = 0; i < n; i++)
			vnpu_store_f64(base, dtype, off + i * st, src[i]);
		break;
	}
}

void vnpu_elt_load_f64(double *dst, const void *base, u32 dtype, s64 off,
		       s64 st, s64 n)
{
	s64 i;

	if (dtype == DRM_VNPU_DTYPE_DOUBLE) {
		for (i = 0; i < n; i++)
			dst[i] = ((const double *)base)[off + i * st];
		return;
	}
	for (i = 0; i < n; i++)
		dst[i] = vnpu_load_f64(base, dtype, off + i * st);
}

void vnpu_elt_store_f64(void *base, u32 dtype, s64 off, s64 st,
			const double *src, s64 n)
{
	s64 i;

	if (dtype == DRM_VNPU_DTYPE_DOUBLE) {
		for (i = 0; i < n; i++)
			((double *)base)[off + i * st] = src[i];
		return;
	}
	for (i = 0; i < n; i++)
		vnpu_store_f64(base, dtype, off + i * st, src[i]);
}

void vnpu_elt_load_s64(s64 *dst, const void *base, u32 dtype, s64 off,
		       s64 st, s64 n)
{
	s64 i;

	switch (dtype) {
	case DRM_VNPU_DTYPE_BOOL:
		for (i = 0; i < n; i++)
			dst[i] = ((const u8 *)base)[off + i * st] != 0;
		break;
#define VNPU_DTYPE_INT ELT_LOAD_INT
#include "vnpu_dtypes.def"
	default:
		for (i = 0; i < n; i++)
			dst[i] = vnpu_load_s64(base, dtype, off + i * st);
		break;
	}
}

/* Integers wrap to the width of @type. */
#define ELT_STORE_INT(NAME, type, ...)					\
	case DRM_VNPU_DTYPE_##NAME: {					\
		type *p = base;						\
									\
		for (i = 0; i < n; i++)					\
			p[off + i * st] = (type)src[i];			\
		break;							\
	}

void vnpu_elt_store_s64(void *base, u32 dtype, s64 off, s64 st,
			const s64 *src, s64 n)
{
	s64 i;

	switch (dtype) {
	case DRM_VNPU_DTYPE_BOOL:
		for (i = 0; i < n; i++)
			((u8 *)base)[off + i * st] = src[i] != 0;
		break;
#define VNPU_DTYPE_INT ELT_STORE_INT
#include "vnpu_dtypes.def"
	default:
		for (i = 0; i < n; i++)
			vnpu_store_s64(base, dtype, off + i * st, src[i]);
		break;
	}
}

void vnpu_elt_store_bool(void *base, s64 off, s64 st, const u8 *src, s64 n)
{
	s64 i;

	for (i = 0; i < n; i++)
		((u8 *)base)[off + i * st] = src[i];
}
