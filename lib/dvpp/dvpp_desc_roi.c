/* SPDX-License-Identifier: MIT */
/*
 * acldvppRoiConfig: a rectangle as inclusive pixel offsets. Each offset
 * must fit the hardware's 16 bits; the parity and alignment rules depend
 * on the use (crop or paste area) and are checked by the VPC calls.
 */
#include <stdlib.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

/* ACL_ERROR_INVALID_PARAM naming the first offset over 16 bits. */
static aclError roi_offsets_check(const char *func, uint32_t left, uint32_t right,
				  uint32_t top, uint32_t bottom)
{
	const uint32_t v[4] = { left, right, top, bottom };
	static const char *const name[4] = { "left", "right", "top", "bottom" };
	int i;

	for (i = 0; i < 4; i++)
		if (v[i] > DVPP_OFFSET_MAX)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s %u is out of range [0, %u]",
					   name[i], v[i], DVPP_OFFSET_MAX);
	return ACL_SUCCESS;
}

acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left, uint32_t right,
					 uint32_t top, uint32_t bottom)
{
	PROF_API();
	struct acldvppRoiConfig *r;

	if (roi_offsets_check(__func__, left, right, top, bottom))
		return NULL;
	r = malloc(sizeof(*r));
	if (!r) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	r->magic = DVPP_MAGIC_ROI;
	r->left = left;
	r->right = right;
	r->top = top;
	r->bottom = bottom;
	return r;
}

aclError acldvppDestroyRoiConfig(acldvppRoiConfig *roiConfig)
{
	PROF_API();
	DVPP_REQUIRE(roiConfig, ROI, "acldvppRoiConfig");
	roiConfig->magic = 0;
	free(roiConfig);
	return ACL_SUCCESS;
}

aclError acldvppSetRoiConfigLeft(acldvppRoiConfig *config, uint32_t left)
{
	PROF_API();
	DVPP_REQUIRE(config, ROI, "acldvppRoiConfig");
	DVPP_REQUIRE_MAX(left, DVPP_OFFSET_MAX);
	config->left = left;
	return ACL_SUCCESS;
}

aclError acldvppSetRoiConfigRight(acldvppRoiConfig *config, uint32_t right)
{
	PROF_API();
	DVPP_REQUIRE(config, ROI, "acldvppRoiConfig");
	DVPP_REQUIRE_MAX(right, DVPP_OFFSET_MAX);
	config->right = right;
	return ACL_SUCCESS;
}

aclError acldvppSetRoiConfigTop(acldvppRoiConfig *config, uint32_t top)
{
	PROF_API();
	DVPP_REQUIRE(config, ROI, "acldvppRoiConfig");
	DVPP_REQUIRE_MAX(top, DVPP_OFFSET_MAX);
	config->top = top;
	return ACL_SUCCESS;
}

aclError acldvppSetRoiConfigBottom(acldvppRoiConfig *config, uint32_t bottom)
{
	PROF_API();
	DVPP_REQUIRE(config, ROI, "acldvppRoiConfig");
	DVPP_REQUIRE_MAX(bottom, DVPP_OFFSET_MAX);
	config->bottom = bottom;
	return ACL_SUCCESS;
}

/* All four or none: a rejected offset leaves the rectangle as it was. */
aclError acldvppSetRoiConfig(acldvppRoiConfig *config, uint32_t left, uint32_t right,
			     uint32_t top, uint32_t bottom)
{
	PROF_API();
	aclError ret;

	DVPP_REQUIRE(config, ROI, "acldvppRoiConfig");
	ret = roi_offsets_check(__func__, left, right, top, bottom);
	if (ret)
		return ret;
	config->left = left;
	config->right = right;
	config->top = top;
	config->bottom = bottom;
	return ACL_SUCCESS;
}
