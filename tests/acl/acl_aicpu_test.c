// SPDX-License-Identifier: MIT
/*
 * Host ("AI CPU") nodes of a model on the real driver: om_build_host_mix
 * runs a device Add, host NonZero and Det nodes, then a device Relu that
 * reads the host node's output. Checked: values and the dynamic output's
 * dims against a host computation; stream order with work queued before
 * and after the model (a blocked host function ahead of it shows that
 * aclmdlExecuteAsync does not wait for the host nodes); two streams at
 * once; capture and replays; a failing host node fails the stream.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "om_builder.h"

/* |a - b| within tol (the harness has no EXPECT_NEAR). */
#define EXPECT_NEAR(a, b, tol) EXPECT_TRUE(fabs((double)(a) - (double)(b)) <= (tol))

struct run {
	void *x, *nz, *y;		/* device buffers */
	aclDataBuffer *bx, *bnz, *by;
	aclmdlDataset *ids, *ods;
};

static int run_make(struct run *r)
{
	memset(r, 0, sizeof(*r));
	if (aclrtMalloc(&r->x, 32, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&r->nz, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&r->y, 8, ACL_MEM_MALLOC_HUGE_FIRST))
		return -1;
	aclrtMemset(r->nz, 64, 0xff, 64);
	aclrtMemset(r->y, 8, 0xff, 8);
	r->bx = aclCreateDataBuffer(r->x, 32);
	r->bnz = aclCreateDataBuffer(r->nz, 64);
	r->by = aclCreateDataBuffer(r->y, 8);
	r->ids = aclmdlCreateDataset();
	r->ods = aclmdlCreateDataset();
	if (aclmdlAddDatasetBuffer(r->ids, r->bx) ||
	    aclmdlAddDatasetBuffer(r->ods, r->bnz) ||
	    aclmdlAddDatasetBuffer(r->ods, r->by))
		return -1;
	return 0;
}

static void run_free(struct run *r)
{
	aclmdlDestroyDataset(r->ids);
	aclmdlDestroyDataset(r->ods);
	aclDestroyDataBuffer(r->bx);
	aclDestroyDataBuffer(r->bnz);
	aclDestroyDataBuffer(r->by);
	aclrtFree(r->x);
	aclrtFree(r->nz);
	aclrtFree(r->y);
}

/* x[i] = seed-dependent values, some zero. */
static void inputs(float *x, int seed)
{
	for (int i = 0; i < 8; i++)
		x[i] = (i + seed) % 3 == 0 ? 0.0f : (float)(i + 1) * (seed % 2 ? -0.5f : 0.75f);
}

/* What the model computes: NonZero(2x) and relu(det of 2x as 2x2x2). */
static int64_t expect(const float *x, int64_t *nz, float *y)
{
	float t[8];
	int64_t n = 0;

	for (int i = 0; i < 8; i++) {
		t[i] = x[i] + x[i];
		if (t[i] != 0)
			nz[n++] = i;
	}
	for (int m = 0; m < 2; m++) {
		double d = (double)t[4 * m] * t[4 * m + 3] - (double)t[4 * m + 1] * t[4 * m + 2];

		y[m] = d > 0 ? (float)d : 0.0f;
	}
	return n;
}

/* Read the outputs back; check values and the dims every API reports. */
static int check(struct __test_metadata *_metadata, uint32_t id, struct run *r,
		 const float *x)
{
	int64_t want_nz[8], got_nz[8];
	float want_y[2], got_y[2];
	int64_t n = expect(x, want_nz, want_y), dim;
	aclTensorDesc *d = aclmdlGetDatasetTensorDesc(r->ods, 0);
	aclmdlDesc *md = aclmdlCreateDesc();
	aclmdlIODims dims;
	int bad = 0;

	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(got_nz, 64, r->nz, 64, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(got_y, 8, r->y, 8, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int64_t i = 0; i < n; i++)
		bad += got_nz[i] != want_nz[i];
	for (int m = 0; m < 2; m++)
		bad += fabsf(got_y[m] - want_y[m]) > 1e-4f * (1 + fabsf(want_y[m]));
	EXPECT_EQ(0, bad);
	EXPECT_NE(NULL, d);
	if (d) {
		EXPECT_EQ(2, (int)aclGetTensorDescNumDims(d));
		EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(d, 0, &dim));
		EXPECT_EQ(1, dim);
		EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(d, 1, &dim));
		EXPECT_EQ(n, dim);
		bad += dim != n;
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetDesc(md, id));
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetOutputDims(md, 0, &dims));
	EXPECT_EQ(8, dims.dims[1]);	/* the bound */
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetCurOutputDims(md, 0, &dims));
	EXPECT_EQ(2, (int)dims.dimCount);
	EXPECT_EQ(n, dims.dims[1]);
	aclmdlDestroyDesc(md);
	return bad;
}

FIXTURE(h) {
	void *img;
	size_t size;
	uint32_t id;
	aclrtStream s;
};

FIXTURE_SETUP(h)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	self->img = om_build_host_mix(&self->size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(self->img, self->size, &self->id));
}

FIXTURE_TEARDOWN(h)
{
	aclmdlUnload(self->id);
	aclrtDestroyStream(self->s);
	free(self->img);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(h, execute_sync)
{
	struct run r;
	float x[8];

	ASSERT_EQ(0, run_make(&r));
	inputs(x, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r.x, 32, x, 32, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, r.ids, r.ods));
	EXPECT_EQ(0, check(_metadata, self->id, &r, x));
	/* again with other values: other dims */
	inputs(x, 2);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r.x, 32, x, 32, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, r.ids, r.ods));
	EXPECT_EQ(0, check(_metadata, self->id, &r, x));
	run_free(&r);
}

static volatile int gate;

static void wait_gate(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		usleep(1000);
}

/*
 * Queued in order: a host function that holds the stream, the input
 * copy, the model, the output copies. The calls all return while the
 * stream is held; once released the model sees the copied input and the
 * copies after it see the model's outputs.
 */
TEST_F(h, async_in_stream_order)
{
	float *hx, *hy;
	int64_t *hnz;
	struct run r;
	float x[8], want_y[2];
	int64_t want_nz[8], n;

	ASSERT_EQ(0, run_make(&r));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&hx, 32));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&hy, 8));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&hnz, 64));
	memset(hnz, 0xff, 64);
	inputs(hx, 3);
	memcpy(x, hx, sizeof(x));
	gate = 0;
	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchHostFunc(self->s, wait_gate, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(r.x, 32, hx, 32, ACL_MEMCPY_HOST_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(hy, 8, r.y, 8, ACL_MEMCPY_DEVICE_TO_HOST, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(hnz, 64, r.nz, 64, ACL_MEMCPY_DEVICE_TO_HOST, self->s));
	usleep(20000);
	EXPECT_EQ(-1, hnz[0]);	/* nothing ran yet */
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	n = expect(x, want_nz, want_y);
	for (int64_t i = 0; i < n; i++)
		EXPECT_EQ(want_nz[i], hnz[i]);
	EXPECT_NEAR(want_y[0], hy[0], 1e-4 * (1 + fabsf(want_y[0])));
	EXPECT_NEAR(want_y[1], hy[1], 1e-4 * (1 + fabsf(want_y[1])));
	EXPECT_EQ(0, check(_metadata, self->id, &r, x));
	aclrtFreeHost(hx);
	aclrtFreeHost(hy);
	aclrtFreeHost(hnz);
	run_free(&r);
}

/* Two streams, each its own buffers, in flight together; then 4 rounds. */
TEST_F(h, two_streams_at_once)
{
	aclrtStream s2;
	struct run r1, r2;
	float x1[8], x2[8];

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(0, run_make(&r1));
	ASSERT_EQ(0, run_make(&r2));
	for (int round = 0; round < 4; round++) {
		inputs(x1, 4 + round);
		inputs(x2, 7 + round);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r1.x, 32, x1, 32, ACL_MEMCPY_HOST_TO_DEVICE));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r2.x, 32, x2, 32, ACL_MEMCPY_HOST_TO_DEVICE));
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r1.ids, r1.ods, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r2.ids, r2.ods, s2));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s2));
		EXPECT_EQ(0, check(_metadata, self->id, &r1, x1) ? 1 : 0) TH_LOG("round %d, stream 1", round);
		EXPECT_EQ(0, check(_metadata, self->id, &r2, x2) ? 1 : 0) TH_LOG("round %d, stream 2", round);
	}
	run_free(&r1);
	run_free(&r2);
	aclrtDestroyStream(s2);
}

/* Many executions queued on one stream, each with its own outputs. */
TEST_F(h, queued_back_to_back)
{
	struct run r[10];
	float x[10][8];

	for (int i = 0; i < 10; i++) {
		ASSERT_EQ(0, run_make(&r[i]));
		inputs(x[i], i);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r[i].x, 32, x[i], 32, ACL_MEMCPY_HOST_TO_DEVICE));
	}
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r[i].ids, r[i].ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	for (int i = 0; i < 10; i++) {
		int64_t nz[8], got[8];
		float y[2], gy[2];
		int64_t n = expect(x[i], nz, y);

		aclrtMemcpy(got, 64, r[i].nz, 64, ACL_MEMCPY_DEVICE_TO_HOST);
		aclrtMemcpy(gy, 8, r[i].y, 8, ACL_MEMCPY_DEVICE_TO_HOST);
		EXPECT_EQ(0, memcmp(nz, got, (size_t)n * 8)) TH_LOG("execution %d", i);
		EXPECT_NEAR(y[0], gy[0], 1e-4 * (1 + fabsf(y[0])));
		EXPECT_NEAR(y[1], gy[1], 1e-4 * (1 + fabsf(y[1])));
	}
	for (int i = 0; i < 10; i++)
		run_free(&r[i]);
}

/* A capture records the host nodes; every replay runs them in order. */
TEST_F(h, capture_and_replays)
{
	aclmdlRI ri;
	struct run r;
	float x[8], y[2], want_y[2];
	int64_t nz[8], want_nz[8], n;

	ASSERT_EQ(0, run_make(&r));
	inputs(x, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r.x, 32, x, 32, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	aclrtMemcpy(nz, 64, r.nz, 64, ACL_MEMCPY_DEVICE_TO_HOST);
	EXPECT_EQ(-1, nz[0]);	/* recorded, not run */
	for (int rep = 0; rep < 3; rep++) {
		inputs(x, 2 + rep);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r.x, 32, x, 32, ACL_MEMCPY_HOST_TO_DEVICE));
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
		n = expect(x, want_nz, want_y);
		aclrtMemcpy(nz, 64, r.nz, 64, ACL_MEMCPY_DEVICE_TO_HOST);
		aclrtMemcpy(y, 8, r.y, 8, ACL_MEMCPY_DEVICE_TO_HOST);
		EXPECT_EQ(0, memcmp(want_nz, nz, (size_t)n * 8)) TH_LOG("replay %d", rep);
		EXPECT_NEAR(want_y[0], y[0], 1e-4 * (1 + fabsf(want_y[0])));
		EXPECT_NEAR(want_y[1], y[1], 1e-4 * (1 + fabsf(want_y[1])));
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	run_free(&r);
}

/*
 * A host node that fails (Det of an INT32 tensor) fails the job and so
 * the stream's synchronize, with ACL_ERROR_RT_AICPU_EXCEPTION as in CANN
 * (executed, synchronously, captured and replayed); the process goes on,
 * and a fresh stream runs a good model.
 */
TEST(failing_host_node_fails_the_stream)
{
	size_t size;
	void *img = om_build_host_mix(&size);
	struct om_header *hd = img;
	struct om_section *sec = (struct om_section *)(hd + 1);
	struct om_tensor *ts = NULL;
	aclrtStream s, s2, s3;
	aclmdlRI ri;
	struct run r;
	uint32_t id;
	float x[8];
	aclError e;

	for (uint32_t i = 0; i < hd->section_count; i++)
		if (sec[i].type == OM_SEC_TENSORS)
			ts = (struct om_tensor *)((uint8_t *)img + sec[i].offset);
	ASSERT_NE(NULL, ts);
	ts[2].dtype = DRM_VNPU_DTYPE_INT32;	/* Det's input */
	omb_recrc(img, size);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &id));
	ASSERT_EQ(0, run_make(&r));
	inputs(x, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r.x, 32, x, 32, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, r.ids, r.ods, s));
	/*
	 * the node's second wait times out at once, but the stream reports
	 * what CANN reports for a failed AI CPU task, and so does the
	 * thread's last error
	 */
	e = aclrtSynchronizeStream(s);
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, e);
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
	/* the synchronous form reports it too */
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclmdlExecute(id, r.ids, r.ods));
	/* captured on one stream, replayed on another: the same code */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s3));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, r.ids, r.ods, s3));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(s3, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, s));
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	aclrtDestroyStream(s3);
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	free(img);
	img = om_build_host_mix(&size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &id));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, r.ids, r.ods, s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s2));
	EXPECT_EQ(0, check(_metadata, id, &r, x));
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	run_free(&r);
	aclrtDestroyStream(s2);
	aclrtDestroyStream(s);
	free(img);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_HARNESS_MAIN
