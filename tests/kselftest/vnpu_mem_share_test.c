// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory sharing, isolation, lifetime, stress and fdinfo of vnpu buffer
 * objects, through the UAPI only: contexts (open files) do not see each
 * other's handles or addresses, PRIME shares objects within a device (same
 * object, its own VA) and across devices (an IMPORT object), every object
 * goes away with the last thing holding it (including a killed process),
 * thousands of objects come and go without address overlaps or leaks, and
 * fdinfo reports the DRM core's memory statistics.
 *
 * Runs in the VM with vnpu.ko loaded; the cross-device cases need two
 * devices (num_devices >= 2) and are skipped otherwise.
 */
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

#define MS_PAGE			4096ull
#define MS_PAGE_ALIGN(x)	(((x) + MS_PAGE - 1) & ~(MS_PAGE - 1))
#define MS_MAX_NODES		16

/* ------------------------------------------------------------ helpers -- */

static int ms_bo_create(int fd, uint64_t size, uint32_t placement,
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
static int ms_export(int fd, uint32_t handle, int *dmabuf)
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
static int ms_import(int fd, int dmabuf, uint32_t *handle)
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

/* -------------------------------------------------------- environment -- */

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

/* ---------------------------------------------------------- isolation -- */

/* What a child with its own file on the same node saw of our objects. */
struct iso_report {
	int open_err;
	int info_dev, info_host;	/* BO_INFO of our handles */
	int close_dev, close_host;	/* GEM_CLOSE of our handles */
	int d2h;			/* read of our DEVICE VA */
	int h2d;			/* write of our DEVICE VA */
	int d2h_host;			/* read of our HOST VA */
	int fi_err;
	struct drm_vnpu_fault_info fi_read;	/* after the first read */
	struct drm_vnpu_fault_info fi;		/* after all three */
	int own_create;			/* its own object of the same size */
	uint64_t own_va;
	int own_d2h;
	long long own_nonzero;		/* first non-zero byte of it, or -1 */
};

#define ISO_SIZE (64u << 10)

static void iso_child(const char *path, uint32_t dev_handle, uint64_t dev_va,
		      uint32_t host_handle, uint64_t host_va, int wfd)
{
	struct drm_vnpu_bo_info bi;
	struct iso_report r;
	uint32_t own;
	uint8_t *buf;
	uint64_t i;
	int fd;

	memset(&r, 0, sizeof(r));
	buf = calloc(1, ISO_SIZE);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || !buf) {
		r.open_err = -errno;
		ms_send(wfd, &r, sizeof(r));
		_exit(1);
	}
	r.info_dev = ms_bo_info(fd, dev_handle, &bi);
	r.info_host = ms_bo_info(fd, host_handle, &bi);
	r.close_dev = ms_gem_close(fd, dev_handle);
	r.close_host = ms_gem_close(fd, host_handle);
	r.d2h = ms_d2h(fd, buf, dev_va, MS_PAGE);
	r.fi_err = ms_fault_info(fd, &r.fi_read);
	memset(buf, 0xee, ISO_SIZE);
	r.h2d = ms_h2d(fd, dev_va, buf, MS_PAGE);
	r.d2h_host = ms_d2h(fd, buf, host_va, 64);
	if (!r.fi_err)
		r.fi_err = ms_fault_info(fd, &r.fi);

	/* Its own object, very likely at the same VA, holds its own bytes. */
	r.own_create = ms_bo_create(fd, ISO_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
				    NULL, &own, &r.own_va);
	r.own_nonzero = -1;
	if (!r.own_create) {
		memset(buf, 0xee, ISO_SIZE);
		r.own_d2h = ms_d2h(fd, buf, r.own_va, ISO_SIZE);
		for (i = 0; i < ISO_SIZE; i++)
			if (buf[i]) {
				r.own_nonzero = i;
				break;
			}
	}
	ms_send(wfd, &r, sizeof(r));
	close(fd);
	_exit(0);
}

/*
 * A second context on the same device, in another process, sees none of
 * the first one's handles or addresses; its faults are its own.
 */
TEST(isolation_between_processes)
{
	struct ms_env e;
	struct drm_vnpu_fault_info fi0, fi1;
	struct drm_vnpu_bo_info bi;
	uint32_t dh, hh;
	uint64_t dva, hva;
	struct iso_report r;
	int pfd[2];
	uint8_t *buf;
	pid_t pid;

	ms_env_init(_metadata, &e);
	buf = malloc(ISO_SIZE);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, ms_bo_create(e.fd, ISO_SIZE, DRM_VNPU_PLACEMENT_DEVICE,
				  0, NULL, &dh, &dva));
	ASSERT_EQ(0, ms_bo_create(e.fd, ISO_SIZE, DRM_VNPU_PLACEMENT_HOST,
				  0, NULL, &hh, &hva));
	ms_fill(buf, ISO_SIZE, 1);
	ASSERT_EQ(0, ms_h2d(e.fd, dva, buf, ISO_SIZE));
	ASSERT_EQ(0, ms_h2d(e.fd, hva, buf, ISO_SIZE));
	ASSERT_EQ(0, ms_fault_info(e.fd, &fi0));

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		iso_child(e.paths[0], dh, dva, hh, hva, pfd[1]);
	}
	close(pfd[1]);
	ASSERT_EQ(0, ms_recv(pfd[0], &r, sizeof(r)));
	close(pfd[0]);
	ASSERT_EQ(0, ms_wait(pid));
	ASSERT_EQ(0, r.open_err);

	/* Our handle numbers are nothing in its file. */
	EXPECT_EQ(-ENOENT, r.info_dev);
	EXPECT_EQ(-ENOENT, r.info_host);
	/* drm_gem_handle_delete() refuses unknown handles with -EINVAL. */
	EXPECT_EQ(-EINVAL, r.close_dev);
	EXPECT_EQ(-EINVAL, r.close_host);

	/* Our addresses are unmapped in its context: faults, recorded there. */
	EXPECT_EQ(-ENXIO, r.d2h);
	EXPECT_EQ(-ENXIO, r.h2d);
	EXPECT_EQ(-ENXIO, r.d2h_host);
	ASSERT_EQ(0, r.fi_err);
	EXPECT_EQ(1, r.fi_read.count);
	EXPECT_EQ(dva, r.fi_read.va);
	EXPECT_EQ(MS_PAGE, r.fi_read.length);
	EXPECT_EQ(DRM_VNPU_ACCESS_READ, r.fi_read.access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, r.fi_read.reason);
	EXPECT_EQ(3, r.fi.count);
	EXPECT_EQ(hva, r.fi.va);
	EXPECT_EQ(64, r.fi.length);
	EXPECT_EQ(DRM_VNPU_ACCESS_READ, r.fi.access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, r.fi.reason);

	/* Its own object reads as its own (zeroed) memory, not ours. */
	ASSERT_EQ(0, r.own_create);
	EXPECT_TRUE(ms_va_in(r.own_va, DRM_VNPU_VA_DEVICE_START));
	EXPECT_EQ(0, r.own_d2h);
	EXPECT_EQ(-1, r.own_nonzero);
	TH_LOG("parent VA 0x%llx, child's own object at 0x%llx%s",
	       (unsigned long long)dva, (unsigned long long)r.own_va,
	       r.own_va == dva ? " (same address, different memory)" : "");

	/* Nothing reached us: no faults, handles intact, data unchanged. */
	ASSERT_EQ(0, ms_fault_info(e.fd, &fi1));
	EXPECT_EQ(fi0.count, fi1.count);
	EXPECT_EQ(0, fi1.count);
	ASSERT_EQ(0, ms_bo_info(e.fd, dh, &bi));
	EXPECT_EQ(dva, bi.va);
	EXPECT_EQ(DRM_VNPU_PLACEMENT_DEVICE, bi.placement);
	ASSERT_EQ(0, ms_bo_info(e.fd, hh, &bi));
	EXPECT_EQ(hva, bi.va);
	memset(buf, 0, ISO_SIZE);
	ASSERT_EQ(0, ms_d2h(e.fd, buf, dva, ISO_SIZE));
	EXPECT_EQ(-1, ms_check(buf, ISO_SIZE, 1));
	memset(buf, 0, ISO_SIZE);
	ASSERT_EQ(0, ms_d2h(e.fd, buf, hva, ISO_SIZE));
	EXPECT_EQ(-1, ms_check(buf, ISO_SIZE, 1));
	EXPECT_EQ(0, ms_gem_close(e.fd, dh));
	EXPECT_EQ(0, ms_gem_close(e.fd, hh));
	free(buf);
	close(e.fd);
}

/*
 * Two files of one process are two contexts as well: a handle of one is
 * nothing in the other, even with the same number.
 */
TEST(isolation_between_files)
{
	struct ms_env e;
	struct drm_vnpu_fault_info fi;
	struct drm_vnpu_bo_info bi;
	uint32_t h, h2;
	uint64_t va, va2;
	uint8_t b[64];
	int fd2;

	ms_env_init(_metadata, &e);
	fd2 = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ms_bo_create(e.fd, MS_PAGE, DRM_VNPU_PLACEMENT_DEVICE,
				  0, NULL, &h, &va));
	EXPECT_EQ(-ENOENT, ms_bo_info(fd2, h, &bi));
	EXPECT_EQ(-ENXIO, ms_d2h(fd2, b, va, sizeof(b)));
	ASSERT_EQ(0, ms_fault_info(fd2, &fi));
	EXPECT_EQ(1, fi.count);
	ASSERT_EQ(0, ms_fault_info(e.fd, &fi));
	EXPECT_EQ(0, fi.count);

	/* Same handle number in the second file: a different object. */
	ASSERT_EQ(0, ms_bo_create(fd2, 2 * MS_PAGE, DRM_VNPU_PLACEMENT_HOST, 0,
				  NULL, &h2, &va2));
	ASSERT_EQ(0, ms_bo_info(fd2, h2, &bi));
	EXPECT_EQ(2 * MS_PAGE, bi.size);
	EXPECT_EQ(DRM_VNPU_PLACEMENT_HOST, bi.placement);
	if (h2 == h)
		TH_LOG("handle %u names different objects in the two files", h);
	ASSERT_EQ(0, ms_bo_info(e.fd, h, &bi));
	EXPECT_EQ(MS_PAGE, bi.size);
	EXPECT_EQ(DRM_VNPU_PLACEMENT_DEVICE, bi.placement);
	EXPECT_EQ(0, ms_gem_close(fd2, h2));
	EXPECT_EQ(-EINVAL, ms_gem_close(fd2, h2));
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(fd2);
	close(e.fd);
}

/*
 * mmap offsets are per object but only files with a handle may use them:
 * another file (another context) is refused with -EACCES by the core,
 * until it imports the object.
 */
TEST(isolation_mmap_offset)
{
	const uint64_t size = 4 * MS_PAGE;
	struct drm_vnpu_bo_info bi, bi2;
	struct ms_env e;
	uint32_t h, ih;
	int fd2, dmabuf;
	uint8_t *map;

	ms_env_init(_metadata, &e);
	ASSERT_EQ(0, ms_bo_create(e.fd, size, DRM_VNPU_PLACEMENT_DEVICE, 0,
				  NULL, &h, NULL));
	ASSERT_EQ(0, ms_bo_info(e.fd, h, &bi));
	ASSERT_NE(0, bi.mmap_offset);
	fd2 = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		   bi.mmap_offset);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(EACCES, errno);

	/* Once the second file has a handle, the same offset maps. */
	ASSERT_EQ(0, ms_export(e.fd, h, &dmabuf));
	ASSERT_EQ(0, ms_import(fd2, dmabuf, &ih));
	ASSERT_EQ(0, ms_bo_info(fd2, ih, &bi2));
	EXPECT_EQ(bi.mmap_offset, bi2.mmap_offset);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		   bi.mmap_offset);
	ASSERT_NE(MAP_FAILED, map);
	map[0] = 0x77;
	ASSERT_EQ(0, munmap(map, size));
	/* ... and after it closes its handle, no more. */
	ASSERT_EQ(0, ms_gem_close(fd2, ih));
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		   bi.mmap_offset);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(EACCES, errno);
	close(dmabuf);
	close(fd2);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(e.fd);
}

/*
 * The context is the open file, not the process: a forked child that
 * uses the file it inherited sees the parent's handles and VAs, and its
 * faults are counted in that (shared) context.
 */
TEST(isolation_context_is_the_file)
{
	struct drm_vnpu_fault_info fi;
	struct ms_env e;
	uint8_t b[16];
	uint32_t h;
	uint64_t va;
	pid_t pid;

	ms_env_init(_metadata, &e);
	ASSERT_EQ(0, ms_bo_create(e.fd, MS_PAGE, DRM_VNPU_PLACEMENT_DEVICE, 0,
				  NULL, &h, &va));
	ms_fill(b, sizeof(b), 71);
	ASSERT_EQ(0, ms_h2d(e.fd, va, b, sizeof(b)));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct drm_vnpu_bo_info bi;
		uint8_t c[16] = { 0 };

		if (ms_bo_info(e.fd, h, &bi) || bi.va != va)
			_exit(1);
		if (ms_d2h(e.fd, c, va, sizeof(c)) ||
		    ms_check(c, sizeof(c), 71) != -1)
			_exit(2);
		/* One fault past the end, in the shared context. */
		if (ms_d2h(e.fd, c, va + MS_PAGE - 8, sizeof(c)) != -ENXIO)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(0, ms_wait(pid));
	ASSERT_EQ(0, ms_fault_info(e.fd, &fi));
	EXPECT_EQ(1, fi.count);
	EXPECT_EQ(va + MS_PAGE - 8, fi.va);
	EXPECT_EQ(DRM_VNPU_FAULT_BOUNDS, fi.reason);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(e.fd);
}

/* ------------------------------------------------------------ sharing -- */

#define SHARE_SIZE (1u << 20)

/* What a child importing our dma-buf on its own file saw. */
struct share_report {
	int open_err;
	int import_err, import2_err;
	uint32_t handle, handle2;
	int info_err;
	struct drm_vnpu_bo_info info;
	int d2h;
	long long mismatch;		/* first byte not ours, or -1 */
	long long objects_import;	/* importer's device, after import */
	long long objects_export;	/* exporter's device, after import */
	long long used_import, used_export;
	int h2d;			/* write of [SHARE_WOFF, +SHARE_WLEN) */
	int close_err, close2_err;
	long long objects_closed;	/* importer's device, after close */
};

#define SHARE_WOFF	(3 * 4096 + 100)
#define SHARE_WLEN	(5 * 4096)

static void share_child(const char *node, const char *export_node, int dmabuf,
			unsigned int seed, int wfd)
{
	struct share_report r;
	uint8_t *buf;
	int fd;

	memset(&r, 0, sizeof(r));
	buf = malloc(SHARE_SIZE);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || !buf) {
		r.open_err = -errno;
		ms_send(wfd, &r, sizeof(r));
		_exit(1);
	}
	r.import_err = ms_import(fd, dmabuf, &r.handle);
	r.import2_err = ms_import(fd, dmabuf, &r.handle2);
	r.objects_import = ms_objects(node);
	r.objects_export = ms_objects(export_node);
	r.used_import = ms_used(node);
	r.used_export = ms_used(export_node);
	r.info_err = ms_bo_info(fd, r.handle, &r.info);
	memset(buf, 0, SHARE_SIZE);
	r.d2h = ms_d2h(fd, buf, r.info.va, SHARE_SIZE);
	r.mismatch = ms_check(buf, SHARE_SIZE, seed);
	ms_fill(buf, SHARE_SIZE, seed + 1);
	r.h2d = ms_h2d(fd, r.info.va + SHARE_WOFF, buf + SHARE_WOFF, SHARE_WLEN);
	r.close_err = ms_gem_close(fd, r.handle);
	/* One handle per object and file: the second import was the same. */
	r.close2_err = ms_gem_close(fd, r.handle2);
	r.objects_closed = ms_objects(node);
	ms_send(wfd, &r, sizeof(r));
	close(fd);
	_exit(0);
}

/*
 * Create and fill an object of the given placement on exp_node, export
 * it, let a forked child import it on its own file of imp_node, check what
 * the child saw (want_placement, a VA in want_range, our bytes, the
 * device counters) and that its writes reached us.
 */
static void share_run(struct __test_metadata *_metadata, int fd,
		      const char *exp_node, const char *imp_node,
		      uint32_t placement, uint32_t want_placement,
		      uint64_t want_range, unsigned int seed)
{
	long long obj_exp0, obj_imp0, used_exp0, used_imp0;
	struct share_report r;
	uint32_t h;
	uint64_t va;
	int pfd[2], dmabuf = -1;
	uint8_t *buf;
	pid_t pid;
	bool same = !strcmp(exp_node, imp_node);

	buf = malloc(SHARE_SIZE);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, ms_bo_create(fd, SHARE_SIZE, placement, 0, NULL, &h, &va));
	ms_fill(buf, SHARE_SIZE, seed);
	ASSERT_EQ(0, ms_h2d(fd, va, buf, SHARE_SIZE));
	ASSERT_EQ(0, ms_export(fd, h, &dmabuf));
	ASSERT_GE(dmabuf, 0);
	/* DRM_CLOEXEC reached the new fd. */
	EXPECT_EQ(FD_CLOEXEC, fcntl(dmabuf, F_GETFD) & FD_CLOEXEC);
	obj_exp0 = ms_objects(exp_node);
	obj_imp0 = ms_objects(imp_node);
	used_exp0 = ms_used(exp_node);
	used_imp0 = ms_used(imp_node);

	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		share_child(imp_node, exp_node, dmabuf, seed, pfd[1]);
	}
	close(pfd[1]);
	ASSERT_EQ(0, ms_recv(pfd[0], &r, sizeof(r)));
	close(pfd[0]);
	ASSERT_EQ(0, ms_wait(pid));
	ASSERT_EQ(0, r.open_err);

	ASSERT_EQ(0, r.import_err);
	ASSERT_EQ(0, r.import2_err);
	EXPECT_EQ(r.handle, r.handle2);
	ASSERT_EQ(0, r.info_err);
	EXPECT_EQ(want_placement, r.info.placement);
	EXPECT_TRUE(ms_va_in(r.info.va, want_range))
		TH_LOG("VA 0x%llx outside the range at 0x%llx",
		       (unsigned long long)r.info.va,
		       (unsigned long long)want_range);
	EXPECT_EQ(SHARE_SIZE, r.info.size);
	EXPECT_EQ(0, r.info.flags);
	EXPECT_NE(0, r.info.mmap_offset);
	EXPECT_EQ(0, r.d2h);
	EXPECT_EQ(-1, r.mismatch) TH_LOG("importer read a wrong byte at %lld",
					 r.mismatch);
	EXPECT_EQ(0, r.h2d);
	EXPECT_EQ(0, r.close_err);
	EXPECT_EQ(-EINVAL, r.close2_err);
	if (same) {
		/* The same object, not a copy: nothing new on the device. */
		EXPECT_EQ(obj_exp0, r.objects_import);
		EXPECT_EQ(obj_exp0, r.objects_closed);
		EXPECT_EQ(used_exp0, r.used_export);
	} else {
		/* A new IMPORT object on the importer, none on the exporter. */
		EXPECT_EQ(obj_imp0 + 1, r.objects_import);
		EXPECT_EQ(obj_exp0, r.objects_export);
		EXPECT_EQ(obj_imp0, r.objects_closed);
		/* Imports are charged to nobody: the exporter holds the memory. */
		EXPECT_EQ(used_imp0, r.used_import);
		EXPECT_EQ(used_exp0, r.used_export);
	}
	EXPECT_EQ(obj_imp0, ms_objects(imp_node));
	EXPECT_EQ(obj_exp0, ms_objects(exp_node));

	/* The importer's writes are in our object. */
	memset(buf, 0, SHARE_SIZE);
	ASSERT_EQ(0, ms_d2h(fd, buf, va, SHARE_SIZE));
	EXPECT_EQ(-1, ms_check_range(buf, 0, SHARE_WOFF, seed));
	EXPECT_EQ(-1, ms_check_range(buf, SHARE_WOFF, SHARE_WLEN, seed + 1));
	EXPECT_EQ(-1, ms_check_range(buf, SHARE_WOFF + SHARE_WLEN,
				     SHARE_SIZE - SHARE_WOFF - SHARE_WLEN, seed));
	TH_LOG("exporter VA 0x%llx, importer VA 0x%llx (%s)",
	       (unsigned long long)va, (unsigned long long)r.info.va,
	       same ? "same device" : "other device");
	close(dmabuf);
	EXPECT_EQ(0, ms_gem_close(fd, h));
	EXPECT_EQ(obj_exp0 - 1, ms_objects(exp_node));
	free(buf);
}

/* Same device: the importer gets the exporter's object at its own VA. */
TEST(prime_device_bo_same_node)
{
	struct ms_env e;

	ms_env_init(_metadata, &e);
	share_run(_metadata, e.fd, e.paths[0], e.paths[0],
		  DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_DEVICE,
		  DRM_VNPU_VA_DEVICE_START, 3);
	close(e.fd);
}

/* Another device: the importer gets an IMPORT object on the same pages. */
TEST(prime_device_bo_other_node)
{
	struct ms_env e;

	ms_env_init(_metadata, &e);
	if (e.n < 2)
		SKIP(return, "needs two vnpu devices (num_devices >= 2)");
	share_run(_metadata, e.fd, e.paths[0], e.paths[1],
		  DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_IMPORT,
		  DRM_VNPU_VA_IMPORT_START, 5);
	close(e.fd);
}

TEST(prime_host_bo_same_node)
{
	struct ms_env e;

	ms_env_init(_metadata, &e);
	share_run(_metadata, e.fd, e.paths[0], e.paths[0],
		  DRM_VNPU_PLACEMENT_HOST, DRM_VNPU_PLACEMENT_HOST,
		  DRM_VNPU_VA_HOST_START, 7);
	close(e.fd);
}

TEST(prime_host_bo_other_node)
{
	struct ms_env e;

	ms_env_init(_metadata, &e);
	if (e.n < 2)
		SKIP(return, "needs two vnpu devices (num_devices >= 2)");
	share_run(_metadata, e.fd, e.paths[0], e.paths[1],
		  DRM_VNPU_PLACEMENT_HOST, DRM_VNPU_PLACEMENT_IMPORT,
		  DRM_VNPU_VA_IMPORT_START, 9);
	close(e.fd);
}

/* PRIME errors come from the DRM core and dma-buf layers, exactly. */
TEST(prime_errors)
{
	struct drm_prime_handle ph;
	struct ms_env e;
	uint32_t h, ih;
	int pfd[2], dmabuf, fd2;

	ms_env_init(_metadata, &e);
	ASSERT_EQ(0, ms_bo_create(e.fd, MS_PAGE, DRM_VNPU_PLACEMENT_HOST, 0,
				  NULL, &h, NULL));

	/* Export: unknown flags, unknown handle, another file's handle. */
	memset(&ph, 0, sizeof(ph));
	ph.handle = h;
	ph.flags = DRM_CLOEXEC | DRM_RDWR | 0x4;
	ph.fd = -1;
	EXPECT_EQ(-1, ioctl(e.fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-ENOENT, ms_export(e.fd, h + 1000, &dmabuf));
	EXPECT_EQ(-ENOENT, ms_export(e.fd, 0, &dmabuf));
	fd2 = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(-ENOENT, ms_export(fd2, h, &dmabuf));

	/* Import: not a file, not a dma-buf. */
	EXPECT_EQ(-EBADF, ms_import(fd2, -1, &ih));
	ASSERT_EQ(0, pipe(pfd));
	EXPECT_EQ(-EINVAL, ms_import(fd2, pfd[0], &ih));
	EXPECT_EQ(-EINVAL, ms_import(fd2, e.fd, &ih));
	close(pfd[1]);
	EXPECT_EQ(-EBADF, ms_import(fd2, pfd[1], &ih));
	close(pfd[0]);

	/* A dma-buf whose fd was closed is gone for new imports. */
	ASSERT_EQ(0, ms_export(e.fd, h, &dmabuf));
	close(dmabuf);
	EXPECT_EQ(-EBADF, ms_import(fd2, dmabuf, &ih));
	close(fd2);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(e.fd);
}

/*
 * Within one file a dma-buf always maps to one handle: importing it twice
 * gives the same handle, importing it into the exporting file gives the
 * exporter's own handle back, and after the handle is closed a new import
 * works again.
 */
TEST(prime_import_twice_same_handle)
{
	struct ms_env e;
	struct drm_vnpu_bo_info bi;
	uint32_t h, h1, h2, h3, hs;
	struct stat st1, st2;
	uint64_t va;
	int dmabuf, d2, fd2, fd3 = -1;
	long long obj0;

	ms_env_init(_metadata, &e);
	ASSERT_EQ(0, ms_bo_create(e.fd, 8 * MS_PAGE,
				  DRM_VNPU_PLACEMENT_DEVICE, 0, NULL, &h, &va));
	ASSERT_EQ(0, ms_export(e.fd, h, &dmabuf));
	obj0 = ms_objects(e.paths[0]);

	/* Exporting again gives another fd of the same dma-buf. */
	ASSERT_EQ(0, ms_export(e.fd, h, &d2));
	EXPECT_NE(dmabuf, d2);
	ASSERT_EQ(0, fstat(dmabuf, &st1));
	ASSERT_EQ(0, fstat(d2, &st2));
	EXPECT_EQ(st1.st_ino, st2.st_ino);
	close(d2);

	/* The exporting file. */
	ASSERT_EQ(0, ms_import(e.fd, dmabuf, &hs));
	EXPECT_EQ(h, hs);

	/* Another file of the same device. */
	fd2 = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ms_import(fd2, dmabuf, &h1));
	ASSERT_EQ(0, ms_import(fd2, dmabuf, &h2));
	EXPECT_EQ(h1, h2);
	ASSERT_EQ(0, ms_bo_info(fd2, h1, &bi));
	EXPECT_EQ(DRM_VNPU_PLACEMENT_DEVICE, bi.placement);
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	EXPECT_EQ(0, ms_gem_close(fd2, h1));
	EXPECT_EQ(-ENOENT, ms_bo_info(fd2, h1, &bi));
	ASSERT_EQ(0, ms_import(fd2, dmabuf, &h3));
	ASSERT_EQ(0, ms_bo_info(fd2, h3, &bi));
	EXPECT_EQ(8 * MS_PAGE, bi.size);
	EXPECT_EQ(0, ms_gem_close(fd2, h3));
	close(fd2);

	/* A file of another device: one IMPORT object, one handle. */
	if (e.n >= 2) {
		long long o1 = ms_objects(e.paths[1]);

		fd3 = open(e.paths[1], O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd3, 0);
		ASSERT_EQ(0, ms_import(fd3, dmabuf, &h1));
		ASSERT_EQ(0, ms_import(fd3, dmabuf, &h2));
		EXPECT_EQ(h1, h2);
		EXPECT_EQ(o1 + 1, ms_objects(e.paths[1]));
		ASSERT_EQ(0, ms_bo_info(fd3, h1, &bi));
		EXPECT_EQ(DRM_VNPU_PLACEMENT_IMPORT, bi.placement);
		EXPECT_EQ(0, ms_gem_close(fd3, h1));
		EXPECT_EQ(o1, ms_objects(e.paths[1]));
		EXPECT_EQ(-EINVAL, ms_gem_close(fd3, h2));
		close(fd3);
	}
	close(dmabuf);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	EXPECT_EQ(obj0 - 1, ms_objects(e.paths[0]));
	close(e.fd);
}

/* Registered user memory belongs to one process and cannot be exported. */
TEST(prime_export_user_bo_fails)
{
	struct ms_env e;
	long long obj0;
	struct drm_vnpu_bo_info bi;
	int dmabuf = -1234, ret;
	uint32_t h;
	uint64_t va;
	void *mem;

	ms_env_init(_metadata, &e);
	mem = mmap(NULL, 4 * MS_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	obj0 = ms_objects(e.paths[0]);
	memset(mem, 0x5a, 4 * MS_PAGE);
	ASSERT_EQ(0, ms_bo_create(e.fd, 4 * MS_PAGE, DRM_VNPU_PLACEMENT_USER,
				  0, mem, &h, &va));
	ret = ms_export(e.fd, h, &dmabuf);
	/* vnpu_userptr_export() returns -EOPNOTSUPP and the core passes it on. */
	EXPECT_EQ(-EOPNOTSUPP, ret) TH_LOG("export of a USER object: %s",
					   strerror(-ret));
	EXPECT_EQ(-1234, dmabuf);
	/* The failed export left the object as it was. */
	ASSERT_EQ(0, ms_bo_info(e.fd, h, &bi));
	EXPECT_EQ(DRM_VNPU_PLACEMENT_USER, bi.placement);
	EXPECT_EQ(va, bi.va);
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
	/* A second attempt fails the same way (nothing was cached). */
	EXPECT_EQ(-EOPNOTSUPP, ms_export(e.fd, h, &dmabuf));
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	munmap(mem, 4 * MS_PAGE);
	close(e.fd);
}

/*
 * An IMPORT object maps like any other (through the exporter's dma-buf):
 * the importer's mapping shows the exporter's bytes, its stores reach the
 * exporter, and it outlives both handles.
 */
TEST(prime_import_mmap)
{
	const uint64_t size = 64 * MS_PAGE;
	long long obj0, obj1;
	struct drm_vnpu_bo_info bi;
	struct ms_env e;
	uint8_t *buf, *map;
	uint32_t h, ih;
	int yfd, dmabuf;
	uint64_t va;

	ms_env_init(_metadata, &e);
	if (e.n < 2)
		SKIP(return, "needs two vnpu devices (num_devices >= 2)");
	obj0 = ms_objects(e.paths[0]);
	obj1 = ms_objects(e.paths[1]);
	buf = malloc(size);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, ms_bo_create(e.fd, size, DRM_VNPU_PLACEMENT_DEVICE, 0,
				  NULL, &h, &va));
	ms_fill(buf, size, 61);
	ASSERT_EQ(0, ms_h2d(e.fd, va, buf, size));
	ASSERT_EQ(0, ms_export(e.fd, h, &dmabuf));
	yfd = open(e.paths[1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(yfd, 0);
	ASSERT_EQ(0, ms_import(yfd, dmabuf, &ih));
	close(dmabuf);
	ASSERT_EQ(0, ms_bo_info(yfd, ih, &bi));
	EXPECT_EQ(DRM_VNPU_PLACEMENT_IMPORT, bi.placement);
	ASSERT_NE(0, bi.mmap_offset);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, yfd,
		   bi.mmap_offset);
	ASSERT_NE(MAP_FAILED, map) TH_LOG("mmap of an IMPORT object: %s",
					  strerror(errno));
	EXPECT_EQ(-1, ms_check(map, size, 61));
	ms_fill(map, size, 62);
	memset(buf, 0, size);
	ASSERT_EQ(0, ms_d2h(e.fd, buf, va, size));
	EXPECT_EQ(-1, ms_check(buf, size, 62));
	/*
	 * The mapping is the dma-buf's own (drm_gem_shmem_mmap() hands
	 * imports to dma_buf_mmap()): it keeps the exporter's object, while
	 * the IMPORT object goes with its handle.
	 */
	EXPECT_EQ(obj1 + 1, ms_objects(e.paths[1]));
	EXPECT_EQ(0, ms_gem_close(yfd, ih));
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(yfd);
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
	EXPECT_EQ(obj1, ms_objects(e.paths[1]));
	EXPECT_EQ(-1, ms_check(map, size, 62));
	ASSERT_EQ(0, munmap(map, size));
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	EXPECT_EQ(obj1, ms_objects(e.paths[1]));
	free(buf);
	close(e.fd);
}

/* ----------------------------------------------------------- lifetime -- */

/* One line of debugfs bo_list. */
struct ms_bo_line {
	int pid;
	char comm[32];
	unsigned long long size;
	char place[16];
	unsigned long long va;
	char pinned[8];
};

/*
 * Parse bo_list of the device behind path into lines[]; returns the number
 * of object lines, or -1 when the file is missing or its header is wrong.
 */
static int ms_bo_list(const char *path, struct ms_bo_line *lines, int max)
{
	char dir[256], file[320], line[512];
	int n = 0;
	FILE *f;

	if (vnpu_debugfs_dir(path, dir, sizeof(dir)))
		return -1;
	snprintf(file, sizeof(file), "%s/bo_list", dir);
	f = fopen(file, "r");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f) || strncmp(line, "pid ", 4) ||
	    !strstr(line, "comm") || !strstr(line, "place") ||
	    !strstr(line, "pinned")) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ms_bo_line l;

		memset(&l, 0, sizeof(l));
		if (sscanf(line, "%d %31s %llu %15s %llx %7s", &l.pid, l.comm,
			   &l.size, l.place, &l.va, l.pinned) != 6) {
			fclose(f);
			return -1;
		}
		if (n < max)
			lines[n] = l;
		n++;
	}
	fclose(f);
	return n;
}

#define MS_MAX_LINES 4096

/*
 * Lines of pid in bo_list of path with the given VA (0: any VA) and
 * placement name (NULL: any); the last match is copied to *out.
 */
static int ms_bo_lines_of(const char *path, int pid, uint64_t va,
			  const char *place, struct ms_bo_line *out)
{
	static struct ms_bo_line lines[MS_MAX_LINES];
	int n, i, count = 0;

	n = ms_bo_list(path, lines, MS_MAX_LINES);
	if (n < 0)
		return -1;
	for (i = 0; i < n && i < MS_MAX_LINES; i++) {
		if (lines[i].pid != pid)
			continue;
		if (va && lines[i].va != va)
			continue;
		if (place && strcmp(lines[i].place, place))
			continue;
		if (out)
			*out = lines[i];
		count++;
	}
	return count;
}

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

#define LT_DEV_SIZE	100000ull	/* charged as 25 pages */
#define LT_EXP_SIZE	(256ull << 10)

/*
 * Closing a file frees what only it held: its DEVICE, HOST and USER
 * objects and its imports; objects it imported from a file that is still
 * open stay until their exporter lets go of them, and a dma-buf alone
 * keeps its object alive.
 */
TEST(lifetime_file_close_frees_objects)
{
	long long used0, obj0, used1 = 0, obj1 = 0;
	uint32_t xh, yh = 0, h, ih, ih2 = 0;
	int xfd, yfd = -1, afd, xbuf, ybuf = -1;
	struct drm_vnpu_bo_info bi;
	struct ms_env e;
	uint64_t va;
	uint8_t *src;
	void *umem;

	ms_env_init(_metadata, &e);
	src = malloc(LT_DEV_SIZE);
	umem = ms_anon(4 * MS_PAGE, 0x11);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, umem);
	ms_fill(src, LT_DEV_SIZE, 21);
	used0 = ms_used(e.paths[0]);
	obj0 = ms_objects(e.paths[0]);
	if (e.n >= 2) {
		used1 = ms_used(e.paths[1]);
		obj1 = ms_objects(e.paths[1]);
	}

	/* Exporters: one on this device, one on another. */
	xfd = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(xfd, 0);
	ASSERT_EQ(0, ms_bo_create(xfd, LT_EXP_SIZE, DRM_VNPU_PLACEMENT_DEVICE,
				  0, NULL, &xh, &va));
	ASSERT_EQ(0, ms_h2d(xfd, va, src, LT_DEV_SIZE));
	ASSERT_EQ(0, ms_export(xfd, xh, &xbuf));
	if (e.n >= 2) {
		yfd = open(e.paths[1], O_RDWR | O_CLOEXEC);
		ASSERT_GE(yfd, 0);
		ASSERT_EQ(0, ms_bo_create(yfd, LT_EXP_SIZE,
					  DRM_VNPU_PLACEMENT_DEVICE, 0, NULL,
					  &yh, &va));
		ASSERT_EQ(0, ms_h2d(yfd, va, src, LT_DEV_SIZE));
		ASSERT_EQ(0, ms_export(yfd, yh, &ybuf));
	}
	EXPECT_EQ(used0 + LT_EXP_SIZE, ms_used(e.paths[0]));
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));

	/* The file under test: one object of every kind. */
	afd = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(afd, 0);
	ASSERT_EQ(0, ms_bo_create(afd, LT_DEV_SIZE, DRM_VNPU_PLACEMENT_DEVICE,
				  0, NULL, &h, &va));
	ASSERT_EQ(0, ms_h2d(afd, va, src, LT_DEV_SIZE));
	ASSERT_EQ(0, ms_bo_create(afd, 64 << 10, DRM_VNPU_PLACEMENT_HOST, 0,
				  NULL, &h, &va));
	ASSERT_EQ(0, ms_h2d(afd, va, src, 64 << 10));
	ASSERT_EQ(0, ms_bo_create(afd, 4 * MS_PAGE, DRM_VNPU_PLACEMENT_USER, 0,
				  umem, &h, &va));
	ASSERT_EQ(0, ms_import(afd, xbuf, &ih));
	ASSERT_EQ(0, ms_bo_info(afd, ih, &bi));
	EXPECT_EQ(DRM_VNPU_PLACEMENT_DEVICE, bi.placement);
	if (e.n >= 2) {
		ASSERT_EQ(0, ms_import(afd, ybuf, &ih2));
		ASSERT_EQ(0, ms_bo_info(afd, ih2, &bi));
		EXPECT_EQ(DRM_VNPU_PLACEMENT_IMPORT, bi.placement);
	}
	EXPECT_EQ(used0 + LT_EXP_SIZE + MS_PAGE_ALIGN(LT_DEV_SIZE),
		  ms_used(e.paths[0]));
	/* DEVICE, HOST, USER, the IMPORT; the same-device import is xh. */
	EXPECT_EQ(obj0 + 1 + 3 + (e.n >= 2), ms_objects(e.paths[0]));

	close(afd);
	/* Only the exporter's object is left, charged as before. */
	EXPECT_EQ(used0 + LT_EXP_SIZE, ms_used(e.paths[0]));
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
	if (e.n >= 2) {
		EXPECT_EQ(used1 + LT_EXP_SIZE, ms_used(e.paths[1]));
		EXPECT_EQ(obj1 + 1, ms_objects(e.paths[1]));
	}

	/* The exporter's handle goes; its dma-buf still holds the object. */
	EXPECT_EQ(0, ms_gem_close(xfd, xh));
	EXPECT_EQ(used0 + LT_EXP_SIZE, ms_used(e.paths[0]));
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
	/* ... and can give it back, data intact. */
	ASSERT_EQ(0, ms_import(xfd, xbuf, &xh));
	ASSERT_EQ(0, ms_bo_info(xfd, xh, &bi));
	memset(src, 0, LT_DEV_SIZE);
	ASSERT_EQ(0, ms_d2h(xfd, src, bi.va, LT_DEV_SIZE));
	EXPECT_EQ(-1, ms_check(src, LT_DEV_SIZE, 21));
	EXPECT_EQ(0, ms_gem_close(xfd, xh));
	close(xbuf);
	EXPECT_EQ(used0, ms_used(e.paths[0]));
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	close(xfd);

	if (e.n >= 2) {
		/* The dma-buf goes first here; the handle holds the object. */
		close(ybuf);
		EXPECT_EQ(obj1 + 1, ms_objects(e.paths[1]));
		close(yfd);
		EXPECT_EQ(used1, ms_used(e.paths[1]));
		EXPECT_EQ(obj1, ms_objects(e.paths[1]));
	}
	munmap(umem, 4 * MS_PAGE);
	free(src);
	close(e.fd);
}

#define VICTIM_DEV	4
#define VICTIM_SIZE	(192ull << 10)
#define VICTIM_USER	(64ull << 10)

/*
 * The victim: registers user memory, creates DEVICE objects (one touched,
 * one mapped) and a HOST object, says "ready" and waits to be killed.
 */
static void victim(const char *path, int wfd)
{
	struct drm_vnpu_bo_info bi;
	uint8_t buf[256] = { 1 };
	uint32_t h;
	uint64_t va;
	void *umem, *map;
	int fd, i;

	prctl(PR_SET_NAME, "ms_victim");
	fd = open(path, O_RDWR | O_CLOEXEC);
	umem = ms_anon(VICTIM_USER, 0x22);
	if (fd < 0 || !umem)
		_exit(1);
	if (ms_bo_create(fd, VICTIM_USER, DRM_VNPU_PLACEMENT_USER, 0, umem,
			 &h, &va))
		_exit(2);
	for (i = 0; i < VICTIM_DEV; i++) {
		if (ms_bo_create(fd, VICTIM_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
				 NULL, &h, &va))
			_exit(3);
		if (i == 0 && ms_h2d(fd, va, buf, sizeof(buf)))
			_exit(4);
		if (i == 1) {
			if (ms_bo_info(fd, h, &bi))
				_exit(5);
			map = mmap(NULL, VICTIM_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, bi.mmap_offset);
			if (map == MAP_FAILED)
				_exit(6);
			memset(map, 0x33, VICTIM_SIZE);
		}
	}
	if (ms_bo_create(fd, VICTIM_SIZE, DRM_VNPU_PLACEMENT_HOST, 0, NULL,
			 &h, &va))
		_exit(7);
	if (write(wfd, "ready", 5) != 5)
		_exit(8);
	for (;;)
		pause();
}

/*
 * A process killed with SIGKILL while holding objects of every kind,
 * pinned user memory and a CPU mapping leaves nothing behind.
 */
TEST(lifetime_killed_process_cleanup)
{
	long long used0, obj0;
	struct ms_bo_line l;
	struct ms_env e;
	char ready[8] = "";
	int pfd[2];
	pid_t pid;

	ms_env_init(_metadata, &e);
	used0 = ms_used(e.paths[0]);
	obj0 = ms_objects(e.paths[0]);
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		victim(e.paths[0], pfd[1]);
	}
	close(pfd[1]);
	ASSERT_EQ(5, read(pfd[0], ready, 5)) {
		kill(pid, SIGKILL);
		TH_LOG("victim exited with %d before getting ready", ms_wait(pid));
	}
	close(pfd[0]);
	EXPECT_STREQ("ready", ready);

	EXPECT_EQ(used0 + VICTIM_DEV * VICTIM_SIZE, ms_used(e.paths[0]));
	EXPECT_EQ(obj0 + VICTIM_DEV + 2, ms_objects(e.paths[0]));
	/* bo_list shows them as the victim's. */
	EXPECT_EQ(VICTIM_DEV, ms_bo_lines_of(e.paths[0], pid, 0, "device", &l));
	EXPECT_STREQ("ms_victim", l.comm);
	EXPECT_EQ(VICTIM_SIZE, l.size);
	EXPECT_EQ(1, ms_bo_lines_of(e.paths[0], pid, 0, "host", NULL));
	EXPECT_EQ(1, ms_bo_lines_of(e.paths[0], pid, 0, "user", &l));
	EXPECT_EQ(VICTIM_USER, l.size);
	EXPECT_STREQ("yes", l.pinned);
	EXPECT_EQ(VICTIM_DEV + 2, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));

	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_EQ(128 + SIGKILL, ms_wait(pid));
	EXPECT_EQ(used0, ms_used(e.paths[0]));
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	EXPECT_EQ(0, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
	close(e.fd);
}

/* Send a file descriptor over a unix socket. */
static int ms_send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int ms_recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * ACL IPC memory: a process exports an object, hands the dma-buf to
 * another process and dies (SIGKILL); the object lives on, with its data,
 * charged to the device, until the last importer lets go.
 */
TEST(lifetime_dmabuf_outlives_creator)
{
	long long used0, obj0;
	struct drm_vnpu_bo_info bi;
	int sv[2], dmabuf, i;
	uint32_t h;
	struct ms_env e;
	uint8_t *buf;
	pid_t pid;

	ms_env_init(_metadata, &e);
	buf = malloc(SHARE_SIZE);
	ASSERT_NE(NULL, buf);
	used0 = ms_used(e.paths[0]);
	obj0 = ms_objects(e.paths[0]);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		uint64_t va;
		int fd, d;

		close(sv[0]);
		fd = open(e.paths[0], O_RDWR | O_CLOEXEC);
		ms_fill(buf, SHARE_SIZE, 31);
		if (fd < 0 ||
		    ms_bo_create(fd, SHARE_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
				 NULL, &h, &va) ||
		    ms_h2d(fd, va, buf, SHARE_SIZE) || ms_export(fd, h, &d) ||
		    ms_send_fd(sv[1], d))
			_exit(1);
		for (;;)
			pause();
	}
	close(sv[1]);
	dmabuf = ms_recv_fd(sv[0]);
	ASSERT_GE(dmabuf, 0) {
		kill(pid, SIGKILL);
		ms_wait(pid);
	}
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(128 + SIGKILL, ms_wait(pid));
	close(sv[0]);

	/* The creator is gone; its object is not. */
	EXPECT_EQ(used0 + SHARE_SIZE, ms_used(e.paths[0]));
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
	EXPECT_EQ(1, ms_bo_lines_of(e.paths[0], pid, 0, "device", NULL));
	for (i = 0; i < 2 && i < e.n; i++) {
		int fd = open(e.paths[i], O_RDWR | O_CLOEXEC);

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, ms_import(fd, dmabuf, &h));
		ASSERT_EQ(0, ms_bo_info(fd, h, &bi));
		EXPECT_EQ(i ? DRM_VNPU_PLACEMENT_IMPORT :
			      DRM_VNPU_PLACEMENT_DEVICE, bi.placement);
		memset(buf, 0, SHARE_SIZE);
		ASSERT_EQ(0, ms_d2h(fd, buf, bi.va, SHARE_SIZE));
		EXPECT_EQ(-1, ms_check(buf, SHARE_SIZE, 31));
		if (i == 0) {
			close(fd);
			continue;
		}
		/* An import on another device alone keeps it too. */
		close(dmabuf);
		dmabuf = -1;
		EXPECT_EQ(used0 + SHARE_SIZE, ms_used(e.paths[0]));
		EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
		memset(buf, 0, SHARE_SIZE);
		ASSERT_EQ(0, ms_d2h(fd, buf, bi.va, SHARE_SIZE));
		EXPECT_EQ(-1, ms_check(buf, SHARE_SIZE, 31));
		close(fd);
	}
	if (dmabuf >= 0)
		close(dmabuf);
	EXPECT_EQ(used0, ms_used(e.paths[0]));
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	EXPECT_EQ(0, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
	free(buf);
	close(e.fd);
}

/*
 * bo_list has one line per live object: the creating process, size,
 * placement name, VA in the creator's context and whether the pages are
 * pinned; the line goes with the object.
 */
TEST(lifetime_bo_list_lines)
{
	static const struct {
		uint32_t placement;
		uint64_t size;
		const char *name;
	} kinds[] = {
		{ DRM_VNPU_PLACEMENT_DEVICE, 3 * MS_PAGE + 5, "device" },
		{ DRM_VNPU_PLACEMENT_HOST, 5 * MS_PAGE, "host" },
		{ DRM_VNPU_PLACEMENT_USER, 2 * MS_PAGE, "user" },
	};
	uint32_t h[3], xh = 0, ih = 0;
	uint64_t va[3], iva = 0;
	int pid = getpid(), i, yfd = -1, dmabuf = -1;
	struct drm_vnpu_bo_info bi;
	struct ms_bo_line l;
	struct ms_env e;
	uint8_t byte = 7;
	void *umem;

	ms_env_init(_metadata, &e);
	umem = ms_anon(2 * MS_PAGE, 0);
	ASSERT_NE(NULL, umem);
	ASSERT_EQ(0, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, ms_bo_create(e.fd, kinds[i].size, kinds[i].placement,
					  0, i == 2 ? umem : NULL, &h[i],
					  &va[i]));
		ASSERT_EQ(1, ms_bo_lines_of(e.paths[0], pid, va[i],
					    kinds[i].name, &l))
			TH_LOG("no %s line at 0x%llx", kinds[i].name,
			       (unsigned long long)va[i]);
		EXPECT_EQ(kinds[i].size, l.size);
		/* Shmem objects get pages on first use; user memory is pinned. */
		EXPECT_STREQ(i == 2 ? "yes" : "no", l.pinned);
	}
	EXPECT_EQ(3, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
	ASSERT_EQ(0, ms_h2d(e.fd, va[0], &byte, 1));
	ASSERT_EQ(1, ms_bo_lines_of(e.paths[0], pid, va[0], "device", &l));
	EXPECT_STREQ("yes", l.pinned);

	/* An import from another device is listed there, as ours. */
	if (e.n >= 2) {
		yfd = open(e.paths[1], O_RDWR | O_CLOEXEC);
		ASSERT_GE(yfd, 0);
		ASSERT_EQ(0, ms_bo_create(yfd, 6 * MS_PAGE,
					  DRM_VNPU_PLACEMENT_HOST, 0, NULL, &xh,
					  NULL));
		ASSERT_EQ(0, ms_export(yfd, xh, &dmabuf));
		ASSERT_EQ(0, ms_import(e.fd, dmabuf, &ih));
		ASSERT_EQ(0, ms_bo_info(e.fd, ih, &bi));
		iva = bi.va;
		ASSERT_EQ(1, ms_bo_lines_of(e.paths[0], pid, iva, "import", &l));
		EXPECT_EQ(6 * MS_PAGE, l.size);
		EXPECT_EQ(4, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
		EXPECT_EQ(1, ms_bo_lines_of(e.paths[1], pid, 0, "host", NULL));
	}

	/* Each line goes with its object, the others stay. */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, ms_gem_close(e.fd, h[i]));
		EXPECT_EQ(0, ms_bo_lines_of(e.paths[0], pid, va[i],
					    kinds[i].name, NULL));
		EXPECT_EQ(2 - i + (e.n >= 2),
			  ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
	}
	if (e.n >= 2) {
		ASSERT_EQ(0, ms_gem_close(e.fd, ih));
		EXPECT_EQ(0, ms_bo_lines_of(e.paths[0], pid, 0, NULL, NULL));
		/* The exporter's object is still listed on its device. */
		EXPECT_EQ(1, ms_bo_lines_of(e.paths[1], pid, 0, "host", NULL));
		close(dmabuf);
		close(yfd);
		EXPECT_EQ(0, ms_bo_lines_of(e.paths[1], pid, 0, NULL, NULL));
	}
	munmap(umem, 2 * MS_PAGE);
	close(e.fd);
}

/*
 * An IMPORT object's pages are pinned from the moment it is imported:
 * attaching to the dma-buf pinned the exporter's pages (drm_gem_map_attach()
 * -> drm_gem_pin()), and they are the import's pages. bo_list says so for
 * both objects, before either is used.
 */
TEST(lifetime_bo_list_import_pinned)
{
	struct drm_vnpu_bo_info bi;
	struct ms_bo_line l;
	int pid = getpid(), yfd, dmabuf;
	struct ms_env e;
	uint32_t xh, ih;
	uint64_t xva;

	ms_env_init(_metadata, &e);
	if (e.n < 2)
		SKIP(return, "needs two vnpu devices (num_devices >= 2)");
	yfd = open(e.paths[1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(yfd, 0);
	ASSERT_EQ(0, ms_bo_create(yfd, 6 * MS_PAGE, DRM_VNPU_PLACEMENT_DEVICE,
				  0, NULL, &xh, &xva));
	ASSERT_EQ(1, ms_bo_lines_of(e.paths[1], pid, xva, "device", &l));
	EXPECT_STREQ("no", l.pinned);
	ASSERT_EQ(0, ms_export(yfd, xh, &dmabuf));
	ASSERT_EQ(0, ms_import(e.fd, dmabuf, &ih));
	ASSERT_EQ(0, ms_bo_info(e.fd, ih, &bi));
	ASSERT_EQ(1, ms_bo_lines_of(e.paths[1], pid, xva, "device", &l));
	EXPECT_STREQ("yes", l.pinned) TH_LOG("exporter not listed as pinned");
	ASSERT_EQ(1, ms_bo_lines_of(e.paths[0], pid, bi.va, "import", &l));
	EXPECT_STREQ("yes", l.pinned)
		TH_LOG("unused IMPORT object listed as not pinned");
	EXPECT_EQ(0, ms_gem_close(e.fd, ih));
	close(dmabuf);
	close(yfd);
	EXPECT_EQ(0, ms_bo_lines_of(e.paths[1], pid, 0, NULL, NULL));
	close(e.fd);
}

/*
 * An mmap of an object outlives its handle and its file: the object stays
 * (charged and counted) while the mapping exists and goes with munmap.
 */
TEST(lifetime_mmap_outlives_handle)
{
	const uint64_t size = 40 * MS_PAGE;
	long long used0, obj0;
	struct drm_vnpu_bo_info bi;
	struct ms_env e;
	uint8_t *map, *buf;
	uint32_t h;
	int fd;

	ms_env_init(_metadata, &e);
	buf = malloc(size);
	ASSERT_NE(NULL, buf);
	used0 = ms_used(e.paths[0]);
	obj0 = ms_objects(e.paths[0]);
	fd = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ms_bo_create(fd, size, DRM_VNPU_PLACEMENT_DEVICE, 0, NULL,
				  &h, NULL));
	ASSERT_EQ(0, ms_bo_info(fd, h, &bi));
	ms_fill(buf, size, 41);
	ASSERT_EQ(0, ms_h2d(fd, bi.va, buf, size));
	ASSERT_NE(0, bi.mmap_offset);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   bi.mmap_offset);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(-1, ms_check(map, size, 41));

	EXPECT_EQ(0, ms_gem_close(fd, h));
	close(fd);
	EXPECT_EQ(used0 + size, ms_used(e.paths[0]));
	EXPECT_EQ(obj0 + 1, ms_objects(e.paths[0]));
	/* Still the same memory. */
	EXPECT_EQ(-1, ms_check(map, size, 41));
	ms_fill(map, size, 42);
	EXPECT_EQ(-1, ms_check(map, size, 42));

	ASSERT_EQ(0, munmap(map, size));
	EXPECT_EQ(used0, ms_used(e.paths[0]));
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	free(buf);
	close(e.fd);
}

/*
 * Exporting an IMPORT object hands out the original dma-buf: imported on
 * the original device it is the original object again.
 */
TEST(prime_reexport_of_import)
{
	uint32_t h, ih, h2;
	int yfd, d1, d2;
	struct drm_vnpu_bo_info bi;
	long long obj0;
	struct stat st1, st2;
	struct ms_env e;
	uint8_t b[16];
	uint64_t va;

	ms_env_init(_metadata, &e);
	if (e.n < 2)
		SKIP(return, "needs two vnpu devices (num_devices >= 2)");
	ASSERT_EQ(0, ms_bo_create(e.fd, 16 * MS_PAGE, DRM_VNPU_PLACEMENT_HOST,
				  0, NULL, &h, &va));
	ms_fill(b, sizeof(b), 51);
	ASSERT_EQ(0, ms_h2d(e.fd, va, b, sizeof(b)));
	ASSERT_EQ(0, ms_export(e.fd, h, &d1));
	obj0 = ms_objects(e.paths[0]);

	yfd = open(e.paths[1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(yfd, 0);
	ASSERT_EQ(0, ms_import(yfd, d1, &ih));
	ASSERT_EQ(0, ms_export(yfd, ih, &d2));
	ASSERT_EQ(0, fstat(d1, &st1));
	ASSERT_EQ(0, fstat(d2, &st2));
	EXPECT_EQ(st1.st_ino, st2.st_ino) TH_LOG("a new dma-buf, not the original");
	close(d1);

	/* Back on the first device and file: the original handle. */
	ASSERT_EQ(0, ms_import(e.fd, d2, &h2));
	EXPECT_EQ(h, h2);
	ASSERT_EQ(0, ms_bo_info(e.fd, h2, &bi));
	EXPECT_EQ(DRM_VNPU_PLACEMENT_HOST, bi.placement);
	EXPECT_EQ(va, bi.va);
	EXPECT_EQ(obj0, ms_objects(e.paths[0]));
	close(d2);
	close(yfd);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	EXPECT_EQ(obj0 - 1, ms_objects(e.paths[0]));
	close(e.fd);
}

/*
 * The MMU bounds an importer's accesses like the exporter's: an IMPORT
 * object ends where the dma-buf ends (whole pages), a same-device import
 * where the object ends, and the fault is the importer's.
 */
TEST(prime_import_bounds)
{
	const uint64_t size = 3 * MS_PAGE + 100;
	struct drm_vnpu_fault_info fi;
	struct drm_vnpu_bo_info bi;
	uint32_t h, ih;
	int fd2, dmabuf, i;
	struct ms_env e;
	uint8_t b[8];
	uint64_t va, end;

	ms_env_init(_metadata, &e);
	ASSERT_EQ(0, ms_bo_create(e.fd, size, DRM_VNPU_PLACEMENT_DEVICE, 0,
				  NULL, &h, &va));
	ASSERT_EQ(0, ms_export(e.fd, h, &dmabuf));
	for (i = 0; i < 2 && i < e.n; i++) {
		fd2 = open(e.paths[i], O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd2, 0);
		ASSERT_EQ(0, ms_import(fd2, dmabuf, &ih));
		ASSERT_EQ(0, ms_bo_info(fd2, ih, &bi));
		/* A dma-buf is whole pages; the same object keeps its size. */
		end = i ? MS_PAGE_ALIGN(size) : size;
		EXPECT_EQ(end, bi.size);
		EXPECT_EQ(0, ms_d2h(fd2, b, bi.va + end - 2, 2));
		EXPECT_EQ(-ENXIO, ms_d2h(fd2, b, bi.va + end - 2, 4));
		ASSERT_EQ(0, ms_fault_info(fd2, &fi));
		EXPECT_EQ(1, fi.count);
		EXPECT_EQ(bi.va + end - 2, fi.va);
		EXPECT_EQ(DRM_VNPU_FAULT_BOUNDS, fi.reason);
		/* The guard page after it. */
		EXPECT_EQ(-ENXIO, ms_h2d(fd2, bi.va + MS_PAGE_ALIGN(size), b, 1));
		ASSERT_EQ(0, ms_fault_info(fd2, &fi));
		EXPECT_EQ(2, fi.count);
		EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, fi.reason);
		EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, fi.access);
		close(fd2);
	}
	ASSERT_EQ(0, ms_fault_info(e.fd, &fi));
	EXPECT_EQ(0, fi.count);
	close(dmabuf);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(e.fd);
}

/* ------------------------------------------------------------- stress -- */

#define ST_TOTAL	10000
#define ST_LIVE		500
#define ST_MAX_SIZE	(64u << 10)
#define ST_HASH		32768	/* power of two, > 2 * ST_TOTAL */

struct st_obj {
	uint32_t handle;
	uint32_t placement;
	uint64_t va;
	uint64_t size;
};

/* xorshift64*: the same sequence everywhere, independent of libc. */
static uint64_t st_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Insert va into an open-addressing set; returns true if it was there. */
static bool st_seen(uint64_t *set, uint64_t va)
{
	uint64_t i = (va >> 12) * 0x9e3779b97f4a7c15ull >> 49;

	for (;; i = (i + 1) & (ST_HASH - 1)) {
		if (set[i] == va)
			return true;
		if (!set[i]) {
			set[i] = va;
			return false;
		}
	}
}

static double ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * 10 000 small DEVICE and HOST objects created and closed in random
 * interleaved order, up to ST_LIVE alive at once. Live objects never share
 * or crowd a VA (each is followed by at least a guard page), the counters
 * follow every step, freed VAs are handed out again, and at the end
 * nothing is left.
 */
#pragma push_macro("TEST_TIMEOUT_DEFAULT")
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 60	/* plain TEST() has no timeout argument */
TEST(stress_10000_objects)
{
	uint64_t used0 = 0, count0 = 0, total = 0, avail = 0, v = 0;
	uint64_t charged = 0, peak_charged = 0;
	uint64_t state = 0x5eed0f5eedull;
	long created = 0, closed = 0, repeats = 0, ops = 0, max_live = 0;
	long live = 0, cap, bad_va = 0, crowded = 0, dup = 0;
	struct st_obj *objs;
	struct ms_env e;
	uint64_t *seen;
	double t0, t;
	long i;

	ms_env_init(_metadata, &e);
	objs = calloc(ST_LIVE, sizeof(*objs));
	seen = calloc(ST_HASH, sizeof(*seen));
	ASSERT_NE(NULL, objs);
	ASSERT_NE(NULL, seen);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_USED, &used0));
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_BO_COUNT, &count0));
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_TOTAL, &total));
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_FREE, &avail));
	ASSERT_EQ(total - used0, avail);
	/* Room for the worst case, every live object DEVICE and 64 KiB. */
	cap = ST_LIVE;
	if (avail / ST_MAX_SIZE < (uint64_t)cap)
		cap = avail / ST_MAX_SIZE;
	ASSERT_GE(cap, 16) TH_LOG("only %llu bytes of device memory free",
				  (unsigned long long)avail);
	if (cap < ST_LIVE)
		TH_LOG("device memory allows %ld live objects", cap);

	t0 = ms_now();
	while (created < ST_TOTAL || live) {
		bool create = created < ST_TOTAL && live < cap &&
			      (!live || st_rand(&state) % 100 < 60);

		ops++;
		if (create) {
			struct st_obj *o = &objs[live];
			uint64_t end;

			o->size = 1 + st_rand(&state) % ST_MAX_SIZE;
			o->placement = st_rand(&state) & 1 ?
				       DRM_VNPU_PLACEMENT_HOST :
				       DRM_VNPU_PLACEMENT_DEVICE;
			ASSERT_EQ(0, ms_bo_create(e.fd, o->size, o->placement,
						  0, NULL, &o->handle, &o->va))
				TH_LOG("object %ld (%llu bytes, %ld live)",
				       created, (unsigned long long)o->size,
				       live);
			created++;
			if (!ms_va_in(o->va, o->placement ==
				      DRM_VNPU_PLACEMENT_DEVICE ?
				      DRM_VNPU_VA_DEVICE_START :
				      DRM_VNPU_VA_HOST_START))
				bad_va++;
			end = o->va + MS_PAGE_ALIGN(o->size) + MS_PAGE;
			for (i = 0; i < live; i++) {
				struct st_obj *p = &objs[i];

				if (p->va == o->va) {
					dup++;
					continue;
				}
				if (p->placement != o->placement)
					continue;
				/* The lower one's pages and guard come first. */
				if (p->va < o->va ?
				    o->va - p->va < MS_PAGE_ALIGN(p->size) + MS_PAGE :
				    p->va < end)
					crowded++;
			}
			if (st_seen(seen, o->va))
				repeats++;
			if (o->placement == DRM_VNPU_PLACEMENT_DEVICE)
				charged += MS_PAGE_ALIGN(o->size);
			if (charged > peak_charged)
				peak_charged = charged;
			live++;
			if (live > max_live)
				max_live = live;
		} else {
			struct st_obj *o;

			i = st_rand(&state) % live;
			o = &objs[i];
			ASSERT_EQ(0, ms_gem_close(e.fd, o->handle));
			if (o->placement == DRM_VNPU_PLACEMENT_DEVICE)
				charged -= MS_PAGE_ALIGN(o->size);
			objs[i] = objs[--live];
			closed++;
		}
		/* Now and then: the counters and a random object's info. */
		if (!(ops % 256)) {
			struct drm_vnpu_bo_info bi;

			ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_USED,
						    &v));
			ASSERT_EQ(used0 + charged, v) TH_LOG("after %ld ops", ops);
			ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_BO_COUNT,
						    &v));
			ASSERT_EQ(count0 + live, v) TH_LOG("after %ld ops", ops);
			if (live) {
				struct st_obj *o = &objs[st_rand(&state) % live];

				ASSERT_EQ(0, ms_bo_info(e.fd, o->handle, &bi));
				ASSERT_EQ(o->va, bi.va);
				ASSERT_EQ(o->size, bi.size);
				ASSERT_EQ(o->placement, bi.placement);
			}
		}
	}
	t = ms_now() - t0;

	EXPECT_EQ(ST_TOTAL, created);
	EXPECT_EQ(ST_TOTAL, closed);
	EXPECT_EQ(0, bad_va);
	EXPECT_EQ(0, dup);
	EXPECT_EQ(0, crowded);
	EXPECT_GT(repeats, 0);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_USED, &v));
	EXPECT_EQ(used0, v);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_BO_COUNT, &v));
	EXPECT_EQ(count0, v);
	ASSERT_EQ(0, vnpu_get_param(e.fd, DRM_VNPU_PARAM_MEM_PEAK, &v));
	EXPECT_GE(v, used0 + peak_charged);
	EXPECT_EQ((long long)used0, ms_used(e.paths[0]));
	TH_LOG("%ld objects in %ld ops, up to %ld alive (%llu KiB of device memory), %ld VAs handed out again; %.2f s, %.0f ops/s",
	       created, ops, max_live,
	       (unsigned long long)(peak_charged >> 10), repeats, t, ops / t);
	free(objs);
	free(seen);
	close(e.fd);
}
#pragma pop_macro("TEST_TIMEOUT_DEFAULT")

/*
 * Sharing churn: objects exported from one device and imported on the
 * same and on another device, with handles and dma-buf fds dropped in
 * random order, leave no object, charge or mapping behind.
 */
#define SC_ROUNDS	2000
TEST(stress_prime_churn)
{
	long long obj0[2], used0[2];
	uint64_t state = 0xc0ffee;
	int fds[3], r, k, nd;
	struct ms_env e;
	double t0;

	ms_env_init(_metadata, &e);
	nd = e.n >= 2 ? 2 : 1;
	for (k = 0; k < nd; k++) {
		obj0[k] = ms_objects(e.paths[k]);
		used0[k] = ms_used(e.paths[k]);
	}
	fds[0] = e.fd;
	fds[1] = open(e.paths[0], O_RDWR | O_CLOEXEC);
	fds[2] = open(e.paths[nd - 1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fds[1], 0);
	ASSERT_GE(fds[2], 0);
	t0 = ms_now();
	for (r = 0; r < SC_ROUNDS; r++) {
		/* Four things hold the object; drop them in a random order. */
		int order[5];
		bool h1_closed;
		uint64_t size = MS_PAGE * (1 + st_rand(&state) % 8);
		uint32_t place = st_rand(&state) & 1 ? DRM_VNPU_PLACEMENT_HOST :
						       DRM_VNPU_PLACEMENT_DEVICE;
		uint32_t h, h1, h2;
		uint64_t va;
		struct drm_vnpu_bo_info bi;
		uint8_t b[8], c[8];
		int d, i;

		ASSERT_EQ(0, ms_bo_create(fds[0], size, place, 0, NULL, &h, &va));
		ms_fill(b, sizeof(b), r);
		ASSERT_EQ(0, ms_h2d(fds[0], va, b, sizeof(b)));
		ASSERT_EQ(0, ms_export(fds[0], h, &d));
		ASSERT_EQ(0, ms_import(fds[1], d, &h1));
		ASSERT_EQ(0, ms_import(fds[2], d, &h2));
		ASSERT_EQ(0, ms_bo_info(fds[2], h2, &bi));
		ASSERT_EQ(0, ms_d2h(fds[2], c, bi.va, sizeof(c)));
		ASSERT_EQ(-1, ms_check(c, sizeof(c), r));
		/* Shuffle the five actions, then run them in that order. */
		for (i = 0; i < 5; i++)
			order[i] = i;
		for (i = 4; i > 0; i--) {
			int j = st_rand(&state) % (i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		h1_closed = false;
		for (i = 0; i < 5; i++) {
			switch (order[i]) {
			case 0:
				ASSERT_EQ(0, ms_gem_close(fds[0], h));
				break;
			case 1:
				ASSERT_EQ(0, ms_gem_close(fds[1], h1));
				h1_closed = true;
				break;
			case 2:
				ASSERT_EQ(0, ms_gem_close(fds[2], h2));
				break;
			case 3:
				close(d);
				break;
			case 4:
				/* Gone exactly when its own handle is closed. */
				ASSERT_EQ(h1_closed ? -ENOENT : 0,
					  ms_bo_info(fds[1], h1, &bi));
				break;
			}
		}
	}
	for (k = 0; k < nd; k++) {
		EXPECT_EQ(obj0[k], ms_objects(e.paths[k])) TH_LOG("device %d", k);
		EXPECT_EQ(used0[k], ms_used(e.paths[k])) TH_LOG("device %d", k);
	}
	TH_LOG("%d export/import rounds on %d device(s) in %.2f s", SC_ROUNDS,
	       nd, ms_now() - t0);
	close(fds[1]);
	close(fds[2]);
	close(e.fd);
}

/* ------------------------------------------------------------ fdinfo -- */

/*
 * The value of "key:\t<n>[ KiB| MiB]" in /proc/self/fdinfo/<fd> in bytes,
 * or -1 when the key is missing. The raw value text goes to raw if given.
 */
static long long ms_fdinfo(int fd, const char *key, char *raw, size_t rawlen)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p, *unit;

		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		p = line + klen + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		if (raw)
			snprintf(raw, rawlen, "%s", p);
		v = strtoll(p, &unit, 10);
		while (*unit == ' ')
			unit++;
		if (!strcmp(unit, "KiB"))
			v <<= 10;
		else if (!strcmp(unit, "MiB"))
			v <<= 20;
		else if (!strcmp(unit, "GiB"))
			v <<= 30;
		else if (*unit)
			v = -2;	/* unknown unit */
	}
	fclose(f);
	return v;
}

static void ms_log_fdinfo(struct __test_metadata *_metadata, int fd)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "drm-", 4)) {
			line[strcspn(line, "\n")] = '\0';
			TH_LOG("  %s", line);
		}
	fclose(f);
}

/* Absent and zero are the same for an optional key. */
#define MS_OPT(v) ((v) < 0 ? 0 : (v))

/*
 * fdinfo carries the DRM core's memory statistics (drm_show_memory_stats
 * in 6.12: drm-total-memory, drm-shared-memory, drm-active-memory and,
 * once an object reports its status, drm-resident-memory and
 * drm-purgeable-memory) for the objects the file has handles to, in
 * bytes with a KiB or MiB suffix when the value is a multiple of it.
 */
TEST(fdinfo_memory_stats)
{
	const uint64_t M = 1 << 20, U = 2 * MS_PAGE;
	struct drm_vnpu_bo_info bi;
	uint32_t dh, uh, ih;
	int fd2, dmabuf;
	struct ms_env e;
	char raw[64];
	uint8_t byte = 1;
	uint64_t va;
	void *umem;

	ms_env_init(_metadata, &e);
	umem = ms_anon(U, 0x44);
	ASSERT_NE(NULL, umem);
	TH_LOG("fdinfo of a fresh file:");
	ms_log_fdinfo(_metadata, e.fd);
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-total-memory", raw, sizeof(raw)));
	EXPECT_STREQ("0", raw);
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-shared-memory", NULL, 0));
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-active-memory", NULL, 0));
	EXPECT_EQ(0, MS_OPT(ms_fdinfo(e.fd, "drm-resident-memory", NULL, 0)));

	/* A 1 MiB DEVICE object: counted, not yet resident. */
	ASSERT_EQ(0, ms_bo_create(e.fd, M, DRM_VNPU_PLACEMENT_DEVICE, 0, NULL,
				  &dh, &va));
	EXPECT_EQ(M, ms_fdinfo(e.fd, "drm-total-memory", raw, sizeof(raw)));
	EXPECT_STREQ("1 MiB", raw);
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-resident-memory", raw, sizeof(raw)));
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-shared-memory", NULL, 0));

	/* Touched: all of it resident. */
	ASSERT_EQ(0, ms_h2d(e.fd, va, &byte, 1));
	TH_LOG("after a 1 MiB DEVICE object was created and touched:");
	ms_log_fdinfo(_metadata, e.fd);
	EXPECT_EQ(M, ms_fdinfo(e.fd, "drm-total-memory", NULL, 0));
	EXPECT_EQ(M, ms_fdinfo(e.fd, "drm-resident-memory", raw, sizeof(raw)));
	EXPECT_STREQ("1 MiB", raw);
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-active-memory", NULL, 0));
	EXPECT_EQ(0, MS_OPT(ms_fdinfo(e.fd, "drm-purgeable-memory", NULL, 0)));

	/* Registered user memory is resident from the start. */
	ASSERT_EQ(0, ms_bo_create(e.fd, U, DRM_VNPU_PLACEMENT_USER, 0, umem,
				  &uh, NULL));
	EXPECT_EQ(M + U, ms_fdinfo(e.fd, "drm-total-memory", raw, sizeof(raw)));
	EXPECT_STREQ("1032 KiB", raw);
	EXPECT_EQ(M + U, ms_fdinfo(e.fd, "drm-resident-memory", NULL, 0));

	/* Exported and imported in a second file: shared in both. */
	ASSERT_EQ(0, ms_export(e.fd, dh, &dmabuf));
	EXPECT_EQ(M, ms_fdinfo(e.fd, "drm-shared-memory", NULL, 0));
	fd2 = open(e.paths[0], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, ms_fdinfo(fd2, "drm-total-memory", NULL, 0));
	ASSERT_EQ(0, ms_import(fd2, dmabuf, &ih));
	ASSERT_EQ(0, ms_bo_info(fd2, ih, &bi));
	EXPECT_EQ(M, ms_fdinfo(fd2, "drm-total-memory", NULL, 0));
	EXPECT_EQ(M, ms_fdinfo(fd2, "drm-shared-memory", NULL, 0));
	EXPECT_EQ(M, ms_fdinfo(fd2, "drm-resident-memory", NULL, 0));
	EXPECT_EQ(M + U, ms_fdinfo(e.fd, "drm-total-memory", NULL, 0));
	close(dmabuf);

	/* Closing handles takes their objects out of the file's numbers. */
	ASSERT_EQ(0, ms_gem_close(e.fd, uh));
	EXPECT_EQ(M, ms_fdinfo(e.fd, "drm-total-memory", NULL, 0));
	EXPECT_EQ(M, ms_fdinfo(e.fd, "drm-resident-memory", NULL, 0));
	ASSERT_EQ(0, ms_gem_close(e.fd, dh));
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-total-memory", NULL, 0));
	EXPECT_EQ(0, ms_fdinfo(e.fd, "drm-shared-memory", NULL, 0));
	EXPECT_EQ(0, MS_OPT(ms_fdinfo(e.fd, "drm-resident-memory", NULL, 0)));
	/* The second file still holds the object. */
	EXPECT_EQ(M, ms_fdinfo(fd2, "drm-total-memory", NULL, 0));
	EXPECT_EQ(M, ms_fdinfo(fd2, "drm-resident-memory", NULL, 0));
	ASSERT_EQ(0, ms_gem_close(fd2, ih));
	EXPECT_EQ(0, ms_fdinfo(fd2, "drm-total-memory", NULL, 0));
	EXPECT_EQ(0, MS_OPT(ms_fdinfo(fd2, "drm-resident-memory", NULL, 0)));
	close(fd2);
	munmap(umem, U);
	close(e.fd);
}

/*
 * fdinfo of an importer: an IMPORT object counts in total and shared
 * (it has a dma-buf) and is resident (the attachment pins the exporter's
 * pages; the driver's rss callback says so too); a same-device import
 * counts like the exporter's object.
 */
TEST(fdinfo_imported_objects)
{
	const uint64_t size = 256 << 10;
	struct ms_env e;
	uint32_t h, ih;
	int fd2, dmabuf, i;
	uint8_t byte = 9;
	uint64_t va;

	ms_env_init(_metadata, &e);
	ASSERT_EQ(0, ms_bo_create(e.fd, size, DRM_VNPU_PLACEMENT_DEVICE, 0,
				  NULL, &h, &va));
	ASSERT_EQ(0, ms_h2d(e.fd, va, &byte, 1));
	ASSERT_EQ(0, ms_export(e.fd, h, &dmabuf));
	for (i = 0; i < 2 && i < e.n; i++) {
		fd2 = open(e.paths[i], O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd2, 0);
		ASSERT_EQ(0, ms_import(fd2, dmabuf, &ih));
		TH_LOG("fdinfo of a file with a %s import:",
		       i ? "cross-device" : "same-device");
		ms_log_fdinfo(_metadata, fd2);
		EXPECT_EQ(size, ms_fdinfo(fd2, "drm-total-memory", NULL, 0));
		EXPECT_EQ(size, ms_fdinfo(fd2, "drm-shared-memory", NULL, 0));
		EXPECT_EQ(size, ms_fdinfo(fd2, "drm-resident-memory", NULL, 0))
			TH_LOG("%s import not counted as resident",
			       i ? "cross-device" : "same-device");
		ASSERT_EQ(0, ms_gem_close(fd2, ih));
		EXPECT_EQ(0, ms_fdinfo(fd2, "drm-total-memory", NULL, 0));
		close(fd2);
	}
	close(dmabuf);
	EXPECT_EQ(0, ms_gem_close(e.fd, h));
	close(e.fd);
}

TEST_HARNESS_MAIN
