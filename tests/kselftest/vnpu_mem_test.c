// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI tests of the vnpu memory interface: BO_CREATE and BO_INFO for every
 * placement, the VA layout, data through mmap and DRM_IOCTL_VNPU_MEMCPY,
 * device page faults and FAULT_INFO, every validation rule of the memory
 * ioctls, and device memory accounting up to the capacity. Runs in the VM
 * with vnpu.ko loaded. Sharing, isolation and lifetime are tested in
 * vnpu_mem_share_test.c.
 *
 * Each negative case differs from a valid call in exactly one field.
 */
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

#define PG		4096ULL
#define SZ_2M		(2ULL << 20)
#define SZ_256M		(256ULL << 20)
#define PAGE_UP(x)	(((x) + PG - 1) & ~(PG - 1))
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Placement names for messages. */
static const char *const place_name[] = { "device", "host", "user", "import" };

/* ---------------------------------------------------------------- ioctls */

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

/* ---------------------------------------------------------------- memory */

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

/* Number of equal bytes of a and b. */
static uint64_t count_same(const uint8_t *a, const uint8_t *b, uint64_t len)
{
	uint64_t i, n = 0;

	for (i = 0; i < len; i++)
		n += a[i] == b[i];
	return n;
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

/* ---------------------------------------------------------- accounting */

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

/* ------------------------------------------------------------- fixture */

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

/* ------------------------------------------------- create, info, close */

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

/*
 * Create one object, check everything BO_INFO says and what it costs,
 * close it and check it is gone. user is the range for PLACEMENT_USER.
 */
static void create_info_close(struct __test_metadata *_metadata, int fd,
			      const char *path, uint64_t size, uint32_t flags,
			      uint32_t placement, void *user)
{
	struct drm_vnpu_bo_info bi, bi2;
	struct counters c0;
	uint32_t handle = 0;
	uint64_t va = 0, charge;

	charge = placement == DRM_VNPU_PLACEMENT_DEVICE ? PAGE_UP(size) : 0;
	read_counters(fd, path, &c0);
	if (charge > c0.free)
		SKIP(return, "%llu bytes of device memory free, need %llu",
		     (unsigned long long)c0.free, (unsigned long long)charge);

	ASSERT_EQ(0, bo_create(fd, size, flags, placement, user, &handle, &va))
		TH_LOG("%s object of %llu bytes", place_name[placement],
		       (unsigned long long)size);
	EXPECT_NE(0, handle);
	check_va(_metadata, va, size, placement);
	check_counters(_metadata, fd, path, c0.used + charge, c0.objects + 1);

	ASSERT_EQ(0, bo_info(fd, handle, &bi));
	EXPECT_EQ(handle, bi.handle);
	EXPECT_EQ(0, bi.pad);
	EXPECT_EQ(size, bi.size);
	EXPECT_EQ(va, bi.va);
	EXPECT_EQ(flags, bi.flags);
	EXPECT_EQ(placement, bi.placement);
	if (placement == DRM_VNPU_PLACEMENT_USER) {
		EXPECT_EQ(0, bi.mmap_offset);
	} else {
		EXPECT_NE(0, bi.mmap_offset);
		EXPECT_EQ(0, bi.mmap_offset % PG);
	}
	/* Asking again gives the same answer. */
	ASSERT_EQ(0, bo_info(fd, handle, &bi2));
	EXPECT_EQ(0, memcmp(&bi, &bi2, sizeof(bi)));

	ASSERT_EQ(0, gem_close(fd, handle));
	EXPECT_EQ(-ENOENT, bo_info(fd, handle, &bi));
	EXPECT_EQ(-EINVAL, gem_close(fd, handle));
	check_counters(_metadata, fd, path, c0.used, c0.objects);
}

static const uint64_t shmem_sizes[] = { 1, PG, SZ_2M + 1, SZ_256M };

TEST_F(mem, create_info_close_device)
{
	uint64_t share = param(self->fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT);
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(shmem_sizes); i++)
		if (shmem_sizes[i] <= share)
			create_info_close(_metadata, self->fd, self->path,
					  shmem_sizes[i], 0,
					  DRM_VNPU_PLACEMENT_DEVICE, NULL);
}

TEST_F(mem, create_info_close_device_read_only)
{
	uint64_t share = param(self->fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT);
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(shmem_sizes); i++)
		if (shmem_sizes[i] <= share)
			create_info_close(_metadata, self->fd, self->path,
					  shmem_sizes[i],
					  DRM_VNPU_BO_DEVICE_READ_ONLY,
					  DRM_VNPU_PLACEMENT_DEVICE, NULL);
}

TEST_F(mem, create_info_close_host)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(shmem_sizes); i++)
		create_info_close(_metadata, self->fd, self->path, shmem_sizes[i],
				  0, DRM_VNPU_PLACEMENT_HOST, NULL);
	create_info_close(_metadata, self->fd, self->path, 4097,
			  DRM_VNPU_BO_DEVICE_READ_ONLY, DRM_VNPU_PLACEMENT_HOST,
			  NULL);
}

TEST_F(mem, create_info_close_user)
{
	static const uint64_t sizes[] = { PG, SZ_2M, SZ_256M };
	unsigned int i;
	void *p;

	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		p = anon(sizes[i]);
		ASSERT_NE(NULL, p);
		create_info_close(_metadata, self->fd, self->path, sizes[i], 0,
				  DRM_VNPU_PLACEMENT_USER, p);
		create_info_close(_metadata, self->fd, self->path, sizes[i],
				  DRM_VNPU_BO_DEVICE_READ_ONLY,
				  DRM_VNPU_PLACEMENT_USER, p);
		munmap(p, sizes[i]);
	}
}

/* A DEVICE object charges whole pages: 1 byte costs 4096. */
TEST_F(mem, device_charge_is_page_granular)
{
	static const uint64_t sizes[] = { 1, 4095, 4096, 4097, 8191, SZ_2M + 1 };
	struct counters c0;
	uint32_t h[ARRAY_LEN(sizes)];
	uint64_t charged = 0;
	unsigned int i;

	NEED_DEVICE_MEM(4 << 20);

	read_counters(self->fd, self->path, &c0);
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		ASSERT_EQ(0, bo_create(self->fd, sizes[i], 0,
				       DRM_VNPU_PLACEMENT_DEVICE, NULL, &h[i], NULL));
		charged += PAGE_UP(sizes[i]);
		check_counters(_metadata, self->fd, self->path, c0.used + charged,
			       c0.objects + i + 1);
	}
	EXPECT_EQ(PG, PAGE_UP(sizes[0]));
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		ASSERT_EQ(0, gem_close(self->fd, h[i]));
		charged -= PAGE_UP(sizes[i]);
		check_counters(_metadata, self->fd, self->path, c0.used + charged,
			       c0.objects + ARRAY_LEN(sizes) - i - 1);
	}
}

/* HOST and USER objects are counted as objects but cost no device memory. */
TEST_F(mem, host_and_user_cost_no_device_memory)
{
	struct counters c0;
	uint32_t h1, h2, h3;
	void *p = anon(16 * PG);

	ASSERT_NE(NULL, p);
	read_counters(self->fd, self->path, &c0);
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &h1, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + 1);
	ASSERT_EQ(0, bo_create(self->fd, SZ_256M, 0, DRM_VNPU_PLACEMENT_HOST,
			       NULL, &h2, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + 2);
	ASSERT_EQ(0, bo_create(self->fd, 16 * PG, 0, DRM_VNPU_PLACEMENT_USER, p,
			       &h3, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + 3);
	EXPECT_EQ(c0.peak, param(self->fd, DRM_VNPU_PARAM_MEM_PEAK));
	ASSERT_EQ(0, gem_close(self->fd, h2));
	ASSERT_EQ(0, gem_close(self->fd, h3));
	ASSERT_EQ(0, gem_close(self->fd, h1));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	munmap(p, 16 * PG);
}

struct live_bo {
	uint32_t handle;
	uint32_t placement;
	uint64_t size;
	uint64_t va;
};

static int cmp_va(const void *a, const void *b)
{
	const struct live_bo *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/*
 * Many live objects of mixed sizes and placements, with holes punched and
 * refilled: every VA follows the rules, VAs are unique and each object is
 * followed by at least a guard page before the next one.
 */
TEST_F(mem, va_unique_and_never_adjacent)
{
	static const uint64_t sizes[] = {
		1, 100, PG - 1, PG, PG + 1, 3 * PG, 5 * PG + 7, 64 * PG - 1,
		SZ_2M - 1, SZ_2M, SZ_2M + 1, 3 * SZ_2M + PG,
	};
	static const uint32_t places[] = {
		DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_HOST,
		DRM_VNPU_PLACEMENT_USER,
	};
	enum { N = 3 * 12 * 4 };
	struct live_bo bo[N];
	uint8_t *user;
	uint64_t user_len = 0, user_off = 0;
	unsigned int i, n = 0, round;

	NEED_DEVICE_MEM(64 << 20);

	/* One user buffer for all USER objects: page-aligned slices. */
	for (i = 0; i < ARRAY_LEN(sizes); i++)
		user_len += 4 * PAGE_UP(sizes[i]);
	user = anon(user_len);
	ASSERT_NE(NULL, user);

	for (round = 0; round < 4; round++) {
		for (i = 0; i < ARRAY_LEN(sizes) * ARRAY_LEN(places); i++) {
			struct live_bo *b = &bo[n];
			void *up = NULL;

			b->placement = places[i % ARRAY_LEN(places)];
			b->size = sizes[(i / ARRAY_LEN(places) + round) %
					ARRAY_LEN(sizes)];
			if (b->placement == DRM_VNPU_PLACEMENT_USER) {
				b->size = PAGE_UP(b->size);
				up = user + user_off;
				user_off += b->size;
				ASSERT_LE(user_off, user_len);
			}
			ASSERT_EQ(0, bo_create(self->fd, b->size, 0, b->placement,
					       up, &b->handle, &b->va))
				TH_LOG("%s object %u of %llu bytes",
				       place_name[b->placement], n,
				       (unsigned long long)b->size);
			check_va(_metadata, b->va, b->size, b->placement);
			n++;
		}
		/* Punch holes: close every third object made so far. */
		if (round < 3) {
			unsigned int j, k = 0;

			for (j = 0; j < n; j++) {
				if (j % 3 == round % 3) {
					ASSERT_EQ(0, gem_close(self->fd, bo[j].handle));
					continue;
				}
				bo[k++] = bo[j];
			}
			n = k;
		}
	}
	ASSERT_EQ(87, n);

	qsort(bo, n, sizeof(bo[0]), cmp_va);
	for (i = 1; i < n; i++) {
		struct live_bo *a = &bo[i - 1], *b = &bo[i];

		EXPECT_GE(b->va, a->va + PAGE_UP(a->size) + PG)
			TH_LOG("%s object 0x%llx+%llu and %s object 0x%llx too close",
			       place_name[a->placement], (unsigned long long)a->va,
			       (unsigned long long)a->size, place_name[b->placement],
			       (unsigned long long)b->va);
	}
	/* BO_INFO agrees for every one of them. */
	for (i = 0; i < n; i++) {
		struct drm_vnpu_bo_info bi;

		ASSERT_EQ(0, bo_info(self->fd, bo[i].handle, &bi));
		EXPECT_EQ(bo[i].va, bi.va);
		EXPECT_EQ(bo[i].size, bi.size);
		EXPECT_EQ(bo[i].placement, bi.placement);
	}
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, gem_close(self->fd, bo[i].handle));
	}
	munmap(user, user_len);
}

/* ------------------------------------------------------ data round trips */

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
static const uint64_t data_sizes[] = { 1, 63, 64, 65, PG, PG + 1, 3 * PG + 123,
				       SZ_2M + 1 };

/* Written through the CPU view, read with device-to-host copies. */
TEST_F(mem, cpu_write_device_read)
{
	unsigned int p, i;
	struct tbo b;

	NEED_DEVICE_MEM(4 << 20);

	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		for (i = 0; i < ARRAY_LEN(data_sizes); i++) {
			uint64_t size = data_sizes[i];
			uint8_t *want, *got;

			if (all_places[p] == DRM_VNPU_PLACEMENT_USER)
				size = PAGE_UP(size);
			want = malloc(size);
			got = malloc(size + 128);
			ASSERT_NE(NULL, want);
			ASSERT_NE(NULL, got);
			tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
			pattern(want, size, 100 + i);
			memcpy(b.cpu, want, size);
			memset(got, 0xa5, size + 128);
			ASSERT_EQ(0, d2h(self->fd, got, b.va, size));
			EXPECT_BYTES(want, got, size, place_name[all_places[p]]);
			/* Nothing after the copied range was written. */
			EXPECT_EQ(-1, first_not(got, size, size + 128, 0xa5));
			tbo_free(self->fd, &b);
			free(want);
			free(got);
		}
	}
}

/* Written with host-to-device copies, read through the CPU view. */
TEST_F(mem, device_write_cpu_read)
{
	unsigned int p, i;
	struct tbo b;

	NEED_DEVICE_MEM(4 << 20);

	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		for (i = 0; i < ARRAY_LEN(data_sizes); i++) {
			uint64_t size = data_sizes[i];
			uint8_t *want;

			if (all_places[p] == DRM_VNPU_PLACEMENT_USER)
				size = PAGE_UP(size);
			want = malloc(size);
			ASSERT_NE(NULL, want);
			tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
			/* User memory starts out with a known background. */
			if (all_places[p] == DRM_VNPU_PLACEMENT_USER)
				memset(b.cpu, 0x5a, b.cpu_len);
			pattern(want, size, 200 + i);
			ASSERT_EQ(0, h2d(self->fd, b.va, want, size));
			EXPECT_BYTES(want, b.cpu, size, place_name[all_places[p]]);
			/* A new shmem object's page tail stays zero. */
			EXPECT_EQ(-1, first_not(b.cpu, size, b.cpu_len, 0));
			tbo_free(self->fd, &b);
			free(want);
		}
	}
}

/* An object maps at its offset for at most its pages; nothing else maps. */
TEST_F(mem, mmap_offset_and_length)
{
	static const uint64_t sizes[] = { 1, PG, 3 * PG + 1 };
	struct drm_vnpu_bo_info bi;
	unsigned int p, i;
	uint32_t h;
	void *m;

	for (p = 0; p < 2; p++) {
		for (i = 0; i < ARRAY_LEN(sizes); i++) {
			uint64_t len = PAGE_UP(sizes[i]);

			ASSERT_EQ(0, bo_create(self->fd, sizes[i], 0, all_places[p],
					       NULL, &h, NULL));
			ASSERT_EQ(0, bo_info(self->fd, h, &bi));
			m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 self->fd, bi.mmap_offset);
			ASSERT_NE(MAP_FAILED, m);
			memset(m, 0x33, len);
			munmap(m, len);
			/* First page only. */
			m = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd,
				 bi.mmap_offset);
			ASSERT_NE(MAP_FAILED, m);
			EXPECT_EQ(0x33, ((uint8_t *)m)[PG - 1]);
			munmap(m, PG);
			/* One page more than the object. */
			m = mmap(NULL, len + PG, PROT_READ, MAP_SHARED, self->fd,
				 bi.mmap_offset);
			EXPECT_EQ(MAP_FAILED, m);
			EXPECT_EQ(EINVAL, errno);
			/* Not at the object's start. */
			if (len > PG) {
				m = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd,
					 bi.mmap_offset + PG);
				EXPECT_EQ(MAP_FAILED, m);
				EXPECT_EQ(EINVAL, errno);
			}
			ASSERT_EQ(0, gem_close(self->fd, h));
			/* Gone with the handle. */
			m = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd,
				 bi.mmap_offset);
			EXPECT_EQ(MAP_FAILED, m);
			EXPECT_EQ(EINVAL, errno);
		}
	}
	/* Offset 0 is no object. */
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(EINVAL, errno);
}

/* Device-to-device copies between objects of every placement pair. */
TEST_F(mem, device_to_device_all_placements)
{
	const uint64_t size = SZ_2M + 3 * PG;	/* page aligned for USER */
	uint8_t *want = malloc(size), *got = malloc(size);
	unsigned int s, d;
	struct tbo src, dst;

	NEED_DEVICE_MEM(8 << 20);

	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	for (s = 0; s < ARRAY_LEN(all_places); s++) {
		for (d = 0; d < ARRAY_LEN(all_places); d++) {
			tbo_new(_metadata, self->fd, size, 0, all_places[s], &src);
			tbo_new(_metadata, self->fd, size, 0, all_places[d], &dst);
			pattern(want, size, 300 + s * 3 + d);
			ASSERT_EQ(0, h2d(self->fd, src.va, want, size));
			ASSERT_EQ(0, d2d(self->fd, dst.va, src.va, size));
			memset(got, 0, size);
			ASSERT_EQ(0, d2h(self->fd, got, dst.va, size));
			EXPECT_BYTES(want, got, size, "d2d, read back with d2h");
			EXPECT_BYTES(want, dst.cpu, size, "d2d, read back by the cpu");
			/* The source is unchanged. */
			EXPECT_BYTES(want, src.cpu, size, "d2d source");
			tbo_free(self->fd, &src);
			tbo_free(self->fd, &dst);
		}
	}
	free(want);
	free(got);
}

/*
 * Partial copies at odd offsets and sizes around the 64-byte line and the
 * 1 MiB step: exactly the requested bytes move, in every direction.
 */
struct part {
	uint64_t off;		/* in the object */
	uint64_t len;		/* 0: to the end of the object */
	uint64_t hoff;		/* in the host buffer */
};

static const struct part parts[] = {
	{ 0, 1, 0 }, { 1, 1, 1 }, { 3, 63, 5 }, { 5, 64, 3 }, { 7, 65, 1 },
	{ 63, 127, 63 }, { 64, 128, 0 }, { 65, 4097, 7 }, { 4095, 4097, 4095 },
	{ 4097, 8191, 13 }, { 3, (1 << 20) + 65, 11 }, { 1, 0, 1 },
	{ 0, 0, 0 },
};

static void partial_copies(struct __test_metadata *_metadata, int fd,
			   uint32_t placement)
{
	const uint64_t size = SZ_2M + 3 * PG + 123;
	uint8_t *shadow, *shadow2, *src, *out;
	struct tbo b, b2;
	unsigned int i;

	tbo_new(_metadata, fd, size, 0, placement, &b);
	tbo_new(_metadata, fd, size, 0, placement, &b2);
	/* USER objects are page aligned: use their full size. */
	shadow = malloc(b.size);
	shadow2 = malloc(b.size);
	src = malloc(b.size + 8192);
	out = malloc(b.size + 8192);
	ASSERT_NE(NULL, shadow);
	ASSERT_NE(NULL, shadow2);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, out);

	for (i = 0; i < ARRAY_LEN(parts); i++) {
		uint64_t off = parts[i].off, hoff = parts[i].hoff;
		uint64_t len = parts[i].len ? parts[i].len : b.size - off;
		char what[96];

		snprintf(what, sizeof(what), "%s: %llu bytes at %llu",
			 place_name[placement], (unsigned long long)len,
			 (unsigned long long)off);
		ASSERT_LE(off + len, b.size);
		/* Background of both objects. */
		pattern(shadow, b.size, 1000 + i);
		pattern(shadow2, b.size, 2000 + i);
		ASSERT_EQ(0, h2d(fd, b.va, shadow, b.size));
		ASSERT_EQ(0, h2d(fd, b2.va, shadow2, b.size));

		/* Host to device from an odd host address. */
		pattern(src, b.size + 8192, 3000 + i);
		ASSERT_EQ(0, h2d(fd, b.va + off, src + hoff, len)) TH_LOG("%s", what);
		memcpy(shadow + off, src + hoff, len);
		EXPECT_BYTES(shadow, b.cpu, b.size, what);
		memset(out, 0xa5, b.size);
		ASSERT_EQ(0, d2h(fd, out, b.va, b.size));
		EXPECT_BYTES(shadow, out, b.size, what);

		/* Device to host into an odd host address. */
		memset(out, 0xa5, b.size + 8192);
		ASSERT_EQ(0, d2h(fd, out + hoff, b.va + off, len)) TH_LOG("%s", what);
		EXPECT_BYTES(shadow + off, out + hoff, len, what);
		EXPECT_EQ(-1, first_not(out, 0, hoff, 0xa5)) TH_LOG("%s", what);
		EXPECT_EQ(-1, first_not(out, hoff + len, b.size + 8192, 0xa5))
			TH_LOG("%s", what);

		/* Device to device, to another offset of the other object. */
		{
			uint64_t off2 = (off + 17) % (b.size - len + 1);

			ASSERT_EQ(0, d2d(fd, b2.va + off2, b.va + off, len))
				TH_LOG("%s to %llu", what, (unsigned long long)off2);
			memcpy(shadow2 + off2, shadow + off, len);
			EXPECT_BYTES(shadow2, b2.cpu, b.size, what);
			EXPECT_BYTES(shadow, b.cpu, b.size, what);
		}
	}
	tbo_free(fd, &b);
	tbo_free(fd, &b2);
	free(shadow);
	free(shadow2);
	free(src);
	free(out);
}

TEST_F_TIMEOUT(mem, partial_copies_device, 120)
{
	NEED_DEVICE_MEM(8 << 20);
	partial_copies(_metadata, self->fd, DRM_VNPU_PLACEMENT_DEVICE);
}

TEST_F_TIMEOUT(mem, partial_copies_host, 120)
{
	partial_copies(_metadata, self->fd, DRM_VNPU_PLACEMENT_HOST);
}

TEST_F_TIMEOUT(mem, partial_copies_user, 120)
{
	partial_copies(_metadata, self->fd, DRM_VNPU_PLACEMENT_USER);
}

/* Non-overlapping ranges of one object, also back to back, copy fine. */
TEST_F(mem, device_to_device_same_object)
{
	const uint64_t size = 5 * PG + 77;
	uint8_t *shadow = malloc(PAGE_UP(size));	/* USER: page aligned */
	unsigned int p;
	struct tbo b;

	ASSERT_NE(NULL, shadow);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
		pattern(shadow, b.size, 400 + p);
		ASSERT_EQ(0, h2d(self->fd, b.va, shadow, b.size));
		/* [0, 1000) to [1000, 2000): touching, not overlapping. */
		ASSERT_EQ(0, d2d(self->fd, b.va + 1000, b.va, 1000));
		memmove(shadow + 1000, shadow, 1000);
		EXPECT_BYTES(shadow, b.cpu, b.size, place_name[all_places[p]]);
		/* Backwards: [4097, 4097 + 1001) to [3096, 4097). */
		ASSERT_EQ(0, d2d(self->fd, b.va + 3096, b.va + 4097, 1001));
		memmove(shadow + 3096, shadow + 4097, 1001);
		EXPECT_BYTES(shadow, b.cpu, b.size, place_name[all_places[p]]);
		/* The last byte to the first. */
		ASSERT_EQ(0, d2d(self->fd, b.va, b.va + b.size - 1, 1));
		shadow[0] = shadow[b.size - 1];
		EXPECT_BYTES(shadow, b.cpu, b.size, place_name[all_places[p]]);
		tbo_free(self->fd, &b);
	}
	free(shadow);
}

/* 256 MiB of device memory, written and read in one copy each. */
TEST_F_TIMEOUT(mem, device_256m_round_trip, 300)
{
	uint8_t *want, *got;
	struct tbo b;

	if (param(self->fd, DRM_VNPU_PARAM_MEM_FREE) < SZ_256M ||
	    param(self->fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT) < SZ_256M)
		SKIP(return, "less than 256 MiB of device memory free");
	want = anon(SZ_256M);
	got = anon(SZ_256M);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	tbo_new(_metadata, self->fd, SZ_256M, 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	pattern(want, SZ_256M, 77);
	ASSERT_EQ(0, h2d(self->fd, b.va, want, SZ_256M));
	ASSERT_EQ(0, d2h(self->fd, got, b.va, SZ_256M));
	EXPECT_BYTES(want, got, SZ_256M, "d2h");
	EXPECT_BYTES(want, b.cpu, SZ_256M, "mmap");
	tbo_free(self->fd, &b);
	munmap(want, SZ_256M);
	munmap(got, SZ_256M);
}

/* ------------------------------------------------------------- faults */

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

/* A device read of [va, va + len) must fault with reason. */
static void read_faults(struct __test_metadata *_metadata, int fd, uint64_t va,
			uint64_t len, uint32_t reason)
{
	uint64_t n = fault_count(fd);
	uint8_t *buf = malloc(len + 64);

	ASSERT_NE(NULL, buf);
	memset(buf, 0xa5, len + 64);
	EXPECT_EQ(-ENXIO, d2h(fd, buf, va, len))
		TH_LOG("read 0x%llx+%llu", (unsigned long long)va,
		       (unsigned long long)len);
	check_fault(_metadata, fd, n, va, len, DRM_VNPU_ACCESS_READ, reason);
	/* A fault does not write the host buffer. */
	EXPECT_EQ(-1, first_not(buf, 0, len + 64, 0xa5));
	free(buf);
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

TEST(fault_info_fresh_file)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	struct drm_vnpu_fault_info fi;
	int n, i, fd;

	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	ASSERT_GE(n, 1);
	for (i = 0; i < n; i++) {
		fd = open(paths[i], O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd, 0);
		memset(&fi, 0xff, sizeof(fi));
		fi.flags = 0;
		fi.pad = 0;
		ASSERT_EQ(0, fault_info_raw(fd, &fi));
		EXPECT_EQ(0, fi.count);
		EXPECT_EQ(DRM_VNPU_FAULT_NONE, fi.reason);
		close(fd);
	}
}

/* Good copies do not count as faults. */
TEST_F(mem, fault_count_unchanged_by_good_copies)
{
	uint8_t buf[256];
	struct tbo b;

	tbo_new(_metadata, self->fd, sizeof(buf), 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	pattern(buf, sizeof(buf), 1);
	ASSERT_EQ(0, h2d(self->fd, b.va, buf, sizeof(buf)));
	ASSERT_EQ(0, d2h(self->fd, buf, b.va, sizeof(buf)));
	ASSERT_EQ(0, d2d(self->fd, b.va, b.va + 128, 128));
	EXPECT_EQ(0, fault_count(self->fd));
	tbo_free(self->fd, &b);
}

/* Nothing is mapped at 0, below the ranges, or in an empty range. */
TEST_F(mem, fault_unmapped_addresses)
{
	static const uint64_t vas[] = {
		0, 8, 4096, DRM_VNPU_VA_DEVICE_START - 1,
		DRM_VNPU_VA_DEVICE_START, DRM_VNPU_VA_HOST_START,
		DRM_VNPU_VA_USER_START, DRM_VNPU_VA_IMPORT_START,
		DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE,
		0x8000000000000000ULL,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(vas); i++) {
		read_faults(_metadata, self->fd, vas[i], 16,
			    DRM_VNPU_FAULT_UNMAPPED);
		write_faults(_metadata, self->fd, vas[i], 16,
			     DRM_VNPU_FAULT_UNMAPPED);
	}
	/* An access that wraps around the address space. */
	read_faults(_metadata, self->fd, UINT64_MAX - 7, 16,
		    DRM_VNPU_FAULT_UNMAPPED);
	EXPECT_EQ(2 * ARRAY_LEN(vas) + 1, fault_count(self->fd));
}

/*
 * Around an object: its guard page and the rest of its last page are
 * unmapped, an access running off its end is out of bounds, and none of
 * that changes its bytes.
 */
static void faults_around(struct __test_metadata *_metadata, int fd,
			  uint64_t size, uint32_t placement)
{
	uint8_t *shadow;
	struct tbo b;
	uint64_t n, sz;

	tbo_new(_metadata, fd, size, 0, placement, &b);
	sz = b.size;
	shadow = malloc(sz);
	ASSERT_NE(NULL, shadow);
	pattern(shadow, sz, 5);
	ASSERT_EQ(0, h2d(fd, b.va, shadow, sz));
	n = fault_count(fd);

	/* The guard page, first and last byte. */
	read_faults(_metadata, fd, b.va + PAGE_UP(sz), 1, DRM_VNPU_FAULT_UNMAPPED);
	write_faults(_metadata, fd, b.va + PAGE_UP(sz), 1, DRM_VNPU_FAULT_UNMAPPED);
	read_faults(_metadata, fd, b.va + PAGE_UP(sz) + PG - 1, 1,
		    DRM_VNPU_FAULT_UNMAPPED);
	/* Right past the end, inside the last page when size is not aligned. */
	read_faults(_metadata, fd, b.va + sz, 1, DRM_VNPU_FAULT_UNMAPPED);
	write_faults(_metadata, fd, b.va + sz, 1, DRM_VNPU_FAULT_UNMAPPED);
	if (PAGE_UP(sz) - sz > 1)
		read_faults(_metadata, fd, b.va + PAGE_UP(sz) - 1, 1,
			    DRM_VNPU_FAULT_UNMAPPED);
	/* One byte too long, from the start and from the last byte. */
	read_faults(_metadata, fd, b.va, sz + 1, DRM_VNPU_FAULT_BOUNDS);
	write_faults(_metadata, fd, b.va, sz + 1, DRM_VNPU_FAULT_BOUNDS);
	read_faults(_metadata, fd, b.va + sz - 1, 2, DRM_VNPU_FAULT_BOUNDS);
	write_faults(_metadata, fd, b.va + sz - 1, 2, DRM_VNPU_FAULT_BOUNDS);
	/* Running into the guard page and beyond. */
	read_faults(_metadata, fd, b.va + sz / 2, PAGE_UP(sz) + PG,
		    DRM_VNPU_FAULT_BOUNDS);
	/* Just before the object: unmapped (or another object's guard). */
	if (b.va > va_range_start(placement))
		read_faults(_metadata, fd, b.va - 1, 2, DRM_VNPU_FAULT_UNMAPPED);
	EXPECT_EQ(n + 10 + (PAGE_UP(sz) - sz > 1) + (b.va > va_range_start(placement)),
		  fault_count(fd));

	/* The exact object still works and was not touched. */
	EXPECT_BYTES(shadow, b.cpu, sz, "after faults");
	EXPECT_EQ(-1, first_not(b.cpu, sz, b.cpu_len, 0));
	ASSERT_EQ(0, d2h(fd, shadow, b.va, sz));
	ASSERT_EQ(0, h2d(fd, b.va, shadow, sz));
	ASSERT_EQ(0, d2h(fd, shadow, b.va + sz - 1, 1));
	tbo_free(fd, &b);
	free(shadow);
}

TEST_F(mem, fault_around_objects)
{
	static const uint64_t sizes[] = { 1, 100, PG, 5000, SZ_2M + 1 };
	unsigned int p, i;

	NEED_DEVICE_MEM(4 << 20);

	for (p = 0; p < ARRAY_LEN(all_places); p++)
		for (i = 0; i < ARRAY_LEN(sizes); i++)
			faults_around(_metadata, self->fd, sizes[i], all_places[p]);
}

/* The byte right after a 1-byte object is in its page but unmapped. */
TEST_F(mem, fault_one_byte_object)
{
	struct tbo b;
	uint8_t c = 0x11;

	tbo_new(_metadata, self->fd, 1, 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	ASSERT_EQ(0, h2d(self->fd, b.va, &c, 1));
	c = 0;
	ASSERT_EQ(0, d2h(self->fd, &c, b.va, 1));
	EXPECT_EQ(0x11, c);
	read_faults(_metadata, self->fd, b.va + 1, 1, DRM_VNPU_FAULT_UNMAPPED);
	write_faults(_metadata, self->fd, b.va + 1, 1, DRM_VNPU_FAULT_UNMAPPED);
	read_faults(_metadata, self->fd, b.va, 2, DRM_VNPU_FAULT_BOUNDS);
	read_faults(_metadata, self->fd, b.va + PG, 1, DRM_VNPU_FAULT_UNMAPPED);
	EXPECT_EQ(4, fault_count(self->fd));
	EXPECT_EQ(0x11, b.cpu[0]);
	EXPECT_EQ(-1, first_not(b.cpu, 1, PG, 0));
	tbo_free(self->fd, &b);
}

/* Device writes to a read-only object fault; reads from it work. */
TEST_F(mem, fault_read_only_object)
{
	const uint64_t size = 3 * PG + 5;
	uint8_t *want = malloc(PAGE_UP(size)), *got = malloc(PAGE_UP(size));
	struct tbo ro, rw;
	unsigned int p;
	uint64_t n;

	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		tbo_new(_metadata, self->fd, size, DRM_VNPU_BO_DEVICE_READ_ONLY,
			all_places[p], &ro);
		tbo_new(_metadata, self->fd, size, 0, all_places[p], &rw);
		/* The CPU may write it; only the device may not. */
		pattern(want, ro.size, 40 + p);
		memcpy(ro.cpu, want, ro.size);
		n = fault_count(self->fd);

		write_faults(_metadata, self->fd, ro.va, ro.size,
			     DRM_VNPU_FAULT_READ_ONLY);
		write_faults(_metadata, self->fd, ro.va + ro.size - 1, 1,
			     DRM_VNPU_FAULT_READ_ONLY);
		/* Device to device into it faults as a write at the destination. */
		ASSERT_EQ(0, h2d(self->fd, rw.va, want, rw.size));
		EXPECT_EQ(-ENXIO, d2d(self->fd, ro.va + 1, rw.va, 7));
		check_fault(_metadata, self->fd, n + 2, ro.va + 1, 7,
			    DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_READ_ONLY);
		/* Out of bounds is found before read-only. */
		write_faults(_metadata, self->fd, ro.va, ro.size + 1,
			     DRM_VNPU_FAULT_BOUNDS);
		EXPECT_BYTES(want, ro.cpu, ro.size, place_name[all_places[p]]);

		/* Reading it works: to the host and to another object. */
		memset(got, 0, ro.size);
		ASSERT_EQ(0, d2h(self->fd, got, ro.va, ro.size));
		EXPECT_BYTES(want, got, ro.size, place_name[all_places[p]]);
		memset(rw.cpu, 0, rw.size);
		ASSERT_EQ(0, d2d(self->fd, rw.va, ro.va, ro.size));
		EXPECT_BYTES(want, rw.cpu, rw.size, place_name[all_places[p]]);
		EXPECT_EQ(n + 4, fault_count(self->fd));
		tbo_free(self->fd, &ro);
		tbo_free(self->fd, &rw);
	}
	free(want);
	free(got);
}

/* A closed object's VA is unmapped at once. */
TEST_F(mem, fault_use_after_close)
{
	unsigned int p;
	uint8_t buf[64];
	struct tbo b;
	uint64_t va;

	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		tbo_new(_metadata, self->fd, 2 * PG, 0, all_places[p], &b);
		pattern(buf, sizeof(buf), p);
		ASSERT_EQ(0, h2d(self->fd, b.va + 8, buf, sizeof(buf)));
		ASSERT_EQ(0, d2h(self->fd, buf, b.va + 8, sizeof(buf)));
		va = b.va;
		tbo_free(self->fd, &b);
		read_faults(_metadata, self->fd, va, 1, DRM_VNPU_FAULT_UNMAPPED);
		read_faults(_metadata, self->fd, va + 8, sizeof(buf),
			    DRM_VNPU_FAULT_UNMAPPED);
		write_faults(_metadata, self->fd, va + 8, sizeof(buf),
			     DRM_VNPU_FAULT_UNMAPPED);
	}
	EXPECT_EQ(3 * ARRAY_LEN(all_places), fault_count(self->fd));
}

/* In a device-to-device copy the source faults as a read, the
 * destination as a write. */
TEST_F(mem, fault_device_to_device_sides)
{
	const uint64_t size = 2 * PG;
	uint64_t n, bad = DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE - PG;
	uint8_t *want = malloc(size);
	struct tbo a, c;

	ASSERT_NE(NULL, want);
	tbo_new(_metadata, self->fd, size, 0, DRM_VNPU_PLACEMENT_DEVICE, &a);
	tbo_new(_metadata, self->fd, size, 0, DRM_VNPU_PLACEMENT_HOST, &c);
	pattern(want, size, 3);
	ASSERT_EQ(0, h2d(self->fd, a.va, want, size));
	ASSERT_EQ(0, h2d(self->fd, c.va, want, size));

	/* Unmapped source. */
	n = fault_count(self->fd);
	EXPECT_EQ(-ENXIO, d2d(self->fd, a.va, bad, 16));
	check_fault(_metadata, self->fd, n, bad, 16, DRM_VNPU_ACCESS_READ,
		    DRM_VNPU_FAULT_UNMAPPED);
	/* Unmapped destination. */
	EXPECT_EQ(-ENXIO, d2d(self->fd, bad, a.va, 16));
	check_fault(_metadata, self->fd, n + 1, bad, 16, DRM_VNPU_ACCESS_WRITE,
		    DRM_VNPU_FAULT_UNMAPPED);
	/* Source running past its end. */
	EXPECT_EQ(-ENXIO, d2d(self->fd, a.va, c.va + PG, PG + 1));
	check_fault(_metadata, self->fd, n + 2, c.va + PG, PG + 1,
		    DRM_VNPU_ACCESS_READ, DRM_VNPU_FAULT_BOUNDS);
	/* Destination running past its end. */
	EXPECT_EQ(-ENXIO, d2d(self->fd, c.va + PG, a.va, PG + 1));
	check_fault(_metadata, self->fd, n + 3, c.va + PG, PG + 1,
		    DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_BOUNDS);
	/* Neither object changed. */
	EXPECT_BYTES(want, a.cpu, size, "device object");
	EXPECT_BYTES(want, c.cpu, size, "host object");
	tbo_free(self->fd, &a);
	tbo_free(self->fd, &c);
	free(want);
}

/* FAULT_INFO refuses non-zero flags and pad and writes nothing then. */
TEST_F(mem, fault_info_flags_and_pad_einval)
{
	struct drm_vnpu_fault_info fi;
	unsigned int bit;

	read_faults(_metadata, self->fd, 0, 1, DRM_VNPU_FAULT_UNMAPPED);
	for (bit = 0; bit < 32; bit++) {
		memset(&fi, 0, sizeof(fi));
		fi.flags = 1U << bit;
		fi.count = 0x1234;
		fi.reason = 0x77;
		EXPECT_EQ(-EINVAL, fault_info_raw(self->fd, &fi)) TH_LOG("bit %u", bit);
		EXPECT_EQ(0x1234, fi.count);
		EXPECT_EQ(0x77, fi.reason);
	}
	memset(&fi, 0, sizeof(fi));
	fi.pad = 1;
	fi.count = 0x1234;
	EXPECT_EQ(-EINVAL, fault_info_raw(self->fd, &fi));
	EXPECT_EQ(0x1234, fi.count);
	memset(&fi, 0, sizeof(fi));
	fi.pad = 0x80000000u;
	EXPECT_EQ(-EINVAL, fault_info_raw(self->fd, &fi));
	/* The valid call still reports the one fault. */
	EXPECT_EQ(1, fault_count(self->fd));
}

/* ------------------------------------------------ BO_CREATE validation */

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

/* -------------------------------------------------- BO_INFO validation */

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

/* --------------------------------------------------- MEMCPY validation */

/*
 * A MEMCPY that must fail with err and is no device fault: the object and
 * the fault count stay as they were.
 */
static void copy_fails(struct __test_metadata *_metadata, int fd,
		       struct drm_vnpu_memcpy *mc, int err, const struct tbo *b,
		       const uint8_t *shadow, const char *what)
{
	uint64_t n = fault_count(fd);

	EXPECT_EQ(err, copy_raw(fd, mc)) TH_LOG("%s", what);
	EXPECT_EQ(n, fault_count(fd)) TH_LOG("%s", what);
	if (b && shadow)
		EXPECT_BYTES(shadow, b->cpu, b->size, what);
}

TEST_F(mem, memcpy_bad_arguments_einval)
{
	const uint64_t size = 2 * PG;
	uint8_t *shadow = malloc(size), *host = malloc(size), *host2 = malloc(size);
	struct drm_vnpu_memcpy h2d_ok, d2h_ok, d2d_ok, mc;
	unsigned int bit;
	struct tbo b;
	char what[64];

	ASSERT_NE(NULL, shadow);
	ASSERT_NE(NULL, host);
	ASSERT_NE(NULL, host2);
	tbo_new(_metadata, self->fd, size, 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	pattern(shadow, size, 8);
	memcpy(b.cpu, shadow, size);
	pattern(host, size, 9);
	memcpy(host2, host, size);

	/* The valid calls each negative one differs from. */
	h2d_ok = (struct drm_vnpu_memcpy){ .dst = b.va, .src = (uintptr_t)host,
		.size = 100, .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
	d2h_ok = (struct drm_vnpu_memcpy){ .dst = (uintptr_t)host2, .src = b.va,
		.size = 100, .flags = DRM_VNPU_MEMCPY_SRC_DEVICE };
	d2d_ok = (struct drm_vnpu_memcpy){ .dst = b.va + PG, .src = b.va,
		.size = 100, .flags = DRM_VNPU_MEMCPY_DST_DEVICE |
				      DRM_VNPU_MEMCPY_SRC_DEVICE };
	mc = d2h_ok;
	ASSERT_EQ(0, copy_raw(self->fd, &mc));
	EXPECT_BYTES(shadow, host2, 100, "valid d2h");
	memcpy(host2, host, size);

	/* Size 0. */
	mc = h2d_ok;
	mc.size = 0;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "h2d size 0");
	mc = d2h_ok;
	mc.size = 0;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "d2h size 0");
	EXPECT_BYTES(host, host2, size, "d2h size 0");
	mc = d2d_ok;
	mc.size = 0;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "d2d size 0");

	/* No device side (host to host), from each valid direction. */
	mc = d2h_ok;
	mc.flags = 0;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "d2h, flags 0");
	EXPECT_BYTES(host, host2, size, "d2h, flags 0");
	mc = h2d_ok;
	mc.flags = 0;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "h2d, flags 0");
	mc = d2d_ok;
	mc.flags = 0;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "d2d, flags 0");
	/* Two real host buffers are no better. */
	mc = d2h_ok;
	mc.flags = 0;
	mc.src = (uintptr_t)host;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "host to host");
	EXPECT_BYTES(host, host2, size, "host to host");

	/* Unknown flag bits, on top of each valid direction. */
	for (bit = 2; bit < 32; bit++) {
		snprintf(what, sizeof(what), "flag bit %u", bit);
		mc = h2d_ok;
		mc.flags |= 1U << bit;
		copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, what);
		mc = d2h_ok;
		mc.flags |= 1U << bit;
		copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, what);
		mc = d2d_ok;
		mc.flags |= 1U << bit;
		copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, what);
	}
	EXPECT_BYTES(host, host2, size, "unknown flags");

	/* Non-zero pad. */
	mc = h2d_ok;
	mc.pad = 1;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "h2d pad");
	mc = d2h_ok;
	mc.pad = 0x80000000u;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "d2h pad");
	mc = d2d_ok;
	mc.pad = 1;
	copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, "d2d pad");
	EXPECT_BYTES(host, host2, size, "pad");

	/* The valid calls still work. */
	mc = h2d_ok;
	ASSERT_EQ(0, copy_raw(self->fd, &mc));
	mc = d2d_ok;
	ASSERT_EQ(0, copy_raw(self->fd, &mc));
	memcpy(shadow, host, 100);
	memcpy(shadow + PG, host, 100);
	EXPECT_BYTES(shadow, b.cpu, size, "valid h2d and d2d");
	EXPECT_EQ(0, fault_count(self->fd));
	tbo_free(self->fd, &b);
	free(shadow);
	free(host);
	free(host2);
}

/* Host pointers a copy cannot use at all. */
struct bad_ptr {
	const char *name;
	uint64_t ptr;
};

static const uint64_t efault_sizes[] = { 1, 16, 63, 64, 65, 100, PG, PG + 17 };

/*
 * Bad host pointers in either direction give -EFAULT and are no device
 * fault, for copies short enough to be only a tail and long enough to be
 * whole 64-byte lines. A device-to-host copy leaves the object alone.
 */
TEST_F(mem, memcpy_bad_user_pointer_efault)
{
	uint8_t *ro = anon(2 * PG), *half = anon(2 * PG), *gone;
	uint8_t *shadow = malloc(2 * PG);
	struct drm_vnpu_memcpy mc;
	unsigned int i, j;
	struct tbo b;
	char what[96];

	ASSERT_NE(NULL, ro);
	ASSERT_NE(NULL, half);
	ASSERT_NE(NULL, shadow);
	ASSERT_EQ(0, mprotect(ro, 2 * PG, PROT_READ));
	tbo_new(_metadata, self->fd, 2 * PG, 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	pattern(shadow, 2 * PG, 12);
	memcpy(b.cpu, shadow, 2 * PG);
	/* Last: nothing is mapped after these two holes are made. */
	ASSERT_EQ(0, munmap(half + PG, PG));
	gone = unmapped_page();
	ASSERT_NE(NULL, gone);
	ASSERT_TRUE(is_unmapped(gone, PG));
	ASSERT_TRUE(is_unmapped(half + PG, PG));

	for (i = 0; i < ARRAY_LEN(efault_sizes); i++) {
		uint64_t n = efault_sizes[i];
		const struct bad_ptr bad[] = {
			{ "8", 8 },
			{ "unmapped", (uintptr_t)gone },
			{ "kernel", 0xffff888000000000ULL },
			{ "end of address space", UINT64_MAX - n + 1 },
		};

		for (j = 0; j < ARRAY_LEN(bad); j++) {
			snprintf(what, sizeof(what), "%s pointer, %llu bytes",
				 bad[j].name, (unsigned long long)n);
			mc = (struct drm_vnpu_memcpy){ .dst = b.va, .src = bad[j].ptr,
				.size = n, .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
			copy_fails(_metadata, self->fd, &mc, -EFAULT, NULL, NULL, what);
			mc = (struct drm_vnpu_memcpy){ .dst = bad[j].ptr, .src = b.va,
				.size = n, .flags = DRM_VNPU_MEMCPY_SRC_DEVICE };
			memcpy(b.cpu, shadow, 2 * PG);
			copy_fails(_metadata, self->fd, &mc, -EFAULT, &b, shadow, what);
		}
		/* Device to host into a read-only page; from it works. */
		snprintf(what, sizeof(what), "read-only page, %llu bytes",
			 (unsigned long long)n);
		mc = (struct drm_vnpu_memcpy){ .dst = (uintptr_t)ro, .src = b.va,
			.size = n, .flags = DRM_VNPU_MEMCPY_SRC_DEVICE };
		copy_fails(_metadata, self->fd, &mc, -EFAULT, &b, shadow, what);
		mc = (struct drm_vnpu_memcpy){ .dst = b.va, .src = (uintptr_t)ro,
			.size = n, .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
		EXPECT_EQ(0, copy_raw(self->fd, &mc)) TH_LOG("%s", what);
		memcpy(shadow, ro, n);	/* never written: zeros */
		EXPECT_BYTES(shadow, b.cpu, 2 * PG, what);

		/* A host range running into an unmapped page. */
		snprintf(what, sizeof(what), "range into an unmapped page, %llu bytes",
			 (unsigned long long)n + 1);
		mc = (struct drm_vnpu_memcpy){ .dst = b.va,
			.src = (uintptr_t)half + PG - n / 2,
			.size = n + 1, .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
		copy_fails(_metadata, self->fd, &mc, -EFAULT, NULL, NULL, what);
		memcpy(b.cpu, shadow, 2 * PG);
		mc = (struct drm_vnpu_memcpy){ .dst = (uintptr_t)half + PG - n / 2,
			.src = b.va, .size = n + 1,
			.flags = DRM_VNPU_MEMCPY_SRC_DEVICE };
		copy_fails(_metadata, self->fd, &mc, -EFAULT, &b, shadow, what);
	}
	EXPECT_EQ(0, fault_count(self->fd));
	ASSERT_TRUE(is_unmapped(gone, PG));
	ASSERT_TRUE(is_unmapped(half + PG, PG));
	tbo_free(self->fd, &b);
	munmap(ro, 2 * PG);
	munmap(half, PG);
	free(shadow);
}

/*
 * A host-to-device copy from a pointer of which not one byte is readable
 * copies nothing: the object keeps its bytes, whatever the size. (A range
 * that becomes unreadable part way may leave the object partly written.)
 */
TEST_F(mem, memcpy_h2d_efault_leaves_object_intact)
{
	uint8_t *gone, *shadow = malloc(2 * PG);
	struct drm_vnpu_memcpy mc;
	unsigned int i, j;
	long long d;
	struct tbo b;

	ASSERT_NE(NULL, shadow);
	tbo_new(_metadata, self->fd, 2 * PG, 0, DRM_VNPU_PLACEMENT_DEVICE, &b);
	pattern(shadow, 2 * PG, 13);
	gone = unmapped_page();
	ASSERT_NE(NULL, gone);
	ASSERT_TRUE(is_unmapped(gone, PG));

	for (i = 0; i < ARRAY_LEN(efault_sizes); i++) {
		uint64_t n = efault_sizes[i];
		const struct bad_ptr bad[] = {
			{ "8", 8 },
			{ "unmapped", (uintptr_t)gone },
			{ "kernel", 0xffff888000000000ULL },
			{ "end of address space", UINT64_MAX - n + 1 },
		};

		for (j = 0; j < ARRAY_LEN(bad); j++) {
			memcpy(b.cpu, shadow, 2 * PG);
			mc = (struct drm_vnpu_memcpy){ .dst = b.va + 3, .src = bad[j].ptr,
				.size = n, .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
			EXPECT_EQ(-EFAULT, copy_raw(self->fd, &mc));
			d = first_diff(shadow, b.cpu, 2 * PG);
			EXPECT_EQ(-1, d)
				TH_LOG("%llu bytes from the %s pointer: object byte %lld "
				       "is 0x%02x, was 0x%02x; %lld of the %llu bytes changed",
				       (unsigned long long)n, bad[j].name, d,
				       d >= 0 ? b.cpu[d] : 0, d >= 0 ? shadow[d] : 0,
				       (long long)(2 * PG) -
				       (long long)count_same(shadow, b.cpu, 2 * PG),
				       (unsigned long long)n);
		}
	}
	ASSERT_TRUE(is_unmapped(gone, PG));
	tbo_free(self->fd, &b);
	free(shadow);
}

/* Overlapping ranges of one object are refused; the bytes stay. */
TEST_F(mem, memcpy_overlap_einval)
{
	const uint64_t size = 3 * PG;
	static const struct { uint64_t dst, src, len; } bad[] = {
		{ 0, 0, 1 }, { 0, 0, 3 * PG }, { 100, 100, 64 },
		{ 1, 0, 2 }, { 0, 1, 2 }, { 1000, 0, 1001 }, { 0, 1000, 1001 },
		{ PG, PG + 64, 65 }, { PG, 0, PG + 1 }, { 0, PG, PG + 1 },
		{ 0, PG, 2 * PG },
	};
	uint8_t *shadow = malloc(size);
	unsigned int p, i;
	struct drm_vnpu_memcpy mc;
	struct tbo b;
	char what[96];

	ASSERT_NE(NULL, shadow);
	for (p = 0; p < ARRAY_LEN(all_places); p++) {
		tbo_new(_metadata, self->fd, size, 0, all_places[p], &b);
		pattern(shadow, size, 20 + p);
		ASSERT_EQ(0, h2d(self->fd, b.va, shadow, size));
		for (i = 0; i < ARRAY_LEN(bad); i++) {
			snprintf(what, sizeof(what), "%s: %llu bytes %llu -> %llu",
				 place_name[all_places[p]],
				 (unsigned long long)bad[i].len,
				 (unsigned long long)bad[i].src,
				 (unsigned long long)bad[i].dst);
			mc = (struct drm_vnpu_memcpy){ .dst = b.va + bad[i].dst,
				.src = b.va + bad[i].src, .size = bad[i].len,
				.flags = DRM_VNPU_MEMCPY_DST_DEVICE |
					 DRM_VNPU_MEMCPY_SRC_DEVICE };
			copy_fails(_metadata, self->fd, &mc, -EINVAL, &b, shadow, what);
		}
		/* One byte less of overlap works. */
		ASSERT_EQ(0, d2d(self->fd, b.va + 1000, b.va, 1000));
		memcpy(shadow + 1000, shadow, 1000);
		ASSERT_EQ(0, d2d(self->fd, b.va, b.va + 2000, 2000));
		memcpy(shadow, shadow + 2000, 2000);
		EXPECT_BYTES(shadow, b.cpu, size, place_name[all_places[p]]);
		tbo_free(self->fd, &b);
	}
	free(shadow);
}

/* ------------------------------------------------------------ capacity */

/*
 * Fill the device in chunks of an eighth of its capacity until it says
 * -ENOSPC, checking every counter after every step; free everything; then
 * take all of the free memory in one object.
 */
TEST_F_TIMEOUT(mem, capacity_fill_and_free, 120)
{
	const uint64_t chunk = (self->total / 8) & ~(PG - 1);
	struct drm_vnpu_bo_create c;
	struct counters c0, c1;
	uint32_t handles[64], full, host, user_h;
	uint64_t k, kmax;
	void *user = anon(PG);
	/* The whole device for this file: lift the per-file share. */
	long pct = vnpu_set_module_param("file_mem_pct", 100);

	ASSERT_GT(pct, 0);
	ASSERT_NE(NULL, user);
	ASSERT_GT(chunk, 0);
	read_counters(self->fd, self->path, &c0);
	ASSERT_EQ(self->total, c0.total);
	ASSERT_EQ(c0.total - c0.used, c0.free);
	kmax = c0.free / chunk;
	ASSERT_LT(kmax, ARRAY_LEN(handles));
	TH_LOG("capacity %llu, %llu used at start, chunks of %llu: %llu fit",
	       (unsigned long long)c0.total, (unsigned long long)c0.used,
	       (unsigned long long)chunk, (unsigned long long)kmax);

	for (k = 0;; k++) {
		int ret = bo_create(self->fd, chunk, 0, DRM_VNPU_PLACEMENT_DEVICE,
				    NULL, &handles[k], NULL);

		if (ret) {
			EXPECT_EQ(-ENOSPC, ret);
			break;
		}
		ASSERT_LT(k, kmax) TH_LOG("chunk %llu fit", (unsigned long long)k + 1);
		check_counters(_metadata, self->fd, self->path,
			       c0.used + (k + 1) * chunk, c0.objects + k + 1);
	}
	EXPECT_EQ(kmax, k);
	/* The failed call changed nothing, nor does trying again. */
	check_counters(_metadata, self->fd, self->path, c0.used + k * chunk,
		       c0.objects + k);
	c = (struct drm_vnpu_bo_create){ .size = chunk,
		.placement = DRM_VNPU_PLACEMENT_DEVICE };
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "chunk");
	c.size = c0.free - k * chunk + 1;
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "free + 1");
	EXPECT_GE(param(self->fd, DRM_VNPU_PARAM_MEM_PEAK), c0.used + k * chunk);
	while (k > 0) {
		k--;
		ASSERT_EQ(0, gem_close(self->fd, handles[k]));
		check_counters(_metadata, self->fd, self->path, c0.used + k * chunk,
			       c0.objects + k);
	}
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);

	/* All of the free memory in one object; then not one more page. */
	ASSERT_EQ(0, bo_create(self->fd, c0.free, 0, DRM_VNPU_PLACEMENT_DEVICE,
			       NULL, &full, NULL));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 1);
	EXPECT_EQ(0, param(self->fd, DRM_VNPU_PARAM_MEM_FREE));
	c = (struct drm_vnpu_bo_create){ .size = 1,
		.placement = DRM_VNPU_PLACEMENT_DEVICE };
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "1 byte");
	c.flags = DRM_VNPU_BO_DEVICE_READ_ONLY;
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC,
		     "1 byte, read-only");
	read_counters(self->fd, self->path, &c1);
	EXPECT_GE(c1.peak, c0.total);
	EXPECT_EQ(c0.total, c1.peak);
	EXPECT_EQ((long long)c0.total, c1.dpeak);

	/* Host and user memory do not come out of the device's. */
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &host, NULL));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 2);
	ASSERT_EQ(0, bo_create(self->fd, PG, 0, DRM_VNPU_PLACEMENT_USER, user,
			       &user_h, NULL));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 3);
	ASSERT_EQ(0, gem_close(self->fd, host));
	ASSERT_EQ(0, gem_close(self->fd, user_h));
	check_counters(_metadata, self->fd, self->path, c0.total, c0.objects + 1);

	ASSERT_EQ(0, gem_close(self->fd, full));
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	/* The peak stays. */
	EXPECT_EQ(c0.total, param(self->fd, DRM_VNPU_PARAM_MEM_PEAK));
	/* And the memory is usable again. */
	ASSERT_EQ(0, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &full, NULL));
	check_counters(_metadata, self->fd, self->path, c0.used + PG,
		       c0.objects + 1);
	ASSERT_EQ(0, gem_close(self->fd, full));
	munmap(user, PG);
	vnpu_set_module_param("file_mem_pct", pct);
}

/*
 * A full device still serves objects on other devices: capacity is per
 * device.
 */
TEST_F(mem, capacity_is_per_device)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	struct counters o0;
	uint32_t full, h;
	uint64_t free0;
	long pct;
	int n, fd2;

	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	if (n < 2)
		SKIP(return, "one device only");
	/* The whole device for this file: lift the per-file share. */
	pct = vnpu_set_module_param("file_mem_pct", 100);
	ASSERT_GT(pct, 0);
	fd2 = open(paths[1], O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	read_counters(fd2, paths[1], &o0);
	free0 = param(self->fd, DRM_VNPU_PARAM_MEM_FREE);
	ASSERT_EQ(0, bo_create(self->fd, free0, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &full, NULL));
	EXPECT_EQ(-ENOSPC, bo_create(self->fd, 1, 0, DRM_VNPU_PLACEMENT_DEVICE,
				     NULL, &h, NULL));
	/* The other device did not see any of it. */
	check_counters(_metadata, fd2, paths[1], o0.used, o0.objects);
	ASSERT_EQ(0, bo_create(fd2, 1, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL, &h, NULL));
	check_counters(_metadata, fd2, paths[1], o0.used + PG, o0.objects + 1);
	ASSERT_EQ(0, gem_close(fd2, h));
	ASSERT_EQ(0, gem_close(self->fd, full));
	check_counters(_metadata, fd2, paths[1], o0.used, o0.objects);
	close(fd2);
	vnpu_set_module_param("file_mem_pct", pct);
}

/*
 * The host range of a context is 1 TiB: objects of the largest size fill
 * it, and the next one fails with -ENOSPC without leaving an object
 * behind. (Host objects cost no memory until used.)
 */
TEST_F(mem, host_va_range_full_enospc)
{
	/* Each object takes its size plus a guard page, 2 MiB aligned. */
	const uint64_t stride = DRM_VNPU_BO_MAX_SIZE + SZ_2M;
	const uint64_t fit = (DRM_VNPU_VA_RANGE_SIZE - DRM_VNPU_BO_MAX_SIZE - PG) /
			     stride + 1;
	struct drm_vnpu_bo_create c = { .size = DRM_VNPU_BO_MAX_SIZE,
		.placement = DRM_VNPU_PLACEMENT_HOST };
	uint32_t handles[64], h;
	struct counters c0;
	uint64_t k, va;
	long pct, host_mb;
	int ret;

	/* A host pool as large as the range, all of it for this file. */
	pct = vnpu_set_module_param("file_mem_pct", 100);
	host_mb = vnpu_set_module_param("host_mem_mb", 1024 * 1024);
	ASSERT_GT(pct, 0);
	ASSERT_GT(host_mb, 0);
	ASSERT_LT(fit, ARRAY_LEN(handles));
	read_counters(self->fd, self->path, &c0);
	for (k = 0;; k++) {
		ret = bo_create(self->fd, DRM_VNPU_BO_MAX_SIZE, 0,
				DRM_VNPU_PLACEMENT_HOST, NULL, &handles[k], &va);
		if (ret)
			break;
		check_va(_metadata, va, DRM_VNPU_BO_MAX_SIZE, DRM_VNPU_PLACEMENT_HOST);
		ASSERT_LT(k, fit);
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(fit, k);
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects + k);
	create_fails(_metadata, self->fd, self->path, &c, -ENOSPC, "host range full");
	/* Small objects still fit in what is left of the range. */
	ASSERT_EQ(0, bo_create(self->fd, PG, 0, DRM_VNPU_PLACEMENT_HOST, NULL,
			       &h, &va));
	check_va(_metadata, va, PG, DRM_VNPU_PLACEMENT_HOST);
	ASSERT_EQ(0, gem_close(self->fd, h));
	/* The device range is separate. */
	ASSERT_EQ(0, bo_create(self->fd, PG, 0, DRM_VNPU_PLACEMENT_DEVICE, NULL,
			       &h, &va));
	check_va(_metadata, va, PG, DRM_VNPU_PLACEMENT_DEVICE);
	ASSERT_EQ(0, gem_close(self->fd, h));
	/* Freeing one makes room for one. */
	ASSERT_EQ(0, gem_close(self->fd, handles[k / 2]));
	ASSERT_EQ(0, bo_create(self->fd, DRM_VNPU_BO_MAX_SIZE, 0,
			       DRM_VNPU_PLACEMENT_HOST, NULL, &handles[k / 2], NULL));
	while (k > 0) {
		ASSERT_EQ(0, gem_close(self->fd, handles[--k]));
	}
	check_counters(_metadata, self->fd, self->path, c0.used, c0.objects);
	vnpu_set_module_param("host_mem_mb", host_mb);
	vnpu_set_module_param("file_mem_pct", pct);
}

TEST_HARNESS_MAIN
