/* SPDX-License-Identifier: MIT */
/* Peer access between devices (copies between them go through the host). */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

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
 * host, copy_peer.c), so every pair can access its peer. Enabling is recorded
 * for aclrtDevicePeerAccessStatus but copies do not require it; a device
 * still cannot use another device's pointer in a kernel.
 */
static _Atomic uint8_t peer_on[VNPU_MAX_DEVICES][VNPU_MAX_DEVICES];

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId,
				  int32_t peerDeviceId)
{
	PROF_API();
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
	PROF_API();
	RT_REQUIRE_INIT();
	if (flags)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flags must be 0, not %u", flags);
	return peer_set(__func__, peerDeviceId, true);
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return peer_set(__func__, peerDeviceId, false);
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId,
				     int32_t *status)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(status);
	e = peer_pair(__func__, deviceId, peerDeviceId);
	if (e)
		return e;
	*status = peer_on[deviceId][peerDeviceId];
	return ACL_SUCCESS;
}
