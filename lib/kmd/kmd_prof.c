/* SPDX-License-Identifier: MIT */
/* kmd: DRM_IOCTL_VNPU_PROF_CTL (UAPI 1.8). */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_prof_ctl(int fd, struct drm_vnpu_prof_ctl *ctl)
{
	if (drmIoctl(fd, DRM_IOCTL_VNPU_PROF_CTL, ctl))
		return -errno;
	return 0;
}
