/* SPDX-License-Identifier: MIT */
/*
 * Notifies: a 64-bit word per notify in one host BO per device, which the
 * library maps so the host can read and reset words too. Stream tasks do
 * the rest: a record is a WRITE_VALUE, a wait a WAIT_VALUE (optionally
 * followed by a WRITE_VALUE of 0), so they take effect in stream order
 * and, on a recording stream, become tasks of the graph.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "../kmd/kmd.h"
#include "rt_objects.h"

#define WORDS_BYTES (NOTIFY_SLOTS * sizeof(uint64_t))

/* Create the word BO on first use. Called with dev->lock held. */
static int words_map_locked(struct rt_device *dev)
{
	uint64_t off;
	void *p;
	int ret;

	if (dev->nt_map)
		return 0;
	ret = kmd_bo_create(dev->fd, WORDS_BYTES, DRM_VNPU_PLACEMENT_HOST,
			    &dev->nt_handle, &dev->nt_va);
	if (ret)
		return ret;
	ret = kmd_bo_info(dev->fd, dev->nt_handle, &off);
	if (!ret) {
		p = mmap(NULL, WORDS_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			 dev->fd, (off_t)off);
		if (p == MAP_FAILED)
			ret = -errno;
		else
			dev->nt_map = p;
	}
	if (ret)
		kmd_gem_close(dev->fd, dev->nt_handle);
	return ret;
}

void notify_slots_release(struct rt_device *dev)
{
	if (!dev->nt_map)
		return;
	munmap((void *)dev->nt_map, WORDS_BYTES);
	kmd_gem_close(dev->fd, dev->nt_handle);
	dev->nt_map = NULL;
	for (int i = 0; i < NOTIFY_SLOTS; i++)
		if (dev->nt_owner[i]) {
			dev->nt_owner[i]->dev = NULL;	/* device gone */
			dev->nt_owner[i] = NULL;
		}
}

static enum handle_kind kind_of(bool counting)
{
	return counting ? HANDLE_CNT_NOTIFY : HANDLE_NOTIFY;
}

int notify_create(bool counting, struct rt_notify **out)
{
	struct rt_context *ctx = context_current();
	struct rt_device *dev;
	struct rt_notify *n;
	int ret, i = 0;

	if (!ctx)
		return -ESRCH;
	dev = ctx->dev;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	pthread_mutex_lock(&dev->lock);
	ret = words_map_locked(dev);
	while (!ret && i < NOTIFY_SLOTS && dev->nt_owner[i])
		i++;
	if (!ret && i == NOTIFY_SLOTS)
		ret = -EBUSY;
	if (!ret) {
		dev->nt_owner[i] = n;
		dev->nt_map[i] = 0;	/* a new notify is not set */
	}
	pthread_mutex_unlock(&dev->lock);
	if (!ret && handle_add(kind_of(counting), n)) {
		pthread_mutex_lock(&dev->lock);
		dev->nt_owner[i] = NULL;
		pthread_mutex_unlock(&dev->lock);
		ret = -ENOMEM;
	}
	if (ret) {
		free(n);
		return ret;
	}
	n->magic = NOTIFY_MAGIC;
	n->counting = counting;
	n->dev = dev;
	n->slot = (uint32_t)i;
	*out = n;
	return 0;
}

/*
 * Tasks already queued keep writing the word's address: it stays mapped
 * in the BO, and a later notify taking the slot starts from 0 again.
 */
int notify_destroy(struct rt_notify *n)
{
	struct rt_device *dev = n->dev;

	if (!handle_remove(kind_of(n->counting), n))
		return -ENOENT;		/* destroyed already */
	if (dev) {
		pthread_mutex_lock(&dev->lock);
		if (dev->nt_owner[n->slot] == n)
			dev->nt_owner[n->slot] = NULL;
		pthread_mutex_unlock(&dev->lock);
	}
	n->magic = 0;
	free(n);
	return 0;
}

/* The word's device address; -ENODEV / -EXDEV for a wrong stream. */
static int word_va(struct rt_notify *n, struct rt_stream *s, __u64 *va)
{
	if (!n->dev)
		return -ENODEV;
	if (s->ctx->dev != n->dev)
		return -EXDEV;
	*va = n->dev->nt_va + n->slot * sizeof(uint64_t);
	return 0;
}

int notify_write(struct rt_notify *n, struct rt_stream *s, uint64_t value)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WRITE_VALUE };
	int ret = word_va(n, s, &t.value.addr);

	if (ret)
		return ret;
	t.value.value = value;
	ret = stream_push(s, &t, NULL);
	/* Someone may be waiting for it: submit now, not at the next sync. */
	return ret ? ret : stream_flush(s);
}

int notify_wait(struct rt_notify *n, struct rt_stream *s, uint32_t cond,
		uint64_t value, uint64_t timeout_ns, bool clear)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WAIT_VALUE };
	int ret = word_va(n, s, &t.value.addr);

	if (ret)
		return ret;
	t.value.value = value;
	t.value.cond = cond;
	t.value.timeout_ns = timeout_ns;
	ret = stream_push(s, &t, NULL);
	if (ret || !clear)
		return ret;
	t = (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WRITE_VALUE,
				    .value.addr = t.value.addr };
	return stream_push(s, &t, NULL);
}

int notify_host_reset(struct rt_notify *n)
{
	if (!n->dev)
		return -ENODEV;
	__atomic_store_n(&n->dev->nt_map[n->slot], 0, __ATOMIC_SEQ_CST);
	return 0;
}

uint64_t notify_host_value(struct rt_notify *n)
{
	return n->dev ? __atomic_load_n(&n->dev->nt_map[n->slot],
					__ATOMIC_SEQ_CST) : 0;
}
