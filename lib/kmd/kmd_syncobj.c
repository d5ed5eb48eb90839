/* SPDX-License-Identifier: MIT */
/* kmd: the core DRM syncobj ioctls used on queue timelines. */
#include <errno.h>
#include <xf86drm.h>

#include "kmd.h"

int kmd_syncobj_wait(int fd, uint32_t handle, uint64_t point,
		     int64_t abs_timeout_ns)
{
	struct drm_syncobj_timeline_wait args = {
		.handles = (uintptr_t)&handle,
		.points = (uintptr_t)&point,
		.timeout_nsec = abs_timeout_ns,
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	if (drmIoctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &args))
		return -errno;
	return 0;
}

int kmd_syncobj_query(int fd, uint32_t handle, uint64_t *point)
{
	struct drm_syncobj_timeline_array args = {
		.handles = (uintptr_t)&handle,
		.points = (uintptr_t)point,
		.count_handles = 1,
	};

	if (drmIoctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &args))
		return -errno;
	return 0;
}

int kmd_syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy args = { .handle = handle };

	if (drmIoctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &args))
		return -errno;
	return 0;
}

int kmd_syncobj_create(int fd, uint32_t *handle)
{
	struct drm_syncobj_create args = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &args))
		return -errno;
	*handle = args.handle;
	return 0;
}
