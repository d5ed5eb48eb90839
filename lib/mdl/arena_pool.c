// SPDX-License-Identifier: MIT
/*
 * The activation arenas of a model. No execution allocates device memory
 * once the pool has grown to the concurrency the program uses:
 *  1. an arena whose last job was on the same stream is taken at once,
 *     since stream order runs the new job after it;
 *  2. else an arena that is idle (never used, or its last job is done);
 *  3. else, while the pool is below MDL_POOL_MAX (and not the caller's
 *     fixed work memory), a new arena;
 *  4. else the arenas in turn, the job waiting on the device for the
 *     arena's last job (an in-sync on that queue's timeline).
 * Called with the model's lock held.
 */
#include <errno.h>

#include "../core/device_io.h"
#include "model.h"

static bool arena_idle(struct mdl_model *m, struct mdl_arena *a)
{
	uint64_t point;

	if (!a->seq)
		return true;
	/* A timeline that is gone belonged to a destroyed, drained stream. */
	return device_sync_query(m->dev, a->syncobj, &point) || point >= a->seq;
}

int arena_pick(struct mdl_model *m, const struct rt_stream *s,
	       const struct stream_point *pt, struct mdl_arena **out,
	       struct drm_vnpu_sync *wait, bool *must_wait)
{
	struct mdl_arena *a;
	int ret;

	*must_wait = false;
	for (uint32_t i = 0; i < m->narenas; i++) {
		a = &m->arenas[i];
		if (a->seq && s && a->stream == s &&
		    a->queue_id == pt->queue_id && a->syncobj == pt->syncobj) {
			*out = a;
			return 0;
		}
	}
	for (uint32_t i = 0; i < m->narenas; i++)
		if (arena_idle(m, &m->arenas[i])) {
			*out = &m->arenas[i];
			return 0;
		}
	if (!m->fixed && m->narenas < MDL_POOL_MAX) {
		a = &m->arenas[m->narenas];
		*a = (struct mdl_arena){ 0 };
		if (m->arena_size) {
			ret = alloc_device(m->dev, m->arena_size, false, &a->ptr);
			if (ret)
				return ret;
			a->va = copy_side_va(m->dev, a->ptr, m->arena_size);
			m->arena_allocs++;
		}
		m->narenas++;
		*out = a;
		return 0;
	}
	a = &m->arenas[m->next_wait++ % m->narenas];
	*wait = (struct drm_vnpu_sync){ .handle = a->syncobj, .point = a->seq };
	*must_wait = true;
	*out = a;
	return 0;
}

/*
 * A model with host nodes: an arena whose last job is done, since the
 * arena's block of host bindings is rewritten for the new execution;
 * when all MDL_POOL_MAX are busy, the oldest is waited for on the host.
 */
int arena_pick_idle(struct mdl_model *m, struct mdl_arena **out)
{
	struct drm_vnpu_sync wait;
	struct mdl_arena *a;
	bool must_wait;
	int ret;

	for (uint32_t i = 0; i < m->narenas; i++)
		if (arena_idle(m, &m->arenas[i])) {
			*out = &m->arenas[i];
			return 0;
		}
	/* no stream matches NULL: rule 1 never applies */
	ret = arena_pick(m, NULL, NULL, &a, &wait, &must_wait);
	if (!ret && must_wait)
		ret = device_sync_wait(m->dev, wait.handle, wait.point, INT64_MAX);
	if (!ret)
		*out = a;
	return ret;
}

void arena_used(struct mdl_arena *a, const struct rt_stream *s,
		const struct stream_point *pt)
{
	a->stream = s;
	a->queue_id = pt->queue_id;
	a->syncobj = pt->syncobj;
	a->seq = pt->seq;
}

void arena_pool_drain(struct mdl_model *m)
{
	pthread_mutex_lock(&m->lock);
	for (uint32_t i = 0; i < m->narenas; i++) {
		struct mdl_arena *a = &m->arenas[i];

		if (a->seq)
			device_sync_wait(m->dev, a->syncobj, a->seq, INT64_MAX);
	}
	pthread_mutex_unlock(&m->lock);
}

void arena_pool_free(struct mdl_model *m)
{
	for (uint32_t i = 0; !m->fixed && i < m->narenas; i++)
		if (m->arenas[i].ptr)
			alloc_free(m->dev, m->arenas[i].ptr);
	if (m->cap_arena)
		alloc_free(m->dev, m->cap_arena);
	m->narenas = 0;
	m->cap_arena = NULL;
}
