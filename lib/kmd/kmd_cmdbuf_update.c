/* SPDX-License-Identifier: MIT */
/* kmd: patch a command buffer in place (UAPI 1.9, CMDBUF_UPDATE). */
#include <errno.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

int kmd_cmdbuf_update(int fd, uint32_t handle, uint32_t first,
		      const struct drm_vnpu_task *tasks, uint32_t count,
		      uint32_t args_offset, const void *argblk,
		      uint32_t args_size)
{
	struct drm_vnpu_cmdbuf_update args = {
		.handle = handle,
		.tasks = (uintptr_t)tasks,
		.first_task = first,
		.task_count = count,
		.task_stride = count ? sizeof(*tasks) : 0,
		.args_offset = args_offset,
		.args = (uintptr_t)argblk,
		.args_size = args_size,
	};

	if (drmIoctl(fd, DRM_IOCTL_VNPU_CMDBUF_UPDATE, &args))
		return -errno;
	return 0;
}
