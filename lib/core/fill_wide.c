/* SPDX-License-Identifier: MIT */
/*
 * Fills with a pattern wider than a byte (aclrtMemsetD32): one FILL task
 * when the range has a device VA, else a host loop after the stream's
 * work, as the byte fill does for pageable memory.
 */
#include <string.h>

#include "rt_objects.h"

int fill_wide_async(struct rt_stream *s, void *ptr, uint64_t pattern,
		    uint32_t psize, size_t bytes)
{
	uint64_t va = copy_side_va(s->ctx->dev, ptr, bytes);
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_FILL };
	int ret;

	if (va) {
		t.fill.dst = va;
		t.fill.size = bytes;
		t.fill.pattern = pattern;
		t.fill.pattern_size = psize;
		return stream_push(s, &t, NULL);
	}
	ret = copy_pageable_allowed(s);
	if (!ret)
		ret = stream_drain(s);
	for (size_t off = 0; !ret && off < bytes; off += psize)
		memcpy((char *)ptr + off, &pattern, psize);	/* little-endian */
	return ret;
}
