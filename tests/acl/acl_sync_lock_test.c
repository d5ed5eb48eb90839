// SPDX-License-Identifier: MIT
/*
 * aclrtSynchronizeStream in one io_uring_enter (submit the pending batch
 * and wait for it) holds the stream's lock while it waits. That is only
 * safe when nothing the sync waits for depends on user space: these tests
 * build the cases where it does (a blocking callback, or an event wait on
 * a job gated by another thread, that must launch on the synchronized
 * stream before the wait can end). A wrong rule deadlocks them; a
 * watchdog turns the hang into a failure. They also check that the fast
 * path keeps results, order, failures and timeouts. Run with both
 * VNPU_SUBMIT=uring and =ioctl (tests/run-vm.sh).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"
#include "sync_test_util.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define LEN 4096
struct handler {
	pthread_t t;
	atomic_int stop;
};

static void *handler_main(void *arg)
{
	struct handler *h = arg;

	aclrtSetDevice(0);
	while (!atomic_load(&h->stop))
		aclrtProcessReport(10);
	return NULL;
}

FIXTURE(sl) {
	aclrtStream s, t, u;
	struct handler h;
	void *buf, *word;
	unsigned char host[LEN];
};

FIXTURE_SETUP(sl)
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
	atomic_store(&self->h.stop, 0);
	pthread_create(&self->h.t, NULL, handler_main, &self->h);
	ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport((uint64_t)self->h.t, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport((uint64_t)self->h.t, self->t));
	sync_watchdog(SYNC_WATCHDOG_S);
}

FIXTURE_TEARDOWN(sl)
{
	sync_watchdog(0);
	aclrtUnSubscribeReport((uint64_t)self->h.t, self->s);
	aclrtUnSubscribeReport((uint64_t)self->h.t, self->t);
	atomic_store(&self->h.stop, 1);
	pthread_join(self->h.t, NULL);
	aclrtFree(self->word);
	aclrtFree(self->buf);
	aclrtDestroyStream(self->u);
	aclrtDestroyStream(self->t);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

/* What a callback launches on a stream, once the sync has started. */
struct launch {
	aclrtStream on;
	void *dst;
	int value;
	aclError ret;
	atomic_int done;
};

static void launch_later(void *arg)
{
	struct launch *l = arg;

	usleep(200000);		/* the sync is waiting by now */
	l->ret = aclrtMemsetAsync(l->dst, 64, l->value, 64, l->on);
	atomic_store(&l->done, 1);
}

/*
 * A blocking callback launches on the stream being synced. (The launch
 * submits the callback's job at once, so the sync finds it in flight.)
 */
TEST_F(sl, blocking_callback_launches_on_synced_stream)
{
	struct launch l = { .on = self->s, .dst = self->buf, .value = 0x5a };

	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 64, 64, 0x11, 64,
						self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(launch_later, &l,
						   ACL_CALLBACK_BLOCK, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	/* The callback ran (the sync waited for it) and its launch worked. */
	ASSERT_EQ(1, atomic_load(&l.done));
	ASSERT_EQ(ACL_SUCCESS, l.ret);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x5a);
	expect_dev_bytes(_metadata, self->buf, 64, 64, 0x11);
}

/*
 * The callback's job was flushed before (a query submits the batch): the
 * batch the sync sends is plain, but a job before it still waits for the
 * callback, which launches on the stream.
 */
TEST_F(sl, callback_in_flight_then_plain_batch)
{
	struct launch l = { .on = self->s, .dst = self->buf, .value = 0x6b };
	aclrtStreamStatus st;

	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(launch_later, &l,
						   ACL_CALLBACK_BLOCK, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(self->s, &st));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 128, 64, 0x22, 64,
						self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(1, atomic_load(&l.done));
	ASSERT_EQ(ACL_SUCCESS, l.ret);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x6b);
	expect_dev_bytes(_metadata, self->buf, 128, 64, 0x22);
}

/*
 * s waits for an event recorded on t behind a value wait; the value is
 * written by a thread that first launches on s. Holding s's lock across
 * the wait would deadlock.
 */
TEST_F(sl, event_wait_on_job_gated_by_thread_launching_here)
{
	struct sync_gate g = { .s = self->s, .u = self->u, .dst = self->buf,
			       .word = self->word };
	aclrtEvent ev;
	pthread_t th;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(self->word, 1, 0, self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 192, 64, 0x44, 64,
						self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(ev, self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(self->t, &(aclrtStreamStatus){ 0 }));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s, ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 256, 64, 0x55, 64,
						self->s));
	pthread_create(&th, NULL, sync_gate_main, &g);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	pthread_join(th, NULL);
	ASSERT_EQ(ACL_SUCCESS, g.r1);
	ASSERT_EQ(ACL_SUCCESS, g.r2);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	/* s ran after t's memset (the event), and the thread's launch too. */
	expect_dev_bytes(_metadata, self->buf, 192, 64, 0x44);
	expect_dev_bytes(_metadata, self->buf, 256, 64, 0x55);
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x33);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(ev));
}

/*
 * The value wait is in s's own pending batch, released by a thread that
 * first launches on s.
 */
TEST_F(sl, value_wait_in_batch_released_by_thread_launching_here)
{
	struct sync_gate g = { .s = self->s, .u = self->u, .dst = self->buf,
			       .word = self->word };
	pthread_t th;

	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(self->word, 1, 0, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 384, 64, 0x67, 64,
						self->s));
	pthread_create(&th, NULL, sync_gate_main, &g);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	pthread_join(th, NULL);
	ASSERT_EQ(ACL_SUCCESS, g.r1);
	ASSERT_EQ(ACL_SUCCESS, g.r2);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_dev_bytes(_metadata, self->buf, 384, 64, 0x67);
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x33);
}

/* The same with the device-wide sync. */
TEST_F(sl, device_sync_with_gated_event_wait)
{
	struct sync_gate g = { .s = self->s, .u = self->u, .dst = self->buf,
			       .word = self->word };
	aclrtEvent ev;
	pthread_t th;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(self->word, 1, 0, self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(ev, self->t));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s, ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 320, 64, 0x66, 64,
						self->s));
	pthread_create(&th, NULL, sync_gate_main, &g);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	pthread_join(th, NULL);
	ASSERT_EQ(ACL_SUCCESS, g.r1);
	ASSERT_EQ(ACL_SUCCESS, g.r2);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	expect_dev_bytes(_metadata, self->buf, 320, 64, 0x66);
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x33);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(ev));
}

/*
 * Plain batches (the one-enter path on io_uring): every sync returns
 * after its own batch, in order, while another thread launches on the
 * same stream and syncs it too.
 */
struct hammer {
	aclrtStream s;
	void *dst;
	int fails;
};

static void *hammer_main(void *arg)
{
	struct hammer *h = arg;

	aclrtSetDevice(0);
	for (int i = 0; i < 200; i++) {
		if (aclrtMemsetAsync(h->dst, 64, i & 0xff, 64, h->s) ||
		    aclrtSynchronizeStream(h->s))
			h->fails++;
	}
	return NULL;
}

TEST_F(sl, plain_syncs_keep_order_across_threads)
{
	struct hammer h = { .s = self->s, .dst = (char *)self->buf + 1024 };
	pthread_t th;

	pthread_create(&th, NULL, hammer_main, &h);
	for (int i = 0; i < 200; i++) {
		unsigned char v[2];

		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 2048, 64,
							i & 0xff, 64, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)self->buf + 2112, 64,
							(i + 1) & 0xff, 64, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
		/* Both of this round's tasks have run: nothing older shows. */
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(v, 1, (char *)self->buf + 2048, 1,
						   ACL_MEMCPY_DEVICE_TO_HOST));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(v + 1, 1, (char *)self->buf + 2112, 1,
						   ACL_MEMCPY_DEVICE_TO_HOST));
		ASSERT_EQ(i & 0xff, v[0]);
		ASSERT_EQ((i + 1) & 0xff, v[1]);
	}
	pthread_join(th, NULL);
	EXPECT_EQ(0, h.fails);
	expect_dev_bytes(_metadata, self->buf, 1024, 64, 199);
}

/* A device fault in a plain batch is reported by that sync, then cleared. */
TEST_F(sl, plain_sync_reports_fault_once)
{
	void *bad = (void *)(uintptr_t)0x00000100ff000000ULL;	/* unmapped */

	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->buf, 64, 0x77, 64, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, self->buf, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(self->s));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "0x100ff000000"));
	/* Reported once; the stream works again. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->buf, 64, 0x78, 64, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x78);
}

/*
 * A timed sync on a plain batch behind a job that cannot end yet: the
 * job waits for a value that only this thread writes after the timeout.
 */
TEST_F(sl, timed_sync_times_out_then_completes)
{
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(self->word, 2, 0, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(self->s, &(aclrtStreamStatus){ 0 }));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->buf, 64, 0x79, 64, self->s));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
		  aclrtSynchronizeStreamWithTimeout(self->s, 100));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWrite(self->word, 2, 0, self->u));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	expect_dev_bytes(_metadata, self->buf, 0, 64, 0x79);
}

TEST_HARNESS_MAIN
