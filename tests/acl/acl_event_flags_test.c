// SPDX-License-Identifier: MIT
/*
 * ACL event tests beyond record/wait/sync: records and waits with flags,
 * external records and waits inside graph capture (they act at every
 * replay), waits with a timeout, timestamps, event ids and the free
 * count, the wait status, stream abort. A host function that waits for
 * the test ("a gate") holds a stream back where a test needs work that
 * has not run yet: it is opened from the host, so no device job has to
 * find a free engine to open it.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

#define BYTES 4096

FIXTURE(ef) {
	aclrtStream s1, s2, s3;
	aclrtEvent ev;
	atomic_int open;
	void *d;
	uint8_t *host;
};

FIXTURE_SETUP(ef)
{
	static uint8_t sevens[BYTES];

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s3));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventExWithFlag(&self->ev, ACL_EVENT_SYNC));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->d, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
	/* A synchronous copy (no job): the fixture does not depend on engines. */
	memset(sevens, 7, BYTES);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d, BYTES, sevens, BYTES,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&self->host, BYTES));
	memset(self->host, 0, BYTES);
}

FIXTURE_TEARDOWN(ef)
{
	aclrtDestroyEvent(self->ev);
	atomic_store(&self->open, 1);
	aclrtFree(self->d);
	aclrtFreeHost(self->host);
	aclrtDestroyStream(self->s1);
	aclrtDestroyStream(self->s2);
	aclrtDestroyStream(self->s3);
	aclrtResetDevice(0);
	aclFinalize();
}

static int copy_out(struct _test_data_ef *self, aclrtStream s)
{
	return aclrtMemcpyAsync(self->host, BYTES, self->d, BYTES,
				ACL_MEMCPY_DEVICE_TO_HOST, s);
}

static void gate_fn(void *arg)
{
	while (!atomic_load((atomic_int *)arg))
		usleep(1000);
}

/* Hold stream s back until open_gate(). */
static int gate(struct _test_data_ef *self, aclrtStream s)
{
	atomic_store(&self->open, 0);
	return aclrtLaunchHostFunc(s, gate_fn, &self->open);
}

static void open_gate(struct _test_data_ef *self)
{
	atomic_store(&self->open, 1);
}

static aclrtStreamStatus status_of(aclrtStream s)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

	if (aclrtStreamQuery(s, &st))
		return ACL_STREAM_STATUS_RESERVED;
	return st;
}

static aclrtEventRecordedStatus event_status(aclrtEvent ev)
{
	aclrtEventRecordedStatus st = (aclrtEventRecordedStatus)9;

	aclrtQueryEventStatus(ev, &st);
	return st;
}

TEST_F(ef, record_with_default_flag_and_bad_flags)
{
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEventWithFlag(self->ev, self->s1,
							ACL_EVENT_RECORD_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(self->ev));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_status(self->ev));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRecordEventWithFlag(self->ev, self->s1, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRecordEventWithFlag(NULL, self->s1, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtStreamWaitEventWithFlag(self->s1, self->ev, 0, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtStreamWaitEventWithFlag(self->s1, self->ev, 5,
					       ACL_EVENT_WAIT_EXTERNAL));
	EXPECT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithFlag(self->s1, self->ev, 0,
							    ACL_EVENT_WAIT_DEFAULT));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
}

TEST_F(ef, external_flags_need_a_capturing_stream)
{
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
		  aclrtRecordEventWithFlag(self->ev, self->s1, ACL_EVENT_RECORD_EXTERNAL));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
		  aclrtStreamWaitEventWithFlag(self->s1, self->ev, 0,
					       ACL_EVENT_WAIT_EXTERNAL));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
		  aclrtRecordEventWithFlag(self->ev, NULL, ACL_EVENT_RECORD_EXTERNAL));
	/* Nothing was recorded. */
	EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, ({
		uint64_t ts; aclrtEventGetTimestamp(self->ev, &ts); }));
}

/* The event completes with each replay, outside the graph. */
TEST_F(ef, external_record_marks_each_replay)
{
	aclmdlRI ri = NULL;
	uint64_t ts1 = 0, ts2 = 0;
	uint8_t *other;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, copy_out(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEventWithFlag(self->ev, self->s1,
							ACL_EVENT_RECORD_EXTERNAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	/* Not recorded by the capture itself. */
	EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventGetTimestamp(self->ev, &ts1));

	/* Replay behind a closed gate: the event is pending. */
	ASSERT_EQ(ACL_SUCCESS, gate(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, event_status(self->ev));
	/* Another stream waits for it, then copies. */
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&other, BYTES));
	memset(other, 0, BYTES);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(other, BYTES, self->d, BYTES,
						ACL_MEMCPY_DEVICE_TO_HOST, self->s2));
	usleep(200 * 1000);
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s2));
	EXPECT_EQ(0, other[0]);
	EXPECT_EQ(0, self->host[0]);
	open_gate(self);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(self->ev));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_status(self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	EXPECT_EQ(7, other[0]);
	EXPECT_EQ(7, self->host[0]);
	ASSERT_EQ(ACL_SUCCESS, aclrtEventGetTimestamp(self->ev, &ts1));
	EXPECT_NE(0u, ts1);
	/*
	 * A second replay records it again, later: a timed wait issued now
	 * waits for that replay, not the first one.
	 */
	memset(other, 0, BYTES);
	ASSERT_EQ(ACL_SUCCESS, gate(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(self->s2, self->ev, 20000));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(other, BYTES, self->d, BYTES,
						ACL_MEMCPY_DEVICE_TO_HOST, self->s2));
	usleep(200 * 1000);
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s2));
	EXPECT_EQ(0, other[0]);
	open_gate(self);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	EXPECT_EQ(7, other[0]);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtEventGetTimestamp(self->ev, &ts2));
	EXPECT_GT(ts2, ts1);
	EXPECT_EQ(7, self->host[0]);
	aclrtFreeHost(other);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s3));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* Each replay waits for the event's record at replay time. */
TEST_F(ef, external_wait_holds_each_replay)
{
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithFlag(self->s1, self->ev, 0,
							    ACL_EVENT_WAIT_EXTERNAL));
	ASSERT_EQ(0, copy_out(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));

	for (int k = 0; k < 2; k++) {
		memset(self->host, 0, BYTES);
		ASSERT_EQ(ACL_SUCCESS, gate(self, self->s2));
		ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->s2));
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
		EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
		usleep(200 * 1000);
		EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
		EXPECT_EQ(0, self->host[0]);
		open_gate(self);
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
		EXPECT_EQ(7, self->host[0]);
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s3));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* A graph holds at most 16 external records and 16 external waits. */
TEST_F(ef, external_events_per_graph_are_bounded)
{
	aclrtEvent evs[17];
	aclmdlRI ri = NULL;

	for (int i = 0; i < 17; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&evs[i]));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	for (int i = 0; i < 16; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtRecordEventWithFlag(evs[i], self->s1,
								ACL_EVENT_RECORD_EXTERNAL));
		ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithFlag(self->s1, evs[i], 0,
								    ACL_EVENT_WAIT_EXTERNAL));
	}
	/* The same event again counts once. */
	EXPECT_EQ(ACL_SUCCESS, aclrtRecordEventWithFlag(evs[0], self->s1,
							ACL_EVENT_RECORD_EXTERNAL));
	EXPECT_EQ(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
		  aclrtRecordEventWithFlag(evs[16], self->s1, ACL_EVENT_RECORD_EXTERNAL));
	EXPECT_EQ(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
		  aclrtStreamWaitEventWithFlag(self->s1, evs[16], 0, ACL_EVENT_WAIT_EXTERNAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	/* Every replay waits for 16 never-recorded events: nothing to wait for. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, event_status(evs[15]));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	for (int i = 0; i < 17; i++)
		EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(evs[i]));
}

TEST_F(ef, wait_with_timeout)
{
	/* The record sits behind a closed gate: the wait times out. */
	ASSERT_EQ(ACL_SUCCESS, gate(self, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(self->s1, self->ev, 100));
	ASSERT_EQ(0, copy_out(self, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(0, self->host[0]);
	/* A long enough wait is released by the record. */
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithFlag(self->s1, self->ev, 20000,
							    ACL_EVENT_WAIT_DEFAULT));
	ASSERT_EQ(0, copy_out(self, self->s1));
	usleep(200 * 1000);
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
	EXPECT_EQ(0, self->host[0]);
	open_gate(self);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(7, self->host[0]);
	/* Complete already: nothing to wait for; -1 waits without a limit. */
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(self->s1, self->ev, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(self->s1, self->ev, -1));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtStreamWaitEventWithTimeout(self->s1, self->ev, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtStreamWaitEventWithTimeout(self->s1, self->ev, -2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtStreamWaitEventWithTimeout(self->s1, NULL, 10));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtStreamWaitEventWithFlag(self->s1, self->ev, 0x80000000u,
					       ACL_EVENT_WAIT_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
}

TEST_F(ef, timestamps)
{
	aclrtEvent e2;
	uint64_t t1 = 0, t2 = 0;
	float ms = -1;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventWithFlag(&e2, ACL_EVENT_TIME_LINE));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventGetTimestamp(e2, &t1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtEventGetTimestamp(e2, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(self->ev));
	ASSERT_EQ(ACL_SUCCESS, gate(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e2, self->s1));
	/* e2 is behind the gate. */
	EXPECT_EQ(ACL_ERROR_RT_EVENT_NOT_COMPLETE, aclrtEventGetTimestamp(e2, &t2));
	usleep(50 * 1000);
	open_gate(self);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtEventGetTimestamp(self->ev, &t1));
	ASSERT_EQ(ACL_SUCCESS, aclrtEventGetTimestamp(e2, &t2));
	EXPECT_GE(t2 - t1, 50u * 1000 * 1000);	/* the gate was shut 50 ms */
	ASSERT_EQ(ACL_SUCCESS, aclrtEventElapsedTime(&ms, self->ev, e2));
	EXPECT_LT(ms * 1e6 - (double)(t2 - t1), 1e3);
	EXPECT_GT(ms * 1e6 - (double)(t2 - t1), -1e3);
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(e2));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtEventGetTimestamp(e2, &t1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
}

TEST_F(ef, captured_event_has_no_timestamp_or_wait_status)
{
	aclrtEventWaitStatus ws;
	aclmdlRI ri = NULL;
	uint64_t ts;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtEventGetTimestamp(self->ev, &ts));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtQueryEventWaitStatus(self->ev, &ws));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(ef, ids_and_free_count)
{
	uint32_t before = 0, during = 0, after = 0, id1 = 0, id2 = 0;
	aclrtEvent e2;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetEventAvailNum(&before));
	EXPECT_EQ(4096u - 1u, before);	/* the fixture's event */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetEventAvailNum(&during));
	EXPECT_EQ(before - 1, during);
	ASSERT_EQ(ACL_SUCCESS, aclrtGetEventId(self->ev, &id1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetEventId(e2, &id2));
	EXPECT_NE(id1, id2);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetEventAvailNum(&after));
	EXPECT_EQ(before, after);
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetEventId(e2, &id2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(self->ev, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetEventAvailNum(NULL));
}

TEST_F(ef, wait_status_follows_the_record)
{
	aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;

	/* Never recorded: a wait would not block. */
	ASSERT_EQ(ACL_SUCCESS, aclrtQueryEventWaitStatus(self->ev, &ws));
	EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
	ASSERT_EQ(ACL_SUCCESS, gate(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtQueryEventWaitStatus(self->ev, &ws));
	EXPECT_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, ws);
	open_gate(self);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtQueryEventWaitStatus(self->ev, &ws));
	EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(self->ev, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(NULL, &ws));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
}

/* aclrtStreamAbort drops what has not reached the driver. */
TEST_F(ef, abort_drops_pending_tasks)
{
	uint8_t *other;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&other, BYTES));
	memset(other, 0, BYTES);
	ASSERT_EQ(0, copy_out(self, self->s1));		/* pending, not flushed */
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamAbort(self->s1));
	/* The dropped record no longer counts as a record. */
	EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, ({
		uint64_t ts; aclrtEventGetTimestamp(self->ev, &ts); }));
	/* Later work runs. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(other, BYTES, self->d, BYTES,
						ACL_MEMCPY_DEVICE_TO_HOST, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(7, other[0]);
	EXPECT_EQ(0, self->host[0]);	/* the aborted copy never ran */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamAbort(NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamAbort((aclrtStream)other));
	aclrtFreeHost(other);
}

TEST_F(ef, abort_of_a_capturing_stream_is_refused)
{
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtStreamAbort(self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_HARNESS_MAIN
