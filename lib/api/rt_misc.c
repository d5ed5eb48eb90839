/* SPDX-License-Identifier: MIT */
/*
 * Miscellaneous runtime calls: last error, SoC name, device attributes,
 * peer access, 2-D copies, host memory registration.
 */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"

aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	(void)level;
	return acl_last_error(0);
}

aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	(void)level;
	return acl_last_error(1);
}

/* Every vnpu device is the same virtual SoC. */
const char *aclrtGetSocName(void)
{
	return runtime_initialized() ? "vnpu" : NULL;
}

/*
 * The fixed parameters of device id, through core/ (the open device, or
 * values read once): no DRM file per call.
 */
static aclError dev_info(const char *func, uint32_t id, struct device_info *info)
{
	aclError e = rt_device_id_arg(func, id > INT32_MAX ? -1 : (int32_t)id);
	int ret;

	if (e)
		return e;
	ret = device_info_get((int32_t)id, info);
	return ret ? rt_error_at(func, ret, 0, "reading the device's parameters") :
		     ACL_SUCCESS;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo,
				int64_t *value)
{
	struct device_info info;
	aclError e;

	RT_REQUIRE_ARG(value);
	if (deviceInfo != ACL_DEVICE_INFO_AI_CORE_NUM &&
	    deviceInfo != ACL_DEVICE_INFO_VECTOR_CORE_NUM &&
	    deviceInfo != ACL_DEVICE_INFO_L2_SIZE)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"deviceInfo %d is unknown", (int)deviceInfo);
	e = dev_info(__func__, deviceId, &info);
	if (!e)	/* no cache: L2 size 0 */
		*value = deviceInfo == ACL_DEVICE_INFO_L2_SIZE ? 0 :
			 (int64_t)info.engines;
	return e;
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
	struct device_info info;
	int64_t v;
	aclError e;

	RT_REQUIRE_ARG(value);
	switch (attr) {
	case ACL_DEV_ATTR_AICORE_CORE_NUM:
	case ACL_DEV_ATTR_CUBE_CORE_NUM:
	case ACL_DEV_ATTR_VECTOR_CORE_NUM:
	case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
	case ACL_DEV_ATTR_AICPU_CORE_NUM:
	case ACL_DEV_ATTR_L2_CACHE_SIZE:
	case ACL_DEV_ATTR_IS_VIRTUAL:
		break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attribute %d is not supported", (int)attr);
	}
	e = dev_info(__func__, deviceId, &info);
	if (e)
		return e;
	if (attr == ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE)
		v = (int64_t)info.mem_total;
	else if (attr == ACL_DEV_ATTR_AICPU_CORE_NUM ||
		 attr == ACL_DEV_ATTR_L2_CACHE_SIZE)
		v = 0;	/* no AI CPU, no cache */
	else if (attr == ACL_DEV_ATTR_IS_VIRTUAL)
		v = 1;
	else
		v = (int64_t)info.engines;
	*value = v;
	return ACL_SUCCESS;
}

/* Two distinct valid device ids, else the call's error. */
static aclError peer_pair(const char *func, int32_t a, int32_t b)
{
	uint32_t n = 0;
	char why[8];

	runtime_device_count(&n, why, sizeof(why));
	if (a < 0 || (uint32_t)a >= n || b < 0 || (uint32_t)b >= n)
		return acl_fail_at(func, ACL_ERROR_RT_INVALID_DEVICEID,
				   "device ids %d, %d: %u device(s)", a, b, n);
	if (a == b)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "deviceId and peerDeviceId are both %d", a);
	return ACL_SUCCESS;
}

/*
 * Copies between devices work (aclrtMemcpy(Async) bounce them through the
 * host, xcopy.c), so every pair can access its peer. Enabling is recorded
 * for aclrtDevicePeerAccessStatus but copies do not require it; a device
 * still cannot use another device's pointer in a kernel.
 */
static _Atomic uint8_t peer_on[VNPU_MAX_DEVICES][VNPU_MAX_DEVICES];

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId,
				  int32_t peerDeviceId)
{
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(canAccessPeer);
	e = peer_pair(__func__, deviceId, peerDeviceId);
	if (e)
		return e;
	*canAccessPeer = 1;
	return ACL_SUCCESS;
}

/* Peer access of the current device: on or off (unidirectional). */
static aclError peer_set(const char *func, int32_t peer, bool on)
{
	struct rt_context *ctx;
	aclError e;

	ctx = context_current();
	if (!ctx)
		return acl_fail_at(func, ACL_ERROR_RT_CONTEXT_NULL,
				   "no device is set for this thread (call aclrtSetDevice)");
	e = peer_pair(func, ctx->dev->id, peer);
	if (e)
		return e;
	peer_on[ctx->dev->id][peer] = on;
	return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
	RT_REQUIRE_INIT();
	if (flags)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flags must be 0, not %u", flags);
	return peer_set(__func__, peerDeviceId, true);
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
	RT_REQUIRE_INIT();
	return peer_set(__func__, peerDeviceId, false);
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId,
				     int32_t *status)
{
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(status);
	e = peer_pair(__func__, deviceId, peerDeviceId);
	if (e)
		return e;
	*status = peer_on[deviceId][peerDeviceId];
	return ACL_SUCCESS;
}

static aclError copy2d(const char *func, void *dst, size_t dpitch,
		       const void *src, size_t spitch, size_t width,
		       size_t height, aclrtMemcpyKind kind, aclrtStream stream,
		       bool sync)
{
	struct rt_stream *s;
	aclError e;
	int ret;

	if (!runtime_initialized())
		return acl_fail_at(func, ACL_ERROR_UNINITIALIZE,
				   "call aclInit before using the runtime");
	if (!width || !height)
		return ACL_SUCCESS;
	if (!dst || !src)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "dst and src must not be NULL");
	if (width > spitch || width > dpitch)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "width %zu is larger than a pitch (dpitch %zu, spitch %zu)",
				   width, dpitch, spitch);
	if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST &&
	    kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "kind %d is not supported for 2-D copies", (int)kind);
	/* The synchronous form is an "unsafe" call under capture. */
	ret = sync ? graph_unsafe_allowed() : 0;
	if (ret)
		return rt_error_at(func, ret, 0, "copying");
	e = rt_stream_arg(func, stream, &s);
	if (e)
		return e;
	ret = copy_2d(s, dst, dpitch, src, spitch, width, height);
	if (!ret && sync)
		ret = stream_sync(s, -1);
	return ret ? rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "copying") :
		     ACL_SUCCESS;
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
		       size_t width, size_t height, aclrtMemcpyKind kind)
{
	return copy2d(__func__, dst, dpitch, src, spitch, width, height, kind,
		      NULL, true);
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src,
			    size_t spitch, size_t width, size_t height,
			    aclrtMemcpyKind kind, aclrtStream stream)
{
	return copy2d(__func__, dst, dpitch, src, spitch, width, height, kind,
		      stream, false);
}

aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type,
			   void **devPtr)
{
	struct rt_context *ctx;
	uint64_t va;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	RT_REQUIRE_ARG(devPtr);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	(void)type;
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "registering host memory");
	ret = alloc_host_register(ctx->dev, ptr, size, &va);
	if (ret == -EEXIST)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%p is registered already", ptr);
	if (ret)
		return rt_error(ret, "registering host memory");
	*devPtr = (void *)(uintptr_t)va;
	return ACL_SUCCESS;
}

aclError aclrtHostUnregister(void *ptr)
{
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(ptr);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "unregistering host memory");
	ret = alloc_host_unregister(ctx->dev, ptr);
	if (ret == -ENOENT)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%p is not registered host memory", ptr);
	return ret ? rt_error(ret, "unregistering host memory") : ACL_SUCCESS;
}
