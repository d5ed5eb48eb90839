/* SPDX-License-Identifier: MIT */
/* aclGetRecentErrMsg. */
#include "acl/acl.h"
#include "../core/error.h"
#include "../core/prof_rt.h"

const char *aclGetRecentErrMsg(void)
{
	PROF_API();
	return acl_errmsg_take();
}
