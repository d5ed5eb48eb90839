/* SPDX-License-Identifier: MIT */
/* Error conversion for the runtime entry points. */
#include <errno.h>
#include <string.h>

#include "../core/graph.h"
#include "rt_common.h"

aclError rt_error_at(const char *func, int err, aclError timeout_code,
		     const char *what)
{
	const char *detail;

	if (caperr_is(err)) {
		detail = core_detail_take();
		return acl_fail_at(func, caperr_code(err), "%s: %s%s%s", what,
				   caperr_text(err), detail[0] ? ": " : "", detail);
	}
	switch (err) {
	case -ESRCH:
		return acl_fail_at(func, ACL_ERROR_RT_CONTEXT_NULL,
				   "%s: no current context (call aclrtSetDevice or aclrtSetCurrentContext first)",
				   what);
	case -EXDEV:
		return acl_fail_at(func, ACL_ERROR_RT_STREAM_CONTEXT,
				   "%s: the stream or event belongs to another context or device",
				   what);
	case -ENOEXEC:
	case -ETIME:
	case -ECANCELED:
		detail = core_detail_take();
		return acl_fail_at(func, err == -ENOEXEC ? ACL_ERROR_RT_AICORE_EXCEPTION :
				   err == -ETIME ? ACL_ERROR_RT_TASK_TIMEOUT :
				   ACL_ERROR_RT_DEVICE_TASK_ABORT,
				   "%s: %s", what, detail[0] ? detail : "device task failed");
	case -ETIMEDOUT:
		return acl_fail_at(func, timeout_code, "%s: timed out", what);
	default:
		return acl_fail_at(func, acl_error_from_errno(err), "%s: %s",
				   what, strerror(-err));
	}
}

aclError rt_stream_arg(const char *func, aclrtStream in, struct rt_stream **s)
{
	int ret = stream_resolve(in, s);

	if (ret == -ENOENT)
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "stream %p is not a live stream", in);
	return ret ? rt_error_at(func, ret, 0, "stream") : ACL_SUCCESS;
}

aclError rt_uninit_error(const char *func)
{
	pid_t parent = runtime_forked_from();

	if (parent)
		return acl_fail_at(func, ACL_ERROR_UNINITIALIZE,
				   "this process is a fork of process %d, whose runtime objects cannot be used here; call aclInit (and aclrtSetDevice) again in this process",
				   (int)parent);
	return acl_fail_at(func, ACL_ERROR_UNINITIALIZE,
			   "call aclInit before using the runtime");
}
