// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: user-managed virtual memory. Reservations, physical
 * allocations (DRM_VNPU_BO_NO_VA) and mappings, plausible (granule
 * aligned, inside a reservation, often adjacent to another mapping so
 * accesses cross seams) and mutated; the other calls then aim copies and
 * tasks at reserved addresses through vm_addr(). Handles are closed and
 * files closed with mappings live, so the keep-alive and teardown paths
 * run too.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "fuzz.h"

#define U(x)		((unsigned long long)(x))
#define GRANULE		4096ull

static uint32_t maybe_nz(struct worker *w, uint32_t n)
{
	return one_in(&w->r, n) ? (uint32_t)rnd_interesting(&w->r) | 1 : 0;
}

uint64_t vm_addr(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	const struct frange *m;

	if (c->nvmap && !one_in(r, 4)) {
		/* Near the end of a mapping: the next access may cross it. */
		m = &c->vmaps[rnd(r, c->nvmap)];
		return m->va + m->size - 1 - rnd(r, m->size < 8192 ? m->size : 8192);
	}
	if (!c->nresv)
		return 0;
	m = &c->resv[rnd(r, c->nresv)];
	return m->va + rnd(r, m->size + GRANULE);
}

static void vm_reserve(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_vm_reserve a = { 0 };
	bool keep = !one_in(r, 4) && c->nresv < MAX_RESV;
	struct call cl;
	int ret;

	a.size = GRANULE * (1 + rnd(r, 2048));
	a.align = one_in(r, 3) ? GRANULE << rnd(r, 12) : 0;
	if (!keep) {
		a.size = one_in(r, 2) ? rnd_interesting(r) : rnd_mutate(r, a.size);
		a.align = one_in(r, 2) ? rnd_interesting(r) : a.align;
		a.va = maybe_nz(w, 8);
		a.flags = maybe_nz(w, 8);
		a.pad = maybe_nz(w, 8);
	}
	call_begin(&cl, "VM_RESERVE", "fd=%d size=0x%llx align=0x%llx va=0x%llx flags=%u pad=%u",
		   c->fd, U(a.size), U(a.align), U(a.va), a.flags, a.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_VM_RESERVE, &a);
	call_end(&cl, ret, "va=0x%llx", U(a.va));
	if (ret)
		return;
	if (a.va < DRM_VNPU_VA_RESERVE_START ||
	    a.va + a.size > DRM_VNPU_VA_RESERVE_START + DRM_VNPU_VA_RANGE_SIZE ||
	    a.va % GRANULE || (a.align && a.va % a.align))
		finding("VM_RESERVE size 0x%llx align 0x%llx gave 0x%llx",
			U(a.size), U(a.align), U(a.va));
	if (c->nresv < MAX_RESV) {
		c->resv[c->nresv].va = a.va;
		c->resv[c->nresv++].size = a.size;
	}
}

/* Forget the mappings inside [va, va + size). */
static void forget_maps(struct fctx *c, uint64_t va, uint64_t size)
{
	int i;

	for (i = 0; i < c->nvmap; i++)
		if (c->vmaps[i].va >= va && c->vmaps[i].va - va < size)
			c->vmaps[i--] = c->vmaps[--c->nvmap];
}

static void vm_release(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_vm_release a = { 0 };
	int i = c->nresv ? (int)rnd(r, c->nresv) : -1;
	struct call cl;
	int ret;

	a.va = i >= 0 && !one_in(r, 6) ? c->resv[i].va : vm_addr(w, c);
	if (one_in(r, 8))
		a.va = rnd_interesting(r);
	a.flags = maybe_nz(w, 10);
	a.pad = maybe_nz(w, 10);
	call_begin(&cl, "VM_RELEASE", "fd=%d va=0x%llx flags=%u pad=%u", c->fd,
		   U(a.va), a.flags, a.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_VM_RELEASE, &a);
	call_end(&cl, ret, NULL);
	for (i = 0; !ret && i < c->nresv; i++)
		if (c->resv[i].va == a.va) {
			forget_maps(c, c->resv[i].va, c->resv[i].size);
			c->resv[i] = c->resv[--c->nresv];
			break;
		}
}

/* A NO_VA object of this file, or -1 (sometimes a new one). */
static int pick_phys(struct worker *w, struct fctx *c)
{
	int i, n = 0, pick = -1;

	for (i = 0; i < c->nbo; i++)
		if ((c->bos[i].flags & DRM_VNPU_BO_NO_VA) && !rnd(&w->r, ++n))
			pick = i;
	if (pick < 0 || one_in(&w->r, 6))
		pick = bo_create(w, c, GRANULE * (1 + rnd(&w->r, 1024)),
				 DRM_VNPU_PLACEMENT_DEVICE,
				 DRM_VNPU_BO_NO_VA |
				 (one_in(&w->r, 8) ? DRM_VNPU_BO_DEVICE_READ_ONLY : 0),
				 false);
	return pick;
}

static void vm_map(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_vm_map a = { 0 };
	const struct frange *res;
	const struct fbo *b;
	struct call cl;
	int bi, ret;

	bi = pick_phys(w, c);
	if (!c->nresv || bi < 0)
		return;
	b = &c->bos[bi];
	res = &c->resv[rnd(r, c->nresv)];
	a.handle = b->handle;
	a.offset = GRANULE * rnd(r, b->size / GRANULE);
	a.size = GRANULE * (1 + rnd(r, (b->size - a.offset) / GRANULE));
	a.va = res->va + GRANULE * rnd(r, res->size / GRANULE);
	/* Right after an existing mapping: accesses cross the seam. */
	if (c->nvmap && one_in(r, 2)) {
		const struct frange *m = &c->vmaps[rnd(r, c->nvmap)];

		a.va = m->va + m->size;
	}
	if (one_in(r, 5)) {
		switch (rnd(r, 5)) {
		case 0: a.va = rnd_mutate(r, a.va); break;
		case 1: a.size = rnd_mutate(r, a.size); break;
		case 2: a.offset = rnd_mutate(r, a.offset); break;
		case 3: a.flags = maybe_nz(w, 1); break;
		default: a.handle = (uint32_t)rnd_interesting(r); break;
		}
	}
	call_begin(&cl, "VM_MAP", "fd=%d va=0x%llx size=0x%llx offset=0x%llx handle=%u flags=%u",
		   c->fd, U(a.va), U(a.size), U(a.offset), a.handle, a.flags);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_VM_MAP, &a);
	call_end(&cl, ret, NULL);
	if (!ret && c->nvmap < MAX_VMAPS) {
		c->vmaps[c->nvmap].va = a.va;
		c->vmaps[c->nvmap++].size = a.size;
	}
	/* Sometimes the handle goes at once: the mapping keeps the memory. */
	if (!ret && one_in(r, 4)) {
		struct drm_gem_close gc = { .handle = b->handle };

		call_begin(&cl, "GEM_CLOSE", "fd=%d handle=%u (mapped)", c->fd, gc.handle);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &gc), NULL);
		ctx_forget_bo(c, bi);
	}
}

static void vm_unmap(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	struct drm_vnpu_vm_unmap a = { 0 };
	int i = c->nvmap ? (int)rnd(r, c->nvmap) : -1;
	struct call cl;
	int ret;

	if (i >= 0 && !one_in(r, 6)) {
		a.va = c->vmaps[i].va;
		a.size = c->vmaps[i].size;
	} else {
		a.va = vm_addr(w, c);
		a.size = GRANULE * rnd(r, 64);
	}
	if (one_in(r, 8))
		a.size = rnd_mutate(r, a.size);
	a.flags = maybe_nz(w, 10);
	a.pad = maybe_nz(w, 10);
	call_begin(&cl, "VM_UNMAP", "fd=%d va=0x%llx size=0x%llx flags=%u pad=%u",
		   c->fd, U(a.va), U(a.size), a.flags, a.pad);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_VM_UNMAP, &a);
	call_end(&cl, ret, NULL);
	for (i = 0; !ret && i < c->nvmap; i++)
		if (c->vmaps[i].va == a.va) {
			c->vmaps[i] = c->vmaps[--c->nvmap];
			break;
		}
}

/* A write and a read at a reserved address, often across a seam. */
static void vm_roundtrip(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	uint64_t va = vm_addr(w, c), n = 1 + rnd(r, 16384);
	uint8_t *buf = w->scratch, *back = w->scratch + 16384;
	uint64_t i;
	struct drm_vnpu_memcpy mc = { .dst = va, .src = (uintptr_t)buf, .size = n,
				      .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
	struct call cl;
	int ret;

	if (!va || w->scratch_len < 32768)
		return;
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)rnd64(r);
	call_begin(&cl, "MEMCPY", "fd=%d vm h2d va=0x%llx size=0x%llx", c->fd, U(va), U(n));
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
	call_end(&cl, ret, NULL);
	if (ret)
		return;
	mc = (struct drm_vnpu_memcpy){ .dst = (uintptr_t)back, .src = va, .size = n,
				       .flags = DRM_VNPU_MEMCPY_SRC_DEVICE };
	call_begin(&cl, "MEMCPY", "fd=%d vm d2h va=0x%llx size=0x%llx", c->fd, U(va), U(n));
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
	call_end(&cl, ret, NULL);
	/*
	 * The bytes are not compared: jobs of this file may write reserved
	 * addresses at any time. The witness checks what must not change.
	 */
}

void do_vm(struct worker *w, struct fctx *c)
{
	switch (rnd(&w->r, 8)) {
	case 0:
	case 1:
		vm_reserve(w, c);
		break;
	case 2:
		vm_release(w, c);
		break;
	case 3:
	case 4:
		vm_map(w, c);
		break;
	case 5:
		vm_unmap(w, c);
		break;
	default:
		vm_roundtrip(w, c);
		break;
	}
}
