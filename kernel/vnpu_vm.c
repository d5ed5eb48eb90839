// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: user-managed virtual memory (VM_RESERVE, VM_RELEASE, VM_MAP,
 * VM_UNMAP). A context reserves ranges of its own VA window and maps
 * physical allocations (DRM_VNPU_BO_NO_VA objects), or page-aligned parts
 * of them, at addresses it chooses inside a reservation. This is what
 * ACL's aclrtReserveMemAddress/aclrtMapMem and PyTorch's expandable
 * segments build on.
 *
 * Each reservation is a node of the file's vm_space (with a guard granule
 * after it) and has a drm_mm of its own for its mappings, so a fixed
 * placement is drm_mm_reserve_node() and overlaps are found for free.
 *
 * A mapping holds a reference to its object. The MMU finds the mappings
 * an access covers; an access inside one mapping reaches the object
 * directly, one that crosses into adjacent mappings gets a "window": a
 * kernel mapping of exactly the pages it covers, wrapped in a private GEM
 * object that pins and references the objects behind it. The window lives
 * as long as the task that asked for it, so unmapping never pulls pages
 * from under a running task, and the next translation faults.
 *
 * Everything here runs under the file's vm_lock.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_mm.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"

/*
 * Mappings one access may cross. A window pins, references and maps every
 * object it crosses under the file's vm_lock on an engine's thread; 1024
 * 2 MiB granules are a 2 GiB tensor, more than a device's default memory.
 */
#define VNPU_VM_WINDOW_MAPS	1024

#define VNPU_VM_START		DRM_VNPU_VA_RESERVE_START
#define VNPU_VM_END		(DRM_VNPU_VA_RESERVE_START + DRM_VNPU_VA_RANGE_SIZE)

/**
 * struct vnpu_vm_resv - a reserved VA range
 * @node: place in &vnpu_file.vm_space, the range plus a guard granule
 * @size: bytes usable for mappings
 * @maps: its mappings (struct vnpu_vm_map), over exactly the range
 * @nmaps: how many
 */
struct vnpu_vm_resv {
	struct drm_mm_node node;
	u64 size;
	struct drm_mm maps;
	u32 nmaps;
};

/**
 * struct vnpu_vm_map - part of an object mapped in a reservation
 * @node: the VA range in &vnpu_vm_resv.maps
 * @bo: the object (reference)
 * @offset: offset of @node.start in @bo
 * @link: entry in a list of mappings to drop once vm_lock is released
 */
struct vnpu_vm_map {
	struct drm_mm_node node;
	struct vnpu_bo *bo;
	u64 offset;
	struct list_head link;
};

/**
 * struct vnpu_vm_window - kernel view of an access across mappings
 * @bo: the GEM object callers hold; @bo.kva maps the pages
 * @held: the objects behind the pages, pinned and referenced
 * @nheld: how many
 */
struct vnpu_vm_window {
	struct vnpu_bo bo;
	struct vnpu_bo **held;
	u32 nheld;
};

void vnpu_vm_init(struct vnpu_file *vfile)
{
	drm_mm_init(&vfile->vm_space, VNPU_VM_START,
		    VNPU_VM_END - VNPU_VM_START);
}

void vnpu_vm_fini(struct vnpu_file *vfile)
{
	drm_mm_takedown(&vfile->vm_space);
}

/* The node of @mm that contains @va, or NULL (the head node is none). */
static struct drm_mm_node *vnpu_vm_node_at(struct drm_mm *mm, u64 va)
{
	struct drm_mm_node *node;

	drm_mm_for_each_node_in_range(node, mm, va, va + 1) {
		if (!drm_mm_node_allocated(node))
			break;
		return node;
	}
	return NULL;
}

/* The reservation whose usable range contains @va, or NULL. */
static struct vnpu_vm_resv *vnpu_vm_resv_at(struct vnpu_file *vfile, u64 va)
{
	struct drm_mm_node *node;
	struct vnpu_vm_resv *r;

	lockdep_assert_held(&vfile->vm_lock);
	if (va < VNPU_VM_START || va >= VNPU_VM_END)
		return NULL;
	node = vnpu_vm_node_at(&vfile->vm_space, va);
	if (!node)
		return NULL;
	r = container_of(node, struct vnpu_vm_resv, node);
	return va - node->start < r->size ? r : NULL;
}

/* The mapping of @r that contains @va, or NULL. */
static struct vnpu_vm_map *vnpu_vm_map_at(struct vnpu_vm_resv *r, u64 va)
{
	struct drm_mm_node *node;

	if (va < r->node.start || va - r->node.start >= r->size)
		return NULL;
	node = vnpu_vm_node_at(&r->maps, va);
	return node ? container_of(node, struct vnpu_vm_map, node) : NULL;
}

static void vnpu_vm_window_free(struct drm_gem_object *obj)
{
	struct vnpu_vm_window *w = container_of(to_vnpu_bo(obj),
						struct vnpu_vm_window, bo);

	vunmap(w->bo.kva);
	while (w->nheld) {
		struct vnpu_bo *bo = w->held[--w->nheld];

		drm_gem_shmem_unpin(&bo->base);
		vnpu_bo_put(bo);
	}
	kvfree(w->held);
	mutex_destroy(&w->bo.lock);
	drm_gem_object_release(obj);
	kfree(w);
}

static const struct drm_gem_object_funcs vnpu_vm_window_funcs = {
	.free = vnpu_vm_window_free,
};

/* Pin @bo's pages, charged to its creator's memory cgroup. */
static int vnpu_vm_pin(struct vnpu_bo *bo)
{
	struct mem_cgroup *old_memcg = set_active_memcg(bo->memcg);
	int ret = drm_gem_shmem_pin(&bo->base);

	set_active_memcg(old_memcg);
	return ret;
}

/*
 * Map the pages of [va, end), which @nmaps adjacent mappings of @r cover,
 * into one kernel range and return it as a window object. The page array
 * and the window are charged to the file's memory cgroup (the engine
 * thread that asks has none of its own); the kernel page tables of the
 * range are charged to nobody, which the size bound of
 * vnpu_vm_translate() keeps to 1/512 of the device's memory.
 */
static int vnpu_vm_window(struct vnpu_file *vfile, struct vnpu_vm_resv *r,
			  u64 va, u64 end, u32 nmaps, struct vnpu_bo **bop,
			  u64 *offset)
{
	u64 lo = round_down(va, PAGE_SIZE), hi = round_up(end, PAGE_SIZE);
	unsigned long npages = (hi - lo) >> PAGE_SHIFT, done = 0, i, n;
	struct vnpu_vm_window *w;
	struct vnpu_vm_map *m = NULL;
	struct mem_cgroup *old_memcg;
	struct page **pages;
	u64 cur, first;
	int ret = -ENOMEM;

	old_memcg = set_active_memcg(vfile->memcg);
	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	pages = kvmalloc_array(npages, sizeof(*pages),
			       GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (w)
		w->held = kvmalloc_array(nmaps, sizeof(*w->held),
					 GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	set_active_memcg(old_memcg);
	if (!w || !pages || !w->held)
		goto err_free;

	for (cur = lo; cur < hi; cur = m->node.start + m->node.size) {
		/* Up to VNPU_VM_WINDOW_MAPS pins: let others run between. */
		cond_resched();
		m = vnpu_vm_map_at(r, cur);
		if (WARN_ON(!m || w->nheld == nmaps)) {
			ret = -EIO;
			goto err_free;
		}
		ret = vnpu_vm_pin(m->bo);
		if (ret)
			goto err_free;
		drm_gem_object_get(vnpu_bo_obj(m->bo));
		w->held[w->nheld++] = m->bo;
		first = (m->offset + cur - m->node.start) >> PAGE_SHIFT;
		n = (min(hi, m->node.start + m->node.size) - cur) >> PAGE_SHIFT;
		for (i = 0; i < n; i++)
			pages[done++] = m->bo->base.pages[first + i];
	}
	w->bo.kva = vmap(pages, npages, VM_MAP, PAGE_KERNEL);
	if (!w->bo.kva) {
		ret = -ENOMEM;
		goto err_free;
	}
	/* vmap() keeps no pointer to the array. */
	kvfree(pages);

	drm_gem_private_object_init(&vfile->vdev->drm, vnpu_bo_obj(&w->bo),
				    hi - lo);
	vnpu_bo_obj(&w->bo)->funcs = &vnpu_vm_window_funcs;
	vnpu_bo_init_common(&w->bo, DRM_VNPU_PLACEMENT_DEVICE, 0, hi - lo);
	*bop = &w->bo;
	*offset = va - lo;
	return 0;

err_free:
	if (w) {
		while (w->nheld) {
			struct vnpu_bo *bo = w->held[--w->nheld];

			drm_gem_shmem_unpin(&bo->base);
			vnpu_bo_put(bo);
		}
		kvfree(w->held);
	}
	kvfree(pages);
	kfree(w);
	return ret;
}

/**
 * vnpu_vm_translate() - translate an access inside the reservation range
 * @vfile: the context; its vm_lock is held
 * @va: first byte accessed, at least DRM_VNPU_VA_RESERVE_START
 * @end: one past the last byte (no overflow)
 * @access: DRM_VNPU_ACCESS_READ or DRM_VNPU_ACCESS_WRITE
 * @bop: out, an object with a reference (the mapped object, or a window)
 * @offset: out, where @va is in *@bop
 * @reason: out, enum drm_vnpu_fault_reason when the access faults
 *
 * Every byte of [@va, @end) must be mapped, by one mapping or by adjacent
 * mappings of one reservation, and writable for a write. An access across
 * mappings may cross at most VNPU_VM_WINDOW_MAPS of them and be at most the
 * device's memory size long (else a BOUNDS fault).
 *
 * Return: 0; -ENXIO for a fault (the caller records it); -ENOMEM, -EINTR
 * or -EIO when a window cannot be made.
 */
int vnpu_vm_translate(struct vnpu_file *vfile, u64 va, u64 end, u32 access,
		      struct vnpu_bo **bop, u64 *offset, u32 *reason)
{
	struct vnpu_vm_map *m, *first;
	struct vnpu_vm_resv *r;
	u64 cover;
	u32 n = 0;

	lockdep_assert_held(&vfile->vm_lock);
	*reason = DRM_VNPU_FAULT_UNMAPPED;
	r = vnpu_vm_resv_at(vfile, va);
	first = r ? vnpu_vm_map_at(r, va) : NULL;
	for (m = first, cover = va; m && cover < end;
	     cover = m->node.start + m->node.size, n++) {
		if (n == VNPU_VM_WINDOW_MAPS) {
			*reason = DRM_VNPU_FAULT_BOUNDS;
			return -ENXIO;
		}
		m = vnpu_vm_map_at(r, cover);
		if (!m)
			return -ENXIO;
		if (access == DRM_VNPU_ACCESS_WRITE &&
		    (m->bo->flags & DRM_VNPU_BO_DEVICE_READ_ONLY)) {
			*reason = DRM_VNPU_FAULT_READ_ONLY;
			return -ENXIO;
		}
	}
	if (!first)
		return -ENXIO;
	/*
	 * A window costs a page array and kernel page tables in proportion
	 * to its size; aliases aside, no real access crosses more mappings
	 * than the device has memory.
	 */
	if (n > 1 && end - va > vnpu_cfg.mem_bytes) {
		*reason = DRM_VNPU_FAULT_BOUNDS;
		return -ENXIO;
	}
	if (n > 1)
		return vnpu_vm_window(vfile, r, va, end, n, bop, offset);
	drm_gem_object_get(vnpu_bo_obj(first->bo));
	*bop = first->bo;
	*offset = first->offset + (va - first->node.start);
	return 0;
}

int vnpu_vm_reserve_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct drm_vnpu_vm_reserve *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	u64 align = args->align ? args->align : PAGE_SIZE;
	struct vnpu_vm_resv *r;
	int ret;

	if (args->flags || args->pad || args->va) {
		drm_dbg(drm, "vm_reserve: flags, pad and va must be zero\n");
		return -EINVAL;
	}
	if (!args->size || args->size > DRM_VNPU_VM_MAX_RESERVE_SIZE ||
	    !PAGE_ALIGNED(args->size)) {
		drm_dbg(drm, "vm_reserve: bad size %llu\n", args->size);
		return -EINVAL;
	}
	if (!is_power_of_2(align) || align < PAGE_SIZE ||
	    align > DRM_VNPU_VM_MAX_RESERVE_SIZE) {
		drm_dbg(drm, "vm_reserve: bad alignment %llu\n", args->align);
		return -EINVAL;
	}

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	mutex_lock(&vfile->vm_lock);
	if (vfile->vm_resvs >= DRM_VNPU_VM_MAX_RESERVES) {
		drm_dbg(drm, "vm_reserve: %u reservations already\n",
			vfile->vm_resvs);
		ret = -ENOSPC;
		goto err_unlock;
	}
	/* The guard granule keeps two reservations from touching. */
	ret = drm_mm_insert_node_in_range(&vfile->vm_space, &r->node,
					  args->size + PAGE_SIZE, align, 0,
					  VNPU_VM_START, VNPU_VM_END,
					  DRM_MM_INSERT_BEST);
	if (ret) {
		drm_dbg(drm, "vm_reserve: no room for %llu bytes\n",
			args->size);
		goto err_unlock;
	}
	r->size = args->size;
	drm_mm_init(&r->maps, r->node.start, r->size);
	vfile->vm_resvs++;
	args->va = r->node.start;
	mutex_unlock(&vfile->vm_lock);
	return 0;

err_unlock:
	mutex_unlock(&vfile->vm_lock);
	kfree(r);
	return ret;
}

int vnpu_vm_release_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct drm_vnpu_vm_release *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_vm_resv *r;

	if (args->flags || args->pad) {
		drm_dbg(drm, "vm_release: flags and pad must be zero\n");
		return -EINVAL;
	}
	mutex_lock(&vfile->vm_lock);
	r = vnpu_vm_resv_at(vfile, args->va);
	if (!r || r->node.start != args->va) {
		mutex_unlock(&vfile->vm_lock);
		drm_dbg(drm, "vm_release: no reservation at 0x%llx\n",
			args->va);
		return -ENOENT;
	}
	if (r->nmaps) {
		mutex_unlock(&vfile->vm_lock);
		drm_dbg(drm, "vm_release: 0x%llx still has %u mappings\n",
			args->va, r->nmaps);
		return -EBUSY;
	}
	drm_mm_remove_node(&r->node);
	drm_mm_takedown(&r->maps);
	vfile->vm_resvs--;
	mutex_unlock(&vfile->vm_lock);
	kfree(r);
	return 0;
}

int vnpu_vm_map_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct drm_vnpu_vm_map *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct drm_gem_object *obj;
	struct vnpu_vm_resv *r;
	struct vnpu_vm_map *m;
	struct vnpu_bo *bo;
	u64 end, obj_end;
	int ret;

	if (args->flags) {
		drm_dbg(drm, "vm_map: flags must be zero\n");
		return -EINVAL;
	}
	if (!args->size || !PAGE_ALIGNED(args->size) ||
	    !PAGE_ALIGNED(args->va) || !PAGE_ALIGNED(args->offset) ||
	    check_add_overflow(args->va, args->size, &end) ||
	    check_add_overflow(args->offset, args->size, &obj_end)) {
		drm_dbg(drm, "vm_map: 0x%llx+%llu at offset %llu not aligned\n",
			args->va, args->size, args->offset);
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_vnpu_bo(obj);
	if (!(bo->flags & DRM_VNPU_BO_NO_VA) || obj_end > bo->size) {
		drm_dbg(drm, "vm_map: object %u is no physical allocation or too small\n",
			args->handle);
		ret = -EINVAL;
		goto err_put;
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m) {
		ret = -ENOMEM;
		goto err_put;
	}

	mutex_lock(&vfile->vm_lock);
	r = vnpu_vm_resv_at(vfile, args->va);
	if (!r || end - r->node.start > r->size) {
		drm_dbg(drm, "vm_map: 0x%llx+%llu is not inside a reservation\n",
			args->va, args->size);
		ret = -EINVAL;
		goto err_unlock;
	}
	if (vfile->vm_maps >= DRM_VNPU_VM_MAX_MAPS) {
		drm_dbg(drm, "vm_map: %u mappings already\n", vfile->vm_maps);
		ret = -ENOSPC;
		goto err_unlock;
	}
	m->node.start = args->va;
	m->node.size = args->size;
	if (drm_mm_reserve_node(&r->maps, &m->node)) {
		drm_dbg(drm, "vm_map: 0x%llx+%llu overlaps a mapping\n",
			args->va, args->size);
		ret = -EBUSY;
		goto err_unlock;
	}
	m->bo = bo;	/* the lookup's reference is the mapping's */
	m->offset = args->offset;
	r->nmaps++;
	vfile->vm_maps++;
	mutex_unlock(&vfile->vm_lock);
	return 0;

err_unlock:
	mutex_unlock(&vfile->vm_lock);
	kfree(m);
err_put:
	drm_gem_object_put(obj);
	return ret;
}

int vnpu_vm_unmap_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct drm_vnpu_vm_unmap *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_vm_resv *r;
	struct vnpu_vm_map *m;

	if (args->flags || args->pad) {
		drm_dbg(drm, "vm_unmap: flags and pad must be zero\n");
		return -EINVAL;
	}
	mutex_lock(&vfile->vm_lock);
	r = vnpu_vm_resv_at(vfile, args->va);
	m = r ? vnpu_vm_map_at(r, args->va) : NULL;
	if (!m || m->node.start != args->va) {
		mutex_unlock(&vfile->vm_lock);
		drm_dbg(drm, "vm_unmap: no mapping at 0x%llx\n", args->va);
		return -ENOENT;
	}
	if (m->node.size != args->size) {
		mutex_unlock(&vfile->vm_lock);
		drm_dbg(drm, "vm_unmap: mapping at 0x%llx has %llu bytes, not %llu\n",
			args->va, m->node.size, args->size);
		return -EINVAL;
	}
	drm_mm_remove_node(&m->node);
	r->nmaps--;
	vfile->vm_maps--;
	vnpu_mmu_invalidate(vfile);
	mutex_unlock(&vfile->vm_lock);
	/* Tasks that translated through it hold their own references. */
	vnpu_bo_put(m->bo);
	kfree(m);
	return 0;
}

/**
 * vnpu_vm_close() - unmap and release everything of a closing file
 * @vfile: the context
 *
 * Jobs still running translate nothing afterwards (they fault); what they
 * translated before stays referenced by them.
 */
void vnpu_vm_close(struct vnpu_file *vfile)
{
	struct drm_mm_node *rn, *rnext, *mn, *mnext;
	struct vnpu_vm_map *m, *mtmp;
	LIST_HEAD(dead);

	mutex_lock(&vfile->vm_lock);
	drm_mm_for_each_node_safe(rn, rnext, &vfile->vm_space) {
		struct vnpu_vm_resv *r = container_of(rn, struct vnpu_vm_resv,
						      node);

		drm_mm_for_each_node_safe(mn, mnext, &r->maps) {
			m = container_of(mn, struct vnpu_vm_map, node);
			drm_mm_remove_node(mn);
			list_add_tail(&m->link, &dead);
		}
		drm_mm_remove_node(rn);
		drm_mm_takedown(&r->maps);
		kfree(r);
	}
	vfile->vm_resvs = 0;
	vfile->vm_maps = 0;
	vnpu_mmu_invalidate(vfile);
	mutex_unlock(&vfile->vm_lock);
	/* Freeing an object may take other locks: not under vm_lock. */
	list_for_each_entry_safe(m, mtmp, &dead, link) {
		vnpu_bo_put(m->bo);
		kfree(m);
	}
}
