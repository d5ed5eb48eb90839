/* SPDX-License-Identifier: MIT */
/*
 * ACL graphs (aclmdlRI): tasks recorded from capturing or bound streams,
 * turned into kernel command buffers and replayed.
 *
 * A graph is a list of segments. A segment is a run of tasks of one member
 * stream with no cross-stream dependency inside it: an event record ends
 * the recording stream's segment (others may wait for exactly that much),
 * and an event wait starts a new segment that depends on the recorded one.
 * Segments are created in an order where every dependency comes first, so
 * replaying them in creation order is a valid schedule.
 *
 * On replay, member 0 (the origin or head stream) runs on the stream the
 * graph is executed on; every other member runs on a queue of its own, so
 * branches of a fork run concurrently. Each segment with waiters signals a
 * binary syncobj that its waiters take as in-syncs.
 *
 * Capture errors travel through the core's -errno convention as negative
 * CAPERR_* values, which rt_error() turns into the documented aclError.
 */
#ifndef VNPU_CORE_GRAPH_H
#define VNPU_CORE_GRAPH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "acl/acl_base.h"
#include "rt_objects.h"

/* Capture failures, as positive numbers past every errno. */
enum {
	CAPERR_BASE = 4000,
	CAPERR_STREAM_CAPTURED,	/* stream is capturing or bound */
	CAPERR_EVENT_CAPTURED,	/* event is part of an active capture */
	CAPERR_NOT_CAPTURED,	/* stream is not capturing */
	CAPERR_MODE,		/* the capture mode forbids this call */
	CAPERR_IMPLICIT,	/* default stream touched by a capture */
	CAPERR_CONFLICT,	/* streams of two captures depend on each other */
	CAPERR_UNMATCHED,	/* End on a joined, not the origin, stream */
	CAPERR_WRONG_THREAD,	/* End from another thread */
	CAPERR_UNJOINED,	/* a joined stream did not join back */
	CAPERR_DEPENDENCY,	/* wait on work outside the capture */
	CAPERR_INVALIDATED,	/* an earlier error invalidated the capture */
	CAPERR_BLOCK_ASYNC,	/* pageable async copy while forbidden */
	CAPERR_PAGEABLE,	/* pageable copy on a capturing stream */
	CAPERR_STREAM_MODEL,	/* stream not bound to this graph */
	CAPERR_MODEL_STATE,	/* graph in the wrong state for the call */
	CAPERR_SUB_CAPTURING,	/* a conditional sub-graph still captures */
	CAPERR_MODEL_CAPTURED,	/* the sub-graph was captured already */
	CAPERR_COND_UNSUPPORTED,	/* a conditional shape vnpu cannot run */
	CAPERR_TASKGRP_STATUS,	/* task group begun twice, not begun, ... */
	CAPERR_TASKGRP_UPDATE,	/* re-captured tasks do not match the group */
	CAPERR_END
};

static inline bool caperr_is(int err)
{
	return -err > CAPERR_BASE && -err < CAPERR_END;
}

/* The aclError and a short explanation of a CAPERR_* value. */
aclError caperr_code(int err);
const char *caperr_text(int err);

#define GRAPH_MEMBERS	64	/* streams taking part in one graph */
#define GRAPH_EXT_EVENTS 16	/* external records / waits of one graph */
#define GRAPH_MAGIC	0x47524821u

enum graph_state {
	GRAPH_CAPTURING,	/* between CaptureBegin and CaptureEnd */
	GRAPH_BUILDING,		/* between BuildBegin and BuildEnd */
	GRAPH_READY,		/* command buffers registered, replayable */
};

struct graph_piece {		/* one command buffer of a segment */
	uint32_t count;		/* tasks */
	uint32_t cmdbuf;
	uint32_t first;		/* its first task in the segment */
	uint32_t args_size;	/* its argument block, room included */
};

/*
 * A place where a segment's command buffers must be cut (a task group's
 * start or end), and argument room to leave before it so that the group's
 * operators can be re-captured with larger argument blocks.
 */
struct graph_cut {
	uint32_t at;
	uint32_t room;
};

/* Argument bytes a task group's command buffer keeps spare for updates. */
#define GRAPH_GROUP_ARGS_ROOM	4096

/*
 * A task group (aclrtTaskGrp): tasks [first, first + count) of segment
 * seg, alone in one command buffer once registered (graph_update.c).
 */
struct graph_group {
	struct rt_graph *g;
	uint32_t seg, first, count;
	struct rt_stream *updater;	/* stream re-capturing it, or NULL */
};


/* One command buffer of a replay, in replay order, with its syncs. */
struct graph_step {
	uint32_t member, cmdbuf;
	const struct drm_vnpu_sync *in;	/* the segment's waits (first piece) */
	uint32_t nin, nout;
	struct drm_vnpu_sync out;	/* the segment's syncobj (last piece) */
};

struct submit_req;
struct graph_cond;

struct graph_seg {
	uint32_t member;
	struct drm_vnpu_task *tasks;
	uint32_t ntasks, tasks_cap;
	uint8_t *args;		/* argument blocks of the KERNEL tasks */
	size_t args_len, args_cap;
	uint32_t *arg_off;	/* per task: offset into args, or UINT32_MAX */
	uint32_t *deps;		/* segments of other members it waits for */
	uint32_t ndeps, deps_cap;
	bool closed;		/* an event was recorded at its end */
	bool waited;		/* some segment depends on it */
	uint32_t syncobj;	/* signalled by every replay, when waited */
	struct drm_vnpu_sync *in_syncs;	/* deps' syncobjs, for replays */
	struct graph_piece *pieces;
	uint32_t npieces;
	struct graph_cut *cuts;		/* ascending; task groups' bounds */
	uint32_t ncuts;
};

/* A re-capture of a group in progress on a stream (s->update). */
struct graph_update {
	struct graph_group *grp;
	struct graph_seg rec;		/* the tasks recorded so far */
	int err;			/* first mismatch, reported at the end */
};

struct graph_member {
	struct rt_stream *stream;	/* NULL once unbound */
	int32_t open_seg;		/* segment taking its tasks, -1 none */
	bool ended;			/* aclmdlRIEndTask was called */
	uint32_t queue_id, syncobj;	/* own queue on replay (member > 0) */
	uint64_t last_seq;		/* last replay job on that queue */
	/* A task group begun on it: where its tasks start (graph_update.c). */
	bool grp_open;
	uint32_t grp_seg, grp_first;
};

struct rt_graph {
	uint32_t magic;
	uint32_t id;
	char name[128];
	struct rt_context *ctx;
	pthread_mutex_t lock;		/* everything below */
	enum graph_state state;
	bool built;			/* from aclmdlRIBuildBegin, not a capture */
	int mode;			/* aclmdlRICaptureMode of the capture */
	pid_t owner_tid;		/* thread that began the capture */
	int invalid;			/* CAPERR/-errno that invalidated it */
	char invalid_why[160];
	uint64_t gen;			/* capture generation, for events */
	struct graph_member members[GRAPH_MEMBERS];
	uint32_t nmembers;
	struct graph_seg *segs;
	uint32_t nsegs, segs_cap;
	uint64_t ntasks;
	uint64_t replays;
	/* ACL_EVENT_RECORD_EXTERNAL / _WAIT_EXTERNAL events (graph_external.c). */
	struct rt_event *ext_rec[GRAPH_EXT_EVENTS];
	struct rt_event *ext_wait[GRAPH_EXT_EVENTS];
	uint32_t next_rec, next_wait;
	/* Fixed once registered: what every replay submits. */
	struct graph_step *steps;
	uint32_t nsteps;
	struct submit_req *reqs;	/* SUBMIT requests, refilled per replay */
	/*
	 * A replay needs nothing from user space to finish: one queue, no
	 * waits between segments, no WAIT_VALUE task (host callbacks, host
	 * edges, notify and timed event waits all are one). A sync after it
	 * may then keep the stream locked across its wait (stream.c).
	 */
	bool device_only;
	/*
	 * Conditional graphs (graph_cond.c): the condition handles this graph
	 * owns; for a sub-graph of one of them, the graph it belongs to (a
	 * sub-graph is never in the live list: its parent owns it).
	 */
	struct graph_cond *conds;
	struct rt_graph *parent;
	bool sub_captured;
	/*
	 * Stream switching in built graphs (graph_switch.c): one activation
	 * word per member, and which members each member can activate.
	 */
	void *act_words;
	bool ctl_flow;
	uint64_t can_activate[GRAPH_MEMBERS];
	/* Pinned copies of pageable host data a built graph's copies read. */
	void **staged;
	uint32_t nstaged;
	/* Task groups (graph_update.c), each a handle (aclrtTaskGrp). */
	struct graph_group **groups;
	uint32_t ngroups;
	struct rt_graph *next;		/* live graphs */
};

/* graph_capture.c: recording. Callers hold the stream's lock. */
int graph_capture_begin(struct rt_stream *s, int mode);
/* Begin capturing s into g, new or a sub-graph (g->parent set). */
int graph_capture_start(struct rt_stream *s, struct rt_graph *g, int mode);
int graph_capture_end(struct rt_stream *s, struct rt_graph **out);
int graph_capture_info(struct rt_stream *s, int *status, struct rt_graph **g);
int graph_exchange_mode(int *mode);
/* Whether the calling thread may make an unsafe (synchronous) call now. */
int graph_unsafe_allowed(void);
/*
 * Append a task; for a KERNEL task args is its argument block of
 * args_size bytes, padded with zeros to t->kernel.args_size (else NULL).
 */
int graph_record_locked(struct rt_stream *s, const struct drm_vnpu_task *t,
			const void *args, uint32_t args_size);
/* An event recorded on a recording stream (timestamp task included). */
int graph_record_event_locked(struct rt_stream *s, struct rt_event *ev,
			      const struct drm_vnpu_task *ts);
/* A wait of stream s for an event recorded in a capture. */
int graph_wait_event(struct rt_stream *s, struct rt_event *ev);
/* Whether an event is part of a capture still going on. */
bool graph_event_in_capture(struct rt_event *ev);
/* Whether tasks issued to s are recorded into a graph. */
bool graph_stream_records(struct rt_stream *s);
/* Whether any stream of the context is capturing. */
bool graph_ctx_capturing(struct rt_context *ctx);
/* Every joined member must have joined back: 0 or -CAPERR_UNJOINED. */
int graph_check_joined_locked(struct rt_graph *g);
/*
 * With s->lock held: the graph s records into while that graph's capture
 * is still going on, else NULL (the state is the graph's, under its lock).
 */
struct rt_graph *graph_capturing_locked(struct rt_stream *s);
/* Detach every member stream from g (end of capture, destroy). */
void graph_release_members(struct rt_graph *g);
/* Mark the capture of s invalid (a failed call during capture). */
void graph_invalidate_locked(struct rt_stream *s, int err, const char *why);

/*
 * graph_external.c: events recorded or waited for with the _EXTERNAL flag
 * on a capturing stream; -CAPERR_NOT_CAPTURED on any other stream.
 */
int graph_record_external(struct rt_stream *s, struct rt_event *ev,
			  const struct drm_vnpu_task *ts);
int graph_wait_external(struct rt_stream *s, struct rt_event *ev);
/* Before a replay on s: s waits for the external waits' events. */
int graph_external_waits(struct rt_graph *g, struct rt_stream *s);
/*
 * Around a replay on s (s and g locked): before it, the external records'
 * slot values (prev, GRAPH_EXT_EVENTS of them); after it, the records
 * happened.
 */
void graph_external_before_locked(struct rt_graph *g, uint64_t *prev);
void graph_external_records_locked(struct rt_graph *g, struct rt_stream *s,
				   const uint64_t *prev);

/* graph_capture.c, for graph_update.c: segments being recorded. */
int graph_open_seg_locked(struct rt_graph *g, uint32_t m,
			  struct graph_seg **out);
int graph_seg_push(struct graph_seg *seg, const struct drm_vnpu_task *t,
		   const void *args, uint32_t size);
int graph_recording_check_locked(struct rt_graph *g, uint32_t m);

/*
 * graph_update.c: task groups and their updates. A group is cut into a
 * command buffer of its own when the graph is registered; an update
 * re-captures its tasks on another stream and patches that command buffer
 * (DRM_IOCTL_VNPU_CMDBUF_UPDATE) once the stream's earlier work is done.
 */
int graph_group_begin(struct rt_stream *s);
int graph_group_end(struct rt_stream *s, void **handle);
int graph_update_begin(struct rt_stream *s, void *handle);
int graph_update_end(struct rt_stream *s);
/* With s->lock held and s->update set: record a task of the update. */
int graph_update_record_locked(struct rt_stream *s,
			       const struct drm_vnpu_task *t,
			       const void *args, uint32_t args_size);
/*
 * graph_exec.c: whether handle is a task group of a live graph; on success
 * the registry stays locked (the graph cannot go) until
 * graph_group_release().
 */
int graph_group_hold(void *handle, struct graph_group **out);
void graph_group_release(void);
/* Free g's groups (graph_free), and forget s's update (stream destroy). */
void graph_groups_free(struct rt_graph *g);
void graph_update_forget_stream(struct rt_stream *s);

/* graph_build.c: the manual build flow. */
int graph_build_begin(struct rt_context *ctx, struct rt_graph **out);
int graph_bind_stream(struct rt_graph *g, struct rt_stream *s, bool head);
int graph_end_task(struct rt_graph *g, struct rt_stream *s);
int graph_build_end(struct rt_graph *g);
int graph_unbind_stream(struct rt_graph *g, struct rt_stream *s);

/* graph_exec.c: command buffers, replay, teardown. */
int graph_instantiate(struct rt_graph *g);
int graph_execute(struct rt_graph *g, struct rt_stream *s);
int graph_execute_sync(struct rt_graph *g, int32_t timeout_ms);
int graph_destroy(struct rt_graph *g);
/* Check a handle; -ENOENT when it is not a live graph. */
int graph_lookup(void *handle, struct rt_graph **out);
void graph_register(struct rt_graph *g);
/* Whether g is a live graph of capture generation gen; its state out. */
bool graph_live_gen(struct rt_graph *g, uint64_t gen, enum graph_state *state);
void graph_free(struct rt_graph *g);
/* Driver queues the graphs of dev hold for their branches. */
uint32_t graph_queues_on(struct rt_device *dev);
/*
 * The context is being destroyed: its graphs go with it (an active
 * capture is abandoned, bound and capturing streams are released) and
 * their handles stop being live.
 */
void graph_forget_context(struct rt_context *ctx);
/* The stream is being destroyed: drop it from every graph's members. */
void graph_forget_stream(struct rt_stream *s);
/* An active capture ends without a graph (its context goes away). */
void graph_capture_abort(struct rt_graph *g);

/*
 * graph_cond.c: conditional sub-graphs. A condition handle is a device
 * word of its graph; AddCondTask marks a place in the recording stream's
 * segment and makes empty sub-graphs that CaptureToModelRIBegin fills;
 * at the parent's CaptureEnd the sub-graphs are inlined there, guarded
 * by DRM_VNPU_TASK_JUMP tasks that read the word.
 */
int graph_cond_create(struct rt_graph *g, uint32_t defval, int flag,
		      struct graph_cond **out);
int graph_cond_ptr(void *handle, uint64_t **ptr);
int graph_cond_add(void *handle, int type, uint32_t size,
		   struct rt_stream *s, void **subs);
/* Whether g is a sub-graph of a live condition handle. */
bool graph_cond_is_sub(struct rt_graph *g);
/* The sub-graph a handle names, if it may still be captured. */
int graph_cond_sub_lookup(void *handle, struct rt_graph **out);
/* At the parent's CaptureEnd (g locked): check and inline the sub-graphs. */
int graph_cond_finish_locked(struct rt_graph *g);
/* g goes away: its handles, words and sub-graphs with it. */
void graph_cond_destroy(struct rt_graph *g);

/*
 * graph_switch.c: aclrtActiveStream / aclrtSwitchStream on streams bound
 * to a graph being built (s: the stream the task is issued to).
 */
int graph_active_stream(struct rt_stream *s, struct rt_stream *active);
int graph_switch_stream(struct rt_stream *s, uint64_t left, uint32_t cond,
			uint64_t right, bool is32, struct rt_stream *ts,
			struct rt_stream *fs);
/* At BuildEnd (g locked): lay a graph with control flow out as one segment. */
int graph_switch_finish_locked(struct rt_graph *g);
void graph_switch_destroy(struct rt_graph *g);
/*
 * An async copy from pageable host memory to a stream bound to a graph
 * being built: the data is copied now into pinned memory the graph owns,
 * whose address *va the recorded COPY reads. 1: s builds no graph.
 */
int graph_stage_pageable(struct rt_stream *s, const void *src, size_t count,
			 uint64_t *va);

/* graph_json.c: aclmdlRIDebugJsonPrint. */
int graph_json_print(struct rt_graph *g, const char *path, bool verbose);

#endif /* VNPU_CORE_GRAPH_H */
