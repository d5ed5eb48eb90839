// SPDX-License-Identifier: MIT
/*
 * Device-to-device copies and fills through ACL against the guest's own
 * memcpy and memset of the same size, side by side in one run:
 *   - aclrtMemcpyAsync DEVICE_TO_DEVICE + aclrtSynchronizeStream (a COPY
 *     task on an engine) and aclrtMemcpy DEVICE_TO_DEVICE (the MEMCPY
 *     ioctl), against memcpy between two host buffers;
 *   - aclrtMemsetAsync + aclrtSynchronizeStream (a FILL task) and
 *     aclrtMemset, against memset of a host buffer;
 * at 4 MiB and 64 MiB (goal of issue 16: ratio >= 0.7). Every buffer is
 * touched first, so the figures are of copies, not of first-touch page
 * allocation. The methods take turns within each round; the figure is the
 * median of the rounds. The data is checked after every method.
 *
 * usage: d2d_bench [RESULTS.json]   (runs in the VM)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "bench_json.h"

#define ROUNDS 5
/* Bytes moved per method and round, so 4 MiB copies repeat enough. */
#define ROUND_BYTES (128u << 20)

#define CHECK(x) do { if ((x) != ACL_SUCCESS) { \
	fprintf(stderr, "%s failed: %s\n", #x, aclGetRecentErrMsg()); \
	exit(1); } } while (0)

enum method { HOST_MEMCPY, D2D_ASYNC, D2D_SYNC, HOST_MEMSET, FILL_ASYNC,
	      FILL_SYNC, METHODS };

static const char *const method_name[METHODS] = {
	"memcpy", "d2d_copy_async", "d2d_copy_sync",
	"memset", "d2d_fill_async", "d2d_fill_sync",
};

struct bufs {
	size_t size;
	uint8_t *h1, *h2;	/* host buffers, the baseline's */
	void *d1, *d2;		/* device buffers */
	aclrtStream s;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run_once(struct bufs *b, enum method m, int v)
{
	switch (m) {
	case HOST_MEMCPY:
		memcpy(b->h2, b->h1, b->size);
		break;
	case D2D_ASYNC:
		CHECK(aclrtMemcpyAsync(b->d2, b->size, b->d1, b->size,
				       ACL_MEMCPY_DEVICE_TO_DEVICE, b->s));
		CHECK(aclrtSynchronizeStream(b->s));
		break;
	case D2D_SYNC:
		CHECK(aclrtMemcpy(b->d2, b->size, b->d1, b->size,
				  ACL_MEMCPY_DEVICE_TO_DEVICE));
		break;
	case HOST_MEMSET:
		memset(b->h2, v, b->size);
		break;
	case FILL_ASYNC:
		CHECK(aclrtMemsetAsync(b->d2, b->size, v, b->size, b->s));
		CHECK(aclrtSynchronizeStream(b->s));
		break;
	case FILL_SYNC:
		CHECK(aclrtMemset(b->d2, b->size, v, b->size));
		break;
	default:
		break;
	}
}

/* The device destination holds what the last method wrote there. */
static void check_dst(struct bufs *b, enum method m, int v)
{
	uint8_t *back = b->h2;
	size_t i, bad = 0;

	if (m == HOST_MEMCPY || m == HOST_MEMSET)
		return;
	CHECK(aclrtMemcpy(back, b->size, b->d2, b->size,
			  ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < b->size; i++)
		bad += back[i] != (m == D2D_ASYNC || m == D2D_SYNC ?
				   b->h1[i] : (uint8_t)v);
	if (bad) {
		fprintf(stderr, "%s of %zu bytes: %zu bytes wrong\n",
			method_name[m], b->size, bad);
		exit(1);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median MiB/s of every method over ROUNDS interleaved rounds. */
static void measure(struct bufs *b, double *median)
{
	size_t reps = ROUND_BYTES / b->size ? ROUND_BYTES / b->size : 1;
	double bw[METHODS][ROUNDS];
	int r, m;

	for (m = 0; m < METHODS; m++) {
		run_once(b, m, 0x3c);	/* warm up */
		check_dst(b, m, 0x3c);
	}
	for (r = 0; r < ROUNDS; r++) {
		for (m = 0; m < METHODS; m++) {
			double t0 = now();
			size_t i;

			for (i = 0; i < reps; i++)
				run_once(b, m, (int)(r * 16 + i) & 0xff);
			bw[m][r] = (double)b->size * reps / (now() - t0) /
				   (1 << 20);
		}
	}
	for (m = 0; m < METHODS; m++) {
		qsort(bw[m], ROUNDS, sizeof(double), cmp_double);
		median[m] = bw[m][ROUNDS / 2];
	}
	/* The last writes: check them once more. */
	run_once(b, D2D_ASYNC, 0);
	check_dst(b, D2D_ASYNC, 0);
	run_once(b, FILL_SYNC, 0xa7);
	check_dst(b, FILL_SYNC, 0xa7);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 4u << 20, 64u << 20 };
	static const char *const label[] = { "4MiB", "64MiB" };
	const char *out = argc > 1 ? argv[1] : NULL;
	char name[96];

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct bufs b = { .size = sizes[i] };
		double med[METHODS];

		b.h1 = aligned_alloc(4096, b.size);
		b.h2 = aligned_alloc(4096, b.size);
		if (!b.h1 || !b.h2)
			return 1;
		for (size_t k = 0; k < b.size; k++)
			b.h1[k] = (uint8_t)(k * 131 + (k >> 12));
		memset(b.h2, 0, b.size);
		CHECK(aclrtCreateStream(&b.s));
		CHECK(aclrtMalloc(&b.d1, b.size, ACL_MEM_MALLOC_HUGE_FIRST));
		CHECK(aclrtMalloc(&b.d2, b.size, ACL_MEM_MALLOC_HUGE_FIRST));
		CHECK(aclrtMemcpy(b.d1, b.size, b.h1, b.size,
				  ACL_MEMCPY_HOST_TO_DEVICE));
		CHECK(aclrtMemset(b.d2, b.size, 0, b.size));
		measure(&b, med);
		for (int m = D2D_ASYNC; m <= D2D_SYNC; m++) {
			snprintf(name, sizeof(name), "%s_%s", method_name[m],
				 label[i]);
			bench_report(name, med[m], "MiB/s", med[HOST_MEMCPY]);
		}
		for (int m = FILL_ASYNC; m <= FILL_SYNC; m++) {
			snprintf(name, sizeof(name), "%s_%s", method_name[m],
				 label[i]);
			bench_report(name, med[m], "MiB/s", med[HOST_MEMSET]);
		}
		CHECK(aclrtFree(b.d1));
		CHECK(aclrtFree(b.d2));
		CHECK(aclrtDestroyStream(b.s));
		free(b.h1);
		free(b.h2);
	}
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	if (out && bench_write_json(out)) {
		perror(out);
		return 1;
	}
	return 0;
}
