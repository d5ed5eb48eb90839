/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers and the fixture of the memory UAPI suites (vnpu_mem_*_test.c, not
 * vnpu_mem_share_*): the memory ioctls, test memory and patterns, and the
 * device memory counters. Sharing, isolation and lifetime are tested in
 * vnpu_mem_share_*_test.c.
 */
#ifndef VNPU_MEM_TEST_UTIL_H
#define VNPU_MEM_TEST_UTIL_H

#include <stdbool.h>
#include <sys/mman.h>

/*
 * vnpu_debugfs_dir() may in theory truncate a 255-byte link name into its
 * 256-byte buffer; -O1 sees it once vnpu_debugfs_value() is used.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "vnpu_test_util.h"
#pragma GCC diagnostic pop
#include "kselftest_harness.h"

/* The harness keeps "child" across setjmp(); harmless, but -Wextra says so. */
#pragma GCC diagnostic ignored "-Wclobbered"

/*
 * Not every suite uses every helper. They stay plain static functions as
 * in the one file they came from: inline would change what -O1 inlines
 * into the tests, and with it the warnings (-Wmaybe-uninitialized).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

#define PG		4096ULL

#define SZ_2M		(2ULL << 20)

#define SZ_256M		(256ULL << 20)

#define PAGE_UP(x)	(((x) + PG - 1) & ~(PG - 1))

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Placement names for messages. */
static const char *const place_name[] = { "device", "host", "user", "import" };

static int bo_create_raw(int fd, struct drm_vnpu_bo_create *c)
{
	return ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, c) ? -errno : 0;
}

static int bo_create(int fd, uint64_t size, uint32_t flags, uint32_t placement,
		     const void *user_ptr, uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create c = {
		.size = size, .flags = flags, .placement = placement,
		.user_ptr = (uintptr_t)user_ptr,
	};
	int ret = bo_create_raw(fd, &c);

	if (!ret) {
		if (handle)
			*handle = c.handle;
		if (va)
			*va = c.va;
	}
	return ret;
}

static int bo_info_raw(int fd, struct drm_vnpu_bo_info *bi)
{
	return ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, bi) ? -errno : 0;
}

static int bo_info(int fd, uint32_t handle, struct drm_vnpu_bo_info *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->handle = handle;
	return bo_info_raw(fd, bi);
}

static int copy_raw(int fd, struct drm_vnpu_memcpy *mc)
{
	return ioctl(fd, DRM_IOCTL_VNPU_MEMCPY, mc) ? -errno : 0;
}

static int vcopy(int fd, uint64_t dst, uint64_t src, uint64_t size,
		 uint32_t flags)
{
	struct drm_vnpu_memcpy mc = {
		.dst = dst, .src = src, .size = size, .flags = flags,
	};

	return copy_raw(fd, &mc);
}

/* Host to device. */
static int h2d(int fd, uint64_t va, const void *p, uint64_t size)
{
	return vcopy(fd, va, (uintptr_t)p, size, DRM_VNPU_MEMCPY_DST_DEVICE);
}

/* Device to host. */
static int d2h(int fd, void *p, uint64_t va, uint64_t size)
{
	return vcopy(fd, (uintptr_t)p, va, size, DRM_VNPU_MEMCPY_SRC_DEVICE);
}

/* Device to device. */
static int d2d(int fd, uint64_t dst, uint64_t src, uint64_t size)
{
	return vcopy(fd, dst, src, size,
		     DRM_VNPU_MEMCPY_DST_DEVICE | DRM_VNPU_MEMCPY_SRC_DEVICE);
}

static int fault_info_raw(int fd, struct drm_vnpu_fault_info *fi)
{
	return ioctl(fd, DRM_IOCTL_VNPU_FAULT_INFO, fi) ? -errno : 0;
}

static int fault_info(int fd, struct drm_vnpu_fault_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	return fault_info_raw(fd, fi);
}

/* Anonymous private read-write memory, or NULL. */
static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * The start of a page that was mapped and is not any more. A later mmap
 * may reuse the address: get it after everything else is mapped and check
 * with is_unmapped() around its use.
 */
static void *unmapped_page(void)
{
	void *p = anon(PG);

	if (p)
		munmap(p, PG);
	return p;
}

/* Whether no page of [p, p + len) is mapped. */
static bool is_unmapped(const void *p, uint64_t len)
{
	uint64_t off;

	for (off = 0; off < len; off += PG)
		if (msync((uint8_t *)p + off, PG, MS_ASYNC) != -1 || errno != ENOMEM)
			return false;
	return true;
}

/*
 * A position-dependent pattern: byte i of the buffer depends on i and the
 * seed, with no short period, so misplaced or shifted bytes show.
 */
static uint8_t pat_byte(uint64_t pos, uint32_t seed)
{
	uint64_t v = (pos / 8 + seed) * 0x9e3779b97f4a7c15ULL;

	v ^= v >> 29;
	return (uint8_t)(v >> ((pos % 8) * 8));
}

static void pattern(void *buf, uint64_t len, uint32_t seed)
{
	uint8_t *b = buf;
	uint64_t i = 0, w;

	/* Whole words where the position is word aligned: much faster. */
	for (; i < len && (i % 8); i++)
		b[i] = pat_byte(i, seed);
	for (; i + 8 <= len; i += 8) {
		w = (i / 8 + seed) * 0x9e3779b97f4a7c15ULL;
		w ^= w >> 29;
		memcpy(b + i, &w, 8);	/* little endian: byte k = w >> 8k */
	}
	for (; i < len; i++)
		b[i] = pat_byte(i, seed);
}

/* Index of the first differing byte of a and b, or -1. */
static long long first_diff(const void *a, const void *b, uint64_t len)
{
	const uint8_t *x = a, *y = b;
	uint64_t i;

	if (!memcmp(a, b, len))
		return -1;
	for (i = 0; i < len; i++)
		if (x[i] != y[i])
			return i;
	return -1;
}

/* Index of the first byte of buf[from, to) that is not val, or -1. */
static long long first_not(const uint8_t *buf, uint64_t from, uint64_t to,
			   uint8_t val)
{
	uint64_t i;

	for (i = from; i < to; i++)
		if (buf[i] != val)
			return i;
	return -1;
}

/* mmap of a DEVICE or HOST object through the accel fd, or NULL. */
static void *bo_mmap(int fd, uint32_t handle, uint64_t size)
{
	struct drm_vnpu_bo_info bi;
	void *p;

	if (bo_info(fd, handle, &bi) || !bi.mmap_offset)
		return NULL;
	p = mmap(NULL, PAGE_UP(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 bi.mmap_offset);
	return p == MAP_FAILED ? NULL : p;
}

struct counters {
	uint64_t total, used, free, peak, objects;
	long long dtotal, dused, dfree, dpeak, dobjects;
};

static void read_counters(int fd, const char *path, struct counters *c)
{
	c->total = param(fd, DRM_VNPU_PARAM_MEM_TOTAL);
	c->used = param(fd, DRM_VNPU_PARAM_MEM_USED);
	c->free = param(fd, DRM_VNPU_PARAM_MEM_FREE);
	c->peak = param(fd, DRM_VNPU_PARAM_MEM_PEAK);
	c->objects = param(fd, DRM_VNPU_PARAM_BO_COUNT);
	c->dtotal = vnpu_debugfs_value(path, "mem", "total");
	c->dused = vnpu_debugfs_value(path, "mem", "used");
	c->dfree = vnpu_debugfs_value(path, "mem", "free");
	c->dpeak = vnpu_debugfs_value(path, "mem", "peak");
	c->dobjects = vnpu_debugfs_value(path, "mem", "objects");
}

/*
 * GET_PARAM and debugfs both say that used bytes and objects are alive;
 * free is total - used.
 */
static void check_counters(struct __test_metadata *_metadata, int fd,
			   const char *path, uint64_t used, uint64_t objects)
{
	struct counters c;

	read_counters(fd, path, &c);
	EXPECT_EQ(used, c.used);
	EXPECT_EQ(c.total - used, c.free);
	EXPECT_EQ(objects, c.objects);
	EXPECT_EQ((long long)c.total, c.dtotal);
	EXPECT_EQ((long long)used, c.dused);
	EXPECT_EQ((long long)(c.total - used), c.dfree);
	EXPECT_EQ((long long)objects, c.dobjects);
	EXPECT_EQ((long long)c.peak, c.dpeak);
	EXPECT_GE(c.peak, used);
}

FIXTURE(mem)
{
	int fd;
	char path[64];
	uint64_t total;
};

FIXTURE_SETUP(mem)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	long mb = vnpu_module_param("mem_mb");

	ASSERT_GE(vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES), 1)
		TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	snprintf(self->path, sizeof(self->path), "%s", paths[0]);
	self->fd = open(self->path, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %s", self->path, strerror(errno));
	ASSERT_GT(mb, 0);
	self->total = param(self->fd, DRM_VNPU_PARAM_MEM_TOTAL);
	ASSERT_EQ((uint64_t)mb << 20, self->total);
}

FIXTURE_TEARDOWN(mem)
{
	close(self->fd);
}

/* Skip the test when the device has less than bytes of memory free. */
#define NEED_DEVICE_MEM(bytes) do { \
	uint64_t __free = param(self->fd, DRM_VNPU_PARAM_MEM_FREE); \
	if (__free < (uint64_t)(bytes)) \
		SKIP(return, "needs %llu bytes of device memory, %llu free", \
		     (unsigned long long)(bytes), (unsigned long long)__free); \
} while (0)

static uint64_t va_range_start(uint32_t placement)
{
	switch (placement) {
	case DRM_VNPU_PLACEMENT_DEVICE:
		return DRM_VNPU_VA_DEVICE_START;
	case DRM_VNPU_PLACEMENT_HOST:
		return DRM_VNPU_VA_HOST_START;
	case DRM_VNPU_PLACEMENT_USER:
		return DRM_VNPU_VA_USER_START;
	default:
		return DRM_VNPU_VA_IMPORT_START;
	}
}

/* The VA rules of the memory model for one object. */
static void check_va(struct __test_metadata *_metadata, uint64_t va,
		     uint64_t size, uint32_t placement)
{
	uint64_t start = va_range_start(placement);

	EXPECT_EQ(0, va % PG) TH_LOG("va 0x%llx", (unsigned long long)va);
	if (size >= SZ_2M) {
		EXPECT_EQ(0, va % SZ_2M)
			TH_LOG("va 0x%llx of a %llu-byte object not 2 MiB aligned",
			       (unsigned long long)va, (unsigned long long)size);
	}
	EXPECT_GE(va, start);
	/* The object and its guard page lie inside the range. */
	EXPECT_LE(va + PAGE_UP(size) + PG, start + DRM_VNPU_VA_RANGE_SIZE)
		TH_LOG("va 0x%llx size %llu outside the %s range",
		       (unsigned long long)va, (unsigned long long)size,
		       place_name[placement]);
}

/* A test object and a CPU view of its bytes. */
struct tbo {
	uint32_t handle;
	uint32_t placement;
	uint64_t size;
	uint64_t va;
	uint8_t *cpu;		/* mmap (DEVICE, HOST) or the user memory */
	uint64_t cpu_len;
};

/*
 * Create an object with a CPU view; USER objects get fresh anonymous
 * memory of PAGE_UP(size) and that size.
 */
static void tbo_new(struct __test_metadata *_metadata, int fd, uint64_t size,
		    uint32_t flags, uint32_t placement, struct tbo *b)
{
	memset(b, 0, sizeof(*b));
	b->placement = placement;
	b->size = size;
	b->cpu_len = PAGE_UP(size);
	if (placement == DRM_VNPU_PLACEMENT_USER) {
		b->size = b->cpu_len;
		b->cpu = anon(b->cpu_len);
		ASSERT_NE(NULL, b->cpu);
	}
	ASSERT_EQ(0, bo_create(fd, b->size, flags, placement, b->cpu,
			       &b->handle, &b->va))
		TH_LOG("%s object of %llu bytes", place_name[placement],
		       (unsigned long long)b->size);
	if (placement != DRM_VNPU_PLACEMENT_USER) {
		b->cpu = bo_mmap(fd, b->handle, size);
		ASSERT_NE(NULL, b->cpu) TH_LOG("mmap: %s", strerror(errno));
	}
}

static void tbo_free(int fd, struct tbo *b)
{
	gem_close(fd, b->handle);
	if (b->cpu)
		munmap(b->cpu, b->cpu_len);
	b->cpu = NULL;
}

/* Compare len bytes; log the first difference. */
#define EXPECT_BYTES(want, got, len, what) do { \
	long long __d = first_diff(want, got, len); \
	EXPECT_EQ(-1, __d) TH_LOG("%s: first difference at byte %lld of %llu", \
				 what, __d, (unsigned long long)(len)); \
} while (0)

static const uint32_t all_places[] = {
	DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_HOST,
	DRM_VNPU_PLACEMENT_USER,
};

static uint64_t fault_count(int fd)
{
	struct drm_vnpu_fault_info fi;

	if (fault_info(fd, &fi))
		return ~0ULL;
	return fi.count;
}

/* The last call faulted: one more fault, and it is this one. */
static void check_fault(struct __test_metadata *_metadata, int fd,
			uint64_t count_before, uint64_t va, uint64_t len,
			uint32_t access, uint32_t reason)
{
	struct drm_vnpu_fault_info fi;

	ASSERT_EQ(0, fault_info(fd, &fi));
	EXPECT_EQ(count_before + 1, fi.count);
	EXPECT_EQ(va, fi.va);
	EXPECT_EQ(len, fi.length);
	EXPECT_EQ(access, fi.access);
	EXPECT_EQ(reason, fi.reason);
}

/* A device write of [va, va + len) must fault with reason. */
static void write_faults(struct __test_metadata *_metadata, int fd, uint64_t va,
			 uint64_t len, uint32_t reason)
{
	uint64_t n = fault_count(fd);
	uint8_t *buf = malloc(len);

	ASSERT_NE(NULL, buf);
	pattern(buf, len, 9);
	EXPECT_EQ(-ENXIO, h2d(fd, va, buf, len))
		TH_LOG("write 0x%llx+%llu", (unsigned long long)va,
		       (unsigned long long)len);
	check_fault(_metadata, fd, n, va, len, DRM_VNPU_ACCESS_WRITE, reason);
	free(buf);
}

#define OUT_HANDLE	0xdeadbeefu

#define OUT_VA		0x5a5a5a5a5a5a5a5aULL

/*
 * A BO_CREATE that must fail with err: the output fields stay as they
 * were and neither the memory counters nor the object count move.
 */
static void create_fails(struct __test_metadata *_metadata, int fd,
			 const char *path, const struct drm_vnpu_bo_create *in,
			 int err, const char *what)
{
	struct drm_vnpu_bo_create c = *in;
	struct counters c0, c1;

	c.handle = OUT_HANDLE;
	c.va = OUT_VA;
	read_counters(fd, path, &c0);
	EXPECT_EQ(err, bo_create_raw(fd, &c)) TH_LOG("%s", what);
	EXPECT_EQ(OUT_HANDLE, c.handle) TH_LOG("%s", what);
	EXPECT_EQ(OUT_VA, c.va) TH_LOG("%s", what);
	read_counters(fd, path, &c1);
	EXPECT_EQ(c0.used, c1.used) TH_LOG("%s", what);
	EXPECT_EQ(c0.free, c1.free) TH_LOG("%s", what);
	EXPECT_EQ(c0.peak, c1.peak) TH_LOG("%s", what);
	EXPECT_EQ(c0.objects, c1.objects) TH_LOG("%s", what);
	EXPECT_EQ(c0.dused, c1.dused) TH_LOG("%s", what);
	EXPECT_EQ(c0.dobjects, c1.dobjects) TH_LOG("%s", what);
}

#pragma GCC diagnostic pop

#endif /* VNPU_MEM_TEST_UTIL_H */
