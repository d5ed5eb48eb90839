// SPDX-License-Identifier: MIT
/*
 * aclnn single-operator API on the real driver: each operator against a C
 * reference, a non-contiguous view, dtype promotion (CAST tasks into the
 * workspace), a repeatable executor with new addresses, and errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_addmm.h"
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
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, add_broadcast_alpha)
{
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[3] = { 10, 20, 30 }, o[6];
	int64_t sa[2] = { 2, 3 }, sb[1] = { 3 };
	float al = 0.5f;
	aclTensor *ta = tens(sa, 2, ACL_FLOAT, dev(self, a, sizeof(a)));
	aclTensor *tb = tens(sb, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *to = tens(sa, 2, ACL_FLOAT, od);
	aclScalar *alpha = aclCreateScalar(&al, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 1;
	int i;

	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	EXPECT_EQ(0, ws);
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] + 0.5f * b[i % 3]));
	/* Sub, Mul, Div on the same operands. */
	ASSERT_EQ(0, aclnnSubGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSub, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] - 0.5f * b[i % 3]));
	ASSERT_EQ(0, aclnnMulGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMul, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] * b[i % 3]));
	ASSERT_EQ(0, aclnnDivGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnDiv, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] / b[i % 3]));
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyScalar(alpha);
}

TEST_F(nn, scalars)
{
	float a[4] = { 1, -2, 3, -4 }, o[4], two = 2, al = 1;
	int64_t sh[1] = { 4 };
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, dev(self, a, sizeof(a)));
	aclTensor *to = tens(sh, 1, ACL_FLOAT, od);
	aclScalar *s2 = aclCreateScalar(&two, ACL_FLOAT);
	aclScalar *s1 = aclCreateScalar(&al, ACL_FLOAT);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnMulsGetWorkspaceSize(ta, s2, to, &ws, &ex));
	EXPECT_GT(ws, 0);	/* the scalar lives in the workspace */
	ASSERT_EQ(0, run(self, aclnnMuls, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] * 2));
	ASSERT_EQ(0, aclnnAddsGetWorkspaceSize(ta, s2, s1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdds, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] + 2));
	/* Powers: a scalar exponent, then a tensor of exponents. */
	ASSERT_EQ(0, aclnnPowTensorScalarGetWorkspaceSize(ta, s2, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowTensorScalar, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] * a[i]));
	{
		float e[4] = { 3, 2, 1, 0 };
		int64_t bad[1] = { 3 };
		aclTensor *te = tens(sh, 1, ACL_FLOAT, dev(self, e, sizeof(e)));
		aclTensor *tb = tens(bad, 1, ACL_FLOAT, dev(self, e, 12));
		aclnnStatus st;

		ASSERT_EQ(0, aclnnPowTensorTensorGetWorkspaceSize(ta, te, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnPowTensorTensor, ws, ex));
		get(o, od, sizeof(o));
		/* An exponent that does not broadcast is refused in phase 1. */
		st = aclnnPowTensorTensorGetWorkspaceSize(ta, tb, to, &ws, &ex);
		aclDestroyTensor(tb);
		aclDestroyTensor(te);
		EXPECT_NE(0, st);
		EXPECT_TRUE(CLOSE(o[0], 1.0f));
		EXPECT_TRUE(CLOSE(o[1], 4.0f));
		EXPECT_TRUE(CLOSE(o[2], 3.0f));
		EXPECT_TRUE(CLOSE(o[3], 1.0f));
	}
	aclDestroyScalar(s1);
	aclDestroyScalar(s2);
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}

typedef aclnnStatus (*unary_ws)(const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);

static float gelu_ref(float x) { return 0.5f * x * (1 + erff(x / sqrtf(2))); }
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

TEST_F(nn, softmax_rows)
{
	float a[6] = { 1, 2, 3, -1, 0, 5 }, o[6];
	int64_t sh[2] = { 2, 3 };
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 2, ACL_FLOAT, dev(self, a, sizeof(a)));
	aclTensor *to = tens(sh, 2, ACL_FLOAT, od);
	aclOpExecutor *ex;
	uint64_t ws;
	int r, i;

	ASSERT_EQ(0, aclnnSoftmaxGetWorkspaceSize(ta, -1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSoftmax, ws, ex));
	get(o, od, sizeof(o));
	for (r = 0; r < 2; r++) {
		float s = 0;

		for (i = 0; i < 3; i++)
			s += expf(a[r * 3 + i]);
		for (i = 0; i < 3; i++)
			EXPECT_TRUE(CLOSE(o[r * 3 + i], expf(a[r * 3 + i]) / s));
	}
	ASSERT_EQ(0, aclnnLogSoftmaxGetWorkspaceSize(ta, 0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLogSoftmax, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 3; i++) {
		float s = expf(a[i]) + expf(a[3 + i]);

		EXPECT_TRUE(CLOSE(o[i], a[i] - logf(s)));
		EXPECT_TRUE(CLOSE(o[3 + i], a[3 + i] - logf(s)));
	}
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnSoftmaxGetWorkspaceSize(ta, 2, to, &ws, &ex));
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}

TEST_F(nn, cast_and_promotion)
{
	int32_t ai[4] = { 1, -2, 7, 100 };
	float bf[4] = { 0.5f, 0.25f, -1, 2 }, o[4];
	int32_t oi[4];
	int64_t sh[1] = { 4 };
	void *od = dev(self, NULL, sizeof(o)), *oid = dev(self, NULL, sizeof(oi));
	void *fd = dev(self, bf, sizeof(bf));
	aclTensor *ta = tens(sh, 1, ACL_INT32, dev(self, ai, sizeof(ai)));
	aclTensor *tb = tens(sh, 1, ACL_FLOAT, fd);
	aclTensor *to = tens(sh, 1, ACL_FLOAT, od);
	aclTensor *toi = tens(sh, 1, ACL_INT32, oid);
	aclOpExecutor *ex;
	uint64_t ws;
	float one = 1;
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	int i;

	/* int32 + float -> float: the int32 operand is cast in the workspace. */
	ASSERT_EQ(0, aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
	EXPECT_GE(ws, sizeof(float) * 4);
	ASSERT_EQ(0, run(self, aclnnAdd, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(CLOSE(o[i], ai[i] + bf[i]));
	/* A float result cannot go into an int32 out. */
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnAddGetWorkspaceSize(ta, tb, alpha, toi, &ws, &ex));
	/* Cast float -> int32 truncates toward zero. */
	ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tb, ACL_INT32, toi, &ws, &ex));
	EXPECT_EQ(0, ws);
	ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
	get(oi, oid, sizeof(oi));
	for (i = 0; i < 4; i++)
		EXPECT_EQ((int32_t)bf[i], oi[i]);
	/* float16 * float -> float: fp16 data made by a Cast. */
	{
		void *hd = dev(self, NULL, 8);
		aclTensor *th = tens(sh, 1, ACL_FLOAT16, hd);

		ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tb, ACL_FLOAT16, th, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
		ASSERT_EQ(0, aclnnMulGetWorkspaceSize(th, tb, to, &ws, &ex));
		EXPECT_GT(ws, 0);
		ASSERT_EQ(0, run(self, aclnnMul, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 4; i++)
			EXPECT_TRUE(CLOSE(o[i], bf[i] * bf[i]));
		aclDestroyTensor(th);
	}
	aclDestroyScalar(alpha);
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyTensor(toi);
}

static void mm_ref(const float *a, const float *b, float *c, int m, int k, int n)
{
	int i, j, l;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			float s = 0;

			for (l = 0; l < k; l++)
				s += a[i * k + l] * b[l * n + j];
			c[i * n + j] = s;
		}
}

TEST_F(nn, matmul_family_and_views)
{
	float a[2 * 3 * 4], b[2 * 4 * 5], o[2 * 3 * 5], r[2 * 3 * 5], bias[5];
	int64_t sa[3] = { 2, 3, 4 }, sb[3] = { 2, 4, 5 }, so[3] = { 2, 3, 5 };
	void *ad, *bd, *od;
	aclTensor *ta, *tb, *to, *t2a, *t2b, *t2o, *tbias, *tv;
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	for (i = 0; i < 24; i++)
		a[i] = (i % 7) - 3;
	for (i = 0; i < 40; i++)
		b[i] = (i % 5) * 0.5f - 1;
	for (i = 0; i < 5; i++)
		bias[i] = i;
	ad = dev(self, a, sizeof(a));
	bd = dev(self, b, sizeof(b));
	od = dev(self, NULL, sizeof(o));
	ta = tens(sa, 3, ACL_FLOAT, ad);
	tb = tens(sb, 3, ACL_FLOAT, bd);
	to = tens(so, 3, ACL_FLOAT, od);
	mm_ref(a, b, r, 3, 4, 5);
	mm_ref(a + 12, b + 20, r + 15, 3, 4, 5);

	ASSERT_EQ(0, aclnnBatchMatMulGetWorkspaceSize(ta, tb, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnBatchMatMul, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 30; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i]));
	memset(o, 0, sizeof(o));
	ASSERT_EQ(0, aclnnMatmulGetWorkspaceSize(ta, tb, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMatmul, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 30; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i]));

	/* Mm on the first batch entries; Addmm adds a broadcast bias row. */
	t2a = tens(sa + 1, 2, ACL_FLOAT, ad);
	t2b = tens(sb + 1, 2, ACL_FLOAT, bd);
	t2o = tens(so + 1, 2, ACL_FLOAT, od);
	tbias = tens(so + 2, 1, ACL_FLOAT, dev(self, bias, sizeof(bias)));
	ASSERT_EQ(0, aclnnMmGetWorkspaceSize(t2a, t2b, t2o, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMm, ws, ex));
	get(o, od, sizeof(float) * 15);
	for (i = 0; i < 15; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i]));
	{
		float al = 2, be = 0.5f;
		aclScalar *alpha = aclCreateScalar(&al, ACL_FLOAT);
		aclScalar *beta = aclCreateScalar(&be, ACL_FLOAT);

		ASSERT_EQ(0, aclnnAddmmGetWorkspaceSize(tbias, t2a, t2b, beta, alpha,
							t2o, 0, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnAddmm, ws, ex));
		get(o, od, sizeof(float) * 15);
		for (i = 0; i < 15; i++)
			EXPECT_TRUE(CLOSE(o[i], 2 * r[i] + 0.5f * bias[i % 5]));
		aclDestroyScalar(alpha);
		aclDestroyScalar(beta);
	}
	/* Non-contiguous: the transposed [4, 3] view of a's first [3, 4]. */
	{
		int64_t vd[2] = { 4, 3 }, vs[2] = { 1, 4 }, st[2] = { 3, 4 };
		int64_t *dims = NULL, *strides = NULL;
		uint64_t n = 0;
		float t[12];
		int j;

		tv = aclCreateTensor(vd, 2, ACL_FLOAT, vs, 0, ACL_FORMAT_ND, st, 2, ad);
		ASSERT_NE(NULL, tv);
		ASSERT_EQ(0, aclGetViewStrides(tv, &strides, &n));
		EXPECT_EQ(2, n);
		EXPECT_EQ(4, strides[1]);
		ASSERT_EQ(0, aclGetViewShape(tv, &dims, &n));
		EXPECT_EQ(4, dims[0]);
		free(dims);
		free(strides);
		/* out [4, 3] = relu(view) */
		{
			aclTensor *tout = tens(vd, 2, ACL_FLOAT, od);

			ASSERT_EQ(0, aclnnReluGetWorkspaceSize(tv, tout, &ws, &ex));
			ASSERT_EQ(0, run(self, relu_run, ws, ex));
			get(t, od, sizeof(t));
			for (i = 0; i < 4; i++)
				for (j = 0; j < 3; j++)
					EXPECT_EQ(relu_ref(a[j * 4 + i]), t[i * 3 + j]);
			aclDestroyTensor(tout);
		}
		/* offset: the view starting at element 1 of a. */
		{
			int64_t one[1] = { 4 }, s1[1] = { 1 };
			aclTensor *toff = aclCreateTensor(one, 1, ACL_FLOAT, s1, 1,
							  ACL_FORMAT_ND, sa, 3, ad);
			aclTensor *tout = tens(one, 1, ACL_FLOAT, od);
			int64_t off = 0;

			ASSERT_EQ(0, aclGetViewOffset(toff, &off));
			EXPECT_EQ(1, off);
			ASSERT_EQ(0, aclnnNegGetWorkspaceSize(toff, tout, &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnNeg, ws, ex));
			get(t, od, sizeof(float) * 4);
			for (i = 0; i < 4; i++)
				EXPECT_EQ(-a[1 + i], t[i]);
			aclDestroyTensor(toff);
			aclDestroyTensor(tout);
		}
		aclDestroyTensor(tv);
	}
	/* Shape mismatch: out [2, 3, 5] for a [2,3,4] @ [2,3,4]. */
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnMatmulGetWorkspaceSize(ta, ta, to, 0, &ws, &ex));
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
	aclDestroyTensor(t2a);
	aclDestroyTensor(t2b);
	aclDestroyTensor(t2o);
	aclDestroyTensor(tbias);
}

TEST_F(nn, repeatable_executor)
{
	float a[4] = { 1, 2, 3, 4 }, b[4] = { 10, 20, 30, 40 }, c[4] = { -1, -2, -3, -4 };
	float o[4];
	int64_t sh[1] = { 4 };
	void *ad = dev(self, a, 16), *bd = dev(self, b, 16), *cd = dev(self, c, 16);
	void *o1 = dev(self, NULL, 16), *o2 = dev(self, NULL, 16);
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, ad), *tb = tens(sh, 1, ACL_FLOAT, bd);
	aclTensor *to = tens(sh, 1, ACL_FLOAT, o1);
	aclOpExecutor *ex;
	uint64_t ws;
	int i, k;

	ASSERT_EQ(0, aclnnMulGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, aclSetAclOpExecutorRepeatable(ex));
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, aclnnMul(NULL, 0, ex, self->s));
	ASSERT_EQ(0, aclrtSynchronizeStream(self->s));
	get(o, o1, 16);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(a[i] * b[i], o[i]);
	/* New addresses: input 1 -> c, output 0 -> o2. */
	ASSERT_EQ(0, aclSetInputTensorAddr(ex, 1, tb, cd));
	ASSERT_EQ(0, aclSetOutputTensorAddr(ex, 0, to, o2));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID, aclSetInputTensorAddr(ex, 2, tb, cd));
	ASSERT_EQ(0, aclnnMul(NULL, 0, ex, self->s));
	ASSERT_EQ(0, aclrtSynchronizeStream(self->s));
	get(o, o2, 16);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(a[i] * c[i], o[i]);
	/* aclSetTensorAddr counts inputs then outputs: 0 is self. */
	ASSERT_EQ(0, aclSetTensorAddr(ex, 0, ta, cd));
	ASSERT_EQ(0, aclnnMul(NULL, 0, ex, self->s));
	ASSERT_EQ(0, aclrtSynchronizeStream(self->s));
	get(o, o2, 16);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(c[i] * c[i], o[i]);
	EXPECT_EQ(0, aclDestroyAclOpExecutor(ex));
	aclDestroyTensor(ta);
	aclDestroyTensor(tb);
	aclDestroyTensor(to);
}

TEST_F(nn, errors)
{
	int64_t sh[1] = { 4 }, sh3[1] = { 3 };
	float one = 1;
	void *d = dev(self, NULL, 16);
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, d), *t3 = tens(sh3, 1, ACL_FLOAT, d);
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	uint64_t ws;
	int64_t *dims;
	uint64_t n;

	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnAddGetWorkspaceSize(NULL, ta, alpha, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnAddGetWorkspaceSize(ta, ta, NULL, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnReluGetWorkspaceSize(ta, ta, NULL, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnAddGetWorkspaceSize(ta, t3, alpha, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnReluGetWorkspaceSize(ta, t3, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnCastGetWorkspaceSize(ta, ACL_INT32, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclnnAdd(NULL, 0, NULL, self->s));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclSetAclOpExecutorRepeatable(NULL));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclDestroyAclOpExecutor(NULL));
	EXPECT_EQ(ACLNN_ERR_INNER_NULLPTR, aclSetInputTensorAddr(NULL, 0, ta, d));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR, aclDestroyTensor(NULL));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR, aclGetViewShape(NULL, &dims, &n));
	EXPECT_EQ(NULL, aclCreateTensor(NULL, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, d));
	EXPECT_EQ(NULL, aclCreateScalar(NULL, ACL_FLOAT));
	/* A workspace is required when the executor needs one. */
	ASSERT_EQ(0, aclnnMulsGetWorkspaceSize(ta, alpha, ta, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID, aclnnMuls(NULL, 0, ex, self->s));
	n = 0;
	/* Arrays and lists. */
	{
		int64_t v[3] = { 1, 2, 3 };
		aclIntArray *ia = aclCreateIntArray(v, 3);
		const aclTensor *l[1];
		aclTensorList *tl;

		ASSERT_EQ(0, aclGetIntArraySize(ia, &n));
		EXPECT_EQ(3, n);
		aclDestroyIntArray(ia);
		l[0] = tens(sh, 1, ACL_FLOAT, d);
		tl = aclCreateTensorList(l, 1);
		ASSERT_EQ(0, aclGetTensorListSize(tl, &n));
		EXPECT_EQ(1, n);
		EXPECT_EQ(0, aclDestroyTensorList(tl));
	}
	aclDestroyScalar(alpha);
	aclDestroyTensor(ta);
	aclDestroyTensor(t3);
}

TEST_HARNESS_MAIN
