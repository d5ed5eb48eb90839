// SPDX-License-Identifier: MIT
/*
 * More of the ACL runtime on the real driver: last error, SoC name, device
 * attributes, peer access, 2-D copies, registered host memory; and stress:
 * 8 threads with their own streams, two processes on one device, both
 * devices from one process.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"
#include <drm/vnpu_accel.h>

/* The harness fixture macros trip -Wclobbered at -O1. */
#pragma GCC diagnostic ignored "-Wclobbered"

FIXTURE(misc) {
	int unused;
};

FIXTURE_SETUP(misc)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

FIXTURE_TEARDOWN(misc)
{
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(misc, last_error)
{
	EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(99));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	/* A success does not clear it. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtFree(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
}

/*
 * CANN's error-handling sample: a failed call leaves its code for Peek and
 * Get and a message for aclGetRecentErrMsg; aclrtGetErrorVerbose succeeds
 * (nothing failed on the device); once read, the code and the message are
 * gone: Peek and Get return 0 and the message is NULL.
 */
TEST_F(misc, error_state_consumed_once)
{
	aclrtErrorInfo info;
	const char *msg;

	memset(&info, 0xa5, sizeof(info));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "aclrtGetRunMode"));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetErrorVerbose(0, &info));
	EXPECT_EQ(ACL_RT_NO_ERROR, info.errorType);
	EXPECT_EQ(0, info.tryRepair);
	EXPECT_EQ(0, info.hasDetail);
	EXPECT_EQ(0, info.reserved[0]);
	EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(NULL, aclGetRecentErrMsg());
}

/* aclrtGetErrorVerbose's own argument rules, each with its code. */
TEST_F(misc, error_verbose_arguments)
{
	aclrtErrorInfo info;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetErrorVerbose(0, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetErrorVerbose(99, &info));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetErrorVerbose(-1, &info));
	/* The other device, never set here: nothing failed on it. */
	ASSERT_EQ(ACL_SUCCESS, aclrtGetErrorVerbose(1, &info));
	EXPECT_EQ(ACL_RT_NO_ERROR, info.errorType);
}

/*
 * After a device page fault the device reports a memory error naming the
 * faulting range; a job that timed out is "other" on a device that never
 * faulted.
 */
TEST_F(misc, error_verbose_after_fault)
{
	aclrtErrorInfo info;
	aclrtStream s;
	uint8_t *big, *b;
	aclrtNotify n;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	/* Reading past the end of a BO of its own (17 MiB, + 64 B padding). */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&big, 17u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(b, 4096, big + (17u << 20) - 100, 4096,
						ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetErrorVerbose(0, &info));
	EXPECT_EQ(ACL_RT_ERROR_MEMORY, info.errorType);
	EXPECT_EQ(1, info.hasDetail);
	EXPECT_EQ(0, info.tryRepair);
	EXPECT_EQ(1u, info.detail.uceInfo.arraySize);
	/* The fault is at or after the first byte past the object. */
	EXPECT_GE((uintptr_t)info.detail.uceInfo.memUceInfoArray[0].addr,
		  (uintptr_t)big + (17u << 20) - 100);
	EXPECT_LT((uintptr_t)info.detail.uceInfo.memUceInfoArray[0].addr,
		  (uintptr_t)big + (17u << 20) - 100 + 4096);
	EXPECT_GT(info.detail.uceInfo.memUceInfoArray[0].len, 0u);

	/* Device 1: a notify wait that times out. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetErrorVerbose(1, &info));
	EXPECT_EQ(ACL_RT_NO_ERROR, info.errorType);
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, NULL, 100));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetErrorVerbose(1, &info));
	EXPECT_EQ(ACL_RT_ERROR_OTHERS, info.errorType);
	EXPECT_EQ(0, info.hasDetail);
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(n));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	aclrtFree(big);
	aclrtFree(b);
	aclrtDestroyStream(s);
}

TEST_F(misc, device_attributes)
{
	int64_t v = -1;
	int32_t can = -1;

	ASSERT_NE(NULL, aclrtGetSocName());
	EXPECT_STREQ("Ascend910B3", aclrtGetSocName());
	ASSERT_EQ(ACL_SUCCESS, aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
	EXPECT_GE(v, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
	EXPECT_GE(v, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
	EXPECT_GE(v, 64 << 20);
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID,
		  aclrtGetDeviceInfo(99, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceCanAccessPeer(&can, 0, 1));
	EXPECT_EQ(1, can);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceCanAccessPeer(&can, 0, 0));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceCanAccessPeer(&can, 0, 99));
}

/*
 * DRM files of accel node idx opened so far: the DRM core numbers its
 * clients in opening order (fdinfo's drm-client-id), so a fresh file's
 * id counts every file opened before it. Also reads a GET_PARAM through
 * that file, to compare the runtime's answers with.
 */
static long long files_opened(int idx, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param gp = { .param = param };
	char path[64], line[128];
	long long id = -1;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/dev/accel/accel%d", idx);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &gp))
		*value = gp.value;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "drm-client-id: %lld", &id) == 1)
			break;
	if (f)
		fclose(f);
	close(fd);
	return id;
}

/*
 * aclrtGetDeviceInfo and aclGetDeviceCapability go through the runtime's
 * device: 1000 calls on the set device open no DRM file (each would be a
 * context with its own address space); on a device nobody has set, one.
 */
TEST_F(misc, device_info_opens_no_files)
{
	uint64_t engines = 0, mem = 0, engines1 = 0;
	long long before, after;
	int64_t v = -1;

	before = files_opened(0, DRM_VNPU_PARAM_ENGINE_COUNT, &engines);
	ASSERT_GE(before, 0);
	for (int i = 0; i < 1000; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
		ASSERT_EQ((int64_t)engines, v);
	}
	ASSERT_EQ(ACL_SUCCESS, aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
	EXPECT_EQ((int64_t)engines, v);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
	after = files_opened(0, DRM_VNPU_PARAM_MEM_TOTAL, &mem);
	EXPECT_EQ((int64_t)mem, v);
	/* Only our own second file in between. */
	EXPECT_EQ(before + 1, after);

	/* Device 1 is not set: read once, then answered from what was read. */
	before = files_opened(1, DRM_VNPU_PARAM_ENGINE_COUNT, &engines1);
	ASSERT_GE(before, 0);
	for (int i = 0; i < 1000; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(1, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
		ASSERT_EQ((int64_t)engines1, v);
	}
	after = files_opened(1, DRM_VNPU_PARAM_ENGINE_COUNT, &engines1);
	EXPECT_EQ(before + 2, after);
	/* Fixed answers, and an unknown attribute changes nothing. */
	EXPECT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_IS_VIRTUAL, &v));
	EXPECT_EQ(1, v);
	EXPECT_EQ(ACL_SUCCESS, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
	EXPECT_EQ(0, v);
	v = 42;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceInfo(0, (aclrtDevAttr)9999, &v));
	EXPECT_EQ(42, v);
}

TEST_F(misc, memcpy_2d)
{
	enum { W = 100, H = 50, SP = 128, DP = 256 };
	unsigned char src[SP * H], out[SP * H];
	void *dev, *host;

	for (int i = 0; i < SP * H; i++)
		src[i] = (unsigned char)(i * 7 + 3);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, DP * H, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(dev, DP * H, 0, DP * H));
	/* Pageable H2D (row by row), then device memory to pinned host (COPY_2D). */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy2d(dev, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&host, SP * H));
	memset(host, 0xff, SP * H);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy2dAsync(host, SP, dev, DP, W, H,
						  ACL_MEMCPY_DEVICE_TO_HOST, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	memcpy(out, host, sizeof(out));
	for (int r = 0; r < H; r++) {
		ASSERT_EQ(0, memcmp(out + r * SP, src + r * SP, W));
		ASSERT_EQ(0xff, out[r * SP + W]);
	}
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy2d(dev, DP, src, SP, 0, H, ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtMemcpy2d(dev, DP, src, SP, SP + 1, H, ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtMemcpy2d(NULL, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtMemcpy2d(dev, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_HOST));
	aclrtFreeHost(host);
	aclrtFree(dev);
}

TEST_F(misc, host_register)
{
	const size_t len = 1 << 20;
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *devp = NULL, *dev;

	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0x11, len);
	ASSERT_EQ(ACL_SUCCESS, aclrtHostRegister(buf, len, ACL_HOST_REGISTER_MAPPED, &devp));
	ASSERT_NE(NULL, devp);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtHostRegister(buf, len, ACL_HOST_REGISTER_MAPPED, &devp));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, len, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(dev, len, 0x22, len, NULL));
	/* Async copies to the registered range are device tasks. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(buf, len, dev, len,
						ACL_MEMCPY_DEVICE_TO_HOST, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(0x22, buf[0]);
	EXPECT_EQ(0x22, buf[len - 1]);
	/* And the devPtr works as a device address. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(devp, len, 0x33, 4096, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(0x33, buf[100]);
	EXPECT_EQ(ACL_SUCCESS, aclrtHostUnregister(buf));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostUnregister(buf));
	aclrtFree(dev);
	munmap(buf, len);
}

#define THREADS 8
#define OPS 1000

struct worker {
	int32_t dev;
	int id;
	int bad;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	aclrtStream s;
	unsigned char *host, *out;
	void *a, *b;
	const size_t len = 256;

	if (aclrtSetDevice(w->dev) || aclrtCreateStream(&s) ||
	    aclrtMalloc(&a, len, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&b, len, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMallocHost((void **)&host, len * 4) ||
	    aclrtMallocHost((void **)&out, len * OPS)) {
		w->bad = -1;
		return NULL;
	}
	for (int i = 0; i < OPS && !w->bad; i++) {
		unsigned char v = (unsigned char)(w->id * 31 + i);

		if (i % 2 == 0) {
			w->bad |= aclrtMemsetAsync(a, len, v, len, s);
		} else {
			memset(host + (i % 4) * len, 0, 0);
			w->bad |= aclrtMemsetAsync(a, len, v, len, s);
		}
		w->bad |= aclrtMemcpyAsync(b, len, a, len, ACL_MEMCPY_DEVICE_TO_DEVICE, s);
		w->bad |= aclrtMemcpyAsync(out + i * len, len, b, len,
					   ACL_MEMCPY_DEVICE_TO_HOST, s);
	}
	w->bad |= aclrtSynchronizeStream(s);
	for (int i = 0; i < OPS && !w->bad; i++) {
		unsigned char v = (unsigned char)(w->id * 31 + i);

		if (out[i * len] != v || out[i * len + len - 1] != v)
			w->bad = 1000 + i;
	}
	aclrtFreeHost(host);
	aclrtFreeHost(out);
	aclrtFree(a);
	aclrtFree(b);
	aclrtDestroyStream(s);
	aclrtResetDevice(w->dev);
	return NULL;
}

static int run_workers(int32_t ndev)
{
	struct worker w[THREADS];
	pthread_t t[THREADS];
	int bad = 0;

	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .dev = i % ndev, .id = i };
		pthread_create(&t[i], NULL, worker_main, &w[i]);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		if (w[i].bad && !bad)
			bad = w[i].bad;
	}
	return bad;
}

TEST_F(misc, eight_threads_own_streams)
{
	EXPECT_EQ(0, run_workers(1));
}

TEST_F(misc, both_devices_at_once)
{
	EXPECT_EQ(0, run_workers(2));
}

TEST(two_processes_one_device)
{
	pid_t pid[2];
	int st, bad = 0;

	for (int p = 0; p < 2; p++) {
		pid[p] = fork();
		ASSERT_LE(0, pid[p]);
		if (!pid[p]) {
			if (aclInit(NULL))
				_exit(2);
			int r = run_workers(1);

			aclFinalize();
			_exit(r ? 1 : 0);
		}
	}
	for (int p = 0; p < 2; p++) {
		ASSERT_EQ(pid[p], waitpid(pid[p], &st, 0));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	EXPECT_EQ(0, bad);
}

TEST_F(misc, peer_access)
{
	int32_t st = -1;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceEnablePeerAccess(1, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDeviceEnablePeerAccess(0, 0));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceEnablePeerAccess(99, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtDevicePeerAccessStatus(0, 1, &st));
	EXPECT_EQ(0, st);
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceEnablePeerAccess(1, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtDevicePeerAccessStatus(0, 1, &st));
	EXPECT_EQ(1, st);
	/* One direction only. */
	ASSERT_EQ(ACL_SUCCESS, aclrtDevicePeerAccessStatus(1, 0, &st));
	EXPECT_EQ(0, st);
	ASSERT_EQ(ACL_SUCCESS, aclrtDeviceDisablePeerAccess(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtDevicePeerAccessStatus(0, 1, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDevicePeerAccessStatus(0, 1, NULL));
}

TEST_HARNESS_MAIN
