/* SPDX-License-Identifier: MIT */
/*
 * PNGD on the host with libpng: header facts, the output layout and the
 * decode into RGB888 / RGBA8888 rows with DVPP's strides. libpng reports
 * errors by longjmp; every call sets its jump point before the first
 * libpng call that can fail and frees everything on either path, so a
 * damaged file is an -EBADMSG and nothing leaks.
 */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <string.h>

#include "dvpp_codec.h"

struct png_src {
	const uint8_t *p;
	size_t size, off;
	char msg[128];			/* libpng's error */
};

static void read_data(png_structp png, png_bytep out, size_t len)
{
	struct png_src *s = png_get_io_ptr(png);

	if (len > s->size - s->off)
		png_error(png, "the data ends inside a chunk");
	memcpy(out, s->p + s->off, len);
	s->off += len;
}

static void on_error(png_structp png, png_const_charp msg)
{
	struct png_src *s = png_get_error_ptr(png);

	snprintf(s->msg, sizeof(s->msg), "%s", msg);
	png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
	/* ancillary damage (a bad CRC on tEXt, ...) is not a failure */
}

/* A read struct over the data, or NULL when the data is not a PNG. */
static png_structp open_png(struct png_src *s, const void *data, size_t size,
			    png_infop *info, int *err)
{
	png_structp png;

	*s = (struct png_src){ .p = data, .size = size };
	*err = -EBADMSG;
	if (size < 8 || png_sig_cmp(data, 0, 8)) {
		snprintf(s->msg, sizeof(s->msg), "not a PNG: bad signature");
		return NULL;
	}
	*err = -ENOMEM;
	snprintf(s->msg, sizeof(s->msg), "no memory for libpng");
	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, s, on_error,
				     on_warning);
	if (!png)
		return NULL;
	*info = png_create_info_struct(png);
	if (!*info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return NULL;
	}
	png_set_read_fn(png, s, read_data);
	return png;
}

static void fill_info(png_structp png, png_infop info, struct dvpp_png_info *o)
{
	int ct = png_get_color_type(png, info);
	bool trns = png_get_valid(png, info, PNG_INFO_tRNS);

	o->width = png_get_image_width(png, info);
	o->height = png_get_image_height(png, info);
	o->bit_depth = png_get_bit_depth(png, info);
	o->color_type = (uint8_t)ct;
	o->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
	switch (ct) {
	case PNG_COLOR_TYPE_GRAY:
		o->components = 1 + trns;
		break;
	case PNG_COLOR_TYPE_GRAY_ALPHA:
		o->components = 2;
		break;
	case PNG_COLOR_TYPE_RGB_ALPHA:
		o->components = 4;
		break;
	default:	/* RGB, palette */
		o->components = 3 + trns;
		break;
	}
	o->alpha = o->components == 2 || o->components == 4;
}

int dvpp_png_info(const void *data, size_t size, struct dvpp_png_info *info,
		  char *why, size_t why_len)
{
	struct png_src s;
	png_structp png;
	png_infop pi = NULL;
	int err;

	if (!data || !info)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL argument");
	png = open_png(&s, data, size, &pi, &err);
	if (!png)
		return dvpp_codec_fail(why, why_len, err, "%s", s.msg);
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &pi, NULL);
		return dvpp_codec_fail(why, why_len, -EBADMSG, "libpng: %s",
				       s.msg);
	}
	png_read_info(png, pi);
	fill_info(png, pi, info);
	png_destroy_read_struct(&png, &pi, NULL);
	return 0;
}

int dvpp_png_out_layout(uint32_t width, uint32_t height, bool alpha,
			uint32_t out_format, struct dvpp_pic_layout *layout,
			char *why, size_t why_len)
{
	uint32_t fmt = out_format, bpp;

	if (!layout)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL layout");
	if (fmt == DVPP_FMT_UNKNOWN)
		fmt = alpha ? DVPP_FMT_RGBA_8888 : DVPP_FMT_RGB_888;
	if (fmt != DVPP_FMT_RGB_888 &&
	    !(fmt == DVPP_FMT_RGBA_8888 && alpha))
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "PNGD cannot decode a PNG %s alpha to format %u",
				       alpha ? "with" : "without", out_format);
	if (width < DVPP_PNGD_MIN || width > DVPP_PNGD_MAX ||
	    height < DVPP_PNGD_MIN || height > DVPP_PNGD_MAX)
		return dvpp_codec_fail(why, why_len, -ERANGE,
				       "%ux%u is outside PNGD's %ux%u..%ux%u",
				       width, height, DVPP_PNGD_MIN,
				       DVPP_PNGD_MIN, DVPP_PNGD_MAX,
				       DVPP_PNGD_MAX);
	bpp = fmt == DVPP_FMT_RGB_888 ? 3 : 4;
	*layout = (struct dvpp_pic_layout){
		.format = fmt, .width = width, .height = height,
		.width_stride = DVPP_ALIGN_UP(width, 128u) * bpp,
		.height_stride = DVPP_ALIGN_UP(height, 16u),
	};
	layout->size = layout->width_stride * layout->height_stride;
	return 0;
}

/* The transforms that turn any PNG into 8-bit RGB or RGBA rows. */
static void set_transforms(png_structp png, png_infop pi,
			   const struct dvpp_png_info *in, bool rgba)
{
	if (in->color_type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (in->color_type == PNG_COLOR_TYPE_GRAY && in->bit_depth < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (png_get_valid(png, pi, PNG_INFO_tRNS))
		png_set_tRNS_to_alpha(png);
	if (in->bit_depth == 16)
		png_set_strip_16(png);
	if (!(in->color_type & PNG_COLOR_MASK_COLOR))
		png_set_gray_to_rgb(png);
	if (in->alpha && !rgba)
		png_set_strip_alpha(png);
}

static void zero_padding(uint8_t *dst, const struct dvpp_pic_layout *l,
			 size_t row)
{
	uint32_t y;

	for (y = 0; y < l->height; y++)
		memset(dst + (size_t)y * l->width_stride + row, 0,
		       l->width_stride - row);
	memset(dst + (size_t)l->height * l->width_stride, 0,
	       (size_t)(l->height_stride - l->height) * l->width_stride);
}

int dvpp_png_decode(const void *data, size_t size, uint32_t out_format,
		    void *dst, size_t dst_size, struct dvpp_pic_layout *layout,
		    char *why, size_t why_len)
{
	struct dvpp_png_info in;
	struct dvpp_pic_layout l;
	struct png_src s;
	png_structp png;
	png_infop pi = NULL;
	uint8_t *out = dst;
	size_t row;
	int err, passes, pass;
	uint32_t y;

	if (!data || !dst || !layout)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL argument");
	png = open_png(&s, data, size, &pi, &err);
	if (!png)
		return dvpp_codec_fail(why, why_len, err, "%s", s.msg);
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &pi, NULL);
		return dvpp_codec_fail(why, why_len, -EBADMSG, "libpng: %s",
				       s.msg);
	}
	png_read_info(png, pi);
	fill_info(png, pi, &in);
	err = dvpp_png_out_layout(in.width, in.height, in.alpha, out_format,
				  &l, why, why_len);
	if (!err && dst_size < l.size)
		err = dvpp_codec_fail(why, why_len, -ENOSPC,
				      "the output needs %u bytes, the buffer has %zu",
				      l.size, dst_size);
	if (err) {
		png_destroy_read_struct(&png, &pi, NULL);
		return err;
	}
	set_transforms(png, pi, &in, l.format == DVPP_FMT_RGBA_8888);
	passes = png_set_interlace_handling(png);
	png_read_update_info(png, pi);
	row = (size_t)l.width * (l.format == DVPP_FMT_RGB_888 ? 3 : 4);
	if (png_get_rowbytes(png, pi) != row)
		png_error(png, "unexpected row size after the transforms");
	zero_padding(out, &l, row);
	for (pass = 0; pass < passes; pass++)
		for (y = 0; y < l.height; y++)
			png_read_row(png, out + (size_t)y * l.width_stride, NULL);
	png_destroy_read_struct(&png, &pi, NULL);
	*layout = l;
	return 0;
}
