// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: registered user memory (DRM_VNPU_PLACEMENT_USER). An existing
 * range of the caller's memory is pinned for as long as the object lives
 * and mapped once into the kernel, so the device reaches it like any
 * other object.
 *
 * Pinned pages are charged like io_uring's registered buffers: to the
 * user's locked_vm against RLIMIT_MEMLOCK (unless the creator has
 * CAP_IPC_LOCK) and to the address space's pinned_vm (VmPin in
 * /proc/PID/status). The object keeps references to the user and the mm,
 * so the charge is returned to the right place whoever frees the object
 * and whenever (a file closed at exit, a handle closed from another
 * thread).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/dma-buf.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <drm/drm_gem.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"

/* Charge @npages to the caller's RLIMIT_MEMLOCK and pinned_vm. */
static int vnpu_userptr_account(struct vnpu_bo *bo, unsigned long npages)
{
	unsigned long limit, cur, next;
	struct user_struct *user;

	if (!capable(CAP_IPC_LOCK)) {
		user = get_uid(current_user());
		limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
		cur = atomic_long_read(&user->locked_vm);
		do {
			next = cur + npages;
			if (next < cur || next > limit) {
				free_uid(user);
				return -ENOMEM;
			}
		} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur, next));
		bo->pin_user = user;
	}
	mmgrab(current->mm);
	bo->pin_mm = current->mm;
	atomic64_add(npages, &bo->pin_mm->pinned_vm);
	return 0;
}

static void vnpu_userptr_unaccount(struct vnpu_bo *bo, unsigned long npages)
{
	if (bo->pin_user) {
		atomic_long_sub(npages, &bo->pin_user->locked_vm);
		free_uid(bo->pin_user);
		bo->pin_user = NULL;
	}
	if (bo->pin_mm) {
		atomic64_sub(npages, &bo->pin_mm->pinned_vm);
		mmdrop(bo->pin_mm);
		bo->pin_mm = NULL;
	}
}

static void vnpu_userptr_free(struct drm_gem_object *obj)
{
	struct vnpu_bo *bo = to_vnpu_bo(obj);

	vnpu_bo_untrack(bo);
	WARN_ON(!list_empty(&bo->mappings));
	vunmap(bo->kva);
	unpin_user_pages_dirty_lock(bo->upages, bo->npages,
				    !(bo->flags & DRM_VNPU_BO_DEVICE_READ_ONLY));
	kvfree(bo->upages);
	vnpu_userptr_unaccount(bo, bo->npages);
	mutex_destroy(&bo->lock);
	drm_gem_object_release(obj);
	kfree(bo);
}

static enum drm_gem_object_status vnpu_userptr_status(struct drm_gem_object *obj)
{
	return DRM_GEM_OBJECT_RESIDENT;
}

/* The pages belong to a process; handing them to others is not supported. */
static struct dma_buf *vnpu_userptr_export(struct drm_gem_object *obj,
					   int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs vnpu_userptr_funcs = {
	.free = vnpu_userptr_free,
	.open = vnpu_bo_open,
	.close = vnpu_bo_close,
	.export = vnpu_userptr_export,
	.status = vnpu_userptr_status,
};

/* Pin all pages of [start, start + npages pages) or none. */
static int vnpu_userptr_pin(u64 start, unsigned long npages, bool writable,
			    struct page **pages)
{
	unsigned int gup = FOLL_LONGTERM | (writable ? FOLL_WRITE : 0);
	unsigned long done = 0;
	long ret;

	while (done < npages) {
		ret = pin_user_pages_fast(start + done * PAGE_SIZE,
					  min(npages - done, (unsigned long)INT_MAX),
					  gup, pages + done);
		if (ret <= 0) {
			unpin_user_pages(pages, done);
			return ret ? (int)ret : -EFAULT;
		}
		done += ret;
	}
	return 0;
}

/**
 * vnpu_userptr_create() - register [user_ptr, user_ptr + size)
 * @drm: the device
 * @user_ptr: page-aligned start in the caller's address space
 * @size: page-aligned length
 * @flags: DRM_VNPU_BO_* flags; a read-only object pins without FOLL_WRITE
 *
 * Return: the object, tracked but without a handle, or an ERR_PTR:
 * -EINVAL for bad alignment, -EFAULT when the range is not fully mapped
 * and accessible, -ENOMEM when the pages would take the user past
 * RLIMIT_MEMLOCK (or memory is short).
 */
struct vnpu_bo *vnpu_userptr_create(struct drm_device *drm, u64 user_ptr,
				    u64 size, u32 flags)
{
	bool writable = !(flags & DRM_VNPU_BO_DEVICE_READ_ONLY);
	unsigned long npages = size >> PAGE_SHIFT;
	struct vnpu_bo *bo;
	int ret;

	if (!user_ptr || !PAGE_ALIGNED(user_ptr) || !PAGE_ALIGNED(size)) {
		drm_dbg(drm, "bo_create: user range 0x%llx+%llu not page aligned\n",
			user_ptr, size);
		return ERR_PTR(-EINVAL);
	}
	if (!access_ok(u64_to_user_ptr(user_ptr), size)) {
		drm_dbg(drm, "bo_create: user range 0x%llx+%llu not accessible\n",
			user_ptr, size);
		return ERR_PTR(-EFAULT);
	}

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	ret = vnpu_userptr_account(bo, npages);
	if (ret) {
		drm_dbg(drm, "bo_create: %lu pages exceed RLIMIT_MEMLOCK\n",
			npages);
		goto err_free_bo;
	}
	bo->upages = kvmalloc_array(npages, sizeof(*bo->upages),
				    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!bo->upages) {
		ret = -ENOMEM;
		goto err_unaccount;
	}
	ret = vnpu_userptr_pin(user_ptr, npages, writable, bo->upages);
	if (ret) {
		drm_dbg(drm, "bo_create: pinning 0x%llx+%llu failed: %d\n",
			user_ptr, size, ret);
		goto err_free_pages;
	}
	bo->npages = npages;
	bo->kva = vmap(bo->upages, npages, VM_MAP, PAGE_KERNEL);
	if (!bo->kva) {
		ret = -ENOMEM;
		goto err_unpin;
	}

	drm_gem_private_object_init(drm, vnpu_bo_obj(bo), size);
	vnpu_bo_obj(bo)->funcs = &vnpu_userptr_funcs;
	vnpu_bo_init_common(bo, DRM_VNPU_PLACEMENT_USER, flags, size);
	vnpu_bo_track(bo);
	return bo;

err_unpin:
	unpin_user_pages(bo->upages, npages);
err_free_pages:
	kvfree(bo->upages);
err_unaccount:
	vnpu_userptr_unaccount(bo, npages);
err_free_bo:
	kfree(bo);
	return ERR_PTR(ret);
}
