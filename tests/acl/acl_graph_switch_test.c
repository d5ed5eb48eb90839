// SPDX-License-Identifier: MIT
/*
 * Stream switching in built graphs, following CANN's model-switch sample
 * call for call (example/2_advanced_features/model_ri/2_model_switch):
 * five bound streams, ActiveStream and SwitchStream on a device value, two
 * launches that take different streams, with the values CANN's sample
 * prints. Then every misuse with its code.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"

#define ELEMS 8
#define SIZE (ELEMS * sizeof(float))

static aclTensor *tensor(void **dev)
{
	int64_t shape[2] = { 4, 2 }, strides[2] = { 2, 1 };

	if (aclrtMalloc(dev, SIZE, ACL_MEM_MALLOC_HUGE_FIRST))
		return NULL;
	return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND,
			       shape, 2, *dev);
}

static int all_equal(const float *v, float want)
{
	for (int i = 0; i < ELEMS; i++)
		if (v[i] < want - 1e-4f || v[i] > want + 1e-4f) {
			fprintf(stderr, "element %d is %f, want %f\n", i, v[i], want);
			return 0;
		}
	return 1;
}

TEST(model_switch_sample)
{
	void *selfD[3], *otherD[3], *outD[3], *ws[3] = { 0 };
	aclTensor *selfT[3], *otherT[3], *outT[3];
	float selfH[3][ELEMS], otherH[ELEMS], outH[3][ELEMS];
	aclOpExecutor *ex[3];
	uint64_t wsz[3];
	float alphaValue = 1.2f;
	aclScalar *alpha;
	aclrtContext context;
	aclrtStream stream1, stream2, stream3, stream4, endStream, copyStream,
		    executeStream;
	int32_t right1 = 1, right2 = 2;
	void *rightDevice1, *rightDevice2, *targetValDev_1;
	uint32_t *numDevice, numInit = 0, val1 = 1, val2 = 2;
	aclmdlRI modelRI;
	int i;

	for (i = 0; i < ELEMS; i++) {
		selfH[0][i] = 1;
		selfH[1][i] = 2;
		selfH[2][i] = 3;
		otherH[i] = 2;
	}
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&context, 0));
	for (i = 0; i < 3; i++) {
		selfT[i] = tensor(&selfD[i]);
		otherT[i] = tensor(&otherD[i]);
		ASSERT_NE(NULL, selfT[i]);
		ASSERT_NE(NULL, otherT[i]);
	}
	alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
	for (i = 0; i < 3; i++) {
		outT[i] = tensor(&outD[i]);
		ASSERT_NE(NULL, outT[i]);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset(outD[i], SIZE, 0, SIZE));
	}
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, aclnnAddGetWorkspaceSize(selfT[i], otherT[i], alpha,
						      outT[i], &wsz[i], &ex[i]));
		if (wsz[i])
			ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&ws[i], wsz[i],
							   ACL_MEM_MALLOC_HUGE_FIRST));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&rightDevice1, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(rightDevice1, 4, &right1, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&rightDevice2, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(rightDevice2, 4, &right2, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&numDevice, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(numDevice, 4, &numInit, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&targetValDev_1, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(targetValDev_1, 4, &val1, 4, ACL_MEMCPY_HOST_TO_DEVICE));

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&stream1, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&stream2, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&stream3, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&stream4, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&endStream, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&copyStream));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&modelRI, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(modelRI, stream1, ACL_MODEL_STREAM_FLAG_HEAD));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(modelRI, stream2, ACL_MODEL_STREAM_FLAG_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(modelRI, stream3, ACL_MODEL_STREAM_FLAG_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(modelRI, stream4, ACL_MODEL_STREAM_FLAG_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(modelRI, endStream, ACL_MODEL_STREAM_FLAG_DEFAULT));
	/* pageable host memory, as in the sample: the graph keeps a copy */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(selfD[0], SIZE, selfH[0], SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(selfD[1], SIZE, selfH[1], SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream2));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(selfD[2], SIZE, selfH[2], SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream3));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(otherD[0], SIZE, otherH, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(otherD[1], SIZE, otherH, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream2));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(otherD[2], SIZE, otherH, SIZE, ACL_MEMCPY_HOST_TO_DEVICE, stream3));
	ASSERT_EQ(0, aclnnAdd(ws[0], wsz[0], ex[0], stream1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(numDevice, 4, targetValDev_1, 4, ACL_MEMCPY_DEVICE_TO_DEVICE, stream1));
	ASSERT_EQ(0, aclnnAdd(ws[1], wsz[1], ex[1], stream2));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(endStream, stream2));
	ASSERT_EQ(0, aclnnAdd(ws[2], wsz[2], ex[2], stream3));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(endStream, stream3));
	ASSERT_EQ(ACL_SUCCESS, aclrtSwitchStream(numDevice, ACL_RT_EQUAL, rightDevice1,
						 ACL_RT_SWITCH_INT32, stream3, NULL, stream1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSwitchStream(numDevice, ACL_RT_EQUAL, rightDevice2,
						 ACL_RT_SWITCH_INT32, stream4, NULL, stream1));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(stream2, stream4));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIEndTask(modelRI, endStream));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildEnd(modelRI, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&executeStream));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(modelRI, executeStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(executeStream));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(outH[i], SIZE, outD[i], SIZE,
							ACL_MEMCPY_DEVICE_TO_HOST, copyStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(copyStream));
	/* num == 1: stream3 ran, stream4 (and so stream2) did not */
	EXPECT_TRUE(all_equal(outH[0], 3.4f));
	EXPECT_TRUE(all_equal(outH[1], 0.0f));
	EXPECT_TRUE(all_equal(outH[2], 5.4f));

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(targetValDev_1, 4, &val2, 4,
						ACL_MEMCPY_HOST_TO_DEVICE, copyStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(copyStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(outD[2], SIZE, 0, SIZE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(modelRI, executeStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(executeStream));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(outH[i], SIZE, outD[i], SIZE,
							ACL_MEMCPY_DEVICE_TO_HOST, copyStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(copyStream));
	/* num == 2: stream4 activated stream2; stream3 stayed off */
	EXPECT_TRUE(all_equal(outH[0], 3.4f));
	EXPECT_TRUE(all_equal(outH[1], 4.4f));
	EXPECT_TRUE(all_equal(outH[2], 0.0f));

	/* host data was copied at record time: changing it changes nothing */
	for (i = 0; i < ELEMS; i++)
		selfH[0][i] = 100;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(modelRI, executeStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(executeStream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(outH[0], SIZE, outD[0], SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_TRUE(all_equal(outH[0], 3.4f));

	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(modelRI, stream1));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(modelRI, stream2));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(modelRI, stream3));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(modelRI, stream4));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIUnbindStream(modelRI, endStream));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(modelRI));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(copyStream));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(executeStream));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream1));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream2));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream3));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(stream4));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(endStream));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyContext(context));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(switch_misuse)
{
	aclrtStream head, b, c, plain, cap;
	aclmdlRI ri = NULL, ri2 = NULL;
	int32_t *v = NULL;
	aclrtEvent ev;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&v, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&head, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&b, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&c, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&plain));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&cap));

	/* outside a graph being built */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL, aclrtActiveStream(b, plain));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL,
		  aclrtSwitchStream(v, ACL_RT_EQUAL, v + 1, ACL_RT_SWITCH_INT32, b, NULL, plain));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&ri, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, b, ACL_MODEL_STREAM_FLAG_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, c, ACL_MODEL_STREAM_FLAG_DEFAULT));
	/* arguments */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtActiveStream(NULL, head));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtActiveStream(b, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSwitchStream(NULL, ACL_RT_EQUAL, v + 1, ACL_RT_SWITCH_INT32, b, NULL, head));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSwitchStream(v, ACL_RT_EQUAL, NULL, ACL_RT_SWITCH_INT32, b, NULL, head));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSwitchStream(v, ACL_RT_EQUAL, v + 1, ACL_RT_SWITCH_INT32, NULL, NULL, head));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSwitchStream(v, (aclrtCondition)6, v + 1, ACL_RT_SWITCH_INT32, b, NULL, head));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtSwitchStream(v, ACL_RT_EQUAL, v + 1, (aclrtCompareDataType)2, b, NULL, head));
	/* the target must be bound to the same graph, and not be the head */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL, aclrtActiveStream(plain, head));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtActiveStream(head, b));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL,
		  aclrtSwitchStream(v, ACL_RT_EQUAL, v + 1, ACL_RT_SWITCH_INT32, b, plain, head));
	/* a cycle of activations cannot be laid out */
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(b, head));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(c, b));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(b, c));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIBuildEnd(ri, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));

	/* events between the streams of such a graph are not supported */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&ri, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, b, ACL_MODEL_STREAM_FLAG_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(b, head));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(ev, b));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(head, ev));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIBuildEnd(ri, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));

	/* after BuildEnd nothing is recorded any more */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&ri, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBindStream(ri, b, ACL_MODEL_STREAM_FLAG_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtActiveStream(b, head));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildEnd(ri, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtActiveStream(b, head));

	/* captured graphs: not supported */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtActiveStream(cap, cap));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(cap, &ri2));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri2));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	aclrtDestroyEvent(ev);
	aclrtFree(v);
	aclrtDestroyStream(head);
	aclrtDestroyStream(b);
	aclrtDestroyStream(c);
	aclrtDestroyStream(plain);
	aclrtDestroyStream(cap);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_HARNESS_MAIN
