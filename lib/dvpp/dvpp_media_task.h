/* SPDX-License-Identifier: MIT */
/*
 * Codec work as media tasks (dvpp_media_task.c): the bytes a task reads
 * from device memory and writes back, on the media CPU pool, in stream
 * order.
 */
#ifndef VNPU_DVPP_MEDIA_TASK_H
#define VNPU_DVPP_MEDIA_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

struct rt_device;
struct rt_stream;

/* Copy between device memory and the host through the driver. */
int dvpp_from_device(struct rt_device *dev, void *dst, const void *src,
		     size_t n);
int dvpp_to_device(struct rt_device *dev, void *dst, const void *src,
		   size_t n);

/*
 * Queue fn(arg) as a media task on the stream; fn frees arg when it has
 * run, the caller when this fails. A stream being captured into a graph
 * is refused: a host task cannot replay.
 */
aclError dvpp_media_launch(const char *func, struct rt_stream *s,
			   int (*fn)(void *), void *arg);

/* The device of a stream. */
struct rt_device *dvpp_stream_device(struct rt_stream *s);

/* Record a failed codec task's reason for the log. */
void dvpp_media_fail(const char *what, const char *why);

#endif /* VNPU_DVPP_MEDIA_TASK_H */
