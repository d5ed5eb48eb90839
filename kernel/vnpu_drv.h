/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: a virtual NPU exposed as a DRM accel device.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_DRV_H__
#define __VNPU_DRV_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/kref.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>
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
#define VNPU_MAX_JOB_MS		(60 * 60 * 1000)
#define VNPU_MAX_SLICE_MS	1000
#define VNPU_MAX_HOST_MEM_MB	(1024 * 1024)
#define VNPU_MAX_CMDBUFS	4096

/**
 * enum vnpu_limit_id - the resource limits, module parameters that root
 * may change at any time (see Documentation/resource-limits.md)
 * @VNPU_LIM_HOST_MEM_MB: HOST objects per device, MiB
 * @VNPU_LIM_FILE_MEM_PCT: share of device memory and of the host pool one
 *	file may hold, percent
 * @VNPU_LIM_FILE_JOBS: jobs in flight per file, across its queues
 * @VNPU_LIM_FILE_JOB_MB: task and argument memory of a file's jobs in
 *	flight, MiB
 * @VNPU_LIM_FILE_CMDBUFS: command buffers per file
 * @VNPU_LIM_FILE_CMDBUF_MB: task and argument memory of a file's command
 *	buffers, MiB
 * @VNPU_LIM_COUNT: number of limits
 */
enum vnpu_limit_id {
	VNPU_LIM_HOST_MEM_MB,
	VNPU_LIM_FILE_MEM_PCT,
	VNPU_LIM_FILE_JOBS,
	VNPU_LIM_FILE_JOB_MB,
	VNPU_LIM_FILE_CMDBUFS,
	VNPU_LIM_FILE_CMDBUF_MB,
	VNPU_LIM_COUNT,
};

/**
 * struct vnpu_limit - one limit and its valid range
 * @val: current value
 * @min: smallest value accepted
 * @max: largest value accepted
 */
struct vnpu_limit {
	unsigned int val;
	unsigned int min;
	unsigned int max;
};

extern struct vnpu_limit vnpu_limits[VNPU_LIM_COUNT];

static inline unsigned int vnpu_limit(enum vnpu_limit_id id)
{
	return READ_ONCE(vnpu_limits[id].val);
}

static inline u64 vnpu_limit_mb(enum vnpu_limit_id id)
{
	return (u64)vnpu_limit(id) << 20;
}

/**
 * struct vnpu_budget - objects a file holds against a count and a memory
 *	limit (see vnpu_budget_charge())
 * @count: objects held
 * @bytes: memory they hold
 */
struct vnpu_budget {
	u32 count;
	u64 bytes;
};

/**
 * struct vnpu_config - the shape of every device, from the module parameters
 * @num_devices: devices created at load
 * @mem_bytes: device memory capacity per device
 * @engines: AI-core engines per device
 * @queue_depth: jobs a queue may have in flight
 * @job_timeout_ms: hang-detection timeout
 * @job_max_ms: engine time after which a job is aborted, progress or not
 * @job_slice_ms: engine time a job runs before it yields to another file's
 */
struct vnpu_config {
	u32 num_devices;
	u64 mem_bytes;
	u32 engines;
	u32 queue_depth;
	u32 job_timeout_ms;
	u32 job_max_ms;
	u32 job_slice_ms;
};

extern struct vnpu_config vnpu_cfg;

/**
 * struct vnpu_mem_stats - device memory accounting
 * @lock: guards the counters
 * @used: bytes of device memory held by live objects (page granular)
 * @peak: highest @used since load
 * @objects: live buffer objects of every placement
 * @host_used: bytes of HOST objects (page granular), against host_mem_mb
 *
 * @lock also guards the per-file &vnpu_file.mem_used and
 * &vnpu_file.host_used of the device's files.
 */
struct vnpu_mem_stats {
	spinlock_t lock; /* guards the counters below and the files' */
	u64 used;
	u64 peak;
	u64 objects;
	u64 host_used;
};

struct mem_cgroup;
struct vnpu_engine;
struct vnpu_prof;
struct vnpu_split;

/**
 * struct vnpu_knobs - fault injection, set through debugfs
 * @fail_next_submit: fail this many submits with -EIO
 * @hang_next_job: the next job to start never makes progress
 * @fault_next_job: the next job to start faults at its first task
 * @engine_delay_ns: extra time every task takes (a slow device)
 */
struct vnpu_knobs {
	atomic_t fail_next_submit;
	atomic_t hang_next_job;
	atomic_t fault_next_job;
	atomic64_t engine_delay_ns;
};

/**
 * struct vnpu_device - one virtual NPU
 * @drm: the DRM device, embedded; its lifetime is the device's
 * @index: position among the module's devices
 * @open_files: number of open files (contexts)
 * @mem: device memory accounting
 * @bo_lock: guards @bo_list
 * @bo_list: every live buffer object, for debugfs
 * @engines: the AI-core engines
 * @num_engines: how many
 * @scheds: their schedulers, for the queues' entities
 * @jobs_alive: jobs not yet freed; teardown waits for zero
 * @jobs_idle: woken when @jobs_alive drops to zero
 * @knobs: fault injection
 * @jobs_submitted: jobs accepted since load
 * @jobs_failed: jobs that ended in a fault, timeout or abort
 * @files_lock: guards @files
 * @files: open contexts, for debugfs
 * @kill_lock: serialises queue teardown, which pauses the engines' workers
 * @split_lock: guards @split
 * @split: an operator call open for help from idle engines, or NULL
 * @bufcache_hits: batch buffers taken from a file's cache
 * @bufcache_misses: batch buffers of a cached size class allocated anew
 * @bufcache_bytes: bytes held in all files' caches
 */
struct vnpu_device {
	struct drm_device drm;
	u32 index;
	atomic_t open_files;
	struct vnpu_mem_stats mem;
	struct mutex bo_lock; /* guards bo_list */
	struct list_head bo_list;
	struct vnpu_engine *engines;
	u32 num_engines;
	struct drm_gpu_scheduler **scheds;
	atomic_t jobs_alive;
	wait_queue_head_t jobs_idle;
	struct vnpu_knobs knobs;
	atomic64_t jobs_submitted;
	atomic64_t jobs_failed;
	struct mutex files_lock; /* guards files */
	struct list_head files;
	struct mutex kill_lock; /* serialises queue teardown */
	spinlock_t split_lock; /* guards split */
	struct vnpu_split *split;
	atomic64_t bufcache_hits;
	atomic64_t bufcache_misses;
	atomic64_t bufcache_bytes;
};

/*
 * Buffers a file keeps, the largest size class kept and the most bytes a
 * file keeps (vnpu_bufcache.c): most of what four threads have in flight
 * when each stream holds a thousand small operators (four batches of
 * 256, 272 KiB of buffers each).
 */
#define VNPU_BUFCACHE_SLOTS	32
#define VNPU_BUFCACHE_MAX	SZ_1M
#define VNPU_BUFCACHE_BYTES	SZ_4M

/**
 * struct vnpu_bufcache - finished batches' buffers, for the next batches
 * @lock: guards the rest
 * @count: buffers held
 * @bytes: their capacities' sum, at most VNPU_BUFCACHE_BYTES
 * @buf: the buffers
 * @cap: their capacities (powers of two)
 */
struct vnpu_bufcache {
	spinlock_t lock; /* guards the rest */
	u32 count;
	size_t bytes;
	void *buf[VNPU_BUFCACHE_SLOTS];
	size_t cap[VNPU_BUFCACHE_SLOTS];
};

/*
 * Jobs one file may have on one engine at once (running, parked or not
 * started); its further jobs wait in the scheduler without taking an
 * engine credit, so files that fill their share keep no other file's job
 * off the engines (vnpu_slots.c).
 */
#define VNPU_FILE_ENGINE_JOBS	32

/**
 * struct vnpu_slots - a file's share of one engine
 * @used: jobs of the file the engine holds (guarded by the file's
 *	slots_lock)
 * @wait: signalled when one of them leaves, for the file's jobs waiting
 *	for a slot; NULL while none waits (slots_lock)
 * @seqno: last seqno of @wait's fence context (slots_lock)
 * @last_ns: when the file's last slice on the engine ended (the engine's
 *	lock); the engine serves the file that has waited longest first
 */
struct vnpu_slots {
	u32 used;
	struct dma_fence *wait;
	u64 seqno;
	u64 last_ns;
};

/**
 * struct vnpu_fault - a recorded device page fault
 * @va: address of the access
 * @length: bytes accessed
 * @access: DRM_VNPU_ACCESS_*
 * @reason: enum drm_vnpu_fault_reason
 */
struct vnpu_fault {
	u64 va;
	u64 length;
	u32 access;
	u32 reason;
};

/**
 * struct vnpu_file - per-open-file state: one device context
 * @ref: the file and every job submitted from it
 * @vdev: the device this file was opened on
 * @closed: the file is closed; its remaining work is cancelled
 * @queues: queues by id
 * @cmdbufs: command buffers by handle
 * @busy_ns: engine time used by this context's jobs
 * @link: entry in the device's file list
 * @vm_lock: guards @va_space, @vm_space, the VM counts and the fault record
 * @vm_gen: bumped (under @vm_lock) whenever a translation goes away, so
 *	 engines know their cached translations are stale (vnpu_exec.c)
 * @va_space: the context's device virtual address space
 * @vm_space: its reservations (struct vnpu_vm_resv), see vnpu_vm.c
 * @vm_resvs: reservations in @vm_space
 * @vm_maps: mappings in all of them
 * @fault_count: device page faults in this context
 * @last_fault: the most recent one
 * @pid: the process that opened the file (for debugfs)
 * @mem_used: device memory of DEVICE objects this file created (guarded
 *	by the device's &vnpu_mem_stats.lock); objects keep the file alive
 * @host_used: bytes of HOST objects this file created (same lock)
 * @syncobjs: syncobj handles made through the core ioctls
 * @limits_lock: guards the budgets below
 * @cmdbuf_budget: command buffers alive (destroyed ones count until their
 *	replays end) and their task and argument memory
 * @job_budget: jobs submitted and not yet freed, and the task and
 *	argument memory they copied in
 * @bufcache: buffers of finished batches, reused by the next ones
 * @memcg: memory cgroup of the process that opened the file (reference):
 *	what engines allocate on the file's behalf is charged there
 * @slots_lock: guards @slots' counts and wait fences
 * @slots: per engine of the device, the file's share of it (vnpu_slots.c)
 * @slot_context: first of the fence contexts of @slots' wait fences, one
 *	per engine
 * @prof_lock: serialises PROF_CTL calls and the file's close
 * @prof: profiling state while it is on, else NULL; the engines read it
 *	under RCU (vnpu_prof.c)
 */
struct vnpu_file {
	struct kref ref;
	struct vnpu_device *vdev;
	bool closed;
	struct xarray queues;
	struct xarray cmdbufs;
	atomic64_t busy_ns;
	struct list_head link;
	struct mutex vm_lock; /* guards va_space and the fault record */
	u64 vm_gen;
	struct drm_mm va_space;
	struct drm_mm vm_space;
	u32 vm_resvs;
	u32 vm_maps;
	u64 fault_count;
	struct vnpu_fault last_fault;
	struct pid *pid;
	atomic_t syncobjs;
	u64 mem_used;
	u64 host_used;
	spinlock_t limits_lock; /* guards the budgets below */
	struct vnpu_budget cmdbuf_budget;
	struct vnpu_budget job_budget;
	struct vnpu_bufcache bufcache;
	struct mem_cgroup *memcg;
	spinlock_t slots_lock; /* guards the slots' used counts and waits */
	struct vnpu_slots *slots;
	u64 slot_context;
	struct mutex prof_lock; /* serialises PROF_CTL and close */
	struct vnpu_prof __rcu *prof;
};

/* A mapping of @vfile went away: engines drop what they cached. */
static inline void vnpu_mmu_invalidate(struct vnpu_file *vfile)
{
	lockdep_assert_held(&vfile->vm_lock);
	WRITE_ONCE(vfile->vm_gen, vfile->vm_gen + 1);
}

static inline struct vnpu_device *to_vnpu_device(struct drm_device *drm)
{
	return container_of(drm, struct vnpu_device, drm);
}

/* vnpu_drv.c */
struct vnpu_device *vnpu_drm_alloc(struct device *parent);

/* vnpu_device.c */
int vnpu_devices_create(void);
void vnpu_devices_destroy(void);

/* vnpu_drv.c */
void vnpu_file_put(struct vnpu_file *vfile);

static inline void vnpu_file_get(struct vnpu_file *vfile)
{
	kref_get(&vfile->ref);
}

/* vnpu_ioctl.c */
long vnpu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
long vnpu_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* vnpu_mmu.c */
void vnpu_mmu_ctx_init(struct vnpu_file *vfile);
void vnpu_mmu_ctx_fini(struct vnpu_file *vfile);
int vnpu_fault_info_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);

/* vnpu_vm.c */
void vnpu_vm_init(struct vnpu_file *vfile);
void vnpu_vm_close(struct vnpu_file *vfile);
void vnpu_vm_fini(struct vnpu_file *vfile);
int vnpu_vm_reserve_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);
int vnpu_vm_release_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);
int vnpu_vm_map_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file);
int vnpu_vm_unmap_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file);

/* vnpu_gem.c */
int vnpu_bo_create_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);
int vnpu_bo_info_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file);
struct drm_gem_object *vnpu_gem_create_object(struct drm_device *drm,
					      size_t size);
void vnpu_mem_stats_read(struct vnpu_device *vdev, struct vnpu_mem_stats *out);
u64 vnpu_file_share(u64 total);
u64 vnpu_host_mem_total(void);

/* vnpu_memcpy.c */
int vnpu_memcpy_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file);

/* vnpu_param.c */
int vnpu_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

/* vnpu_bufcache.c */
void vnpu_bufcache_init(struct vnpu_file *vfile);
void vnpu_bufcache_fini(struct vnpu_file *vfile);
void *vnpu_bufcache_get(struct vnpu_file *vfile, size_t size);
void vnpu_bufcache_put(struct vnpu_file *vfile, void *buf, size_t size);

/* vnpu_budget.c */
const char *vnpu_budget_charge(struct vnpu_file *vfile,
			       struct vnpu_budget *budget,
			       enum vnpu_limit_id count_lim,
			       enum vnpu_limit_id mb_lim, u64 bytes);
void vnpu_budget_add_bytes(struct vnpu_file *vfile, struct vnpu_budget *budget,
			   u64 bytes);
void vnpu_budget_sub_bytes(struct vnpu_file *vfile, struct vnpu_budget *budget,
			   u64 bytes);
void vnpu_budget_uncharge(struct vnpu_file *vfile, struct vnpu_budget *budget,
			  u64 bytes);

/* vnpu_debugfs.c */
void vnpu_debugfs_init(struct vnpu_device *vdev);

/* vnpu_uring.c */
struct io_uring_cmd;
int vnpu_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags);

#endif /* __VNPU_DRV_H__ */
