/* SPDX-License-Identifier: MIT */
/*
 * The manual build flow: aclmdlRIBuildBegin, streams created with
 * ACL_STREAM_PERSISTENT bound to the graph record their tasks (the head
 * stream is member 0), aclmdlRIEndTask closes a stream, aclmdlRIBuildEnd
 * registers the command buffers. Bound streams stay bound until
 * aclmdlRIUnbindStream; aclmdlRIExecute replays on the head stream.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl_rt.h"
#include "graph.h"

static atomic_ullong build_gen = 1ULL << 63;	/* apart from captures */

int graph_build_begin(struct rt_context *ctx, struct rt_graph **out)
{
	struct rt_graph *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	pthread_mutex_init(&g->lock, NULL);
	g->ctx = ctx;
	g->state = GRAPH_BUILDING;
	g->built = true;
	g->mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	g->owner_tid = (pid_t)syscall(SYS_gettid);
	g->gen = atomic_fetch_add(&build_gen, 1);
	g->members[0].open_seg = -1;	/* the head, once bound */
	g->nmembers = 1;
	graph_register(g);
	*out = g;
	return 0;
}

int graph_bind_stream(struct rt_graph *g, struct rt_stream *s, bool head)
{
	uint32_t m;
	int ret = 0;

	if (!(s->flags & ACL_STREAM_PERSISTENT) || s == s->ctx->default_stream)
		return -EINVAL;
	if (s->ctx != g->ctx)
		return -EXDEV;
	pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&g->lock);
	if (s->graph)
		ret = -CAPERR_STREAM_CAPTURED;
	else if (g->state != GRAPH_BUILDING)
		ret = -CAPERR_MODEL_STATE;
	else if (head && g->members[0].stream)
		ret = -EEXIST;
	else if (!head && g->nmembers == GRAPH_MEMBERS)
		ret = -ENOSPC;
	if (!ret)
		ret = stream_flush_locked(s);
	if (!ret) {
		m = head ? 0 : g->nmembers++;
		g->members[m] = (struct graph_member){ .stream = s, .open_seg = -1 };
		s->graph = g;
		s->member = m;
	}
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int graph_end_task(struct rt_graph *g, struct rt_stream *s)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&g->lock);
	if (s->graph != g)
		ret = -CAPERR_STREAM_MODEL;
	else if (g->state != GRAPH_BUILDING)
		ret = -CAPERR_MODEL_STATE;
	else
		g->members[s->member].ended = true;
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int graph_build_end(struct rt_graph *g)
{
	int ret;

	pthread_mutex_lock(&g->lock);
	ret = g->state != GRAPH_BUILDING ? -CAPERR_MODEL_STATE :
	      !g->members[0].stream ? -CAPERR_UNJOINED :
	      graph_switch_finish_locked(g);
	if (!ret)
		ret = graph_check_joined_locked(g);
	if (!ret)
		g->state = GRAPH_READY;
	pthread_mutex_unlock(&g->lock);
	if (!ret) {
		ret = graph_instantiate(g);
		if (ret) {
			pthread_mutex_lock(&g->lock);
			g->state = GRAPH_BUILDING;
			pthread_mutex_unlock(&g->lock);
		}
	}
	return ret;
}

int graph_unbind_stream(struct rt_graph *g, struct rt_stream *s)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&g->lock);
	if (s->graph != g) {
		ret = -CAPERR_STREAM_MODEL;
	} else {
		g->members[s->member].stream = NULL;
		s->graph = NULL;
	}
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}
