/* SPDX-License-Identifier: MIT */
/* Devices of acl_rt.h: count, set/reset, current device, run mode, sync. */
#include <errno.h>

#include "../core/graph.h"
#include "../core/hooks.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

aclError aclrtGetDeviceCount(uint32_t *count)
{
	PROF_API();
	char why[512] = "";

	if (!count)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "count must not be NULL");
	if (runtime_device_count(count, why, sizeof(why)) < 0)
		return acl_fail(ACL_ERROR_UNINITIALIZE,
				"call aclInit before using the runtime");
	if (!*count)
		return acl_fail(ACL_ERROR_RT_NO_DEVICE, "no vnpu device: %s", why);
	return ACL_SUCCESS;
}

static aclError device_error(const char *func, int32_t id, int ret)
{
	uint32_t n = 0;
	char why[8];

	if (ret == -ENODEV) {
		runtime_device_count(&n, why, sizeof(why));
		return acl_fail_at(func, ACL_ERROR_RT_INVALID_DEVICEID,
				   "device id %d is invalid: %u device(s), ids 0..%d",
				   id, n, (int)n - 1);
	}
	if (ret == -EOPNOTSUPP)
		return acl_fail_at(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				   "device %d: %s", id, core_detail_take());
	return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT, "device");
}

/* State callbacks hear of valid devices only. */
static bool valid_id(int32_t id)
{
	uint32_t n = 0;
	char why[8];

	runtime_device_count(&n, why, sizeof(why));
	return id >= 0 && (uint32_t)id < n;
}

aclError aclrtSetDevice(int32_t deviceId)
{
	PROF_API();
	bool valid;
	int ret;

	RT_REQUIRE_INIT();
	valid = valid_id(deviceId);
	if (valid)
		hooks_device_state(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
	ret = device_set(deviceId);
	if (!ret && valid)
		hooks_device_state(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
	return ret ? device_error(__func__, deviceId, ret) : ACL_SUCCESS;
}

static aclError reset(const char *func, int32_t id, bool force)
{
	bool valid;
	int ret;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	valid = valid_id(id);
	if (valid)
		hooks_device_state(id, ACL_RT_DEVICE_STATE_RESET_PRE);
	ret = device_reset(id, force);
	if (!ret && valid)
		hooks_device_state(id, ACL_RT_DEVICE_STATE_RESET_POST);
	return ret ? device_error(func, id, ret) : ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId)
{
	PROF_API();
	return reset(__func__, deviceId, false);
}

aclError aclrtResetDeviceForce(int32_t deviceId)
{
	PROF_API();
	return reset(__func__, deviceId, true);
}

aclError aclrtGetDevice(int32_t *deviceId)
{
	PROF_API();
	struct rt_context *ctx;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(deviceId);
	ctx = context_current();
	if (!ctx)
		return acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
				"no device is set for this thread (call aclrtSetDevice)");
	*deviceId = ctx->dev->id;
	return ACL_SUCCESS;
}

/* Allowed before aclInit, as in ACL: it needs no device. */
aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
	PROF_API();
	RT_REQUIRE_ARG(runMode);
	*runMode = ACL_HOST;	/* the program always runs on the host */
	return ACL_SUCCESS;
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
	PROF_API();
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	RT_CHECK_TIMEOUT(timeout);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "synchronizing the device");
	if (graph_ctx_capturing(ctx))
		return rt_error(-CAPERR_STREAM_CAPTURED, "synchronizing the device");
	ret = device_sync(ctx->dev, timeout);
	if (!ret)
		rt_prof_synced();
	return ret ? rt_error_at(__func__, ret, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
				 "synchronizing the device") : ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void)
{
	PROF_API();
	struct rt_context *ctx;
	int ret;

	RT_REQUIRE_INIT();
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "synchronizing the device");
	if (graph_ctx_capturing(ctx))
		return rt_error(-CAPERR_STREAM_CAPTURED, "synchronizing the device");
	ret = device_sync(ctx->dev, -1);
	if (!ret)
		rt_prof_synced();
	return ret ? rt_error(ret, "synchronizing the device") : ACL_SUCCESS;
}
