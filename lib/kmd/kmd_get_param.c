/* SPDX-License-Identifier: MIT */
/* kmd: DRM_IOCTL_VNPU_GET_PARAM. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value)
{
	struct drm_vnpu_get_param args = {
		.param = param,
		.index = index,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &args))
		return -errno;
	*value = args.value;
	return 0;
}
