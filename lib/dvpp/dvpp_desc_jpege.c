/* SPDX-License-Identifier: MIT */
/*
 * acldvppJpegeConfig: the JPEG encoder's quality level, 0..100 (0 acts
 * as 100, the best).
 */
#include <stdlib.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

acldvppJpegeConfig *acldvppCreateJpegeConfig(void)
{
	PROF_API();
	struct acldvppJpegeConfig *c = malloc(sizeof(*c));

	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	c->magic = DVPP_MAGIC_JPEGE;
	c->level = 0;
	return c;
}

aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig *jpegeConfig)
{
	PROF_API();
	DVPP_REQUIRE(jpegeConfig, JPEGE, "acldvppJpegeConfig");
	jpegeConfig->magic = 0;
	free(jpegeConfig);
	return ACL_SUCCESS;
}

aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig *jpegeConfig, uint32_t level)
{
	PROF_API();
	DVPP_REQUIRE(jpegeConfig, JPEGE, "acldvppJpegeConfig");
	DVPP_REQUIRE_MAX(level, DVPP_JPEGE_LEVEL_MAX);
	jpegeConfig->level = level;
	return ACL_SUCCESS;
}

uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig *jpegeConfig)
{
	PROF_API();
	return DVPP_IS(jpegeConfig, JPEGE) ? jpegeConfig->level : 0;
}
