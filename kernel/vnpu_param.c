// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: DRM_IOCTL_VNPU_GET_PARAM.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"

/* Capability word 0: what this driver implements today. */
#define VNPU_CAPS_WORD0		(DRM_VNPU_CAP_URING_CMD | DRM_VNPU_CAP_BO | \
				 DRM_VNPU_CAP_USERPTR | DRM_VNPU_CAP_PRIME | \
				 DRM_VNPU_CAP_QUEUES | DRM_VNPU_CAP_CMDBUF | \
				 DRM_VNPU_CAP_URING_SUBMIT)

int vnpu_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct drm_vnpu_get_param *args = data;
	struct vnpu_mem_stats mem;

	if (args->pad || args->reserved) {
		drm_dbg(drm, "get_param: pad and reserved must be zero\n");
		return -EINVAL;
	}
	if (args->index) {
		/* No parameter has more than one index yet. */
		drm_dbg(drm, "get_param: index %u out of range for param %u\n",
			args->index, args->param);
		return -EINVAL;
	}

	switch (args->param) {
	case DRM_VNPU_PARAM_UAPI_VERSION:
		args->value = DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR,
						    DRM_VNPU_UAPI_MINOR);
		break;
	case DRM_VNPU_PARAM_CAPABILITIES:
		args->value = VNPU_CAPS_WORD0;
		break;
	case DRM_VNPU_PARAM_DEVICE_INDEX:
		args->value = vdev->index;
		break;
	case DRM_VNPU_PARAM_MEM_TOTAL:
		args->value = vnpu_cfg.mem_bytes;
		break;
	case DRM_VNPU_PARAM_MEM_USED:
		vnpu_mem_stats_read(vdev, &mem);
		args->value = mem.used;
		break;
	case DRM_VNPU_PARAM_MEM_FREE:
		vnpu_mem_stats_read(vdev, &mem);
		args->value = vnpu_cfg.mem_bytes - mem.used;
		break;
	case DRM_VNPU_PARAM_MEM_PEAK:
		vnpu_mem_stats_read(vdev, &mem);
		args->value = mem.peak;
		break;
	case DRM_VNPU_PARAM_BO_COUNT:
		vnpu_mem_stats_read(vdev, &mem);
		args->value = mem.objects;
		break;
	case DRM_VNPU_PARAM_ENGINE_COUNT:
		args->value = vnpu_cfg.engines;
		break;
	case DRM_VNPU_PARAM_QUEUE_DEPTH:
		args->value = vnpu_cfg.queue_depth;
		break;
	case DRM_VNPU_PARAM_JOB_TIMEOUT_MS:
		args->value = vnpu_cfg.job_timeout_ms;
		break;
	case DRM_VNPU_PARAM_DEVICE_COUNT:
		args->value = vnpu_cfg.num_devices;
		break;
	default:
		drm_dbg(drm, "get_param: unknown param %u\n", args->param);
		return -EINVAL;
	}
	return 0;
}
