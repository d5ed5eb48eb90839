// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: CMDBUF_UPDATE (UAPI 1.9). A command buffer is made from a
 * generated batch, then patched with the same tasks mutated (types mostly
 * kept, so some patches pass validation) and edge ranges, strides, flags,
 * offsets and pointers; replays run in between. One time in three a
 * second thread destroys the command buffer while the updates and replays
 * go on. See Documentation/fuzzing.md.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"

#define U(x)	((unsigned long long)(x))

/* An edge value near n: 0, n - 1, n, n + 1, or anything. */
static uint32_t near(struct rng *r, uint32_t n)
{
	switch (rnd(r, 6)) {
	case 0: return 0;
	case 1: return n ? n - 1 : 0;
	case 2: return n;
	case 3: return n + 1;
	case 4: return (uint32_t)rnd_interesting(r);
	default: return (uint32_t)rnd(r, n + 1);
	}
}

struct upd_race {
	int fd;
	uint32_t handle;
	long delay_ns;
};

static void *upd_destroyer(void *p)
{
	struct upd_race *d = p;
	struct drm_vnpu_cmdbuf_destroy cd = { .handle = d->handle };
	struct timespec ts = { .tv_nsec = d->delay_ns };

	nanosleep(&ts, NULL);
	fz_ioctl(d->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
	return NULL;
}

/* One update of @h (count tasks, args_size bytes) from batch @b, mutated. */
static void update_once(struct worker *w, struct fctx *c, uint32_t h,
			const struct batch *b)
{
	struct drm_vnpu_cmdbuf_update u = { .handle = h };
	struct drm_vnpu_task *t = NULL;
	uint8_t *args = NULL;
	struct call cl;
	uint32_t n;
	int ret;

	u.first_task = one_in(&w->r, 3) ? near(&w->r, b->count) :
		       (uint32_t)rnd(&w->r, b->count);
	n = b->count > u.first_task ? b->count - u.first_task : 0;
	u.task_count = one_in(&w->r, 5) ? near(&w->r, n) : (uint32_t)rnd(&w->r, n + 1);
	u.task_stride = one_in(&w->r, 8) ? (uint32_t)rnd_mutate(&w->r, b->stride) :
			sizeof(*t);
	if (u.task_count && u.task_count <= b->count &&
	    u.first_task < b->count && u.first_task + u.task_count <= b->count) {
		t = malloc(u.task_count * sizeof(*t));
		if (!t)
			return;
		for (uint32_t i = 0; i < u.task_count; i++)
			memcpy(&t[i], (uint8_t *)b->tasks +
			       (size_t)(u.first_task + i) * b->stride, sizeof(*t));
		/* Mutate one word; sometimes the type too. */
		if (!one_in(&w->r, 4)) {
			uint64_t *wd = (uint64_t *)&t[rnd(&w->r, u.task_count)];

			wd[rnd(&w->r, sizeof(*t) / 8)] =
				rnd_mutate(&w->r, wd[rnd(&w->r, sizeof(*t) / 8)]);
		}
		u.tasks = (uintptr_t)t;
		if (u.task_stride != sizeof(*t))
			u.task_stride = sizeof(*t);	/* the buffer is dense */
	} else if (u.task_count) {
		u.tasks = one_in(&w->r, 2) ? (uintptr_t)w->ro_page :
			  (uintptr_t)rnd_interesting(&w->r);
	}
	if (b->args_size && !one_in(&w->r, 3)) {
		u.args_offset = one_in(&w->r, 3) ? near(&w->r, b->args_size) :
				(uint32_t)rnd(&w->r, b->args_size / 8) * 8;
		u.args_size = one_in(&w->r, 4) ? near(&w->r, b->args_size) :
			      (uint32_t)rnd(&w->r, (b->args_size - (u.args_offset < b->args_size ?
							     u.args_offset : b->args_size)) / 8 + 1) * 8;
		if (u.args_offset <= b->args_size && u.args_size <= b->args_size - u.args_offset &&
		    u.args_size) {
			args = malloc(u.args_size);
			if (args) {
				memcpy(args, (uint8_t *)b->args + u.args_offset, u.args_size);
				if (one_in(&w->r, 2))
					((uint64_t *)args)[rnd(&w->r, u.args_size / 8)] =
						rnd_interesting(&w->r);
				u.args = (uintptr_t)args;
			}
		} else if (u.args_size) {
			u.args = one_in(&w->r, 2) ? (uintptr_t)w->ro_page :
				 (uintptr_t)rnd_interesting(&w->r);
		}
	}
	if (one_in(&w->r, 20))
		u.flags = (uint32_t)rnd_interesting(&w->r) | 1;
	if (one_in(&w->r, 20))
		u.pad = (uint32_t)rnd_interesting(&w->r) | 1;
	call_begin(&cl, "CMDBUF_UPDATE", "fd=%d h=%u first=%u n=%u stride=%u args=%u+%u@0x%llx flags=0x%x pad=%u",
		   c->fd, u.handle, u.first_task, u.task_count, u.task_stride,
		   u.args_offset, u.args_size, U(u.args), u.flags, u.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_UPDATE, &u);
	call_end(&cl, ret, "%s", "");
	free(t);
	free(args);
}

void do_cmdbuf_update(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_cmdbuf_create cc = { 0 };
	struct upd_race race = { .fd = c->fd };
	struct call cl;
	pthread_t th;
	bool racing = false;
	struct batch b;
	int ret, k, rounds;

	batch_gen(w, c, &b, one_in(&w->r, 3));
	if (b.heavy || b.args_size > b.cap_args) {
		batch_free(&b);
		/* Updates of whatever handles there are. */
		if (c->ncb) {
			struct batch nb;

			batch_gen(w, c, &nb, true);
			if (nb.args_size <= nb.cap_args)
				update_once(w, c, c->cmdbufs[rnd(&w->r, c->ncb)], &nb);
			batch_free(&nb);
		}
		return;
	}
	cc.tasks = (uintptr_t)b.tasks;
	cc.task_count = b.count;
	cc.task_stride = b.stride;
	cc.args = b.args_size ? (uintptr_t)b.args : 0;
	cc.args_size = b.args_size;
	call_begin(&cl, "CMDBUF_CREATE", "fd=%d n=%u for updates", c->fd, b.count);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
	call_end(&cl, ret, "handle=%u", cc.handle);
	if (ret) {
		/* Updates of an unknown or foreign handle. */
		update_once(w, c, one_in(&w->r, 2) ? 0 : (uint32_t)rnd(&w->r, 64), &b);
		batch_free(&b);
		return;
	}
	if (one_in(&w->r, 3)) {
		race.handle = cc.handle;
		race.delay_ns = (long)rnd(&w->r, 2000000);
		racing = !pthread_create(&th, NULL, upd_destroyer, &race);
	}
	rounds = 1 + (int)rnd(&w->r, 8);
	for (k = 0; k < rounds; k++) {
		update_once(w, c, cc.handle, &b);
		if (one_in(&w->r, 2)) {
			/* A replay of it, through the usual generator. */
			if (c->ncb < MAX_CMDBUFS) {
				c->cb_bindings[c->ncb] = 0;
				c->cmdbufs[c->ncb++] = cc.handle;
				do_cmdbuf_replay(w, c);
				c->ncb--;
			}
		}
	}
	if (racing) {
		pthread_join(th, NULL);
	} else if (c->ncb < MAX_CMDBUFS && one_in(&w->r, 2)) {
		c->cb_bindings[c->ncb] = 0;
		c->cmdbufs[c->ncb++] = cc.handle;	/* others replay it */
	} else {
		struct drm_vnpu_cmdbuf_destroy cd = { .handle = cc.handle };

		fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
	}
	batch_free(&b);
}
