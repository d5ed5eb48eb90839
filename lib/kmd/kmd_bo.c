/* SPDX-License-Identifier: MIT */
/* kmd: BO_CREATE, BO_INFO and GEM_CLOSE. */
#include <errno.h>
#include <fcntl.h>
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

int kmd_prime_export(int fd, uint32_t handle, int *dmabuf)
{
	struct drm_prime_handle args = { .handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR };

	if (drmIoctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args))
		return -errno;
	*dmabuf = args.fd;
	return 0;
}

int kmd_prime_import(int fd, int dmabuf, uint32_t *handle, uint64_t *va,
		     uint64_t *size)
{
	struct drm_prime_handle args = { .fd = dmabuf };
	struct drm_vnpu_bo_info info = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args))
		return -errno;
	info.handle = args.handle;
	if (drmIoctl(fd, DRM_IOCTL_VNPU_BO_INFO, &info)) {
		int err = -errno;

		kmd_gem_close(fd, args.handle);
		return err;
	}
	*handle = args.handle;
	*va = info.va;
	*size = info.size;
	return 0;
}
