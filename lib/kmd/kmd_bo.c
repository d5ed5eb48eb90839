/* SPDX-License-Identifier: MIT */
/* kmd: BO_CREATE, BO_INFO and GEM_CLOSE. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_bo_create(int fd, uint64_t size, uint32_t placement,
		  uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create args = {
		.size = size,
		.placement = placement,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &args))
		return -errno;
	*handle = args.handle;
	*va = args.va;
	return 0;
}

int kmd_bo_create_user(int fd, uint64_t size, uint64_t user_ptr,
		       uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create args = {
		.size = size,
		.placement = DRM_VNPU_PLACEMENT_USER,
		.user_ptr = user_ptr,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &args))
		return -errno;
	*handle = args.handle;
	*va = args.va;
	return 0;
}

int kmd_bo_info(int fd, uint32_t handle, uint64_t *mmap_offset)
{
	struct drm_vnpu_bo_info args = { .handle = handle };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_BO_INFO, &args))
		return -errno;
	*mmap_offset = args.mmap_offset;
	return 0;
}

int kmd_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	if (drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &args))
		return -errno;
	return 0;
}
