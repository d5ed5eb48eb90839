// SPDX-License-Identifier: MIT
/*
 * The VPC's pixel formats (dvpp-api §8.1's table). Semi-planar YUV keeps
 * the luma rows first (width stride bytes each, height stride rows), then
 * the interleaved chroma plane: half as many rows for 4:2:0, as many for
 * 4:2:2, and rows twice as long for 4:4:4. Packed formats have one plane.
 */
#include <stddef.h>

#include "dvpp.h"
#include "dvpp_format.h"

static const struct dvpp_format formats[] = {
	{ PIXEL_FORMAT_YUV_400, "YUV400", 1, 1, 1, 2, true },
	{ PIXEL_FORMAT_YUV_SEMIPLANAR_420, "YUV420SP (NV12)", 1, 2, 2, 3, true },
	{ PIXEL_FORMAT_YVU_SEMIPLANAR_420, "YVU420SP (NV21)", 1, 2, 2, 3, true },
	{ PIXEL_FORMAT_YUV_SEMIPLANAR_422, "YUV422SP", 1, 2, 1, 4, true },
	{ PIXEL_FORMAT_YVU_SEMIPLANAR_422, "YVU422SP", 1, 2, 1, 4, true },
	{ PIXEL_FORMAT_YUV_SEMIPLANAR_444, "YUV444SP", 1, 1, 1, 6, true },
	{ PIXEL_FORMAT_YVU_SEMIPLANAR_444, "YVU444SP", 1, 1, 1, 6, true },
	{ PIXEL_FORMAT_YUYV_PACKED_422, "YUYV", 2, 2, 1, 2, true },
	{ PIXEL_FORMAT_UYVY_PACKED_422, "UYVY", 2, 2, 1, 2, true },
	{ PIXEL_FORMAT_YVYU_PACKED_422, "YVYU", 2, 2, 1, 2, true },
	{ PIXEL_FORMAT_VYUY_PACKED_422, "VYUY", 2, 2, 1, 2, true },
	{ PIXEL_FORMAT_YUV_PACKED_444, "YUV444 packed", 3, 1, 1, 2, true },
	{ PIXEL_FORMAT_RGB_888, "RGB888", 3, 1, 1, 2, false },
	{ PIXEL_FORMAT_BGR_888, "BGR888", 3, 1, 1, 2, false },
	{ PIXEL_FORMAT_ARGB_8888, "ARGB8888", 4, 1, 1, 2, false },
	{ PIXEL_FORMAT_ABGR_8888, "ABGR8888", 4, 1, 1, 2, false },
	{ PIXEL_FORMAT_RGBA_8888, "RGBA8888", 4, 1, 1, 2, false },
	{ PIXEL_FORMAT_BGRA_8888, "BGRA8888", 4, 1, 1, 2, false },
};

const struct dvpp_format *dvpp_format_find(uint32_t format)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].format == format)
			return &formats[i];
	return NULL;
}

uint64_t dvpp_format_bytes(const struct dvpp_format *f, uint32_t width_stride,
			   uint32_t height_stride)
{
	return (uint64_t)width_stride * height_stride * f->size_x2 / 2;
}

uint32_t dvpp_format_width_stride(const struct dvpp_format *f, uint32_t width)
{
	return dvpp_align_up(width * f->row_bytes, 16);
}

uint32_t dvpp_format_height_stride(uint32_t height)
{
	return dvpp_align_up(height, 2);
}
