/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Pictures for the VPC tests, written from Documentation/vpc.md's layout
 * table rather than from the operator's format table: buffer sizes and
 * the address of each pixel's Y, U, V or R, G, B, A byte. Plain C, so
 * that the OpenCV test (C++) includes it too.
 */
#ifndef VNPU_VPC_TEST_PIC_H
#define VNPU_VPC_TEST_PIC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define F_YUV400	0
#define F_NV12		1
#define F_NV21		2
#define F_YUV422SP	3
#define F_YVU422SP	4
#define F_YUV444SP	5
#define F_YVU444SP	6
#define F_YUYV		7
#define F_UYVY		8
#define F_YVYU		9
#define F_VYUY		10
#define F_YUV444P	11
#define F_RGB888	12
#define F_BGR888	13
#define F_ARGB		14
#define F_ABGR		15
#define F_RGBA		16
#define F_BGRA		17
#define F_COUNT		18

struct pic {
	uint32_t fmt;
	int32_t w, h, ws, hs;
	size_t size;
	uint8_t *buf;
};

static inline int pic_is_rgb(uint32_t f)
{
	return f >= F_RGB888;
}

static inline int pic_has_alpha(uint32_t f)
{
	return f >= F_ARGB;
}

static inline int pic_has_chroma(uint32_t f)
{
	return f != F_YUV400 && !pic_is_rgb(f);
}

/* Chroma subsampling: horizontal and vertical divisors. */
static inline int pic_sx(uint32_t f)
{
	return (f >= F_NV12 && f <= F_YVU422SP) || (f >= F_YUYV && f <= F_VYUY) ? 2 : 1;
}

static inline int pic_sy(uint32_t f)
{
	return f == F_NV12 || f == F_NV21 ? 2 : 1;
}

/* Bytes per pixel of the first plane's rows. */
static inline int pic_bpp(uint32_t f)
{
	if (f >= F_YUYV && f <= F_VYUY)
		return 2;
	if (f >= F_YUV444P && f <= F_BGR888)
		return 3;
	if (f >= F_ARGB)
		return 4;
	return 1;
}

static inline size_t pic_bytes(uint32_t f, int32_t ws, int32_t hs)
{
	size_t p = (size_t)ws * hs;

	switch (f) {
	case F_NV12: case F_NV21:
		return p + (size_t)ws * (hs / 2);
	case F_YUV422SP: case F_YVU422SP:
		return 2 * p;
	case F_YUV444SP: case F_YVU444SP:
		return 3 * p;
	default:
		return p;
	}
}

/* A picture with the smallest strides (width stride 16-aligned unless @tight). */
static inline void pic_make(struct pic *p, uint32_t f, int32_t w, int32_t h,
			    int tight)
{
	p->fmt = f;
	p->w = w;
	p->h = h;
	p->ws = w * pic_bpp(f);
	if (!tight)
		p->ws = (p->ws + 15) & ~15;
	p->hs = h + (h & 1);
	p->size = pic_bytes(f, p->ws, p->hs);
	p->buf = (uint8_t *)malloc(p->size + 1);
}

static inline void pic_free(struct pic *p)
{
	free(p->buf);
	p->buf = NULL;
}

static inline uint64_t pic_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline void pic_fill(struct pic *p, uint64_t seed)
{
	uint64_t s = seed * 2654435761u + 99;
	size_t i;

	for (i = 0; i < p->size; i++)
		p->buf[i] = (uint8_t)(pic_rand(&s) >> 24);
}

/* Channel @c (0 Y, 1 U, 2 V) of the pixel at (x, y) of a YUV picture. */
static inline uint8_t *pic_yuv(const struct pic *p, int x, int y, int c)
{
	uint8_t *row = p->buf + (size_t)y * p->ws, *cbase;
	int sx = pic_sx(p->fmt), sy = pic_sy(p->fmt), ustart = 0;
	size_t cstride;

	switch (p->fmt) {
	case F_YUYV: /* Y0 U Y1 V */
		return c == 0 ? row + 2 * x : row + (x / 2) * 4 + (c == 1 ? 1 : 3);
	case F_UYVY: /* U Y0 V Y1 */
		return c == 0 ? row + 2 * x + 1 : row + (x / 2) * 4 + (c == 1 ? 0 : 2);
	case F_YVYU: /* Y0 V Y1 U */
		return c == 0 ? row + 2 * x : row + (x / 2) * 4 + (c == 1 ? 3 : 1);
	case F_VYUY: /* V Y0 U Y1 */
		return c == 0 ? row + 2 * x + 1 : row + (x / 2) * 4 + (c == 1 ? 2 : 0);
	case F_YUV444P:
		return row + 3 * x + c;
	}
	if (c == 0)
		return row + x;
	cbase = p->buf + (size_t)p->ws * p->hs;
	cstride = (size_t)p->ws * (p->fmt == F_YUV444SP || p->fmt == F_YVU444SP ? 2 : 1);
	if (p->fmt == F_NV21 || p->fmt == F_YVU422SP || p->fmt == F_YVU444SP)
		ustart = 1;
	return cbase + (size_t)(y / sy) * cstride + 2 * (x / sx) +
	       (c == 1 ? ustart : 1 - ustart);
}

/* Channel @c (0 R, 1 G, 2 B, 3 A) of the pixel at (x, y) of an RGB picture. */
static inline uint8_t *pic_rgb(const struct pic *p, int x, int y, int c)
{
	static const int8_t offs[6][4] = {
		{ 0, 1, 2, -1 }, { 2, 1, 0, -1 },	/* RGB, BGR */
		{ 1, 2, 3, 0 }, { 3, 2, 1, 0 },		/* ARGB, ABGR */
		{ 0, 1, 2, 3 }, { 2, 1, 0, 3 },		/* RGBA, BGRA */
	};

	return p->buf + (size_t)y * p->ws + (size_t)x * pic_bpp(p->fmt) +
	       offs[p->fmt - F_RGB888][c];
}

#endif /* VNPU_VPC_TEST_PIC_H */
