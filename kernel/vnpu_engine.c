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
 * whose job has waited longest runs next. Jobs of one file do not preempt
 * each other: a file's jobs on an engine run one at a time, highest queue
 * priority first, as they did when an engine held one job.
 *
 * Hang detection is the scheduler's timeout plus progress: when a timeout
 * expires, every job on the engine that ran (engine time, not time parked)
 * for a whole timeout without completing a task, step, piece or poll is
 * aborted with -ETIME. Aborting is the engine "reset": the worker drops the
 * job and moves on, other queues never notice. Besides, a job that has used
 * job_max_ms of engine time is aborted with -ETIME whatever its progress.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <drm/drm_managed.h>
#include <drm/drm_syncobj.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
#include "vnpu_opcall.h"
#include "vnpu_trace.h"

/* Jobs an engine holds at once (one per queue, from any files). */
#define VNPU_ENGINE_JOBS	64

static const char *vnpu_hw_fence_driver_name(struct dma_fence *fence)
{
	return VNPU_DRIVER_NAME;
}

static const char *vnpu_hw_fence_timeline_name(struct dma_fence *fence)
{
	return "vnpu-engine";
}

static const struct dma_fence_ops vnpu_hw_fence_ops = {
	.get_driver_name = vnpu_hw_fence_driver_name,
	.get_timeline_name = vnpu_hw_fence_timeline_name,
};

static void vnpu_job_release(struct kref *ref)
{
	struct vnpu_job *job = container_of(ref, struct vnpu_job, ref);
	struct vnpu_device *vdev = job->vdev;

	if (job->hw_ready)
		dma_fence_put(&job->hw->base);
	else
		kfree(job->hw);
	vnpu_job_uncharge(job);
	vnpu_batch_put(job->batch);
	vnpu_queue_put(job->queue);
	vnpu_file_put(job->vfile);
	kfree(job);
	if (atomic_dec_and_test(&vdev->jobs_alive))
		wake_up_all(&vdev->jobs_idle);
}

/**
 * vnpu_job_put() - drop a job reference
 * @job: the job
 */
void vnpu_job_put(struct vnpu_job *job)
{
	kref_put(&job->ref, vnpu_job_release);
}

static struct vnpu_engine *to_engine(struct drm_gpu_scheduler *sched)
{
	return container_of(sched, struct vnpu_engine, sched);
}

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
	if (!vnpu_engine_has_file(engine, job->vfile))
		engine->nr_files--;
}

/*
 * A queue's job N + 1 reaches an engine only when job N has finished, since
 * an engine runs several jobs and must never start N + 1 first. The
 * entity's last scheduled fence is job N's finished fence here; the
 * scheduler ignores fences of the entity itself as dependencies, so wait
 * for N's hardware fence (run_job of N returned it before N + 1 got here;
 * a job with none was finished at once).
 */
static struct dma_fence *vnpu_prepare_job(struct drm_sched_job *sched_job,
					  struct drm_sched_entity *entity)
{
	struct drm_sched_fence *s_fence;
	struct dma_fence *prev, *hw;

	prev = rcu_dereference_check(entity->last_scheduled, true);
	if (!prev || dma_fence_is_signaled(prev))
		return NULL;
	s_fence = to_drm_sched_fence(prev);
	/* Pairs with the scheduler's release when it set the parent. */
	hw = s_fence ? smp_load_acquire(&s_fence->parent) : NULL;
	if (!hw || dma_fence_is_signaled(hw))
		return NULL;
	return dma_fence_get(hw);
}

/* Nothing here may allocate: this is the fence signalling path. */
static struct dma_fence *vnpu_run_job(struct drm_sched_job *sched_job)
{
	struct vnpu_engine *engine = to_engine(sched_job->sched);
	struct vnpu_job *job = to_vnpu_job(sched_job);

	job->reached_run = true;
	/* Already failed (the scheduler set an error): do not run. */
	if (unlikely(sched_job->s_fence->finished.error))
		return NULL;

	spin_lock(&engine->lock);
	dma_fence_init(&job->hw->base, &vnpu_hw_fence_ops, &engine->lock,
		       engine->fence_context, ++engine->fence_seqno);
	job->hw_ready = true;
	job->engine = engine;
	job->ticket = ++engine->tickets;
	job->ready_ns = ktime_get_ns();
	kref_get(&job->ref);		/* for the worker */
	if (!vnpu_engine_has_file(engine, job->vfile))
		engine->nr_files++;
	list_add_tail(&job->link, &engine->jobs);
	spin_unlock(&engine->lock);
	trace_vnpu_job_run(job);
	wake_up(&engine->wq);

	/* One reference for the scheduler, one kept by the job. */
	return dma_fence_get(&job->hw->base);
}

/* Put a job the timeout handler took back where the scheduler expects it. */
static void vnpu_job_reinsert(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
}

/* Engine time a job has used; engine lock held. */
static u64 vnpu_job_run_ns(struct vnpu_engine *engine, struct vnpu_job *job,
			   u64 now)
{
	if (engine->current_job == job)
		return job->run_ns + (now - job->slice_start);
	return job->run_ns;
}

/*
 * The scheduler times out the oldest job of the engine; the handler looks
 * at every job the engine holds. A job is hung when it ran for (nearly) a
 * whole timeout of engine time since its progress last moved: a job parked
 * behind another file's job is not running and cannot be hung.
 */
static enum drm_gpu_sched_stat vnpu_timedout_job(struct drm_sched_job *sched_job)
{
	struct vnpu_engine *engine = to_engine(sched_job->sched);
	struct vnpu_job *job = to_vnpu_job(sched_job), *j;
	u64 timeout = (u64)vnpu_cfg.job_timeout_ms * NSEC_PER_MSEC;
	u64 now = ktime_get_ns();
	bool hung = false;

	/*
	 * The scheduler took the job off its pending list. Keep the job
	 * alive while it is looked at, and put it back before anything can
	 * signal it, so the scheduler frees it as usual.
	 */
	kref_get(&job->ref);
	vnpu_job_reinsert(sched_job);

	spin_lock(&engine->lock);
	list_for_each_entry(j, &engine->jobs, link) {
		u64 run = vnpu_job_run_ns(engine, j, now);
		u64 progress = atomic64_read(&j->progress);

		if (progress != j->progress_mark || !j->started) {
			/* Alive, or still waiting for its first slice. */
			j->progress_mark = progress;
			j->mark_run_ns = run;
			continue;
		}
		/* The timer and the first slice start a little apart. */
		if (run - j->mark_run_ns < timeout - timeout / 8 ||
		    atomic_cmpxchg(&j->abort, 0, -ETIME))
			continue;
		hung = true;
		atomic64_inc(&engine->resets);
		trace_vnpu_job_timeout(j);
		drm_warn(&engine->vdev->drm,
			 "%s: job %llu of queue %u (pid %d) made no progress for %u ms; aborted\n",
			 engine->name, j->seq, j->queue->id,
			 pid_nr(j->vfile->pid), vnpu_cfg.job_timeout_ms);
	}
	spin_unlock(&engine->lock);
	if (hung)
		wake_up(&engine->wq);
	vnpu_job_put(job);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void vnpu_free_job(struct drm_sched_job *sched_job)
{
	struct vnpu_job *job = to_vnpu_job(sched_job);

	if (!job->hw_ready) {
		/* Never reached an engine: killed with its queue or file. */
		struct vnpu_job_record rec = {
			.seq = job->seq,
			.state = DRM_VNPU_JOB_CANCELLED,
			.error = sched_job->s_fence->finished.error ?: -ECANCELED,
		};

		vnpu_queue_record(job->queue, &rec);
		/*
		 * Pushing the job raised its engine's load score, which only
		 * a completed job lowers; a job killed in its entity never
		 * completes, and the engine would look busy for good.
		 */
		if (!job->reached_run)
			atomic_dec(sched_job->sched->score);
	}
	drm_sched_job_cleanup(sched_job);
	vnpu_job_put(job);
}

static const struct drm_sched_backend_ops vnpu_sched_ops = {
	.prepare_job = vnpu_prepare_job,
	.run_job = vnpu_run_job,
	.timedout_job = vnpu_timedout_job,
	.free_job = vnpu_free_job,
};

static void vnpu_job_finish(struct vnpu_engine *engine, struct vnpu_job *job,
			    int err)
{
	struct vnpu_job_record *rec = &job->rec;

	rec->seq = job->seq;
	rec->error = err;
	switch (err) {
	case 0:
		rec->state = DRM_VNPU_JOB_OK;
		break;
	case -ENXIO:
		rec->state = DRM_VNPU_JOB_FAULT;
		break;
	case -ETIME:
		rec->state = DRM_VNPU_JOB_TIMEOUT;
		break;
	case -ECANCELED:
		rec->state = DRM_VNPU_JOB_CANCELLED;
		break;
	default:
		rec->state = DRM_VNPU_JOB_ABORTED;
		break;
	}
	if (err && err != -ECANCELED)
		atomic64_inc(&engine->vdev->jobs_failed);

	atomic64_inc(&engine->jobs_done);
	vnpu_queue_record(job->queue, rec);
	trace_vnpu_job_done(job);

	if (err)
		dma_fence_set_error(&job->hw->base, err);
	dma_fence_signal(&job->hw->base);
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
 * waits for the engine.
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
	if (now >= job->slice_end && READ_ONCE(engine->nr_files) > 1)
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
		/* A file's jobs run one at a time, by priority, then age. */
		if (other->vfile == job->vfile && !job->started &&
		    (other->started || vnpu_job_before(other, job)))
			return false;
	}
	return true;
}

/*
 * The job to run next: of each file's one eligible job, the one that has
 * waited longest since it arrived or was parked. Engine lock held.
 */
static struct vnpu_job *vnpu_engine_pick(struct vnpu_engine *engine)
{
	struct vnpu_job *job, *best = NULL;

	list_for_each_entry(job, &engine->jobs, link) {
		if (best && job->ready_ns >= best->ready_ns)
			continue;
		if (vnpu_job_eligible(engine, job))
			best = job;
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
			job->started = true;
			job->slice_start = ktime_get_ns();
		}
		spin_unlock(&engine->lock);
		if (!job) {
			/* Idle: lend a hand with another engine's call. */
			vnpu_split_help(engine);
			cond_resched();
			continue;
		}

		job->slice_end = job->slice_start + slice;
		err = vnpu_job_execute(engine, job);

		now = ktime_get_ns();
		spin_lock(&engine->lock);
		engine->current_job = NULL;
		ran = now - job->slice_start;
		job->run_ns += ran;
		if (err == VNPU_JOB_YIELD)
			job->ready_ns = now;
		else
			vnpu_engine_remove(engine, job);
		spin_unlock(&engine->lock);
		atomic64_add(ran, &engine->busy_ns);
		atomic64_add(ran, &job->vfile->busy_ns);
		if (err == VNPU_JOB_YIELD) {
			atomic64_inc(&engine->yields);
			continue;
		}
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
