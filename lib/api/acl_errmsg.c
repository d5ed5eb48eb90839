/* SPDX-License-Identifier: MIT */
/* aclGetRecentErrMsg. */
#include "acl/acl.h"
#include "../core/error.h"

const char *aclGetRecentErrMsg(void)
{
	return acl_errmsg_take();
}
