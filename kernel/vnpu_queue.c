// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: queues. A queue is a scheduler entity that may run on any engine
 * of its device (idle engines take work; one queue's jobs stay in order)
 * plus a timeline syncobj and a record of how its recent jobs ended.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/capability.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

static const enum drm_sched_priority vnpu_sched_prio[] = {
	[DRM_VNPU_PRIORITY_LOW] = DRM_SCHED_PRIORITY_LOW,
	[DRM_VNPU_PRIORITY_NORMAL] = DRM_SCHED_PRIORITY_NORMAL,
	[DRM_VNPU_PRIORITY_HIGH] = DRM_SCHED_PRIORITY_HIGH,
};

static void vnpu_queue_release(struct kref *ref)
{
	struct vnpu_queue *queue = container_of(ref, struct vnpu_queue, ref);

	drm_syncobj_put(queue->syncobj);
	mutex_destroy(&queue->submit_lock);
	kfree(queue);
}

/**
 * vnpu_queue_put() - drop a queue reference
 * @queue: the queue
 */
void vnpu_queue_put(struct vnpu_queue *queue)
{
	kref_put(&queue->ref, vnpu_queue_release);
}

/**
 * vnpu_queue_get() - look a queue up by id
 * @vfile: the context
 * @id: the queue id
 *
 * Return: the queue with a reference, or NULL.
 */
struct vnpu_queue *vnpu_queue_get(struct vnpu_file *vfile, u32 id)
{
	struct vnpu_queue *queue;

	xa_lock(&vfile->queues);
	queue = xa_load(&vfile->queues, id);
	if (queue)
		kref_get(&queue->ref);
	xa_unlock(&vfile->queues);
	return queue;
}

/**
 * vnpu_queue_record() - note how a job ended
 * @queue: its queue
 * @rec: the outcome
 *
 * A failed job (not a cancelled one) puts the queue in its error state.
 */
void vnpu_queue_record(struct vnpu_queue *queue,
		       const struct vnpu_job_record *rec)
{
	spin_lock(&queue->status_lock);
	queue->history[rec->seq % DRM_VNPU_STATUS_HISTORY] = *rec;
	queue->completed = max(queue->completed, rec->seq);
	if (rec->state != DRM_VNPU_JOB_OK &&
	    rec->state != DRM_VNPU_JOB_CANCELLED && !queue->error) {
		queue->error = true;
		queue->first_error = *rec;
	}
	spin_unlock(&queue->status_lock);
	wake_up_all(&queue->room);
}

/**
 * vnpu_queue_has_room() - may a job be pushed without waiting?
 * @queue: the queue
 *
 * Return: true when fewer than queue_depth jobs are in flight, or when the
 * queue was destroyed (the submitter finds out under the submit lock).
 */
bool vnpu_queue_has_room(struct vnpu_queue *queue)
{
	bool room;

	if (READ_ONCE(queue->destroyed))
		return true;	/* let the submitter find out */
	spin_lock(&queue->status_lock);
	room = READ_ONCE(queue->submitted) - queue->completed <
	       vnpu_cfg.queue_depth;
	spin_unlock(&queue->status_lock);
	return room;
}

/**
 * vnpu_queue_wait_room() - block while the queue has queue_depth jobs in flight
 * @queue: the queue; called with its submit_lock held
 *
 * Back-pressure by waiting, so user space never has to retry.
 *
 * Return: 0, -ENOENT when the queue was destroyed meanwhile, or
 * -ERESTARTSYS when a signal arrives.
 */
int vnpu_queue_wait_room(struct vnpu_queue *queue)
{
	int ret;

	ret = wait_event_interruptible(queue->room,
				       vnpu_queue_has_room(queue));
	if (!ret && READ_ONCE(queue->destroyed))
		ret = -ENOENT;
	return ret;
}

/*
 * Stop a queue: cancel what has not run, let the running job finish.
 *
 * In 6.12 a scheduler worker that pops a job puts the entity back into its
 * run queue's FIFO tree when more jobs wait, without looking at whether
 * the entity was stopped meanwhile: racing drm_sched_entity_fini(), that
 * leaves a dying entity in the tree (seen as an Oops in rb_erase). The
 * engines' submission workers are therefore paused while the entity goes.
 */
static void vnpu_queue_kill(struct vnpu_queue *queue)
{
	struct vnpu_device *vdev = queue->vfile->vdev;
	u32 i;

	/* Release submitters waiting for room; they see the queue is gone. */
	WRITE_ONCE(queue->destroyed, true);
	wake_up_all(&queue->room);
	/* No submitter is between arming and pushing once we hold this. */
	mutex_lock(&queue->submit_lock);
	mutex_lock(&vdev->kill_lock);
	for (i = 0; i < vdev->num_engines; i++)
		drm_sched_wqueue_stop(vdev->scheds[i]);
	/* Kills the jobs not yet handed to an engine (-ESRCH), at once. */
	drm_sched_entity_fini(&queue->entity);
	for (i = 0; i < vdev->num_engines; i++)
		drm_sched_wqueue_start(vdev->scheds[i]);
	mutex_unlock(&vdev->kill_lock);
	mutex_unlock(&queue->submit_lock);
}

/**
 * vnpu_queues_fini() - destroy every queue of a closing file
 * @vfile: the context
 */
void vnpu_queues_fini(struct vnpu_file *vfile)
{
	struct vnpu_queue *queue;
	unsigned long id;

	xa_for_each(&vfile->queues, id, queue) {
		xa_erase(&vfile->queues, id);
		vnpu_queue_kill(queue);
		vnpu_queue_put(queue);
	}
	xa_destroy(&vfile->queues);
}

int vnpu_queue_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct drm_vnpu_queue_create *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_queue *queue;
	u32 id, handle;
	int ret;

	if (args->flags) {
		drm_dbg(drm, "queue_create: flags must be zero\n");
		return -EINVAL;
	}
	if (args->priority >= ARRAY_SIZE(vnpu_sched_prio)) {
		drm_dbg(drm, "queue_create: bad priority %u\n", args->priority);
		return -EINVAL;
	}
	/* Going ahead of everybody else's work is a privilege, as on GPUs. */
	if (args->priority > DRM_VNPU_PRIORITY_NORMAL && !capable(CAP_SYS_NICE)) {
		drm_dbg(drm, "queue_create: priority %u needs CAP_SYS_NICE\n",
			args->priority);
		return -EACCES;
	}

	queue = kzalloc(sizeof(*queue), GFP_KERNEL_ACCOUNT);
	if (!queue)
		return -ENOMEM;
	kref_init(&queue->ref);
	queue->vfile = vfile;
	queue->priority = args->priority;
	mutex_init(&queue->submit_lock);
	spin_lock_init(&queue->status_lock);
	init_waitqueue_head(&queue->room);

	ret = drm_sched_entity_init(&queue->entity,
				    vnpu_sched_prio[args->priority],
				    vdev->scheds, vdev->num_engines, NULL);
	if (ret)
		goto err_free;
	ret = drm_syncobj_create(&queue->syncobj, 0, NULL);
	if (ret)
		goto err_entity;
	/*
	 * Reserve the id only: lookups and QUEUE_DESTROY see nothing there
	 * until the queue is complete and stored below.
	 */
	ret = xa_alloc(&vfile->queues, &id, NULL,
		       XA_LIMIT(1, DRM_VNPU_MAX_QUEUES), GFP_KERNEL_ACCOUNT);
	if (ret) {
		ret = ret == -EBUSY ? -ENOSPC : ret;
		goto err_syncobj;
	}
	queue->id = id;
	ret = drm_syncobj_get_handle(file, queue->syncobj, &handle);
	if (ret)
		goto err_release_id;
	/* Storing into a reserved slot allocates nothing and cannot fail. */
	xa_store(&vfile->queues, id, queue, GFP_KERNEL_ACCOUNT);
	args->queue_id = id;
	args->syncobj = handle;
	return 0;

err_release_id:
	xa_release(&vfile->queues, id);
err_syncobj:
	drm_syncobj_put(queue->syncobj);
	queue->syncobj = NULL;
err_entity:
	drm_sched_entity_destroy(&queue->entity);
err_free:
	mutex_destroy(&queue->submit_lock);
	kfree(queue);
	return ret;
}

/* Take a complete queue out of the file; a reserved id is left alone. */
static struct vnpu_queue *vnpu_queue_unpublish(struct vnpu_file *vfile, u32 id)
{
	struct vnpu_queue *queue;

	xa_lock(&vfile->queues);
	queue = xa_load(&vfile->queues, id);
	if (queue)
		__xa_erase(&vfile->queues, id);
	xa_unlock(&vfile->queues);
	return queue;
}

int vnpu_queue_destroy_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vnpu_queue_destroy *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_queue *queue;

	if (args->pad) {
		drm_dbg(drm, "queue_destroy: pad must be zero\n");
		return -EINVAL;
	}
	queue = vnpu_queue_unpublish(vfile, args->queue_id);
	if (!queue)
		return -ENOENT;
	vnpu_queue_kill(queue);
	vnpu_queue_put(queue);
	return 0;
}

int vnpu_queue_reset_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct drm_vnpu_queue_destroy *args = data;
	struct vnpu_queue *queue;

	if (args->pad) {
		drm_dbg(drm, "queue_reset: pad must be zero\n");
		return -EINVAL;
	}
	queue = vnpu_queue_get(file->driver_priv, args->queue_id);
	if (!queue)
		return -ENOENT;
	spin_lock(&queue->status_lock);
	queue->error = false;
	memset(&queue->first_error, 0, sizeof(queue->first_error));
	spin_unlock(&queue->status_lock);
	vnpu_queue_put(queue);
	return 0;
}

/**
 * vnpu_queue_job_record() - how job @seq of a queue stands
 * @queue: the queue
 * @seq: the job's sequence number
 * @rec: out, the job's record; state DRM_VNPU_JOB_PENDING (and the rest
 *	zero) while it has not ended
 *
 * Lock-free against submitters (one may be waiting for room under
 * submit_lock); never sleeps.
 *
 * Return: 0, -EINVAL for a @seq never submitted, or -ENODATA for a job
 * that ended too long ago to be remembered (@rec is then zero).
 */
int vnpu_queue_job_record(struct vnpu_queue *queue, u64 seq,
			  struct vnpu_job_record *rec)
{
	int ret = 0;

	memset(rec, 0, sizeof(*rec));
	/* Pairs with vnpu_submit(): a published seq has its timeline point. */
	if (!seq || seq > smp_load_acquire(&queue->submitted))
		return -EINVAL;

	spin_lock(&queue->status_lock);
	if (queue->history[seq % DRM_VNPU_STATUS_HISTORY].seq == seq)
		*rec = queue->history[seq % DRM_VNPU_STATUS_HISTORY];
	else if (queue->error && queue->first_error.seq == seq)
		*rec = queue->first_error;
	else if (seq > queue->completed)
		rec->state = DRM_VNPU_JOB_PENDING;
	else
		ret = -ENODATA;
	spin_unlock(&queue->status_lock);
	return ret;
}

int vnpu_job_status_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct drm_vnpu_job_status *args = data;
	struct vnpu_job_record rec = {};
	struct vnpu_queue *queue;
	int ret = 0;

	if (args->pad) {
		drm_dbg(drm, "job_status: pad must be zero\n");
		return -EINVAL;
	}
	queue = vnpu_queue_get(file->driver_priv, args->queue_id);
	if (!queue)
		return -ENOENT;

	ret = vnpu_queue_job_record(queue, args->seq, &rec);
	if (ret == -EINVAL)
		goto out_put;

	args->state = rec.state;
	args->error = rec.error;
	args->task = rec.task;
	args->fault_access = rec.access;
	args->fault_va = rec.va;
	args->fault_reason = rec.reason;
	args->reserved = 0;
out_put:
	vnpu_queue_put(queue);
	return ret;
}
