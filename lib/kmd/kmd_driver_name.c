/* SPDX-License-Identifier: MIT */
/* kmd: DRM_IOCTL_VERSION, through libdrm. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <xf86drm.h>

#include "kmd.h"

int kmd_driver_name(int fd, char *name, size_t len)
{
	drmVersionPtr v;
	int err;

	if (!len)
		return -EINVAL;
	errno = 0;
	v = drmGetVersion(fd);
	if (!v) {
		/* ENOTTY: not a DRM node at all. */
		err = errno ? errno : ENODEV;
		return -err;
	}
	snprintf(name, len, "%.*s", v->name_len, v->name ? v->name : "");
	drmFreeVersion(v);
	return 0;
}
