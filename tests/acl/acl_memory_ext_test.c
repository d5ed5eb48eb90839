// SPDX-License-Identifier: MIT
/*
 * The memory calls beyond malloc/copy/memset: aclrtReduceAsync on the
 * device (every kind and dtype, values read back, graph capture, every
 * rejection), batched copies (sync and async, failIndex), aclrtMemsetD32,
 * memsets of aclrtMallocHost memory, allocation with a configuration,
 * DevSync frees, usage, type checks, flush/invalidate, registration by
 * flags. Each TEST is a fresh process.
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

FIXTURE(mx) {
	aclrtStream s;
	void *a, *b;		/* 4 KiB of device memory each */
};

FIXTURE_SETUP(mx)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
}

FIXTURE_TEARDOWN(mx)
{
	aclrtResetDevice(0);
	aclFinalize();
}

static void put(void *dev, const void *host, size_t n)
{
	aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
}

static void get(void *host, const void *dev, size_t n)
{
	aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST);
}

/* ---------------------------------------------------------- reduce -- */

TEST_F(mx, reduce_float_sum_max_min)
{
	float x[4] = { 1.5f, -2.0f, 3.0f, 0.25f }, y[4] = { 2.0f, -3.0f, 1.0f, 0.5f };
	float r[4];

	put(self->a, x, sizeof(x));
	put(self->b, y, sizeof(y));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(x),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(3.5f, r[0]);
	EXPECT_EQ(-5.0f, r[1]);
	EXPECT_EQ(4.0f, r[2]);
	EXPECT_EQ(0.75f, r[3]);

	put(self->a, x, sizeof(x));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(x),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(2.0f, r[0]);
	EXPECT_EQ(-2.0f, r[1]);
	EXPECT_EQ(3.0f, r[2]);
	EXPECT_EQ(0.5f, r[3]);

	put(self->a, x, sizeof(x));
	/* The NULL stream (default) too. */
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(x),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_FLOAT, NULL, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(1.5f, r[0]);
	EXPECT_EQ(-3.0f, r[1]);
	EXPECT_EQ(1.0f, r[2]);
	EXPECT_EQ(0.25f, r[3]);
}

TEST_F(mx, reduce_int_types)
{
	int32_t x[3] = { 7, -100, INT32_MAX }, y[3] = { 5, 40, 1 }, r[3];
	int8_t c[4] = { 1, -5, 100, 120 }, d[4] = { 2, 6, -100, 10 }, rc[4];

	put(self->a, x, sizeof(x));
	put(self->b, y, sizeof(y));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(x),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(12, r[0]);
	EXPECT_EQ(-60, r[1]);
	EXPECT_EQ(INT32_MIN, r[2]);	/* wraps */;

	put(self->a, c, sizeof(c));
	put(self->b, d, sizeof(d));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(c),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT8, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(rc, self->a, sizeof(rc));
	EXPECT_EQ(2, rc[0]);
	EXPECT_EQ(6, rc[1]);
	EXPECT_EQ(100, rc[2]);
	EXPECT_EQ(120, rc[3]);
}

TEST_F(mx, reduce_half_types)
{
	/* fp16 1.5, 2.0 -> 3.5; bf16 the same values. */
	uint16_t h[2] = { 0x3E00, 0x4000 }, g[2] = { 0x4000, 0x3E00 }, r[2];
	uint16_t bh[2] = { 0x3FC0, 0x4000 }, bg[2] = { 0x4000, 0x3FC0 };

	put(self->a, h, sizeof(h));
	put(self->b, g, sizeof(g));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(h),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(0x4300, r[0]);
	EXPECT_EQ(0x4300, r[1]);

	put(self->a, bh, sizeof(bh));
	put(self->b, bg, sizeof(bg));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(bh),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_BF16, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(0x3FC0, r[0]);
	EXPECT_EQ(0x3FC0, r[1]);
}

/* dst == src is allowed: x + x. Stream order: a copy queued before counts. */
TEST_F(mx, reduce_in_place_and_stream_order)
{
	float x[2] = { 1.0f, 2.0f }, y[2] = { 10.0f, 20.0f }, r[2];

	put(self->a, x, sizeof(x));
	put(self->b, y, sizeof(y));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->a, 8, self->b, 8,
		  ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->a, 8,
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(20.0f, r[0]);
	EXPECT_EQ(40.0f, r[1]);
	/* count 0 does nothing and succeeds. */
	EXPECT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, 0,
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, self->s, NULL));
}

/* A million elements: the device splits the task; every piece in place. */
TEST_F(mx, reduce_large_split)
{
	const size_t n = 1 << 20, bytes = n * sizeof(int32_t);
	int32_t *h = malloc(bytes);
	void *x, *y;
	size_t bad = 0;

	ASSERT_NE(NULL, h);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	for (size_t i = 0; i < n; i++)
		h[i] = (int32_t)i;
	put(x, h, bytes);
	for (size_t i = 0; i < n; i++)
		h[i] = (int32_t)(3 * i);
	put(y, h, bytes);
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(x, y, bytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM,
						ACL_INT32, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(h, x, bytes);
	for (size_t i = 0; i < n; i++)
		bad += h[i] != (int32_t)(4 * i);
	EXPECT_EQ(0, bad);
	free(h);
}

/* Captured into a graph: each replay adds src once more. */
TEST_F(mx, reduce_captured_and_replayed)
{
	int32_t x[2] = { 1, 2 }, y[2] = { 10, 20 }, r[2];
	aclmdlRI ri;

	put(self->a, x, sizeof(x));
	put(self->b, y, sizeof(y));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(self->a, self->b, sizeof(x),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(1, r[0]);		/* capture runs nothing */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, self->a, sizeof(r));
	EXPECT_EQ(21, r[0]);
	EXPECT_EQ(42, r[1]);
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(mx, reduce_rejections)
{
	float host[4];
	void *dead;
	char *a = self->a;
	const aclrtReduceKind SUM = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(NULL, self->b, 16, SUM, ACL_FLOAT, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, NULL, 16, SUM, ACL_FLOAT, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, self->b, 16, SUM, ACL_FLOAT, self->s, self->a));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtReduceAsync(self->a, self->b, 16,
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_FLOAT, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, self->b, 16,
		  (aclrtReduceKind)9, ACL_FLOAT, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtReduceAsync(self->a, self->b, 16, SUM, ACL_INT16, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtReduceAsync(self->a, self->b, 16, SUM, ACL_UINT32, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, self->b, 16, SUM, ACL_DOUBLE, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, self->b, 16, SUM, ACL_BOOL, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, self->b, 6, SUM, ACL_FLOAT, self->s, NULL));
	/* Partly overlapping ranges. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a, a + 8, 16, SUM, ACL_FLOAT, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(a + 8, a, 16, SUM, ACL_FLOAT, self->s, NULL));
	/* Host memory is not the device's. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(host, self->b, 16, SUM, ACL_FLOAT, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync(self->a, host, 16, SUM, ACL_FLOAT, self->s, NULL));
	/* A destroyed stream. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream((aclrtStream *)&dead));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(dead));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtReduceAsync(self->a, self->b, 16, SUM, ACL_FLOAT, dead, NULL));
}

TEST(reduce_uninitialized)
{
	char x[16], y[16];

	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtReduceAsync(x, y, 16,
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL));
}

/* ------------------------------------------------------------ batch -- */

static aclrtMemcpyBatchAttr attr(aclrtMemLocationType dst, aclrtMemLocationType src)
{
	aclrtMemcpyBatchAttr a;

	memset(&a, 0, sizeof(a));
	a.dstLoc.type = dst;
	a.srcLoc.type = src;
	return a;
}

#define HOST ACL_MEM_LOCATION_TYPE_HOST
#define DEV ACL_MEM_LOCATION_TYPE_DEVICE

/* H2D twice, then D2H twice, with two attributes; read back. */
TEST_F(mx, batch_sync_round_trip)
{
	char src0[100], src1[200], out0[100], out1[200];
	char *a = self->a, *b = self->b;
	void *dsts[4] = { a, b + 100, out0, out1 };
	void *srcs[4] = { src0, src1, a, b + 100 };
	size_t sizes[4] = { 100, 200, 100, 200 }, maxs[4] = { 4096, 3996, 100, 200 };
	aclrtMemcpyBatchAttr at[2] = { attr(DEV, HOST), attr(HOST, DEV) };
	size_t idx[2] = { 0, 2 }, fail = 7;

	memset(src0, 0x11, sizeof(src0));
	memset(src1, 0x22, sizeof(src1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 4, at, idx, 2, &fail));
	EXPECT_EQ(SIZE_MAX, fail);
	EXPECT_EQ(0x11, out0[0]);
	EXPECT_EQ(0x11, out0[99]);
	EXPECT_EQ(0x22, out1[0]);
	EXPECT_EQ(0x22, out1[199]);
	/* V2: the same without failIndex. */
	memset(out0, 0, sizeof(out0));
	memset(out1, 0, sizeof(out1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, 4, at, idx, 2));
	EXPECT_EQ(0x11, out0[50]);
	EXPECT_EQ(0x22, out1[150]);
}

/* Device-to-device and pinned copies on a stream, after earlier work. */
TEST_F(mx, batch_async_in_stream_order)
{
	char *a = self->a, *b = self->b, *pin, out[64];
	void *dsts[3], *srcs[3];
	size_t sizes[3] = { 64, 64, 64 }, maxs[3] = { 64, 64, 64 }, idx[2] = { 0, 2 };
	aclrtMemcpyBatchAttr at[2] = { attr(DEV, DEV), attr(HOST, DEV) };
	size_t fail = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&pin, 4096));
	memset(pin, 0, 4096);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(a, 64, 0x5a, 64, self->s));
	/* b = a; b+64 = a; then pinned = b + 64: each sees the one before. */
	dsts[0] = b; srcs[0] = a;
	dsts[1] = b + 64; srcs[1] = a;
	dsts[2] = pin; srcs[2] = b + 64;
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 3, at, idx, 2,
						     &fail, self->s));
	EXPECT_EQ(SIZE_MAX, fail);
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0x5a, pin[0]);
	EXPECT_EQ(0x5a, pin[63]);
	EXPECT_EQ(0, pin[64]);
	get(out, b, 64);
	EXPECT_EQ(0x5a, out[10]);
	memset(pin, 0, 64);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, 3, at, idx, 2, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0x5a, pin[5]);
	aclrtFreeHost(pin);
}

/* The device's jobs_submitted counter (debugfs), or -1. */
static long long jobs_submitted(void)
{
	FILE *f = fopen("/sys/kernel/debug/accel/vnpu.0/stats", "r");
	long long n = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "jobs_submitted: %lld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* Eight device copies of one async batch reach the driver as one job. */
TEST_F(mx, batch_async_is_one_job)
{
	char *a = self->a, *b = self->b;
	void *dsts[8], *srcs[8];
	size_t sizes[8], maxs[8], idx[1] = { 0 }, fail;
	aclrtMemcpyBatchAttr at[1] = { attr(DEV, DEV) };
	unsigned char out[512];
	long long before;

	for (int i = 0; i < 8; i++) {
		dsts[i] = b + 64 * i;
		srcs[i] = a + 64 * i;
		sizes[i] = maxs[i] = 64;
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(a, 512, 0x77, 512));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	before = jobs_submitted();
	if (before < 0)
		SKIP(return, "no debugfs stats");
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 8, at, idx, 1,
						     &fail, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(before + 1, jobs_submitted());
	get(out, b, sizeof(out));
	EXPECT_EQ(0x77, out[0]);
	EXPECT_EQ(0x77, out[511]);
}

/* The copy whose location disagrees with its attribute is named. */
TEST_F(mx, batch_fail_index)
{
	char h[64], out[64];
	char *a = self->a;
	void *dsts[3] = { a, a + 64, h }, *srcs[3] = { h, h, a };
	size_t sizes[3] = { 64, 64, 64 }, maxs[3] = { 64, 64, 64 };
	aclrtMemcpyBatchAttr at[1] = { attr(DEV, HOST) };
	size_t idx[1] = { 0 }, fail = 0;

	memset(h, 0x33, sizeof(h));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(a, 128, 0, 128));
	/* Copy 2 is D2H but the only attribute says H2D. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, at, idx, 1, &fail));
	EXPECT_EQ(2, fail);
	/* Nothing was copied: the batch is checked first. */
	get(out, a, 64);
	EXPECT_EQ(0, out[0]);
	EXPECT_EQ(0, out[63]);
	fail = 0;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 3, at, idx, 1,
		  &fail, self->s));
	EXPECT_EQ(2, fail);
	/* size > destMax on copy 1. */
	maxs[1] = 63;
	fail = 0;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 1, &fail));
	EXPECT_EQ(1, fail);
	maxs[1] = 64;
	/* NULL dst on copy 0. */
	dsts[0] = NULL;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 1, &fail));
	EXPECT_EQ(0, fail);
	dsts[0] = a;
	/* Device id of the attribute is not the pointer's device. */
	at[0].dstLoc.id = 1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 1, &fail));
	EXPECT_EQ(0, fail);
}

TEST_F(mx, batch_argument_rejections)
{
	char h[64];
	void *dsts[2] = { self->a, self->b }, *srcs[2] = { h, h };
	size_t sizes[2] = { 64, 64 }, maxs[2] = { 64, 64 };
	aclrtMemcpyBatchAttr at[2] = { attr(DEV, HOST), attr(DEV, HOST) };
	size_t idx[2] = { 0, 1 }, fail = 0;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(NULL, maxs, srcs, sizes, 2, at, idx, 2, &fail));
	EXPECT_EQ(SIZE_MAX, fail);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, NULL, srcs, sizes, 2, at, idx, 2, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, NULL, sizes, 2, at, idx, 2, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, NULL, 2, at, idx, 2, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, at, idx, 2, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, NULL, idx, 2, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, NULL, 2, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 0, &fail));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 1, at, idx, 2, &fail));
	idx[0] = 1;		/* must start at 0 */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 1, &fail));
	idx[0] = 0; idx[1] = 0;	/* must increase */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail));
	idx[1] = 2;		/* past the last copy */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail));
	idx[1] = 1;
	at[1].srcLoc.type = ACL_MEM_LOCATION_TYPE_MANAGED;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail));
	EXPECT_EQ(SIZE_MAX, fail);
	at[1].srcLoc.type = HOST;
	at[1].rsv[3] = 1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail));
	at[1].rsv[3] = 0;
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 2, at, idx, 2,
		  &fail, (aclrtStream)h));
}

/* ------------------------------------- descriptors, base + offset -- */

#define INNER ACL_MEMCPY_INNER_DEVICE_TO_DEVICE

TEST_F(mx, memcpy_with_desc)
{
	char *a = self->a, *b = self->b, out[128];
	size_t size = 0;
	void *desc;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemcpyDescSize(INNER, &size));
	ASSERT_GE(size, 32);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&desc, size, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(a, 4096, 0x12, 4096));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(b, 4096, 0, 4096));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetMemcpyDesc(desc, INNER, a + 64, b + 128, 100, NULL));
	/* Earlier work on the stream is seen: a is rewritten first. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(a, 4096, 0x34, 4096, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsyncWithDesc(desc, INNER, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(out, b + 100, sizeof(out));
	EXPECT_EQ(0, out[27]);
	EXPECT_EQ(0x34, out[28]);
	EXPECT_EQ(0x34, out[127]);
	get(out, b + 228, 1);
	EXPECT_EQ(0, out[0]);
	/* Rejections. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &size));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetMemcpyDescSize(INNER, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(NULL, INNER, a, b, 8, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, INNER, NULL, b, 8, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, INNER, a, NULL, 8, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, INNER, a, b, 8, a));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, a, b, 8, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSetMemcpyDesc(out, INNER, a, b, 8, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(NULL, INNER, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEFAULT, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(out, INNER, self->s));
	/* Device memory that holds no descriptor. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(b, INNER, self->s));
	/* A descriptor naming host memory. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetMemcpyDesc(desc, INNER, out, b, 8, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithDesc(desc, INNER, self->s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemcpyAsyncWithDesc(desc, INNER, (aclrtStream)out));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(desc));
}

TEST_F(mx, memcpy_with_offset)
{
	char *a = self->a, *b = self->b, out[16];
	uint64_t bases[2] = { (uintptr_t)b, (uintptr_t)a };
	void *ptrs;
	void **dstp, **srcp;
	aclmdlRI ri;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&ptrs, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	put(ptrs, bases, sizeof(bases));
	dstp = (void **)ptrs;
	srcp = (void **)((char *)ptrs + 8);
	for (int i = 0; i < 16; i++)
		out[i] = (char)i;
	put(a + 32, out, 16);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(b, 4096, 0, 4096));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsyncWithOffset(dstp, 16, 256, (const void **)srcp, 16, 32,
							  INNER, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(out, b + 256, 16);
	EXPECT_EQ(0, out[0]);
	EXPECT_EQ(15, out[15]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(NULL, 16, 0, (const void **)srcp, 16, 0, INNER, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(dstp, 16, 0, NULL, 16, 0, INNER, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(dstp, 15, 0, (const void **)srcp, 16, 0, INNER, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(dstp, 16, 0, (const void **)srcp, 16, 0,
		  ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	/* The base pointers must be in device memory. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset((void **)bases, 16, 0, (const void **)srcp,
		  16, 0, INNER, self->s));
	/* An offset past the allocation. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(dstp, 16, 1ull << 40, (const void **)srcp,
		  16, 0, INNER, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsyncWithOffset(dstp, 16, SIZE_MAX, (const void **)srcp,
		  16, 0, INNER, self->s));
	/* Not capturable: the capture is not disturbed. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMemcpyAsyncWithOffset(dstp, 16, 0,
		  (const void **)srcp, 16, 0, INNER, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(b, 16, 1, 16, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(ptrs));
}

/* ----------------------------------------------------------- memset -- */

TEST_F(mx, memset_d32_device_pinned_pageable)
{
	uint32_t out[64], *pin, host[8];

	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetD32(self->a, 4096, 0xdeadbeef, 64));
	get(out, self->a, sizeof(out));
	EXPECT_EQ(0xdeadbeef, out[0]);
	EXPECT_EQ(0xdeadbeef, out[63]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetD32Async(self->a, 4096, 0x01020304, 3, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(out, self->a, sizeof(out));
	EXPECT_EQ(0x01020304, out[2]);
	EXPECT_EQ(0xdeadbeef, out[3]);

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&pin, 4096));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetD32Async(pin, 4096, 7, 1024, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(7, pin[0]);
	EXPECT_EQ(7, pin[1023]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetD32(pin, 8, 9, 2));
	EXPECT_EQ(9, pin[1]);
	EXPECT_EQ(7, pin[2]);
	aclrtFreeHost(pin);

	memset(host, 0, sizeof(host));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetD32(host, sizeof(host), 0xffff0000u, 7));
	EXPECT_EQ(0xffff0000u, host[6]);
	EXPECT_EQ(0, host[7]);
	EXPECT_EQ(ACL_SUCCESS, aclrtMemsetD32(self->a, 0, 1, 0));	/* N 0: nothing */
}

TEST_F(mx, memset_d32_rejections)
{
	char *a = self->a;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(NULL, 16, 1, 4));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(a, 15, 1, 4));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(a, SIZE_MAX, 1, SIZE_MAX / 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(a + 2, 16, 1, 4));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async(a, 15, 1, 4, self->s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemsetD32Async(a, 16, 1, 4, (aclrtStream)a));
}

/* aclrtMemset and aclrtMemsetAsync on aclrtMallocHost memory, as on CANN. */
TEST_F(mx, memset_pinned_host_sync_and_async)
{
	unsigned char *pin;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&pin, 8192));
	memset(pin, 0, 8192);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(pin, 8192, 0xab, 8192));
	EXPECT_EQ(0xab, pin[0]);
	EXPECT_EQ(0xab, pin[8191]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(pin + 100, 10, 0x1ff, 10));	/* low byte */
	EXPECT_EQ(0xff, pin[100]);
	EXPECT_EQ(0xff, pin[109]);
	EXPECT_EQ(0xab, pin[110]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(pin + 4096, 4096, 0x11, 4096, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0xab, pin[4095]);
	EXPECT_EQ(0x11, pin[4096]);
	EXPECT_EQ(0x11, pin[8191]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(pin, 8192, 0x22, 16, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(0x22, pin[15]);
	EXPECT_EQ(0xab, pin[16]);
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemset(pin, 8, 1, 9));
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(pin));
}

/* ------------------------------------------------------- allocation -- */

TEST_F(mx, malloc_with_cfg)
{
	aclrtMallocAttribute at[2];
	aclrtMallocConfig cfg = { at, 2 };
	void *p, *h;
	int v = 42;

	memset(at, 0, sizeof(at));
	at[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
	at[0].value.moduleId = 3;
	at[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	at[1].value.deviceId = 0;
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocWithCfg(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	EXPECT_EQ(0, (uintptr_t)p % 64);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(p, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	v = 0;
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&v, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(42, v);
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeWithDevSync(p));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeWithDevSync(p));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_NORMAL_ONLY, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(p));

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHostWithCfg(&h, 4096, &cfg));
	memset(h, 1, 4096);
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeHostWithDevSync(h));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHostWithDevSync(h));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHostWithCfg(&h, 100, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(h));
}

TEST_F(mx, malloc_with_cfg_rejections)
{
	aclrtMallocAttribute at[1];
	aclrtMallocConfig cfg = { at, 1 }, none = { NULL, 1 };
	void *p;

	memset(at, 0, sizeof(at));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &none));
	at[0].attr = ACL_RT_MEM_ATTR_RSV;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	at[0].attr = (aclrtMallocAttrType)77;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	at[0].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
	at[0].value.deviceId = 1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg(&p, 64, &cfg));
	at[0].attr = ACL_RT_MEM_ATTR_VA_FLAG;
	at[0].value.vaFlag = 1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg(NULL, 64, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg(&p, 0, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocHostWithCfg(&p, 64, &none));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtFreeWithDevSync(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtFreeHostWithDevSync(NULL));
}

TEST_F(mx, mem_usage_info)
{
	aclrtMemUsageInfo info[4];
	size_t n = 0;
	uint64_t base;
	void *p, *h;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemUsageInfo(0, info, 4, &n));
	ASSERT_EQ(2, n);
	EXPECT_STREQ("device", info[0].name);
	EXPECT_STREQ("host_pinned", info[1].name);
	EXPECT_GE(info[0].curMemSize, 8192);	/* the fixture's two blocks */
	base = info[0].curMemSize;
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&h, 65536));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemUsageInfo(0, info, 4, &n));
	EXPECT_EQ(base + (1 << 20) + 512, info[0].curMemSize);	/* 32 padding, 512 rounding */
	EXPECT_EQ(65536, info[1].curMemSize);
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p));
	ASSERT_EQ(ACL_SUCCESS, aclrtFreeHost(h));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemUsageInfo(0, info, 1, &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ(base, info[0].curMemSize);
	EXPECT_EQ(base + (1 << 20) + 512, info[0].memPeakSize);

	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo(-1, info, 4, &n));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo(64, info, 4, &n));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetMemUsageInfo(1, info, 4, &n));	/* not open */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, NULL, 4, &n));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, info, 0, &n));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, info, 4, NULL));
}

TEST_F(mx, check_mem_type)
{
	char host[8];
	void *list[3] = { self->a, (char *)self->b + 100, host };
	uint32_t r = 7;

	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0));
	EXPECT_EQ(1, r);
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &r, 0));
	EXPECT_EQ(1, r);
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
	EXPECT_EQ(0, r);
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DVPP, &r, 0));
	EXPECT_EQ(0, r);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(NULL, 1, ACL_RT_MEM_TYPE_DEV, &r, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &r, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, 0, &r, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, 0x1, &r, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 1));
}

/* Reserved virtual memory (aclrtReserveMemAddress) is RSVD, not DEV. */
static aclrtPhysicalMemProp dev0_prop(void)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_HBM_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	return p;
}

TEST_F(mx, check_mem_type_reserved_and_reduce_there)
{
	aclrtPhysicalMemProp prop = dev0_prop();
	const size_t chunk = 2u << 20;
	aclrtDrvMemHandle h;
	void *base, *list[2];
	int32_t x[2] = { 5, 6 }, y[2] = { 1, 2 }, r[2];
	uint32_t res = 7;

	ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddress(&base, 2 * chunk, 0, NULL, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocPhysical(&h, chunk, &prop, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMapMem(base, chunk, 0, h, 0));
	list[0] = base;
	list[1] = self->a;
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_RSVD, &res, 0));
	EXPECT_EQ(1, res);
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &res, 0));
	EXPECT_EQ(0, res);
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_RSVD, &res, 0));
	EXPECT_EQ(0, res);
	ASSERT_EQ(ACL_SUCCESS, aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_RSVD,
						 &res, 0));
	EXPECT_EQ(1, res);
	/* Mapped reserved memory is device memory for a reduce too... */
	put(base, x, sizeof(x));
	put(self->b, y, sizeof(y));
	ASSERT_EQ(ACL_SUCCESS, aclrtReduceAsync(base, self->b, sizeof(x),
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, self->s, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(r, base, sizeof(r));
	EXPECT_EQ(6, r[0]);
	EXPECT_EQ(8, r[1]);
	/* ...but not its unmapped part. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync((char *)base + chunk, self->b, 8,
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, self->s, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReduceAsync((char *)base + chunk - 4, self->b, 8,
		  ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, self->s, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclrtUnmapMem(base));
	EXPECT_EQ(ACL_SUCCESS, aclrtFreePhysical(h));
	EXPECT_EQ(ACL_SUCCESS, aclrtReleaseMemAddress(base));
}

TEST_F(mx, flush_and_invalidate)
{
	char host[64];
	char *a = self->a;

	EXPECT_EQ(ACL_SUCCESS, aclrtMemFlush(a, 4096));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemInvalidate(a + 64, 128));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(NULL, 64));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(a, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemInvalidate(host, 64));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemFlush(a, SIZE_MAX));
}

TEST_F(mx, host_register_v2)
{
	char *buf = aligned_alloc(4096, 8192), out[16];
	void *dptr = NULL;
	float x[2] = { 1.0f, 2.0f };

	ASSERT_NE(NULL, buf);
	memset(buf, 0x44, 8192);
	ASSERT_EQ(ACL_SUCCESS, aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_MAPPED));
	ASSERT_EQ(ACL_SUCCESS, aclrtHostGetDevicePointer(buf + 16, &dptr, 0));
	ASSERT_NE(NULL, dptr);
	/* The device address reaches the caller's pages. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->a, 16, dptr, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	put(self->b, x, sizeof(x));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dptr, 8, self->b, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	get(out, self->a, 16);
	EXPECT_EQ(0x44, out[0]);
	EXPECT_EQ(0x44, out[15]);
	EXPECT_EQ(0, memcmp(buf + 16, x, 8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_PINNED));
	EXPECT_EQ(ACL_SUCCESS, aclrtHostUnregister(buf));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(buf, &dptr, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(buf, 8192, 0x1));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_IOMEMORY));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_READONLY));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(NULL, 8192, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(buf, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(NULL, &dptr, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(buf, NULL, 0));
	EXPECT_EQ(ACL_SUCCESS, aclrtHostRegisterV2(buf, 8192, ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(buf, &dptr, 1));
	EXPECT_EQ(ACL_SUCCESS, aclrtHostUnregister(buf));
	free(buf);
}

TEST_HARNESS_MAIN
