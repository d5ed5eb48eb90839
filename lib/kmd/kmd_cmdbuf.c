/* SPDX-License-Identifier: MIT */
/* kmd: command buffers (registered batches) and their replay. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_cmdbuf_create(int fd, const struct drm_vnpu_task *tasks,
		      uint32_t count, const void *argblk, uint32_t args_size,
		      uint32_t *handle)
{
	struct drm_vnpu_cmdbuf_create args = {
		.tasks = (uintptr_t)tasks,
		.task_count = count,
		.task_stride = sizeof(*tasks),
		.args = (uintptr_t)argblk,
		.args_size = args_size,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &args))
		return -errno;
	*handle = args.handle;
	return 0;
}

int kmd_cmdbuf_destroy(int fd, uint32_t handle)
{
	struct drm_vnpu_cmdbuf_destroy args = { .handle = handle };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &args))
		return -errno;
	return 0;
}

int kmd_submit_cmdbuf(int fd, uint32_t queue_id, uint32_t cmdbuf,
		      const struct drm_vnpu_sync *in, uint32_t nin,
		      const struct drm_vnpu_sync *out, uint32_t nout,
		      uint64_t *seq)
{
	struct drm_vnpu_submit args = {
		.queue_id = queue_id,
		.flags = DRM_VNPU_SUBMIT_CMDBUF,
		.cmdbuf = cmdbuf,
		.in_syncs = (uintptr_t)in,
		.in_sync_count = nin,
		.out_syncs = (uintptr_t)out,
		.out_sync_count = nout,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_SUBMIT, &args))
		return -errno;
	*seq = args.seq;
	return 0;
}
