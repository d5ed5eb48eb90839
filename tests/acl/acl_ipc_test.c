// SPDX-License-Identifier: MIT
/*
 * IPC memory between a parent and a forked child (aclrtIpcMem*), the
 * exception info callback, the logger's environment switches and fork
 * safety of the runtime.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

FIXTURE(ipc) {
	int unused;
};

FIXTURE_SETUP(ipc)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

FIXTURE_TEARDOWN(ipc)
{
	aclrtResetDevice(0);
	aclFinalize();
}

/* Child: re-init, import key, check pattern a, write pattern b. */
static int child_import(const char *key, size_t size, uint8_t a, uint8_t b)
{
	uint8_t *buf = malloc(size);
	void *p = NULL;

	if (!buf || aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
		return 10;
	if (aclrtIpcMemImportByKey(&p, key, 0) != ACL_SUCCESS || !p)
		return 11;
	if (aclrtMemcpy(buf, size, p, size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
		return 12;
	for (size_t i = 0; i < size; i++)
		if (buf[i] != a)
			return 13;
	if (aclrtMemset(p, size, b, size) != ACL_SUCCESS)
		return 14;
	if (aclrtIpcMemClose(key) != ACL_SUCCESS)
		return 15;
	if (aclrtIpcMemClose(key) != ACL_ERROR_RT_PARAM_INVALID)
		return 16;
	aclrtResetDevice(0);
	aclFinalize();
	return 0;
}

static void share(struct __test_metadata *_metadata, size_t size)
{
	char key[65] = { 0 };
	void *d, *d2;
	uint8_t *buf = malloc(size);
	size_t i = 0;
	int status;
	pid_t pid;

	ASSERT_NE(NULL, buf);
	/* A second allocation first: small ones share a chunk, so the
	 * exported one is at a non-zero offset of its BO. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d2, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(d, size, 0x5a, size));
	ASSERT_EQ(ACL_SUCCESS, aclrtIpcMemGetExportKey(d, size, key, sizeof(key), 0));
	ASSERT_NE(0, key[0]);
	ASSERT_EQ(ACL_SUCCESS, aclrtIpcMemSetImportPid(key, &(int32_t){ 1 }, 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(child_import(key, size, 0x5a, 0xa5));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(buf, size, d, size, ACL_MEMCPY_DEVICE_TO_HOST));
	while (i < size && buf[i] == 0xa5)
		i++;
	ASSERT_EQ(size, i);
	EXPECT_EQ(ACL_SUCCESS, aclrtIpcMemClose(key));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemClose(key));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d2));
	free(buf);
}

TEST_F(ipc, share_small_chunked)
{
	share(_metadata, 100000);
}

TEST_F(ipc, share_large_dedicated)
{
	share(_metadata, 32u << 20);
}

TEST_F(ipc, bad_keys)
{
	char key[65], forged[65];
	void *d, *p = NULL;
	int fd, kp, kf;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemImportByKey(&p, "nonsense", 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemImportByKey(&p, "vnpu-ipc:1:2:3", 0));
	/* A live process, but no such fd. */
	snprintf(key, sizeof(key), "vnpu-ipc:%d:1000000:0:64", (int)getpid());
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemImportByKey(&p, key, 0));
	/* An fd that is not a dma-buf. */
	fd = dup(0);
	snprintf(key, sizeof(key), "vnpu-ipc:%d:%d:0:64", (int)getpid(), fd);
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemImportByKey(&p, key, 0));
	close(fd);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(&p, NULL, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemClose("vnpu-ipc:1:2:3:4"));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemClose("garbage"));
	/* Export: not an allocation, too long, key buffer too small. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtIpcMemGetExportKey((void *)(uintptr_t)0x1000, 64, key, sizeof(key), 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtIpcMemGetExportKey(d, 1 << 20, key, sizeof(key), 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemGetExportKey(d, 64, key, 4, 0));
	/* Offset beyond the BO: a real exported fd with a forged offset. */
	ASSERT_EQ(ACL_SUCCESS, aclrtIpcMemGetExportKey(d, 64, key, sizeof(key), 0));
	ASSERT_EQ(2, sscanf(key, "vnpu-ipc:%d:%d:", &kp, &kf));
	snprintf(forged, sizeof(forged), "vnpu-ipc:%d:%d:%llu:64", kp, kf,
		 1ULL << 40);
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtIpcMemImportByKey(&p, forged, 0));
	EXPECT_EQ(ACL_SUCCESS, aclrtIpcMemClose(key));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d));
}

static struct {
	int calls;
	uint32_t task, stream, thread, device, code;
} seen;

static void on_exception(aclrtExceptionInfo *info)
{
	seen.calls++;
	seen.task = aclrtGetTaskIdFromExceptionInfo(info);
	seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
	seen.thread = aclrtGetThreadIdFromExceptionInfo(info);
	seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
	seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
}

TEST_F(ipc, exception_callback)
{
	void *bad = (void *)(uintptr_t)0x00000100ff000000ULL;
	aclrtStream s1, s2;
	uint32_t stream1;
	void *a;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetExceptionInfoCallback(on_exception));
	memset(&seen, 0, sizeof(seen));
	/* Task 1 of the batch faults. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(a, 64, 1, 64, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s1));
	EXPECT_EQ(1, seen.calls);
	EXPECT_EQ(1u, seen.task);
	EXPECT_EQ(0u, seen.device);
	EXPECT_EQ((uint32_t)ACL_ERROR_RT_AICORE_EXCEPTION, seen.code);
	EXPECT_EQ((uint32_t)gettid(), seen.thread);
	stream1 = seen.stream;
	/* Another stream: another id; task 0. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s2));
	EXPECT_EQ(2, seen.calls);
	EXPECT_EQ(0u, seen.task);
	EXPECT_NE(stream1, seen.stream);
	/* Success: no call; unregistered: no call. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(a, 64, 1, 64, s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s1));
	EXPECT_EQ(2, seen.calls);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetExceptionInfoCallback(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s1));
	EXPECT_EQ(2, seen.calls);
	EXPECT_EQ(0xFFFFFFFFu, aclrtGetTaskIdFromExceptionInfo(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s2));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(a));
}

/* Run a forked child that re-inits with the env set; its stdout. */
static void run_logged(struct __test_metadata *_metadata, const char *level,
		       char *out, size_t len)
{
	int p[2], status;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		dup2(p[1], 1);
		close(p[0]);
		setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
		setenv("ASCEND_GLOBAL_LOG_LEVEL", level, 1);
		if (aclInit(NULL) != ACL_SUCCESS)
			_exit(3);
		aclrtSetDevice(0);
		aclrtFree(NULL);	/* fails: logged at error level */
		aclrtResetDevice(0);
		aclFinalize();
		fflush(stdout);
		_exit(0);
	}
	close(p[1]);
	while (n + 1 < len && (r = read(p[0], out + n, len - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST_F(ipc, log_levels)
{
	static char out[65536];

	run_logged(_metadata, "0", out, sizeof(out));
	EXPECT_NE(NULL, strstr(out, "[ERROR] ASCENDCL(")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "[aclrtFree] aclrtFree: devPtr must not be NULL")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "[INFO]")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "device 0 opened")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "device 0 reset")) TH_LOG("%s", out);
	run_logged(_metadata, "3", out, sizeof(out));
	EXPECT_NE(NULL, strstr(out, "[ERROR]")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "[INFO]")) TH_LOG("%s", out);
	run_logged(_metadata, "4", out, sizeof(out));
	EXPECT_STREQ("", out);
}

TEST_F(ipc, fork_without_reinit)
{
	int status;
	void *d;
	pid_t pid;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		const char *msg;
		void *p;
		char buf[64];

		/* The parent's objects are unusable here, and say why. */
		if (aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_UNINITIALIZE)
			_exit(1);
		msg = aclGetRecentErrMsg();
		snprintf(buf, sizeof(buf), "fork of process %d", (int)getppid());
		if (!msg || !strstr(msg, buf) || !strstr(msg, "aclInit"))
			_exit(2);
		if (aclrtFree(d) != ACL_ERROR_UNINITIALIZE)
			_exit(3);
		if (aclrtSynchronizeDevice() != ACL_ERROR_UNINITIALIZE)
			_exit(4);
		/* Re-init works and is independent of the parent. */
		if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
			_exit(5);
		if (aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
			_exit(6);
		if (aclrtFree(p) != ACL_SUCCESS)
			_exit(7);
		aclrtResetDevice(0);
		aclFinalize();
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The parent is untouched. */
	EXPECT_EQ(ACL_SUCCESS, aclrtMemset(d, 4096, 7, 4096));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d));
}

TEST_HARNESS_MAIN
