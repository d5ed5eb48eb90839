// SPDX-License-Identifier: MIT
/*
 * aclnn matrix products (matmul family) on the real driver against a C
 * reference: Matmul with numpy broadcasting, Mm, BatchMatMul, Addmm, and
 * strided views and offsets (read through Relu and Neg too).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_neg.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

/* The views part also runs two unary ops on a strided view. */
static float relu_ref(float x) { return x > 0 ? x : 0; }

static aclnnStatus relu_run(void *w, uint64_t s, aclOpExecutor *e, aclrtStream st)
{
	return aclnnRelu(w, s, e, st);
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

/* aclnnMatmulWeightNz: the weight in ND (vnpu has no NZ layout). */
/*
 * aclnnBatchMatMul as CANN's document (ops-nn matmul/batch_mat_mul_v3)
 * states it: its example (self [1, 2, 3] = 0..5, mat2 [1, 3, 4] rows of
 * 1, 2, 3 / 4: out [[8, 8, 8, 8]... ]), then the two broadcasts it lists
 * (mat2 [1, K, N] against self [A, M, K], self [1, M, K] against mat2
 * [B, K, N]); 2-D operands and batches 2 and 3 are refused.
 */
TEST_F(nn, batch_matmul_doc_broadcast)
{
	float a[6] = { 0, 1, 2, 3, 4, 5 }, b[12] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	float a2[12], o[16], r[8];
	int64_t sa[3] = { 1, 2, 3 }, sb[3] = { 1, 3, 4 }, so[3] = { 1, 2, 4 };
	int64_t sa2[3] = { 2, 2, 3 }, sb2[3] = { 2, 3, 4 }, so2[3] = { 2, 2, 4 };
	int64_t sb3[3] = { 3, 3, 4 }, s2[2] = { 3, 4 };
	void *ad = dev(self, a, sizeof(a)), *bd = dev(self, b, sizeof(b));
	void *od = dev(self, NULL, sizeof(o)), *a2d, *b2d;
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	mm_ref(a, b, r, 2, 3, 4);
	ASSERT_EQ(0, aclnnBatchMatMulGetWorkspaceSize(tens(sa, 3, ACL_FLOAT, ad),
		  tens(sb, 3, ACL_FLOAT, bd), tens(so, 3, ACL_FLOAT, od), 1, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnBatchMatMul, ws, ex));
	get(o, od, sizeof(float) * 8);
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i]));
	EXPECT_TRUE(CLOSE(o[0], 8.0f) && CLOSE(o[4], 26.0f));

	/* mat2's batch of 1 broadcasts to self's 2 */
	for (i = 0; i < 12; i++)
		a2[i] = (float)(i % 5) - 1.5f;
	a2d = dev(self, a2, sizeof(a2));
	ASSERT_EQ(0, aclnnBatchMatMulGetWorkspaceSize(tens(sa2, 3, ACL_FLOAT, a2d),
		  tens(sb, 3, ACL_FLOAT, bd), tens(so2, 3, ACL_FLOAT, od), 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnBatchMatMul, ws, ex));
	get(o, od, sizeof(o));
	mm_ref(a2, b, r, 2, 3, 4);
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i]));
	mm_ref(a2 + 6, b, r, 2, 3, 4);
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[8 + i], r[i]));

	/* self's batch of 1 broadcasts to mat2's 2 */
	b2d = dev(self, NULL, 96);
	aclrtMemcpy(b2d, 48, b, 48, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemcpy((char *)b2d + 48, 48, a2, 48, ACL_MEMCPY_HOST_TO_DEVICE);
	ASSERT_EQ(0, aclnnBatchMatMulGetWorkspaceSize(tens(sa, 3, ACL_FLOAT, ad),
		  tens(sb2, 3, ACL_FLOAT, b2d), tens(so2, 3, ACL_FLOAT, od), 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnBatchMatMul, ws, ex));
	get(o, od, sizeof(o));
	mm_ref(a, b, r, 2, 3, 4);
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i]));
	mm_ref(a, a2, r, 2, 3, 4);
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[8 + i], r[i]));

	EXPECT_EQ(INV, aclnnBatchMatMulGetWorkspaceSize(tens(sa2, 3, ACL_FLOAT, a2d),
		  tens(sb3, 3, ACL_FLOAT, b2d), tens(so2, 3, ACL_FLOAT, od), 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnBatchMatMulGetWorkspaceSize(tens(sa + 1, 2, ACL_FLOAT, ad),
		  tens(s2, 2, ACL_FLOAT, bd), tens(so + 1, 2, ACL_FLOAT, od), 0, &ws, &ex));
}

TEST_F(nn, matmul_weight_nz)
{
	float a[2 * 3 * 4], w[4 * 5], o[2 * 3 * 5], r[2 * 3 * 5];
	int64_t sa[3] = { 2, 3, 4 }, sw[2] = { 4, 5 }, so[3] = { 2, 3, 5 };
	int64_t sw3[3] = { 1, 4, 5 };
	void *ad, *wd, *od;
	aclTensor *ta, *tw, *to, *tnz, *tw3;
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	for (i = 0; i < 24; i++)
		a[i] = frand(i);
	for (i = 0; i < 20; i++)
		w[i] = frand(i + 100);
	ad = dev(self, a, sizeof(a));
	wd = dev(self, w, sizeof(w));
	od = dev(self, NULL, sizeof(o));
	ta = tens(sa, 3, ACL_FLOAT, ad);
	tw = tens(sw, 2, ACL_FLOAT, wd);
	to = tens(so, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnMatmulWeightNzGetWorkspaceSize(ta, tw, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMatmulWeightNz, ws, ex));
	get(o, od, sizeof(o));
	mm_ref(a, w, r, 3, 4, 5);
	mm_ref(a + 12, w, r + 15, 3, 4, 5);
	for (i = 0; i < 30; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i])) TH_LOG("[%d] %g vs %g", i, o[i], r[i]);
	/*
	 * A weight labelled FRACTAL_NZ, as aclnnTransMatmulWeight leaves it
	 * on vnpu (in ND): the same product.
	 */
	tnz = aclCreateTensor(sw, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_FRACTAL_NZ, sw, 2, wd);
	ASSERT_EQ(0, aclrtMemset(od, sizeof(o), 0, sizeof(o)));
	ASSERT_EQ(0, aclnnMatmulWeightNzGetWorkspaceSize(ta, tnz, to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnMatmulWeightNz, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 30; i++)
		EXPECT_TRUE(CLOSE(o[i], r[i])) TH_LOG("NZ [%d] %g vs %g", i, o[i], r[i]);
	/* a 3-D weight, NULLs */
	tw3 = tens(sw3, 3, ACL_FLOAT, wd);
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnMatmulWeightNzGetWorkspaceSize(ta, tw3, to, 0, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnMatmulWeightNzGetWorkspaceSize(ta, NULL, to, 0, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnMatmulWeightNzGetWorkspaceSize(NULL, tw, to, 0, &ws, &ex));
	/* out of the wrong shape */
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnMatmulWeightNzGetWorkspaceSize(ta, tw, ta, 0, &ws, &ex));
	aclDestroyTensor(ta);
	aclDestroyTensor(tw);
	aclDestroyTensor(to);
	aclDestroyTensor(tnz);
	aclDestroyTensor(tw3);
}

TEST_HARNESS_MAIN
