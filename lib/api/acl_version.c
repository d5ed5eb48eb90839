/* SPDX-License-Identifier: MIT */
/* aclrtGetVersion: the ACL interface version these headers describe. */
#include "acl/acl.h"
#include "../core/error.h"
#include "../core/prof_rt.h"

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion,
			 int32_t *patchVersion)
{
	PROF_API();
	if (!majorVersion || !minorVersion || !patchVersion)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%s must not be NULL",
				!majorVersion ? "majorVersion" :
				!minorVersion ? "minorVersion" : "patchVersion");
	*majorVersion = ACL_MAJOR_VERSION;
	*minorVersion = ACL_MINOR_VERSION;
	*patchVersion = ACL_PATCH_VERSION;
	return ACL_SUCCESS;
}
