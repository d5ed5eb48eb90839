// SPDX-License-Identifier: MIT
/*
 * Task groups and their updates on the real driver: CANN's
 * model_ri/1_model_update sample (a replay blocked on an external event
 * while another stream re-captures the group's aclnnAdd, then records the
 * event), a memset group, and every misuse with its code: groups on a
 * stream that is not capturing, end without begin, nested groups, updates
 * on a capturing stream or outside an update, re-captures that differ in
 * task count or type, a destroyed graph's handle, a graph still being
 * captured, NULL arguments, aclmdlRIUpdate.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"

#define N 8
#define BYTES (N * sizeof(float))

FIXTURE(u) {
	aclrtStream s, us;
	aclrtEvent ev;
	void *d[4];
	aclTensor *t[4];
};

FIXTURE_SETUP(u)
{
	int64_t dims[2] = { 4, 2 };

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->us));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventWithFlag(&self->ev, ACL_EVENT_EXTERNAL));
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->d[i], BYTES,
						   ACL_MEM_MALLOC_HUGE_FIRST));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->d[i], BYTES, 0, BYTES));
		self->t[i] = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0,
					     ACL_FORMAT_ND, dims, 2, self->d[i]);
		ASSERT_NE(NULL, self->t[i]);
	}
}

FIXTURE_TEARDOWN(u)
{
	for (int i = 0; i < 4; i++) {
		aclDestroyTensor(self->t[i]);
		aclrtFree(self->d[i]);
	}
	aclrtDestroyEvent(self->ev);
	aclrtDestroyStream(self->s);
	aclrtDestroyStream(self->us);
	aclrtResetDevice(0);
	aclFinalize();
}

/* out = a + alpha * b on stream s, both aclnn phases. */
static int add(aclTensor *a, aclTensor *b, float alpha, aclTensor *out,
	       aclrtStream s)
{
	aclScalar *al = aclCreateScalar(&alpha, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	uint64_t wsz = 0;
	int ret;

	ret = aclnnAddGetWorkspaceSize(a, b, al, out, &wsz, &ex);
	if (!ret)
		ret = aclnnAdd(NULL, 0, ex, s);
	aclDestroyScalar(al);
	return ret;
}

/* Every element i of device buffer d is base + i (within 1e-4)? */
static int dev_ramp(void *d, float base)
{
	float h[N];

	if (aclrtMemcpy(h, BYTES, d, BYTES, ACL_MEMCPY_DEVICE_TO_HOST))
		return 0;
	for (int i = 0; i < N; i++)
		if (fabsf(h[i] - (base + (float)i)) > 1e-4f) {
			fprintf(stderr, "element %d is %f, want %f\n", i, h[i],
				base + (float)i);
			return 0;
		}
	return 1;
}

/*
 * CANN's sample: out = (self + other * 1.1) + other * 1.1, the second add
 * in a group; loop 2 updates it to alpha 2.2 while its replay waits for
 * the external event, which the update stream records afterwards.
 */
TEST_F(u, cann_model_update_sample)
{
	float selfh[N] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	float otherh[N] = { 2, 2, 2, 2, 2, 2, 2, 2 };
	aclTensor *self_t = self->t[0], *other = self->t[1];
	aclTensor *out = self->t[2], *tmp = self->t[3];
	aclrtTaskGrp grp = NULL;
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[0], BYTES, selfh, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[1], BYTES, otherh, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, add(self_t, other, 1.1f, tmp, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s, self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetEvent(self->ev, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpBegin(self->s));
	ASSERT_EQ(ACL_SUCCESS, add(tmp, other, 1.1f, out, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpEnd(self->s, &grp));
	ASSERT_NE(NULL, grp);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));

	for (int loop = 0; loop < 3; loop++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
		if (loop == 1) {
			ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
			ASSERT_EQ(ACL_SUCCESS, add(tmp, other, 2.2f, out, self->us));
			ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateEnd(self->us));
		}
		ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->us));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->us));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
		/* 1 + 2.2 + 2.2 = 5.4, then 1 + 2.2 + 4.4 = 7.6 (and stays). */
		EXPECT_TRUE(dev_ramp(self->d[2], loop ? 7.6f : 5.4f)) TH_LOG("loop %d", loop + 1);
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUpdate(ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* The replay is blocked until the record: nothing ran before it. */
TEST_F(u, replay_waits_for_the_external_event)
{
	float ones[N] = { 1, 1, 1, 1, 1, 1, 1, 1 }, h[N];
	aclrtTaskGrp grp = NULL;
	aclmdlRI ri = NULL;
	aclrtEventRecordedStatus st;
	aclrtStreamStatus qs;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[0], BYTES, ones, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->s, self->ev));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetEvent(self->ev, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpBegin(self->s));
	ASSERT_EQ(ACL_SUCCESS, add(self->t[0], self->t[0], 1.0f, self->t[2], self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpEnd(self->s, &grp));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));

	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	/* (A synchronous copy now would wait for the blocked replay.) */
	usleep(200 * 1000);
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(self->s, &qs));
	EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, qs) TH_LOG("the replay did not wait for the event");
	/* Update to 1 + 3 * 1 while blocked, then release it. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	ASSERT_EQ(ACL_SUCCESS, add(self->t[0], self->t[0], 3.0f, self->t[2], self->us));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateEnd(self->us));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(self->ev, self->us));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[2], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < N; i++) {
		EXPECT_EQ(4.0f, h[i]) TH_LOG("element %d", i);
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtQueryEventStatus(self->ev, &st));
	EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* A group of a memset (a FILL): the update changes its value. */
TEST_F(u, memset_group_updated)
{
	aclrtTaskGrp grp = NULL;
	aclmdlRI ri = NULL;
	uint8_t h[BYTES];

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpBegin(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->d[0], BYTES, 0x11, BYTES, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpEnd(self->s, &grp));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->d[1], BYTES, 0x22, BYTES, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[0], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x11, h[0]);
	EXPECT_EQ(0x11, h[BYTES - 1]);

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	/* Recorded, not run. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->d[0], BYTES, 0x33, BYTES / 2, self->us));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->us));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[0], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x11, h[0]);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateEnd(self->us));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->d[0], BYTES, 0, BYTES));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[0], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x33, h[0]);
	EXPECT_EQ(0x33, h[BYTES / 2 - 1]);
	EXPECT_EQ(0, h[BYTES / 2]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[1], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x22, h[0]);
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* A graph with one group of one aclnnAdd (d2 = d0 + d1). */
static aclmdlRI one_group(struct __test_metadata *_metadata,
			  FIXTURE_DATA(u) *self, aclrtTaskGrp *grp)
{
	aclmdlRI ri = NULL;

	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpBegin(self->s));
	EXPECT_EQ(ACL_SUCCESS, add(self->t[0], self->t[1], 1.0f, self->t[2], self->s));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpEnd(self->s, grp));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	return ri;
}

TEST_F(u, group_status_rules)
{
	aclrtTaskGrp grp = NULL, bad = (aclrtTaskGrp)1;
	aclmdlRI ri = NULL;

	/* Not capturing. */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureTaskGrpBegin(self->s));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureTaskGrpEnd(self->s, &grp));
	EXPECT_EQ(NULL, grp);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureTaskGrpEnd(self->s, NULL));

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	/* End without begin, nested begin. */
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpEnd(self->s, &bad));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpBegin(self->s));
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpBegin(self->s));
	EXPECT_EQ(ACL_SUCCESS, add(self->t[0], self->t[1], 1.0f, self->t[2], self->s));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskGrpEnd(self->s, &grp));
	EXPECT_NE(NULL, grp);
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpEnd(self->s, &bad));
	EXPECT_EQ(NULL, bad);
	/* The graph of the group is still being captured. */
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	/* An update on a capturing stream. */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureTaskUpdateBegin(self->s, grp));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIUpdate(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUpdate(ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(u, update_status_rules)
{
	aclrtTaskGrp grp = NULL;
	aclrtStream third;
	aclmdlRI ri = one_group(_metadata, self, &grp);

	ASSERT_NE(NULL, ri);
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&third));
	/* Outside an update. */
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateEnd(self->us));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureTaskUpdateBegin(self->us, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICaptureTaskUpdateBegin(self->us, (aclrtTaskGrp)&third));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	/* The stream updates already; another stream may not take the group. */
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateBegin(third, grp));
	/* Nor begin a group or a capture meanwhile. */
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpBegin(self->us));
	EXPECT_EQ(ACL_SUCCESS, add(self->t[0], self->t[0], 1.0f, self->t[2], self->us));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateEnd(self->us));
	EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateEnd(self->us));
	/* Once ended, another stream may update it. */
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(third, grp));
	EXPECT_EQ(ACL_SUCCESS, add(self->t[1], self->t[1], 1.0f, self->t[2], third));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateEnd(third));
	/* A destroyed graph's handle. */
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(third));
}

/* Re-captures that do not match leave the graph as it was. */
TEST_F(u, mismatched_updates_fail)
{
	float v2[N] = { 2, 2, 2, 2, 2, 2, 2, 2 }, v3[N] = { 3, 3, 3, 3, 3, 3, 3, 3 };
	aclrtTaskGrp grp = NULL;
	aclmdlRI ri;
	float h[N];

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[0], BYTES, v2, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->d[1], BYTES, v3, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
	ri = one_group(_metadata, self, &grp);
	ASSERT_NE(NULL, ri);
	/* No task. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclmdlRICaptureTaskUpdateEnd(self->us));
	/* Two tasks: the second is refused at once, and End fails. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	EXPECT_EQ(ACL_SUCCESS, add(self->t[0], self->t[0], 1.0f, self->t[2], self->us));
	EXPECT_NE(ACL_SUCCESS, add(self->t[1], self->t[1], 1.0f, self->t[2], self->us));
	EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclmdlRICaptureTaskUpdateEnd(self->us));
	/* Another type: a memset where the group has an operator. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	EXPECT_NE(ACL_SUCCESS, aclrtMemsetAsync(self->d[2], BYTES, 0, BYTES, self->us));
	EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, aclmdlRICaptureTaskUpdateEnd(self->us));
	/* The graph still adds d0 + d1. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[2], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < N; i++) {
		EXPECT_EQ(5.0f, h[i]) TH_LOG("element %d", i);
	}
	/* A matching update still works after the failed ones: d1 + d1. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateBegin(self->us, grp));
	EXPECT_EQ(ACL_SUCCESS, add(self->t[1], self->t[1], 1.0f, self->t[2], self->us));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureTaskUpdateEnd(self->us));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, BYTES, self->d[2], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < N; i++) {
		EXPECT_EQ(6.0f, h[i]) TH_LOG("element %d", i);
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_HARNESS_MAIN
