// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the device MMU. Each context (open file) has its own device
 * virtual address space, a drm_mm over four placement ranges. Everything
 * the device executes translates its addresses here; an address that hits
 * no object, runs past an object's end or writes a read-only object is a
 * device page fault, recorded in the context and refused.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <drm/drm_file.h>
#include <drm/drm_mm.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"

/* Unmapped space after every object, so overruns fault. */
#define VNPU_VA_GUARD		PAGE_SIZE
#define VNPU_VA_START		DRM_VNPU_VA_DEVICE_START
#define VNPU_VA_END		(DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE)

/**
 * vnpu_mmu_ctx_init() - set up a new context's address space
 * @vfile: the context
 */
void vnpu_mmu_ctx_init(struct vnpu_file *vfile)
{
	mutex_init(&vfile->vm_lock);
	drm_mm_init(&vfile->va_space, VNPU_VA_START,
		    VNPU_VA_END - VNPU_VA_START);
	vnpu_vm_init(vfile);
}

/**
 * vnpu_mmu_ctx_fini() - tear an address space down
 * @vfile: the context; all its handles are closed, so nothing is mapped
 */
void vnpu_mmu_ctx_fini(struct vnpu_file *vfile)
{
	vnpu_vm_fini(vfile);
	drm_mm_takedown(&vfile->va_space);
	mutex_destroy(&vfile->vm_lock);
}

/*
 * DEVICE VAs of device i start DRM_VNPU_VA_DEVICE_STRIDE * i into their
 * range, so a process's device pointers of different devices do not
 * coincide (unless one device maps more than the stride): the library
 * tells which device a pointer belongs to, as ACL's unified VA does.
 */
static u64 vnpu_va_range_start(const struct vnpu_file *vfile,
			       const struct vnpu_bo *bo)
{
	switch (bo->placement) {
	case DRM_VNPU_PLACEMENT_HOST:
		return DRM_VNPU_VA_HOST_START;
	case DRM_VNPU_PLACEMENT_USER:
		return DRM_VNPU_VA_USER_START;
	case DRM_VNPU_PLACEMENT_IMPORT:
		return DRM_VNPU_VA_IMPORT_START;
	default:
		return DRM_VNPU_VA_DEVICE_START +
		       (u64)vfile->vdev->index * DRM_VNPU_VA_DEVICE_STRIDE;
	}
}

/**
 * vnpu_mmu_map() - give a mapping a VA range in its context
 * @vfile: the context
 * @m: the mapping; @m->bo is set
 *
 * The range covers the object rounded up to pages plus a guard page,
 * aligned to 2 MiB for objects of that size and more.
 *
 * Return: 0, or -ENOSPC when the placement's range is full.
 */
int vnpu_mmu_map(struct vnpu_file *vfile, struct vnpu_mapping *m)
{
	u64 size = PAGE_ALIGN(m->bo->size) + VNPU_VA_GUARD;
	u64 align = m->bo->size >= SZ_2M ? SZ_2M : PAGE_SIZE;
	u64 start = vnpu_va_range_start(vfile, m->bo);
	u64 end = (start & ~(DRM_VNPU_VA_RANGE_SIZE - 1)) + DRM_VNPU_VA_RANGE_SIZE;
	int ret;

	mutex_lock(&vfile->vm_lock);
	ret = drm_mm_insert_node_in_range(&vfile->va_space, &m->node, size,
					  align, 0, start, end,
					  DRM_MM_INSERT_BEST);
	mutex_unlock(&vfile->vm_lock);
	return ret;
}

/**
 * vnpu_mmu_unmap() - release a mapping's VA range
 * @vfile: the context
 * @m: a mapping set up by vnpu_mmu_map()
 */
void vnpu_mmu_unmap(struct vnpu_file *vfile, struct vnpu_mapping *m)
{
	mutex_lock(&vfile->vm_lock);
	drm_mm_remove_node(&m->node);
	vnpu_mmu_invalidate(vfile);
	mutex_unlock(&vfile->vm_lock);
}

static void vnpu_mmu_fault(struct vnpu_file *vfile, u64 va, u64 len,
			   u32 access, u32 reason)
{
	static const char * const why[] = {
		[DRM_VNPU_FAULT_UNMAPPED] = "unmapped",
		[DRM_VNPU_FAULT_BOUNDS] = "past the end of the object",
		[DRM_VNPU_FAULT_READ_ONLY] = "write to a read-only object",
	};

	lockdep_assert_held(&vfile->vm_lock);
	vfile->fault_count++;
	vfile->last_fault.va = va;
	vfile->last_fault.length = len;
	vfile->last_fault.access = access;
	vfile->last_fault.reason = reason;
	drm_dbg_ratelimited(&vfile->vdev->drm,
			    "device page fault: pid %d %s 0x%llx+%llu: %s\n",
			    pid_nr(vfile->pid),
			    access == DRM_VNPU_ACCESS_WRITE ? "write" : "read",
			    va, len, why[reason]);
}

/**
 * vnpu_mmu_translate() - check a device access and find its backing object
 * @vfile: the context the access is made in
 * @va: first byte accessed
 * @len: bytes accessed, at least 1
 * @access: DRM_VNPU_ACCESS_READ or DRM_VNPU_ACCESS_WRITE
 * @bop: out, the object, with a reference the caller drops with
 *	 vnpu_bo_put(); it keeps the pages alive even if every handle is
 *	 closed meanwhile
 * @offset: out, offset of @va in the object
 * @reason_out: out, enum drm_vnpu_fault_reason of a fault (may be NULL)
 *
 * Outside the reservation range the whole access must lie inside one
 * object: kernel-placed objects are never adjacent, so no valid access
 * spans two. Inside it, vnpu_vm_translate() lets an access run across
 * adjacent mappings.
 *
 * Return: 0, or -ENXIO for a device page fault (recorded in @vfile).
 */
int vnpu_mmu_translate(struct vnpu_file *vfile, u64 va, u64 len, u32 access,
		       struct vnpu_bo **bop, u64 *offset, u32 *reason_out)
{
	struct drm_mm_node *node;
	struct vnpu_bo *bo = NULL;
	u32 reason = DRM_VNPU_FAULT_UNMAPPED;
	u64 off = 0, end;

	mutex_lock(&vfile->vm_lock);
	if (len && va >= DRM_VNPU_VA_RESERVE_START &&
	    !check_add_overflow(va, len, &end)) {
		int ret = vnpu_vm_translate(vfile, va, end, access, bop,
					    offset, &reason);

		if (ret == -ENXIO)
			goto fault;
		if (ret && reason_out)
			*reason_out = DRM_VNPU_FAULT_NONE;
		mutex_unlock(&vfile->vm_lock);
		return ret;
	}
	/*
	 * Outside the managed range the interval walk would hand back the
	 * drm_mm head node, which is no mapping: reject such addresses first.
	 */
	if (!len || check_add_overflow(va, len, &end) ||
	    va < VNPU_VA_START || end > VNPU_VA_END)
		goto fault;
	drm_mm_for_each_node_in_range(node, &vfile->va_space, va, va + 1) {
		/* The head node (never allocated) is no mapping. */
		if (!drm_mm_node_allocated(node))
			break;
		bo = container_of(node, struct vnpu_mapping, node)->bo;
		off = va - node->start;
		break;
	}
	if (!bo)
		goto fault;
	reason = vnpu_bo_access_fault(bo, off, len, access);
	if (reason != DRM_VNPU_FAULT_NONE)
		goto fault;
	drm_gem_object_get(vnpu_bo_obj(bo));
	mutex_unlock(&vfile->vm_lock);
	*bop = bo;
	*offset = off;
	return 0;

fault:
	if (reason_out)
		*reason_out = reason;
	vnpu_mmu_fault(vfile, va, len, access, reason);
	mutex_unlock(&vfile->vm_lock);
	return -ENXIO;
}

int vnpu_fault_info_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct drm_vnpu_fault_info *args = data;
	struct vnpu_file *vfile = file->driver_priv;

	if (args->flags || args->pad) {
		drm_dbg(drm, "fault_info: flags and pad must be zero\n");
		return -EINVAL;
	}
	mutex_lock(&vfile->vm_lock);
	args->count = vfile->fault_count;
	args->va = vfile->last_fault.va;
	args->length = vfile->last_fault.length;
	args->access = vfile->last_fault.access;
	args->reason = vfile->last_fault.reason;
	mutex_unlock(&vfile->vm_lock);
	return 0;
}
