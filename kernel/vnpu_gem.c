// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: buffer objects on GEM shmem, device memory accounting, and the
 * BO_CREATE / BO_INFO ioctls.
 *
 * A BO is mapped into a context's address space when a handle to it is
 * created in that file (the GEM .open callback) and unmapped when the
 * handle goes (.close). That covers objects created here, imported through
 * PRIME, and shared between files of one device alike.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/drm_vma_manager.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"

/*
 * Charge @bytes of an object of @placement (DEVICE or HOST) to the
 * device's pool for it and to @vfile's share of that pool.
 */
static int vnpu_mem_charge(struct vnpu_device *vdev, struct vnpu_file *vfile,
			   u32 placement, u64 bytes)
{
	bool host = placement == DRM_VNPU_PLACEMENT_HOST;
	u64 total = host ? vnpu_host_mem_total() : vnpu_cfg.mem_bytes;
	u64 share = vnpu_file_share(total);
	struct vnpu_mem_stats *mem = &vdev->mem;
	u64 *used, *file_used;
	const char *full = NULL;

	spin_lock(&mem->lock);
	used = host ? &mem->host_used : &mem->used;
	file_used = host ? &vfile->host_used : &vfile->mem_used;
	if (*used > total || bytes > total - *used) {
		full = host ? "the host pool" : "device memory";
	} else if (*file_used > share || bytes > share - *file_used) {
		full = "the file's share";
	} else {
		*used += bytes;
		*file_used += bytes;
		if (!host)
			mem->peak = max(mem->peak, mem->used);
	}
	spin_unlock(&mem->lock);
	if (full) {
		drm_dbg(&vdev->drm, "bo_create: %llu bytes do not fit in %s\n",
			bytes, full);
		return -ENOSPC;
	}
	return 0;
}

static void vnpu_mem_uncharge(struct vnpu_device *vdev, struct vnpu_file *vfile,
			      u32 placement, u64 bytes)
{
	bool host = placement == DRM_VNPU_PLACEMENT_HOST;
	struct vnpu_mem_stats *mem = &vdev->mem;
	u64 *used, *file_used;

	spin_lock(&mem->lock);
	used = host ? &mem->host_used : &mem->used;
	file_used = host ? &vfile->host_used : &vfile->mem_used;
	WARN_ON(bytes > *used || bytes > *file_used);
	*used -= min(bytes, *used);
	*file_used -= min(bytes, *file_used);
	spin_unlock(&mem->lock);
}

/**
 * vnpu_mem_stats_read() - a consistent copy of the memory counters
 * @vdev: the device
 * @out: filled with used, peak and objects (its lock is not touched)
 */
void vnpu_mem_stats_read(struct vnpu_device *vdev, struct vnpu_mem_stats *out)
{
	spin_lock(&vdev->mem.lock);
	out->used = vdev->mem.used;
	out->peak = vdev->mem.peak;
	out->objects = vdev->mem.objects;
	out->host_used = vdev->mem.host_used;
	spin_unlock(&vdev->mem.lock);
}

/**
 * vnpu_bo_init_common() - fill the fields every placement has
 * @bo: a new object, not yet visible to anybody
 * @placement: enum drm_vnpu_placement
 * @flags: DRM_VNPU_BO_* flags
 * @size: size as requested
 */
void vnpu_bo_init_common(struct vnpu_bo *bo, u32 placement, u32 flags,
			 u64 size)
{
	bo->placement = placement;
	bo->flags = flags;
	bo->size = size;
	mutex_init(&bo->lock);
	INIT_LIST_HEAD(&bo->mappings);
	INIT_LIST_HEAD(&bo->dev_link);
	bo->owner_pid = task_tgid_nr(current);
	get_task_comm(bo->owner_comm, current);
}

/**
 * vnpu_bo_track() - count a new object and list it for debugfs
 * @bo: the object
 */
void vnpu_bo_track(struct vnpu_bo *bo)
{
	struct vnpu_device *vdev = to_vnpu_device(vnpu_bo_obj(bo)->dev);

	mutex_lock(&vdev->bo_lock);
	list_add_tail(&bo->dev_link, &vdev->bo_list);
	mutex_unlock(&vdev->bo_lock);
	spin_lock(&vdev->mem.lock);
	vdev->mem.objects++;
	spin_unlock(&vdev->mem.lock);
}

/**
 * vnpu_bo_untrack() - undo vnpu_bo_track() and release the object's
 * device memory or host pool charge
 * @bo: an object being freed
 */
void vnpu_bo_untrack(struct vnpu_bo *bo)
{
	struct vnpu_device *vdev = to_vnpu_device(vnpu_bo_obj(bo)->dev);

	if (list_empty(&bo->dev_link))
		return;
	mutex_lock(&vdev->bo_lock);
	list_del_init(&bo->dev_link);
	mutex_unlock(&vdev->bo_lock);
	spin_lock(&vdev->mem.lock);
	vdev->mem.objects--;
	spin_unlock(&vdev->mem.lock);
	if (bo->charged)
		vnpu_mem_uncharge(vdev, bo->charged_file, bo->placement,
				  bo->charged);
	bo->charged = 0;
	if (bo->charged_file)
		vnpu_file_put(bo->charged_file);
	bo->charged_file = NULL;
}

/**
 * vnpu_bo_kmap() - the kernel address of the whole object
 * @bo: a shmem-backed or imported object (user objects are mapped at
 *	creation)
 *
 * Maps the object on first use and keeps it mapped until it is freed, so
 * the device's view of memory is one lookup away. Device memory thus
 * becomes resident when first used, not when allocated.
 *
 * This mostly runs on an engine's kernel thread, whose allocations would
 * land in the root memory cgroup: the pages are charged to the creator's
 * cgroup instead. The shmem mapping allocates with __GFP_RETRY_MAYFAIL,
 * so a cgroup at its limit fails the mapping with -ENOMEM rather than
 * invoking its OOM killer.
 *
 * Return: the address or an ERR_PTR.
 */
void *vnpu_bo_kmap(struct vnpu_bo *bo)
{
	struct mem_cgroup *old_memcg;
	void *kva;
	int ret;

	mutex_lock(&bo->lock);
	if (!bo->kva) {
		old_memcg = set_active_memcg(bo->memcg);
		ret = drm_gem_vmap_unlocked(vnpu_bo_obj(bo), &bo->map);
		set_active_memcg(old_memcg);
		if (!ret && bo->map.is_iomem)
			ret = -EOPNOTSUPP;	/* not from a vnpu device */
		if (!ret)
			bo->kva = bo->map.vaddr;
		else
			iosys_map_clear(&bo->map);
		kva = ret ? ERR_PTR(ret) : bo->kva;
	} else {
		kva = bo->kva;
	}
	mutex_unlock(&bo->lock);
	return kva;
}

static void vnpu_shmem_bo_free(struct drm_gem_object *obj)
{
	struct vnpu_bo *bo = to_vnpu_bo(obj);

	vnpu_bo_untrack(bo);
	if (bo->kva)
		drm_gem_vunmap_unlocked(obj, &bo->map);
	WARN_ON(!list_empty(&bo->mappings));
	mem_cgroup_put(bo->memcg);
	mutex_destroy(&bo->lock);
	drm_gem_shmem_free(&bo->base);
}

/**
 * vnpu_bo_open() - GEM .open: map the object into the new handle's context
 * @obj: the object
 * @file: the file that gets a handle
 *
 * Return: 0, or -ENOSPC when the context's range for the object is full.
 */
int vnpu_bo_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	struct vnpu_mapping *m;
	int ret;

	/* A physical allocation is placed by VM_MAP only. */
	if (bo->flags & DRM_VNPU_BO_NO_VA)
		return 0;
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	m->bo = bo;
	m->vfile = file->driver_priv;

	mutex_lock(&bo->lock);
	ret = vnpu_mmu_map(m->vfile, m);
	if (!ret) {
		list_add_tail(&m->bo_link, &bo->mappings);
		if (!bo->owner_va)
			bo->owner_va = m->node.start;
	}
	mutex_unlock(&bo->lock);
	if (ret)
		kfree(m);
	return ret;
}

/**
 * vnpu_bo_close() - GEM .close: unmap the object from the handle's context
 * @obj: the object
 * @file: the file whose handle is going away
 */
void vnpu_bo_close(struct drm_gem_object *obj, struct drm_file *file)
{
	struct vnpu_bo *bo = to_vnpu_bo(obj);
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_mapping *m, *found = NULL;

	mutex_lock(&bo->lock);
	list_for_each_entry(m, &bo->mappings, bo_link) {
		if (m->vfile == vfile) {
			found = m;
			break;
		}
	}
	if (found) {
		list_del(&found->bo_link);
		vnpu_mmu_unmap(vfile, found);
	}
	mutex_unlock(&bo->lock);
	kfree(found);
}

/* The VA of @bo in @vfile, or 0 when it has none there. */
static u64 vnpu_bo_va(struct vnpu_bo *bo, struct vnpu_file *vfile)
{
	struct vnpu_mapping *m;
	u64 va = 0;

	mutex_lock(&bo->lock);
	list_for_each_entry(m, &bo->mappings, bo_link) {
		if (m->vfile == vfile) {
			va = m->node.start;
			break;
		}
	}
	mutex_unlock(&bo->lock);
	return va;
}

static enum drm_gem_object_status vnpu_shmem_bo_status(struct drm_gem_object *obj)
{
	/* An import's pages are the exporter's, pinned while attached. */
	return to_drm_gem_shmem_obj(obj)->pages || obj->import_attach ?
	       DRM_GEM_OBJECT_RESIDENT : 0;
}

static size_t vnpu_shmem_bo_rss(struct drm_gem_object *obj)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);

	return shmem->pages || obj->import_attach ? obj->size : 0;
}

static const struct drm_gem_object_funcs vnpu_shmem_bo_funcs = {
	.free = vnpu_shmem_bo_free,
	.open = vnpu_bo_open,
	.close = vnpu_bo_close,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.status = vnpu_shmem_bo_status,
	.rss = vnpu_shmem_bo_rss,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * vnpu_gem_create_object() - drm_driver.gem_create_object
 * @drm: the device
 * @size: object size
 *
 * Called by the shmem helpers for objects created here and for imports.
 *
 * Return: the embedded GEM object or an ERR_PTR.
 */
struct drm_gem_object *vnpu_gem_create_object(struct drm_device *drm,
					      size_t size)
{
	struct vnpu_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &vnpu_shmem_bo_funcs;
	/* The device may write any page at any time. */
	bo->base.pages_mark_dirty_on_put = true;
	vnpu_bo_init_common(bo, DRM_VNPU_PLACEMENT_DEVICE, 0, size);
	return &bo->base.base;
}

/**
 * vnpu_gem_prime_import_sg_table() - import another device's dma-buf
 * @drm: the importing device
 * @attach: the attachment
 * @sgt: its mapped pages
 *
 * Return: the new object or an ERR_PTR.
 */
struct drm_gem_object *
vnpu_gem_prime_import_sg_table(struct drm_device *drm,
			       struct dma_buf_attachment *attach,
			       struct sg_table *sgt)
{
	struct drm_gem_object *obj;
	struct vnpu_bo *bo;

	obj = drm_gem_shmem_prime_import_sg_table(drm, attach, sgt);
	if (IS_ERR(obj))
		return obj;
	bo = to_vnpu_bo(obj);
	bo->placement = DRM_VNPU_PLACEMENT_IMPORT;
	bo->size = obj->size;
	bo->memcg = get_mem_cgroup_from_mm(current->mm);
	vnpu_bo_track(bo);
	return obj;
}

/**
 * vnpu_shmem_bo_create() - a new DEVICE or HOST object charged to @vfile
 * @drm: the device
 * @vfile: the file that pays for it
 * @size: its size
 * @placement: DRM_VNPU_PLACEMENT_DEVICE or _HOST
 * @flags: DRM_VNPU_BO_* flags
 *
 * BO_CREATE's path, and the profiling ring's (vnpu_prof.c).
 *
 * Return: the object (one reference) or an ERR_PTR.
 */
struct vnpu_bo *vnpu_shmem_bo_create(struct drm_device *drm,
				     struct vnpu_file *vfile, u64 size,
				     u32 placement, u32 flags)
{
	struct vnpu_device *vdev = to_vnpu_device(drm);
	struct drm_gem_shmem_object *shmem;
	u64 charge = PAGE_ALIGN(size);
	struct vnpu_bo *bo;
	int ret;

	/* Both placements are charged at creation, not when populated. */
	ret = vnpu_mem_charge(vdev, vfile, placement, charge);
	if (ret)
		return ERR_PTR(ret);
	shmem = drm_gem_shmem_create(drm, PAGE_ALIGN(size));
	if (IS_ERR(shmem)) {
		vnpu_mem_uncharge(vdev, vfile, placement, charge);
		return ERR_CAST(shmem);
	}
	bo = container_of(shmem, struct vnpu_bo, base);
	bo->placement = placement;
	bo->flags = flags;
	bo->size = size;
	bo->charged = charge;
	bo->charged_file = vfile;
	vnpu_file_get(vfile);
	bo->memcg = get_mem_cgroup_from_mm(current->mm);
	vnpu_bo_track(bo);
	return bo;
}

/**
 * vnpu_bo_publish() - give the caller a handle, the last step of creation
 * @file: the caller
 * @bo: a complete object; its creation reference is dropped here
 * @handle: out, the new handle
 * @va: out, the object's VA in the caller's context
 *
 * Return: 0 or a negative errno (the object is freed then).
 */
int vnpu_bo_publish(struct drm_file *file, struct vnpu_bo *bo, u32 *handle,
		    u64 *va)
{
	int ret;

	ret = drm_gem_handle_create(file, vnpu_bo_obj(bo), handle);
	if (!ret)
		*va = vnpu_bo_va(bo, file->driver_priv);
	vnpu_bo_put(bo);
	return ret;
}

int vnpu_bo_create_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct drm_vnpu_bo_create *args = data;
	struct vnpu_bo *bo;
	u32 handle;
	u64 va;
	int ret;

	if (args->pad) {
		drm_dbg(drm, "bo_create: pad must be zero\n");
		return -EINVAL;
	}
	if (args->flags & ~DRM_VNPU_BO_FLAGS) {
		drm_dbg(drm, "bo_create: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || args->size > DRM_VNPU_BO_MAX_SIZE) {
		drm_dbg(drm, "bo_create: size %llu out of range\n", args->size);
		return -EINVAL;
	}

	if ((args->flags & DRM_VNPU_BO_NO_VA) &&
	    (args->placement != DRM_VNPU_PLACEMENT_DEVICE ||
	     !PAGE_ALIGNED(args->size))) {
		drm_dbg(drm, "bo_create: NO_VA needs DEVICE placement and a page-aligned size\n");
		return -EINVAL;
	}

	switch (args->placement) {
	case DRM_VNPU_PLACEMENT_DEVICE:
	case DRM_VNPU_PLACEMENT_HOST:
		if (args->user_ptr) {
			drm_dbg(drm, "bo_create: user_ptr is only for PLACEMENT_USER\n");
			return -EINVAL;
		}
		bo = vnpu_shmem_bo_create(drm, file->driver_priv, args->size,
					  args->placement, args->flags);
		break;
	case DRM_VNPU_PLACEMENT_USER:
		bo = vnpu_userptr_create(drm, args->user_ptr, args->size,
					 args->flags);
		break;
	default:
		drm_dbg(drm, "bo_create: bad placement %u\n", args->placement);
		return -EINVAL;
	}
	if (IS_ERR(bo))
		return PTR_ERR(bo);

	ret = vnpu_bo_publish(file, bo, &handle, &va);
	if (ret)
		return ret;
	args->handle = handle;
	args->va = va;
	return 0;
}

int vnpu_bo_info_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_vnpu_bo_info *args = data;
	struct drm_gem_object *obj;
	struct vnpu_bo *bo;
	int ret = 0;

	if (args->pad) {
		drm_dbg(drm, "bo_info: pad must be zero\n");
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_vnpu_bo(obj);

	args->mmap_offset = 0;
	if (bo->placement != DRM_VNPU_PLACEMENT_USER) {
		ret = drm_gem_create_mmap_offset(obj);
		if (ret)
			goto out_put;
		args->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	}
	args->size = bo->size;
	args->va = vnpu_bo_va(bo, file->driver_priv);
	args->flags = bo->flags;
	args->placement = bo->placement;
out_put:
	drm_gem_object_put(obj);
	return ret;
}
