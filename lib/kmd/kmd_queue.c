/* SPDX-License-Identifier: MIT */
/* kmd: QUEUE_CREATE, QUEUE_DESTROY, QUEUE_RESET, SUBMIT, JOB_STATUS. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_queue_create(int fd, uint32_t priority, uint32_t *queue_id,
		     uint32_t *syncobj)
{
	struct drm_vnpu_queue_create args = { .priority = priority };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &args))
		return -errno;
	*queue_id = args.queue_id;
	*syncobj = args.syncobj;
	return 0;
}

int kmd_queue_destroy(int fd, uint32_t queue_id)
{
	struct drm_vnpu_queue_destroy args = { .queue_id = queue_id };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &args))
		return -errno;
	return 0;
}

int kmd_queue_reset(int fd, uint32_t queue_id)
{
	struct drm_vnpu_queue_destroy args = { .queue_id = queue_id };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_QUEUE_RESET, &args))
		return -errno;
	return 0;
}

int kmd_submit(int fd, uint32_t queue_id, const struct drm_vnpu_task *tasks,
	       uint32_t count, const void *argblk, uint32_t args_size,
	       const struct drm_vnpu_sync *in_syncs, uint32_t in_count,
	       uint64_t *seq)
{
	struct drm_vnpu_submit args = {
		.queue_id = queue_id,
		.tasks = (uintptr_t)tasks,
		.task_count = count,
		.task_stride = sizeof(*tasks),
		.args = (uintptr_t)argblk,
		.args_size = args_size,
		.in_syncs = (uintptr_t)in_syncs,
		.in_sync_count = in_count,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_SUBMIT, &args))
		return -errno;
	*seq = args.seq;
	return 0;
}

int kmd_submit_args(int fd, struct drm_vnpu_submit *args)
{
	if (drmIoctl(fd, DRM_IOCTL_VNPU_SUBMIT, args))
		return -errno;
	return 0;
}

int kmd_job_status(int fd, uint32_t queue_id, uint64_t seq,
		   struct drm_vnpu_job_status *st)
{
	*st = (struct drm_vnpu_job_status){ .queue_id = queue_id, .seq = seq };
	if (drmIoctl(fd, DRM_IOCTL_VNPU_JOB_STATUS, st))
		return -errno;
	return 0;
}
