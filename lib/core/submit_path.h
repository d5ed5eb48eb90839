/* SPDX-License-Identifier: MIT */
/*
 * How jobs reach the driver (submit_path.c). The rest of core/ submits
 * and waits through these calls only; whether a call becomes ioctls or
 * io_uring commands, and the fallback between them, is decided here.
 */
#ifndef VNPU_CORE_SUBMIT_PATH_H
#define VNPU_CORE_SUBMIT_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <drm/vnpu_accel.h>

struct rt_device;

enum { SUBMIT_AUTO, SUBMIT_IOCTL, SUBMIT_URING };

/* Read VNPU_SUBMIT (at aclInit). */
void submit_path_configure(void);

/*
 * Choose a newly opened device's path. -EOPNOTSUPP, with a detail, when
 * io_uring is forced and not available.
 */
int submit_path_probe(struct rt_device *dev);

/* True when the device's jobs go through io_uring (for log messages). */
bool submit_path_uses_uring(const struct rt_device *dev);

/* One SUBMIT request of a batch and how it went. */
struct submit_req {
	struct drm_vnpu_submit args;	/* args.seq: the job's number, out */
	int res;			/* 0, -errno; -ECANCELED: not sent */
};

/* One wait of a batch: job seq of a queue (whose timeline is syncobj). */
struct submit_wait {
	uint32_t queue, syncobj;
	uint64_t seq;
	int res;			/* 0, -ETIME, or -errno */
	uint32_t state;			/* DRM_VNPU_JOB_*; PENDING: not known */
};

/* One SUBMIT; args->seq is set. */
int submit_path_submit(struct rt_device *dev, struct drm_vnpu_submit *args);

/*
 * Submit reqs[0..n) in order, each with its own result. With chain, a
 * request is only sent once every earlier one went through, and the first
 * failure leaves the rest -ECANCELED (a graph replay then resubmits from
 * there). Returns -errno only when none could be sent (no ring).
 */
int submit_path_submit_batch(struct rt_device *dev, struct submit_req *reqs,
			     unsigned int n, bool chain);

/*
 * Wait until job seq of a queue has ended or deadline (CLOCK_MONOTONIC
 * ns, INT64_MAX forever) passes (-ETIME). *state is how the job ended
 * when the path can tell for free (io_uring's WAIT), else PENDING.
 */
int submit_path_wait(struct rt_device *dev, uint32_t queue, uint32_t syncobj,
		     uint64_t seq, int64_t deadline, uint32_t *state);

/*
 * Can this thread send a SUBMIT and the WAIT for its job in one enter
 * (io_uring, and a driver whose WAIT takes LATEST)?
 */
bool submit_path_one_enter(struct rt_device *dev);

/* One entry of a sync batch: optionally a SUBMIT, then a wait. */
struct submit_sync {
	bool submit;			/* send args first, wait for its job */
	struct drm_vnpu_submit args;	/* args.seq: the job, out */
	int submit_res;			/* 0, or -errno: not queued */
	struct submit_wait w;		/* w.queue; w.seq in without submit */
};

#define SYNC_BATCH_MAX 16

/*
 * Up to SYNC_BATCH_MAX entries in one io_uring_enter: each SUBMIT linked
 * to a wait for the newest job of its queue (then w.seq is the job the
 * wait found), or a wait for job w.seq; one deadline. The caller makes
 * sure nothing else submits to those queues meanwhile and that waiting
 * with its locks held is safe. -EOPNOTSUPP: not possible (ioctls, an old
 * driver, no ring on this thread); other -errno: the enter failed.
 */
int submit_path_sync_batch(struct rt_device *dev, struct submit_sync *x,
			   unsigned int n, int64_t deadline);

/* The same for n jobs, with one deadline; each wait has its result. */
int submit_path_wait_batch(struct rt_device *dev, struct submit_wait *w,
			   unsigned int n, int64_t deadline);

#endif /* VNPU_CORE_SUBMIT_PATH_H */
