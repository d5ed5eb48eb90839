// SPDX-License-Identifier: MIT
/*
 * The smallest ACL program, built by test_lib_names.sh once per library
 * name CANN programs link (-lascendcl, -lacl_rt, -lopapi, ...) and once
 * against the static archive. Without a device it still runs: aclInit
 * succeeds, aclrtGetDeviceCount reports ACL_ERROR_RT_NO_DEVICE with a
 * message, and aclFinalize succeeds.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"

int main(void)
{
	uint32_t count = 1;
	const char *msg;
	aclError ret;

	setenv("VNPU_ACCEL_DIR", "/nonexistent-accel-dir", 1);
	ret = aclInit(NULL);
	if (ret != ACL_SUCCESS) {
		printf("aclInit: %d\n", (int)ret);
		return 1;
	}
	ret = aclrtGetDeviceCount(&count);
	if (ret != ACL_ERROR_RT_NO_DEVICE) {
		printf("aclrtGetDeviceCount: %d (count %u), expected ACL_ERROR_RT_NO_DEVICE\n",
		       (int)ret, count);
		return 1;
	}
	msg = aclGetRecentErrMsg();
	if (msg == NULL) {
		printf("aclGetRecentErrMsg: no message after ACL_ERROR_RT_NO_DEVICE\n");
		return 1;
	}
	ret = aclFinalize();
	if (ret != ACL_SUCCESS) {
		printf("aclFinalize: %d\n", (int)ret);
		return 1;
	}
	printf("aclInit, no device, aclFinalize\n");
	return 0;
}
