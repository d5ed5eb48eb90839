// SPDX-License-Identifier: MIT
/*
 * examples/graph: capture a stream into an ACL graph and replay it.
 *
 * The graph copies pinned host memory to the device, adds alpha * other
 * with aclnnAdd and copies the sum back into the same pinned memory, so
 * each replay makes the values grow by alpha. Then the same chain of 100
 * tiny adds is timed eagerly and as a replayed graph.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "common.h"

#define N 8
#define CHAIN 100

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int add(aclTensor *a, aclTensor *b, aclScalar *alpha, aclTensor *out,
	       aclrtStream s)
{
	aclOpExecutor *ex;
	uint64_t ws;

	CHECK(aclnnAddGetWorkspaceSize(a, b, alpha, out, &ws, &ex));
	CHECK(aclnnAdd(NULL, 0, ex, s));
	return 0;
}

/* CPU time per add of CHAIN adds plus one synchronize, eager and replayed. */
static int timings(aclrtStream s, aclTensor *x, aclScalar *alpha)
{
	const int reps = 20;
	double t, eager, graph;
	aclmdlRI ri;

	t = cpu_ns();
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < CHAIN; i++)
			if (add(x, x, alpha, x, s))
				return 1;
		CHECK(aclrtSynchronizeStream(s));
	}
	eager = (cpu_ns() - t) / (reps * CHAIN);

	CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	for (int i = 0; i < CHAIN; i++)
		if (add(x, x, alpha, x, s))
			return 1;
	CHECK(aclmdlRICaptureEnd(s, &ri));
	t = cpu_ns();
	for (int r = 0; r < reps; r++) {
		CHECK(aclmdlRIExecuteAsync(ri, s));
		CHECK(aclrtSynchronizeStream(s));
	}
	graph = (cpu_ns() - t) / (reps * CHAIN);
	CHECK(aclmdlRIDestroy(ri));
	printf("host CPU time per aclnnAdd in a chain of %d: eager %.1f us, graph replay %.1f us (%.0fx cheaper)\n",
	       CHAIN, eager / 1000, graph / 1000, eager / graph);
	return 0;
}

int main(void)
{
	int64_t shape[1] = { N };
	float two = 2.0f, zero = 0.0f, ones[N];
	void *self_d, *other_d, *out_d;
	float *self_h;
	aclTensor *self_t, *other_t, *out_t;
	aclScalar *alpha, *nil;
	aclrtStream s;
	aclmdlRI ri;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	CHECK(aclrtMallocHost((void **)&self_h, sizeof(ones)));
	CHECK(aclrtMalloc(&self_d, sizeof(ones), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&other_d, sizeof(ones), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&out_d, sizeof(ones), ACL_MEM_MALLOC_HUGE_FIRST));
	for (int i = 0; i < N; i++) {
		self_h[i] = (float)i;
		ones[i] = 1.0f;
	}
	CHECK(aclrtMemcpy(other_d, sizeof(ones), ones, sizeof(ones),
			  ACL_MEMCPY_HOST_TO_DEVICE));
	self_t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
				 shape, 1, self_d);
	other_t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
				  shape, 1, other_d);
	out_t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
				shape, 1, out_d);
	alpha = aclCreateScalar(&two, ACL_FLOAT);
	nil = aclCreateScalar(&zero, ACL_FLOAT);

	/* Record: nothing runs until the graph is replayed. */
	CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	CHECK(aclrtMemcpyAsync(self_d, sizeof(ones), self_h, sizeof(ones),
			       ACL_MEMCPY_HOST_TO_DEVICE, s));
	if (add(self_t, other_t, alpha, out_t, s))
		return 1;
	CHECK(aclrtMemcpyAsync(self_h, sizeof(ones), out_d, sizeof(ones),
			       ACL_MEMCPY_DEVICE_TO_HOST, s));
	CHECK(aclmdlRICaptureEnd(s, &ri));
	CHECK(aclmdlRISetName(ri, "h2d-add-d2h"));
	printf("captured graph \"h2d-add-d2h\": H2D copy -> aclnnAdd(alpha = 2) -> D2H copy\n");

	for (int r = 1; r <= 8; r++) {
		CHECK(aclmdlRIExecuteAsync(ri, s));
		CHECK(aclrtSynchronizeStream(s));
		printf("replay %d: self =", r);
		for (int i = 0; i < N; i++)
			printf(" %g", self_h[i]);
		printf("\n");
		for (int i = 0; i < N; i++)
			if (self_h[i] != (float)i + two * (float)r) {
				fprintf(stderr, "replay %d: element %d is %g, want %g\n",
					r, i, self_h[i], (float)i + two * r);
				return 1;
			}
	}
	printf("every replay added alpha = 2, as expected\n");
	CHECK(aclmdlRIDestroy(ri));

	if (timings(s, out_t, nil))
		return 1;

	aclDestroyScalar(alpha);
	aclDestroyScalar(nil);
	aclDestroyTensor(self_t);
	aclDestroyTensor(other_t);
	aclDestroyTensor(out_t);
	CHECK(aclrtFree(self_d));
	CHECK(aclrtFree(other_d));
	CHECK(aclrtFree(out_d));
	CHECK(aclrtFreeHost(self_h));
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	return 0;
}
