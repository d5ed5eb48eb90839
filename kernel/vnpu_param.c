// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: DRM_IOCTL_VNPU_GET_PARAM, and the resource limits (module
 * parameters root may change at run time; see
 * Documentation/resource-limits.md).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/nospec.h>
#include <linux/sysfs.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

/* Capability word 0: what this driver implements today. */
#define VNPU_CAPS_WORD0		(DRM_VNPU_CAP_URING_CMD | DRM_VNPU_CAP_BO | \
				 DRM_VNPU_CAP_USERPTR | DRM_VNPU_CAP_PRIME | \
				 DRM_VNPU_CAP_QUEUES | DRM_VNPU_CAP_CMDBUF | \
				 DRM_VNPU_CAP_URING_SUBMIT | DRM_VNPU_CAP_VM | \
				 DRM_VNPU_CAP_BINDINGS | DRM_VNPU_CAP_OPSET_ONNX | \
				 DRM_VNPU_CAP_URING_WAIT_LATEST | DRM_VNPU_CAP_MEDIA | \
				 DRM_VNPU_CAP_PROFILE | DRM_VNPU_CAP_JUMP | \
				 DRM_VNPU_CAP_CMDBUF_UPDATE | DRM_VNPU_CAP_OPSET_LLM)

struct vnpu_limit vnpu_limits[VNPU_LIM_COUNT] = {
	[VNPU_LIM_HOST_MEM_MB] = { 1024, 1, VNPU_MAX_HOST_MEM_MB },
	[VNPU_LIM_FILE_MEM_PCT] = { 75, 1, 100 },
	[VNPU_LIM_FILE_JOBS] = { 4096, 1, 1 << 20 },
	[VNPU_LIM_FILE_JOB_MB] = { 256, 1, 1 << 20 },
	[VNPU_LIM_FILE_CMDBUFS] = { 4096, 1, VNPU_MAX_CMDBUFS },
	[VNPU_LIM_FILE_CMDBUF_MB] = { 256, 1, 1 << 20 },
};

/* A limit outside its range is refused, at load and later. */
static int vnpu_limit_set(const char *val, const struct kernel_param *kp)
{
	struct vnpu_limit *lim = kp->arg;
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	if (v < lim->min || v > lim->max)
		return -EINVAL;
	WRITE_ONCE(lim->val, v);
	return 0;
}

static int vnpu_limit_get(char *buf, const struct kernel_param *kp)
{
	const struct vnpu_limit *lim = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(lim->val));
}

static const struct kernel_param_ops vnpu_limit_ops = {
	.set = vnpu_limit_set,
	.get = vnpu_limit_get,
};

module_param_cb(host_mem_mb, &vnpu_limit_ops,
		&vnpu_limits[VNPU_LIM_HOST_MEM_MB], 0644);
MODULE_PARM_DESC(host_mem_mb, "HOST objects per NPU in MiB (1-1048576, default 1024)");
module_param_cb(file_mem_pct, &vnpu_limit_ops,
		&vnpu_limits[VNPU_LIM_FILE_MEM_PCT], 0644);
MODULE_PARM_DESC(file_mem_pct, "Share of device memory and of host_mem_mb one open file may hold, percent (1-100, default 75)");
module_param_cb(file_jobs, &vnpu_limit_ops,
		&vnpu_limits[VNPU_LIM_FILE_JOBS], 0644);
MODULE_PARM_DESC(file_jobs, "Jobs in flight per open file (1-1048576, default 4096)");
module_param_cb(file_job_mb, &vnpu_limit_ops,
		&vnpu_limits[VNPU_LIM_FILE_JOB_MB], 0644);
MODULE_PARM_DESC(file_job_mb, "Task and argument memory of one file's jobs in flight in MiB (1-1048576, default 256)");
module_param_cb(file_cmdbufs, &vnpu_limit_ops,
		&vnpu_limits[VNPU_LIM_FILE_CMDBUFS], 0644);
MODULE_PARM_DESC(file_cmdbufs, "Command buffers per open file (1-4096, default 4096)");
module_param_cb(file_cmdbuf_mb, &vnpu_limit_ops,
		&vnpu_limits[VNPU_LIM_FILE_CMDBUF_MB], 0644);
MODULE_PARM_DESC(file_cmdbuf_mb, "Task and argument memory of one file's command buffers in MiB (1-1048576, default 256)");

/**
 * vnpu_file_share() - how much of a pool one file may hold
 * @total: the pool's size in bytes
 *
 * Return: file_mem_pct percent of @total, rounded down to whole pages.
 */
u64 vnpu_file_share(u64 total)
{
	return round_down(div_u64(total * vnpu_limit(VNPU_LIM_FILE_MEM_PCT),
				  100), PAGE_SIZE);
}

/**
 * vnpu_host_mem_total() - size of each device's pool for HOST objects
 *
 * Return: host_mem_mb in bytes.
 */
u64 vnpu_host_mem_total(void)
{
	return vnpu_limit_mb(VNPU_LIM_HOST_MEM_MB);
}

/* The parameters indexed by engine (UAPI 1.8). */
static bool vnpu_param_per_engine(u32 param)
{
	return param == DRM_VNPU_PARAM_ENGINE_BUSY_NS ||
	       param == DRM_VNPU_PARAM_ENGINE_TASKS ||
	       param == DRM_VNPU_PARAM_ENGINE_BYTES;
}

/* The engine a checked index names, not even speculatively past the end. */
static struct vnpu_engine *vnpu_param_engine(struct vnpu_device *vdev,
					     const struct drm_vnpu_get_param *args)
{
	return &vdev->engines[array_index_nospec(args->index,
						 vdev->num_engines)];
}

int vnpu_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct vnpu_file *vfile = file->driver_priv;
	struct drm_vnpu_get_param *args = data;
	struct vnpu_mem_stats mem;

	if (args->pad || args->reserved) {
		drm_dbg(drm, "get_param: pad and reserved must be zero\n");
		return -EINVAL;
	}
	if (vnpu_param_per_engine(args->param) ?
	    args->index >= vdev->num_engines : args->index) {
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
	case DRM_VNPU_PARAM_HOST_MEM_TOTAL:
		args->value = vnpu_host_mem_total();
		break;
	case DRM_VNPU_PARAM_HOST_MEM_USED:
		vnpu_mem_stats_read(vdev, &mem);
		args->value = mem.host_used;
		break;
	case DRM_VNPU_PARAM_FILE_MEM_LIMIT:
		args->value = vnpu_file_share(vnpu_cfg.mem_bytes);
		break;
	case DRM_VNPU_PARAM_FILE_MEM_USED:
		spin_lock(&vdev->mem.lock);
		args->value = vfile->mem_used;
		spin_unlock(&vdev->mem.lock);
		break;
	case DRM_VNPU_PARAM_FILE_HOST_LIMIT:
		args->value = vnpu_file_share(vnpu_host_mem_total());
		break;
	case DRM_VNPU_PARAM_FILE_HOST_USED:
		spin_lock(&vdev->mem.lock);
		args->value = vfile->host_used;
		spin_unlock(&vdev->mem.lock);
		break;
	case DRM_VNPU_PARAM_FILE_JOB_LIMIT:
		args->value = vnpu_limit(VNPU_LIM_FILE_JOBS);
		break;
	case DRM_VNPU_PARAM_FILE_JOB_MEM_LIMIT:
		args->value = vnpu_limit_mb(VNPU_LIM_FILE_JOB_MB);
		break;
	case DRM_VNPU_PARAM_FILE_CMDBUF_LIMIT:
		args->value = vnpu_limit(VNPU_LIM_FILE_CMDBUFS);
		break;
	case DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT:
		args->value = vnpu_limit_mb(VNPU_LIM_FILE_CMDBUF_MB);
		break;
	case DRM_VNPU_PARAM_VM_GRANULE:
		args->value = PAGE_SIZE;
		break;
	case DRM_VNPU_PARAM_ENGINE_BUSY_NS:
		args->value = atomic64_read(&vnpu_param_engine(vdev, args)->busy_ns);
		break;
	case DRM_VNPU_PARAM_ENGINE_TASKS:
		args->value = atomic64_read(&vnpu_param_engine(vdev, args)->tasks_done);
		break;
	case DRM_VNPU_PARAM_ENGINE_BYTES:
		args->value = atomic64_read(&vnpu_param_engine(vdev, args)->bytes);
		break;
	default:
		drm_dbg(drm, "get_param: unknown param %u\n", args->param);
		return -EINVAL;
	}
	return 0;
}
