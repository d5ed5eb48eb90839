// SPDX-License-Identifier: MIT
/*
 * Host unit tests of libacl internals and of the no-device paths: UAPI
 * version checks, the errno table, device discovery on directories
 * without vnpu nodes, the dtype sizes. No kernel module needed.
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
#include "aclnnop/aclnn_relu.h"
#include "nn/nn.h"
#include "vnpu_dtype.h"
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

/*
 * aclnn sizes dtypes with the driver's table: same sizes, same unknowns;
 * the public aclDataTypeSize() agrees on every type the device has.
 */
TEST(dtype_sizes_one_table)
{
	static const struct { aclDataType dt; size_t size; } want[] = {
		{ ACL_FLOAT, 4 }, { ACL_FLOAT16, 2 }, { ACL_BF16, 2 },
		{ ACL_INT8, 1 }, { ACL_UINT8, 1 }, { ACL_BOOL, 1 },
		{ ACL_INT32, 4 }, { ACL_INT64, 8 },
		/* storage only: the device holds them, only CAST takes them */
		{ ACL_DOUBLE, 8 }, { ACL_INT16, 2 }, { ACL_UINT16, 2 },
		{ ACL_UINT32, 4 }, { ACL_UINT64, 8 },
		/* CANN types the device cannot hold */
		{ ACL_COMPLEX64, 0 }, { ACL_STRING, 0 }, { ACL_INT4, 0 },
		{ ACL_DT_UNDEFINED, 0 },
	};
	int known = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		EXPECT_EQ(want[i].size, nn_dtype_size(want[i].dt));
		EXPECT_EQ(want[i].size, vnpu_dtype_size((__u32)want[i].dt));
	}
	for (int v = -2; v < 300; v++) {
		size_t n = nn_dtype_size((aclDataType)v);

		EXPECT_EQ(vnpu_dtype_size((__u32)v), n);
		/* CANN's public table says more, but never something else. */
		if (n)
			EXPECT_EQ(n, aclDataTypeSize((aclDataType)v));
		known += n != 0;
	}
	EXPECT_EQ(13, known);
}

/* An operator call rejects a tensor of a dtype it does not compute in (phase 1). */
TEST(aclnn_unknown_dtype_rejected)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_DOUBLE, ACL_INT16 };
	int64_t dims[1] = { 4 }, strides[1] = { 1 };
	static char data[64];

	for (size_t i = 0; i < sizeof(dts) / sizeof(dts[0]); i++) {
		aclTensor *x = aclCreateTensor(dims, 1, dts[i], strides, 0,
					       ACL_FORMAT_ND, dims, 1, data);
		aclTensor *y = aclCreateTensor(dims, 1, dts[i], strides, 0,
					       ACL_FORMAT_ND, dims, 1, data + 32);
		aclOpExecutor *ex = NULL;
		uint64_t ws = 1;
		aclnnStatus st;

		ASSERT_NE(NULL, x);
		ASSERT_NE(NULL, y);
		st = aclnnReluGetWorkspaceSize(x, y, &ws, &ex);
		if (dts[i] == ACL_FLOAT) {
			EXPECT_EQ(ACLNN_SUCCESS, st);
			EXPECT_NE(NULL, ex);
			aclDestroyAclOpExecutor(ex);
		} else {
			EXPECT_EQ(ACLNN_ERR_PARAM_INVALID, st);
			EXPECT_EQ(NULL, ex);
			EXPECT_EQ(1, ws);	/* outputs untouched */
			EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(),
					       "is not supported"));
		}
		aclDestroyTensor(x);
		aclDestroyTensor(y);
	}
}

TEST_HARNESS_MAIN
