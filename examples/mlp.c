/* SPDX-License-Identifier: MIT */
/*
 * mlp: a two-layer perceptron from aclnn calls on one stream,
 *   h = relu(x W1 + b1);  y = softmax(h W2 + b2, dim 1)
 * (aclnnMatmul, aclnnAdd with a broadcast bias, aclnnRelu, aclnnSoftmax) on
 * random inputs, checked against a host reference.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"

enum { B = 16, IN = 64, HID = 128, OUT = 10 };

static uint32_t seed = 42;
static float rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return (float)(seed >> 8) / 16777216.0f - 0.5f;
}

struct t {
	aclTensor *t;
	void *dev;
	size_t bytes;
};

/* A contiguous FLOAT tensor of rank 1 or 2, filled from host (may be NULL). */
static int mk(struct t *t, int64_t d0, int64_t d1, const float *host)
{
	int64_t dims[2] = { d0, d1 }, strides[2] = { d1, 1 };
	uint64_t rank = d1 ? 2 : 1;

	if (!d1) {
		dims[0] = d0;
		strides[0] = 1;
	}
	t->bytes = (size_t)d0 * (d1 ? d1 : 1) * sizeof(float);
	CHECK(aclrtMalloc(&t->dev, t->bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	if (host)
		CHECK(aclrtMemcpy(t->dev, t->bytes, host, t->bytes,
				  ACL_MEMCPY_HOST_TO_DEVICE));
	t->t = aclCreateTensor(dims, rank, ACL_FLOAT, strides, 0, ACL_FORMAT_ND,
			       dims, rank, t->dev);
	return t->t ? 0 : 1;
}

/* Phase 2 of an aclnn call: a workspace if asked for, then the launch. */
#define RUN(op, ws, ex, s)                                                 \
	do {                                                               \
		void *w_ = NULL;                                           \
		if ((ws) > 0)                                              \
			CHECK(aclrtMalloc(&w_, (ws), ACL_MEM_MALLOC_HUGE_FIRST)); \
		CHECK(op(w_, (ws), (ex), (s)));                            \
		if (w_) {                                                  \
			CHECK(aclrtSynchronizeStream(s));                  \
			CHECK(aclrtFree(w_));                              \
		}                                                          \
	} while (0)

int main(void)
{
	static float x[B * IN], w1[IN * HID], b1[HID], w2[HID * OUT], b2[OUT];
	static float h[B * HID], y[B * OUT], got[B * OUT];
	struct t tx, tw1, tb1, tw2, tb2, th1, th2, th3, tz1, tz2, ty;
	aclOpExecutor *ex;
	uint64_t ws;
	aclrtStream s;
	float one = 1.0f;
	aclScalar *alpha;
	double maxerr = 0;
	int i, j, k, ok;

	for (i = 0; i < B * IN; i++) x[i] = rnd() * 2;
	for (i = 0; i < IN * HID; i++) w1[i] = rnd() * 0.5f;
	for (i = 0; i < HID; i++) b1[i] = rnd() * 0.1f;
	for (i = 0; i < HID * OUT; i++) w2[i] = rnd() * 0.5f;
	for (i = 0; i < OUT; i++) b2[i] = rnd() * 0.1f;

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	alpha = aclCreateScalar(&one, ACL_FLOAT);
	if (!alpha)
		return 1;
	if (mk(&tx, B, IN, x) || mk(&tw1, IN, HID, w1) || mk(&tb1, HID, 0, b1) ||
	    mk(&tw2, HID, OUT, w2) || mk(&tb2, OUT, 0, b2) ||
	    mk(&tz1, B, HID, NULL) || mk(&th1, B, HID, NULL) ||
	    mk(&th2, B, HID, NULL) || mk(&tz2, B, OUT, NULL) ||
	    mk(&th3, B, OUT, NULL) || mk(&ty, B, OUT, NULL))
		return 1;

	/* Layer 1: z1 = x W1; h1 = z1 + b1; h2 = relu(h1) */
	CHECK(aclnnMatmulGetWorkspaceSize(tx.t, tw1.t, tz1.t, 0, &ws, &ex));
	RUN(aclnnMatmul, ws, ex, s);
	CHECK(aclnnAddGetWorkspaceSize(tz1.t, tb1.t, alpha, th1.t, &ws, &ex));
	RUN(aclnnAdd, ws, ex, s);
	CHECK(aclnnReluGetWorkspaceSize(th1.t, th2.t, &ws, &ex));
	RUN(aclnnRelu, ws, ex, s);
	/* Layer 2: z2 = h2 W2; h3 = z2 + b2; y = softmax(h3, 1) */
	CHECK(aclnnMatmulGetWorkspaceSize(th2.t, tw2.t, tz2.t, 0, &ws, &ex));
	RUN(aclnnMatmul, ws, ex, s);
	CHECK(aclnnAddGetWorkspaceSize(tz2.t, tb2.t, alpha, th3.t, &ws, &ex));
	RUN(aclnnAdd, ws, ex, s);
	CHECK(aclnnSoftmaxGetWorkspaceSize(th3.t, 1, ty.t, &ws, &ex));
	RUN(aclnnSoftmax, ws, ex, s);
	CHECK(aclrtSynchronizeStream(s));
	CHECK(aclrtMemcpy(got, sizeof(got), ty.dev, sizeof(got),
			  ACL_MEMCPY_DEVICE_TO_HOST));
	printf("mlp [%d x %d] -> Matmul+Add+Relu [%d] -> Matmul+Add+Softmax [%d]: 6 aclnn ops on one stream\n",
	       B, IN, HID, OUT);

	/* Host reference in double. */
	for (i = 0; i < B; i++)
		for (j = 0; j < HID; j++) {
			double a = 0;
			for (k = 0; k < IN; k++)
				a += (double)x[i * IN + k] * w1[k * HID + j];
			a += b1[j];
			h[i * HID + j] = (float)(a > 0 ? a : 0);
		}
	for (i = 0; i < B; i++) {
		double z[OUT], m = -INFINITY, sum = 0;
		for (j = 0; j < OUT; j++) {
			z[j] = b2[j];
			for (k = 0; k < HID; k++)
				z[j] += (double)h[i * HID + k] * w2[k * OUT + j];
			m = fmax(m, z[j]);
		}
		for (j = 0; j < OUT; j++)
			sum += exp(z[j] - m);
		for (j = 0; j < OUT; j++) {
			y[i * OUT + j] = (float)(exp(z[j] - m) / sum);
			maxerr = fmax(maxerr, fabs(y[i * OUT + j] - got[i * OUT + j]));
		}
	}
	ok = maxerr < 1e-5;
	printf("row 0 probabilities:");
	for (j = 0; j < OUT; j++)
		printf(" %.3f", got[j]);
	printf("\nmax abs error vs host reference: %.3g (%s)\n", maxerr,
	       ok ? "OK" : "FAILED");

	{
		struct t *all[] = { &tx, &tw1, &tb1, &tw2, &tb2, &tz1, &th1,
				    &th2, &tz2, &th3, &ty };
		for (i = 0; i < (int)(sizeof(all) / sizeof(all[0])); i++) {
			aclDestroyTensor(all[i]->t);
			CHECK(aclrtFree(all[i]->dev));
		}
	}
	aclDestroyScalar(alpha);
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	return ok ? 0 : 1;
}
