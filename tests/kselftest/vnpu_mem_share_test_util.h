/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the memory sharing suites (vnpu_mem_share_*_test.c), through
 * the UAPI only: objects, copies, PRIME, the debugfs counters, byte
 * patterns, reports from child processes, and the devices to test on. The
 * cross-device cases need two devices (num_devices >= 2) and are skipped
 * otherwise.
 *
 * The helpers that hand back a handle, VA or fd are noinline: a suite that
 * calls one of them once would have it inlined at -O1, and GCC would then
 * take the outputs of a failed call, which an ASSERT stops at, as possibly
 * uninitialized (-Wmaybe-uninitialized).
 */
#ifndef VNPU_MEM_SHARE_TEST_UTIL_H
#define VNPU_MEM_SHARE_TEST_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

/*
 * Not every suite uses every helper. They stay plain static functions as
 * in the one file they came from: inline would change what -O1 inlines
 * into the tests, and with it the warnings (-Wmaybe-uninitialized).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

#define MS_PAGE			4096ull

#define MS_PAGE_ALIGN(x)	(((x) + MS_PAGE - 1) & ~(MS_PAGE - 1))

#define MS_MAX_NODES		16

static __attribute__((noinline)) int ms_bo_create(int fd, uint64_t size, uint32_t placement,
			uint32_t flags, void *user_ptr, uint32_t *handle,
			uint64_t *va)
{
	struct drm_vnpu_bo_create c = {
		.size = size, .flags = flags, .placement = placement,
		.user_ptr = (uintptr_t)user_ptr,
	};

	if (ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c))
		return -errno;
	*handle = c.handle;
	if (va)
		*va = c.va;
	return 0;
}

static int ms_bo_info(int fd, uint32_t handle, struct drm_vnpu_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, info) ? -errno : 0;
}

static int ms_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	return ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc) ? -errno : 0;
}

static int ms_memcpy(int fd, uint64_t dst, uint64_t src, uint64_t size,
		     uint32_t flags)
{
	struct drm_vnpu_memcpy mc = {
		.dst = dst, .src = src, .size = size, .flags = flags,
	};

	return ioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &mc) ? -errno : 0;
}

/* Host to device. */
static int ms_h2d(int fd, uint64_t va, const void *buf, uint64_t size)
{
	return ms_memcpy(fd, va, (uintptr_t)buf, size,
			 DRM_VNPU_MEMCPY_DST_DEVICE);
}

/* Device to host. */
static int ms_d2h(int fd, void *buf, uint64_t va, uint64_t size)
{
	return ms_memcpy(fd, (uintptr_t)buf, va, size,
			 DRM_VNPU_MEMCPY_SRC_DEVICE);
}

static int ms_fault_info(int fd, struct drm_vnpu_fault_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	return ioctl(fd, DRM_IOCTL_VNPU_FAULT_INFO, fi) ? -errno : 0;
}

/* PRIME export of a handle; returns 0 or -errno. */
static __attribute__((noinline)) int ms_export(int fd, uint32_t handle, int *dmabuf)
{
	struct drm_prime_handle p = {
		.handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1,
	};

	if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		return -errno;
	*dmabuf = p.fd;
	return 0;
}

/* PRIME import of a dma-buf fd; returns 0 or -errno. */
static __attribute__((noinline)) int ms_import(int fd, int dmabuf, uint32_t *handle)
{
	struct drm_prime_handle p = { .fd = dmabuf };

	if (ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p))
		return -errno;
	*handle = p.handle;
	return 0;
}

/* debugfs mem counters of the device behind a node. */
static long long ms_used(const char *path)
{
	return vnpu_debugfs_value(path, "mem", "used");
}

static long long ms_objects(const char *path)
{
	return vnpu_debugfs_value(path, "mem", "objects");
}

/* A recognisable byte pattern: byte i of a buffer filled with seed. */
static inline uint8_t ms_pat(uint64_t i, unsigned int seed)
{
	return (uint8_t)(i * 7 + (i >> 9) + seed * 13 + 1);
}

static void ms_fill(uint8_t *buf, uint64_t size, unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		buf[i] = ms_pat(i, seed);
}

/*
 * Offset of the first byte of buf[off, off + len) that differs from the
 * pattern of a whole buffer filled with seed, or -1.
 */
static long long ms_check_range(const uint8_t *buf, uint64_t off, uint64_t len,
				unsigned int seed)
{
	uint64_t i;

	for (i = off; i < off + len; i++)
		if (buf[i] != ms_pat(i, seed))
			return (long long)i;
	return -1;
}

static long long ms_check(const uint8_t *buf, uint64_t size, unsigned int seed)
{
	return ms_check_range(buf, 0, size, seed);
}

static bool ms_va_in(uint64_t va, uint64_t range_start)
{
	return va >= range_start &&
	       va < range_start + DRM_VNPU_VA_RANGE_SIZE &&
	       !(va & (MS_PAGE - 1));
}

/* Write all of a report to a pipe (child side). */
static void ms_send(int wfd, const void *rep, size_t len)
{
	const char *p = rep;
	ssize_t n;

	while (len) {
		n = write(wfd, p, len);
		if (n <= 0)
			_exit(99);
		p += n;
		len -= n;
	}
}

/* Read a child's report; returns 0 when all of it arrived. */
static int ms_recv(int rfd, void *rep, size_t len)
{
	char *p = rep;
	ssize_t n;

	while (len) {
		n = read(rfd, p, len);
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* Exit status of a child: its exit code, or 128 + signal. */
static int ms_wait(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

/*
 * The tests use plain TEST() with this set-up call instead of a fixture:
 * the TEST_F wrapper of this harness assigns its "child" variable after
 * setjmp(), and gcc -O1 keeps it in a register for some test bodies
 * (-Werror=clobbered); a failed ASSERT in the test process would then
 * take the parent's path.
 */
struct ms_env {
	int n;			/* accel nodes */
	char paths[MS_MAX_NODES][64];
	int fd;			/* a file on node 0 */
};

static void ms_env_init(struct __test_metadata *_metadata, struct ms_env *e)
{
	uint64_t caps = 0;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->n = vnpu_list_nodes(e->paths, MS_MAX_NODES);
	ASSERT_GE(e->n, 1) TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	e->fd = open(e->paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(e->fd, 0) TH_LOG("open %s: %s", e->paths[0], strerror(errno));
	ASSERT_EQ(0, vnpu_get_param(e->fd, DRM_VNPU_PARAM_CAPABILITIES, &caps));
	ASSERT_EQ(DRM_VNPU_CAP_BO | DRM_VNPU_CAP_USERPTR | DRM_VNPU_CAP_PRIME,
		  caps & (DRM_VNPU_CAP_BO | DRM_VNPU_CAP_USERPTR |
			  DRM_VNPU_CAP_PRIME));
	ASSERT_GE(ms_objects(e->paths[0]), 0)
		TH_LOG("debugfs mem of %s not readable (debugfs mounted? root?)",
		       e->paths[0]);
}

#define SHARE_SIZE (1u << 20)

/* Anonymous page-aligned memory for USER objects. */
static void *ms_anon(size_t size, uint8_t fill)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, fill, size);
	return p;
}

#pragma GCC diagnostic pop

#endif /* VNPU_MEM_SHARE_TEST_UTIL_H */
