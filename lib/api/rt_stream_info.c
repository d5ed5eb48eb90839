/* SPDX-License-Identifier: MIT */
/*
 * Stream queries and control of acl_rt.h: id, priority, flags, how many
 * more streams fit, the priority range, abort.
 */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

/* Resolve a stream argument after the init check. */
static aclError stream_of(const char *func, aclrtStream stream,
			  struct rt_stream **s)
{
	if (!runtime_initialized())
		return rt_uninit_error(func);
	return rt_stream_arg(func, stream, s);
}

/* The driver queue's id: unique among the device's live streams. */
aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;

	RT_REQUIRE_ARG(streamId);
	e = stream_of(__func__, stream, &s);
	if (e)
		return e;
	*streamId = (int32_t)s->queue_id;
	return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;

	RT_REQUIRE_ARG(priority);
	e = stream_of(__func__, stream, &s);
	if (e)
		return e;
	*priority = s->acl_priority;
	return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;

	RT_REQUIRE_ARG(flags);
	e = stream_of(__func__, stream, &s);
	if (e)
		return e;
	*flags = s->flags;
	return ACL_SUCCESS;
}

/*
 * One open file of the driver holds at most DRM_VNPU_MAX_QUEUES queues:
 * every stream of the device (default streams included) has one, and so
 * does every branch of an instantiated graph.
 */
aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
	PROF_API();
	struct rt_context *ctx;
	uint32_t used;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(streamCount);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "counting free streams");
	used = stream_count(ctx->dev) + graph_queues_on(ctx->dev);
	*streamCount = used < DRM_VNPU_MAX_QUEUES ? DRM_VNPU_MAX_QUEUES - used : 0;
	return ACL_SUCCESS;
}

/* 7 is the lowest ACL priority, 0 the highest (as aclrtCreateStreamWithConfig). */
aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority,
					   int32_t *greatestPriority)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(leastPriority);
	RT_REQUIRE_ARG(greatestPriority);
	*leastPriority = 7;
	*greatestPriority = 0;
	return ACL_SUCCESS;
}

/*
 * Drops the stream's tasks that have not reached the driver and waits for
 * the jobs that have (see stream_abort); later tasks run normally.
 */
aclError aclrtStreamAbort(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	uint32_t dropped;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg_required(__func__, stream, &s);
	if (e)
		return e;
	ret = stream_abort(s, &dropped);
	return ret ? rt_error(ret, "aborting the stream") : ACL_SUCCESS;
}
