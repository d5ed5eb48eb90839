/* SPDX-License-Identifier: MIT */
/* Device queries of acl_rt.h. */
#include "acl/acl.h"
#include "../core/error.h"
#include "../core/runtime.h"

aclError aclrtGetDeviceCount(uint32_t *count)
{
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
