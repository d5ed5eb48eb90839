/* SPDX-License-Identifier: MIT */
/*
 * Stream capture: aclmdlRICaptureBegin/End, what capturing streams do
 * with tasks and events, and the capture modes that decide which threads
 * may still make synchronous ("unsafe") calls.
 *
 * Locking: a stream's lock, then its graph's lock (the full order is in
 * rt_objects.h). The counters of active
 * captures are atomics so the unsafe-call check costs nothing when no
 * capture is going on.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl_rt.h"
#include "graph.h"

static atomic_uint active_captures;	/* captures of any mode */
static atomic_uint active_global;	/* captures begun in GLOBAL mode */
static atomic_ullong capture_gen;
/* Captures the calling thread began, by mode; and its exchanged mode. */
static _Thread_local unsigned int own_global, own_thread_local;
static _Thread_local int thread_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

static pid_t self_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

int graph_exchange_mode(int *mode)
{
	int old = thread_mode;

	if (*mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
	    *mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return -EINVAL;
	thread_mode = *mode;
	*mode = old;
	return 0;
}

/*
 * CANN's rule: with no capture anywhere, or a thread switched to RELAXED,
 * anything goes. A GLOBAL thread is blocked by any GLOBAL capture and by
 * its own THREAD_LOCAL capture; a THREAD_LOCAL thread only by its own
 * non-relaxed captures.
 */
int graph_unsafe_allowed(void)
{
	if (!atomic_load_explicit(&active_captures, memory_order_relaxed))
		return 0;
	if (thread_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return 0;
	if (thread_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
	    (atomic_load(&active_global) || own_thread_local))
		return -CAPERR_MODE;
	if (thread_mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL &&
	    (own_global || own_thread_local))
		return -CAPERR_MODE;
	return 0;
}

static void count_capture(int mode, int delta)
{
	atomic_fetch_add(&active_captures, (unsigned int)delta);
	if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) {
		atomic_fetch_add(&active_global, (unsigned int)delta);
		own_global += (unsigned int)delta;
	} else if (mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) {
		own_thread_local += (unsigned int)delta;
	}
}

static bool is_default_stream(struct rt_stream *s)
{
	return s == s->ctx->default_stream;
}

int graph_capture_begin(struct rt_stream *s, int mode)
{
	struct rt_graph *g;
	int ret;

	if (mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
	    mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return -EINVAL;
	if (is_default_stream(s))
		return -CAPERR_IMPLICIT;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	pthread_mutex_init(&g->lock, NULL);
	g->ctx = s->ctx;
	ret = graph_capture_start(s, g, mode);
	if (ret) {
		graph_free(g);
		return ret;
	}
	graph_register(g);
	return 0;
}

int graph_capture_start(struct rt_stream *s, struct rt_graph *g, int mode)
{
	int ret;

	if (mode < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ||
	    mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
		return -EINVAL;
	if (is_default_stream(s))
		return -CAPERR_IMPLICIT;
	pthread_mutex_lock(&s->lock);
	if (s->graph) {
		pthread_mutex_unlock(&s->lock);
		return -CAPERR_STREAM_CAPTURED;
	}
	/* Work issued before the capture runs now, not in the graph. */
	ret = stream_flush_locked(s);
	if (!ret) {
		pthread_mutex_lock(&g->lock);
		g->state = GRAPH_CAPTURING;
		g->mode = mode;
		g->owner_tid = self_tid();
		g->gen = atomic_fetch_add(&capture_gen, 1) + 1;
		g->members[0] = (struct graph_member){ .stream = s,
						       .open_seg = -1 };
		g->nmembers = 1;
		pthread_mutex_unlock(&g->lock);
		s->graph = g;
		s->member = 0;
	}
	pthread_mutex_unlock(&s->lock);
	if (!ret)
		count_capture(mode, 1);
	return ret;
}

/* A new segment of member m, waiting for dep (or none: -1). */
static int seg_new_locked(struct rt_graph *g, uint32_t m, int64_t dep)
{
	struct graph_seg *seg;

	if (g->nsegs == g->segs_cap) {
		uint32_t cap = g->segs_cap ? 2 * g->segs_cap : 16;
		struct graph_seg *p = realloc(g->segs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		g->segs = p;
		g->segs_cap = cap;
	}
	seg = &g->segs[g->nsegs];
	memset(seg, 0, sizeof(*seg));
	seg->member = m;
	if (dep >= 0) {
		seg->deps = malloc(4 * sizeof(*seg->deps));
		if (!seg->deps)
			return -ENOMEM;
		seg->deps[0] = (uint32_t)dep;
		seg->ndeps = 1;
		seg->deps_cap = 4;
	}
	g->members[m].open_seg = (int32_t)g->nsegs++;
	return 0;
}

static int seg_add_dep(struct graph_seg *seg, uint32_t dep)
{
	for (uint32_t i = 0; i < seg->ndeps; i++)
		if (seg->deps[i] == dep)
			return 0;
	if (seg->ndeps == DRM_VNPU_MAX_SYNCS)
		return -E2BIG;	/* more waits than one job can carry */
	if (seg->ndeps == seg->deps_cap) {
		uint32_t cap = seg->deps_cap ? 2 * seg->deps_cap : 4;
		uint32_t *p = realloc(seg->deps, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		seg->deps = p;
		seg->deps_cap = cap;
	}
	seg->deps[seg->ndeps++] = dep;
	return 0;
}

/* The segment taking member m's next task, opened if needed. */
int graph_open_seg_locked(struct rt_graph *g, uint32_t m,
			  struct graph_seg **out)
{
	int32_t cur = g->members[m].open_seg;
	int ret;

	if (cur < 0 || g->segs[cur].closed) {
		ret = seg_new_locked(g, m, -1);
		if (ret)
			return ret;
		cur = g->members[m].open_seg;
	}
	*out = &g->segs[cur];
	return 0;
}

int graph_seg_push(struct graph_seg *seg, const struct drm_vnpu_task *t,
		   const void *args, uint32_t size)
{
	uint32_t off = UINT32_MAX;

	if (seg->ntasks == seg->tasks_cap) {
		uint32_t cap = seg->tasks_cap ? 2 * seg->tasks_cap : 16;
		struct drm_vnpu_task *p = realloc(seg->tasks, cap * sizeof(*p));
		uint32_t *o;

		if (!p)
			return -ENOMEM;
		seg->tasks = p;
		o = realloc(seg->arg_off, cap * sizeof(*o));
		if (!o)
			return -ENOMEM;
		seg->arg_off = o;
		seg->tasks_cap = cap;
	}
	if (args) {
		/* The block as sent: padded to the task's args_size. */
		size_t need = seg->args_len + t->kernel.args_size;

		if (need > UINT32_MAX)
			return -E2BIG;
		if (need > seg->args_cap) {
			size_t cap = seg->args_cap ? seg->args_cap : 4096;
			uint8_t *p;

			while (cap < need)
				cap *= 2;
			p = realloc(seg->args, cap);
			if (!p)
				return -ENOMEM;
			seg->args = p;
			seg->args_cap = cap;
		}
		memcpy(seg->args + seg->args_len, args, size);
		memset(seg->args + seg->args_len + size, 0,
		       t->kernel.args_size - size);
		off = (uint32_t)seg->args_len;
		seg->args_len = need;
	}
	seg->arg_off[seg->ntasks] = off;
	seg->tasks[seg->ntasks++] = *t;
	return 0;
}

/* Can member m of g take tasks now? */
int graph_recording_check_locked(struct rt_graph *g, uint32_t m)
{
	if (g->invalid)
		return -CAPERR_INVALIDATED;
	if (g->state == GRAPH_READY || g->members[m].ended)
		return -CAPERR_MODEL_STATE;
	return 0;
}

int graph_record_locked(struct rt_stream *s, const struct drm_vnpu_task *t,
			const void *args, uint32_t args_size)
{
	struct rt_graph *g = s->graph;
	struct graph_seg *seg;
	int ret;

	pthread_mutex_lock(&g->lock);
	ret = graph_recording_check_locked(g, s->member);
	if (!ret)
		ret = graph_open_seg_locked(g, s->member, &seg);
	if (!ret)
		ret = graph_seg_push(seg, t, args, args_size);
	if (!ret)
		g->ntasks++;
	pthread_mutex_unlock(&g->lock);
	return ret;
}

int graph_record_event_locked(struct rt_stream *s, struct rt_event *ev,
			      const struct drm_vnpu_task *ts)
{
	struct rt_graph *g = s->graph;
	struct graph_seg *seg;
	int ret;

	pthread_mutex_lock(&g->lock);
	ret = graph_recording_check_locked(g, s->member);
	if (!ret)
		ret = graph_open_seg_locked(g, s->member, &seg);
	if (!ret)
		ret = graph_seg_push(seg, ts, NULL, 0);
	if (!ret) {
		g->ntasks++;
		/* Waiters depend on exactly the work recorded so far. */
		seg->closed = true;
		pthread_mutex_lock(&ev->lock);
		ev->cap_graph = g;
		ev->cap_gen = g->gen;
		ev->cap_seg = (uint32_t)g->members[s->member].open_seg;
		pthread_mutex_unlock(&ev->lock);
	}
	pthread_mutex_unlock(&g->lock);
	return ret;
}

void graph_invalidate_locked(struct rt_stream *s, int err, const char *why)
{
	struct rt_graph *g = s->graph;

	if (!g)
		return;
	pthread_mutex_lock(&g->lock);
	if (!g->invalid) {
		g->invalid = err;
		snprintf(g->invalid_why, sizeof(g->invalid_why), "%s", why);
	}
	pthread_mutex_unlock(&g->lock);
}

/* The graph an event was recorded in, if it still records. */
static struct rt_graph *event_capture(struct rt_event *ev, uint32_t *seg,
				      enum graph_state *state)
{
	struct rt_graph *g;
	uint64_t gen;

	pthread_mutex_lock(&ev->lock);
	g = ev->cap_graph;
	gen = ev->cap_gen;
	*seg = ev->cap_seg;
	pthread_mutex_unlock(&ev->lock);
	if (!g || !graph_live_gen(g, gen, state) || *state == GRAPH_READY)
		return NULL;
	return g;
}

bool graph_event_in_capture(struct rt_event *ev)
{
	enum graph_state state;
	uint32_t seg;

	return event_capture(ev, &seg, &state) && state == GRAPH_CAPTURING;
}

/* Member index of s in g, adding it as a joined stream when absent. */
static int member_of_locked(struct rt_graph *g, struct rt_stream *s,
			    uint32_t *m)
{
	if (s->graph == g) {
		*m = s->member;
		return 0;
	}
	if (s->graph)
		return -CAPERR_CONFLICT;
	/* Only captures pull streams in; built graphs bind them. */
	if (g->state != GRAPH_CAPTURING)
		return -CAPERR_DEPENDENCY;
	if (g->nmembers == GRAPH_MEMBERS)
		return -ENOSPC;
	*m = g->nmembers++;
	g->members[*m] = (struct graph_member){ .stream = s, .open_seg = -1 };
	s->graph = g;
	s->member = *m;
	return 0;
}

/*
 * Stream s waits for event ev. Returns 1 when no capture is involved (the
 * caller does an ordinary wait), 0 when the dependency was recorded.
 */
int graph_wait_event(struct rt_stream *s, struct rt_event *ev)
{
	enum graph_state state;
	struct rt_graph *g;
	uint32_t dep, m;
	bool recorded;
	int ret;

	g = event_capture(ev, &dep, &state);
	pthread_mutex_lock(&s->lock);
	if (!g) {
		if (!s->graph) {
			pthread_mutex_unlock(&s->lock);
			return 1;
		}
		/* A recording stream may only wait for recorded work. */
		pthread_mutex_lock(&ev->lock);
		recorded = ev->recorded && ev->stream;
		pthread_mutex_unlock(&ev->lock);
		ret = 0;
		if (recorded) {
			ret = -CAPERR_DEPENDENCY;
			graph_invalidate_locked(s, ret,
						"a captured stream waited for an event recorded outside the capture");
		}
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	if (is_default_stream(s)) {
		pthread_mutex_unlock(&s->lock);
		return -CAPERR_IMPLICIT;
	}
	/* Work s had queued before joining runs now, not in the graph. */
	ret = s->graph ? 0 : stream_flush_locked(s);
	pthread_mutex_lock(&g->lock);
	if (!ret)
		ret = member_of_locked(g, s, &m);
	if (!ret)
		ret = graph_recording_check_locked(g, m);
	if (!ret && g->segs[dep].member != m) {
		int32_t cur = g->members[m].open_seg;

		g->segs[dep].waited = true;
		if (cur >= 0 && !g->segs[cur].closed && !g->segs[cur].ntasks)
			ret = seg_add_dep(&g->segs[cur], dep);
		else
			ret = seg_new_locked(g, m, dep);
	}
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

struct rt_graph *graph_capturing_locked(struct rt_stream *s)
{
	struct rt_graph *g = s->graph;
	bool capturing;

	if (!g)
		return NULL;
	pthread_mutex_lock(&g->lock);
	capturing = g->state == GRAPH_CAPTURING;
	pthread_mutex_unlock(&g->lock);
	return capturing ? g : NULL;
}

/*
 * A stream's graph is read under the stream's lock and the graph's state
 * under the graph's, which nest outside dev->lock: dev->lock only reads
 * the head of the list. streams_rw, held for reading, keeps the listed
 * streams and their links in place meanwhile (a stream leaves the list
 * only under it held for writing; new ones go in at the head).
 */
bool graph_ctx_capturing(struct rt_context *ctx)
{
	bool capturing = false;
	struct rt_stream *s;
	struct rt_device *dev = ctx->dev;

	if (!atomic_load_explicit(&active_captures, memory_order_relaxed))
		return false;
	pthread_rwlock_rdlock(&dev->streams_rw);
	pthread_mutex_lock(&dev->lock);
	s = dev->streams;
	pthread_mutex_unlock(&dev->lock);
	for (; s && !capturing; s = s->next) {
		if (s->ctx != ctx)
			continue;
		pthread_mutex_lock(&s->lock);
		capturing = graph_capturing_locked(s) != NULL;
		pthread_mutex_unlock(&s->lock);
	}
	pthread_rwlock_unlock(&dev->streams_rw);
	return capturing;
}

int graph_capture_info(struct rt_stream *s, int *status, struct rt_graph **out)
{
	struct rt_graph *g;

	*status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
	pthread_mutex_lock(&s->lock);
	g = s->graph;
	if (g) {
		pthread_mutex_lock(&g->lock);
		if (g->state == GRAPH_CAPTURING)
			*status = g->invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED :
				  ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
		pthread_mutex_unlock(&g->lock);
	}
	*out = *status == ACL_MODEL_RI_CAPTURE_STATUS_NONE ? NULL : g;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

/*
 * Every member's last segment must come before the origin's last one:
 * walk back from the origin's end along dependencies and stream order.
 */
int graph_check_joined_locked(struct rt_graph *g)
{
	int32_t *last = calloc(g->nmembers, sizeof(*last));
	uint32_t *stack = malloc((g->nsegs + 1) * sizeof(*stack));
	uint8_t *seen = calloc(g->nsegs + 1, 1);
	uint32_t n = 0, m, i;
	int ret = 0;

	if (!last || !stack || !seen) {
		ret = -ENOMEM;
		goto out;
	}
	for (m = 0; m < g->nmembers; m++)
		last[m] = -1;
	for (i = 0; i < g->nsegs; i++)
		last[g->segs[i].member] = (int32_t)i;
	if (last[0] >= 0) {
		stack[n++] = (uint32_t)last[0];
		seen[last[0]] = 1;
	}
	while (n) {
		uint32_t cur = stack[--n];
		struct graph_seg *seg = &g->segs[cur];

		for (i = 0; i < seg->ndeps; i++)
			if (!seen[seg->deps[i]]) {
				seen[seg->deps[i]] = 1;
				stack[n++] = seg->deps[i];
			}
		/* The member's previous segment runs before it. */
		for (i = cur; i-- > 0;)
			if (g->segs[i].member == seg->member) {
				if (!seen[i]) {
					seen[i] = 1;
					stack[n++] = i;
				}
				break;
			}
	}
	for (m = 1; m < g->nmembers; m++)
		if (last[m] >= 0 && !seen[last[m]]) {
			ret = -CAPERR_UNJOINED;
			break;
		}
out:
	free(last);
	free(stack);
	free(seen);
	return ret;
}

void graph_release_members(struct rt_graph *g)
{
	uint32_t n;

	pthread_mutex_lock(&g->lock);
	n = g->nmembers;
	pthread_mutex_unlock(&g->lock);
	for (uint32_t m = 0; m < n; m++) {
		struct rt_stream *s;

		/* NULL once destroyed (graph_forget_stream) or unbound. */
		pthread_mutex_lock(&g->lock);
		s = g->members[m].stream;
		pthread_mutex_unlock(&g->lock);
		if (!s)
			continue;
		pthread_mutex_lock(&s->lock);
		if (s->graph == g)
			s->graph = NULL;
		pthread_mutex_unlock(&s->lock);
	}
}

void graph_capture_abort(struct rt_graph *g)
{
	bool was;

	pthread_mutex_lock(&g->lock);
	was = g->state == GRAPH_CAPTURING;
	if (was)
		g->state = GRAPH_READY;
	pthread_mutex_unlock(&g->lock);
	if (!was)
		return;
	if (g->owner_tid == self_tid()) {
		count_capture(g->mode, -1);
		return;
	}
	/* Another thread's own count is out of reach: only the totals. */
	atomic_fetch_sub(&active_captures, 1);
	if (g->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
		atomic_fetch_sub(&active_global, 1);
}

int graph_capture_end(struct rt_stream *s, struct rt_graph **out)
{
	struct rt_graph *g;
	int ret;

	pthread_mutex_lock(&s->lock);
	g = graph_capturing_locked(s);
	ret = !g ? -CAPERR_NOT_CAPTURED :
	      s->member != 0 ? -CAPERR_UNMATCHED :
	      g->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
	      g->owner_tid != self_tid() ? -CAPERR_WRONG_THREAD : 0;
	pthread_mutex_unlock(&s->lock);
	if (ret)
		return ret;

	pthread_mutex_lock(&g->lock);
	g->state = GRAPH_READY;		/* no member takes tasks any more */
	ret = g->invalid ? -CAPERR_INVALIDATED : graph_check_joined_locked(g);
	/* A sub-graph waits for its parent's end; a parent inlines them. */
	if (!ret)
		ret = g->parent ? 0 : graph_cond_finish_locked(g);
	if (!ret && g->parent)
		g->sub_captured = true;
	pthread_mutex_unlock(&g->lock);
	graph_release_members(g);
	count_capture(g->mode, -1);
	if (ret == -CAPERR_INVALIDATED)
		core_detail("%s", g->invalid_why);
	if (g->parent) {
		/* Sub-graphs are in no list graph_forget_stream() walks. */
		pthread_mutex_lock(&g->lock);
		g->nmembers = 0;
		pthread_mutex_unlock(&g->lock);
		*out = g;
		return ret;
	}
	if (!ret)
		ret = graph_instantiate(g);
	if (ret) {
		graph_destroy(g);
		return ret;
	}
	*out = g;
	return 0;
}

bool graph_stream_records(struct rt_stream *s)
{
	bool records;

	pthread_mutex_lock(&s->lock);
	records = s->graph != NULL;
	pthread_mutex_unlock(&s->lock);
	return records;
}
