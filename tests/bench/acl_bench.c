// SPDX-License-Identifier: MIT
/*
 * ACL runtime costs against what they stand on:
 *   - aclrtMalloc + aclrtFree (cached) vs one BO_CREATE + GEM_CLOSE pair
 *     (goal, issue 16: >= 50x cheaper);
 *   - aclrtMemcpy H2D and D2H of 64 MiB (pageable host memory) vs the
 *     guest's memcpy (goal: ratio >= 0.7);
 *   - enqueue + synchronize of a tiny memset vs a null syscall;
 *   - host cost per op of enqueuing 10 000 tiny aclnnAdd calls on one
 *     stream (one synchronize at the end) vs a null syscall.
 * usage: acl_bench OUT.json
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "bench_json.h"
#include <drm/vnpu_accel.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#define CHECK(x) do { if ((x) != ACL_SUCCESS) { \
	fprintf(stderr, "%s failed\n", #x); exit(1); } } while (0)

static double null_syscall_ns(void)
{
	const int n = 200000;
	double t = now_ns();

	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (now_ns() - t) / n;
}

static double bo_pair_ns(void)
{
	const int n = 2000;
	int fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	double t;

	if (fd < 0) {
		perror("open accel0");
		exit(1);
	}
	t = now_ns();
	for (int i = 0; i < n; i++) {
		struct drm_vnpu_bo_create c = { .size = 4096 };
		struct drm_gem_close g = { 0 };

		if (ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c)) {
			perror("BO_CREATE");
			exit(1);
		}
		g.handle = c.handle;
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &g);
	}
	t = (now_ns() - t) / n;
	close(fd);
	return t;
}

static double acl_pair_ns(void)
{
	const int n = 200000;
	void *p;
	double t;

	CHECK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));	/* warm up */
	CHECK(aclrtFree(p));
	t = now_ns();
	for (int i = 0; i < n; i++) {
		CHECK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
		CHECK(aclrtFree(p));
	}
	return (now_ns() - t) / n;
}

/* GB/s of f over 64 MiB, best of a few runs. */
#define BIG (64u << 20)

static double gbps(double ns)
{
	return BIG / ns;
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : "acl_bench.json";
	double sys, bo, acl, t, best, mc;
	char *h1, *h2;
	void *dev;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));

	sys = null_syscall_ns();
	bo = bo_pair_ns();
	acl = acl_pair_ns();
	bench_report("acl_malloc_free_pair", acl, "ns", bo);
	bench_report("acl_malloc_free_speedup_vs_bo_ioctls", bo / acl, "x", 50);

	h1 = malloc(BIG);
	h2 = malloc(BIG);
	memset(h1, 1, BIG);
	memset(h2, 2, BIG);
	CHECK(aclrtMalloc(&dev, BIG, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemcpy(dev, BIG, h1, BIG, ACL_MEMCPY_HOST_TO_DEVICE));
	best = 1e18;
	for (int i = 0; i < 5; i++) {
		t = now_ns();
		memcpy(h2, h1, BIG);
		t = now_ns() - t;
		best = t < best ? t : best;
	}
	mc = gbps(best);
	best = 1e18;
	for (int i = 0; i < 5; i++) {
		t = now_ns();
		CHECK(aclrtMemcpy(dev, BIG, h1, BIG, ACL_MEMCPY_HOST_TO_DEVICE));
		t = now_ns() - t;
		best = t < best ? t : best;
	}
	bench_report("acl_memcpy_h2d_64MiB", gbps(best), "GB/s", mc);
	best = 1e18;
	for (int i = 0; i < 5; i++) {
		t = now_ns();
		CHECK(aclrtMemcpy(h2, BIG, dev, BIG, ACL_MEMCPY_DEVICE_TO_HOST));
		t = now_ns() - t;
		best = t < best ? t : best;
	}
	bench_report("acl_memcpy_d2h_64MiB", gbps(best), "GB/s", mc);
	if (h2[BIG - 1] != 1)
		fprintf(stderr, "D2H copy returned wrong data\n");

	{
		const int n = 2000;
		aclrtStream s;

		CHECK(aclrtCreateStream(&s));
		CHECK(aclrtMemsetAsync(dev, 64, 0, 64, s));
		CHECK(aclrtSynchronizeStream(s));
		t = now_ns();
		for (int i = 0; i < n; i++) {
			CHECK(aclrtMemsetAsync(dev, 64, i, 64, s));
			CHECK(aclrtSynchronizeStream(s));
		}
		t = (now_ns() - t) / n;
		bench_report("acl_memset_sync_round_trip", t, "ns", sys);
		CHECK(aclrtDestroyStream(s));
	}
	{
		/* Phase 1 and phase 2 of a 16-element add, 10 000 times. */
		const int n = 10000;
		int64_t shape[1] = { 16 };
		float one = 1.0f;
		aclTensor *a = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0,
					       ACL_FORMAT_ND, shape, 1, dev);
		aclTensor *o = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0,
					       ACL_FORMAT_ND, shape, 1,
					       (char *)dev + 4096);
		aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
		aclOpExecutor *ex;
		uint64_t ws;
		aclrtStream s;

		CHECK(aclrtCreateStream(&s));
		t = now_ns();
		for (int i = 0; i < n; i++) {
			CHECK(aclnnAddGetWorkspaceSize(a, a, alpha, o, &ws, &ex));
			CHECK(aclnnAdd(NULL, 0, ex, s));
		}
		t = (now_ns() - t) / n;
		CHECK(aclrtSynchronizeStream(s));
		bench_report("aclnn_add_enqueue_per_op", t, "ns", sys);
		CHECK(aclrtDestroyStream(s));
		aclDestroyScalar(alpha);
		aclDestroyTensor(a);
		aclDestroyTensor(o);
	}
	CHECK(aclrtFree(dev));
	free(h1);
	free(h2);
	CHECK(aclrtResetDevice(0));
	aclFinalize();
	return bench_write_json(out) ? 1 : 0;
}
