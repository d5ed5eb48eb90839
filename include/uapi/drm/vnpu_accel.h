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

#define DRM_IOCTL_VNPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VNPU_GET_PARAM, struct drm_vnpu_get_param)

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
};

/*
 * Capability bits of DRM_VNPU_PARAM_CAPABILITIES, index 0. A bit is set
 * when the driver implements the feature. Bits are never reused.
 */
/* The io_uring command passthrough (IORING_OP_URING_CMD) is available. */
#define DRM_VNPU_CAP_URING_CMD		(1ULL << 0)

/* All capability bits this header knows about. */
#define DRM_VNPU_CAP_KNOWN		(DRM_VNPU_CAP_URING_CMD)

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
