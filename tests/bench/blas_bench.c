// SPDX-License-Identifier: MIT
/*
 * aclblasGemmEx (fp32, alpha 1, beta 0, packed) against OpenBLAS's
 * cblas_sgemm on one guest thread, same sizes, in one run: the device
 * GEMM plus cblas's elementwise tail (alpha, beta, the beta = 0 select)
 * and the stream sync, against the library call. The figure is MFLOP/s
 * (2 n^3 per call), the median of the rounds; the result is checked
 * against cblas_sgemm's. A second figure sets the same call against
 * aclnnMm of the same matrices (one MATMUL task): what cblas's device
 * alpha/beta tail and its workspace cost on top of the GEMM.
 *
 * usage: blas_bench [RESULTS.json]   (runs in the VM)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cblas.h>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_mm.h"
#include "bench_json.h"

#define ROUNDS 5

#define CHECK(x) do { if ((x) != ACL_SUCCESS) { \
	fprintf(stderr, "%s failed: %s\n", #x, aclGetRecentErrMsg()); \
	exit(1); } } while (0)

void openblas_set_num_threads(int n);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void run(int n, aclrtStream s)
{
	size_t bytes = (size_t)n * n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes),
	      *r = malloc(bytes), one = 1, zero = 0;
	double t_ours[ROUNDS], t_base[ROUNDS], t_nn[ROUNDS], flop = 2.0 * n * n * n, t;
	void *da, *db, *dc, *dal, *dbe, *dn;
	int64_t shape[2] = { n, n }, strides[2] = { n, 1 };
	aclTensor *ta, *tb, *tn;
	char name[96];

	for (int i = 0; i < n * n; i++) {
		a[i] = (float)((i * 7) % 13 - 6) / 8;
		b[i] = (float)((i * 5) % 11 - 5) / 8;
	}
	CHECK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dal, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dbe, 4, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dn, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	ta = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, da);
	tb = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, db);
	tn = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dn);
	CHECK(aclrtMemcpy(da, bytes, a, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemcpy(db, bytes, b, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemcpy(dal, 4, &one, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemcpy(dbe, 4, &zero, 4, ACL_MEMCPY_HOST_TO_DEVICE));
	for (int k = -1; k < ROUNDS; k++) {	/* round -1 warms up */
		t = now();
		CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, n, n, n,
				    dal, da, -1, ACL_FLOAT, db, -1, ACL_FLOAT, dbe,
				    dc, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, s));
		CHECK(aclrtSynchronizeStream(s));
		if (k >= 0)
			t_ours[k] = now() - t;
		t = now();
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1,
			    a, n, b, n, 0, r, n);
		if (k >= 0)
			t_base[k] = now() - t;
		t = now();
		{
			uint64_t ws = 0;
			aclOpExecutor *ex;

			CHECK(aclnnMmGetWorkspaceSize(ta, tb, tn, 0, &ws, &ex));
			CHECK(aclnnMm(NULL, ws, ex, s));
			CHECK(aclrtSynchronizeStream(s));
		}
		if (k >= 0)
			t_nn[k] = now() - t;
	}
	CHECK(aclrtMemcpy(c, bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < n * n; i++)
		if (fabsf(c[i] - r[i]) > 1e-3f * (fabsf(r[i]) + 1)) {
			fprintf(stderr, "n %d: C[%d] = %g, sgemm %g\n", n, i, c[i], r[i]);
			exit(1);
		}
	qsort(t_ours, ROUNDS, sizeof(double), cmp);
	qsort(t_base, ROUNDS, sizeof(double), cmp);
	qsort(t_nn, ROUNDS, sizeof(double), cmp);
	snprintf(name, sizeof(name), "blas_sgemm_n%d_vs_openblas", n);
	bench_report(name, flop / t_ours[ROUNDS / 2] * 1e-6, "MFLOP/s",
		     flop / t_base[ROUNDS / 2] * 1e-6);
	snprintf(name, sizeof(name), "blas_sgemm_n%d_vs_aclnn_mm", n);
	bench_report(name, flop / t_ours[ROUNDS / 2] * 1e-6, "MFLOP/s",
		     flop / t_nn[ROUNDS / 2] * 1e-6);
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(tn);
	aclrtFree(dn);
	aclrtFree(da);
	aclrtFree(db);
	aclrtFree(dc);
	aclrtFree(dal);
	aclrtFree(dbe);
	free(a);
	free(b);
	free(c);
	free(r);
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : NULL;
	aclrtStream s;

	openblas_set_num_threads(1);
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	run(128, s);
	run(256, s);
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	if (out && bench_write_json(out)) {
		perror(out);
		return 1;
	}
	return 0;
}
