/* SPDX-License-Identifier: MIT */
/*
 * Devices: one open accel fd per device and process, opened by the first
 * aclrtSetDevice and closed when the last user (aclrtSetDevice reference
 * or explicit context) is gone. Every context of a device shares the fd,
 * so device VAs, BOs and syncobjs are valid across its contexts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../kmd/kmd.h"
#include "rt_objects.h"
#include "submit_path.h"
#include "runtime.h"
#include "log.h"
#include "vmm.h"
#include "lifecycle.h"

static pthread_mutex_t rt_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rt_device devs[VNPU_MAX_DEVICES];
static pthread_once_t devs_once = PTHREAD_ONCE_INIT;

static void devs_init(void)
{
	for (int i = 0; i < VNPU_MAX_DEVICES; i++) {
		devs[i].id = i;
		devs[i].fd = -1;
		pthread_mutex_init(&devs[i].lock, NULL);
		pthread_rwlock_init(&devs[i].streams_rw, NULL);
	}
}

void rt_lock(void)
{
	pthread_once(&devs_once, devs_init);
	pthread_mutex_lock(&rt_mutex);
}

void rt_unlock(void)
{
	pthread_mutex_unlock(&rt_mutex);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t deadline_ns(int32_t timeout_ms)
{
	if (timeout_ms < 0)
		return INT64_MAX;
	return now_ns() + (int64_t)timeout_ms * 1000000LL;
}

int64_t ns_until(int64_t deadline)
{
	int64_t now;

	if (deadline == INT64_MAX)
		return -1;
	now = now_ns();
	return deadline > now ? deadline - now : 0;
}

struct rt_device *device_by_id(int32_t id)
{
	if (id < 0 || id >= VNPU_MAX_DEVICES)
		return NULL;
	pthread_once(&devs_once, devs_init);
	return &devs[id];
}

/* Open the device's node if needed. Called with rt_lock held. */
int device_open_locked(struct rt_device *dev)
{
	char path[VNPU_PATH_MAX];
	uint64_t caps = 0;
	int ret;

	if (dev->fd >= 0)
		return 0;
	ret = runtime_device_path((uint32_t)dev->id, path, sizeof(path));
	if (ret)
		return ret;
	ret = kmd_open(path);
	if (ret < 0)
		return ret;
	dev->fd = ret;
	dev->open_gen++;
	ret = submit_path_probe(dev);
	if (ret) {
		kmd_close(dev->fd);
		dev->fd = -1;
		return ret;
	}
	/* Older drivers reject a non-zero task tag. */
	dev->prof_tags = !kmd_get_param(dev->fd, DRM_VNPU_PARAM_CAPABILITIES,
					0, &caps) &&
			 (caps & DRM_VNPU_CAP_PROFILE);
	rt_log(LOG_INFO, "device %d opened (%s), jobs via %s", dev->id, path,
	       submit_path_uses_uring(dev) ? "io_uring" : "ioctls");
	rt_lifecycle_device_open(dev->id, dev->fd);
	return 0;
}

/* Close the device once nobody uses it. Called with rt_lock held. */
void device_put_locked(struct rt_device *dev)
{
	if (dev->fd < 0 || dev->set_refs || dev->explicit_ctxs ||
	    dev->default_ctx)
		return;
	rt_lifecycle_device_close(dev->id, dev->fd);
	event_slots_release(dev);
	cb_slots_release(dev);
	notify_slots_release(dev);
	alloc_release_all(dev);
	vmm_release_dev(dev);
	kmd_close(dev->fd);
	dev->fd = -1;
}

int device_set(int32_t id)
{
	struct rt_device *dev;
	uint32_t count = 0;
	char why[8];
	int ret;

	ret = runtime_device_count(&count, why, sizeof(why));
	if (ret)
		return ret;
	if (id < 0 || (uint32_t)id >= count)
		return -ENODEV;
	dev = device_by_id(id);
	rt_lock();
	if (!dev->default_ctx) {
		ret = device_open_locked(dev);
		if (!ret)
			ret = context_create(dev, true, &dev->default_ctx);
		if (ret) {
			device_put_locked(dev);
			rt_unlock();
			return ret;
		}
	}
	dev->set_refs++;
	context_set_current_raw(dev->default_ctx);
	rt_unlock();
	return 0;
}

int device_reset(int32_t id, bool force)
{
	struct rt_device *dev;
	uint32_t count = 0;
	char why[8];
	int ret;

	ret = runtime_device_count(&count, why, sizeof(why));
	if (ret)
		return ret;
	if (id < 0 || (uint32_t)id >= count)
		return -ENODEV;
	dev = device_by_id(id);
	rt_lock();
	if (dev->set_refs)
		dev->set_refs = force ? 0 : dev->set_refs - 1;
	if (!dev->set_refs && dev->default_ctx) {
		/* Waits for the default context's streams (context.c). */
		context_destroy_locked(dev->default_ctx);
		dev->default_ctx = NULL;
	}
	device_put_locked(dev);
	rt_unlock();
	rt_log(LOG_INFO, "device %d reset%s", id, force ? " (force)" : "");
	return 0;
}

/*
 * In a forked child: the parent's devices are not ours. Their fds stay
 * open (closing is harmless but GEM_CLOSE on them would free the
 * parent's handles: the drm_file is shared); the table starts afresh.
 */
void device_forget_after_fork(void)
{
	pthread_mutex_init(&rt_mutex, NULL);
	pthread_once(&devs_once, devs_init);
	for (int i = 0; i < VNPU_MAX_DEVICES; i++) {
		memset(&devs[i], 0, sizeof(devs[i]));
		devs[i].id = i;
		devs[i].fd = -1;
		pthread_mutex_init(&devs[i].lock, NULL);
		pthread_rwlock_init(&devs[i].streams_rw, NULL);
	}
}

/* aclFinalize: drop every device as aclrtResetDeviceForce would. */
void device_reset_all(void)
{
	for (int i = 0; i < VNPU_MAX_DEVICES; i++) {
		struct rt_device *dev = device_by_id(i);

		rt_lock();
		dev->info_valid = false;	/* the module may change */
		dev->set_refs = 0;
		if (dev->default_ctx) {
			context_destroy_locked(dev->default_ctx);
			dev->default_ctx = NULL;
		}
		device_put_locked(dev);
		rt_unlock();
	}
}

/*
 * Every stream's pending batch as one submission batch (on io_uring one
 * io_uring_enter; the streams stay locked until the kernel has copied
 * their batches).
 */
static int flush_all(struct rt_device *dev, struct rt_stream **list, int n)
{
	struct submit_req reqs[256];
	struct rt_stream *who[256];
	int k = 0, ret = 0, r;

	for (int i = 0; i < n; i++)
		if (stream_batch_begin(list[i], &reqs[k].args))
			who[k++] = list[i];
	r = k ? submit_path_submit_batch(dev, reqs, (unsigned int)k, false) : 0;
	for (int i = 0; i < k; i++) {
		int e = stream_batch_end(who[i], r ? r : reqs[i].res,
					 reqs[i].args.seq);

		if (e && !ret)
			ret = e;
	}
	return ret;
}

/* Report each stream's result, as the ordinary path does. */
static int sync_results(struct rt_stream **who, struct submit_wait *w, int k,
			bool check)
{
	int ret = 0, r;

	for (int i = 0; i < k; i++) {
		r = w[i].res;
		if (r == -ETIME)
			r = -ETIMEDOUT;
		else if (!r && check)
			r = stream_check_job_state(who[i], w[i].seq, w[i].state);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

/*
 * The device sync in one io_uring_enter: every stream's pending batch
 * (SUBMIT linked to a WAIT for its job) and every other WAIT together.
 * The streams with a batch stay locked through the enter, as one stream's
 * sync does (stream.c), so it is only done when no job waited for may
 * wait for user space; and with few streams (one enter's worth). Returns
 * 1 when the caller must take the ordinary path.
 */
static int sync_one_enter(struct rt_device *dev, struct rt_stream **list,
			  int n, int64_t deadline, bool check)
{
	struct submit_sync x[SYNC_BATCH_MAX];
	struct rt_stream *who[256], *held[SYNC_BATCH_MAX];
	struct submit_wait w[256];
	int k = 0, nx = 0, nheld = 0, at[SYNC_BATCH_MAX], ret = 0, r;
	bool redo = false;
	uint64_t target;

	/* Timed waits go through ioctls (submit_path.c). */
	if (n > 256 || deadline != INT64_MAX || !submit_path_one_enter(dev))
		return 1;
	for (int i = 0; i < n; i++) {
		struct drm_vnpu_submit a;
		int plan = nx < SYNC_BATCH_MAX ?
			   stream_sync_plan(list[i], &a, &target) : SYNC_PLAN_USER;

		if (plan == SYNC_PLAN_SUBMIT && nx == SYNC_BATCH_MAX) {
			stream_unlock(list[i]);
			plan = SYNC_PLAN_USER;
		}
		if (plan == SYNC_PLAN_USER) {
			while (nheld)
				stream_unlock(held[--nheld]);
			return 1;
		}
		if (plan == SYNC_PLAN_NONE && !target)
			continue;
		w[k] = (struct submit_wait){ .queue = list[i]->queue_id,
					     .syncobj = list[i]->syncobj,
					     .seq = target,
					     .state = DRM_VNPU_JOB_OK };
		if (plan != SYNC_PLAN_NONE) {
			x[nx] = (struct submit_sync){
				.submit = plan == SYNC_PLAN_SUBMIT, .args = a,
				.w = w[k] };
			at[nx++] = k;
		}
		if (plan == SYNC_PLAN_SUBMIT)
			held[nheld++] = list[i];
		who[k++] = list[i];
	}
	r = nx ? submit_path_sync_batch(dev, x, (unsigned int)nx, deadline) : 0;
	for (int j = 0, h = 0; j < nx; j++) {
		if (!x[j].submit)
			continue;
		if (r)
			x[j].submit_res = r;
		/* A failed SUBMIT: the ordinary flush sorts it out. */
		if (stream_batch_end(held[h++], x[j].submit_res, x[j].args.seq) ||
		    x[j].submit_res || x[j].w.seq != x[j].args.seq)
			redo = true;
	}
	if (r || redo)
		return 1;	/* what did go through is waited for again */
	host_done_acquire();
	for (int j = 0; j < nx; j++)
		w[at[j]] = x[j].w;
	ret = sync_results(who, w, k, check);
	return ret;
}

/*
 * Flush every stream, then wait for all of their last jobs as one batch;
 * where the path tells how each job ended, the checks need no further
 * system call.
 */
static int flush_and_wait(struct rt_device *dev, struct rt_stream **list,
			  int n, int32_t timeout_ms, bool check)
{
	struct submit_wait w[256], pend[256];
	struct rt_stream *who[256];
	int64_t deadline = deadline_ns(timeout_ms);
	int ret, r, k = 0, np = 0, at[256];
	uint64_t target;

	ret = sync_one_enter(dev, list, n, deadline, check);
	if (ret <= 0)
		return ret;
	ret = flush_all(dev, list, n);

	for (int i = 0; i < n; i++) {
		r = stream_flush_target(list[i], &target);
		if (r && !ret)
			ret = r;
		if (r || !target)
			continue;
		w[k] = (struct submit_wait){ .queue = list[i]->queue_id,
					     .syncobj = list[i]->syncobj,
					     .seq = target,
					     .state = DRM_VNPU_JOB_OK };
		/*
		 * A job an earlier sync saw end well needs no WAIT (nor
		 * TIMELINE_WAIT): only the streams with new work are
		 * waited for.
		 */
		if (!stream_seen_done(list[i], target)) {
			at[np] = k;
			pend[np++] = w[k];
		}
		who[k++] = list[i];
	}
	r = np ? submit_path_wait_batch(dev, pend, (unsigned int)np, deadline) : 0;
	if (r)
		return ret ? ret : r;
	host_done_acquire();
	for (int j = 0; j < np; j++)
		w[at[j]] = pend[j];
	r = sync_results(who, w, k, check);
	return ret ? ret : r;
}

/*
 * The device's streams, up to 256, with dev->streams_rw held for reading
 * (the caller drops it): that keeps them alive while the caller takes
 * their locks, which nest outside dev->lock. *all: none left out.
 */
static int streams_snapshot(struct rt_device *dev, struct rt_stream **list,
			    bool *all)
{
	struct rt_stream *s;
	int n = 0;

	pthread_rwlock_rdlock(&dev->streams_rw);
	pthread_mutex_lock(&dev->lock);
	for (s = dev->streams; s && n < 256; s = s->next)
		list[n++] = s;
	*all = !s;
	pthread_mutex_unlock(&dev->lock);
	return n;
}

/*
 * Flush and wait for every stream of the device (aclrtSynchronizeDevice,
 * synchronous copies, aclrtFree). streams_rw keeps the streams picked
 * up alive meanwhile: other threads may destroy theirs at any time.
 */
static int device_each(struct rt_device *dev, int32_t timeout_ms, bool check)
{
	struct rt_stream *list[256];
	bool all;
	int n = streams_snapshot(dev, list, &all), ret;

	ret = flush_and_wait(dev, list, n, timeout_ms, check);
	pthread_rwlock_unlock(&dev->streams_rw);
	return ret;
}

int device_sync(struct rt_device *dev, int32_t timeout_ms)
{
	return device_each(dev, timeout_ms, true);
}

/*
 * Nothing pending and every submitted job known to have ended (a sync saw
 * it): a drain has nothing to wait for, and costs no system call.
 */
static bool device_quiet(struct rt_device *dev)
{
	struct rt_stream *s, *list[256];
	uint64_t gen = dev->work_gen;	/* before looking: see rt_objects.h */
	bool quiet;	/* more streams than listed: do not guess */
	int n;

	if (gen == dev->quiet_gen)
		return true;
	n = streams_snapshot(dev, list, &quiet);

	for (int i = 0; i < n && quiet; i++) {
		s = list[i];
		pthread_mutex_lock(&s->lock);
		quiet = !s->ntasks && !s->nsyncs && s->last_seq <= s->done_seq;
		pthread_mutex_unlock(&s->lock);
	}
	pthread_rwlock_unlock(&dev->streams_rw);
	if (quiet)
		dev->quiet_gen = gen;
	return quiet;
}

int device_drain(struct rt_device *dev)
{
	if (device_quiet(dev))
		return 0;
	return device_each(dev, -1, false);
}

int device_mem_info(struct rt_device *dev, uint64_t *free, uint64_t *total)
{
	int ret = kmd_get_param(dev->fd, DRM_VNPU_PARAM_MEM_FREE, 0, free);

	if (!ret)
		ret = kmd_get_param(dev->fd, DRM_VNPU_PARAM_MEM_TOTAL, 0, total);
	return ret;
}
