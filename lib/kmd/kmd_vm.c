/* SPDX-License-Identifier: MIT */
/* kmd: physical allocations and VM_RESERVE, VM_RELEASE, VM_MAP, VM_UNMAP. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_bo_create_phys(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_vnpu_bo_create args = {
		.size = size,
		.flags = DRM_VNPU_BO_NO_VA,
		.placement = DRM_VNPU_PLACEMENT_DEVICE,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &args))
		return -errno;
	*handle = args.handle;
	return 0;
}

int kmd_vm_reserve(int fd, uint64_t size, uint64_t align, uint64_t *va)
{
	struct drm_vnpu_vm_reserve args = { .size = size, .align = align };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &args))
		return -errno;
	*va = args.va;
	return 0;
}

int kmd_vm_release(int fd, uint64_t va)
{
	struct drm_vnpu_vm_release args = { .va = va };

	return drmIoctl(fd, DRM_IOCTL_VNPU_VM_RELEASE, &args) ? -errno : 0;
}

int kmd_vm_map(int fd, uint64_t va, uint64_t size, uint64_t offset,
	       uint32_t handle)
{
	struct drm_vnpu_vm_map args = {
		.va = va, .size = size, .offset = offset, .handle = handle,
	};

	return drmIoctl(fd, DRM_IOCTL_VNPU_VM_MAP, &args) ? -errno : 0;
}

int kmd_vm_unmap(int fd, uint64_t va, uint64_t size)
{
	struct drm_vnpu_vm_unmap args = { .va = va, .size = size };

	return drmIoctl(fd, DRM_IOCTL_VNPU_VM_UNMAP, &args) ? -errno : 0;
}
