/* SPDX-License-Identifier: MIT */
/* kmd: MEMCPY (synchronous copies) and FAULT_INFO. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_memcpy(int fd, uint64_t dst, uint64_t src, uint64_t size,
	       uint32_t flags)
{
	struct drm_vnpu_memcpy args = {
		.dst = dst,
		.src = src,
		.size = size,
		.flags = flags,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_MEMCPY, &args))
		return -errno;
	return 0;
}

int kmd_fault_info(int fd, struct drm_vnpu_fault_info *info)
{
	*info = (struct drm_vnpu_fault_info){ 0 };
	if (drmIoctl(fd, DRM_IOCTL_VNPU_FAULT_INFO, info))
		return -errno;
	return 0;
}
