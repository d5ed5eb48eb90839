// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device MMU against concurrent frees: copies that are running while
 * their object's last handle is closed finish on intact pages or fault;
 * nothing else may happen (no stale data, no crash, no leak).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#define BO_SIZE (8u << 20)

struct reader {
	int fd;
	uint64_t va;
	uint8_t *buf;
	atomic_int stop;
	long ok, faults, other, bad_data;
};

static void *read_loop(void *arg)
{
	struct reader *r = arg;

	while (!atomic_load(&r->stop)) {
		struct drm_vnpu_memcpy mc = {
			.dst = (uintptr_t)r->buf, .src = r->va, .size = BO_SIZE,
			.flags = DRM_VNPU_MEMCPY_SRC_DEVICE,
		};

		memset(r->buf, 0, BO_SIZE);
		if (!ioctl(r->fd, DRM_IOCTL_VNPU_MEMCPY, &mc)) {
			r->ok++;
			/* A completed copy saw the whole, unchanged object. */
			if (r->buf[0] != 0x3c || r->buf[BO_SIZE - 1] != 0x3c)
				r->bad_data++;
		} else if (errno == ENXIO) {
			r->faults++;
		} else {
			r->other++;
		}
	}
	return NULL;
}

static uint64_t mem_used(int fd)
{
	uint64_t v = ~0ull;

	vnpu_get_param(fd, DRM_VNPU_PARAM_MEM_USED, &v);
	return v;
}

TEST(close_while_copying)
{
	struct drm_vnpu_bo_create c = {
		.size = BO_SIZE, .placement = DRM_VNPU_PLACEMENT_DEVICE,
	};
	struct drm_gem_close gc = { 0 };
	struct reader r = { 0 };
	struct drm_vnpu_memcpy fill;
	uint8_t *src;
	uint64_t used0;
	pthread_t t;
	int round;

	r.fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	ASSERT_GE(r.fd, 0);
	r.buf = malloc(BO_SIZE);
	src = malloc(BO_SIZE);
	ASSERT_NE(NULL, r.buf);
	ASSERT_NE(NULL, src);
	memset(src, 0x3c, BO_SIZE);
	used0 = mem_used(r.fd);

	for (round = 0; round < 8; round++) {
		memset(&c, 0, sizeof(c));
		c.size = BO_SIZE;
		c.placement = DRM_VNPU_PLACEMENT_DEVICE;
		ASSERT_EQ(0, ioctl(r.fd, DRM_IOCTL_VNPU_BO_CREATE, &c));
		fill = (struct drm_vnpu_memcpy){
			.dst = c.va, .src = (uintptr_t)src, .size = BO_SIZE,
			.flags = DRM_VNPU_MEMCPY_DST_DEVICE,
		};
		ASSERT_EQ(0, ioctl(r.fd, DRM_IOCTL_VNPU_MEMCPY, &fill));

		r.va = c.va;
		atomic_store(&r.stop, 0);
		ASSERT_EQ(0, pthread_create(&t, NULL, read_loop, &r));
		usleep(20000 * (round + 1));
		gc.handle = c.handle;
		ASSERT_EQ(0, ioctl(r.fd, DRM_IOCTL_GEM_CLOSE, &gc));
		usleep(20000);
		atomic_store(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(t, NULL));
		EXPECT_GT(r.faults, 0);
	}
	EXPECT_EQ(0, r.other);
	EXPECT_EQ(0, r.bad_data);
	TH_LOG("%ld copies completed, %ld faulted", r.ok, r.faults);
	EXPECT_EQ(used0, mem_used(r.fd));
	close(r.fd);
	free(r.buf);
	free(src);
}

struct churn {
	int fd;
	atomic_int stop;
	long created;
};

static void *churn_loop(void *arg)
{
	struct churn *c = arg;

	while (!atomic_load(&c->stop)) {
		struct drm_vnpu_bo_create bc = {
			.size = 4096 * (1 + c->created % 16),
			.placement = DRM_VNPU_PLACEMENT_DEVICE,
		};
		struct drm_gem_close gc = { 0 };

		if (ioctl(c->fd, DRM_IOCTL_VNPU_BO_CREATE, &bc))
			continue;
		gc.handle = bc.handle;
		ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &gc);
		c->created++;
	}
	return NULL;
}

/* Random addresses translated while objects come and go never crash. */
TEST(translate_while_churning)
{
	struct churn ch = { 0 };
	uint8_t buf[256];
	pthread_t t;
	long faults = 0, ok = 0, other = 0;
	int i;

	ch.fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	ASSERT_GE(ch.fd, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, churn_loop, &ch));
	srand(7);
	for (i = 0; i < 20000; i++) {
		struct drm_vnpu_memcpy mc = {
			.dst = (uintptr_t)buf,
			.src = DRM_VNPU_VA_DEVICE_START + (uint64_t)(rand() % 256) * 4096,
			.size = 1 + rand() % sizeof(buf),
			.flags = DRM_VNPU_MEMCPY_SRC_DEVICE,
		};

		if (!ioctl(ch.fd, DRM_IOCTL_VNPU_MEMCPY, &mc))
			ok++;
		else if (errno == ENXIO)
			faults++;
		else
			other++;
	}
	atomic_store(&ch.stop, 1);
	ASSERT_EQ(0, pthread_join(t, NULL));
	TH_LOG("%ld objects churned; %ld reads ok, %ld faulted", ch.created, ok,
	       faults);
	EXPECT_EQ(0, other);
	EXPECT_GT(ch.created, 0);
	EXPECT_EQ(20000, ok + faults);
	close(ch.fd);
}

TEST_HARNESS_MAIN
