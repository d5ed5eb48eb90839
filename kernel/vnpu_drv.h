/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: a virtual NPU exposed as a DRM accel device.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_DRV_H__
#define __VNPU_DRV_H__

#include <linux/atomic.h>
#include <linux/types.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_compat.h"

#define VNPU_DRIVER_NAME	"vnpu"
#define VNPU_DRIVER_DESC	"Virtual NPU"

/* Limits of the module parameters. */
#define VNPU_MAX_DEVICES	16
#define VNPU_MAX_ENGINES	64
#define VNPU_MAX_MEM_MB		(64 * 1024)
#define VNPU_MAX_QUEUE_DEPTH	4096
#define VNPU_MAX_TIMEOUT_MS	(10 * 60 * 1000)

/**
 * struct vnpu_config - the shape of every device, from the module parameters
 * @num_devices: devices created at load
 * @mem_bytes: device memory capacity per device
 * @engines: AI-core engines per device
 * @queue_depth: jobs a queue may have in flight
 * @job_timeout_ms: hang-detection timeout
 */
struct vnpu_config {
	u32 num_devices;
	u64 mem_bytes;
	u32 engines;
	u32 queue_depth;
	u32 job_timeout_ms;
};

extern struct vnpu_config vnpu_cfg;

/**
 * struct vnpu_device - one virtual NPU
 * @drm: the DRM device, embedded; its lifetime is the device's
 * @index: position among the module's devices
 * @open_files: number of open files (contexts)
 */
struct vnpu_device {
	struct drm_device drm;
	u32 index;
	atomic_t open_files;
};

/**
 * struct vnpu_file - per-open-file state: one device context
 * @vdev: the device this file was opened on
 */
struct vnpu_file {
	struct vnpu_device *vdev;
};

static inline struct vnpu_device *to_vnpu_device(struct drm_device *drm)
{
	return container_of(drm, struct vnpu_device, drm);
}

/* vnpu_drv.c */
struct vnpu_device *vnpu_drm_alloc(struct device *parent);

/* vnpu_device.c */
int vnpu_devices_create(void);
void vnpu_devices_destroy(void);

/* vnpu_param.c */
int vnpu_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

/* vnpu_debugfs.c */
void vnpu_debugfs_init(struct vnpu_device *vdev);

/* vnpu_uring.c */
struct io_uring_cmd;
int vnpu_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags);

#endif /* __VNPU_DRV_H__ */
