/* SPDX-License-Identifier: MIT */
/*
 * acldvppResizeConfig: the resize algorithm, 0 (the default filter) to 4
 * (see acl_dvpp.h).
 */
#include <stdlib.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

acldvppResizeConfig *acldvppCreateResizeConfig(void)
{
	PROF_API();
	struct acldvppResizeConfig *c = malloc(sizeof(*c));

	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	c->magic = DVPP_MAGIC_RESIZE;
	c->interpolation = 0;
	return c;
}

aclError acldvppDestroyResizeConfig(acldvppResizeConfig *resizeConfig)
{
	PROF_API();
	DVPP_REQUIRE(resizeConfig, RESIZE, "acldvppResizeConfig");
	resizeConfig->magic = 0;
	free(resizeConfig);
	return ACL_SUCCESS;
}

aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig *resizeConfig,
					     uint32_t interpolation)
{
	PROF_API();
	DVPP_REQUIRE(resizeConfig, RESIZE, "acldvppResizeConfig");
	DVPP_REQUIRE_MAX(interpolation, DVPP_INTERP_MAX);
	resizeConfig->interpolation = interpolation;
	return ACL_SUCCESS;
}

uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig *resizeConfig)
{
	PROF_API();
	return DVPP_IS(resizeConfig, RESIZE) ? resizeConfig->interpolation : 0;
}
