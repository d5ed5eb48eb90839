/* SPDX-License-Identifier: MIT */
/*
 * Host callbacks on device memory semaphores.
 *
 * Each device has one host-placement BO of 64-bit slots the library maps.
 * A subscribed stream owns two slots: "ready" and "done". The N-th
 * aclrtLaunchCallback on the stream appends a WRITE_VALUE task storing N
 * in "ready" and, for ACL_CALLBACK_BLOCK, a WAIT_VALUE task holding the
 * stream until "done" >= N; the batch is flushed at once so the callback
 * can be reached without a sync. The subscribed thread's
 * aclrtProcessReport polls "ready", runs every callback up to it in
 * launch order and stores its number in "done".
 *
 * aclrtLaunchHostFunc uses the same machinery with a library thread as
 * the subscriber (one thread for the process; host functions always
 * block the stream).
 *
 * Media tasks (the DVPP codecs, cb_launch_media) run on a small pool of
 * "media CPU" threads: a stream's tasks in order, different streams'
 * at once. A media task can fail its job: "done" counts in steps of two,
 * 2N when the N-th task succeeded and 2N + 1 when it failed, and the
 * stream waits for done >= 2N and then for done == 2N with a timeout of
 * 1 ns, which a failure makes expire at once (the stream's next
 * synchronize reports ACL_ERROR_RT_AICPU_EXCEPTION, as for a failed AI
 * CPU node: core/aicpu_fail.c).
 *
 * One mutex (cb_mutex) guards the subscription list and the queued
 * callbacks; callbacks run without it. Order: cb_mutex before a stream's
 * lock; nothing is waited for while cb_mutex is held.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "../kmd/kmd.h"
#include "host_bo.h"
#include "rt_objects.h"

#define CB_BYTES (CB_SLOTS * sizeof(uint64_t))

/* Who serves a subscription. */
enum cb_kind {
	CB_REPORT,		/* a thread that calls aclrtProcessReport */
	CB_HOST_FUNC,		/* the library's host-function thread */
	CB_MEDIA,		/* the media pool */
};

/* Threads of the media pool: two channels decode at once on two cores. */
#define CB_MEDIA_THREADS 4

struct cb_rec {
	void (*fn)(void *);
	int (*mfn)(void *);	/* media tasks: 0, or the task failed */
	void *arg;
	uint64_t seq;
	struct cb_rec *next;
};

struct cb_sub {
	struct rt_stream *s;
	struct rt_device *dev;
	uint64_t tid;
	enum cb_kind kind;
	uint32_t slot;			/* ready = slot, done = slot + 1 */
	uint64_t launched;		/* callbacks launched so far */
	uint32_t running;		/* callbacks being run right now */
	struct cb_rec *head, *tail;
	struct cb_sub *next;
};

static pthread_mutex_t cb_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cond = PTHREAD_COND_INITIALIZER;	/* running, launches */
static struct cb_sub *subs;
static uint64_t hf_pending;		/* host functions queued */
static uint64_t media_pending;		/* media tasks queued */

/* Create the slot BO on first use. Called with dev->lock held. */
static int slots_map_locked(struct rt_device *dev)
{
	void *p;
	int ret;

	if (dev->cb_map)
		return 0;
	ret = host_bo_create(dev->fd, CB_BYTES, &dev->cb_handle,
			     &dev->cb_va, &p);
	if (!ret)
		dev->cb_map = p;
	return ret;
}

void cb_slots_release(struct rt_device *dev)
{
	if (!dev->cb_map)
		return;
	host_bo_destroy(dev->fd, dev->cb_handle, (void *)dev->cb_map,
			CB_BYTES);
	dev->cb_map = NULL;
	for (int i = 0; i < CB_SLOTS; i++)
		dev->cb_used[i] = 0;
}

static int slot_get(struct rt_device *dev, uint32_t *slot)
{
	int ret, i;

	pthread_mutex_lock(&dev->lock);
	ret = slots_map_locked(dev);
	for (i = 0; !ret && i < CB_SLOTS && dev->cb_used[i]; i += 2)
		;
	if (!ret && i >= CB_SLOTS)
		ret = -EBUSY;
	if (!ret) {
		dev->cb_used[i] = 1;
		__atomic_store_n(&dev->cb_map[i], 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&dev->cb_map[i + 1], 0, __ATOMIC_SEQ_CST);
		*slot = (uint32_t)i;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static void slot_put(struct rt_device *dev, uint32_t slot)
{
	pthread_mutex_lock(&dev->lock);
	dev->cb_used[slot] = 0;
	pthread_mutex_unlock(&dev->lock);
}

static struct cb_sub *find_locked(struct rt_stream *s, enum cb_kind kind)
{
	for (struct cb_sub *u = subs; u; u = u->next)
		if (u->s == s && u->kind == kind)
			return u;
	return NULL;
}

static int sub_new(uint64_t tid, struct rt_stream *s, enum cb_kind kind,
		   struct cb_sub **out)
{
	struct cb_sub *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return -ENOMEM;
	ret = slot_get(s->ctx->dev, &u->slot);
	if (ret) {
		free(u);
		return ret;
	}
	u->s = s;
	u->dev = s->ctx->dev;
	u->tid = tid;
	u->kind = kind;
	*out = u;
	return 0;
}

/*
 * -EEXIST: the stream already has a subscriber; -EMLINK: the thread serves
 * streams of another device.
 */
int cb_subscribe(uint64_t tid, struct rt_stream *s)
{
	struct cb_sub *u;
	int ret = 0;

	pthread_mutex_lock(&cb_mutex);
	if (find_locked(s, CB_REPORT))
		ret = -EEXIST;
	for (u = subs; !ret && u; u = u->next)
		if (u->kind == CB_REPORT && u->tid == tid && u->dev != s->ctx->dev)
			ret = -EMLINK;
	pthread_mutex_unlock(&cb_mutex);
	if (ret)
		return ret;
	ret = sub_new(tid, s, CB_REPORT, &u);
	if (ret)
		return ret;
	pthread_mutex_lock(&cb_mutex);
	if (find_locked(s, CB_REPORT)) {
		pthread_mutex_unlock(&cb_mutex);
		slot_put(u->dev, u->slot);
		free(u);
		return -EEXIST;
	}
	u->next = subs;
	subs = u;
	pthread_mutex_unlock(&cb_mutex);
	return 0;
}

/*
 * Take u off the list (cb_mutex held on entry, dropped on return): queued
 * callbacks are dropped, "done" is set so that no WAIT_VALUE of the stream
 * stays blocked, and the stream's work is waited for before the slots can
 * be reused.
 */
static void sub_remove_unlock(struct cb_sub *u, bool drain)
{
	struct cb_sub **pp;
	struct cb_rec *r;

	for (pp = &subs; *pp; pp = &(*pp)->next)
		if (*pp == u) {
			*pp = u->next;
			break;
		}
	while ((r = u->head)) {
		u->head = r->next;
		if (u->kind == CB_HOST_FUNC)
			hf_pending--;
		else if (u->kind == CB_MEDIA)
			media_pending--;
		free(r);
	}
	__atomic_store_n(&u->dev->cb_map[u->slot + 1], UINT64_MAX,
			 __ATOMIC_SEQ_CST);
	while (u->running)
		pthread_cond_wait(&cb_cond, &cb_mutex);
	pthread_mutex_unlock(&cb_mutex);
	if (drain)
		stream_drain(u->s);
	slot_put(u->dev, u->slot);
	free(u);
}

int cb_unsubscribe(uint64_t tid, struct rt_stream *s)
{
	struct cb_sub *u;

	pthread_mutex_lock(&cb_mutex);
	u = find_locked(s, CB_REPORT);
	if (!u || u->tid != tid) {
		pthread_mutex_unlock(&cb_mutex);
		return -ENOENT;
	}
	sub_remove_unlock(u, true);
	return 0;
}

/* The stream is going away (its work is done): drop its subscriptions. */
void cb_forget_stream(struct rt_stream *s)
{
	struct cb_sub *u;

	for (;;) {
		pthread_mutex_lock(&cb_mutex);
		u = find_locked(s, CB_REPORT);
		if (!u)
			u = find_locked(s, CB_HOST_FUNC);
		if (!u)
			u = find_locked(s, CB_MEDIA);
		if (!u) {
			pthread_mutex_unlock(&cb_mutex);
			return;
		}
		sub_remove_unlock(u, false);
	}
}

/* Queue the callback and its tasks. Called with cb_mutex held. */
/* The "done" number of the seq-th callback: media tasks count in twos. */
static uint64_t done_value(const struct cb_sub *u, uint64_t seq)
{
	return u->kind == CB_MEDIA ? 2 * seq : seq;
}

static int launch_locked(struct cb_sub *u, void (*fn)(void *),
			 int (*mfn)(void *), void *arg, bool block)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WRITE_VALUE };
	struct cb_rec *r = calloc(1, sizeof(*r));
	uint64_t seq = u->launched + 1;
	int ret;

	if (!r)
		return -ENOMEM;
	t.value.addr = u->dev->cb_va + 8ull * u->slot;
	t.value.value = seq;
	ret = stream_push(u->s, &t, NULL);
	if (!ret && block) {
		t = (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WAIT_VALUE };
		t.value.addr = u->dev->cb_va + 8ull * (u->slot + 1);
		t.value.value = done_value(u, seq);
		t.value.cond = DRM_VNPU_WAIT_GEQ;
		ret = stream_push(u->s, &t, NULL);
	}
	if (!ret && block && u->kind == CB_MEDIA) {
		/* a failed task left 2N + 1: this wait expires at once */
		t.value.cond = DRM_VNPU_WAIT_EQ;
		t.value.timeout_ns = 1;
		ret = stream_push(u->s, &t, NULL);
	}
	if (ret) {
		/* The write may be queued already: let it pass harmlessly. */
		u->launched = seq;
		__atomic_store_n(&u->dev->cb_map[u->slot + 1],
				 done_value(u, seq), __ATOMIC_SEQ_CST);
		free(r);
		return ret;
	}
	u->launched = seq;
	r->fn = fn;
	r->mfn = mfn;
	r->arg = arg;
	r->seq = seq;
	if (u->tail)
		u->tail->next = r;
	else
		u->head = r;
	u->tail = r;
	return 0;
}

/* -ENOLINK: the stream has no subscriber. */
int cb_launch(struct rt_stream *s, void (*fn)(void *), void *arg, bool block)
{
	struct cb_sub *u;
	int ret;

	pthread_mutex_lock(&cb_mutex);
	u = find_locked(s, CB_REPORT);
	ret = u ? launch_locked(u, fn, NULL, arg, block) : -ENOLINK;
	pthread_mutex_unlock(&cb_mutex);
	return ret ? ret : stream_flush(s);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void nap(uint32_t *us)
{
	struct timespec ts = { 0, (long)*us * 1000 };

	nanosleep(&ts, NULL);
	if (*us < 1000)
		*us *= 2;
}

/*
 * Run the ready callbacks of the subscriptions matching (tid, kind).
 * Called with cb_mutex held; returns with it held. *found tells whether
 * there is any such subscription.
 */
/* Callbacks this thread is running (copy_sync must not drain then). */
static __thread int in_callback;

bool cb_running_here(void)
{
	return in_callback > 0;
}

static int run_ready_locked(uint64_t tid, enum cb_kind kind, bool *found)
{
	int ran = 0;
	struct cb_sub *u;

again:
	*found = false;
	for (u = subs; u; u = u->next) {
		struct cb_rec *r = u->head;
		uint64_t ready, done;
		int failed = 0;

		if (u->kind != kind || (kind == CB_REPORT && u->tid != tid))
			continue;
		*found = true;
		/* a stream's media tasks run one at a time, in order */
		if (!r || (kind == CB_MEDIA && u->running))
			continue;
		ready = __atomic_load_n(&u->dev->cb_map[u->slot], __ATOMIC_ACQUIRE);
		if (r->seq > ready)
			continue;
		u->head = r->next;
		if (!u->head)
			u->tail = NULL;
		if (kind == CB_HOST_FUNC)
			hf_pending--;
		else if (kind == CB_MEDIA)
			media_pending--;
		u->running++;
		pthread_mutex_unlock(&cb_mutex);
		in_callback++;
		if (r->mfn)
			failed = r->mfn(r->arg) != 0;
		else
			r->fn(r->arg);
		in_callback--;
		if (failed)
			aicpu_fail_note(u->dev, u->s->queue_id, false);
		host_done_release();	/* before "done" lets the stream go on */
		pthread_mutex_lock(&cb_mutex);
		done = done_value(u, r->seq) + (failed ? 1 : 0);
		__atomic_store_n(&u->dev->cb_map[u->slot + 1], done,
				 __ATOMIC_RELEASE);
		u->running--;
		pthread_cond_broadcast(&cb_cond);
		free(r);
		ran++;
		goto again;	/* the list may have changed */
	}
	return ran;
}

/* -ENOLINK: the thread serves no stream; -ETIMEDOUT: nothing became ready. */
int cb_process(uint64_t tid, int32_t timeout_ms)
{
	int64_t end = timeout_ms < 0 ? INT64_MAX :
		      now_ns() + (int64_t)timeout_ms * 1000000LL;
	uint32_t us = 20;
	bool found;
	int ran;

	for (;;) {
		pthread_mutex_lock(&cb_mutex);
		ran = run_ready_locked(tid, CB_REPORT, &found);
		pthread_mutex_unlock(&cb_mutex);
		if (ran)
			return 0;
		if (!found)
			return -ENOLINK;
		if (now_ns() >= end)
			return -ETIMEDOUT;
		nap(&us);
	}
}

/* Callbacks queued for the threads of a kind (cb_mutex held). */
static uint64_t *pending_of(enum cb_kind kind)
{
	return kind == CB_MEDIA ? &media_pending : &hf_pending;
}

/*
 * A thread of the library's own (the host-function thread, the media
 * pool's): serves the subscriptions of its kind as long as the process
 * lives.
 */
static void *pool_thread(void *kind_arg)
{
	enum cb_kind kind = (enum cb_kind)(uintptr_t)kind_arg;
	uint64_t *pending = pending_of(kind);
	uint32_t us = 20;
	bool found;

	pthread_mutex_lock(&cb_mutex);
	for (;;) {
		while (!*pending) {
			pthread_cond_wait(&cb_cond, &cb_mutex);
			us = 20;
		}
		if (run_ready_locked(0, kind, &found)) {
			us = 20;
			continue;
		}
		pthread_mutex_unlock(&cb_mutex);
		nap(&us);
		pthread_mutex_lock(&cb_mutex);
	}
	return NULL;
}

/* Start n detached threads serving kind; -errno of the first failure. */
static int pool_start(enum cb_kind kind, int n)
{
	pthread_attr_t a;
	pthread_t t;
	int err = 0;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < n && !err; i++)
		err = -pthread_create(&t, &a, pool_thread, (void *)(uintptr_t)kind);
	pthread_attr_destroy(&a);
	return err;
}

/*
 * Queue fn (or mfn) on s for the library's threads of kind, making the
 * stream's subscription of that kind on first use.
 */
static int launch_pooled(struct rt_stream *s, enum cb_kind kind,
			 void (*fn)(void *), int (*mfn)(void *), void *arg)
{
	struct cb_sub *u, *n = NULL;
	int ret;

	pthread_mutex_lock(&cb_mutex);
	u = find_locked(s, kind);
	pthread_mutex_unlock(&cb_mutex);
	if (!u) {
		ret = sub_new(0, s, kind, &n);
		if (ret)
			return ret;
	}
	pthread_mutex_lock(&cb_mutex);
	u = find_locked(s, kind);
	if (!u && n) {
		n->next = subs;
		subs = u = n;
		n = NULL;
	}
	ret = launch_locked(u, fn, mfn, arg, true);
	if (!ret) {
		(*pending_of(kind))++;
		pthread_cond_broadcast(&cb_cond);
	}
	pthread_mutex_unlock(&cb_mutex);
	if (n) {
		slot_put(n->dev, n->slot);
		free(n);
	}
	return ret ? ret : stream_flush(s);
}

static pthread_once_t hf_once = PTHREAD_ONCE_INIT;
static int hf_err;

static void hf_start(void)
{
	hf_err = pool_start(CB_HOST_FUNC, 1);
}

int cb_launch_host_func(struct rt_stream *s, void (*fn)(void *), void *arg)
{
	pthread_once(&hf_once, hf_start);
	if (hf_err)
		return hf_err;
	return launch_pooled(s, CB_HOST_FUNC, fn, NULL, arg);
}

/*
 * Hand fn(arg) to the thread subscribed to s without a device task: the
 * record is queued and "ready" stored from here. For work the host
 * finishes on its own (video frames decoded on the media pool), which
 * has no place in the stream's order. -ENOLINK: no subscriber.
 */
int cb_post(struct rt_stream *s, void (*fn)(void *), void *arg)
{
	struct cb_rec *r = calloc(1, sizeof(*r));
	struct cb_sub *u;

	if (!r)
		return -ENOMEM;
	pthread_mutex_lock(&cb_mutex);
	u = find_locked(s, CB_REPORT);
	if (!u) {
		pthread_mutex_unlock(&cb_mutex);
		free(r);
		return -ENOLINK;
	}
	r->fn = fn;
	r->arg = arg;
	r->seq = ++u->launched;
	if (u->tail)
		u->tail->next = r;
	else
		u->head = r;
	u->tail = r;
	__atomic_store_n(&u->dev->cb_map[u->slot], r->seq, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cb_mutex);
	return 0;
}

/*
 * Wait until the subscriber of s has run every callback queued for it.
 * -ENOLINK: no subscriber; -ETIMEDOUT after timeout_ms (< 0: forever).
 */
int cb_wait_all_run(struct rt_stream *s, int32_t timeout_ms)
{
	int64_t end = timeout_ms < 0 ? INT64_MAX :
		      now_ns() + (int64_t)timeout_ms * 1000000LL;
	struct cb_sub *u;
	int ret = 0;

	pthread_mutex_lock(&cb_mutex);
	for (;;) {
		u = find_locked(s, CB_REPORT);
		if (!u) {
			ret = -ENOLINK;
			break;
		}
		if (!u->head && !u->running)
			break;
		if (now_ns() >= end) {
			ret = -ETIMEDOUT;
			break;
		}
		pthread_mutex_unlock(&cb_mutex);
		{
			uint32_t us = 200;

			nap(&us);
		}
		pthread_mutex_lock(&cb_mutex);
	}
	pthread_mutex_unlock(&cb_mutex);
	return ret;
}

static pthread_once_t media_once = PTHREAD_ONCE_INIT;
static int media_err;

static void media_start(void)
{
	media_err = pool_start(CB_MEDIA, CB_MEDIA_THREADS);
}

int cb_launch_media(struct rt_stream *s, int (*fn)(void *), void *arg)
{
	pthread_once(&media_once, media_start);
	if (media_err)
		return media_err;
	return launch_pooled(s, CB_MEDIA, NULL, fn, arg);
}

/* In a forked child: the parent's subscriptions and thread are gone. */
void cb_forget_after_fork(void)
{
	pthread_mutex_init(&cb_mutex, NULL);
	pthread_cond_init(&cb_cond, NULL);
	subs = NULL;
	hf_pending = 0;
	media_pending = 0;
	hf_once = (pthread_once_t)PTHREAD_ONCE_INIT;
	hf_err = 0;
	media_once = (pthread_once_t)PTHREAD_ONCE_INIT;
	media_err = 0;
}
