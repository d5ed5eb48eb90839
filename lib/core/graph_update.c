/* SPDX-License-Identifier: MIT */
/*
 * Task groups and their updates (aclmdlRICaptureTaskGrp*, ...TaskUpdate*).
 *
 * GrpBegin / GrpEnd on a capturing stream mark a run of its tasks. The
 * marks become cuts of the segment (struct graph_cut): when the graph is
 * registered the group is a command buffer of its own, so an update is one
 * contiguous patch, and a group with operators keeps GRAPH_GROUP_ARGS_ROOM
 * spare argument bytes so that re-captured operators may need more.
 *
 * UpdateBegin(s, grp) makes s record instead of run; UpdateEnd checks that
 * the recorded tasks match the group in number and type, waits on the host
 * for s's earlier work, then patches the group's command buffer with
 * DRM_IOCTL_VNPU_CMDBUF_UPDATE. The driver hands a replay the command
 * buffer's contents when its job starts: every replay whose group job has
 * not started by then runs the new tasks, even one submitted earlier and
 * waiting behind an event; none that is running sees half an update.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../kmd/kmd.h"
#include "graph.h"

/* Find the piece of g's segment that is exactly grp (NULL if none). */
static struct graph_piece *group_piece(struct rt_graph *g,
				       const struct graph_group *grp)
{
	struct graph_seg *seg = &g->segs[grp->seg];

	for (uint32_t p = 0; p < seg->npieces; p++)
		if (seg->pieces[p].first == grp->first &&
		    seg->pieces[p].count == grp->count)
			return &seg->pieces[p];
	return NULL;
}

static int add_cut(struct graph_seg *seg, uint32_t at, uint32_t room)
{
	struct graph_cut *c = realloc(seg->cuts, (seg->ncuts + 1) * sizeof(*c));

	if (!c)
		return -ENOMEM;
	seg->cuts = c;
	c[seg->ncuts++] = (struct graph_cut){ .at = at, .room = room };
	return 0;
}

int graph_group_begin(struct rt_stream *s)
{
	struct graph_member *mb;
	struct graph_seg *seg;
	struct rt_graph *g;
	int ret;

	pthread_mutex_lock(&s->lock);
	if (s->update) {
		pthread_mutex_unlock(&s->lock);
		return -CAPERR_TASKGRP_STATUS;
	}
	g = graph_capturing_locked(s);
	if (!g) {
		pthread_mutex_unlock(&s->lock);
		return -CAPERR_NOT_CAPTURED;
	}
	pthread_mutex_lock(&g->lock);
	mb = &g->members[s->member];
	ret = mb->grp_open ? -CAPERR_TASKGRP_STATUS :
	      graph_recording_check_locked(g, s->member);
	if (!ret)
		ret = graph_open_seg_locked(g, s->member, &seg);
	if (!ret)
		ret = add_cut(seg, seg->ntasks, 0);
	if (!ret) {
		mb->grp_open = true;
		mb->grp_seg = (uint32_t)(seg - g->segs);
		mb->grp_first = seg->ntasks;
	}
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* The group's end: cut after it, with argument room when it has operators. */
static int group_close_locked(struct rt_graph *g, struct graph_member *mb,
			      struct graph_group **out)
{
	struct graph_seg *seg = &g->segs[mb->grp_seg];
	struct graph_group *grp, **p;
	uint32_t room = 0;
	int ret;

	for (uint32_t i = mb->grp_first; i < seg->ntasks; i++)
		if (seg->tasks[i].type == DRM_VNPU_TASK_KERNEL)
			room = GRAPH_GROUP_ARGS_ROOM;
	grp = calloc(1, sizeof(*grp));
	p = realloc(g->groups, (g->ngroups + 1) * sizeof(*p));
	if (p)
		g->groups = p;
	if (!grp || !p) {
		free(grp);
		return -ENOMEM;
	}
	ret = add_cut(seg, seg->ntasks, room);
	if (ret) {
		free(grp);
		return ret;
	}
	*grp = (struct graph_group){
		.g = g, .seg = mb->grp_seg, .first = mb->grp_first,
		.count = seg->ntasks - mb->grp_first,
	};
	g->groups[g->ngroups++] = grp;
	*out = grp;
	return 0;
}

int graph_group_end(struct rt_stream *s, void **handle)
{
	struct graph_group *grp = NULL;
	struct graph_member *mb;
	struct rt_graph *g;
	int ret;

	pthread_mutex_lock(&s->lock);
	g = graph_capturing_locked(s);
	if (!g) {
		ret = s->update ? -CAPERR_TASKGRP_STATUS : -CAPERR_NOT_CAPTURED;
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	pthread_mutex_lock(&g->lock);
	mb = &g->members[s->member];
	if (!mb->grp_open) {
		ret = -CAPERR_TASKGRP_STATUS;
	} else if (g->invalid) {
		ret = -CAPERR_INVALIDATED;
	} else if (g->members[s->member].open_seg != (int32_t)mb->grp_seg) {
		/* An event record or wait inside: not one command buffer. */
		core_detail("a task group cannot contain event records or waits");
		ret = -CAPERR_TASKGRP_STATUS;
	} else {
		ret = group_close_locked(g, mb, &grp);
	}
	mb->grp_open = false;	/* ended, whether it became a group or not */
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_unlock(&s->lock);
	if (!ret)
		*handle = grp;
	return ret;
}

int graph_update_begin(struct rt_stream *s, void *handle)
{
	struct graph_update *u;
	struct graph_group *grp;
	struct rt_graph *g;
	int ret = 0;

	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	pthread_mutex_lock(&s->lock);
	if (s->update)
		ret = -CAPERR_TASKGRP_STATUS;
	else if (s->graph)
		ret = -CAPERR_STREAM_CAPTURED;
	if (!ret)
		ret = graph_group_hold(handle, &grp);
	if (!ret) {
		g = grp->g;
		pthread_mutex_lock(&g->lock);
		if (g->state != GRAPH_READY || grp->updater) {
			core_detail("%s", g->state != GRAPH_READY ?
				    "the graph of the task group is still being captured" :
				    "another stream is updating the task group");
			ret = -CAPERR_TASKGRP_STATUS;
		} else {
			grp->updater = s;
			u->grp = grp;
			s->update = u;
		}
		pthread_mutex_unlock(&g->lock);
		graph_group_release();
	}
	pthread_mutex_unlock(&s->lock);
	if (ret)
		free(u);
	return ret;
}

int graph_update_record_locked(struct rt_stream *s,
			       const struct drm_vnpu_task *t,
			       const void *args, uint32_t args_size)
{
	struct graph_update *u = s->update;
	struct graph_group *grp;
	uint32_t i = u->rec.ntasks;
	int ret;

	/* The group may be gone: compare under the registry's lock. */
	ret = graph_group_hold(u->grp, &grp);
	if (!ret) {
		pthread_mutex_lock(&grp->g->lock);
		if (i >= grp->count ||
		    grp->g->segs[grp->seg].tasks[grp->first + i].type != t->type) {
			if (i >= grp->count)
				core_detail("more tasks than the task group has (%u)",
					    grp->count);
			else
				core_detail("task %u of the update differs in type from the task group's",
					    i);
			ret = -CAPERR_TASKGRP_UPDATE;
		}
		pthread_mutex_unlock(&grp->g->lock);
		graph_group_release();
	}
	if (!ret)
		ret = graph_seg_push(&u->rec, t, args, args_size);
	if (ret && !u->err)
		u->err = ret;
	return ret;
}

static void update_free(struct graph_update *u)
{
	free(u->rec.tasks);
	free(u->rec.args);
	free(u->rec.arg_off);
	free(u);
}

/* The group's command buffer gets the recorded tasks (g locked). */
static int update_apply_locked(struct rt_graph *g, struct graph_group *grp,
			       struct graph_update *u)
{
	struct graph_piece *pc = group_piece(g, grp);
	struct drm_vnpu_task *tasks;
	uint8_t *args = NULL;
	uint32_t alen = 0;
	int ret;

	if (!grp->count)
		return 0;
	if (!pc) {
		core_detail("the task group was split across command buffers (too large)");
		return -CAPERR_TASKGRP_UPDATE;
	}
	tasks = malloc(grp->count * sizeof(*tasks));
	if (pc->args_size)
		args = calloc(1, pc->args_size);
	if (!tasks || (pc->args_size && !args)) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < grp->count; i++) {
		tasks[i] = u->rec.tasks[i];
		if (u->rec.arg_off[i] == UINT32_MAX)
			continue;
		if (tasks[i].kernel.args_size > pc->args_size - alen) {
			core_detail("the update's operator arguments exceed the task group's %u bytes",
				    pc->args_size);
			ret = -CAPERR_TASKGRP_UPDATE;
			goto out;
		}
		memcpy(args + alen, u->rec.args + u->rec.arg_off[i],
		       tasks[i].kernel.args_size);
		tasks[i].kernel.args_offset = alen;
		alen += tasks[i].kernel.args_size;
	}
	ret = kmd_cmdbuf_update(g->ctx->dev->fd, pc->cmdbuf, 0, tasks,
				grp->count, 0, args, pc->args_size);
out:
	free(tasks);
	free(args);
	return ret;
}

int graph_update_end(struct rt_stream *s)
{
	struct graph_group *grp;
	struct graph_update *u;
	int ret;

	pthread_mutex_lock(&s->lock);
	u = s->update;
	s->update = NULL;
	pthread_mutex_unlock(&s->lock);
	if (!u)
		return -CAPERR_TASKGRP_STATUS;
	/* The update applies after the stream's earlier work. */
	ret = stream_sync(s, -1);
	if (graph_group_hold(u->grp, &grp)) {
		update_free(u);
		return ret ? ret : -CAPERR_TASKGRP_STATUS;
	}
	pthread_mutex_lock(&grp->g->lock);
	if (grp->updater == s)
		grp->updater = NULL;
	if (!ret && u->err)
		ret = u->err;
	if (!ret && u->rec.ntasks != grp->count) {
		core_detail("the update has %u tasks, the task group %u",
			    u->rec.ntasks, grp->count);
		ret = -CAPERR_TASKGRP_UPDATE;
	}
	if (!ret)
		ret = update_apply_locked(grp->g, grp, u);
	pthread_mutex_unlock(&grp->g->lock);
	graph_group_release();
	update_free(u);
	return ret;
}

void graph_groups_free(struct rt_graph *g)
{
	for (uint32_t i = 0; i < g->ngroups; i++)
		free(g->groups[i]);
	free(g->groups);
}

void graph_update_forget_stream(struct rt_stream *s)
{
	struct graph_update *u;
	struct graph_group *grp;

	pthread_mutex_lock(&s->lock);
	u = s->update;
	s->update = NULL;
	pthread_mutex_unlock(&s->lock);
	if (!u)
		return;
	if (!graph_group_hold(u->grp, &grp)) {
		pthread_mutex_lock(&grp->g->lock);
		if (grp->updater == s)
			grp->updater = NULL;
		pthread_mutex_unlock(&grp->g->lock);
		graph_group_release();
	}
	update_free(u);
}
