// SPDX-License-Identifier: MIT
/*
 * Device workspace of the cblas calls, one buffer per stream. A call's
 * intermediates (the product, alpha * P, beta * C, the sum) live there;
 * stream order runs the next call on that stream after the last one, so
 * the buffer is reused at once. Growing it waits for the stream first.
 * A destroyed stream was drained, so its buffer is idle and goes to the
 * next stream of its device; a closed device took its memory with it.
 * The hooks run under core's locks (rt_lock for a device close), so they
 * only touch atomics, never ws_lock.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "blas.h"
#include "../core/lifecycle.h"
#include "../core/rt_objects.h"

#define WS_SLOTS 64

struct ws_slot {
	_Atomic(const struct rt_stream *) s;	/* NULL: idle */
	_Atomic int32_t dev;			/* device id, -1: empty */
	_Atomic bool dead;			/* its device closed */
	struct rt_device *devp;
	void *ptr;
	size_t size;
};

static struct ws_slot slots[WS_SLOTS];
static pthread_mutex_t ws_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t ws_once = PTHREAD_ONCE_INIT;

static void ws_forget_stream(const struct rt_stream *s)
{
	for (int i = 0; i < WS_SLOTS; i++) {
		const struct rt_stream *want = s;

		atomic_compare_exchange_strong(&slots[i].s, &want, NULL);
	}
}

static void ws_device_close(int32_t id, int fd)
{
	(void)fd;
	for (int i = 0; i < WS_SLOTS; i++)
		if (atomic_load(&slots[i].dev) == id)
			atomic_store(&slots[i].dead, true);
}

static void ws_all_dead(void)
{
	for (int i = 0; i < WS_SLOTS; i++)
		if (atomic_load(&slots[i].dev) >= 0)
			atomic_store(&slots[i].dead, true);
}

static void ws_after_fork(void)
{
	pthread_mutex_init(&ws_lock, NULL);
	ws_all_dead();
}

static const struct rt_lifecycle ws_lc = {
	.name = "blas",
	.forget_stream = ws_forget_stream,
	.after_fork = ws_after_fork,
	.teardown = ws_all_dead,
	.device_close = ws_device_close,
};

static void ws_init(void)
{
	for (int i = 0; i < WS_SLOTS; i++)
		atomic_store(&slots[i].dev, -1);
	rt_lifecycle_register(&ws_lc);
}

/* Forget a slot whose memory went with its device. */
static void slot_clear(struct ws_slot *w)
{
	atomic_store(&w->s, NULL);
	w->ptr = NULL;
	w->size = 0;
	w->devp = NULL;
	atomic_store(&w->dead, false);
	atomic_store(&w->dev, -1);
}

/* The slot of s, an idle one of its device, or an empty one. */
static struct ws_slot *slot_pick(const struct rt_stream *s, int32_t id)
{
	struct ws_slot *idle = NULL, *empty = NULL;

	for (int i = 0; i < WS_SLOTS; i++) {
		struct ws_slot *w = &slots[i];

		if (atomic_load(&w->dead))
			slot_clear(w);
		if (atomic_load(&w->dev) < 0) {
			if (!empty)
				empty = w;
			continue;
		}
		if (atomic_load(&w->s) == s)
			return w;
		if (!idle && !atomic_load(&w->s) && atomic_load(&w->dev) == id)
			idle = w;
	}
	return idle ? idle : empty;
}

int blas_ws_get(struct rt_stream *s, size_t size, void **ws, bool *tmp)
{
	struct rt_device *dev = s->ctx->dev;
	struct ws_slot *w;
	int ret;

	pthread_once(&ws_once, ws_init);
	*tmp = false;
	pthread_mutex_lock(&ws_lock);
	w = slot_pick(s, dev->id);
	if (!w) {
		pthread_mutex_unlock(&ws_lock);
		*tmp = true;
		return alloc_device(dev, size, false, ws);
	}
	if (atomic_load(&w->dev) >= 0 && w->size < size) {
		/* the old buffer may still be read by queued work */
		if (atomic_load(&w->s) == s) {
			ret = stream_sync(s, -1);
			if (ret) {
				pthread_mutex_unlock(&ws_lock);
				return ret;
			}
		}
		alloc_free(w->devp, w->ptr);
		slot_clear(w);
	}
	if (atomic_load(&w->dev) < 0) {
		ret = alloc_device(dev, size, false, &w->ptr);
		if (ret) {
			w->ptr = NULL;
			pthread_mutex_unlock(&ws_lock);
			return ret;
		}
		w->size = size;
		w->devp = dev;
		atomic_store(&w->dev, dev->id);
	}
	atomic_store(&w->s, s);
	*ws = w->ptr;
	return 0;	/* ws_lock held until blas_ws_put */
}

int blas_ws_put(struct rt_stream *s, void *ws, bool tmp)
{
	int ret;

	if (!tmp) {
		pthread_mutex_unlock(&ws_lock);
		return 0;
	}
	ret = stream_sync(s, -1);
	alloc_free(s->ctx->dev, ws);
	return ret;
}
