// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: command buffers. A command buffer is a validated batch kept under
 * a per-file handle, so replaying it costs a reference, not a copy; it
 * counts against the file's command buffer budget until its last
 * reference (a replay in flight) is gone.
 *
 * CMDBUF_UPDATE (UAPI 1.9) never writes into a batch a job may be reading:
 * it builds a patched copy, validates it like a create and swaps the
 * command buffer's current batch. A replay holds the command buffer and
 * takes its current batch when the job first runs on an engine, so an
 * update reaches every replay that has not started and none that has.
 * The command buffer counts once in the budget's count; each batch counts
 * its bytes until freed, a replaced one when its last replay ends.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

static void vnpu_cmdbuf_release(struct kref *ref)
{
	struct vnpu_cmdbuf *cb = container_of(ref, struct vnpu_cmdbuf, ref);

	/* Before the batch: it holds the file reference. */
	vnpu_budget_uncharge(cb->vfile, &cb->vfile->cmdbuf_budget, 0);
	vnpu_batch_put(cb->batch);
	mutex_destroy(&cb->update_lock);
	kfree(cb);
}

/**
 * vnpu_cmdbuf_put() - drop a command buffer reference
 * @cmdbuf: the command buffer, or NULL
 */
void vnpu_cmdbuf_put(struct vnpu_cmdbuf *cmdbuf)
{
	if (cmdbuf)
		kref_put(&cmdbuf->ref, vnpu_cmdbuf_release);
}

/* A reference to the current batch of @cb. */
static struct vnpu_batch *vnpu_cmdbuf_batch(struct vnpu_cmdbuf *cb)
{
	struct vnpu_batch *batch;

	spin_lock(&cb->lock);
	batch = cb->batch;
	kref_get(&batch->ref);
	spin_unlock(&cb->lock);
	return batch;
}

/**
 * vnpu_cmdbuf_get() - a reference to a command buffer and its batch
 * @vfile: the context
 * @handle: the command buffer
 * @batch: out, a reference to its current batch (a replay's checks use
 *	it; what the replay runs is decided by vnpu_cmdbuf_bind())
 *
 * Return: the command buffer or NULL.
 */
struct vnpu_cmdbuf *vnpu_cmdbuf_get(struct vnpu_file *vfile, u32 handle,
				    struct vnpu_batch **batch)
{
	struct vnpu_cmdbuf *cb;

	xa_lock(&vfile->cmdbufs);
	cb = xa_load(&vfile->cmdbufs, handle);
	if (cb)
		kref_get(&cb->ref);
	xa_unlock(&vfile->cmdbufs);
	if (cb && batch)
		*batch = vnpu_cmdbuf_batch(cb);
	return cb;
}

/**
 * vnpu_cmdbuf_bind() - a replay takes its command buffer's contents
 * @job: a job about to run its first slice
 *
 * Called by the engine worker, the only user of @job->batch from here on;
 * the task count and binding count never change, so what SUBMIT checked
 * against the batch it saw still holds.
 */
void vnpu_cmdbuf_bind(struct vnpu_job *job)
{
	struct vnpu_batch *old;

	if (!job->cmdbuf)
		return;
	old = job->batch;
	job->batch = vnpu_cmdbuf_batch(job->cmdbuf);
	vnpu_batch_put(old);
}

/**
 * vnpu_cmdbufs_fini() - drop every command buffer of a closing file
 * @vfile: the context
 */
void vnpu_cmdbufs_fini(struct vnpu_file *vfile)
{
	struct vnpu_cmdbuf *cb;
	unsigned long handle;

	xa_for_each(&vfile->cmdbufs, handle, cb)
		vnpu_cmdbuf_put(cb);
	xa_destroy(&vfile->cmdbufs);
}

int vnpu_cmdbuf_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vnpu_cmdbuf_create *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_batch *batch;
	struct vnpu_cmdbuf *cb;
	const char *full;
	u32 handle;
	int ret;

	if (args->flags & ~DRM_VNPU_CMDBUF_BINDINGS) {
		drm_dbg(drm, "cmdbuf_create: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if ((args->flags & DRM_VNPU_CMDBUF_BINDINGS) ?
	    !args->binding_count ||
	    args->binding_count > DRM_VNPU_MAX_BINDINGS :
	    args->binding_count) {
		drm_dbg(drm, "cmdbuf_create: binding_count %u with flags 0x%x\n",
			args->binding_count, args->flags);
		return -EINVAL;
	}
	batch = vnpu_batch_create(vfile, args->tasks, args->task_count,
				  args->task_stride, args->args,
				  args->args_size, args->binding_count);
	if (IS_ERR(batch))
		return PTR_ERR(batch);
	cb = kzalloc(sizeof(*cb), GFP_KERNEL_ACCOUNT);
	if (!cb) {
		vnpu_batch_put(batch);
		return -ENOMEM;
	}
	full = vnpu_budget_charge(vfile, &vfile->cmdbuf_budget,
				  VNPU_LIM_FILE_CMDBUFS, VNPU_LIM_FILE_CMDBUF_MB,
				  batch->bytes);
	if (full) {
		drm_dbg(drm, "cmdbuf_create: the file's command buffer %s limit is reached\n",
			full);
		kfree(cb);
		vnpu_batch_put(batch);
		return -ENOSPC;
	}
	/* The count is the command buffer's, the bytes the batch's. */
	batch->cmdbuf_charged = true;
	kref_init(&cb->ref);
	spin_lock_init(&cb->lock);
	mutex_init(&cb->update_lock);
	cb->vfile = vfile;
	cb->batch = batch;
	ret = xa_alloc(&vfile->cmdbufs, &handle, cb,
		       XA_LIMIT(1, VNPU_MAX_CMDBUFS), GFP_KERNEL_ACCOUNT);
	if (ret) {
		vnpu_cmdbuf_put(cb);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	args->handle = handle;
	return 0;
}

int vnpu_cmdbuf_destroy_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_vnpu_cmdbuf_destroy *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_cmdbuf *cb;

	if (args->pad) {
		drm_dbg(drm, "cmdbuf_destroy: pad must be zero\n");
		return -EINVAL;
	}
	cb = xa_erase(&vfile->cmdbufs, args->handle);
	if (!cb)
		return -ENOENT;
	/* Replays in flight and updates going on hold their own references. */
	vnpu_cmdbuf_put(cb);
	return 0;
}

/* The checks that need no command buffer: done before the lookup. */
static int vnpu_update_check_args(struct drm_device *drm,
				  const struct drm_vnpu_cmdbuf_update *args)
{
	u32 end;

	if (args->flags || args->pad) {
		drm_dbg(drm, "cmdbuf_update: flags 0x%x or pad set\n",
			args->flags);
		return -EINVAL;
	}
	if (!args->task_count && !args->args_size) {
		drm_dbg(drm, "cmdbuf_update: nothing to patch\n");
		return -EINVAL;
	}
	if (!args->tasks != !args->task_count ||
	    args->task_count > DRM_VNPU_MAX_TASKS ||
	    check_add_overflow(args->first_task, args->task_count, &end) ||
	    end > DRM_VNPU_MAX_TASKS) {
		drm_dbg(drm, "cmdbuf_update: bad task range %u + %u\n",
			args->first_task, args->task_count);
		return -EINVAL;
	}
	if (args->task_count &&
	    (args->task_stride < sizeof(struct drm_vnpu_task) ||
	     args->task_stride > VNPU_MAX_STRIDE || args->task_stride % 8)) {
		drm_dbg(drm, "cmdbuf_update: bad task stride %u\n",
			args->task_stride);
		return -EINVAL;
	}
	if (!args->args != !args->args_size || args->args_size % 8 ||
	    args->args_offset % 8 ||
	    check_add_overflow(args->args_offset, args->args_size, &end) ||
	    end > DRM_VNPU_MAX_ARGS_SIZE) {
		drm_dbg(drm, "cmdbuf_update: bad argument range %u + %u\n",
			args->args_offset, args->args_size);
		return -EINVAL;
	}
	return 0;
}

/* A copy of @old, sharing nothing with it; counted as it is. */
static struct vnpu_batch *vnpu_batch_clone(struct vnpu_batch *old)
{
	struct vnpu_file *vfile = old->vfile;
	struct vnpu_batch *b;

	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT);
	if (!b)
		return NULL;
	kref_init(&b->ref);
	vnpu_file_get(vfile);
	b->vfile = vfile;
	b->count = old->count;
	b->binding_count = old->binding_count;
	b->args_size = old->args_size;
	b->bytes = old->bytes;
	b->tasks = vnpu_bufcache_get(vfile, (size_t)b->count * sizeof(*b->tasks));
	if (b->args_size)
		b->args = vnpu_bufcache_get(vfile, b->args_size);
	if (!b->tasks || (b->args_size && !b->args)) {
		vnpu_batch_put(b);
		return NULL;
	}
	memcpy(b->tasks, old->tasks, (size_t)b->count * sizeof(*b->tasks));
	if (b->args_size)
		memcpy(b->args, old->args, b->args_size);
	return b;
}

/* Copy the patch in over @b's range; the range was checked. */
static int vnpu_batch_patch(struct drm_device *drm, struct vnpu_batch *b,
			    const struct drm_vnpu_cmdbuf_update *args)
{
	struct vnpu_batch tmp = { .vfile = b->vfile };
	size_t bytes = (size_t)args->task_count * sizeof(*b->tasks);
	u32 i;
	int ret = 0;

	if (args->args_size) {
		ret = vnpu_copy_in((u8 *)b->args + args->args_offset,
				   u64_to_user_ptr(args->args), args->args_size);
		if (ret)
			return ret;
	}
	if (!args->task_count)
		return 0;
	ret = vnpu_batch_copy_tasks(drm, &tmp, args->tasks, args->task_count,
				    args->task_stride);
	for (i = 0; !ret && i < args->task_count; i++) {
		if (tmp.tasks[i].type != b->tasks[args->first_task + i].type) {
			drm_dbg(drm, "cmdbuf_update: task %u would change type %u to %u\n",
				args->first_task + i,
				b->tasks[args->first_task + i].type,
				tmp.tasks[i].type);
			ret = -EINVAL;
		}
	}
	if (!ret)
		memcpy(&b->tasks[args->first_task], tmp.tasks, bytes);
	vnpu_bufcache_put(b->vfile, tmp.tasks, bytes);
	return ret;
}

int vnpu_cmdbuf_update_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vnpu_cmdbuf_update *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_batch *old, *new;
	struct vnpu_cmdbuf *cb;
	int ret;

	ret = vnpu_update_check_args(drm, args);
	if (ret)
		return ret;
	cb = vnpu_cmdbuf_get(vfile, args->handle, NULL);
	if (!cb)
		return -ENOENT;

	mutex_lock(&cb->update_lock);
	old = cb->batch;	/* only updates replace it */
	if (args->first_task + args->task_count > old->count ||
	    args->args_offset + args->args_size > old->args_size) {
		drm_dbg(drm, "cmdbuf_update: range past the command buffer's %u tasks or %u argument bytes\n",
			old->count, old->args_size);
		ret = -EINVAL;
		goto out;
	}
	new = vnpu_batch_clone(old);
	if (!new) {
		ret = -ENOMEM;
		goto out;
	}
	ret = vnpu_batch_patch(drm, new, args);
	if (!ret)
		ret = vnpu_batch_validate(drm, new);
	if (ret) {
		vnpu_batch_put(new);
		goto out;
	}
	vnpu_budget_add_bytes(vfile, &vfile->cmdbuf_budget, new->bytes);
	new->cmdbuf_charged = true;
	spin_lock(&cb->lock);
	cb->batch = new;
	spin_unlock(&cb->lock);
	/* Replays that took the old contents keep their own references. */
	vnpu_batch_put(old);
out:
	mutex_unlock(&cb->update_lock);
	vnpu_cmdbuf_put(cb);
	return ret;
}
