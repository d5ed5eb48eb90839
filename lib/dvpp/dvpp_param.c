/* SPDX-License-Identifier: MIT */
/*
 * One value in or out of a channel description's parameter call. A
 * length that does not fit the value is refused rather than copied in
 * part, so a caller that passes the wrong type learns about it.
 */
#include <string.h>

#include "../core/error.h"
#include "dvpp_param.h"

aclError dvpp_param_in(const char *func, void *dst, size_t size,
		       size_t length, const void *param)
{
	if (!param)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "param must not be NULL");
	if (length != size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "length %zu is not the size of this parameter's value (%zu)",
				   length, size);
	memcpy(dst, param, size);
	return ACL_SUCCESS;
}

aclError dvpp_param_out(const char *func, const void *src, size_t size,
			size_t length, size_t *ret_size, void *param)
{
	if (!param || !ret_size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s must not be NULL",
				   !param ? "param" : "paramRetSize");
	if (length < size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "length %zu is smaller than this parameter's value (%zu bytes)",
				   length, size);
	memcpy(param, src, size);
	*ret_size = size;
	return ACL_SUCCESS;
}
