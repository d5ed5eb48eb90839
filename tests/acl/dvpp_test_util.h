/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the DVPP tests, written the way CANN's samples drive the
 * API: acldvppMalloc'd buffers, picture descriptions set field by field,
 * copies with aclrtMemcpy, a synchronize on the stream.
 */
#ifndef VNPU_TEST_DVPP_UTIL_H
#define VNPU_TEST_DVPP_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* A picture: its description and its acldvppMalloc buffer. */
struct pic {
	acldvppPicDesc *desc;
	void *dev;
	uint32_t size;
};

/* NV12/NV21 and other YUV420SP: ws x hs x 3/2 bytes. */
static inline uint32_t nv12_size(uint32_t ws, uint32_t hs)
{
	return ws * hs * 3 / 2;
}

/* A picture of the format with CANN's strides for VPC (16 and 2). */
static inline int pic_new(struct pic *p, acldvppPixelFormat fmt, uint32_t w,
			  uint32_t h, uint32_t ws, uint32_t hs, uint32_t size)
{
	memset(p, 0, sizeof(*p));
	if (acldvppMalloc(&p->dev, size) != ACL_SUCCESS)
		return -1;
	p->size = size;
	p->desc = acldvppCreatePicDesc();
	if (!p->desc)
		return -1;
	acldvppSetPicDescData(p->desc, p->dev);
	acldvppSetPicDescFormat(p->desc, fmt);
	acldvppSetPicDescWidth(p->desc, w);
	acldvppSetPicDescHeight(p->desc, h);
	acldvppSetPicDescWidthStride(p->desc, ws);
	acldvppSetPicDescHeightStride(p->desc, hs);
	acldvppSetPicDescSize(p->desc, size);
	return 0;
}

/* CANN's VPC strides: 16-aligned and at least 32 bytes, rows even. */
static inline uint32_t vpc_ws(uint32_t w)
{
	return ALIGN_UP(w, 16) < 32 ? 32 : ALIGN_UP(w, 16);
}

static inline int pic_nv12(struct pic *p, acldvppPixelFormat fmt, uint32_t w,
			   uint32_t h)
{
	uint32_t ws = vpc_ws(w), hs = ALIGN_UP(h, 2);

	return pic_new(p, fmt, w, h, ws, hs, nv12_size(ws, hs));
}

static inline void pic_free(struct pic *p)
{
	if (p->desc)
		acldvppDestroyPicDesc(p->desc);
	if (p->dev)
		acldvppFree(p->dev);
	memset(p, 0, sizeof(*p));
}

static inline int pic_put(struct pic *p, const void *host, size_t n)
{
	return aclrtMemcpy(p->dev, p->size, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
}

static inline int pic_get(const struct pic *p, void *host, size_t n)
{
	return aclrtMemcpy(host, n, p->dev, n, ACL_MEMCPY_DEVICE_TO_HOST);
}

/* A deterministic pattern byte. */
static inline uint8_t pat(uint32_t i, uint32_t seed)
{
	uint32_t x = i * 2654435761u + seed * 40503u;

	x ^= x >> 13;
	return (uint8_t)(x * 5 + (x >> 7));
}

#endif /* VNPU_TEST_DVPP_UTIL_H */
