/* SPDX-License-Identifier: MIT */
/*
 * Streams: one driver queue each. Async calls append tasks to a pending
 * batch; the batch goes to the driver as one SUBMIT (one job) at a sync
 * point, when it is full, or when another stream needs its work to be
 * submitted (aclrtStreamWaitEvent). Jobs are numbered 1, 2, ... per queue
 * and the queue's timeline syncobj reaches point N when job N is done, so
 * the pending batch will be job last_seq + 1.
 *
 * A failed job (device page fault, timeout, abort) puts the queue in its
 * error state. It is found at the next sync point (or by a SUBMIT failing
 * with -EBADFD), described by JOB_STATUS, the queue is reset so the
 * stream stays usable, and the failure is returned once, by that sync.
 * Later work is not discarded: ACL's default failure mode is to continue
 * (but the driver cancels jobs already queued behind the failed one).
 * With ACL_STOP_ON_FAILURE the queue is not reset: the stream is stopped,
 * its pending and later work is discarded and every sync, query and
 * enqueue returns the failure until the stream is destroyed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "error.h"
#include "graph.h"
#include "hooks.h"
#include "log.h"
#include "submit_path.h"

#include "../kmd/kmd.h"
#include "rt_objects.h"
#include "lifecycle.h"
#include "prof_rt.h"
#include "acl/acl_prof.h"

int stream_create(struct rt_context *ctx, uint32_t priority,
		  struct rt_stream **out)
{
	struct rt_device *dev = ctx->dev;
	struct rt_stream *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	ret = kmd_queue_create(dev->fd, priority, &s->queue_id, &s->syncobj);
	if (ret == -EACCES && priority > DRM_VNPU_PRIORITY_NORMAL) {
		/* The driver keeps HIGH for CAP_SYS_NICE; CANN has no such rule. */
		rt_log(LOG_WARN, "high stream priority needs CAP_SYS_NICE; using normal");
		priority = DRM_VNPU_PRIORITY_NORMAL;
		ret = kmd_queue_create(dev->fd, priority, &s->queue_id,
				       &s->syncobj);
	}
	if (ret) {
		free(s);
		return ret;
	}
	/* notes of an earlier queue with this number are not ours */
	aicpu_fail_forget_queue(dev, s->queue_id);
	s->magic = STREAM_MAGIC;
	s->ctx = ctx;
	s->priority = priority;
	pthread_mutex_init(&s->lock, NULL);
	/*
	 * Live only once initialised: a stale handle with this address may
	 * be looked up by another thread at any time.
	 */
	if (handle_add(HANDLE_STREAM, s)) {
		kmd_queue_destroy(dev->fd, s->queue_id);
		kmd_syncobj_destroy(dev->fd, s->syncobj);
		pthread_mutex_destroy(&s->lock);
		free(s);
		return -ENOMEM;
	}
	pthread_mutex_lock(&dev->lock);
	s->next = dev->streams;
	dev->streams = s;
	pthread_mutex_unlock(&dev->lock);
	*out = s;
	return 0;
}

static const char *state_name(uint32_t state)
{
	switch (state) {
	case DRM_VNPU_JOB_FAULT: return "device page fault";
	case DRM_VNPU_JOB_TIMEOUT: return "timeout";
	case DRM_VNPU_JOB_ABORTED: return "aborted";
	case DRM_VNPU_JOB_CANCELLED: return "cancelled";
	default: return "unknown state";
	}
}

static const char *reason_name(uint32_t reason)
{
	switch (reason) {
	case DRM_VNPU_FAULT_UNMAPPED: return "no memory mapped there";
	case DRM_VNPU_FAULT_BOUNDS: return "access past the end of an allocation";
	case DRM_VNPU_FAULT_READ_ONLY: return "write to read-only memory";
	default: return "unknown reason";
	}
}

static bool stop_mode(const struct rt_stream *s)
{
	return s->stop_on_failure || s->ctx->stop_on_failure;
}

/*
 * Find the first failed job after done_seq, remember it for the next sync
 * and reset the queue. Every job up to last_seq has ended (the queue is in
 * its error state or the timeline passed them).
 */
static void collect_failure_locked(struct rt_stream *s)
{
	int fd = s->ctx->dev->fd;
	struct drm_vnpu_job_status st;
	uint64_t seq;
	bool host;

	for (seq = s->done_seq + 1; seq <= s->last_seq; seq++) {
		if (kmd_job_status(fd, s->queue_id, seq, &st))
			continue;	/* too old to remember */
		if (st.state == DRM_VNPU_JOB_OK ||
		    st.state == DRM_VNPU_JOB_PENDING)
			continue;
		/* a host node's failure times its job out: take its note */
		host = st.state == DRM_VNPU_JOB_TIMEOUT &&
		       aicpu_fail_take(s->ctx->dev, s->queue_id);
		if (s->err && st.state == DRM_VNPU_JOB_CANCELLED)
			continue;
		if (s->err && s->err != -ECANCELED)
			continue;
		if (st.state == DRM_VNPU_JOB_FAULT)
			snprintf(s->err_msg, sizeof(s->err_msg),
				 "task %u of job %llu failed: device page fault at address 0x%llx (%s, %s)",
				 st.task, (unsigned long long)seq,
				 (unsigned long long)st.fault_va,
				 st.fault_access == DRM_VNPU_ACCESS_WRITE ?
				 "write" : "read", reason_name(st.fault_reason));
		else if (host)
			snprintf(s->err_msg, sizeof(s->err_msg),
				 "task %u of job %llu failed: a host (AI CPU) node failed",
				 st.task, (unsigned long long)seq);
		else
			snprintf(s->err_msg, sizeof(s->err_msg),
				 "task %u of job %llu failed: %s (error %d)",
				 st.task, (unsigned long long)seq,
				 state_name(st.state), st.error);
		s->err_task = st.task;
		s->err = host ? -EREMOTEIO :
			 st.state == DRM_VNPU_JOB_TIMEOUT ? -ETIME :
			 st.state == DRM_VNPU_JOB_CANCELLED ? -ECANCELED :
			 -ENOEXEC;
	}
	s->done_seq = s->last_seq;
	if (stop_mode(s) && s->err)
		s->stopped = true;	/* the queue stays in its error state */
	else
		kmd_queue_reset(fd, s->queue_id);
}

/* The pending batch (not empty) as a SUBMIT request. */
static void batch_request_locked(struct rt_stream *s, struct drm_vnpu_submit *a)
{
	if (!s->ntasks) {
		/* Only waits: a NOP carries them so later work is ordered. */
		memset(&s->tasks[0], 0, sizeof(s->tasks[0]));
		s->tasks[0].type = DRM_VNPU_TASK_NOP;
		s->ntasks = 1;
	}
	*a = (struct drm_vnpu_submit){
		.queue_id = s->queue_id,
		.tasks = (uintptr_t)s->tasks,
		.task_count = s->ntasks,
		.task_stride = sizeof(s->tasks[0]),
		.args = s->args_len ? (uintptr_t)s->args : 0,
		.args_size = s->args_len,
		.in_syncs = (uintptr_t)s->syncs,
		.in_sync_count = s->nsyncs,
	};
}

static void batch_clear_locked(struct rt_stream *s)
{
	s->ntasks = 0;
	s->nsyncs = 0;
	s->args_len = 0;
	s->batch_udep = false;
}

/*
 * Job seq was submitted: note whether it may wait for user space. A
 * command buffer may hold anything captured (host nodes, callbacks)
 * unless its graph says it is device_only; an in-sync waits for another
 * queue, whose jobs may wait for user space.
 */
static void note_job_locked(struct rt_stream *s, const struct drm_vnpu_submit *a,
			    bool device_only)
{
	if (a->in_sync_count ||
	    ((a->flags & DRM_VNPU_SUBMIT_CMDBUF) && !device_only) ||
	    (a->tasks == (uintptr_t)s->tasks && s->batch_udep))
		s->udep_seq = a->seq;
	s->last_seq = a->seq;
	device_note_work(s->ctx->dev);
}

/*
 * A task or wait is about to join s's batch. Only the first one of a
 * batch bumps the device's work generation: from that add until a sync
 * sees the batch's job end, s is never quiet to device_quiet() (pending
 * tasks, then last_seq > done_seq, switched under s->lock in the flush),
 * so later adds and the flush change nothing a quiet check could miss.
 * The bump and the add share one s->lock section, so a check that reads
 * the bumped generation inspects s after it. Documentation/memory.md.
 */
static void note_batch_work_locked(struct rt_stream *s)
{
	if (!s->ntasks && !s->nsyncs)
		device_note_work(s->ctx->dev);
}

/*
 * Run a prepared request (the pending batch, or a graph's command buffer)
 * as the stream's next job. When an earlier job failed (-EBADFD), note
 * it, reset, and try again unless the stream stops on failure.
 */
int stream_submit_locked(struct rt_stream *s, struct drm_vnpu_submit *a,
			 bool device_only)
{
	int ret;

	if (s->stopped)
		return s->err;
	ret = submit_path_submit(s->ctx->dev, a);
	if (ret == -EBADFD) {
		collect_failure_locked(s);
		ret = s->stopped ? s->err : submit_path_submit(s->ctx->dev, a);
	}
	if (!ret)
		note_job_locked(s, a, device_only);
	return ret;
}

static int flush_locked(struct rt_stream *s)
{
	struct drm_vnpu_submit a;
	int ret = 0;

	if (!s->stopped) {
		if (!s->ntasks && !s->nsyncs)
			return 0;
		batch_request_locked(s, &a);
		ret = stream_submit_locked(s, &a, false);
	}
	if (s->stopped)
		ret = s->err;	/* the batch is discarded */
	batch_clear_locked(s);
	return ret;
}

int stream_flush_locked(struct rt_stream *s)
{
	return flush_locked(s);
}

bool stream_batch_begin(struct rt_stream *s, struct drm_vnpu_submit *a)
{
	pthread_mutex_lock(&s->lock);
	if (s->stopped || s->graph || (!s->ntasks && !s->nsyncs)) {
		pthread_mutex_unlock(&s->lock);
		return false;
	}
	batch_request_locked(s, a);
	return true;
}

int stream_batch_end(struct rt_stream *s, int res, uint64_t seq)
{
	int ret = res;

	if (!res) {
		if (s->batch_udep || s->nsyncs)
			s->udep_seq = seq;
		s->last_seq = seq;
		device_note_work(s->ctx->dev);
		batch_clear_locked(s);
	} else {
		/* The ordinary path sorts failures out (-EBADFD, stop mode). */
		ret = flush_locked(s);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Capturing streams record; they cannot be waited for or destroyed. */
int stream_check_not_capturing(struct rt_stream *s)
{
	struct rt_graph *g;
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	g = graph_capturing_locked(s);
	if (g) {
		ret = -CAPERR_STREAM_CAPTURED;
		graph_invalidate_locked(s, ret,
					"the capturing stream was synchronized or queried");
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int stream_flush(struct rt_stream *s)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = flush_locked(s);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int stream_flush_to(struct rt_stream *s, uint64_t seq)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	if (seq > s->last_seq)
		ret = flush_locked(s);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/*
 * aclrtStreamAbort: the tasks of the pending batch have not reached the
 * driver, so they are dropped and never run; jobs already submitted run
 * to their end (the driver cannot take a job back), and the call waits
 * for them so that the stream is idle when it returns. Events recorded
 * in the dropped batch read as never recorded again. A stopped stream
 * is reset, so work issued after the abort runs.
 */
int stream_abort(struct rt_stream *s, uint32_t *dropped)
{
	uint32_t state;
	uint64_t target;
	int ret;

	pthread_mutex_lock(&s->lock);
	if (s->graph) {
		pthread_mutex_unlock(&s->lock);
		return -CAPERR_STREAM_CAPTURED;
	}
	*dropped = s->ntasks;
	batch_clear_locked(s);
	target = s->last_seq;
	pthread_mutex_unlock(&s->lock);
	event_forget_after(s, target);
	ret = target ? submit_path_wait(s->ctx->dev, s->queue_id, s->syncobj,
					target, INT64_MAX, &state) : 0;
	if (!ret)
		host_done_acquire();
	pthread_mutex_lock(&s->lock);
	if (s->done_seq < s->last_seq)
		collect_failure_locked(s);
	if (s->stopped) {
		kmd_queue_reset(s->ctx->dev->fd, s->queue_id);
		s->stopped = false;
	}
	/* Failures of the aborted work are not reported later. */
	s->err = 0;
	pthread_mutex_unlock(&s->lock);
	return ret == -ETIME ? -ETIMEDOUT : ret;
}

int stream_set_failure_mode(struct rt_stream *s, bool stop)
{
	pthread_mutex_lock(&s->lock);
	s->stop_on_failure = stop;
	pthread_mutex_unlock(&s->lock);
	if (stop)
		s->ctx->stop_on_failure = true;	/* ACL: the whole context */
	return 0;
}

/*
 * The tag a task carries: the one it was given, else the pushing
 * thread's; none when the driver takes no tags (older drivers reject a
 * non-zero one).
 */
static uint32_t task_tag(const struct rt_stream *s, uint32_t given)
{
#ifdef VNPU_PROF_COMPILED_OUT
	(void)s;
	(void)given;
	return 0;
#endif
	if (!s->ctx->dev->prof_tags)
		return 0;
	return given ? given : prof_tag_current();
}

/* ACL_PROF_TASK_TIME: the task just added to the batch, for launch.tsv. */
static void note_launch_locked(const struct rt_stream *s, uint32_t tag)
{
	struct prof_event e = { .kind = PROF_EV_LAUNCH };

	if (!prof_rt_on(ACL_PROF_TASK_TIME))
		return;
	e.start_ns = e.end_ns = prof_rt_now();
	e.device = s->ctx->dev->id;
	e.queue = s->queue_id;
	e.seq = s->last_seq + 1;
	e.task = s->ntasks - 1;
	e.tag = tag;
	prof_rt_record(&e);
}

int stream_push(struct rt_stream *s, const struct drm_vnpu_task *t,
		uint64_t *seq)
{
	struct drm_vnpu_task tt = *t;
	int ret = 0;

	tt.tag = task_tag(s, t->tag);
	t = &tt;
	pthread_mutex_lock(&s->lock);
	if (s->graph || s->update) {
		/* Recorded into a graph (or an update): no job, no number. */
		ret = s->update ? graph_update_record_locked(s, t, NULL, 0) :
		      graph_record_locked(s, t, NULL, 0);
		if (seq)
			*seq = 0;
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	if (s->stopped)
		ret = s->err;	/* no new tasks once stopped */
	else if (s->ntasks == STREAM_BATCH_MAX)
		ret = flush_locked(s);
	if (!ret) {
		note_batch_work_locked(s);
		s->tasks[s->ntasks++] = *t;
		/* Callbacks, notifies, value and timed event waits. */
		if (t->type == DRM_VNPU_TASK_WAIT_VALUE)
			s->batch_udep = true;
		note_launch_locked(s, t->tag);
		if (seq)
			*seq = s->last_seq + 1;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int stream_push_kernel(struct rt_stream *s, uint32_t op, const void *args,
		       uint32_t size, uint64_t *seq)
{
	uint32_t asize = (size + 7) & ~7u;
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_KERNEL };
	int ret = 0;

	if (!size || asize > DRM_VNPU_MAX_ARGS_SIZE)
		return -EINVAL;
	t.tag = task_tag(s, 0);
	pthread_mutex_lock(&s->lock);
	if (s->graph || s->update) {
		t.kernel.op = op;
		t.kernel.args_size = asize;
		ret = s->update ? graph_update_record_locked(s, &t, args, size) :
		      graph_record_locked(s, &t, args, size);
		if (seq)
			*seq = 0;
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	if (s->stopped)
		ret = s->err;
	else if (s->ntasks == STREAM_BATCH_MAX ||
	    s->args_len + asize > DRM_VNPU_MAX_ARGS_SIZE)
		ret = flush_locked(s);
	if (!ret && s->args_len + asize > s->args_cap) {
		uint32_t cap = s->args_cap ? s->args_cap : 16384;
		uint8_t *p;

		while (cap < s->args_len + asize)
			cap *= 2;
		if (cap > DRM_VNPU_MAX_ARGS_SIZE)
			cap = DRM_VNPU_MAX_ARGS_SIZE;
		p = realloc(s->args, cap);
		if (!p) {
			ret = -ENOMEM;
		} else {
			s->args = p;
			s->args_cap = cap;
		}
	}
	if (!ret) {
		memcpy(s->args + s->args_len, args, size);
		memset(s->args + s->args_len + size, 0, asize - size);
		t.kernel.op = op;
		t.kernel.args_offset = s->args_len;
		t.kernel.args_size = asize;
		s->args_len += asize;
		note_batch_work_locked(s);
		s->tasks[s->ntasks++] = t;
		note_launch_locked(s, t.tag);
		if (seq)
			*seq = s->last_seq + 1;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int stream_add_wait(struct rt_stream *s, uint32_t syncobj, uint64_t point)
{
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	if (s->stopped)
		ret = s->err;
	else if (s->nsyncs == STREAM_SYNCS_MAX)
		ret = flush_locked(s);
	if (!ret) {
		note_batch_work_locked(s);
		s->syncs[s->nsyncs++] = (struct drm_vnpu_sync){
			.handle = syncobj, .point = point,
		};
		s->batch_udep = true;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* After job seq ended: did everything up to it succeed? Reports once. */
/*
 * state is how job seq ended when the caller knows (an io_uring WAIT says),
 * else DRM_VNPU_JOB_PENDING and JOB_STATUS tells.
 */
static int check_locked(struct rt_stream *s, uint64_t seq, uint32_t state)
{
	struct drm_vnpu_job_status st = { .state = state };
	int ret = 0;

	if (s->done_seq < seq) {
		if (state == DRM_VNPU_JOB_PENDING)
			ret = kmd_job_status(s->ctx->dev->fd, s->queue_id, seq,
					     &st);
		if (!ret && st.state == DRM_VNPU_JOB_OK && !s->err)
			s->done_seq = seq;
		else
			collect_failure_locked(s);
	}
	if (!s->err)
		return 0;
	ret = s->err;
	core_detail("%s", s->err_msg);
	if (!s->stopped)
		s->err = 0;	/* reported once, unless stopped */
	return ret;
}

static _Atomic(rt_exception_cb) exception_cb;

void exception_cb_set(rt_exception_cb cb)
{
	exception_cb = cb;
}

int stream_check_job_state(struct rt_stream *s, uint64_t seq, uint32_t state)
{
	struct rtExceptionInfo info;
	rt_exception_cb cb;
	int ret;

	pthread_mutex_lock(&s->lock);
	info.task_id = s->err_task;
	ret = check_locked(s, seq, state);
	if (ret)
		info.task_id = s->err_task;
	pthread_mutex_unlock(&s->lock);
	cb = exception_cb;
	if (ret) {
		s->ctx->dev->last_job_err = ret;
		/* Exception callbacks: tell before returning. */
		info.stream_id = s->queue_id;
		info.thread_id = (uint32_t)syscall(SYS_gettid);
		info.device_id = (uint32_t)s->ctx->dev->id;
		info.error_code = (uint32_t)acl_error_from_errno(ret);
		if (cb)
			cb(&info);
		hooks_exception_call(&info);
	}
	return ret;
}

int stream_check_job(struct rt_stream *s, uint64_t seq)
{
	return stream_check_job_state(s, seq, DRM_VNPU_JOB_PENDING);
}

int stream_flush_target(struct rt_stream *s, uint64_t *target)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = flush_locked(s);
	*target = s->last_seq;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

bool stream_seen_done(struct rt_stream *s, uint64_t seq)
{
	bool done;

	pthread_mutex_lock(&s->lock);
	done = s->done_seq >= seq;
	pthread_mutex_unlock(&s->lock);
	return done;
}

/*
 * One enter per sync: the pending batch's SUBMIT and the WAIT for its job
 * in one io_uring_enter, with the stream's lock held throughout (the
 * kernel reads the batch during the enter, and nobody else may submit to
 * the queue before the WAIT finds the newest job). Holding the lock while
 * blocked is safe only if the jobs waited for finish without anything
 * from user space: no job after the last one seen to end (done_seq), nor
 * the batch, may wait for user space (udep_seq, batch_udep). A callback
 * that launches on this stream, or a thread that must launch here before
 * it records an event this stream waits for, would otherwise wait for the
 * lock while the lock's holder waits for them. Returns 1 when the caller
 * must take the ordinary path (two enters, the lock dropped between).
 */
static int submit_and_wait(struct rt_stream *s, int64_t deadline,
			   uint64_t *target, uint32_t *state)
{
	struct submit_sync x = { .submit = true };
	struct drm_vnpu_submit *a = &x.args;
	int ret;

	pthread_mutex_lock(&s->lock);
	if (s->stopped || s->graph || (!s->ntasks && !s->nsyncs) ||
	    s->batch_udep || s->udep_seq > s->done_seq ||
	    !submit_path_one_enter(s->ctx->dev)) {
		pthread_mutex_unlock(&s->lock);
		return 1;
	}
	batch_request_locked(s, a);
	x.w.queue = s->queue_id;
	ret = submit_path_sync_batch(s->ctx->dev, &x, 1, deadline);
	if (ret || x.submit_res) {
		/* Not queued: the ordinary path sorts it out (-EBADFD...). */
		pthread_mutex_unlock(&s->lock);
		return 1;
	}
	note_job_locked(s, a, false);
	batch_clear_locked(s);
	pthread_mutex_unlock(&s->lock);
	*target = a->seq;
	if (x.w.seq != a->seq) {
		/* Cannot happen under the lock; wait for our own job. */
		return submit_path_wait(s->ctx->dev, s->queue_id, s->syncobj,
					a->seq, deadline, state);
	}
	*state = x.w.state;
	return x.w.res;
}

/*
 * A device sync in one enter (device.c): lock s and say what it needs.
 * SYNC_PLAN_USER: a job it would wait for may wait for user space;
 * SYNC_PLAN_NONE: nothing to wait for (*target: its last job, 0 if none);
 * SYNC_PLAN_WAIT: a wait for *target; these return with s unlocked.
 * SYNC_PLAN_SUBMIT: its batch is in *a, to be sent with a wait for the
 * newest job; s stays locked until stream_batch_end().
 */
int stream_sync_plan(struct rt_stream *s, struct drm_vnpu_submit *a,
		     uint64_t *target)
{
	int plan;

	pthread_mutex_lock(&s->lock);
	*target = s->last_seq;
	if (s->stopped || s->graph || s->batch_udep || s->udep_seq > s->done_seq)
		plan = SYNC_PLAN_USER;
	else if (s->ntasks || s->nsyncs)
		plan = SYNC_PLAN_SUBMIT;
	else
		plan = s->done_seq < s->last_seq ? SYNC_PLAN_WAIT : SYNC_PLAN_NONE;
	if (plan == SYNC_PLAN_SUBMIT) {
		batch_request_locked(s, a);
		return plan;
	}
	pthread_mutex_unlock(&s->lock);
	return plan;
}

void stream_unlock(struct rt_stream *s)
{
	pthread_mutex_unlock(&s->lock);
}

/*
 * Flush and wait for the stream's jobs; *target is the last one and
 * *state how it ended, when the submission path knows.
 */
static int drain(struct rt_stream *s, int32_t timeout_ms, uint64_t *target,
		 uint32_t *state)
{
	int64_t deadline = deadline_ns(timeout_ms);
	int ret;

	*state = DRM_VNPU_JOB_PENDING;
	ret = submit_and_wait(s, deadline, target, state);
	if (ret <= 0) {
		if (!ret)
			host_done_acquire();
		return ret == -ETIME ? -ETIMEDOUT : ret;
	}
	ret = stream_flush_target(s, target);
	*state = DRM_VNPU_JOB_PENDING;
	if (ret || !*target)
		return ret;
	ret = submit_path_wait(s->ctx->dev, s->queue_id, s->syncobj, *target,
			       deadline, state);
	if (!ret)
		host_done_acquire();
	return ret == -ETIME ? -ETIMEDOUT : ret;
}

/* Wait without reporting failures (they stay for the stream's sync). */
int stream_drain(struct rt_stream *s)
{
	uint64_t target;
	uint32_t state;

	return drain(s, -1, &target, &state);
}

int stream_sync(struct rt_stream *s, int32_t timeout_ms)
{
	uint64_t target;
	uint32_t state;
	int ret = stream_check_not_capturing(s);

	if (ret)
		return ret;
	ret = drain(s, timeout_ms, &target, &state);
	return ret ? ret : stream_check_job_state(s, target, state);
}

int stream_query(struct rt_stream *s, bool *done)
{
	uint64_t point = 0, target;
	int ret = stream_check_not_capturing(s);

	if (ret)
		return ret;
	pthread_mutex_lock(&s->lock);
	ret = flush_locked(s);
	target = s->last_seq;
	pthread_mutex_unlock(&s->lock);
	if (!ret && target)
		ret = kmd_syncobj_query(s->ctx->dev->fd, s->syncobj, &point);
	*done = point >= target;
	if (!ret && *done)
		host_done_acquire();
	return ret;
}

uint32_t stream_count(struct rt_device *dev)
{
	uint32_t n = 0;

	pthread_mutex_lock(&dev->lock);
	for (struct rt_stream *s = dev->streams; s; s = s->next)
		n++;
	pthread_mutex_unlock(&dev->lock);
	return n;
}

/* Wait for the stream's work, then drop its queue. */
int stream_destroy(struct rt_stream *s)
{
	struct rt_device *dev = s->ctx->dev;
	struct rt_stream **pp;
	int ret;

	/* A capturing or bound stream must end or unbind first. */
	if (graph_stream_records(s))
		return -CAPERR_STREAM_CAPTURED;
	if (!handle_remove(HANDLE_STREAM, s))
		return -ENOENT;		/* destroyed already */
	ret = stream_sync(s, -1);

	event_forget_stream(s);
	cb_forget_stream(s);
	graph_forget_stream(s);
	rt_lifecycle_forget_stream(s);
	pthread_rwlock_wrlock(&dev->streams_rw);	/* no drain holds s */
	pthread_mutex_lock(&dev->lock);
	for (pp = &dev->streams; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&dev->lock);
	pthread_rwlock_unlock(&dev->streams_rw);
	kmd_queue_destroy(dev->fd, s->queue_id);
	kmd_syncobj_destroy(dev->fd, s->syncobj);
	s->magic = 0;
	pthread_mutex_destroy(&s->lock);
	free(s->args);
	free(s);
	return ret;
}

/*
 * The one check of a stream argument, for every call that takes one
 * (api/ through rt_stream_arg, nn/ directly). NULL is the current
 * context's default stream. -ESRCH without a current context; -EINVAL for
 * anything that is not a live stream (destroyed, never created, garbage:
 * the pointer is looked up, never read); -EXDEV for a live stream of
 * another context. The detail names the handle.
 */
int stream_resolve(struct rt_stream *s, struct rt_stream **out)
{
	struct rt_context *ctx = context_current();

	if (!ctx)
		return -ESRCH;
	if (!s) {
		*out = ctx->default_stream;
		return 0;
	}
	if (!handle_live(HANDLE_STREAM, s)) {
		core_detail("stream %p is not a live stream (destroyed, or never created)",
			    (void *)s);
		return -EINVAL;
	}
	if (s->ctx != ctx) {
		core_detail("stream %p belongs to another context", (void *)s);
		return -EXDEV;
	}
	*out = s;
	return 0;
}
