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
#include "vnpu_gem.h"

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

static int vnpu_debugfs_mem_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vnpu_device *vdev = to_vnpu_device(entry->dev);
	struct vnpu_mem_stats mem;

	vnpu_mem_stats_read(vdev, &mem);
	seq_printf(m, "total: %llu\n", vnpu_cfg.mem_bytes);
	seq_printf(m, "used: %llu\n", mem.used);
	seq_printf(m, "free: %llu\n", vnpu_cfg.mem_bytes - mem.used);
	seq_printf(m, "peak: %llu\n", mem.peak);
	seq_printf(m, "objects: %llu\n", mem.objects);
	return 0;
}

static const char *vnpu_placement_name(u32 placement)
{
	switch (placement) {
	case DRM_VNPU_PLACEMENT_DEVICE:
		return "device";
	case DRM_VNPU_PLACEMENT_HOST:
		return "host";
	case DRM_VNPU_PLACEMENT_USER:
		return "user";
	case DRM_VNPU_PLACEMENT_IMPORT:
		return "import";
	default:
		return "?";
	}
}

static int vnpu_debugfs_bo_list_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vnpu_device *vdev = to_vnpu_device(entry->dev);
	struct vnpu_bo *bo;

	seq_printf(m, "%-8s %-16s %14s %-7s %-18s %s\n", "pid", "comm", "size",
		   "place", "va", "pinned");
	mutex_lock(&vdev->bo_lock);
	list_for_each_entry(bo, &vdev->bo_list, dev_link) {
		bool pinned = bo->placement == DRM_VNPU_PLACEMENT_USER ||
			      bo->placement == DRM_VNPU_PLACEMENT_IMPORT ||
			      READ_ONCE(bo->base.pages) || READ_ONCE(bo->kva);

		seq_printf(m, "%-8d %-16s %14llu %-7s 0x%016llx %s\n",
			   bo->owner_pid, bo->owner_comm, bo->size,
			   vnpu_placement_name(bo->placement), bo->owner_va,
			   pinned ? "yes" : "no");
	}
	mutex_unlock(&vdev->bo_lock);
	return 0;
}

static const struct drm_debugfs_info vnpu_debugfs_list[] = {
	{ "info", vnpu_debugfs_info_show, 0 },
	{ "mem", vnpu_debugfs_mem_show, 0 },
	{ "bo_list", vnpu_debugfs_bo_list_show, 0 },
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
