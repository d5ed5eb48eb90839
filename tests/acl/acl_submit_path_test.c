// SPDX-License-Identifier: MIT
/*
 * Which way jobs reach the driver: VNPU_SUBMIT=uring uses an io_uring
 * (one per thread), =ioctl none; unset picks io_uring when the kernel
 * allows it and falls back to ioctls when kernel.io_uring_disabled says
 * no, while a forced io_uring then fails aclrtSetDevice. Each TEST is a
 * fresh process, so the variable is read anew by aclInit.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

#define SYSCTL "/proc/sys/kernel/io_uring_disabled"

/* io_uring instances this process has open. */
static int rings(void)
{
	char path[300], link[64];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (!strcmp(link, "anon_inode:[io_uring]"))
			n++;
	}
	closedir(dir);
	return n;
}

/*
 * SQEs this process's only ring has taken so far (the ring's SqTail in
 * fdinfo), or -1.
 */
static long ring_sqes(void)
{
	char path[300], link[64], line[128];
	struct dirent *d;
	DIR *dir = opendir("/proc/self/fd");
	long tail = -1;

	if (!dir)
		return -1;
	while (tail < 0 && (d = readdir(dir))) {
		ssize_t len;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (strcmp(link, "anon_inode:[io_uring]"))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", d->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "SqTail: %ld", &tail) == 1)
				break;
		if (f)
			fclose(f);
	}
	closedir(dir);
	return tail;
}

/* Memset, synchronize, read back: the round trip works either way. */
static int round_trip(void)
{
	aclrtStream s;
	uint8_t out[64];
	void *d;

	if (aclrtCreateStream(&s) ||
	    aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMemsetAsync(d, 64, 0x3c, 64, s) ||
	    aclrtSynchronizeStream(s) ||
	    aclrtSynchronizeDevice() ||
	    aclrtMemcpy(out, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST))
		return -1;
	aclrtFree(d);
	aclrtDestroyStream(s);
	return out[0] == 0x3c && out[63] == 0x3c ? 0 : -2;
}

static int set_sysctl(const char *v)
{
	FILE *f = fopen(SYSCTL, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(v, f) < 0 ? -1 : 0;
	return fclose(f) || ret ? -1 : 0;
}

static void up(const char *mode)
{
	if (mode)
		setenv("VNPU_SUBMIT", mode, 1);
	else
		unsetenv("VNPU_SUBMIT");
}

TEST(forced_uring_uses_a_ring)
{
	up("uring");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	EXPECT_EQ(1, rings());
	aclrtResetDevice(0);
	aclFinalize();
}

TEST(forced_ioctl_uses_none)
{
	up("ioctl");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	EXPECT_EQ(0, rings());
	aclrtResetDevice(0);
	aclFinalize();
}

TEST(default_and_unknown_values_pick_uring)
{
	up(NULL);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	EXPECT_EQ(1, rings());
	aclrtResetDevice(0);
	aclFinalize();
	up("sideways");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	aclrtResetDevice(0);
	aclFinalize();
}

/* Each thread that submits has a ring of its own. */
struct thread_arg {
	aclrtContext ctx;
	int ret;
};

static void *thread_round_trip(void *arg)
{
	struct thread_arg *a = arg;

	a->ret = aclrtSetCurrentContext(a->ctx) ? -3 : round_trip();
	return NULL;
}

TEST(one_ring_per_thread)
{
	struct thread_arg a = { .ret = -9 };
	pthread_t t;

	up("uring");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&a.ctx));
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_round_trip, &a));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, a.ret);
	/* The thread's ring went away with it. */
	EXPECT_EQ(1, rings());
	aclrtResetDevice(0);
	aclFinalize();
}

TEST(io_uring_disabled_falls_back_or_fails_when_forced)
{
	char old[8] = "0";
	FILE *f = fopen(SYSCTL, "r");

	if (!f)
		SKIP(return, "no %s", SYSCTL);
	if (!fgets(old, sizeof(old), f))
		strcpy(old, "0");
	fclose(f);
	ASSERT_EQ(0, set_sysctl("2"));

	up(NULL);
	EXPECT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	EXPECT_EQ(0, rings());
	aclrtResetDevice(0);
	aclFinalize();

	up("uring");
	EXPECT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSetDevice(0));
	aclFinalize();
	EXPECT_EQ(0, set_sysctl(old));
}

/* Queue a memset on a new stream and synchronize it: that call's code. */
struct sync_arg {
	aclrtContext ctx;
	aclError sync;
	int read_back;		/* 1: the memset landed */
};

static void *thread_sync(void *arg)
{
	struct sync_arg *a = arg;
	uint8_t out[64] = { 0 };
	aclrtStream s;
	void *d;

	if (aclrtSetCurrentContext(a->ctx) || aclrtCreateStream(&s))
		return NULL;
	if (!aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST)) {
		if (!aclrtMemsetAsync(d, 64, 0x5d, 64, s))
			a->sync = aclrtSynchronizeStream(s);
		a->read_back = !aclrtMemcpy(out, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST) &&
			       out[0] == 0x5d && out[63] == 0x5d;
		aclrtFree(d);
	}
	aclrtDestroyStream(s);
	return NULL;
}

/*
 * The device chose io_uring, then a new thread cannot make a ring
 * (io_uring_disabled changed under the process): its jobs go through
 * ioctls, unless io_uring was forced, where its sync fails and says why.
 */
static void thread_without_ring(struct __test_metadata *_metadata,
				const char *mode, aclError want_sync,
				int want_landed)
{
	struct sync_arg a = { .sync = -1 };
	char old[8] = "0";
	pthread_t t;
	FILE *f = fopen(SYSCTL, "r");

	if (!f)
		SKIP(return, "no %s", SYSCTL);
	if (!fgets(old, sizeof(old), f))
		strcpy(old, "0");
	fclose(f);
	up(mode);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(0, round_trip());
	EXPECT_EQ(1, rings());
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&a.ctx));
	ASSERT_EQ(0, set_sysctl("2"));
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_sync, &a));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, set_sysctl(old));
	EXPECT_EQ(want_sync, a.sync);
	EXPECT_EQ(want_landed, a.read_back);
	EXPECT_EQ(1, rings());
	/* This thread keeps its ring. */
	EXPECT_EQ(0, round_trip());
	aclrtResetDevice(0);
	aclFinalize();
}

TEST(thread_without_ring_falls_back_to_ioctls)
{
	thread_without_ring(_metadata, NULL, ACL_SUCCESS, 1);
}

TEST(thread_without_ring_fails_when_uring_forced)
{
	thread_without_ring(_metadata, "uring", ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 0);
}

/*
 * Work pending on several streams reaches the device with one device
 * synchronization (on io_uring: one enter for all batches, one for all
 * waits); a device fault on one stream is that call's error.
 */
static void device_sync_many(struct __test_metadata *_metadata,
			     const char *mode)
{
	aclrtStream s[4];
	uint8_t out[4][256];
	void *d[4];

	up(mode);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s[i]));
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d[i], 256, ACL_MEM_MALLOC_HUGE_FIRST));
	}
	for (int round = 1; round <= 3; round++) {
		for (int i = 0; i < 4; i++)
			ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d[i], 256, 16 * round + i,
								256, s[i]));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
		for (int i = 0; i < 4; i++) {
			ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out[i], 256, d[i], 256,
							   ACL_MEMCPY_DEVICE_TO_HOST));
			EXPECT_EQ(16 * round + i, out[i][0]);
			EXPECT_EQ(16 * round + i, out[i][255]);
		}
	}
	/* A fault on stream 2: reported by the device sync, once. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d[0], 256, 1, 256, s[0]));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d[1], 256, (void *)(uintptr_t)0x00000100ff000000ULL,
						256, ACL_MEMCPY_DEVICE_TO_DEVICE, s[2]));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeDevice());
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out[0], 256, d[0], 256,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(1, out[0][0]);
	for (int i = 0; i < 4; i++) {
		aclrtFree(d[i]);
		aclrtDestroyStream(s[i]);
	}
	aclrtResetDevice(0);
	aclFinalize();
}

/*
 * A device sync waits only for streams with work it has not seen end: a
 * second sync with nothing new sends no command at all, and one stream's
 * new work costs one SUBMIT and one WAIT, however many streams there are.
 */
TEST(device_sync_waits_only_for_new_work)
{
	aclrtStream s[3];
	uint8_t out[64];
	void *d[3];
	long t0;

	up("uring");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s[i]));
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d[i], 64, ACL_MEM_MALLOC_HUGE_FIRST));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d[i], 64, 0x10 + i, 64, s[i]));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	t0 = ring_sqes();
	ASSERT_GE(t0, 6);	/* three SUBMITs and three WAITs at least */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	EXPECT_EQ(t0, ring_sqes());
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d[1], 64, 0x7e, 64, s[1]));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	EXPECT_EQ(t0 + 2, ring_sqes());
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, 64, d[1], 64,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x7e, out[0]);
	EXPECT_EQ(0x7e, out[63]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, 64, d[2], 64,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x12, out[63]);
	for (int i = 0; i < 3; i++) {
		aclrtFree(d[i]);
		aclrtDestroyStream(s[i]);
	}
	aclrtResetDevice(0);
	aclFinalize();
}

TEST(device_sync_many_streams_uring)
{
	device_sync_many(_metadata, "uring");
}

TEST(device_sync_many_streams_ioctl)
{
	device_sync_many(_metadata, "ioctl");
}

TEST_HARNESS_MAIN
