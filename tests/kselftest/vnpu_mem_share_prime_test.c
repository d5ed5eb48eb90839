// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRIME sharing within a device (the same object at its own VA) and across
 * devices (an IMPORT object), its exact errors, importing twice, user
 * objects that cannot be exported, and mmap of an import. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_share_test_util.h"

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

TEST_HARNESS_MAIN
