/* SPDX-License-Identifier: MIT */
/*
 * Contexts: a device plus a default stream. The device's default context
 * is made by aclrtSetDevice and shared by every thread that sets the
 * device; explicit ones by aclrtCreateContext. The current context is per
 * thread; it is checked against the live list before use, so a context
 * released by aclrtResetDevice reads as "no context" instead of dangling.
 */
#include <errno.h>
#include <stdlib.h>

#include "graph.h"
#include "rt_objects.h"

static struct rt_context *live;		/* guarded by rt_lock */
static _Thread_local struct rt_context *current;
/*
 * context_current() runs on every entry point, so it avoids rt_lock: a
 * thread's current context stays valid as long as no context has been
 * destroyed since the thread last checked it under the lock. live_gen
 * counts destructions (from 1, so a current_gen of 0 means "not checked").
 */
static _Atomic uint64_t live_gen = 1;
static _Thread_local uint64_t current_gen;

bool context_valid_locked(struct rt_context *ctx)
{
	for (struct rt_context *c = live; c; c = c->next)
		if (c == ctx)
			return true;
	return false;
}

struct rt_context *context_any_explicit_locked(void)
{
	for (struct rt_context *c = live; c; c = c->next)
		if (!c->is_default)
			return c;
	return NULL;
}

/* Called with rt_lock held and the device open. */
int context_create(struct rt_device *dev, bool is_default,
		   struct rt_context **out)
{
	struct rt_context *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx)
		return -ENOMEM;
	ctx->magic = CTX_MAGIC;
	ctx->dev = dev;
	ctx->is_default = is_default;
	ret = stream_create(ctx, DRM_VNPU_PRIORITY_NORMAL, &ctx->default_stream);
	if (ret) {
		free(ctx);
		return ret;
	}
	ctx->next = live;
	live = ctx;
	if (!is_default)
		dev->explicit_ctxs++;
	*out = ctx;
	return 0;
}

/*
 * Destroy every stream of the context (each waits for its work) and the
 * context. Called with rt_lock held.
 */
void context_destroy_locked(struct rt_context *ctx)
{
	struct rt_device *dev = ctx->dev;
	struct rt_context **pp;
	struct rt_stream *s;

	/* Graphs first: they hold streams that could not be destroyed. */
	graph_forget_context(ctx);
	for (;;) {
		pthread_mutex_lock(&dev->lock);
		for (s = dev->streams; s && s->ctx != ctx; s = s->next)
			;
		pthread_mutex_unlock(&dev->lock);
		if (!s)
			break;
		stream_destroy(s);
	}
	for (pp = &live; *pp; pp = &(*pp)->next)
		if (*pp == ctx) {
			*pp = ctx->next;
			break;
		}
	if (!ctx->is_default)
		dev->explicit_ctxs--;
	if (current == ctx)
		current = NULL;
	live_gen++;
	ctx->magic = 0;
	free(ctx);
}

int context_destroy(struct rt_context *ctx)
{
	struct rt_device *dev;

	rt_lock();
	if (!context_valid_locked(ctx)) {
		rt_unlock();
		return -ENOENT;
	}
	if (ctx->is_default) {
		rt_unlock();
		return -EPERM;
	}
	dev = ctx->dev;
	context_destroy_locked(ctx);
	device_put_locked(dev);
	rt_unlock();
	return 0;
}

struct rt_context *context_current(void)
{
	struct rt_context *ctx = current;

	if (ctx && current_gen == live_gen)
		return ctx;
	rt_lock();
	ctx = current && context_valid_locked(current) ? current : NULL;
	current_gen = ctx ? live_gen : 0;
	rt_unlock();
	return ctx;
}

int context_set_current(struct rt_context *ctx)
{
	rt_lock();
	if (!context_valid_locked(ctx)) {
		rt_unlock();
		return -ENOENT;
	}
	current = ctx;
	current_gen = live_gen;
	rt_unlock();
	return 0;
}

void context_set_current_raw(struct rt_context *ctx)
{
	current = ctx;
	current_gen = 0;	/* not checked: the next lookup does */
}

int context_create_on(int32_t id, struct rt_context **out)
{
	struct rt_device *dev = device_by_id(id);
	int ret;

	rt_lock();
	ret = device_open_locked(dev);
	if (!ret)
		ret = context_create(dev, false, out);
	if (ret) {
		device_put_locked(dev);
	} else {
		current = *out;
		current_gen = live_gen;
	}
	rt_unlock();
	return ret;
}

void context_forget_after_fork(void)
{
	live = NULL;
	live_gen++;
	current = NULL;		/* the forking thread is the child's only one */
}
