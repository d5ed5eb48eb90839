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

#define LEN 4096
#define WATCHDOG_S 60

static void watchdog_fired(int sig)
{
	static const char msg[] = "# watchdog: the sync did not return (deadlock)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

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
	signal(SIGALRM, watchdog_fired);
	alarm(WATCHDOG_S);
}

FIXTURE_TEARDOWN(ge)
{
	alarm(0);
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

static void expect_bytes(struct __test_metadata *_metadata, const void *dev,
			 size_t off, size_t n, int value)
{
	unsigned char h[LEN];

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, n, (const char *)dev + off, n,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (size_t i = 0; i < n; i++) {
		ASSERT_EQ(value, h[i]) TH_LOG("byte %zu", off + i);
	}
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
		expect_bytes(_metadata, self->buf, 64, 64, 0x41);
		expect_bytes(_metadata, self->buf, 1024, 64, 0x10 + i);
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
		expect_bytes(_metadata, self->buf, 320, 64, 0x52);
		expect_bytes(_metadata, self->buf, 1024, 64, 0x20 + i);
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(join));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(fork));
}

/* A thread that launches on s, then lets the graph's value wait go on. */
struct releaser {
	aclrtStream s, u;
	void *dst, *word;
	aclError r1, r2, r3;
};

static void *release_main(void *arg)
{
	struct releaser *r = arg;

	aclrtSetDevice(0);
	usleep(200000);		/* the sync is waiting by now */
	r->r1 = aclrtMemsetAsync(r->dst, 64, 0x63, 64, r->s);
	r->r2 = aclrtValueWrite(r->word, 1, 0, r->u);
	r->r3 = aclrtSynchronizeStream(r->u);
	return NULL;
}

/*
 * The graph waits for a value another thread writes only after launching
 * on s. Were the replay taken for device-only, the sync would hold s's
 * lock across its wait and the thread's launch could never get it.
 */
TEST_F(ge, value_wait_replay_leaves_stream_unlocked)
{
	struct releaser r = { .s = self->s, .u = self->u, .word = self->word,
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
	ASSERT_EQ(0, pthread_create(&th, NULL, release_main, &r));
	n = replay_launch_sync(_metadata, self, ri, 0x30);
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(ACL_SUCCESS, r.r1);
	ASSERT_EQ(ACL_SUCCESS, r.r2);
	ASSERT_EQ(ACL_SUCCESS, r.r3);
	if (self->enters >= 0) {
		EXPECT_EQ(3, n);
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_bytes(_metadata, self->buf, 512, 64, 0x74);
	expect_bytes(_metadata, self->buf, 1024, 64, 0x30);
	expect_bytes(_metadata, self->buf, 2048, 64, 0x63);
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
		expect_bytes(_metadata, self->buf, 3584, 512, 0x7e);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset((char *)self->buf + 3584, 512,
						   0, 512));
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_HARNESS_MAIN
