// SPDX-License-Identifier: MIT
/*
 * Host unit tests of libacl internals and of the no-device paths: UAPI
 * version checks, the errno table, device discovery on directories
 * without vnpu nodes. No kernel module needed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "acl/acl.h"
#include "core/error.h"
#include "core/graph.h"
#include "core/uapi_check.h"
#include "kselftest_harness.h"

TEST(uapi_same_version_ok)
{
	char why[256] = "";

	EXPECT_EQ(0, uapi_check(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR,
						      DRM_VNPU_UAPI_MINOR),
				why, sizeof(why)));
	EXPECT_STREQ("", why);
}

TEST(uapi_newer_minor_ok)
{
	char why[256] = "";

	EXPECT_EQ(0, uapi_check(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR,
						      DRM_VNPU_UAPI_MINOR + 3),
				why, sizeof(why)));
}

TEST(uapi_newer_major_refused_with_reason)
{
	char why[256] = "";
	char want[64];

	EXPECT_EQ(-EPROTO, uapi_check(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR + 1, 0),
				      why, sizeof(why)));
	snprintf(want, sizeof(want), "UAPI %d.0", DRM_VNPU_UAPI_MAJOR + 1);
	EXPECT_NE(NULL, strstr(why, want)) TH_LOG("why: %s", why);
	EXPECT_NE(NULL, strstr(why, "upgrade libacl")) TH_LOG("why: %s", why);
}

TEST(uapi_older_major_refused_with_reason)
{
	char why[256] = "";

	EXPECT_EQ(-EPROTO, uapi_check(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR - 1, 7),
				      why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "load a vnpu.ko")) TH_LOG("why: %s", why);
}

TEST(errno_table)
{
	EXPECT_EQ(ACL_SUCCESS, acl_error_from_errno(0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, acl_error_from_errno(-EINVAL));
	EXPECT_EQ(ACL_ERROR_RT_DEVICE_OOM, acl_error_from_errno(-ENOSPC));
	EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, acl_error_from_errno(-ENOMEM));
	EXPECT_EQ(ACL_ERROR_RT_NO_DEVICE, acl_error_from_errno(-ENODEV));
	EXPECT_EQ(ACL_ERROR_RT_TIMEOUT, acl_error_from_errno(-ETIMEDOUT));
	EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, acl_error_from_errno(-EDOM));
	/* The meanings that used to live in the entry points' switch. */
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, acl_error_from_errno(-ESRCH));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CONTEXT, acl_error_from_errno(-EXDEV));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, acl_error_from_errno(-ENOEXEC));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, acl_error_from_errno(-ETIME));
	EXPECT_EQ(ACL_ERROR_RT_DEVICE_TASK_ABORT, acl_error_from_errno(-ECANCELED));
	/* Capture errors come from their own table, through the same call. */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED,
		  acl_error_from_errno(-CAPERR_STREAM_CAPTURED));
	EXPECT_EQ(caperr_code(-CAPERR_MODEL_STATE),
		  acl_error_from_errno(-CAPERR_MODEL_STATE));
	EXPECT_NE(ACL_ERROR_RT_INTERNAL_ERROR,
		  acl_error_from_errno(-CAPERR_MODEL_STATE));
}

static void set_accel_dir(const char *dir)
{
	setenv("VNPU_ACCEL_DIR", dir, 1);
}

TEST(no_accel_dir_no_device)
{
	uint32_t n = 5;
	const char *msg;

	set_accel_dir("/nonexistent-accel-dir");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_RT_NO_DEVICE, aclrtGetDeviceCount(&n));
	EXPECT_EQ(0, n);
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "/nonexistent-accel-dir does not exist")) TH_LOG("%s", msg);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(non_drm_node_is_skipped)
{
	char dir[] = "/tmp/vnpu_accel_XXXXXX";
	char path[64];
	uint32_t n = 5;
	const char *msg;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/accel0", dir);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs("not a device\n", f);
	fclose(f);

	set_accel_dir(dir);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_RT_NO_DEVICE, aclrtGetDeviceCount(&n));
	EXPECT_EQ(0, n);
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "belongs to the vnpu driver")) TH_LOG("%s", msg);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
	unlink(path);
	rmdir(dir);
}

TEST(error_message_names_function_and_code)
{
	const char *msg;

	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_EQ(0, strncmp(msg, "aclFinalize: ", 13)) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "(error 100037)")) TH_LOG("%s", msg);
}

TEST_HARNESS_MAIN
