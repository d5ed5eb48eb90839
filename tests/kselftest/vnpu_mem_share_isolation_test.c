// SPDX-License-Identifier: GPL-2.0-only
/*
 * Isolation: contexts (open files, processes) do not see each other's
 * handles, addresses or mmap offsets. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_share_test_util.h"

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

TEST_HARNESS_MAIN
