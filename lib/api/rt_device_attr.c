/* SPDX-License-Identifier: MIT */
/* The device's SoC name, capabilities and attributes. */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"
#include "../core/soc.h"

/* Every vnpu device is the same SoC (core/soc.h). */
const char *aclrtGetSocName(void)
{
	PROF_API();
	return runtime_initialized() ? VNPU_SOC_NAME : NULL;
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
	PROF_API();
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
	PROF_API();
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
