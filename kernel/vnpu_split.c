// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: spreading one operator call over the device's idle engines, the
 * way an AI core kernel's block dimension spreads over cores. The engine
 * running the call publishes it; idle engines (those with no job of their
 * own) take pieces from a shared counter with their own scratch memory
 * until none are left. The owner waits for its helpers before it returns,
 * so the tensors' mappings outlive every piece.
 *
 * A call parks at a time slice's end like any other: between pieces. A
 * call with phases keeps partial results in its engine's scratch memory,
 * which the jobs run while it is parked overwrite; parking copies them
 * into the job (VNPU_OPS_SHARED bytes, allocated once without sleeping)
 * and resuming copies them back. If that memory cannot be had, the call
 * runs on to its end, which the operators' total work bound keeps short.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/atomic.h>
#include <linux/memcontrol.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
#include "vnpu_opcall.h"
#include "ops/vnpu_ops.h"

/* Calls with fewer pieces are not worth waking anybody for. */
#define VNPU_SPLIT_MIN_TILES	8

/**
 * struct vnpu_split - a phase of a call open for help
 * @call: the owner's call (tensor addresses valid until the owner returns)
 * @impl: its operator
 * @tiles: the end of the phase: pieces before it
 * @next: next piece to take
 * @phased: the call has phases (long rows split into chunks), counted in
 *	    the engines' split_pieces
 * @helpers: engines currently helping; guarded by the device's split_lock
 *	     for the final decrement, so the owner cannot return under a helper
 * @done: the owner waits here for @helpers to reach zero
 */
struct vnpu_split {
	struct vnpu_op_call *call;
	const struct vnpu_op_impl *impl;
	u64 tiles;
	atomic64_t next;
	bool phased;
	atomic_t helpers;
	wait_queue_head_t done;
};

static bool vnpu_split_idle(struct vnpu_device *vdev, struct vnpu_split *sp)
{
	bool idle;

	spin_lock(&vdev->split_lock);
	idle = !atomic_read(&sp->helpers);
	spin_unlock(&vdev->split_lock);
	return idle;
}

/*
 * Run pieces [*pos, sp->tiles) of one phase, with help when it pays. When
 * it returns every piece the phase handed out is done: the helpers are
 * gone. Arguments and return value as vnpu_split_run()'s.
 */
/*
 * Memory to park a call with phases in (its partial results): true when
 * @job has it. Allocated without sleeping, charged to the job's file.
 */
static bool vnpu_split_can_park(struct vnpu_job *job)
{
	struct mem_cgroup *old;

	if (job->split_save)
		return true;
	old = set_active_memcg(job->vfile->memcg);
	job->split_save = kmalloc(VNPU_OPS_SHARED, GFP_NOWAIT | __GFP_NOWARN |
				  __GFP_ACCOUNT);
	set_active_memcg(old);
	if (!job->split_save)
		atomic64_inc(&job->engine->split_unparked);
	return job->split_save;
}

/*
 * The heartbeat of a call's pieces (struct vnpu_op_call's beat): the job's
 * progress, which the hang detector watches (vnpu_job.c). Called with
 * preemption off, from the owner's engine or a helper.
 */
static void vnpu_split_beat(void *arg)
{
	struct vnpu_job *job = arg;

	atomic64_inc(&job->progress);
	/* Seen in debugfs "engines" (the owner's engine). */
	atomic64_inc(&job->engine->progress);
}

static int vnpu_split_phase(struct vnpu_engine *engine, struct vnpu_split *sp,
			    struct vnpu_job *job, int (*tick)(void *arg),
			    void *arg)
{
	u64 *pos = &job->task_pos;
	struct vnpu_device *vdev = engine->vdev;
	u64 min = sp->phased ? 2 : VNPU_SPLIT_MIN_TILES;
	bool published = false;
	int ret = 0;
	u64 t;
	u32 i;

	atomic64_set(&sp->next, *pos);
	atomic_set(&sp->helpers, 0);

	if (sp->tiles - *pos >= min && vdev->num_engines > 1) {
		spin_lock(&vdev->split_lock);
		if (!vdev->split) {
			vdev->split = sp;
			published = true;
		}
		spin_unlock(&vdev->split_lock);
		for (i = 0; published && i < vdev->num_engines; i++)
			if (&vdev->engines[i] != engine)
				wake_up(&vdev->engines[i].wq);
	}

	while ((t = atomic64_fetch_inc(&sp->next)) < sp->tiles) {
		vnpu_ops_run_tile(sp->impl, sp->call, t);
		if (sp->phased)
			atomic64_inc(&engine->split_pieces);
		ret = tick(arg);
		/* Without room for its partial results, a call runs on. */
		if (ret == VNPU_JOB_YIELD && sp->phased &&
		    !vnpu_split_can_park(job))
			ret = 0;
		if (ret) {
			/*
			 * Helpers stop at their next piece; those before
			 * the first one nobody took are done (or being
			 * done) when the helpers are gone.
			 */
			t = atomic64_xchg(&sp->next, sp->tiles);
			if (ret == VNPU_JOB_YIELD) {
				if (t >= sp->tiles)
					ret = 0;
				else
					*pos = t;
			}
			break;
		}
	}

	if (published) {
		spin_lock(&vdev->split_lock);
		vdev->split = NULL;
		spin_unlock(&vdev->split_lock);
		wait_event(sp->done, vnpu_split_idle(vdev, sp));
	}
	/* Every piece is done: the partial results are complete. */
	if (ret == VNPU_JOB_YIELD && sp->phased) {
		memcpy(job->split_save, vnpu_ops_shared(sp->call),
		       VNPU_OPS_SHARED);
		atomic64_inc(&engine->split_parks);
	}
	return ret;
}

/**
 * vnpu_split_run() - run every piece of a call, with help when it pays
 * @engine: the engine running the call
 * @call: the call, its tensors mapped
 * @job: its job: @job->task_pos is, in, the first piece to run (pieces are
 *	independent within a phase, and earlier phases are done, so a call
 *	can stop and resume); out, where a yield stopped
 * @tick: called after each of the owner's pieces; non-zero stops the call
 * @arg: for @tick
 *
 * A call with phases (struct vnpu_op_impl's phases: a long row split into
 * chunks, then a combining step) runs phase by phase; each phase is shared
 * with idle engines like a call of its own, and every piece of a phase is
 * done before the next phase starts. Parked half way, its partial results
 * wait in @job->split_save.
 *
 * Return: 0, -EINVAL for an unknown operator, @tick's error, or
 * VNPU_JOB_YIELD when @tick asked to park the job with pieces left (the
 * pieces before @job->task_pos are done).
 */
int vnpu_split_run(struct vnpu_engine *engine, struct vnpu_op_call *call,
		   struct vnpu_job *job, int (*tick)(void *arg), void *arg)
{
	u64 *pos = &job->task_pos;
	/* Every field is set below or in vnpu_split_phase() before use. */
	struct vnpu_split sp VNPU_NOINIT;
	u64 ends[VNPU_OPS_MAX_PHASES] VNPU_NOINIT;	/* the first n are set */
	int n, ph, ret;

	sp.call = call;
	n = vnpu_ops_prepare(call, &sp.impl, ends);
	if (n < 0)
		return n;
	sp.phased = n > 1;
	/* For the task's profile record: the pieces of every phase. */
	job->task_pieces = n ? min_t(u64, ends[n - 1], U32_MAX) : 1;
	if (sp.phased && !*pos)
		atomic64_inc(&engine->split_calls);
	/* Resuming a parked call: its partial results come back. */
	if (sp.phased && *pos && job->split_save)
		memcpy(vnpu_ops_shared(call), job->split_save, VNPU_OPS_SHARED);
	init_waitqueue_head(&sp.done);
	/* Pieces beat inside, helpers' too: a piece can take seconds. */
	call->beat = vnpu_split_beat;
	call->beat_arg = job;
	ret = 0;
	for (ph = 0; ph < n; ph++) {
		if (*pos >= ends[ph])
			continue;
		sp.tiles = ends[ph];
		ret = vnpu_split_phase(engine, &sp, job, tick, arg);
		if (ret)
			break;
		/* The phase is done; a later yield resumes after it. */
		*pos = ends[ph];
	}
	/* Every helper is gone: nobody beats for @job any more. */
	call->beat = NULL;
	call->beat_arg = NULL;
	return ret;
}

/**
 * vnpu_split_pending() - is a call open for help with pieces left?
 * @vdev: the device
 *
 * Return: true when an idle engine should call vnpu_split_help().
 */
bool vnpu_split_pending(struct vnpu_device *vdev)
{
	bool pending;

	spin_lock(&vdev->split_lock);
	pending = vdev->split &&
		  atomic64_read(&vdev->split->next) < vdev->split->tiles;
	spin_unlock(&vdev->split_lock);
	return pending;
}

/**
 * vnpu_split_help() - an idle engine helps with the published call, if any
 * @engine: the idle engine; its own call and scratch memory are free
 *
 * Return: whether there was a call to help with.
 */
bool vnpu_split_help(struct vnpu_engine *engine)
{
	struct vnpu_device *vdev = engine->vdev;
	struct vnpu_op_call *mine = engine->op_call;
	struct vnpu_split *sp;
	void *scratch;
	u64 t;

	spin_lock(&vdev->split_lock);
	sp = vdev->split;
	if (sp)
		atomic_inc(&sp->helpers);
	spin_unlock(&vdev->split_lock);
	if (!sp)
		return false;

	scratch = mine->scratch;
	memcpy(mine, sp->call, sizeof(*mine));
	mine->scratch = scratch;
	/* Pieces of one call share the owner's partial results. */
	mine->shared = vnpu_ops_shared(sp->call);
	while ((t = atomic64_fetch_inc(&sp->next)) < sp->tiles) {
		vnpu_ops_run_tile(sp->impl, mine, t);
		/* A helper's piece is progress of the owner's job. */
		vnpu_op_beat(mine);
		atomic64_inc(&engine->progress);
		atomic64_inc(&engine->tiles_helped);
		if (sp->phased)
			atomic64_inc(&engine->split_pieces);
		cond_resched();
		/* The engine's own work comes first. */
		if (!list_empty_careful(&engine->jobs))
			break;
	}

	/* The owner's job may end once we are gone. */
	mine->beat = NULL;
	mine->beat_arg = NULL;
	spin_lock(&vdev->split_lock);
	if (atomic_dec_and_test(&sp->helpers))
		wake_up(&sp->done);
	spin_unlock(&vdev->split_lock);
	return true;
}
