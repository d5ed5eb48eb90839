// SPDX-License-Identifier: MIT
/*
 * ACL notify tests on the real driver: a stream waits for a notify that
 * another stream records later (and resets it), timeouts (the call's and
 * aclrtSetOpWaitTimeout's), host batch reset, ids, notifies in graph
 * capture, count notifies (set, the three supported comparisons, clear,
 * reset, the unsupported modes) and every argument check.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

#define BYTES 4096

FIXTURE(nt) {
	aclrtStream s1, s2;
	aclrtNotify n;
	void *d;
	uint8_t *host;
};

FIXTURE_SETUP(nt)
{
	static uint8_t sevens[BYTES];

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&self->n, ACL_NOTIFY_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->d, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
	/* A synchronous copy (no job): the fixture does not depend on engines. */
	memset(sevens, 7, BYTES);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d, BYTES, sevens, BYTES,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&self->host, BYTES));
	memset(self->host, 0, BYTES);
}

FIXTURE_TEARDOWN(nt)
{
	aclrtDestroyNotify(self->n);
	aclrtFree(self->d);
	aclrtFreeHost(self->host);
	aclrtDestroyStream(self->s1);
	aclrtDestroyStream(self->s2);
	aclrtResetDevice(0);
	aclFinalize();
}

/* Queue a copy of the device buffer (all 7) into the pinned buffer. */
static int copy_out(struct _test_data_nt *self, aclrtStream s)
{
	return aclrtMemcpyAsync(self->host, BYTES, self->d, BYTES,
				ACL_MEMCPY_DEVICE_TO_HOST, s);
}

static aclrtStreamStatus status_of(aclrtStream s)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

	if (aclrtStreamQuery(s, &st))
		return ACL_STREAM_STATUS_RESERVED;
	return st;
}

TEST_F(nt, wait_blocks_until_another_stream_records)
{
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 0));
	ASSERT_EQ(0, copy_out(self, self->s1));
	/* Submitted (the query flushes), but held by the wait. */
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
	usleep(300 * 1000);
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
	EXPECT_EQ(0, self->host[0]);
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(self->n, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(7, self->host[0]);
	EXPECT_EQ(7, self->host[BYTES - 1]);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
}

/* A record before the wait is kept; the wait consumes it (reset). */
TEST_F(nt, record_first_then_wait_resets)
{
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(self->n, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 0));
	ASSERT_EQ(0, copy_out(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(7, self->host[0]);
	/* Reset: a second wait now times out. */
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 100));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	/* The stream goes on after the failure. */
	memset(self->host, 0, BYTES);
	ASSERT_EQ(0, copy_out(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(7, self->host[0]);
}

TEST_F(nt, wait_timeout_fails_the_stream_sync)
{
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 50));
	ASSERT_EQ(0, copy_out(self, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	/* The copy behind the wait never ran. */
	EXPECT_EQ(0, self->host[0]);
}

TEST_F(nt, op_wait_timeout_bounds_waits_without_one)
{
	ASSERT_EQ(ACL_SUCCESS, aclrtSetOpWaitTimeout(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 0));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetOpWaitTimeout(0));
}

TEST_F(nt, batch_reset_clears_from_the_host)
{
	aclrtNotify n2, list[2], bad[2];

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n2, ACL_NOTIFY_DEVICE_USE_ONLY));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(self->n, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(n2, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	/* A dead handle in the list: nothing is reset. */
	bad[0] = self->n;
	bad[1] = (aclrtNotify)&bad;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtNotifyBatchReset(bad, 2));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 2000));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	/* Set it again, then reset both from the host. */
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(self->n, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	list[0] = self->n;
	list[1] = n2;
	ASSERT_EQ(ACL_SUCCESS, aclrtNotifyBatchReset(list, 2));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 50));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n2, self->s1, 50));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(NULL, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(list, 0));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(n2));
}

TEST_F(nt, ids_are_distinct_and_reused)
{
	aclrtNotify n2, n3;
	uint32_t id1 = 0, id2 = 0, id3 = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n2, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetNotifyId(self->n, &id1));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetNotifyId(n2, &id2));
	EXPECT_NE(id1, id2);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyNotify(n2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n3, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetNotifyId(n3, &id3));
	EXPECT_EQ(id2, id3);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(n3, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetNotifyId(n2, &id2));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(n3));
}

TEST_F(nt, notifies_per_device_are_bounded)
{
	static aclrtNotify many[1024];
	aclrtCntNotify extra;
	int n = 0;

	/* The fixture holds one of the 1024 words. */
	while (n < 1024 && aclrtCreateNotify(&many[n], 0) == ACL_SUCCESS)
		n++;
	EXPECT_EQ(1023, n);
	EXPECT_EQ(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, aclrtCntNotifyCreate(&extra, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyNotify(many[--n]));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyCreate(&extra, 0));
	EXPECT_EQ(ACL_SUCCESS, aclrtCntNotifyDestroy(extra));
	while (n)
		EXPECT_EQ(ACL_SUCCESS, aclrtDestroyNotify(many[--n]));
}

TEST_F(nt, bad_arguments)
{
	aclrtCntNotify cn;
	aclrtNotify n2;
	int junk;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(&n2, 7));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify(NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyNotify(&junk));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(NULL, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordNotify(&junk, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordNotify(self->n, &junk));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtWaitAndResetNotify(&junk, self->s1, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtWaitAndResetNotify(self->n, &junk, 0));
	/* A count notify is not a notify, nor the other way round. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyCreate(&cn, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordNotify(cn, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyReset(self->n, self->s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtCntNotifyDestroy(cn));
	/* Destroyed twice. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n2, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyNotify(n2));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyNotify(n2));
	/* NULL stream: the default stream. */
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(self->n, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, NULL, 1000));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
}

TEST_F(nt, other_device_stream_is_rejected)
{
	uint32_t count = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&count));
	if (count < 2)
		SKIP(return, "needs two devices");
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CONTEXT, aclrtRecordNotify(self->n, NULL));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CONTEXT,
		  aclrtWaitAndResetNotify(self->n, NULL, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

/* Captured waits and records run at every replay. */
TEST_F(nt, captured_wait_and_record_replay)
{
	aclrtStream s3;
	aclmdlRI waiter = NULL, recorder = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s3));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s1, 0));
	ASSERT_EQ(0, copy_out(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &waiter));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s3,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(self->n, s3));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(s3, &recorder));
	/* Capturing ran nothing: the word is still clear. */
	ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(self->n, self->s2, 50));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s2));

	for (int k = 0; k < 2; k++) {
		memset(self->host, 0, BYTES);
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(waiter, self->s1));
		EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
		usleep(100 * 1000);
		EXPECT_EQ(0, self->host[0]);
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(recorder, s3));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
		EXPECT_EQ(7, self->host[0]);
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s3));
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(waiter));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(recorder));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s3));
}

TEST_F(nt, count_notify_set_wait_clear)
{
	aclrtCntNotifyRecordInfo rec = { ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 3 };
	aclrtCntNotifyWaitInfo w = { ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, 0, 0, {0} };
	aclrtCntNotify cn;
	uint32_t id = 99;

	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyCreate(&cn, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyGetId(cn, &id));
	EXPECT_LT(id, 1024u);
	/* Waiting for 5: a 3 does not release it, a 5 does. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	ASSERT_EQ(0, copy_out(self, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyRecord(cn, self->s2, &rec));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	usleep(200 * 1000);
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status_of(self->s1));
	EXPECT_EQ(0, self->host[0]);
	rec.value = 5;
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyRecord(cn, self->s2, &rec));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(7, self->host[0]);

	/* BIGGER 5 is not met by 5; BIGGER_OR_EQUAL 5 is, and clears. */
	w = (aclrtCntNotifyWaitInfo){ ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 5, 50, 0, {0} };
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(self->s1));
	w = (aclrtCntNotifyWaitInfo){ ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 5, 2000, 1, {0} };
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	w = (aclrtCntNotifyWaitInfo){ ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 2000, 0, {0} };
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	/* Reset in stream order. */
	rec.value = 9;
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyRecord(cn, self->s1, &rec));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyReset(cn, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtCntNotifyDestroy(cn));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyDestroy(cn));
}

TEST_F(nt, count_notify_bad_and_unsupported_modes)
{
	aclrtCntNotifyRecordInfo rec = { ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1 };
	aclrtCntNotifyWaitInfo w = { ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1, 0, 0, {0} };
	aclrtCntNotify cn;
	uint32_t id;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyCreate(NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyCreate(&cn, 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyCreate(&cn, 0));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtCntNotifyRecord(cn, self->s1, &rec));
	rec.mode = ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtCntNotifyRecord(cn, self->s1, &rec));
	rec.mode = ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtCntNotifyRecord(cn, self->s1, &rec));
	rec.mode = (aclrtCntNotifyRecordMode)3;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord(cn, self->s1, &rec));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord(cn, self->s1, NULL));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	w.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	w.mode = (aclrtCntNotifyWaitMode)9;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	w.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE;
	w.isClear = 2;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(cn, self->s1, &w));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(cn, self->s1, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyGetId(cn, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyGetId(self->n, &id));
	/* Nothing was queued by the rejected calls. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtCntNotifyDestroy(cn));
}

TEST(notify_before_init)
{
	aclrtNotify n;
	aclrtCntNotify cn;

	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtCreateNotify(&n, 0));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtCntNotifyCreate(&cn, 0));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtRecordNotify((aclrtNotify)&n, NULL));
}

TEST_HARNESS_MAIN
