/* SPDX-License-Identifier: MIT */
/* Streams of acl_rt.h. */
#include <errno.h>

#include "../core/graph.h"
#include "../core/hooks.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

/* ACL priorities are 0 (highest) .. 7; the driver has three levels. */
uint32_t rt_driver_priority(uint32_t acl_priority)
{
	return acl_priority == 0 ? DRM_VNPU_PRIORITY_HIGH :
	       acl_priority <= 3 ? DRM_VNPU_PRIORITY_NORMAL :
	       DRM_VNPU_PRIORITY_LOW;
}

aclError rt_stream_create(const char *func, aclrtStream *stream, uint32_t prio,
			  uint32_t acl_priority, uint32_t flags)
{
	struct rt_context *ctx;
	struct rt_stream *s;
	int ret;

	ctx = context_current();
	if (!ctx)
		return rt_error_at(func, -ESRCH, 0, "creating a stream");
	ret = stream_create(ctx, prio, &s);
	if (ret)
		return rt_error_at(func, ret, 0, "creating a stream");
	s->flags = flags;
	s->acl_priority = acl_priority;
	*stream = s;
	hooks_stream_state(s, ACL_RT_STREAM_STATE_CREATE_POST);
	return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(stream);
	/* ACL's default priority 0, on the driver's normal level. */
	return rt_stream_create(__func__, stream, DRM_VNPU_PRIORITY_NORMAL, 0, 0);
}

/*
 * Driver levels: ACL priority 0 is HIGH, 1..3 NORMAL, 4..7 LOW. Of the flags only ACL_STREAM_PERSISTENT
 * matters: such a stream can be bound to a graph (aclmdlRIBindStream).
 */
aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority,
				     uint32_t flag)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(stream);
	if (priority > 7)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"priority %u is out of range 0..7", priority);
	return rt_stream_create(__func__, stream, rt_driver_priority(priority),
				priority, flag);
}

aclError aclrtDestroyStream(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg_required(__func__, stream, &s);
	if (e)
		return e;
	if (s == s->ctx->default_stream)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"the default stream cannot be destroyed");
	if (!graph_stream_records(s))
		hooks_stream_state(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
	ret = stream_destroy(s);
	if (caperr_is(ret))	/* capturing or bound: nothing was done */
		return rt_error(ret, "destroying the stream");
	if (ret == -ENOENT)	/* a racing destroy won */
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"stream %p is not a live stream", stream);
	return ret ? rt_error(ret, "work of the destroyed stream failed") :
		     ACL_SUCCESS;
}

aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	PROF_API();
	return aclrtDestroyStream(stream);
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = stream_sync(s, -1);
	if (!ret)
		rt_prof_synced();
	return ret ? rt_error(ret, "synchronizing the stream") : ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_CHECK_TIMEOUT(timeout);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = stream_sync(s, timeout);
	if (!ret)
		rt_prof_synced();
	return ret ? rt_error_at(__func__, ret, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
				 "synchronizing the stream") : ACL_SUCCESS;
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
	PROF_API();
	struct rt_stream *s;
	bool done;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(status);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = stream_query(s, &done);
	if (ret)
		return rt_error(ret, "querying the stream");
	*status = done ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	PROF_API();
	struct rt_event *ev = event;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(event);
	if (!handle_live(HANDLE_EVENT, ev))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"event %p is not a live event", event);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = event_wait(s, ev);
	return ret ? rt_error(ret, "waiting for the event") : ACL_SUCCESS;
}

/*
 * ACL_STOP_ON_FAILURE also makes the other streams of the context stop
 * on failure, as ACL documents; CONTINUE only sets this stream's mode.
 */
aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;

	RT_REQUIRE_INIT();
	if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"mode %llu is neither ACL_CONTINUE_ON_FAILURE nor ACL_STOP_ON_FAILURE",
				(unsigned long long)mode);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	stream_set_failure_mode(s, mode == ACL_STOP_ON_FAILURE);
	return ACL_SUCCESS;
}
