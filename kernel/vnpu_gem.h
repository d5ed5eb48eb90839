/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: buffer objects.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_GEM_H__
#define __VNPU_GEM_H__

#include <linux/iosys-map.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mm.h>
#include <uapi/drm/vnpu_accel.h>

struct mem_cgroup;
struct mm_struct;
struct user_struct;
struct vnpu_file;

/**
 * struct vnpu_bo - a buffer object
 * @base: shmem GEM object; user-memory objects use only its GEM part
 * @placement: enum drm_vnpu_placement
 * @flags: DRM_VNPU_BO_* flags
 * @size: size as created; the MMU bounds accesses by it
 * @charged: bytes charged to the device's pool of @placement (device
 *	memory or the host pool) and to @charged_file, page granular
 * @charged_file: the file that created the object and pays for it
 *	(reference), or NULL
 * @memcg: memory cgroup of the creating process (reference); pages the
 *	device populates are charged to it, or NULL
 * @pin_user: user whose RLIMIT_MEMLOCK pays for @upages (reference), or
 *	NULL when the creator had CAP_IPC_LOCK
 * @pin_mm: address space whose pinned_vm shows @upages (reference)
 * @lock: guards @mappings, @kva and @map
 * @mappings: struct vnpu_mapping of every context holding a handle
 * @kva: kernel mapping of the whole object, made on first device use
 * @map: the iosys_map behind @kva, for unmapping
 * @upages: pinned pages of a DRM_VNPU_PLACEMENT_USER object
 * @npages: number of @upages
 * @dev_link: entry in the device's BO list
 * @owner_pid: process that created (or first imported) the object
 * @owner_comm: its command name
 * @owner_va: VA in the owner's context
 */
struct vnpu_bo {
	struct drm_gem_shmem_object base;
	u32 placement;
	u32 flags;
	u64 size;
	u64 charged;
	struct vnpu_file *charged_file;
	struct mem_cgroup *memcg;
	struct user_struct *pin_user;
	struct mm_struct *pin_mm;
	struct mutex lock; /* guards mappings, kva and map */
	struct list_head mappings;
	void *kva;
	struct iosys_map map;
	struct page **upages;
	unsigned long npages;
	struct list_head dev_link;
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];
	u64 owner_va;
};

/**
 * struct vnpu_mapping - a BO's place in one context's address space
 * @node: the VA range, object plus guard page
 * @bo: the object (no reference: the handle keeps it alive)
 * @vfile: the context
 * @bo_link: entry in @bo's mapping list
 */
struct vnpu_mapping {
	struct drm_mm_node node;
	struct vnpu_bo *bo;
	struct vnpu_file *vfile;
	struct list_head bo_link;
};

static inline struct vnpu_bo *to_vnpu_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vnpu_bo, base);
}

static inline struct drm_gem_object *vnpu_bo_obj(struct vnpu_bo *bo)
{
	return &bo->base.base;
}

static inline void vnpu_bo_put(struct vnpu_bo *bo)
{
	drm_gem_object_put(vnpu_bo_obj(bo));
}

/*
 * May [off, off + len) of @bo (len > 0) be accessed so? The rules of a
 * device access inside one object, for vnpu_mmu_translate() and the
 * engines' cached translations alike.
 *
 * Return: DRM_VNPU_FAULT_NONE, or the fault's enum drm_vnpu_fault_reason.
 */
static inline u32 vnpu_bo_access_fault(const struct vnpu_bo *bo, u64 off,
				       u64 len, u32 access)
{
	if (off >= bo->size)
		return DRM_VNPU_FAULT_UNMAPPED;
	if (len > bo->size - off)
		return DRM_VNPU_FAULT_BOUNDS;
	if (access == DRM_VNPU_ACCESS_WRITE &&
	    (bo->flags & DRM_VNPU_BO_DEVICE_READ_ONLY))
		return DRM_VNPU_FAULT_READ_ONLY;
	return DRM_VNPU_FAULT_NONE;
}

/* vnpu_gem.c */
void *vnpu_bo_kmap(struct vnpu_bo *bo);
void vnpu_bo_init_common(struct vnpu_bo *bo, u32 placement, u32 flags,
			 u64 size);
void vnpu_bo_track(struct vnpu_bo *bo);
void vnpu_bo_untrack(struct vnpu_bo *bo);
int vnpu_bo_open(struct drm_gem_object *obj, struct drm_file *file);
void vnpu_bo_close(struct drm_gem_object *obj, struct drm_file *file);
struct vnpu_bo *vnpu_shmem_bo_create(struct drm_device *drm,
				     struct vnpu_file *vfile, u64 size,
				     u32 placement, u32 flags);
int vnpu_bo_publish(struct drm_file *file, struct vnpu_bo *bo, u32 *handle,
		    u64 *va);
struct drm_gem_object *
vnpu_gem_prime_import_sg_table(struct drm_device *drm,
			       struct dma_buf_attachment *attach,
			       struct sg_table *sgt);

/* vnpu_userptr.c */
struct vnpu_bo *vnpu_userptr_create(struct drm_device *drm, u64 user_ptr,
				    u64 size, u32 flags);

/* vnpu_mmu.c */
int vnpu_mmu_map(struct vnpu_file *vfile, struct vnpu_mapping *m);
void vnpu_mmu_unmap(struct vnpu_file *vfile, struct vnpu_mapping *m);
int vnpu_mmu_translate(struct vnpu_file *vfile, u64 va, u64 len, u32 access,
		       struct vnpu_bo **bop, u64 *offset, u32 *reason);

/* vnpu_vm.c */
int vnpu_vm_translate(struct vnpu_file *vfile, u64 va, u64 end, u32 access,
		      struct vnpu_bo **bop, u64 *offset, u32 *reason);

#endif /* __VNPU_GEM_H__ */
