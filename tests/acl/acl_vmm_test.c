// SPDX-License-Identifier: MIT
/*
 * ACL virtual memory management on the real driver: reserve 64 MiB, map
 * 2 MiB physical chunks side by side, aclrtMemcpy (sync and async) and
 * an aclnn operator across chunk boundaries, retain/properties/access
 * queries, unmap/free/release in CANN's order and out of it, and every
 * error code. Each TEST is a fresh process.
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"
#include "vnpu_param.h"

#define MB		(1ull << 20)
#define CHUNK		(2 * MB)
#define RESV		(64 * MB)

static aclrtPhysicalMemProp dev_prop(void)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_HBM_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	return p;
}

FIXTURE(vmm) {
	void *base;
	aclrtDrvMemHandle h[4];
};

FIXTURE_SETUP(vmm)
{
	aclrtPhysicalMemProp prop = dev_prop();

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddress(&self->base, RESV, 0, NULL, 0));
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMallocPhysical(&self->h[i], CHUNK, &prop, 0));
		ASSERT_EQ(ACL_SUCCESS, aclrtMapMem((char *)self->base + i * CHUNK,
						   CHUNK, 0, self->h[i], 0));
	}
}

FIXTURE_TEARDOWN(vmm)
{
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(vmm, granularity_and_properties)
{
	aclrtPhysicalMemProp prop = dev_prop(), got;
	aclrtMemLocation loc = { .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	aclrtDrvMemHandle r;
	size_t g = 0;
	uint64_t flag = 99;
	void *b = NULL;
	size_t sz = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemGetAllocationGranularity(
		&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
	EXPECT_EQ(CHUNK, g);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemGetAllocationGranularity(
		&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g));
	EXPECT_EQ(CHUNK, g);
	EXPECT_EQ(0, (uintptr_t)self->base % CHUNK);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemGetAllocationPropertiesFromHandle(self->h[1], &got));
	EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, got.location.type);
	EXPECT_EQ(0, got.location.id);
	EXPECT_EQ(ACL_HBM_MEM_HUGE, got.memAttr);
	EXPECT_EQ(ACL_MEM_ALLOCATION_TYPE_PINNED, got.allocationType);
	/* The handle of a mapped address, from inside the second chunk. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemRetainAllocationHandle(
		(char *)self->base + CHUNK + 12345, &r));
	EXPECT_EQ(self->h[1], r);
	EXPECT_EQ(ACL_SUCCESS, aclrtFreePhysical(r));
	/* Access: read-write for device 0, nothing for the host. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemGetAccess(self->base, &loc, &flag));
	EXPECT_EQ(ACL_RT_MEM_ACCESS_FLAGS_READWRITE, flag);
	loc.type = ACL_MEM_LOCATION_TYPE_HOST;
	ASSERT_EQ(ACL_SUCCESS, aclrtMemGetAccess(self->base, &loc, &flag));
	EXPECT_EQ(ACL_RT_MEM_ACCESS_FLAGS_NONE, flag);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemGetAddressRange((char *)self->base + 5 * MB, &b, &sz));
	EXPECT_EQ(self->base, b);
	EXPECT_EQ(RESV, sz);
}

TEST_F(vmm, memcpy_across_chunks)
{
	size_t n = 5 * MB, i;
	uint8_t *in = malloc(n), *out = malloc(n);
	char *p = (char *)self->base + MB + 3;	/* spans three seams */
	aclrtStream s;

	for (i = 0; i < n; i++)
		in[i] = (uint8_t)(i * 7 + (i >> 12));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(p, n, in, n, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(out, 0, n);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0, memcmp(in, out, n));
	/* Device to device on a stream: chunk 3 and into 4 <- chunks 0..1. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync((char *)self->base + 3 * CHUNK - 64,
						CHUNK, (char *)self->base + CHUNK - 64,
						CHUNK, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	memset(out, 0, n);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, CHUNK, (char *)self->base + 3 * CHUNK - 64,
					   CHUNK, ACL_MEMCPY_DEVICE_TO_HOST));
	/* base + CHUNK - 64 is in[CHUNK - 64 - (MB + 3)]. */
	EXPECT_EQ(0, memcmp(out, in + CHUNK - 64 - MB - 3, CHUNK));
	/* Memset across a seam. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset((char *)self->base + CHUNK - 10, 20, 0xab, 20));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, 20, (char *)self->base + CHUNK - 10, 20,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < 20; i++)
		EXPECT_EQ(0xab, out[i]);
	/* Past the last mapped chunk: nothing there. */
	EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(out, 128, (char *)self->base + 4 * CHUNK - 64,
					   128, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	free(in);
	free(out);
}

TEST_F(vmm, aclnn_add_across_chunks)
{
	const int64_t n = 300000;	/* 1.2 MB of floats */
	int64_t sh[1] = { n }, st[1] = { 1 };
	float *a = malloc(n * 4), *b = malloc(n * 4), *o = malloc(n * 4);
	char *pa = (char *)self->base + CHUNK - 400000;
	char *pb = (char *)self->base + 2 * CHUNK - 600000;
	char *po = (char *)self->base + 3 * CHUNK - 4000;
	aclTensor *ta, *tb, *to;
	aclScalar *alpha;
	aclOpExecutor *ex;
	uint64_t ws = 0;
	float one = 1.0f;
	int64_t i, bad = 0;

	for (i = 0; i < n; i++) {
		a[i] = (float)(i % 1000) * 0.25f;
		b[i] = (float)(i % 77) - 30.0f;
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(pa, n * 4, a, n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(pb, n * 4, b, n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ta = aclCreateTensor(sh, 1, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sh, 1, pa);
	tb = aclCreateTensor(sh, 1, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sh, 1, pb);
	to = aclCreateTensor(sh, 1, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sh, 1, po);
	alpha = aclCreateScalar(&one, ACL_FLOAT);
	ASSERT_NE(NULL, ta);
	ASSERT_NE(NULL, to);
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	ASSERT_EQ(0, ws);
	ASSERT_EQ(0, aclnnAdd(NULL, 0, ex, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(o, n * 4, po, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < n; i++)
		bad += o[i] != a[i] + b[i];
	EXPECT_EQ(0, bad);
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyScalar(alpha);
	free(a);
	free(b);
	free(o);
}

/* CANN's order, then the device holds no more objects than before. */
TEST_F(vmm, teardown_in_order)
{
	uint64_t objs = bo_count();
	int i;

	for (i = 0; i < 4; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtUnmapMem((char *)self->base + i * CHUNK));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtFreePhysical(self->h[i]));
	ASSERT_EQ(ACL_SUCCESS, aclrtReleaseMemAddress(self->base));
	EXPECT_EQ(objs - 4, bo_count());
}

/* Free while mapped: the memory stays until unmapped. */
TEST_F(vmm, free_while_mapped)
{
	uint64_t objs = bo_count();
	uint32_t v = 0x1234abcd, got = 0;
	aclrtDrvMemHandle r;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy((char *)self->base + 8, 4, &v, 4,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtFreePhysical(self->h[0]));
	EXPECT_EQ(objs, bo_count());
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&got, 4, (char *)self->base + 8, 4,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(v, got);
	/* Its handle is dead: a second free and new mappings fail. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreePhysical(self->h[0]));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMapMem((char *)self->base + 8 * CHUNK, CHUNK, 0, self->h[0], 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemRetainAllocationHandle(self->base, &r));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtReleaseMemAddress(self->base));
	ASSERT_EQ(ACL_SUCCESS, aclrtUnmapMem(self->base));
	EXPECT_EQ(objs - 1, bo_count());
	/* Now nothing is mapped there. */
	EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(&got, 4, (char *)self->base + 8, 4,
					   ACL_MEMCPY_DEVICE_TO_HOST));
}

/* Remapping a chunk elsewhere and a part of a bigger allocation. */
TEST_F(vmm, remap_and_offset)
{
	aclrtPhysicalMemProp prop = dev_prop();
	aclrtDrvMemHandle big;
	uint32_t v = 77, got = 0;
	char *b = self->base;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(b + CHUNK + 4, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtUnmapMem(b + CHUNK));
	ASSERT_EQ(ACL_SUCCESS, aclrtMapMem(b + 10 * CHUNK, CHUNK, 0, self->h[1], 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&got, 4, b + 10 * CHUNK + 4, 4,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(v, got);
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocPhysical(&big, 3 * CHUNK, &prop, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMapMem(b + CHUNK, CHUNK, 2 * CHUNK, big, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMapMem(b + 20 * CHUNK, 3 * CHUNK, 0, big, 0));
	v = 99;
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(b + 22 * CHUNK + 100, 4, &v, 4,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(&got, 4, b + CHUNK + 100, 4,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(v, got);
}

TEST_F(vmm, reserve_errors)
{
	void *p = NULL;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(NULL, CHUNK, 0, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&p, 0, 0, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&p, CHUNK + 4096, 0, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&p, CHUNK, 3 * CHUNK, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&p, CHUNK, 0, self->base, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&p, CHUNK, 0, NULL, 7));
	EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION,
		  aclrtReserveMemAddress(&p, DRM_VNPU_VM_MAX_RESERVE_SIZE + CHUNK, 0, NULL, 0));
	EXPECT_EQ(NULL, p);
	/* A huge alignment is honoured; NoUCMemory is the same call. */
	ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddress(&p, CHUNK, 1ull << 30, NULL, 1));
	EXPECT_EQ(0, (uintptr_t)p % (1ull << 30));
	EXPECT_EQ(ACL_SUCCESS, aclrtReleaseMemAddress(p));
	ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddressNoUCMemory(&p, CHUNK, 0, NULL, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtReleaseMemAddress((char *)p + CHUNK / 2));
	EXPECT_EQ(ACL_SUCCESS, aclrtReleaseMemAddress(p));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtReleaseMemAddress(p));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtReleaseMemAddress(NULL));
	/* With mappings. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtReleaseMemAddress(self->base));
}

TEST_F(vmm, malloc_physical_errors)
{
	aclrtPhysicalMemProp prop = dev_prop();
	aclrtDrvMemHandle h;
	size_t g;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(NULL, CHUNK, &prop, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, 0, &prop, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK - 4096, &prop, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, &prop, 1));
	prop.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, &prop, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(
		&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
	prop = dev_prop();
	prop.location.id = 1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, &prop, 0));
	prop = dev_prop();
	prop.allocationType = (aclrtMemAllocationType)1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, &prop, 0));
	prop = dev_prop();
	prop.handleType = (aclrtMemHandleType)1;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, &prop, 0));
	prop = dev_prop();
	prop.memAttr = (aclrtMemAttr)99;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, CHUNK, &prop, 0));
	prop = dev_prop();
	/* More than the device has (1 GiB by default). */
	EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION,
		  aclrtMallocPhysical(&h, 64ull << 30, &prop, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(
		&prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &g));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(
		&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtFreePhysical(NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreePhysical((aclrtDrvMemHandle)&prop));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemGetAllocationPropertiesFromHandle((aclrtDrvMemHandle)&prop, &prop));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtMemGetAllocationPropertiesFromHandle(self->h[0], NULL));
}

TEST_F(vmm, map_unmap_errors)
{
	aclrtPhysicalMemProp prop = dev_prop();
	aclrtDrvMemHandle h;
	char *b = self->base;
	void *other;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocPhysical(&h, 2 * CHUNK, &prop, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(NULL, CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, CHUNK, 0, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, CHUNK, 0, h, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, 0, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK + 4096, CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, 4096, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, CHUNK, 4096, h, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, CHUNK, 2 * CHUNK, h, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMapMem(b + 8 * CHUNK, 3 * CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMapMem(b + 8 * CHUNK, CHUNK, 0, (aclrtDrvMemHandle)&prop, 0));
	/* Overlap, outside the reservation, across its end. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMapMem(b + 3 * CHUNK, CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMapMem(b + 3 * CHUNK, 2 * CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMapMem(b + RESV, CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMapMem(b + RESV - CHUNK, 2 * CHUNK, 0, h, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMapMem((void *)(uintptr_t)DRM_VNPU_VA_DEVICE_START, CHUNK, 0, h, 0));
	/* Across two reservations that happen to be neighbours. */
	ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddress(&other, CHUNK, 0, NULL, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMapMem(other, 2 * CHUNK, 0, h, 0));
	/* Unmap: only whole mappings by their start. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtUnmapMem(NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtUnmapMem(b + CHUNK + 4096));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtUnmapMem(b + 8 * CHUNK));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtUnmapMem(other));
	EXPECT_EQ(ACL_SUCCESS, aclrtUnmapMem(b + CHUNK));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtUnmapMem(b + CHUNK));
	/* Every failure left the rest in place. */
	EXPECT_EQ(ACL_SUCCESS, aclrtMapMem(b + CHUNK, CHUNK, CHUNK, h, 0));
}

TEST_F(vmm, access_and_unsupported)
{
	aclrtMemAccessDesc d;
	aclrtMemLocation loc = { .id = 0, .type = ACL_MEM_LOCATION_TYPE_DEVICE };
	uint64_t flag, sh;
	aclrtDrvMemHandle h;
	void *b = NULL;
	size_t sz;

	memset(&d, 0, sizeof(d));
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	d.location = loc;
	EXPECT_EQ(ACL_SUCCESS, aclrtMemSetAccess(self->base, 4 * CHUNK, &d, 1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemSetAccess(self->base, 5 * CHUNK, &d, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(self->base, CHUNK, &d, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(self->base, CHUNK, NULL, 1));
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMemSetAccess(self->base, CHUNK, &d, 1));
	d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
	d.location.id = 1;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMemSetAccess(self->base, CHUNK, &d, 1));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemGetAccess((char *)self->base + 4 * CHUNK, &loc, &flag));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemGetAccess(self->base, NULL, &flag));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  aclrtMemMapNoAccess((char *)self->base + 8 * CHUNK, CHUNK, 0, self->h[0], 0));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  aclrtMemExportToShareableHandle(self->h[0], ACL_MEM_HANDLE_TYPE_POSIX, 0, &sh));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  aclrtMemImportFromShareableHandle(1, 0, &h));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMemGetAddressRange(&sz, &b, &sz));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(self->base, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemRetainAllocationHandle((char *)self->base + 4 * CHUNK, &h));
}

/* aclrtResetDevice drops everything; a new reservation starts clean. */
TEST_F(vmm, reset_releases_all)
{
	aclrtPhysicalMemProp prop = dev_prop();
	aclrtDrvMemHandle h;
	void *p;

	/* This process was the device's only user. */
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(0, bo_count());
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreePhysical(self->h[0]));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtReserveMemAddress(&p, CHUNK, 0, NULL, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocPhysical(&h, CHUNK, &prop, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMapMem(p, CHUNK, 0, h, 0));
}

TEST_HARNESS_MAIN
