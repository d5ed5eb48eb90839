/* SPDX-License-Identifier: MIT */
/*
 * Virtual memory management (aclrtReserveMemAddress and friends) on the
 * driver's VM ioctls. Core functions return 0 or -errno; the ACL layer
 * (api/rt_vmm.c) checks arguments and words the errors.
 */
#ifndef VNPU_CORE_VMM_H
#define VNPU_CORE_VMM_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_objects.h"

/*
 * Granularity of sizes, offsets and addresses: 2 MiB, the huge page of
 * Ascend devices (and what CANN reports), a multiple of every kernel
 * granule the driver may have.
 */
#define VMM_GRANULE		(2ull << 20)

/* A physical allocation: what an aclrtDrvMemHandle points to. */
struct vmm_phys {
	struct rt_device *dev;
	uint32_t handle;	/* GEM handle, 0 once the last ref is gone */
	uint64_t size;
	int32_t mem_attr;	/* aclrtMemAttr asked for */
	uint32_t handle_type;	/* aclrtMemHandleType asked for */
	uint32_t refs;		/* aclrtMallocPhysical + retains - frees */
	uint32_t maps;		/* live mappings of it */
	struct vmm_phys *next;
};

int vmm_reserve(struct rt_device *dev, uint64_t size, uint64_t align,
		uint64_t *va);
/* -ENOENT: no reservation starts at va; -EBUSY: it still has mappings. */
int vmm_release(uint64_t va);

int vmm_phys_create(struct rt_device *dev, uint64_t size, int32_t mem_attr,
		    uint32_t handle_type, struct vmm_phys **out);
/* Drop one reference; -ENOENT for a handle that is not live. */
int vmm_phys_put(struct vmm_phys *p);
/* Copy a live handle's fields to *out; -ENOENT when it is not live. */
int vmm_phys_get_info(struct vmm_phys *p, struct vmm_phys *out);

/*
 * Map [offset, offset + size) of p at va. -ENOENT: p is not live;
 * -EINVAL: the range runs past p's end; -ERANGE: [va, va + size) is not
 * inside one reservation of p's device; -EBUSY: it overlaps a mapping.
 */
int vmm_map(uint64_t va, uint64_t size, uint64_t offset, struct vmm_phys *p);
/* Unmap the mapping starting at va; -ENOENT when none does. */
int vmm_unmap(uint64_t va);
/* The device of the mapping starting at va, or NULL. */
struct rt_device *vmm_map_device(uint64_t va);

/* The handle mapped at va, with a new reference; -ENOENT if unmapped. */
int vmm_retain(uint64_t va, struct vmm_phys **out);
/* Is all of [va, va + size) mapped? Its device then goes to *dev. */
bool vmm_mapped(uint64_t va, uint64_t size, struct rt_device **dev);
/* The reservation holding va; -ENOENT when none does. */
int vmm_address_range(uint64_t va, uint64_t *base, uint64_t *size);

/* Is va inside one of dev's reservations? */
bool vmm_owns(struct rt_device *dev, uint64_t va);
/* Is va in the driver's reservation window (whoever owns it)? */
bool vmm_in_window(uint64_t va);

/* Forget everything of a device whose fd is being closed. */
void vmm_release_dev(struct rt_device *dev);

#endif /* VNPU_CORE_VMM_H */
