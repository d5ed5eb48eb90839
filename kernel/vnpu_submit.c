// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: job submission. Everything that can fail happens before the job is
 * armed (copying, validation, syncobj lookups, allocations); after arming
 * the job is pushed and its fence published, and nothing can fail.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/dma-fence-chain.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
#include "vnpu_trace.h"

/* What a submission signals besides its queue's timeline. */
struct vnpu_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;	/* timeline points only */
	u64 point;
};

struct vnpu_submit_ctx {
	struct vnpu_job *job;
	struct dma_fence_chain *queue_chain;
	struct drm_vnpu_sync *in;
	struct drm_vnpu_sync *out_args;
	struct vnpu_out_sync *out;
	u32 nout;
	u64 *bindings;
	bool job_inited;
};

/* Copy a sync array in; NULL (and 0) for an empty one. */
static int vnpu_copy_syncs(u64 ptr, u32 count, struct drm_vnpu_sync **syncs)
{
	*syncs = NULL;
	if (!count)
		return 0;
	*syncs = memdup_array_user(u64_to_user_ptr(ptr), count,
				   sizeof(**syncs));
	if (IS_ERR(*syncs)) {
		int ret = PTR_ERR(*syncs);

		*syncs = NULL;
		return ret;
	}
	return 0;
}

static int vnpu_add_in_syncs(struct drm_file *file, struct vnpu_job *job,
			     const struct drm_vnpu_sync *in, u32 count)
{
	struct dma_fence *fence;
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		if (in[i].flags & ~DRM_VNPU_SYNC_WAIT_FOR_SUBMIT)
			return -EINVAL;
		ret = drm_syncobj_find_fence(file, in[i].handle, in[i].point,
					     in[i].flags ?
					     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT : 0,
					     &fence);
		if (ret) {
			drm_dbg(file->minor->dev,
				"submit: in-sync %u (handle %u point %llu): %d\n",
				i, in[i].handle, in[i].point, ret);
			return ret;
		}
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			return ret;
	}
	return 0;
}

static int vnpu_prepare_out_syncs(struct drm_file *file,
				  struct vnpu_submit_ctx *ctx,
				  const struct drm_vnpu_sync *out, u32 count)
{
	u32 i;

	if (!count)
		return 0;
	ctx->out = kcalloc(count, sizeof(*ctx->out), GFP_KERNEL_ACCOUNT);
	if (!ctx->out)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		struct vnpu_out_sync *o = &ctx->out[ctx->nout];

		if (out[i].flags)
			return -EINVAL;
		o->syncobj = drm_syncobj_find(file, out[i].handle);
		if (!o->syncobj)
			return -ENOENT;
		ctx->nout++;
		o->point = out[i].point;
		if (o->point) {
			o->chain = dma_fence_chain_alloc();
			if (!o->chain)
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * A replay's binding table: present exactly when the command buffer has
 * bindings, exactly its size; copied into the job, so the replay never
 * reads user memory again.
 */
static int vnpu_copy_bindings(struct drm_device *drm,
			      struct vnpu_submit_ctx *ctx,
			      const struct vnpu_batch *batch,
			      const struct drm_vnpu_submit *args)
{
	bool bound = args->flags & DRM_VNPU_SUBMIT_BINDINGS;
	u64 *table;

	if (bound != !!batch->binding_count ||
	    args->args_size != batch->binding_count * sizeof(u64)) {
		drm_dbg(drm, "submit: command buffer %u takes %u bindings, got %u bytes (flags 0x%x)\n",
			args->cmdbuf, batch->binding_count, args->args_size,
			args->flags);
		return -EINVAL;
	}
	if (!bound)
		return 0;
	table = kmalloc(args->args_size, GFP_KERNEL_ACCOUNT);
	if (!table)
		return -ENOMEM;
	ctx->bindings = table;
	if (copy_from_user(table, u64_to_user_ptr(args->args), args->args_size))
		return -EFAULT;
	return 0;
}

static void vnpu_submit_ctx_fini(struct vnpu_submit_ctx *ctx)
{
	u32 i;

	for (i = 0; i < ctx->nout; i++) {
		dma_fence_chain_free(ctx->out[i].chain);
		drm_syncobj_put(ctx->out[i].syncobj);
	}
	kfree(ctx->out);
	kfree(ctx->in);
	kfree(ctx->out_args);
	kfree(ctx->bindings);
	dma_fence_chain_free(ctx->queue_chain);
	if (ctx->job) {
		if (ctx->job_inited)
			drm_sched_job_cleanup(&ctx->job->base);
		vnpu_job_put(ctx->job);
	}
}

/**
 * vnpu_submit() - queue one job; shared by the ioctl and io_uring paths
 * @file: the caller
 * @args: the request; @args->seq is set on success
 * @nonblock: never sleep waiting for others (io_uring's nonblocking issue):
 *	fail with -EAGAIN where the blocking form would wait for room in the
 *	queue, for the queue's submit lock or for an in-sync point to be
 *	submitted. Allocating memory and reading user memory may still sleep.
 *
 * Return: 0 or a negative errno, with nothing queued or signalled.
 */
int vnpu_submit(struct drm_file *file, struct drm_vnpu_submit *args,
		bool nonblock)
{
	struct drm_device *drm = file->minor->dev;
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_submit_ctx ctx = {};
	struct vnpu_batch *batch = NULL;
	struct vnpu_cmdbuf *cmdbuf = NULL;
	struct vnpu_queue *queue;
	struct dma_fence *fence;
	struct vnpu_job *job;
	u64 seq;
	u32 i;
	int ret;

	if (args->flags & ~DRM_VNPU_SUBMIT_FLAGS) {
		drm_dbg(drm, "submit: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (args->in_sync_count > DRM_VNPU_MAX_SYNCS ||
	    args->out_sync_count > DRM_VNPU_MAX_SYNCS) {
		drm_dbg(drm, "submit: too many syncs\n");
		return -EINVAL;
	}
	if (args->flags & DRM_VNPU_SUBMIT_CMDBUF) {
		if (args->tasks || args->task_count || args->task_stride) {
			drm_dbg(drm, "submit: a command buffer submit carries no tasks\n");
			return -EINVAL;
		}
		/* Only a binding table may come along: 1..MAX entries. */
		if ((args->flags & DRM_VNPU_SUBMIT_BINDINGS) ?
		    !args->args_size || args->args_size % sizeof(u64) ||
		    args->args_size > DRM_VNPU_MAX_BINDINGS * sizeof(u64) :
		    args->args || args->args_size) {
			drm_dbg(drm, "submit: bad binding table (flags 0x%x, %u bytes)\n",
				args->flags, args->args_size);
			return -EINVAL;
		}
	} else if (args->cmdbuf || (args->flags & DRM_VNPU_SUBMIT_BINDINGS)) {
		drm_dbg(drm, "submit: cmdbuf or bindings without DRM_VNPU_SUBMIT_CMDBUF\n");
		return -EINVAL;
	}
	ret = vnpu_copy_syncs(args->in_syncs, args->in_sync_count, &ctx.in);
	if (!ret)
		ret = vnpu_copy_syncs(args->out_syncs, args->out_sync_count,
				      &ctx.out_args);
	if (ret)
		goto err_ctx;
	if (nonblock) {
		/* WAIT_FOR_SUBMIT may sleep until the point appears. */
		for (i = 0; i < args->in_sync_count; i++) {
			if (ctx.in[i].flags & DRM_VNPU_SYNC_WAIT_FOR_SUBMIT) {
				ret = -EAGAIN;
				goto err_ctx;
			}
		}
	}

	queue = vnpu_queue_get(vfile, args->queue_id);
	if (!queue) {
		drm_dbg(drm, "submit: no queue %u\n", args->queue_id);
		ret = -ENOENT;
		goto err_ctx;
	}
	if (READ_ONCE(queue->error)) {
		drm_dbg(drm, "submit: queue %u is in its error state\n", queue->id);
		ret = -EBADFD;
		goto err_queue;
	}
	/* Cheap early check; the real one is under the submit lock. */
	if (nonblock && !vnpu_queue_has_room(queue)) {
		ret = -EAGAIN;
		goto err_queue;
	}

	if (args->flags & DRM_VNPU_SUBMIT_CMDBUF) {
		cmdbuf = vnpu_cmdbuf_get(vfile, args->cmdbuf, &batch);
		if (!cmdbuf) {
			drm_dbg(drm, "submit: no command buffer %u\n", args->cmdbuf);
			ret = -ENOENT;
			goto err_queue;
		}
		ret = vnpu_copy_bindings(drm, &ctx, batch, args);
		if (ret)
			goto err_batch;
	} else {
		batch = vnpu_batch_create(vfile, args->tasks, args->task_count,
					  args->task_stride, args->args,
					  args->args_size, 0);
		if (IS_ERR(batch)) {
			ret = PTR_ERR(batch);
			goto err_queue;
		}
	}

	if (atomic_dec_if_positive(&vdev->knobs.fail_next_submit) >= 0) {
		ret = -EIO;
		goto err_batch;
	}

	job = vnpu_job_alloc(vdev, vfile, queue, batch);
	if (!job) {
		ret = -ENOMEM;
		goto err_batch;
	}
	/* The job owns the queue, batch and cmdbuf references from here on. */
	job->cmdbuf = cmdbuf;
	ctx.job = job;
	job->bindings = ctx.bindings;
	ctx.bindings = NULL;
	ret = vnpu_job_charge(job);
	if (ret)
		goto err_ctx;
	ret = vnpu_job_init(file, job, queue);
	if (ret)
		goto err_ctx;
	ctx.job_inited = true;

	ret = vnpu_add_in_syncs(file, job, ctx.in, args->in_sync_count);
	if (ret)
		goto err_ctx;
	ret = vnpu_prepare_out_syncs(file, &ctx, ctx.out_args,
				     args->out_sync_count);
	if (ret)
		goto err_ctx;
	ctx.queue_chain = dma_fence_chain_alloc();
	if (!ctx.queue_chain) {
		ret = -ENOMEM;
		goto err_ctx;
	}

	if (nonblock) {
		if (!mutex_trylock(&queue->submit_lock)) {
			ret = -EAGAIN;
			goto err_ctx;
		}
		if (!vnpu_queue_has_room(queue))
			ret = -EAGAIN;
		else if (READ_ONCE(queue->destroyed))
			ret = -ENOENT;
	} else {
		/* Interruptible: another submitter may be waiting for room. */
		ret = mutex_lock_interruptible(&queue->submit_lock);
		if (ret)
			goto err_ctx;
		ret = vnpu_queue_wait_room(queue);
	}
	if (ret) {
		mutex_unlock(&queue->submit_lock);
		goto err_ctx;
	}
	/* Taken here so that an -EAGAIN retry does not lose them. */
	job->inject_hang = atomic_dec_if_positive(&vdev->knobs.hang_next_job) >= 0;
	job->inject_fault = atomic_dec_if_positive(&vdev->knobs.fault_next_job) >= 0;
	/* Point of no return. */
	drm_sched_job_arm(&job->base);
	seq = queue->submitted + 1;
	job->seq = seq;
	fence = &job->base.s_fence->finished;
	/*
	 * An engine runs several jobs in time slices: a job that depends on
	 * this one must wait for it to finish, not only to reach the engine.
	 */
	set_bit(DRM_SCHED_FENCE_DONT_PIPELINE, &fence->flags);
	drm_syncobj_add_point(queue->syncobj, ctx.queue_chain, fence, seq);
	ctx.queue_chain = NULL;
	/*
	 * Publish the sequence number after its timeline point: whoever reads
	 * it (acquire) finds the point in the syncobj (io_uring WAIT).
	 */
	smp_store_release(&queue->submitted, seq);
	for (i = 0; i < ctx.nout; i++) {
		if (ctx.out[i].point) {
			drm_syncobj_add_point(ctx.out[i].syncobj,
					      ctx.out[i].chain, fence,
					      ctx.out[i].point);
			ctx.out[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(ctx.out[i].syncobj, fence);
		}
	}
	trace_vnpu_job_submit(job);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&queue->submit_lock);

	atomic64_inc(&vdev->jobs_submitted);
	args->seq = seq;
	ctx.job = NULL;		/* the scheduler owns it now */
	vnpu_submit_ctx_fini(&ctx);
	return 0;

err_batch:
	vnpu_batch_put(batch);
	vnpu_cmdbuf_put(cmdbuf);
err_queue:
	vnpu_queue_put(queue);
err_ctx:
	vnpu_submit_ctx_fini(&ctx);
	return ret;
}

int vnpu_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	return vnpu_submit(file, data, false);
}
