/* SPDX-License-Identifier: MIT */
/*
 * Memory of other devices. Each device is its own fd and address space,
 * but the driver starts each device's DEVICE VAs at its own offset, so
 * the allocators' bounds tell whose aclrtMalloc pointer p is (the current
 * device wins if bounds ever overlap).
 *
 * A copy between two devices bounces through a host buffer: a D2H MEMCPY
 * on the source's fd, then an H2D MEMCPY on the destination's. Ordering
 * is that of copies with pageable memory: an async copy first waits for
 * its stream's earlier work, and both devices' submitted work is drained
 * first so the copy sees every earlier write; the call returns when the
 * data has arrived, so later work of every stream sees it too.
 */
#include <errno.h>
#include <stdlib.h>

#include "../kmd/kmd.h"
#include "rt_objects.h"
#include "runtime.h"
#include "vmm.h"

#define BOUNCE_MAX	(4u << 20)

static bool in_device_range(const void *p)
{
	uint64_t a = (uintptr_t)p;

	return (a >= DRM_VNPU_VA_DEVICE_START &&
		a < DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE) ||
	       vmm_in_window(a);
}

struct rt_device *ptr_device(struct rt_device *cur, const void *p)
{
	uint64_t va = (uintptr_t)p;

	if (!in_device_range(p))
		return NULL;
	if (cur && (alloc_owns(cur, va) || vmm_owns(cur, va)))
		return cur;
	for (int i = 0; i < VNPU_MAX_DEVICES; i++) {
		struct rt_device *d = device_by_id(i);

		if (d != cur && (alloc_owns(d, va) || vmm_owns(d, va)))
			return d;
	}
	return NULL;
}

struct rt_device *ptr_host_device(struct rt_device *cur, const void *p)
{
	if (cur && alloc_host_va(cur, p, 1))
		return cur;
	for (int i = 0; i < VNPU_MAX_DEVICES; i++) {
		struct rt_device *d = device_by_id(i);

		if (d != cur && alloc_host_va(d, p, 1))
			return d;
	}
	return NULL;
}

/* kmd_memcpy, turning a device page fault into -ENOEXEC with details. */
static int dev_memcpy(struct rt_device *d, uint64_t dst, uint64_t src,
		      size_t n, uint32_t flags)
{
	struct drm_vnpu_fault_info fi;
	int ret = kmd_memcpy(d->fd, dst, src, n, flags);

	if (ret == -ENXIO && !kmd_fault_info(d->fd, &fi)) {
		core_detail("device page fault on device %d at address 0x%llx (%s)",
			    d->id, (unsigned long long)fi.va,
			    fi.access == DRM_VNPU_ACCESS_WRITE ? "write" : "read");
		return -ENOEXEC;
	}
	return ret;
}

static int bounce(struct rt_device *dd, void *dst, struct rt_device *sd,
		  const void *src, size_t count)
{
	size_t chunk = count < BOUNCE_MAX ? count : BOUNCE_MAX;
	uint8_t *buf = malloc(chunk);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (size_t off = 0; !ret && off < count; off += chunk) {
		size_t n = count - off < chunk ? count - off : chunk;

		ret = dev_memcpy(sd, (uintptr_t)buf, (uintptr_t)src + off, n,
				 DRM_VNPU_MEMCPY_SRC_DEVICE);
		if (!ret)
			ret = dev_memcpy(dd, (uintptr_t)dst + off,
					 (uintptr_t)buf, n,
					 DRM_VNPU_MEMCPY_DST_DEVICE);
	}
	free(buf);
	return ret;
}

/* Every device side is one device's: a plain MEMCPY on its fd. */
static int one_device(struct rt_device *d, void *dst, bool ddev,
		      const void *src, bool sdev, size_t count)
{
	uint32_t flags = (ddev ? DRM_VNPU_MEMCPY_DST_DEVICE : 0) |
			 (sdev ? DRM_VNPU_MEMCPY_SRC_DEVICE : 0);

	return dev_memcpy(d, (uintptr_t)dst, (uintptr_t)src, count, flags);
}

int xcopy(struct rt_device *cur, struct rt_stream *s, void *dst,
	  const void *src, size_t count, int *ret)
{
	struct rt_device *sd = ptr_device(cur, src), *dd = ptr_device(cur, dst);

	if ((!sd || sd == cur) && (!dd || dd == cur))
		return 0;	/* the common case: nothing of another device */
	/* An unknown device-range pointer is the current device's. */
	if (!sd && in_device_range(src))
		sd = cur;
	if (!dd && in_device_range(dst))
		dd = cur;
	*ret = s ? stream_drain(s) : 0;
	if (*ret)
		return 1;
	if (sd)
		device_drain(sd);
	if (dd && dd != sd)
		device_drain(dd);
	if (sd && dd && sd != dd)
		*ret = bounce(dd, dst, sd, src, count);
	else
		*ret = one_device(sd ? sd : dd, dst, dd != NULL, src, sd != NULL,
				  count);
	return 1;
}
