/* SPDX-License-Identifier: MIT */
/* aclrtPeekAtLastError and aclrtGetLastError. */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"

aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	(void)level;
	return acl_last_error(0);
}

aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	(void)level;
	return acl_last_error(1);
}
