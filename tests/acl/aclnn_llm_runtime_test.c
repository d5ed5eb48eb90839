// SPDX-License-Identifier: MIT
/*
 * What ggml's CANN backend needs of the runtime around the operators
 * (issue 36): CANN's in-place calls of non-elementwise operators (out ==
 * self), which the library routes through the workspace because the
 * driver refuses a task whose output overlaps its input; and
 * ASCEND_LAUNCH_BLOCKING=1, which makes a task that fails on the device
 * fail the launch that queued it. Runs in the VM.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_grouped_matmul_v3.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
/* GCC inlines test bodies into the harness's wrapper and then warns
 * about the harness's own vfork variable; nothing of ours lives across it. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "aclnn_test_util.h"

#define R 6
#define C 40

static void rms_ref(const float *x, const float *g, float *y, double eps)
{
	for (int r = 0; r < R; r++) {
		double ss = 0;

		for (int c = 0; c < C; c++)
			ss += (double)x[r * C + c] * x[r * C + c];
		for (int c = 0; c < C; c++)
			y[r * C + c] = (float)(x[r * C + c] / sqrt(ss / C + eps) * g[c]);
	}
}

/* yOut is x itself, with and without an rstdOut: values as out of place. */
TEST_F(nn, rms_norm_in_place)
{
	float x[R * C], g[C], want[R * C], got[R * C], rstd[R];
	int64_t xd[2] = { R, C }, gd[1] = { C }, rd[2] = { R, 1 };
	aclOpExecutor *ex;
	uint64_t ws;
	void *xb, *rb;
	int i, with;

	for (i = 0; i < C; i++)
		g[i] = 0.5f + 0.01f * (float)i;
	for (with = 0; with < 2; with++) {
		aclTensor *tx, *tg, *tr = NULL;

		for (i = 0; i < R * C; i++)
			x[i] = frand(i + with);
		rms_ref(x, g, want, 1e-5);
		xb = dev(self, x, sizeof(x));
		rb = dev(self, NULL, sizeof(rstd));
		tx = tens(xd, 2, ACL_FLOAT, xb);
		tg = tens(gd, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
		if (with)
			tr = tens(rd, 2, ACL_FLOAT, rb);
		ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-5, tx, tr, &ws, &ex));
		EXPECT_GT(ws, 0) TH_LOG("an in-place call needs a workspace to bounce through");
		ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
		get(got, xb, sizeof(got));
		for (i = 0; i < R * C; i++)
			ASSERT_TRUE(CLOSE(got[i], want[i])) TH_LOG("%d: %g want %g", i, got[i], want[i]);
		if (with) {
			get(rstd, rb, sizeof(rstd));
			for (int r = 0; r < R; r++) {
				double ss = 0;

				for (int c = 0; c < C; c++)
					ss += (double)x[r * C + c] * x[r * C + c];
				EXPECT_TRUE(CLOSE(rstd[r], (float)(1.0 / sqrt(ss / C + 1e-5))));
			}
		}
		aclDestroyTensor(tx);
		aclDestroyTensor(tg);
		if (tr)
			aclDestroyTensor(tr);
	}
}

/* Softmax into its own input, over a strided (padded-row) view. */
TEST_F(nn, softmax_in_place_view)
{
	enum { P = C + 8 };
	float x[R * P], got[R * P];
	int64_t d[2] = { R, C }, st[2] = { P, 1 };
	aclOpExecutor *ex;
	aclTensor *t;
	uint64_t ws;
	void *b;
	int i;

	for (i = 0; i < R * P; i++)
		x[i] = i % P >= C ? 99.0f : frand(i);
	b = dev(self, x, sizeof(x));
	t = aclCreateTensor(d, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, (int64_t[]){ R * P }, 1, b);
	ASSERT_EQ(0, aclnnSoftmaxGetWorkspaceSize(t, -1, t, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSoftmax, ws, ex));
	get(got, b, sizeof(got));
	for (int r = 0; r < R; r++) {
		double m = -INFINITY, s = 0;

		for (int c = 0; c < C; c++)
			m = fmax(m, x[r * P + c]);
		for (int c = 0; c < C; c++)
			s += exp(x[r * P + c] - m);
		for (int c = 0; c < C; c++)
			ASSERT_TRUE(CLOSE(got[r * P + c], (float)(exp(x[r * P + c] - m) / s)));
		for (int c = C; c < P; c++)	/* the padding is not touched */
			ASSERT_EQ(99.0f, got[r * P + c]);
	}
	aclDestroyTensor(t);
}

/*
 * ggml's cross-entropy loss sums a [n] tensor over dim 0 without keepdim
 * into a [1] tensor: a single value may land in any one-element out.
 */
TEST_F(nn, reduce_sum_into_one_element_out)
{
	float v[7] = { 1, 2, 3, 4, 5, 6, 7.5f }, got = 0;
	int64_t d[1] = { 7 }, od[1] = { 1 }, od2[1] = { 2 }, dim0[1] = { 0 };
	aclTensor *t = tens(d, 1, ACL_FLOAT, dev(self, v, sizeof(v)));
	void *ob = dev(self, NULL, 2 * sizeof(float));
	aclTensor *o = tens(od, 1, ACL_FLOAT, ob), *o2 = tens(od2, 1, ACL_FLOAT, ob);
	aclIntArray *dims = ia(dim0, 1);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnReduceSumGetWorkspaceSize(t, dims, false, ACL_FLOAT, o, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnReduceSum, ws, ex));
	get(&got, ob, sizeof(got));
	EXPECT_TRUE(CLOSE(got, 28.5f)) TH_LOG("%g", got);
	/* two elements are not one value: still refused */
	EXPECT_EQ(INV, aclnnReduceSumGetWorkspaceSize(t, dims, false, ACL_FLOAT, o2, &ws, &ex));
	aclDestroyIntArray(dims);
	aclDestroyTensor(t);
	aclDestroyTensor(o);
	aclDestroyTensor(o2);
}

/*
 * A grouped matmul whose group list decreases: the list is read on the
 * device, so only the task can refuse it.
 */
static aclnnStatus bad_gmm(FIXTURE_DATA(nn) *self, aclrtStream s)
{
	static const int64_t bad[2] = { 3, 1 };
	float x[4 * 3] = { 0 }, w[2 * 3 * 2] = { 0 };
	int64_t xd[2] = { 4, 3 }, wd[3] = { 2, 3, 2 }, gd[1] = { 2 }, yd[2] = { 4, 2 };
	aclTensor *tx = tens(xd, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *tw = tens(wd, 3, ACL_FLOAT, dev(self, w, sizeof(w)));
	aclTensor *tg = tens(gd, 1, ACL_INT64, dev(self, bad, sizeof(bad)));
	aclTensor *ty = tens(yd, 2, ACL_FLOAT, dev(self, NULL, 4 * 2 * 4));
	aclTensorList *lx = aclCreateTensorList((const aclTensor *const *)&tx, 1);
	aclTensorList *lw = aclCreateTensorList((const aclTensor *const *)&tw, 1);
	aclTensorList *ly = aclCreateTensorList((const aclTensor *const *)&ty, 1);
	aclOpExecutor *ex;
	aclnnStatus st;
	uint64_t ws;

	st = aclnnGroupedMatmulV3GetWorkspaceSize(lx, lw, NULL, NULL, NULL, NULL, NULL, tg,
						  2, 0, ly, &ws, &ex);
	if (st)
		return st;
	return aclnnGroupedMatmulV3(ws ? dev(self, NULL, ws) : NULL, ws, ex, s);
}

/* Without the switch the launch succeeds and the stream's sync reports. */
TEST_F(nn, device_failure_reported_at_sync)
{
	unsetenv("ASCEND_LAUNCH_BLOCKING");
	ASSERT_EQ(0, bad_gmm(self, self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclrtSynchronizeStream(self->s));
}

/* A softmax launched and read back without a sync; 0 when right. */
static int good_softmax(FIXTURE_DATA(nn) *self)
{
	float v[4] = { 1, 2, 3, 4 }, o[4];
	int64_t d[1] = { 4 };
	void *b = dev(self, v, sizeof(v));
	aclTensor *t = tens(d, 1, ACL_FLOAT, b);
	double want = 1.0 / (exp(-3.0) + exp(-2.0) + exp(-1.0) + 1.0);
	aclOpExecutor *ex;
	uint64_t ws;
	int ret;

	ret = aclnnSoftmaxGetWorkspaceSize(t, 0, t, &ws, &ex);
	if (!ret)
		ret = aclnnSoftmax(ws ? dev(self, NULL, ws) : NULL, ws, ex, self->s);
	if (!ret) {
		get(o, b, sizeof(o));
		ret = !CLOSE(o[3], (float)want);
	}
	aclDestroyTensor(t);
	return ret;
}

/* With ASCEND_LAUNCH_BLOCKING=1 the launch itself fails and names the op. */
TEST_F(nn, launch_blocking_reports_at_launch)
{
	const char *msg;

	setenv("ASCEND_LAUNCH_BLOCKING", "1", 1);
	EXPECT_EQ(ACLNN_ERR_RUNTIME_ERROR, bad_gmm(self, self->s));
	msg = aclGetRecentErrMsg();
	ASSERT_NE(NULL, msg);
	EXPECT_NE(NULL, strstr(msg, "aclnnGroupedMatmulV3")) TH_LOG("%s", msg);
	EXPECT_NE(NULL, strstr(msg, "failed on the device")) TH_LOG("%s", msg);
	/* a good launch afterwards works, and has waited when it returns */
	EXPECT_EQ(0, good_softmax(self));
}

TEST_HARNESS_MAIN
