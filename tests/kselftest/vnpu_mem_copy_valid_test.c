// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every validation rule of DRM_IOCTL_VNPU_MEMCPY: bad arguments, host
 * pointers it cannot use, and overlaps. Each negative case differs from a
 * valid call in exactly one field. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_mem_test_util.h"

/* Number of equal bytes of a and b. */
static uint64_t count_same(const uint8_t *a, const uint8_t *b, uint64_t len)
{
	uint64_t i, n = 0;

	for (i = 0; i < len; i++)
		n += a[i] == b[i];
	return n;
}

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

TEST_HARNESS_MAIN
