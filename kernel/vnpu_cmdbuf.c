// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: command buffers. A command buffer is a validated batch kept under
 * a per-file handle, so replaying it costs a reference, not a copy; it
 * counts against the file's command buffer budget until its last
 * reference (a replay in flight) is gone.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/xarray.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

/**
 * vnpu_cmdbuf_get() - a reference to a command buffer's batch
 * @vfile: the context
 * @handle: the command buffer
 *
 * Return: the batch or NULL.
 */
struct vnpu_batch *vnpu_cmdbuf_get(struct vnpu_file *vfile, u32 handle)
{
	struct vnpu_batch *batch;

	xa_lock(&vfile->cmdbufs);
	batch = xa_load(&vfile->cmdbufs, handle);
	if (batch)
		kref_get(&batch->ref);
	xa_unlock(&vfile->cmdbufs);
	return batch;
}

/**
 * vnpu_cmdbufs_fini() - drop every command buffer of a closing file
 * @vfile: the context
 */
void vnpu_cmdbufs_fini(struct vnpu_file *vfile)
{
	struct vnpu_batch *batch;
	unsigned long handle;

	xa_for_each(&vfile->cmdbufs, handle, batch)
		vnpu_batch_put(batch);
	xa_destroy(&vfile->cmdbufs);
}

/* Count a new command buffer against its file's limits. */
static int vnpu_cmdbuf_charge(struct drm_device *drm, struct vnpu_file *vfile,
			      struct vnpu_batch *batch)
{
	const char *full;

	full = vnpu_budget_charge(vfile, &vfile->cmdbuf_budget,
				  VNPU_LIM_FILE_CMDBUFS, VNPU_LIM_FILE_CMDBUF_MB,
				  batch->bytes);
	if (full) {
		drm_dbg(drm, "cmdbuf_create: the file's command buffer %s limit is reached\n",
			full);
		return -ENOSPC;
	}
	batch->cmdbuf_charged = true;
	return 0;
}

int vnpu_cmdbuf_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_vnpu_cmdbuf_create *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_batch *batch;
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
	ret = vnpu_cmdbuf_charge(drm, vfile, batch);
	if (ret) {
		vnpu_batch_put(batch);
		return ret;
	}
	ret = xa_alloc(&vfile->cmdbufs, &handle, batch,
		       XA_LIMIT(1, VNPU_MAX_CMDBUFS), GFP_KERNEL_ACCOUNT);
	if (ret) {
		vnpu_batch_put(batch);
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
	struct vnpu_batch *batch;

	if (args->pad) {
		drm_dbg(drm, "cmdbuf_destroy: pad must be zero\n");
		return -EINVAL;
	}
	batch = xa_erase(&vfile->cmdbufs, args->handle);
	if (!batch)
		return -ENOENT;
	/* Replays in flight hold their own references. */
	vnpu_batch_put(batch);
	return 0;
}
