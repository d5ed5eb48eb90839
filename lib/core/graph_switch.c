/* SPDX-License-Identifier: MIT */
/*
 * Stream switching in built graphs: aclrtActiveStream and
 * aclrtSwitchStream on streams bound with aclmdlRIBindStream, as CANN's
 * model-switch sample uses them.
 *
 * In such a graph only the head stream starts; another bound stream runs
 * when a stream that ran activates it (ActiveStream, or the chosen side
 * of a SwitchStream), at most once per launch. Each stream other than
 * the head gets an activation word. ActiveStream records a WRITE_VALUE of
 * 1 to the word; SwitchStream records a JUMP comparing the two operands
 * that picks one of two such writes. At BuildEnd the streams are laid
 * out one after the other in one segment of the head: the words are
 * zeroed, the head's tasks run, then each other stream's tasks guarded
 * by a JUMP over them while its word is 0, in an order where a stream
 * comes after every stream that can activate it. The streams then run
 * one after another on the replaying stream's queue, which is one valid
 * schedule of CANN's concurrent one (they share no events: such a graph
 * may not use them between its streams).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "graph.h"
#include "../kmd/kmd.h"

static uint64_t act_va(const struct rt_graph *g, uint32_t m)
{
	return (uintptr_t)g->act_words + 8 * (uint64_t)m;
}

/* s and g locked. The member of other in g, which must not be the head. */
static int target_member(struct rt_graph *g, struct rt_stream *other,
			 uint32_t *m)
{
	if (!other || other->graph != g)
		return -CAPERR_STREAM_MODEL;
	if (other->member == 0)
		return -EINVAL;
	*m = other->member;
	return 0;
}

/* s locked: its built graph, ready for control flow. */
static int ctl_graph(struct rt_stream *s, struct rt_graph **out)
{
	struct rt_graph *g = s->graph;
	int ret = 0;

	if (!g)
		return -CAPERR_STREAM_MODEL;
	pthread_mutex_lock(&g->lock);
	if (!g->built)
		ret = -CAPERR_COND_UNSUPPORTED;	/* captures: not supported */
	else if (g->state != GRAPH_BUILDING)
		ret = -CAPERR_MODEL_STATE;
	pthread_mutex_unlock(&g->lock);
	if (!ret && !g->act_words) {
		ret = alloc_device(g->ctx->dev, 8 * GRAPH_MEMBERS, false,
				   &g->act_words);
		if (ret)
			g->act_words = NULL;
	}
	*out = g;
	return ret;
}

/* The index the next task of s will have in its segment (s, g locked). */
static uint32_t next_index(struct rt_graph *g, struct rt_stream *s)
{
	int32_t cur = g->members[s->member].open_seg;

	return cur < 0 || g->segs[cur].closed ? 0 : g->segs[cur].ntasks;
}

int graph_active_stream(struct rt_stream *s, struct rt_stream *active)
{
	struct drm_vnpu_task w = { .type = DRM_VNPU_TASK_WRITE_VALUE };
	struct rt_graph *g;
	uint32_t m = 0;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = ctl_graph(s, &g);
	if (!ret) {
		pthread_mutex_lock(&g->lock);
		ret = target_member(g, active, &m);
		pthread_mutex_unlock(&g->lock);
	}
	if (!ret) {
		w.value.addr = act_va(g, m);
		w.value.value = 1;
		ret = graph_record_locked(s, &w, NULL, 0);
	}
	if (!ret) {
		pthread_mutex_lock(&g->lock);
		g->ctl_flow = true;
		g->can_activate[s->member] |= 1ull << m;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int graph_switch_stream(struct rt_stream *s, uint64_t left, uint32_t cond,
			uint64_t right, bool is32, struct rt_stream *ts,
			struct rt_stream *fs)
{
	struct drm_vnpu_task t[4];
	struct rt_graph *g;
	uint32_t mt = 0, mf = 0, base;
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = ctl_graph(s, &g);
	if (!ret) {
		pthread_mutex_lock(&g->lock);
		ret = target_member(g, ts, &mt);
		if (!ret && fs)
			ret = target_member(g, fs, &mf);
		base = next_index(g, s);
		pthread_mutex_unlock(&g->lock);
	}
	if (ret) {
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	/*
	 * base+0: JUMP left <cond> right -> base+3
	 * base+1: activate the false stream (or NOP)
	 * base+2: JUMP -> base+4
	 * base+3: activate the true stream
	 * Targets are indices in the stream's segment; BuildEnd moves them.
	 */
	memset(t, 0, sizeof(t));
	t[0].type = DRM_VNPU_TASK_JUMP;
	t[0].jump.addr = left;
	t[0].jump.value = right;
	t[0].jump.cond = cond;
	t[0].jump.target = base + 3;
	t[0].jump.flags = DRM_VNPU_JUMP_VALUE_ADDR |
			  (is32 ? DRM_VNPU_JUMP_32BIT : 0);
	t[1].type = fs ? DRM_VNPU_TASK_WRITE_VALUE : DRM_VNPU_TASK_NOP;
	if (fs) {
		t[1].value.addr = act_va(g, mf);
		t[1].value.value = 1;
	}
	t[2].type = DRM_VNPU_TASK_JUMP;
	t[2].jump.cond = DRM_VNPU_JUMP_ALWAYS;
	t[2].jump.target = base + 4;
	t[3].type = DRM_VNPU_TASK_WRITE_VALUE;
	t[3].value.addr = act_va(g, mt);
	t[3].value.value = 1;
	for (int i = 0; !ret && i < 4; i++)
		ret = graph_record_locked(s, &t[i], NULL, 0);
	if (!ret) {
		pthread_mutex_lock(&g->lock);
		g->ctl_flow = true;
		g->can_activate[s->member] |= 1ull << mt;
		if (fs)
			g->can_activate[s->member] |= 1ull << mf;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Members 1.. in an order where activators come first; -1 on a cycle. */
static int topo_order(const struct rt_graph *g, uint32_t *order)
{
	uint32_t n = g->nmembers, done = 0, indeg[GRAPH_MEMBERS] = { 0 };
	uint64_t placed = 1;	/* the head runs first */

	for (uint32_t a = 1; a < n; a++)
		for (uint32_t b = 1; b < n; b++)
			if (a != b && (g->can_activate[a] >> b & 1))
				indeg[b]++;
	while (done < n - 1) {
		uint32_t m;

		for (m = 1; m < n; m++)
			if (!(placed >> m & 1) && !indeg[m])
				break;
		if (m == n)
			return -1;
		placed |= 1ull << m;
		order[done++] = m;
		for (uint32_t b = 1; b < n; b++)
			if (b != m && (g->can_activate[m] >> b & 1))
				indeg[b]--;
	}
	return 0;
}

/* Append the tasks of seg, jump targets moved by its new start. */
static int append_block(struct graph_seg *dst, const struct graph_seg *src)
{
	uint32_t base = dst->ntasks, need = dst->ntasks + src->ntasks;

	if (need > DRM_VNPU_MAX_TASKS || dst->args_len + src->args_len >
	    DRM_VNPU_MAX_ARGS_SIZE)
		return -CAPERR_COND_UNSUPPORTED;
	if (need > dst->tasks_cap) {
		struct drm_vnpu_task *t = realloc(dst->tasks, need * sizeof(*t));
		uint32_t *o;

		if (!t)
			return -ENOMEM;
		dst->tasks = t;
		o = realloc(dst->arg_off, need * sizeof(*o));
		if (!o)
			return -ENOMEM;
		dst->arg_off = o;
		dst->tasks_cap = need;
	}
	if (src->args_len) {
		uint8_t *a = realloc(dst->args, dst->args_len + src->args_len);

		if (!a)
			return -ENOMEM;
		dst->args = a;
		memcpy(a + dst->args_len, src->args, src->args_len);
	}
	for (uint32_t i = 0; i < src->ntasks; i++) {
		struct drm_vnpu_task t = src->tasks[i];

		if (t.type == DRM_VNPU_TASK_JUMP)
			t.jump.target += base;
		dst->tasks[base + i] = t;
		dst->arg_off[base + i] = src->arg_off[i] == UINT32_MAX ?
			UINT32_MAX : src->arg_off[i] + (uint32_t)dst->args_len;
	}
	dst->args_len += src->args_len;
	dst->args_cap = dst->args_len;
	dst->ntasks = need;
	return 0;
}

static int push_task(struct graph_seg *dst, const struct drm_vnpu_task *t)
{
	struct graph_seg one = {
		.tasks = (struct drm_vnpu_task *)t,
		.arg_off = &(uint32_t){ UINT32_MAX },
		.ntasks = 1,
	};

	return append_block(dst, &one);
}

/*
 * At BuildEnd, before the join check (g locked): a graph with control
 * flow becomes one segment of the head, laid out as the header says.
 */
int graph_switch_finish_locked(struct rt_graph *g)
{
	struct graph_seg out = { 0 }, *by_member[GRAPH_MEMBERS] = { 0 };
	struct drm_vnpu_task t;
	uint32_t order[GRAPH_MEMBERS], m, i;
	int ret = 0;

	if (!g->ctl_flow)
		return 0;
	for (i = 0; i < g->nsegs; i++) {
		if (by_member[g->segs[i].member] || g->segs[i].ndeps ||
		    g->segs[i].waited)
			return -CAPERR_COND_UNSUPPORTED;	/* events */
		by_member[g->segs[i].member] = &g->segs[i];
	}
	if (topo_order(g, order))
		return -CAPERR_COND_UNSUPPORTED;	/* activation cycle */
	for (m = 1; !ret && m < g->nmembers; m++) {
		t = (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WRITE_VALUE,
			.value = { .addr = act_va(g, m) } };
		ret = push_task(&out, &t);
	}
	if (!ret && by_member[0])
		ret = append_block(&out, by_member[0]);
	for (i = 0; !ret && i + 1 < g->nmembers; i++) {
		struct graph_seg *seg = by_member[order[i]];
		uint32_t at;

		if (!seg || !seg->ntasks)
			continue;
		at = out.ntasks;
		t = (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_JUMP,
			.jump = { .addr = act_va(g, order[i]),
				  .cond = DRM_VNPU_JUMP_EQ } };
		ret = push_task(&out, &t);
		if (!ret)
			ret = append_block(&out, seg);
		if (!ret)
			out.tasks[at].jump.target = out.ntasks;
	}
	/* Jumps may land right past the end: give them a task there. */
	if (!ret) {
		t = (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_NOP };
		ret = push_task(&out, &t);
	}
	if (ret) {
		free(out.tasks);
		free(out.arg_off);
		free(out.args);
		return ret;
	}
	for (i = 0; i < g->nsegs; i++) {
		free(g->segs[i].tasks);
		free(g->segs[i].args);
		free(g->segs[i].arg_off);
		free(g->segs[i].deps);
	}
	if (!g->segs) {
		g->segs = calloc(1, sizeof(*g->segs));
		if (!g->segs) {
			free(out.tasks);
			free(out.arg_off);
			free(out.args);
			return -ENOMEM;
		}
		g->segs_cap = 1;
	}
	out.member = 0;
	out.closed = true;
	g->segs[0] = out;
	g->nsegs = 1;
	g->ntasks = out.ntasks;
	for (m = 0; m < g->nmembers; m++)
		g->members[m].open_seg = m ? -1 : 0;
	/* Laid out once: a BuildEnd retried after a failure keeps this. */
	g->ctl_flow = false;
	return 0;
}

int graph_stage_pageable(struct rt_stream *s, const void *src, size_t count,
			 uint64_t *va)
{
	struct rt_device *dev = s->ctx->dev;
	struct rt_graph *g;
	void *p = NULL, **list;
	int ret = 1;

	pthread_mutex_lock(&s->lock);
	g = s->graph;
	if (g) {
		pthread_mutex_lock(&g->lock);
		if (g->built && g->state == GRAPH_BUILDING) {
			list = realloc(g->staged, (g->nstaged + 1) * sizeof(*list));
			ret = list ? alloc_host(dev, count, &p) : -ENOMEM;
			if (list)
				g->staged = list;
			if (!ret) {
				memcpy(p, src, count);
				g->staged[g->nstaged++] = p;
				*va = alloc_host_va(dev, p, count);
				ret = *va ? 0 : -EFAULT;
			}
		}
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void graph_switch_destroy(struct rt_graph *g)
{
	if (g->act_words)
		alloc_free(g->ctx->dev, g->act_words);
	g->act_words = NULL;
	for (uint32_t i = 0; i < g->nstaged; i++)
		alloc_free_host(g->ctx->dev, g->staged[i]);
	free(g->staged);
	g->staged = NULL;
	g->nstaged = 0;
}
