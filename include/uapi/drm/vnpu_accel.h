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
#define DRM_VNPU_UAPI_MINOR		10
#define DRM_VNPU_UAPI_VERSION(major, minor)	(((major) << 16) | (minor))

/* Driver-private ioctl numbers (offsets from DRM_COMMAND_BASE). */
#define DRM_VNPU_GET_PARAM		0x00
#define DRM_VNPU_BO_CREATE		0x01
#define DRM_VNPU_BO_INFO		0x02
#define DRM_VNPU_MEMCPY			0x03
#define DRM_VNPU_FAULT_INFO		0x04
#define DRM_VNPU_QUEUE_CREATE		0x05
#define DRM_VNPU_QUEUE_DESTROY		0x06
#define DRM_VNPU_QUEUE_RESET		0x07
#define DRM_VNPU_SUBMIT			0x08
#define DRM_VNPU_JOB_STATUS		0x09
#define DRM_VNPU_CMDBUF_CREATE		0x0a
#define DRM_VNPU_CMDBUF_DESTROY		0x0b
#define DRM_VNPU_VM_RESERVE		0x0c
#define DRM_VNPU_VM_RELEASE		0x0d
#define DRM_VNPU_VM_MAP			0x0e
#define DRM_VNPU_VM_UNMAP		0x0f
#define DRM_VNPU_PROF_CTL		0x10
#define DRM_VNPU_CMDBUF_UPDATE		0x11

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
#define DRM_IOCTL_VNPU_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_QUEUE_CREATE, struct drm_vnpu_queue_create)
#define DRM_IOCTL_VNPU_QUEUE_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_QUEUE_DESTROY, struct drm_vnpu_queue_destroy)
#define DRM_IOCTL_VNPU_QUEUE_RESET \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_QUEUE_RESET, struct drm_vnpu_queue_destroy)
#define DRM_IOCTL_VNPU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_SUBMIT, struct drm_vnpu_submit)
#define DRM_IOCTL_VNPU_JOB_STATUS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_JOB_STATUS, struct drm_vnpu_job_status)
#define DRM_IOCTL_VNPU_CMDBUF_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_CMDBUF_CREATE, struct drm_vnpu_cmdbuf_create)
#define DRM_IOCTL_VNPU_CMDBUF_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_CMDBUF_DESTROY, struct drm_vnpu_cmdbuf_destroy)
#define DRM_IOCTL_VNPU_VM_RESERVE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_VM_RESERVE, struct drm_vnpu_vm_reserve)
#define DRM_IOCTL_VNPU_VM_RELEASE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_VM_RELEASE, struct drm_vnpu_vm_release)
#define DRM_IOCTL_VNPU_VM_MAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_VM_MAP, struct drm_vnpu_vm_map)
#define DRM_IOCTL_VNPU_VM_UNMAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_VM_UNMAP, struct drm_vnpu_vm_unmap)
#define DRM_IOCTL_VNPU_PROF_CTL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_PROF_CTL, struct drm_vnpu_prof_ctl)
#define DRM_IOCTL_VNPU_CMDBUF_UPDATE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VNPU_CMDBUF_UPDATE, struct drm_vnpu_cmdbuf_update)

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
/* Reservations of DRM_IOCTL_VNPU_VM_RESERVE (UAPI 1.3). */
#define DRM_VNPU_VA_RESERVE_START	0x0000050000000000ULL
/* Every range is this long; a VA's range says what kind of object it is. */
#define DRM_VNPU_VA_RANGE_SIZE		0x0000010000000000ULL
/*
 * DEVICE VAs of the device with DRM_VNPU_PARAM_DEVICE_INDEX i are chosen
 * from DRM_VNPU_VA_DEVICE_START + i * DRM_VNPU_VA_DEVICE_STRIDE up, so
 * device pointers of different devices differ in practice.
 */
#define DRM_VNPU_VA_DEVICE_STRIDE	(32ULL << 30)

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
	/*
	 * Resource limits (UAPI 1.2). The limits are module parameters that
	 * the administrator may change at any time; a value read here is a
	 * snapshot. See Documentation/resource-limits.md.
	 */
	/**
	 * @DRM_VNPU_PARAM_HOST_MEM_TOTAL: bytes of DRM_VNPU_PLACEMENT_HOST
	 * objects the device allows in all (module parameter host_mem_mb).
	 */
	DRM_VNPU_PARAM_HOST_MEM_TOTAL = 12,
	/** @DRM_VNPU_PARAM_HOST_MEM_USED: bytes of HOST objects alive. */
	DRM_VNPU_PARAM_HOST_MEM_USED = 13,
	/**
	 * @DRM_VNPU_PARAM_FILE_MEM_LIMIT: bytes of device memory the objects
	 * created through one file may hold (file_mem_pct percent of
	 * DRM_VNPU_PARAM_MEM_TOTAL, whole pages).
	 */
	DRM_VNPU_PARAM_FILE_MEM_LIMIT = 14,
	/**
	 * @DRM_VNPU_PARAM_FILE_MEM_USED: bytes of device memory held by
	 * objects created through this file (they count until freed, even
	 * when shared).
	 */
	DRM_VNPU_PARAM_FILE_MEM_USED = 15,
	/**
	 * @DRM_VNPU_PARAM_FILE_HOST_LIMIT: bytes of HOST objects one file may
	 * create (file_mem_pct percent of DRM_VNPU_PARAM_HOST_MEM_TOTAL).
	 */
	DRM_VNPU_PARAM_FILE_HOST_LIMIT = 16,
	/** @DRM_VNPU_PARAM_FILE_HOST_USED: bytes of HOST objects of this file. */
	DRM_VNPU_PARAM_FILE_HOST_USED = 17,
	/**
	 * @DRM_VNPU_PARAM_FILE_JOB_LIMIT: jobs one file may have in flight
	 * (submitted and not yet retired) across all its queues.
	 */
	DRM_VNPU_PARAM_FILE_JOB_LIMIT = 18,
	/**
	 * @DRM_VNPU_PARAM_FILE_JOB_MEM_LIMIT: bytes of tasks and argument
	 * blocks that one file's jobs in flight may hold (a task counts
	 * sizeof(struct drm_vnpu_task); replays of a command buffer count
	 * nothing here).
	 */
	DRM_VNPU_PARAM_FILE_JOB_MEM_LIMIT = 19,
	/** @DRM_VNPU_PARAM_FILE_CMDBUF_LIMIT: command buffers per file. */
	DRM_VNPU_PARAM_FILE_CMDBUF_LIMIT = 20,
	/**
	 * @DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT: bytes of tasks and argument
	 * blocks one file's command buffers may hold.
	 */
	DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT = 21,
	/**
	 * @DRM_VNPU_PARAM_VM_GRANULE: granule of the VM ioctls in bytes (the
	 * kernel's page size, at least 4096): sizes, offsets, addresses and
	 * alignments given to VM_RESERVE and VM_MAP are multiples of it, and
	 * so is the size of a DRM_VNPU_BO_NO_VA object (UAPI 1.3).
	 */
	DRM_VNPU_PARAM_VM_GRANULE = 22,
	/**
	 * @DRM_VNPU_PARAM_ENGINE_BUSY_NS: indexed by engine (0 ..
	 * ENGINE_COUNT - 1): nanoseconds the engine spent executing jobs
	 * since the module was loaded, every file's (UAPI 1.8). Sampled
	 * twice against CLOCK_MONOTONIC it gives the engine's utilisation.
	 */
	DRM_VNPU_PARAM_ENGINE_BUSY_NS = 23,
	/**
	 * @DRM_VNPU_PARAM_ENGINE_TASKS: indexed by engine: tasks the engine
	 * finished since load, whatever their outcome (UAPI 1.8).
	 */
	DRM_VNPU_PARAM_ENGINE_TASKS = 24,
	/**
	 * @DRM_VNPU_PARAM_ENGINE_BYTES: indexed by engine: bytes its tasks
	 * moved since load: what COPY, COPY_2D and FILL wrote and what
	 * KERNEL tasks' tensors span, inputs and outputs (UAPI 1.8).
	 */
	DRM_VNPU_PARAM_ENGINE_BYTES = 25,
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
/* Queues, SUBMIT, JOB_STATUS and task format version 1. */
#define DRM_VNPU_CAP_QUEUES		(1ULL << 4)
/* Command buffers (CMDBUF_CREATE/DESTROY, SUBMIT by handle). */
#define DRM_VNPU_CAP_CMDBUF		(1ULL << 5)
/* io_uring DRM_VNPU_URING_CMD_SUBMIT and DRM_VNPU_URING_CMD_WAIT (UAPI 1.1). */
#define DRM_VNPU_CAP_URING_SUBMIT	(1ULL << 6)
/*
 * Virtual memory: DRM_VNPU_BO_NO_VA objects, VM_RESERVE, VM_RELEASE,
 * VM_MAP, VM_UNMAP and DRM_VNPU_PARAM_VM_GRANULE (UAPI 1.3).
 */
#define DRM_VNPU_CAP_VM			(1ULL << 7)
/*
 * Command buffers with bindings (DRM_VNPU_CMDBUF_BINDINGS and
 * DRM_VNPU_SUBMIT_BINDINGS) and fused activations of CONV1D, CONV2D,
 * MATMUL and GEMM (DRM_VNPU_ATTR_ACT) (UAPI 1.4).
 */
#define DRM_VNPU_CAP_BINDINGS		(1ULL << 8)
/*
 * The ONNX operator set (UAPI 1.5): every operator family takes the
 * dtypes its check() documents, DOUBLE, INT16, UINT16, UINT32 and UINT64
 * among them, and the operators 17..21, 56..74, 81..82, 103..107,
 * 118..119, 130..131, 152..156, 176..178, 200, 224..226 and 240..245
 * exist.
 */
#define DRM_VNPU_CAP_OPSET_ONNX		(1ULL << 9)

/* All capability bits this header knows about. */
/*
 * io_uring WAIT takes DRM_VNPU_URING_WAIT_LATEST and reports the job it
 * waited for in big_cqe[0] (UAPI 1.6).
 */
#define DRM_VNPU_CAP_URING_WAIT_LATEST	(1ULL << 10)
/*
 * The media operators VPC and AIPP (UAPI 1.7): image crop, resize, paste
 * and colour conversion on DVPP pixel formats, and a model's AIPP stage.
 */
#define DRM_VNPU_CAP_MEDIA		(1ULL << 11)
/*
 * Profiling (UAPI 1.8): DRM_IOCTL_VNPU_PROF_CTL and its record ring, the
 * task's @tag, and the per-engine counters ENGINE_BUSY_NS, ENGINE_TASKS
 * and ENGINE_BYTES of GET_PARAM.
 */
#define DRM_VNPU_CAP_PROFILE		(1ULL << 12)
/*
 * Graphs that branch and change (UAPI 1.9): DRM_VNPU_TASK_JUMP and
 * DRM_IOCTL_VNPU_CMDBUF_UPDATE.
 */
#define DRM_VNPU_CAP_JUMP		(1ULL << 13)
#define DRM_VNPU_CAP_CMDBUF_UPDATE	(1ULL << 14)
/*
 * LLM inference operators (UAPI 1.10): DRM_VNPU_OP_FLASH_ATTN (248),
 * DRM_VNPU_OP_ROPE (249), DRM_VNPU_OP_WQ_MATMUL (250),
 * DRM_VNPU_OP_GROUPED_MATMUL (251) and DRM_VNPU_OP_TRI_SOLVE (253).
 */
#define DRM_VNPU_CAP_OPSET_LLM		(1ULL << 15)
#define DRM_VNPU_CAP_KNOWN		(DRM_VNPU_CAP_URING_CMD | DRM_VNPU_CAP_BO | \
					 DRM_VNPU_CAP_USERPTR | DRM_VNPU_CAP_PRIME | \
					 DRM_VNPU_CAP_QUEUES | DRM_VNPU_CAP_CMDBUF | \
					 DRM_VNPU_CAP_URING_SUBMIT | DRM_VNPU_CAP_VM | \
					 DRM_VNPU_CAP_BINDINGS | DRM_VNPU_CAP_OPSET_ONNX | \
					 DRM_VNPU_CAP_URING_WAIT_LATEST | \
					 DRM_VNPU_CAP_MEDIA | DRM_VNPU_CAP_PROFILE | \
					 DRM_VNPU_CAP_JUMP | DRM_VNPU_CAP_CMDBUF_UPDATE | \
					 DRM_VNPU_CAP_OPSET_LLM)

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
	 * device's capacity (module parameter mem_mb) and the creating
	 * file's share of it (DRM_VNPU_PARAM_FILE_MEM_LIMIT); creation fails
	 * with -ENOSPC when either is exhausted. Backed by pageable memory until first
	 * used, then resident until freed. May be mmapped (for debugging and
	 * tools; ACL programs never see such a mapping).
	 */
	DRM_VNPU_PLACEMENT_DEVICE = 0,
	/**
	 * @DRM_VNPU_PLACEMENT_HOST: host memory the device can address
	 * (aclrtMallocHost). Meant to be mmapped; not counted against the
	 * device's capacity but, page granular and from creation on, against
	 * the device's host pool (DRM_VNPU_PARAM_HOST_MEM_TOTAL) and the
	 * creating file's share of it (DRM_VNPU_PARAM_FILE_HOST_LIMIT):
	 * -ENOSPC when either is exhausted.
	 */
	DRM_VNPU_PLACEMENT_HOST = 1,
	/**
	 * @DRM_VNPU_PLACEMENT_USER: an existing range of the caller's memory
	 * (aclrtHostRegister), given by &drm_vnpu_bo_create.user_ptr. The
	 * pages are pinned until the object is freed. Pointer and size must
	 * be page aligned. Cannot be mmapped through the accel node (the
	 * caller already has it mapped) nor exported. Unless the caller has
	 * CAP_IPC_LOCK, the pages count against its user's RLIMIT_MEMLOCK
	 * (as io_uring's registered buffers do): -ENOMEM when the limit
	 * would be exceeded.
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
/*
 * A physical allocation (UAPI 1.3): the object gets no VA in any context
 * and is reached only where DRM_IOCTL_VNPU_VM_MAP puts it. Only for
 * DRM_VNPU_PLACEMENT_DEVICE, and the size must be a multiple of
 * DRM_VNPU_PARAM_VM_GRANULE; BO_CREATE and BO_INFO report @va 0.
 */
#define DRM_VNPU_BO_NO_VA		(1U << 1)
#define DRM_VNPU_BO_FLAGS		(DRM_VNPU_BO_DEVICE_READ_ONLY | \
					 DRM_VNPU_BO_NO_VA)

/**
 * struct drm_vnpu_bo_create - create a buffer object
 *
 * Used with DRM_IOCTL_VNPU_BO_CREATE. On success the caller owns a new GEM
 * handle (free it with DRM_IOCTL_GEM_CLOSE) and the object is mapped in
 * the caller's context at @va. Errors: -EINVAL for a zero or too large
 * @size, unknown @flags or @placement, non-zero @pad, a @user_ptr that is
 * not page aligned (or set for other placements), or a size that is not
 * page aligned for DRM_VNPU_PLACEMENT_USER; -EFAULT when a user range
 * cannot be pinned in full; -ENOSPC when device memory, the host pool,
 * the file's share of either or the context's address range is
 * exhausted; -ENOMEM when the host is out of memory (the caller's memory
 * cgroup included) or registered memory would exceed RLIMIT_MEMLOCK.
 *
 * Pages of DEVICE and HOST objects are charged to the memory cgroup of
 * the process that created the object, also when the device touches
 * them first; a job whose pages cannot be charged ends ABORTED with
 * error -ENOMEM.
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
 * copy is not ordered against jobs: it runs at once, even while queued or
 * running jobs use the same objects. Wait for those jobs (their queue's
 * timeline syncobj) before copying what they write.
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

/**
 * DOC: queues and jobs
 *
 * A queue (one per ACL stream) feeds the device's AI-core engines; its
 * jobs run one after another in submission order, while different queues
 * run concurrently on different engines. Each SUBMIT makes one job, a
 * batch of tasks, and returns its sequence number: 1 for the queue's first
 * job, then 2, 3, ... The queue's timeline syncobj (returned by
 * QUEUE_CREATE) reaches point N when job N finishes, so waiting uses the
 * core DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT. JOB_STATUS says how a job ended.
 *
 * After a job fails (device page fault, timeout, abort), the queue is in
 * an error state: jobs already queued behind it are cancelled and new
 * submits fail with -EBADFD until QUEUE_RESET (or a new queue).
 */

/* Queue priorities; higher ones are picked first when engines are busy. */
#define DRM_VNPU_PRIORITY_LOW		0
#define DRM_VNPU_PRIORITY_NORMAL	1
#define DRM_VNPU_PRIORITY_HIGH		2

/**
 * struct drm_vnpu_queue_create - create a queue
 *
 * DRM_VNPU_PRIORITY_HIGH needs CAP_SYS_NICE (-EACCES without it).
 * Errors: -EINVAL for an unknown @priority, non-zero @flags or @pad;
 * -ENOSPC when the file has DRM_VNPU_MAX_QUEUES queues already.
 */
struct drm_vnpu_queue_create {
	/** @priority: in, DRM_VNPU_PRIORITY_*. */
	__u32 priority;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @queue_id: out, the queue's id in this file (never 0). */
	__u32 queue_id;
	/** @syncobj: out, handle of the queue's timeline syncobj. */
	__u32 syncobj;
};

#define DRM_VNPU_MAX_QUEUES		256

/**
 * struct drm_vnpu_queue_destroy - destroy or reset a queue
 *
 * With DRM_IOCTL_VNPU_QUEUE_DESTROY: jobs still queued are cancelled, the
 * running one is allowed to finish, the id becomes invalid. The timeline
 * syncobj stays valid until closed with DRM_IOCTL_SYNCOBJ_DESTROY.
 * With DRM_IOCTL_VNPU_QUEUE_RESET: the error state is cleared, so the
 * queue accepts submits again; sequence numbers keep counting.
 * Errors: -ENOENT for an unknown @queue_id, -EINVAL for non-zero @pad.
 */
struct drm_vnpu_queue_destroy {
	/** @queue_id: in, the queue. */
	__u32 queue_id;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * enum drm_vnpu_task_type - what a task does
 */
enum drm_vnpu_task_type {
	/** @DRM_VNPU_TASK_NOP: nothing. */
	DRM_VNPU_TASK_NOP = 0,
	/** @DRM_VNPU_TASK_COPY: copy @copy.size bytes from @copy.src to @copy.dst. */
	DRM_VNPU_TASK_COPY = 1,
	/**
	 * @DRM_VNPU_TASK_COPY_2D: copy @copy_2d.height rows of
	 * @copy_2d.width bytes; rows start @copy_2d.src_pitch and
	 * @copy_2d.dst_pitch bytes apart.
	 */
	DRM_VNPU_TASK_COPY_2D = 2,
	/**
	 * @DRM_VNPU_TASK_FILL: fill @fill.size bytes at @fill.dst with the
	 * low @fill.pattern_size bytes (1, 2, 4 or 8) of @fill.pattern;
	 * @fill.size must be a multiple of @fill.pattern_size.
	 */
	DRM_VNPU_TASK_FILL = 3,
	/** @DRM_VNPU_TASK_TIMESTAMP: write device time in ns (u64) to @timestamp.dst. */
	DRM_VNPU_TASK_TIMESTAMP = 4,
	/** @DRM_VNPU_TASK_WRITE_VALUE: write the u64 @value.value to @value.addr. */
	DRM_VNPU_TASK_WRITE_VALUE = 5,
	/**
	 * @DRM_VNPU_TASK_WAIT_VALUE: wait until the u64 at @value.addr
	 * satisfies @value.cond against @value.value, or fail the job with
	 * DRM_VNPU_JOB_TIMEOUT after @value.timeout_ns (at most
	 * DRM_VNPU_MAX_WAIT_NS; 0 means the maximum).
	 */
	DRM_VNPU_TASK_WAIT_VALUE = 6,
	/**
	 * @DRM_VNPU_TASK_KERNEL: run operator @kernel.op on the tensors
	 * described in the submission's argument block at
	 * @kernel.args_offset (struct drm_vnpu_kernel_args).
	 */
	DRM_VNPU_TASK_KERNEL = 7,
	/**
	 * @DRM_VNPU_TASK_SPIN: keep the engine busy for @spin.ns
	 * nanoseconds (at most DRM_VNPU_MAX_SPIN_NS); for tests and timing.
	 */
	DRM_VNPU_TASK_SPIN = 8,
	/**
	 * @DRM_VNPU_TASK_JUMP: read the value at @jump.addr (8 bytes, or
	 * 4 sign-extended with DRM_VNPU_JUMP_32BIT) and compare it with
	 * @jump.value (or with the value at device address @jump.value,
	 * read the same way, with DRM_VNPU_JUMP_VALUE_ADDR) by @jump.cond,
	 * as signed integers. If the condition holds, the job continues at
	 * task @jump.target of its batch, else at the next task (UAPI 1.9).
	 * A target must be below the batch's task count (-EINVAL at SUBMIT
	 * or CMDBUF_CREATE). A job may take at most DRM_VNPU_MAX_JUMPS
	 * backward jumps (target <= the jump's own index); the next one
	 * fails it with DRM_VNPU_JOB_ABORTED and -ELOOP, so a loop whose
	 * condition never changes cannot keep an engine forever.
	 */
	DRM_VNPU_TASK_JUMP = 9,
};

/* Conditions of DRM_VNPU_TASK_JUMP (the values of ACL's aclrtCondition). */
#define DRM_VNPU_JUMP_EQ		0	/* m == v */
#define DRM_VNPU_JUMP_NE		1	/* m != v */
#define DRM_VNPU_JUMP_GT		2	/* m > v */
#define DRM_VNPU_JUMP_GE		3	/* m >= v */
#define DRM_VNPU_JUMP_LT		4	/* m < v */
#define DRM_VNPU_JUMP_LE		5	/* m <= v */
#define DRM_VNPU_JUMP_ALWAYS		6	/* @jump.addr is not read */

/* Flags of DRM_VNPU_TASK_JUMP (in @jump.flags, not the task's @flags). */
#define DRM_VNPU_JUMP_32BIT		(1U << 0)
#define DRM_VNPU_JUMP_VALUE_ADDR	(1U << 1)
#define DRM_VNPU_JUMP_FLAGS		(DRM_VNPU_JUMP_32BIT | \
					 DRM_VNPU_JUMP_VALUE_ADDR)

/* Backward jumps one job may take (a WHILE's iterations). */
#define DRM_VNPU_MAX_JUMPS		(1U << 20)

/* Conditions of DRM_VNPU_TASK_WAIT_VALUE; m is the memory, v the value. */
#define DRM_VNPU_WAIT_EQ		0	/* m == v */
#define DRM_VNPU_WAIT_GEQ		1	/* m >= v */
#define DRM_VNPU_WAIT_AND		2	/* (m & v) != 0 */
#define DRM_VNPU_WAIT_NOR		3	/* ~(m | v) != 0 */

#define DRM_VNPU_MAX_WAIT_NS		(60ULL * 1000000000ULL)
#define DRM_VNPU_MAX_SPIN_NS		(30ULL * 1000000000ULL)

/**
 * struct drm_vnpu_task - one task descriptor, format version 1 (64 bytes)
 *
 * Submissions carry an array of these with a stride (the size of one
 * element as user space knows it, at least 64 and a multiple of 8): later
 * versions may append fields, and bytes past what the driver knows must
 * be zero. Every field not used by the task's type must be zero.
 */
struct drm_vnpu_task {
	/** @type: &enum drm_vnpu_task_type. */
	__u16 type;
	/** @flags: must be zero. */
	__u16 flags;
	/**
	 * @tag: any value; the driver only copies it into the task's
	 * profile record (&struct drm_vnpu_prof_record), so user space can
	 * name the task (UAPI 1.8; before, it was reserved and had to be
	 * zero).
	 */
	__u32 tag;
	union {
		/** @copy: DRM_VNPU_TASK_COPY. */
		struct {
			__u64 src;
			__u64 dst;
			__u64 size;
		} copy;
		/** @copy_2d: DRM_VNPU_TASK_COPY_2D. */
		struct {
			__u64 src;
			__u64 dst;
			__u64 src_pitch;
			__u64 dst_pitch;
			__u64 width;
			__u64 height;
		} copy_2d;
		/** @fill: DRM_VNPU_TASK_FILL. */
		struct {
			__u64 dst;
			__u64 size;
			__u64 pattern;
			__u32 pattern_size;
			__u32 pad;
		} fill;
		/** @timestamp: DRM_VNPU_TASK_TIMESTAMP. */
		struct {
			__u64 dst;
		} timestamp;
		/** @value: DRM_VNPU_TASK_WRITE_VALUE and _WAIT_VALUE. */
		struct {
			__u64 addr;
			__u64 value;
			__u64 timeout_ns;
			__u32 cond;
			__u32 pad;
		} value;
		/** @kernel: DRM_VNPU_TASK_KERNEL. */
		struct {
			__u32 op;
			__u32 args_offset;
			__u32 args_size;
			__u32 pad;
		} kernel;
		/** @spin: DRM_VNPU_TASK_SPIN. */
		struct {
			__u64 ns;
		} spin;
		/** @jump: DRM_VNPU_TASK_JUMP (UAPI 1.9). */
		struct {
			__u64 addr;
			__u64 value;
			__u32 cond;
			__u32 target;
			__u32 flags;
			__u32 pad;
		} jump;
		/** @raw: the payload as words. */
		__u64 raw[7];
	};
};

#define DRM_VNPU_TASK_SIZE_V1		64
#define DRM_VNPU_MAX_TASKS		65536
#define DRM_VNPU_MAX_ARGS_SIZE		(1U << 20)

/**
 * enum drm_vnpu_op - operators of DRM_VNPU_TASK_KERNEL
 *
 * Tensors are listed inputs first, then outputs. Unless said otherwise
 * inputs broadcast numpy-style to the output's shape, every tensor may have
 * any non-negative strides (in elements), and inputs and output share one
 * dtype. Outputs may not overlap inputs or each other (the job then ends
 * ABORTED with -EINVAL), except that an elementwise operator (ids below
 * CAST) may write exactly over one of its inputs. Attributes are
 * &struct drm_vnpu_op_attrs; with attr_size 0 an
 * operator uses the defaults given here (ints[] and floats[] are otherwise
 * taken literally; floats[] hold IEEE single-precision bit patterns).
 * Documentation/ops.md lists dtypes and numerics per operator.
 */
enum drm_vnpu_op {
	/* Binary elementwise: (a, b) -> out. */
	/** @DRM_VNPU_OP_ADD: a + alpha * b; floats[0] alpha (1). */
	DRM_VNPU_OP_ADD = 1,
	/** @DRM_VNPU_OP_SUB: a - alpha * b; floats[0] alpha (1). */
	DRM_VNPU_OP_SUB = 2,
	/** @DRM_VNPU_OP_MUL: a * b. */
	DRM_VNPU_OP_MUL = 3,
	/** @DRM_VNPU_OP_DIV: a / b (integers: truncating; x / 0 = 0). */
	DRM_VNPU_OP_DIV = 4,
	/** @DRM_VNPU_OP_POW: a ** b. */
	DRM_VNPU_OP_POW = 5,
	/** @DRM_VNPU_OP_MAXIMUM: max(a, b), NaN wins. */
	DRM_VNPU_OP_MAXIMUM = 6,
	/** @DRM_VNPU_OP_MINIMUM: min(a, b), NaN wins. */
	DRM_VNPU_OP_MINIMUM = 7,
	/** @DRM_VNPU_OP_EQ: a == b, out BOOL. */
	DRM_VNPU_OP_EQ = 8,
	/** @DRM_VNPU_OP_NE: a != b, out BOOL. */
	DRM_VNPU_OP_NE = 9,
	/** @DRM_VNPU_OP_LT: a < b, out BOOL. */
	DRM_VNPU_OP_LT = 10,
	/** @DRM_VNPU_OP_LE: a <= b, out BOOL. */
	DRM_VNPU_OP_LE = 11,
	/** @DRM_VNPU_OP_GT: a > b, out BOOL. */
	DRM_VNPU_OP_GT = 12,
	/** @DRM_VNPU_OP_GE: a >= b, out BOOL. */
	DRM_VNPU_OP_GE = 13,
	/** @DRM_VNPU_OP_LOGICAL_AND: a && b (non-zero is true), out BOOL. */
	DRM_VNPU_OP_LOGICAL_AND = 14,
	/** @DRM_VNPU_OP_LOGICAL_OR: a || b, out BOOL. */
	DRM_VNPU_OP_LOGICAL_OR = 15,
	/** @DRM_VNPU_OP_LOGICAL_XOR: a != b as truth values, out BOOL. */
	DRM_VNPU_OP_LOGICAL_XOR = 16,
	/**
	 * @DRM_VNPU_OP_MOD: remainder of a / b; ints[0] 0 (default): sign of
	 * b, floor division as in Python; 1: sign of a, C's fmod. Integers:
	 * x mod 0 = 0. Not for BOOL.
	 */
	DRM_VNPU_OP_MOD = 17,
	/**
	 * @DRM_VNPU_OP_BITSHIFT: a shifted by b bits; ints[0] 0 (default)
	 * left, 1 right (logical for unsigned dtypes, arithmetic for signed).
	 * Integer dtypes; a shift of the width or more gives 0 (right shift
	 * of a negative value: -1).
	 */
	DRM_VNPU_OP_BITSHIFT = 18,
	/** @DRM_VNPU_OP_BITWISE_AND: a & b; integer dtypes and BOOL. */
	DRM_VNPU_OP_BITWISE_AND = 19,
	/** @DRM_VNPU_OP_BITWISE_OR: a | b; integer dtypes and BOOL. */
	DRM_VNPU_OP_BITWISE_OR = 20,
	/** @DRM_VNPU_OP_BITWISE_XOR: a ^ b; integer dtypes and BOOL. */
	DRM_VNPU_OP_BITWISE_XOR = 21,

	/* Unary elementwise: x -> out. */
	/** @DRM_VNPU_OP_ABS: |x|. */
	DRM_VNPU_OP_ABS = 32,
	/** @DRM_VNPU_OP_NEG: -x. */
	DRM_VNPU_OP_NEG = 33,
	/** @DRM_VNPU_OP_EXP: e ** x. */
	DRM_VNPU_OP_EXP = 34,
	/** @DRM_VNPU_OP_LOG: natural logarithm. */
	DRM_VNPU_OP_LOG = 35,
	/** @DRM_VNPU_OP_SQRT: square root. */
	DRM_VNPU_OP_SQRT = 36,
	/** @DRM_VNPU_OP_RSQRT: 1 / sqrt(x). */
	DRM_VNPU_OP_RSQRT = 37,
	/** @DRM_VNPU_OP_RECIPROCAL: 1 / x. */
	DRM_VNPU_OP_RECIPROCAL = 38,
	/** @DRM_VNPU_OP_SIN: sine. */
	DRM_VNPU_OP_SIN = 39,
	/** @DRM_VNPU_OP_COS: cosine. */
	DRM_VNPU_OP_COS = 40,
	/** @DRM_VNPU_OP_ERF: error function. */
	DRM_VNPU_OP_ERF = 41,
	/** @DRM_VNPU_OP_RELU: max(x, 0). */
	DRM_VNPU_OP_RELU = 42,
	/** @DRM_VNPU_OP_LEAKY_RELU: x < 0 ? slope * x : x; floats[0] slope (0.01). */
	DRM_VNPU_OP_LEAKY_RELU = 43,
	/** @DRM_VNPU_OP_GELU: ints[0] 0 = erf form (default), 1 = tanh form. */
	DRM_VNPU_OP_GELU = 44,
	/** @DRM_VNPU_OP_SIGMOID: 1 / (1 + e ** -x). */
	DRM_VNPU_OP_SIGMOID = 45,
	/** @DRM_VNPU_OP_SILU: x * sigmoid(x). */
	DRM_VNPU_OP_SILU = 46,
	/** @DRM_VNPU_OP_TANH: hyperbolic tangent. */
	DRM_VNPU_OP_TANH = 47,
	/**
	 * @DRM_VNPU_OP_SOFTPLUS: log(1 + e ** (beta x)) / beta; floats[0] beta
	 * (1), floats[1] threshold (20).
	 */
	DRM_VNPU_OP_SOFTPLUS = 48,
	/**
	 * @DRM_VNPU_OP_CLAMP: min(max(x, lo), hi); floats[0] lo, floats[1] hi;
	 * ints[0] bit 0 = has lo, bit 1 = has hi.
	 */
	DRM_VNPU_OP_CLAMP = 49,
	/** @DRM_VNPU_OP_FLOOR: round down. */
	DRM_VNPU_OP_FLOOR = 50,
	/** @DRM_VNPU_OP_CEIL: round up. */
	DRM_VNPU_OP_CEIL = 51,
	/** @DRM_VNPU_OP_ROUND: round half to even. */
	DRM_VNPU_OP_ROUND = 52,
	/** @DRM_VNPU_OP_SIGN: -1, 0 or 1 (NaN stays NaN). */
	DRM_VNPU_OP_SIGN = 53,
	/** @DRM_VNPU_OP_LOGICAL_NOT: !x, out BOOL. */
	DRM_VNPU_OP_LOGICAL_NOT = 54,
	/** @DRM_VNPU_OP_ISNAN: x != x, out BOOL. */
	DRM_VNPU_OP_ISNAN = 55,
	/** @DRM_VNPU_OP_TAN: tangent. */
	DRM_VNPU_OP_TAN = 56,
	/** @DRM_VNPU_OP_ASIN: arcsine (NaN outside [-1, 1]). */
	DRM_VNPU_OP_ASIN = 57,
	/** @DRM_VNPU_OP_ACOS: arccosine (NaN outside [-1, 1]). */
	DRM_VNPU_OP_ACOS = 58,
	/** @DRM_VNPU_OP_ATAN: arctangent. */
	DRM_VNPU_OP_ATAN = 59,
	/** @DRM_VNPU_OP_SINH: hyperbolic sine. */
	DRM_VNPU_OP_SINH = 60,
	/** @DRM_VNPU_OP_COSH: hyperbolic cosine. */
	DRM_VNPU_OP_COSH = 61,
	/** @DRM_VNPU_OP_ASINH: inverse hyperbolic sine. */
	DRM_VNPU_OP_ASINH = 62,
	/** @DRM_VNPU_OP_ACOSH: inverse hyperbolic cosine (NaN below 1). */
	DRM_VNPU_OP_ACOSH = 63,
	/** @DRM_VNPU_OP_ATANH: inverse hyperbolic tangent (+-Inf at +-1). */
	DRM_VNPU_OP_ATANH = 64,
	/**
	 * @DRM_VNPU_OP_ELU: scale (x > 0 ? x : alpha (e ** (input_scale x) -
	 * 1)); floats[0] alpha (1), floats[1] scale (1), floats[2]
	 * input_scale (1).
	 */
	DRM_VNPU_OP_ELU = 65,
	/**
	 * @DRM_VNPU_OP_SELU: gamma (x <= 0 ? alpha (e ** x - 1) : x); floats[0]
	 * alpha (1.6732632), floats[1] gamma (1.0507010).
	 */
	DRM_VNPU_OP_SELU = 66,
	/**
	 * @DRM_VNPU_OP_CELU: max(0, x) + min(0, alpha (e ** (x / alpha) - 1));
	 * floats[0] alpha (1).
	 */
	DRM_VNPU_OP_CELU = 67,
	/** @DRM_VNPU_OP_THRESHOLDED_RELU: x > alpha ? x : 0; floats[0] alpha (1). */
	DRM_VNPU_OP_THRESHOLDED_RELU = 68,
	/**
	 * @DRM_VNPU_OP_SHRINK: x < -lambd ? x + bias : x > lambd ? x - bias : 0;
	 * floats[0] lambd (0.5), floats[1] bias (0).
	 */
	DRM_VNPU_OP_SHRINK = 69,
	/** @DRM_VNPU_OP_SOFTSIGN: x / (1 + |x|). */
	DRM_VNPU_OP_SOFTSIGN = 70,
	/**
	 * @DRM_VNPU_OP_HARD_SIGMOID: max(0, min(1, alpha x + beta)); floats[0]
	 * alpha (0.2), floats[1] beta (0.5).
	 */
	DRM_VNPU_OP_HARD_SIGMOID = 71,
	/** @DRM_VNPU_OP_HARD_SWISH: x max(0, min(1, x / 6 + 1 / 2)). */
	DRM_VNPU_OP_HARD_SWISH = 72,
	/**
	 * @DRM_VNPU_OP_PRELU: (x, slope) -> out, x < 0 ? slope x : x; slope
	 * broadcasts to x's shape (integers: the product wraps).
	 */
	DRM_VNPU_OP_PRELU = 73,
	/**
	 * @DRM_VNPU_OP_DROPOUT: (x, ratio, training) -> (y, mask). ratio is
	 * a float scalar (any float dtype), training a BOOL scalar, mask BOOL
	 * with x's shape, y like x (float dtypes). Training false: y = x,
	 * mask all true. Training true: mask = u >= ratio, y = mask ? x /
	 * (1 - ratio) : 0, where u in [0, 1) is a hash of ints[0] (the seed)
	 * and the element's offset in y (ratio >= 1: all dropped).
	 */
	DRM_VNPU_OP_DROPOUT = 74,

	/** @DRM_VNPU_OP_CAST: x converted to the output's dtype. */
	DRM_VNPU_OP_CAST = 80,
	/**
	 * @DRM_VNPU_OP_ISINF: x is +Inf or -Inf, out BOOL; ints[0] bit 0
	 * detects +Inf, bit 1 -Inf (default 3: both). Integers are never
	 * infinite.
	 */
	DRM_VNPU_OP_ISINF = 81,
	/** @DRM_VNPU_OP_BITWISE_NOT: ~x; integer dtypes, BOOL: !x. */
	DRM_VNPU_OP_BITWISE_NOT = 82,

	/* Reductions: x -> out; ints[0] bit mask of axes, ints[1] keepdim. */
	/** @DRM_VNPU_OP_REDUCE_SUM: sum. */
	DRM_VNPU_OP_REDUCE_SUM = 96,
	/** @DRM_VNPU_OP_REDUCE_MEAN: mean. */
	DRM_VNPU_OP_REDUCE_MEAN = 97,
	/** @DRM_VNPU_OP_REDUCE_MAX: maximum. */
	DRM_VNPU_OP_REDUCE_MAX = 98,
	/** @DRM_VNPU_OP_REDUCE_MIN: minimum. */
	DRM_VNPU_OP_REDUCE_MIN = 99,
	/** @DRM_VNPU_OP_REDUCE_PROD: product. */
	DRM_VNPU_OP_REDUCE_PROD = 100,
	/**
	 * @DRM_VNPU_OP_ARGMAX: index of the first maximum, out INT64;
	 * ints[0] has exactly one bit set (the axis), or is 0 for the index
	 * into the flattened tensor.
	 */
	DRM_VNPU_OP_ARGMAX = 101,
	/**
	 * @DRM_VNPU_OP_ARGMIN: index of the first minimum, out INT64. ARGMAX
	 * and ARGMIN: ints[2] 1 selects the last index of the extreme value
	 * instead (the last NaN if there is one).
	 */
	DRM_VNPU_OP_ARGMIN = 102,
	/** @DRM_VNPU_OP_REDUCE_L1: sum of absolute values. */
	DRM_VNPU_OP_REDUCE_L1 = 103,
	/** @DRM_VNPU_OP_REDUCE_L2: square root of the sum of squares. */
	DRM_VNPU_OP_REDUCE_L2 = 104,
	/** @DRM_VNPU_OP_REDUCE_LOG_SUM: natural logarithm of the sum. */
	DRM_VNPU_OP_REDUCE_LOG_SUM = 105,
	/**
	 * @DRM_VNPU_OP_REDUCE_LOG_SUM_EXP: log(sum(e ** x)), computed without
	 * overflow (relative to the running maximum).
	 */
	DRM_VNPU_OP_REDUCE_LOG_SUM_EXP = 106,
	/** @DRM_VNPU_OP_REDUCE_SUM_SQUARE: sum of squares. */
	DRM_VNPU_OP_REDUCE_SUM_SQUARE = 107,

	/* Normalisation. */
	/** @DRM_VNPU_OP_SOFTMAX: along axis ints[0]. */
	DRM_VNPU_OP_SOFTMAX = 112,
	/** @DRM_VNPU_OP_LOG_SOFTMAX: along axis ints[0]. */
	DRM_VNPU_OP_LOG_SOFTMAX = 113,
	/**
	 * @DRM_VNPU_OP_LAYER_NORM: (x, [gamma, [beta]]) over the dims from
	 * ints[0] on; floats[0] eps (1e-5).
	 */
	DRM_VNPU_OP_LAYER_NORM = 114,
	/**
	 * @DRM_VNPU_OP_RMS_NORM: (x, [gamma]) over the dims from ints[0] on;
	 * floats[0] eps (1e-6).
	 */
	DRM_VNPU_OP_RMS_NORM = 115,
	/**
	 * @DRM_VNPU_OP_BATCH_NORM: (x, mean, var, [gamma, [beta]]) per channel
	 * (dim 1); floats[0] eps (1e-5).
	 */
	DRM_VNPU_OP_BATCH_NORM = 116,
	/**
	 * @DRM_VNPU_OP_GROUP_NORM: (x, [gamma, [beta]]) NC...; ints[0] groups;
	 * floats[0] eps (1e-5).
	 */
	DRM_VNPU_OP_GROUP_NORM = 117,
	/**
	 * @DRM_VNPU_OP_NORM_AXES: (x, [gamma, [beta]]) -> (out, [mean, stat])
	 * normalised over the dims of the mask ints[0] (bit d: dim d; default
	 * the last dim); gamma and beta have x's rank, each dim x's size or 1;
	 * mean and stat have x's shape with the normalised dims 1. ints[1]
	 * flags: bit 0 divides by sqrt(var) + eps instead of sqrt(var + eps),
	 * bit 1 makes stat the variance instead of the divisor's reciprocal.
	 * floats[0] eps (1e-5). Variance is the population variance.
	 */
	DRM_VNPU_OP_NORM_AXES = 118,
	/**
	 * @DRM_VNPU_OP_LRN: local response normalisation across dim 1 of x
	 * (N, C, ...): x / (bias + alpha / size * sum of x ** 2 over the
	 * channels c - (size - 1) / 2 .. c + size / 2) ** beta; ints[0] size
	 * (>= 1, default 5); floats[0] alpha (1e-4), floats[1] beta (0.75),
	 * floats[2] bias (1).
	 */
	DRM_VNPU_OP_LRN = 119,

	/* Linear algebra. */
	/**
	 * @DRM_VNPU_OP_MATMUL: (a, b) batched, broadcast batch dims; ints[0]
	 * transpose a, ints[1] transpose b.
	 */
	DRM_VNPU_OP_MATMUL = 128,
	/**
	 * @DRM_VNPU_OP_GEMM: (a, b, [c]) alpha * a @ b + beta * c; floats[0]
	 * alpha (1), floats[1] beta (1), ints[0..1] transposes.
	 */
	DRM_VNPU_OP_GEMM = 129,
	/**
	 * @DRM_VNPU_OP_MATMUL_INT: (a, b, [a zero point, [b zero point]])
	 * INT8/UINT8 [..., M, K] @ [..., K, N] with broadcast batch dims ->
	 * INT32; zero points of one element.
	 */
	DRM_VNPU_OP_MATMUL_INT = 130,
	/**
	 * @DRM_VNPU_OP_QLINEAR_MATMUL: (a, a scale, a zero point, b, b scale,
	 * b zero point, y scale, y zero point) -> INT8/UINT8 y, the sums of
	 * MATMUL_INT times a scale * b scale / y scale, rounded half to
	 * even, plus y's zero point, saturated.
	 */
	DRM_VNPU_OP_QLINEAR_MATMUL = 131,

	/* Convolution and pooling, NCHW. */
	/**
	 * @DRM_VNPU_OP_CONV2D: (x, w, [bias]); ints[0..1] stride, [2..5] pads
	 * top/left/bottom/right, [6..7] dilation, [8] groups.
	 */
	DRM_VNPU_OP_CONV2D = 144,
	/**
	 * @DRM_VNPU_OP_CONV1D: (x, w, [bias]) NCL; ints[0] stride, [2] pad
	 * left, [4] pad right, [6] dilation, [8] groups.
	 */
	DRM_VNPU_OP_CONV1D = 145,
	/** @DRM_VNPU_OP_CONV_TRANSPOSE2D: like CONV2D; ints[9..10] output padding. */
	DRM_VNPU_OP_CONV_TRANSPOSE2D = 146,
	/**
	 * @DRM_VNPU_OP_MAX_POOL2D: ints[0..1] kernel, [2..3] stride, [4..7]
	 * pads, [8..9] dilation, [10] ceil mode.
	 */
	DRM_VNPU_OP_MAX_POOL2D = 147,
	/** @DRM_VNPU_OP_AVG_POOL2D: as MAX_POOL2D; ints[11] count_include_pad. */
	DRM_VNPU_OP_AVG_POOL2D = 148,
	/** @DRM_VNPU_OP_GLOBAL_AVG_POOL: mean over H and W. */
	DRM_VNPU_OP_GLOBAL_AVG_POOL = 149,
	/** @DRM_VNPU_OP_GLOBAL_MAX_POOL: maximum over H and W. */
	DRM_VNPU_OP_GLOBAL_MAX_POOL = 150,
	/** @DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D: to the output's H and W. */
	DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D = 151,
	/**
	 * @DRM_VNPU_OP_POOL_ND: x [N, C, D1 [, D2 [, D3]]] -> out [, INT64 or
	 * INT32 indices of the maxima, flat in x]; ints[0] 0 max, 1 average;
	 * [1] count_include_pad; [2] divisor override (0: none); [3] indices
	 * column-major within a plane; [4..6] window, [7..9] strides,
	 * [10..12] pads at the start, [13..15] at the end, [16..18]
	 * dilations; [19] indices counted within the plane. Each output size
	 * is the floor or the ceil of the window count (ceil mode).
	 */
	DRM_VNPU_OP_POOL_ND = 152,
	/**
	 * @DRM_VNPU_OP_CONV_ND: (x, w, [bias]) over 1 to 3 spatial dims; or
	 * INT8/UINT8 (x, w, [x zero point, [w zero point (one or per output
	 * channel)]]) -> INT32. ints[0..2] strides, [3..5] dilations, [6..8]
	 * pads at the start, [9..11] at the end, [13] groups;
	 * DRM_VNPU_ATTR_ACT (floats).
	 */
	DRM_VNPU_OP_CONV_ND = 153,
	/**
	 * @DRM_VNPU_OP_CONV_TRANSPOSE_ND: as CONV_ND with w [Cin, Cout /
	 * groups, k...]; the output view's size is the result's (ints[9..11]
	 * unused).
	 */
	DRM_VNPU_OP_CONV_TRANSPOSE_ND = 154,
	/**
	 * @DRM_VNPU_OP_QLINEAR_CONV_ND: (x, x scale, x zero point, w, w scale,
	 * w zero point, y scale, y zero point, [INT32 bias]) with CONV_ND's
	 * attributes; w's scale and zero point of one element or one per
	 * output channel; requantized as QLINEAR_MATMUL.
	 */
	DRM_VNPU_OP_QLINEAR_CONV_ND = 155,
	/**
	 * @DRM_VNPU_OP_MAX_UNPOOL: (x, INT64 indices of x's shape) -> out of
	 * x's rank, N and C: zeros, and x's elements at the flat output
	 * offsets the indices give (offsets outside the output skipped).
	 */
	DRM_VNPU_OP_MAX_UNPOOL = 156,

	/* Data movement. */
	/** @DRM_VNPU_OP_STRIDED_COPY: out = x (any view to any view of the same shape). */
	DRM_VNPU_OP_STRIDED_COPY = 160,
	/** @DRM_VNPU_OP_CONCAT: inputs joined along ints[0]. */
	DRM_VNPU_OP_CONCAT = 161,
	/** @DRM_VNPU_OP_SPLIT: x cut along ints[0] into the outputs. */
	DRM_VNPU_OP_SPLIT = 162,
	/**
	 * @DRM_VNPU_OP_SLICE: out[i] = x[start + i * step] per dim; ints[0..7]
	 * starts, ints[8..15] steps (non-zero; a negative step walks back
	 * from start). Every index read must be inside x.
	 */
	DRM_VNPU_OP_SLICE = 163,
	/** @DRM_VNPU_OP_GATHER: (x, index) along ints[0], torch.gather. */
	DRM_VNPU_OP_GATHER = 164,
	/**
	 * @DRM_VNPU_OP_SCATTER: (x, index, src) along ints[0], torch.scatter;
	 * ints[1] reduction: 0 replace, 1 add, 2 multiply, 3 maximum,
	 * 4 minimum (not for BOOL), colliding indices applied in row-major order.
	 */
	DRM_VNPU_OP_SCATTER = 165,
	/** @DRM_VNPU_OP_INDEX_SELECT: (x, index) along ints[0]. */
	DRM_VNPU_OP_INDEX_SELECT = 166,
	/** @DRM_VNPU_OP_WHERE: (cond BOOL, a, b) -> cond ? a : b. */
	DRM_VNPU_OP_WHERE = 167,
	/**
	 * @DRM_VNPU_OP_PAD: ints[2d], ints[2d + 1] pad before/after dim d;
	 * ints[16] mode 0 constant, 1 reflect, 2 edge; floats[0] value.
	 */
	DRM_VNPU_OP_PAD = 168,
	/** @DRM_VNPU_OP_TILE: x repeated to the output's shape. */
	DRM_VNPU_OP_TILE = 169,
	/**
	 * @DRM_VNPU_OP_ONE_HOT: (index, [off, on]) -> out with the depth as
	 * its last dim; floats[0] on (1), floats[1] off (0), or with the two
	 * optional inputs (out's dtype, at least one element) their first
	 * elements, copied bit for bit.
	 */
	DRM_VNPU_OP_ONE_HOT = 170,
	/**
	 * @DRM_VNPU_OP_ARANGE: out[i] = start + i * step; floats[0..1] (or
	 * ints[0..1] for integer dtypes).
	 */
	DRM_VNPU_OP_ARANGE = 171,
	/** @DRM_VNPU_OP_FILL: out = floats[0] (or ints[0] for integer dtypes). */
	DRM_VNPU_OP_FILL = 172,
	/**
	 * @DRM_VNPU_OP_TOPK: x -> (values, INT64 indices) along ints[0];
	 * ints[2] largest, ints[3] sorted.
	 */
	DRM_VNPU_OP_TOPK = 173,
	/**
	 * @DRM_VNPU_OP_SORT: x -> (values, INT64 indices) along ints[0];
	 * ints[1] descending; stable.
	 */
	DRM_VNPU_OP_SORT = 174,
	/**
	 * @DRM_VNPU_OP_RESIZE: NCHW to the output's H, W; ints[0] 0 nearest, 1
	 * bilinear; ints[1] align corners.
	 */
	DRM_VNPU_OP_RESIZE = 175,
	/**
	 * @DRM_VNPU_OP_GATHER_ND: (x, index) -> out, ONNX GatherND; ints[0]
	 * batch dims b. index is [batch..., tuples..., k] with k <= rank - b;
	 * out is index's dims but the last, then x's dims after b + k. A
	 * tuple with an index outside [-n, n) reads zeros.
	 */
	DRM_VNPU_OP_GATHER_ND = 176,
	/**
	 * @DRM_VNPU_OP_SCATTER_ND: (x, index, updates) -> out, ONNX
	 * ScatterND: out = x, then each k-tuple of index (in row-major
	 * order) names a slice of out that takes its slice of updates;
	 * ints[0] reduction as SCATTER's ints[1]. Tuples with an index
	 * outside [-n, n) are skipped.
	 */
	DRM_VNPU_OP_SCATTER_ND = 177,
	/**
	 * @DRM_VNPU_OP_REVERSE_SEQUENCE: (x, lengths) -> out, ONNX
	 * ReverseSequence: ints[0] batch axis (1), ints[1] time axis (0); the
	 * first lengths[b] steps of each batch entry reversed, a length
	 * outside [0, T] taken as the nearest bound.
	 */
	DRM_VNPU_OP_REVERSE_SEQUENCE = 178,

	/* Scans and masks: x -> out of x's shape and dtype. */
	/**
	 * @DRM_VNPU_OP_CUMSUM: running sum along axis ints[0]; ints[1] 1
	 * exclusive (out[i] sums the elements before i), ints[2] 1 reverse
	 * (from the end of the axis).
	 */
	DRM_VNPU_OP_CUMSUM = 224,
	/**
	 * @DRM_VNPU_OP_TRILU: the last two dims as matrices; element (i, j)
	 * is kept if j - i >= ints[1] (ints[0] 1, upper) or j - i <= ints[1]
	 * (ints[0] 0, lower), else 0. Any dtype.
	 */
	DRM_VNPU_OP_TRILU = 225,
	/**
	 * @DRM_VNPU_OP_HARDMAX: 1 at the first maximum along axis ints[0]
	 * (the first NaN if there is one), 0 elsewhere.
	 */
	DRM_VNPU_OP_HARDMAX = 226,

	/* Losses. */
	/**
	 * @DRM_VNPU_OP_NLL_LOSS: (logp (N, C, d...), target (N, d...) INT32 or
	 * INT64, [weight (C)]) -> loss = -logp[n, target, d...] * weight[target];
	 * ints[0] reduction: 0 none (out shaped like target), 1 sum, 2 mean
	 * (default; divided by the sum of the weights taken), one element out;
	 * ints[1] ignore index, used when ints[2] is 1 (its elements count 0
	 * and weigh 0); a target outside [0, C) otherwise gives NaN.
	 */
	DRM_VNPU_OP_NLL_LOSS = 200,

	/* Resampling and quantization. */
	/**
	 * @DRM_VNPU_OP_RESIZE_ND: (x, [roi]) -> out of the same rank, ONNX
	 * Resize over every dim. ints[0] 0 nearest, 1 linear, 2 cubic; [1]
	 * coordinates: 0 half_pixel, 1 pytorch_half_pixel, 2 align_corners,
	 * 3 asymmetric, 4 tf_half_pixel_for_nn, 5 tf_crop_and_resize (roi:
	 * float [2 * rank], starts then ends); [2] nearest rounding: 0
	 * round_prefer_floor, 1 round_prefer_ceil, 2 floor, 3 ceil; [3]
	 * exclude_outside; [8 + d] dim d's scale as float bits (0: out / in);
	 * floats[0] cubic coefficient a, [1] extrapolation value.
	 */
	DRM_VNPU_OP_RESIZE_ND = 240,
	/**
	 * @DRM_VNPU_OP_QUANTIZE_LINEAR: (x float, scale, [zero point]) -> INT8
	 * or UINT8, saturate(round_half_even(x / scale) + zero point); scale
	 * and zero point of one element, or per index of axis ints[0].
	 */
	DRM_VNPU_OP_QUANTIZE_LINEAR = 241,
	/**
	 * @DRM_VNPU_OP_DEQUANTIZE_LINEAR: (x INT8/UINT8/INT32, scale, [zero
	 * point]) -> float, (x - zero point) * scale; parameters as
	 * QUANTIZE_LINEAR's.
	 */
	DRM_VNPU_OP_DEQUANTIZE_LINEAR = 242,
	/**
	 * @DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR: x float -> (y UINT8, scale
	 * float, zero point UINT8) from x's range widened to include 0.
	 */
	DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR = 243,
	/**
	 * @DRM_VNPU_OP_GRID_SAMPLE: (x [N, C, H, W], grid [N, Ho, Wo, 2] of
	 * (x, y) in [-1, 1]) -> [N, C, Ho, Wo]; ints[0] 0 bilinear, 1
	 * nearest, 2 bicubic; [1] padding 0 zeros, 1 border, 2 reflection;
	 * [2] align_corners.
	 */
	DRM_VNPU_OP_GRID_SAMPLE = 244,
	/**
	 * @DRM_VNPU_OP_ROI_ALIGN: (x [N, C, H, W] (H, W <= 2000), rois [R, 4]
	 * of x1, y1, x2, y2, INT64 image indices [R]) -> [R, C, out_h,
	 * out_w]; ints[0] 0 average, 1 maximum; [1] sampling ratio (0:
	 * adaptive); [2] half-pixel coordinates; floats[0] spatial scale.
	 */
	DRM_VNPU_OP_ROI_ALIGN = 245,
	/**
	 * @DRM_VNPU_OP_VPC: (src UINT8 [bytes]) -> dst UINT8 [bytes], DVPP's
	 * vision preprocessing core on whole picture buffers (both tensors
	 * rank 1, stride 1). A rectangle of src is resampled into a rectangle
	 * of dst, converting the pixel format; dst outside the rectangle is
	 * left as it was. Formats are acldvppPixelFormat values; strides are
	 * bytes per row (width stride) and rows per plane (height stride).
	 * ints[0..4] src format, width, height, width stride, height stride;
	 * [5..9] the same of dst; [10..13] src rectangle left, top, width,
	 * height (width 0: all of src); [14..17] dst rectangle (width 0: all
	 * of dst); [18] interpolation (acldvppResizeConfig's values: 0
	 * default, 1 bilinear and 2 nearest with OpenCV's conventions, 3
	 * bilinear and 4 nearest with TensorFlow's); [19] colour matrix
	 * (acldvppCscMatrix); [20] kind: 0 crop-resize-paste, 1 PyrDown (5x5
	 * Gaussian, half size, YUV400 only), 2 make border (rectangle [10..13]
	 * of src copied to [14..17] of dst, the rest of dst filled by border
	 * type ints[21] with the values floats[0..3]).
	 * Documentation/vpc.md gives the formats, limits and numerics.
	 */
	DRM_VNPU_OP_VPC = 246,
	/**
	 * @DRM_VNPU_OP_AIPP: (src UINT8 [N, bytes], params UINT8 [N, sizeof
	 * &struct drm_vnpu_aipp_params]) -> [N, C, H, W] FLOAT or FLOAT16, a
	 * model's AI preprocessing: per image crop, colour conversion,
	 * scaling, padding and (x - mean - min) * var_reci per channel.
	 * Rows of src and params are contiguous bytes (a row of params may
	 * repeat with stride 0); C is 1 to 4. The parameters are read while
	 * the task runs: a block that breaks a rule of &struct
	 * drm_vnpu_aipp_params fails the task with -EINVAL (job
	 * DRM_VNPU_JOB_ABORTED), that image's output left unwritten.
	 */
	DRM_VNPU_OP_AIPP = 247,

	/* Issue 36: the operators of ggml's CANN backend. */
	/**
	 * @DRM_VNPU_OP_TRI_SOLVE: (a [..., N, N], b [..., N, K]) -> x of b's
	 * shape with a x = b per batch entry; the batch dims are equal in all
	 * three (broadcast with stride 0). ints[0] 1: a is upper triangular,
	 * 0 (default) lower; ints[1] 1: a unit diagonal, not read. Only a's
	 * triangle is read: a transposed a is the view with its last two
	 * strides swapped and ints[0] flipped. FLOAT, FLOAT16, BF16 or DOUBLE
	 * (one dtype), solved in double; a zero diagonal gives Inf or NaN.
	 * N * N at most 2^26.
	 */
	DRM_VNPU_OP_TRI_SOLVE = 253,
	/* LLM inference. */
	/**
	 * @DRM_VNPU_OP_FLASH_ATTN: (q [B, N, Sq, Dk], k [B, Nkv, Skv, Dk],
	 * v [B, Nkv, Skv, Dv], [pse [B, N, Sq, Skv] float], [mask [B, N, Sq,
	 * Skv] BOOL/INT8/UINT8]) -> (out [B, N, Sq, Dv], [lse FLOAT [B, N,
	 * Sq]]), fused scaled dot-product attention computed the flash way:
	 * tiles of K and V, an online softmax in fp32, the Sq x Skv scores
	 * never stored. Head n reads K/V head n / (N / Nkv) (N a multiple of
	 * Nkv: GQA, MQA). score = floats[0] * q.k + pse; a mask element
	 * other than 0 drops its key. ints[0] flags: bit 0 pse given, bit 1
	 * mask given, bit 2 lse wanted (tensors in that order, the absent
	 * ones left out); ints[1] band: 0 none, 1 key j of row i kept when
	 * -ints[2] <= j - i <= ints[3], 2 the same with j - i - (Skv - Sq)
	 * (the band anchored at the bottom-right corner); ints[2], ints[3]
	 * within +-2^40. A row without keys writes 0 and lse +Inf; otherwise
	 * lse = max + log(sum of exp). Dk, Dv <= 1024 and Skv * (Dk + Dv) <=
	 * 2^26 (one row's work fits a piece).
	 */
	DRM_VNPU_OP_FLASH_ATTN = 248,
	/**
	 * @DRM_VNPU_OP_ROPE: (x [..., D], cos, sin) -> out of x's shape,
	 * rotary position embedding y = x * cos + rotate(x) * sin in fp32
	 * along the last dim; cos and sin have x's rank, each dim x's or 1
	 * (broadcast), the last one D. ints[0] mode: 0 half (rotate(x) =
	 * [-x2, x1] of the halves), 1 interleave (pairs (x[2i], x[2i+1]) ->
	 * (-x[2i+1], x[2i])), 2 quarter ([-x2, x1, -x4, x3] of the quarters),
	 * 3 interleave-half (y = [x_even, x_odd] * cos + [-x_odd, x_even] *
	 * sin). D even (mode 2: a multiple of 4), at most 65536; out may be
	 * x itself.
	 */
	DRM_VNPU_OP_ROPE = 249,
	/**
	 * @DRM_VNPU_OP_WQ_MATMUL: (x [M, K] float, w INT8, scale [G, N]
	 * float, [offset [G, N] float], [bias [N] float]) -> [M, N] float,
	 * a matmul with a quantised weight dequantised tile by tile:
	 * out[m, n] = sum_k x[m, k] * (w[k, n] + offset[g, n]) * scale[g, n]
	 * + bias[n], g = k / ints[0]. ints[0] group size along K (0: one
	 * group, G = 1; else G = ceil(K / ints[0])); ints[1] weight packing:
	 * 0 INT8 w [K, N], 1 INT4 two K values per byte (w [K / 2, N],
	 * element k in the low nibble of its byte when k is even), 2 INT4
	 * two N values per byte (w [K, N / 2]); nibbles are two's complement;
	 * ints[2] offset given, ints[3] bias given (0 or 1 each, inputs in
	 * that order). Any strides (0 broadcasts a scale). K <= 149796.
	 */
	DRM_VNPU_OP_WQ_MATMUL = 250,
	/**
	 * @DRM_VNPU_OP_GROUPED_MATMUL: (x [M, K] float, w [E, K, N] float,
	 * group list INT64 [E], [bias [E, N] float]) -> [M, N] float, a
	 * mixture-of-experts product: rows of group e get x @ w[e] (+
	 * bias[e]). ints[0] 0: the list holds cumulative ends (non-
	 * decreasing, <= M), 1: counts (>= 0, sum <= M), 2: no list input,
	 * E = 1 and the group is every row; ints[1] bias given. Rows past the
	 * last group are set to 0. 1 <= E <= 1024. The list is read as the
	 * task runs: a bad one fails the task with -EINVAL.
	 */
	DRM_VNPU_OP_GROUPED_MATMUL = 251,
};

/**
 * struct drm_vnpu_aipp_params - one image's parameters of DRM_VNPU_OP_AIPP
 *
 * The stages run in CANN's order: crop, the swaps and the colour
 * conversion (CSC) of each pixel, scaling (SCF, bilinear with half-pixel
 * centres), padding, then the data-type conversion. Switches are 0 or 1.
 * Formats are aclAippInputFormat values; the operator reads
 * YUV420SP_U8 (NV12: a Y plane of @src_w x @src_h bytes, then
 * @src_h / 2 rows of @src_w bytes of U, V pairs; both sides even),
 * XRGB8888_U8 (bytes X, R, G, B), RGB888_U8 and YUV400_U8 (one channel),
 * and refuses the others. The CSC matrix is in units of 1/256: from a
 * YUV source channel r becomes clamp(floor(sum_k m[r][k] (in_k -
 * @csc_in_bias[k]) / 256), 0, 255), from an RGB source clamp(floor(sum_k
 * m[r][k] in_k / 256) + @csc_out_bias[r], 0, 255); the other bias is
 * ignored. Sides, crops, scaled sizes are 1..8192 and paddings
 * 0..8192; the crop lies inside the image, the image fits in a row of
 * src, the scaled (or cropped) size plus the padding is the output's
 * H x W, C is at most the format's channels, @min, @var_reci and
 * @pad_value are finite. A switch that is off wants its fields zero, as
 * do @pad0 and @reserved. Documentation/aipp.md has the whole definition.
 */
struct drm_vnpu_aipp_params {
	/** @input_format: aclAippInputFormat of src. */
	__u32 input_format;
	/** @src_w: source image width in pixels. */
	__s32 src_w;
	/** @src_h: source image height in pixels. */
	__s32 src_h;
	/** @csc_switch: apply the colour matrix. */
	__s8 csc_switch;
	/** @rbuv_swap: swap R and B (or U and V) before the matrix. */
	__s8 rbuv_swap;
	/** @ax_swap: move the X channel of XRGB8888_U8 input last. */
	__s8 ax_swap;
	/** @crop_switch: crop first. */
	__s8 crop_switch;
	/** @scf_switch: scale the crop (or the image) to @scf_w x @scf_h. */
	__s8 scf_switch;
	/** @pad_switch: pad after scaling. */
	__s8 pad_switch;
	/** @pad0: must be zero. */
	__s8 pad0[2];
	/** @csc_matrix: r0c0 .. r2c2, row major. */
	__s16 csc_matrix[9];
	/** @csc_out_bias: added to each output channel (RGB sources). */
	__u8 csc_out_bias[3];
	/** @csc_in_bias: subtracted from each input channel (YUV sources). */
	__u8 csc_in_bias[3];
	/** @crop_x: crop start column. */
	__s32 crop_x;
	/** @crop_y: crop start row. */
	__s32 crop_y;
	/** @crop_w: crop width. */
	__s32 crop_w;
	/** @crop_h: crop height. */
	__s32 crop_h;
	/** @scf_w: scaled width. */
	__s32 scf_w;
	/** @scf_h: scaled height. */
	__s32 scf_h;
	/** @pad_top: rows added above. */
	__s32 pad_top;
	/** @pad_bottom: rows added below. */
	__s32 pad_bottom;
	/** @pad_left: columns added left. */
	__s32 pad_left;
	/** @pad_right: columns added right. */
	__s32 pad_right;
	/** @mean: per channel mean (integer), subtracted first. */
	__s16 mean[4];
	/** @min: per channel minimum (float bits), subtracted next. */
	__u32 min[4];
	/** @var_reci: per channel factor (float bits), multiplied last. */
	__u32 var_reci[4];
	/**
	 * @pad_value: per channel value of padded pixels (float bits), then
	 * normalised like the others.
	 */
	__u32 pad_value[4];
	/** @reserved: must be zero. */
	__u32 reserved[4];
};

/**
 * struct drm_vnpu_op_attrs - operator attributes (see &enum drm_vnpu_op)
 *
 * Follows the tensors in a KERNEL task's argument block when
 * &drm_vnpu_kernel_args.attr_size is sizeof(this); attr_size 0 selects the
 * operator's defaults.
 */
struct drm_vnpu_op_attrs {
	/** @ints: integer attributes. */
	__s64 ints[24];
	/** @floats: float attributes as IEEE single-precision bit patterns. */
	__u32 floats[8];
};

/*
 * Fused activation of CONV1D, CONV2D, CONV_TRANSPOSE2D, MATMUL and GEMM
 * (UAPI 1.4): ints[DRM_VNPU_ATTR_ACT] selects a function applied to every
 * output element after the bias, before it is stored; CLIP takes its
 * bounds from floats[DRM_VNPU_ATTR_ACT_LO] and floats[DRM_VNPU_ATTR_ACT_HI]
 * (lo <= hi, neither NaN). Another value fails the task (-EINVAL).
 */
#define DRM_VNPU_ATTR_ACT		12
#define DRM_VNPU_ATTR_ACT_LO		6
#define DRM_VNPU_ATTR_ACT_HI		7
#define DRM_VNPU_ACT_NONE		0
#define DRM_VNPU_ACT_RELU		1
#define DRM_VNPU_ACT_CLIP		2

/*
 * Tensor element types (the values of ACL's aclDataType). The elementwise
 * operators (binary, unary, CAST), reductions, sorting and data movement
 * compute in all thirteen; DOUBLE computes in double, UINT64 compares,
 * divides and shifts as unsigned. Matrix, convolution, normalisation and
 * resize operators take the float types (Documentation/ops.md lists the
 * dtypes per operator).
 */
#define DRM_VNPU_DTYPE_FLOAT		0
#define DRM_VNPU_DTYPE_FLOAT16		1
#define DRM_VNPU_DTYPE_INT8		2
#define DRM_VNPU_DTYPE_INT32		3
#define DRM_VNPU_DTYPE_UINT8		4
#define DRM_VNPU_DTYPE_INT16		6
#define DRM_VNPU_DTYPE_UINT16		7
#define DRM_VNPU_DTYPE_UINT32		8
#define DRM_VNPU_DTYPE_INT64		9
#define DRM_VNPU_DTYPE_UINT64		10
#define DRM_VNPU_DTYPE_DOUBLE		11
#define DRM_VNPU_DTYPE_BOOL		12
#define DRM_VNPU_DTYPE_BF16		27

#define DRM_VNPU_MAX_RANK		8
#define DRM_VNPU_MAX_TENSORS		16

/**
 * struct drm_vnpu_tensor - a tensor an operator reads or writes
 */
struct drm_vnpu_tensor {
	/** @va: device address of element [0, 0, ...]. */
	__u64 va;
	/** @dtype: DRM_VNPU_DTYPE_*. */
	__u32 dtype;
	/** @rank: number of dimensions, 0 .. DRM_VNPU_MAX_RANK. */
	__u32 rank;
	/** @shape: size of each dimension (entries past @rank must be zero). */
	__s64 shape[DRM_VNPU_MAX_RANK];
	/** @strides: distance in elements between neighbours of each dimension. */
	__s64 strides[DRM_VNPU_MAX_RANK];
};

/**
 * struct drm_vnpu_kernel_args - arguments of a DRM_VNPU_TASK_KERNEL task
 *
 * Lives in the submission's argument block, 8-byte aligned, followed by
 * @num_tensors tensors (inputs first, then outputs) and @attr_size bytes
 * of operator attributes.
 */
struct drm_vnpu_kernel_args {
	/** @num_inputs: tensors read. */
	__u32 num_inputs;
	/** @num_outputs: tensors written. */
	__u32 num_outputs;
	/** @attr_size: bytes of attributes after the tensors. */
	__u32 attr_size;
	/** @pad: must be zero. */
	__u32 pad;
	/** @tensors: @num_inputs + @num_outputs descriptors. */
	struct drm_vnpu_tensor tensors[];
};

/**
 * struct drm_vnpu_sync - a syncobj point a job waits for or signals
 */
struct drm_vnpu_sync {
	/** @handle: syncobj handle of this file. */
	__u32 handle;
	/**
	 * @flags: DRM_VNPU_SYNC_WAIT_FOR_SUBMIT (in-syncs only): wait for
	 * the point's fence to be submitted instead of failing with -EINVAL.
	 */
	__u32 flags;
	/** @point: timeline point, or 0 for a binary syncobj. */
	__u64 point;
};

#define DRM_VNPU_SYNC_WAIT_FOR_SUBMIT	(1U << 0)
#define DRM_VNPU_MAX_SYNCS		64

/* SUBMIT flags. */
/* Run command buffer @cmdbuf instead of @tasks/@args. */
#define DRM_VNPU_SUBMIT_CMDBUF		(1U << 0)
/*
 * With DRM_VNPU_SUBMIT_CMDBUF, for a command buffer created with
 * DRM_VNPU_CMDBUF_BINDINGS (UAPI 1.4): @args points to the binding table,
 * @args_size / 8 device addresses, which must be exactly the command
 * buffer's @binding_count (-EINVAL otherwise, and for a command buffer with
 * bindings submitted without this flag or the reverse). The table is
 * copied at SUBMIT; the addresses in it are checked by the MMU when the
 * tasks run, like any other.
 */
#define DRM_VNPU_SUBMIT_BINDINGS	(1U << 1)
#define DRM_VNPU_SUBMIT_FLAGS		(DRM_VNPU_SUBMIT_CMDBUF | \
					 DRM_VNPU_SUBMIT_BINDINGS)

/*
 * Bindings (UAPI 1.4). In a command buffer created with
 * DRM_VNPU_CMDBUF_BINDINGS, a device address with bit 63 set (in a KERNEL
 * task's tensors, a COPY's or COPY_2D's source and destination, a FILL's
 * destination) is not an address but DRM_VNPU_BINDING_VA(slot, offset):
 * when the task runs it stands for entry @slot of the table the replay was
 * submitted with, plus @offset bytes (an overflowing sum is a fault). This
 * lets one registered batch run on buffers chosen per replay (a model's
 * inputs and outputs) without copying them or registering it again.
 * CMDBUF_CREATE fails with -EINVAL for a slot >= @binding_count. Outside
 * such command buffers bit 63 has no meaning (such an address faults).
 */
#define DRM_VNPU_MAX_BINDINGS		64
#define DRM_VNPU_BINDING_FLAG		(1ULL << 63)
#define DRM_VNPU_BINDING_SLOT_SHIFT	48
#define DRM_VNPU_BINDING_OFFSET_MASK	((1ULL << DRM_VNPU_BINDING_SLOT_SHIFT) - 1)
#define DRM_VNPU_BINDING_VA(slot, offset) \
	(DRM_VNPU_BINDING_FLAG | \
	 ((__u64)(slot) << DRM_VNPU_BINDING_SLOT_SHIFT) | \
	 ((__u64)(offset) & DRM_VNPU_BINDING_OFFSET_MASK))
/* The slot and the offset of a DRM_VNPU_BINDING_VA reference. */
#define DRM_VNPU_BINDING_SLOT(va) \
	(((va) & ~DRM_VNPU_BINDING_FLAG) >> DRM_VNPU_BINDING_SLOT_SHIFT)
#define DRM_VNPU_BINDING_OFFSET(va)	((va) & DRM_VNPU_BINDING_OFFSET_MASK)

/**
 * struct drm_vnpu_submit - queue one job
 *
 * The batch (@tasks and the argument block @args) is copied in once and
 * checked as a whole before anything happens: either the job is queued or
 * the call fails and nothing changed. Device addresses are checked by the
 * MMU when the tasks run. Errors: -EINVAL for malformed input (unknown
 * task type or flag, bad stride, zero or too many tasks, a non-zero
 * reserved field, a bad argument block, an unsubmitted in-sync point
 * without DRM_VNPU_SYNC_WAIT_FOR_SUBMIT, syncobj handle unknown
 * (-ENOENT)); -ENOENT for an unknown queue or command buffer; -EBADFD when
 * the queue is in its error state; -EFAULT for bad pointers; -EBUSY when
 * the file already has DRM_VNPU_PARAM_FILE_JOB_LIMIT jobs in flight or
 * this job's tasks and argument block would take its jobs in flight past
 * DRM_VNPU_PARAM_FILE_JOB_MEM_LIMIT bytes (retry once some of its jobs
 * have completed: unlike a full queue, which makes SUBMIT wait, these
 * limits fail at once); -ENOMEM when the host (or the caller's memory
 * cgroup) is out of memory.
 */
struct drm_vnpu_submit {
	/** @queue_id: in, the queue. */
	__u32 queue_id;
	/** @flags: in, DRM_VNPU_SUBMIT_*. */
	__u32 flags;
	/** @tasks: in, pointer to @task_count task descriptors. */
	__u64 tasks;
	/** @task_count: in, 1 .. DRM_VNPU_MAX_TASKS. */
	__u32 task_count;
	/** @task_stride: in, bytes between descriptors. */
	__u32 task_stride;
	/** @args: in, pointer to the argument block, or 0. */
	__u64 args;
	/** @args_size: in, bytes, 0 .. DRM_VNPU_MAX_ARGS_SIZE, multiple of 8. */
	__u32 args_size;
	/** @cmdbuf: in, command buffer handle with DRM_VNPU_SUBMIT_CMDBUF. */
	__u32 cmdbuf;
	/** @in_syncs: in, pointer to @in_sync_count &struct drm_vnpu_sync. */
	__u64 in_syncs;
	/** @out_syncs: in, pointer to @out_sync_count &struct drm_vnpu_sync. */
	__u64 out_syncs;
	/** @in_sync_count: in, 0 .. DRM_VNPU_MAX_SYNCS. */
	__u32 in_sync_count;
	/** @out_sync_count: in, 0 .. DRM_VNPU_MAX_SYNCS. */
	__u32 out_sync_count;
	/** @seq: out, the job's sequence number in its queue. */
	__u64 seq;
};

/**
 * enum drm_vnpu_job_state - how a job stands
 */
enum drm_vnpu_job_state {
	/** @DRM_VNPU_JOB_PENDING: submitted, not finished. */
	DRM_VNPU_JOB_PENDING = 0,
	/** @DRM_VNPU_JOB_OK: every task completed. */
	DRM_VNPU_JOB_OK = 1,
	/** @DRM_VNPU_JOB_FAULT: a task hit a device page fault. */
	DRM_VNPU_JOB_FAULT = 2,
	/** @DRM_VNPU_JOB_TIMEOUT: a WAIT_VALUE timed out, or the job hung. */
	DRM_VNPU_JOB_TIMEOUT = 3,
	/** @DRM_VNPU_JOB_ABORTED: stopped by the driver (a failed task). */
	DRM_VNPU_JOB_ABORTED = 4,
	/** @DRM_VNPU_JOB_CANCELLED: not run: queue destroyed or in error. */
	DRM_VNPU_JOB_CANCELLED = 5,
};

/**
 * struct drm_vnpu_job_status - how job @seq of queue @queue_id ended
 *
 * The status of the last DRM_VNPU_STATUS_HISTORY jobs of a queue is kept,
 * and that of the queue's first failed job until QUEUE_RESET. Errors:
 * -ENOENT for an unknown queue, -EINVAL for a @seq never submitted or
 * non-zero @pad, -ENODATA for a job too old to remember.
 */
struct drm_vnpu_job_status {
	/** @queue_id: in, the queue. */
	__u32 queue_id;
	/** @pad: must be zero. */
	__u32 pad;
	/** @seq: in, the job's sequence number. */
	__u64 seq;
	/** @state: out, &enum drm_vnpu_job_state. */
	__u32 state;
	/** @error: out, 0 or the negative errno on the job's fences. */
	__s32 error;
	/** @task: out, index of the failing task. */
	__u32 task;
	/** @fault_access: out, DRM_VNPU_ACCESS_* of a fault. */
	__u32 fault_access;
	/** @fault_va: out, the faulting address. */
	__u64 fault_va;
	/** @fault_reason: out, &enum drm_vnpu_fault_reason. */
	__u32 fault_reason;
	/** @reserved: zero. */
	__u32 reserved;
};

#define DRM_VNPU_STATUS_HISTORY		256

/**
 * struct drm_vnpu_cmdbuf_create - register a batch for replay
 *
 * The batch is validated once, like a SUBMIT's; SUBMIT with
 * DRM_VNPU_SUBMIT_CMDBUF then replays it without copying or checking its
 * structure again. Errors as for SUBMIT's batch, plus -ENOSPC when the
 * file has DRM_VNPU_PARAM_FILE_CMDBUF_LIMIT command buffers already or
 * this one's tasks and argument block would take the file's command
 * buffers past DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT bytes (a destroyed
 * command buffer counts until its last replay has completed).
 */
struct drm_vnpu_cmdbuf_create {
	/** @tasks: in, pointer to the task descriptors. */
	__u64 tasks;
	/** @task_count: in, 1 .. DRM_VNPU_MAX_TASKS. */
	__u32 task_count;
	/** @task_stride: in, bytes between descriptors. */
	__u32 task_stride;
	/** @args: in, pointer to the argument block, or 0. */
	__u64 args;
	/** @args_size: in, bytes. */
	__u32 args_size;
	/** @flags: in, 0 or DRM_VNPU_CMDBUF_BINDINGS. */
	__u32 flags;
	/** @handle: out, the command buffer (never 0). */
	__u32 handle;
	/**
	 * @binding_count: in, with DRM_VNPU_CMDBUF_BINDINGS 1 ..
	 * DRM_VNPU_MAX_BINDINGS, the size of the binding table every replay
	 * passes; else must be zero (UAPI 1.4; was a zero pad before).
	 */
	__u32 binding_count;
};

/* CMDBUF_CREATE flags: the batch uses DRM_VNPU_BINDING_VA addresses. */
#define DRM_VNPU_CMDBUF_BINDINGS	(1U << 0)

/**
 * struct drm_vnpu_cmdbuf_update - patch a command buffer in place (UAPI 1.9)
 *
 * Replaces tasks [@first_task, @first_task + @task_count) of command
 * buffer @handle with the @task_count descriptors at @tasks, and the
 * @args_size bytes of its argument block at @args_offset with the bytes
 * at @args. The patched command buffer is validated like a CMDBUF_CREATE
 * of the whole batch, and every replaced task must keep its type (a
 * KERNEL task may change its operator and arguments, not become a COPY);
 * if anything fails, nothing changed. The task count, the argument
 * block's size and the binding count never change.
 *
 * When it applies: a replay takes the command buffer's contents when its
 * job starts to run on an engine, not when it is submitted. So an update
 * applies to every replay whose job has not started yet, even one already
 * submitted (waiting behind an event, say), and never to a replay whose
 * job is running or done: a job never sees half an update. Errors:
 * -ENOENT for an unknown handle; -EINVAL for non-zero @flags or @pad, a
 * range past the command buffer's tasks or argument block, @args_size not
 * a multiple of 8 or @args_offset not 8-byte aligned, a changed task type,
 * a patched batch that fails validation, or nothing to patch (both counts
 * zero); -EFAULT for bad pointers; -ENOMEM.
 */
struct drm_vnpu_cmdbuf_update {
	/** @handle: in, the command buffer. */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @tasks: in, pointer to @task_count descriptors. */
	__u64 tasks;
	/** @first_task: in, index of the first replaced task. */
	__u32 first_task;
	/** @task_count: in, tasks replaced, 0 .. the command buffer's count. */
	__u32 task_count;
	/** @task_stride: in, bytes between descriptors (as for SUBMIT). */
	__u32 task_stride;
	/** @args_offset: in, first replaced byte of the argument block. */
	__u32 args_offset;
	/** @args: in, pointer to @args_size bytes, or 0. */
	__u64 args;
	/** @args_size: in, bytes replaced, a multiple of 8. */
	__u32 args_size;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_cmdbuf_destroy - drop a command buffer
 *
 * Replays already submitted keep running. Errors: -ENOENT for an unknown
 * handle, -EINVAL for non-zero @pad.
 */
struct drm_vnpu_cmdbuf_destroy {
	/** @handle: in, the command buffer. */
	__u32 handle;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * DOC: virtual memory (UAPI 1.3)
 *
 * Besides the VAs the kernel gives every object, a context may manage
 * part of its address space itself, as CUDA's and ACL's virtual-memory
 * APIs do: it reserves a range of addresses (VM_RESERVE), creates
 * physical allocations (BO_CREATE with DRM_VNPU_BO_NO_VA) and maps whole
 * objects or page-aligned parts of them at chosen places in the range
 * (VM_MAP). Mappings may be adjacent: an access that runs from one
 * mapping into the next one of the same reservation is one contiguous
 * access for copies and operators, up to DRM_VNPU_PARAM_MEM_TOTAL bytes
 * long (a longer one across mappings is a DRM_VNPU_FAULT_BOUNDS fault).
 * An access that reaches an unmapped granule is a DRM_VNPU_FAULT_UNMAPPED
 * device page fault.
 *
 * Reservations come from [DRM_VNPU_VA_RESERVE_START, +
 * DRM_VNPU_VA_RANGE_SIZE) and are followed by an unmapped guard granule.
 * A mapping holds a reference to its object: closing the last handle of
 * a mapped object leaves the memory in place until it is unmapped.
 * Unmapping takes effect for every access translated afterwards; a job
 * that translated an address before keeps its pages until that task
 * ends, and its later tasks fault. Closing the file unmaps and releases
 * everything.
 */
/* Reservations per file. */
#define DRM_VNPU_VM_MAX_RESERVES	1024
/* Mappings per file, over all its reservations. */
#define DRM_VNPU_VM_MAX_MAPS		65536
/* Largest reservation. */
#define DRM_VNPU_VM_MAX_RESERVE_SIZE	(256ULL << 30)

/**
 * struct drm_vnpu_vm_reserve - reserve a range of device VAs
 *
 * Used with DRM_IOCTL_VNPU_VM_RESERVE. Errors: -EINVAL for a zero @size,
 * one above DRM_VNPU_VM_MAX_RESERVE_SIZE or not a multiple of the
 * granule, an @align that is neither 0 nor a power of two at least the
 * granule, a non-zero @va, @flags or @pad; -ENOSPC when the file has
 * DRM_VNPU_VM_MAX_RESERVES reservations or the range is full.
 */
struct drm_vnpu_vm_reserve {
	/** @size: in, bytes to reserve, a multiple of the granule. */
	__u64 size;
	/** @align: in, alignment of the start, 0 for the granule. */
	__u64 align;
	/** @va: in, must be 0; out, start of the reservation. */
	__u64 va;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_vm_release - give a reservation back
 *
 * Used with DRM_IOCTL_VNPU_VM_RELEASE. Errors: -EINVAL for non-zero
 * @flags or @pad; -ENOENT when no reservation of this file starts at @va;
 * -EBUSY while the reservation still has mappings (unmap them first).
 */
struct drm_vnpu_vm_release {
	/** @va: in, start of the reservation. */
	__u64 va;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_vnpu_vm_map - map part of a physical allocation
 *
 * Used with DRM_IOCTL_VNPU_VM_MAP: bytes [@offset, @offset + @size) of
 * object @handle appear at [@va, @va + @size). Errors: -EINVAL for
 * non-zero @flags, a zero @size, @va, @size or @offset not a multiple of
 * the granule, a range past the object's end, an object without
 * DRM_VNPU_BO_NO_VA, or a range not inside one reservation; -ENOENT for
 * an unknown @handle; -EBUSY when the range overlaps a mapping; -ENOSPC
 * when the file has DRM_VNPU_VM_MAX_MAPS mappings.
 */
struct drm_vnpu_vm_map {
	/** @va: in, where the mapping starts. */
	__u64 va;
	/** @size: in, bytes to map. */
	__u64 size;
	/** @offset: in, offset of the first byte in the object. */
	__u64 offset;
	/** @handle: in, GEM handle of a DRM_VNPU_BO_NO_VA object. */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
};

/**
 * struct drm_vnpu_vm_unmap - remove one mapping
 *
 * Used with DRM_IOCTL_VNPU_VM_UNMAP. The range must be exactly one
 * mapping as made by VM_MAP (mappings are never split). Errors: -EINVAL
 * for non-zero @flags or @pad; -ENOENT when no mapping starts at @va;
 * -EINVAL when @size is not that mapping's size.
 */
struct drm_vnpu_vm_unmap {
	/** @va: in, start of the mapping. */
	__u64 va;
	/** @size: in, its size. */
	__u64 size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/*
 * io_uring command passthrough: IORING_OP_URING_CMD on an accel file with
 * IORING_SETUP_SQE128 (a ring with 64-byte SQEs gets -EINVAL). sqe->cmd_op
 * selects the command and sqe->cmd carries its payload (80 bytes; the bytes
 * after a command's structure must be zero); cqe->res carries the result
 * (>= 0) or a negative errno. The payload is read once, when the command is
 * issued.
 *
 * Command numbers are encoded like ioctl numbers (_IOC direction, type
 * DRM_VNPU_URING_CMD_TYPE, number, payload size). A cmd_op of another type
 * or with an unknown number fails with -EOPNOTSUPP; a known number with the
 * wrong direction or size fails with -EINVAL.
 */
#define DRM_VNPU_URING_CMD_TYPE		'V'

/*
 * DRM_VNPU_URING_CMD_NOP: completes at once with cqe->res equal to the UAPI
 * version; the payload must be all zero. Lets user space check that the
 * passthrough path works before relying on it.
 */
#define DRM_VNPU_URING_CMD_NOP		_IO(DRM_VNPU_URING_CMD_TYPE, 0)

/*
 * DRM_VNPU_URING_CMD_SUBMIT: the payload is a &struct drm_vnpu_submit, as
 * for DRM_IOCTL_VNPU_SUBMIT, with @seq zero; the 8 bytes after it must be
 * zero. Validation, errors and effect are the ioctl's. On success
 * cqe->res is 0 and, on a ring set up with IORING_SETUP_CQE32,
 * cqe->big_cqe[0] is the job's sequence number in its queue (without CQE32
 * the sequence number is lost: read it from the queue's order of
 * submission). Back-pressure (a queue with queue_depth jobs in flight)
 * delays the completion instead of failing it.
 */
#define DRM_VNPU_URING_CMD_SUBMIT	_IOWR(DRM_VNPU_URING_CMD_TYPE, 1, \
					      struct drm_vnpu_submit)

/**
 * struct drm_vnpu_uring_wait - payload of DRM_VNPU_URING_CMD_WAIT
 *
 * The command completes once job @seq of queue @queue_id has ended, with
 * cqe->res the job's &enum drm_vnpu_job_state (never PENDING), at once for
 * a job that has already ended; on a CQE32 ring cqe->big_cqe[0] is the
 * job's sequence number (UAPI 1.6). With DRM_VNPU_URING_WAIT_LATEST, @seq
 * must be 0 and the job is the newest one submitted on the queue when the
 * WAIT is issued: linked (IOSQE_IO_LINK) after a SUBMIT to the same queue,
 * that SUBMIT's job unless another SUBMIT to the queue came in between, so
 * one io_uring_enter can submit a batch and wait for it. Errors (as
 * negative cqe->res): -ENOENT for an unknown queue; -EINVAL for @seq 0
 * (without LATEST), a @seq never submitted, LATEST with a non-zero @seq or
 * on a queue with no job yet, unknown @flags or a non-zero byte after the
 * structure; -ENODATA for a job that
 * ended too long ago for the queue's status history (as JOB_STATUS);
 * -ECANCELED when io_uring cancels the command (the ring is torn down or
 * its task exits). A queue destroyed while the wait is pending cancels its
 * unfinished jobs, and the wait completes with DRM_VNPU_JOB_CANCELLED.
 * Pending waits hold no lock and may be many.
 */
struct drm_vnpu_uring_wait {
	/** @queue_id: the queue. */
	__u32 queue_id;
	/** @flags: DRM_VNPU_URING_WAIT_* bits. */
	__u32 flags;
	/** @seq: the job's sequence number; 0 with LATEST. */
	__u64 seq;
};

/* Wait for the newest job of the queue (see &struct drm_vnpu_uring_wait). */
#define DRM_VNPU_URING_WAIT_LATEST	(1u << 0)
#define DRM_VNPU_URING_WAIT_FLAGS	DRM_VNPU_URING_WAIT_LATEST

/* DRM_VNPU_URING_CMD_WAIT: see &struct drm_vnpu_uring_wait. */
#define DRM_VNPU_URING_CMD_WAIT		_IOW(DRM_VNPU_URING_CMD_TYPE, 2, \
					     struct drm_vnpu_uring_wait)

/**
 * DOC: profiling (UAPI 1.8)
 *
 * A file turns profiling on with DRM_IOCTL_VNPU_PROF_CTL. From then on the
 * engines append one &struct drm_vnpu_prof_record to the file's ring for
 * every task of its jobs that ends (DRM_VNPU_PROF_TASKS) and one for every
 * job that leaves an engine (DRM_VNPU_PROF_JOBS). The ring is a buffer
 * object the call creates and returns a handle to; user space mmaps it
 * (BO_INFO's mmap offset) and reads it while the engines write it:
 *
 * - a &struct drm_vnpu_prof_ring header, then @capacity records;
 * - record number n (counting from 0 since the ring was made) lives at
 *   slot n % @capacity;
 * - the engines write @head (records written), user space writes @tail
 *   (records consumed); a record is readable once @head passed it (read
 *   @head with acquire semantics, then the records);
 * - when @head - @tail would exceed @capacity the record is dropped and
 *   @dropped counts it: an engine never waits for the reader. A @tail
 *   that is not within [@head - @capacity, @head] counts as @head (the
 *   ring is then considered empty and nothing is lost by the engines).
 *
 * Times are CLOCK_MONOTONIC nanoseconds, the clock of TIMESTAMP tasks.
 * With profiling off (the default, and after DRM_VNPU_PROF_DISABLE) the
 * engines record nothing.
 */

/* &drm_vnpu_prof_ctl.op */
#define DRM_VNPU_PROF_ENABLE		0	/* make the ring, start recording */
#define DRM_VNPU_PROF_DISABLE		1	/* stop recording, drop the ring */
#define DRM_VNPU_PROF_QUERY		2	/* read the state and counts */

/* &drm_vnpu_prof_ctl.flags: what ENABLE records. */
#define DRM_VNPU_PROF_TASKS		(1U << 0)
#define DRM_VNPU_PROF_JOBS		(1U << 1)
#define DRM_VNPU_PROF_ALL		(DRM_VNPU_PROF_TASKS | DRM_VNPU_PROF_JOBS)

/* Records a ring may hold: a power of two in this range. */
#define DRM_VNPU_PROF_MIN_RECORDS	64
#define DRM_VNPU_PROF_MAX_RECORDS	65536

/**
 * struct drm_vnpu_prof_ctl - turn profiling on or off for this file
 *
 * Used with DRM_IOCTL_VNPU_PROF_CTL.
 *
 * ENABLE: @flags is a non-empty set of DRM_VNPU_PROF_* bits, @records a
 * power of two in [DRM_VNPU_PROF_MIN_RECORDS, DRM_VNPU_PROF_MAX_RECORDS];
 * out: @handle of the ring object (page aligned size, counted against the
 * file's HOST memory), @size its size in bytes. -EBUSY when profiling is
 * already on for the file.
 *
 * DISABLE: @flags and @records zero. Recording stops before the call
 * returns; the kernel drops its reference to the ring, which lives on
 * while user space holds the handle or a mapping. -ENOENT when off.
 *
 * QUERY: @flags and @records zero; out: @flags (0 when off), @records,
 * @handle, @size, @written and @dropped of the current ring (zeros when
 * off).
 *
 * Every call: -EINVAL for an unknown @op, unknown flag bits, non-zero
 * @pad, or a field the op takes that is out of range or one it does not
 * take that is non-zero. Output fields change only on success.
 */
struct drm_vnpu_prof_ctl {
	/** @op: DRM_VNPU_PROF_ENABLE, _DISABLE or _QUERY. */
	__u32 op;
	/** @flags: in (ENABLE) or out (QUERY): DRM_VNPU_PROF_* bits. */
	__u32 flags;
	/** @records: in (ENABLE) or out (QUERY): the ring's capacity. */
	__u32 records;
	/** @handle: out: the ring's BO handle. */
	__u32 handle;
	/** @size: out: the ring object's size in bytes. */
	__u64 size;
	/** @written: out (QUERY): records written into the ring so far. */
	__u64 written;
	/** @dropped: out (QUERY): records dropped because it was full. */
	__u64 dropped;
	/** @pad: must be zero. */
	__u64 pad;
};

#define DRM_VNPU_PROF_MAGIC		0x464f5250	/* "PROF" */

/**
 * struct drm_vnpu_prof_ring - the header at offset 0 of a ring object
 *
 * The records follow at offset sizeof(struct drm_vnpu_prof_ring).
 */
struct drm_vnpu_prof_ring {
	/** @magic: DRM_VNPU_PROF_MAGIC. */
	__u32 magic;
	/** @record_size: sizeof(struct drm_vnpu_prof_record) of the driver. */
	__u32 record_size;
	/** @capacity: records the ring holds (a power of two). */
	__u32 capacity;
	/** @flags: what is recorded, DRM_VNPU_PROF_* bits. */
	__u32 flags;
	/** @head: written by the engines: records written so far. */
	__u64 head;
	/** @tail: written by user space: records consumed so far. */
	__u64 tail;
	/** @dropped: written by the engines: records lost to a full ring. */
	__u64 dropped;
	/** @reserved: zero. */
	__u64 reserved[3];
};

/* &drm_vnpu_prof_record.kind */
#define DRM_VNPU_PROF_KIND_TASK		1
#define DRM_VNPU_PROF_KIND_JOB		2

/**
 * struct drm_vnpu_prof_record - one task or job as an engine saw it (64 B)
 *
 * TASK records are written when a task ends (done or failed); a task
 * parked at a time slice's end and resumed later gets one record whose
 * @start_ns is when it first started and @parks how often it was parked.
 * JOB records are written when the job leaves the engine, after its
 * tasks' records.
 */
struct drm_vnpu_prof_record {
	/** @kind: DRM_VNPU_PROF_KIND_TASK or _JOB. */
	__u16 kind;
	/** @engine: the engine that ran it. */
	__u16 engine;
	/** @queue: the queue id the job was submitted to. */
	__u32 queue;
	/** @seq: the job's sequence number in its queue. */
	__u64 seq;
	/** @task: TASK: index of the task in the job; JOB: tasks it has. */
	__u32 task;
	/** @tag: TASK: the task's &drm_vnpu_task.tag; JOB: zero. */
	__u32 tag;
	/** @type: TASK: &enum drm_vnpu_task_type; JOB: zero. */
	__u16 type;
	/**
	 * @status: 0 when the task or job succeeded, else the positive
	 * errno it failed with (ENXIO fault, ETIME timeout, ...).
	 */
	__u16 status;
	/** @op: TASK of type KERNEL: the operator; else zero. */
	__u32 op;
	/** @start_ns: when the task (job) started on the engine. */
	__u64 start_ns;
	/** @end_ns: when it ended. */
	__u64 end_ns;
	union {
		/**
		 * @bytes: TASK: bytes it moved (COPY, COPY_2D and FILL:
		 * what they wrote; KERNEL: its tensors' spans).
		 */
		__u64 bytes;
		/** @submit_ns: JOB: when SUBMIT accepted it. */
		__u64 submit_ns;
	};
	/**
	 * @pieces: TASK of type KERNEL: pieces the operator was split into
	 * across engines (1 when it ran whole); JOB: slices it ran in.
	 */
	__u32 pieces;
	/** @parks: times the task (job) was parked for another file. */
	__u32 parks;
};

#if defined(__cplusplus)
}
#endif

#endif /* __UAPI_VNPU_ACCEL_H__ */
