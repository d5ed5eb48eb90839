// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device memory accounting up to the capacity: filling and freeing it, per
 * device, and a full host VA range. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_test_util.h"

/*
 * Fill the device in chunks of an eighth of its capacity until it says
 * -ENOSPC, checking every counter after every step; free everything; then
 * take all of the free memory in one object.
 */
TEST_F_TIMEOUT(mem, capacity_fill_and_free, 120)
{
	const uint64_t chunk = (self->total / 8) & ~(PG - 1);
	struct drm_vnpu_bo_create c;
	struct counters c0, c1;
	uint32_t handles[64], full, host, user_h;
	uint64_t k, kmax;
	void *user = anon(PG);
	/* The whole device for this file: lift the per-file share. */
	long pct = vnpu_set_module_param("file_mem_pct", 100);

	ASSERT_GT(pct, 0);
	ASSERT_NE(NULL, user);
	ASSERT_GT(chunk, 0);
	read_counters(self->fd, self->path, &c0);
	ASSERT_EQ(self->total, c0.total);
	ASSERT_EQ(c0.total - c0.used, c0.free);
	kmax = c0.free / chunk;
	ASSERT_LT(kmax, ARRAY_LEN(handles));
	TH_LOG("capacity %llu, %llu used at start, chunks of %llu: %llu fit",
	       (unsigned long long)c0.total, (unsigned long long)c0.used,
	       (unsigned long long)chunk, (unsigned long long)kmax);

	for (k = 0;; k++) {
		int ret = bo_create(self->fd, chunk, 0, DRM_VNPU_PLACEMENT_DEVICE,
				    NULL, &handles[k], NULL);

		if (ret) {
			EXPECT_EQ(-ENOSPC, ret);
			break;
		}
		ASSERT_LT(k, kmax) TH_LOG("chunk %llu fit", (unsigned long long)k + 1);
		check_counters(_metadata, self->fd, self->path,
			       c0.used + (k + 1) * chunk, c0.objects + k + 1);
	}
	EXPECT_EQ(kmax, k);
	/* The failed call changed nothing, nor does trying again. */
	check_counters(_metadata, self->fd, self->path, c0.used + k * chunk,
		       c0.objects + k);
	c = (struct drm_vnpu_bo_create){ .size = chunk,
		.placement = DRM_VNPU_PLACEMENT_DEVICE };
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "chunk");
	c.size = c0.free - k * chunk + 1;
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "free + 1");
	EXPECT_GE(param(self->fd, DRM_VNPU_PARAM_MEM_PEAK), c0.used + k * chunk);
	while (k > 0) {
		k--;
		ASSERT_EQ(0, gem_close(self->fd, handles[k]));
		check_counters(_metadata, self->fd, self->path, c0.used + k * chunk,
			       c0.objects + k);
	}
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);

	/* All of the free memory in one object; then not one more page. */
	ASSERT_EQ(0, bo_create(self->fd, c0.free, 0, DRM_VNPU_PLACEMENT_DEVICE,
			       NULL, &full, NULL));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 1);
	EXPECT_EQ(0, param(self->fd, DRM_VNPU_PARAM_MEM_FREE));
	c = (struct drm_vnpu_bo_create){ .size = 1,
		.placement = DRM_VNPU_PLACEMENT_DEVICE };
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "1 byte");
	c.flags = DRM_VNPU_BO_DEVICE_READ_ONLY;
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC,
		     "1 byte, read-only");
	read_counters(self->fd, self->path, &c1);
	EXPECT_GE(c1.peak, c0.total);
	EXPECT_EQ(c0.total, c1.peak);
	EXPECT_EQ((long long)c0.total, c1.dpeak);

	/* Host and user memory do not come out of the device's. */
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &host, NULL));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 2);
	ASSERT_EQ(0, bo_create(self->fd, PG, 0, DRM_VNPU_PLACEMENT_USER, user,
			       &user_h, NULL));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 3);
	ASSERT_EQ(0, gem_close(self->fd, host));
	ASSERT_EQ(0, gem_close(self->fd, user_h));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 1);

	ASSERT_EQ(0, gem_close(self->fd, full));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	/* The peak stays. */
	EXPECT_EQ(c0.total, param(self->fd, DRM_VNPU_PARAM_MEM_PEAK));
	/* And the memory is usable again. */
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &full, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used + PG,
		       c0.objects + 1);
	ASSERT_EQ(0, gem_close(self->fd, full));
	munmap(user, PG);
	vnpu_set_module_param("file_mem_pct", pct);
}

/*
 * A full device still serves objects on other devices: capacity is per
 * device.
 */
TEST_F(mem, capacity_is_per_device)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	struct counters o0;
	uint32_t full, h;
	uint64_t free0;
	long pct;
	int n, fd2;

	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	if (n < 2)
		SKIP(return, "one device only");
	/* The whole device for this file: lift the per-file share. */
	pct = vnpu_set_module_param("file_mem_pct", 100);
	ASSERT_GT(pct, 0);
	fd2 = open(paths[1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	read_counters(fd2, paths[1], &o0);
	free0 = param(self->fd, DRM_VNPU_PARAM_MEM_FREE);
	ASSERT_EQ(0, bo_create(self->fd, free0, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &full, NULL));
	EXPECT_EQ(-ENOSPC, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_DEVICE,
				     NULL, &h, NULL));
	/* The other device did not see any of it. */
	check_counters(_metadata, fd2, paths[1], o0.used, o0.objects);
	ASSERT_EQ(0, bo_create(fd2, 1, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL, &h, NULL));
	check_counters(_metadata, fd2, paths[1], o0.used + PG, o0.objects + 1);
	ASSERT_EQ(0, gem_close(fd2, h));
	ASSERT_EQ(0, gem_close(self->fd, full));
	check_counters(_metadata, fd2, paths[1], o0.used, o0.objects);
	close(fd2);
	vnpu_set_module_param("file_mem_pct", pct);
}

/*
 * The host range of a context is 1 TiB: objects of the largest size fill
 * it, and the next one fails with -ENOSPC without leaving an object
 * behind. (Host objects cost no memory until used.)
 */
TEST_F(mem, host_va_range_full_enospc)
{
	/* Each object takes its size plus a guard page, 2 MiB aligned. */
	const uint64_t stride = DRM_VNPU_BO_MAX_SIZE + SZ_2M;
	const uint64_t fit = (DRM_VNPU_VA_RANGE_SIZE - DRM_VNPU_BO_MAX_SIZE - PG) /
			     stride + 1;
	struct drm_vnpu_bo_create c = { .size = DRM_VNPU_BO_MAX_SIZE,
		.placement = DRM_VNPU_PLACEMENT_HOST };
	uint32_t handles[64], h;
	struct counters c0;
	uint64_t k, va;
	long pct, host_mb;
	int ret;

	/* A host pool as large as the range, all of it for this file. */
	pct = vnpu_set_module_param("file_mem_pct", 100);
	host_mb = vnpu_set_module_param("host_mem_mb", 1024 * 1024);
	ASSERT_GT(pct, 0);
	ASSERT_GT(host_mb, 0);
	ASSERT_LT(fit, ARRAY_LEN(handles));
	read_counters(self->fd, self->path, &c0);
	for (k = 0;; k++) {
		ret = bo_create(self->fd, DRM_VNPU_BO_MAX_SIZE, 0,
				DRM_VNPU_PLACEMENT_HOST, NULL, &handles[k], &va);
		if (ret)
			break;
		check_va(_metadata, va, DRM_VNPU_BO_MAX_SIZE, DRM_VNPU_PLACEMENT_HOST);
		ASSERT_LT(k, fit);
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(fit, k);
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + k);
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "host range full");
	/* Small objects still fit in what is left of the range. */
	ASSERT_EQ(0, bo_create(self->fd, PG, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &h, &va));
	check_va(_metadata, va, PG, DRM_VNPU_PLACEMENT_HOST);
	ASSERT_EQ(0, gem_close(self->fd, h));
	/* The device range is separate. */
	ASSERT_EQ(0, bo_create(self->fd, PG, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &h, &va));
	check_va(_metadata, va, PG, DRM_VNPU_PLACEMENT_DEVICE);
	ASSERT_EQ(0, gem_close(self->fd, h));
	/* Freeing one makes room for one. */
	ASSERT_EQ(0, gem_close(self->fd, handles[k / 2]));
	ASSERT_EQ(0, bo_create(self->fd, DRM_VNPU_BO_MAX_SIZE, 0,
			       DRM_VNPU_PLACEMENT_HOST, NULL, &handles[k / 2], NULL));
	while (k > 0) {
		ASSERT_EQ(0, gem_close(self->fd, handles[--k]));
	}
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	vnpu_set_module_param("host_mem_mb", host_mb);
	vnpu_set_module_param("file_mem_pct", pct);
}

TEST_HARNESS_MAIN
