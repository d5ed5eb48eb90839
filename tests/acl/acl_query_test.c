// SPDX-License-Identifier: MIT
/*
 * ACL runtime queries and settings on the real driver: what works before
 * aclInit (run mode, versions, process parameters, registrations), device
 * UUID, status, utilization, limits, id maps, primary context state,
 * compute-core limits of devices, streams and threads, stream id /
 * priority / flags / free count, aclrtCreateStreamV2, context parameters,
 * operator timeouts, and the state, exception, init and finalize
 * callbacks.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

TEST(before_init)
{
	aclCANNPackageVersion v;
	char str[ACL_PKG_VERSION_MAX_SIZE] = "";
	aclrtRunMode mode = ACL_DEVICE;
	int32_t num = 0;
	uint64_t interval = 0;
	int64_t val = -1;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetRunMode(&mode));
	EXPECT_EQ(ACL_HOST, mode);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclsysGetVersionStr("cann", str));
	EXPECT_STREQ("8.1.0", str);
	ASSERT_EQ(ACL_SUCCESS, aclsysGetVersionStr("runtime", str));
	EXPECT_STREQ("8.1.0", str);
	ASSERT_EQ(ACL_SUCCESS, aclsysGetVersionNum("opp_kernel", &num));
	EXPECT_EQ(80100, num);
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclsysGetVersionStr("nope", str));
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclsysGetVersionNum("", &num));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr(NULL, str));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclsysGetVersionStr("cann", NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclsysGetVersionNum("cann", NULL));
	ASSERT_EQ(ACL_SUCCESS, aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &v));
	EXPECT_STREQ("8.1.0", v.version);
	EXPECT_STREQ("8", v.majorVersion);
	EXPECT_STREQ("1", v.minorVersion);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclsysGetCANNVersion((aclCANNPackageName)8, &v));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL));
	/* Process parameters. */
	ASSERT_EQ(ACL_SUCCESS, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &val));
	EXPECT_EQ(0, val);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &val));
	EXPECT_EQ(3, val);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, -1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetSysParamOpt((aclSysParamOpt)4, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetSysParamOpt((aclSysParamOpt)4, &val));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &val));
	EXPECT_EQ(3, val);	/* the rejected calls changed nothing */
	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpTimeOutInterval(&interval));
	EXPECT_EQ(1000u, interval);
	/* What needs a device does need aclInit. */
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtGetPhyDevIdByUserDevId(0, &num));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtStreamGetId(NULL, &num));
}

FIXTURE(q) {
	uint32_t ndev;
};

FIXTURE_SETUP(q)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&self->ndev));
}

FIXTURE_TEARDOWN(q)
{
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(q, uuid_status_and_id_maps)
{
	aclrtUuid u0, u1;
	aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;
	int32_t out = -1;
	int n = (int)self->ndev;

	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetUuid(0, &u0));
	EXPECT_EQ(0, memcmp(u0.bytes, "vnpu", 4));
	if (n > 1) {
		ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetUuid(1, &u1));
		EXPECT_NE(0, memcmp(u0.bytes, u1.bytes, sizeof(u0.bytes)));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetUuid(0, &u1));
	EXPECT_EQ(0, memcmp(u0.bytes, u1.bytes, sizeof(u0.bytes)));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetUuid(n, &u0));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceGetUuid(-1, &u0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetUuid(0, NULL));

	ASSERT_EQ(ACL_SUCCESS, aclrtQueryDeviceStatus(n - 1, &st));
	EXPECT_EQ(ACL_RT_DEVICE_STATUS_NORMAL, st);
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtQueryDeviceStatus(n, &st));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtQueryDeviceStatus(0, NULL));

	for (int id = 0; id < n; id++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtGetLogicDevIdByUserDevId(id, &out));
		EXPECT_EQ(id, out);
		ASSERT_EQ(ACL_SUCCESS, aclrtGetUserDevIdByLogicDevId(id, &out));
		EXPECT_EQ(id, out);
		ASSERT_EQ(ACL_SUCCESS, aclrtGetLogicDevIdByPhyDevId(id, &out));
		EXPECT_EQ(id, out);
		ASSERT_EQ(ACL_SUCCESS, aclrtGetPhyDevIdByLogicDevId(id, &out));
		EXPECT_EQ(id, out);
		ASSERT_EQ(ACL_SUCCESS, aclrtGetUserDevIdByPhyDevId(id, &out));
		EXPECT_EQ(id, out);
		ASSERT_EQ(ACL_SUCCESS, aclrtGetPhyDevIdByUserDevId(id, &out));
		EXPECT_EQ(id, out);
	}
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLogicDevIdByUserDevId(n, &out));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetPhyDevIdByUserDevId(-1, &out));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetUserDevIdByPhyDevId(0, NULL));
}

TEST_F(q, utilization)
{
	aclrtUtilizationInfo u = { -1, -1, -1, -1, NULL };
	aclrtUtilizationInfo u2 = { -1, -1, -1, -1, NULL };
	const size_t copy = 16u << 20;
	int64_t total = 0;
	void *big, *a, *b;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceUtilizationRate(0, &u));
	EXPECT_EQ(0, u.cubeUtilization);	/* first call: no interval yet */
	EXPECT_EQ(0, u.aicpuUtilization);
	EXPECT_GE(u.memoryUtilization, 0);
	/* A quarter of device memory more in use. */
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &total));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&big, (size_t)total / 4, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&a, copy, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&b, copy, ACL_MEM_MALLOC_HUGE_FIRST));
	/* Keep the engines busy for most of the interval. */
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(b, copy, a, copy,
							ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceUtilizationRate(0, &u2));
	EXPECT_GE(u2.memoryUtilization, u.memoryUtilization + 20);
	EXPECT_LE(u2.memoryUtilization, 100);
	EXPECT_GT(u2.cubeUtilization, 0);
	EXPECT_LE(u2.cubeUtilization, 100);
	EXPECT_EQ(u2.cubeUtilization, u2.vectorUtilization);
	u2.utilizationExtend = (aclrtUtilizationExtendInfo *)&u2;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, &u2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, NULL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID,
		  aclrtGetDeviceUtilizationRate((int32_t)self->ndev, &u));
	aclrtFree(big);
	aclrtFree(a);
	aclrtFree(b);
}

/*
 * Utilization is the device's: the engines another process kept busy
 * count, though this one ran nothing in the interval.
 */
TEST_F(q, utilization_counts_other_processes)
{
	aclrtUtilizationInfo u = { -1, -1, -1, -1, NULL };
	int status = -1;
	pid_t pid;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceUtilizationRate(0, &u));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		const size_t copy = 16u << 20;
		void *a, *b;

		if (aclInit(NULL) || aclrtSetDevice(0) ||
		    aclrtMalloc(&a, copy, ACL_MEM_MALLOC_HUGE_FIRST) ||
		    aclrtMalloc(&b, copy, ACL_MEM_MALLOC_HUGE_FIRST))
			_exit(2);
		for (int i = 0; i < 16; i++)
			if (aclrtMemcpyAsync(b, copy, a, copy,
					     ACL_MEMCPY_DEVICE_TO_DEVICE, NULL))
				_exit(3);
		_exit(aclrtSynchronizeStream(NULL) ? 4 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceUtilizationRate(0, &u));
	EXPECT_GT(u.cubeUtilization, 0);
	EXPECT_LE(u.cubeUtilization, 100);
}

static void *limit_without_device(void *arg)
{
	size_t v;

	*(aclError *)arg = aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v);
	return NULL;
}

TEST_F(q, device_limits)
{
	size_t v = 1;
	aclError e = ACL_SUCCESS;
	pthread_t t;

	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
	EXPECT_EQ(0u, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 65536));
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
	EXPECT_EQ(65536u, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &v));
	EXPECT_EQ(0u, v);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceSetLimit((aclrtDeviceLimit)5, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetLimit((aclrtDeviceLimit)5, &v));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL));
	ASSERT_EQ(0, pthread_create(&t, NULL, limit_without_device, &e));
	pthread_join(t, NULL);
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, e);
}

TEST_F(q, primary_context_state)
{
	int32_t active = -1;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetPrimaryCtxState(0, NULL, &active));
	EXPECT_EQ(1, active);
	if (self->ndev > 1) {
		ASSERT_EQ(ACL_SUCCESS, aclrtGetPrimaryCtxState(1, NULL, &active));
		EXPECT_EQ(0, active);
	}
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtGetPrimaryCtxState(0, (uint32_t *)&active, &active));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetPrimaryCtxState(0, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID,
		  aclrtGetPrimaryCtxState((int32_t)self->ndev, NULL, &active));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetPrimaryCtxState(0, NULL, &active));
	EXPECT_EQ(0, active);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

static void *thread_res(void *arg)
{
	uint32_t *v = arg;

	if (aclrtSetDevice(0) || aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, v))
		*v = 999;
	aclrtResetDevice(0);
	return NULL;
}

TEST_F(q, compute_core_limits)
{
	int64_t engines = 0;
	uint32_t v = 0;
	aclrtStream s;
	pthread_t t;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &engines));
	ASSERT_GT(engines, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
	EXPECT_EQ(1u, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, (uint32_t)engines + 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)2, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID,
		  aclrtGetDeviceResLimit((int32_t)self->ndev, ACL_RT_DEV_RES_CUBE_CORE, &v));
	if (self->ndev > 1)	/* not set in this process */
		EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL,
			  aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, &v));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDeviceResLimit(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);

	/* Streams start with the device's; their own overrides it. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ(1u, v);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtSetStreamResLimit((aclrtStream)&v, ACL_RT_DEV_RES_CUBE_CORE, 1));
	/* The thread's limit follows the stream it uses. */
	ASSERT_EQ(ACL_SUCCESS, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtUseStreamResInCurrentThread(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ(1u, v);
	/* Another thread is not affected. */
	v = 0;
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_res, &v));
	pthread_join(t, NULL);
	EXPECT_EQ((uint32_t)engines, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtUnuseStreamResInCurrentThread(s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtUnuseStreamResInCurrentThread(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtResetStreamResLimit(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	/* A used stream that is destroyed stops applying. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtUseStreamResInCurrentThread(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
	EXPECT_EQ((uint32_t)engines, v);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtGetResInCurrentThread((aclrtDevResLimitType)2, &v));
}

TEST_F(q, stream_id_priority_flags_and_free_count)
{
	uint32_t before = 0, during = 0, after = 0, prio = 99, flags = 99;
	int32_t id1 = -1, id2 = -1, idd = -1, least = -1, greatest = -1;
	aclrtStream s1, s2;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetStreamAvailableNum(&before));
	EXPECT_EQ(256u - 1u, before);		/* the default stream */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&s1, 5, ACL_STREAM_FAST_LAUNCH));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetStreamAvailableNum(&during));
	EXPECT_EQ(before - 2, during);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetPriority(s1, &prio));
	EXPECT_EQ(5u, prio);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetFlags(s1, &flags));
	EXPECT_EQ(ACL_STREAM_FAST_LAUNCH, flags);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetPriority(s2, &prio));
	EXPECT_EQ(0u, prio);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetFlags(NULL, &flags));
	EXPECT_EQ(0u, flags);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetId(s1, &id1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetId(s2, &id2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetId(NULL, &idd));
	EXPECT_NE(id1, id2);
	EXPECT_NE(id1, idd);
	EXPECT_NE(id2, idd);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId(s1, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamGetPriority(s1, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamGetFlags(s1, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamGetId(s1, &id1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamGetPriority(s1, &prio));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetStreamAvailableNum(&after));
	EXPECT_EQ(before, after);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAvailableNum(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceGetStreamPriorityRange(&least, &greatest));
	EXPECT_EQ(7, least);
	EXPECT_EQ(0, greatest);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetStreamPriorityRange(NULL, &greatest));
}

TEST_F(q, create_stream_v2)
{
	aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
	uint32_t prio = 3, flag = ACL_STREAM_FAST_SYNC, got = 0;
	size_t work = 4096;
	aclrtStream s = NULL;
	uint64_t big = 3;

	ASSERT_NE(NULL, h);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof(flag)));
	EXPECT_EQ(3u, h->priority);
	EXPECT_EQ((size_t)ACL_STREAM_FAST_SYNC, h->flag);
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamV2(&s, h));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetPriority(s, &got));
	EXPECT_EQ(3u, got);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamGetFlags(s, &got));
	EXPECT_EQ(ACL_STREAM_FAST_SYNC, got);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	/* Bad options change nothing. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &big, sizeof(big)));
	prio = 8;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)));
	EXPECT_EQ(3u, h->priority);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)9, &prio, sizeof(prio)));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, NULL, 4));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_FLAG, &flag, 4));
	/* A work size needs a work address. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &work, sizeof(work)));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(&s, h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(NULL, h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(&s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStreamConfigHandle(h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamConfigHandle(h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamConfigHandle(NULL));
}

TEST_F(q, context_parameters)
{
	aclrtContext ctx;
	int64_t v = -1;

	ASSERT_EQ(ACL_SUCCESS, aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	EXPECT_EQ(0, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	EXPECT_EQ(2, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	EXPECT_EQ(0, v);	/* the process value is separate */
	/* Unset in the context: the process value. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v));
	EXPECT_EQ(1, v);
	/* Another context has its own. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&ctx, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
	EXPECT_EQ(0, v);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 9));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCtxGetSysParamOpt((aclSysParamOpt)7, &v));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyContext(ctx));
}

TEST_F(q, operator_timeouts)
{
	uint32_t driver = 0, ms = 0;
	uint64_t actual = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpExecuteTimeout(&driver));
	EXPECT_GE(driver, 10u);		/* the driver's job timeout */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetOpExecuteTimeOut(3));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpExecuteTimeout(&ms));
	EXPECT_EQ(3000u, ms);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetOpExecuteTimeOutWithMs(1500));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpExecuteTimeout(&ms));
	EXPECT_EQ(1500u, ms);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetOpExecuteTimeOutV2(2500, &actual));
	EXPECT_EQ(3000u, actual);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpExecuteTimeout(&ms));
	EXPECT_EQ(3u, ms);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetOpExecuteTimeOutV2(UINT64_MAX, &actual));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetOpExecuteTimeOut(UINT32_MAX));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetOpExecuteTimeOutV2(1000, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpExecuteTimeout(&ms));
	EXPECT_EQ(3u, ms);
	/* 0: the driver's again. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetOpExecuteTimeOut(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetOpExecuteTimeout(&ms));
	EXPECT_EQ(driver, ms);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetOpExecuteTimeout(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetOpTimeOutInterval(NULL));
}

static struct {
	int creates, destroys, dev[4];
	aclrtStream last;
	int32_t dev_id;
	void *args;
} st;

static void on_stream(aclrtStream s, aclrtStreamState state, void *args)
{
	st.last = s;
	st.args = args;
	if (state == ACL_RT_STREAM_STATE_CREATE_POST)
		st.creates++;
	else if (state == ACL_RT_STREAM_STATE_DESTROY_PRE)
		st.destroys++;
}

static void on_device(int32_t id, aclrtDeviceState state, void *args)
{
	st.dev_id = id;
	if ((unsigned int)state < 4)
		st.dev[state]++;
}

TEST_F(q, state_callbacks)
{
	char longname[80];
	aclrtStream s;

	memset(&st, 0, sizeof(st));
	ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("t", on_stream, &st));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	EXPECT_EQ(1, st.creates);
	EXPECT_EQ(s, st.last);
	EXPECT_EQ((void *)&st, st.args);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(1, st.destroys);
	EXPECT_EQ(s, st.last);
	/* NULL unregisters. */
	ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("t", NULL, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(1, st.creates);
	EXPECT_EQ(1, st.destroys);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback(NULL, on_stream, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback("", on_stream, NULL));
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRegDeviceStateCallback(longname, on_device, NULL));

	/* 32 names at most; a known name is replaced, not added. */
	for (int i = 0; i < 32; i++) {
		char name[16];

		snprintf(name, sizeof(name), "n%d", i);
		ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback(name, on_stream, NULL));
	}
	EXPECT_EQ(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
		  aclrtRegStreamStateCallback("one more", on_stream, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("n5", on_stream, &st));
	for (int i = 0; i < 32; i++) {
		char name[16];

		snprintf(name, sizeof(name), "n%d", i);
		ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback(name, NULL, NULL));
	}

	ASSERT_EQ(ACL_SUCCESS, aclrtRegDeviceStateCallback("d", on_device, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice((int32_t)self->ndev - 1));
	EXPECT_EQ(1, st.dev[ACL_RT_DEVICE_STATE_SET_PRE]);
	EXPECT_EQ(1, st.dev[ACL_RT_DEVICE_STATE_SET_POST]);
	EXPECT_EQ((int32_t)self->ndev - 1, st.dev_id);
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice((int32_t)self->ndev - 1));
	EXPECT_EQ(1, st.dev[ACL_RT_DEVICE_STATE_RESET_PRE]);
	EXPECT_EQ(1, st.dev[ACL_RT_DEVICE_STATE_RESET_POST]);
	/* An invalid id is nobody's business. */
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice((int32_t)self->ndev));
	EXPECT_EQ(1, st.dev[ACL_RT_DEVICE_STATE_SET_PRE]);
	ASSERT_EQ(ACL_SUCCESS, aclrtRegDeviceStateCallback("d", NULL, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(1, st.dev[ACL_RT_DEVICE_STATE_SET_POST]);
}

static int exc_a, exc_b;
static uint32_t exc_code;

static void on_exc_a(aclrtExceptionInfo *info)
{
	exc_a++;
	exc_code = aclrtGetErrorCodeFromExceptionInfo(info);
}

static void on_exc_b(aclrtExceptionInfo *info)
{
	exc_b++;
}

TEST_F(q, exception_callbacks)
{
	void *bad = (void *)(uintptr_t)0x00000100ff000000ULL;
	void *a;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtExceptionInfoCallbackRegister(on_exc_a));
	ASSERT_EQ(ACL_SUCCESS, aclrtExceptionInfoCallbackRegister(on_exc_a));	/* no duplicate */
	ASSERT_EQ(ACL_SUCCESS, aclrtExceptionInfoCallbackRegister(on_exc_b));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(1, exc_a);
	EXPECT_EQ(1, exc_b);
	EXPECT_EQ((uint32_t)ACL_ERROR_RT_AICORE_EXCEPTION, exc_code);
	ASSERT_EQ(ACL_SUCCESS, aclrtExceptionInfoCallbackUnregister(on_exc_a));
	ASSERT_EQ(ACL_SUCCESS, aclrtExceptionInfoCallbackUnregister(on_exc_a));	/* unknown: no-op */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(1, exc_a);
	EXPECT_EQ(2, exc_b);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackRegister(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackUnregister(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtExceptionInfoCallbackUnregister(on_exc_b));
	aclrtFree(a);
}

static int init_calls, fini_calls;
static size_t init_len;
static char init_text[64];
static aclError init_result;

static aclError on_init(const char *config, size_t len, void *data)
{
	init_calls++;
	init_len = len;
	snprintf(init_text, sizeof(init_text), "%s", config);
	return init_result;
}

static aclError on_fini(void *data)
{
	fini_calls++;
	return *(aclError *)data;
}

TEST(init_and_finalize_callbacks)
{
	static aclError fini_result = ACL_SUCCESS;
	const char *path = "/tmp/acl_query_test.json";
	int32_t dev;
	FILE *f;

	ASSERT_EQ(ACL_SUCCESS, aclInitCallbackRegister(ACL_REG_TYPE_OTHER, on_init, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, on_fini,
							   &fini_result));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclInitCallbackRegister((aclRegisterCallbackType)8, on_init, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclInitCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclFinalizeCallbackUnRegister((aclRegisterCallbackType)100, on_fini));
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs("{}", f);
	fclose(f);

	/* A failing init callback fails aclInit, which leaves nothing behind. */
	init_result = ACL_ERROR_INVALID_FILE;
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclInit(path));
	EXPECT_EQ(1, init_calls);
	EXPECT_EQ(2u, init_len);
	EXPECT_STREQ("{}", init_text);
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtSetDevice(0));
	init_result = ACL_SUCCESS;
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(2, init_calls);
	EXPECT_EQ(0u, init_len);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDevice(&dev));
	/* The finalize callback's failure is reported; finalizing happens. */
	fini_result = ACL_ERROR_INTERNAL_ERROR;
	EXPECT_EQ(ACL_ERROR_INTERNAL_ERROR, aclFinalize());
	EXPECT_EQ(1, fini_calls);
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	EXPECT_EQ(1, fini_calls);
	/* Unregistered: not called again. */
	ASSERT_EQ(ACL_SUCCESS, aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, on_init));
	ASSERT_EQ(ACL_SUCCESS, aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, on_fini));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(2, init_calls);
	EXPECT_EQ(1, fini_calls);
	unlink(path);
}

TEST_HARNESS_MAIN
