// SPDX-License-Identifier: GPL-2.0-only
/*
 * BO_CREATE, BO_INFO and close for every placement: the VA layout, the
 * device memory charged, and VAs unique and never adjacent. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_test_util.h"

/*
 * Create one object, check everything BO_INFO says and what it costs,
 * close it and check it is gone. user is the range for PLACEMENT_USER.
 */
static void create_info_close(struct __test_metadata *_metadata, int fd,
			      const char *path, uint64_t size, uint32_t flags,
			      uint32_t placement, void *user)
{
	struct drm_vnpu_bo_info bi, bi2;
	struct counters c0;
	uint32_t handle = 0;
	uint64_t va = 0, charge;

	charge = placement == DRM_VNPU_PLACEMENT_DEVICE ? PAGE_UP(size) : 0;
	read_counters(fd, path, &c0);
	if (charge > c0.free)
		SKIP(return, "%llu bytes of device memory free, need %llu",
		     (unsigned long long)c0.free, (unsigned long long)charge);

	ASSERT_EQ(0, bo_create(fd, size, flags, placement, user, &handle, &va))
		TH_LOG("%s object of %llu bytes", place_name[placement],
		       (unsigned long long)size);
	EXPECT_NE(0, handle);
	check_va(_metadata, va, size, placement);
	check_counters(_metadata, fd, path, c0.used + charge, c0.objects + 1);

	ASSERT_EQ(0, bo_info(fd, handle, &bi));
	EXPECT_EQ(handle, bi.handle);
	EXPECT_EQ(0, bi.pad);
	EXPECT_EQ(size, bi.size);
	EXPECT_EQ(va, bi.va);
	EXPECT_EQ(flags, bi.flags);
	EXPECT_EQ(placement, bi.placement);
	if (placement == DRM_VNPU_PLACEMENT_USER) {
		EXPECT_EQ(0, bi.mmap_offset);
	} else {
		EXPECT_NE(0, bi.mmap_offset);
		EXPECT_EQ(0, bi.mmap_offset % PG);
	}
	/* Asking again gives the same answer. */
	ASSERT_EQ(0, bo_info(fd, handle, &bi2));
	EXPECT_EQ(0, memcmp(&bi, &bi2, sizeof(bi)));

	ASSERT_EQ(0, gem_close(fd, handle));
	EXPECT_EQ(-ENOENT, bo_info(fd, handle, &bi));
	EXPECT_EQ(-EINVAL, gem_close(fd, handle));
	check_counters(_metadata, fd, path, c0.used, c0.objects);
}

static const uint64_t shmem_sizes[] = { 1, PG, SZ_2M + 1, SZ_256M };

TEST_F(mem, create_info_close_device)
{
	uint64_t share = param(self->fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT);
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(shmem_sizes); i++)
		if (shmem_sizes[i] <= share)
			create_info_close(_metadata, self->fd, self->path,
					  shmem_sizes[i], 0,
					  DRM_VNPU_PLACEMENT_DEVICE, NULL);
}

TEST_F(mem, create_info_close_device_read_only)
{
	uint64_t share = param(self->fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT);
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(shmem_sizes); i++)
		if (shmem_sizes[i] <= share)
			create_info_close(_metadata, self->fd, self->path,
					  shmem_sizes[i],
					  DRM_VNPU_BO_DEVICE_READ_ONLY,
					  DRM_VNPU_PLACEMENT_DEVICE, NULL);
}

TEST_F(mem, create_info_close_host)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(shmem_sizes); i++)
		create_info_close(_metadata, self->fd, self->path, shmem_sizes[i],
				  0, DRM_VNPU_PLACEMENT_HOST, NULL);
	create_info_close(_metadata, self->fd, self->path, 4097,
			  DRM_VNPU_BO_DEVICE_READ_ONLY, DRM_VNPU_PLACEMENT_HOST,
			  NULL);
}

TEST_F(mem, create_info_close_user)
{
	static const uint64_t sizes[] = { PG, SZ_2M, SZ_256M };
	unsigned int i;
	void *p;

	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		p = anon(sizes[i]);
		ASSERT_NE(NULL, p);
		create_info_close(_metadata, self->fd, self->path, sizes[i], 0,
				  DRM_VNPU_PLACEMENT_USER, p);
		create_info_close(_metadata, self->fd, self->path, sizes[i],
				  DRM_VNPU_BO_DEVICE_READ_ONLY,
				  DRM_VNPU_PLACEMENT_USER, p);
		munmap(p, sizes[i]);
	}
}

/* A DEVICE object charges whole pages: 1 byte costs 4096. */
TEST_F(mem, device_charge_is_page_granular)
{
	static const uint64_t sizes[] = { 1, 4095, 4096, 4097, 8191, SZ_2M + 1 };
	struct counters c0;
	uint32_t h[ARRAY_LEN(sizes)];
	uint64_t charged = 0;
	unsigned int i;

	NEED_DEVICE_MEM(4 << 20);

	read_counters(self->fd, self->path, &c0);
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		ASSERT_EQ(0, bo_create(self->fd, sizes[i], 0,
				       DRM_VNPU_PLACEMENT_DEVICE, NULL, &h[i], NULL));
		charged += PAGE_UP(sizes[i]);
		check_counters(_metadata, self->fd, self->path, c0.used + charged,
			       c0.objects + i + 1);
	}
	EXPECT_EQ(PG, PAGE_UP(sizes[0]));
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		ASSERT_EQ(0, gem_close(self->fd, h[i]));
		charged -= PAGE_UP(sizes[i]);
		check_counters(_metadata, self->fd, self->path, c0.used + charged,
			       c0.objects + ARRAY_LEN(sizes) - i - 1);
	}
}

/* HOST and USER objects are counted as objects but cost no device memory. */
TEST_F(mem, host_and_user_cost_no_device_memory)
{
	struct counters c0;
	uint32_t h1, h2, h3;
	void *p = anon(16 * PG);

	ASSERT_NE(NULL, p);
	read_counters(self->fd, self->path, &c0);
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &h1, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + 1);
	ASSERT_EQ(0, bo_create(self->fd, SZ_256M, 0, DRM_VNPU_PLACEMENT_HOST,
			       NULL, &h2, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + 2);
	ASSERT_EQ(0, bo_create(self->fd, 16 * PG, 0, DRM_VNPU_PLACEMENT_USER, p,
			       &h3, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + 3);
	EXPECT_EQ(c0.peak, param(self->fd, DRM_VNPU_PARAM_MEM_PEAK));
	ASSERT_EQ(0, gem_close(self->fd, h2));
	ASSERT_EQ(0, gem_close(self->fd, h3));
	ASSERT_EQ(0, gem_close(self->fd, h1));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	munmap(p, 16 * PG);
}

struct live_bo {
	uint32_t handle;
	uint32_t placement;
	uint64_t size;
	uint64_t va;
};

static int cmp_va(const void *a, const void *b)
{
	const struct live_bo *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/*
 * Many live objects of mixed sizes and placements, with holes punched and
 * refilled: every VA follows the rules, VAs are unique and each object is
 * followed by at least a guard page before the next one.
 */
TEST_F(mem, va_unique_and_never_adjacent)
{
	static const uint64_t sizes[] = {
		1, 100, PG - 1, PG, PG + 1, 3 * PG, 5 * PG + 7, 64 * PG - 1,
		SZ_2M - 1, SZ_2M, SZ_2M + 1, 3 * SZ_2M + PG,
	};
	static const uint32_t places[] = {
		DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_HOST,
		DRM_VNPU_PLACEMENT_USER,
	};
	enum { N = 3 * 12 * 4 };
	struct live_bo bo[N];
	uint8_t *user;
	uint64_t user_len = 0, user_off = 0;
	unsigned int i, n = 0, round;

	NEED_DEVICE_MEM(64 << 20);

	/* One user buffer for all USER objects: page-aligned slices. */
	for (i = 0; i < ARRAY_LEN(sizes); i++)
		user_len += 4 * PAGE_UP(sizes[i]);
	user = anon(user_len);
	ASSERT_NE(NULL, user);

	for (round = 0; round < 4; round++) {
		for (i = 0; i < ARRAY_LEN(sizes) * ARRAY_LEN(places); i++) {
			struct live_bo *b = &bo[n];
			void *up = NULL;

			b->placement = places[i % ARRAY_LEN(places)];
			b->size = sizes[(i / ARRAY_LEN(places) + round) %
					ARRAY_LEN(sizes)];
			if (b->placement == DRM_VNPU_PLACEMENT_USER) {
				b->size = PAGE_UP(b->size);
				up = user + user_off;
				user_off += b->size;
				ASSERT_LE(user_off, user_len);
			}
			ASSERT_EQ(0, bo_create(self->fd, b->size, 0, b->placement,
					       up, &b->handle, &b->va))
				TH_LOG("%s object %u of %llu bytes",
				       place_name[b->placement], n,
				       (unsigned long long)b->size);
			check_va(_metadata, b->va, b->size, b->placement);
			n++;
		}
		/* Punch holes: close every third object made so far. */
		if (round < 3) {
			unsigned int j, k = 0;

			for (j = 0; j < n; j++) {
				if (j % 3 == round % 3) {
					ASSERT_EQ(0, gem_close(self->fd, bo[j].handle));
					continue;
				}
				bo[k++] = bo[j];
			}
			n = k;
		}
	}
	ASSERT_EQ(87, n);

	qsort(bo, n, sizeof(bo[0]), cmp_va);
	for (i = 1; i < n; i++) {
		struct live_bo *a = &bo[i - 1], *b = &bo[i];

		EXPECT_GE(b->va, a->va + PAGE_UP(a->size) + PG)
			TH_LOG("%s object 0x%llx+%llu and %s object 0x%llx too close",
			       place_name[a->placement], (unsigned long long)a->va,
			       (unsigned long long)a->size, place_name[b->placement],
			       (unsigned long long)b->va);
	}
	/* BO_INFO agrees for every one of them. */
	for (i = 0; i < n; i++) {
		struct drm_vnpu_bo_info bi;

		ASSERT_EQ(0, bo_info(self->fd, bo[i].handle, &bi));
		EXPECT_EQ(bo[i].va, bi.va);
		EXPECT_EQ(bo[i].size, bi.size);
		EXPECT_EQ(bo[i].placement, bi.placement);
	}
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, gem_close(self->fd, bo[i].handle));
	}
	munmap(user, user_len);
}

TEST_HARNESS_MAIN
