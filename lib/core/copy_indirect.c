/* SPDX-License-Identifier: MIT */
/*
 * Copies whose addresses live in device memory (aclrtMemcpyAsyncWithDesc,
 * aclrtMemcpyAsyncWithOffset). The device has no task that reads its
 * addresses from memory, so the runtime reads them when the call is made,
 * after the stream's earlier work (which may have written them) is done,
 * and queues an ordinary COPY. That keeps stream order; what it cannot do
 * is follow a later change of the addresses, so such a call cannot be
 * recorded into a graph.
 */
#include <errno.h>

#include "rt_objects.h"

int copy_read_indirect(struct rt_stream *s, void *out, const void *devp,
		       size_t len)
{
	bool capturing;
	int ret;

	pthread_mutex_lock(&s->lock);
	capturing = s->graph != NULL;
	pthread_mutex_unlock(&s->lock);
	if (capturing)
		return -EOPNOTSUPP;
	ret = stream_drain(s);
	return ret ? ret : copy_sync(s->ctx, out, devp, len);
}
