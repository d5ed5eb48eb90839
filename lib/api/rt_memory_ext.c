/* SPDX-License-Identifier: MIT */
/*
 * The configurable and checking memory calls of acl_rt.h: allocation with
 * a configuration, frees that wait for the device, usage, type checks,
 * cache maintenance and host registration by flags.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../core/vmm.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

/*
 * A configuration may be NULL or name attributes: a module id (only
 * recorded by CANN for accounting; accepted), the device (must be the
 * current one: memory is allocated there) and the VA flag (0 only: this
 * device has one kind of address).
 */
static aclError check_cfg(const char *func, const aclrtMallocConfig *cfg,
			  const struct rt_device *dev)
{
	if (!cfg)
		return ACL_SUCCESS;
	if (cfg->numAttrs && !cfg->attrs)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "cfg->attrs is NULL with %zu attributes", cfg->numAttrs);
	for (size_t i = 0; i < cfg->numAttrs; i++) {
		const aclrtMallocAttribute *a = &cfg->attrs[i];

		switch (a->attr) {
		case ACL_RT_MEM_ATTR_MODULE_ID:
			break;
		case ACL_RT_MEM_ATTR_DEVICE_ID:
			if (a->value.deviceId != (uint32_t)dev->id)
				return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
						   "attribute %zu: device %u is not the current device %d",
						   i, a->value.deviceId, dev->id);
			break;
		case ACL_RT_MEM_ATTR_VA_FLAG:
			if (a->value.vaFlag)
				return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
						   "attribute %zu: VA flag %u is not supported (0 only)",
						   i, a->value.vaFlag);
			break;
		default:
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "attribute %zu: type %d is not an allocation attribute",
					   i, (int)a->attr);
		}
	}
	return ACL_SUCCESS;
}

aclError aclrtMallocWithCfg(void **devPtr, size_t size,
			    aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(devPtr);
	(void)policy;		/* one kind of device page, as aclrtMalloc */
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "allocating device memory");
	e = check_cfg(__func__, cfg, ctx->dev);
	if (e)
		return e;
	ret = alloc_device(ctx->dev, size, true, devPtr);
	return ret ? rt_error(ret, "allocating device memory") : ACL_SUCCESS;
}

aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	if (!size || size > SIZE_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size %llu is invalid",
				(unsigned long long)size);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "allocating host memory");
	e = check_cfg(__func__, cfg, ctx->dev);
	if (e)
		return e;
	ret = alloc_host(ctx->dev, (size_t)size, ptr);
	return ret ? rt_error(ret, "allocating host memory") : ACL_SUCCESS;
}

/*
 * aclrtFree and aclrtFreeHost already wait for every stream of the device
 * before the memory can be reused (alloc.c), which is what the DevSync
 * forms promise.
 */
aclError aclrtFreeWithDevSync(void *devPtr)
{
	PROF_API();
	return aclrtFree(devPtr);
}

aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
	PROF_API();
	return aclrtFreeHost(hostPtr);
}

/*
 * Two entries: "device" (aclrtMalloc memory, rounded as allocated) and
 * "host_pinned" (aclrtMallocHost), each in use now and at most since the
 * device was opened. inputNum may be larger; *outputNum says how many
 * were written. The device must be open in this process.
 */
aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo,
			      size_t inputNum, size_t *outputNum)
{
	PROF_API();
	static const char *const names[2] = { "device", "host_pinned" };
	struct rt_device *dev;
	uint64_t used[2], peak[2];
	aclError e;
	size_t n;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(memUsageInfo);
	RT_REQUIRE_ARG(outputNum);
	if (!inputNum)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "inputNum must not be 0");
	e = rt_device_id_arg(__func__, deviceId);
	if (e)
		return e;
	dev = device_by_id(deviceId);
	rt_lock();
	if (dev->fd < 0) {
		rt_unlock();
		return acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				"device %d is not open in this process (call aclrtSetDevice)",
				deviceId);
	}
	alloc_usage(dev, used, peak);
	rt_unlock();
	n = inputNum < 2 ? inputNum : 2;
	for (size_t i = 0; i < n; i++) {
		memset(&memUsageInfo[i], 0, sizeof(memUsageInfo[i]));
		snprintf(memUsageInfo[i].name, sizeof(memUsageInfo[i].name),
			 "%s", names[i]);
		memUsageInfo[i].curMemSize = used[i];
		memUsageInfo[i].memPeakSize = peak[i];
	}
	*outputNum = n;
	return ACL_SUCCESS;
}

/*
 * Every address is checked: *checkResult is 1 when each is of a kind in
 * memType. The device has plain device memory (aclrtMalloc: DEV) and
 * reserved virtual memory (aclrtReserveMemAddress: RSVD), no DVPP pool.
 */
static bool mem_type_ok(struct rt_device *dev, const void *p, uint32_t memType)
{
	if (vmm_owns(dev, (uintptr_t)p))
		return memType & ACL_RT_MEM_TYPE_RSVD;
	return (memType & ACL_RT_MEM_TYPE_DEV) && ptr_device(dev, p) != NULL;
}

aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
			   uint32_t *checkResult, uint32_t reserve)
{
	PROF_API();
	const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP |
			       ACL_RT_MEM_TYPE_RSVD;
	struct rt_context *ctx;
	uint32_t ok = 1;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(addrList);
	RT_REQUIRE_ARG(checkResult);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	if (!memType || (memType & ~known))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"memType 0x%x: use ACL_RT_MEM_TYPE_DEV, _DVPP, _RSVD or an OR of them",
				memType);
	if (reserve)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "reserve must be 0");
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "checking memory types");
	for (uint32_t i = 0; i < size && ok; i++)
		ok = mem_type_ok(ctx->dev, addrList[i], memType);
	*checkResult = ok;
	return ACL_SUCCESS;
}

/*
 * The device sees host and device memory coherently (its engines are the
 * host's CPUs), so flush and invalidate have nothing to do; they still
 * check that the range is device memory of this process.
 */
static aclError cache_op(const char *func, void *devPtr, size_t size)
{
	struct rt_context *ctx;
	uint64_t a = (uintptr_t)devPtr;

	if (!devPtr)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "devPtr must not be NULL");
	if (!size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "size must not be 0");
	ctx = context_current();
	if (!ctx)
		return rt_error_at(func, -ESRCH, 0, "cache maintenance");
	if (a + size < a || !ptr_device(ctx->dev, devPtr) ||
	    ptr_device(ctx->dev, (void *)(uintptr_t)(a + size - 1)) !=
	    ptr_device(ctx->dev, devPtr))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "[%p, +%zu) is not device memory", devPtr, size);
	return ACL_SUCCESS;
}

aclError aclrtMemFlush(void *devPtr, size_t size)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return cache_op(__func__, devPtr, size);
}

aclError aclrtMemInvalidate(void *devPtr, size_t size)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return cache_op(__func__, devPtr, size);
}

/*
 * aclrtHostRegisterV2: pin the range for the device (as aclrtHostRegister
 * does); aclrtHostGetDevicePointer then gives its device address and
 * aclrtHostUnregister ends it. MAPPED and PINNED are what registration
 * does here; the device cannot map I/O memory or enforce read-only pages.
 */
aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
	PROF_API();
	const uint32_t plain = ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED;
	const uint32_t other = ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY;
	struct rt_context *ctx;
	uint64_t va;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	if (flag & ~(plain | other))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag 0x%x has unknown bits", flag);
	if (flag & other)
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"flag 0x%x: I/O memory and read-only registration are not supported",
				flag);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "registering host memory");
	ret = alloc_host_register(ctx->dev, ptr, size, &va);
	if (ret == -EEXIST)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%p is registered already", ptr);
	return ret ? rt_error(ret, "registering host memory") : ACL_SUCCESS;
}

aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
	PROF_API();
	struct rt_context *ctx;
	uint64_t va;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(pHost);
	RT_REQUIRE_ARG(pDevice);
	if (flag)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "flag must be 0");
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "looking up host memory");
	va = alloc_host_va(ctx->dev, pHost, 1);
	if (!va)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%p is not registered or aclrtMallocHost memory of this device",
				pHost);
	*pDevice = (void *)(uintptr_t)va;
	return ACL_SUCCESS;
}
