/* SPDX-License-Identifier: MIT */
/* Host callbacks of acl_rt.h: subscribe, launch, process, host functions. */
#include <errno.h>
#include <pthread.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = cb_subscribe(threadId, s);
	if (ret == -EEXIST)
		return acl_fail(ACL_ERROR_RT_STREAM_SUBSCRIBE,
				"stream %p already has a subscribed thread", stream);
	if (ret == -EMLINK)
		return acl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
				"thread %llu serves streams of another device",
				(unsigned long long)threadId);
	return ret ? rt_error(ret, "subscribing") : ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = cb_unsubscribe(threadId, s);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_RT_STREAM_SUBSCRIBE,
				"thread %llu is not subscribed to stream %p",
				(unsigned long long)threadId, stream);
	return ret ? rt_error(ret, "unsubscribing") : ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData,
			     aclrtCallbackBlockType blockType, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(fn);
	if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"blockType %d is neither ACL_CALLBACK_NO_BLOCK nor ACL_CALLBACK_BLOCK",
				(int)blockType);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	if (graph_stream_records(s))
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"host callbacks cannot be recorded into a graph");
	ret = cb_launch(s, fn, userData, blockType == ACL_CALLBACK_BLOCK);
	if (ret == -ENOLINK)
		return acl_fail(ACL_ERROR_RT_STREAM_NO_CB_REG,
				"no thread is subscribed to stream %p (call aclrtSubscribeReport first)",
				stream);
	return ret ? rt_error(ret, "launching a callback") : ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	if (timeout == 0 || timeout < -1)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"timeout %d is invalid: use -1 (wait forever) or a positive number of milliseconds",
				(int)timeout);
	ret = cb_process((uint64_t)pthread_self(), timeout);
	if (ret == -ENOLINK)
		return acl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
				"this thread is not subscribed to any stream");
	if (ret == -ETIMEDOUT)
		return acl_fail(ACL_ERROR_RT_REPORT_TIMEOUT,
				"no callback became ready within %d ms", (int)timeout);
	return ret ? rt_error(ret, "processing callbacks") : ACL_SUCCESS;
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(fn);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	if (graph_stream_records(s))
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"host callbacks cannot be recorded into a graph");
	ret = cb_launch_host_func(s, fn, args);
	return ret ? rt_error(ret, "launching a host function") : ACL_SUCCESS;
}
