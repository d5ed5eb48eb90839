/* SPDX-License-Identifier: MIT */
/*
 * How jobs reach the driver: DRM ioctls, or the driver's io_uring
 * commands. VNPU_SUBMIT=ioctl or =uring forces a path; unset (or "auto")
 * uses io_uring when the kernel allows it (kernel.io_uring_disabled, a
 * seccomp filter, an old driver) and ioctls otherwise.
 *
 * Each thread has its own ring, made on first use: no lock on the hot
 * path, and a thread only ever waits for its own completions. On io_uring
 * a stream sync is SUBMIT + WAIT (the WAIT's result is the job's state, so
 * no JOB_STATUS call follows), a device sync puts every stream's SUBMIT
 * and WAIT in one io_uring_enter, and a graph replay submits all of its
 * command buffers, chained in order, with one io_uring_enter.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kmd/kmd.h"
#include "log.h"
#include "rt_objects.h"
#include "submit_path.h"

#define RING_ENTRIES 128

static int wanted = SUBMIT_AUTO;

static _Thread_local struct kmd_ring *ring;
static _Thread_local unsigned int ring_gen;
/* Bumped in a forked child: rings made before belong to the parent. */
static unsigned int fork_gen = 1;
static pthread_key_t ring_key;
static pthread_once_t ring_once = PTHREAD_ONCE_INIT;

static void ring_free(void *r)
{
	kmd_ring_destroy(r);
}

static void after_fork_child(void)
{
	fork_gen++;
}

static void key_init(void)
{
	pthread_key_create(&ring_key, ring_free);
	pthread_atfork(NULL, NULL, after_fork_child);
}

void submit_path_configure(void)
{
	const char *env = getenv("VNPU_SUBMIT");

	wanted = SUBMIT_AUTO;
	if (!env || !*env || !strcmp(env, "auto"))
		return;
	if (!strcmp(env, "ioctl"))
		wanted = SUBMIT_IOCTL;
	else if (!strcmp(env, "uring"))
		wanted = SUBMIT_URING;
	else
		log_msg(LOG_WARN, __func__,
			"VNPU_SUBMIT=%s is not ioctl, uring or auto: using auto",
			env);
}

/* The calling thread's ring; a forked child makes its own. */
static struct kmd_ring *thread_ring(int *err)
{
	struct kmd_ring *r;

	if (ring && ring_gen == fork_gen)
		return ring;
	ring = NULL;	/* the parent's, in a forked child: leave it */
	pthread_once(&ring_once, key_init);
	*err = kmd_ring_create(RING_ENTRIES, &r);
	if (*err)
		return NULL;
	ring = r;
	ring_gen = fork_gen;
	pthread_setspecific(ring_key, r);
	return r;
}

int submit_path_probe(struct rt_device *dev)
{
	struct kmd_ucmd nop = { .fd = dev->fd, .op = DRM_VNPU_URING_CMD_NOP,
				.timeout_ns = -1 };
	struct kmd_ring *r;
	uint64_t caps = 0;
	int ret = 0;

	dev->uring = false;
	if (wanted == SUBMIT_IOCTL)
		return 0;
	if (kmd_get_param(dev->fd, DRM_VNPU_PARAM_CAPABILITIES, 0, &caps) ||
	    !(caps & DRM_VNPU_CAP_URING_SUBMIT))
		ret = -EOPNOTSUPP;
	r = ret ? NULL : thread_ring(&ret);
	if (r)
		ret = kmd_ring_run(r, &nop, 1);
	if (!ret && nop.res < 0)
		ret = nop.res;
	if (!ret) {
		dev->uring = true;
		return 0;
	}
	if (wanted == SUBMIT_URING) {
		core_detail("VNPU_SUBMIT=uring, but io_uring submission is not available: %s (check kernel.io_uring_disabled)",
			    strerror(-ret));
		return -EOPNOTSUPP;
	}
	log_msg(LOG_INFO, __func__, "io_uring not available (%s): using ioctls",
		strerror(-ret));
	return 0;
}

int submit_run(struct rt_device *dev, struct kmd_ucmd *cmds, unsigned int n)
{
	struct kmd_ring *r;
	int ret = 0;

	r = thread_ring(&ret);
	if (!r)
		return ret;
	for (unsigned int i = 0; i < n; i++)
		cmds[i].fd = dev->fd;
	return kmd_ring_run(r, cmds, n);
}

int submit_job(struct rt_device *dev, struct drm_vnpu_submit *args)
{
	struct kmd_ucmd c = { .op = DRM_VNPU_URING_CMD_SUBMIT, .timeout_ns = -1 };
	int ret;

	if (!dev->uring)
		return kmd_submit_args(dev->fd, args);
	c.submit = *args;
	c.submit.seq = 0;
	ret = submit_run(dev, &c, 1);
	if (!ret)
		ret = c.res;
	if (!ret)
		args->seq = c.seq;
	return ret;
}

int submit_wait_job(struct rt_device *dev, uint32_t queue, uint32_t syncobj,
		    uint64_t seq, int64_t deadline, uint32_t *state)
{
	struct kmd_ucmd c = { .op = DRM_VNPU_URING_CMD_WAIT };
	int ret;

	*state = DRM_VNPU_JOB_PENDING;	/* unknown on the ioctl path */
	if (!dev->uring)
		return kmd_syncobj_wait(dev->fd, syncobj, seq, deadline);
	c.wait.queue_id = queue;
	c.wait.seq = seq;
	c.timeout_ns = ns_until(deadline);
	ret = submit_run(dev, &c, 1);
	if (ret)
		return ret;
	if (c.res < 0)
		return c.res;
	*state = (uint32_t)c.res;
	return 0;
}
