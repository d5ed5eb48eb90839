// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: debugfs files under /sys/kernel/debug/accel/<device>/.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <drm/drm_debugfs.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"

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
	seq_printf(m, "job_max_ms: %u\n", vnpu_cfg.job_max_ms);
	seq_printf(m, "job_slice_ms: %u\n", vnpu_cfg.job_slice_ms);
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

static const char *const vnpu_prio_name[] = { "low", "normal", "high" };

static int vnpu_debugfs_queues_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vnpu_device *vdev = to_vnpu_device(entry->dev);
	struct vnpu_queue *queue;
	struct vnpu_file *vfile;
	unsigned long id;

	seq_printf(m, "%-8s %-6s %-8s %10s %10s %-6s %s\n", "pid", "queue",
		   "priority", "submitted", "completed", "state", "last_error");
	mutex_lock(&vdev->files_lock);
	list_for_each_entry(vfile, &vdev->files, link) {
		xa_lock(&vfile->queues);
		xa_for_each(&vfile->queues, id, queue) {
			spin_lock(&queue->status_lock);
			seq_printf(m, "%-8d %-6u %-8s %10llu %10llu %-6s",
				   pid_nr(vfile->pid), queue->id,
				   vnpu_prio_name[queue->priority],
				   READ_ONCE(queue->submitted),
				   queue->completed,
				   queue->error ? "error" : "ok");
			if (queue->error)
				seq_printf(m, " job %llu state %u error %d task %u va 0x%llx\n",
					   queue->first_error.seq,
					   queue->first_error.state,
					   queue->first_error.error,
					   queue->first_error.task,
					   queue->first_error.va);
			else
				seq_puts(m, " -\n");
			spin_unlock(&queue->status_lock);
		}
		xa_unlock(&vfile->queues);
	}
	mutex_unlock(&vdev->files_lock);
	return 0;
}

static int vnpu_debugfs_engines_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vnpu_device *vdev = to_vnpu_device(entry->dev);
	u32 i;

	seq_printf(m, "%-6s %14s %10s %8s %12s %12s %10s %8s %4s %11s %12s %11s %14s %s\n",
		   "engine", "busy_ns", "jobs", "resets", "progress",
		   "tiles_helped", "yields", "overruns", "held", "split_calls",
		   "split_pieces", "split_parks", "split_unparked", "current");
	for (i = 0; i < vdev->num_engines; i++) {
		struct vnpu_engine *e = &vdev->engines[i];
		u64 seq = 0;
		u32 queue = 0, held = 0;
		struct vnpu_job *job;

		spin_lock(&e->lock);
		list_for_each_entry(job, &e->jobs, link)
			held++;
		if (e->current_job) {
			seq = e->current_job->seq;
			queue = e->current_job->queue->id;
		}
		spin_unlock(&e->lock);
		seq_printf(m, "%-6u %14llu %10llu %8llu %12llu %12llu %10llu %8llu %4u ",
			   i, (u64)atomic64_read(&e->busy_ns),
			   (u64)atomic64_read(&e->jobs_done),
			   (u64)atomic64_read(&e->resets),
			   (u64)atomic64_read(&e->progress),
			   (u64)atomic64_read(&e->tiles_helped),
			   (u64)atomic64_read(&e->yields),
			   (u64)atomic64_read(&e->overruns), held);
		seq_printf(m, "%11llu %12llu %11llu %14llu ",
			   (u64)atomic64_read(&e->split_calls),
			   (u64)atomic64_read(&e->split_pieces),
			   (u64)atomic64_read(&e->split_parks),
			   (u64)atomic64_read(&e->split_unparked));
		if (seq)
			seq_printf(m, "queue %u job %llu\n", queue, seq);
		else
			seq_puts(m, "idle\n");
	}
	return 0;
}

static int vnpu_debugfs_stats_show(struct seq_file *m, void *unused)
{
	struct drm_debugfs_entry *entry = m->private;
	struct vnpu_device *vdev = to_vnpu_device(entry->dev);
	u64 resets = 0;
	u32 i;

	for (i = 0; i < vdev->num_engines; i++)
		resets += atomic64_read(&vdev->engines[i].resets);
	seq_printf(m, "jobs_submitted: %llu\n",
		   (u64)atomic64_read(&vdev->jobs_submitted));
	seq_printf(m, "jobs_failed: %llu\n",
		   (u64)atomic64_read(&vdev->jobs_failed));
	seq_printf(m, "jobs_alive: %d\n", atomic_read(&vdev->jobs_alive));
	seq_printf(m, "resets: %llu\n", resets);
	seq_printf(m, "bufcache_hits: %llu\n",
		   (u64)atomic64_read(&vdev->bufcache_hits));
	seq_printf(m, "bufcache_misses: %llu\n",
		   (u64)atomic64_read(&vdev->bufcache_misses));
	seq_printf(m, "bufcache_bytes: %llu\n",
		   (u64)atomic64_read(&vdev->bufcache_bytes));
	return 0;
}

static const struct drm_debugfs_info vnpu_debugfs_list[] = {
	{ "info", vnpu_debugfs_info_show, 0 },
	{ "mem", vnpu_debugfs_mem_show, 0 },
	{ "bo_list", vnpu_debugfs_bo_list_show, 0 },
	{ "queues", vnpu_debugfs_queues_show, 0 },
	{ "engines", vnpu_debugfs_engines_show, 0 },
	{ "stats", vnpu_debugfs_stats_show, 0 },
};

static int vnpu_knob_get(void *data, u64 *val)
{
	*val = atomic_read(data);
	return 0;
}

static int vnpu_knob_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -ERANGE;
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(vnpu_knob_fops, vnpu_knob_get, vnpu_knob_set, "%llu\n");

static int vnpu_delay_get(void *data, u64 *val)
{
	*val = atomic64_read(data);
	return 0;
}

static int vnpu_delay_set(void *data, u64 val)
{
	/* A slow device, not a dead one: at most one second per task. */
	if (val > NSEC_PER_SEC)
		return -ERANGE;
	atomic64_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(vnpu_delay_fops, vnpu_delay_get, vnpu_delay_set, "%llu\n");

/**
 * vnpu_debugfs_init() - add the device's debugfs files
 * @vdev: a registered device
 *
 * debugfs is best effort: failures leave the device working.
 */
void vnpu_debugfs_init(struct vnpu_device *vdev)
{
	struct dentry *root = vdev->drm.debugfs_root;
	struct vnpu_knobs *k = &vdev->knobs;

	drm_debugfs_add_files(&vdev->drm, vnpu_debugfs_list,
			      ARRAY_SIZE(vnpu_debugfs_list));
	debugfs_create_file_unsafe("fail_next_submit", 0600, root,
				   &k->fail_next_submit, &vnpu_knob_fops);
	debugfs_create_file_unsafe("hang_next_job", 0600, root,
				   &k->hang_next_job, &vnpu_knob_fops);
	debugfs_create_file_unsafe("fault_next_job", 0600, root,
				   &k->fault_next_job, &vnpu_knob_fops);
	debugfs_create_file_unsafe("engine_delay_ns", 0600, root,
				   &k->engine_delay_ns, &vnpu_delay_fops);
}
