/* SPDX-License-Identifier: MIT */
/*
 * The manual graph build flow (aclmdlRIBuildBegin ... BuildEnd), and the
 * aclmdlRI calls vnpu does not implement: they exist so programs link,
 * and fail with ACL_ERROR_RT_FEATURE_NOT_SUPPORT saying so.
 */
#include <errno.h>

#include "mdl_ri.h"
#include "../core/entry_check.h"
#include "../core/prof_rt.h"

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
	PROF_API();
	struct rt_context *ctx;
	struct rt_graph *g;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(modelRI);
	if (flag)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag is reserved and must be 0, not %u", flag);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "building a graph");
	ret = graph_build_begin(ctx, &g);
	if (ret)
		return rt_error(ret, "building a graph");
	*modelRI = g;
	return ACL_SUCCESS;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = mdl_graph_stream_args(__func__, modelRI, stream, true, &g, &s);
	if (e)
		return e;
	if (flag != ACL_MODEL_STREAM_FLAG_HEAD &&
	    flag != ACL_MODEL_STREAM_FLAG_DEFAULT)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag 0x%x: use ACL_MODEL_STREAM_FLAG_HEAD or _DEFAULT",
				flag);
	ret = graph_bind_stream(g, s, flag == ACL_MODEL_STREAM_FLAG_HEAD);
	if (ret == -EINVAL)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"stream %p was not created with ACL_STREAM_PERSISTENT",
				stream);
	if (ret == -EEXIST)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"the graph has a head stream already");
	return ret ? rt_error(ret, "binding the stream") : ACL_SUCCESS;
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = mdl_graph_stream_args(__func__, modelRI, stream, true, &g, &s);
	if (e)
		return e;
	ret = graph_end_task(g, s);
	return ret ? rt_error(ret, "ending the stream's tasks") : ACL_SUCCESS;
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
	PROF_API();
	struct rt_graph *g;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	if (reserve)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
	ret = graph_build_end(g);
	return ret ? rt_error(ret, "finishing the graph") : ACL_SUCCESS;
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = mdl_graph_stream_args(__func__, modelRI, stream, true, &g, &s);
	if (e)
		return e;
	ret = graph_unbind_stream(g, s);
	return ret ? rt_error(ret, "unbinding the stream") : ACL_SUCCESS;
}

#define NOT_SUPPORTED(what)						\
	do {								\
		RT_REQUIRE_INIT();					\
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,	\
				"%s is not supported by vnpu", what);	\
	} while (0)

aclError aclmdlRIAbort(aclmdlRI modelRI)
{
	PROF_API();
	(void)modelRI;
	NOT_SUPPORTED("aborting a graph");
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func,
					 void *userData)
{
	PROF_API();
	(void)modelRI; (void)func; (void)userData;
	NOT_SUPPORTED("graph destroy callbacks");
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func)
{
	PROF_API();
	(void)modelRI; (void)func;
	NOT_SUPPORTED("graph destroy callbacks");
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks,
				  uint32_t *numTasks)
{
	PROF_API();
	(void)stream; (void)tasks; (void)numTasks;
	NOT_SUPPORTED("task introspection");
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
	PROF_API();
	(void)task; (void)type;
	NOT_SUPPORTED("task introspection");
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
	PROF_API();
	(void)task; (void)id;
	NOT_SUPPORTED("task introspection");
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	PROF_API();
	(void)task; (void)params;
	NOT_SUPPORTED("task introspection");
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
	PROF_API();
	(void)task; (void)params;
	NOT_SUPPORTED("task updates");
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task,
					aclrtLaunchKernelAttrId attrId,
					aclrtLaunchKernelAttrValue *attrValue)
{
	PROF_API();
	(void)task; (void)attrId; (void)attrValue;
	NOT_SUPPORTED("task introspection");
}

aclError aclmdlRITaskDisable(aclmdlRITask task)
{
	PROF_API();
	(void)task;
	NOT_SUPPORTED("disabling tasks");
}
