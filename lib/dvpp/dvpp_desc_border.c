/* SPDX-License-Identifier: MIT */
/*
 * acldvppBorderConfig: the border acldvppVpcMakeBorderAsync and the
 * batch crop-resize-make-border call add: four widths (16-bit, as the
 * hardware's descriptor holds them), a type (acldvppBorderType) and one
 * fill value per component for BORDER_CONSTANT.
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

acldvppBorderConfig *acldvppCreateBorderConfig(void)
{
	PROF_API();
	struct acldvppBorderConfig *c = malloc(sizeof(*c));

	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->magic = DVPP_MAGIC_BORDER;
	c->type = BORDER_CONSTANT;
	return c;
}

aclError acldvppDestroyBorderConfig(acldvppBorderConfig *borderConfig)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	borderConfig->magic = 0;
	free(borderConfig);
	return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigValue(acldvppBorderConfig *borderConfig, uint32_t index,
				     double value)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	DVPP_REQUIRE_MAX(index, DVPP_BORDER_VALUES - 1);
	borderConfig->value[index] = value;
	return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigBorderType(acldvppBorderConfig *borderConfig,
					  acldvppBorderType borderType)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	DVPP_REQUIRE_MAX(borderType, BORDER_REFLECT_101);
	borderConfig->type = (uint32_t)borderType;
	return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigTop(acldvppBorderConfig *borderConfig, uint32_t top)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	DVPP_REQUIRE_MAX(top, DVPP_OFFSET_MAX);
	borderConfig->top = top;
	return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigBottom(acldvppBorderConfig *borderConfig, uint32_t bottom)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	DVPP_REQUIRE_MAX(bottom, DVPP_OFFSET_MAX);
	borderConfig->bottom = bottom;
	return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigLeft(acldvppBorderConfig *borderConfig, uint32_t left)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	DVPP_REQUIRE_MAX(left, DVPP_OFFSET_MAX);
	borderConfig->left = left;
	return ACL_SUCCESS;
}

aclError acldvppSetBorderConfigRight(acldvppBorderConfig *borderConfig, uint32_t right)
{
	PROF_API();
	DVPP_REQUIRE(borderConfig, BORDER, "acldvppBorderConfig");
	DVPP_REQUIRE_MAX(right, DVPP_OFFSET_MAX);
	borderConfig->right = right;
	return ACL_SUCCESS;
}

/* As CANN: -1 (no valid value is negative) for a bad config or index. */
double acldvppGetBorderConfigValue(const acldvppBorderConfig *borderConfig, uint32_t index)
{
	PROF_API();
	if (!DVPP_IS(borderConfig, BORDER) || index >= DVPP_BORDER_VALUES)
		return -1;
	return borderConfig->value[index];
}

acldvppBorderType acldvppGetBorderConfigBorderType(const acldvppBorderConfig *borderConfig)
{
	PROF_API();
	return DVPP_IS(borderConfig, BORDER) ? (acldvppBorderType)borderConfig->type :
	       BORDER_CONSTANT;
}

uint32_t acldvppGetBorderConfigTop(const acldvppBorderConfig *borderConfig)
{
	PROF_API();
	return DVPP_IS(borderConfig, BORDER) ? borderConfig->top : 0;
}

uint32_t acldvppGetBorderConfigBottom(const acldvppBorderConfig *borderConfig)
{
	PROF_API();
	return DVPP_IS(borderConfig, BORDER) ? borderConfig->bottom : 0;
}

uint32_t acldvppGetBorderConfigLeft(const acldvppBorderConfig *borderConfig)
{
	PROF_API();
	return DVPP_IS(borderConfig, BORDER) ? borderConfig->left : 0;
}

uint32_t acldvppGetBorderConfigRight(const acldvppBorderConfig *borderConfig)
{
	PROF_API();
	return DVPP_IS(borderConfig, BORDER) ? borderConfig->right : 0;
}
