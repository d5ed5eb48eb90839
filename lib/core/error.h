/* SPDX-License-Identifier: MIT */
/*
 * Errors: internal code returns 0 or -errno; API entry points turn that
 * into an aclError with one table and record a message for
 * aclGetRecentErrMsg() in the calling thread.
 */
#ifndef VNPU_CORE_ERROR_H
#define VNPU_CORE_ERROR_H

#include "acl/acl_base.h"

/*
 * Record a message for aclGetRecentErrMsg() and return code, so an entry
 * point can write: return acl_fail(ACL_ERROR_INVALID_PARAM, "...", ...);
 * The message is prefixed with the name of the API function.
 */
aclError acl_fail_at(const char *func, aclError code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define acl_fail(code, ...) acl_fail_at(__func__, (code), __VA_ARGS__)

/* The calling thread's last failure code; clear resets it to success. */
aclError acl_last_error(int clear);

/* Map a negative errno from the core or kmd layers to an aclError. */
aclError acl_error_from_errno(int err);

/*
 * Take the calling thread's messages (newest first) and clear them.
 * Returns NULL when none are pending; the pointer stays valid until the
 * thread's next call.
 */
const char *acl_errmsg_take(void);

#endif /* VNPU_CORE_ERROR_H */
