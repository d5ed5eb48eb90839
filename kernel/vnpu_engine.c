// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the AI-core engines. Each engine is a DRM GPU scheduler whose
 * run_job hands the job to the engine's worker thread; the worker executes
 * the jobs' tasks and signals their hardware fences.
 *
 * An engine holds several jobs at once, at most one per queue (a queue's
 * next job waits in the scheduler until the previous one has finished), and
 * shares itself between files (contexts) in time slices: a job that has run
 * job_slice_ms while another file has a job on the engine parks at its
 * next yield point (a task boundary, a copy or fill step, an operator
 * piece, a WAIT_VALUE poll, a SPIN loop) and resumes there later; the file
 * that has waited longest since its last slice on the engine runs next,
 * its job that has waited longest, so a file with many jobs gets no more
 * turns than a file with one. Jobs of one file do not preempt
 * each other: a file's jobs on an engine run one at a time, highest queue
 * priority first, as they did when an engine held one job. The exception
 * is a job polling a WAIT_VALUE: it waits for someone else, maybe its own
 * file's next job on this engine, so it parks at its slice's end whenever
 * the engine holds another job, and does not keep its file's jobs waiting.
 *
 * The job's lifecycle and the scheduler's callbacks (run_job hands a job
 * over with vnpu_engine_add(), timedout_job finds hung jobs) live in
 * vnpu_job.c; the slice and job_max_ms checks are vnpu_job_check() here.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/kthread.h>
#include <linux/sched.h>
#include <drm/drm_managed.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
#include "vnpu_opcall.h"
#include "vnpu_prof.h"

/*
 * Jobs an engine holds at once (one per queue, from any files): the
 * scheduler's credits. A file holds at most VNPU_FILE_ENGINE_JOBS of them
 * (vnpu_slots.c), so sixteen files must fill their shares before another
 * file's job waits for a credit.
 */
#define VNPU_ENGINE_JOBS	(16 * VNPU_FILE_ENGINE_JOBS)

/* Has @vfile a job on the engine? Engine lock held. */
static bool vnpu_engine_has_file(struct vnpu_engine *engine,
				 struct vnpu_file *vfile)
{
	struct vnpu_job *job;

	list_for_each_entry(job, &engine->jobs, link)
		if (job->vfile == vfile)
			return true;
	return false;
}

/* A finished job leaves the engine. Engine lock held. */
static void vnpu_engine_remove(struct vnpu_engine *engine, struct vnpu_job *job)
{
	list_del_init(&job->link);
	WRITE_ONCE(engine->nr_jobs, engine->nr_jobs - 1);
	if (!vnpu_engine_has_file(engine, job->vfile))
		engine->nr_files--;
}

/**
 * vnpu_engine_add() - a job reaches the engine (run_job)
 * @engine: the engine; its lock held
 * @job: the job, with a reference for the worker
 *
 * The worker picks it up at its next look at the engine's jobs.
 */
void vnpu_engine_add(struct vnpu_engine *engine, struct vnpu_job *job)
{
	lockdep_assert_held(&engine->lock);
	job->engine = engine;
	job->ticket = ++engine->tickets;
	job->ready_ns = ktime_get_ns();
	if (!vnpu_engine_has_file(engine, job->vfile))
		engine->nr_files++;
	list_add_tail(&job->link, &engine->jobs);
	WRITE_ONCE(engine->nr_jobs, engine->nr_jobs + 1);
}

/**
 * vnpu_job_check() - may the running job go on?
 * @engine: its engine
 * @job: the job, running on @engine's worker
 *
 * Called at every yield point: the caller can park the job there and
 * resume it later. Gives the CPU away when needed.
 *
 * Return: 0 to go on; -ECANCELED (file closed), the timeout handler's
 * errno, or -ETIME (job_max_ms of engine time used) to stop; or
 * VNPU_JOB_YIELD when the job's slice is over and another file's job
 * waits for the engine (or any other job, while this one polls a wait).
 */
int vnpu_job_check(struct vnpu_engine *engine, struct vnpu_job *job)
{
	u64 now, max = (u64)vnpu_cfg.job_max_ms * NSEC_PER_MSEC;
	int ret;

	cond_resched();
	if (READ_ONCE(job->vfile->closed))
		return -ECANCELED;
	ret = atomic_read(&job->abort);
	if (ret)
		return ret;
	now = ktime_get_ns();
	if (job->run_ns + (now - job->slice_start) >= max) {
		if (!atomic_cmpxchg(&job->abort, 0, -ETIME)) {
			atomic64_inc(&engine->overruns);
			dev_warn_ratelimited(engine->vdev->drm.dev,
					     "%s: job %llu of queue %u (pid %d) ran for %u ms; aborted\n",
					     engine->name, job->seq,
					     job->queue->id,
					     pid_nr(job->vfile->pid),
					     vnpu_cfg.job_max_ms);
		}
		return -ETIME;
	}
	if (now >= job->slice_end &&
	    (READ_ONCE(engine->nr_files) > 1 ||
	     (READ_ONCE(job->waiting) && READ_ONCE(engine->nr_jobs) > 1)))
		return VNPU_JOB_YIELD;
	return 0;
}

/* Does @a go before @b, both of one file and not started? */
static bool vnpu_job_before(const struct vnpu_job *a, const struct vnpu_job *b)
{
	if (a->queue->priority != b->queue->priority)
		return a->queue->priority > b->queue->priority;
	return a->ticket < b->ticket;
}

/* May @job run now? Engine lock held. */
static bool vnpu_job_eligible(struct vnpu_engine *engine, struct vnpu_job *job)
{
	struct vnpu_job *other;

	list_for_each_entry(other, &engine->jobs, link) {
		if (other == job)
			continue;
		/* A queue's jobs run in order (the scheduler sees to it too). */
		if (other->queue == job->queue && other->seq < job->seq)
			return false;
		/*
		 * A file's jobs run one at a time, by priority, then age;
		 * one that waits for a value steps aside.
		 */
		if (other->vfile == job->vfile && !job->started &&
		    !READ_ONCE(other->waiting) &&
		    (other->started || vnpu_job_before(other, job)))
			return false;
	}
	return true;
}

/* When @job's file last had a slice on @engine. Engine lock held. */
static u64 vnpu_file_last_ns(struct vnpu_engine *engine, struct vnpu_job *job)
{
	return job->vfile->slots[engine->index].last_ns;
}

/*
 * The job to run next: of the files with an eligible job, the one whose
 * last slice on the engine ended longest ago; of its eligible jobs, the
 * one that has waited longest since it arrived or was parked. Engine lock
 * held.
 */
static struct vnpu_job *vnpu_engine_pick(struct vnpu_engine *engine)
{
	struct vnpu_job *job, *best = NULL;
	u64 best_last = 0, last;

	list_for_each_entry(job, &engine->jobs, link) {
		last = vnpu_file_last_ns(engine, job);
		if (best && (last > best_last ||
			     (last == best_last &&
			      job->ready_ns >= best->ready_ns)))
			continue;
		if (vnpu_job_eligible(engine, job)) {
			best = job;
			best_last = last;
		}
	}
	return best;
}

static int vnpu_engine_worker(void *data)
{
	struct vnpu_engine *engine = data;
	u64 slice = (u64)vnpu_cfg.job_slice_ms * NSEC_PER_MSEC;
	struct vnpu_job *job;
	u64 now, ran;
	int err;

	while (!kthread_should_stop()) {
		wait_event_interruptible(engine->wq,
					 !list_empty(&engine->jobs) ||
					 vnpu_split_pending(engine->vdev) ||
					 kthread_should_stop());
		spin_lock(&engine->lock);
		job = vnpu_engine_pick(engine);
		if (job) {
			engine->current_job = job;
			job->slice_start = ktime_get_ns();
			if (!job->started)
				job->first_ns = job->slice_start;
			job->started = true;
			job->slices++;
		}
		spin_unlock(&engine->lock);
		if (!job) {
			/* Idle: lend a hand with another engine's call. */
			vnpu_split_help(engine);
			cond_resched();
			continue;
		}

		job->slice_end = job->slice_start + slice;
		/* A replay runs what its command buffer holds now. */
		if (job->slices == 1)
			vnpu_cmdbuf_bind(job);
		err = vnpu_job_execute(engine, job);

		now = ktime_get_ns();
		spin_lock(&engine->lock);
		engine->current_job = NULL;
		ran = now - job->slice_start;
		job->run_ns += ran;
		job->vfile->slots[engine->index].last_ns = now;
		if (err == VNPU_JOB_YIELD)
			job->ready_ns = now;
		else
			vnpu_engine_remove(engine, job);
		spin_unlock(&engine->lock);
		atomic64_add(ran, &engine->busy_ns);
		atomic64_add(ran, &job->vfile->busy_ns);
		if (err == VNPU_JOB_YIELD) {
			job->parks++;
			atomic64_inc(&engine->yields);
			continue;
		}
		/* Recorded before the fence tells anybody the job is done. */
		if (vnpu_prof_on(job->vfile))
			vnpu_prof_job(engine, job, err, now);
		vnpu_slot_release(job);
		vnpu_job_finish(engine, job, err);
		vnpu_job_put(job);
	}
	return 0;
}

static void vnpu_engines_fini(struct drm_device *drm, void *unused)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	u32 i;

	/* Jobs of closed files may still run; let them end first. */
	wait_event(vdev->jobs_idle, !atomic_read(&vdev->jobs_alive));
	for (i = 0; i < vdev->num_engines; i++) {
		struct vnpu_engine *engine = &vdev->engines[i];

		if (engine->worker)
			kthread_stop(engine->worker);
		if (engine->sched.ready)
			drm_sched_fini(&engine->sched);
		vnpu_op_call_free(engine->op_call);
	}
}

static int vnpu_sched_init(struct vnpu_engine *engine, struct device *dev)
{
	long timeout = msecs_to_jiffies(vnpu_cfg.job_timeout_ms);
#ifdef HAVE_DRM_SCHED_INIT_ARGS
	const struct drm_sched_init_args args = {
		.ops = &vnpu_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = VNPU_ENGINE_JOBS,
		.timeout = timeout,
		.name = engine->name,
		.dev = dev,
	};

	return drm_sched_init(&engine->sched, &args);
#else
	return drm_sched_init(&engine->sched, &vnpu_sched_ops, NULL,
			      DRM_SCHED_PRIORITY_COUNT, VNPU_ENGINE_JOBS, 0,
			      timeout, NULL,
			      NULL, engine->name, dev);
#endif
}

/**
 * vnpu_engines_init() - create the device's engines
 * @vdev: a device being probed
 *
 * Everything is released with the DRM device, after the last job.
 *
 * Return: 0 or a negative errno.
 */
int vnpu_engines_init(struct vnpu_device *vdev)
{
	struct drm_device *drm = &vdev->drm;
	u32 i, n = vnpu_cfg.engines;
	int ret;

	init_waitqueue_head(&vdev->jobs_idle);
	vdev->engines = drmm_kcalloc(drm, n, sizeof(*vdev->engines), GFP_KERNEL);
	vdev->scheds = drmm_kcalloc(drm, n, sizeof(*vdev->scheds), GFP_KERNEL);
	if (!vdev->engines || !vdev->scheds)
		return -ENOMEM;
	vdev->num_engines = n;
	ret = drmm_add_action_or_reset(drm, vnpu_engines_fini, NULL);
	if (ret)
		return ret;

	for (i = 0; i < n; i++) {
		struct vnpu_engine *engine = &vdev->engines[i];

		engine->vdev = vdev;
		engine->index = i;
		spin_lock_init(&engine->lock);
		INIT_LIST_HEAD(&engine->jobs);
		init_waitqueue_head(&engine->wq);
		engine->fence_context = dma_fence_context_alloc(1);
		snprintf(engine->name, sizeof(engine->name), "vnpu%u-aicore%u",
			 vdev->index, i);
		engine->op_call = vnpu_op_call_alloc();
		if (!engine->op_call)
			return -ENOMEM;
		ret = vnpu_sched_init(engine, drm->dev);
		if (ret)
			return ret;
		vdev->scheds[i] = &engine->sched;
		engine->worker = kthread_run(vnpu_engine_worker, engine, "%s",
					     engine->name);
		if (IS_ERR(engine->worker)) {
			ret = PTR_ERR(engine->worker);
			engine->worker = NULL;
			return ret;
		}
	}
	return 0;
}
