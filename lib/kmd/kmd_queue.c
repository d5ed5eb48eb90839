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
