/* SPDX-License-Identifier: MIT */
/* Events of acl_rt.h. */
#include <errno.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

#define EVENT_ARG(ev)							\
	do {								\
		RT_REQUIRE_ARG(ev);					\
		if (!handle_live(HANDLE_EVENT, (ev)))			\
			return acl_fail(ACL_ERROR_RT_PARAM_INVALID,	\
					"%s %p is not a live event", #ev, (void *)(ev)); \
	} while (0)

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
	PROF_API();
	struct rt_event *ev;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(event);
	ret = event_create(flag, &ev);
	if (ret)
		return rt_error(ret, "creating the event");
	*event = ev;
	return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
	PROF_API();
	return aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
	PROF_API();
	return aclrtCreateEventWithFlag(event, flag);
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
	PROF_API();
	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	if (event_destroy(event))	/* a racing destroy won */
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"event %p is not a live event", event);
	return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = event_record(event, s);
	return ret ? rt_error(ret, "recording the event") : ACL_SUCCESS;
}

/*
 * The reset is immediate: the event reads as never recorded. An
 * ACL_EVENT_EXTERNAL event's device flag is cleared in the stream's
 * order as well (recorded when the stream captures).
 */
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = event_reset_on(event, s);
	return ret ? rt_error(ret, "resetting the event") : ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	PROF_API();
	bool done;
	int ret;

	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	RT_REQUIRE_ARG(status);
	ret = event_query(event, &done);
	if (ret)
		return rt_error(ret, "querying the event");
	/* CANN: an event not recorded (or reset since) is NOT_READY here. */
	*status = done && event_is_recorded(event) ?
		  ACL_EVENT_RECORDED_STATUS_COMPLETE :
		  ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
	PROF_API();
	bool done;
	int ret;

	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	RT_REQUIRE_ARG(status);
	ret = event_query(event, &done);
	if (ret)
		return rt_error(ret, "querying the event");
	*status = done ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	ret = event_sync(event, -1);
	if (!ret)
		rt_prof_synced();
	return ret ? rt_error(ret, "synchronizing the event") : ACL_SUCCESS;
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	EVENT_ARG(event);
	RT_CHECK_TIMEOUT(timeout);
	ret = event_sync(event, timeout);
	if (!ret)
		rt_prof_synced();
	return ret ? rt_error_at(__func__, ret, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
				 "synchronizing the event") : ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent,
			       aclrtEvent endEvent)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ms);
	EVENT_ARG(startEvent);
	EVENT_ARG(endEvent);
	ret = event_elapsed(startEvent, endEvent, ms);
	if (ret == -ENODATA)
		return acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
				"both events must have been recorded");
	if (ret == -EBUSY)
		return acl_fail(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
				"both events must be complete (synchronize the end event first)");
	return ret ? rt_error(ret, "measuring elapsed time") : ACL_SUCCESS;
}
