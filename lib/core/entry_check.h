/* SPDX-License-Identifier: MIT */
/*
 * Checks and error conversion for ACL entry points, whichever layer
 * defines them (lib/api, lib/mdl, lib/op): the init check, NULL and
 * range checks of arguments, the stream argument, and turning a core
 * -errno into an aclError with a recorded message.
 */
#ifndef VNPU_CORE_ENTRY_CHECK_H
#define VNPU_CORE_ENTRY_CHECK_H

#include <stdint.h>

#include "acl/acl_rt.h"
#include "error.h"
#include "runtime.h"

struct rt_stream;

/* Every runtime call before aclInit fails with ACL_ERROR_UNINITIALIZE. */
#define RT_REQUIRE_INIT()						\
	do {								\
		if (!runtime_initialized())				\
			return rt_uninit_error(__func__);		\
	} while (0)

/* ACL_ERROR_UNINITIALIZE, saying why (never initialised, or a fork). */
aclError rt_uninit_error(const char *func);

/* The runtime is initialised and id names one of its devices. */
aclError rt_device_id_arg(const char *func, int32_t id);

#define RT_REQUIRE_ARG(arg)						\
	do {								\
		if (!(arg))						\
			return acl_fail(ACL_ERROR_INVALID_PARAM,	\
					"%s must not be NULL", #arg);	\
	} while (0)

/*
 * Turn a core -errno into an aclError with a message: what the call was
 * doing, and for failed jobs the core's details. timeout_code is returned
 * for -ETIMEDOUT (a sync that expired).
 */
aclError rt_error_at(const char *func, int err, aclError timeout_code,
		     const char *what);
#define rt_error(err, what) \
	rt_error_at(__func__, (err), ACL_ERROR_RT_WAIT_TIMEOUT, (what))

/*
 * The stream argument of every entry point that takes one (NULL: the
 * current context's default stream), checked by stream_resolve(): a
 * handle that is not a live stream is ACL_ERROR_RT_PARAM_INVALID, a
 * stream of another context ACL_ERROR_RT_STREAM_CONTEXT, no current
 * context ACL_ERROR_RT_CONTEXT_NULL, whichever call it is. The message
 * is recorded.
 */
aclError rt_stream_arg(const char *func, aclrtStream in, struct rt_stream **s);

/* The same where CANN does not allow NULL: ACL_ERROR_INVALID_PARAM. */
aclError rt_stream_arg_required(const char *func, aclrtStream in,
				struct rt_stream **s);

/* Sync timeouts: -1 forever or > 0 ms; 0 and < -1 are rejected. */
#define RT_CHECK_TIMEOUT(t)						\
	do {								\
		if ((t) == 0 || (t) < -1)				\
			return acl_fail(ACL_ERROR_RT_PARAM_INVALID,	\
					"timeout %d is invalid: use -1 (wait forever) or a positive number of milliseconds", \
					(int)(t));			\
	} while (0)

#endif /* VNPU_CORE_ENTRY_CHECK_H */
