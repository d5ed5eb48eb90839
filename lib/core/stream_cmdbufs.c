// SPDX-License-Identifier: MIT
/* stream_submit_cmdbufs(): see stream_cmdbufs.h. */
#include <errno.h>
#include <pthread.h>

#include "rt_objects.h"
#include "stream_cmdbufs.h"

static struct stream_point stream_point_of(const struct rt_stream *s)
{
	return (struct stream_point){
		.queue_id = s->queue_id,
		.syncobj = s->syncobj,
		.seq = s->last_seq,
	};
}

int stream_submit_cmdbufs(struct rt_stream *s,
			  const struct stream_cmdbuf_run *run)
{
	struct stream_point before, after;
	struct drm_vnpu_submit sub;
	uint64_t flushed;
	int ret;

	pthread_mutex_lock(&s->lock);
	if (s->graph) {
		pthread_mutex_unlock(&s->lock);
		return STREAM_CAPTURING;
	}
	before = stream_point_of(s);
	ret = run->begin(run->arg, s, &before);
	if (ret) {
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	ret = stream_flush_locked(s);
	flushed = s->last_seq;
	if (!ret)
		ret = run->ready(run->arg, s->queue_id);
	for (uint32_t i = 0; !ret && run->next(run->arg, i, &sub); i++) {
		sub.queue_id = s->queue_id;
		ret = stream_submit_locked(s, &sub, false);
	}
	after = stream_point_of(s);
	run->end(run->arg, s, &after, after.seq != flushed);
	pthread_mutex_unlock(&s->lock);
	return ret;
}
