// SPDX-License-Identifier: MIT
/*
 * One stream check for every call that takes an aclrtStream: a destroyed
 * stream, a pointer that never was a stream, a live stream of another
 * context and a thread without a context each give one code, the same
 * from every call, and change nothing; NULL is the default stream where
 * CANN allows it and ACL_ERROR_INVALID_PARAM where it does not. The
 * aclnn launch, in its own status domain, says ACLNN_ERR_RUNTIME_ERROR.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define BUF 256

FIXTURE(args) {
	void *d, *d2;		/* device buffers, BUF bytes of 0x11 */
	aclrtEvent ev;
	aclmdlRI ri;		/* a graph being built: live, no streams */
	aclOpExecutor *ex;	/* an aclnnAdd over d, d, d2 */
	aclTensor *t, *t2;
	aclScalar *alpha;
};

static void never_called(void *arg)
{
	(void)arg;
	abort();
}

FIXTURE_SETUP(args)
{
	int64_t shape[1] = { BUF / 4 };
	uint64_t ws = 0;
	float one = 1.0f;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->d, BUF, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->d2, BUF, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->d, BUF, 0x11, BUF));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->d2, BUF, 0x11, BUF));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&self->ri, 0));
	self->t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
				  shape, 1, self->d);
	self->t2 = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
				   shape, 1, self->d2);
	self->alpha = aclCreateScalar(&one, ACL_FLOAT);
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(self->t, self->t, self->alpha,
					      self->t2, &ws, &self->ex));
	ASSERT_EQ(0, ws);
	/* A failed launch must not free it: the tests launch it again. */
	ASSERT_EQ(0, aclSetAclOpExecutorRepeatable(self->ex));
}

FIXTURE_TEARDOWN(args)
{
	aclDestroyAclOpExecutor(self->ex);
	aclDestroyTensor(self->t);
	aclDestroyTensor(self->t2);
	aclDestroyScalar(self->alpha);
	aclmdlRIDestroy(self->ri);
	aclrtDestroyEvent(self->ev);
	aclrtFree(self->d);
	aclrtFree(self->d2);
	aclrtResetDevice(0);
	aclFinalize();
}

/* Every aclError call of the runtime that takes a stream, by number. */
static const char *const call_names[] = {
	"aclrtMemcpyAsync", "aclrtMemsetAsync", "aclrtMemcpy2dAsync",
	"aclrtRecordEvent", "aclrtResetEvent", "aclrtStreamWaitEvent",
	"aclrtSynchronizeStream", "aclrtSynchronizeStreamWithTimeout",
	"aclrtStreamQuery", "aclrtSetStreamFailureMode",
	"aclrtDestroyStream", "aclrtDestroyStreamForce",
	"aclrtSubscribeReport", "aclrtUnSubscribeReport",
	"aclrtLaunchCallback", "aclrtLaunchHostFunc",
	"aclrtValueWrite", "aclrtValueWait",
	"aclmdlRICaptureBegin", "aclmdlRICaptureGetInfo", "aclmdlRICaptureEnd",
	"aclmdlRIExecuteAsync", "aclmdlRIBindStream", "aclmdlRIEndTask",
	"aclmdlRIUnbindStream",
};
#define NCALLS (int)(sizeof(call_names) / sizeof(call_names[0]))

static aclError call(FIXTURE_DATA(args) *f, int i, aclrtStream s)
{
	uint64_t tid = (uint64_t)pthread_self();
	aclmdlRICaptureStatus cs;
	aclrtStreamStatus st;
	aclmdlRI ri = NULL;

	switch (i) {
	case 0: return aclrtMemcpyAsync(f->d2, BUF, f->d, BUF,
					ACL_MEMCPY_DEVICE_TO_DEVICE, s);
	case 1: return aclrtMemsetAsync(f->d, BUF, 0x22, BUF, s);
	case 2: return aclrtMemcpy2dAsync(f->d2, 64, f->d, 64, 64, 2,
					  ACL_MEMCPY_DEVICE_TO_DEVICE, s);
	case 3: return aclrtRecordEvent(f->ev, s);
	case 4: return aclrtResetEvent(f->ev, s);
	case 5: return aclrtStreamWaitEvent(s, f->ev);
	case 6: return aclrtSynchronizeStream(s);
	case 7: return aclrtSynchronizeStreamWithTimeout(s, 100);
	case 8: return aclrtStreamQuery(s, &st);
	case 9: return aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE);
	case 10: return aclrtDestroyStream(s);
	case 11: return aclrtDestroyStreamForce(s);
	case 12: return aclrtSubscribeReport(tid, s);
	case 13: return aclrtUnSubscribeReport(tid, s);
	case 14: return aclrtLaunchCallback(never_called, NULL,
					    ACL_CALLBACK_NO_BLOCK, s);
	case 15: return aclrtLaunchHostFunc(s, never_called, NULL);
	case 16: return aclrtValueWrite(f->d, 7, 0, s);
	case 17: return aclrtValueWait(f->d, 7, ACL_STREAM_WAIT_VALUE_GEQ, s);
	case 18: return aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	case 19: return aclmdlRICaptureGetInfo(s, &cs, &ri);
	case 20: return aclmdlRICaptureEnd(s, &ri);
	case 21: return aclmdlRIExecuteAsync(f->ri, s);
	case 22: return aclmdlRIBindStream(f->ri, s, ACL_MODEL_STREAM_FLAG_HEAD);
	case 23: return aclmdlRIEndTask(f->ri, s);
	case 24: return aclmdlRIUnbindStream(f->ri, s);
	}
	return ACL_ERROR_INTERNAL_ERROR;
}

/* Nothing reached the device: both buffers still hold 0x11. */
static int untouched(FIXTURE_DATA(args) *f)
{
	uint8_t a[BUF], b[BUF];

	if (aclrtSynchronizeDevice() ||
	    aclrtMemcpy(a, BUF, f->d, BUF, ACL_MEMCPY_DEVICE_TO_HOST) ||
	    aclrtMemcpy(b, BUF, f->d2, BUF, ACL_MEMCPY_DEVICE_TO_HOST))
		return 0;
	for (int i = 0; i < BUF; i++)
		if (a[i] != 0x11 || b[i] != 0x11)
			return 0;
	return 1;
}

static void expect_all(struct __test_metadata *_metadata,
		       FIXTURE_DATA(args) *f, aclrtStream s, aclError want,
		       aclnnStatus nn_want)
{
	for (int i = 0; i < NCALLS; i++) {
		aclError got = call(f, i, s);

		EXPECT_EQ(want, got) TH_LOG("%s returned %d", call_names[i], got);
	}
	EXPECT_EQ(nn_want, aclnnAdd(NULL, 0, f->ex, s));
}

TEST_F(args, destroyed_stream_same_code_everywhere)
{
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	expect_all(_metadata, self, s, ACL_ERROR_RT_PARAM_INVALID,
		   ACLNN_ERR_RUNTIME_ERROR);
	EXPECT_TRUE(untouched(self));
	/* The message names the handle. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemsetAsync(self->d, BUF, 0, BUF, s));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "not a live stream"));
}

TEST_F(args, garbage_handle_same_code_everywhere)
{
	uint64_t junk[64];

	memset(junk, 0x5a, sizeof(junk));
	expect_all(_metadata, self, (aclrtStream)junk, ACL_ERROR_RT_PARAM_INVALID,
		   ACLNN_ERR_RUNTIME_ERROR);
	EXPECT_TRUE(untouched(self));
}

/* A live stream of another context: ACL_ERROR_RT_STREAM_CONTEXT, kept alive. */
TEST_F(args, other_contexts_stream_same_code_everywhere)
{
	aclrtContext def, other;
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&def));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&other, 0));
	expect_all(_metadata, self, s, ACL_ERROR_RT_STREAM_CONTEXT,
		   ACLNN_ERR_RUNTIME_ERROR);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(def));
	EXPECT_TRUE(untouched(self));
	/* The destroy calls above left it alone. */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyContext(other));
}

struct no_ctx {
	FIXTURE_DATA(args) *f;
	aclError got[NCALLS];
};

static void *calls_without_context(void *arg)
{
	struct no_ctx *n = arg;

	for (int i = 0; i < NCALLS; i++)
		n->got[i] = call(n->f, i, NULL);
	return NULL;
}

/* A thread with no current context: ACL_ERROR_RT_CONTEXT_NULL from all. */
TEST_F(args, no_context_same_code_everywhere)
{
	struct no_ctx n = { .f = self };
	pthread_t t;

	ASSERT_EQ(0, pthread_create(&t, NULL, calls_without_context, &n));
	ASSERT_EQ(0, pthread_join(t, NULL));
	for (int i = 0; i < NCALLS; i++) {
		/* Those that never take NULL say so before looking further. */
		aclError want = i == 10 || i == 11 || i == 19 || i >= 22 ?
				ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_CONTEXT_NULL;

		EXPECT_EQ(want, n.got[i]) TH_LOG("%s returned %d", call_names[i],
						 n.got[i]);
	}
	EXPECT_TRUE(untouched(self));
}

/* NULL where CANN does not allow the default stream. */
TEST_F(args, null_where_not_allowed)
{
	aclmdlRICaptureStatus cs;
	aclmdlRI ri = NULL;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamForce(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureGetInfo(NULL, &cs, &ri));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlRIBindStream(self->ri, NULL, ACL_MODEL_STREAM_FLAG_HEAD));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIEndTask(self->ri, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIUnbindStream(self->ri, NULL));
	/* The default stream is still there and works. */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_TRUE(untouched(self));
}

/* NULL where it is allowed: the default stream, with the work done. */
TEST_F(args, null_is_the_default_stream)
{
	uint8_t out[BUF];

	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->d, BUF, 0x33, BUF, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->d2, BUF, self->d, BUF,
						ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, BUF, self->d2, BUF,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x33, out[0]);
	EXPECT_EQ(0x33, out[BUF - 1]);
}

TEST_HARNESS_MAIN
