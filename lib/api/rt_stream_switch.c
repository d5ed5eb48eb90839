/* SPDX-License-Identifier: MIT */
/*
 * aclrtActiveStream / aclrtSwitchStream: control flow between streams
 * bound to a graph being built (aclmdlRIBuildBegin, aclmdlRIBindStream),
 * as in CANN's model-switch sample. Only there: on any other stream they
 * fail with ACL_ERROR_RT_STREAM_MODEL (the stream belongs to no model).
 * The work is in lib/core/graph_switch.c.
 */
#include <errno.h>

#include "rt_common.h"
#include "../core/graph.h"
#include "../core/prof_rt.h"

static aclError switch_error(const char *func, int ret)
{
	if (ret == -EINVAL)
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "the head stream always runs: it cannot be activated");
	if (ret == -CAPERR_STREAM_MODEL)
		return acl_fail_at(func, ACL_ERROR_RT_STREAM_MODEL,
				   "both streams must be bound to one graph being built (aclmdlRIBindStream)");
	return rt_error_at(func, ret, 0, "recording the stream switch");
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s, *a;
	aclError e;
	int ret;

	if (!runtime_initialized())
		return rt_uninit_error(__func__);
	if (!activeStream || !stream)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"activeStream and stream must not be NULL");
	e = rt_stream_arg_required(__func__, stream, &s);
	if (!e)
		e = rt_stream_arg_required(__func__, activeStream, &a);
	if (e)
		return e;
	ret = graph_active_stream(s, a);
	return ret ? switch_error(__func__, ret) : ACL_SUCCESS;
}

aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond,
			   void *rightValue, aclrtCompareDataType dataType,
			   aclrtStream trueStream, aclrtStream falseStream,
			   aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s, *ts, *fs = NULL;
	aclError e;
	int ret;

	if (!runtime_initialized())
		return rt_uninit_error(__func__);
	if (!leftValue || !rightValue || !trueStream || !stream)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"leftValue, rightValue, trueStream and stream must not be NULL");
	/* aclrtCondition's values are DRM_VNPU_JUMP_EQ .. _LE. */
	if ((uint32_t)cond > ACL_RT_LESS_OR_EQUAL)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"cond %d is not an aclrtCondition", (int)cond);
	if ((uint32_t)dataType > ACL_RT_SWITCH_INT64)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dataType %d is not an aclrtCompareDataType",
				(int)dataType);
	e = rt_stream_arg_required(__func__, stream, &s);
	if (!e)
		e = rt_stream_arg_required(__func__, trueStream, &ts);
	if (!e && falseStream)
		e = rt_stream_arg_required(__func__, falseStream, &fs);
	if (e)
		return e;
	ret = graph_switch_stream(s, (uintptr_t)leftValue, (uint32_t)cond,
				  (uintptr_t)rightValue,
				  dataType == ACL_RT_SWITCH_INT32, ts, fs);
	return ret ? switch_error(__func__, ret) : ACL_SUCCESS;
}
