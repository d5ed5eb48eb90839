// SPDX-License-Identifier: MIT
/*
 * The codecs run on the host's "media CPU" pool (core's cb_launch_media):
 * a task copies its input out of device memory with the driver's copy,
 * decodes or encodes with the library, and copies the result back. The
 * stream waits for it like for an AI CPU node, so the pictures are ready
 * for the next task of the stream, and a failed codec fails the job:
 * the stream's synchronize reports ACL_ERROR_RT_AICPU_EXCEPTION.
 */
#include "../core/entry_check.h"
#include "../core/device_io.h"
#include "../core/graph.h"
#include "../core/log.h"
#include "../core/rt_objects.h"
#include "dvpp_media_task.h"

int dvpp_from_device(struct rt_device *dev, void *dst, const void *src,
		     size_t n)
{
	return device_copy(dev, (uintptr_t)dst, (uintptr_t)src, n,
			   DRM_VNPU_MEMCPY_SRC_DEVICE);
}

int dvpp_to_device(struct rt_device *dev, void *dst, const void *src,
		   size_t n)
{
	return device_copy(dev, (uintptr_t)dst, (uintptr_t)src, n,
			   DRM_VNPU_MEMCPY_DST_DEVICE);
}

aclError dvpp_media_launch(const char *func, struct rt_stream *s,
			   int (*fn)(void *), void *arg)
{
	int ret;

	if (graph_stream_records(s))
		return acl_fail_at(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				   "codec tasks run on the host and cannot be captured into a graph");
	ret = cb_launch_media(s, fn, arg);
	return ret ? rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				 "queueing a media task") : ACL_SUCCESS;
}

struct rt_device *dvpp_stream_device(struct rt_stream *s)
{
	return s->ctx->dev;
}

void dvpp_media_fail(const char *what, const char *why)
{
	rt_log(LOG_ERROR, "%s failed: %s", what, why);
}
