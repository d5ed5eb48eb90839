// SPDX-License-Identifier: MIT
/*
 * ACL graph tests on the real driver: capture (single stream, fork/join
 * across streams, 10 000 tasks, aclnn executors), replay 1, 2 and 100
 * times, replay on another stream, destroy with replays in flight, the
 * manual build flow, the capture modes and every illegal call with its
 * documented code, DebugJsonPrint, names, value write/wait.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"

#define N 1024
#define BYTES (N * sizeof(float))

FIXTURE(g) {
	aclrtStream s1, s2, s3;
	void *d[8];
	aclTensor *t[8];
	float *pinned;
	aclrtEvent e1, e2, e3;
};

static void fill_dev(void *d, float v)
{
	static float h[N];

	for (int i = 0; i < N; i++)
		h[i] = v;
	aclrtMemcpy(d, BYTES, h, BYTES, ACL_MEMCPY_HOST_TO_DEVICE);
}

/* Every element of device buffer d equals want? */
static int dev_is(void *d, float want)
{
	static float h[N];

	if (aclrtMemcpy(h, BYTES, d, BYTES, ACL_MEMCPY_DEVICE_TO_HOST))
		return 0;
	for (int i = 0; i < N; i++)
		if (h[i] != want) {
			fprintf(stderr, "element %d is %f, want %f\n", i, h[i], want);
			return 0;
		}
	return 1;
}

FIXTURE_SETUP(g)
{
	int64_t dims[1] = { N };

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s3));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&self->e1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&self->e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&self->e3));
	for (int i = 0; i < 8; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->d[i], BYTES,
						   ACL_MEM_MALLOC_HUGE_FIRST));
		fill_dev(self->d[i], 0);
		self->t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0,
					     ACL_FORMAT_ND, dims, 1, self->d[i]);
		ASSERT_NE(NULL, self->t[i]);
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&self->pinned, BYTES));
}

FIXTURE_TEARDOWN(g)
{
	for (int i = 0; i < 8; i++) {
		aclDestroyTensor(self->t[i]);
		aclrtFree(self->d[i]);
	}
	aclrtFreeHost(self->pinned);
	aclrtDestroyEvent(self->e1);
	aclrtDestroyEvent(self->e2);
	aclrtDestroyEvent(self->e3);
	aclrtDestroyStream(self->s1);
	aclrtDestroyStream(self->s2);
	aclrtDestroyStream(self->s3);
	aclrtResetDevice(0);
	aclFinalize();
}

/* out = a + alpha * b on stream s (both phases). */
static int add(aclTensor *a, aclTensor *b, float alpha, aclTensor *out,
	       aclrtStream s)
{
	aclScalar *al = aclCreateScalar(&alpha, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	void *ws = NULL;
	uint64_t wsz = 0;
	int ret;

	ret = aclnnAddGetWorkspaceSize(a, b, al, out, &wsz, &ex);
	if (!ret && wsz)
		ret = aclrtMalloc(&ws, wsz, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!ret)
		ret = aclnnAdd(ws, wsz, ex, s);
	aclDestroyScalar(al);
	return ret;
}

/*
 * The classic example: H2D of pinned memory, aclnnAdd, D2H back into the
 * same pinned memory. Every replay adds alpha * other.
 */
TEST_F(g, single_stream_replays_grow_by_alpha)
{
	aclmdlRICaptureStatus st;
	aclmdlRI ri = NULL, info = NULL;
	int k;

	for (int i = 0; i < N; i++)
		self->pinned[i] = (float)i;
	fill_dev(self->d[1], 1.0f);		/* other */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(self->s1, &st, &info));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, st);
	EXPECT_NE(NULL, info);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[0], BYTES, self->pinned,
						BYTES, ACL_MEMCPY_HOST_TO_DEVICE,
						self->s1));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 2.0f, self->t[2], self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->pinned, BYTES, self->d[2],
						BYTES, ACL_MEMCPY_DEVICE_TO_HOST,
						self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(info, ri);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(self->s1, &st, NULL));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, st);
	/* Nothing ran during the capture. */
	EXPECT_EQ(5.0f, self->pinned[5]);
	EXPECT_TRUE(dev_is(self->d[2], 0.0f));

	for (k = 1; k <= 100; k++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
		if (k == 1 || k == 2 || k == 100)
			for (int i = 0; i < N; i += 97)
				ASSERT_EQ((float)i + 2.0f * k, self->pinned[i]);
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroy(NULL));
}

/* Replays on another stream are ordered with that stream's own work. */
TEST_F(g, replay_on_another_stream_is_ordered)
{
	aclmdlRI ri;

	fill_dev(self->d[1], 1.0f);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	for (int k = 0; k < 10; k++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s2));
		/* Eager work after the replay on the same stream sees it. */
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[3], BYTES,
							self->d[0], BYTES,
							ACL_MEMCPY_DEVICE_TO_DEVICE,
							self->s2));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	EXPECT_TRUE(dev_is(self->d[0], 10.0f));
	EXPECT_TRUE(dev_is(self->d[3], 10.0f));
	/* And on the default stream. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_TRUE(dev_is(self->d[0], 11.0f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/*
 * Fork/join over three streams: acc += 1 on s1; s2 computes b = 2 * acc
 * and s3 c = acc + 10 concurrently; s1 joins both and writes out = b + c.
 * After k replays: acc = k and out = 3k + 10.
 */
TEST_F(g, fork_join_three_streams)
{
	aclrtStream streams[4];
	uint32_t n = 4;
	aclmdlRI ri;

	fill_dev(self->d[1], 1.0f);		/* one */
	fill_dev(self->d[4], 10.0f);		/* ten */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->e1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s3, self->e1));
	ASSERT_EQ(0, add(self->t[0], self->t[0], 1.0f, self->t[2], self->s2));
	ASSERT_EQ(0, add(self->t[0], self->t[4], 1.0f, self->t[3], self->s3));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e2, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e3, self->s3));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s1, self->e2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s1, self->e3));
	ASSERT_EQ(0, add(self->t[2], self->t[3], 1.0f, self->t[5], self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(ri, streams, &n));
	EXPECT_EQ(3, n);
	EXPECT_EQ(self->s1, streams[0]);

	for (int k = 1; k <= 100; k++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
		if (k == 1 || k == 2 || k == 100) {
			ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
			ASSERT_TRUE(dev_is(self->d[0], (float)k));
			ASSERT_TRUE(dev_is(self->d[5], 3.0f * k + 10.0f));
		}
	}
	/* The joined streams are ordinary streams again. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[6], BYTES, self->d[5],
						BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE,
						self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	EXPECT_TRUE(dev_is(self->d[6], 310.0f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(g, ten_thousand_tasks)
{
	aclmdlRI ri;

	fill_dev(self->d[1], 1.0f);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	for (int i = 0; i < 10000; i++)
		ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0],
				 self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_TRUE(dev_is(self->d[0], 0.0f));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_TRUE(dev_is(self->d[0], 20000.0f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* A repeatable executor captured twice, then reused eagerly. */
TEST_F(g, repeatable_executor_captured)
{
	float alpha = 1.0f;
	aclScalar *al = aclCreateScalar(&alpha, ACL_FLOAT);
	aclOpExecutor *ex;
	uint64_t wsz;
	aclmdlRI ri;

	fill_dev(self->d[1], 3.0f);
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(self->t[0], self->t[1], al,
					      self->t[0], &wsz, &ex));
	ASSERT_EQ(0, wsz);
	ASSERT_EQ(0, aclSetAclOpExecutorRepeatable(ex));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, aclnnAdd(NULL, 0, ex, self->s1));
	ASSERT_EQ(0, aclnnAdd(NULL, 0, ex, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_TRUE(dev_is(self->d[0], 6.0f));
	ASSERT_EQ(0, aclnnAdd(NULL, 0, ex, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_TRUE(dev_is(self->d[0], 9.0f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	aclDestroyAclOpExecutor(ex);
	aclDestroyScalar(al);
}

/* Destroying a graph does not cancel replays already queued. */
TEST_F(g, destroy_with_replays_in_flight)
{
	aclmdlRI ri;

	fill_dev(self->d[1], 1.0f);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->e1));
	ASSERT_EQ(0, add(self->t[2], self->t[1], 1.0f, self->t[2], self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e2, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s1, self->e2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	for (int k = 0; k < 20; k++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_TRUE(dev_is(self->d[0], 20.0f));
	EXPECT_TRUE(dev_is(self->d[2], 20.0f));
}

TEST_F(g, memset_value_write_and_wait_captured)
{
	uint64_t *flag = (uint64_t *)self->d[7];
	uint64_t v = 0;
	aclmdlRI ri;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->d[3], BYTES, 0, BYTES,
						self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWrite(flag, 42, 0, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(flag, 42, ACL_STREAM_WAIT_VALUE_EQ,
					      self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	fill_dev(self->d[3], 5.0f);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_TRUE(dev_is(self->d[3], 0.0f));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&v, 8, flag, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(42, v);
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));

	/*
	 * Eager: s2 waits until s1 writes (no synchronous call in between:
	 * it would wait for s2 too).
	 */
	fill_dev(self->d[5], 7.0f);
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(flag, 43, ACL_STREAM_WAIT_VALUE_GEQ,
					      self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[4], BYTES, self->d[3],
						BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE,
						self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[3], BYTES, self->d[5],
						BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE,
						self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWrite(flag, 43, 0, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	EXPECT_TRUE(dev_is(self->d[4], 7.0f));
	/* Bad arguments. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(NULL, 1, 0, self->s1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(flag, 1, 1, self->s1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtValueWrite((char *)flag + 4, 1, 0, self->s1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtValueWait(flag, 1, 9, self->s1));
}

/* Illegal calls on the capturing stream, then the stream still works. */
TEST_F(g, capturing_stream_rules)
{
	aclrtStreamStatus ss;
	aclmdlRICaptureStatus st;
	aclmdlRI ri = NULL;

	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
		  aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlRICaptureBegin(self->s1, (aclmdlRICaptureMode)3));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(self->s1, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED,
		  aclmdlRICaptureBegin(self->s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtDestroyStream(self->s1));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeDevice());
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureEnd(self->s1, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureGetInfo(self->s1, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureGetInfo(NULL, &st, NULL));
	/* Synchronizing the capturing stream fails and invalidates it. */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStream(self->s1));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED,
		  aclrtSynchronizeStreamWithTimeout(self->s1, 100));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtStreamQuery(self->s1, &ss));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(self->s1, &st, NULL));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, st);
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		  aclmdlRICaptureEnd(self->s1, &ri));
	/* The stream runs eager work again. */
	fill_dev(self->d[1], 4.0f);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[0], BYTES, self->d[1],
						BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE,
						self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s1));
	EXPECT_TRUE(dev_is(self->d[0], 4.0f));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s1));
}

TEST_F(g, pageable_copies)
{
	static float host[N];
	aclmdlRI ri;

	/* On the capturing stream: refused and the capture is invalid. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemcpyAsync(self->d[0], BYTES, host, BYTES,
				   ACL_MEMCPY_HOST_TO_DEVICE, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		  aclmdlRICaptureEnd(self->s1, &ri));
	/* On another stream under a GLOBAL capture: would block. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
		  aclrtMemcpyAsync(self->d[0], BYTES, host, BYTES,
				   ACL_MEMCPY_HOST_TO_DEVICE, self->s2));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
		  aclrtMemsetAsync(host, BYTES, 0, BYTES, self->s2));
	/* Pinned memory is fine. */
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d[0], BYTES, self->pinned,
						BYTES, ACL_MEMCPY_HOST_TO_DEVICE,
						self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

struct thread_call {
	void *dst, *src;
	int mode;		/* -1: keep the thread's default */
	aclrtContext ctx;
	aclrtStream s;
	aclError ret;
};

static void *sync_copy_thread(void *arg)
{
	struct thread_call *c = arg;
	aclmdlRICaptureMode m = (aclmdlRICaptureMode)c->mode;

	aclrtSetCurrentContext(c->ctx);
	if (c->mode >= 0)
		aclmdlRICaptureThreadExchangeMode(&m);
	c->ret = aclrtMemcpy(c->dst, BYTES, c->src, BYTES,
			     ACL_MEMCPY_DEVICE_TO_DEVICE);
	return NULL;
}

static aclError copy_in_thread(FIXTURE_DATA(g) *f, int mode)
{
	struct thread_call c = { .dst = f->d[5], .src = f->d[6], .mode = mode };
	pthread_t th;

	aclrtGetCurrentContext(&c.ctx);
	pthread_create(&th, NULL, sync_copy_thread, &c);
	pthread_join(th, NULL);
	return c.ret;
}

TEST_F(g, capture_modes)
{
	aclmdlRICaptureMode m;
	aclmdlRI ri;

	/* GLOBAL: every thread in GLOBAL mode is stopped. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		  aclrtMemcpy(self->d[5], BYTES, self->d[6], BYTES,
			      ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		  aclrtMemset(self->d[5], BYTES, 0, BYTES));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		  aclrtMemcpy2d(self->d[5], 64, self->d[6], 64, 64, 2,
				ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, copy_in_thread(self, -1));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		  copy_in_thread(self, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_SUCCESS, copy_in_thread(self, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	EXPECT_EQ(ACL_SUCCESS, copy_in_thread(self, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	/* The capturing thread switches to RELAXED for one call and back. */
	m = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureThreadExchangeMode(&m));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, m);
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[5], BYTES, self->d[6], BYTES,
					   ACL_MEMCPY_DEVICE_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureThreadExchangeMode(&m));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, m);
	m = (aclmdlRICaptureMode)7;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(&m));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[5], BYTES, self->d[6], BYTES,
					   ACL_MEMCPY_DEVICE_TO_DEVICE));

	/* THREAD_LOCAL: only the capturing thread is stopped. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		  aclrtMemcpy(self->d[5], BYTES, self->d[6], BYTES,
			      ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(ACL_SUCCESS, copy_in_thread(self, -1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));

	/* RELAXED: nobody is stopped. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[5], BYTES, self->d[6], BYTES,
					   ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(ACL_SUCCESS, copy_in_thread(self, -1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

static void *end_thread(void *arg)
{
	struct thread_call *c = arg;
	aclmdlRI ri;

	aclrtSetCurrentContext(c->ctx);
	c->ret = aclmdlRICaptureEnd(c->s, &ri);
	if (!c->ret)
		aclmdlRIDestroy(ri);
	return NULL;
}

static aclError end_in_thread(aclrtStream s)
{
	struct thread_call c = { .s = s };
	pthread_t th;

	aclrtGetCurrentContext(&c.ctx);
	pthread_create(&th, NULL, end_thread, &c);
	pthread_join(th, NULL);
	return c.ret;
}

TEST_F(g, end_thread_and_stream_rules)
{
	aclmdlRI ri;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, end_in_thread(self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->e1));
	/* Only the origin stream ends the capture. */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
		  aclmdlRICaptureEnd(self->s2, &ri));
	/* A capturing stream cannot replay a graph. */
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e2, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s1, self->e2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s3,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRIExecuteAsync(ri, self->s3));
	/* RELAXED captures may end on another thread. */
	EXPECT_EQ(ACL_SUCCESS, end_in_thread(self->s3));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(g, join_rules_and_captured_events)
{
	aclrtEventRecordedStatus rs;
	aclrtEventStatus es;
	aclrtStream def;
	aclmdlRI ri;
	float ms;

	/* s2 is pulled in and never joins back. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtSynchronizeEvent(self->e1));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED,
		  aclrtSynchronizeEventWithTimeout(self->e1, 100));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtQueryEvent(self->e1, &es));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtQueryEventStatus(self->e1, &rs));
	EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED,
		  aclrtEventElapsedTime(&ms, self->e1, self->e1));
	/* Capture events and the default stream do not mix. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetCurrentDefaultStream(&def));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
		  aclrtStreamWaitEvent(def, self->e1));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
		  aclrtRecordEvent(self->e1, def));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->e1));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], self->s2));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_UNJOINED, aclmdlRICaptureEnd(self->s1, &ri));
	/* s2 is free again and did not run the captured add. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s2));
	EXPECT_TRUE(dev_is(self->d[0], 0.0f));

	/* Work after joining back also leaves the stream unjoined. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->e1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e2, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s1, self->e2));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], self->s2));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_UNJOINED, aclmdlRICaptureEnd(self->s1, &ri));

	/* A wait for work recorded outside the capture. */
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e3, self->s3));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
		  aclrtStreamWaitEvent(self->s1, self->e3));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		  aclmdlRICaptureEnd(self->s1, &ri));

	/* Two captures cannot share a stream. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s2,
						    ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	EXPECT_EQ(ACL_ERROR_STREAM_CAPTURE_CONFLICT,
		  aclrtStreamWaitEvent(self->s2, self->e1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s2, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	/* After the capture the event is an ordinary one again. */
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(self->e1));
}

TEST_F(g, build_flow)
{
	aclrtStream head, side, plain;
	aclmdlRI ri, cap;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&head, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&side, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&plain));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(&ri, 1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&ri, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclmdlRIBindStream(ri, plain, ACL_MODEL_STREAM_FLAG_HEAD));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlRIBindStream(ri, NULL, ACL_MODEL_STREAM_FLAG_HEAD));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, head, 5));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED,
		  aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_DEFAULT));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclmdlRIBindStream(ri, side, ACL_MODEL_STREAM_FLAG_HEAD));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, side, ACL_MODEL_STREAM_FLAG_DEFAULT));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL, aclmdlRIEndTask(ri, plain));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIEndTask(ri, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIUnbindStream(ri, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(NULL, head, ACL_MODEL_STREAM_FLAG_HEAD));

	fill_dev(self->d[1], 1.0f);
	/* head: acc += 1; side: b += acc; head waits for side. */
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], head));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, head));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(side, self->e1));
	ASSERT_EQ(0, add(self->t[2], self->t[0], 1.0f, self->t[2], side));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e2, side));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(head, self->e2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIEndTask(ri, side));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIEndTask(ri, head));
	EXPECT_NE(ACL_SUCCESS, add(self->t[0], self->t[1], 1.0f, self->t[0], head));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildEnd(ri, (void *)1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildEnd(ri, NULL));
	EXPECT_TRUE(dev_is(self->d[0], 0.0f));

	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(ri, 0));
	for (int k = 1; k <= 3; k++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecute(ri, 10000));
	EXPECT_TRUE(dev_is(self->d[0], 3.0f));
	EXPECT_TRUE(dev_is(self->d[2], 6.0f));	/* 1 + 2 + 3 */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, plain));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(plain));
	EXPECT_TRUE(dev_is(self->d[2], 10.0f));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtDestroyStream(side));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL, aclmdlRIUnbindStream(ri, plain));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(ri, side));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(ri, head));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(side));

	/* aclmdlRIExecute only runs built graphs. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(plain, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(plain, &cap));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(cap, -1));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(cap));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(head));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(plain));
}

/*
 * Lock order (rt_objects.h): a replay takes the stream's lock, then the
 * graph's, as capture and binding do. Replays on a bound stream race
 * copies, unbinds and binds on that stream from other threads; any
 * inversion deadlocks within a few hundred rounds (the harness times out).
 */
struct race_arg {
	aclmdlRI ri;
	aclrtStream head, side;
	void *dev, *host;
	int rounds, fails;
};

static void *replay_thread(void *p)
{
	struct race_arg *a = p;

	for (int i = 0; i < a->rounds; i++)
		if (aclmdlRIExecute(a->ri, 60000) != ACL_SUCCESS)
			a->fails++;
	return NULL;
}

static void *copy_thread(void *p)
{
	struct race_arg *a = p;

	/* Refused (the stream is bound) but takes the stream's lock. */
	for (int i = 0; i < a->rounds; i++)
		aclrtMemcpyAsync(a->dev, 64, a->host, 64,
				 ACL_MEMCPY_HOST_TO_DEVICE, a->head);
	return NULL;
}

static void *bind_thread(void *p)
{
	struct race_arg *a = p;

	/* Replays fail while the head is away; only the locks matter here. */
	for (int i = 0; i < a->rounds; i++) {
		aclmdlRIUnbindStream(a->ri, a->head);
		aclmdlRIBindStream(a->ri, a->head, ACL_MODEL_STREAM_FLAG_HEAD);
	}
	return NULL;
}

TEST_F_TIMEOUT(g, replays_race_stream_calls_without_deadlock, 300)
{
	struct race_arg a = { .rounds = 500, .dev = self->d[5], .host = self->pinned };
	pthread_t t[3];

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&a.head, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&a.side, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&a.ri, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(a.ri, a.head, ACL_MODEL_STREAM_FLAG_HEAD));
	fill_dev(self->d[1], 1.0f);
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], a.head));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIEndTask(a.ri, a.head));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildEnd(a.ri, NULL));

	/* Replays against unbinding and rebinding that stream. */
	ASSERT_EQ(0, pthread_create(&t[0], NULL, replay_thread, &a));
	ASSERT_EQ(0, pthread_create(&t[2], NULL, bind_thread, &a));
	pthread_join(t[0], NULL);
	pthread_join(t[2], NULL);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(a.head));
	/* Replays ran whenever the head was bound. */
	EXPECT_LT(a.fails, a.rounds);
	/* Whatever state the race left, the head ends up bound again. */
	aclmdlRIBindStream(a.ri, a.head, ACL_MODEL_STREAM_FLAG_HEAD);

	/*
	 * Replays against copies on the same stream. A copy on a bound stream
	 * is refused and spoils the graph, so replays fail from then on; the
	 * point is that both sides take the two locks in the same order.
	 */
	ASSERT_EQ(0, pthread_create(&t[0], NULL, replay_thread, &a));
	ASSERT_EQ(0, pthread_create(&t[1], NULL, copy_thread, &a));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(a.head));
	aclmdlRIUnbindStream(a.ri, a.head);
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(a.ri));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(a.side));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(a.head));
}

/* Count occurrences of needle in the file at path. */
static int count_in_file(const char *path, const char *needle)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n;
	int count = 0;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *p = buf; (p = strstr(p, needle)); p++)
		count++;
	return count;
}

TEST_F(g, json_names_and_ids)
{
	const char *path = "/tmp/vnpu_graph_test.json";
	aclrtStream two[2], one[1];
	char name[64], longname[200];
	uint32_t n = 1;
	uint32_t id1, id2;
	aclmdlRI ri, ri2;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s1,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, add(self->t[0], self->t[1], 1.0f, self->t[0], self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e1, self->s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s2, self->e1));
	ASSERT_EQ(0, add(self->t[2], self->t[1], 1.0f, self->t[2], self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->e2, self->s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s1, self->e2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s1, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRISetName(ri, "add \"pair\""));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetName(ri, sizeof(name), name));
	EXPECT_STREQ("add \"pair\"", name);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(ri, 4, name));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(ri, sizeof(name), NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRISetName(ri, NULL));
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRISetName(ri, longname));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetName(ri, sizeof(name), name));
	EXPECT_STREQ("add \"pair\"", name);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetStreams(ri, one, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetStreams(ri, one, &n));
	n = 0;
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(ri, NULL, &n));
	EXPECT_EQ(2, n);
	n = 2;
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(ri, two, &n));
	EXPECT_EQ(self->s2, two[1]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(NULL, self->s1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecuteAsync((aclmdlRI)self->d[0], self->s1));

	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDebugJsonPrint(ri, path,
						      ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
	EXPECT_EQ(1, count_in_file(path, "\"traceEvents\""));
	/* Two adds and two event records. */
	EXPECT_EQ(4, count_in_file(path, "\"ph\":\"X\""));
	EXPECT_EQ(2, count_in_file(path, "\"ph\":\"s\""));
	EXPECT_EQ(2, count_in_file(path, "\"name\":\"thread_name\""));
	EXPECT_EQ(2, count_in_file(path, "add \\\"pair\\\""));
	EXPECT_EQ(0, count_in_file(path, "\"tensors\""));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDebugJsonPrint(ri, path,
						      ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
	EXPECT_EQ(2, count_in_file(path, "\"tensors\""));
	/* The file is JSON a parser accepts, with the trace viewer's keys. */
	if (!access("/usr/bin/python3", X_OK))
		EXPECT_EQ(0, system("python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); "
				    "assert len(d[\"traceEvents\"]) == 11 and d[\"otherData\"][\"tasks\"] == 4' "
				    "/tmp/vnpu_graph_test.json"));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(ri, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(NULL, path, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(ri, path, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlRIDebugJsonPrint(ri, "/nonexistent/dir/x.json", 0));
	remove(path);

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s3,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s3, &ri2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetId(ri, &id1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetId(ri2, &id2));
	EXPECT_NE(id1, id2);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(ri, NULL));
	/* Nothing pending (graphs.md, Task groups and updates). */
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUpdate(ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri2));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIGetId(ri2, &id2));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIUpdate(ri2));
}

/* Resetting the device takes its graphs with it. */
TEST(graphs_go_with_their_device)
{
	aclrtStream s;
	aclmdlRI ri;
	uint32_t id;
	void *d;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	/* Device memory goes with the device too. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d, 64, 0, 64, s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(s, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetId(ri, &id));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIGetId(ri, &id));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(ri));

	/* A capture still going on is abandoned, and the mode's ban lifted. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtMemset(d, 64, 0, 64));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemset(d, 64, 0, 64));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

/*
 * A captured graph outlives the streams it was captured from: destroying
 * one drops it from the graph's streams (the graph kept a freed pointer
 * before, which aclmdlRIGetStreams handed out and a device reset locked),
 * and the graph still replays on another stream.
 */
TEST(captured_graph_outlives_its_streams)
{
	aclrtStream s1, s2, run, got[2];
	aclrtEvent fork, join;
	unsigned char host[128];
	uint32_t n = 2;
	aclmdlRI ri;
	void *d;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&run));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&fork));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&join));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 128, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d, 64, 0x11, 64, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(fork, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(s2, fork));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync((char *)d + 64, 64, 0x22, 64, s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(join, s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(s1, join));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(s1, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(ri, got, &n));
	ASSERT_EQ(2, n);
	EXPECT_EQ(s1, got[0]);
	EXPECT_EQ(s2, got[1]);

	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s2));
	n = 2;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(ri, got, &n));
	ASSERT_EQ(1, n);
	EXPECT_EQ(s1, got[0]);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s1));
	n = 2;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIGetStreams(ri, got, &n));
	EXPECT_EQ(0, n);

	/* Both branches still run, on the replay stream and the graph's own queue. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, run));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(run));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(host, 128, d, 128, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x11, host[0]);
	EXPECT_EQ(0x11, host[63]);
	EXPECT_EQ(0x22, host[64]);
	EXPECT_EQ(0x22, host[127]);
	/* The reset destroys the graph with the context. */
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIGetStreams(ri, got, &n));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

struct churn_arg {
	aclrtStream s;
	void *d;
	int rounds, ended, invalidated, bad;
	atomic_int done;
};

/* Captures begin and end on one stream, round after round. */
static void *capture_churn_thread(void *p)
{
	struct churn_arg *a = p;
	aclmdlRI ri;
	aclError e;

	if (aclrtSetDevice(0))
		a->bad++;
	for (int i = 0; i < a->rounds && !a->bad; i++) {
		if (aclmdlRICaptureBegin(a->s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) ||
		    aclrtMemsetAsync(a->d, 64, i, 64, a->s)) {
			a->bad++;
			break;
		}
		e = aclmdlRICaptureEnd(a->s, &ri);
		if (e == ACL_SUCCESS) {
			a->ended++;
			if (aclmdlRIDestroy(ri))
				a->bad++;
		} else if (e == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED) {
			a->invalidated++;	/* a device sync met the capture */
		} else {
			a->bad++;
		}
	}
	aclrtResetDevice(0);
	atomic_store(&a->done, 1);
	return NULL;
}

/*
 * aclrtSynchronizeDevice and aclmdlRICaptureGetInfo read capture state
 * that another thread changes. They used to read a stream's graph and
 * the graph's state under the device's lock, which neither writer holds
 * (ThreadSanitizer reports that); each is read under its own lock now.
 */
TEST(capture_state_read_while_captures_come_and_go)
{
	struct churn_arg a = { .rounds = 100 };
	aclmdlRICaptureStatus st;
	int idle = 0, captured = 0, other = 0;
	pthread_t t;
	aclError e;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a.s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&a.d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(0, pthread_create(&t, NULL, capture_churn_thread, &a));
	while (!atomic_load(&a.done)) {
		e = aclrtSynchronizeDevice();
		if (e == ACL_SUCCESS)
			idle++;
		else if (e == ACL_ERROR_RT_STREAM_CAPTURED)
			captured++;
		else
			other++;
		e = aclmdlRICaptureGetInfo(a.s, &st, NULL);
		if (e != ACL_SUCCESS || (st != ACL_MODEL_RI_CAPTURE_STATUS_NONE &&
					 st != ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE &&
					 st != ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED))
			other++;
	}
	pthread_join(t, NULL);
	EXPECT_EQ(0, a.bad);
	EXPECT_EQ(a.rounds, a.ended + a.invalidated);
	EXPECT_EQ(0, other);
	EXPECT_LT(0, idle + captured);
	/* With every capture over, nothing is captured any more. */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(a.s, &st, NULL));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, st);
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(a.d));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(a.s));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST_HARNESS_MAIN
