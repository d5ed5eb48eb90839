// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the AI-core engines. Each engine is a DRM GPU scheduler whose
 * run_job hands the job to the engine's worker thread; the worker executes
 * the job's tasks one by one and signals the job's hardware fence.
 *
 * Hang detection is the scheduler's timeout plus progress: when a job's
 * timeout expires while its engine is still completing tasks, the job is
 * left alone and the timer re-armed; only a job that made no progress for
 * a whole timeout is aborted with -ETIME. Aborting is the engine "reset":
 * the worker drops the job and moves on, other queues never notice.
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
	job->progress_mark = atomic64_read(&engine->progress);
	kref_get(&job->ref);		/* for the worker */
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

static enum drm_gpu_sched_stat vnpu_timedout_job(struct drm_sched_job *sched_job)
{
	struct vnpu_engine *engine = to_engine(sched_job->sched);
	struct vnpu_job *job = to_vnpu_job(sched_job);
	u64 progress = atomic64_read(&engine->progress);
	bool running;

	/*
	 * The scheduler took the job off its pending list. Keep the job
	 * alive while it is looked at, and put it back before anything can
	 * signal it, so the scheduler frees it as usual.
	 */
	kref_get(&job->ref);
	vnpu_job_reinsert(sched_job);

	spin_lock(&engine->lock);
	running = engine->current_job == job;
	spin_unlock(&engine->lock);

	if (dma_fence_is_signaled(&job->hw->base) ||
	    progress != READ_ONCE(job->progress_mark) ||
	    !running) {
		/* Finished, alive, or still waiting behind another job. */
		WRITE_ONCE(job->progress_mark, progress);
		goto out;
	}

	atomic64_inc(&engine->resets);
	trace_vnpu_job_timeout(job);
	drm_warn(&engine->vdev->drm,
		 "%s: job %llu of queue %u (pid %d) made no progress for %u ms; aborted\n",
		 engine->name, job->seq, job->queue->id,
		 pid_nr(job->vfile->pid), vnpu_cfg.job_timeout_ms);
	atomic_cmpxchg(&job->abort, 0, -ETIME);
	wake_up(&engine->wq);
out:
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
	.run_job = vnpu_run_job,
	.timedout_job = vnpu_timedout_job,
	.free_job = vnpu_free_job,
};

static void vnpu_job_finish(struct vnpu_engine *engine, struct vnpu_job *job,
			    int err)
{
	struct vnpu_job_record *rec = &job->rec;
	u64 busy = ktime_get_ns() - job->start_ns;

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

	atomic64_add(busy, &engine->busy_ns);
	atomic64_add(busy, &job->vfile->busy_ns);
	atomic64_inc(&engine->jobs_done);
	vnpu_queue_record(job->queue, rec);
	trace_vnpu_job_done(job);

	if (err)
		dma_fence_set_error(&job->hw->base, err);
	dma_fence_signal(&job->hw->base);
}

static int vnpu_engine_worker(void *data)
{
	struct vnpu_engine *engine = data;
	struct vnpu_job *job;
	int err;

	while (!kthread_should_stop()) {
		wait_event_interruptible(engine->wq,
					 !list_empty(&engine->jobs) ||
					 vnpu_split_pending(engine->vdev) ||
					 kthread_should_stop());
		spin_lock(&engine->lock);
		job = list_first_entry_or_null(&engine->jobs, struct vnpu_job,
					       link);
		if (job) {
			list_del_init(&job->link);
			engine->current_job = job;
		}
		spin_unlock(&engine->lock);
		if (!job) {
			/* Idle: lend a hand with another engine's call. */
			vnpu_split_help(engine);
			cond_resched();
			continue;
		}

		job->start_ns = ktime_get_ns();
		err = vnpu_job_execute(engine, job);

		spin_lock(&engine->lock);
		engine->current_job = NULL;
		spin_unlock(&engine->lock);
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
		.credit_limit = 1,
		.timeout = timeout,
		.name = engine->name,
		.dev = dev,
	};

	return drm_sched_init(&engine->sched, &args);
#else
	return drm_sched_init(&engine->sched, &vnpu_sched_ops, NULL,
			      DRM_SCHED_PRIORITY_COUNT, 1, 0, timeout, NULL,
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
