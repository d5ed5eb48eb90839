/* SPDX-License-Identifier: MIT */
/*
 * Copies and fills. A pointer has a device VA when it lies in the DEVICE
 * VA range (aclrtMalloc) or inside aclrtMallocHost memory; other host
 * memory is "pageable".
 *
 * Synchronous copies first wait for all work submitted on the device (so
 * they see the results of earlier async calls of every stream; not inside
 * a host callback, whose stream waits for it), then use
 * DRM_IOCTL_VNPU_MEMCPY; host-to-host is memcpy(). Async copies with a
 * device VA on both sides are COPY tasks on the stream; with pageable
 * memory on either side they wait for the stream and copy synchronously,
 * as ACL does. Fills are FILL tasks with a one-byte pattern.
 */
#include <errno.h>
#include <string.h>

#include "../kmd/kmd.h"
#include "graph.h"
#include "rt_objects.h"
#include "vmm.h"

uint64_t copy_side_va(struct rt_device *dev, const void *p, size_t len)
{
	uint64_t a = (uintptr_t)p;

	if (a >= DRM_VNPU_VA_DEVICE_START &&
	    a < DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE)
		return a;
	/* Reserved device VAs (aclrtReserveMemAddress); the MMU checks them. */
	if (vmm_in_window(a))
		return a;
	/* The devPtr of aclrtHostRegister memory. */
	if (a >= DRM_VNPU_VA_USER_START &&
	    a < DRM_VNPU_VA_USER_START + DRM_VNPU_VA_RANGE_SIZE)
		return a;
	return alloc_host_va(dev, p, len);
}

static const char *reason(uint32_t r)
{
	return r == DRM_VNPU_FAULT_UNMAPPED ? "nothing mapped there" :
	       r == DRM_VNPU_FAULT_BOUNDS ? "past the end of an allocation" :
	       r == DRM_VNPU_FAULT_READ_ONLY ? "read-only memory" : "unknown";
}

/* The copy itself, once earlier work is done. */
static int copy_now(struct rt_device *dev, void *dst, const void *src,
		    size_t count)
{
	uint64_t dva = copy_side_va(dev, dst, count);
	uint64_t sva = copy_side_va(dev, src, count);
	struct drm_vnpu_fault_info fi;
	uint32_t flags = 0;
	int ret;

	if (!dva && !sva) {
		memmove(dst, src, count);
		return 0;
	}
	if (dva)
		flags |= DRM_VNPU_MEMCPY_DST_DEVICE;
	if (sva)
		flags |= DRM_VNPU_MEMCPY_SRC_DEVICE;
	ret = kmd_memcpy(dev->fd, dva ? dva : (uintptr_t)dst,
			 sva ? sva : (uintptr_t)src, count, flags);
	if (ret == -ENXIO && !kmd_fault_info(dev->fd, &fi)) {
		core_detail("device page fault at address 0x%llx (%s, %s)",
			    (unsigned long long)fi.va,
			    fi.access == DRM_VNPU_ACCESS_WRITE ? "write" : "read",
			    reason(fi.reason));
		return -ENOEXEC;
	}
	return ret;
}

/*
 * Pageable host memory makes an async call synchronous: a capturing
 * stream cannot record that, and the capture mode may forbid it.
 */
int copy_pageable_allowed(struct rt_stream *s)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	if (s->graph) {
		ret = -CAPERR_PAGEABLE;
		graph_invalidate_locked(s, ret,
					"an async copy or memset of pageable host memory was issued to the capturing stream");
	}
	pthread_mutex_unlock(&s->lock);
	if (!ret && graph_unsafe_allowed())
		ret = -CAPERR_BLOCK_ASYNC;
	return ret;
}

int copy_sync(struct rt_context *ctx, void *dst, const void *src,
	      size_t count)
{
	struct rt_device *dev = ctx->dev;
	int ret = graph_unsafe_allowed();

	if (ret)
		return ret;
	if (xcopy(dev, NULL, dst, src, count, &ret))
		return ret;	/* another device's memory */
	/*
	 * In a callback (pyACL samples post-process results there with
	 * aclrtMemcpy) the drain would wait for the callback's own stream,
	 * which waits for the callback: copy at once, as ACL's aclrtMemcpy
	 * always does. The stream's work before the callback is done.
	 */
	if ((copy_side_va(dev, dst, count) || copy_side_va(dev, src, count)) &&
	    !cb_running_here())
		device_drain(dev);
	return copy_now(dev, dst, src, count);
}

int copy_async(struct rt_stream *s, void *dst, const void *src, size_t count)
{
	struct rt_device *dev = s->ctx->dev;
	uint64_t dva = copy_side_va(dev, dst, count);
	uint64_t sva = copy_side_va(dev, src, count);
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_COPY };
	int ret;

	if (xcopy(dev, s, dst, src, count, &ret))
		return ret;	/* another device's memory */
	if (dva && sva) {
		t.copy.src = sva;
		t.copy.dst = dva;
		t.copy.size = count;
		return stream_push(s, &t, NULL);
	}
	/* A built graph keeps a pinned copy of pageable data (graph_switch.c). */
	if (dva && !sva) {
		uint64_t staged = 0;

		ret = graph_stage_pageable(s, src, count, &staged);
		if (ret <= 0) {
			t.copy.src = staged;
			t.copy.dst = dva;
			t.copy.size = count;
			return ret ? ret : stream_push(s, &t, NULL);
		}
	}
	ret = copy_pageable_allowed(s);
	if (!ret)
		ret = stream_drain(s);
	return ret ? ret : copy_now(dev, dst, src, count);
}

int fill_async(struct rt_stream *s, void *ptr, uint8_t value, size_t count)
{
	uint64_t va = copy_side_va(s->ctx->dev, ptr, count);
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_FILL };
	int ret;

	if (va) {
		t.fill.dst = va;
		t.fill.size = count;
		t.fill.pattern = value;
		t.fill.pattern_size = 1;
		return stream_push(s, &t, NULL);
	}
	ret = copy_pageable_allowed(s);
	if (!ret)
		ret = stream_drain(s);
	if (!ret)
		memset(ptr, value, count);
	return ret;
}

/*
 * aclrtMemset. Pinned host memory (aclrtMallocHost, registered) is set at
 * once by the CPU, without waiting for any stream, as ACL documents; a
 * range that runs past its allocation is refused. Anything else is a
 * FILL on the default stream, waited for.
 */
int fill_sync(struct rt_context *ctx, void *ptr, uint8_t value, size_t count)
{
	struct rt_device *host_dev;
	int ret = graph_unsafe_allowed();

	if (ret)
		return ret;
	host_dev = ptr_host_device(ctx->dev, ptr);
	if (host_dev) {
		if (!alloc_host_va(host_dev, ptr, count))
			return -EINVAL;
		memset(ptr, value, count);
		return 0;
	}
	ret = fill_async(ctx->default_stream, ptr, value, count);

	return ret ? ret : stream_sync(ctx->default_stream, -1);
}

/*
 * aclrtMemcpy2d(Async): one COPY_2D task when both sides have device VAs,
 * else row by row after the stream's work (pageable memory).
 */
int copy_2d(struct rt_stream *s, void *dst, size_t dpitch, const void *src,
	    size_t spitch, size_t width, size_t height)
{
	struct rt_device *dev = s->ctx->dev;
	size_t dlen = dpitch * (height - 1) + width;
	size_t slen = spitch * (height - 1) + width;
	uint64_t dva = copy_side_va(dev, dst, dlen);
	uint64_t sva = copy_side_va(dev, src, slen);
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_COPY_2D };
	int ret;

	if (dva && sva) {
		t.copy_2d.src = sva;
		t.copy_2d.dst = dva;
		t.copy_2d.src_pitch = spitch;
		t.copy_2d.dst_pitch = dpitch;
		t.copy_2d.width = width;
		t.copy_2d.height = height;
		return stream_push(s, &t, NULL);
	}
	ret = copy_pageable_allowed(s);
	if (!ret)
		ret = stream_drain(s);
	for (size_t r = 0; !ret && r < height; r++)
		ret = copy_now(dev, (char *)dst + r * dpitch,
			       (const char *)src + r * spitch, width);
	return ret;
}
