// SPDX-License-Identifier: MIT
/*
 * aclnn unary operators (unary family) on the real driver against C
 * references, in place and out of place.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_gelu.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

typedef aclnnStatus (*unary_ws)(const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);

/* aclnnGelu is the tanh form (CANN's aclnnGelu.md formula and golden). */
static float gelu_ref(float x)
{
	return 0.5f * x * (1 + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}
static float sig_ref(float x) { return 1 / (1 + expf(-x)); }
static float silu_ref(float x) { return x * sig_ref(x); }
static float neg_ref(float x) { return -x; }
static float rsqrt_ref(float x) { return 1 / sqrtf(x); }
static float relu_ref(float x) { return x > 0 ? x : 0; }

static aclnnStatus relu_ws(const aclTensor *a, aclTensor *o, uint64_t *w, aclOpExecutor **e)
{
	return aclnnReluGetWorkspaceSize(a, o, w, e);
}

static aclnnStatus relu_run(void *w, uint64_t s, aclOpExecutor *e, aclrtStream st)
{
	return aclnnRelu(w, s, e, st);
}

TEST_F(nn, unary_ops)
{
	static const struct {
		const char *name;
		unary_ws ws;
		launch_fn run;
		float (*ref)(float);
		bool positive;
	} ops[] = {
		{ "relu", relu_ws, relu_run, relu_ref, false },
		{ "gelu", aclnnGeluGetWorkspaceSize, aclnnGelu, gelu_ref, false },
		{ "silu", aclnnSiluGetWorkspaceSize, aclnnSilu, silu_ref, false },
		{ "sigmoid", aclnnSigmoidGetWorkspaceSize, aclnnSigmoid, sig_ref, false },
		{ "tanh", aclnnTanhGetWorkspaceSize, aclnnTanh, tanhf, false },
		{ "exp", aclnnExpGetWorkspaceSize, aclnnExp, expf, false },
		{ "log", aclnnLogGetWorkspaceSize, aclnnLog, logf, true },
		{ "sqrt", aclnnSqrtGetWorkspaceSize, aclnnSqrt, sqrtf, true },
		{ "rsqrt", aclnnRsqrtGetWorkspaceSize, aclnnRsqrt, rsqrt_ref, true },
		{ "abs", aclnnAbsGetWorkspaceSize, aclnnAbs, fabsf, false },
		{ "neg", aclnnNegGetWorkspaceSize, aclnnNeg, neg_ref, false },
	};
	float a[8] = { -3, -1.5f, -0.25f, 0, 0.5f, 1, 2.5f, 4 }, p[8], o[8];
	int64_t sh[2] = { 2, 4 };
	void *ad, *pd, *od = dev(self, NULL, sizeof(o));
	aclTensor *ta, *tp, *to = tens(sh, 2, ACL_FLOAT, od);
	unsigned k, i;

	for (i = 0; i < 8; i++)
		p[i] = fabsf(a[i]) + 0.5f;
	ad = dev(self, a, sizeof(a));
	pd = dev(self, p, sizeof(p));
	ta = tens(sh, 2, ACL_FLOAT, ad);
	tp = tens(sh, 2, ACL_FLOAT, pd);
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		const float *x = ops[k].positive ? p : a;
		aclOpExecutor *ex;
		uint64_t ws;

		ASSERT_EQ(0, ops[k].ws(ops[k].positive ? tp : ta, to, &ws, &ex));
		ASSERT_EQ(0, run(self, ops[k].run, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 8; i++)
			EXPECT_TRUE(CLOSE(o[i], ops[k].ref(x[i])))
				TH_LOG("%s(%g) = %g", ops[k].name, x[i], o[i]);
	}
	aclDestroyTensor(ta);
	aclDestroyTensor(tp);
	aclDestroyTensor(to);
}

/*
 * CANN's example for aclnnGelu (activation/gelu/examples/test_aclnn_gelu.cpp):
 * a [4, 2] FLOAT input; the values expected are torch.nn.GELU(approximate=
 * "tanh") as the golden computes them, which differ from the erf form by
 * up to 4e-4 (2.5 -> 2.484916 tanh, 2.484476 erf).
 */
TEST_F(nn, gelu_cann_example_tanh)
{
	float x[8] = { 1.3f, 2.5f, 6.7f, -4, -1.4f, -1.6f, -8, -16.9f }, o[8];
	static const float want[8] = { 1.17392901f, 2.48491573f, 6.7f,
				       -7.02459482e-05f, -0.113291933f,
				       -0.0878630379f, -0.0f, -0.0f };
	int64_t sh[2] = { 4, 2 };
	void *xd = dev(self, x, sizeof(x)), *od = dev(self, NULL, sizeof(o));
	aclTensor *tx = tens(sh, 2, ACL_FLOAT, xd), *to = tens(sh, 2, ACL_FLOAT, od);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnGeluGetWorkspaceSize(tx, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGelu, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(fabsf(o[i] - want[i]) <= 2e-6f + 2e-6f * fabsf(want[i]))
			TH_LOG("gelu(%g) = %.9g, want %.9g", x[i], o[i], want[i]);
	/* the erf form's 2.484476 at 2.5 is out of tolerance */
	EXPECT_GT(fabsf(o[1] - 2.48447584f), 1e-4f);
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
}

TEST_HARNESS_MAIN
