/* SPDX-License-Identifier: MIT */
/*
 * aclGetCannAttributeList / aclGetCannAttribute: which optional features
 * this software stack has. vnpu computes with IEEE infinities and NaNs
 * and has bfloat16 operators; it compiles no kernels at run time, so
 * JIT_COMPILE is absent. The list names what is supported; asking for
 * an attribute the stack knows but lacks gives 0.
 */
#include <stddef.h>

#include "acl/acl_base_rt.h"
#include "../core/error.h"
#include "../core/prof_rt.h"

static const aclCannAttr supported[] = {
	ACL_CANN_ATTR_INF_NAN,
	ACL_CANN_ATTR_BF16,
};

aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
	PROF_API();
	if (!cannAttrList || !num)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!cannAttrList ? "cannAttrList" : "num");
	*cannAttrList = supported;
	*num = sizeof(supported) / sizeof(supported[0]);
	return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
	PROF_API();
	size_t i;

	if (!value)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "value must not be NULL");
	if (cannAttr != ACL_CANN_ATTR_INF_NAN && cannAttr != ACL_CANN_ATTR_BF16 &&
	    cannAttr != ACL_CANN_ATTR_JIT_COMPILE)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"cannAttr %d is unknown", (int)cannAttr);
	*value = 0;
	for (i = 0; i < sizeof(supported) / sizeof(supported[0]); i++)
		if (supported[i] == cannAttr)
			*value = 1;
	return ACL_SUCCESS;
}
