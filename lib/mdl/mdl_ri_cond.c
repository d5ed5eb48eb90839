/* SPDX-License-Identifier: MIT */
/*
 * Conditional graphs (aclmdlRICondHandle*, aclmdlRIAddCondTask) and
 * capturing into their sub-graphs (aclmdlRICaptureToModelRIBegin). The
 * argument checks and codes follow CANN's runtime: NULL pointers the ACL
 * layer checks are ACL_ERROR_INVALID_PARAM, values the runtime refuses
 * ACL_ERROR_RT_PARAM_INVALID. The work is in lib/core/graph_cond.c.
 */
#include <errno.h>

#include "mdl_ri.h"
#include "../core/entry_check.h"
#include "../core/prof_rt.h"

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
				  aclmdlRICondHandleFlag flag,
				  aclmdlRICondHandle *handle)
{
	PROF_API();
	struct graph_cond *c;
	struct rt_graph *g;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	ret = graph_cond_create(g, defaultLaunchValue, (int)flag, &c);
	if (ret == -EINVAL)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"flag %d is not an aclmdlRICondHandleFlag", (int)flag);
	if (ret == -CAPERR_MODEL_STATE)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"modelRI %p is not being captured", modelRI);
	if (ret == -CAPERR_COND_UNSUPPORTED)
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"condition handles belong to captured graphs, not built or sub-graphs");
	if (ret)
		return rt_error(ret, "creating a condition handle");
	*handle = c;
	return ACL_SUCCESS;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
	PROF_API();

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	RT_REQUIRE_ARG(ptr);
	if (graph_cond_ptr(handle, ptr))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p is not a live condition handle", handle);
	return ACL_SUCCESS;
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream,
			     uint32_t flags)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(stream);
	e = rt_stream_arg_required(__func__, stream, &s);
	if (e)
		return e;
	if ((uint32_t)params.type > ACL_MODEL_RI_COND_TYPE_SWITCH)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"type %d is not an aclmdlRICondTaskType",
				(int)params.type);
	if (flags)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"flags is reserved and must be 0, not %u", flags);
	if (!params.handle || !params.modelRIArray)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"params.handle and params.modelRIArray must not be NULL");
	ret = graph_cond_add(params.handle, (int)params.type, params.size, s,
			     (void **)params.modelRIArray);
	switch (ret) {
	case 0:
		return ACL_SUCCESS;
	case -ENOENT:
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p is not a live condition handle", params.handle);
	case -EXDEV:
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"the condition handle belongs to another graph than the one the stream captures into");
	case -EINVAL:
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"size %u does not suit type %d (IF: 1 or 2, WHILE: 1, SWITCH: 1 to 4096), or the handle was used already",
				params.size, (int)params.type);
	default:
		return rt_error(ret, "adding a conditional task");
	}
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
				       aclmdlRICaptureMode mode)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(stream);
	RT_REQUIRE_ARG(modelRI);
	e = rt_stream_arg_required(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_cond_sub_lookup(modelRI, &g);
	if (ret == -ENOENT && !graph_lookup(modelRI, &g))
		return acl_fail(ACL_ERROR_RT_MODEL_CAPTURED,
				"modelRI %p was captured already; vnpu captures into the sub-graphs of aclmdlRIAddCondTask only",
				modelRI);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"modelRI %p is not a live graph", modelRI);
	if (ret)
		return rt_error(ret, "capturing into a sub-graph");
	ret = graph_capture_start(s, g, (int)mode);
	if (ret == -EINVAL)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"mode %d is not an aclmdlRICaptureMode", (int)mode);
	return ret ? rt_error(ret, "capturing into a sub-graph") : ACL_SUCCESS;
}
