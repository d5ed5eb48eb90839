/* SPDX-License-Identifier: MIT */
/* Argument checks and error conversion for the ACL entry points. */
#include <errno.h>
#include <string.h>

#include "entry_check.h"
#include "graph.h"
#include "rt_objects.h"

/*
 * The code always comes from the one table (acl_error_from_errno); only
 * the words differ: what the call was doing, and the core's details for
 * failed jobs, capture rules and bad handles.
 */
aclError rt_error_at(const char *func, int err, aclError timeout_code,
		     const char *what)
{
	aclError code = acl_error_from_errno(err);
	const char *detail = core_detail_take();
	const char *why;

	if (caperr_is(err))
		why = caperr_text(err);
	else if (err == -ESRCH)
		why = "no current context (call aclrtSetDevice or aclrtSetCurrentContext first)";
	else if (err == -EXDEV)
		why = "the stream or event belongs to another context or device";
	else if (err == -ENOEXEC || err == -ETIME || err == -ECANCELED)
		why = detail[0] ? "" : "device task failed";
	else if (err == -ETIMEDOUT)
		why = "timed out";
	else
		why = strerror(-err);
	if (err == -ETIMEDOUT && timeout_code)
		code = timeout_code;
	return acl_fail_at(func, code, "%s: %s%s%s", what, why,
			   why[0] && detail[0] ? ": " : "", detail);
}

aclError rt_stream_arg(const char *func, aclrtStream in, struct rt_stream **s)
{
	int ret = stream_resolve(in, s);

	return ret ? rt_error_at(func, ret, 0, "stream") : ACL_SUCCESS;
}

aclError rt_stream_arg_required(const char *func, aclrtStream in,
				struct rt_stream **s)
{
	if (!in)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "stream must not be NULL here (the default stream is not allowed)");
	return rt_stream_arg(func, in, s);
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

aclError rt_device_id_arg(const char *func, int32_t id)
{
	uint32_t n = 0;
	char why[8];

	if (!runtime_initialized())
		return rt_uninit_error(func);
	runtime_device_count(&n, why, sizeof(why));
	if (id < 0 || (uint32_t)id >= n)
		return acl_fail_at(func, ACL_ERROR_RT_INVALID_DEVICEID,
				   "device id %d is invalid: %u device(s)", id, n);
	return ACL_SUCCESS;
}
