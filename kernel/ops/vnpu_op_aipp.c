// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * AIPP: a model's AI preprocessing (CANN's AIPP) of (src UINT8 [N, bytes],
 * params UINT8 [N, sizeof(struct drm_vnpu_aipp_params)]) into FLOAT or
 * FLOAT16 [N, C, H, W]. Each image has its own parameters, read from
 * device memory while the task runs: check() sees only shapes, so every
 * piece copies its image's parameters and validates the copy before it
 * touches anything, and reports bad ones with vnpu_op_bad_data() (the
 * task then fails with -EINVAL) instead of computing.
 *
 * The stages, in CANN's order (Documentation/aipp.md has the formulas):
 * crop a window of the source; per pixel, the R/B (U/V) swap, the X
 * channel's move (ax swap) and the colour matrix (CSC, 1/256 units,
 * floor, clamped to 0..255; a YUV source subtracts the input bias first,
 * an RGB one adds the output bias last, as CANN's AIPP does); bilinear
 * scaling of the window (half-pixel centres, in double precision);
 * padding with a per-channel pixel value;
 * then out = (pixel - mean - min) * var_reci per channel. Source formats:
 * YUV420SP_U8 (NV12, strides of src_w), XRGB8888_U8 (bytes X, R, G, B),
 * RGB888_U8 and YUV400_U8; any other is refused at run time.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_move_util.h"

#define AIPP_PARAMS_SIZE	((s64)sizeof(struct drm_vnpu_aipp_params))
/* Largest image side, crop, scaled size or padding: CANN's are smaller. */
#define AIPP_MAX_SIDE		8192
/* Output pixels one piece computes at most: a few taps of 4 channels. */
#define AIPP_CHUNK		16384

/* aclAippInputFormat values the operator reads. */
#define AIPP_YUV420SP_U8	1
#define AIPP_XRGB8888_U8	2
#define AIPP_RGB888_U8		3
#define AIPP_YUV400_U8		4

/* One image's validated parameters and what follows from them. */
struct aipp_img {
	struct drm_vnpu_aipp_params p;
	const u8 *src;		/* the image's first byte */
	u32 nch;		/* channels a pixel has once loaded */
	s64 win_x, win_y, win_w, win_h;	/* the crop window */
	s64 out_w, out_h;	/* after scaling */
	float mean[4], min[4], var[4], pad[4];
};

union aipp_bits {
	u32 u;
	float f;
};

static float aipp_float(u32 bits)
{
	union aipp_bits b = { .u = bits };

	return b.f;
}

static bool aipp_finite(u32 bits)
{
	return (bits & 0x7f800000u) != 0x7f800000u;
}

/* Channels of a format once loaded, 0 for a format not handled. */
static u32 aipp_channels(u32 format)
{
	switch (format) {
	case AIPP_YUV420SP_U8:
	case AIPP_RGB888_U8:
		return 3;
	case AIPP_XRGB8888_U8:
		return 4;
	case AIPP_YUV400_U8:
		return 1;
	default:
		return 0;
	}
}

/* Bytes of a w x h image (sides bounded by AIPP_MAX_SIDE, even for NV12). */
static s64 aipp_image_bytes(u32 format, s64 w, s64 h)
{
	switch (format) {
	case AIPP_YUV420SP_U8:
		return w * h * 3 / 2;
	case AIPP_XRGB8888_U8:
		return w * h * 4;
	case AIPP_RGB888_U8:
		return w * h * 3;
	default:
		return w * h;
	}
}

static bool aipp_side(s32 v)
{
	return v >= 1 && v <= AIPP_MAX_SIDE;
}

static bool aipp_switch(s8 v)
{
	return v == 0 || v == 1;
}

static bool aipp_all_zero(const void *p, u32 size)
{
	const u8 *b = p;
	u32 i;

	for (i = 0; i < size; i++)
		if (b[i])
			return false;
	return true;
}

/* The window after cropping, or false when the crop does not fit. */
static bool aipp_crop_ok(struct aipp_img *im)
{
	const struct drm_vnpu_aipp_params *p = &im->p;

	if (!p->crop_switch) {
		im->win_x = 0;
		im->win_y = 0;
		im->win_w = p->src_w;
		im->win_h = p->src_h;
		return !p->crop_x && !p->crop_y && !p->crop_w && !p->crop_h;
	}
	if (p->crop_x < 0 || p->crop_y < 0 || !aipp_side(p->crop_w) ||
	    !aipp_side(p->crop_h) || (s64)p->crop_x + p->crop_w > p->src_w ||
	    (s64)p->crop_y + p->crop_h > p->src_h)
		return false;
	im->win_x = p->crop_x;
	im->win_y = p->crop_y;
	im->win_w = p->crop_w;
	im->win_h = p->crop_h;
	return true;
}

/* The switches' other fields: zero when off, in range when on. */
static bool aipp_stages_ok(struct aipp_img *im)
{
	const struct drm_vnpu_aipp_params *p = &im->p;

	if (p->csc_switch && im->nch == 1)
		return false;	/* a grey image has nothing to convert */
	if (!p->csc_switch &&
	    (!aipp_all_zero(p->csc_matrix, sizeof(p->csc_matrix)) ||
	     !aipp_all_zero(p->csc_in_bias, sizeof(p->csc_in_bias)) ||
	     !aipp_all_zero(p->csc_out_bias, sizeof(p->csc_out_bias))))
		return false;
	if ((p->rbuv_swap && im->nch == 1) || (p->ax_swap && im->nch != 4))
		return false;
	if (p->scf_switch) {
		if (!aipp_side(p->scf_w) || !aipp_side(p->scf_h))
			return false;
		im->out_w = p->scf_w;
		im->out_h = p->scf_h;
	} else {
		if (p->scf_w || p->scf_h)
			return false;
		im->out_w = im->win_w;
		im->out_h = im->win_h;
	}
	if (!p->pad_switch)
		return !p->pad_top && !p->pad_bottom && !p->pad_left &&
		       !p->pad_right;
	return p->pad_top >= 0 && p->pad_top <= AIPP_MAX_SIDE &&
	       p->pad_bottom >= 0 && p->pad_bottom <= AIPP_MAX_SIDE &&
	       p->pad_left >= 0 && p->pad_left <= AIPP_MAX_SIDE &&
	       p->pad_right >= 0 && p->pad_right <= AIPP_MAX_SIDE;
}

/*
 * Copy image @n's parameters out of device memory (the program may
 * change them meanwhile: only the copy is used) and validate it against
 * the source and output tensors. false: the image cannot be computed.
 */
static bool aipp_load(const struct vnpu_op_call *c, s64 n,
		      struct aipp_img *im)
{
	const struct vnpu_tview *src = &c->t[0], *pv = &c->t[1];
	const struct vnpu_tview *o = &c->t[2];
	const u8 *from = (const u8 *)pv->data + n * pv->strides[0];
	const struct drm_vnpu_aipp_params *p = &im->p;
	u8 *to = (u8 *)&im->p;
	s64 i;
	u32 k;

	/* Each byte read once: the checks and the work see the same copy. */
	for (i = 0; i < AIPP_PARAMS_SIZE; i++)
		to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
	im->nch = aipp_channels(p->input_format);
	if (!im->nch || !aipp_side(p->src_w) || !aipp_side(p->src_h))
		return false;
	if (p->input_format == AIPP_YUV420SP_U8 &&
	    ((p->src_w | p->src_h) & 1))
		return false;
	if (aipp_image_bytes(p->input_format, p->src_w, p->src_h) >
	    src->shape[1])
		return false;
	if (!aipp_switch(p->csc_switch) || !aipp_switch(p->rbuv_swap) ||
	    !aipp_switch(p->ax_swap) || !aipp_switch(p->crop_switch) ||
	    !aipp_switch(p->scf_switch) || !aipp_switch(p->pad_switch) ||
	    !aipp_all_zero(p->pad0, sizeof(p->pad0)) ||
	    !aipp_all_zero(p->reserved, sizeof(p->reserved)))
		return false;
	if (!aipp_crop_ok(im) || !aipp_stages_ok(im))
		return false;
	/* The sides are bounded: these sums cannot overflow. */
	if (im->out_h + p->pad_top + p->pad_bottom != o->shape[2] ||
	    im->out_w + p->pad_left + p->pad_right != o->shape[3] ||
	    o->shape[1] > im->nch)
		return false;
	for (k = 0; k < 4; k++) {
		if (!aipp_finite(p->min[k]) || !aipp_finite(p->var_reci[k]) ||
		    !aipp_finite(p->pad_value[k]))
			return false;
		im->mean[k] = p->mean[k];
		im->min[k] = aipp_float(p->min[k]);
		im->var[k] = aipp_float(p->var_reci[k]);
		im->pad[k] = aipp_float(p->pad_value[k]);
	}
	im->src = (const u8 *)src->data + n * src->strides[0];
	return true;
}

/* floor(v / 256) for any sign: the matrix's >> 8. */
static s32 aipp_shr8(s32 v)
{
	return v >= 0 ? v / 256 : -((-v + 255) / 256);
}

static s32 aipp_clamp_u8(s32 v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* Pixel (x, y) of the source, loaded, swapped and converted, in @v. */
static void aipp_pixel(const struct aipp_img *im, s64 x, s64 y, s32 *v)
{
	const struct drm_vnpu_aipp_params *p = &im->p;
	s64 w = p->src_w, h = p->src_h;
	const u8 *s;
	s32 col[3], a = 0, t, sum;
	u32 r, k;

	switch (p->input_format) {
	case AIPP_YUV400_U8:
		v[0] = im->src[y * w + x];
		return;
	case AIPP_YUV420SP_U8:
		s = im->src + w * h + (y / 2) * w + (x & ~1LL);
		col[0] = im->src[y * w + x];
		col[1] = s[0];
		col[2] = s[1];
		break;
	case AIPP_RGB888_U8:
		s = im->src + (y * w + x) * 3;
		col[0] = s[0];
		col[1] = s[1];
		col[2] = s[2];
		break;
	default:	/* XRGB8888_U8 */
		s = im->src + (y * w + x) * 4;
		a = s[0];
		col[0] = s[1];
		col[1] = s[2];
		col[2] = s[3];
		break;
	}
	if (p->rbuv_swap) {
		t = col[0];
		col[0] = col[2];
		col[2] = t;
	}
	if (p->csc_switch) {
		/* YUV sources take the input bias, RGB ones the output bias */
		bool yuv = p->input_format == AIPP_YUV420SP_U8;
		s32 in[3];

		for (k = 0; k < 3; k++)
			in[k] = col[k] - (yuv ? p->csc_in_bias[k] : 0);
		for (r = 0; r < 3; r++) {
			sum = 0;
			for (k = 0; k < 3; k++)
				sum += p->csc_matrix[r * 3 + k] * in[k];
			col[r] = aipp_clamp_u8(aipp_shr8(sum) +
					       (yuv ? 0 : p->csc_out_bias[r]));
		}
	}
	if (im->nch == 4 && !p->ax_swap) {
		v[0] = a;
		v[1] = col[0];
		v[2] = col[1];
		v[3] = col[2];
		return;
	}
	v[0] = col[0];
	v[1] = col[1];
	v[2] = col[2];
	v[3] = a;
}

/* A source coordinate of a scaled one: half-pixel centres, clamped. */
static void aipp_map(s64 o, s64 out, s64 in, s64 *i0, s64 *i1, double *f)
{
	double s = ((double)o + 0.5) * (double)in / (double)out - 0.5;

	if (s < 0)
		s = 0;
	*i0 = (s64)s;
	if (*i0 >= in - 1) {
		*i0 = in - 1;
		*i1 = in - 1;
		*f = 0;
		return;
	}
	*i1 = *i0 + 1;
	*f = s - (double)*i0;
}

/* The channels of output pixel (x, y) of the scaled image. */
static void aipp_scaled(const struct aipp_img *im, s64 x, s64 y, double *v)
{
	s32 t[4][4];
	s64 x0, x1, y0, y1;
	double fx, fy;
	u32 k;

	if (!im->p.scf_switch) {
		aipp_pixel(im, im->win_x + x, im->win_y + y, t[0]);
		for (k = 0; k < im->nch; k++)
			v[k] = t[0][k];
		return;
	}
	aipp_map(x, im->out_w, im->win_w, &x0, &x1, &fx);
	aipp_map(y, im->out_h, im->win_h, &y0, &y1, &fy);
	aipp_pixel(im, im->win_x + x0, im->win_y + y0, t[0]);
	aipp_pixel(im, im->win_x + x1, im->win_y + y0, t[1]);
	aipp_pixel(im, im->win_x + x0, im->win_y + y1, t[2]);
	aipp_pixel(im, im->win_x + x1, im->win_y + y1, t[3]);
	for (k = 0; k < im->nch; k++)
		v[k] = (1 - fy) * ((1 - fx) * t[0][k] + fx * t[1][k]) +
		       fy * ((1 - fx) * t[2][k] + fx * t[3][k]);
}

/* Pieces: blocks of whole rows, or parts of one row when rows are long. */
struct aipp_split {
	s64 rows;		/* rows a piece covers */
	s64 cols;		/* columns a piece covers */
	u64 per_row;		/* pieces across a row (1 unless rows == 1) */
	u64 per_image;
};

static void aipp_split(const struct vnpu_tview *o, struct aipp_split *sp)
{
	s64 h = o->shape[2], w = o->shape[3];

	if (w <= AIPP_CHUNK) {
		sp->cols = w;
		sp->rows = AIPP_CHUNK / w;
		sp->per_row = 1;
	} else {
		sp->cols = AIPP_CHUNK;
		sp->rows = 1;
		sp->per_row = ((u64)w + AIPP_CHUNK - 1) / AIPP_CHUNK;
	}
	sp->per_image = ((u64)h + (u64)sp->rows - 1) / (u64)sp->rows *
			sp->per_row;
}

static int aipp_check(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *src = &c->t[0], *pv = &c->t[1];
	const struct vnpu_tview *o = &c->t[2];

	if (!vnpu_move_io_ok(c, 2, 1) || src->rank != 2 || pv->rank != 2 ||
	    o->rank != 4 || src->dtype != DRM_VNPU_DTYPE_UINT8 ||
	    pv->dtype != DRM_VNPU_DTYPE_UINT8 ||
	    (o->dtype != DRM_VNPU_DTYPE_FLOAT &&
	     o->dtype != DRM_VNPU_DTYPE_FLOAT16))
		return -VNPU_OPS_EINVAL;
	/* Images and parameter blocks are rows of contiguous bytes. */
	if ((src->shape[1] > 1 && src->strides[1] != 1) ||
	    pv->shape[1] != AIPP_PARAMS_SIZE || pv->strides[1] != 1)
		return -VNPU_OPS_EINVAL;
	if (pv->shape[0] != src->shape[0] || o->shape[0] != src->shape[0] ||
	    o->shape[1] < 1 || o->shape[1] > 4 ||
	    o->shape[2] > 3 * AIPP_MAX_SIDE || o->shape[3] > 3 * AIPP_MAX_SIDE)
		return -VNPU_OPS_EINVAL;
	return 0;
}

static u64 aipp_tiles(const struct vnpu_op_call *c)
{
	const struct vnpu_tview *o = &c->t[2];
	struct aipp_split sp;

	if (!vnpu_tview_elems(o))
		return 0;
	aipp_split(o, &sp);
	return (u64)o->shape[0] * sp.per_image;
}

static void aipp_run(const struct vnpu_op_call *c, u64 tile)
{
	const struct vnpu_tview *o = &c->t[2];
	struct aipp_split sp;
	struct aipp_img im;
	s64 n, y, y_end, x, x_end, top, left, part;
	double v[4];
	u32 k, nc = (u32)o->shape[1];

	aipp_split(o, &sp);
	n = (s64)(tile / sp.per_image);
	part = (s64)(tile % sp.per_image);
	if (!aipp_load(c, n, &im)) {
		vnpu_op_bad_data(c);
		return;
	}
	y = part / (s64)sp.per_row * sp.rows;
	y_end = y + sp.rows < o->shape[2] ? y + sp.rows : o->shape[2];
	x = part % (s64)sp.per_row * sp.cols;
	x_end = x + sp.cols < o->shape[3] ? x + sp.cols : o->shape[3];
	top = im.p.pad_top;
	left = im.p.pad_left;
	for (; y < y_end; y++) {
		s64 xx;

		for (xx = x; xx < x_end; xx++) {
			s64 sy = y - top, sx = xx - left;
			s64 off = n * o->strides[0] + y * o->strides[2] +
				  xx * o->strides[3];

			if (sy < 0 || sy >= im.out_h || sx < 0 ||
			    sx >= im.out_w) {
				for (k = 0; k < nc; k++)
					v[k] = im.pad[k];
			} else {
				aipp_scaled(&im, sx, sy, v);
			}
			for (k = 0; k < nc; k++)
				vnpu_store_f64(o->data, o->dtype,
					       off + k * o->strides[1],
					       (v[k] - im.mean[k] - im.min[k]) *
					       im.var[k]);
		}
	}
}

const struct vnpu_op_impl vnpu_ops_aipp[] = {
	{ DRM_VNPU_OP_AIPP, "aipp", aipp_check, aipp_tiles, aipp_run },
	{ 0 }
};
