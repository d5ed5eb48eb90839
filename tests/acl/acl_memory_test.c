// SPDX-License-Identifier: MIT
/*
 * ACL memory tests on the real driver: the caching allocator (reuse with
 * no new BO), double free, copies of every kind with data checked,
 * destMax, zero length, memset, aclrtMallocHost with async copies,
 * aclrtGetMemInfo. Each TEST is a fresh process.
 */
/* The harness fixture macros trip -Wclobbered with this file at -O1. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "acl/acl.h"
#include "kselftest_harness.h"
#include "vnpu_param.h"

FIXTURE(mem) {
	int unused;
};

FIXTURE_SETUP(mem)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

FIXTURE_TEARDOWN(mem)
{
	aclrtResetDevice(0);
	aclFinalize();
}

/*
 * Every block starts on 512 bytes, whatever the sizes before it: ggml's
 * CANN buffers place tensors at 128-byte offsets inside one block and
 * count on the block's own start being at least that aligned.
 */
TEST_F(mem, malloc_alignment_512)
{
	static const size_t sizes[] = { 1, 31, 32, 33, 64, 100, 128, 511,
					512, 513, 4000, 4096, 70000 };
	void *p[sizeof(sizes) / sizeof(sizes[0])];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p[i], sizes[i],
						   ACL_MEM_MALLOC_HUGE_FIRST));
		EXPECT_EQ(0, (uintptr_t)p[i] % 512);
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtFree(p[i]));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocAlign32(&p[0], 3, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(0, (uintptr_t)p[0] % 512);
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p[0]));
}

TEST_F(mem, malloc_reuse_no_new_bo)
{
	void *p, *q, *r;
	uint64_t n;
	int pol;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(0, (uintptr_t)p % 512);
	n = bo_count();
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
	EXPECT_EQ(p, q);
	for (pol = 0; pol <= ACL_MEM_MALLOC_HUGE1G_ONLY_P2P; pol++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&r, 4096, (aclrtMemMallocPolicy)pol));
		ASSERT_EQ(ACL_SUCCESS, aclrtFree(r));
	}
	EXPECT_EQ(n, bo_count());
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(q));
	/* Double free and unknown pointers. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(q));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree((char *)q + 64));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtFree(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST));
}

TEST_F(mem, memcpy_all_kinds)
{
	char src[256], h[256], back[256];
	void *d1, *d2;
	int i;

	for (i = 0; i < 256; i++)
		src[i] = (char)i;
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d1, 256, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d2, 256, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, 256, src, 256, ACL_MEMCPY_HOST_TO_HOST));
	EXPECT_EQ(0, memcmp(h, src, 256));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d1, 256, src, 256, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d2, 256, d1, 256, ACL_MEMCPY_DEVICE_TO_DEVICE));
	memset(back, 0, sizeof(back));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back, 256, d2, 256, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0, memcmp(back, src, 256));
	/* DEFAULT infers each direction. */
	memset(back, 0, sizeof(back));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d1, 256, src + 1, 255, ACL_MEMCPY_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d2, 256, d1, 255, ACL_MEMCPY_DEFAULT));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back, 256, d2, 255, ACL_MEMCPY_DEFAULT));
	EXPECT_EQ(0, memcmp(back, src + 1, 255));
	/* Limits. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemcpy(d1, 128, src, 256, ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(d1, 256, NULL, 16, ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(d1, 256, src, 16, (aclrtMemcpyKind)7));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d1, 0, src, 0, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemcpyAsync(d1, 8, src, 16, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	/* Async with pageable memory: done by the time the call returns a sync. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d1, 256, src, 256, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	memset(back, 0, sizeof(back));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(back, 256, d1, 256, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(0, memcmp(back, src, 256));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d1));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d2));
}

TEST_F(mem, memset_sync_async)
{
	unsigned char back[4096];
	void *d;
	int i, ok = 1;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(d, 4096, 0x1a7, 4096));	/* low byte */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d, 4096, 0x33, 100, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < 4096; i++)
		ok &= back[i] == (i < 100 ? 0x33 : 0xa7);
	EXPECT_TRUE(ok);
	EXPECT_EQ(ACL_SUCCESS, aclrtMemset(d, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemset(d, 10, 0, 11));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemset(NULL, 10, 0, 10));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d));
}

TEST_F(mem, malloc_host_async_copies)
{
	unsigned char *h1, *h2;
	aclrtStream s;
	void *d;
	int i, ok = 1;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&h1, 1 << 20));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&h2, 1 << 20));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	for (i = 0; i < (1 << 20); i++)
		h1[i] = (unsigned char)(i * 7);
	memset(h2, 0, 1 << 20);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d, 1 << 20, h1, 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(h2 + 16, (1 << 20) - 16, d, 1000, ACL_MEMCPY_DEVICE_TO_HOST, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	for (i = 0; i < 1000; i++)
		ok &= h2[16 + i] == (unsigned char)(i * 7);
	EXPECT_TRUE(ok);
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d));
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(h1));
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(h2));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHost(h2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocHost((void **)&h1, 0));
}

TEST_F(mem, get_mem_info)
{
	size_t f0, t0, f1, t1, f2, t2;
	void *big;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_HBM_MEM, &f0, &t0));
	EXPECT_GT(t0, 0);
	EXPECT_LE(f0, t0);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&big, 100u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1));
	EXPECT_EQ(t0, t1);
	EXPECT_LE(f1 + (100u << 20), f0);
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(big));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_DDR_MEM, &f2, &t2));
	EXPECT_EQ(f0, f2);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, NULL, &t2));
}

TEST_F(mem, pointer_attributes)
{
	long pg = sysconf(_SC_PAGESIZE);
	aclrtPtrAttributes at;
	void *d0, *d1, *h, *reg_dev, *reg;
	int plain[4];

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d0, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(d0, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, at.location.type);
	EXPECT_EQ(0, at.location.id);
	EXPECT_GT(at.pageSize, 0);
	/* Inside the allocation too. */
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes((char *)d0 + 100, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, at.location.type);

	/* Device 1's memory says device 1, whichever device is current. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d1, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_NE(d0, d1);
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(d1, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, at.location.type);
	EXPECT_EQ(1, at.location.id);
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(d0, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, at.location.type);
	EXPECT_EQ(0, at.location.id);
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&h, 1000));
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(h, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, at.location.type);
	EXPECT_EQ(pg, at.pageSize);

	reg = aligned_alloc(pg, pg);
	ASSERT_NE(NULL, reg);
	ASSERT_EQ(ACL_SUCCESS, aclrtHostRegister(reg, pg, ACL_HOST_REGISTER_MAPPED, &reg_dev));
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(reg, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, at.location.type);
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(reg_dev, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, at.location.type);
	ASSERT_EQ(ACL_SUCCESS, aclrtHostUnregister(reg));
	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(reg, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, at.location.type);

	ASSERT_EQ(ACL_SUCCESS, aclrtPointerGetAttributes(plain, &at));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, at.location.type);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(NULL, &at));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(plain, NULL));

	free(reg);
	EXPECT_EQ(ACL_SUCCESS, aclrtFreeHost(h));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d0));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d1));
	aclrtResetDevice(1);
}


static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 13 + seed);
}

TEST_F(mem, copy_between_devices)
{
	size_t n = (9u << 20) + 12345;	/* several bounce chunks, odd tail */
	unsigned char *src = malloc(n), *out = malloc(n);
	aclrtStream s1;
	void *d0, *d1;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, out);
	fill_pattern(src, n, 5);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d0, n, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d0, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d1, n, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_NE(d0, d1);

	/* Synchronous, device 0 -> device 1, device 1 current. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d1, n, d0, n, ACL_MEMCPY_DEVICE_TO_DEVICE));
	memset(out, 0, n);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, n, d1, n, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0, memcmp(out, src, n));

	/* Reading the peer's memory straight to the host works as well. */
	memset(out, 0, n);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, n, d0, n, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0, memcmp(out, src, n));

	/* Async on a device-1 stream: ordered after its memset, 1 -> 0. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d1, n, 0x77, 4096, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d0, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s1));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s1));

	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	memset(out, 0, n);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, n, d0, n, ACL_MEMCPY_DEVICE_TO_HOST));
	for (size_t i = 0; i < 4096; i++)
		src[i] = 0x77;
	EXPECT_EQ(0, memcmp(out, src, n));

	/* An async copy on device 0 sees device 1's earlier async work. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d1, n, 0x19, n, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(d0, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, n, d0, n, ACL_MEMCPY_DEVICE_TO_HOST));
	memset(src, 0x19, n);
	EXPECT_EQ(0, memcmp(out, src, n));

	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d0));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(d1));
	aclrtResetDevice(1);
	free(src);
	free(out);
}

TEST_HARNESS_MAIN
