/* SPDX-License-Identifier: MIT */
/*
 * One device parameter of accel0 read straight from the driver, beside
 * libascendcl: the ACL tests use it to count objects and bytes the
 * runtime really holds.
 */
#ifndef VNPU_PARAM_H
#define VNPU_PARAM_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/vnpu_accel.h>

/* DRM_VNPU_PARAM_* @which of accel0, or UINT64_MAX when it cannot be read. */
static inline uint64_t vnpu_param(uint32_t which)
{
	struct drm_vnpu_get_param p = { .param = which };
	int fd = open("/dev/accel/accel0", O_RDWR);

	if (fd < 0 || ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &p))
		p.value = UINT64_MAX;
	if (fd >= 0)
		close(fd);
	return p.value;
}

static inline uint64_t bo_count(void)
{
	return vnpu_param(DRM_VNPU_PARAM_BO_COUNT);
}

#endif
