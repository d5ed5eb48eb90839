/* SPDX-License-Identifier: MIT */
/*
 * Events: recording appends a TIMESTAMP task writing the device time into
 * the event's 8-byte slot of a per-device host BO the library also maps,
 * and remembers (stream, job that carries the task). The event is
 * complete when the stream's timeline reaches that job; another stream
 * waits for it with an in-sync on that timeline point.
 */
#include <errno.h>
#include <stdlib.h>

#include "acl/acl_rt.h"
#include "../kmd/kmd.h"
#include "host_bo.h"
#include "graph.h"
#include "submit_path.h"
#include "rt_objects.h"

#define SLOTS_BYTES (EVENT_SLOTS * sizeof(uint64_t))

/* Create the slot BO on first use. Called with dev->lock held. */
static int slots_map_locked(struct rt_device *dev)
{
	void *p;
	int ret;

	if (dev->ev_map)
		return 0;
	ret = host_bo_create(dev->fd, SLOTS_BYTES, &dev->ev_handle,
			     &dev->ev_va, &p);
	if (!ret)
		dev->ev_map = p;
	return ret;
}

void event_slots_release(struct rt_device *dev)
{
	if (!dev->ev_map)
		return;
	host_bo_destroy(dev->fd, dev->ev_handle, (void *)dev->ev_map,
			SLOTS_BYTES);
	dev->ev_map = NULL;
	for (int i = 0; i < EVENT_SLOTS; i++)
		if (dev->ev_owner[i])
			dev->ev_owner[i]->dev = NULL;	/* device gone */
}

int event_create(uint32_t flags, struct rt_event **out)
{
	struct rt_context *ctx = context_current();
	struct rt_device *dev;
	struct rt_event *ev;
	int ret, i;

	if (!ctx)
		return -ESRCH;
	dev = ctx->dev;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	pthread_mutex_lock(&dev->lock);
	ret = slots_map_locked(dev);
	for (i = 0; !ret && i < EVENT_SLOTS && dev->ev_owner[i]; i++)
		;
	if (!ret && i == EVENT_SLOTS)
		ret = -EBUSY;
	if (!ret) {
		/* Complete before event_forget_stream can find it there. */
		ev->magic = EVENT_MAGIC;
		ev->flags = flags;
		ev->dev = dev;
		ev->slot = (uint32_t)i;
		/* An external event's slot is its flag too: not set yet. */
		if (flags & ACL_EVENT_EXTERNAL)
			dev->ev_map[i] = 0;
		pthread_mutex_init(&ev->lock, NULL);
		dev->ev_owner[i] = ev;
	}
	pthread_mutex_unlock(&dev->lock);
	/* Live only once initialised (a stale handle may be looked up). */
	if (!ret && handle_add(HANDLE_EVENT, ev)) {
		pthread_mutex_lock(&dev->lock);
		dev->ev_owner[i] = NULL;
		pthread_mutex_unlock(&dev->lock);
		pthread_mutex_destroy(&ev->lock);
		ret = -ENOMEM;
	}
	if (ret) {
		free(ev);
		return ret;
	}
	*out = ev;
	return 0;
}

int event_destroy(struct rt_event *ev)
{
	struct rt_device *dev = ev->dev;

	if (!handle_remove(HANDLE_EVENT, ev))
		return -ENOENT;		/* destroyed already */
	if (dev) {
		pthread_mutex_lock(&dev->lock);
		dev->ev_owner[ev->slot] = NULL;
		pthread_mutex_unlock(&dev->lock);
	}
	ev->magic = 0;
	pthread_mutex_destroy(&ev->lock);
	free(ev);
	return 0;
}

/* A destroyed stream finished all its work: its events are complete. */
void event_forget_stream(struct rt_stream *s)
{
	struct rt_device *dev = s->ctx->dev;

	pthread_mutex_lock(&dev->lock);
	for (int i = 0; i < EVENT_SLOTS; i++) {
		struct rt_event *ev = dev->ev_owner[i];

		if (!ev)
			continue;
		pthread_mutex_lock(&ev->lock);	/* event_target reads it */
		if (ev->stream == s)
			ev->stream = NULL;
		pthread_mutex_unlock(&ev->lock);
	}
	pthread_mutex_unlock(&dev->lock);
}

/* The records of s after job seq were dropped (stream_abort). */
void event_forget_after(struct rt_stream *s, uint64_t seq)
{
	struct rt_device *dev = s->ctx->dev;

	pthread_mutex_lock(&dev->lock);
	for (int i = 0; i < EVENT_SLOTS; i++) {
		struct rt_event *ev = dev->ev_owner[i];

		if (!ev)
			continue;
		pthread_mutex_lock(&ev->lock);
		if (ev->stream == s && ev->seq > seq) {
			ev->recorded = false;
			ev->stream = NULL;
		}
		pthread_mutex_unlock(&ev->lock);
	}
	pthread_mutex_unlock(&dev->lock);
}

uint32_t event_slots_used(struct rt_device *dev)
{
	uint32_t n = 0;

	pthread_mutex_lock(&dev->lock);
	for (int i = 0; i < EVENT_SLOTS; i++)
		n += dev->ev_owner[i] != NULL;
	pthread_mutex_unlock(&dev->lock);
	return n;
}

int event_record(struct rt_event *ev, struct rt_stream *s)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_TIMESTAMP };
	uint64_t seq, prev;
	int ret;

	if (!ev->dev)
		return -ENODEV;
	if (s->ctx->dev != ev->dev)
		return -EXDEV;
	t.timestamp.dst = ev->dev->ev_va + ev->slot * sizeof(uint64_t);
	if (s == s->ctx->default_stream && graph_event_in_capture(ev))
		return -CAPERR_IMPLICIT;
	pthread_mutex_lock(&s->lock);
	if (s->graph) {
		ret = graph_record_event_locked(s, ev, &t);
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	pthread_mutex_unlock(&s->lock);
	/* Before the new record writes it: event_wait_timeout waits past it. */
	prev = ev->dev->ev_map[ev->slot];
	ret = stream_push(s, &t, &seq);
	if (!ret && (ev->flags & ACL_EVENT_EXTERNAL)) {
		/* A device wait may be polling for it: submit it now. */
		pthread_mutex_lock(&s->lock);
		ret = stream_flush_locked(s);
		pthread_mutex_unlock(&s->lock);
	}
	if (ret)
		return ret;
	pthread_mutex_lock(&ev->lock);
	ev->ts_prev = prev;
	ev->cap_graph = NULL;
	ev->recorded = true;
	ev->stream = s;
	ev->seq = seq;
	pthread_mutex_unlock(&ev->lock);
	return 0;
}

/*
 * An ACL_EVENT_EXTERNAL event is also a flag in device memory, as on
 * CANN's devices: its record's timestamp sets the slot, a reset on a
 * stream clears it in stream order, and a wait captured into a graph
 * waits on the device until it is set. So a replay blocked on such an
 * event runs on when the event is recorded after the replay was
 * submitted (what a task group update synchronises with), and the
 * captured reset makes the next replay wait for the next record.
 */
static uint64_t ext_flag_va(const struct rt_event *ev)
{
	return ev->dev->ev_va + ev->slot * sizeof(uint64_t);
}

int event_reset_on(struct rt_event *ev, struct rt_stream *s)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WRITE_VALUE };
	int ret;

	if (!(ev->flags & ACL_EVENT_EXTERNAL) || !ev->dev)
		return event_reset(ev);
	if (s->ctx->dev != ev->dev)
		return -EXDEV;
	t.value.addr = ext_flag_va(ev);
	ret = stream_push(s, &t, NULL);
	if (!ret && !graph_stream_records(s))
		event_reset(ev);
	return ret;
}

/* A capturing stream's wait for an external event: a device wait. */
static int ext_wait_captured(struct rt_stream *s, struct rt_event *ev)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WAIT_VALUE };

	t.value.addr = ext_flag_va(ev);
	t.value.value = ~0ULL;
	t.value.cond = DRM_VNPU_WAIT_AND;	/* any bit: recorded */
	return stream_push(s, &t, NULL);
}

int event_reset(struct rt_event *ev)
{
	pthread_mutex_lock(&ev->lock);
	ev->recorded = false;
	ev->stream = NULL;
	pthread_mutex_unlock(&ev->lock);
	return 0;
}

/*
 * The event's (stream, job), with the job submitted: a record still in
 * the pending batch is flushed, or polling would never see it complete.
 * Returns 1 when there is nothing to wait for.
 */
static int event_target(struct rt_event *ev, struct rt_stream **s,
			uint64_t *seq)
{
	pthread_mutex_lock(&ev->lock);
	*s = ev->recorded ? ev->stream : NULL;
	*seq = ev->seq;
	pthread_mutex_unlock(&ev->lock);
	if (!*s)
		return 1;
	/* last_seq belongs to the stream's lock: let the stream look. */
	return stream_flush_to(*s, *seq);
}

/*
 * Keep the streams an event names alive while it is used: stream_destroy
 * takes streams_rw for writing before freeing one.
 */
static struct rt_device *streams_hold(struct rt_event *ev)
{
	struct rt_device *dev = ev->dev;

	if (dev)
		pthread_rwlock_rdlock(&dev->streams_rw);
	return dev;
}

static void streams_release(struct rt_device *dev)
{
	if (dev)
		pthread_rwlock_unlock(&dev->streams_rw);
}

static int query_held(struct rt_event *ev, bool *done)
{
	struct rt_stream *s;
	uint64_t seq, point = 0;
	int ret = event_target(ev, &s, &seq);

	*done = true;
	if (ret)
		return ret < 0 ? ret : 0;
	ret = kmd_syncobj_query(s->ctx->dev->fd, s->syncobj, &point);
	*done = point >= seq;
	if (!ret && *done)
		host_done_acquire();
	return ret;
}

/* An event recorded in a capture still going on has no time or state. */
static int not_captured(struct rt_event *ev)
{
	return graph_event_in_capture(ev) ? -CAPERR_EVENT_CAPTURED : 0;
}

/* Recorded and not reset since: a record (maybe still pending) stands. */
bool event_is_recorded(struct rt_event *ev)
{
	bool r;

	pthread_mutex_lock(&ev->lock);
	r = ev->recorded;
	pthread_mutex_unlock(&ev->lock);
	return r;
}

int event_query(struct rt_event *ev, bool *done)
{
	struct rt_device *dev;
	int ret = not_captured(ev);

	*done = false;
	if (ret)
		return ret;
	dev = streams_hold(ev);
	ret = query_held(ev, done);

	streams_release(dev);
	return ret;
}

static int sync_held(struct rt_event *ev, int32_t timeout_ms)
{
	struct drm_vnpu_job_status st = { 0 };
	struct rt_stream *s;
	uint64_t seq;
	int ret = event_target(ev, &s, &seq);

	if (ret)
		return ret < 0 ? ret : 0;
	ret = submit_path_wait(s->ctx->dev, s->queue_id, s->syncobj, seq,
			       deadline_ns(timeout_ms), &st.state);
	if (ret == -ETIME)
		return -ETIMEDOUT;
	if (ret)
		return ret;
	host_done_acquire();
	/* io_uring's WAIT told how the job ended; else ask. */
	if (st.state == DRM_VNPU_JOB_PENDING &&
	    kmd_job_status(s->ctx->dev->fd, s->queue_id, seq, &st))
		st.state = DRM_VNPU_JOB_OK;	/* too old to know: it ended */
	/* The stream reports the failure at its sync; here only say so. */
	if (st.state != DRM_VNPU_JOB_OK) {
		core_detail("the job carrying the event (job %llu) did not complete: state %u, task %u, address 0x%llx",
			    (unsigned long long)seq, st.state, st.task,
			    (unsigned long long)st.fault_va);
		return -ENOEXEC;
	}
	return 0;
}

int event_sync(struct rt_event *ev, int32_t timeout_ms)
{
	struct rt_device *dev;
	int ret = not_captured(ev);

	if (ret)
		return ret;
	dev = streams_hold(ev);
	ret = sync_held(ev, timeout_ms);

	streams_release(dev);
	return ret;
}

int event_elapsed(struct rt_event *a, struct rt_event *b, float *ms)
{
	bool da, db;
	int ret = not_captured(a);

	if (!ret)
		ret = not_captured(b);
	if (ret)
		return ret;
	if (!a->recorded || !b->recorded)
		return -ENODATA;
	if (a->dev != b->dev || !a->dev)
		return -EXDEV;
	ret = event_query(a, &da);
	if (!ret)
		ret = event_query(b, &db);
	if (ret)
		return ret;
	if (!da || !db)
		return -EBUSY;
	*ms = (float)((double)((int64_t)(a->dev->ev_map[b->slot] -
					 a->dev->ev_map[a->slot])) / 1e6);
	return 0;
}

static int wait_held(struct rt_stream *s, struct rt_event *ev)
{
	struct rt_stream *es;
	uint64_t seq;
	int ret;

	ret = event_target(ev, &es, &seq);
	if (ret)
		return ret < 0 ? ret : 0;
	if (es == s)
		return 0;	/* a stream runs its jobs in order anyway */
	return stream_add_wait(s, es->syncobj, seq);
}

int event_wait(struct rt_stream *s, struct rt_event *ev)
{
	struct rt_device *dev;
	int ret;

	if (ev->dev && s->ctx->dev != ev->dev)
		return -EXDEV;
	if ((ev->flags & ACL_EVENT_EXTERNAL) && ev->dev &&
	    graph_stream_records(s) && !graph_event_in_capture(ev))
		return ext_wait_captured(s, ev);
	ret = graph_wait_event(s, ev);
	if (ret != 1)
		return ret;
	dev = streams_hold(ev);
	ret = wait_held(s, ev);
	streams_release(dev);
	return ret;
}

int event_wait_plain(struct rt_stream *s, struct rt_event *ev)
{
	struct rt_device *dev;
	int ret;

	if (ev->dev && s->ctx->dev != ev->dev)
		return -EXDEV;
	dev = streams_hold(ev);
	ret = wait_held(s, ev);
	streams_release(dev);
	return ret;
}

void event_set_record(struct rt_event *ev, struct rt_stream *s, uint64_t seq,
		      uint64_t prev)
{
	pthread_mutex_lock(&ev->lock);
	ev->ts_prev = prev;
	ev->cap_graph = NULL;
	ev->recorded = true;
	ev->stream = s;
	ev->seq = seq;
	pthread_mutex_unlock(&ev->lock);
}

uint64_t event_slot_value(struct rt_event *ev)
{
	return ev->dev ? ev->dev->ev_map[ev->slot] : 0;
}

int event_timestamp(struct rt_event *ev, uint64_t *ns)
{
	bool done;
	int ret = not_captured(ev);

	if (ret)
		return ret;
	if (!ev->recorded)
		return -ENODATA;
	if (!ev->dev)
		return -ENODEV;
	ret = event_query(ev, &done);
	if (ret)
		return ret;
	if (!done)
		return -EBUSY;
	*ns = ev->dev->ev_map[ev->slot];
	return 0;
}

/*
 * The record's TIMESTAMP task writes a device time later than the slot's
 * value at record time, so "slot > that value" is the record having run;
 * a WAIT_VALUE on it carries the timeout the driver's in-syncs lack. (A
 * still pending earlier record of the same event satisfies it too.)
 */
int event_wait_timeout(struct rt_stream *s, struct rt_event *ev,
		       int32_t timeout_ms)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WAIT_VALUE };
	struct rt_stream *es;
	struct rt_device *dev;
	uint64_t seq, point = 0;
	int ret;

	if (!ev->dev)
		return -ENODEV;
	if (s->ctx->dev != ev->dev)
		return -EXDEV;
	if (graph_stream_records(s) || graph_event_in_capture(ev))
		return event_wait(s, ev);	/* captured: graph order */
	dev = streams_hold(ev);
	ret = event_target(ev, &es, &seq);
	if (ret || es == s) {
		streams_release(dev);
		return ret < 0 ? ret : 0;
	}
	ret = kmd_syncobj_query(dev->fd, es->syncobj, &point);
	streams_release(dev);
	if (ret || point >= seq)
		return ret;	/* complete already: nothing to wait for */
	t.value.addr = dev->ev_va + ev->slot * sizeof(uint64_t);
	pthread_mutex_lock(&ev->lock);
	t.value.value = ev->ts_prev + 1;
	pthread_mutex_unlock(&ev->lock);
	t.value.cond = DRM_VNPU_WAIT_GEQ;
	t.value.timeout_ns = (uint64_t)timeout_ms * 1000000ULL;
	if (t.value.timeout_ns > DRM_VNPU_MAX_WAIT_NS)
		t.value.timeout_ns = DRM_VNPU_MAX_WAIT_NS;
	return stream_push(s, &t, NULL);
}
