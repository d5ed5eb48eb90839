// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of AIPP (kernel/ops/vnpu_op_aipp.c) against a reference
 * written here stage by stage (whole intermediate images: crop and
 * convert, scale, pad, normalise), values worked out by hand for the
 * colour matrix (floor, clamping, output bias), bilinear scaling and
 * padding, every check() rejection, every run-time rule on the
 * parameters (the task fails and the image's output is left alone), and
 * a fuzz loop over mutated and random parameter bytes with every buffer
 * between guard pages: the operator must never read or write outside its
 * tensors, and must accept exactly what the reference accepts.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "ops_test_util.h"
#include "kselftest_harness.h"

#define PSIZE	((s64)sizeof(struct drm_vnpu_aipp_params))
#define F32	DRM_VNPU_DTYPE_FLOAT
#define F16	DRM_VNPU_DTYPE_FLOAT16
#define U8	DRM_VNPU_DTYPE_UINT8

enum { YUV420SP = 1, XRGB8888 = 2, RGB888 = 3, YUV400 = 4 };

static u32 fbits(float f)
{
	u32 u;

	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(u32 u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* CANN's YUV420SP to RGB matrix of its samples (JPEG, BT.601 full). */
static void set_jpeg_csc(struct drm_vnpu_aipp_params *p)
{
	static const s16 m[9] = { 256, 0, 359, 256, -88, -183, 256, 454, 0 };

	p->csc_switch = 1;
	memcpy(p->csc_matrix, m, sizeof(m));
	p->csc_in_bias[0] = 0;
	p->csc_in_bias[1] = 128;
	p->csc_in_bias[2] = 128;
}

/* Neutral parameters: the whole image, x unchanged (var 1). */
static void base_params(struct drm_vnpu_aipp_params *p, u32 fmt, s32 w, s32 h)
{
	int k;

	memset(p, 0, sizeof(*p));
	p->input_format = fmt;
	p->src_w = w;
	p->src_h = h;
	for (k = 0; k < 4; k++)
		p->var_reci[k] = fbits(1.0f);
}

/* ---- the reference ---- */

static int ref_channels(u32 fmt)
{
	return fmt == YUV420SP || fmt == RGB888 ? 3 :
	       fmt == XRGB8888 ? 4 : fmt == YUV400 ? 1 : 0;
}

static s64 ref_bytes(u32 fmt, s64 w, s64 h)
{
	switch (fmt) {
	case YUV420SP:
		return w * h + (w * h) / 2;
	case XRGB8888:
		return 4 * w * h;
	case RGB888:
		return 3 * w * h;
	default:
		return w * h;
	}
}

static bool ref_is_bool(s8 v)
{
	return v == 0 || v == 1;
}

static bool ref_nonzero(const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		if (*b++)
			return true;
	return false;
}

static bool ref_in(s64 v, s64 lo, s64 hi)
{
	return v >= lo && v <= hi;
}

/* Whether the documented rules accept @p for an output [., C, H, W]. */
static bool ref_valid(const struct drm_vnpu_aipp_params *p, s64 bytes, s64 C,
		      s64 H, s64 W)
{
	int nch = ref_channels(p->input_format), k;
	s64 ww, wh, sw, sh;

	if (!nch || !ref_in(p->src_w, 1, 8192) || !ref_in(p->src_h, 1, 8192))
		return false;
	if (p->input_format == YUV420SP && (p->src_w % 2 || p->src_h % 2))
		return false;
	if (ref_bytes(p->input_format, p->src_w, p->src_h) > bytes)
		return false;
	if (!ref_is_bool(p->csc_switch) || !ref_is_bool(p->rbuv_swap) ||
	    !ref_is_bool(p->ax_swap) || !ref_is_bool(p->crop_switch) ||
	    !ref_is_bool(p->scf_switch) || !ref_is_bool(p->pad_switch))
		return false;
	if (ref_nonzero(p->pad0, sizeof(p->pad0)) ||
	    ref_nonzero(p->reserved, sizeof(p->reserved)))
		return false;
	if (p->crop_switch) {
		if (p->crop_x < 0 || p->crop_y < 0 ||
		    !ref_in(p->crop_w, 1, 8192) || !ref_in(p->crop_h, 1, 8192) ||
		    p->crop_x + (s64)p->crop_w > p->src_w ||
		    p->crop_y + (s64)p->crop_h > p->src_h)
			return false;
		ww = p->crop_w;
		wh = p->crop_h;
	} else {
		if (p->crop_x || p->crop_y || p->crop_w || p->crop_h)
			return false;
		ww = p->src_w;
		wh = p->src_h;
	}
	if (p->csc_switch ? nch == 1 :
	    ref_nonzero(p->csc_matrix, sizeof(p->csc_matrix)) ||
	    ref_nonzero(p->csc_in_bias, 3) || ref_nonzero(p->csc_out_bias, 3))
		return false;
	if ((p->rbuv_swap && nch == 1) || (p->ax_swap && nch != 4))
		return false;
	if (p->scf_switch) {
		if (!ref_in(p->scf_w, 1, 8192) || !ref_in(p->scf_h, 1, 8192))
			return false;
		sw = p->scf_w;
		sh = p->scf_h;
	} else {
		if (p->scf_w || p->scf_h)
			return false;
		sw = ww;
		sh = wh;
	}
	if (p->pad_switch) {
		if (!ref_in(p->pad_top, 0, 8192) ||
		    !ref_in(p->pad_bottom, 0, 8192) ||
		    !ref_in(p->pad_left, 0, 8192) ||
		    !ref_in(p->pad_right, 0, 8192))
			return false;
	} else if (p->pad_top || p->pad_bottom || p->pad_left || p->pad_right) {
		return false;
	}
	if (sh + p->pad_top + p->pad_bottom != H ||
	    sw + p->pad_left + p->pad_right != W || C > nch)
		return false;
	for (k = 0; k < 4; k++)
		if (!isfinite(bitsf(p->min[k])) ||
		    !isfinite(bitsf(p->var_reci[k])) ||
		    !isfinite(bitsf(p->pad_value[k])))
			return false;
	return true;
}

/* Source pixel (x, y) as loaded: channels in memory order, alpha apart. */
static void ref_load(const struct drm_vnpu_aipp_params *p, const u8 *img,
		     int x, int y, int col[3], int *alpha)
{
	int w = p->src_w, h = p->src_h;

	*alpha = 0;
	if (p->input_format == YUV420SP) {
		const u8 *uv = img + w * h + (y / 2) * w + (x / 2) * 2;

		col[0] = img[y * w + x];
		col[1] = uv[0];
		col[2] = uv[1];
	} else if (p->input_format == RGB888) {
		col[0] = img[3 * (y * w + x)];
		col[1] = img[3 * (y * w + x) + 1];
		col[2] = img[3 * (y * w + x) + 2];
	} else if (p->input_format == XRGB8888) {
		*alpha = img[4 * (y * w + x)];
		col[0] = img[4 * (y * w + x) + 1];
		col[1] = img[4 * (y * w + x) + 2];
		col[2] = img[4 * (y * w + x) + 3];
	} else {
		col[0] = img[y * w + x];
		col[1] = col[2] = 0;
	}
}

/* The whole pipeline, out[c][y][x] for one image; @p must be valid. */
static void ref_image(const struct drm_vnpu_aipp_params *p, const u8 *img,
		      int C, int H, int W, double *out)
{
	int nch = ref_channels(p->input_format);
	int wx = p->crop_switch ? p->crop_x : 0, wy = p->crop_switch ? p->crop_y : 0;
	int ww = p->crop_switch ? p->crop_w : p->src_w;
	int wh = p->crop_switch ? p->crop_h : p->src_h;
	int sw = p->scf_switch ? p->scf_w : ww, sh = p->scf_switch ? p->scf_h : wh;
	int *win = calloc((size_t)ww * wh * 4, sizeof(int));
	double *sc = calloc((size_t)sw * sh * 4, sizeof(double));
	int x, y, c, r, k;

	/* 1: crop, swaps and colour matrix into a window of ints */
	for (y = 0; y < wh; y++) {
		for (x = 0; x < ww; x++) {
			int col[3], a, *px = &win[(y * ww + x) * 4];

			ref_load(p, img, wx + x, wy + y, col, &a);
			if (p->rbuv_swap) {
				int t = col[0];

				col[0] = col[2];
				col[2] = t;
			}
			if (p->csc_switch) {
				int in[3], res[3];

				/* YUV: input bias; RGB: output bias */
				bool yuv = p->input_format == YUV420SP;

				for (k = 0; k < 3; k++)
					in[k] = col[k] - (yuv ? p->csc_in_bias[k] : 0);
				for (r = 0; r < 3; r++) {
					long s = 0;

					for (k = 0; k < 3; k++)
						s += (long)p->csc_matrix[3 * r + k] * in[k];
					s = (long)floor((double)s / 256.0) +
					    (yuv ? 0 : p->csc_out_bias[r]);
					res[r] = s < 0 ? 0 : s > 255 ? 255 : (int)s;
				}
				memcpy(col, res, sizeof(res));
			}
			if (nch == 4 && !p->ax_swap) {
				px[0] = a;
				memcpy(px + 1, col, sizeof(col));
			} else {
				memcpy(px, col, sizeof(col));
				px[3] = a;
			}
		}
	}
	/* 2: bilinear scaling with half-pixel centres */
	for (y = 0; y < sh; y++) {
		for (x = 0; x < sw; x++) {
			double fx = (x + 0.5) * ww / sw - 0.5;
			double fy = (y + 0.5) * wh / sh - 0.5;
			int x0, y0, x1, y1;
			double ax, ay;

			if (!p->scf_switch) {
				fx = x;
				fy = y;
			}
			fx = fx < 0 ? 0 : fx;
			fy = fy < 0 ? 0 : fy;
			x0 = (int)floor(fx);
			y0 = (int)floor(fy);
			if (x0 >= ww - 1) {
				x0 = ww - 1;
				fx = x0;
			}
			if (y0 >= wh - 1) {
				y0 = wh - 1;
				fy = y0;
			}
			x1 = x0 + 1 < ww ? x0 + 1 : x0;
			y1 = y0 + 1 < wh ? y0 + 1 : y0;
			ax = fx - x0;
			ay = fy - y0;
			for (c = 0; c < 4; c++)
				sc[(y * sw + x) * 4 + c] =
					(1 - ay) * ((1 - ax) * win[(y0 * ww + x0) * 4 + c] +
						    ax * win[(y0 * ww + x1) * 4 + c]) +
					ay * ((1 - ax) * win[(y1 * ww + x0) * 4 + c] +
					      ax * win[(y1 * ww + x1) * 4 + c]);
		}
	}
	/* 3 and 4: padding, then (x - mean - min) * var per channel */
	for (c = 0; c < C; c++) {
		for (y = 0; y < H; y++) {
			for (x = 0; x < W; x++) {
				int iy = y - p->pad_top, ix = x - p->pad_left;
				double v = bitsf(p->pad_value[c]);

				if (iy >= 0 && iy < sh && ix >= 0 && ix < sw)
					v = sc[(iy * sw + ix) * 4 + c];
				out[((size_t)c * H + y) * W + x] =
					(v - p->mean[c] - (double)bitsf(p->min[c])) *
					(double)bitsf(p->var_reci[c]);
			}
		}
	}
	free(win);
	free(sc);
}

/* ---- running the operator ---- */

struct aipp_case {
	struct ot_tensor src, par, out;
	int n, C, H, W;
	s64 bytes;
};

static void case_make(struct aipp_case *k, int n, s64 bytes, int C, int H,
		      int W, u32 odt)
{
	s64 ss[2] = { n, bytes }, ps[2] = { n, PSIZE }, os[4] = { n, C, H, W };

	k->n = n;
	k->C = C;
	k->H = H;
	k->W = W;
	k->bytes = bytes;
	ot_make(&k->src, U8, 2, ss);
	ot_make(&k->par, U8, 2, ps);
	ot_make(&k->out, odt, 4, os);
}

static void case_free(struct aipp_case *k)
{
	ot_free(&k->src);
	ot_free(&k->par);
	ot_free(&k->out);
}

static void case_params(struct aipp_case *k, int i,
			const struct drm_vnpu_aipp_params *p)
{
	memcpy((u8 *)k->par.buf + (size_t)i * k->par.v.strides[0], p, PSIZE);
}

static void case_random_src(struct aipp_case *k, u64 seed)
{
	u64 st = seed * 0x9e3779b97f4a7c15ull + 1;
	s64 i;

	for (i = 0; i < k->n * k->bytes; i++)
		((u8 *)k->src.buf)[i] = (u8)(ot_rand(&st, 0, 256));
}

static int case_run(struct aipp_case *k)
{
	struct ot_tensor *ts[3] = { &k->src, &k->par, &k->out };

	return ot_run(DRM_VNPU_OP_AIPP, ts, 2, 1, NULL, vnpu_ops_host_cpu());
}

static double case_out(const struct aipp_case *k, int n, int c, int y, int x)
{
	s64 idx[4] = { n, c, y, x };

	return ot_get(&k->out, idx);
}

/* Compare every image's output with the reference; returns mismatches. */
static int case_compare(struct aipp_case *k, double rtol, double atol)
{
	double *want = malloc(sizeof(double) * k->C * k->H * k->W);
	int n, c, y, x, bad = 0;

	for (n = 0; n < k->n; n++) {
		struct drm_vnpu_aipp_params p;

		memcpy(&p, (u8 *)k->par.buf + (size_t)n * k->par.v.strides[0], PSIZE);
		ref_image(&p, (u8 *)k->src.buf + (size_t)n * k->bytes, k->C,
			  k->H, k->W, want);
		for (c = 0; c < k->C; c++)
			for (y = 0; y < k->H; y++)
				for (x = 0; x < k->W; x++) {
					double w = want[((size_t)c * k->H + y) * k->W + x];
					double g = case_out(k, n, c, y, x);

					/* past the dtype's range: infinity */
					if (k->out.v.dtype == F32)
						w = (float)w;
					else if (fabs(w) >= 65520.0)
						w = w > 0 ? INFINITY : -INFINITY;

					if (!ot_close(g, w, rtol, atol) && bad++ < 5)
						fprintf(stderr, "image %d [%d,%d,%d]: %g, want %g\n",
							n, c, y, x, g, w);
				}
	}
	free(want);
	return bad;
}

/* ---- values worked out by hand ---- */

/*
 * NV12 2x2: Y 100 110 / 120 130, one chroma pair U 150, V 200, with the
 * samples' matrix (R = Y + 359/256 (V - 128), ...):
 * (0,0): R = (25600 + 359*72) >> 8 = 51448 >> 8 = 200,
 *        G = (25600 - 88*22 - 183*72) >> 8 = 10488 >> 8 = 40,
 *        B = (25600 + 454*22) >> 8 = 35588 >> 8 = 139;
 * (1,1): Y 130: R = 59128 >> 8 = 230, G = 18168 >> 8 = 70,
 *        B = 43268 >> 8 = 169.
 * mean (10, 20, 30), min (0.5, 0, 0), var (2, 1, 0.5):
 * (0,0) -> (379, 20, 54.5); (1,1) -> (439, 50, 69.5).
 */
TEST(nv12_pixels_by_hand)
{
	static const u8 img[6] = { 100, 110, 120, 130, 150, 200 };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 1, 6, 3, 2, 2, F32);
	memcpy(k.src.buf, img, 6);
	base_params(&p, YUV420SP, 2, 2);
	set_jpeg_csc(&p);
	p.mean[0] = 10;
	p.mean[1] = 20;
	p.mean[2] = 30;
	p.min[0] = fbits(0.5f);
	p.var_reci[0] = fbits(2.0f);
	p.var_reci[2] = fbits(0.5f);
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(379.0, case_out(&k, 0, 0, 0, 0));
	EXPECT_EQ(20.0, case_out(&k, 0, 1, 0, 0));
	EXPECT_EQ(54.5, case_out(&k, 0, 2, 0, 0));
	EXPECT_EQ(439.0, case_out(&k, 0, 0, 1, 1));
	EXPECT_EQ(50.0, case_out(&k, 0, 1, 1, 1));
	EXPECT_EQ(69.5, case_out(&k, 0, 2, 1, 1));
	case_free(&k);
}

/*
 * Clamping: Y 255, U 128, V 255: R = (65280 + 359*127) >> 8 = 433 -> 255;
 * Y 0, U 0, V 0: R = (359 * -128) >> 8 = -180 -> 0, G = (88*128 +
 * 183*128) >> 8 = 34688 >> 8 = 135, B = (454 * -128) >> 8 -> 0.
 */
TEST(csc_clamps_to_a_byte)
{
	static const u8 img[2][6] = { { 255, 255, 255, 255, 128, 255 },
				      { 0, 0, 0, 0, 0, 0 } };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 2, 6, 3, 2, 2, F32);
	memcpy(k.src.buf, img, sizeof(img));
	base_params(&p, YUV420SP, 2, 2);
	set_jpeg_csc(&p);
	case_params(&k, 0, &p);
	case_params(&k, 1, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(255.0, case_out(&k, 0, 0, 0, 0));
	EXPECT_EQ(0.0, case_out(&k, 1, 0, 0, 0));
	EXPECT_EQ(135.0, case_out(&k, 1, 1, 1, 0));
	EXPECT_EQ(0.0, case_out(&k, 1, 2, 0, 1));
	case_free(&k);
}

/*
 * RGB to YUV adds the output bias after the shift, which floors:
 * (255, 0, 0): Y = 77*255 >> 8 = 19635 >> 8 = 76,
 * U = (-43*255 >> 8) + 128 = floor(-42.8) + 128 = 85 (truncation: 86),
 * V = (128*255 >> 8) + 128 = 127 + 128 = 255.
 */
TEST(rgb_to_yuv_floors_then_adds_output_bias)
{
	static const s16 m[9] = { 77, 150, 29, -43, -85, 128, 128, -107, -21 };
	static const u8 img[3] = { 255, 0, 0 };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 1, 3, 3, 1, 1, F32);
	memcpy(k.src.buf, img, 3);
	base_params(&p, RGB888, 1, 1);
	p.csc_switch = 1;
	memcpy(p.csc_matrix, m, sizeof(m));
	p.csc_out_bias[1] = 128;
	p.csc_out_bias[2] = 128;
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(76.0, case_out(&k, 0, 0, 0, 0));
	EXPECT_EQ(85.0, case_out(&k, 0, 1, 0, 0));
	EXPECT_EQ(255.0, case_out(&k, 0, 2, 0, 0));
	case_free(&k);
}

/*
 * The bias the source's kind does not use is ignored: an NV12 pixel of
 * Y 100, U 150, V 200 gives R 200 with any output bias; an RGB pixel
 * (255, 0, 0) gives Y 76 with any input bias.
 */
TEST(the_other_bias_is_ignored)
{
	static const u8 nv12[6] = { 100, 100, 100, 100, 150, 200 };
	static const s16 y_row[9] = { 77, 150, 29, 256, 0, 0, 0, 256, 0 };
	static const u8 rgb[3] = { 255, 0, 0 };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 1, 6, 3, 2, 2, F32);
	memcpy(k.src.buf, nv12, 6);
	base_params(&p, YUV420SP, 2, 2);
	set_jpeg_csc(&p);
	memset(p.csc_out_bias, 100, 3);
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(200.0, case_out(&k, 0, 0, 1, 1));
	case_free(&k);

	case_make(&k, 1, 3, 3, 1, 1, F32);
	memcpy(k.src.buf, rgb, 3);
	base_params(&p, RGB888, 1, 1);
	p.csc_switch = 1;
	memcpy(p.csc_matrix, y_row, sizeof(y_row));
	memset(p.csc_in_bias, 100, 3);
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(76.0, case_out(&k, 0, 0, 0, 0));
	EXPECT_EQ(255.0, case_out(&k, 0, 1, 0, 0));	/* 256 * 255 >> 8 */
	EXPECT_EQ(0.0, case_out(&k, 0, 2, 0, 0));
	case_free(&k);
}

/* XRGB bytes (9, 10, 20, 30): the channel orders the swaps give. */
TEST(xrgb_channel_orders)
{
	static const u8 img[4] = { 9, 10, 20, 30 };
	static const struct { s8 rbuv, ax; int C; double want[4]; } cases[] = {
		{ 0, 0, 4, { 9, 10, 20, 30 } },
		{ 0, 1, 3, { 10, 20, 30 } },
		{ 0, 1, 4, { 10, 20, 30, 9 } },
		{ 1, 1, 3, { 30, 20, 10 } },
		{ 1, 0, 4, { 9, 30, 20, 10 } },
	};
	unsigned int i;
	int c;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct drm_vnpu_aipp_params p;
		struct aipp_case k;

		case_make(&k, 1, 4, cases[i].C, 1, 1, F32);
		memcpy(k.src.buf, img, 4);
		base_params(&p, XRGB8888, 1, 1);
		p.rbuv_swap = cases[i].rbuv;
		p.ax_swap = cases[i].ax;
		case_params(&k, 0, &p);
		ASSERT_EQ(0, case_run(&k));
		for (c = 0; c < cases[i].C; c++)
			EXPECT_EQ(cases[i].want[c], case_out(&k, 0, c, 0, 0));
		case_free(&k);
	}
}

/*
 * Bilinear with half-pixel centres, a grey 2x1 image (0, 100) to 4x1:
 * source x = (x + 0.5) / 2 - 0.5 = -0.25 (clamped to 0), 0.25, 0.75, 1.25
 * (past the last pixel): 0, 25, 75, 100.
 */
TEST(scaling_by_hand)
{
	static const u8 img[2] = { 0, 100 };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 1, 2, 1, 1, 4, F32);
	memcpy(k.src.buf, img, 2);
	base_params(&p, YUV400, 2, 1);
	p.scf_switch = 1;
	p.scf_w = 4;
	p.scf_h = 1;
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(0.0, case_out(&k, 0, 0, 0, 0));
	EXPECT_EQ(25.0, case_out(&k, 0, 0, 0, 1));
	EXPECT_EQ(75.0, case_out(&k, 0, 0, 0, 2));
	EXPECT_EQ(100.0, case_out(&k, 0, 0, 0, 3));
	case_free(&k);
}

/* Padded pixels take the pad value, then the normalisation like others. */
TEST(padding_by_hand)
{
	static const u8 img[1] = { 50 };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;
	int x;

	case_make(&k, 1, 1, 1, 2, 3, F32);
	memcpy(k.src.buf, img, 1);
	base_params(&p, YUV400, 1, 1);
	p.pad_switch = 1;
	p.pad_top = 1;
	p.pad_right = 2;
	p.pad_value[0] = fbits(7.0f);
	p.mean[0] = 5;
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	for (x = 0; x < 3; x++)
		EXPECT_EQ(2.0, case_out(&k, 0, 0, 0, x));
	EXPECT_EQ(45.0, case_out(&k, 0, 0, 1, 0));
	EXPECT_EQ(2.0, case_out(&k, 0, 0, 1, 1));
	EXPECT_EQ(2.0, case_out(&k, 0, 0, 1, 2));
	case_free(&k);
}

/* ---- against the reference ---- */

/* The ResNet sample's pipeline: NV12 crop, CSC, mean/var, scale, pad. */
TEST(nv12_full_pipeline_two_images)
{
	struct drm_vnpu_aipp_params p[2];
	struct aipp_case k;
	u32 dt[2] = { F32, F16 };
	int d, i;

	for (d = 0; d < 2; d++) {
		case_make(&k, 2, 40 * 30 * 3 / 2, 3, 28, 31, dt[d]);
		case_random_src(&k, 11 + d);
		for (i = 0; i < 2; i++) {
			base_params(&p[i], YUV420SP, 40, 30);
			set_jpeg_csc(&p[i]);
			p[i].crop_switch = 1;
			p[i].crop_x = 3 + 5 * i;
			p[i].crop_y = 1 + i;
			p[i].crop_w = 25 - 3 * i;
			p[i].crop_h = 20 + i;
			p[i].scf_switch = 1;
			p[i].scf_w = 27;
			p[i].scf_h = 24;
			p[i].pad_switch = 1;
			p[i].pad_top = 3;
			p[i].pad_bottom = 1;
			p[i].pad_left = 4 - i;
			p[i].pad_right = i;
			p[i].pad_value[1] = fbits(12.5f);
			p[i].mean[0] = 0;
			p[i].min[0] = fbits(123.675f);
			p[i].min[1] = fbits(116.28f);
			p[i].min[2] = fbits(103.53f);
			p[i].var_reci[0] = fbits(0.0171247538f);
			p[i].var_reci[1] = fbits(0.0175070028f);
			p[i].var_reci[2] = fbits(0.0174291939f);
			case_params(&k, i, &p[i]);
		}
		ASSERT_EQ(0, case_run(&k));
		EXPECT_EQ(0, case_compare(&k, d ? 1e-3 : 1e-6, d ? 1e-3 : 1e-6));
		case_free(&k);
	}
}

/* Down-scaling, NV21 through the U/V swap, RGB with both biases set. */
TEST(formats_against_reference)
{
	static const s16 m[9] = { 200, -30, 40, 10, 180, -20, -50, 60, 220 };
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 1, 16 * 12 * 3 / 2, 3, 5, 7, F32);
	case_random_src(&k, 3);
	base_params(&p, YUV420SP, 16, 12);
	set_jpeg_csc(&p);
	p.rbuv_swap = 1;
	p.scf_switch = 1;
	p.scf_w = 7;
	p.scf_h = 5;
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(0, case_compare(&k, 1e-6, 1e-6));
	case_free(&k);

	case_make(&k, 1, 9 * 7 * 3, 3, 7, 9, F32);
	case_random_src(&k, 4);
	base_params(&p, RGB888, 9, 7);
	p.csc_switch = 1;
	memcpy(p.csc_matrix, m, sizeof(m));
	p.csc_in_bias[0] = 16;
	p.csc_in_bias[2] = 200;
	p.csc_out_bias[1] = 90;
	p.rbuv_swap = 1;
	p.mean[2] = -7;
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(0, case_compare(&k, 1e-6, 1e-6));
	case_free(&k);

	case_make(&k, 1, 6 * 5 * 4, 3, 9, 4, F16);
	case_random_src(&k, 5);
	base_params(&p, XRGB8888, 6, 5);
	p.ax_swap = 1;
	p.crop_switch = 1;
	p.crop_x = 1;
	p.crop_y = 2;
	p.crop_w = 5;
	p.crop_h = 3;
	p.scf_switch = 1;
	p.scf_w = 4;
	p.scf_h = 9;
	p.var_reci[1] = fbits(-0.25f);
	case_params(&k, 0, &p);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(0, case_compare(&k, 1e-3, 1e-3));
	case_free(&k);
}

/*
 * The parameters broadcast over the batch (stride 0, as atc bakes static
 * AIPP), a strided NCHW output, and pieces run in reverse order.
 */
TEST(broadcast_params_strided_output_any_order)
{
	struct drm_vnpu_aipp_params p;
	struct ot_tensor src, par, out, *ts[3];
	s64 ss[2] = { 3, 8 * 6 * 3 / 2 }, ps[2] = { 1, PSIZE };
	s64 os[4] = { 3, 3, 6, 8 }, big[4] = { 3, 3, 7, 10 };
	struct vnpu_op_call *c;
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_AIPP);
	u32 bad = 0;
	int n, ch, y, x, fails = 0;
	double *want = malloc(sizeof(double) * 3 * 6 * 8);
	u64 st = 77;
	s64 i;

	ot_make(&src, U8, 2, ss);
	for (i = 0; i < ss[0] * ss[1]; i++)
		((u8 *)src.buf)[i] = (u8)ot_rand(&st, 0, 256);
	ot_make(&par, U8, 2, ps);
	par.v.shape[0] = 3;
	par.v.strides[0] = 0;
	base_params(&p, YUV420SP, 8, 6);
	set_jpeg_csc(&p);
	p.mean[1] = 3;
	memcpy(par.buf, &p, PSIZE);
	/* [3, 3, 6, 8] inside a [3, 3, 7, 10] buffer */
	ot_make(&out, F32, 4, big);
	memcpy(out.v.shape, os, sizeof(os));
	ts[0] = &src;
	ts[1] = &par;
	ts[2] = &out;
	c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 2, 1, NULL, vnpu_ops_host_cpu(),
			NULL);
	ASSERT_NE(NULL, c);
	c->bad_data = &bad;
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	ot_run_reversed(c);
	EXPECT_EQ(0, bad);
	for (n = 0; n < 3; n++) {
		ref_image(&p, (u8 *)src.buf + n * ss[1], 3, 6, 8, want);
		for (ch = 0; ch < 3; ch++)
			for (y = 0; y < 6; y++)
				for (x = 0; x < 8; x++) {
					s64 idx[4] = { n, ch, y, x };

					if (!ot_close(ot_get(&out, idx),
						      want[(ch * 6 + y) * 8 + x],
						      1e-6, 1e-6))
						fails++;
				}
		/* the columns past the view are untouched */
		for (ch = 0; ch < 3; ch++)
			for (y = 0; y < 6; y++) {
				s64 idx[4] = { n, ch, y, 9 };

				EXPECT_EQ(0.0, ot_get(&out, idx));
			}
	}
	EXPECT_EQ(0, fails);
	free(c);
	free(want);
	ot_free(&src);
	ot_free(&par);
	ot_free(&out);
}

/*
 * Rows longer than a piece are cut across: a grey 4x2 image scaled to
 * 8192 wide and padded to 16484 columns.
 */
TEST(long_rows_split_across_pieces)
{
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;
	struct ot_tensor *ts[3];
	struct vnpu_op_call *c;

	case_make(&k, 1, 8, 1, 2, 16484, F32);
	case_random_src(&k, 9);
	base_params(&p, YUV400, 4, 2);
	p.scf_switch = 1;
	p.scf_w = 8192;
	p.scf_h = 2;
	p.pad_switch = 1;
	p.pad_left = 8192;
	p.pad_right = 100;
	p.pad_value[0] = fbits(-1.0f);
	case_params(&k, 0, &p);
	ts[0] = &k.src;
	ts[1] = &k.par;
	ts[2] = &k.out;
	c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 2, 1, NULL, 0, NULL);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(4, vnpu_op_find(DRM_VNPU_OP_AIPP)->tiles(c));
	free(c);
	ASSERT_EQ(0, case_run(&k));
	EXPECT_EQ(0, case_compare(&k, 1e-6, 1e-6));
	case_free(&k);
}

/* ---- check() ---- */

TEST(check_rejections)
{
	struct {
		const char *what;
		u32 sdt, pdt, odt;
		int srank, prank, orank;
		s64 s[2], ps[2], os[4];
		s64 sstride1, pstride1;
	} cases[] = {
		{ "valid", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "src INT8", DRM_VNPU_DTYPE_INT8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "params FLOAT", U8, F32, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "out INT32", U8, U8, DRM_VNPU_DTYPE_INT32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "out BF16", U8, U8, DRM_VNPU_DTYPE_BF16, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "src rank 3", U8, U8, F32, 3, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "params rank 1", U8, U8, F32, 2, 1, 4, { 2, 6 }, { 2 * PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "out rank 3", U8, U8, F32, 2, 2, 3, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2 }, 1, 1 },
		{ "params 155 bytes", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE - 1 }, { 2, 3, 2, 2 }, 1, 1 },
		{ "params 157 bytes", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE + 1 }, { 2, 3, 2, 2 }, 1, 1 },
		{ "params strided", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 2 },
		{ "src strided", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 2, 1 },
		{ "batch of params", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 3, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
		{ "batch of out", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 1, 3, 2, 2 }, 1, 1 },
		{ "C 0", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 0, 2, 2 }, 1, 1 },
		{ "C 5", U8, U8, F32, 2, 2, 4, { 2, 6 }, { 2, PSIZE }, { 2, 5, 2, 2 }, 1, 1 },
		{ "H too big", U8, U8, F32, 2, 2, 4, { 1, 6 }, { 1, PSIZE }, { 1, 1, 24577, 1 }, 1, 1 },
		{ "W too big", U8, U8, F32, 2, 2, 4, { 1, 6 }, { 1, PSIZE }, { 1, 1, 1, 24577 }, 1, 1 },
		{ "empty src, elements out", U8, U8, F32, 2, 2, 4, { 2, 0 }, { 2, PSIZE }, { 2, 3, 2, 2 }, 1, 1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ot_tensor s, pp, o, *ts[3] = { &s, &pp, &o };
		struct vnpu_op_call *c;
		int want = i ? -VNPU_OPS_EINVAL : 0;

		ot_make(&s, cases[i].sdt, cases[i].srank, cases[i].s);
		ot_make(&pp, cases[i].pdt, cases[i].prank, cases[i].ps);
		ot_make(&o, cases[i].odt, cases[i].orank, cases[i].os);
		if (cases[i].srank == 2)
			s.v.strides[1] = cases[i].sstride1;
		if (cases[i].prank == 2)
			pp.v.strides[1] = cases[i].pstride1;
		c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 2, 1, NULL, 0, NULL);
		ASSERT_NE(NULL, c);
		EXPECT_EQ(want, vnpu_op_check(vnpu_op_find(DRM_VNPU_OP_AIPP), c))
			TH_LOG("%s", cases[i].what);
		free(c);
		ot_free(&s);
		ot_free(&pp);
		ot_free(&o);
	}
}

/* Two tensors in, one out; no more, no less. */
TEST(check_tensor_counts)
{
	struct aipp_case k;
	struct ot_tensor *ts[4];
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_AIPP);
	struct vnpu_op_call *c;

	case_make(&k, 1, 6, 3, 2, 2, F32);
	ts[0] = &k.src;
	ts[1] = &k.par;
	ts[2] = &k.out;
	ts[3] = &k.out;
	c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 1, 2, NULL, 0, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, c));
	free(c);
	c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 2, 2, NULL, 0, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, c));
	free(c);
	c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 3, 1, NULL, 0, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, c));
	free(c);
	case_free(&k);
}

/* ---- run-time rules on the parameters ---- */

/* A valid NV12 4x4 -> [3, 4, 4] with every stage on. */
static void good_params(struct drm_vnpu_aipp_params *p)
{
	base_params(p, YUV420SP, 4, 4);
	set_jpeg_csc(p);
	p->crop_switch = 1;
	p->crop_x = 1;
	p->crop_y = 1;
	p->crop_w = 2;
	p->crop_h = 2;
	p->scf_switch = 1;
	p->scf_w = 3;
	p->scf_h = 2;
	p->pad_switch = 1;
	p->pad_top = 1;
	p->pad_bottom = 1;
	p->pad_left = 0;
	p->pad_right = 1;
}

static void csc_off(struct drm_vnpu_aipp_params *p)
{
	p->csc_switch = 0;
	memset(p->csc_matrix, 0, sizeof(p->csc_matrix));
	memset(p->csc_in_bias, 0, sizeof(p->csc_in_bias));
}

static const char *const rules[] = {
	"valid", "format 0", "format NC1HWC0DI_FP16",
	"format ARGB8888 (not handled)", "format YUV422SP (not handled)",
	"format 0xFFFF", "src_w 0", "src_w negative", "src_w 8194", "src_h 0",
	"src_h 8194", "NV12 odd width", "NV12 odd height",
	"image larger than src", "csc_switch 2", "rbuv_swap -1", "ax_swap 2",
	"crop_switch 2", "scf_switch 3", "pad_switch -1", "pad0 set",
	"reserved set", "crop_x negative", "crop_y negative", "crop_w 0",
	"crop_h 0", "crop past the right", "crop past the bottom",
	"crop off, fields set", "csc with YUV400", "csc off, matrix set",
	"csc off, input bias set", "csc off, output bias set",
	"rbuv with YUV400", "ax swap with NV12", "ax swap with RGB888",
	"scf_w 0", "scf_h 8193", "scf off, size set", "pad_top negative",
	"pad_left 8193", "pad off, sizes set", "height mismatch",
	"width mismatch", "more channels than the format", "min NaN",
	"min of channel 3 infinite", "var_reci infinite", "pad value NaN",
};

/* Break rule @i of good_params() (rule 0 leaves it valid). */
static void break_rule(int i, struct drm_vnpu_aipp_params *p)
{
	switch (i) {
	case 1: p->input_format = 0; break;
	case 2: p->input_format = 5; break;
	case 3: p->input_format = 7; break;
	case 4: p->input_format = 9; break;
	case 5: p->input_format = 0xFFFF; break;
	case 6: p->src_w = 0; break;
	case 7: p->src_w = -4; break;
	case 8: p->src_w = 8194; break;
	case 9: p->src_h = 0; break;
	case 10: p->src_h = 8194; break;
	case 11: p->src_w = 3; break;
	case 12: p->src_h = 3; break;
	case 13: p->src_w = 6; break;		/* 36 bytes > 24 */
	case 14: p->csc_switch = 2; break;
	case 15: p->rbuv_swap = -1; break;
	case 16: p->ax_swap = 2; break;
	case 17: p->crop_switch = 2; break;
	case 18: p->scf_switch = 3; break;
	case 19: p->pad_switch = -1; break;
	case 20: p->pad0[1] = 1; break;
	case 21: p->reserved[3] = 1; break;
	case 22: p->crop_x = -1; break;
	case 23: p->crop_y = -1; break;
	case 24: p->crop_w = 0; break;
	case 25: p->crop_h = 0; break;
	case 26: p->crop_x = 3; break;
	case 27: p->crop_y = 3; break;
	case 28:		/* the 4x4 image itself is the 2x2 window's size */
		p->crop_switch = 0;
		p->src_w = 2;
		p->src_h = 2;
		break;
	case 29: p->input_format = YUV400; break;
	case 30:
		p->csc_switch = 0;
		memset(p->csc_in_bias, 0, sizeof(p->csc_in_bias));
		break;
	case 31:
		p->csc_switch = 0;
		memset(p->csc_matrix, 0, sizeof(p->csc_matrix));
		break;
	case 32:
		csc_off(p);
		p->csc_out_bias[0] = 1;
		break;
	case 33:
		csc_off(p);
		p->input_format = YUV400;
		p->rbuv_swap = 1;
		break;
	case 34: p->ax_swap = 1; break;
	case 35:		/* 2x4 RGB: 24 bytes, the window still fits */
		p->input_format = RGB888;
		p->src_w = 2;
		p->crop_x = 0;
		p->ax_swap = 1;
		break;
	case 36: p->scf_w = 0; break;
	case 37: p->scf_h = 8193; break;
	case 38:
		p->scf_switch = 0;
		p->scf_w = 2;
		break;
	case 39:
		p->pad_top = -1;
		p->pad_bottom = 3;
		break;
	case 40: p->pad_left = 8193; break;
	case 41: p->pad_switch = 0; break;
	case 42: p->pad_bottom = 2; break;
	case 43: p->scf_w = 4; break;
	case 44:		/* a grey image for a 3-channel output */
		csc_off(p);
		p->input_format = YUV400;
		break;
	case 45: p->min[1] = fbits(NAN); break;
	case 46: p->min[3] = fbits(INFINITY); break;
	case 47: p->var_reci[0] = fbits(-INFINITY); break;
	case 48: p->pad_value[2] = fbits(NAN); break;
	}
}

TEST(every_parameter_rule_fails_the_task)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		struct drm_vnpu_aipp_params p;
		struct aipp_case k;
		int want = i ? -VNPU_OPS_EINVAL : 0, bad = 0;
		/* grey images: one channel, so that only the rule is broken */
		int C = i == 29 || i == 33 ? 1 : 3;
		s64 e, elems;

		case_make(&k, 1, 24, C, 4, 4, F32);
		case_random_src(&k, i);
		good_params(&p);
		break_rule(i, &p);
		/* the reference agrees on every rule */
		EXPECT_EQ(!i, ref_valid(&p, 24, C, 4, 4)) TH_LOG("%s", rules[i]);
		case_params(&k, 0, &p);
		elems = vnpu_tview_elems(&k.out.v);
		for (e = 0; e < elems; e++)
			((float *)k.out.buf)[e] = -12345.0f;
		EXPECT_EQ(want, case_run(&k)) TH_LOG("%s", rules[i]);
		if (i) {
			/* a refused image writes nothing */
			for (e = 0; e < elems; e++)
				bad += ((float *)k.out.buf)[e] != -12345.0f;
			EXPECT_EQ(0, bad) TH_LOG("%s", rules[i]);
		} else {
			EXPECT_EQ(0, case_compare(&k, 1e-6, 1e-6));
		}
		case_free(&k);
	}
}

/* One bad image of two fails the task; the good one is still computed. */
TEST(one_bad_image_fails_the_call)
{
	struct drm_vnpu_aipp_params p;
	struct aipp_case k;

	case_make(&k, 2, 24, 3, 4, 4, F32);
	case_random_src(&k, 1);
	good_params(&p);
	case_params(&k, 0, &p);
	p.reserved[0] = 7;
	case_params(&k, 1, &p);
	EXPECT_EQ(-VNPU_OPS_EINVAL, case_run(&k));
	k.n = 1;
	EXPECT_EQ(0, case_compare(&k, 1e-6, 1e-6));
	case_free(&k);
}

/* ---- fuzz ---- */

/* @size bytes flush against a PROT_NONE page (after it when @at_start). */
struct guarded {
	void *map;
	size_t map_len;
	u8 *p;
};

static u8 *guard_alloc(struct guarded *g, size_t size, bool at_start)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (size + pg - 1) / pg * pg;
	u8 *m;

	g->map_len = body + 2 * pg;
	m = mmap(NULL, g->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m + pg, body, PROT_READ | PROT_WRITE)) {
		munmap(m, g->map_len);
		return NULL;
	}
	g->map = m;
	g->p = at_start ? m + pg : m + pg + body - size;
	return g->p;
}

static void guard_free(struct guarded *g)
{
	munmap(g->map, g->map_len);
}

static s32 fz_pick(u64 *st, s32 lo, s32 hi)
{
	return lo + (s32)ot_rand(st, 0, hi - lo + 1);
}

/* A valid configuration with random stages, sized for its output. */
static void fz_valid(u64 *st, struct drm_vnpu_aipp_params *p, int *C, int *H,
		     int *W)
{
	static const u32 fmts[4] = { YUV420SP, XRGB8888, RGB888, YUV400 };
	u32 fmt = fmts[fz_pick(st, 0, 3)];
	int nch = ref_channels(fmt), k;
	s32 w = fz_pick(st, 1, 9) * 2, h = fz_pick(st, 1, 7) * 2, ww, wh;

	base_params(p, fmt, w, h);
	if (fz_pick(st, 0, 1)) {
		p->crop_switch = 1;
		p->crop_w = fz_pick(st, 1, w);
		p->crop_h = fz_pick(st, 1, h);
		p->crop_x = fz_pick(st, 0, w - p->crop_w);
		p->crop_y = fz_pick(st, 0, h - p->crop_h);
	}
	ww = p->crop_switch ? p->crop_w : w;
	wh = p->crop_switch ? p->crop_h : h;
	if (nch > 1 && fz_pick(st, 0, 1)) {
		p->csc_switch = 1;
		for (k = 0; k < 9; k++)
			p->csc_matrix[k] = (s16)fz_pick(st, -600, 600);
		for (k = 0; k < 3; k++) {
			p->csc_in_bias[k] = (u8)fz_pick(st, 0, 255);
			p->csc_out_bias[k] = (u8)fz_pick(st, 0, 255);
		}
	}
	p->rbuv_swap = nch > 1 ? (s8)fz_pick(st, 0, 1) : 0;
	p->ax_swap = nch == 4 ? (s8)fz_pick(st, 0, 1) : 0;
	if (fz_pick(st, 0, 1)) {
		p->scf_switch = 1;
		p->scf_w = fz_pick(st, 1, 20);
		p->scf_h = fz_pick(st, 1, 20);
		ww = p->scf_w;
		wh = p->scf_h;
	}
	if (fz_pick(st, 0, 1)) {
		p->pad_switch = 1;
		p->pad_top = fz_pick(st, 0, 3);
		p->pad_bottom = fz_pick(st, 0, 3);
		p->pad_left = fz_pick(st, 0, 3);
		p->pad_right = fz_pick(st, 0, 3);
	}
	for (k = 0; k < 4; k++) {
		p->mean[k] = (s16)fz_pick(st, -300, 300);
		p->min[k] = fbits((float)ot_rand(st, -50, 50));
		p->var_reci[k] = fbits((float)ot_rand(st, -2, 2));
		p->pad_value[k] = fbits((float)ot_rand(st, -9, 300));
	}
	*C = fz_pick(st, 1, nch);
	*H = wh + p->pad_top + p->pad_bottom;
	*W = ww + p->pad_left + p->pad_right;
}

/* Spoil a valid configuration a little, a lot, or entirely. */
static void fz_mutate(u64 *st, struct drm_vnpu_aipp_params *p)
{
	u8 *b = (u8 *)p;
	int kind = fz_pick(st, 0, 9), i, n;

	if (kind < 3)
		return;			/* stays valid */
	if (kind < 7) {			/* a few bytes */
		n = fz_pick(st, 1, 3);
		for (i = 0; i < n; i++)
			b[fz_pick(st, 0, PSIZE - 1)] = (u8)fz_pick(st, 0, 255);
	} else if (kind < 9) {		/* a field to an edge value */
		static const s32 edges[] = { 0, 1, -1, 2, 8192, 8193, 0x7fffffff,
					     (s32)0x80000000, 255, 256 };
		s32 v = edges[fz_pick(st, 0, ARRAY_SIZE(edges) - 1)];

		memcpy(b + 4 * fz_pick(st, 0, PSIZE / 4 - 1), &v, 4);
	} else {			/* all of it */
		for (i = 0; i < PSIZE; i++)
			b[i] = (u8)fz_pick(st, 0, 255);
	}
}

TEST(fuzz_parameters_never_escape_the_tensors)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_AIPP);
	u64 st = 20260501;
	int iter, accepted = 0, refused = 0, mism = 0, disagree = 0;

	for (iter = 0; iter < 3000; iter++) {
		struct drm_vnpu_aipp_params p[2];
		struct guarded gs, gp, go;
		struct ot_tensor src, par, out, *ts[3] = { &src, &par, &out };
		int C, H, W, n = fz_pick(&st, 1, 2), i, want_ok = 1;
		bool at_start = iter & 1;
		s64 bytes, e, elems;
		u32 bad = 0, odt = (iter & 2) ? F16 : F32;
		struct vnpu_op_call *c;
		u64 t, tiles;

		fz_valid(&st, &p[0], &C, &H, &W);
		p[1] = p[0];
		bytes = ref_bytes(p[0].input_format, p[0].src_w, p[0].src_h);
		if (fz_pick(&st, 0, 3) == 0)	/* a source too small, or larger */
			bytes = fz_pick(&st, 1, (int)bytes + 8);
		for (i = 0; i < n; i++)
			fz_mutate(&st, &p[i]);
		memset(&src, 0, sizeof(src));
		memset(&par, 0, sizeof(par));
		memset(&out, 0, sizeof(out));
		src.v.dtype = U8;
		src.v.rank = 2;
		src.v.shape[0] = n;
		src.v.shape[1] = bytes;
		src.v.strides[0] = bytes;
		src.v.strides[1] = 1;
		src.v.data = guard_alloc(&gs, (size_t)(n * bytes), at_start);
		par.v = src.v;
		par.v.shape[1] = PSIZE;
		par.v.strides[0] = PSIZE;
		par.v.data = guard_alloc(&gp, (size_t)(n * PSIZE), !at_start);
		out.v.dtype = odt;
		out.v.rank = 4;
		out.v.shape[0] = n;
		out.v.shape[1] = C;
		out.v.shape[2] = H;
		out.v.shape[3] = W;
		out.v.strides[3] = 1;
		out.v.strides[2] = W;
		out.v.strides[1] = (s64)H * W;
		out.v.strides[0] = (s64)C * H * W;
		elems = (s64)n * C * H * W;
		out.v.data = guard_alloc(&go, (size_t)elems * vnpu_dtype_size(odt),
					 at_start);
		ASSERT_TRUE(src.v.data && par.v.data && out.v.data);
		for (e = 0; e < n * bytes; e++)
			((u8 *)src.v.data)[e] = (u8)fz_pick(&st, 0, 255);
		memcpy(par.v.data, p, (size_t)(n * PSIZE));
		for (i = 0; i < n; i++)
			want_ok &= ref_valid(&p[i], bytes, C, H, W);

		c = ot_call_new(DRM_VNPU_OP_AIPP, ts, 2, 1, NULL,
				vnpu_ops_host_cpu(), NULL);
		ASSERT_NE(NULL, c);
		c->bad_data = &bad;
		ASSERT_EQ(0, vnpu_op_check(impl, c));
		tiles = impl->tiles(c);
		for (t = 0; t < tiles; t++)
			impl->run(c, t);
		free(c);
		if (want_ok != !bad)
			disagree++;
		if (!bad && want_ok) {
			struct aipp_case k = { .src = src, .par = par, .out = out,
					       .n = n, .C = C, .H = H, .W = W,
					       .bytes = bytes };

			k.src.buf = src.v.data;
			k.par.buf = par.v.data;
			mism += case_compare(&k, odt == F16 ? 2e-3 : 1e-6,
					     odt == F16 ? 2e-2 : 1e-5) != 0;
			accepted++;
		} else {
			refused++;
		}
		guard_free(&gs);
		guard_free(&gp);
		guard_free(&go);
	}
	TH_LOG("%d accepted, %d refused", accepted, refused);
	EXPECT_EQ(0, disagree);
	EXPECT_EQ(0, mism);
	/* both sides of the rules were exercised */
	EXPECT_LT(500, accepted);
	EXPECT_LT(500, refused);
}

TEST_HARNESS_MAIN
