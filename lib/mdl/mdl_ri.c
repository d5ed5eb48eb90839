/* SPDX-License-Identifier: MIT */
/*
 * ACL graphs (aclmdlRI*): capture, replay, teardown and introspection.
 * The manual build flow is in mdl_ri_build.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mdl_ri.h"
#include "../core/entry_check.h"
#include "../core/prof_rt.h"

aclError mdl_graph_arg(const char *func, aclmdlRI ri, struct rt_graph **g)
{
	if (!ri)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "modelRI must not be NULL");
	if (graph_lookup(ri, g))
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "modelRI %p is not a live graph", ri);
	return ACL_SUCCESS;
}

aclError mdl_graph_stream_args(const char *func, aclmdlRI ri,
			       aclrtStream stream, bool required,
			       struct rt_graph **g, struct rt_stream **s)
{
	aclError e = mdl_graph_arg(func, ri, g);

	if (e)
		return e;
	return required ? rt_stream_arg_required(func, stream, s) :
			  rt_stream_arg(func, stream, s);
}

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
	PROF_API();
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_capture_begin(s, (int)mode);
	if (ret == -EINVAL)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"mode %d is not an aclmdlRICaptureMode", (int)mode);
	return ret ? rt_error(ret, "beginning the capture") : ACL_SUCCESS;
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream,
				aclmdlRICaptureStatus *status, aclmdlRI *modelRI)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	aclError e;
	int st;

	RT_REQUIRE_INIT();
	if (!status && !modelRI)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"status and modelRI must not both be NULL");
	e = rt_stream_arg_required(__func__, stream, &s);
	if (e)
		return e;
	graph_capture_info(s, &st, &g);
	if (status)
		*status = (aclmdlRICaptureStatus)st;
	if (modelRI)
		*modelRI = g;
	return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(modelRI);
	e = rt_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	ret = graph_capture_end(s, &g);
	if (ret)
		return rt_error(ret, "ending the capture");
	*modelRI = g;
	return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
	PROF_API();
	int m;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(mode);
	m = (int)*mode;
	if (graph_exchange_mode(&m))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"mode %d is not an aclmdlRICaptureMode", (int)*mode);
	*mode = (aclmdlRICaptureMode)m;
	return ACL_SUCCESS;
}

/* A replay is a model execution of the graph for the profiler. */
static void graph_prof_model(const struct rt_graph *g, int32_t device,
			     uint32_t queue, uint64_t t0)
{
	char name[160];

	if (!prof_rt_on(~0ull))
		return;
	if (g->name[0])
		snprintf(name, sizeof(name), "%s", g->name);
	else
		snprintf(name, sizeof(name), "graph_%u", g->id);
	prof_rt_model(g->id, name, device, queue, t0);
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
	PROF_API();
	struct rt_graph *g;
	struct rt_stream *s;
	uint64_t t0;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	e = mdl_graph_stream_args(__func__, modelRI, stream, false, &g, &s);
	if (e)
		return e;
	t0 = prof_rt_now();
	ret = graph_execute(g, s);
	if (!ret)
		graph_prof_model(g, s->ctx->dev->id, s->queue_id, t0);
	return ret ? rt_error(ret, "replaying the graph") : ACL_SUCCESS;
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
	PROF_API();
	struct rt_graph *g;
	uint64_t t0;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_CHECK_TIMEOUT(timeout);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	if (!g->built)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"aclmdlRIExecute runs graphs of aclmdlRIBuildBegin; replay a captured graph with aclmdlRIExecuteAsync");
	t0 = prof_rt_now();
	ret = graph_execute_sync(g, timeout);
	if (!ret)
		graph_prof_model(g, g->ctx->dev->id, 0, t0);
	return ret ? rt_error_at(__func__, ret, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
				 "running the graph") : ACL_SUCCESS;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
	PROF_API();
	struct rt_graph *g;
	bool capturing;
	aclError e;

	RT_REQUIRE_INIT();
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	pthread_mutex_lock(&g->lock);
	capturing = g->state == GRAPH_CAPTURING;
	pthread_mutex_unlock(&g->lock);
	if (capturing)
		return rt_error(-CAPERR_STREAM_CAPTURED,
				"destroying a graph whose capture has not ended");
	graph_release_members(g);
	graph_destroy(g);
	return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path,
				uint32_t flags)
{
	PROF_API();
	struct rt_graph *g;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(path);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	if (flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flags 0x%x: use ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY or _VERBOSE",
				flags);
	ret = graph_json_print(g, path, flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE);
	if (ret == -ENOENT || ret == -EACCES || ret == -EROFS ||
	    ret == -EISDIR || ret == -ENOTDIR)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "cannot write %s: %s",
				path, strerror(-ret));
	return ret ? rt_error(ret, "writing the graph") : ACL_SUCCESS;
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
	PROF_API();
	struct rt_graph *g;
	aclError e;

	RT_REQUIRE_INIT();
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	pthread_mutex_lock(&g->lock);
	printf("aclmdlRI %u \"%s\": %u streams, %u segments, %llu tasks, %llu replays\n",
	       g->id, g->name, g->nmembers, g->nsegs,
	       (unsigned long long)g->ntasks, (unsigned long long)g->replays);
	pthread_mutex_unlock(&g->lock);
	return ACL_SUCCESS;
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
	PROF_API();
	struct rt_graph *g;
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(name);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	if (strlen(name) >= sizeof(g->name))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"name is longer than %zu characters",
				sizeof(g->name) - 1);
	pthread_mutex_lock(&g->lock);
	snprintf(g->name, sizeof(g->name), "%s", name);
	pthread_mutex_unlock(&g->lock);
	return ACL_SUCCESS;
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
	PROF_API();
	struct rt_graph *g;
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(name);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	pthread_mutex_lock(&g->lock);
	e = strlen(g->name) >= maxLen ?
	    acl_fail(ACL_ERROR_INVALID_PARAM,
		     "maxLen %u cannot hold the name (%zu characters and NUL)",
		     maxLen, strlen(g->name)) : ACL_SUCCESS;
	if (!e)
		memcpy(name, g->name, strlen(g->name) + 1);
	pthread_mutex_unlock(&g->lock);
	return e;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
	PROF_API();
	struct rt_graph *g;
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(modelRIId);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (!e)
		*modelRIId = g->id;
	return e;
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams,
			    uint32_t *numStreams)
{
	PROF_API();
	struct rt_graph *g;
	uint32_t n = 0;
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(numStreams);
	e = mdl_graph_arg(__func__, modelRI, &g);
	if (e)
		return e;
	pthread_mutex_lock(&g->lock);
	for (uint32_t m = 0; m < g->nmembers; m++) {
		if (!g->members[m].stream)
			continue;
		if (streams && n < *numStreams)
			streams[n] = g->members[m].stream;
		n++;
	}
	pthread_mutex_unlock(&g->lock);
	if (streams && n > *numStreams)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"the graph has %u streams, more than *numStreams (%u)",
				n, *numStreams);
	*numStreams = n;
	return ACL_SUCCESS;
}
