/* SPDX-License-Identifier: MIT */
/*
 * JPEGD on the host: libjpeg-turbo decodes the Y, Cb and Cr planes at the
 * source's own sampling (tjDecompressToYUVPlanes: no colour conversion,
 * no upsampling); this file only lays them out the way JPEGD's output is
 * laid out (dvpp_jpeg_out_layout()) and, where the target format samples
 * chroma more coarsely than the source, averages (dvpp_codec.h says how).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "dvpp_codec.h"

struct plane {
	const uint8_t *p;
	uint32_t w, h;			/* stride is w */
};

static const char *process_name(const struct dvpp_jpeg_info *in)
{
	if (in->precision != 8 && (in->sof == 0xc0 || in->sof == 0xc1))
		return "a sample precision other than 8 bits";
	switch (in->sof) {
	case 0xc2:
		return "progressive coding";
	case 0xc3:
		return "lossless coding";
	case 0xc5: case 0xc6: case 0xc7:
		return "hierarchical coding";
	case 0xc9:
		return "arithmetic coding";
	case 0xca:
		return "progressive arithmetic coding";
	case 0xcb:
		return "lossless arithmetic coding";
	default:
		return "hierarchical arithmetic coding";
	}
}

/* Luma: the picture's rows and columns, edges repeated past the plane. */
static void put_luma(uint8_t *dst, const struct dvpp_pic_layout *l,
		     const struct plane *y)
{
	uint32_t r, x, n = l->width < y->w ? l->width : y->w;

	for (r = 0; r < l->height; r++) {
		const uint8_t *s = y->p + (size_t)(r < y->h ? r : y->h - 1) * y->w;
		uint8_t *d = dst + (size_t)r * l->width_stride;

		memcpy(d, s, n);
		for (x = n; x < l->width; x++)
			d[x] = s[y->w - 1];
		memset(d + l->width, 0, l->width_stride - l->width);
	}
	memset(dst + (size_t)l->height * l->width_stride, 0,
	       (size_t)(l->height_stride - l->height) * l->width_stride);
}

static uint8_t at(const struct plane *c, uint32_t x, uint32_t y)
{
	if (x >= c->w)
		x = c->w - 1;
	if (y >= c->h)
		y = c->h - 1;
	return c->p[(size_t)y * c->w + x];
}

/*
 * Chroma: cw x ch samples, each the rounded mean of rx x ry source
 * samples, interleaved U first or V first; gray (u == NULL) is 0x80.
 */
static void put_chroma(uint8_t *dst, size_t stride, uint32_t rows,
		       uint32_t cw, uint32_t ch, const struct plane *u,
		       const struct plane *v, uint32_t rx, uint32_t ry,
		       bool vu)
{
	uint32_t n = rx * ry, x, y, i, j;

	for (y = 0; y < ch; y++) {
		uint8_t *d = dst + (size_t)y * stride;

		for (x = 0; x < cw; x++) {
			uint32_t su = 0, sv = 0;

			if (!u) {
				d[2 * x] = d[2 * x + 1] = 0x80;
				continue;
			}
			for (j = 0; j < ry; j++)
				for (i = 0; i < rx; i++) {
					su += at(u, x * rx + i, y * ry + j);
					sv += at(v, x * rx + i, y * ry + j);
				}
			su = (su + n / 2) / n;
			sv = (sv + n / 2) / n;
			d[2 * x] = (uint8_t)(vu ? sv : su);
			d[2 * x + 1] = (uint8_t)(vu ? su : sv);
		}
		memset(d + 2 * (size_t)cw, 0, stride - 2 * (size_t)cw);
	}
	memset(dst + (size_t)ch * stride, 0, (size_t)(rows - ch) * stride);
}

static void lay_out(uint8_t *dst, const struct dvpp_pic_layout *l,
		    uint32_t css, const struct plane pl[3])
{
	/* the source's chroma subsampling, then the target's */
	uint32_t sx = css == DVPP_CSS_422 || css == DVPP_CSS_420 ? 2 : 1;
	uint32_t sy = css == DVPP_CSS_420 || css == DVPP_CSS_440 ? 2 : 1;
	uint32_t tx = 2, ty = 2, rows = l->height_stride / 2;
	size_t stride = l->width_stride;
	bool gray = css == DVPP_CSS_GRAY;

	if (l->format == DVPP_FMT_YVU_SP_444) {
		tx = ty = 1;
		rows = l->height_stride;
		stride *= 2;
	} else if (l->format == DVPP_FMT_YVU_SP_422) {
		ty = 1;
		rows = l->height_stride;
	}
	put_luma(dst, l, &pl[0]);
	put_chroma(dst + (size_t)l->width_stride * l->height_stride, stride,
		   rows, l->width / tx, l->height / ty, gray ? NULL : &pl[1],
		   gray ? NULL : &pl[2], gray ? 1 : tx / sx, gray ? 1 : ty / sy,
		   l->format != DVPP_FMT_NV12);
}

static int decode_planes(tjhandle tj, const void *data, size_t size,
			 const struct dvpp_jpeg_info *in, uint8_t *dst,
			 const struct dvpp_pic_layout *l, char *why,
			 size_t why_len)
{
	int w, h, ss, cs, i, nc = in->css == DVPP_CSS_GRAY ? 1 : 3;
	unsigned char *planes[3] = { NULL, NULL, NULL };
	struct plane pl[3] = { { 0 } };
	size_t total = 0;
	uint8_t *buf;
	int ret = 0;

	if (tjDecompressHeader3(tj, data, (unsigned long)size, &w, &h, &ss,
				&cs) < 0)
		return dvpp_codec_fail(why, why_len, -EBADMSG, "libjpeg-turbo: %s",
				       tjGetErrorStr2(tj));
	if ((uint32_t)w != in->width || (uint32_t)h != in->height ||
	    (uint32_t)ss != in->css)
		return dvpp_codec_fail(why, why_len, -EBADMSG,
				       "libjpeg-turbo reads %dx%d sampling %d, the frame header %ux%u sampling %u",
				       w, h, ss, in->width, in->height, in->css);
	if (cs != TJCS_YCbCr && cs != TJCS_GRAY)
		return dvpp_codec_fail(why, why_len, -EOPNOTSUPP,
				       "components coded as %s, not YCbCr",
				       cs == TJCS_RGB ? "RGB" : "CMYK/YCCK");
	for (i = 0; i < nc; i++) {
		pl[i].w = (uint32_t)tjPlaneWidth(i, w, ss);
		pl[i].h = (uint32_t)tjPlaneHeight(i, h, ss);
		total += (size_t)pl[i].w * pl[i].h;
	}
	buf = malloc(total);
	if (!buf)
		return dvpp_codec_fail(why, why_len, -ENOMEM,
				       "no memory for %zu bytes of planes", total);
	for (i = 0, total = 0; i < nc; i++) {
		planes[i] = buf + total;
		pl[i].p = planes[i];
		total += (size_t)pl[i].w * pl[i].h;
	}
	/* A warning (damaged or truncated data) stops the decode. */
	if (tjDecompressToYUVPlanes(tj, data, (unsigned long)size, planes, w,
				    NULL, h, TJFLAG_STOPONWARNING |
				    TJFLAG_LIMITSCANS) < 0)
		ret = dvpp_codec_fail(why, why_len, -EBADMSG, "libjpeg-turbo: %s",
				      tjGetErrorStr2(tj));
	else
		lay_out(dst, l, in->css, pl);
	free(buf);
	return ret;
}

int dvpp_jpeg_decode(const void *data, size_t size, uint32_t out_format,
		     uint32_t align_mode, void *dst, size_t dst_size,
		     struct dvpp_pic_layout *layout, char *why, size_t why_len)
{
	struct dvpp_jpeg_info in;
	struct dvpp_pic_layout l;
	tjhandle tj;
	int ret;

	if (!dst || !layout)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL argument");
	ret = dvpp_jpeg_info(data, size, &in, why, why_len);
	if (ret)
		return ret;
	if (!in.baseline)
		return dvpp_codec_fail(why, why_len, -EOPNOTSUPP,
				       "JPEGD decodes baseline Huffman JPEG only, not %s",
				       process_name(&in));
	ret = dvpp_jpeg_out_layout(in.width, in.height, in.css, out_format,
				   align_mode, &l, why, why_len);
	if (ret)
		return ret;
	if (dst_size < l.size)
		return dvpp_codec_fail(why, why_len, -ENOSPC,
				       "the output needs %u bytes, the buffer has %zu",
				       l.size, dst_size);
	tj = tjInitDecompress();
	if (!tj)
		return dvpp_codec_fail(why, why_len, -ENOMEM,
				       "libjpeg-turbo: %s", tjGetErrorStr2(NULL));
	ret = decode_planes(tj, data, size, &in, dst, &l, why, why_len);
	tjDestroy(tj);
	if (!ret)
		*layout = l;
	return ret;
}
