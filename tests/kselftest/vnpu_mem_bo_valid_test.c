// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every validation rule of BO_CREATE and BO_INFO, and bad argument
 * pointers. Each negative case differs from a valid call in exactly one
 * field. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_test_util.h"

/* A BO_CREATE that must work; the object is closed again. */
static void create_works(struct __test_metadata *_metadata, int fd,
			 const struct drm_vnpu_bo_create *in, const char *what)
{
	struct drm_vnpu_bo_create c = *in;

	ASSERT_EQ(0, bo_create_raw(fd, &c)) TH_LOG("%s", what);
	EXPECT_EQ(0, gem_close(fd, c.handle));
}

/* Valid arguments for each placement; user is 2 mapped pages. */
static struct drm_vnpu_bo_create valid_create(uint32_t placement, void *user)
{
	struct drm_vnpu_bo_create c = {
		.size = placement == DRM_VNPU_PLACEMENT_USER ? 2 * PG : 5000,
		.placement = placement,
		.user_ptr = placement == DRM_VNPU_PLACEMENT_USER ?
			    (uintptr_t)user : 0,
	};

	return c;
}

TEST_F(mem, create_bad_size_einval)
{
	static const uint64_t bad[] = { 0, DRM_VNPU_BO_MAX_SIZE + 1,
					DRM_VNPU_BO_MAX_SIZE + PG, 1ULL << 63,
					UINT64_MAX };
	struct drm_vnpu_bo_create c;
	void *user = anon(2 * PG);
	unsigned int p, i;
	char what[64];

	ASSERT_NE(NULL, user);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		c = valid_create(all_places[p], user);
		create_works(_metadata, self->fd, &c, "valid");
		for (i = 0; i < ARRAY_LEN(bad); i++) {
			c = valid_create(all_places[p], user);
			c.size = bad[i];
			snprintf(what, sizeof(what), "%s size 0x%llx",
				 place_name[all_places[p]],
				 (unsigned long long)bad[i]);
			create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
				     what);
		}
	}
	munmap(user, 2 * PG);
}

/* The largest valid size is refused for lack of device memory only. */
TEST_F(mem, create_max_size_device_enospc)
{
	struct drm_vnpu_bo_create c = valid_create(DRM_VNPU_PLACEMENT_DEVICE, NULL);

	if (self->total >= DRM_VNPU_BO_MAX_SIZE)
		SKIP(return, "device memory is as large as the largest object");
	c.size = DRM_VNPU_BO_MAX_SIZE;
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "max size");
	c.size = param(self->fd, DRM_VNPU_PARAM_MEM_FREE) + 1;
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "free + 1");
}

TEST_F(mem, create_unknown_flags_einval)
{
	struct drm_vnpu_bo_create c;
	void *user = anon(2 * PG);
	unsigned int p, bit;
	char what[64];

	ASSERT_NE(NULL, user);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		c = valid_create(all_places[p], user);
		c.flags = DRM_VNPU_BO_DEVICE_READ_ONLY;
		create_works(_metadata, self->fd, &c, "read-only");
		for (bit = 1; bit < 32; bit++) {
			c = valid_create(all_places[p], user);
			c.flags = 1U << bit;
			snprintf(what, sizeof(what), "%s flag bit %u",
				 place_name[all_places[p]], bit);
			create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
				     what);
		}
	}
	munmap(user, 2 * PG);
}

TEST_F(mem, create_nonzero_pad_einval)
{
	static const uint32_t pads[] = { 1, 0x80000000u, 0xffffffffu };
	struct drm_vnpu_bo_create c;
	void *user = anon(2 * PG);
	unsigned int p, i;

	ASSERT_NE(NULL, user);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		for (i = 0; i < ARRAY_LEN(pads); i++) {
			c = valid_create(all_places[p], user);
			c.pad = pads[i];
			create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
				     place_name[all_places[p]]);
		}
	}
	munmap(user, 2 * PG);
}

TEST_F(mem, create_bad_placement_einval)
{
	static const uint32_t bad[] = { DRM_VNPU_PLACEMENT_IMPORT, 4, 5,
					0x80000000u, 0xffffffffu };
	struct drm_vnpu_bo_create c;
	void *user = anon(2 * PG);
	unsigned int i;

	ASSERT_NE(NULL, user);
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		/* Differs from a valid DEVICE and a valid USER call. */
		c = valid_create(DRM_VNPU_PLACEMENT_DEVICE, user);
		c.placement = bad[i];
		create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
			     "placement");
		c = valid_create(DRM_VNPU_PLACEMENT_USER, user);
		c.placement = bad[i];
		create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
			     "placement with user_ptr");
	}
	munmap(user, 2 * PG);
}

/* user_ptr belongs to PLACEMENT_USER only. */
TEST_F(mem, create_user_ptr_for_shmem_einval)
{
	struct drm_vnpu_bo_create c;
	uint8_t *user = anon(2 * PG);
	unsigned int p;

	ASSERT_NE(NULL, user);
	for (p = 0; p < 2; p++) {
		c = valid_create(all_places[p], NULL);
		c.user_ptr = (uintptr_t)user;
		create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
			     place_name[all_places[p]]);
		c.user_ptr = (uintptr_t)user + 1;
		create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
			     place_name[all_places[p]]);
		c.user_ptr = 8;
		create_fails(_metadata, self->fd, self->path, &c, -EINVAL,
			     place_name[all_places[p]]);
	}
	munmap(user, 2 * PG);
}

/* Registered user memory must be page aligned and given. */
TEST_F(mem, create_user_bad_range_einval)
{
	struct drm_vnpu_bo_create c;
	uint8_t *user = anon(3 * PG);

	ASSERT_NE(NULL, user);
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user);
	create_works(_metadata, self->fd, &c, "valid");

	c = valid_create(DRM_VNPU_PLACEMENT_USER, user);
	c.user_ptr = (uintptr_t)user + 1;
	create_fails(_metadata, self->fd, self->path, &c, -EINVAL, "ptr + 1");
	c.user_ptr = (uintptr_t)user + PG / 2;
	create_fails(_metadata, self->fd, self->path, &c, -EINVAL, "ptr + 2048");
	c.user_ptr = 0;
	create_fails(_metadata, self->fd, self->path, &c, -EINVAL, "ptr 0");

	c = valid_create(DRM_VNPU_PLACEMENT_USER, user);
	c.size = 2 * PG + 1;
	create_fails(_metadata, self->fd, self->path, &c, -EINVAL, "size + 1");
	c.size = 2 * PG - 1;
	create_fails(_metadata, self->fd, self->path, &c, -EINVAL, "size - 1");
	c.size = 1;
	create_fails(_metadata, self->fd, self->path, &c, -EINVAL, "size 1");
	munmap(user, 3 * PG);
}

/* A user range must be mapped in full, or nothing is registered. */
TEST_F(mem, create_user_unmapped_efault)
{
	struct drm_vnpu_bo_create c;
	uint8_t *user = anon(4 * PG);

	ASSERT_NE(NULL, user);
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user + PG);
	create_works(_metadata, self->fd, &c, "valid");

	/* Punch out the last two pages: user + 2 PG, user + 3 PG. */
	ASSERT_EQ(0, munmap(user + 2 * PG, 2 * PG));
	ASSERT_TRUE(is_unmapped(user + 2 * PG, 2 * PG));
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user + 2 * PG);
	create_fails(_metadata, self->fd, self->path, &c, -EFAULT, "unmapped");
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user + PG);
	create_fails(_metadata, self->fd, self->path, &c, -EFAULT,
		     "second page unmapped");
	/* The first page of the two is unmapped, the second mapped. */
	ASSERT_EQ(0, munmap(user, PG));
	ASSERT_TRUE(is_unmapped(user, PG));
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user);
	create_fails(_metadata, self->fd, self->path, &c, -EFAULT,
		     "first page unmapped");
	/* Read-only registration does not help an unmapped range. */
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user + 2 * PG);
	c.flags = DRM_VNPU_BO_DEVICE_READ_ONLY;
	create_fails(_metadata, self->fd, self->path, &c, -EFAULT,
		     "read-only, unmapped");
	/* A kernel address. */
	c = valid_create(DRM_VNPU_PLACEMENT_USER, (void *)0xffff888000000000ULL);
	create_fails(_metadata, self->fd, self->path, &c, -EFAULT, "kernel address");
	/* The holes were still holes during all of that. */
	ASSERT_TRUE(is_unmapped(user, PG));
	ASSERT_TRUE(is_unmapped(user + 2 * PG, 2 * PG));

	/* What is left still registers. */
	c = valid_create(DRM_VNPU_PLACEMENT_USER, user + PG);
	c.size = PG;
	create_works(_metadata, self->fd, &c, "the one mapped page");
	munmap(user + PG, PG);
}

/*
 * A read-only mapping cannot be registered for device writes, but can be
 * registered DEVICE_READ_ONLY; the device then reads it and cannot write.
 */
TEST_F(mem, create_user_read_only_mapping)
{
	struct drm_vnpu_bo_create c;
	uint8_t *user = anon(2 * PG), *got = malloc(2 * PG), *want = malloc(2 * PG);
	uint32_t handle;
	uint64_t va;

	ASSERT_NE(NULL, user);
	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	pattern(want, 2 * PG, 55);
	memcpy(user, want, 2 * PG);
	ASSERT_EQ(0, mprotect(user, 2 * PG, PROT_READ));

	c = valid_create(DRM_VNPU_PLACEMENT_USER, user);
	create_fails(_metadata, self->fd, self->path, &c, -EFAULT,
		     "writable registration of a read-only mapping");

	ASSERT_EQ(0, bo_create(self->fd, 2 * PG, DRM_VNPU_BO_DEVICE_READ_ONLY,
			       DRM_VNPU_PLACEMENT_USER, user, &handle, &va));
	memset(got, 0, 2 * PG);
	ASSERT_EQ(0, d2h(self->fd, got, va, 2 * PG));
	EXPECT_BYTES(want, got, 2 * PG, "read-only user memory");
	write_faults(_metadata, self->fd, va, 1, DRM_VNPU_FAULT_READ_ONLY);
	EXPECT_BYTES(want, user, 2 * PG, "read-only user memory");
	EXPECT_EQ(0, gem_close(self->fd, handle));
	munmap(user, 2 * PG);
	free(got);
	free(want);
}

/* Every memory ioctl refuses an argument pointer it cannot read. */
TEST_F(mem, bad_argument_pointer_efault)
{
	static const unsigned long cmds[] = {
		DRM_IOCTL_VNPU_BO_CREATE, DRM_IOCTL_VNPU_BO_INFO,
		DRM_IOCTL_VNPU_MEMCPY, DRM_IOCTL_VNPU_FAULT_INFO,
	};
	void *gone = unmapped_page();
	struct counters c0;
	unsigned int i;

	ASSERT_NE(NULL, gone);
	read_counters(self->fd, self->path, &c0);
	ASSERT_TRUE(is_unmapped(gone, PG));
	for (i = 0; i < ARRAY_LEN(cmds); i++) {
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], NULL));
		EXPECT_EQ(EFAULT, errno) TH_LOG("ioctl 0x%lx, NULL", cmds[i]);
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], (void *)8));
		EXPECT_EQ(EFAULT, errno) TH_LOG("ioctl 0x%lx, 8", cmds[i]);
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], gone));
		EXPECT_EQ(EFAULT, errno) TH_LOG("ioctl 0x%lx, unmapped", cmds[i]);
	}
	ASSERT_TRUE(is_unmapped(gone, PG));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	EXPECT_EQ(0, fault_count(self->fd));
}

#define INFO_SENTINEL(bi, h) do { \
	memset(&(bi), 0x5a, sizeof(bi)); \
	(bi).handle = (h); \
	(bi).pad = 0; \
} while (0)

static void info_fails(struct __test_metadata *_metadata, int fd,
		       struct drm_vnpu_bo_info *in, int err, const char *what)
{
	struct drm_vnpu_bo_info bi = *in;

	EXPECT_EQ(err, bo_info_raw(fd, &bi)) TH_LOG("%s", what);
	EXPECT_EQ(0, memcmp(in, &bi, sizeof(bi))) TH_LOG("%s: output written", what);
}

TEST_F(mem, info_bad_handle_enoent)
{
	struct drm_vnpu_bo_info bi;
	uint32_t h, closed, other;
	int fd2;

	ASSERT_EQ(0, bo_create(self->fd, 5000, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &h, NULL));
	ASSERT_EQ(0, bo_create(self->fd, 5000, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &closed, NULL));
	ASSERT_EQ(0, gem_close(self->fd, closed));
	INFO_SENTINEL(bi, h);
	ASSERT_EQ(0, bo_info_raw(self->fd, &bi));

	INFO_SENTINEL(bi, 0);
	info_fails(_metadata, self->fd, &bi, -ENOENT, "handle 0");
	INFO_SENTINEL(bi, closed);
	info_fails(_metadata, self->fd, &bi, -ENOENT, "closed handle");
	INFO_SENTINEL(bi, 0x7fffffff);
	info_fails(_metadata, self->fd, &bi, -ENOENT, "never created");
	INFO_SENTINEL(bi, 0xffffffff);
	info_fails(_metadata, self->fd, &bi, -ENOENT, "handle ~0");

	/* Another file of the same device: its handle means nothing here. */
	fd2 = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	do {
		ASSERT_EQ(0, bo_create(fd2, 100, 0, DRM_VNPU_PLACEMENT_DEVICE,
				       NULL, &other, NULL));
	} while (other == h);	/* a number this file does not use */
	INFO_SENTINEL(bi, other);
	ASSERT_EQ(0, bo_info_raw(fd2, &bi));
	INFO_SENTINEL(bi, other);
	info_fails(_metadata, self->fd, &bi, -ENOENT, "other file's handle");
	close(fd2);
	EXPECT_EQ(0, gem_close(self->fd, h));
}

TEST_F(mem, info_nonzero_pad_einval)
{
	struct drm_vnpu_bo_info bi;
	uint32_t h;

	ASSERT_EQ(0, bo_create(self->fd, 5000, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &h, NULL));
	INFO_SENTINEL(bi, h);
	ASSERT_EQ(0, bo_info_raw(self->fd, &bi));
	INFO_SENTINEL(bi, h);
	bi.pad = 1;
	info_fails(_metadata, self->fd, &bi, -EINVAL, "pad 1");
	INFO_SENTINEL(bi, h);
	bi.pad = 0x80000000u;
	info_fails(_metadata, self->fd, &bi, -EINVAL, "pad 1 << 31");
	EXPECT_EQ(0, gem_close(self->fd, h));
}

TEST_HARNESS_MAIN
