/* SPDX-License-Identifier: MIT */
/* kmd: command buffers (registered batches); SUBMIT replays them. */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_cmdbuf_create(int fd, const struct drm_vnpu_task *tasks,
		      uint32_t count, const void *argblk, uint32_t args_size,
		      uint32_t *handle)
{
	return kmd_cmdbuf_create_bound(fd, tasks, count, argblk, args_size, 0,
				       handle);
}

int kmd_cmdbuf_create_bound(int fd, const struct drm_vnpu_task *tasks,
			    uint32_t count, const void *argblk,
			    uint32_t args_size, uint32_t binding_count,
			    uint32_t *handle)
{
	struct drm_vnpu_cmdbuf_create args = {
		.tasks = (uintptr_t)tasks,
		.task_count = count,
		.task_stride = sizeof(*tasks),
		.args = (uintptr_t)argblk,
		.args_size = args_size,
		.flags = binding_count ? DRM_VNPU_CMDBUF_BINDINGS : 0,
		.binding_count = binding_count,
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
