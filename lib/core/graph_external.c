/* SPDX-License-Identifier: MIT */
/*
 * External event records and waits in a capture (ACL_EVENT_RECORD_EXTERNAL,
 * ACL_EVENT_WAIT_EXTERNAL). Unlike ordinary records and waits, which link
 * streams inside the graph, these link a graph's replays with work outside
 * it, so they act at every replay:
 *
 *  - an external record captures the event's TIMESTAMP task into the graph
 *    and, after each replay, marks the event recorded by the replay's last
 *    job on the stream it ran on: waiters outside see the event complete
 *    once that replay has finished (all of it, not only the work before
 *    the record; a coarser but safe point);
 *  - an external wait makes each replay start after the event's latest
 *    record at replay time: the wait is added in front of the whole
 *    replay (again coarser than the captured position, never later).
 *
 * The graph keeps the events by address, like every resource a captured
 * task uses; events destroyed before a replay are skipped.
 */
#include <errno.h>

#include "graph.h"
#include "rt_objects.h"

/* The graph s captures into, locked, or -CAPERR_NOT_CAPTURED. */
static int capturing_locked(struct rt_stream *s, struct rt_graph **out)
{
	struct rt_graph *g = s->graph;

	if (!g)
		return -CAPERR_NOT_CAPTURED;
	pthread_mutex_lock(&g->lock);
	if (g->state != GRAPH_CAPTURING) {
		pthread_mutex_unlock(&g->lock);
		return -CAPERR_NOT_CAPTURED;
	}
	if (g->invalid) {
		pthread_mutex_unlock(&g->lock);
		return -CAPERR_INVALIDATED;
	}
	*out = g;
	return 0;
}

/* Add ev to a graph's list once. Called with the graph's lock held. */
static int list_add(struct rt_event **list, uint32_t *n, struct rt_event *ev)
{
	for (uint32_t i = 0; i < *n; i++)
		if (list[i] == ev)
			return 0;
	if (*n == GRAPH_EXT_EVENTS) {
		core_detail("a graph can hold at most %d external records and %d external waits",
			    GRAPH_EXT_EVENTS, GRAPH_EXT_EVENTS);
		return -ENOSPC;
	}
	list[(*n)++] = ev;
	return 0;
}

int graph_record_external(struct rt_stream *s, struct rt_event *ev,
			  const struct drm_vnpu_task *ts)
{
	struct rt_graph *g;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = capturing_locked(s, &g);
	if (!ret) {
		ret = list_add(g->ext_rec, &g->next_rec, ev);
		pthread_mutex_unlock(&g->lock);
	}
	/* The timestamp is an ordinary task of the graph. */
	if (!ret)
		ret = graph_record_locked(s, ts, NULL, 0);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int graph_wait_external(struct rt_stream *s, struct rt_event *ev)
{
	struct rt_graph *g;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = capturing_locked(s, &g);
	if (!ret) {
		ret = list_add(g->ext_wait, &g->next_wait, ev);
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int graph_external_waits(struct rt_graph *g, struct rt_stream *s)
{
	struct rt_event *evs[GRAPH_EXT_EVENTS];
	uint32_t n;
	int ret = 0;

	pthread_mutex_lock(&g->lock);
	n = g->state == GRAPH_READY ? g->next_wait : 0;
	for (uint32_t i = 0; i < n; i++)
		evs[i] = g->ext_wait[i];
	pthread_mutex_unlock(&g->lock);
	for (uint32_t i = 0; !ret && i < n; i++)
		if (handle_live(HANDLE_EVENT, evs[i]))
			ret = event_wait_plain(s, evs[i]);
	return ret;
}

void graph_external_before_locked(struct rt_graph *g, uint64_t *prev)
{
	for (uint32_t i = 0; i < g->next_rec; i++)
		prev[i] = handle_live(HANDLE_EVENT, g->ext_rec[i]) ?
			  event_slot_value(g->ext_rec[i]) : 0;
}

void graph_external_records_locked(struct rt_graph *g, struct rt_stream *s,
				   const uint64_t *prev)
{
	for (uint32_t i = 0; i < g->next_rec; i++)
		if (handle_live(HANDLE_EVENT, g->ext_rec[i]))
			event_set_record(g->ext_rec[i], s, s->last_seq, prev[i]);
}
