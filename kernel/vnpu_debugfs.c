// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: debugfs files under /sys/kernel/debug/accel/<device>/.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/seq_file.h>
#include <drm/drm_debugfs.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"

static int vnpu_debugfs_info_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vnpu_device *vdev = to_vnpu_device(entry->dev);

	seq_printf(m, "device_index: %u\n", vdev->index);
	seq_printf(m, "uapi_version: %u.%u\n", DRM_VNPU_UAPI_MAJOR,
		   DRM_VNPU_UAPI_MINOR);
	seq_printf(m, "engines: %u\n", vnpu_cfg.engines);
	seq_printf(m, "mem_total: %llu\n", vnpu_cfg.mem_bytes);
	seq_printf(m, "queue_depth: %u\n", vnpu_cfg.queue_depth);
	seq_printf(m, "job_timeout_ms: %u\n", vnpu_cfg.job_timeout_ms);
	seq_printf(m, "open_files: %d\n", atomic_read(&vdev->open_files));
	return 0;
}

static const struct drm_debugfs_info vnpu_debugfs_list[] = {
	{ "info", vnpu_debugfs_info_show, 0 },
};

/**
 * vnpu_debugfs_init() - add the device's debugfs files
 * @vdev: a registered device
 *
 * debugfs is best effort: failures leave the device working.
 */
void vnpu_debugfs_init(struct vnpu_device *vdev)
{
	drm_debugfs_add_files(&vdev->drm, vnpu_debugfs_list,
			      ARRAY_SIZE(vnpu_debugfs_list));
}
