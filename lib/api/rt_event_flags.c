/* SPDX-License-Identifier: MIT */
/*
 * Events of acl_rt.h beyond record/wait/sync: records and waits with
 * flags (external ones link graph replays with outside work, see
 * lib/core/graph_external.c), waits with a timeout, timestamps, ids and
 * counts.
 */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

/* A graph's external records or waits are full: not device memory. */
static aclError external_error(const char *func, int ret, const char *what)
{
	if (ret == -ENOSPC)
		return acl_fail_at(func, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "%s: %s",
				   what, core_detail_take());
	return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, what);
}

static aclError event_arg(const char *func, aclrtEvent event)
{
	if (!event)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "event must not be NULL");
	if (!handle_live(HANDLE_EVENT, event))
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "event %p is not a live event", event);
	return ACL_SUCCESS;
}

/* Check event and stream; *s is the stream (NULL: default stream). */
static aclError event_stream(const char *func, aclrtEvent event,
			     aclrtStream stream, struct rt_stream **s)
{
	aclError e;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	e = event_arg(func, event);
	return e ? e : rt_stream_arg(func, stream, s);
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream,
				  uint32_t flag)
{
	PROF_API();
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_TIMESTAMP };
	struct rt_event *ev = event;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag %u is neither ACL_EVENT_RECORD_DEFAULT nor ACL_EVENT_RECORD_EXTERNAL",
				flag);
	if (flag == ACL_EVENT_RECORD_DEFAULT)
		return aclrtRecordEvent(event, stream);
	e = event_stream(__func__, event, stream, &s);
	if (e)
		return e;
	if (!ev->dev)
		ret = -ENODEV;
	else if (ev->dev != s->ctx->dev)
		ret = -EXDEV;
	else {
		t.timestamp.dst = ev->dev->ev_va + ev->slot * sizeof(uint64_t);
		ret = graph_record_external(s, ev, &t);
	}
	return ret ? external_error(__func__, ret, "recording the external event") :
		     ACL_SUCCESS;
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event,
					 int32_t timeout)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_CHECK_TIMEOUT(timeout);
	e = event_stream(__func__, event, stream, &s);
	if (e)
		return e;
	ret = timeout == -1 ? event_wait(s, event) :
			      event_wait_timeout(s, event, timeout);
	return ret ? rt_error(ret, "waiting for the event") : ACL_SUCCESS;
}

/*
 * timeout: 0 waits as aclrtStreamWaitEvent, > 0 ms as
 * aclrtStreamWaitEventWithTimeout; external waits take no timeout.
 */
aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event,
				      uint32_t timeout, uint32_t flag)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag %u is neither ACL_EVENT_WAIT_DEFAULT nor ACL_EVENT_WAIT_EXTERNAL",
				flag);
	if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"an external wait takes no timeout (%u given)", timeout);
	if (timeout > INT32_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"timeout %u ms is too large", timeout);
	e = event_stream(__func__, event, stream, &s);
	if (e)
		return e;
	if (flag == ACL_EVENT_WAIT_EXTERNAL) {
		struct rt_event *ev = event;

		ret = ev->dev && ev->dev != s->ctx->dev ? -EXDEV :
		      graph_wait_external(s, ev);
		if (ret)
			return external_error(__func__, ret, "waiting for the external event");
	} else {
		ret = timeout ? event_wait_timeout(s, event, (int32_t)timeout) :
				event_wait(s, event);
	}
	return ret ? rt_error(ret, "waiting for the event") : ACL_SUCCESS;
}

/* Device time of the record in ns (vnpu's device counter). */
aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
	PROF_API();
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = event_arg(__func__, event);
	if (e)
		return e;
	RT_REQUIRE_ARG(timestamp);
	ret = event_timestamp(event, timestamp);
	if (ret == -ENODATA)
		return acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
				"the event has not been recorded");
	if (ret == -EBUSY)
		return acl_fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
				"the event's record has not run yet (synchronize the event first)");
	return ret ? rt_error(ret, "reading the event's timestamp") : ACL_SUCCESS;
}

/* The event's slot: unique among the live events of its device. */
aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	e = event_arg(__func__, event);
	if (e)
		return e;
	RT_REQUIRE_ARG(eventId);
	*eventId = ((struct rt_event *)event)->slot;
	return ACL_SUCCESS;
}

aclError aclrtGetEventAvailNum(uint32_t *eventCount)
{
	PROF_API();
	struct rt_context *ctx;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(eventCount);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "counting free events");
	*eventCount = EVENT_SLOTS - event_slots_used(ctx->dev);
	return ACL_SUCCESS;
}

/* COMPLETE when a wait for the event issued now would not block. */
aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
	PROF_API();
	aclError e;
	bool done;
	int ret;

	RT_REQUIRE_INIT();
	e = event_arg(__func__, event);
	if (e)
		return e;
	RT_REQUIRE_ARG(status);
	ret = event_query(event, &done);
	if (ret)
		return rt_error(ret, "querying the event");
	*status = done ? ACL_EVENT_WAIT_STATUS_COMPLETE :
			 ACL_EVENT_WAIT_STATUS_NOT_READY;
	return ACL_SUCCESS;
}
