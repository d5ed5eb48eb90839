// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI tests of user-managed virtual memory (UAPI 1.3): physical
 * allocations (DRM_VNPU_BO_NO_VA), VM_RESERVE, VM_RELEASE, VM_MAP and
 * VM_UNMAP. Positive cases map objects next to each other and copy and
 * compute across the seam (MEMCPY, COPY tasks, a KERNEL add), map parts
 * of objects at offsets, and check that unmapped addresses fault, also
 * for a job that was queued before the unmap. Negative cases break one
 * rule each and check the exact errno and that nothing changed.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "vnpu_job_util.h"	/* first: it sets xioctl()'s restarts */
#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define PG		4096ULL
#define SZ_1M		(1ULL << 20)
#define SZ_2M		(2ULL << 20)
#define SZ_64M		(64ULL << 20)

static int reserve(int fd, uint64_t size, uint64_t align, uint64_t *va)
{
	struct drm_vnpu_vm_reserve r = { .size = size, .align = align };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &r);

	if (!ret && va)
		*va = r.va;
	return ret;
}

static int release(int fd, uint64_t va)
{
	struct drm_vnpu_vm_release r = { .va = va };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_RELEASE, &r);
}

static int vmap_(int fd, uint64_t va, uint64_t size, uint64_t off,
		 uint32_t handle)
{
	struct drm_vnpu_vm_map m = { .va = va, .size = size, .offset = off,
				     .handle = handle };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_MAP, &m);
}

static int vunmap_(int fd, uint64_t va, uint64_t size)
{
	struct drm_vnpu_vm_unmap u = { .va = va, .size = size };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_UNMAP, &u);
}

/* A physical allocation; returns its handle or 0. */
static uint32_t phys(int fd, uint64_t size, uint32_t flags)
{
	struct drm_vnpu_bo_create c = { .size = size,
					.flags = DRM_VNPU_BO_NO_VA | flags };

	if (xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c) || c.va)
		return 0;
	return c.handle;
}

/* An ordinary device object; returns its VA or 0. */
static uint64_t dev_bo(int fd, uint64_t size)
{
	struct drm_vnpu_bo_create c = { .size = size };

	return xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c) ? 0 : c.va;
}

static int h2d(int fd, uint64_t va, const void *p, uint64_t n)
{
	struct drm_vnpu_memcpy m = { .dst = va, .src = (uintptr_t)p, .size = n,
				     .flags = DRM_VNPU_MEMCPY_DST_DEVICE };

	return xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &m);
}

static int d2h(int fd, void *p, uint64_t va, uint64_t n)
{
	struct drm_vnpu_memcpy m = { .dst = (uintptr_t)p, .src = va, .size = n,
				     .flags = DRM_VNPU_MEMCPY_SRC_DEVICE };

	return xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &m);
}

static int d2d(int fd, uint64_t dst, uint64_t src, uint64_t n)
{
	struct drm_vnpu_memcpy m = { .dst = dst, .src = src, .size = n,
				     .flags = DRM_VNPU_MEMCPY_DST_DEVICE |
					      DRM_VNPU_MEMCPY_SRC_DEVICE };

	return xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &m);
}

static void fault_info(int fd, struct drm_vnpu_fault_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	ioctl(fd, DRM_IOCTL_VNPU_FAULT_INFO, fi);
}

/* Submit tasks (and an argument block) and wait; returns the job state. */
static int run(int fd, uint32_t q, uint32_t sync,
	       const struct drm_vnpu_task *t, uint32_t n, const void *args,
	       uint32_t args_size, struct drm_vnpu_job_status *st)
{
	struct drm_vnpu_submit s = { .queue_id = q, .tasks = (uintptr_t)t,
				     .task_count = n, .task_stride = sizeof(*t),
				     .args = (uintptr_t)args,
				     .args_size = args_size };
	struct drm_syncobj_timeline_wait w = { 0 };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (ret)
		return ret;
	w.handles = (uintptr_t)&sync;
	w.points = (uintptr_t)&s.seq;
	w.count_handles = 1;
	w.timeout_nsec = INT64_MAX;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
	if (ret)
		return ret;
	ret = job_status(fd, q, s.seq, st);
	return ret ? ret : (int)st->state;
}

static void fill_pattern(uint32_t *p, size_t words, uint32_t seed)
{
	for (size_t i = 0; i < words; i++)
		p[i] = seed * 2654435761u + (uint32_t)i;
}

TEST(version_cap_granule)
{
	int fd = open_node();

	ASSERT_GE(fd, 0);
	/* The VM ioctls came with 1.3; later minors keep them. */
	EXPECT_LE(DRM_VNPU_UAPI_VERSION(1, 3),
		  param(fd, DRM_VNPU_PARAM_UAPI_VERSION));
	EXPECT_EQ(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR),
		  param(fd, DRM_VNPU_PARAM_UAPI_VERSION));
	EXPECT_TRUE(param(fd, DRM_VNPU_PARAM_CAPABILITIES) & DRM_VNPU_CAP_VM);
	EXPECT_EQ((uint64_t)sysconf(_SC_PAGESIZE),
		  param(fd, DRM_VNPU_PARAM_VM_GRANULE));
	close(fd);
}

/* Two objects side by side: MEMCPY across the seam both ways. */
TEST(memcpy_across_seam)
{
	size_t n = 3 * SZ_1M;
	uint32_t *in = malloc(n), *out = malloc(n);
	uint32_t ha, hb;
	uint64_t r;
	struct drm_vnpu_bo_info bi = { 0 };
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, SZ_64M, SZ_2M, &r));
	EXPECT_EQ(0, r % SZ_2M);
	EXPECT_GE(r, DRM_VNPU_VA_RESERVE_START);
	EXPECT_LT(r + SZ_64M, DRM_VNPU_VA_RESERVE_START + DRM_VNPU_VA_RANGE_SIZE);
	ha = phys(fd, SZ_2M, 0);
	hb = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, ha);
	ASSERT_NE(0, hb);
	bi.handle = ha;
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &bi));
	EXPECT_EQ(0, bi.va);
	EXPECT_EQ(DRM_VNPU_BO_NO_VA, bi.flags);
	ASSERT_EQ(0, vmap_(fd, r, SZ_2M, 0, ha));
	ASSERT_EQ(0, vmap_(fd, r + SZ_2M, SZ_2M, 0, hb));

	fill_pattern(in, n / 4, 1);
	ASSERT_EQ(0, h2d(fd, r + SZ_1M - 12, in, n));
	memset(out, 0, n);
	ASSERT_EQ(0, d2h(fd, out, r + SZ_1M - 12, n));
	EXPECT_EQ(0, memcmp(in, out, n));
	/* Device to device, both sides across the seam, not overlapping. */
	ASSERT_EQ(0, d2d(fd, r + SZ_2M - 100, r + 4, 1000));
	ASSERT_EQ(0, d2h(fd, out, r + SZ_2M - 100, 1000));
	ASSERT_EQ(0, d2h(fd, (uint8_t *)out + 1000, r + 4, 1000));
	EXPECT_EQ(0, memcmp(out, (uint8_t *)out + 1000, 1000));
	/* One byte past the second object: unmapped. */
	EXPECT_EQ(-ENXIO, d2h(fd, out, r + 4 * SZ_2M - 8, 16));

	EXPECT_EQ(0, vunmap_(fd, r, SZ_2M));
	EXPECT_EQ(0, vunmap_(fd, r + SZ_2M, SZ_2M));
	EXPECT_EQ(0, release(fd, r));
	free(in);
	free(out);
	close(fd);
}

/* Part of an object at an offset, and one object mapped twice. */
TEST(offset_and_alias)
{
	uint32_t h, v, got = 0;
	uint64_t r;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, 4 * SZ_2M, 0, &r));
	h = phys(fd, 2 * SZ_2M, 0);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, vmap_(fd, r, 2 * SZ_2M, 0, h));
	ASSERT_EQ(0, vmap_(fd, r + 2 * SZ_2M, SZ_2M - 2 * PG, SZ_2M + PG, h));
	v = 0xabcd1234;
	ASSERT_EQ(0, h2d(fd, r + SZ_2M + PG + 8, &v, 4));
	ASSERT_EQ(0, d2h(fd, &got, r + 2 * SZ_2M + 8, 4));
	EXPECT_EQ(v, got);
	/* The last page of the object is not mapped there. */
	v = 0x600d;
	ASSERT_EQ(0, h2d(fd, r + 2 * SZ_2M - 2 * PG - 4, &v, 4));
	ASSERT_EQ(0, d2h(fd, &got, r + 3 * SZ_2M - 3 * PG - 4, 4));
	EXPECT_EQ(v, got);
	EXPECT_EQ(-ENXIO, d2h(fd, &got, r + 3 * SZ_2M - 2 * PG, 4));
	close(fd);
}

/* A COPY task and a KERNEL add whose tensors cross seams. */
TEST(jobs_across_seams)
{
	const uint32_t nf = 8192;	/* 32 KiB of floats */
	float *a = malloc(nf * 4), *b = malloc(nf * 4), *o = malloc(nf * 4);
	struct {
		struct drm_vnpu_kernel_args ka;
		struct drm_vnpu_tensor t[3];
	} args;
	struct drm_vnpu_task t = { 0 };
	struct drm_vnpu_job_status st;
	uint32_t q, sync, h[3];
	uint64_t r, bva, ava, ova;
	int fd = open_node(), i, bad = 0;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	ASSERT_EQ(0, reserve(fd, 3 * SZ_2M, 0, &r));
	for (i = 0; i < 3; i++) {
		h[i] = phys(fd, SZ_2M, 0);
		ASSERT_NE(0, h[i]);
		ASSERT_EQ(0, vmap_(fd, r + i * SZ_2M, SZ_2M, 0, h[i]));
	}
	bva = dev_bo(fd, nf * 4);
	ASSERT_NE(0, bva);
	ava = r + SZ_2M - 5000 * 4;	/* crosses the first seam */
	ova = r + 2 * SZ_2M - 3000 * 4;	/* crosses the second */
	for (i = 0; i < (int)nf; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(nf - i);
	}
	ASSERT_EQ(0, h2d(fd, ava, a, nf * 4));
	ASSERT_EQ(0, h2d(fd, bva, b, nf * 4));

	/* COPY from across the first seam into the ordinary object. */
	t.type = DRM_VNPU_TASK_COPY;
	t.copy.src = ava;
	t.copy.dst = bva;
	t.copy.size = nf * 4;
	ASSERT_EQ(DRM_VNPU_JOB_OK, run(fd, q, sync, &t, 1, NULL, 0, &st));
	ASSERT_EQ(0, d2h(fd, o, bva, nf * 4));
	EXPECT_EQ(0, memcmp(a, o, nf * 4));
	ASSERT_EQ(0, h2d(fd, bva, b, nf * 4));

	/* out = a + b with a and out across seams. */
	memset(&args, 0, sizeof(args));
	args.ka.num_inputs = 2;
	args.ka.num_outputs = 1;
	for (i = 0; i < 3; i++) {
		args.t[i].va = i == 0 ? ava : i == 1 ? bva : ova;
		args.t[i].dtype = DRM_VNPU_DTYPE_FLOAT;
		args.t[i].rank = 1;
		args.t[i].shape[0] = nf;
		args.t[i].strides[0] = 1;
	}
	memset(&t, 0, sizeof(t));
	t.type = DRM_VNPU_TASK_KERNEL;
	t.kernel.op = DRM_VNPU_OP_ADD;
	t.kernel.args_size = sizeof(args);
	ASSERT_EQ(DRM_VNPU_JOB_OK,
		  run(fd, q, sync, &t, 1, &args, sizeof(args), &st));
	ASSERT_EQ(0, d2h(fd, o, ova, nf * 4));
	for (i = 0; i < (int)nf; i++)
		bad += o[i] != a[i] + b[i];
	EXPECT_EQ(0, bad);

	/* Unmap the middle object: the same task now faults in the gap. */
	ASSERT_EQ(0, vunmap_(fd, r + SZ_2M, SZ_2M));
	ASSERT_EQ(DRM_VNPU_JOB_FAULT,
		  run(fd, q, sync, &t, 1, &args, sizeof(args), &st));
	EXPECT_EQ(0, st.task);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	free(a);
	free(b);
	free(o);
	close(fd);
}

/* Unmapped addresses fault, with the address recorded. */
TEST(unmap_faults)
{
	struct drm_vnpu_fault_info fi;
	uint64_t r, before;
	uint32_t h, v = 7;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, 2 * SZ_2M, 0, &r));
	h = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, h);
	/* Reserved but not mapped. */
	fault_info(fd, &fi);
	before = fi.count;
	EXPECT_EQ(-ENXIO, h2d(fd, r + 64, &v, 4));
	fault_info(fd, &fi);
	EXPECT_EQ(before + 1, fi.count);
	EXPECT_EQ(r + 64, fi.va);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, fi.reason);
	ASSERT_EQ(0, vmap_(fd, r, SZ_2M, 0, h));
	EXPECT_EQ(0, h2d(fd, r + 64, &v, 4));
	/* Mapped then a hole: an access reaching the hole faults whole. */
	EXPECT_EQ(-ENXIO, h2d(fd, r + SZ_2M - 2, &v, 4));
	ASSERT_EQ(0, vunmap_(fd, r, SZ_2M));
	EXPECT_EQ(-ENXIO, d2h(fd, &v, r + 64, 4));
	fault_info(fd, &fi);
	EXPECT_EQ(before + 3, fi.count);
	EXPECT_EQ(DRM_VNPU_ACCESS_READ, fi.access);
	/* The guard after the reservation and the space beyond. */
	EXPECT_EQ(-ENXIO, d2h(fd, &v, r + 2 * SZ_2M, 4));
	close(fd);
}

/* A read-only physical allocation refuses device writes. */
TEST(read_only_object)
{
	struct drm_vnpu_fault_info fi;
	uint32_t h, v = 1;
	uint64_t r;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, 2 * SZ_2M, 0, &r));
	h = phys(fd, SZ_2M, DRM_VNPU_BO_DEVICE_READ_ONLY);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, vmap_(fd, r, SZ_2M, 0, phys(fd, SZ_2M, 0)));
	ASSERT_EQ(0, vmap_(fd, r + SZ_2M, SZ_2M, 0, h));
	EXPECT_EQ(0, d2h(fd, &v, r + SZ_2M, 4));
	EXPECT_EQ(0, v);
	EXPECT_EQ(-ENXIO, h2d(fd, r + SZ_2M, &v, 4));
	fault_info(fd, &fi);
	EXPECT_EQ(DRM_VNPU_FAULT_READ_ONLY, fi.reason);
	/* A write across into it faults too; a read across does not. */
	EXPECT_EQ(-ENXIO, h2d(fd, r + SZ_2M - 4, &v, 8));
	EXPECT_EQ(0, d2h(fd, &v, r + SZ_2M - 2, 4));
	close(fd);
}

/* Closing the last handle of a mapped object keeps its memory mapped. */
TEST(mapping_keeps_object)
{
	uint64_t r, used0, objs0;
	uint32_t h, v = 0x5a5a, got = 0;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	used0 = param(fd, DRM_VNPU_PARAM_FILE_MEM_USED);
	objs0 = param(fd, DRM_VNPU_PARAM_BO_COUNT);
	ASSERT_EQ(0, reserve(fd, SZ_2M, 0, &r));
	h = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, vmap_(fd, r, SZ_2M, 0, h));
	ASSERT_EQ(0, h2d(fd, r + 100, &v, 4));
	ASSERT_EQ(0, gem_close(fd, h));
	EXPECT_EQ(-ENOENT, vmap_(fd, r + 0, SZ_2M, 0, h));
	EXPECT_EQ(0, d2h(fd, &got, r + 100, 4));
	EXPECT_EQ(v, got);
	EXPECT_EQ(used0 + SZ_2M, param(fd, DRM_VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(objs0 + 1, param(fd, DRM_VNPU_PARAM_BO_COUNT));
	ASSERT_EQ(0, vunmap_(fd, r, SZ_2M));
	EXPECT_EQ(used0, param(fd, DRM_VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(objs0, param(fd, DRM_VNPU_PARAM_BO_COUNT));
	EXPECT_EQ(0, release(fd, r));
	close(fd);
}

/* Closing the file unmaps and releases everything and frees the objects. */
TEST(close_with_mappings)
{
	int fd = open_node(), fd2 = open_node();
	uint64_t r, objs0, used0;
	uint32_t h;

	ASSERT_GE(fd, 0);
	ASSERT_GE(fd2, 0);
	objs0 = param(fd2, DRM_VNPU_PARAM_BO_COUNT);
	used0 = param(fd2, DRM_VNPU_PARAM_MEM_USED);
	ASSERT_EQ(0, reserve(fd, 8 * SZ_2M, 0, &r));
	h = phys(fd, 4 * SZ_2M, 0);
	ASSERT_NE(0, h);
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(0, vmap_(fd, r + i * SZ_2M, SZ_2M, i * SZ_2M, h));
	}
	ASSERT_EQ(0, vmap_(fd, r + 5 * SZ_2M, SZ_2M, 0, h));
	EXPECT_EQ(objs0 + 1, param(fd2, DRM_VNPU_PARAM_BO_COUNT));
	close(fd);
	EXPECT_EQ(objs0, param(fd2, DRM_VNPU_PARAM_BO_COUNT));
	EXPECT_EQ(used0, param(fd2, DRM_VNPU_PARAM_MEM_USED));
	/* Another file's reservation addresses mean nothing here. */
	EXPECT_EQ(-ENOENT, release(fd2, r));
	close(fd2);
}

/*
 * A job queued before an unmap: its COPY out of the mapping runs after
 * the unmap (and after the object's last handle is gone), so it faults
 * and never reaches the freed pages.
 */
TEST(unmap_under_queued_job)
{
	struct drm_vnpu_task t[2] = { 0 };
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s = { 0 };
	struct drm_syncobj_timeline_wait w = { 0 };
	uint64_t r, flag, dst, one = 1, objs0;
	uint32_t q, sync, h;
	int fd = open_node(), ret;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	objs0 = param(fd, DRM_VNPU_PARAM_BO_COUNT);
	ASSERT_EQ(0, reserve(fd, 2 * SZ_2M, 0, &r));
	h = phys(fd, 2 * SZ_2M, 0);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, vmap_(fd, r, 2 * SZ_2M, 0, h));
	flag = dev_bo(fd, PG);
	dst = dev_bo(fd, SZ_2M);
	ASSERT_NE(0, flag);
	ASSERT_NE(0, dst);
	t[0] = t_wait(flag, 1, DRM_VNPU_WAIT_EQ, 10ULL * 1000000000ULL);
	t[1] = t_copy(r + SZ_1M, dst, SZ_2M);
	s.queue_id = q;
	s.tasks = (uintptr_t)t;
	s.task_count = 2;
	s.task_stride = sizeof(t[0]);
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	ASSERT_EQ(0, vunmap_(fd, r, 2 * SZ_2M));
	ASSERT_EQ(0, gem_close(fd, h));
	ASSERT_EQ(0, release(fd, r));
	ASSERT_EQ(0, h2d(fd, flag, &one, 8));
	w.handles = (uintptr_t)&sync;
	w.points = (uintptr_t)&s.seq;
	w.count_handles = 1;
	w.timeout_nsec = INT64_MAX;
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w));
	ret = job_status(fd, q, s.seq, &st);
	ASSERT_EQ(0, ret);
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(1, st.task);
	EXPECT_EQ(r + SZ_1M, st.fault_va);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	/* The physical object is gone; the two ordinary ones remain. */
	EXPECT_EQ(objs0 + 2, param(fd, DRM_VNPU_PARAM_BO_COUNT));
	close(fd);
}

/*
 * One object mapped over and over: an access across the mappings may be
 * as long as device memory, not longer.
 */
TEST(window_length_bound)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_FILL };
	struct drm_vnpu_queue_destroy qr = { 0 };
	struct drm_vnpu_job_status st;
	uint64_t r, total, n, i;
	uint32_t q, sync, h;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	total = param(fd, DRM_VNPU_PARAM_MEM_TOTAL);
	n = total / SZ_2M + 2;
	ASSERT_EQ(0, reserve(fd, n * SZ_2M, 0, &r));
	h = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, h);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, vmap_(fd, r + i * SZ_2M, SZ_2M, 0, h));
	}
	t.fill.dst = r;
	t.fill.size = total + PG;
	t.fill.pattern = 0x5a;
	t.fill.pattern_size = 1;
	ASSERT_EQ(DRM_VNPU_JOB_FAULT, run(fd, q, sync, &t, 1, NULL, 0, &st));
	EXPECT_EQ(DRM_VNPU_FAULT_BOUNDS, st.fault_reason);
	EXPECT_EQ(r, st.fault_va);
	/* The fault put the queue in its error state. */
	ASSERT_EQ(-EBADFD, run(fd, q, sync, &t, 1, NULL, 0, &st));
	qr.queue_id = q;
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qr));
	/* Three mappings of the same pages: fine, and the bytes alias. */
	t.fill.dst = r + SZ_2M - 8;
	t.fill.size = 2 * SZ_2M;
	ASSERT_EQ(DRM_VNPU_JOB_OK, run(fd, q, sync, &t, 1, NULL, 0, &st));
	ASSERT_EQ(0, d2h(fd, &i, r + 5 * SZ_2M + 64, 8));
	EXPECT_EQ(0x5a5a5a5a5a5a5a5aULL, i);
	close(fd);
}

TEST(bo_create_no_va_rules)
{
	struct drm_vnpu_bo_create c = { .size = SZ_2M, .flags = DRM_VNPU_BO_NO_VA,
					.placement = DRM_VNPU_PLACEMENT_HOST };
	int fd = open_node();

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c));
	c.placement = DRM_VNPU_PLACEMENT_DEVICE;
	c.size = SZ_2M + 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c));
	c.size = SZ_2M;
	EXPECT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c));
	EXPECT_EQ(0, c.va);
	close(fd);
}

TEST(reserve_rules)
{
	struct drm_vnpu_vm_reserve r = { .size = SZ_2M };
	uint64_t va;
	int fd = open_node(), i;

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, reserve(fd, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, reserve(fd, PG + 1, 0, NULL));
	EXPECT_EQ(-EINVAL, reserve(fd, DRM_VNPU_VM_MAX_RESERVE_SIZE + PG, 0, NULL));
	EXPECT_EQ(-EINVAL, reserve(fd, -PG, 0, NULL));
	EXPECT_EQ(-EINVAL, reserve(fd, SZ_2M, 3 * PG, NULL));
	EXPECT_EQ(-EINVAL, reserve(fd, SZ_2M, PG / 2, NULL));
	EXPECT_EQ(-EINVAL, reserve(fd, SZ_2M, DRM_VNPU_VM_MAX_RESERVE_SIZE * 2, NULL));
	r.va = DRM_VNPU_VA_RESERVE_START;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &r));
	r.va = 0;
	r.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &r));
	r.flags = 0;
	r.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &r));
	/* The largest reservation works. */
	ASSERT_EQ(0, reserve(fd, DRM_VNPU_VM_MAX_RESERVE_SIZE, 0, &va));
	EXPECT_EQ(0, release(fd, va));
	/* Count limit per file. */
	for (i = 0; i < DRM_VNPU_VM_MAX_RESERVES; i++) {
		ASSERT_EQ(0, reserve(fd, PG, 0, &va));
	}
	EXPECT_EQ(-ENOSPC, reserve(fd, PG, 0, NULL));
	EXPECT_EQ(0, release(fd, va));
	EXPECT_EQ(0, reserve(fd, PG, 0, NULL));
	close(fd);
}

TEST(release_rules)
{
	struct drm_vnpu_vm_release rel = { 0 };
	uint64_t r;
	uint32_t h;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, 2 * SZ_2M, 0, &r));
	h = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, h);
	EXPECT_EQ(-ENOENT, release(fd, r + PG));
	EXPECT_EQ(-ENOENT, release(fd, 0));
	EXPECT_EQ(-ENOENT, release(fd, ~0ULL));
	rel.va = r;
	rel.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_RELEASE, &rel));
	rel.flags = 0;
	rel.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_RELEASE, &rel));
	ASSERT_EQ(0, vmap_(fd, r + SZ_2M, SZ_2M, 0, h));
	EXPECT_EQ(-EBUSY, release(fd, r));
	/* Still there and usable. */
	EXPECT_EQ(0, h2d(fd, r + SZ_2M, &h, 4));
	ASSERT_EQ(0, vunmap_(fd, r + SZ_2M, SZ_2M));
	EXPECT_EQ(0, release(fd, r));
	EXPECT_EQ(-ENOENT, release(fd, r));
	EXPECT_EQ(-EINVAL, vmap_(fd, r, SZ_2M, 0, h));
	close(fd);
}

TEST(map_rules)
{
	struct drm_vnpu_vm_map m;
	struct drm_vnpu_bo_create c = { .size = SZ_2M };
	uint64_t r, r2;
	uint32_t h;
	int fd = open_node(), fd2;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, 4 * SZ_2M, 0, &r));
	ASSERT_EQ(0, reserve(fd, 4 * SZ_2M, 0, &r2));
	h = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c));

	m = (struct drm_vnpu_vm_map){ .va = r, .size = SZ_2M, .handle = h,
				      .flags = 1 };
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_MAP, &m));
	EXPECT_EQ(-EINVAL, vmap_(fd, r, 0, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r + 1, PG, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r, PG + 1, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r, PG, 1, h));
	/* Sums that wrap. */
	EXPECT_EQ(-EINVAL, vmap_(fd, -PG, 2 * PG, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r, PG, -PG, h));
	/* Past the object's end. */
	EXPECT_EQ(-EINVAL, vmap_(fd, r, 2 * SZ_2M, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r, PG, SZ_2M, h));
	/* Not a physical allocation; no such handle. */
	EXPECT_EQ(-EINVAL, vmap_(fd, r, PG, 0, c.handle));
	EXPECT_EQ(-ENOENT, vmap_(fd, r, PG, 0, 0));
	EXPECT_EQ(-ENOENT, vmap_(fd, r, PG, 0, 0x7fffffff));
	/* Outside every reservation: below, in the guard, across the end. */
	EXPECT_EQ(-EINVAL, vmap_(fd, r - PG, PG, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, DRM_VNPU_VA_DEVICE_START, PG, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r + 4 * SZ_2M, PG, 0, h));
	EXPECT_EQ(-EINVAL, vmap_(fd, r + 4 * SZ_2M - PG, 2 * PG, 0, h));
	/* Overlaps: exact, partial at either end, inside. */
	ASSERT_EQ(0, vmap_(fd, r + SZ_2M, SZ_2M, 0, h));
	EXPECT_EQ(-EBUSY, vmap_(fd, r + SZ_2M, SZ_2M, 0, h));
	EXPECT_EQ(-EBUSY, vmap_(fd, r + SZ_2M - PG, 2 * PG, 0, h));
	EXPECT_EQ(-EBUSY, vmap_(fd, r + 2 * SZ_2M - PG, 2 * PG, 0, h));
	EXPECT_EQ(-EBUSY, vmap_(fd, r + SZ_2M + PG, PG, 0, h));
	/* Neighbours on both sides are fine. */
	EXPECT_EQ(0, vmap_(fd, r + SZ_2M - PG, PG, 0, h));
	EXPECT_EQ(0, vmap_(fd, r + 2 * SZ_2M, PG, 0, h));
	/* Another file's handle space. */
	fd2 = open_node();
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(-ENOENT, vmap_(fd2, r, PG, 0, h));
	/* ... and its own object at this file's reservation. */
	h = phys(fd2, PG, 0);
	ASSERT_NE(0, h);
	EXPECT_EQ(-EINVAL, vmap_(fd2, r, PG, 0, h));
	close(fd2);
	close(fd);
}

TEST(map_count_limit)
{
	uint8_t buf[3 * 4096];
	uint64_t r, i;
	uint32_t h;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, (DRM_VNPU_VM_MAX_MAPS + 1) * PG, 0, &r));
	h = phys(fd, PG, 0);
	ASSERT_NE(0, h);
	for (i = 0; i < DRM_VNPU_VM_MAX_MAPS; i++) {
		ASSERT_EQ(0, vmap_(fd, r + i * PG, PG, 0, h));
	}
	EXPECT_EQ(-ENOSPC, vmap_(fd, r + i * PG, PG, 0, h));
	ASSERT_EQ(0, vunmap_(fd, r, PG));
	EXPECT_EQ(0, vmap_(fd, r + i * PG, PG, 0, h));
	/* An access over many mappings of one page still works. */
	memset(buf, 0x11, sizeof(buf));
	EXPECT_EQ(0, h2d(fd, r + 10 * PG + 100, buf, sizeof(buf)));
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(0, d2h(fd, buf, r + PG + 100, PG));
	EXPECT_EQ(-ENXIO, d2h(fd, buf, r, PG));
	EXPECT_EQ(0x11, buf[0]);
	EXPECT_EQ(0x11, buf[PG - 1]);
	close(fd);
}

TEST(unmap_rules)
{
	struct drm_vnpu_vm_unmap u;
	uint64_t r;
	uint32_t h;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, reserve(fd, 4 * SZ_2M, 0, &r));
	h = phys(fd, SZ_2M, 0);
	ASSERT_NE(0, h);
	ASSERT_EQ(0, vmap_(fd, r + SZ_2M, SZ_2M, 0, h));
	EXPECT_EQ(-ENOENT, vunmap_(fd, r, SZ_2M));
	EXPECT_EQ(-ENOENT, vunmap_(fd, r + SZ_2M + PG, SZ_2M - PG));
	EXPECT_EQ(-ENOENT, vunmap_(fd, 0, SZ_2M));
	EXPECT_EQ(-EINVAL, vunmap_(fd, r + SZ_2M, PG));
	EXPECT_EQ(-EINVAL, vunmap_(fd, r + SZ_2M, 2 * SZ_2M));
	u = (struct drm_vnpu_vm_unmap){ .va = r + SZ_2M, .size = SZ_2M, .flags = 1 };
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_UNMAP, &u));
	u.flags = 0;
	u.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_VM_UNMAP, &u));
	/* Every failure left the mapping in place. */
	EXPECT_EQ(0, h2d(fd, r + SZ_2M, &h, 4));
	EXPECT_EQ(0, vunmap_(fd, r + SZ_2M, SZ_2M));
	EXPECT_EQ(-ENOENT, vunmap_(fd, r + SZ_2M, SZ_2M));
	close(fd);
}

TEST_HARNESS_MAIN
