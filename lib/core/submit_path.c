/* SPDX-License-Identifier: MIT */
/*
 * How jobs reach the driver: DRM ioctls, or the driver's io_uring
 * commands. VNPU_SUBMIT=ioctl or =uring forces a path; unset (or "auto")
 * uses io_uring when the kernel allows it (kernel.io_uring_disabled, a
 * seccomp filter, an old driver) and ioctls otherwise.
 *
 * Callers describe work (SUBMIT requests, waits for jobs), one or a batch
 * at a time, and never see which path carried it. On io_uring a batch is
 * one io_uring_enter per 64 commands; a wait's result is how the job
 * ended, so the caller needs no JOB_STATUS call. On ioctls a batch is a
 * loop of single calls with the same results.
 *
 * Each thread has its own ring, made on first use: no lock on the hot
 * path, and a thread only ever waits for its own completions. When a
 * thread cannot make a ring (the sysctl changed, out of memory or fds),
 * its calls fall back to ioctls, unless io_uring was forced.
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
#include "prof_rt.h"
#include "acl/acl_prof.h"

#define RING_ENTRIES 128
/* Commands per io_uring_enter: a WAIT may bring a link-timeout SQE. */
#define CHUNK (RING_ENTRIES / 2)

static int wanted = SUBMIT_AUTO;

static _Thread_local struct kmd_ring *ring;
static _Thread_local int ring_err;	/* this thread could not make one */
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

	if (ring_gen == fork_gen) {
		*err = ring_err;
		return ring;
	}
	ring = NULL;	/* the parent's, in a forked child: leave it */
	pthread_once(&ring_once, key_init);
	ring_gen = fork_gen;
	ring_err = kmd_ring_create(RING_ENTRIES, &r);
	*err = ring_err;
	if (ring_err)
		return NULL;
	ring = r;
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
	dev->uring_latest = false;
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
		dev->uring_latest = caps & DRM_VNPU_CAP_URING_WAIT_LATEST;
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

bool submit_path_uses_uring(const struct rt_device *dev)
{
	return dev->uring;
}

/*
 * The ring this call uses, or NULL for ioctls: the device's choice, and
 * the fallback when this thread has no ring.
 */
static int call_ring(struct rt_device *dev, struct kmd_ring **r)
{
	int err = 0;

	*r = dev->uring ? thread_ring(&err) : NULL;
	if (!err)
		return 0;
	if (wanted == SUBMIT_URING) {
		core_detail("VNPU_SUBMIT=uring, but this thread cannot set up an io_uring: %s",
			    strerror(-err));
		return -EOPNOTSUPP;
	}
	return 0;
}

/* io_uring: up to CHUNK requests in one enter; how many succeeded. */
static int submit_chunk(struct kmd_ring *r, int fd, struct submit_req *reqs,
			unsigned int n, bool chain)
{
	struct kmd_ucmd cmds[CHUNK];
	int ret;

	for (unsigned int i = 0; i < n; i++) {
		cmds[i] = (struct kmd_ucmd){ .fd = fd,
					     .op = DRM_VNPU_URING_CMD_SUBMIT,
					     .link = chain, .timeout_ns = -1,
					     .submit = reqs[i].args };
		cmds[i].submit.seq = 0;
	}
	ret = kmd_ring_run(r, cmds, n);
	for (unsigned int i = 0; i < n; i++) {
		reqs[i].res = ret ? ret : cmds[i].res;
		if (!reqs[i].res)
			reqs[i].args.seq = cmds[i].seq;
	}
	return ret;
}

int submit_path_submit_batch(struct rt_device *dev, struct submit_req *reqs,
			     unsigned int n, bool chain)
{
	PROF_RUNTIME("Submit");
	struct kmd_ring *r;
	unsigned int i = 0;
	int ret = call_ring(dev, &r);

	if (ret)
		return ret;
	while (i < n) {
		unsigned int k = r ? (n - i < CHUNK ? n - i : CHUNK) : 1;
		bool failed = false;

		if (r)
			submit_chunk(r, dev->fd, reqs + i, k, chain);
		else
			reqs[i].res = kmd_submit_args(dev->fd, &reqs[i].args);
		for (unsigned int j = i; j < i + k; j++)
			failed |= reqs[j].res != 0;
		i += k;
		if (chain && failed)
			break;
	}
	for (; i < n; i++)
		reqs[i].res = -ECANCELED;
	return 0;
}

int submit_path_submit(struct rt_device *dev, struct drm_vnpu_submit *args)
{
	struct submit_req req = { .args = *args };
	int ret;

	if (!dev->uring) {	/* the common case without a copy */
		PROF_RUNTIME("Submit");

		return kmd_submit_args(dev->fd, args);
	}
	ret = submit_path_submit_batch(dev, &req, 1, false);
	if (!ret)
		ret = req.res;
	if (!ret)
		args->seq = req.args.seq;
	return ret;
}

bool submit_path_one_enter(struct rt_device *dev)
{
	struct kmd_ring *r;

	return dev->uring_latest && !call_ring(dev, &r) && r;
}

/*
 * Each entry: its SUBMIT linked to a WAIT for the newest job of its queue
 * (the kernel issues the WAIT once the SUBMIT has completed, so the WAIT
 * finds the SUBMIT's job: the caller holds the stream's lock, nobody else
 * submits to the queue in between), or only a WAIT for a known job.
 * Every WAIT has a link timeout for the deadline.
 */
int submit_path_sync_batch(struct rt_device *dev, struct submit_sync *x,
			   unsigned int n, int64_t deadline)
{
	PROF_RUNTIME("SubmitWait");
	struct kmd_ucmd cmds[2 * SYNC_BATCH_MAX];
	int64_t timeout = ns_until(deadline);
	unsigned int k = 0;
	struct kmd_ring *r;
	int ret = call_ring(dev, &r);

	if (!ret && (!r || !dev->uring_latest || n > SYNC_BATCH_MAX ||
		     deadline != INT64_MAX))
		ret = -EOPNOTSUPP;
	if (ret)
		return ret;
	for (unsigned int i = 0; i < n; i++) {
		if (x[i].submit) {
			cmds[k] = (struct kmd_ucmd){
				.fd = dev->fd, .op = DRM_VNPU_URING_CMD_SUBMIT,
				.link = true, .timeout_ns = -1,
				.submit = x[i].args };
			cmds[k++].submit.seq = 0;
		}
		cmds[k++] = (struct kmd_ucmd){
			.fd = dev->fd, .op = DRM_VNPU_URING_CMD_WAIT,
			.timeout_ns = timeout,
			.wait = { .queue_id = x[i].w.queue,
				  .seq = x[i].submit ? 0 : x[i].w.seq,
				  .flags = x[i].submit ?
					   DRM_VNPU_URING_WAIT_LATEST : 0 } };
	}
	ret = kmd_ring_run(r, cmds, k);
	if (ret)
		return ret;
	k = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct submit_wait *w = &x[i].w;
		struct kmd_ucmd *c;

		x[i].submit_res = 0;
		if (x[i].submit) {
			x[i].submit_res = cmds[k].res;
			x[i].args.seq = cmds[k++].seq;
		}
		c = &cmds[k++];
		if (x[i].submit_res) {
			/* Not queued; its WAIT was cancelled. */
			w->res = -ECANCELED;
			w->state = DRM_VNPU_JOB_PENDING;
			continue;
		}
		if (x[i].submit)
			w->seq = c->seq;
		w->res = c->res < 0 ? c->res : 0;
		w->state = c->res < 0 ? DRM_VNPU_JOB_PENDING : (uint32_t)c->res;
	}
	return 0;
}

/* io_uring: up to CHUNK waits in one enter. */
static void wait_chunk(struct kmd_ring *r, int fd, struct submit_wait *w,
		       unsigned int n, int64_t deadline)
{
	struct kmd_ucmd cmds[CHUNK];
	int ret;

	for (unsigned int i = 0; i < n; i++)
		cmds[i] = (struct kmd_ucmd){
			.fd = fd, .op = DRM_VNPU_URING_CMD_WAIT,
			.wait = { .queue_id = w[i].queue, .seq = w[i].seq },
			.timeout_ns = ns_until(deadline),
		};
	ret = kmd_ring_run(r, cmds, n);
	for (unsigned int i = 0; i < n; i++) {
		int res = ret ? ret : cmds[i].res;

		w[i].res = res < 0 ? res : 0;
		w[i].state = res < 0 ? DRM_VNPU_JOB_PENDING : (uint32_t)res;
	}
}

int submit_path_wait_batch(struct rt_device *dev, struct submit_wait *w,
			   unsigned int n, int64_t deadline)
{
	PROF_RUNTIME("Wait");
	struct kmd_ring *r;
	int ret = call_ring(dev, &r);

	if (ret)
		return ret;
	/*
	 * A wait with a deadline goes through ioctls: on 6.12 a link timeout
	 * cannot cancel a pending uring command (io_uring's cancel does not
	 * reach them), so the enter would wait for the job regardless.
	 */
	if (deadline != INT64_MAX)
		r = NULL;
	for (unsigned int i = 0; i < n; ) {
		unsigned int k = r ? (n - i < CHUNK ? n - i : CHUNK) : 1;

		if (r) {
			wait_chunk(r, dev->fd, w + i, k, deadline);
		} else {
			w[i].state = DRM_VNPU_JOB_PENDING;
			w[i].res = kmd_syncobj_wait(dev->fd, w[i].syncobj,
						    w[i].seq, deadline);
		}
		i += k;
	}
	return 0;
}

int submit_path_wait(struct rt_device *dev, uint32_t queue, uint32_t syncobj,
		     uint64_t seq, int64_t deadline, uint32_t *state)
{
	struct submit_wait w = { .queue = queue, .syncobj = syncobj,
				 .seq = seq, .state = DRM_VNPU_JOB_PENDING };
	int ret = submit_path_wait_batch(dev, &w, 1, deadline);

	*state = w.state;
	return ret ? ret : w.res;
}
