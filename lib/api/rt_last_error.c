/* SPDX-License-Identifier: MIT */
/* aclrtPeekAtLastError and aclrtGetLastError. */
#include <errno.h>

#include "../core/graph.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	PROF_API();
	(void)level;
	return acl_last_error(0);
}

aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	PROF_API();
	(void)level;
	return acl_last_error(1);
}
