// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: one random (mostly plausible, sometimes mutated) call of each
 * vnpu ioctl, DRM core ioctl and io_uring command, logged one line each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

#define VA_END		(DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE)
#define U(x)		((unsigned long long)(x))

/* A pointer for the kernel to read from or write to that is never ours. */
static uint64_t bad_ptr(struct worker *w)
{
	static const uint64_t ptrs[] = {
		0, 1, 4096, 0xffff888000000000ull, 0xffffffff81000000ull,
		0x00007ffffffff000ull, 0x0000800000000000ull, UINT64_MAX,
		UINT64_MAX - 7, 0xdead0000ull,
	};

	if (one_in(&w->r, 4))
		return (uintptr_t)w->ro_page;	/* readable, not writable */
	return ptrs[rnd(&w->r, ARRAY_SIZE(ptrs))];
}

/* A handle of the kind: usually live, sometimes stale or made up. */
static uint32_t pick_handle(struct worker *w, struct fctx *c)
{
	if (c->nbo && !one_in(&w->r, 6))
		return c->bos[rnd(&w->r, c->nbo)].handle;
	return one_in(&w->r, 2) ? rnd(&w->r, 64) : (uint32_t)rnd_interesting(&w->r);
}

static int pick_queue(struct worker *w, struct fctx *c, uint32_t *id)
{
	if (c->nq && !one_in(&w->r, 8)) {
		int i = rnd(&w->r, c->nq);

		*id = c->q[i].id;
		return i;
	}
	*id = one_in(&w->r, 2) ? rnd(&w->r, 300) : (uint32_t)rnd_interesting(&w->r);
	return -1;
}

static uint32_t pick_syncobj(struct worker *w, struct fctx *c)
{
	int k = rnd(&w->r, 10);

	if (k < 4 && c->nso)
		return c->so[rnd(&w->r, c->nso)];
	if (k < 8 && c->nq)
		return c->q[rnd(&w->r, c->nq)].syncobj;
	return one_in(&w->r, 2) ? rnd(&w->r, 64) : (uint32_t)rnd_interesting(&w->r);
}

static uint32_t maybe(struct worker *w, uint32_t n)
{
	/* a reserved/pad field: usually zero */
	return one_in(&w->r, n) ? (uint32_t)rnd_interesting(&w->r) | 1 : 0;
}

/* --------------------------------------------------------- GET_PARAM -- */

void do_get_param(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_get_param gp = { 0 };
	struct call cl;
	int ret;

	gp.param = one_in(&w->r, 6) ? (uint32_t)rnd_interesting(&w->r) : rnd(&w->r, 14);
	gp.index = one_in(&w->r, 5) ? (uint32_t)rnd_interesting(&w->r) : 0;
	gp.pad = maybe(w, 20);
	gp.reserved = maybe(w, 20);
	call_begin(&cl, "GET_PARAM", "fd=%d param=%u index=%u pad=%u reserved=%u",
		   c->fd, gp.param, gp.index, gp.pad, gp.reserved);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_GET_PARAM, &gp);
	call_end(&cl, ret, "value=0x%llx", U(gp.value));
	if (!ret && gp.param == DRM_VNPU_PARAM_UAPI_VERSION &&
	    gp.value >> 16 != DRM_VNPU_UAPI_MAJOR)
		finding("GET_PARAM UAPI_VERSION 0x%llx", U(gp.value));
}

/* --------------------------------------------------------- BO_CREATE -- */

static uint64_t va_range_start(uint32_t placement)
{
	switch (placement) {
	case DRM_VNPU_PLACEMENT_HOST:
		return DRM_VNPU_VA_HOST_START;
	case DRM_VNPU_PLACEMENT_USER:
		return DRM_VNPU_VA_USER_START;
	case DRM_VNPU_PLACEMENT_IMPORT:
		return DRM_VNPU_VA_IMPORT_START;
	default:
		return DRM_VNPU_VA_DEVICE_START;
	}
}

/*
 * The new object's VA is in its range and clear of every other object;
 * a physical allocation (NO_VA) has none.
 */
static void check_new_va(struct fctx *c, uint32_t placement, uint32_t flags,
			 uint64_t va, uint64_t size, uint32_t handle)
{
	uint64_t lo = va_range_start(placement);
	int i;

	if (flags & DRM_VNPU_BO_NO_VA) {
		if (va)
			finding("NO_VA BO handle %u got VA 0x%llx", handle, U(va));
		return;
	}

	if (va < lo || va + size > lo + DRM_VNPU_VA_RANGE_SIZE || va % 4096)
		finding("BO handle %u placement %u size 0x%llx got VA 0x%llx outside its range",
			handle, placement, U(size), U(va));
	for (i = 0; i < c->nbo; i++) {
		const struct fbo *b = &c->bos[i];

		if (b->handle == handle)
			finding("BO_CREATE returned live handle %u again", handle);
		if (va < b->va + b->size && b->va < va + size)
			finding("BO handle %u [0x%llx+0x%llx] overlaps handle %u [0x%llx+0x%llx]",
				handle, U(va), U(size), b->handle, U(b->va), U(b->size));
	}
}

static void bo_map(struct worker *w, struct fctx *c, struct fbo *b)
{
	struct drm_vnpu_bo_info bi = { .handle = b->handle };
	struct call cl;
	void *p;
	int ret;

	if (b->size > (4 << 20))
		return;
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_INFO, &bi);
	if (ret || !bi.mmap_offset)
		return;
	call_begin(&cl, "mmap", "fd=%d handle=%u len=0x%llx offset=0x%llx", c->fd,
		   b->handle, U(b->size), U(bi.mmap_offset));
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		 bi.mmap_offset);
	call_end(&cl, p == MAP_FAILED ? -errno : 0, NULL);
	if (p == MAP_FAILED)
		return;
	b->cpu = p;
	b->map_len = b->size;
	/* touch it: the first and last byte */
	b->cpu[0] = 0x5a;
	b->cpu[b->size - 1] = 0xa5;
}

/* Create an object and add it to the context; its index or -errno. */
int bo_create(struct worker *w, struct fctx *c, uint64_t size, uint32_t placement,
	      uint32_t flags, bool map)
{
	struct drm_vnpu_bo_create bc = { .size = size, .flags = flags,
					 .placement = placement };
	struct call cl;
	struct fbo *b;
	int ret;

	if (c->nbo >= MAX_BOS)
		return -ENOSPC;
	if (placement == DRM_VNPU_PLACEMENT_USER) {
		size = (size + 4095) & ~4095ull;
		if (size > w->userpool_len)
			size = w->userpool_len;
		bc.size = size;
		bc.user_ptr = (uintptr_t)w->userpool +
			      rnd(&w->r, (w->userpool_len - size) / 4096 + 1) * 4096;
	}
	call_begin(&cl, "BO_CREATE", "fd=%d size=0x%llx flags=%u placement=%u user_ptr=0x%llx",
		   c->fd, U(bc.size), bc.flags, bc.placement, U(bc.user_ptr));
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_CREATE, &bc);
	call_end(&cl, ret, "handle=%u va=0x%llx", bc.handle, U(bc.va));
	if (ret)
		return ret;
	check_new_va(c, placement, flags, bc.va, bc.size, bc.handle);
	b = &c->bos[c->nbo++];
	memset(b, 0, sizeof(*b));
	b->handle = bc.handle;
	b->va = bc.va;
	b->size = bc.size;
	b->placement = placement;
	b->flags = flags;
	if (map && placement != DRM_VNPU_PLACEMENT_USER)
		bo_map(w, c, b);
	return c->nbo - 1;
}

void do_bo_create(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_bo_create bc = { 0 };
	struct call cl;
	int ret;

	if (!one_in(r, 4) && c->nbo < MAX_BOS - 2) {
		/* a plausible object we keep */
		uint64_t size = one_in(r, 3) ? 4096 * (1 + rnd(r, 16)) : 1 + rnd(r, 65536);

		if (one_in(r, 10))
			size = (2 << 20) + rnd(r, 3) - 1;
		bo_create(w, c, size, rnd(r, 3), one_in(r, 6), one_in(r, 2));
		return;
	}
	/* a mutated request, freed at once if it succeeds */
	bc.size = one_in(r, 3) ? rnd_interesting(r) : 1 + rnd(r, 1 << 20);
	bc.flags = one_in(r, 4) ? (uint32_t)rnd64(r) : rnd(r, 2);
	bc.placement = one_in(r, 4) ? (uint32_t)rnd_interesting(r) : rnd(r, 4);
	bc.user_ptr = 0;
	if (bc.placement == DRM_VNPU_PLACEMENT_USER || one_in(r, 6)) {
		switch (rnd(r, 4)) {
		case 0:
			bc.user_ptr = bad_ptr(w);
			break;
		case 1:
			bc.user_ptr = (uintptr_t)w->userpool + rnd(r, 8192);
			break;
		default:
			bc.user_ptr = (uintptr_t)w->userpool + rnd(r, 512) * 4096;
			if (one_in(r, 2))
				bc.size = 4096 * (1 + rnd(r, 2048));
		}
	}
	bc.pad = maybe(w, 10);
	bc.handle = one_in(r, 10) ? rnd64(r) : 0;
	call_begin(&cl, "BO_CREATE", "fd=%d size=0x%llx flags=%u placement=%u user_ptr=0x%llx pad=%u",
		   c->fd, U(bc.size), bc.flags, bc.placement, U(bc.user_ptr), bc.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_CREATE, &bc);
	call_end(&cl, ret, "handle=%u va=0x%llx", bc.handle, U(bc.va));
	if (!ret) {
		struct drm_gem_close gc = { .handle = bc.handle };

		check_new_va(c, bc.placement, bc.flags, bc.va, bc.size, bc.handle);
		call_begin(&cl, "GEM_CLOSE", "fd=%d handle=%u", c->fd, gc.handle);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &gc), NULL);
	}
}

void do_bo_info(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_bo_info bi = { 0 };
	struct call cl;
	int ret, i;

	bi.handle = pick_handle(w, c);
	bi.pad = maybe(w, 15);
	call_begin(&cl, "BO_INFO", "fd=%d handle=%u pad=%u", c->fd, bi.handle, bi.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_INFO, &bi);
	call_end(&cl, ret, "size=0x%llx va=0x%llx mmap_offset=0x%llx flags=%u placement=%u",
		 U(bi.size), U(bi.va), U(bi.mmap_offset), bi.flags, bi.placement);
	if (ret)
		return;
	for (i = 0; i < c->nbo; i++) {
		const struct fbo *b = &c->bos[i];

		if (b->handle != bi.handle)
			continue;
		if (b->va != bi.va || b->size != bi.size ||
		    (b->placement != bi.placement &&
		     b->placement != DRM_VNPU_PLACEMENT_IMPORT))
			finding("BO_INFO handle %u: va 0x%llx size 0x%llx placement %u, created with va 0x%llx size 0x%llx placement %u",
				bi.handle, U(bi.va), U(bi.size), bi.placement,
				U(b->va), U(b->size), b->placement);
	}
}

void do_gem_close(struct worker *w, struct fctx *c)
{
	struct drm_gem_close gc = { 0 };
	struct call cl;
	int ret, i = -1;

	if (c->nbo && !one_in(&w->r, 5)) {
		i = rnd(&w->r, c->nbo);
		gc.handle = c->bos[i].handle;
	} else {
		gc.handle = pick_handle(w, c);
	}
	gc.pad = maybe(w, 15);
	call_begin(&cl, "GEM_CLOSE", "fd=%d handle=%u pad=%u", c->fd, gc.handle, gc.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	call_end(&cl, ret, NULL);
	if (!ret) {
		for (i = 0; i < c->nbo; i++)
			if (c->bos[i].handle == gc.handle) {
				ctx_forget_bo(c, i);
				break;
			}
	}
}

void do_mmap(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_bo_info bi = { 0 };
	uint64_t off, len;
	struct call cl;
	uint8_t *p;

	if (!c->nbo)
		return;
	bi.handle = c->bos[rnd(r, c->nbo)].handle;
	if (fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_INFO, &bi))
		return;
	off = bi.mmap_offset;
	len = bi.size;
	if (one_in(r, 3))
		off = rnd_mutate(r, off) & ~4095ull;
	if (one_in(r, 3))
		len = rnd_mutate(r, len) % (64 << 20);
	if (!len)
		len = 4096;
	call_begin(&cl, "mmap", "fd=%d handle=%u len=0x%llx offset=0x%llx", c->fd,
		   bi.handle, U(len), U(off));
	p = mmap(NULL, len, PROT_READ | (one_in(r, 4) ? 0 : PROT_WRITE),
		 one_in(r, 8) ? MAP_PRIVATE : MAP_SHARED, c->fd, off);
	call_end(&cl, p == MAP_FAILED ? -errno : 0, NULL);
	if (p == MAP_FAILED)
		return;
	/* Read the part that is backed; a fault beyond it would be SIGBUS. */
	if (off == bi.mmap_offset) {
		uint64_t last = (len < bi.size ? len : bi.size) - 1;
		volatile uint8_t x = p[0];

		(void)x;
		x = p[last & ~4095ull];
	}
	munmap(p, len);
}

/* ----------------------------------------------------------- MEMCPY -- */

static uint64_t device_addr(struct worker *w, struct fctx *c, uint64_t *room)
{
	struct rng *r = &w->r;
	const struct fbo *b;
	uint64_t va, off;

	*room = 0;
	if (c->nresv && one_in(r, 6))
		return vm_addr(w, c);
	if (!c->nbo || one_in(r, 8)) {
		va = one_in(r, 2) ? rnd_interesting(r) :
		     va_range_start(rnd(r, 4)) + rnd(r, 1 << 24);
		if (!(opt.known & KB_VA_END) && va >= VA_END - 0x10000)
			va = DRM_VNPU_VA_HOST_START - 4096;
		return va;
	}
	b = &c->bos[rnd(r, c->nbo)];
	off = rnd(r, b->size);
	if (one_in(r, 4))
		off = b->size - 1 - rnd(r, b->size < 64 ? b->size : 64);
	*room = b->size - off;
	return b->va + off;
}

void do_memcpy(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_memcpy mc = { 0 };
	uint64_t droom = 0, sroom = 0, room;
	struct call cl;
	int ret;

	mc.flags = rnd(r, 4);
	if (one_in(r, 12))
		mc.flags = rnd64(r);
	if (mc.flags & DRM_VNPU_MEMCPY_DST_DEVICE) {
		mc.dst = device_addr(w, c, &droom);
	} else if (one_in(r, 6)) {
		mc.dst = bad_ptr(w);
	} else {
		droom = 1 + rnd(r, w->scratch_len);
		mc.dst = (uintptr_t)w->scratch + w->scratch_len - droom;
	}
	if (mc.flags & DRM_VNPU_MEMCPY_SRC_DEVICE) {
		mc.src = device_addr(w, c, &sroom);
	} else if (one_in(r, 6)) {
		mc.src = bad_ptr(w);
	} else {
		sroom = 1 + rnd(r, w->scratch_len);
		mc.src = (uintptr_t)w->scratch + w->scratch_len - sroom;
	}
	room = droom < sroom ? droom : sroom;
	mc.size = room ? 1 + rnd(r, room < 65536 ? room : 65536) : 1 + rnd(r, 4096);
	if (one_in(r, 8))
		mc.size = rnd_interesting(r);
	/* Never let the kernel write over the fuzzer's own memory. */
	if (!(mc.flags & DRM_VNPU_MEMCPY_DST_DEVICE) &&
	    mc.dst >= (uintptr_t)w->scratch &&
	    mc.dst < (uintptr_t)w->scratch + w->scratch_len &&
	    mc.size > (uintptr_t)w->scratch + w->scratch_len - mc.dst)
		mc.size = (uintptr_t)w->scratch + w->scratch_len - mc.dst;
	mc.pad = maybe(w, 15);
	call_begin(&cl, "MEMCPY", "fd=%d dst=0x%llx src=0x%llx size=0x%llx flags=0x%x pad=%u",
		   c->fd, U(mc.dst), U(mc.src), U(mc.size), mc.flags, mc.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
	call_end(&cl, ret, NULL);
}

void do_fault_info(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_fault_info fi = { 0 };
	struct call cl;
	int ret;

	fi.flags = maybe(w, 10);
	fi.pad = maybe(w, 10);
	call_begin(&cl, "FAULT_INFO", "fd=%d flags=%u pad=%u", c->fd, fi.flags, fi.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_FAULT_INFO, &fi);
	call_end(&cl, ret, "count=%llu va=0x%llx length=0x%llx access=%u reason=%u",
		 U(fi.count), U(fi.va), U(fi.length), fi.access, fi.reason);
	if (!ret && (fi.reason > DRM_VNPU_FAULT_READ_ONLY ||
		     (fi.count && fi.access != DRM_VNPU_ACCESS_READ &&
		      fi.access != DRM_VNPU_ACCESS_WRITE)))
		finding("FAULT_INFO: reason %u access %u", fi.reason, fi.access);
}

/* ----------------------------------------------------------- queues -- */

int queue_create(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_queue_create qc = { 0 };
	struct call cl;
	int ret;

	qc.priority = one_in(&w->r, 10) ? (uint32_t)rnd_interesting(&w->r) : rnd(&w->r, 3);
	qc.flags = maybe(w, 15);
	call_begin(&cl, "QUEUE_CREATE", "fd=%d priority=%u flags=%u", c->fd,
		   qc.priority, qc.flags);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);
	call_end(&cl, ret, "queue_id=%u syncobj=%u", qc.queue_id, qc.syncobj);
	if (ret)
		return ret;
	if (!qc.queue_id)
		finding("QUEUE_CREATE returned queue id 0");
	if (c->nq >= MAX_QUEUES)
		return 0;	/* forgotten: the file's close destroys it */
	c->q[c->nq].id = qc.queue_id;
	c->q[c->nq].syncobj = qc.syncobj;
	c->q[c->nq].seq = 0;
	c->q[c->nq].inflight = 0;
	c->nq++;
	return 0;
}

void do_queue_create(struct worker *w, struct fctx *c)
{
	queue_create(w, c);
}

void do_queue_destroy(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_queue_destroy qd = { 0 };
	struct call cl;
	int i, ret;

	i = pick_queue(w, c, &qd.queue_id);
	qd.pad = maybe(w, 15);
	call_begin(&cl, "QUEUE_DESTROY", "fd=%d queue_id=%u pad=%u", c->fd,
		   qd.queue_id, qd.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
	call_end(&cl, ret, NULL);
	if (!ret && i >= 0)
		c->q[i] = c->q[--c->nq];
	if (!ret) {
		/* the timeline syncobj stays; destroy it now and then */
		for (i = 0; i < c->nq; i++)
			if (c->q[i].id == qd.queue_id)
				c->q[i] = c->q[--c->nq];
	}
}

void do_queue_reset(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_queue_destroy qd = { 0 };
	struct call cl;

	pick_queue(w, c, &qd.queue_id);
	qd.pad = maybe(w, 15);
	call_begin(&cl, "QUEUE_RESET", "fd=%d queue_id=%u pad=%u", c->fd,
		   qd.queue_id, qd.pad);
	call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd), NULL);
}

/* ----------------------------------------------------------- submit -- */

/* In- and out-syncs: mostly the context's own, points near the truth. */
static uint32_t gen_syncs(struct worker *w, struct fctx *c, struct drm_vnpu_sync *s,
			  bool in)
{
	struct rng *r = &w->r;
	uint32_t n = one_in(r, 3) ? 1 + rnd(r, 3) : 0, i;

	if (one_in(r, 40))
		n = one_in(r, 2) ? DRM_VNPU_MAX_SYNCS : DRM_VNPU_MAX_SYNCS + 1 + rnd(r, 4);
	for (i = 0; i < n && i < DRM_VNPU_MAX_SYNCS + 8; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		if (in && c->nq && !one_in(r, 4)) {
			const struct fqueue *q = &c->q[rnd(r, c->nq)];

			s[i].handle = q->syncobj;
			s[i].point = q->seq ? 1 + rnd(r, q->seq) : 0;
		} else {
			int k = c->nso ? rnd(r, c->nso) : -1;

			s[i].handle = k >= 0 ? c->so[k] : pick_syncobj(w, c);
			if (!in && k >= 0 && one_in(r, 2))
				s[i].point = ++c->so_point[k];
			else if (one_in(r, 4))
				s[i].point = rnd_interesting(r);
		}
		/* WAIT_FOR_SUBMIT can sleep up to the core's timeout */
		if (in && one_in(r, 30))
			s[i].flags = DRM_VNPU_SYNC_WAIT_FOR_SUBMIT;
		if (one_in(r, 30))
			s[i].flags = rnd64(r);
	}
	return n;
}

static void full_batch_log(const struct batch *b)
{
	uint32_t i, j;

	if (!opt.full)
		return;
	for (i = 0; i < b->count && i < 64 && b->stride >= 64; i++) {
		const uint64_t *q = (const uint64_t *)((const uint8_t *)b->tasks +
						      (size_t)i * b->stride);

		log_note("#   task %u: %016llx %016llx %016llx %016llx %016llx %016llx %016llx %016llx",
			 i, U(q[0]), U(q[1]), U(q[2]), U(q[3]), U(q[4]), U(q[5]),
			 U(q[6]), U(q[7]));
	}
	for (j = 0; j < b->args_size / 8 && j < b->cap_args / 8; j += 4)
		log_note("#   args +%u: %016llx %016llx %016llx %016llx", j * 8,
			 U(b->args[j]), U(b->args[j + 1]), U(b->args[j + 2]),
			 U(b->args[j + 3]));
}

/* Queues with many jobs in flight are recycled instead of blocking. */
static bool queue_busy(struct fqueue *q)
{
	return q->inflight >= 24;
}

void submit_fill(struct worker *w, struct fctx *c, struct drm_vnpu_submit *s,
		 struct batch *b, struct drm_vnpu_sync *in, struct drm_vnpu_sync *out,
		 int *qi);
void submit_fill(struct worker *w, struct fctx *c, struct drm_vnpu_submit *s,
		 struct batch *b, struct drm_vnpu_sync *in, struct drm_vnpu_sync *out,
		 int *qi)
{
	struct rng *r = &w->r;
	bool mutate = !one_in(r, 3);

	memset(s, 0, sizeof(*s));
	if (!c->nq)
		queue_create(w, c);
	*qi = pick_queue(w, c, &s->queue_id);
	if (*qi >= 0 && queue_busy(&c->q[*qi])) {
		/* wait a little, else leave it (closing will cancel) */
		struct drm_syncobj_timeline_wait tw = { 0 };
		uint64_t pt = c->q[*qi].seq;
		struct call cl;
		int ret;

		tw.handles = (uintptr_t)&c->q[*qi].syncobj;
		tw.points = (uintptr_t)&pt;
		tw.count_handles = 1;
		tw.timeout_nsec = now_ns() + 200000000ull;
		call_begin(&cl, "SYNCOBJ_TIMELINE_WAIT", "fd=%d handle=%u point=%llu (drain)",
			   c->fd, c->q[*qi].syncobj, U(pt));
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw);
		call_end(&cl, ret, NULL);
		if (!ret)
			c->q[*qi].inflight = 0;
		else
			*qi = -1, s->queue_id = 0x7fffffff;	/* a bogus queue */
	}
	batch_gen(w, c, b, mutate);
	if (b->heavy && !one_in(r, 4))
		batch_gen(w, c, b, false);
	s->tasks = (uintptr_t)b->tasks;
	s->task_count = b->count;
	s->task_stride = b->stride;
	s->args = b->args_size ? (uintptr_t)b->args : 0;
	s->args_size = b->args_size;
	s->in_sync_count = gen_syncs(w, c, in, true);
	s->out_sync_count = gen_syncs(w, c, out, false);
	s->in_syncs = s->in_sync_count ? (uintptr_t)in : 0;
	s->out_syncs = s->out_sync_count ? (uintptr_t)out : 0;
	if (mutate && one_in(r, 6)) {
		switch (rnd(r, 9)) {
		case 0:
			s->tasks = bad_ptr(w);
			break;
		case 1:
			s->args = one_in(r, 2) ? bad_ptr(w) : 0;
			break;
		case 2:
			s->in_syncs = bad_ptr(w);
			s->in_sync_count |= 1;
			break;
		case 3:
			s->out_syncs = bad_ptr(w);
			s->out_sync_count |= 1;
			break;
		case 4:
			s->flags = rnd64(r);
			break;
		case 5:
			s->cmdbuf = rnd(r, 8);
			break;
		case 6:
			s->seq = rnd64(r);
			break;
		case 7:
			s->task_count = rnd_interesting(r);
			break;
		default:
			s->args_size = rnd_interesting(r);
		}
	}
	/* Sizes the kernel reads must stay within what we allocated. */
	if (s->tasks == (uintptr_t)b->tasks &&
	    (uint64_t)s->task_count * s->task_stride >
	    (uint64_t)b->count * (b->stride < 64 ? 64 : b->stride))
		s->tasks = 0xdead0000;
	if (s->args == (uintptr_t)b->args && s->args_size > b->cap_args)
		s->args = 0xdead0000;
}

static void submit_done(struct fctx *c, int qi, uint32_t queue_id, int ret,
			uint64_t seq, const char *path)
{
	struct fqueue *q;
	int i;

	if (ret)
		return;
	if (qi < 0) {
		for (i = 0; i < c->nq; i++)
			if (c->q[i].id == queue_id)
				qi = i;
		if (qi < 0)
			return;
	}
	q = &c->q[qi];
	if (seq <= q->seq && strcmp(path, "uring"))
		finding("%s submit to queue %u returned seq %llu after %llu",
			path, queue_id, U(seq), U(q->seq));
	if (seq > q->seq)
		q->seq = seq;
	q->inflight++;
}

void do_submit(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_sync in[DRM_VNPU_MAX_SYNCS + 8], out[DRM_VNPU_MAX_SYNCS + 8];
	struct drm_vnpu_submit s;
	struct batch b;
	char desc[200];
	struct call cl;
	int qi, ret;

	submit_fill(w, c, &s, &b, in, out, &qi);
	batch_desc(&b, desc, sizeof(desc));
	call_begin(&cl, "SUBMIT", "fd=%d queue=%u flags=0x%x tasks=0x%llx %s args=0x%llx in=%u out=%u cmdbuf=%u",
		   c->fd, s.queue_id, s.flags, U(s.tasks), desc, U(s.args),
		   s.in_sync_count, s.out_sync_count, s.cmdbuf);
	full_batch_log(&b);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_SUBMIT, &s);
	call_end(&cl, ret, "seq=%llu", U(s.seq));
	submit_done(c, qi, s.queue_id, ret, s.seq, "ioctl");
	batch_free(&b);
}

void do_job_status(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_job_status js = { 0 };
	struct call cl;
	int qi, ret;

	qi = pick_queue(w, c, &js.queue_id);
	if (qi >= 0 && c->q[qi].seq && !one_in(&w->r, 5))
		js.seq = 1 + rnd(&w->r, c->q[qi].seq);
	else
		js.seq = one_in(&w->r, 2) ? rnd(&w->r, 400) : rnd_interesting(&w->r);
	js.pad = maybe(w, 15);
	js.reserved = maybe(w, 15);
	call_begin(&cl, "JOB_STATUS", "fd=%d queue=%u seq=%llu pad=%u", c->fd,
		   js.queue_id, U(js.seq), js.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_JOB_STATUS, &js);
	call_end(&cl, ret, "state=%u error=%d task=%u access=%u va=0x%llx reason=%u",
		 js.state, js.error, js.task, js.fault_access, U(js.fault_va),
		 js.fault_reason);
	if (!ret && (js.state > DRM_VNPU_JOB_CANCELLED ||
		     js.fault_reason > DRM_VNPU_FAULT_READ_ONLY || js.error > 0))
		finding("JOB_STATUS queue %u seq %llu: state %u error %d reason %u",
			js.queue_id, U(js.seq), js.state, js.error, js.fault_reason);
	if (!ret && qi >= 0 && js.seq == c->q[qi].seq && js.state != DRM_VNPU_JOB_PENDING)
		c->q[qi].inflight = 0;
}

/* Wait a short while for a queue's last job through its syncobj. */
void do_job_wait(struct worker *w, struct fctx *c)
{
	struct drm_syncobj_timeline_wait tw = { 0 };
	struct call cl;
	uint64_t pt;
	int qi, ret;
	uint32_t h;

	if (!c->nq)
		return;
	qi = rnd(&w->r, c->nq);
	h = c->q[qi].syncobj;
	pt = c->q[qi].seq;
	tw.handles = (uintptr_t)&h;
	tw.points = (uintptr_t)&pt;
	tw.count_handles = 1;
	tw.flags = one_in(&w->r, 4) ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT : 0;
	tw.timeout_nsec = now_ns() + rnd(&w->r, 100) * 1000000ull;
	call_begin(&cl, "SYNCOBJ_TIMELINE_WAIT", "fd=%d handle=%u point=%llu flags=%u",
		   c->fd, h, U(pt), tw.flags);
	ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw);
	call_end(&cl, ret, NULL);
	if (!ret)
		c->q[qi].inflight = 0;
}

/* -------------------------------------------------------- command buffers -- */

void do_cmdbuf_create(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_cmdbuf_create cc = { 0 };
	struct batch b;
	char desc[200];
	struct call cl;
	int ret;

	batch_gen(w, c, &b, !one_in(&w->r, 3));
	cc.tasks = (uintptr_t)b.tasks;
	cc.task_count = b.count;
	cc.task_stride = b.stride;
	cc.args = b.args_size ? (uintptr_t)b.args : 0;
	cc.args_size = b.args_size;
	if (b.args_size > b.cap_args)
		cc.args = 0xdead0000;
	if (one_in(&w->r, 3)) {
		/* A command buffer with bindings (UAPI 1.4). */
		cc.flags = DRM_VNPU_CMDBUF_BINDINGS | (maybe(w, 30) & ~1u);
		cc.binding_count = one_in(&w->r, 20) ?
			(uint32_t)rnd_interesting(&w->r) :
			1 + rnd(&w->r, one_in(&w->r, 4) ? DRM_VNPU_MAX_BINDINGS : 4);
		if (cc.binding_count && cc.binding_count <= DRM_VNPU_MAX_BINDINGS)
			batch_bind(w, &b, cc.binding_count);
	} else {
		cc.flags = maybe(w, 20);
		cc.binding_count = maybe(w, 20);
	}
	if (one_in(&w->r, 20))
		cc.tasks = bad_ptr(w);
	batch_desc(&b, desc, sizeof(desc));
	call_begin(&cl, "CMDBUF_CREATE", "fd=%d %s flags=%u bindings=%u tasks=0x%llx",
		   c->fd, desc, cc.flags, cc.binding_count, U(cc.tasks));
	full_batch_log(&b);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
	call_end(&cl, ret, "handle=%u", cc.handle);
	if (!ret && b.heavy) {
		/* never replay a long one: drop it again */
		struct drm_vnpu_cmdbuf_destroy cd = { .handle = cc.handle };

		fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
	} else if (!ret && c->ncb < MAX_CMDBUFS) {
		c->cb_bindings[c->ncb] = cc.binding_count;
		c->cmdbufs[c->ncb++] = cc.handle;
	}
	batch_free(&b);
}

void do_cmdbuf_destroy(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_cmdbuf_destroy cd = { 0 };
	struct call cl;
	int i = -1, ret;

	if (c->ncb && !one_in(&w->r, 5)) {
		i = rnd(&w->r, c->ncb);
		cd.handle = c->cmdbufs[i];
	} else {
		cd.handle = one_in(&w->r, 2) ? rnd(&w->r, 32) : (uint32_t)rnd_interesting(&w->r);
	}
	cd.pad = maybe(w, 15);
	call_begin(&cl, "CMDBUF_DESTROY", "fd=%d handle=%u pad=%u", c->fd, cd.handle, cd.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
	call_end(&cl, ret, NULL);
	if (!ret)
		for (i = 0; i < c->ncb; i++)
			if (c->cmdbufs[i] == cd.handle) {
				c->ncb--;
				c->cmdbufs[i] = c->cmdbufs[c->ncb];
				c->cb_bindings[i] = c->cb_bindings[c->ncb];
			}
}

/* A binding entry: mostly somewhere in one of our objects. */
static uint64_t bind_entry(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct fbo *bo;

	switch (rnd(r, 12)) {
	case 0:
		return 0;
	case 1:
		return ~0ull - rnd(r, 0x10000);	/* base + offset overflows */
	case 2:
		return rnd_interesting(r);
	default:
		if (!c->nbo)
			return rnd64(r);
		bo = &c->bos[rnd(r, c->nbo)];
		return bo->va + (one_in(r, 2) ? 0 : rnd(r, bo->size + 64));
	}
}

/* The binding table of a replay: right-sized mostly, sometimes not. */
static void replay_table(struct worker *w, struct fctx *c,
			 struct drm_vnpu_submit *s, uint32_t bindings,
			 uint64_t *table, uint32_t cap)
{
	struct rng *r = &w->r;
	uint32_t n = bindings, i;

	if (!bindings && !one_in(r, 10))
		return;
	if (one_in(r, 12))
		n = rnd(r, cap);
	if (!n)
		n = 1;
	for (i = 0; i < n; i++)
		table[i] = bind_entry(w, c);
	s->flags |= one_in(r, 15) ? 0 : DRM_VNPU_SUBMIT_BINDINGS;
	s->args = one_in(r, 30) ? bad_ptr(w) : (uintptr_t)table;
	s->args_size = one_in(r, 30) ? (uint32_t)rnd_interesting(r) : n * 8;
	/* Never let the kernel read past the table. */
	if (s->args == (uintptr_t)table && s->args_size > cap * 8)
		s->args = 0xdead0000;
}

void do_cmdbuf_replay(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_sync in[DRM_VNPU_MAX_SYNCS + 8], out[DRM_VNPU_MAX_SYNCS + 8];
	uint64_t table[DRM_VNPU_MAX_BINDINGS + 2];
	struct drm_vnpu_submit s = { 0 };
	uint32_t bindings = 0;
	struct call cl;
	int qi, ret, k;

	if (!c->nq)
		queue_create(w, c);
	qi = pick_queue(w, c, &s.queue_id);
	if (qi >= 0 && queue_busy(&c->q[qi]))
		return;
	s.flags = DRM_VNPU_SUBMIT_CMDBUF;
	if (c->ncb && !one_in(&w->r, 6)) {
		k = rnd(&w->r, c->ncb);
		s.cmdbuf = c->cmdbufs[k];
		bindings = c->cb_bindings[k];
	} else {
		s.cmdbuf = rnd(&w->r, 40);
	}
	replay_table(w, c, &s, bindings, table, ARRAY_SIZE(table));
	if (one_in(&w->r, 15))
		s.task_count = 1;	/* a replay carries no tasks */
	s.in_sync_count = gen_syncs(w, c, in, true);
	s.out_sync_count = gen_syncs(w, c, out, false);
	s.in_syncs = s.in_sync_count ? (uintptr_t)in : 0;
	s.out_syncs = s.out_sync_count ? (uintptr_t)out : 0;
	call_begin(&cl, "SUBMIT", "fd=%d queue=%u flags=0x%x cmdbuf=%u table=%u@0x%llx in=%u out=%u task_count=%u",
		   c->fd, s.queue_id, s.flags, s.cmdbuf, s.args_size, U(s.args),
		   s.in_sync_count, s.out_sync_count, s.task_count);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_SUBMIT, &s);
	call_end(&cl, ret, "seq=%llu", U(s.seq));
	submit_done(c, qi, s.queue_id, ret, s.seq, "replay");
}

/* --------------------------------------------------------- DRM core -- */

void do_version(struct worker *w, struct fctx *c)
{
	char name[64], date[64], desc[64];
	struct drm_version v = { 0 };
	struct call cl;
	int ret;

	v.name = name;
	v.name_len = rnd(&w->r, sizeof(name));
	v.date = date;
	v.date_len = rnd(&w->r, sizeof(date));
	v.desc = desc;
	v.desc_len = rnd(&w->r, sizeof(desc));
	if (one_in(&w->r, 4)) {
		v.name = (char *)(uintptr_t)bad_ptr(w);
		v.name_len = rnd_interesting(&w->r);
	}
	if (one_in(&w->r, 8)) {
		v.desc = NULL;
		v.desc_len = 1 + rnd(&w->r, 100);
	}
	call_begin(&cl, "VERSION", "fd=%d name=%p/%zu date_len=%zu desc=%p/%zu",
		   c->fd, v.name, v.name_len, v.date_len, v.desc, v.desc_len);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VERSION, &v);
	call_end(&cl, ret, "version=%d.%d.%d", v.version_major, v.version_minor,
		 v.version_patchlevel);
}

void do_prime_export(struct worker *w, struct fctx *c)
{
	struct drm_prime_handle ph = { 0 };
	struct call cl;
	int ret;

	ph.handle = pick_handle(w, c);
	ph.flags = one_in(&w->r, 6) ? (uint32_t)rnd64(&w->r) :
		   DRM_CLOEXEC | (one_in(&w->r, 2) ? DRM_RDWR : 0);
	ph.fd = one_in(&w->r, 10) ? (int)rnd64(&w->r) : -1;
	call_begin(&cl, "PRIME_HANDLE_TO_FD", "fd=%d handle=%u flags=0x%x", c->fd,
		   ph.handle, ph.flags);
	ret = fz_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph);
	call_end(&cl, ret, "dmabuf=%d", ph.fd);
	if (ret)
		return;
	if (w->ndmabuf < MAX_DMABUFS)
		w->dmabufs[w->ndmabuf++] = ph.fd;
	else
		close(ph.fd);
}

void do_prime_import(struct worker *w, struct fctx *c)
{
	struct drm_prime_handle ph = { 0 };
	struct call cl;
	int ret, k = -1;

	if (w->ndmabuf && !one_in(&w->r, 6)) {
		k = rnd(&w->r, w->ndmabuf);
		ph.fd = w->dmabufs[k];
	} else {
		ph.fd = one_in(&w->r, 2) ? c->fd : (int)rnd_interesting(&w->r);
	}
	ph.flags = maybe(w, 10);
	call_begin(&cl, "PRIME_FD_TO_HANDLE", "fd=%d dmabuf=%d flags=0x%x", c->fd,
		   ph.fd, ph.flags);
	ret = fz_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph);
	call_end(&cl, ret, "handle=%u", ph.handle);
	if (!ret && c->nbo < MAX_BOS) {
		struct drm_vnpu_bo_info bi = { .handle = ph.handle };
		int i;

		for (i = 0; i < c->nbo; i++)
			if (c->bos[i].handle == ph.handle)
				break;
		if (i < c->nbo)
			goto out;	/* our own object back */
		if (fz_ioctl(c->fd, DRM_IOCTL_VNPU_BO_INFO, &bi))
			finding("BO_INFO of imported handle %u fails", ph.handle);
		check_new_va(c, bi.placement, bi.flags, bi.va, bi.size, ph.handle);
		c->bos[c->nbo].handle = ph.handle;
		c->bos[c->nbo].va = bi.va;
		c->bos[c->nbo].size = bi.size;
		c->bos[c->nbo].placement = bi.placement;
		c->bos[c->nbo].flags = bi.flags;
		c->bos[c->nbo].cpu = NULL;
		c->nbo++;
	}
out:
	if (k >= 0 && one_in(&w->r, 3)) {
		close(w->dmabufs[k]);
		w->dmabufs[k] = w->dmabufs[--w->ndmabuf];
	}
}

/* Handle arrays for syncobj calls: ours, the queues', and made-up ones. */
static uint32_t syncobj_array(struct worker *w, struct fctx *c, uint32_t *h,
			      uint64_t *pts, uint32_t max)
{
	uint32_t n = 1 + rnd(&w->r, 4), i;

	for (i = 0; i < n && i < max; i++) {
		h[i] = pick_syncobj(w, c);
		pts[i] = one_in(&w->r, 3) ? rnd_interesting(&w->r) : rnd(&w->r, 8);
	}
	return n;
}

void do_syncobj(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	uint32_t h[8];
	uint64_t pts[8];
	struct call cl;
	int ret;
	uint32_t n = syncobj_array(w, c, h, pts, 8);
	/* a count the kernel sees: ours, or a huge one */
	uint32_t count = n;

	if (one_in(r, 30)) {
		count = one_in(r, 2) ? (uint32_t)rnd_interesting(r) : 0;
		if (count > 8 && !(opt.known & KB_SYNCOBJ_COUNT))
			count = 0;
	}
	switch (rnd(r, 12)) {
	case 0: {
		struct drm_syncobj_create sc = { 0 };

		sc.flags = one_in(r, 3) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
		if (one_in(r, 10))
			sc.flags = rnd64(r);
		call_begin(&cl, "SYNCOBJ_CREATE", "fd=%d flags=0x%x", c->fd, sc.flags);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);
		call_end(&cl, ret, "handle=%u", sc.handle);
		if (!ret && c->nso < MAX_SYNCOBJS) {
			c->so[c->nso] = sc.handle;
			c->so_point[c->nso++] = 0;
		}
		break;
	}
	case 1: {
		struct drm_syncobj_destroy sd = { .handle = pick_syncobj(w, c) };
		int i;

		sd.pad = maybe(w, 10);
		call_begin(&cl, "SYNCOBJ_DESTROY", "fd=%d handle=%u pad=%u", c->fd,
			   sd.handle, sd.pad);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd);
		call_end(&cl, ret, NULL);
		if (!ret)
			for (i = 0; i < c->nso; i++)
				if (c->so[i] == sd.handle) {
					c->so[i] = c->so[--c->nso];
					c->so_point[i] = c->so_point[c->nso];
				}
		break;
	}
	case 2: {
		struct drm_syncobj_wait sw = { 0 };

		sw.handles = one_in(r, 15) ? bad_ptr(w) : (uintptr_t)h;
		sw.count_handles = count;
		sw.flags = rnd(r, 4);
		if (one_in(r, 10))
			sw.flags = rnd64(r);
		sw.timeout_nsec = one_in(r, 4) ? 0 : (int64_t)(now_ns() + rnd(r, 50) * 1000000ull);
		if (one_in(r, 20))
			sw.timeout_nsec = rnd_interesting(r) & INT64_MAX;
		call_begin(&cl, "SYNCOBJ_WAIT", "fd=%d handles=[%u,..] count=%u flags=0x%x timeout=%lld",
			   c->fd, h[0], sw.count_handles, sw.flags, (long long)sw.timeout_nsec);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_WAIT, &sw);
		call_end(&cl, ret, "first=%u", sw.first_signaled);
		break;
	}
	case 3: {
		struct drm_syncobj_timeline_wait tw = { 0 };

		tw.handles = (uintptr_t)h;
		tw.points = one_in(r, 15) ? bad_ptr(w) : (uintptr_t)pts;
		tw.count_handles = count;
		tw.flags = rnd(r, 8);
		if (one_in(r, 10))
			tw.flags = rnd64(r);
		tw.timeout_nsec = one_in(r, 4) ? 0 : (int64_t)(now_ns() + rnd(r, 50) * 1000000ull);
		call_begin(&cl, "SYNCOBJ_TIMELINE_WAIT", "fd=%d handles=[%u,..] points=[%llu,..] count=%u flags=0x%x",
			   c->fd, h[0], U(pts[0]), tw.count_handles, tw.flags);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw);
		call_end(&cl, ret, "first=%u", tw.first_signaled);
		break;
	}
	case 4:
	case 5: {
		struct drm_syncobj_array sa = { 0 };
		bool sig = rnd(r, 2);

		sa.handles = one_in(r, 15) ? bad_ptr(w) : (uintptr_t)h;
		sa.count_handles = count;
		sa.pad = maybe(w, 10);
		call_begin(&cl, sig ? "SYNCOBJ_SIGNAL" : "SYNCOBJ_RESET",
			   "fd=%d handles=[%u,..] count=%u pad=%u", c->fd, h[0],
			   sa.count_handles, sa.pad);
		ret = fz_ioctl(c->fd, sig ? DRM_IOCTL_SYNCOBJ_SIGNAL : DRM_IOCTL_SYNCOBJ_RESET, &sa);
		call_end(&cl, ret, NULL);
		break;
	}
	case 6:
	case 7: {
		struct drm_syncobj_timeline_array ta = { 0 };
		bool sig = rnd(r, 2);

		ta.handles = (uintptr_t)h;
		ta.points = one_in(r, 15) ? bad_ptr(w) : (uintptr_t)pts;
		ta.count_handles = count;
		ta.flags = sig ? maybe(w, 10) : (one_in(r, 2) ? DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED : maybe(w, 5));
		call_begin(&cl, sig ? "SYNCOBJ_TIMELINE_SIGNAL" : "SYNCOBJ_QUERY",
			   "fd=%d handles=[%u,..] points=[%llu,..] count=%u flags=0x%x",
			   c->fd, h[0], U(pts[0]), ta.count_handles, ta.flags);
		ret = fz_ioctl(c->fd, sig ? DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL :
			       DRM_IOCTL_SYNCOBJ_QUERY, &ta);
		call_end(&cl, ret, "points=[%llu,..]", U(pts[0]));
		break;
	}
	case 8: {
		struct drm_syncobj_transfer st = { 0 };

		st.src_handle = h[0];
		st.dst_handle = pick_syncobj(w, c);
		st.src_point = pts[0];
		st.dst_point = one_in(r, 2) ? 0 : rnd(r, 10);
		st.flags = one_in(r, 3) ? rnd(r, 8) : 0;
		st.pad = maybe(w, 10);
		call_begin(&cl, "SYNCOBJ_TRANSFER", "fd=%d src=%u:%llu dst=%u:%llu flags=0x%x",
			   c->fd, st.src_handle, U(st.src_point), st.dst_handle,
			   U(st.dst_point), st.flags);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &st), NULL);
		break;
	}
	case 9: {
		struct drm_syncobj_handle sh2 = { 0 };

		sh2.handle = h[0];
		sh2.flags = one_in(r, 2) ? DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : 0;
		if (one_in(r, 10))
			sh2.flags = rnd64(r);
		sh2.pad = maybe(w, 10);
		call_begin(&cl, "SYNCOBJ_HANDLE_TO_FD", "fd=%d handle=%u flags=0x%x", c->fd,
			   sh2.handle, sh2.flags);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sh2);
		call_end(&cl, ret, "out_fd=%d", sh2.fd);
		if (!ret) {
			/* import it into some context, then close the fd */
			struct fctx *c2 = ctx_pick(w);
			struct drm_syncobj_handle ih = { .fd = sh2.fd };

			ih.flags = sh2.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE ?
				   DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE : 0;
			if (ih.flags)
				ih.handle = pick_syncobj(w, c2);
			call_begin(&cl, "SYNCOBJ_FD_TO_HANDLE", "fd=%d in_fd=%d flags=0x%x handle=%u",
				   c2->fd, ih.fd, ih.flags, ih.handle);
			ret = fz_ioctl(c2->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &ih);
			call_end(&cl, ret, "handle=%u", ih.handle);
			if (!ret && !ih.flags && c2->nso < MAX_SYNCOBJS) {
				c2->so[c2->nso] = ih.handle;
				c2->so_point[c2->nso++] = 0;
			}
			close(sh2.fd);
		}
		break;
	}
	case 10: {
		struct drm_syncobj_handle ih = { 0 };

		ih.fd = one_in(r, 2) ? c->fd : (int)rnd_interesting(r);
		if (w->ndmabuf && one_in(r, 2))
			ih.fd = w->dmabufs[rnd(r, w->ndmabuf)];
		ih.flags = rnd(r, 2);
		ih.handle = ih.flags ? pick_syncobj(w, c) : 0;
		call_begin(&cl, "SYNCOBJ_FD_TO_HANDLE", "fd=%d in_fd=%d flags=0x%x handle=%u",
			   c->fd, ih.fd, ih.flags, ih.handle);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &ih);
		call_end(&cl, ret, "handle=%u", ih.handle);
		break;
	}
	default: {
		/* query a queue's timeline: never past what was submitted */
		struct drm_syncobj_timeline_array ta = { 0 };
		uint64_t pt = 0;
		int qi;

		if (!c->nq)
			break;
		qi = rnd(r, c->nq);
		ta.handles = (uintptr_t)&c->q[qi].syncobj;
		ta.points = (uintptr_t)&pt;
		ta.count_handles = 1;
		call_begin(&cl, "SYNCOBJ_QUERY", "fd=%d handle=%u (queue %u)", c->fd,
			   c->q[qi].syncobj, c->q[qi].id);
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta);
		call_end(&cl, ret, "point=%llu", U(pt));
		/* Timeline signals or transfers into it may move it legitimately. */
		break;
	}
	}
}

void do_core_unsafe(struct worker *w, struct fctx *c)
{
	struct call cl;
	int ret;

	switch (rnd(&w->r, 6)) {
	case 0: {
		struct drm_auth a = { 0 };

		call_begin(&cl, "GET_MAGIC", "fd=%d", c->fd);
		ret = fz_ioctl(c->fd, DRM_IOCTL_GET_MAGIC, &a);
		call_end(&cl, ret, "magic=%u", a.magic);
		break;
	}
	case 1: {
		char buf[64];
		struct drm_unique u = { .unique_len = rnd(&w->r, 64), .unique = buf };

		if (one_in(&w->r, 3))
			u.unique = (char *)(uintptr_t)bad_ptr(w);
		call_begin(&cl, "GET_UNIQUE", "fd=%d len=%zu ptr=%p", c->fd, u.unique_len,
			   u.unique);
		ret = fz_ioctl(c->fd, DRM_IOCTL_GET_UNIQUE, &u);
		call_end(&cl, ret, "len=%zu", u.unique_len);
		break;
	}
	case 2: {
		struct drm_auth a = { .magic = rnd(&w->r, 8) };

		call_begin(&cl, "AUTH_MAGIC", "fd=%d magic=%u", c->fd, a.magic);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_AUTH_MAGIC, &a), NULL);
		break;
	}
	case 3: {
		struct drm_set_version sv = {
			.drm_di_major = rnd(&w->r, 3) - 1, .drm_di_minor = rnd(&w->r, 6) - 1,
			.drm_dd_major = rnd(&w->r, 3) - 1, .drm_dd_minor = rnd(&w->r, 3) - 1,
		};

		call_begin(&cl, "SET_VERSION", "fd=%d di=%d.%d dd=%d.%d", c->fd,
			   sv.drm_di_major, sv.drm_di_minor, sv.drm_dd_major, sv.drm_dd_minor);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_SET_VERSION, &sv), NULL);
		break;
	}
	case 4:
		call_begin(&cl, "SET_MASTER", "fd=%d", c->fd);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_SET_MASTER, NULL), NULL);
		break;
	default:
		call_begin(&cl, "DROP_MASTER", "fd=%d", c->fd);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_DROP_MASTER, NULL), NULL);
		break;
	}
}

/* Driver ioctl numbers the driver does not have, or with the wrong size. */
void do_bad_ioctl(struct worker *w, struct fctx *c)
{
	uint8_t buf[256] = { 0 };
	unsigned long req;
	struct call cl;

	switch (rnd(&w->r, 3)) {
	case 0:
		req = DRM_IOWR(DRM_COMMAND_BASE + 0x0c + rnd(&w->r, 0x40), struct drm_vnpu_submit);
		break;
	case 1:
		/* a known number with a shorter or longer size */
		req = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
			   DRM_COMMAND_BASE + rnd(&w->r, 0x0c), rnd(&w->r, 200));
		break;
	default:
		req = _IOC(rnd(&w->r, 4), DRM_IOCTL_BASE, DRM_COMMAND_BASE + rnd(&w->r, 0x0c),
			   sizeof(struct drm_vnpu_submit));
		break;
	}
	call_begin(&cl, "IOCTL_RAW", "fd=%d req=0x%lx", c->fd, req);
	call_end(&cl, fz_ioctl(c->fd, req, buf), NULL);
}

/* ---------------------------------------------------------- io_uring -- */

void uring_reset(struct worker *w, bool reap)
{
	struct call cl;

	if (w->ring_ok) {
		call_begin(&cl, "uring_exit", "pending=%d", w->ring_pending);
		io_uring_queue_exit(&w->ring);
		call_end(&cl, 0, NULL);
		w->ring_ok = false;
	}
	w->ring_pending = 0;
	held_free(w);
	(void)reap;
}

void held_free(struct worker *w)
{
	while (w->nheld) {
		struct batch *b = w->held[--w->nheld];

		batch_free(b);
		free(b);
	}
}

static bool uring_ready(struct worker *w)
{
	unsigned int flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
	struct call cl;
	int ret;

	if (w->ring_ok)
		return true;
	if (one_in(&w->r, 10))
		flags = rnd(&w->r, 2) ? IORING_SETUP_SQE128 : 0;
	call_begin(&cl, "uring_init", "entries=64 flags=0x%x", flags);
	ret = io_uring_queue_init(64, &w->ring, flags);
	call_end(&cl, ret, NULL);
	if (ret)
		return false;
	w->ring_ok = true;
	w->ring_pending = 0;
	return true;
}

static void uring_reap(struct worker *w, unsigned int ms)
{
	struct __kernel_timespec ts = { .tv_sec = ms / 1000,
					.tv_nsec = (ms % 1000) * 1000000ll };
	struct io_uring_cqe *cqe;
	struct call cl;
	int ret;

	while (w->ring_pending > 0) {
		call_timer(5000);
		ret = io_uring_wait_cqe_timeout(&w->ring, &cqe, &ts);
		call_timer(0);
		if (ret)
			return;
		call_begin(&cl, "uring_cqe", "user_data=0x%llx", U(cqe->user_data));
		call_end(&cl, cqe->res, "big0=%llu",
			 U((w->ring.flags & IORING_SETUP_CQE32) ? cqe->big_cqe[0] : 0));
		/* user_data: kind in the top byte */
		switch (cqe->user_data >> 56) {
		case 1:	/* NOP with a zero payload */
			if (cqe->res != DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR,
							      DRM_VNPU_UAPI_MINOR) &&
			    cqe->res >= 0)
				finding("uring NOP: res %d", cqe->res);
			break;
		case 3:	/* WAIT */
			if (cqe->res == DRM_VNPU_JOB_PENDING ||
			    cqe->res > DRM_VNPU_JOB_CANCELLED)
				finding("uring WAIT: res %d", cqe->res);
			break;
		}
		io_uring_cqe_seen(&w->ring, cqe);
		w->ring_pending--;
		ts.tv_sec = 0;
		ts.tv_nsec = 0;
	}
}

void do_uring(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	int n = 1 + rnd(r, 4), i, ret, qi;
	struct batch *batches[4];
	int nbatch = 0;
	struct call cl;

	if (one_in(r, 40)) {
		uring_reset(w, false);	/* with whatever is pending */
		return;
	}
	if (!uring_ready(w))
		return;
	if (w->ring_pending > 40) {
		uring_reap(w, 200);
		if (w->ring_pending > 40)
			uring_reset(w, false);
		return;
	}
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);
		uint8_t payload[80] = { 0 };
		uint32_t op;
		uint64_t kind;
		int fd = c->fd;

		if (!sqe)
			break;
		memset(sqe, 0, (w->ring.flags & IORING_SETUP_SQE128) ? 128 : 64);
		switch (rnd(r, 10)) {
		case 0:
		case 1:
			op = DRM_VNPU_URING_CMD_NOP;
			kind = 1;
			if (one_in(r, 4)) {
				payload[rnd(r, 80)] = 1;
				kind = 0;
			}
			break;
		case 2:
		case 3:
		case 4:
		case 5: {
			struct drm_vnpu_submit s;

			op = DRM_VNPU_URING_CMD_SUBMIT;
			kind = 2;
			batches[nbatch] = calloc(1, sizeof(struct batch));
			if (!batches[nbatch])
				exit(2);
			submit_fill(w, c, &s, batches[nbatch], batches[nbatch]->in,
				    batches[nbatch]->out, &qi);
			nbatch++;
			s.seq = one_in(r, 20) ? rnd64(r) : 0;
			memcpy(payload, &s, sizeof(s));
			if (one_in(r, 15))
				payload[sizeof(s) + rnd(r, 80 - sizeof(s))] = 1;
			if (qi >= 0)
				c->q[qi].inflight++;
			break;
		}
		case 6:
		case 7:
		case 8: {
			struct drm_vnpu_uring_wait wt = { 0 };

			op = DRM_VNPU_URING_CMD_WAIT;
			kind = 3;
			qi = pick_queue(w, c, &wt.queue_id);
			wt.seq = qi >= 0 && c->q[qi].seq ? 1 + rnd(r, c->q[qi].seq) :
				 rnd_interesting(r);
			wt.flags = maybe(w, 15);
			if (one_in(r, 3)) {
				/* the newest job; sometimes with a seq or junk */
				wt.flags = DRM_VNPU_URING_WAIT_LATEST | maybe(w, 10);
				wt.seq = one_in(r, 8) ? wt.seq : 0;
			}
			memcpy(payload, &wt, sizeof(wt));
			if (one_in(r, 15))
				payload[sizeof(wt) + rnd(r, 80 - sizeof(wt))] = 1;
			break;
		}
		default:
			/* unknown numbers, wrong direction or size, other types */
			kind = 0;
			op = _IOC(rnd(r, 4), one_in(r, 4) ? rnd(r, 256) : DRM_VNPU_URING_CMD_TYPE,
				  rnd(r, 6), one_in(r, 2) ? rnd(r, 100) : sizeof(struct drm_vnpu_submit));
			if (one_in(r, 4))
				op = rnd64(r);
			payload[0] = rnd64(r);
			break;
		}
		if (one_in(r, 25)) {
			/* not a vnpu file (/dev/null answers every command with 0) */
			fd = one_in(r, 2) ? -1 : (int)rnd(r, 64);
			if (fd == w->wfd)
				fd = -1;	/* never the witness's file */
			kind = 0;
		}
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->fd = fd;
		sqe->cmd_op = op;
		sqe->user_data = (kind << 56) | (uint64_t)(atomic_load(&sh->calls) & 0xffffffffff);
		if (one_in(r, 30))
			sqe->uring_cmd_flags = rnd64(r);
		/* a SUBMIT linked to the next command (a WAIT LATEST, often) */
		if (kind == 2 && i + 1 < n && one_in(r, 3))
			sqe->flags |= IOSQE_IO_LINK;
		if (w->ring.flags & IORING_SETUP_SQE128)
			memcpy(sqe->cmd, payload, 80);
		else
			memcpy(sqe->cmd, payload, 16);
		call_begin(&cl, "uring_sqe", "fd=%d cmd_op=0x%x kind=%llu payload=%016llx %016llx %016llx %016llx %016llx",
			   fd, op, U(kind), U(((uint64_t *)payload)[0]), U(((uint64_t *)payload)[1]),
			   U(((uint64_t *)payload)[2]), U(((uint64_t *)payload)[3]),
			   U(((uint64_t *)payload)[4]));
		call_end(&cl, 0, "user_data=0x%llx", U(sqe->user_data));
		if (kind == 2)
			full_batch_log(batches[nbatch - 1]);
	}
	call_begin(&cl, "uring_submit", "n=%d", i);
	call_timer(5000);
	ret = io_uring_submit(&w->ring);
	call_timer(0);
	call_end(&cl, ret, NULL);
	if (ret > 0)
		w->ring_pending += ret;
	/* io-wq may issue them later: keep the batches until then */
	for (i = 0; i < nbatch; i++) {
		if (w->nheld < (int)ARRAY_SIZE(w->held)) {
			w->held[w->nheld++] = batches[i];
		} else {
			batch_free(batches[i]);
			free(batches[i]);
		}
	}
	uring_reap(w, one_in(r, 3) ? rnd(r, 30) : 0);
	if (!w->ring_pending)
		held_free(w);
}
