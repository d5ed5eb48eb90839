// SPDX-License-Identifier: MIT
/*
 * C's side of tests/bench/py_aclnn_bench.py: host time per aclnnAdd call
 * (phase 1 + phase 2) on 16 float32 elements, CALLS calls on one stream
 * and one synchronize at the end (not timed: host cost only),
 * descriptors made once. Prints
 * "ns_per_call N" for the Python script, which runs this and its own
 * loop alternately.
 * usage: aclnn_call_bench CALLS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(x) do { if ((x) != ACL_SUCCESS) { \
	fprintf(stderr, "%s failed: %s\n", #x, aclGetRecentErrMsg()); exit(1); } } while (0)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int64_t shape[1] = { 16 };
	int n = argc > 1 ? atoi(argv[1]) : 5000;
	aclTensor *a, *b, *o;
	aclScalar *alpha;
	aclOpExecutor *ex;
	aclrtStream s;
	float one = 1.0f;
	uint64_t ws;
	void *dev;
	double t;

	if (n <= 0)
		n = 5000;
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	CHECK(aclrtMalloc(&dev, 3 * 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemset(dev, 3 * 4096, 0, 3 * 4096));
	a = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dev);
	b = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1,
			    (char *)dev + 4096);
	o = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1,
			    (char *)dev + 8192);
	alpha = aclCreateScalar(&one, ACL_FLOAT);
	if (!a || !b || !o || !alpha)
		return 1;
	/* One call to warm up, as the Python side does. */
	CHECK(aclnnAddGetWorkspaceSize(a, b, alpha, o, &ws, &ex));
	CHECK(aclnnAdd(NULL, 0, ex, s));
	CHECK(aclrtSynchronizeStream(s));
	t = now_ns();
	for (int i = 0; i < n; i++) {
		CHECK(aclnnAddGetWorkspaceSize(a, b, alpha, o, &ws, &ex));
		CHECK(aclnnAdd(NULL, 0, ex, s));
	}
	t = (now_ns() - t) / n;		/* the host's part: before the sync */
	CHECK(aclrtSynchronizeStream(s));
	printf("ns_per_call %.1f\n", t);
	aclDestroyScalar(alpha);
	aclDestroyTensor(a);
	aclDestroyTensor(b);
	aclDestroyTensor(o);
	CHECK(aclrtFree(dev));
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	aclFinalize();
	return 0;
}
