/* SPDX-License-Identifier: MIT */
/*
 * vnpu: user-space interface of the virtual NPU accel driver.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __UAPI_VNPU_ACCEL_H__
#define __UAPI_VNPU_ACCEL_H__

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * UAPI version. The major number changes when an existing ioctl changes
 * meaning; user space must refuse a device whose major differs from the one
 * it was built with. The minor number grows when something is added; new
 * features are also announced by capability bits, which is what user space
 * should test.
 */
#define DRM_VNPU_UAPI_MAJOR		1
#define DRM_VNPU_UAPI_MINOR		0
#define DRM_VNPU_UAPI_VERSION(major, minor)	(((major) << 16) | (minor))

/* Driver-private ioctl numbers (offsets from DRM_COMMAND_BASE). */
#define DRM_VNPU_GET_PARAM		0x00
#define DRM_VNPU_BO_CREATE		0x01
#define DRM_VNPU_BO_INFO		0x02
#define DRM_VNPU_MEMCPY			0x03
#define DRM_VNPU_FAULT_INFO		0x04

#define DRM_IOCTL_VNPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_GET_PARAM, struct drm_vnpu_get_param)
#define DRM_IOCTL_VNPU_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_BO_CREATE, struct drm_vnpu_bo_create)
#define DRM_IOCTL_VNPU_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_BO_INFO, struct drm_vnpu_bo_info)
#define DRM_IOCTL_VNPU_MEMCPY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_MEMCPY, struct drm_vnpu_memcpy)
#define DRM_IOCTL_VNPU_FAULT_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_FAULT_INFO, struct drm_vnpu_fault_info)

/**
 * DOC: memory model
 *
 * Every open file is a context with its own device virtual address space.
 * A buffer object (BO) gets a device virtual address (VA) in each context
 * that has a handle to it; the kernel chooses the VA. Handles and VAs of
 * one context mean nothing in another. VAs of each placement come from
 * their own range (DRM_VNPU_VA_*), are page aligned (2 MiB aligned for
 * objects of 2 MiB and more) and are followed by at least one unmapped
 * guard page, so an access past the end of an object faults instead of
 * reaching a neighbour.
 *
 * Everything the device executes goes through the context's MMU: an
 * address outside every object, an access crossing an object's end, or a
 * write to a read-only object is a device page fault. Faults are counted
 * per context and the last one can be read with DRM_IOCTL_VNPU_FAULT_INFO.
 */
#define DRM_VNPU_VA_DEVICE_START	0x0000010000000000ULL
#define DRM_VNPU_VA_HOST_START		0x0000020000000000ULL
#define DRM_VNPU_VA_USER_START		0x0000030000000000ULL
#define DRM_VNPU_VA_IMPORT_START	0x0000040000000000ULL
/* Every range is this long; a VA's range says what kind of object it is. */
#define DRM_VNPU_VA_RANGE_SIZE		0x0000010000000000ULL

/* Largest BO: the largest device memory the driver can be given. */
#define DRM_VNPU_BO_MAX_SIZE		(64ULL << 30)

/**
 * enum drm_vnpu_param - what &struct drm_vnpu_get_param reads
 *
 * Unless said otherwise a parameter is not indexed and
 * &drm_vnpu_get_param.index must be zero.
 */
enum drm_vnpu_param {
	/**
	 * @DRM_VNPU_PARAM_UAPI_VERSION: DRM_VNPU_UAPI_VERSION(major, minor)
	 * of the running driver.
	 */
	DRM_VNPU_PARAM_UAPI_VERSION = 0,
	/**
	 * @DRM_VNPU_PARAM_CAPABILITIES: a 64-bit word of DRM_VNPU_CAP_* bits.
	 * The index selects the word; only word 0 exists today, so any other
	 * index returns -EINVAL.
	 */
	DRM_VNPU_PARAM_CAPABILITIES = 1,
	/**
	 * @DRM_VNPU_PARAM_DEVICE_INDEX: index of this device among the vnpu
	 * devices of the running module (0 .. num_devices - 1).
	 */
	DRM_VNPU_PARAM_DEVICE_INDEX = 2,
	/** @DRM_VNPU_PARAM_MEM_TOTAL: device memory capacity in bytes. */
	DRM_VNPU_PARAM_MEM_TOTAL = 3,
	/** @DRM_VNPU_PARAM_MEM_USED: device memory in use, in bytes. */
	DRM_VNPU_PARAM_MEM_USED = 4,
	/** @DRM_VNPU_PARAM_MEM_FREE: device memory still free, in bytes. */
	DRM_VNPU_PARAM_MEM_FREE = 5,
	/** @DRM_VNPU_PARAM_ENGINE_COUNT: number of AI-core engines. */
	DRM_VNPU_PARAM_ENGINE_COUNT = 6,
	/**
	 * @DRM_VNPU_PARAM_QUEUE_DEPTH: maximum number of jobs a queue may
	 * have in flight.
	 */
	DRM_VNPU_PARAM_QUEUE_DEPTH = 7,
	/** @DRM_VNPU_PARAM_JOB_TIMEOUT_MS: hang-detection timeout of a job. */
	DRM_VNPU_PARAM_JOB_TIMEOUT_MS = 8,
	/** @DRM_VNPU_PARAM_DEVICE_COUNT: number of vnpu devices in the module. */
	DRM_VNPU_PARAM_DEVICE_COUNT = 9,
	/**
	 * @DRM_VNPU_PARAM_MEM_PEAK: highest device memory use since load,
	 * in bytes.
	 */
	DRM_VNPU_PARAM_MEM_PEAK = 10,
	/** @DRM_VNPU_PARAM_BO_COUNT: buffer objects alive on the device. */
	DRM_VNPU_PARAM_BO_COUNT = 11,
};

/*
 * Capability bits of DRM_VNPU_PARAM_CAPABILITIES, index 0. A bit is set
 * when the driver implements the feature. Bits are never reused.
 */
/* The io_uring command passthrough (IORING_OP_URING_CMD) is available. */
#define DRM_VNPU_CAP_URING_CMD		(1ULL << 0)
/* BO_CREATE, BO_INFO, MEMCPY and FAULT_INFO; device and host placements. */
#define DRM_VNPU_CAP_BO			(1ULL << 1)
/* DRM_VNPU_PLACEMENT_USER: registered user memory. */
#define DRM_VNPU_CAP_USERPTR		(1ULL << 2)
/* PRIME export and import of BOs (dma-buf). */
#define DRM_VNPU_CAP_PRIME		(1ULL << 3)

/* All capability bits this header knows about. */
#define DRM_VNPU_CAP_KNOWN		(DRM_VNPU_CAP_URING_CMD | DRM_VNPU_CAP_BO | \
					 DRM_VNPU_CAP_USERPTR | DRM_VNPU_CAP_PRIME)

/**
 * struct drm_vnpu_get_param - read one device parameter
 *
 * Used with DRM_IOCTL_VNPU_GET_PARAM. Fails with -EINVAL for an unknown
 * @param, a non-zero @index where the parameter is not indexed or an index
 * out of range, and a non-zero @pad.
 */
struct drm_vnpu_get_param {
	/** @param: in, one of &enum drm_vnpu_param. */
	__u32 param;
	/** @index: in, sub-index for indexed parameters, else zero. */
	__u32 index;
	/** @pad: must be zero. */
	__u32 pad;
	/** @reserved: must be zero. */
	__u32 reserved;
	/** @value: out, the parameter's value. */
	__u64 value;
};

/**
 * enum drm_vnpu_placement - where a buffer object's memory lives
 */
enum drm_vnpu_placement {
	/**
	 * @DRM_VNPU_PLACEMENT_DEVICE: device memory. Counts against the
	 * device's capacity (module parameter mem_mb); creation fails with
	 * -ENOSPC when it is exhausted. Backed by pageable memory until first
	 * used, then resident until freed. May be mmapped (for debugging and
	 * tools; ACL programs never see such a mapping).
	 */
	DRM_VNPU_PLACEMENT_DEVICE = 0,
	/**
	 * @DRM_VNPU_PLACEMENT_HOST: host memory the device can address
	 * (aclrtMallocHost). Meant to be mmapped; not counted against the
	 * device's capacity.
	 */
	DRM_VNPU_PLACEMENT_HOST = 1,
	/**
	 * @DRM_VNPU_PLACEMENT_USER: an existing range of the caller's memory
	 * (aclrtHostRegister), given by &drm_vnpu_bo_create.user_ptr. The
	 * pages are pinned until the object is freed. Pointer and size must
	 * be page aligned. Cannot be mmapped through the accel node (the
	 * caller already has it mapped) nor exported.
	 */
	DRM_VNPU_PLACEMENT_USER = 2,
	/**
	 * @DRM_VNPU_PLACEMENT_IMPORT: reported by BO_INFO for objects
	 * imported from another device's dma-buf; not valid for BO_CREATE.
	 */
	DRM_VNPU_PLACEMENT_IMPORT = 3,
};

/*
 * BO flags.
 */
/* The device may only read the object; device writes fault. */
#define DRM_VNPU_BO_DEVICE_READ_ONLY	(1U << 0)
#define DRM_VNPU_BO_FLAGS		(DRM_VNPU_BO_DEVICE_READ_ONLY)

/**
 * struct drm_vnpu_bo_create - create a buffer object
 *
 * Used with DRM_IOCTL_VNPU_BO_CREATE. On success the caller owns a new GEM
 * handle (free it with DRM_IOCTL_GEM_CLOSE) and the object is mapped in
 * the caller's context at @va. Errors: -EINVAL for a zero or too large
 * @size, unknown @flags or @placement, non-zero @pad, a @user_ptr that is
 * not page aligned (or set for other placements), or a size that is not
 * page aligned for DRM_VNPU_PLACEMENT_USER; -EFAULT when a user range
 * cannot be pinned in full; -ENOSPC when device memory or the context's
 * address range is exhausted; -ENOMEM when the host is out of memory.
 */
struct drm_vnpu_bo_create {
	/** @size: in, size in bytes, 1 .. DRM_VNPU_BO_MAX_SIZE. */
	__u64 size;
	/** @flags: in, DRM_VNPU_BO_* flags. */
	__u32 flags;
	/** @placement: in, one of &enum drm_vnpu_placement except IMPORT. */
	__u32 placement;
	/** @user_ptr: in, start of the range for PLACEMENT_USER, else 0. */
	__u64 user_ptr;
	/** @handle: out, GEM handle of the new object. */
	__u32 handle;
	/** @pad: must be zero. */
	__u32 pad;
	/** @va: out, device virtual address in the caller's context. */
	__u64 va;
};

/**
 * struct drm_vnpu_bo_info - describe a buffer object of this context
 *
 * Used with DRM_IOCTL_VNPU_BO_INFO. Errors: -ENOENT for a handle that is
 * not open in this file (0, closed, or another file's), -EINVAL for a
 * non-zero @pad.
 */
struct drm_vnpu_bo_info {
	/** @handle: in, GEM handle. */
	__u32 handle;
	/** @pad: must be zero. */
	__u32 pad;
	/** @size: out, size in bytes as created. */
	__u64 size;
	/** @va: out, device virtual address in this context. */
	__u64 va;
	/**
	 * @mmap_offset: out, offset to pass to mmap() on the accel fd, or 0
	 * when the object cannot be mapped (PLACEMENT_USER).
	 */
	__u64 mmap_offset;
	/** @flags: out, DRM_VNPU_BO_* flags. */
	__u32 flags;
	/** @placement: out, &enum drm_vnpu_placement. */
	__u32 placement;
};

/* MEMCPY flags: which side is a device VA (else a user pointer). */
#define DRM_VNPU_MEMCPY_DST_DEVICE	(1U << 0)
#define DRM_VNPU_MEMCPY_SRC_DEVICE	(1U << 1)
#define DRM_VNPU_MEMCPY_FLAGS		(DRM_VNPU_MEMCPY_DST_DEVICE | \
					 DRM_VNPU_MEMCPY_SRC_DEVICE)

/**
 * struct drm_vnpu_memcpy - copy bytes now, in the caller's context
 *
 * Used with DRM_IOCTL_VNPU_MEMCPY for synchronous host-to-device,
 * device-to-host and device-to-device copies of any size. Device addresses
 * go through the context's MMU; each side must lie inside one object. The
 * copy waits for device work on the objects involved to finish first.
 * Errors: -EINVAL for zero @size, unknown @flags, no device side at all
 * (host-to-host is not a device operation) or non-zero @pad; -ENXIO for a
 * device page fault (recorded, see DRM_IOCTL_VNPU_FAULT_INFO); -EFAULT for
 * a bad user pointer (bytes before the first unreadable 64-byte line of
 * the source may have been copied; nothing after it); -EINTR when a fatal
 * signal interrupts a long copy (the destination is then partly written).
 */
struct drm_vnpu_memcpy {
	/** @dst: in, destination: device VA or user pointer. */
	__u64 dst;
	/** @src: in, source: device VA or user pointer. */
	__u64 src;
	/** @size: in, bytes to copy. */
	__u64 size;
	/** @flags: in, DRM_VNPU_MEMCPY_* flags. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* Access kinds of a device memory access. */
#define DRM_VNPU_ACCESS_READ		1
#define DRM_VNPU_ACCESS_WRITE		2

/**
 * enum drm_vnpu_fault_reason - why a device access faulted
 */
enum drm_vnpu_fault_reason {
	/** @DRM_VNPU_FAULT_NONE: no fault has happened in this context. */
	DRM_VNPU_FAULT_NONE = 0,
	/** @DRM_VNPU_FAULT_UNMAPPED: no object at the address. */
	DRM_VNPU_FAULT_UNMAPPED = 1,
	/** @DRM_VNPU_FAULT_BOUNDS: the access runs past the object's end. */
	DRM_VNPU_FAULT_BOUNDS = 2,
	/** @DRM_VNPU_FAULT_READ_ONLY: a write to a read-only object. */
	DRM_VNPU_FAULT_READ_ONLY = 3,
};

/**
 * struct drm_vnpu_fault_info - the context's device page faults
 *
 * Used with DRM_IOCTL_VNPU_FAULT_INFO: the number of faults so far and
 * the most recent one. Errors: -EINVAL for non-zero @flags or @pad.
 */
struct drm_vnpu_fault_info {
	/** @flags: must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
	/** @count: out, faults in this context since it was opened. */
	__u64 count;
	/** @va: out, address of the last faulting access. */
	__u64 va;
	/** @length: out, its length in bytes. */
	__u64 length;
	/** @access: out, DRM_VNPU_ACCESS_READ or _WRITE. */
	__u32 access;
	/** @reason: out, &enum drm_vnpu_fault_reason. */
	__u32 reason;
};

/*
 * io_uring command passthrough: IORING_OP_URING_CMD on an accel file with
 * IORING_SETUP_SQE128. sqe->cmd_op selects the command and sqe->cmd carries
 * its payload (up to 80 bytes); cqe->res carries the result (>= 0) or a
 * negative errno.
 */
enum drm_vnpu_uring_cmd {
	/**
	 * @DRM_VNPU_URING_CMD_NOP: completes at once with cqe->res equal to
	 * the UAPI version; the payload must be all zero. Lets user space
	 * check that the passthrough path works before relying on it.
	 */
	DRM_VNPU_URING_CMD_NOP = 0,
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_VNPU_ACCEL_H__ */
