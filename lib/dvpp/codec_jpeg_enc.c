/* SPDX-License-Identifier: MIT */
/*
 * JPEGE on the host: the input's planes go to libjpeg-turbo as they are
 * (tjCompressFromYUVPlanes: NV12/NV21 as 4:2:0, packed 4:2:2 as 4:2:2,
 * no resampling, no colour conversion); it writes a baseline Huffman
 * JFIF. CANN's rules on the input (Ascend 310/910) are checked here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "dvpp_codec.h"

static bool is_packed(uint32_t format)
{
	return format == DVPP_FMT_YUYV_422 || format == DVPP_FMT_UYVY_422 ||
	       format == DVPP_FMT_YVYU_422 || format == DVPP_FMT_VYUY_422;
}

static int check_picture(uint32_t format, uint32_t width, uint32_t height,
			 char *why, size_t why_len)
{
	bool nv = format == DVPP_FMT_NV12 || format == DVPP_FMT_NV21;

	if (!nv && !is_packed(format))
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "JPEGE does not encode format %u", format);
	if (width < DVPP_JPEGE_MIN || width > DVPP_JPEGE_MAX ||
	    height < DVPP_JPEGE_MIN || height > DVPP_JPEGE_MAX)
		return dvpp_codec_fail(why, why_len, -ERANGE,
				       "%ux%u is outside JPEGE's %ux%u..%ux%u",
				       width, height, DVPP_JPEGE_MIN,
				       DVPP_JPEGE_MIN, DVPP_JPEGE_MAX,
				       DVPP_JPEGE_MAX);
	if (width % 2 || (nv && height % 2))
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "format %u needs an even %s, not %ux%u",
				       format, width % 2 ? "width" : "height",
				       width, height);
	return 0;
}

int dvpp_jpeg_predict_enc_size(uint32_t format, uint32_t width,
			       uint32_t height, uint32_t *size, char *why,
			       size_t why_len)
{
	unsigned long n;
	int ret;

	if (!size)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL size");
	ret = check_picture(format, width, height, why, why_len);
	if (ret)
		return ret;
	n = tjBufSize((int)width, (int)height,
		      is_packed(format) ? TJSAMP_422 : TJSAMP_420);
	if (n == (unsigned long)-1 || n > UINT32_MAX)
		return dvpp_codec_fail(why, why_len, -ERANGE,
				       "no size bound for %ux%u", width, height);
	*size = (uint32_t)n;
	return 0;
}

/* The packed layouts: where Y0, U, Y1 and V sit in each 4 bytes. */
static void packed_offsets(uint32_t format, int *y0, int *u, int *y1, int *v)
{
	switch (format) {
	case DVPP_FMT_YUYV_422:
		*y0 = 0, *u = 1, *y1 = 2, *v = 3;
		break;
	case DVPP_FMT_UYVY_422:
		*u = 0, *y0 = 1, *v = 2, *y1 = 3;
		break;
	case DVPP_FMT_YVYU_422:
		*y0 = 0, *v = 1, *y1 = 2, *u = 3;
		break;
	default:	/* VYUY */
		*v = 0, *y0 = 1, *u = 2, *y1 = 3;
		break;
	}
}

/* Splits the input into the Y, U and V planes libjpeg-turbo takes. */
static uint8_t *split_planes(const uint8_t *src, uint32_t format, uint32_t w,
			     uint32_t h, uint32_t ws, uint32_t hs,
			     const unsigned char *planes[3], int strides[3])
{
	bool packed = is_packed(format);
	uint32_t cw = w / 2, ch = packed ? h : h / 2, x, y;
	size_t luma = packed ? (size_t)w * h : 0;
	uint8_t *buf = malloc(luma + 2 * (size_t)cw * ch);
	uint8_t *yp = buf, *up = buf + luma, *vp = up + (size_t)cw * ch;
	int oy0, ou, oy1, ov;

	if (!buf)
		return NULL;
	strides[1] = strides[2] = (int)cw;
	planes[1] = up;
	planes[2] = vp;
	if (!packed) {
		const uint8_t *uv = src + (size_t)ws * hs;
		bool vu = format == DVPP_FMT_NV21;

		planes[0] = src;
		strides[0] = (int)ws;
		for (y = 0; y < ch; y++)
			for (x = 0; x < cw; x++) {
				const uint8_t *s = uv + (size_t)y * ws + 2 * x;

				up[(size_t)y * cw + x] = s[vu];
				vp[(size_t)y * cw + x] = s[!vu];
			}
		return buf;
	}
	packed_offsets(format, &oy0, &ou, &oy1, &ov);
	planes[0] = yp;
	strides[0] = (int)w;
	for (y = 0; y < h; y++)
		for (x = 0; x < cw; x++) {
			const uint8_t *s = src + (size_t)y * ws + 4 * x;
			size_t c = (size_t)y * cw + x;

			yp[(size_t)y * w + 2 * x] = s[oy0];
			yp[(size_t)y * w + 2 * x + 1] = s[oy1];
			up[c] = s[ou];
			vp[c] = s[ov];
		}
	return buf;
}

static int check_strides(uint32_t format, uint32_t width, uint32_t height,
			 uint32_t ws, uint32_t hs, size_t src_size, char *why,
			 size_t why_len)
{
	bool packed = is_packed(format);
	uint64_t row = packed ? 2 * (uint64_t)width : width;
	uint64_t need = (uint64_t)ws * hs;

	if (ws % 16 || ws < row)
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "width stride %u: a multiple of 16 of at least %llu",
				       ws, (unsigned long long)row);
	if (hs < height || (!packed && hs % 2))
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "height stride %u: %sat least %u", hs,
				       packed ? "" : "even and ", height);
	if (!packed)
		need = need / 2 * 3;
	if (src_size < need)
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "the input holds %zu bytes, its strides need %llu",
				       src_size, (unsigned long long)need);
	return 0;
}

int dvpp_jpeg_encode(const void *src, size_t src_size, uint32_t format,
		     uint32_t width, uint32_t height, uint32_t width_stride,
		     uint32_t height_stride, uint32_t level, void *out,
		     size_t *out_size, char *why, size_t why_len)
{
	const unsigned char *planes[3];
	unsigned char *jpeg = NULL;
	unsigned long jpeg_size = 0;
	int strides[3], ret;
	uint8_t *buf;
	tjhandle tj;

	if (!src || !out || !out_size)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL argument");
	ret = check_picture(format, width, height, why, why_len);
	if (!ret)
		ret = check_strides(format, width, height, width_stride,
				    height_stride, src_size, why, why_len);
	if (ret)
		return ret;
	if (level > 100)
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "level %u is not 0..100", level);
	buf = split_planes(src, format, width, height, width_stride,
			   height_stride, planes, strides);
	if (!buf)
		return dvpp_codec_fail(why, why_len, -ENOMEM, "no memory");
	tj = tjInitCompress();
	if (!tj) {
		free(buf);
		return dvpp_codec_fail(why, why_len, -ENOMEM,
				       "libjpeg-turbo: %s", tjGetErrorStr2(NULL));
	}
	/* CANN: level 0 encodes as 100 does. */
	if (tjCompressFromYUVPlanes(tj, planes, (int)width, strides,
				    (int)height,
				    is_packed(format) ? TJSAMP_422 : TJSAMP_420,
				    &jpeg, &jpeg_size, level ? (int)level : 100,
				    0) < 0)
		ret = dvpp_codec_fail(why, why_len, -ENOMEM, "libjpeg-turbo: %s",
				      tjGetErrorStr2(tj));
	else if (jpeg_size > *out_size)
		ret = dvpp_codec_fail(why, why_len, -ENOSPC,
				      "the JPEG takes %lu bytes, the buffer has %zu",
				      jpeg_size, *out_size);
	else
		memcpy(out, jpeg, jpeg_size);
	if (!ret || ret == -ENOSPC)
		*out_size = jpeg_size;
	tjFree(jpeg);
	tjDestroy(tj);
	free(buf);
	return ret;
}
