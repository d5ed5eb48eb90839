/* SPDX-License-Identifier: MIT */
/* Does the driver's UAPI version work with this library? */
#ifndef VNPU_CORE_UAPI_CHECK_H
#define VNPU_CORE_UAPI_CHECK_H

#include <stddef.h>
#include <stdint.h>

/*
 * version is DRM_VNPU_PARAM_UAPI_VERSION as the driver reports it. Returns
 * 0 when compatible, else -EPROTO with a sentence in why saying what
 * differs and what to do.
 */
int uapi_check(uint64_t version, char *why, size_t len);

#endif /* VNPU_CORE_UAPI_CHECK_H */
