/* SPDX-License-Identifier: MIT */
/* examples/common.h: the CHECK macro the examples share. */
#ifndef VNPU_EXAMPLES_COMMON_H
#define VNPU_EXAMPLES_COMMON_H
#include <stdio.h>

#include "acl/acl.h"

/* Check an ACL (or aclnn) call; on failure print it with ACL's message. */
#define CHECK(call)                                                        \
	do {                                                               \
		int err_ = (int)(call);                                    \
		if (err_ != 0) {                                           \
			const char *msg_ = aclGetRecentErrMsg();           \
			fprintf(stderr, "%s:%d: %s failed: %d\n%s\n",       \
				__FILE__, __LINE__, #call, err_,           \
				msg_ ? msg_ : "");                         \
			return 1;                                          \
		}                                                          \
	} while (0)
#endif
