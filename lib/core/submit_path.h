/* SPDX-License-Identifier: MIT */
/* How jobs reach the driver: ioctls or io_uring (submit_path.c). */
#ifndef VNPU_CORE_SUBMIT_PATH_H
#define VNPU_CORE_SUBMIT_PATH_H

#include <stdint.h>

#include "../kmd/kmd.h"

struct rt_device;

enum { SUBMIT_AUTO, SUBMIT_IOCTL, SUBMIT_URING };

/* Read VNPU_SUBMIT (at aclInit). */
void submit_path_configure(void);

/*
 * Choose a newly opened device's path (dev->uring). -EOPNOTSUPP, with a
 * detail, when io_uring is forced and not available.
 */
int submit_path_probe(struct rt_device *dev);

/* One SUBMIT; args->seq is set. */
int submit_job(struct rt_device *dev, struct drm_vnpu_submit *args);

/*
 * Wait until job seq of a queue has ended or deadline (CLOCK_MONOTONIC
 * ns, INT64_MAX forever) passes (-ETIME). On io_uring *state is the job's
 * state; on the ioctl path it is DRM_VNPU_JOB_PENDING (not known).
 */
int submit_wait_job(struct rt_device *dev, uint32_t queue, uint32_t syncobj,
		    uint64_t seq, int64_t deadline, uint32_t *state);

/* io_uring only: run commands (their fd is filled in) in one enter. */
int submit_run(struct rt_device *dev, struct kmd_ucmd *cmds, unsigned int n);

#endif /* VNPU_CORE_SUBMIT_PATH_H */
