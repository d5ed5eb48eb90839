/* SPDX-License-Identifier: MIT */
/*
 * kmd: the only layer of libacl that talks to the vnpu kernel driver.
 * One function per ioctl; every function returns 0 or a negative errno.
 */
#ifndef VNPU_KMD_H
#define VNPU_KMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <drm/vnpu_accel.h>

/* Open an accel node for reading and writing; returns an fd or -errno. */
int kmd_open(const char *path);

/* Close an fd returned by kmd_open. */
void kmd_close(int fd);

/* DRM_IOCTL_VERSION: copy the driver name into name (NUL-terminated). */
int kmd_driver_name(int fd, char *name, size_t len);

/* DRM_IOCTL_VNPU_GET_PARAM. */
int kmd_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value);

/*
 * Every ioctl below goes through libdrm's drmIoctl(), which restarts the
 * call on EINTR and EAGAIN: the one place that retries.
 */
struct drm_vnpu_task;
struct drm_vnpu_sync;
struct drm_vnpu_job_status;
struct drm_vnpu_fault_info;

/* DRM_IOCTL_VNPU_BO_CREATE: a new object; handle and device VA out. */
int kmd_bo_create(int fd, uint64_t size, uint32_t placement,
		  uint32_t *handle, uint64_t *va);

/* BO_CREATE of a PLACEMENT_USER object over [user_ptr, +size), page aligned. */
int kmd_bo_create_user(int fd, uint64_t size, uint64_t user_ptr,
		       uint32_t *handle, uint64_t *va);

/* BO_CREATE of a physical allocation (DRM_VNPU_BO_NO_VA): no VA. */
int kmd_bo_create_phys(int fd, uint64_t size, uint32_t *handle);

/* DRM_IOCTL_VNPU_VM_RESERVE / _RELEASE: a range of device VAs. */
int kmd_vm_reserve(int fd, uint64_t size, uint64_t align, uint64_t *va);
int kmd_vm_release(int fd, uint64_t va);

/* DRM_IOCTL_VNPU_VM_MAP / _UNMAP: part of an object in a reservation. */
int kmd_vm_map(int fd, uint64_t va, uint64_t size, uint64_t offset,
	       uint32_t handle);
int kmd_vm_unmap(int fd, uint64_t va, uint64_t size);

/* DRM_IOCTL_VNPU_BO_INFO: the mmap offset of an object. */
int kmd_bo_info(int fd, uint32_t handle, uint64_t *mmap_offset);

/* DRM_IOCTL_GEM_CLOSE. */
int kmd_gem_close(int fd, uint32_t handle);

/* PRIME: export a handle as a dma-buf fd (close-on-exec); import one. */
int kmd_prime_export(int fd, uint32_t handle, int *dmabuf);
int kmd_prime_import(int fd, int dmabuf, uint32_t *handle, uint64_t *va,
		     uint64_t *size);

/* DRM_IOCTL_VNPU_MEMCPY: DRM_VNPU_MEMCPY_* flags say which side is a VA. */
int kmd_memcpy(int fd, uint64_t dst, uint64_t src, uint64_t size,
	       uint32_t flags);

/* DRM_IOCTL_VNPU_FAULT_INFO. */
int kmd_fault_info(int fd, struct drm_vnpu_fault_info *info);

/*
 * DRM_IOCTL_VNPU_PROF_CTL: ENABLE, DISABLE or QUERY the file's profile
 * ring; ctl is in and out (UAPI 1.8).
 */
struct drm_vnpu_prof_ctl;
int kmd_prof_ctl(int fd, struct drm_vnpu_prof_ctl *ctl);

/* DRM_IOCTL_VNPU_QUEUE_CREATE: queue id and timeline syncobj out. */
int kmd_queue_create(int fd, uint32_t priority, uint32_t *queue_id,
		     uint32_t *syncobj);

/* DRM_IOCTL_VNPU_QUEUE_DESTROY. */
int kmd_queue_destroy(int fd, uint32_t queue_id);

/* DRM_IOCTL_VNPU_QUEUE_RESET. */
int kmd_queue_reset(int fd, uint32_t queue_id);

/* DRM_IOCTL_VNPU_SUBMIT of a filled-in request; args->seq out. */
int kmd_submit_args(int fd, struct drm_vnpu_submit *args);

/* DRM_IOCTL_VNPU_JOB_STATUS. */
int kmd_job_status(int fd, uint32_t queue_id, uint64_t seq,
		   struct drm_vnpu_job_status *st);

/*
 * DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT for one point; abs_timeout_ns is on
 * CLOCK_MONOTONIC (INT64_MAX: forever). -ETIME when it expires.
 */
int kmd_syncobj_wait(int fd, uint32_t handle, uint64_t point,
		     int64_t abs_timeout_ns);

/* DRM_IOCTL_SYNCOBJ_QUERY: the timeline's signalled point. */
int kmd_syncobj_query(int fd, uint32_t handle, uint64_t *point);

/* DRM_IOCTL_SYNCOBJ_DESTROY. */
int kmd_syncobj_destroy(int fd, uint32_t handle);

/* DRM_IOCTL_SYNCOBJ_CREATE of a binary syncobj. */
int kmd_syncobj_create(int fd, uint32_t *handle);

/* DRM_IOCTL_VNPU_CMDBUF_CREATE of an array of v1 tasks. */
int kmd_cmdbuf_create(int fd, const struct drm_vnpu_task *tasks,
		      uint32_t count, const void *args, uint32_t args_size,
		      uint32_t *handle);

/*
 * The same with binding_count > 0: a command buffer whose tasks may use
 * DRM_VNPU_BINDING_VA addresses, replayed with DRM_VNPU_SUBMIT_BINDINGS
 * and a table of binding_count addresses (UAPI 1.4).
 */
int kmd_cmdbuf_create_bound(int fd, const struct drm_vnpu_task *tasks,
			    uint32_t count, const void *args,
			    uint32_t args_size, uint32_t binding_count,
			    uint32_t *handle);

/*
 * DRM_IOCTL_VNPU_CMDBUF_UPDATE (UAPI 1.9): replace tasks [first, first +
 * count) and args_size bytes of the argument block at args_offset; all
 * or nothing, task types unchanged. Replays not started yet see it.
 */
int kmd_cmdbuf_update(int fd, uint32_t handle, uint32_t first,
		      const struct drm_vnpu_task *tasks, uint32_t count,
		      uint32_t args_offset, const void *args,
		      uint32_t args_size);

/* DRM_IOCTL_VNPU_CMDBUF_DESTROY. */
int kmd_cmdbuf_destroy(int fd, uint32_t handle);


/*
 * io_uring: a ring with 128-byte SQEs and 32-byte CQEs, used by one thread
 * at a time. kmd_ring_run() sends cmds with one io_uring_enter and waits
 * for all of their completions; res is each command's cqe->res and seq a
 * SUBMIT's sequence number. link makes the next command start after this
 * one completes (and fail with it); a WAIT with timeout_ns >= 0 is cut off
 * after that long and ends with -ETIME.
 */
struct kmd_ucmd {
	int fd;
	uint32_t op;			/* DRM_VNPU_URING_CMD_* */
	bool link;
	int64_t timeout_ns;
	struct drm_vnpu_submit submit;
	struct drm_vnpu_uring_wait wait;
	int32_t res;
	uint64_t seq;
};

struct kmd_ring;
int kmd_ring_create(unsigned int entries, struct kmd_ring **out);
void kmd_ring_destroy(struct kmd_ring *r);
int kmd_ring_run(struct kmd_ring *r, struct kmd_ucmd *cmds, unsigned int n);

#endif /* VNPU_KMD_H */
