// SPDX-License-Identifier: MIT
/*
 * Host test of lib/core/host_bo.c, the one place libacl creates and maps
 * HOST buffer objects. The driver and mmap are fakes (the link wraps
 * drmIoctl, and mmap and munmap of the fake fd), so every failure can be
 * forced and every undo step counted: nothing may stay mapped or open
 * after a failure.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "core/host_bo.h"
#include "kselftest_harness.h"

#define FAKE_FD		42
#define FAKE_HANDLE	7
#define FAKE_VA		0x100000000ull
#define FAKE_OFFSET	0x12345000ull

static struct {
	int fail_create, fail_info, fail_mmap;	/* errno to fail with, or 0 */
	int creates, infos, mmaps, munmaps, closes;
	uint64_t create_size;
	uint32_t create_placement, info_handle, closed_handle;
	size_t mmap_len, munmap_len;
	int mmap_prot, mmap_flags, mmap_fd;
	off_t mmap_off;
	void *munmap_addr;
} fake;

static char pages[8192];

int __wrap_drmIoctl(int fd, unsigned long request, void *arg);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
int __wrap_munmap(void *addr, size_t len);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
int __real_munmap(void *addr, size_t len);

int __wrap_drmIoctl(int fd, unsigned long request, void *arg)
{
	if (fd != FAKE_FD) {
		errno = EBADF;
		return -1;
	}
	if (request == DRM_IOCTL_VNPU_BO_CREATE) {
		struct drm_vnpu_bo_create *a = arg;

		fake.creates++;
		fake.create_size = a->size;
		fake.create_placement = a->placement;
		if (fake.fail_create) {
			errno = fake.fail_create;
			return -1;
		}
		a->handle = FAKE_HANDLE;
		a->va = FAKE_VA;
		return 0;
	}
	if (request == DRM_IOCTL_VNPU_BO_INFO) {
		struct drm_vnpu_bo_info *a = arg;

		fake.infos++;
		fake.info_handle = a->handle;
		if (fake.fail_info) {
			errno = fake.fail_info;
			return -1;
		}
		a->mmap_offset = FAKE_OFFSET;
		return 0;
	}
	if (request == DRM_IOCTL_GEM_CLOSE) {
		struct drm_gem_close *a = arg;

		fake.closes++;
		fake.closed_handle = a->handle;
		return 0;
	}
	errno = ENOTTY;
	return -1;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	/* The harness maps memory of its own. */
	if (fd != FAKE_FD)
		return __real_mmap(addr, len, prot, flags, fd, off);
	fake.mmaps++;
	fake.mmap_len = len;
	fake.mmap_prot = prot;
	fake.mmap_flags = flags;
	fake.mmap_fd = fd;
	fake.mmap_off = off;
	if (fake.fail_mmap) {
		errno = fake.fail_mmap;
		return MAP_FAILED;
	}
	return pages;
}

int __wrap_munmap(void *addr, size_t len)
{
	if (addr != pages)
		return __real_munmap(addr, len);
	fake.munmaps++;
	fake.munmap_addr = addr;
	fake.munmap_len = len;
	return 0;
}

/* Outputs hold these until host_bo_create() writes them. */
#define SENT_HANDLE	0xdeadu
#define SENT_VA		0xbeefull
static void *const sent_map = (void *)0x5e47;

FIXTURE(host_bo) {
	uint32_t handle;
	uint64_t va;
	void *map;
};

FIXTURE_SETUP(host_bo)
{
	memset(&fake, 0, sizeof(fake));
	self->handle = SENT_HANDLE;
	self->va = SENT_VA;
	self->map = sent_map;
}

FIXTURE_TEARDOWN(host_bo)
{
}

TEST_F(host_bo, create_maps_the_object_read_write_shared)
{
	ASSERT_EQ(0, host_bo_create(FAKE_FD, 8192, &self->handle, &self->va,
				    &self->map));
	EXPECT_EQ(FAKE_HANDLE, self->handle);
	EXPECT_EQ(FAKE_VA, self->va);
	EXPECT_EQ((void *)pages, self->map);
	EXPECT_EQ(1, fake.creates);
	EXPECT_EQ(8192, fake.create_size);
	EXPECT_EQ(DRM_VNPU_PLACEMENT_HOST, fake.create_placement);
	EXPECT_EQ(1, fake.infos);
	EXPECT_EQ(FAKE_HANDLE, fake.info_handle);
	EXPECT_EQ(1, fake.mmaps);
	EXPECT_EQ(8192, fake.mmap_len);
	EXPECT_EQ(PROT_READ | PROT_WRITE, fake.mmap_prot);
	EXPECT_EQ(MAP_SHARED, fake.mmap_flags);
	EXPECT_EQ(FAKE_FD, fake.mmap_fd);
	EXPECT_EQ((off_t)FAKE_OFFSET, fake.mmap_off);
	EXPECT_EQ(0, fake.closes);
	EXPECT_EQ(0, fake.munmaps);

	host_bo_destroy(FAKE_FD, self->handle, self->map, 8192);
	EXPECT_EQ(1, fake.munmaps);
	EXPECT_EQ((void *)pages, fake.munmap_addr);
	EXPECT_EQ(8192, fake.munmap_len);
	EXPECT_EQ(1, fake.closes);
	EXPECT_EQ(FAKE_HANDLE, fake.closed_handle);
}

TEST_F(host_bo, create_failure_leaves_nothing)
{
	fake.fail_create = ENOSPC;
	EXPECT_EQ(-ENOSPC, host_bo_create(FAKE_FD, 4096, &self->handle,
					  &self->va, &self->map));
	EXPECT_EQ(1, fake.creates);
	EXPECT_EQ(0, fake.infos);
	EXPECT_EQ(0, fake.mmaps);
	EXPECT_EQ(0, fake.closes);
	EXPECT_EQ(SENT_HANDLE, self->handle);
	EXPECT_EQ(SENT_VA, self->va);
	EXPECT_EQ(sent_map, self->map);
}

TEST_F(host_bo, info_failure_closes_the_handle)
{
	fake.fail_info = ENOENT;
	EXPECT_EQ(-ENOENT, host_bo_create(FAKE_FD, 4096, &self->handle,
					  &self->va, &self->map));
	EXPECT_EQ(1, fake.infos);
	EXPECT_EQ(0, fake.mmaps);
	EXPECT_EQ(1, fake.closes);
	EXPECT_EQ(FAKE_HANDLE, fake.closed_handle);
	EXPECT_EQ(SENT_HANDLE, self->handle);
	EXPECT_EQ(SENT_VA, self->va);
	EXPECT_EQ(sent_map, self->map);
}

TEST_F(host_bo, mmap_failure_closes_the_handle)
{
	fake.fail_mmap = ENOMEM;
	EXPECT_EQ(-ENOMEM, host_bo_create(FAKE_FD, 4096, &self->handle,
					  &self->va, &self->map));
	EXPECT_EQ(1, fake.mmaps);
	EXPECT_EQ(0, fake.munmaps);
	EXPECT_EQ(1, fake.closes);
	EXPECT_EQ(FAKE_HANDLE, fake.closed_handle);
	EXPECT_EQ(SENT_HANDLE, self->handle);
	EXPECT_EQ(SENT_VA, self->va);
	EXPECT_EQ(sent_map, self->map);
}

TEST_HARNESS_MAIN
