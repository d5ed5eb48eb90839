// SPDX-License-Identifier: MIT
/*
 * A replayed graph that needs nothing from user space (one stream, no
 * waits between segments, no value wait) lets the next aclrtSynchronize-
 * Stream take the one-enter path: on io_uring, replay + async launch +
 * sync cost two io_uring_enter calls, not three. A graph that may wait
 * for user space must keep the ordinary path, or a thread that has to
 * launch on the stream before the graph can go on deadlocks with the
 * sync. Enters are counted with the syscalls:sys_enter_io_uring_enter
 * tracepoint for the calling thread only (each thread has its own ring).
 * Run with VNPU_SUBMIT=uring and =ioctl (tests/run-vm.sh); on ioctls only
 * the results are checked.
 */
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"
#include "sync_test_util.h"

#define LEN 4096
static bool on_uring(void)
{
	const char *v = getenv("VNPU_SUBMIT");

	/* run-vm.sh always says; unset means auto, which picks io_uring. */
	return !v || strcmp(v, "ioctl");
}

/* A counter of this thread's io_uring_enter calls, or -1. */
static int enter_counter(void)
{
	static const char *const ids[] = {
		"/sys/kernel/tracing/events/syscalls/sys_enter_io_uring_enter/id",
		"/sys/kernel/debug/tracing/events/syscalls/sys_enter_io_uring_enter/id",
	};
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
	};
	unsigned long long id = 0;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]) && !id; i++) {
		FILE *f = fopen(ids[i], "r");

		if (f) {
			if (fscanf(f, "%llu", &id) != 1)
				id = 0;
			fclose(f);
		}
	}
	if (!id)
		return -1;
	a.config = id;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static uint64_t count_of(int fd)
{
	uint64_t n = 0;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return UINT64_MAX;
	return n;
}

FIXTURE(ge) {
	aclrtStream s, t, u;
	void *buf, *word;
	int enters;
};

FIXTURE_SETUP(ge)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->u));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->buf, LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->word, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->buf, LEN, 0, LEN));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->word, 64, 0, 64));
	self->enters = -1;
	if (on_uring()) {
		self->enters = enter_counter();
		ASSERT_LE(0, self->enters)
			TH_LOG("no syscalls:sys_enter_io_uring_enter tracepoint to count with");
	}
	sync_watchdog(SYNC_WATCHDOG_S);
}

FIXTURE_TEARDOWN(ge)
{
	sync_watchdog(0);
	if (self->enters >= 0)
		close(self->enters);
	aclrtFree(self->word);
	aclrtFree(self->buf);
	aclrtDestroyStream(self->u);
	aclrtDestroyStream(self->t);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

/* Enters this thread made while running replay + memset + sync on s. */
static uint64_t replay_launch_sync(struct __test_metadata *_metadata,
				   FIXTURE_DATA(ge) *self, aclmdlRI ri, int value)
{
	uint64_t before = self->enters >= 0 ? count_of(self->enters) : 0;

	EXPECT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 1024, 64,
						value, 64, self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	return self->enters >= 0 ? count_of(self->enters) - before : 0;
}

/* One stream, copies and fills only: the sync submits and waits in one enter. */
TEST_F(ge, device_only_replay_sync_is_one_enter)
{
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
			ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->buf, 64, 0x41, 64, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync((char *)self->buf + 64, 64,
						self->buf, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	for (int i = 0; i < 4; i++) {
		uint64_t n = replay_launch_sync(_metadata, self, ri, 0x10 + i);

		if (self->enters >= 0) {
			EXPECT_EQ(2, n) TH_LOG("replay %d", i);
		}
		expect_dev_bytes(_metadata, self->buf, 64, 64, 0x41);
		expect_dev_bytes(_metadata, self->buf, 1024, 64, 0x10 + i);
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* A fork to stream t and a join back: two queues, so the ordinary path. */
TEST_F(ge, two_stream_replay_keeps_two_enter_sync)
{
	aclrtEvent fork, join;
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&fork));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&join));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
			ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(fork, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->t, fork));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 256, 64, 0x52,
						64, self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(join, self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s, join));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync((char *)self->buf + 320, 64,
						(char *)self->buf + 256, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	for (int i = 0; i < 3; i++) {
		uint64_t n = replay_launch_sync(_metadata, self, ri, 0x20 + i);

		if (self->enters >= 0) {
			EXPECT_EQ(3, n) TH_LOG("replay %d", i);
		}
		expect_dev_bytes(_metadata, self->buf, 320, 64, 0x52);
		expect_dev_bytes(_metadata, self->buf, 1024, 64, 0x20 + i);
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(join));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(fork));
}

/*
 * The graph waits for a value another thread writes only after launching
 * on s. Were the replay taken for device-only, the sync would hold s's
 * lock across its wait and the thread's launch could never get it.
 */
TEST_F(ge, value_wait_replay_leaves_stream_unlocked)
{
	struct sync_gate r = { .s = self->s, .u = self->u, .word = self->word,
			       .dst = (char *)self->buf + 2048 };
	aclmdlRI ri = NULL;
	pthread_t th;
	uint64_t n;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
			ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(self->word, 1, 0, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 512, 64, 0x74,
						64, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	ASSERT_EQ(0, pthread_create(&th, NULL, sync_gate_main, &r));
	n = replay_launch_sync(_metadata, self, ri, 0x30);
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(ACL_SUCCESS, r.r1);
	ASSERT_EQ(ACL_SUCCESS, r.r2);
	if (self->enters >= 0) {
		EXPECT_EQ(3, n);
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_dev_bytes(_metadata, self->buf, 512, 64, 0x74);
	expect_dev_bytes(_metadata, self->buf, 1024, 64, 0x30);
	expect_dev_bytes(_metadata, self->buf, 2048, 64, 0x33);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/*
 * After a device-only replay, a sync of the whole device still sees the
 * replay's job and the batch behind it end.
 */
TEST_F(ge, device_only_replay_then_device_sync)
{
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
			ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 3072, 512,
						0x7e, 512, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync((char *)self->buf + 3584,
				512, (char *)self->buf + 3072, 512,
				ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
		expect_dev_bytes(_metadata, self->buf, 3584, 512, 0x7e);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset((char *)self->buf + 3584, 512,
						   0, 512));
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_HARNESS_MAIN
