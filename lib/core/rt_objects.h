/* SPDX-License-Identifier: MIT */
/*
 * Runtime objects of the ACL runtime: devices, contexts, streams, events
 * and memory. All functions return 0 or -errno; where an error needs more
 * words than a code (a failed job), core_detail() carries them to the API
 * layer in the calling thread.
 *
 * Locking, outermost first; a thread may skip levels but never take an
 * outer lock while it holds an inner one:
 *   1. rt_lock: device and context lifetimes (rare);
 *   2. a device's streams_rw (held for reading keeps the listed streams
 *      alive and linked; for writing, a stream leaves the list), or
 *      cb_mutex (callback.c: subscriptions and queued callbacks);
 *   3. a stream's lock: its pending batch, its capture state;
 *   4. graphs_lock (graph_exec.c): the registry of live graphs;
 *   5. a graph's lock: its state, segments and members;
 *   6. a device's lock: its lists (streams, event slots, allocations);
 *   7. an event's lock: its last record and capture point.
 * Two locks of one level are never held together. Waits hold no lock but
 * streams_rw for reading (a drain keeps its streams alive) and rt_lock
 * while a context's streams are destroyed. Each field is read under the
 * lock that its writers hold: a stream's graph under the stream's lock,
 * that graph's state under the graph's. `make tsan` checks all of this.
 */
#ifndef VNPU_CORE_RT_OBJECTS_H
#define VNPU_CORE_RT_OBJECTS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <drm/vnpu_accel.h>

#define STREAM_BATCH_MAX	256	/* tasks per SUBMIT before a flush */
#define STREAM_SYNCS_MAX	DRM_VNPU_MAX_SYNCS
#define EVENT_SLOTS		4096	/* timestamp slots per device */
#define CB_SLOTS		2048	/* callback semaphore slots per device */
#define NOTIFY_SLOTS		1024	/* notify words per device */

struct rt_context;
struct rt_stream;
struct alloc_chunk;
struct alloc_block;
struct host_buf;
struct rt_event;
struct rt_graph;
struct graph_update;
struct rt_notify;

#define ALLOC_BUCKETS 1024
#define ALLOC_CACHE_CLASSES 256

/* Driver parameters fixed while the module is loaded (device_info.c). */
struct device_info {
	uint64_t engines;		/* DRM_VNPU_PARAM_ENGINE_COUNT */
	uint64_t mem_total;		/* DRM_VNPU_PARAM_MEM_TOTAL */
	uint64_t index;			/* DRM_VNPU_PARAM_DEVICE_INDEX */
	bool profile;			/* DRM_VNPU_CAP_PROFILE */
};

struct rt_device {
	int32_t id;
	int fd;				/* -1 while closed */
	/* Opens so far: objects made on one open die with it (models). */
	_Atomic uint64_t open_gen;
	bool uring;			/* io_uring chosen (submit_path.c only) */
	bool uring_latest;		/* and WAIT takes LATEST (same) */
	/* The driver has DRM_VNPU_CAP_PROFILE: tasks may carry a tag. */
	bool prof_tags;
	uint32_t set_refs;		/* aclrtSetDevice - aclrtResetDevice */
	uint32_t explicit_ctxs;		/* aclrtCreateContext not destroyed */
	struct rt_context *default_ctx;
	struct device_info info;	/* valid when info_valid; rt_lock */
	bool info_valid;
	/*
	 * Held for reading while a thread drains every stream (device_each),
	 * for writing while a stream is taken off the list: a stream is not
	 * freed under a drain that picked it up.
	 */
	pthread_rwlock_t streams_rw;
	pthread_mutex_t lock;		/* everything below */
	struct rt_stream *streams;	/* every stream of every context */
	/* Event timestamps: one host BO the library maps, 8 bytes a slot. */
	uint32_t ev_handle;
	uint64_t ev_va;
	volatile uint64_t *ev_map;
	struct rt_event *ev_owner[EVENT_SLOTS];
	/* The caching allocator (alloc.c). */
	struct alloc_chunk *chunks;
	struct alloc_block *blocks[ALLOC_BUCKETS];
	/* Freed small blocks kept for reuse, by size class (alloc.c). */
	struct alloc_block *cached[ALLOC_CACHE_CLASSES];
	uint32_t ncached;
	uint64_t chunk_bytes;		/* in chunks so far */
	/*
	 * Bumped after a stream gets work (a task, a wait, a job); quiet_gen
	 * is its value when a check last found every stream idle, so a drain
	 * with nothing to wait for costs two loads (device.c).
	 */
	_Atomic uint64_t work_gen, quiet_gen;
	struct host_buf *host_bufs;
	/* Bytes of aclrtMalloc and aclrtMallocHost memory: now and at most. */
	uint64_t dev_used, dev_peak, host_used, host_peak;
	/* VAs of its DEVICE BOs lie in [dva_lo, dva_hi): whose pointer? */
	_Atomic uint64_t dva_lo, dva_hi;
	/* Callback semaphores (callback.c): one host BO, 8 bytes a slot. */
	uint32_t cb_handle;
	uint64_t cb_va;
	volatile uint64_t *cb_map;
	uint8_t cb_used[CB_SLOTS];
	/* Notify words (notify.c): one host BO, 8 bytes a slot. */
	uint32_t nt_handle;
	uint64_t nt_va;
	volatile uint64_t *nt_map;
	struct rt_notify *nt_owner[NOTIFY_SLOTS];
	/* How this device's last failed job ended (-errno), 0: none yet. */
	_Atomic int last_job_err;
};

struct rt_context {
	uint32_t magic;
	struct rt_device *dev;
	bool is_default;
	struct rt_stream *default_stream;
	_Atomic bool stop_on_failure;	/* some stream of it set STOP */
	/* aclrtCtxSetSysParamOpt values, and which were set (bit per opt). */
	_Atomic int64_t sys_values[4];
	_Atomic uint32_t sys_set;
	struct rt_context *next;	/* live contexts (context.c) */
};

struct rt_stream {
	uint32_t magic;
	struct rt_context *ctx;
	uint32_t queue_id;
	uint32_t syncobj;
	uint32_t priority;
	uint32_t flags;			/* ACL_STREAM_* of its creation */
	uint32_t acl_priority;		/* ACL priority of its creation, 0..7 */
	_Atomic uint32_t res_limit[2];	/* aclrtSetStreamResLimit, 0: none */
	struct rt_stream *next;		/* device's list */
	pthread_mutex_t lock;		/* everything below */
	/* A graph this stream records into (capture or bound), and as what. */
	struct rt_graph *graph;
	uint32_t member;
	/* A task group being re-captured (graph_update.c), or NULL. */
	struct graph_update *update;
	uint64_t last_seq;		/* last job submitted */
	uint64_t done_seq;		/* every job up to this ended OK */
	/*
	 * The last job that may wait for user space (a WAIT_VALUE task, an
	 * in-sync, a command buffer), and whether the pending batch has one:
	 * a sync holds the lock across its wait only when neither does
	 * (stream.c, "one enter per sync").
	 */
	uint64_t udep_seq;
	bool batch_udep;
	uint32_t ntasks;
	uint32_t nsyncs;
	int err;			/* failure not yet reported */
	char err_msg[256];
	uint32_t err_task;		/* task index of the failure */
	bool stop_on_failure;		/* ACL_STOP_ON_FAILURE was set */
	bool stopped;			/* stop mode hit a failure: err sticks */
	struct drm_vnpu_task tasks[STREAM_BATCH_MAX];
	struct drm_vnpu_sync syncs[STREAM_SYNCS_MAX];
	/* Argument block of the pending batch (KERNEL tasks), grown on demand. */
	uint8_t *args;
	uint32_t args_len;
	uint32_t args_cap;
};

struct rt_event {
	uint32_t magic;
	uint32_t flags;
	struct rt_device *dev;
	uint32_t slot;
	pthread_mutex_t lock;
	bool recorded;
	struct rt_stream *stream;	/* NULL once that stream is gone */
	uint64_t seq;			/* job carrying the record */
	uint64_t ts_prev;		/* slot value when last recorded */
	/* Recorded during a capture: the graph, its generation, the segment. */
	struct rt_graph *cap_graph;
	uint64_t cap_gen;
	uint32_t cap_seg;
};

/*
 * A notify (aclrtNotify, aclrtCntNotify): one 64-bit word of the device's
 * notify BO that stream tasks write (WRITE_VALUE) and wait for
 * (WAIT_VALUE). Binary notifies hold 0 or 1; counting ones a value.
 */
struct rt_notify {
	uint32_t magic;
	bool counting;
	struct rt_device *dev;		/* NULL once the device closed */
	uint32_t slot;
};

#define CTX_MAGIC	0x43545821u
#define STREAM_MAGIC	0x53545221u
#define EVENT_MAGIC	0x45564e21u
#define NOTIFY_MAGIC	0x4e544621u

/* handles.c: live stream and event handles. */
enum handle_kind {
	HANDLE_STREAM, HANDLE_EVENT, HANDLE_NOTIFY, HANDLE_CNT_NOTIFY,
	HANDLE_STREAM_CONFIG
};
int handle_add(enum handle_kind kind, const void *p);
bool handle_live(enum handle_kind kind, const void *p);
/* False when p was not live: someone else destroyed it. */
bool handle_remove(enum handle_kind kind, const void *p);
void handles_forget_after_fork(void);
/* Some live handle of that kind, or NULL when there is none. */
const void *handle_any(enum handle_kind kind);

/* error.c-style detail for the API layer: set by core, taken by api. */
void core_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *core_detail_take(void);

/* device.c */
void rt_lock(void);
void rt_unlock(void);
int device_set(int32_t id);
int device_reset(int32_t id, bool force);
void device_reset_all(void);
/*
 * aclFinalize (teardown.c): every context (explicit ones too, with their
 * streams and graphs), every event and every device's memory goes; later
 * calls find nothing of them and return codes.
 */
void runtime_teardown(void);
int device_sync(struct rt_device *dev, int32_t timeout_ms);
/* Wait for all submitted work; failures stay for the streams' syncs. */
int device_drain(struct rt_device *dev);
int device_mem_info(struct rt_device *dev, uint64_t *free, uint64_t *total);
int device_open_locked(struct rt_device *dev);
void device_put_locked(struct rt_device *dev);
struct rt_device *device_by_id(int32_t id);

/* device_info.c: the device's fixed parameters, read once per process. */
int device_info_get(int32_t id, struct device_info *out);
/* A parameter that changes (memory in use): read now, same file rules. */
int device_param_read(int32_t id, uint32_t param, uint64_t *value);
/* Busy ns of all the device's engines, all files; -EOPNOTSUPP: no counters. */
int device_engine_busy(int32_t id, uint64_t *ns);
int device_error_state(int32_t id, int *job_err,
		       struct drm_vnpu_fault_info *fault);

/* context.c */
int context_create(struct rt_device *dev, bool is_default,
		   struct rt_context **out);
void context_destroy_locked(struct rt_context *ctx);
int context_destroy(struct rt_context *ctx);
int context_create_on(int32_t id, struct rt_context **out);
struct rt_context *context_current(void);
int context_set_current(struct rt_context *ctx);
void context_set_current_raw(struct rt_context *ctx);
bool context_valid_locked(struct rt_context *ctx);
/* Some live explicit context, or NULL. Called with rt_lock held. */
struct rt_context *context_any_explicit_locked(void);

/* stream.c */
int stream_create(struct rt_context *ctx, uint32_t priority,
		  struct rt_stream **out);
int stream_destroy(struct rt_stream *s);
int stream_resolve(struct rt_stream *s, struct rt_stream **out);
int stream_push(struct rt_stream *s, const struct drm_vnpu_task *t,
		uint64_t *seq);
/*
 * Append a KERNEL task whose argument block (size bytes, copied) goes to
 * the pending batch's argument area; args_offset/args_size are filled in.
 */
int stream_push_kernel(struct rt_stream *s, uint32_t op, const void *args,
		       uint32_t size, uint64_t *seq);
int stream_add_wait(struct rt_stream *s, uint32_t syncobj, uint64_t point);
int stream_flush(struct rt_stream *s);
/* With the stream's lock held: submit the pending batch. */
int stream_flush_locked(struct rt_stream *s);
/*
 * With the stream's lock held: run a prepared SUBMIT request (a graph's
 * command buffer, a model's) as the stream's next job, recovering from an
 * earlier failed job as a flush does. device_only: a command buffer known
 * to finish without user space (no WAIT_VALUE task, no in-sync), which a
 * later sync may wait for with the stream's lock held.
 */
int stream_submit_locked(struct rt_stream *s, struct drm_vnpu_submit *a,
			 bool device_only);
/* -CAPERR_STREAM_CAPTURED while the stream is capturing, else 0. */
int stream_check_not_capturing(struct rt_stream *s);
/* Flush when job seq (e.g. an event's record) is still in the batch. */
int stream_flush_to(struct rt_stream *s, uint64_t seq);
int stream_set_failure_mode(struct rt_stream *s, bool stop);
int stream_sync(struct rt_stream *s, int32_t timeout_ms);
int stream_drain(struct rt_stream *s);
int stream_query(struct rt_stream *s, bool *done);
int stream_check_job(struct rt_stream *s, uint64_t seq);
/* The same, when how job seq ended is known (DRM_VNPU_JOB_*). */
int stream_check_job_state(struct rt_stream *s, uint64_t seq, uint32_t state);
/*
 * A device-wide flush as one submission batch: stream_batch_begin() locks
 * the stream and describes its pending batch as a SUBMIT (false, and
 * unlocked, when there is none); stream_batch_end() takes the SUBMIT's
 * result and sequence number and unlocks.
 */
bool stream_batch_begin(struct rt_stream *s, struct drm_vnpu_submit *a);
int stream_batch_end(struct rt_stream *s, int res, uint64_t seq);
/* A device sync in one enter: what s needs (stream.c); unlock after. */
enum { SYNC_PLAN_USER, SYNC_PLAN_NONE, SYNC_PLAN_WAIT, SYNC_PLAN_SUBMIT };
int stream_sync_plan(struct rt_stream *s, struct drm_vnpu_submit *a,
		     uint64_t *target);
void stream_unlock(struct rt_stream *s);
/* Submit the pending batch; *target is the stream's last job. */
int stream_flush_target(struct rt_stream *s, uint64_t *target);
/* Has the stream seen job seq, and every job before it, end well? */
bool stream_seen_done(struct rt_stream *s, uint64_t seq);

/* event.c */
int event_create(uint32_t flags, struct rt_event **out);
int event_destroy(struct rt_event *ev);
int event_record(struct rt_event *ev, struct rt_stream *s);
int event_reset(struct rt_event *ev);
/* aclrtResetEvent: an ACL_EVENT_EXTERNAL event is reset in s's order. */
int event_reset_on(struct rt_event *ev, struct rt_stream *s);
int event_query(struct rt_event *ev, bool *done);
bool event_is_recorded(struct rt_event *ev);
int event_sync(struct rt_event *ev, int32_t timeout_ms);
int event_elapsed(struct rt_event *a, struct rt_event *b, float *ms);
int event_wait(struct rt_stream *s, struct rt_event *ev);
/*
 * s waits on the device for the event's last record, failing its job
 * with a timeout after timeout_ms (> 0).
 */
int event_wait_timeout(struct rt_stream *s, struct rt_event *ev,
		       int32_t timeout_ms);
/* The same, leaving graphs out (a replay's external wait). */
int event_wait_plain(struct rt_stream *s, struct rt_event *ev);
/*
 * Mark ev recorded by job seq of s (a replay's external record); prev is
 * its slot's value before that job was submitted.
 */
void event_set_record(struct rt_event *ev, struct rt_stream *s, uint64_t seq,
		      uint64_t prev);
/* The event's timestamp slot as it is now (0 once its device is gone). */
uint64_t event_slot_value(struct rt_event *ev);
/* Device time of the event's last completed record: -ENODATA, -EBUSY. */
int event_timestamp(struct rt_event *ev, uint64_t *ns);
void event_forget_stream(struct rt_stream *s);
void event_slots_release(struct rt_device *dev);

/* Events recorded into s's batch after job seq no longer have a record. */
void event_forget_after(struct rt_stream *s, uint64_t seq);
/* Event slots in use on dev. */
uint32_t event_slots_used(struct rt_device *dev);

/* notify.c: notifies on the current context's device. */
int notify_create(bool counting, struct rt_notify **out);
int notify_destroy(struct rt_notify *n);
/* Queue a write of value to the notify's word on s, in stream order. */
int notify_write(struct rt_notify *n, struct rt_stream *s, uint64_t value);
/*
 * Queue a wait on s until the word satisfies cond (DRM_VNPU_WAIT_*)
 * against value, failing the job after timeout_ns (0: the driver's
 * longest); with clear, a write of 0 follows the wait.
 */
int notify_wait(struct rt_notify *n, struct rt_stream *s, uint32_t cond,
		uint64_t value, uint64_t timeout_ns, bool clear);
/* Set the word to 0 from the host, now. */
int notify_host_reset(struct rt_notify *n);
uint64_t notify_host_value(struct rt_notify *n);
void notify_slots_release(struct rt_device *dev);

/* stream.c: streams (driver queues) of dev. */
uint32_t stream_count(struct rt_device *dev);
/* stream.c: drop the pending batch of s (aclrtStreamAbort). */
int stream_abort(struct rt_stream *s, uint32_t *dropped);

/* alloc.c */
/* A stream of dev got work: drains must look again (device.c). */
static inline void device_note_work(struct rt_device *dev)
{
	dev->work_gen++;
}

/* Known to have nothing submitted or pending: no drain needed. */
static inline bool device_known_quiet(struct rt_device *dev)
{
	return dev->work_gen == dev->quiet_gen;
}

int alloc_device(struct rt_device *dev, size_t size, bool pad, void **ptr);
int alloc_free(struct rt_device *dev, void *ptr);
int alloc_host(struct rt_device *dev, size_t size, void **ptr);
int alloc_free_host(struct rt_device *dev, void *ptr);
void alloc_release_all(struct rt_device *dev);
int alloc_lookup(struct rt_device *dev, const void *ptr, uint32_t *handle,
		 uint64_t *bo_off, uint64_t *avail);
/* A host range inside aclrtMallocHost memory: its device VA, else 0. */
uint64_t alloc_host_va(struct rt_device *dev, const void *ptr, size_t len);

/* mem_usage.c: bytes in use and peak: [0] device memory, [1] pinned host. */
void alloc_usage(struct rt_device *dev, uint64_t used[2], uint64_t peak[2]);

/* Does va lie among dev's DEVICE BOs (aclrtMalloc memory)? */
bool alloc_owns(struct rt_device *dev, uint64_t va);

/* copy_peer.c: pointers of other devices, copies between devices. */
/* The open device whose aclrtMalloc memory holds p (cur first), or NULL. */
struct rt_device *ptr_device(struct rt_device *cur, const void *p);
/* The open device whose aclrtMallocHost/registered memory holds p. */
struct rt_device *ptr_host_device(struct rt_device *cur, const void *p);
/*
 * A copy touching another device's memory: 1 and *ret set when handled
 * here (s is the ordering stream, NULL for a synchronous copy), 0 when
 * every device side is cur's.
 */
int xcopy(struct rt_device *cur, struct rt_stream *s, void *dst,
	  const void *src, size_t count, int *ret);

/* alloc.c: aclrtHostRegister (a PLACEMENT_USER BO over the range). */
int alloc_host_register(struct rt_device *dev, void *ptr, size_t size,
			uint64_t *va);
int alloc_host_unregister(struct rt_device *dev, void *ptr);

/* callback.c: aclrtLaunchCallback and aclrtLaunchHostFunc. */
int cb_subscribe(uint64_t tid, struct rt_stream *s);
int cb_unsubscribe(uint64_t tid, struct rt_stream *s);
int cb_launch(struct rt_stream *s, void (*fn)(void *), void *arg, bool block);
int cb_launch_host_func(struct rt_stream *s, void (*fn)(void *), void *arg);
/*
 * A media task in stream order on the media pool: fn returns 0, or not 0
 * to fail the stream's job (reported like a failed AI CPU task).
 */
int cb_launch_media(struct rt_stream *s, int (*fn)(void *), void *arg);
/* Queue fn(arg) for the thread subscribed to s, ready at once. */
int cb_post(struct rt_stream *s, void (*fn)(void *), void *arg);
/* Wait until s's subscriber ran everything queued for it. */
int cb_wait_all_run(struct rt_stream *s, int32_t timeout_ms);
int cb_process(uint64_t tid, int32_t timeout_ms);
void cb_forget_stream(struct rt_stream *s);
void cb_slots_release(struct rt_device *dev);
/*
 * True while this thread runs a callback: its stream is held back until
 * the callback returns, so nothing there may wait for the device.
 */
bool cb_running_here(void);

/* copy.c */
/* p's device VA (aclrtMalloc, aclrtMallocHost, registered), else 0. */
uint64_t copy_side_va(struct rt_device *dev, const void *p, size_t len);
/* May s do an async call synchronously (pageable memory)? 0 or -CAPERR_*. */
int copy_pageable_allowed(struct rt_stream *s);
int copy_2d(struct rt_stream *s, void *dst, size_t dpitch, const void *src,
	    size_t spitch, size_t width, size_t height);

int copy_sync(struct rt_context *ctx, void *dst, const void *src,
	      size_t count);
int copy_async(struct rt_stream *s, void *dst, const void *src, size_t count);
int fill_async(struct rt_stream *s, void *ptr, uint8_t value, size_t count);
int fill_sync(struct rt_context *ctx, void *ptr, uint8_t value, size_t count);

/*
 * copy_indirect.c: read len bytes of device memory at devp into out once
 * the stream's earlier work is done; -EOPNOTSUPP while s records a graph.
 */
int copy_read_indirect(struct rt_stream *s, void *out, const void *devp,
		       size_t len);

/* fill_wide.c: fill with a 2-, 4- or 8-byte pattern (bytes: a multiple). */
int fill_wide_async(struct rt_stream *s, void *ptr, uint64_t pattern,
		    uint32_t psize, size_t bytes);

/* reduce.c: dst = dst op src over n elements of dtype (DRM_VNPU_*). */
int reduce_async(struct rt_stream *s, void *dst, const void *src,
		 uint64_t n, uint32_t op, uint32_t dtype);

/* ipc.c: aclrtIpcMem* over PRIME dma-bufs. */
int ipc_export(struct rt_device *dev, void *ptr, size_t size, char *key,
	       size_t len);
int ipc_import(struct rt_device *dev, const char *key, void **ptr);
int ipc_close(const char *key);
int ipc_set_pid(const char *key);

/* Exception info for aclrtSetExceptionInfoCallback (stream.c). */
struct rtExceptionInfo {
	uint32_t task_id, stream_id, thread_id, device_id, error_code;
};
typedef void (*rt_exception_cb)(struct rtExceptionInfo *info);
void exception_cb_set(rt_exception_cb cb);

/* Fork safety (runtime.c): after fork the child forgets the parent's
 * objects; these reset each module's state in the child. */
void device_forget_after_fork(void);
void context_forget_after_fork(void);
void cb_forget_after_fork(void);
void ipc_forget_after_fork(void);
void graph_forget_after_fork(void);

/*
 * host_edge.c: host work a job waits for (a blocking callback) happens
 * before the return of any wait or query that sees such a job end, in C11
 * terms too: release after the host work, acquire after the wait.
 */
void host_done_release(void);
void host_done_acquire(void);

/*
 * aicpu_fail.c: a host ("AI CPU") node failed a job of queue_id (any queue
 * of dev for a captured graph's); the stream that collects that job as
 * timed out takes the note and reports ACL_ERROR_RT_AICPU_EXCEPTION.
 */
void aicpu_fail_note(const struct rt_device *dev, uint32_t queue_id,
		     bool any_queue);
bool aicpu_fail_take(const struct rt_device *dev, uint32_t queue_id);
void aicpu_fail_forget_queue(const struct rt_device *dev, uint32_t queue_id);
void aicpu_fail_forget_after_fork(void);

/* Helpers. */
int64_t deadline_ns(int32_t timeout_ms);
/* Nanoseconds left until such a deadline (0 when past, -1 for forever). */
int64_t ns_until(int64_t deadline);

#endif /* VNPU_CORE_RT_OBJECTS_H */
