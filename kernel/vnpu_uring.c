// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: io_uring command passthrough (IORING_OP_URING_CMD).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/io_uring/cmd.h>
#include <linux/string.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"

/* Size of the inline payload of a 128-byte SQE. */
#define VNPU_URING_PAYLOAD	80

static int vnpu_uring_nop(struct drm_device *drm, const void *payload)
{
	if (memchr_inv(payload, 0, VNPU_URING_PAYLOAD)) {
		drm_dbg(drm, "uring nop: payload must be zero\n");
		return -EINVAL;
	}
	return DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR);
}

/**
 * vnpu_uring_cmd() - the file's .uring_cmd
 * @cmd: the command; its SQE lives in the ring, which user space can write
 * @issue_flags: IO_URING_F_* flags
 *
 * Return: a result for the CQE, or -EIOCBQUEUED once commands complete
 * asynchronously.
 */
int vnpu_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	struct drm_file *file = cmd->file->private_data;
	u8 payload[VNPU_URING_PAYLOAD];

	/* The payload is needed in full: refuse 64-byte SQE rings. */
	if (!(issue_flags & IO_URING_F_SQE128))
		return -EINVAL;

	/* Read the shared SQE once, then only look at the copy. */
	memcpy(payload, io_uring_sqe_cmd(cmd->sqe), sizeof(payload));

	switch (cmd->cmd_op) {
	case DRM_VNPU_URING_CMD_NOP:
		return vnpu_uring_nop(file->minor->dev, payload);
	default:
		return -EOPNOTSUPP;
	}
}
