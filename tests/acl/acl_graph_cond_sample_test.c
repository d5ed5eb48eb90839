// SPDX-License-Identifier: MIT
/*
 * CANN's cond_model sample (example/2_advanced_features/model_ri/
 * 3_cond_model) call for call, with its printed results as expectations.
 * Its handles use ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT with default 0,
 * so every launch resets the word the host wrote before it: the IF takes
 * its else branch both times, the WHILE body never runs and the SWITCH
 * always picks case 0, exactly as CANN's README output shows.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"

#define ELEMS 8
#define SIZE (ELEMS * sizeof(float))

static const float srcA[ELEMS] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const float srcB[ELEMS] = { 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4 };

/* out[i] == srcA[i] + alpha * srcB[i]? */
static int is_add(const float *out, float alpha)
{
	for (int i = 0; i < ELEMS; i++) {
		float want = srcA[i] + alpha * srcB[i];

		if (out[i] < want - 1e-4f || out[i] > want + 1e-4f) {
			fprintf(stderr, "element %d is %f, want %f\n", i, out[i], want);
			return 0;
		}
	}
	return 1;
}

struct op {
	void *a, *b, *dst;
	aclTensor *ta, *tb, *tdst;
};

static aclTensor *tensor(void **dev)
{
	int64_t shape[2] = { 4, 2 }, strides[2] = { 2, 1 };

	if (aclrtMalloc(dev, SIZE, ACL_MEM_MALLOC_HUGE_FIRST))
		return NULL;
	return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND,
			       shape, 2, *dev);
}

static int op_setup(struct op *o)
{
	o->ta = tensor(&o->a);
	o->tb = tensor(&o->b);
	o->tdst = tensor(&o->dst);
	if (!o->ta || !o->tb || !o->tdst)
		return -1;
	if (aclrtMemcpy(o->a, SIZE, srcA, SIZE, ACL_MEMCPY_HOST_TO_DEVICE) ||
	    aclrtMemcpy(o->b, SIZE, srcB, SIZE, ACL_MEMCPY_HOST_TO_DEVICE))
		return -1;
	return aclrtMemset(o->dst, SIZE, 0, SIZE);
}

static void op_teardown(struct op *o)
{
	aclDestroyTensor(o->ta);
	aclDestroyTensor(o->tb);
	aclDestroyTensor(o->tdst);
	aclrtFree(o->a);
	aclrtFree(o->b);
	aclrtFree(o->dst);
}

/* Phase one of dst = a + alpha * b; the workspace stays allocated. */
static int prepare(struct op *o, float alpha, aclOpExecutor **ex,
		   uint64_t *wsz, void **ws)
{
	aclScalar *s = aclCreateScalar(&alpha, ACL_FLOAT);
	int ret = aclnnAddGetWorkspaceSize(o->ta, o->tb, s, o->tdst, wsz, ex);

	*ws = NULL;
	if (!ret && *wsz)
		ret = aclrtMalloc(ws, *wsz, ACL_MEM_MALLOC_HUGE_FIRST);
	aclDestroyScalar(s);
	return ret;
}

FIXTURE(s) {
	aclrtContext ctx;
	aclrtStream stream, subStream, execStream;
	struct op o;
};

FIXTURE_SETUP(s)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&self->ctx, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->subStream));
	ASSERT_EQ(0, op_setup(&self->o));
}

FIXTURE_TEARDOWN(s)
{
	op_teardown(&self->o);
	aclrtDestroyStream(self->subStream);
	aclrtDestroyStream(self->stream);
	aclrtDestroyContext(self->ctx);
	aclrtResetDeviceForce(0);
	aclFinalize();
}

static aclmdlRI begin(aclrtStream stream, aclmdlRICondHandle *h,
		      uint64_t **condDevPtr)
{
	aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
	aclmdlRI parent = NULL;

	if (aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) ||
	    aclmdlRICaptureGetInfo(stream, &status, &parent) ||
	    aclmdlRICondHandleCreate(parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, h) ||
	    aclmdlRICondHandleGetCondPtr(*h, condDevPtr))
		return NULL;
	return parent;
}

static int launch(aclmdlRI ri, aclrtStream s, uint64_t *cond, uint64_t v,
		  const struct op *o, float *out)
{
	int ret = aclrtMemcpy(cond, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE);

	if (!ret)
		ret = aclmdlRIExecuteAsync(ri, s);
	if (!ret)
		ret = aclrtSynchronizeStream(s);
	if (!ret)
		ret = aclrtMemcpy(out, SIZE, o->dst, SIZE, ACL_MEMCPY_DEVICE_TO_HOST);
	return ret;
}

TEST_F(s, cond_if)
{
	aclOpExecutor *ex0, *ex1;
	uint64_t wsz0, wsz1, *condDevPtr = NULL;
	void *ws0, *ws1;
	aclmdlRICondHandle h = NULL;
	aclmdlRI parent, subModels[2] = { 0 };
	aclmdlRICondTaskParams params;
	float out[ELEMS];

	ASSERT_EQ(0, prepare(&self->o, 2.0f, &ex0, &wsz0, &ws0));
	ASSERT_EQ(0, prepare(&self->o, 0.5f, &ex1, &wsz1, &ws1));
	parent = begin(self->stream, &h, &condDevPtr);
	ASSERT_NE(NULL, parent);
	params.handle = h;
	params.type = ACL_MODEL_RI_COND_TYPE_IF;
	params.size = 2;
	params.modelRIArray = subModels;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(params, self->stream, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->subStream, subModels[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(0, aclnnAdd(ws0, wsz0, ex0, self->subStream));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->subStream, &subModels[0]));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->subStream, subModels[1],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(0, aclnnAdd(ws1, wsz1, ex1, self->subStream));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->subStream, &subModels[1]));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->stream, &parent));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->execStream));
	ASSERT_EQ(ACL_SUCCESS, launch(parent, self->execStream, condDevPtr, 1, &self->o, out));
	EXPECT_TRUE(is_add(out, 0.5f));		/* "true branch": 1.25 2.5 ... */
	ASSERT_EQ(ACL_SUCCESS, launch(parent, self->execStream, condDevPtr, 0, &self->o, out));
	EXPECT_TRUE(is_add(out, 0.5f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(parent));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(self->execStream));
	aclrtFree(ws0);
	aclrtFree(ws1);
}

TEST_F(s, cond_while)
{
	static const uint64_t kCondZero = 0;
	aclOpExecutor *ex;
	uint64_t wsz, *condDevPtr = NULL;
	void *ws, *condZeroDev = NULL;
	aclmdlRICondHandle h = NULL;
	aclmdlRI parent, body[1] = { 0 };
	aclmdlRICondTaskParams params;
	float out[ELEMS];

	ASSERT_EQ(0, prepare(&self->o, 1.0f, &ex, &wsz, &ws));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&condZeroDev, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(condZeroDev, 8, &kCondZero, 8, ACL_MEMCPY_HOST_TO_DEVICE));
	parent = begin(self->stream, &h, &condDevPtr);
	ASSERT_NE(NULL, parent);
	params.handle = h;
	params.type = ACL_MODEL_RI_COND_TYPE_WHILE;
	params.size = 1;
	params.modelRIArray = body;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(params, self->stream, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->subStream, body[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(0, aclnnAdd(ws, wsz, ex, self->subStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(condDevPtr, 8, condZeroDev, 8,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->subStream));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->subStream, &body[0]));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->stream, &parent));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->execStream));
	ASSERT_EQ(ACL_SUCCESS, launch(parent, self->execStream, condDevPtr, 1, &self->o, out));
	/* reset to 0 at launch: the body did not run, dst is as it was */
	for (int i = 0; i < ELEMS; i++)
		EXPECT_EQ(0, (int)out[i]);
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(parent));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(self->execStream));
	aclrtFree(condZeroDev);
	aclrtFree(ws);
}

TEST_F(s, cond_switch)
{
	static const uint64_t kCondValues[3] = { 0, 1, 2 };
	const float alphas[3] = { 1.0f, 2.0f, 0.5f };
	aclOpExecutor *ex[3];
	uint64_t wsz[3], *condDevPtr = NULL;
	void *ws[3];
	aclmdlRICondHandle h = NULL;
	aclmdlRI parent, caseModels[3] = { 0 };
	aclmdlRICondTaskParams params;
	float out[ELEMS];

	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, prepare(&self->o, alphas[i], &ex[i], &wsz[i], &ws[i]));
	parent = begin(self->stream, &h, &condDevPtr);
	ASSERT_NE(NULL, parent);
	params.handle = h;
	params.type = ACL_MODEL_RI_COND_TYPE_SWITCH;
	params.size = 3;
	params.modelRIArray = caseModels;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(params, self->stream, 0));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->subStream, caseModels[i],
			  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
		ASSERT_EQ(0, aclnnAdd(ws[i], wsz[i], ex[i], self->subStream));
		ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->subStream, &caseModels[i]));
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->stream, &parent));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->execStream));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, launch(parent, self->execStream, condDevPtr,
					      kCondValues[i], &self->o, out));
		EXPECT_TRUE(is_add(out, 1.0f));	/* case 0 every time */
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(parent));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(self->execStream));
	for (int i = 0; i < 3; i++)
		aclrtFree(ws[i]);
}

TEST_HARNESS_MAIN
