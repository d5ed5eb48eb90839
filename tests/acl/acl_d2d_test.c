// SPDX-License-Identifier: MIT
/*
 * Device-to-device copies and fills through ACL, checked byte for byte
 * against a host model: odd sizes and offsets, ranges crossing pages,
 * copies between different BOs (two chunks, a chunk and a BO of its own),
 * overlapping ranges, and device page faults on addresses past an
 * allocation or freed. Async copies are COPY/FILL tasks on an engine,
 * sync ones the MEMCPY ioctl (DEVICE_TO_DEVICE) and a FILL task.
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

#define BUF (64u << 10)
#define BIG (17u << 20)		/* a BO of its own (16 MiB and more) */

FIXTURE(d2d) {
	aclrtStream s;
	uint8_t *a, *b;		/* device */
	uint8_t ha[BUF], hb[BUF], back[BUF];	/* host models */
};

static void fill_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + seed + (i >> 9));
}

FIXTURE_SETUP(d2d)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&self->a, BUF, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&self->b, BUF, ACL_MEM_MALLOC_HUGE_FIRST));
	fill_pattern(self->ha, BUF, 1);
	fill_pattern(self->hb, BUF, 99);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->a, BUF, self->ha, BUF, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->b, BUF, self->hb, BUF, ACL_MEMCPY_HOST_TO_DEVICE));
}

FIXTURE_TEARDOWN(d2d)
{
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

/* Bytes of device buffer d that differ from the host model m. */
static size_t diff(uint8_t *back, const void *d, const uint8_t *m, size_t n)
{
	size_t bad = 0;

	if (aclrtMemcpy(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST))
		return SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		bad += back[i] != m[i];
	return bad;
}

static const struct { size_t soff, doff, n; } cases[] = {
	{ 0, 0, 1 }, { 1, 4093, 5000 }, { 4095, 3, 8193 }, { 63, 65, 12291 },
	{ 4096, 8191, 4096 }, { 17, 0, 40000 }, { 0, 1, BUF - 1 },
};

/* Odd sizes and offsets, across pages, async and sync, other bytes kept. */
TEST_F(d2d, odd_offsets_and_sizes)
{
	for (int sync = 0; sync < 2; sync++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			size_t so = cases[k].soff, dof = cases[k].doff, n = cases[k].n;

			aclError r = sync ?
				aclrtMemcpy(self->b + dof, BUF - dof, self->a + so, n,
					    ACL_MEMCPY_DEVICE_TO_DEVICE) :
				aclrtMemcpyAsync(self->b + dof, BUF - dof, self->a + so,
						 n, ACL_MEMCPY_DEVICE_TO_DEVICE, self->s);

			ASSERT_EQ(ACL_SUCCESS, r);
			ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
			memcpy(self->hb + dof, self->ha + so, n);
			EXPECT_EQ(0, diff(self->back, self->b, self->hb, BUF)) {
				TH_LOG("case %zu (%s)", k, sync ? "sync" : "async");
			}
		}
}

/* Fills of odd ranges, async and sync; bytes around them stay. */
TEST_F(d2d, fill_odd_ranges)
{
	for (int sync = 0; sync < 2; sync++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			size_t off = cases[k].doff, n = cases[k].n;
			int v = 0x40 + (int)k + sync * 16;
			aclError r = sync ?
				aclrtMemset(self->b + off, BUF - off, v, n) :
				aclrtMemsetAsync(self->b + off, BUF - off, v, n, self->s);

			ASSERT_EQ(ACL_SUCCESS, r);
			ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
			memset(self->hb + off, v, n);
			EXPECT_EQ(0, diff(self->back, self->b, self->hb, BUF)) {
				TH_LOG("case %zu (%s)", k, sync ? "sync" : "async");
			}
		}
}

/* Between two BOs: a chunk and a BO of its own, both ways, odd ends. */
TEST_F(d2d, between_bos)
{
	uint8_t *big, *model = malloc(BIG), *back = malloc(BIG);
	size_t n = BUF - 5;

	ASSERT_NE(NULL, model);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&big, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	fill_pattern(model, BIG, 5);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(big, BIG, model, BIG, ACL_MEMCPY_HOST_TO_DEVICE));
	/* Chunk -> the end of the big BO, up to its last byte. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(big + BIG - n, n, self->a + 3, n,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	memcpy(model + BIG - n, self->ha + 3, n);
	/* The big BO's middle (many pages) -> the chunk. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b + 1, BUF - 1, big + (5u << 20) + 7,
						BUF - 1, ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	memcpy(self->hb + 1, model + (5u << 20) + 7, BUF - 1);
	EXPECT_EQ(0, diff(self->back, self->b, self->hb, BUF));
	EXPECT_EQ(0, diff(back, big, model, BIG));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(big));
	free(model);
	free(back);
}

/*
 * Overlapping ranges of one buffer: an async copy moves the bytes as
 * memmove does, in either direction. The synchronous copy refuses an
 * overlap (the MEMCPY ioctl's -EINVAL) and leaves the bytes alone.
 */
TEST_F(d2d, overlap)
{
	size_t n = 20000;

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->a + 4099, BUF - 4099, self->a + 1, n,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	memmove(self->ha + 4099, self->ha + 1, n);
	EXPECT_EQ(0, diff(self->back, self->a, self->ha, BUF));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->a + 10, BUF - 10, self->a + 5000, n,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	memmove(self->ha + 10, self->ha + 5000, n);
	EXPECT_EQ(0, diff(self->back, self->a, self->ha, BUF));
	/* Synchronous: refused, nothing moved. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclrtMemcpy(self->a + 100, BUF - 100, self->a, 200,
			      ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(0, diff(self->back, self->a, self->ha, BUF));
}

/*
 * Device page faults: past the end of a BO of its own, and at the address
 * of a freed one. The async copy fails at the sync, the destination is
 * untouched, and the stream works again afterwards.
 */
TEST_F(d2d, faults)
{
	uint8_t *big, *gone;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&big, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&gone, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(gone));
	/* Reading past the end of the BO (BIG + 64 bytes with the padding). */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b, BUF, big + BIG - 100, 4096,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0, diff(self->back, self->b, self->hb, BUF));
	/* Writing to a freed BO's address. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(gone, BUF, self->a, BUF,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(gone, BUF, 1, BUF, self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(self->s));
	/* Synchronous copies fault at once. */
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION,
		  aclrtMemcpy(gone, BUF, self->a, BUF, ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION,
		  aclrtMemcpy(self->b, BUF, big + BIG - 100, 4096,
			      ACL_MEMCPY_DEVICE_TO_DEVICE));
	EXPECT_EQ(0, diff(self->back, self->b, self->hb, BUF));
	/* The stream still works. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->b, BUF, self->a, BUF,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0, diff(self->back, self->b, self->ha, BUF));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(big));
}

/*
 * The first write into fresh memory (no page populated yet) goes into the
 * page cache directly: the written bytes land, and every other byte of
 * the object, in partly written pages or never written ones, reads 0.
 */
TEST_F(d2d, first_write_into_fresh_memory)
{
	uint8_t *f1, *f2, *model = calloc(1, BIG), *back = malloc(BIG);
	size_t off = 5000, n = (3u << 20) + 7, coff = 4097, cn = BUF - 3;

	ASSERT_NE(NULL, model);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&f1, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&f2, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	/* A fill, then (object now mapped) a second one over its end. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(f1 + off, BIG - off, 0xa9, n, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(f1 + off + n - 3, BIG, 0x17, 10, self->s));
	/* A copy into the other fresh object, odd offset and length. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(f2 + coff, BIG - coff, self->a + 1, cn,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	memset(model + off, 0xa9, n);
	memset(model + off + n - 3, 0x17, 10);
	EXPECT_EQ(0, diff(back, f1, model, BIG));
	memset(model, 0, BIG);
	memcpy(model + coff, self->ha + 1, cn);
	EXPECT_EQ(0, diff(back, f2, model, BIG));
	/* A whole fresh object, copied from another: the bytes arrive. */
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(f1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&f1, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(f1, BIG, f2, BIG,
						ACL_MEMCPY_DEVICE_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0, diff(back, f1, model, BIG));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(f1));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(f2));
	free(model);
	free(back);
}

TEST_HARNESS_MAIN
