// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lifetime: every object goes away with the last thing holding it (file,
 * killed process, dma-buf, mmap), as debugfs bo_list shows; re-export of
 * an import and import bounds. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_share_test_util.h"

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

TEST_HARNESS_MAIN
