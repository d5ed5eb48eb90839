/* SPDX-License-Identifier: MIT */
/*
 * device_query: the smallest ACL program. Initialises ACL, reports the
 * interface version it was built for and the devices, and finalizes. Build it against an
 * installed vnpu runtime (libascendcl) with:
 *   cc device_query.c $(pkg-config --cflags --libs ascendcl)
 */
#include <stdio.h>

#include "acl/acl.h"

#define CHECK(call)                                                        \
	do {                                                               \
		aclError err_ = (call);                                    \
		if (err_ != ACL_SUCCESS) {                                 \
			const char *msg_ = aclGetRecentErrMsg();           \
			fprintf(stderr, "%s failed: %d\n%s\n", #call, err_, \
				msg_ ? msg_ : "");                         \
			return 1;                                          \
		}                                                          \
	} while (0)

int main(void)
{
	uint32_t count;

	CHECK(aclInit(NULL));
	CHECK(aclrtGetDeviceCount(&count));
	printf("ACL interface %d.%d.%d, %u device%s\n", ACL_MAJOR_VERSION,
	       ACL_MINOR_VERSION, ACL_PATCH_VERSION, count,
	       count == 1 ? "" : "s");
	CHECK(aclFinalize());
	return 0;
}
