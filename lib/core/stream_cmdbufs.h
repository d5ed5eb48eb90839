/* SPDX-License-Identifier: MIT */
/*
 * Command buffers submitted as a stream's next jobs by a layer above core
 * (a model's pieces, lib/mdl/mdl_run.c), with the stream's lock taken
 * here: the lock order is stream, then the caller's own lock (taken in
 * @begin, dropped in @end), and it lives in core with the rest of
 * rt_objects.h's order.
 */
#ifndef VNPU_CORE_STREAM_CMDBUFS_H
#define VNPU_CORE_STREAM_CMDBUFS_H

#include <stdbool.h>
#include <stdint.h>

#include <drm/vnpu_accel.h>

struct rt_stream;

/* Where a stream's jobs stand: its queue, its timeline and last job. */
struct stream_point {
	uint32_t queue_id;
	uint32_t syncobj;
	uint64_t seq;
};

struct stream_cmdbuf_run {
	/* Before the flush: get ready (the caller takes its lock here). */
	int (*begin)(void *arg, const struct rt_stream *s,
		     const struct stream_point *now);
	/* After the stream's pending tasks went out: 0 or -errno. */
	int (*ready)(void *arg, uint32_t queue_id);
	/* Request @i (queue_id is set by core); false when there is none. */
	bool (*next)(void *arg, uint32_t i, struct drm_vnpu_submit *sub);
	/*
	 * Always after a successful begin: @moved when any of the run's
	 * requests went in (the flush's own job does not count).
	 */
	void (*end)(void *arg, const struct rt_stream *s,
		    const struct stream_point *after, bool moved);
	void *arg;
};

#define STREAM_CAPTURING	1	/* stream_submit_cmdbufs: nothing done */

/*
 * Run @run on @s. Returns 0, STREAM_CAPTURING when the stream is
 * capturing a graph (the caller records its tasks instead), or the first
 * -errno of begin, the flush, ready or a submit (the requests before it
 * stay submitted).
 */
int stream_submit_cmdbufs(struct rt_stream *s,
			  const struct stream_cmdbuf_run *run);

#endif /* VNPU_CORE_STREAM_CMDBUFS_H */
