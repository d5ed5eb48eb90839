/* SPDX-License-Identifier: MIT */
/*
 * The kernel's record rings (DRM_IOCTL_VNPU_PROF_CTL), one per open
 * device: turned on while anyone holds a sink on the device, mapped,
 * and drained into the sinks by a thread every DRAIN_MS while a ring is
 * on, and by prof_device_drain_all(). Documentation/profiling.md.
 *
 * Locks: rt_lock (core) before pd_lock. The device hooks run with
 * rt_lock held; the drain thread takes pd_lock only; sinks run under
 * pd_lock and may take a session's lock, nothing else of ours.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../core/log.h"
#include "../core/rt_objects.h"
#include "../kmd/kmd.h"
#include "prof_int.h"

#define MAX_SINKS 16
#define DRAIN_MS 20

struct sink {
	int id;			/* 0: free */
	prof_sink_fn fn;
	void *arg;
};

struct pdev {
	bool on;
	uint32_t handle;
	void *map;
	size_t size;
	struct drm_vnpu_prof_ring *hdr;
	const uint8_t *recs;
	uint32_t cap, rec_size, engines;
	uint64_t dropped_before;	/* by rings already gone */
	struct sink sinks[MAX_SINKS];
};

static pthread_mutex_t pd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pdev pdevs[PROF_MAX_DEVICES];
static struct sink all_sinks[MAX_SINKS];	/* on every device */
static int next_sink_id = 1;
static bool thread_up;

uint32_t prof_ring_records(void)
{
	const char *v = getenv("VNPU_PROF_RING_RECORDS");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return 16384;
	n = strtoul(v, &end, 10);
	if (*end || n < DRM_VNPU_PROF_MIN_RECORDS ||
	    n > DRM_VNPU_PROF_MAX_RECORDS || (n & (n - 1))) {
		rt_log(LOG_WARN,
		       "VNPU_PROF_RING_RECORDS=%s is not a power of two in [%u, %u]; using 16384",
		       v, DRM_VNPU_PROF_MIN_RECORDS, DRM_VNPU_PROF_MAX_RECORDS);
		return 16384;
	}
	return (uint32_t)n;
}

static bool has_sinks(const struct pdev *d)
{
	for (int i = 0; i < MAX_SINKS; i++)
		if (d->sinks[i].id)
			return true;
	return false;
}

/* Hand the ring's new records to d's sinks; pd_lock held. */
static void drain_one(int32_t id, struct pdev *d)
{
	struct prof_task_rec rec = { .device = id };
	uint64_t head, tail;
	size_t n = sizeof(rec.r) < d->rec_size ? sizeof(rec.r) : d->rec_size;

	if (!d->on)
		return;
	head = __atomic_load_n(&d->hdr->head, __ATOMIC_ACQUIRE);
	tail = d->hdr->tail;
	if (head - tail > d->cap)	/* cannot happen; stay in bounds */
		tail = head - d->cap;
	for (; tail < head; tail++) {
		memcpy(&rec.r, d->recs + (size_t)(tail & (d->cap - 1)) *
		       d->rec_size, n);
		for (int i = 0; i < MAX_SINKS; i++)
			if (d->sinks[i].id)
				d->sinks[i].fn(&rec, d->sinks[i].arg);
	}
	/* The slots are free once the records are copied out. */
	__atomic_store_n(&d->hdr->tail, head, __ATOMIC_RELEASE);
}

static void *drain_thread(void *unused)
{
	struct timespec ts = { 0, DRAIN_MS * 1000000L };
	sigset_t all;
	bool any;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		nanosleep(&ts, NULL);
		any = false;
		pthread_mutex_lock(&pd_lock);
		for (int i = 0; i < PROF_MAX_DEVICES; i++) {
			drain_one(i, &pdevs[i]);
			any |= pdevs[i].on;
		}
		if (!any)
			thread_up = false;
		pthread_mutex_unlock(&pd_lock);
		if (!any)
			return NULL;
		/* Keep the host buffer short as well. */
		prof_raw_drain_host();
	}
}

/* pd_lock held. */
static void thread_start_locked(void)
{
	pthread_attr_t a;
	pthread_t t;

	if (thread_up)
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (!pthread_create(&t, &a, drain_thread, NULL))
		thread_up = true;
	else
		rt_log(LOG_WARN, "no profiling drain thread: records are read at stop only");
	pthread_attr_destroy(&a);
}

/* Turn d's ring on with the device's fd; pd_lock held. */
static int ring_on(int32_t id, struct pdev *d, int fd)
{
	struct drm_vnpu_prof_ctl c = { .op = DRM_VNPU_PROF_ENABLE,
				       .flags = DRM_VNPU_PROF_ALL,
				       .records = prof_ring_records() };
	uint64_t off, engines = 0;
	void *m;
	int ret;

	if (d->on)
		return 0;
	ret = kmd_prof_ctl(fd, &c);
	if (ret)
		return ret;
	ret = kmd_bo_info(fd, c.handle, &off);
	m = ret ? MAP_FAILED : mmap(NULL, c.size, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, (off_t)off);
	if (m == MAP_FAILED) {
		ret = ret ? ret : -errno;
		goto off;
	}
	d->hdr = m;
	if (d->hdr->magic != DRM_VNPU_PROF_MAGIC || !d->hdr->capacity ||
	    (d->hdr->capacity & (d->hdr->capacity - 1)) ||
	    d->hdr->record_size < 8 ||
	    sizeof(*d->hdr) + (uint64_t)d->hdr->capacity *
	    d->hdr->record_size > c.size) {
		munmap(m, c.size);
		ret = -EPROTO;
		goto off;
	}
	if (kmd_get_param(fd, DRM_VNPU_PARAM_ENGINE_COUNT, 0, &engines))
		engines = 0;
	d->map = m;
	d->size = c.size;
	d->handle = c.handle;
	d->cap = d->hdr->capacity;
	d->rec_size = d->hdr->record_size;
	d->recs = (const uint8_t *)m + sizeof(*d->hdr);
	d->engines = (uint32_t)engines;
	d->on = true;
	thread_start_locked();
	return 0;
off:
	c = (struct drm_vnpu_prof_ctl){ .op = DRM_VNPU_PROF_DISABLE };
	kmd_prof_ctl(fd, &c);
	if (c.handle)
		kmd_gem_close(fd, c.handle);
	return ret;
}

/* Drain, then turn it off and let the ring go; pd_lock held. */
static void ring_off(int32_t id, struct pdev *d, int fd)
{
	struct drm_vnpu_prof_ctl c = { .op = DRM_VNPU_PROF_DISABLE };

	if (!d->on)
		return;
	if (fd >= 0)
		kmd_prof_ctl(fd, &c);	/* no more records after this */
	drain_one(id, d);
	d->dropped_before += __atomic_load_n(&d->hdr->dropped,
					     __ATOMIC_RELAXED);
	munmap(d->map, d->size);
	if (fd >= 0)
		kmd_gem_close(fd, d->handle);
	d->on = false;
	d->map = NULL;
	d->hdr = NULL;
}

static int add_sink(struct sink *tab, prof_sink_fn fn, void *arg, int id)
{
	for (int i = 0; i < MAX_SINKS; i++) {
		if (!tab[i].id) {
			tab[i] = (struct sink){ id, fn, arg };
			return id;
		}
	}
	return -ENOSPC;
}

/* The device's fd when open (rt_lock held), else -1; -EOPNOTSUPP. */
static int device_fd_locked(int32_t device)
{
	struct rt_device *dev = device_by_id(device);

	if (!dev || dev->fd < 0)
		return -1;
	if (!dev->prof_tags)
		return -EOPNOTSUPP;
	return dev->fd;
}

int prof_device_subscribe(int32_t device, prof_sink_fn fn, void *arg)
{
	struct pdev *d;
	int fd, ret;

	if (device < 0 || device >= PROF_MAX_DEVICES || !fn)
		return -EINVAL;
	d = &pdevs[device];
	rt_lock();
	fd = device_fd_locked(device);
	if (fd == -EOPNOTSUPP) {
		rt_unlock();
		return fd;
	}
	pthread_mutex_lock(&pd_lock);
	ret = add_sink(d->sinks, fn, arg, next_sink_id);
	if (ret > 0) {
		next_sink_id++;
		/* A closed device's ring goes on when it is opened. */
		if (fd >= 0) {
			int err = ring_on(device, d, fd);

			if (err) {
				for (int i = 0; i < MAX_SINKS; i++)
					if (d->sinks[i].id == ret)
						d->sinks[i].id = 0;
				ret = err;
			}
		}
	}
	pthread_mutex_unlock(&pd_lock);
	rt_unlock();
	if (ret < 0)
		rt_log(LOG_WARN, "device %d: profile ring not enabled: %s",
		       device, strerror(-ret));
	return ret;
}

/* Drop sinks matching (id) or (fn, arg) from d; off when none left. */
static void drop_sinks_locked(int32_t device, struct pdev *d, int id,
			      prof_sink_fn fn, void *arg, int fd)
{
	/* Records up to now still reach the one leaving. */
	drain_one(device, d);
	for (int i = 0; i < MAX_SINKS; i++) {
		struct sink *k = &d->sinks[i];

		if (k->id && (k->id == id || (!id && k->fn == fn &&
					      k->arg == arg)))
			k->id = 0;
	}
	if (!has_sinks(d))
		ring_off(device, d, fd);
}

void prof_device_unsubscribe(int32_t device, int sink_id)
{
	struct rt_device *dev;

	if (device < 0 || device >= PROF_MAX_DEVICES || sink_id <= 0)
		return;
	dev = device_by_id(device);
	rt_lock();
	pthread_mutex_lock(&pd_lock);
	drop_sinks_locked(device, &pdevs[device], sink_id, NULL, NULL,
			  dev->fd);
	pthread_mutex_unlock(&pd_lock);
	rt_unlock();
}

int prof_device_subscribe_all(prof_sink_fn fn, void *arg)
{
	int ret;

	rt_lock();
	pthread_mutex_lock(&pd_lock);
	ret = add_sink(all_sinks, fn, arg, next_sink_id++);
	for (int i = 0; ret > 0 && i < PROF_MAX_DEVICES; i++) {
		int fd = device_fd_locked(i);

		if (add_sink(pdevs[i].sinks, fn, arg, next_sink_id++) > 0 &&
		    fd >= 0 && ring_on(i, &pdevs[i], fd))
			rt_log(LOG_WARN, "device %d: profile ring not enabled", i);
	}
	pthread_mutex_unlock(&pd_lock);
	rt_unlock();
	return ret;
}

void prof_device_unsubscribe_all(prof_sink_fn fn, void *arg)
{
	rt_lock();
	pthread_mutex_lock(&pd_lock);
	for (int i = 0; i < MAX_SINKS; i++)
		if (all_sinks[i].fn == fn && all_sinks[i].arg == arg)
			all_sinks[i].id = 0;
	for (int i = 0; i < PROF_MAX_DEVICES; i++)
		drop_sinks_locked(i, &pdevs[i], 0, fn, arg,
				  device_by_id(i)->fd);
	pthread_mutex_unlock(&pd_lock);
	rt_unlock();
}

void prof_device_drain_all(void)
{
	pthread_mutex_lock(&pd_lock);
	for (int i = 0; i < PROF_MAX_DEVICES; i++)
		drain_one(i, &pdevs[i]);
	pthread_mutex_unlock(&pd_lock);
}

uint64_t prof_device_dropped(int32_t device)
{
	struct pdev *d;
	uint64_t n;

	if (device < 0 || device >= PROF_MAX_DEVICES)
		return 0;
	d = &pdevs[device];
	pthread_mutex_lock(&pd_lock);
	n = d->dropped_before;
	if (d->on)
		n += __atomic_load_n(&d->hdr->dropped, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&pd_lock);
	return n;
}

uint32_t prof_device_engines(int32_t device)
{
	uint32_t n;

	if (device < 0 || device >= PROF_MAX_DEVICES)
		return 0;
	pthread_mutex_lock(&pd_lock);
	n = pdevs[device].engines;
	pthread_mutex_unlock(&pd_lock);
	return n;
}

void prof_device_opened(int32_t id, int fd)
{
	struct pdev *d;
	struct rt_device *dev = device_by_id(id);

	if (id < 0 || id >= PROF_MAX_DEVICES || !dev->prof_tags)
		return;
	d = &pdevs[id];
	pthread_mutex_lock(&pd_lock);
	for (int i = 0; i < MAX_SINKS; i++) {
		bool have = false;

		if (!all_sinks[i].id)
			continue;
		for (int j = 0; j < MAX_SINKS; j++)
			have |= d->sinks[j].id && d->sinks[j].fn ==
				all_sinks[i].fn && d->sinks[j].arg ==
				all_sinks[i].arg;
		if (!have)
			add_sink(d->sinks, all_sinks[i].fn, all_sinks[i].arg,
				 next_sink_id++);
	}
	if (has_sinks(d) && ring_on(id, d, fd))
		rt_log(LOG_WARN, "device %d: profile ring not enabled", id);
	pthread_mutex_unlock(&pd_lock);
}

void prof_device_closing(int32_t id, int fd)
{
	if (id < 0 || id >= PROF_MAX_DEVICES)
		return;
	/* The sinks stay: the ring comes back if the device reopens. */
	pthread_mutex_lock(&pd_lock);
	ring_off(id, &pdevs[id], fd);
	pthread_mutex_unlock(&pd_lock);
}

void prof_device_after_fork(void)
{
	/* The child has no drain thread and its devices open afresh. */
	pthread_mutex_init(&pd_lock, NULL);
	memset(pdevs, 0, sizeof(pdevs));
	memset(all_sinks, 0, sizeof(all_sinks));
	thread_up = false;
}
