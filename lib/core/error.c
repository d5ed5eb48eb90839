/* SPDX-License-Identifier: MIT */
/*
 * Per-thread error messages and the one errno -> aclError table: every
 * entry point, and the exception callback, turn a core -errno into an
 * aclError here and nowhere else.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "graph.h"
#include "log.h"
#include "rt_objects.h"

#define ERRMSG_SIZE 2048

/* Pending messages, newest first, and the copy handed out last. */
static _Thread_local char pending[ERRMSG_SIZE];
static _Thread_local char taken[ERRMSG_SIZE];
/* aclrtGetLastError / aclrtPeekAtLastError: the thread's last failure. */
static _Thread_local aclError last_code;

aclError acl_last_error(int clear)
{
	aclError code = last_code;

	if (clear)
		last_code = ACL_SUCCESS;
	return code;
}

aclError acl_fail_at(const char *func, aclError code, const char *fmt, ...)
{
	char msg[ERRMSG_SIZE];
	char old[ERRMSG_SIZE];
	size_t n;
	va_list ap;

	if (code != ACL_SUCCESS)
		last_code = code;
	n = (size_t)snprintf(msg, sizeof(msg), "%s: ", func);
	if (n < sizeof(msg)) {
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
		va_end(ap);
	}

	if (code != ACL_SUCCESS)
		log_msg(LOG_ERROR, func, "%s (error %d)", msg, code);

	/*
	 * Older messages follow the new one; when the buffer is full the
	 * oldest fall off the end (truncation is intended).
	 */
	memcpy(old, pending, sizeof(old));
	if (snprintf(pending, sizeof(pending), old[0] ? "%s (error %d)\n%s" :
		     "%s (error %d)%s", msg, code, old) < 0)
		pending[0] = '\0';
	return code;
}

const char *acl_errmsg_take(void)
{
	if (!pending[0])
		return NULL;
	memcpy(taken, pending, sizeof(taken));
	pending[0] = '\0';
	return taken;
}

/*
 * What each -errno of core/ and kmd/ means to an ACL caller. A few have
 * one meaning only inside core/: ESRCH is "no current context", EXDEV "a
 * handle of another context", ENOEXEC/ETIME/ECANCELED/EREMOTEIO how a
 * job ended (a device fault, the job's timeout, cancelled behind a failed
 * job, a failed host "AI CPU" node: aicpu_fail.c).
 * A wait that expires is -ETIMEDOUT; the entry point may name its own
 * timeout code for it (rt_error_at).
 */
static const struct {
	int err;
	aclError code;
} errno_table[] = {
	{ EINVAL, ACL_ERROR_RT_PARAM_INVALID },
	{ EFAULT, ACL_ERROR_RT_PARAM_INVALID },
	{ ENOENT, ACL_ERROR_RT_INVALID_HANDLE },
	{ ENOMEM, ACL_ERROR_RT_MEMORY_ALLOCATION },
	{ ENOSPC, ACL_ERROR_RT_DEVICE_OOM },
	{ ENODEV, ACL_ERROR_RT_NO_DEVICE },
	{ ENXIO, ACL_ERROR_RT_NO_DEVICE },
	{ EACCES, ACL_ERROR_RT_NO_PERMISSION },
	{ EPERM, ACL_ERROR_RT_NO_PERMISSION },
	{ EOPNOTSUPP, ACL_ERROR_RT_FEATURE_NOT_SUPPORT },
	{ ENOTTY, ACL_ERROR_RT_FEATURE_NOT_SUPPORT },
	{ ETIMEDOUT, ACL_ERROR_RT_TIMEOUT },
	{ EBUSY, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL },
	{ EPROTO, ACL_ERROR_DRV_FAILURE },
	{ EIO, ACL_ERROR_RT_DRV_INTERNAL_ERROR },
	{ ESRCH, ACL_ERROR_RT_CONTEXT_NULL },
	{ EXDEV, ACL_ERROR_RT_STREAM_CONTEXT },
	{ ENOEXEC, ACL_ERROR_RT_AICORE_EXCEPTION },
	{ ETIME, ACL_ERROR_RT_TASK_TIMEOUT },
	{ EREMOTEIO, ACL_ERROR_RT_AICPU_EXCEPTION },
	{ ECANCELED, ACL_ERROR_RT_DEVICE_TASK_ABORT },
};

aclError acl_error_from_errno(int err)
{
	size_t i;

	if (caperr_is(err) || caperr_is(-err))
		return caperr_code(err < 0 ? err : -err);
	if (err < 0)
		err = -err;
	if (!err)
		return ACL_SUCCESS;
	for (i = 0; i < sizeof(errno_table) / sizeof(errno_table[0]); i++)
		if (errno_table[i].err == err)
			return errno_table[i].code;
	return ACL_ERROR_RT_INTERNAL_ERROR;
}

/* Details of a core failure (a failed job), for the entry point's message. */
static _Thread_local char detail[1024];
static _Thread_local char detail_taken[1024];

void core_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
}

const char *core_detail_take(void)
{
	memcpy(detail_taken, detail, sizeof(detail_taken));
	detail[0] = '\0';
	return detail_taken;
}
