/* SPDX-License-Identifier: MIT */
/*
 * Virtual memory management: reserve device VAs, allocate physical
 * memory, map it into a reservation (acl_rt.h). The flow of CANN and of
 * PyTorch's expandable segments: aclrtReserveMemAddress ->
 * aclrtMallocPhysical -> aclrtMapMem -> use -> aclrtUnmapMem ->
 * aclrtFreePhysical -> aclrtReleaseMemAddress.
 *
 * Sizes, offsets, addresses and alignments are multiples of VMM_GRANULE
 * (2 MiB). Mappings are always readable and writable by their device;
 * aclrtMemSetAccess asking for anything else is
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT. No-access mappings and shareable
 * handles are not implemented: the generated stubs (unsupported_acl_rt.c)
 * answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT for them.
 */
#include <errno.h>
#include <string.h>

#include "../core/vmm.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

#define CURRENT_CTX(ctx)						\
	do {								\
		(ctx) = context_current();				\
		if (!(ctx))						\
			return rt_error(-ESRCH, "virtual memory");	\
	} while (0)

static bool granular(uint64_t v)
{
	return !(v % VMM_GRANULE);
}

static aclError reserve(const char *func, void **virPtr, size_t size,
			size_t alignment, void *expectPtr, uint64_t flags)
{
	struct rt_context *ctx;
	uint64_t va;
	int ret;

	RT_REQUIRE_INIT();
	if (!virPtr)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "virPtr must not be NULL");
	if (!size || !granular(size))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "size %zu is not a positive multiple of the granularity %llu",
				   size, VMM_GRANULE);
	if (alignment & (alignment - 1))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "alignment %zu is not 0 or a power of two",
				   alignment);
	if (expectPtr)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "expectPtr must be NULL");
	if (flags > HUGE_PAGE_TYPE)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "flags %llu is not a page type (0 normal, 1 huge)",
				   (unsigned long long)flags);
	if (size > DRM_VNPU_VM_MAX_RESERVE_SIZE)
		return acl_fail_at(func, ACL_ERROR_RT_MEMORY_ALLOCATION,
				   "size %zu is larger than a reservation may be (%llu)",
				   size, DRM_VNPU_VM_MAX_RESERVE_SIZE);
	CURRENT_CTX(ctx);
	if (alignment < VMM_GRANULE)
		alignment = VMM_GRANULE;
	ret = vmm_reserve(ctx->dev, size, alignment, &va);
	if (ret == -ENOSPC || ret == -EINVAL)
		return acl_fail_at(func, ACL_ERROR_RT_MEMORY_ALLOCATION,
				   "no room for %zu bytes of addresses aligned to %zu (at most %u reservations per device)",
				   size, alignment, DRM_VNPU_VM_MAX_RESERVES);
	if (ret)
		return rt_error_at(func, ret, 0, "reserving addresses");
	*virPtr = (void *)(uintptr_t)va;
	return ACL_SUCCESS;
}

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment,
				void *expectPtr, uint64_t flags)
{
	PROF_API();
	return reserve(__func__, virPtr, size, alignment, expectPtr, flags);
}

/* Device memory is never cached by the host here: the same as above. */
aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size,
					  size_t alignment, void *expectPtr,
					  uint64_t flags)
{
	PROF_API();
	return reserve(__func__, virPtr, size, alignment, expectPtr, flags);
}

aclError aclrtReleaseMemAddress(void *virPtr)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(virPtr);
	ret = vmm_release((uintptr_t)virPtr);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p is not the start of a reserved range", virPtr);
	if (ret == -EBUSY)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p still has mappings; unmap them with aclrtUnmapMem first",
				virPtr);
	return ret ? rt_error(ret, "releasing addresses") : ACL_SUCCESS;
}

static aclError check_prop(const aclrtPhysicalMemProp *prop, int32_t dev)
{
	if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return acl_fail_at("aclrtMallocPhysical", ACL_ERROR_INVALID_PARAM,
				   "prop->location.type %d is not ACL_MEM_LOCATION_TYPE_DEVICE",
				   (int)prop->location.type);
	if (prop->location.id != (uint32_t)dev)
		return acl_fail_at("aclrtMallocPhysical", ACL_ERROR_INVALID_PARAM,
				   "prop->location.id %u is not the current device %d",
				   prop->location.id, dev);
	if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
		return acl_fail_at("aclrtMallocPhysical", ACL_ERROR_INVALID_PARAM,
				   "prop->allocationType %d is not ACL_MEM_ALLOCATION_TYPE_PINNED",
				   (int)prop->allocationType);
	if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE &&
	    prop->handleType != ACL_MEM_HANDLE_TYPE_POSIX)
		return acl_fail_at("aclrtMallocPhysical", ACL_ERROR_INVALID_PARAM,
				   "prop->handleType %d is unknown",
				   (int)prop->handleType);
	if ((unsigned)prop->memAttr > ACL_MEM_P2P_HUGE1G)
		return acl_fail_at("aclrtMallocPhysical", ACL_ERROR_INVALID_PARAM,
				   "prop->memAttr %d is unknown", (int)prop->memAttr);
	return ACL_SUCCESS;
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
			     const aclrtPhysicalMemProp *prop, uint64_t flags)
{
	PROF_API();
	struct rt_context *ctx;
	struct vmm_phys *p;
	aclError err;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	RT_REQUIRE_ARG(prop);
	if (!size || !granular(size))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"size %zu is not a positive multiple of the granularity %llu",
				size, VMM_GRANULE);
	if (flags)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "flags must be 0");
	CURRENT_CTX(ctx);
	err = check_prop(prop, ctx->dev->id);
	if (err)
		return err;
	ret = vmm_phys_create(ctx->dev, size, prop->memAttr, prop->handleType,
			      &p);
	if (ret == -ENOSPC || ret == -EINVAL)
		return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
				"%zu bytes of device memory are not available", size);
	if (ret)
		return rt_error(ret, "allocating physical memory");
	*handle = p;
	return ACL_SUCCESS;
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	if (vmm_phys_put(handle))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"handle %p is not a live physical allocation", handle);
	return ACL_SUCCESS;
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset,
		     aclrtDrvMemHandle handle, uint64_t flags)
{
	PROF_API();
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(virPtr);
	RT_REQUIRE_ARG(handle);
	if (flags)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "flags must be 0");
	if (!size || !granular(size) || !granular(offset) ||
	    !granular((uintptr_t)virPtr))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"virPtr %p, size %zu and offset %zu must be multiples of the granularity %llu (size not 0)",
				virPtr, size, offset, VMM_GRANULE);
	ret = vmm_map((uintptr_t)virPtr, size, offset, handle);
	switch (ret) {
	case 0:
		return ACL_SUCCESS;
	case -ENOENT:
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"handle %p is not a live physical allocation", handle);
	case -EINVAL:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"offset %zu + size %zu runs past the end of the allocation",
				offset, size);
	case -ERANGE:
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p + %zu is not inside one reserved range of the allocation's device",
				virPtr, size);
	case -EBUSY:
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p + %zu overlaps an existing mapping", virPtr, size);
	case -ENOSPC:
		return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
				"too many mappings (at most %u per device)",
				DRM_VNPU_VM_MAX_MAPS);
	default:
		return rt_error(ret, "mapping memory");
	}
}

aclError aclrtUnmapMem(void *virPtr)
{
	PROF_API();
	struct rt_device *dev;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(virPtr);
	dev = vmm_map_device((uintptr_t)virPtr);
	if (!dev)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p is not the start of a mapping", virPtr);
	/* Work already submitted may still use the memory: let it end. */
	device_drain(dev);
	ret = vmm_unmap((uintptr_t)virPtr);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p is not the start of a mapping", virPtr);
	return ret ? rt_error(ret, "unmapping memory") : ACL_SUCCESS;
}

aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc,
			   size_t count)
{
	PROF_API();
	struct rt_device *dev;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(virPtr);
	RT_REQUIRE_ARG(desc);
	if (!count || !size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size and count must not be 0");
	if (!vmm_mapped((uintptr_t)virPtr, size, &dev))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p + %zu is not fully mapped", virPtr, size);
	for (size_t i = 0; i < count; i++) {
		if (desc[i].location.type != ACL_MEM_LOCATION_TYPE_DEVICE ||
		    desc[i].location.id != (uint32_t)dev->id)
			return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
					"desc[%zu]: only the mapping's own device %d can access it",
					i, dev->id);
		if (desc[i].flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
			return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
					"desc[%zu]: access flags %d: mappings are always read-write",
					i, (int)desc[i].flags);
	}
	return ACL_SUCCESS;
}

aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location,
			   uint64_t *flag)
{
	PROF_API();
	struct rt_device *dev;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(virPtr);
	RT_REQUIRE_ARG(location);
	RT_REQUIRE_ARG(flag);
	if (!vmm_mapped((uintptr_t)virPtr, 1, &dev))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%p is not mapped",
				virPtr);
	*flag = location->type == ACL_MEM_LOCATION_TYPE_DEVICE &&
		location->id == (uint32_t)dev->id ?
		ACL_RT_MEM_ACCESS_FLAGS_READWRITE : ACL_RT_MEM_ACCESS_FLAGS_NONE;
	return ACL_SUCCESS;
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
					  aclrtMemGranularityOptions option,
					  size_t *granularity)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(prop);
	RT_REQUIRE_ARG(granularity);
	if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
	    option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"option %d is not MINIMUM or RECOMMENDED", (int)option);
	if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"prop->location.type %d is not ACL_MEM_LOCATION_TYPE_DEVICE",
				(int)prop->location.type);
	*granularity = VMM_GRANULE;
	return ACL_SUCCESS;
}

aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle)
{
	PROF_API();
	struct vmm_phys *p;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(virPtr);
	RT_REQUIRE_ARG(handle);
	if (vmm_retain((uintptr_t)virPtr, &p))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"%p is not mapped (or its allocation was freed)",
				virPtr);
	*handle = p;
	return ACL_SUCCESS;
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
						   aclrtPhysicalMemProp *prop)
{
	PROF_API();
	struct vmm_phys info;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	RT_REQUIRE_ARG(prop);
	if (vmm_phys_get_info(handle, &info))
		return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
				"handle %p is not a live physical allocation", handle);
	memset(prop, 0, sizeof(*prop));
	prop->handleType = (aclrtMemHandleType)info.handle_type;
	prop->allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	prop->memAttr = (aclrtMemAttr)info.mem_attr;
	prop->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	prop->location.id = (uint32_t)info.dev->id;
	return ACL_SUCCESS;
}

/* For reserved ranges: the reservation; aclrtMalloc memory is not tracked. */
aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
	PROF_API();
	uint64_t base, size;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	if (!pbase && !psize)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"pbase and psize must not both be NULL");
	if (vmm_address_range((uintptr_t)ptr, &base, &size))
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"%p is not in a reserved range; only ranges of aclrtReserveMemAddress are known",
				ptr);
	if (pbase)
		*pbase = (void *)(uintptr_t)base;
	if (psize)
		*psize = size;
	return ACL_SUCCESS;
}
