/* SPDX-License-Identifier: MIT */
/*
 * The pixel formats the VPC takes (dvpp_format.c): how a picture of each
 * lies in its buffer, and CANN's stride rules.
 */
#ifndef VNPU_DVPP_FORMAT_H
#define VNPU_DVPP_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

struct dvpp_format {
	uint32_t format;	/* acldvppPixelFormat */
	const char *name;
	uint8_t row_bytes;	/* bytes per pixel of the first plane's rows */
	uint8_t w_align;	/* width (and crop) granularity: 1 or 2 */
	uint8_t h_align;	/* height granularity: 1 or 2 */
	uint8_t size_x2;	/* buffer = ws * hs * size_x2 / 2 */
	bool yuv;		/* a YUV format (else RGB) */
};

/* The format's description, or NULL when the VPC does not take it. */
const struct dvpp_format *dvpp_format_find(uint32_t format);

static inline uint32_t dvpp_align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/* Bytes a width x height picture needs with these strides (no overflow). */
uint64_t dvpp_format_bytes(const struct dvpp_format *f, uint32_t width_stride,
			   uint32_t height_stride);

/*
 * CANN's strides for a width x height picture of f: the row bytes aligned
 * up to 16, the height up to 2.
 */
uint32_t dvpp_format_width_stride(const struct dvpp_format *f, uint32_t width);
uint32_t dvpp_format_height_stride(uint32_t height);

#endif /* VNPU_DVPP_FORMAT_H */
