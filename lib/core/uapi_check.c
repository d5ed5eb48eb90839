/* SPDX-License-Identifier: MIT */
/*
 * UAPI compatibility: the major number must match exactly; the driver's
 * minor must be at least the one this library was built against, since a
 * newer library may use ioctls an older driver lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <drm/vnpu_accel.h>

#include "acl/acl_base_rt.h"
#include "uapi_check.h"

/*
 * The aclnn layer hands aclDataType values to the driver as
 * DRM_VNPU_DTYPE_* unchanged, and sizes them with the driver's table
 * (kernel/ops/vnpu_dtype.h): the two numberings must agree.
 */
_Static_assert(ACL_FLOAT == DRM_VNPU_DTYPE_FLOAT, "dtype numbering");
_Static_assert(ACL_FLOAT16 == DRM_VNPU_DTYPE_FLOAT16, "dtype numbering");
_Static_assert(ACL_INT8 == DRM_VNPU_DTYPE_INT8, "dtype numbering");
_Static_assert(ACL_INT32 == DRM_VNPU_DTYPE_INT32, "dtype numbering");
_Static_assert(ACL_UINT8 == DRM_VNPU_DTYPE_UINT8, "dtype numbering");
_Static_assert(ACL_INT64 == DRM_VNPU_DTYPE_INT64, "dtype numbering");
_Static_assert(ACL_BOOL == DRM_VNPU_DTYPE_BOOL, "dtype numbering");
_Static_assert(ACL_BF16 == DRM_VNPU_DTYPE_BF16, "dtype numbering");

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
