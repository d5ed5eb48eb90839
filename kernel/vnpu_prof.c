// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: profiling (UAPI 1.8). DRM_IOCTL_VNPU_PROF_CTL gives a file a ring
 * of records, a HOST buffer object made here and published as a handle;
 * the engines append a record for every task of the file's jobs that ends
 * and for every job that leaves an engine.
 *
 * The ring is shared with user space, which may write anything anywhere
 * in it. The kernel keeps the authoritative head, capacity and dropped
 * count in its own memory and only writes the shared copies; the one
 * value it reads back is the reader's tail, once per record, and a tail
 * outside [head - capacity, head] counts as head (an empty ring). Slots
 * are indexed by head & (capacity - 1) only, so no value user space
 * writes can make an engine write outside the records.
 *
 * Several engines may write one file's ring at once: a spinlock per ring
 * orders them. Engines never wait for the reader: a full ring drops the
 * record and counts it. The file's pointer to its ring is RCU protected:
 * DISABLE and close clear it and wait for the engines inside a record
 * before the kernel lets go of the object.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"
#include "vnpu_prof.h"

/**
 * struct vnpu_prof - a file's profiling state while it is on
 * @lock: orders the engines writing the ring; guards @head and @dropped
 * @bo: the ring object (the kernel's reference)
 * @ring: its header, through the kernel mapping
 * @recs: its records
 * @flags: DRM_VNPU_PROF_* bits being recorded
 * @capacity: records the ring holds, a power of two
 * @handle: the handle ENABLE returned
 * @size: the object's size
 * @head: records written (authoritative; the header has a copy)
 * @dropped: records dropped (authoritative; the header has a copy)
 */
struct vnpu_prof {
	spinlock_t lock; /* orders the writers; guards head and dropped */
	struct vnpu_bo *bo;
	struct drm_vnpu_prof_ring *ring;
	struct drm_vnpu_prof_record *recs;
	u32 flags;
	u32 capacity;
	u32 handle;
	u64 size;
	u64 head;
	u64 dropped;
};

/**
 * vnpu_prof_init() - a new file: profiling off
 * @vfile: the file
 */
void vnpu_prof_init(struct vnpu_file *vfile)
{
	mutex_init(&vfile->prof_lock);
	RCU_INIT_POINTER(vfile->prof, NULL);
}

/* Append @rec, or drop it when the reader is a capacity behind. */
static void vnpu_prof_put(struct vnpu_prof *prof,
			  const struct drm_vnpu_prof_record *rec)
{
	struct drm_vnpu_prof_ring *ring = prof->ring;
	u64 head, tail;

	spin_lock(&prof->lock);
	head = prof->head;
	/*
	 * User space owns the tail: read it once, trust nothing of it. The
	 * acquire pairs with the reader's release: it has copied the records
	 * below the tail before a slot of theirs is written again.
	 */
	tail = smp_load_acquire(&ring->tail);
	if (tail > head || head - tail > prof->capacity)
		tail = head;
	if (head - tail >= prof->capacity) {
		prof->dropped++;
	} else {
		memcpy(&prof->recs[head & (prof->capacity - 1)], rec,
		       sizeof(*rec));
		prof->head++;
	}
	/* Both copies each time: a scribbled header heals at the next one. */
	WRITE_ONCE(ring->dropped, prof->dropped);
	/* The record before the head that shows it. */
	smp_store_release(&ring->head, prof->head);
	spin_unlock(&prof->lock);
}

/* Write @rec if @vfile records @what. */
static void vnpu_prof_emit(struct vnpu_file *vfile, u32 what,
			   const struct drm_vnpu_prof_record *rec)
{
	struct vnpu_prof *prof;

	rcu_read_lock();
	prof = rcu_dereference(vfile->prof);
	if (prof && (prof->flags & what))
		vnpu_prof_put(prof, rec);
	rcu_read_unlock();
}

static u16 vnpu_prof_status(int err)
{
	return err < 0 ? (u16)-err : 0;
}

/**
 * vnpu_prof_task() - a task of @job ended: record it
 * @engine: the engine that ran it
 * @job: its job; the task's start, parks and pieces are in it
 * @index: the task's index in the job
 * @t: the task
 * @err: 0 or the errno it failed with
 * @bytes: bytes it moved
 *
 * Called only when vnpu_prof_on() said so; never sleeps.
 */
void vnpu_prof_task(struct vnpu_engine *engine, struct vnpu_job *job,
		    u32 index, const struct drm_vnpu_task *t, int err,
		    u64 bytes)
{
	u64 end = ktime_get_ns();
	bool kernel = t->type == DRM_VNPU_TASK_KERNEL;
	struct drm_vnpu_prof_record rec = {
		.kind = DRM_VNPU_PROF_KIND_TASK,
		.engine = engine->index,
		.queue = job->queue->id,
		.seq = job->seq,
		.task = index,
		.tag = t->tag,
		.type = t->type,
		.status = vnpu_prof_status(err),
		.op = kernel ? t->kernel.op : 0,
		/* Turned on while the task ran: its start is unknown. */
		.start_ns = job->task_start_ns ?: end,
		.end_ns = end,
		.bytes = bytes,
		.pieces = kernel ? max_t(u32, job->task_pieces, 1) : 0,
		.parks = job->task_parks,
	};

	vnpu_prof_emit(job->vfile, DRM_VNPU_PROF_TASKS, &rec);
}

/**
 * vnpu_prof_job() - @job leaves @engine: record it
 * @engine: the engine
 * @job: the job; its submit and first slice times are in it
 * @err: 0 or the errno it ended with
 * @end: when it left
 *
 * Called only when vnpu_prof_on() said so; never sleeps.
 */
void vnpu_prof_job(struct vnpu_engine *engine, struct vnpu_job *job, int err,
		   u64 end)
{
	struct drm_vnpu_prof_record rec = {
		.kind = DRM_VNPU_PROF_KIND_JOB,
		.engine = engine->index,
		.queue = job->queue->id,
		.seq = job->seq,
		.task = job->batch->count,
		.status = vnpu_prof_status(err),
		.start_ns = job->first_ns ?: end,
		.end_ns = end,
		.submit_ns = job->submit_ns,
		.pieces = job->slices,
		.parks = job->parks,
	};

	vnpu_prof_emit(job->vfile, DRM_VNPU_PROF_JOBS, &rec);
}

/* Stop recording and let go of the ring. The file's prof_lock held. */
static void vnpu_prof_stop(struct vnpu_file *vfile)
{
	struct vnpu_prof *prof;

	prof = rcu_dereference_protected(vfile->prof,
					 lockdep_is_held(&vfile->prof_lock));
	if (!prof)
		return;
	RCU_INIT_POINTER(vfile->prof, NULL);
	/* No engine is inside a record of this ring after this. */
	synchronize_rcu();
	vnpu_bo_put(prof->bo);
	kfree(prof);
}

/**
 * vnpu_prof_fini() - the file is closing: profiling off
 * @vfile: the file; its handles are gone, engines may still run its jobs
 */
void vnpu_prof_fini(struct vnpu_file *vfile)
{
	mutex_lock(&vfile->prof_lock);
	vnpu_prof_stop(vfile);
	mutex_unlock(&vfile->prof_lock);
}

static int vnpu_prof_enable(struct drm_device *drm, struct drm_file *file,
			    struct drm_vnpu_prof_ctl *args)
{
	struct vnpu_file *vfile = file->driver_priv;
	u64 size = PAGE_ALIGN(sizeof(struct drm_vnpu_prof_ring) +
			      (u64)args->records *
			      sizeof(struct drm_vnpu_prof_record));
	struct vnpu_prof *prof;
	struct vnpu_bo *bo;
	void *kva;
	u32 handle;
	int ret;

	if (rcu_access_pointer(vfile->prof)) {
		drm_dbg(drm, "prof_ctl: profiling is on already\n");
		return -EBUSY;
	}
	prof = kzalloc(sizeof(*prof), GFP_KERNEL_ACCOUNT);
	if (!prof)
		return -ENOMEM;
	bo = vnpu_shmem_bo_create(drm, vfile, size, DRM_VNPU_PLACEMENT_HOST, 0);
	if (IS_ERR(bo)) {
		kfree(prof);
		return PTR_ERR(bo);
	}
	kva = vnpu_bo_kmap(bo);
	if (IS_ERR(kva)) {
		ret = PTR_ERR(kva);
		goto err_put;
	}
	spin_lock_init(&prof->lock);
	prof->bo = bo;
	prof->ring = kva;
	prof->recs = kva + sizeof(struct drm_vnpu_prof_ring);
	prof->flags = args->flags;
	prof->capacity = args->records;
	prof->size = size;
	prof->ring->magic = DRM_VNPU_PROF_MAGIC;
	prof->ring->record_size = sizeof(struct drm_vnpu_prof_record);
	prof->ring->capacity = prof->capacity;
	prof->ring->flags = prof->flags;

	/* The handle takes a reference of its own; ours stays with prof. */
	ret = drm_gem_handle_create(file, vnpu_bo_obj(bo), &handle);
	if (ret)
		goto err_put;
	prof->handle = handle;
	rcu_assign_pointer(vfile->prof, prof);
	args->handle = handle;
	args->size = size;
	return 0;

err_put:
	vnpu_bo_put(bo);
	kfree(prof);
	return ret;
}

static void vnpu_prof_query(struct vnpu_file *vfile,
			    struct drm_vnpu_prof_ctl *args)
{
	struct vnpu_prof *prof;

	prof = rcu_dereference_protected(vfile->prof,
					 lockdep_is_held(&vfile->prof_lock));
	if (!prof) {
		args->flags = 0;
		args->records = 0;
		args->handle = 0;
		args->size = 0;
		args->written = 0;
		args->dropped = 0;
		return;
	}
	args->flags = prof->flags;
	args->records = prof->capacity;
	args->handle = prof->handle;
	args->size = prof->size;
	spin_lock(&prof->lock);
	args->written = prof->head;
	args->dropped = prof->dropped;
	spin_unlock(&prof->lock);
}

/* Every rule of the header's kerneldoc, before anything changes. */
static int vnpu_prof_check(struct drm_device *drm,
			   const struct drm_vnpu_prof_ctl *args)
{
	if (args->pad) {
		drm_dbg(drm, "prof_ctl: pad must be zero\n");
		return -EINVAL;
	}
	if (args->flags & ~DRM_VNPU_PROF_ALL) {
		drm_dbg(drm, "prof_ctl: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	switch (args->op) {
	case DRM_VNPU_PROF_ENABLE:
		if (!args->flags) {
			drm_dbg(drm, "prof_ctl: enable records nothing\n");
			return -EINVAL;
		}
		if (args->records < DRM_VNPU_PROF_MIN_RECORDS ||
		    args->records > DRM_VNPU_PROF_MAX_RECORDS ||
		    !is_power_of_2(args->records)) {
			drm_dbg(drm, "prof_ctl: %u records: not a power of two in range\n",
				args->records);
			return -EINVAL;
		}
		return 0;
	case DRM_VNPU_PROF_DISABLE:
	case DRM_VNPU_PROF_QUERY:
		if (args->flags || args->records) {
			drm_dbg(drm, "prof_ctl: op %u takes no flags or records\n",
				args->op);
			return -EINVAL;
		}
		return 0;
	default:
		drm_dbg(drm, "prof_ctl: unknown op %u\n", args->op);
		return -EINVAL;
	}
}

int vnpu_prof_ctl_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct vnpu_file *vfile = file->driver_priv;
	struct drm_vnpu_prof_ctl *args = data;
	struct drm_vnpu_prof_ctl out = *args;
	int ret;

	ret = vnpu_prof_check(drm, args);
	if (ret)
		return ret;
	mutex_lock(&vfile->prof_lock);
	switch (args->op) {
	case DRM_VNPU_PROF_ENABLE:
		ret = vnpu_prof_enable(drm, file, &out);
		break;
	case DRM_VNPU_PROF_DISABLE:
		if (rcu_access_pointer(vfile->prof))
			vnpu_prof_stop(vfile);
		else
			ret = -ENOENT;
		break;
	default:
		vnpu_prof_query(vfile, &out);
		break;
	}
	mutex_unlock(&vfile->prof_lock);
	/* Output fields change only on success. */
	if (!ret)
		*args = out;
	return ret;
}
