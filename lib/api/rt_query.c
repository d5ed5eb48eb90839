/* SPDX-License-Identifier: MIT */
/*
 * Device queries of acl_rt.h: UUID, health, utilization, limits, id
 * mappings, the primary context's state.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

/* 0..count-1, else the call's error. */
/* "vnpu" and the module's index of the device: stable and unique. */
aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)
{
	PROF_API();
	aclError e = rt_device_id_arg(__func__, deviceId);
	struct device_info info;
	uint64_t index;
	int ret;

	if (e)
		return e;
	RT_REQUIRE_ARG(uuid);
	ret = device_info_get(deviceId, &info);
	if (ret)
		return rt_error(ret, "reading the device index");
	index = info.index;
	memset(uuid->bytes, 0, sizeof(uuid->bytes));
	memcpy(uuid->bytes, "vnpu", 4);
	for (int i = 0; i < 8; i++)
		uuid->bytes[8 + i] = (char)(index >> (8 * i));
	return ACL_SUCCESS;
}

/* NORMAL when the device answers (through its open node, if any). */
aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
	PROF_API();
	aclError e = rt_device_id_arg(__func__, deviceId);
	uint64_t v;

	if (e)
		return e;
	RT_REQUIRE_ARG(deviceStatus);
	*deviceStatus = device_param_read(deviceId, DRM_VNPU_PARAM_UAPI_VERSION, &v) ?
			ACL_RT_DEVICE_STATUS_ABNORMAL : ACL_RT_DEVICE_STATUS_NORMAL;
	return ACL_SUCCESS;
}

/* This process's engine time on a device (fdinfo), or 0 when not open. */
static uint64_t busy_ns(int32_t id)
{
	struct rt_device *dev = device_by_id(id);
	unsigned long long ns = 0;
	char path[64], line[256];
	FILE *f;

	rt_lock();	/* the fd stays open while it is read */
	if (dev->fd >= 0) {
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", dev->fd);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "drm-engine-vnpu: %llu ns", &ns) == 1)
				break;
		if (f)
			fclose(f);
	}
	rt_unlock();
	return ns;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The previous sample of each device: utilization is per interval. */
static pthread_mutex_t util_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t util_busy[VNPU_MAX_DEVICES], util_when[VNPU_MAX_DEVICES];

/*
 * cube/vector: share of the device's engines kept busy since the previous
 * call for the device (0 on the first): by every process when the driver
 * counts engine time (DRM_VNPU_CAP_PROFILE), else by this one (fdinfo);
 * memory: device memory in use by everyone; aicpu: 0 (there is no AI CPU).
 */
aclError aclrtGetDeviceUtilizationRate(int32_t deviceId,
				       aclrtUtilizationInfo *utilizationInfo)
{
	PROF_API();
	aclError e = rt_device_id_arg(__func__, deviceId);
	uint64_t used, busy, now, pct = 0;
	struct device_info info;
	int ret;

	if (e)
		return e;
	RT_REQUIRE_ARG(utilizationInfo);
	if (utilizationInfo->utilizationExtend)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"utilizationExtend is reserved and must be NULL");
	ret = device_info_get(deviceId, &info);
	if (!ret)
		ret = device_param_read(deviceId, DRM_VNPU_PARAM_MEM_USED, &used);
	if (ret)
		return rt_error(ret, "reading device parameters");
	if (device_engine_busy(deviceId, &busy))
		busy = busy_ns(deviceId);
	now = mono_ns();
	pthread_mutex_lock(&util_lock);
	if (util_when[deviceId] && busy >= util_busy[deviceId] && info.engines &&
	    now > util_when[deviceId])
		pct = (busy - util_busy[deviceId]) * 100 /
		      ((now - util_when[deviceId]) * info.engines);
	util_busy[deviceId] = busy;
	util_when[deviceId] = now;
	pthread_mutex_unlock(&util_lock);
	utilizationInfo->cubeUtilization = (int32_t)(pct > 100 ? 100 : pct);
	utilizationInfo->vectorUtilization = utilizationInfo->cubeUtilization;
	utilizationInfo->aicpuUtilization = 0;
	utilizationInfo->memoryUtilization =
		info.mem_total ? (int32_t)(used * 100 / info.mem_total) : 0;
	return ACL_SUCCESS;
}

/*
 * Stack and printf FIFO sizes of SIMT/SIMD kernels: vnpu runs no user
 * kernels, so the values are kept per device and reported (0 until set).
 */
#define DEV_LIMITS 5

static _Atomic size_t dev_limits[VNPU_MAX_DEVICES][DEV_LIMITS];

static aclError limit_args(const char *func, aclrtDeviceLimit limit,
			   struct rt_context **ctx)
{
	if (!runtime_initialized())
		return rt_uninit_error(func);
	if ((unsigned int)limit >= DEV_LIMITS)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "limit %d is not an aclrtDeviceLimit", (int)limit);
	*ctx = context_current();
	return *ctx ? ACL_SUCCESS : rt_error_at(func, -ESRCH, 0, "device limit");
}

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e = limit_args(__func__, limit, &ctx);

	if (!e)
		dev_limits[ctx->dev->id][limit] = value;
	return e;
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e;

	RT_REQUIRE_ARG(value);
	e = limit_args(__func__, limit, &ctx);
	if (!e)
		*value = dev_limits[ctx->dev->id][limit];
	return e;
}

/* Logical, physical and user device ids are the same on vnpu. */
static aclError same_id(const char *func, int32_t in, int32_t *out)
{
	aclError e = rt_device_id_arg(func, in);

	if (e)
		return e;
	if (!out)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the output id must not be NULL");
	*out = in;
	return ACL_SUCCESS;
}

aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid,
				       int32_t *const logicDevId)
{
	PROF_API();
	return same_id(__func__, userDevid, logicDevId);
}

aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId,
				       int32_t *const userDevid)
{
	PROF_API();
	return same_id(__func__, logicDevId, userDevid);
}

aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId,
				      int32_t *const logicDevId)
{
	PROF_API();
	return same_id(__func__, phyDevId, logicDevId);
}

aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId,
				      int32_t *const phyDevId)
{
	PROF_API();
	return same_id(__func__, logicDevId, phyDevId);
}

aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId,
				     int32_t *const userDevId)
{
	PROF_API();
	return same_id(__func__, phyDevId, userDevId);
}

aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId,
				     int32_t *const phyDevId)
{
	PROF_API();
	return same_id(__func__, userDevId, phyDevId);
}

/* active: the device's default context (aclrtSetDevice) exists. */
aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags,
				 int32_t *active)
{
	PROF_API();
	aclError e = rt_device_id_arg(__func__, deviceId);

	if (e)
		return e;
	if (flags)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flags is reserved and must be NULL");
	RT_REQUIRE_ARG(active);
	rt_lock();
	*active = device_by_id(deviceId)->default_ctx != NULL;
	rt_unlock();
	return ACL_SUCCESS;
}
