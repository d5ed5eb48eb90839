/* SPDX-License-Identifier: MIT */
/*
 * Task groups and their updates: aclmdlRICaptureTaskGrpBegin/End mark
 * tasks of a capture, aclmdlRICaptureTaskUpdateBegin/End re-capture them
 * on another stream and patch the graph (lib/core/graph_update.c).
 */
#include <errno.h>

#include "mdl_ri.h"
#include "../core/entry_check.h"
#include "../core/prof_rt.h"

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_group_begin(s);
	return ret ? rt_error(ret, "beginning a task group") : ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	*handle = NULL;
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_group_end(s, handle);
	return ret ? rt_error(ret, "ending a task group") : ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_update_begin(s, handle);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"handle %p is not a task group of a live graph",
				handle);
	return ret ? rt_error(ret, "beginning a task update") : ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_update_end(s);
	return ret ? rt_error(ret, "ending a task update") : ACL_SUCCESS;
}

/*
 * CANN pairs aclmdlRIUpdate with aclmdlRITaskSetParams / aclmdlRITaskDisable
 * (task introspection, not supported): it applies their pending changes.
 * Task group updates apply at aclmdlRICaptureTaskUpdateEnd, so a graph
 * never has changes pending here: a finished graph succeeds, unchanged.
 */
aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
	PROF_API();
	enum graph_state state;
	struct rt_graph *g;
	aclError e;

	RT_REQUIRE_INIT();
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	pthread_mutex_lock(&g->lock);
	state = g->state;
	pthread_mutex_unlock(&g->lock);
	if (state != GRAPH_READY)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"modelRI %p is still being captured or built",
				modelRI);
	return ACL_SUCCESS;
}
