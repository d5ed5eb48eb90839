/* SPDX-License-Identifier: MIT */
/*
 * Graphs as kernel command buffers: registration (once, at the end of a
 * capture or build), replay (one SUBMIT per command buffer, with syncobj
 * dependencies between branches) and teardown. Also the table of live
 * graphs that makes handles checkable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../kmd/kmd.h"
#include "graph.h"
#include "submit_path.h"

static pthread_mutex_t graphs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_graph *graphs;
static uint32_t next_id;

void graph_register(struct rt_graph *g)
{
	pthread_mutex_lock(&graphs_lock);
	g->magic = GRAPH_MAGIC;
	g->id = next_id++;
	g->next = graphs;
	graphs = g;
	pthread_mutex_unlock(&graphs_lock);
}

static bool live_locked(struct rt_graph *g)
{
	for (struct rt_graph *p = graphs; p; p = p->next)
		if (p == g)
			return true;
	return false;
}

int graph_lookup(void *handle, struct rt_graph **out)
{
	bool live;

	pthread_mutex_lock(&graphs_lock);
	live = handle && live_locked(handle);
	pthread_mutex_unlock(&graphs_lock);
	if (!live)
		return -ENOENT;
	*out = handle;
	return 0;
}

int graph_group_hold(void *handle, struct graph_group **out)
{
	pthread_mutex_lock(&graphs_lock);
	for (struct rt_graph *g = graphs; handle && g; g = g->next) {
		/* Only g's capture adds groups, under g's lock. */
		pthread_mutex_lock(&g->lock);
		for (uint32_t i = 0; i < g->ngroups; i++)
			if (g->groups[i] == handle) {
				pthread_mutex_unlock(&g->lock);
				*out = handle;
				return 0;
			}
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&graphs_lock);
	return -ENOENT;
}

void graph_group_release(void)
{
	pthread_mutex_unlock(&graphs_lock);
}

bool graph_live_gen(struct rt_graph *g, uint64_t gen, enum graph_state *state)
{
	bool live;

	pthread_mutex_lock(&graphs_lock);
	/* A conditional sub-graph is its parent's, but captures like one. */
	live = (live_locked(g) || graph_cond_is_sub(g)) && g->gen == gen;
	if (live) {
		pthread_mutex_lock(&g->lock);
		*state = g->state;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&graphs_lock);
	return live;
}

uint32_t graph_queues_on(struct rt_device *dev)
{
	uint32_t n = 0;

	pthread_mutex_lock(&graphs_lock);
	for (struct rt_graph *g = graphs; g; g = g->next) {
		if (g->ctx->dev != dev)
			continue;
		pthread_mutex_lock(&g->lock);
		for (uint32_t m = 1; m < g->nmembers; m++)
			n += g->members[m].queue_id != 0;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&graphs_lock);
	return n;
}

static void unregister(struct rt_graph *g)
{
	pthread_mutex_lock(&graphs_lock);
	for (struct rt_graph **pp = &graphs; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			break;
		}
	g->magic = 0;
	pthread_mutex_unlock(&graphs_lock);
}

/*
 * In a forked child the parent's graphs are not ours: their command
 * buffers live in the parent's (shared) DRM file. Forget them unfreed.
 */
void graph_forget_after_fork(void)
{
	pthread_mutex_init(&graphs_lock, NULL);
	graphs = NULL;
}

void graph_forget_context(struct rt_context *ctx)
{
	struct rt_graph *g;

	for (;;) {
		pthread_mutex_lock(&graphs_lock);
		for (g = graphs; g && g->ctx != ctx; g = g->next)
			;
		pthread_mutex_unlock(&graphs_lock);
		if (!g)
			break;
		graph_capture_abort(g);
		graph_release_members(g);
		graph_destroy(g);
	}
}

/*
 * s is being destroyed: no graph may keep pointing at it. A captured
 * graph keeps its members after the capture (aclmdlRIGetStreams lists
 * them), but its streams may be destroyed before it is.
 */
void graph_forget_stream(struct rt_stream *s)
{
	graph_update_forget_stream(s);
	pthread_mutex_lock(&graphs_lock);
	for (struct rt_graph *g = graphs; g; g = g->next) {
		pthread_mutex_lock(&g->lock);
		for (uint32_t m = 0; m < g->nmembers; m++)
			if (g->members[m].stream == s)
				g->members[m].stream = NULL;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&graphs_lock);
}

void graph_free(struct rt_graph *g)
{
	for (uint32_t i = 0; i < g->nsegs; i++) {
		free(g->segs[i].tasks);
		free(g->segs[i].args);
		free(g->segs[i].arg_off);
		free(g->segs[i].deps);
		free(g->segs[i].pieces);
		free(g->segs[i].in_syncs);
		free(g->segs[i].cuts);
	}
	graph_groups_free(g);
	free(g->segs);
	free(g->steps);
	free(g->reqs);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

/*
 * Cut a segment into command buffers the driver accepts (task count and
 * argument block size), rebasing each KERNEL task's argument offset.
 */
static int seg_register(int fd, struct graph_seg *seg)
{
	static const struct drm_vnpu_task nop = { .type = DRM_VNPU_TASK_NOP };
	struct drm_vnpu_task *tasks = NULL;
	uint8_t *args = NULL;
	uint32_t i = 0, c = 0;
	int ret = 0;

	if (!seg->ntasks) {
		/* Only dependencies: a NOP carries them. */
		seg->pieces = calloc(1, sizeof(*seg->pieces));
		if (!seg->pieces)
			return -ENOMEM;
		seg->npieces = 1;
		return kmd_cmdbuf_create(fd, &nop, 1, NULL, 0,
					 &seg->pieces[0].cmdbuf);
	}
	tasks = malloc(seg->ntasks * sizeof(*tasks));
	args = malloc(DRM_VNPU_MAX_ARGS_SIZE);
	seg->pieces = calloc(seg->ntasks, sizeof(*seg->pieces));
	if (!tasks || !args || !seg->pieces) {
		ret = -ENOMEM;
		goto out;
	}
	while (!ret && i < seg->ntasks) {
		struct graph_piece *p = &seg->pieces[seg->npieces];
		uint32_t alen = 0, room = 0;

		p->first = i;
		/* Cuts where this piece starts are behind it. */
		while (c < seg->ncuts && seg->cuts[c].at <= i)
			c++;
		while (i < seg->ntasks && p->count < DRM_VNPU_MAX_TASKS) {
			struct drm_vnpu_task t = seg->tasks[i];

			if (c < seg->ncuts && seg->cuts[c].at == i)
				break;	/* a task group starts or ends here */

			if (seg->arg_off[i] != UINT32_MAX) {
				uint32_t sz = t.kernel.args_size;

				if (alen + sz > DRM_VNPU_MAX_ARGS_SIZE)
					break;
				memcpy(args + alen, seg->args + seg->arg_off[i], sz);
				t.kernel.args_offset = alen;
				alen += sz;
			}
			tasks[p->count++] = t;
			i++;
		}
		/* A task group's end: spare argument bytes for its updates. */
		while (c < seg->ncuts && seg->cuts[c].at == i)
			room += seg->cuts[c++].room;
		if (room > DRM_VNPU_MAX_ARGS_SIZE - alen)
			room = DRM_VNPU_MAX_ARGS_SIZE - alen;
		memset(args + alen, 0, room);
		alen += room;
		p->args_size = alen;
		ret = kmd_cmdbuf_create(fd, tasks, p->count, alen ? args : NULL,
					alen, &p->cmdbuf);
		if (!ret)
			seg->npieces++;
	}
out:
	free(tasks);
	free(args);
	return ret;
}

/*
 * What every replay submits, worked out once: the steps in order, each
 * segment's in-syncs, and room for the submission requests.
 */
static int plan_steps(struct rt_graph *g)
{
	uint32_t n = 0, k = 0;

	for (uint32_t i = 0; i < g->nsegs; i++) {
		struct graph_seg *seg = &g->segs[i];

		n += seg->npieces;
		seg->in_syncs = calloc(seg->ndeps ? seg->ndeps : 1,
				       sizeof(*seg->in_syncs));
		if (!seg->in_syncs)
			return -ENOMEM;
		for (uint32_t d = 0; d < seg->ndeps; d++)
			seg->in_syncs[d].handle = g->segs[seg->deps[d]].syncobj;
	}
	g->steps = calloc(n ? n : 1, sizeof(*g->steps));
	g->reqs = calloc(n ? n : 1, sizeof(*g->reqs));
	if (!g->steps || !g->reqs)
		return -ENOMEM;
	for (uint32_t i = 0; i < g->nsegs; i++) {
		struct graph_seg *seg = &g->segs[i];

		for (uint32_t p = 0; p < seg->npieces; p++)
			g->steps[k++] = (struct graph_step){
				.member = seg->member,
				.cmdbuf = seg->pieces[p].cmdbuf,
				.in = p == 0 ? seg->in_syncs : NULL,
				.nin = p == 0 ? seg->ndeps : 0,
				.nout = p + 1 == seg->npieces && seg->waited,
				.out = { .handle = seg->syncobj },
			};
	}
	g->nsteps = n;
	return 0;
}

/*
 * struct rt_graph's device_only. One member also means no waits between
 * segments: a segment only ever waits for other members' segments.
 */
static bool device_only(const struct rt_graph *g)
{
	if (g->nmembers > 1)
		return false;
	for (uint32_t i = 0; i < g->nsegs; i++)
		for (uint32_t t = 0; t < g->segs[i].ntasks; t++)
			if (g->segs[i].tasks[t].type == DRM_VNPU_TASK_WAIT_VALUE)
				return false;
	return true;
}

int graph_instantiate(struct rt_graph *g)
{
	int fd = g->ctx->dev->fd;
	int ret = 0;

	for (uint32_t m = 1; !ret && m < g->nmembers; m++) {
		struct rt_stream *s = g->members[m].stream;

		ret = kmd_queue_create(fd, s ? s->priority : DRM_VNPU_PRIORITY_NORMAL,
				       &g->members[m].queue_id,
				       &g->members[m].syncobj);
	}
	for (uint32_t i = 0; !ret && i < g->nsegs; i++) {
		ret = seg_register(fd, &g->segs[i]);
		if (!ret && g->segs[i].waited)
			ret = kmd_syncobj_create(fd, &g->segs[i].syncobj);
	}
	if (!ret)
		ret = plan_steps(g);
	if (!ret)
		g->device_only = device_only(g);
	return ret;
}

static void step_request(const struct rt_graph *g, const struct rt_stream *s,
			 const struct graph_step *st, struct drm_vnpu_submit *req)
{
	*req = (struct drm_vnpu_submit){
		.queue_id = st->member ? g->members[st->member].queue_id :
			    s->queue_id,
		.flags = DRM_VNPU_SUBMIT_CMDBUF,
		.cmdbuf = st->cmdbuf,
		.in_syncs = (uintptr_t)st->in,
		.in_sync_count = st->nin,
		.out_syncs = (uintptr_t)&st->out,
		.out_sync_count = st->nout,
	};
}

/* A step on a graph-owned queue of member m. */
static int member_submit(struct rt_graph *g, uint32_t m,
			 struct drm_vnpu_submit *req)
{
	struct graph_member *mb = &g->members[m];
	int fd = g->ctx->dev->fd;
	struct drm_vnpu_job_status st;
	int ret = submit_path_submit(g->ctx->dev, req);

	if (ret == -EBADFD) {
		/* A branch of an earlier replay failed: say so, recover. */
		if (!kmd_job_status(fd, mb->queue_id, mb->last_seq, &st))
			core_detail("branch %u of graph %u failed in an earlier replay: task %u, state %u, address 0x%llx",
				    m, g->id, st.task, st.state,
				    (unsigned long long)st.fault_va);
		kmd_queue_reset(fd, mb->queue_id);
		return -ENOEXEC;
	}
	if (!ret)
		mb->last_seq = req->seq;
	return ret;
}

/* One step through the stream (member 0) or a graph-owned queue. */
static int step_submit(struct rt_graph *g, struct rt_stream *s,
		       const struct graph_step *st)
{
	struct drm_vnpu_submit req;

	step_request(g, s, st, &req);
	return st->member ? member_submit(g, st->member, &req) :
			    stream_submit_locked(s, &req, g->device_only);
}

/*
 * Every step as one chained batch (on io_uring one io_uring_enter per 64
 * steps), so that they reach the driver in order: a step that has to wait
 * for queue room must not let a later one overtake it. Returns how many
 * steps went through; the caller submits the rest one by one, which also
 * sorts out failures (an earlier failed job, a stopped stream).
 */
static uint32_t replay_batch(struct rt_graph *g, struct rt_stream *s)
{
	struct submit_req *reqs = g->reqs;
	uint32_t ok = 0;

	if (s->stopped)
		return 0;
	for (uint32_t i = 0; i < g->nsteps; i++)
		step_request(g, s, &g->steps[i], &reqs[i].args);
	if (submit_path_submit_batch(g->ctx->dev, reqs, g->nsteps, true))
		return 0;
	for (; ok < g->nsteps && reqs[ok].res == 0; ok++) {
		uint32_t m = g->steps[ok].member;

		if (m) {
			g->members[m].last_seq = reqs[ok].args.seq;
			continue;
		}
		s->last_seq = reqs[ok].args.seq;
		if (!g->device_only)
			s->udep_seq = s->last_seq;
	}
	/*
	 * One bump for the replay: s stays locked until every last_seq above
	 * is set, so a quiet check that reads the new generation inspects s
	 * after all of them (Documentation/memory.md).
	 */
	if (ok)
		device_note_work(g->ctx->dev);
	return ok;
}

/* Replay every segment in creation order. Called with g and s locked. */
static int replay_locked(struct rt_graph *g, struct rt_stream *s)
{
	uint32_t done = 0;
	int ret = stream_flush_locked(s);

	if (!ret && g->nsteps)
		done = replay_batch(g, s);
	for (uint32_t i = done; !ret && i < g->nsteps; i++)
		ret = step_submit(g, s, &g->steps[i]);
	if (!ret)
		g->replays++;
	return ret;
}

int graph_execute(struct rt_graph *g, struct rt_stream *s)
{
	uint64_t prev[GRAPH_EXT_EVENTS];
	int ret;

	if (s->ctx->dev != g->ctx->dev)
		return -EXDEV;
	ret = graph_external_waits(g, s);
	if (ret)
		return ret;
	/* Stream, then graph: the order of rt_objects.h. */
	pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&g->lock);
	if (g->state != GRAPH_READY)
		ret = -CAPERR_MODEL_STATE;
	else if (s->graph && s->graph != g)
		/* A stream that records cannot also run a graph; a bound one can. */
		ret = -CAPERR_STREAM_CAPTURED;
	else {
		graph_external_before_locked(g, prev);
		ret = replay_locked(g, s);
	}
	if (!ret)
		graph_external_records_locked(g, s, prev);
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* aclmdlRIExecute: replay on the head stream and wait for it. */
int graph_execute_sync(struct rt_graph *g, int32_t timeout_ms)
{
	struct rt_stream *head;
	int ret;

	pthread_mutex_lock(&g->lock);
	head = g->members[0].stream;
	pthread_mutex_unlock(&g->lock);
	if (!head)
		return -CAPERR_STREAM_MODEL;
	ret = graph_execute(g, head);
	return ret ? ret : stream_sync(head, timeout_ms);
}

/* Wait for replays still running on the graph's own queues, then drop all. */
int graph_destroy(struct rt_graph *g)
{
	int fd = g->ctx->dev->fd;
	uint32_t state;

	unregister(g);
	for (uint32_t m = 1; m < g->nmembers; m++) {
		struct graph_member *mb = &g->members[m];

		if (!mb->queue_id && !mb->syncobj)
			continue;
		if (mb->last_seq)
			submit_path_wait(g->ctx->dev, mb->queue_id, mb->syncobj,
					 mb->last_seq, INT64_MAX, &state);
		kmd_queue_destroy(fd, mb->queue_id);
		kmd_syncobj_destroy(fd, mb->syncobj);
	}
	for (uint32_t i = 0; i < g->nsegs; i++) {
		struct graph_seg *seg = &g->segs[i];

		for (uint32_t p = 0; p < seg->npieces; p++)
			kmd_cmdbuf_destroy(fd, seg->pieces[p].cmdbuf);
		if (seg->syncobj)
			kmd_syncobj_destroy(fd, seg->syncobj);
	}
	graph_cond_destroy(g);
	graph_switch_destroy(g);
	graph_free(g);
	return 0;
}
