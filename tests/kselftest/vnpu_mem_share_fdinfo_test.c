// SPDX-License-Identifier: GPL-2.0-only
/*
 * fdinfo: the DRM core's memory statistics of a file, with its own and
 * imported objects. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_share_test_util.h"

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
