// SPDX-License-Identifier: MIT
/*
 * ACL stream and event tests on the real driver: NULL stream, sync, query,
 * destroy with work in flight, timeouts, events (status, elapsed time,
 * cross-stream ordering with aclrtStreamWaitEvent), a device fault
 * surfacing at the next sync. Each TEST is a fresh process.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

#define BIG (64u << 20)

FIXTURE(rt) {
	void *a, *b;
};

FIXTURE_SETUP(rt)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->a, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->b, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->a, BIG, 0x5a, BIG));
}

FIXTURE_TEARDOWN(rt)
{
	aclrtFree(self->a);
	aclrtFree(self->b);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(rt, null_stream_sync_query)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	aclrtStream def;
	char c = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b, BIG, self->a, BIG,
						ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtStreamQuery(NULL, &st));
	EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&c, 1, (char *)self->b + BIG - 1, 1,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x5a, c);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(NULL, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetCurrentDefaultStream(&def));
	EXPECT_NE(ACL_SUCCESS, aclrtDestroyStream(def));
}

TEST_F(rt, timeouts_rejected)
{
	aclrtEvent ev;

	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStreamWithTimeout(NULL, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStreamWithTimeout(NULL, -2));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStreamWithTimeout(NULL, -1));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStreamWithTimeout(NULL, 1000));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEventWithTimeout(ev, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEventWithTimeout(ev, -2));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeDeviceWithTimeout(0));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(ev));
}

TEST_F(rt, query_and_destroy_in_flight)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	aclrtStream s;
	char c = 0;
	int i;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&s, 0, 0));
	for (i = 0; i < 8; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b, BIG, self->a, BIG,
							ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(s, &st));
	EXPECT_TRUE(st == ACL_STREAM_STATUS_NOT_READY || st == ACL_STREAM_STATUS_COMPLETE);
	/* Destroying waits for the copies. */
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&c, 1, self->b, 1, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x5a, c);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(NULL));
}

TEST_F(rt, stream_of_other_context)
{
	aclrtContext def, other;
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&def));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&other, 0));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CONTEXT, aclrtSynchronizeStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(def));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyContext(other));
}

TEST_F(rt, event_elapsed_time)
{
	aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
	aclrtEvent e1, e2;
	float ms = -1;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventWithFlag(&e1, ACL_EVENT_TIME_LINE));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventWithFlag(&e2, ACL_EVENT_TIME_LINE));
	/* Never recorded: not ready (CANN's event-status sample), no timestamp. */
	st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
	ASSERT_EQ(ACL_SUCCESS, aclrtQueryEventStatus(e1, &st));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, st);
	EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime(&ms, e1, e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e1, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b, BIG, self->a, BIG,
						ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e2, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtQueryEventStatus(e2, &st));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
	ASSERT_EQ(ACL_SUCCESS, aclrtEventElapsedTime(&ms, e1, e2));
	/* A 64 MiB copy takes well over 10 microseconds. */
	EXPECT_GT(ms, 0.01f) TH_LOG("elapsed %f ms", ms);
	EXPECT_LT(ms, 10000.0f);
	EXPECT_EQ(ACL_SUCCESS, aclrtResetEvent(e1, NULL));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime(&ms, e1, e2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(NULL, e1, e2));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(e1));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(e2));
}

TEST_F(rt, wait_event_orders_streams)
{
	aclrtStream s1, s2;
	aclrtEvent ev;
	char c = 0;
	int i;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	/* s1: several big copies a -> b, then the record. */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b, BIG, self->a, BIG,
							ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(ev, s1));
	/* s2 waits, then overwrites the first byte of b. */
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(s2, ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 1, 0x11, 1, s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&c, 1, self->b, 1, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x11, c);
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(ev));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s2));
}

TEST_F(rt, device_fault_surfaces)
{
	void *bad = (void *)(uintptr_t)0x00000100ff000000ULL;	/* device range, unmapped */
	const char *msg;
	char c = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(bad, 64, self->a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(NULL));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "0x100ff000000")) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "task 0")) TH_LOG("%s", msg);
	/* Reported once; the stream works again. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 1, 0x22, 1, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&c, 1, self->b, 1, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x22, c);
	/* A synchronous copy faulting says so too. */
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION,
		  aclrtMemcpy(bad, 64, self->a, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "0x100ff000000")) TH_LOG("%s", msg);
}

#define BAD_VA ((void *)(uintptr_t)0x00000100ff000000ULL)	/* unmapped */

/* b[0] as the device has it. */
static char first_byte(void *b)
{
	char c = 0;

	if (aclrtMemcpy(&c, 1, b, 1, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
		return -1;
	return c;
}

TEST_F(rt, failure_mode_continue_runs_later_tasks)
{
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(BAD_VA, 64, self->a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	/* The task after the failure runs and the failure is not repeated. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 1, 0x31, 1, s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	EXPECT_EQ(0x31, first_byte(self->b));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
}

TEST_F(rt, failure_mode_stop_discards_later_tasks)
{
	aclrtStreamStatus st;
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->b, 1, 0x00, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
	/* Queued behind the failing copy: not run. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(BAD_VA, 64, self->a, 64,
						ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 1, 0x41, 1, s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	EXPECT_EQ(0x00, first_byte(self->b));
	/* Stopped: new tasks are refused and the failure keeps being reported. */
	EXPECT_NE(ACL_SUCCESS, aclrtMemsetAsync(self->b, 1, 0x42, 1, s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(s));
	EXPECT_NE(ACL_SUCCESS, aclrtStreamQuery(s, &st));
	EXPECT_EQ(0x00, first_byte(self->b));
	/* Destroying reports it too, and frees the stream. */
	EXPECT_NE(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(s));
}

TEST_F(rt, failure_mode_args)
{
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetStreamFailureMode(s, 2));
	EXPECT_EQ(ACL_SUCCESS, aclrtSetStreamFailureMode(NULL, ACL_CONTINUE_ON_FAILURE));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
}

TEST_F(rt, destroyed_stream_rejected)
{
	aclrtStreamStatus st;
	aclrtStream s;
	aclrtEvent ev;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(ev, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamQuery(s, &st));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordEvent(ev, s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemcpyAsync(self->b, 64, self->a, 64,
				   ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	/* The event recorded on the dead stream is complete. */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(ev));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(ev));
}

TEST_F(rt, destroyed_event_rejected)
{
	aclrtEventRecordedStatus st;
	aclrtEvent ev;
	float ms;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(ev));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyEvent(ev));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordEvent(ev, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEvent(ev));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtQueryEventStatus(ev, &st));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamWaitEvent(NULL, ev));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtEventElapsedTime(&ms, ev, ev));
	/* A stream handle is not an event, nor the other way round. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyEvent((aclrtEvent)self));
}

/* Record and query from two threads (event.c reads the stream's jobs). */
struct ev_race {
	aclrtContext ctx;
	aclrtEvent ev;
	aclrtStream s;
	int errors;
};

static void *query_loop(void *arg)
{
	struct ev_race *r = arg;
	aclrtEventRecordedStatus st;

	if (aclrtSetCurrentContext(r->ctx) != ACL_SUCCESS) {
		r->errors++;
		return NULL;
	}
	for (int i = 0; i < 2000; i++)
		if (aclrtQueryEventStatus(r->ev, &st) != ACL_SUCCESS)
			r->errors++;
	return NULL;
}

TEST_F(rt, event_record_query_threads)
{
	struct ev_race r = { 0 };
	pthread_t t;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&r.ctx));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&r.s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&r.ev));
	ASSERT_EQ(0, pthread_create(&t, NULL, query_loop, &r));
	for (int i = 0; i < 2000; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 64, (int)i, 64, r.s));
		ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(r.ev, r.s));
	}
	pthread_join(t, NULL);
	EXPECT_EQ(0, r.errors);
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(r.ev));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(r.ev));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(r.s));
}

/* Events come and go in one thread while streams die in another. */
struct ev_churn {
	aclrtContext ctx;
	aclrtStream s;
	atomic_int stop;
	int made, errors;
};

static void *event_churn(void *arg)
{
	struct ev_churn *c = arg;
	aclrtEvent ev;

	if (aclrtSetCurrentContext(c->ctx) != ACL_SUCCESS) {
		c->errors++;
		return NULL;
	}
	while (!atomic_load(&c->stop)) {
		if (aclrtCreateEvent(&ev) != ACL_SUCCESS ||
		    aclrtRecordEvent(ev, c->s) != ACL_SUCCESS ||
		    aclrtDestroyEvent(ev) != ACL_SUCCESS)
			c->errors++;
		c->made++;
	}
	return NULL;
}

/*
 * A dying stream visits every event of its device (event_forget_stream,
 * under the device's lock) and takes each one's lock. A new event used
 * to be listed there before its lock was initialised; ThreadSanitizer
 * reports that as a race between the initialisation and the lock.
 */
TEST_F(rt, events_created_while_streams_die)
{
	struct ev_churn c = { 0 };
	aclrtStream dying;
	pthread_t t;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&c.ctx));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&c.s));
	ASSERT_EQ(0, pthread_create(&t, NULL, event_churn, &c));
	for (int i = 0; i < 200; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&dying));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 64, i, 64, dying));
		ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(dying));
	}
	atomic_store(&c.stop, 1);
	pthread_join(t, NULL);
	EXPECT_EQ(0, c.errors);
	EXPECT_LT(0, c.made);
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(c.s));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(c.s));
}

/* aclrtSynchronizeDevice in a loop until told to stop. */
static void *device_sync_loop(void *arg)
{
	struct ev_churn *c = arg;

	if (aclrtSetCurrentContext(c->ctx) != ACL_SUCCESS) {
		c->errors++;
		return NULL;
	}
	while (!atomic_load(&c->stop)) {
		if (aclrtSynchronizeDevice() != ACL_SUCCESS)
			c->errors++;
		c->made++;
	}
	return NULL;
}

/*
 * A device sync drains every stream of the device while other threads
 * destroy theirs: streams_rw keeps the ones it picked up alive.
 */
TEST_F(rt, device_syncs_while_streams_die)
{
	struct ev_churn c = { 0 };
	aclrtStream dying;
	unsigned char out[64];
	pthread_t t;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&c.ctx));
	ASSERT_EQ(0, pthread_create(&t, NULL, device_sync_loop, &c));
	for (int i = 0; i < 200; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&dying));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->b, 64, i, 64, dying));
		ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(dying));
	}
	atomic_store(&c.stop, 1);
	pthread_join(t, NULL);
	EXPECT_EQ(0, c.errors);
	EXPECT_LT(0, c.made);
	/* Destroying a stream waits for its work: the last memset landed. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, 64, self->b, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(199, out[0]);
	EXPECT_EQ(199, out[63]);
}

TEST_HARNESS_MAIN
