// SPDX-License-Identifier: MIT
/*
 * ACL device and context tests on the real driver: aclrtSetDevice and
 * aclrtResetDevice reference counts, invalid ids, the current context per
 * thread, explicit contexts, run mode. Each TEST is a fresh process.
 */
#include <pthread.h>
#include <string.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

TEST(uninitialized)
{
	int32_t id;

	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtGetDevice(&id));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtCreateStream(NULL));
}

TEST(set_get_reset)
{
	int32_t id = -1;
	aclrtRunMode mode;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&id));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDevice(&id));
	EXPECT_EQ(1, id);
	EXPECT_EQ(ACL_SUCCESS, aclrtGetRunMode(&mode));
	EXPECT_EQ(ACL_HOST, mode);
	/* Two references: the first reset keeps the device. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	EXPECT_EQ(ACL_SUCCESS, aclrtGetDevice(&id));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&id));
	/* Force drops every reference. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(0));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&id));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(invalid_ids)
{
	uint32_t n;
	const char *msg;
	aclrtContext ctx;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&n));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice((int32_t)n));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "device id")) TH_LOG("%s", msg);
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(-1));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(99));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&ctx, 99));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

static void *other_thread(void *arg)
{
	int32_t id = -1;
	aclrtContext ctx = NULL;
	long *res = arg;

	/* A new thread has no current context... */
	res[0] = aclrtGetDevice(&id);
	/* ...until it sets one. */
	res[1] = aclrtSetCurrentContext((aclrtContext)res[3]);
	res[2] = aclrtGetCurrentContext(&ctx) == ACL_SUCCESS &&
		 ctx == (aclrtContext)res[3];
	return NULL;
}

TEST(context_per_thread)
{
	aclrtContext def, ctx, cur;
	long res[4] = { 0 };
	pthread_t t;
	int32_t id;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&def));
	/* Creating makes it current. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&ctx, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&cur));
	EXPECT_EQ(ctx, cur);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDevice(&id));
	EXPECT_EQ(1, id);
	res[3] = (long)ctx;
	ASSERT_EQ(0, pthread_create(&t, NULL, other_thread, res));
	pthread_join(t, NULL);
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, res[0]);
	EXPECT_EQ(ACL_SUCCESS, res[1]);
	EXPECT_EQ(1, res[2]);
	/* This thread's context is unchanged; switch back. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(def));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDevice(&id));
	EXPECT_EQ(0, id);
	/* The default context cannot be destroyed; an explicit one can. */
	EXPECT_NE(ACL_SUCCESS, aclrtDestroyContext(def));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyContext(ctx));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclrtSetCurrentContext(ctx));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(both_devices)
{
	void *a, *b;
	char buf[64] = "device zero", out[64] = "";
	aclrtContext c0, c1;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&c0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(a, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&c1));
	EXPECT_NE(c0, c1);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	strcpy(buf, "device one");
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(b, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, 64, b, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_STREQ("device one", out);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(c0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, 64, a, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_STREQ("device zero", out);
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(a));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(c1));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(b));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST_HARNESS_MAIN
