/* SPDX-License-Identifier: MIT */
/*
 * What the runtime records for the profiler (lib/prof reads it). Every
 * layer may call these; with profiling off each costs one relaxed load.
 *
 * - prof_rt_mask: the ACL_PROF_* bits being collected now (0: off);
 *   lib/prof sets it at aclprofStart/Stop (and for acl.json / msprof).
 * - Task tags: a task pushed to a stream carries the pushing thread's
 *   current tag (drm_vnpu_task.tag); the kernel copies it into the task's
 *   profile record, and prof_tag_lookup() names it (op type, op name,
 *   model). Tags are interned once and live until the process ends.
 * - Host events: API spans, launches, model executions, memory events and
 *   markers, appended to one buffer that lib/prof drains.
 */
#ifndef VNPU_CORE_PROF_RT_H
#define VNPU_CORE_PROF_RT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

extern _Atomic uint64_t prof_rt_mask;

/*
 * -DVNPU_PROF_COMPILED_OUT builds the runtime as it was before profiling
 * (for the launch-cost benchmark): nothing is ever collected, tasks carry
 * no tags and PROF_API() is empty. Sessions then record no host events.
 */
#ifdef VNPU_PROF_COMPILED_OUT
static inline bool prof_rt_on(uint64_t bits)
{
	(void)bits;
	return false;
}
#else
static inline bool prof_rt_on(uint64_t bits)
{
	return (atomic_load_explicit(&prof_rt_mask, memory_order_relaxed) &
		bits) != 0;
}
#endif

/* CLOCK_MONOTONIC in ns: the clock of the kernel's records. */
uint64_t prof_rt_now(void);

/* What kind of work a tag names (op_summary's Task Type). */
enum prof_task_kind {
	PROF_TASK_AI_CORE = 0,	/* an operator on the AI-core engines */
	PROF_TASK_AI_CPU = 1,	/* an operator run on the host (AI CPU) */
	PROF_TASK_MEMCPY = 2,	/* a copy or fill */
	PROF_TASK_DVPP = 3,	/* a media task */
	PROF_TASK_MARK = 4,	/* an msproftx device mark */
};

struct prof_tag_info {
	const char *op_type;	/* "Conv2D", "MatMul", ... */
	const char *op_name;	/* node or call name */
	uint32_t model_id;	/* 0: not part of a model */
	uint32_t kind;		/* enum prof_task_kind */
	const char *shapes;	/* "in0;in1|out0" dims as "1,3,224,224", or NULL */
};

/*
 * The tag of (op_type, op_name, model_id, kind), made on first use: the
 * same arguments give the same tag. shapes may be NULL; it is copied.
 * Returns 0 (no tag) only when memory runs out. Never 0 for a real tag.
 */
uint32_t prof_tag_intern(const char *op_type, const char *op_name,
			 uint32_t model_id, uint32_t kind, const char *shapes);

/* 0 and out filled (pointers live until exit), or -ENOENT. */
int prof_tag_lookup(uint32_t tag, struct prof_tag_info *out);

/* Tags made so far (the highest tag). */
uint32_t prof_tag_count(void);

/* The calling thread's current tag; returns the previous one. */
uint32_t prof_tag_swap(uint32_t tag);
uint32_t prof_tag_current(void);

/* Host events. */
enum prof_event_kind {
	PROF_EV_API = 1,	/* an ACL call: name, start, end */
	PROF_EV_LAUNCH,		/* a task pushed: device, queue, seq, task, tag */
	PROF_EV_MODEL,		/* a model execution: id, device, queue, start, end */
	PROF_EV_MEM,		/* a device allocation (value > 0) or free */
};

struct prof_event {
	uint16_t kind;		/* enum prof_event_kind */
	uint16_t level;		/* PROF_EV_API: PROF_LEVEL_* */
	uint32_t tid;		/* gettid() of the recording thread */
	uint64_t start_ns, end_ns;
	const char *name;	/* static string: API or model name */
	int32_t device;
	uint32_t queue;
	uint64_t seq;		/* LAUNCH: job; MODEL: model id */
	uint32_t task;		/* LAUNCH: index in the job */
	uint32_t tag;
	uint64_t addr;		/* MEM: the pointer */
	int64_t value;		/* MEM: +size allocated, -size freed */
};

enum {
	PROF_LEVEL_ACL = 0,	/* "AscendCL" */
	PROF_LEVEL_RUNTIME,	/* "Runtime" */
	PROF_LEVEL_MODEL,	/* "Model" */
	PROF_LEVEL_NODE,	/* "Node" */
};

/*
 * A copy of s that lives until the process ends (the same string gives
 * the same copy), for prof_event.name; NULL when memory runs out.
 */
const char *prof_rt_string(const char *s);

/*
 * PROF_EV_MODEL for an execution of model (or graph) id named name on
 * (device, queue) from start to now, when a session runs.
 */
void prof_rt_model(uint32_t id, const char *name, int32_t device,
		   uint32_t queue, uint64_t start);

/* PROF_EV_MEM (ACL_PROF_TASK_MEMORY): size > 0 allocated, < 0 freed. */
void prof_rt_mem(int32_t device, const void *p, int64_t size);

/* Append e (kind, times and fields set; tid is filled in). */
void prof_rt_record(const struct prof_event *e);

/*
 * Move the buffered events out: calls fn for each in order, then
 * empties the buffer. Returns how many were lost to a full buffer since
 * the last call.
 */
uint64_t prof_rt_drain(void (*fn)(const struct prof_event *e, void *arg),
		       void *arg);

/*
 * An ACL API span: put PROF_API(); first in an entry point. When
 * ACL_PROF_ACL_API is collected, the call's duration is recorded at
 * every return.
 */
struct prof_api_scope {
	const char *name;
	uint64_t start;
};

/* The out-of-line halves, taken only while collecting. */
struct prof_api_scope prof_api_begin_on(const char *name);
void prof_api_end_on(struct prof_api_scope *s);

/* One relaxed load when ACL_PROF_ACL_API (0x1) is not collected. */
static inline struct prof_api_scope prof_api_begin(const char *name)
{
	struct prof_api_scope s = { 0, 0 };

	if (prof_rt_on(0x1))	/* ACL_PROF_ACL_API */
		s = prof_api_begin_on(name);
	return s;
}

static inline void prof_api_end(struct prof_api_scope *s)
{
	if (s->name)
		prof_api_end_on(s);
}

#ifdef VNPU_PROF_COMPILED_OUT
#define PROF_API() do { } while (0)
#else
#define PROF_API()							\
	struct prof_api_scope prof_api_scope__				\
		__attribute__((cleanup(prof_api_end))) =		\
			prof_api_begin(__func__)
#endif

/*
 * A runtime-level span (ACL_PROF_RUNTIME_API, level "Runtime"): put
 * PROF_RUNTIME("Submit"); first in the submission path's calls.
 */
struct prof_api_scope prof_runtime_begin(const char *name);
void prof_runtime_end(struct prof_api_scope *s);

#ifdef VNPU_PROF_COMPILED_OUT
#define PROF_RUNTIME(name) do { } while (0)
#else
#define PROF_RUNTIME(name)						\
	struct prof_api_scope prof_rt_scope__				\
		__attribute__((cleanup(prof_runtime_end))) =		\
			prof_runtime_begin(name)
#endif

/*
 * Tag the tasks the rest of the calling scope pushes: PROF_TAG("Memcpy",
 * __func__, PROF_TASK_MEMCPY); interned on the call site's first use,
 * the previous tag comes back when the scope ends. type and name must
 * be the same strings at every pass.
 */
uint32_t prof_tag_cached(_Atomic uint32_t *cache, const char *type,
			 const char *name, uint32_t kind);
void prof_tag_restore(uint32_t *old);

#ifdef VNPU_PROF_COMPILED_OUT
#define PROF_TAG(type, name, kind) do { } while (0)
#else
#define PROF_TAG(type, name, kind)					\
	static _Atomic uint32_t prof_tag_cache__;			\
	uint32_t prof_tag_old__ __attribute__((cleanup(prof_tag_restore))) = \
		prof_tag_swap(prof_tag_cached(&prof_tag_cache__, (type), \
					      (name), (kind)))
#endif

#endif /* VNPU_CORE_PROF_RT_H */
