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

bool graph_live_gen(struct rt_graph *g, uint64_t gen, enum graph_state *state)
{
	bool live;

	pthread_mutex_lock(&graphs_lock);
	live = live_locked(g) && g->gen == gen;
	if (live) {
		pthread_mutex_lock(&g->lock);
		*state = g->state;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&graphs_lock);
	return live;
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

void graph_free(struct rt_graph *g)
{
	for (uint32_t i = 0; i < g->nsegs; i++) {
		free(g->segs[i].tasks);
		free(g->segs[i].args);
		free(g->segs[i].arg_off);
		free(g->segs[i].deps);
		free(g->segs[i].pieces);
	}
	free(g->segs);
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
	uint32_t i = 0;
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
		uint32_t alen = 0;

		p->first = i;
		while (i < seg->ntasks && p->count < DRM_VNPU_MAX_TASKS) {
			struct drm_vnpu_task t = seg->tasks[i];

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
	return ret;
}

/* Submit one piece on a graph-owned queue of member m. */
static int member_submit(struct rt_graph *g, uint32_t m, uint32_t cmdbuf,
			 const struct drm_vnpu_sync *in, uint32_t nin,
			 const struct drm_vnpu_sync *out, uint32_t nout)
{
	struct graph_member *mb = &g->members[m];
	int fd = g->ctx->dev->fd;
	struct drm_vnpu_job_status st;
	uint64_t seq;
	int ret;

	ret = kmd_submit_cmdbuf(fd, mb->queue_id, cmdbuf, in, nin, out, nout,
				&seq);
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
		mb->last_seq = seq;
	return ret;
}

/* One piece of a replay: which command buffer, with which syncs. */
struct replay_step {
	uint32_t member, cmdbuf, nin, nout;
	const uint32_t *deps;		/* nin segment indices */
	uint32_t out;			/* the segment's syncobj */
};

static uint32_t replay_plan(struct rt_graph *g, struct replay_step *steps)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < g->nsegs; i++) {
		struct graph_seg *seg = &g->segs[i];

		for (uint32_t p = 0; p < seg->npieces; p++)
			steps[n++] = (struct replay_step){
				.member = seg->member,
				.cmdbuf = seg->pieces[p].cmdbuf,
				.deps = seg->deps,
				.nin = p == 0 ? seg->ndeps : 0,
				.nout = p + 1 == seg->npieces && seg->waited,
				.out = seg->syncobj,
			};
	}
	return n;
}

static void step_syncs(struct rt_graph *g, const struct replay_step *st,
		       struct drm_vnpu_sync *in, struct drm_vnpu_sync *out)
{
	for (uint32_t d = 0; d < st->nin; d++)
		in[d] = (struct drm_vnpu_sync){ .handle = g->segs[st->deps[d]].syncobj };
	*out = (struct drm_vnpu_sync){ .handle = st->out };
}

/* One step through the stream (member 0) or a graph-owned queue. */
static int step_submit(struct rt_graph *g, struct rt_stream *s,
		       const struct replay_step *st)
{
	struct drm_vnpu_sync in[DRM_VNPU_MAX_SYNCS], out;

	step_syncs(g, st, in, &out);
	if (st->member == 0)
		return stream_submit_cmdbuf_locked(s, st->cmdbuf, in, st->nin,
						   &out, st->nout);
	return member_submit(g, st->member, st->cmdbuf, in, st->nin, &out,
			     st->nout);
}

/*
 * io_uring: every step in one io_uring_enter, chained so that they reach
 * the driver in order (a step that has to wait for queue room must not
 * let a later one overtake it). Returns how many steps went through; the
 * caller submits the rest one by one, which also sorts out failures.
 */
static uint32_t replay_uring(struct rt_graph *g, struct rt_stream *s,
			     const struct replay_step *steps, uint32_t n)
{
	struct drm_vnpu_sync (*in)[DRM_VNPU_MAX_SYNCS] = calloc(n, sizeof(*in));
	struct drm_vnpu_sync *out = calloc(n, sizeof(*out));
	struct kmd_ucmd *cmds = calloc(n, sizeof(*cmds));
	uint32_t ok = 0;

	if (!in || !out || !cmds || s->stopped)
		goto done;
	for (uint32_t i = 0; i < n; i++) {
		const struct replay_step *st = &steps[i];

		step_syncs(g, st, in[i], &out[i]);
		cmds[i] = (struct kmd_ucmd){
			.op = DRM_VNPU_URING_CMD_SUBMIT,
			.link = true,
			.timeout_ns = -1,
			.submit = {
				.queue_id = st->member ? g->members[st->member].queue_id :
					    s->queue_id,
				.flags = DRM_VNPU_SUBMIT_CMDBUF,
				.cmdbuf = st->cmdbuf,
				.in_syncs = (uintptr_t)in[i],
				.in_sync_count = st->nin,
				.out_syncs = (uintptr_t)&out[i],
				.out_sync_count = st->nout,
			},
		};
	}
	if (submit_run(g->ctx->dev, cmds, n))
		goto done;
	for (; ok < n && cmds[ok].res == 0; ok++) {
		if (steps[ok].member == 0)
			s->last_seq = cmds[ok].seq;
		else
			g->members[steps[ok].member].last_seq = cmds[ok].seq;
	}
done:
	free(in);
	free(out);
	free(cmds);
	return ok;
}

/* Replay every segment in creation order. Called with g and s locked. */
static int replay_locked(struct rt_graph *g, struct rt_stream *s)
{
	struct replay_step *steps;
	uint32_t n = 0, done = 0;
	int ret = stream_flush_locked(s);

	for (uint32_t i = 0; i < g->nsegs; i++)
		n += g->segs[i].npieces;
	steps = calloc(n ? n : 1, sizeof(*steps));
	if (!steps)
		return -ENOMEM;
	n = replay_plan(g, steps);
	if (!ret && n && g->ctx->dev->uring)
		done = replay_uring(g, s, steps, n);
	for (uint32_t i = done; !ret && i < n; i++)
		ret = step_submit(g, s, &steps[i]);
	free(steps);
	if (!ret)
		g->replays++;
	return ret;
}

int graph_execute(struct rt_graph *g, struct rt_stream *s)
{
	int ret;

	if (s->ctx->dev != g->ctx->dev)
		return -EXDEV;
	pthread_mutex_lock(&g->lock);
	if (g->state != GRAPH_READY) {
		pthread_mutex_unlock(&g->lock);
		return -CAPERR_MODEL_STATE;
	}
	pthread_mutex_lock(&s->lock);
	/* A stream that records cannot also run a graph; a bound one can. */
	ret = s->graph && s->graph != g ? -CAPERR_STREAM_CAPTURED :
	      replay_locked(g, s);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&g->lock);
	return ret;
}

/* aclmdlRIExecute: replay on the head stream and wait for it. */
int graph_execute_sync(struct rt_graph *g, int32_t timeout_ms)
{
	struct rt_stream *head = g->members[0].stream;
	int ret;

	if (!head)
		return -CAPERR_STREAM_MODEL;
	ret = graph_execute(g, head);
	return ret ? ret : stream_sync(head, timeout_ms);
}

/* Wait for replays still running on the graph's own queues, then drop all. */
int graph_destroy(struct rt_graph *g)
{
	int fd = g->ctx->dev->fd;

	unregister(g);
	for (uint32_t m = 1; m < g->nmembers; m++) {
		struct graph_member *mb = &g->members[m];

		if (!mb->queue_id && !mb->syncobj)
			continue;
		if (mb->last_seq)
			kmd_syncobj_wait(fd, mb->syncobj, mb->last_seq, INT64_MAX);
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
	graph_free(g);
	return 0;
}
