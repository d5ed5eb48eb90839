/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: engines, queues, batches, command buffers and jobs.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_JOB_H__
#define __VNPU_JOB_H__

#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <drm/gpu_scheduler.h>
#include <uapi/drm/vnpu_accel.h>

struct drm_syncobj;
struct dma_fence_chain;
struct drm_device;
struct drm_file;
struct task_struct;
struct vnpu_device;
struct vnpu_file;
struct vnpu_op_call;

/**
 * struct vnpu_engine - one AI core: a scheduler feeding a worker thread
 * @vdev: the device
 * @index: engine number within the device
 * @sched: the DRM GPU scheduler that picks jobs for this engine
 * @worker: the thread that executes jobs, one slice at a time
 * @lock: guards @jobs, @nr_files and @current_job, and the jobs' run-time
 *	accounting; also the hardware fences' lock
 * @jobs: jobs handed over by run_job and not finished (running, parked or
 *	not started), oldest first; at most one per queue
 * @nr_files: distinct files (contexts) that have a job in @jobs
 * @nr_jobs: jobs in @jobs
 * @current_job: the job being executed, or NULL
 * @wq: the worker waits here for work
 * @fence_context: fence context of the hardware fences
 * @fence_seqno: last hardware fence seqno
 * @tickets: jobs handed over so far; orders a file's jobs by arrival
 * @progress: tasks (and operator tiles) completed since load
 * @busy_ns: time spent executing jobs
 * @jobs_done: jobs finished, whatever their status
 * @tasks_done: tasks that ended, done or failed (ENGINE_TASKS)
 * @bytes: bytes those tasks moved (ENGINE_BYTES)
 * @resets: hung jobs aborted
 * @overruns: jobs aborted for running longer than job_max_ms
 * @yields: slices that ended with the job parked for another file's job
 * @tiles_helped: operator pieces run for other engines' calls
 * @split_calls: calls with phases (long rows split into chunks) this
 *	engine owned
 * @split_pieces: pieces of calls with phases this engine ran, its own
 *	calls' and other engines'
 * @split_parks: calls with phases parked half way at a slice's end
 * @split_unparked: slice ends such a call ran past, for want of memory
 *	to park its partial results in
 * @name: for the scheduler and the thread
 * @op_call: operator call and scratch memory of the engine's worker
 */
struct vnpu_engine {
	struct vnpu_device *vdev;
	u32 index;
	struct drm_gpu_scheduler sched;
	struct task_struct *worker;
	spinlock_t lock; /* guards jobs, nr_files, nr_jobs, current_job; fence lock */
	struct list_head jobs;
	u32 nr_files;
	u32 nr_jobs;
	struct vnpu_job *current_job;
	wait_queue_head_t wq;
	u64 fence_context;
	u64 fence_seqno;
	u64 tickets;
	atomic64_t progress;
	atomic64_t busy_ns;
	atomic64_t jobs_done;
	atomic64_t tasks_done;
	atomic64_t bytes;
	atomic64_t resets;
	atomic64_t overruns;
	atomic64_t yields;
	atomic64_t tiles_helped;
	atomic64_t split_calls;
	atomic64_t split_pieces;
	atomic64_t split_parks;
	atomic64_t split_unparked;
	char name[32];
	struct vnpu_op_call *op_call;
};

/**
 * struct vnpu_batch - a validated, kernel-owned list of tasks
 * @ref: submissions and command buffers holding it
 * @count: number of tasks
 * @tasks: the tasks in version-1 layout
 * @args: the argument block
 * @args_size: its size
 * @vfile: the file that created it (reference): its buffer cache takes
 *	the buffers back, and its budget counts a command buffer
 * @bytes: task and argument memory, what the file's limits count
 * @cmdbuf_charged: a command buffer, counted against @vfile's command
 *	buffer limits until released
 * @binding_count: entries of the binding table every replay passes (a
 *	command buffer created with DRM_VNPU_CMDBUF_BINDINGS); else 0
 */
struct vnpu_batch {
	struct kref ref;
	u32 count;
	u32 binding_count;
	struct drm_vnpu_task *tasks;
	void *args;
	u32 args_size;
	struct vnpu_file *vfile;
	u64 bytes;
	bool cmdbuf_charged;
};

/**
 * struct vnpu_cmdbuf - a command buffer: what its handle names
 * @ref: the file's table and every replay (job) of it
 * @lock: guards @batch
 * @batch: the current contents (reference); CMDBUF_UPDATE swaps it, and a
 *	replay takes it when its job first runs (vnpu_cmdbuf_bind())
 * @update_lock: serialises updates, so none is lost
 * @vfile: the file, whose command buffer budget counts it (its @batch
 *	holds the file reference)
 */
struct vnpu_cmdbuf {
	struct kref ref;
	spinlock_t lock; /* guards batch */
	struct vnpu_batch *batch;
	struct mutex update_lock; /* serialises CMDBUF_UPDATE */
	struct vnpu_file *vfile;
};

/* Largest task stride of a batch (bytes between descriptors). */
#define VNPU_MAX_STRIDE		4096

/**
 * struct vnpu_job_record - how a job ended, as JOB_STATUS reports it
 * @seq: the job
 * @state: enum drm_vnpu_job_state
 * @error: errno on its fences
 * @task: failing task
 * @access: DRM_VNPU_ACCESS_* of a fault
 * @reason: enum drm_vnpu_fault_reason
 * @va: faulting address
 */
struct vnpu_job_record {
	u64 seq;
	u32 state;
	s32 error;
	u32 task;
	u32 access;
	u32 reason;
	u64 va;
};

/**
 * struct vnpu_queue - a queue of jobs (an ACL stream)
 * @ref: the file's table and every job of the queue
 * @vfile: the owning context
 * @id: id in the file
 * @priority: DRM_VNPU_PRIORITY_*
 * @entity: the scheduler entity; spans every engine of the device
 * @syncobj: timeline syncobj, point N signals when job N is done
 * @submit_lock: orders sequence numbers, arming and pushing
 * @submitted: sequence number of the last job submitted
 * @status_lock: guards everything below
 * @completed: sequence number of the last job finished
 * @history: the last DRM_VNPU_STATUS_HISTORY jobs' records
 * @error: the queue is in its error state
 * @first_error: record of the job that put it there
 * @destroyed: QUEUE_DESTROY or file close happened
 * @room: submitters wait here while queue_depth jobs are in flight
 */
struct vnpu_queue {
	struct kref ref;
	struct vnpu_file *vfile;
	u32 id;
	u32 priority;
	struct drm_sched_entity entity;
	struct drm_syncobj *syncobj;
	struct mutex submit_lock; /* see above */
	u64 submitted;
	spinlock_t status_lock; /* see above */
	u64 completed;
	struct vnpu_job_record history[DRM_VNPU_STATUS_HISTORY];
	bool error;
	struct vnpu_job_record first_error;
	bool destroyed;
	wait_queue_head_t room;
};

/**
 * struct vnpu_hw_fence - the engine's completion fence of a job
 * @base: the fence; initialised when the job reaches an engine
 */
struct vnpu_hw_fence {
	struct dma_fence base;
};

/**
 * struct vnpu_job - one submission
 * @base: scheduler job
 * @ref: the scheduler, the engine worker and the timeout handler
 * @vdev: the device
 * @queue: the queue (reference)
 * @vfile: the context whose address space the tasks use (reference)
 * @batch: the tasks (reference)
 * @cmdbuf: the command buffer a replay runs (reference), else NULL; its
 *	current contents replace @batch when the job first runs
 * @bindings: the binding table of a replay of a command buffer with
 *	bindings (@batch->binding_count entries, owned), else NULL
 * @seq: sequence number in @queue
 * @hw: hardware fence, allocated at submit so run_job never allocates
 * @reached_run: the scheduler called run_job for it
 * @hw_ready: @hw was initialised (the job reached an engine)
 * @engine: the engine running it
 * @ticket: arrival order on @engine
 * @link: entry in the engine's job list, until the job finishes
 * @rec: the outcome, filled by the worker
 * @abort: 0, or the errno the timeout handler aborted the job with
 * @progress: tasks, steps, tiles and polls the job completed
 * @progress_mark: @progress when the timeout handler last saw it move
 * @mark_run_ns: @run_ns at that moment
 * @inject_hang: fault injection: never make progress
 * @inject_fault: fault injection: fault at the first task
 * @charged: the job counts against its file's jobs in flight
 * @charged_bytes: and this much against their task and argument memory
 * @started: the worker ran a slice of it
 * @waiting: it is polling a WAIT_VALUE: it waits for others and does not
 *	keep its file's other jobs off the engine (READ_ONCE/WRITE_ONCE)
 * @run_ns: engine time of its finished slices (engine lock)
 * @slice_start: when its current slice began (engine lock)
 * @slice_end: when its current slice may end at the next yield point
 * @ready_ns: when it reached the engine or was last parked; the worker
 *	resumes the file whose job has waited longest
 * @next_task: the task to run or resume
 * @task_pos: how far that task got: bytes, rows or operator pieces done
 * @task_deadline: a started WAIT_VALUE's or SPIN's end (CLOCK_MONOTONIC),
 *	or 0
 * @slot: the job holds one of its file's slots of an engine (vnpu_slots.c)
 * @slot_engine: that engine's index
 * @split_save: the shared partial results of an operator call with phases
 *	that was parked half way (VNPU_OPS_SHARED bytes), or NULL
 * @submit_ns: when SUBMIT accepted it
 * @first_ns: when its first slice started, or 0
 * @slices: slices it ran in
 * @parks: times it was parked at a slice's end
 * @task_start_ns: when the task at @next_task first started, set only
 *	while profiling is on (else 0)
 * @task_parks: times that task was parked
 * @task_pieces: pieces that task's operator call was split into
 * @jumps: backward JUMPs taken (at most DRM_VNPU_MAX_JUMPS)
 */
struct vnpu_job {
	struct drm_sched_job base;
	struct kref ref;
	struct vnpu_device *vdev;
	struct vnpu_queue *queue;
	struct vnpu_file *vfile;
	struct vnpu_batch *batch;
	struct vnpu_cmdbuf *cmdbuf;
	u64 *bindings;
	u64 seq;
	struct vnpu_hw_fence *hw;
	bool reached_run;
	bool hw_ready;
	struct vnpu_engine *engine;
	u64 ticket;
	struct list_head link;
	struct vnpu_job_record rec;
	atomic_t abort;
	atomic64_t progress;
	u64 progress_mark;
	u64 mark_run_ns;
	bool inject_hang;
	bool inject_fault;
	bool charged;
	u64 charged_bytes;
	bool started;
	bool waiting;
	u64 run_ns;
	u64 slice_start;
	u64 slice_end;
	u64 ready_ns;
	u32 next_task;
	u64 task_pos;
	u64 task_deadline;
	bool slot;
	u32 slot_engine;
	void *split_save;
	u64 submit_ns;
	u64 first_ns;
	u32 slices;
	u32 parks;
	u64 task_start_ns;
	u32 task_parks;
	u32 task_pieces;
	u32 jumps;
};

/*
 * vnpu_job_execute() returns this (not an errno) when the job stopped at a
 * yield point to let another file's job run; it resumes where it stopped.
 */
#define VNPU_JOB_YIELD		1

static inline struct vnpu_job *to_vnpu_job(struct drm_sched_job *job)
{
	return container_of(job, struct vnpu_job, base);
}

/* vnpu_job.c */
extern const struct drm_sched_backend_ops vnpu_sched_ops;
struct vnpu_job *vnpu_job_alloc(struct vnpu_device *vdev,
				struct vnpu_file *vfile,
				struct vnpu_queue *queue,
				struct vnpu_batch *batch);
int vnpu_job_charge(struct vnpu_job *job);
int vnpu_job_init(struct drm_file *file, struct vnpu_job *job,
		  struct vnpu_queue *queue);
void vnpu_job_put(struct vnpu_job *job);
void vnpu_job_finish(struct vnpu_engine *engine, struct vnpu_job *job,
		     int err);

/* vnpu_slots.c */
int vnpu_slots_init(struct vnpu_file *vfile);
void vnpu_slots_fini(struct vnpu_file *vfile);
struct dma_fence *vnpu_slot_take(struct vnpu_engine *engine,
				 struct vnpu_job *job);
void vnpu_slot_release(struct vnpu_job *job);

/* vnpu_engine.c */
int vnpu_engines_init(struct vnpu_device *vdev);
void vnpu_engine_add(struct vnpu_engine *engine, struct vnpu_job *job);
int vnpu_job_check(struct vnpu_engine *engine, struct vnpu_job *job);

/* vnpu_exec.c */
int vnpu_job_execute(struct vnpu_engine *engine, struct vnpu_job *job);
void vnpu_copy_kernel(void *dst, const void *src, size_t n);
/* vnpu_memcpy.c */
int vnpu_copy_in(u8 *dst, const u8 __user *src, size_t n);

/* vnpu_batch.c */
struct vnpu_batch *vnpu_batch_create(struct vnpu_file *vfile, u64 tasks,
				     u32 count, u32 stride, u64 args,
				     u32 args_size, u32 binding_count);
void vnpu_batch_put(struct vnpu_batch *batch);
int vnpu_batch_copy_tasks(struct drm_device *drm, struct vnpu_batch *batch,
			  u64 tasks, u32 count, u32 stride);
int vnpu_batch_validate(struct drm_device *drm, struct vnpu_batch *batch);

/* vnpu_cmdbuf.c */
struct vnpu_cmdbuf *vnpu_cmdbuf_get(struct vnpu_file *vfile, u32 handle,
				    struct vnpu_batch **batch);
void vnpu_cmdbuf_put(struct vnpu_cmdbuf *cmdbuf);
void vnpu_cmdbuf_bind(struct vnpu_job *job);
void vnpu_cmdbufs_fini(struct vnpu_file *vfile);
int vnpu_cmdbuf_update_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vnpu_cmdbuf_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vnpu_cmdbuf_destroy_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file);

/* vnpu_queue.c */
struct vnpu_queue *vnpu_queue_get(struct vnpu_file *vfile, u32 id);
void vnpu_queue_put(struct vnpu_queue *queue);
void vnpu_queue_record(struct vnpu_queue *queue,
		       const struct vnpu_job_record *rec);
void vnpu_queues_fini(struct vnpu_file *vfile);
int vnpu_queue_wait_room(struct vnpu_queue *queue);
bool vnpu_queue_has_room(struct vnpu_queue *queue);
int vnpu_queue_job_record(struct vnpu_queue *queue, u64 seq,
			  struct vnpu_job_record *rec);
int vnpu_queue_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file);
int vnpu_queue_destroy_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);
int vnpu_queue_reset_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *file);
int vnpu_job_status_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);

/* vnpu_submit.c */
int vnpu_submit(struct drm_file *file, struct drm_vnpu_submit *args,
		bool nonblock);
int vnpu_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file);

#endif /* __VNPU_JOB_H__ */
