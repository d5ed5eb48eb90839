/* SPDX-License-Identifier: MIT */
/*
 * UAPI compatibility: the major number must match exactly; the driver's
 * minor must be at least the one this library was built against, since a
 * newer library may use ioctls an older driver lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <drm/vnpu_accel.h>

#include "uapi_check.h"

int uapi_check(uint64_t version, char *why, size_t len)
{
	long long major = (long long)(version >> 16);
	long long minor = (long long)(version & 0xffff);

	if (major == DRM_VNPU_UAPI_MAJOR && minor >= DRM_VNPU_UAPI_MINOR)
		return 0;

	snprintf(why, len,
		 "the vnpu kernel driver speaks UAPI %lld.%lld but this libacl needs %u.%u or a later %u.x; %s",
		 major, minor,
		 DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR, DRM_VNPU_UAPI_MAJOR,
		 major > DRM_VNPU_UAPI_MAJOR ?
		 "upgrade libacl to match the loaded vnpu.ko" :
		 "load a vnpu.ko at least as new as this libacl");
	return -EPROTO;
}
