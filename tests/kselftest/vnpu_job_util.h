/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the job and scheduling suites (vnpu_sched_*_test,
 * vnpu_fair_test, ...): sleeping, task constructors, queues, job status
 * and registered user buffers. Includes vnpu_test_util.h.
 */
#ifndef VNPU_JOB_UTIL_H
#define VNPU_JOB_UTIL_H

/*
 * These suites' xioctl() restarts on EAGAIN as well as EINTR, as it always
 * has; the policy must be set before vnpu_test_util.h is first included.
 */
#ifdef VNPU_TEST_UTIL_H
#error "include vnpu_job_util.h before vnpu_test_util.h"
#endif
#define VNPU_XIOCTL_RESTART(err)	((err) == EINTR || (err) == EAGAIN)
#include "vnpu_test_util.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <drm/vnpu_accel.h>

static inline void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline struct drm_vnpu_task t_nop(void)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_NOP };

	return t;
}

static inline struct drm_vnpu_task t_spin(uint64_t ns)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_SPIN, .spin.ns = ns };

	return t;
}

static inline struct drm_vnpu_task t_ts(uint64_t va)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_TIMESTAMP,
				   .timestamp.dst = va };

	return t;
}

static inline struct drm_vnpu_task t_write(uint64_t va, uint64_t v)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WRITE_VALUE,
				   .value.addr = va, .value.value = v };

	return t;
}

static inline struct drm_vnpu_task t_wait(uint64_t va, uint64_t v,
					  uint32_t cond, uint64_t timeout_ns)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WAIT_VALUE,
				   .value.addr = va, .value.value = v,
				   .value.cond = cond,
				   .value.timeout_ns = timeout_ns };

	return t;
}

static inline struct drm_vnpu_task t_copy(uint64_t src, uint64_t dst,
					  uint64_t size)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_COPY, .copy.src = src,
				   .copy.dst = dst, .copy.size = size };

	return t;
}

static inline int queue_create(int fd, uint32_t prio, uint32_t *id,
			       uint32_t *syncobj)
{
	struct drm_vnpu_queue_create qc = { .priority = prio };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);

	if (!ret) {
		*id = qc.queue_id;
		if (syncobj)
			*syncobj = qc.syncobj;
	}
	return ret;
}

/* One SUBMIT of n tasks with an argument block (args may be NULL with 0). */
static inline int submit_args(int fd, uint32_t queue,
			      const struct drm_vnpu_task *t, uint32_t n,
			      const void *args, uint32_t args_size,
			      uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.queue_id = queue, .tasks = (uintptr_t)t, .task_count = n,
		.task_stride = sizeof(*t), .args = (uintptr_t)args,
		.args_size = args_size,
	};
	int ret = xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static inline int job_status(int fd, uint32_t queue, uint64_t seq,
			     struct drm_vnpu_job_status *st)
{
	memset(st, 0, sizeof(*st));
	st->queue_id = queue;
	st->seq = seq;
	return xioctl(fd, DRM_IOCTL_VNPU_JOB_STATUS, st);
}

/* The state of a job, or a negative errno from JOB_STATUS. */
static inline int job_state(int fd, uint32_t queue, uint64_t seq)
{
	struct drm_vnpu_job_status st;
	int ret = job_status(fd, queue, seq, &st);

	return ret ? ret : (int)st.state;
}

/* A page-aligned range of this process registered as a user BO. */
struct ubuf {
	volatile uint64_t *p;
	uint64_t va;
	uint32_t handle;
	size_t size;
};

static inline int ubuf_create(int fd, size_t size, struct ubuf *b)
{
	struct drm_vnpu_bo_create c = { .placement = DRM_VNPU_PLACEMENT_USER };
	void *p;
	int ret;

	size = (size + 4095) & ~(size_t)4095;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, 0, size);
	c.size = size;
	c.user_ptr = (uintptr_t)p;
	ret = xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c);
	if (ret) {
		munmap(p, size);
		return ret;
	}
	b->p = p;
	b->va = c.va;
	b->handle = c.handle;
	b->size = size;
	return 0;
}

static inline void ubuf_free(int fd, struct ubuf *b)
{
	struct drm_gem_close gc = { .handle = b->handle };

	if (!b->p)
		return;
	ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
	munmap((void *)b->p, b->size);
	b->p = NULL;
}

#endif /* VNPU_JOB_UTIL_H */
