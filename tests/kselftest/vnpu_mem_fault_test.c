// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device page faults and FAULT_INFO: unmapped addresses, the bytes around
 * objects, read-only objects, use after close and both sides of a
 * device-to-device copy. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_test_util.h"

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

TEST_HARNESS_MAIN
