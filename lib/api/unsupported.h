/* SPDX-License-Identifier: MIT */
/*
 * The functions a virtual NPU cannot honestly provide still link: each is
 * a weak definition (generated into unsupported_<header>.c by
 * scripts/gen-unsupported.py) that reports ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * through acl_unsupported(). A real definition anywhere in the library
 * overrides the weak one, so implementing a function never breaks the
 * link; `make api-coverage` tells the two apart.
 */
#ifndef VNPU_API_UNSUPPORTED_H
#define VNPU_API_UNSUPPORTED_H

#include "acl/acl_base.h"

#define ACL_UNSUPPORTED __attribute__((weak))

/*
 * Record "func is not supported on vnpu" for aclGetRecentErrMsg(), log
 * it once per function at warning level, and return the code.
 */
aclError acl_unsupported(const char *func);

#endif /* VNPU_API_UNSUPPORTED_H */
