// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the life of a job, from allocation to its last reference. A job is
 * allocated and charged to its file at submit, initialised for its queue's
 * scheduler entity, handed by the scheduler to an engine (run_job), watched
 * by the scheduler's timeout (timedout_job), finished by the engine's
 * worker and freed by the scheduler (free_job).
 *
 * References: the submitter holds the first one until the scheduler owns
 * the job (free_job drops it); run_job takes one for the engine's worker;
 * the timeout handler holds one while it looks at the engine's jobs.
 *
 * Hang detection is the scheduler's timeout plus progress: when a timeout
 * expires, every job on the engine that ran (engine time, not time parked)
 * for a whole timeout without completing a task, step, piece or poll is
 * aborted with -ETIME. Aborting is the engine "reset": the worker drops the
 * job and moves on, other queues never notice. Besides, a job that has used
 * job_max_ms of engine time is aborted with -ETIME whatever its progress
 * (vnpu_job_check() in vnpu_engine.c).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
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

/**
 * vnpu_job_alloc() - a new job of @queue running @batch for @vfile
 * @vdev: the device
 * @vfile: the submitting context; the job takes a reference
 * @queue: the queue; the job owns the caller's reference from here on
 * @batch: the tasks; the job owns the caller's reference from here on
 *
 * The hardware fence is allocated here so that run_job never allocates.
 *
 * Return: the job (one reference) or NULL; on NULL the caller still owns
 * its @queue and @batch references.
 */
struct vnpu_job *vnpu_job_alloc(struct vnpu_device *vdev,
				struct vnpu_file *vfile,
				struct vnpu_queue *queue,
				struct vnpu_batch *batch)
{
	struct vnpu_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return NULL;
	job->hw = kzalloc(sizeof(*job->hw), GFP_KERNEL_ACCOUNT);
	if (!job->hw) {
		kfree(job);
		return NULL;
	}
	kref_init(&job->ref);
	INIT_LIST_HEAD(&job->link);
	job->vdev = vdev;
	job->queue = queue;
	job->vfile = vfile;
	kref_get(&vfile->ref);
	job->batch = batch;
	job->submit_ns = ktime_get_ns();
	atomic_inc(&vdev->jobs_alive);
	return job;
}

/**
 * vnpu_job_charge() - count a new job against its file's jobs in flight
 * @job: the job, with its file, batch and binding table; a command
 *	buffer's batch counts against the command buffer limits instead, so
 *	only the job and its binding table count
 *
 * Undone by vnpu_job_uncharge() when the job is freed.
 *
 * Return: 0, or -EBUSY when the file has file_jobs jobs in flight or their
 * task and argument memory would exceed file_job_mb.
 */
int vnpu_job_charge(struct vnpu_job *job)
{
	u64 bytes = job->batch->cmdbuf_charged ? 0 : job->batch->bytes;
	struct vnpu_file *vfile = job->vfile;
	const char *full;

	if (job->bindings)
		bytes += (u64)job->batch->binding_count * sizeof(u64);

	full = vnpu_budget_charge(vfile, &vfile->job_budget, VNPU_LIM_FILE_JOBS,
				  VNPU_LIM_FILE_JOB_MB, bytes);
	if (full) {
		drm_dbg(&vfile->vdev->drm, "submit: the file's in-flight job %s limit is reached\n",
			full);
		return -EBUSY;
	}
	job->charged = true;
	job->charged_bytes = bytes;
	return 0;
}

/* Undo vnpu_job_charge(), if it happened, for a job being freed. */
static void vnpu_job_uncharge(struct vnpu_job *job)
{
	if (!job->charged)
		return;
	vnpu_budget_uncharge(job->vfile, &job->vfile->job_budget,
			     job->charged_bytes);
	job->charged = false;
}

/**
 * vnpu_job_init() - make @job a scheduler job of @queue's entity
 * @file: the submitter (its client id, where the scheduler takes one)
 * @job: a job from vnpu_job_alloc()
 * @queue: its queue
 *
 * Undone by drm_sched_job_cleanup() until the job is armed.
 *
 * Return: 0 or a negative errno.
 */
int vnpu_job_init(struct drm_file *file, struct vnpu_job *job,
		  struct vnpu_queue *queue)
{
#ifdef HAVE_DRM_SCHED_JOB_INIT_CLIENT_ID
	return drm_sched_job_init(&job->base, &queue->entity, 1, NULL,
				  file->client_id);
#else
	return drm_sched_job_init(&job->base, &queue->entity, 1, NULL);
#endif
}

static void vnpu_job_release(struct kref *ref)
{
	struct vnpu_job *job = container_of(ref, struct vnpu_job, ref);
	struct vnpu_device *vdev = job->vdev;

	if (job->hw_ready)
		dma_fence_put(&job->hw->base);
	else
		kfree(job->hw);
	vnpu_job_uncharge(job);
	kvfree(job->split_save);
	kfree(job->bindings);
	vnpu_batch_put(job->batch);
	vnpu_cmdbuf_put(job->cmdbuf);
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

/*
 * A queue's job N + 1 reaches an engine only when job N has finished, since
 * an engine runs several jobs and must never start N + 1 first. The
 * entity's last scheduled fence is job N's finished fence here; the
 * scheduler ignores fences of the entity itself as dependencies, so wait
 * for N's hardware fence (run_job of N returned it before N + 1 got here;
 * a job with none was finished at once). Then the job needs one of its
 * file's slots of the engine (vnpu_slots.c).
 */
static struct dma_fence *vnpu_prepare_job(struct drm_sched_job *sched_job,
					  struct drm_sched_entity *entity)
{
	struct vnpu_job *job = to_vnpu_job(sched_job);
	struct drm_sched_fence *s_fence;
	struct dma_fence *prev, *hw;

	prev = rcu_dereference_check(entity->last_scheduled, true);
	if (!prev || dma_fence_is_signaled(prev))
		goto slot;
	s_fence = to_drm_sched_fence(prev);
	/* Pairs with the scheduler's release when it set the parent. */
	hw = s_fence ? smp_load_acquire(&s_fence->parent) : NULL;
	if (hw && !dma_fence_is_signaled(hw))
		return dma_fence_get(hw);
slot:
	return vnpu_slot_take(to_engine(sched_job->sched), job);
}

/* Nothing here may allocate: this is the fence signalling path. */
static struct dma_fence *vnpu_run_job(struct drm_sched_job *sched_job)
{
	struct vnpu_engine *engine = to_engine(sched_job->sched);
	struct vnpu_job *job = to_vnpu_job(sched_job);

	job->reached_run = true;
	/* Already failed (the scheduler set an error): do not run. */
	if (unlikely(sched_job->s_fence->finished.error)) {
		vnpu_slot_release(job);
		return NULL;
	}

	spin_lock(&engine->lock);
	dma_fence_init(&job->hw->base, &vnpu_hw_fence_ops, &engine->lock,
		       engine->fence_context, ++engine->fence_seqno);
	job->hw_ready = true;
	kref_get(&job->ref);		/* for the worker */
	vnpu_engine_add(engine, job);
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
	/* Given back when it left its engine; this is for the odd path. */
	vnpu_slot_release(job);
	drm_sched_job_cleanup(sched_job);
	vnpu_job_put(job);
}

const struct drm_sched_backend_ops vnpu_sched_ops = {
	.prepare_job = vnpu_prepare_job,
	.run_job = vnpu_run_job,
	.timedout_job = vnpu_timedout_job,
	.free_job = vnpu_free_job,
};

/**
 * vnpu_job_finish() - record how a job ended and signal its hardware fence
 * @engine: the engine that ran it
 * @job: the job, off the engine's list
 * @err: 0 or the errno it ended with
 */
void vnpu_job_finish(struct vnpu_engine *engine, struct vnpu_job *job,
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
