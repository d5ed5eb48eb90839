// SPDX-License-Identifier: GPL-2.0-only
/*
 * Data round trips through mmap and DRM_IOCTL_VNPU_MEMCPY: CPU to device
 * and back, mmap offsets and lengths, device-to-device copies of every
 * placement pair, partial copies and 256 MiB in one copy. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_test_util.h"

static const uint64_t data_sizes[] = { 1, 63, 64, 65, PG, PG + 1, 3 * PG + 123,
				       SZ_2M + 1 };

/* Written through the CPU view, read with device-to-host copies. */
TEST_F(mem, cpu_write_device_read)
{
	unsigned int p, i;
	struct tbo b;

	NEED_DEVICE_MEM(4 << 20);

	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		for (i = 0; i < ARRAY_LEN(data_sizes); i++) {
			uint64_t size = data_sizes[i];
			uint8_t *want, *got;

			if (all_places[p] == DRM_VNPU_PLACEMENT_USER)
				size = PAGE_UP(size);
			want = malloc(size);
			got = malloc(size + 128);
			ASSERT_NE(NULL, want);
			ASSERT_NE(NULL, got);
			tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
			pattern(want, size, 100 + i);
			memcpy(b.cpu, want, size);
			memset(got, 0xa5, size + 128);
			ASSERT_EQ(0, d2h(self->fd, got, b.va, size));
			EXPECT_BYTES(want, got, size, place_name[all_places[p]]);
			/* Nothing after the copied range was written. */
			EXPECT_EQ(-1, first_not(got, size, size + 128, 0xa5));
			tbo_free(self->fd, &b);
			free(want);
			free(got);
		}
	}
}

/* Written with host-to-device copies, read through the CPU view. */
TEST_F(mem, device_write_cpu_read)
{
	unsigned int p, i;
	struct tbo b;

	NEED_DEVICE_MEM(4 << 20);

	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		for (i = 0; i < ARRAY_LEN(data_sizes); i++) {
			uint64_t size = data_sizes[i];
			uint8_t *want;

			if (all_places[p] == DRM_VNPU_PLACEMENT_USER)
				size = PAGE_UP(size);
			want = malloc(size);
			ASSERT_NE(NULL, want);
			tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
			/* User memory starts out with a known background. */
			if (all_places[p] == DRM_VNPU_PLACEMENT_USER)
				memset(b.cpu, 0x5a, b.cpu_len);
			pattern(want, size, 200 + i);
			ASSERT_EQ(0, h2d(self->fd, b.va, want, size));
			EXPECT_BYTES(want, b.cpu, size, place_name[all_places[p]]);
			/* A new shmem object's page tail stays zero. */
			EXPECT_EQ(-1, first_not(b.cpu, size, b.cpu_len, 0));
			tbo_free(self->fd, &b);
			free(want);
		}
	}
}

/* An object maps at its offset for at most its pages; nothing else maps. */
TEST_F(mem, mmap_offset_and_length)
{
	static const uint64_t sizes[] = { 1, PG, 3 * PG + 1 };
	struct drm_vnpu_bo_info bi;
	unsigned int p, i;
	uint32_t h;
	void *m;

	for (p = 0; p < 2; p++) {
		for (i = 0; i < ARRAY_LEN(sizes); i++) {
			uint64_t len = PAGE_UP(sizes[i]);

			ASSERT_EQ(0, bo_create(self->fd, sizes[i], 0, all_places[p],
					       NULL, &h, NULL));
			ASSERT_EQ(0, bo_info(self->fd, h, &bi));
			m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 self->fd, bi.mmap_offset);
			ASSERT_NE(MAP_FAILED, m);
			memset(m, 0x33, len);
			munmap(m, len);
			/* First page only. */
			m = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd,
				 bi.mmap_offset);
			ASSERT_NE(MAP_FAILED, m);
			EXPECT_EQ(0x33, ((uint8_t *)m)[PG - 1]);
			munmap(m, PG);
			/* One page more than the object. */
			m = mmap(NULL, len + PG, PROT_READ, MAP_SHARED, self->fd,
				 bi.mmap_offset);
			EXPECT_EQ(MAP_FAILED, m);
			EXPECT_EQ(EINVAL, errno);
			/* Not at the object's start. */
			if (len > PG) {
				m = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd,
					 bi.mmap_offset + PG);
				EXPECT_EQ(MAP_FAILED, m);
				EXPECT_EQ(EINVAL, errno);
			}
			ASSERT_EQ(0, gem_close(self->fd, h));
			/* Gone with the handle. */
			m = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd,
				 bi.mmap_offset);
			EXPECT_EQ(MAP_FAILED, m);
			EXPECT_EQ(EINVAL, errno);
		}
	}
	/* Offset 0 is no object. */
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

/* Device-to-device copies between objects of every placement pair. */
TEST_F(mem, device_to_device_all_placements)
{
	const uint64_t size = SZ_2M + 3 * PG;	/* page aligned for USER */
	uint8_t *want = malloc(size), *got = malloc(size);
	unsigned int s, d;
	struct tbo src, dst;

	NEED_DEVICE_MEM(8 << 20);

	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	for (s = 0; s < ARRAY_LEN(all_places); s++) {
		for (d = 0; d < ARRAY_LEN(all_places); d++) {
			tbo_new(_metadata, self->fd, size, 0, all_places[s], &src);
			tbo_new(_metadata, self->fd, size, 0, all_places[d], &dst);
			pattern(want, size, 300 + s * 3 + d);
			ASSERT_EQ(0, h2d(self->fd, src.va, want, size));
			ASSERT_EQ(0, d2d(self->fd, dst.va, src.va, size));
			memset(got, 0, size);
			ASSERT_EQ(0, d2h(self->fd, got, dst.va, size));
			EXPECT_BYTES(want, got, size, "d2d, read back with d2h");
			EXPECT_BYTES(want, dst.cpu, size, "d2d, read back by the cpu");
			/* The source is unchanged. */
			EXPECT_BYTES(want, src.cpu, size, "d2d source");
			tbo_free(self->fd, &src);
			tbo_free(self->fd, &dst);
		}
	}
	free(want);
	free(got);
}

/*
 * Partial copies at odd offsets and sizes around the 64-byte line and the
 * 1 MiB step: exactly the requested bytes move, in every direction.
 */
struct part {
	uint64_t off;		/* in the object */
	uint64_t len;		/* 0: to the end of the object */
	uint64_t hoff;		/* in the host buffer */
};

static const struct part parts[] = {
	{ 0, 1, 0 }, { 1, 1, 1 }, { 3, 63, 5 }, { 5, 64, 3 }, { 7, 65, 1 },
	{ 63, 127, 63 }, { 64, 128, 0 }, { 65, 4097, 7 }, { 4095, 4097, 4095 },
	{ 4097, 8191, 13 }, { 3, (1 << 20) + 65, 11 }, { 1, 0, 1 },
	{ 0, 0, 0 },
};

static void partial_copies(struct __test_metadata *_metadata, int fd,
			   uint32_t placement)
{
	const uint64_t size = SZ_2M + 3 * PG + 123;
	uint8_t *shadow, *shadow2, *src, *out;
	struct tbo b, b2;
	unsigned int i;

	tbo_new(_metadata, fd, size, 0, placement, &b);
	tbo_new(_metadata, fd, size, 0, placement, &b2);
	/* USER objects are page aligned: use their full size. */
	shadow = malloc(b.size);
	shadow2 = malloc(b.size);
	src = malloc(b.size + 8192);
	out = malloc(b.size + 8192);
	ASSERT_NE(NULL, shadow);
	ASSERT_NE(NULL, shadow2);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, out);

	for (i = 0; i < ARRAY_LEN(parts); i++) {
		uint64_t off = parts[i].off, hoff = parts[i].hoff;
		uint64_t len = parts[i].len ? parts[i].len : b.size - off;
		char what[96];

		snprintf(what, sizeof(what), "%s: %llu bytes at %llu",
			 place_name[placement], (unsigned long long)len,
			 (unsigned long long)off);
		ASSERT_LE(off + len, b.size);
		/* Background of both objects. */
		pattern(shadow, b.size, 1000 + i);
		pattern(shadow2, b.size, 2000 + i);
		ASSERT_EQ(0, h2d(fd, b.va, shadow, b.size));
		ASSERT_EQ(0, h2d(fd, b2.va, shadow2, b.size));

		/* Host to device from an odd host address. */
		pattern(src, b.size + 8192, 3000 + i);
		ASSERT_EQ(0, h2d(fd, b.va + off, src + hoff, len)) TH_LOG("%s", what);
		memcpy(shadow + off, src + hoff, len);
		EXPECT_BYTES(shadow, b.cpu, b.size, what);
		memset(out, 0xa5, b.size);
		ASSERT_EQ(0, d2h(fd, out, b.va, b.size));
		EXPECT_BYTES(shadow, out, b.size, what);

		/* Device to host into an odd host address. */
		memset(out, 0xa5, b.size + 8192);
		ASSERT_EQ(0, d2h(fd, out + hoff, b.va + off, len)) TH_LOG("%s", what);
		EXPECT_BYTES(shadow + off, out + hoff, len, what);
		EXPECT_EQ(-1, first_not(out, 0, hoff, 0xa5)) TH_LOG("%s", what);
		EXPECT_EQ(-1, first_not(out, hoff + len, b.size + 8192, 0xa5))
			TH_LOG("%s", what);

		/* Device to device, to another offset of the other object. */
		{
			uint64_t off2 = (off + 17) % (b.size - len + 1);

			ASSERT_EQ(0, d2d(fd, b2.va + off2, b.va + off, len))
				TH_LOG("%s to %llu", what, (unsigned long long)off2);
			memcpy(shadow2 + off2, shadow + off, len);
			EXPECT_BYTES(shadow2, b2.cpu, b.size, what);
			EXPECT_BYTES(shadow, b.cpu, b.size, what);
		}
	}
	tbo_free(fd, &b);
	tbo_free(fd, &b2);
	free(shadow);
	free(shadow2);
	free(src);
	free(out);
}

TEST_F_TIMEOUT(mem, partial_copies_device, 120)
{
	NEED_DEVICE_MEM(8 << 20);
	partial_copies(_metadata, self->fd, DRM_VNPU_PLACEMENT_DEVICE);
}

TEST_F_TIMEOUT(mem, partial_copies_host, 120)
{
	partial_copies(_metadata, self->fd, DRM_VNPU_PLACEMENT_HOST);
}

TEST_F_TIMEOUT(mem, partial_copies_user, 120)
{
	partial_copies(_metadata, self->fd, DRM_VNPU_PLACEMENT_USER);
}

/* Non-overlapping ranges of one object, also back to back, copy fine. */
TEST_F(mem, device_to_device_same_object)
{
	const uint64_t size = 5 * PG + 77;
	uint8_t *shadow = malloc(PAGE_UP(size));	/* USER: page aligned */
	unsigned int p;
	struct tbo b;

	ASSERT_NE(NULL, shadow);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
		pattern(shadow, b.size, 400 + p);
		ASSERT_EQ(0, h2d(self->fd, b.va, shadow, b.size));
		/* [0, 1000) to [1000, 2000): touching, not overlapping. */
		ASSERT_EQ(0, d2d(self->fd, b.va + 1000, b.va, 1000));
		memmove(shadow + 1000, shadow, 1000);
		EXPECT_BYTES(shadow, b.cpu, b.size, place_name[all_places[p]]);
		/* Backwards: [4097, 4097 + 1001) to [3096, 4097). */
		ASSERT_EQ(0, d2d(self->fd, b.va + 3096, b.va + 4097, 1001));
		memmove(shadow + 3096, shadow + 4097, 1001);
		EXPECT_BYTES(shadow, b.cpu, b.size, place_name[all_places[p]]);
		/* The last byte to the first. */
		ASSERT_EQ(0, d2d(self->fd, b.va, b.va + b.size - 1, 1));
		shadow[0] = shadow[b.size - 1];
		EXPECT_BYTES(shadow, b.cpu, b.size, place_name[all_places[p]]);
		tbo_free(self->fd, &b);
	}
	free(shadow);
}

/* 256 MiB of device memory, written and read in one copy each. */
TEST_F_TIMEOUT(mem, device_256m_round_trip, 300)
{
	uint8_t *want, *got;
	struct tbo b;

	if (param(self->fd, DRM_VNPU_PARAM_MEM_FREE) < SZ_256M ||
	    param(self->fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT) < SZ_256M)
		SKIP(return, "less than 256 MiB of device memory free");
	want = anon(SZ_256M);
	got = anon(SZ_256M);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	tbo_new(_metadata, self->fd, SZ_256M, 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	pattern(want, SZ_256M, 77);
	ASSERT_EQ(0, h2d(self->fd, b.va, want, SZ_256M));
	ASSERT_EQ(0, d2h(self->fd, got, b.va, SZ_256M));
	EXPECT_BYTES(want, got, SZ_256M, "d2h");
	EXPECT_BYTES(want, b.cpu, SZ_256M, "mmap");
	tbo_free(self->fd, &b);
	munmap(want, SZ_256M);
	munmap(got, SZ_256M);
}

TEST_HARNESS_MAIN
