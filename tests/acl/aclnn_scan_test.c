// SPDX-License-Identifier: MIT
/*
 * aclnn scans, masks and the reductions of issue 14 on the real driver
 * against C references: Cumsum, CumsumV2, Triu, Tril (scan family) and
 * Prod, ProdDim, ArgMin, LogSumExp, Norm (reduce family), with non-contiguous
 * inputs and the error codes for bad shapes, dims and dtypes.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_norm.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

enum { R = 4, C = 6 };

/* x[i][j] of an R x C matrix stored transposed (column-major). */
static float xt(const float *st, int i, int j)
{
	return st[j * R + i];
}

TEST_F(nn, cumsum_transposed_input)
{
	float st[R * C], o[R * C];
	int64_t sh[2] = { R, C }, tr[2] = { 1, R }, bad[2] = { C, R };
	aclTensor *tx, *to, *tbad, *ti;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, j, k, mode;

	for (i = 0; i < R * C; i++) st[i] = frand(i);
	tx = view(sh, 2, tr, 0, R * C, ACL_FLOAT, dev(self, st, sizeof(st)));
	od = dev(self, NULL, sizeof(o));
	to = tens(sh, 2, ACL_FLOAT, od);
	tbad = tens(bad, 2, ACL_FLOAT, od);
	ti = tens(sh, 2, ACL_INT32, dev(self, NULL, R * C * 4));

	/* Cumsum along dim -1 (the rows). */
	ASSERT_EQ(0, aclnnCumsumGetWorkspaceSize(tx, -1, ACL_FLOAT, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCumsum, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < R; i++) {
		float s = 0;

		for (j = 0; j < C; j++) {
			s += xt(st, i, j);
			EXPECT_TRUE(CLOSE(o[i * C + j], s));
		}
	}
	/* V2 along dim 0, every exclusive/reverse combination. */
	for (mode = 0; mode < 4; mode++) {
		bool excl = mode & 1, rev = mode >> 1;

		ASSERT_EQ(0, aclnnCumsumV2GetWorkspaceSize(tx, 0, excl, rev, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnCumsumV2, ws, ex));
		get(o, od, sizeof(o));
		for (j = 0; j < C; j++)
			for (i = 0; i < R; i++) {
				float s = 0;

				for (k = 0; k < R; k++)
					if (rev ? (excl ? k > i : k >= i) : (excl ? k < i : k <= i))
						s += xt(st, k, j);
				EXPECT_TRUE(CLOSE(o[i * C + j], s));
			}
	}
	/* Bad dim, shape, dtype; NULL arguments. */
	EXPECT_EQ(INV, aclnnCumsumGetWorkspaceSize(tx, 2, ACL_FLOAT, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnCumsumGetWorkspaceSize(tx, -3, ACL_FLOAT, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnCumsumGetWorkspaceSize(tx, 0, ACL_FLOAT, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnCumsumGetWorkspaceSize(tx, 0, ACL_FLOAT16, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnCumsumV2GetWorkspaceSize(tx, 5, false, false, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnCumsumGetWorkspaceSize(NULL, 0, ACL_FLOAT, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnCumsumV2GetWorkspaceSize(tx, 0, false, false, to, NULL, &ex));
	/* Into INT32: self is cast first (then wraps like the integers it is). */
	ASSERT_EQ(0, aclnnCumsumGetWorkspaceSize(tx, 1, ACL_INT32, ti, &ws, &ex));
	EXPECT_LT(0, ws);
	ASSERT_EQ(0, run(self, aclnnCumsum, ws, ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(tbad);
	aclDestroyTensor(ti);
}

TEST_F(nn, triu_tril)
{
	float st[R * C], o[R * C];
	int32_t xi[2 * R * C], oi[2 * R * C];
	int64_t sh[2] = { R, C }, tr[2] = { 1, R }, s3[3] = { 2, R, C }, v[1] = { C };
	aclTensor *tx, *to, *t3, *t3o, *tv, *tf16;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *od3;
	int i, j, b, d;

	for (i = 0; i < R * C; i++) st[i] = frand(i);
	for (i = 0; i < 2 * R * C; i++) xi[i] = i + 1;
	tx = view(sh, 2, tr, 0, R * C, ACL_FLOAT, dev(self, st, sizeof(st)));
	od = dev(self, NULL, sizeof(o));
	to = tens(sh, 2, ACL_FLOAT, od);
	t3 = tens(s3, 3, ACL_INT32, dev(self, xi, sizeof(xi)));
	od3 = dev(self, NULL, sizeof(oi));
	t3o = tens(s3, 3, ACL_INT32, od3);
	tv = tens(v, 1, ACL_FLOAT, od);
	tf16 = tens(sh, 2, ACL_FLOAT16, od);

	for (d = -5; d <= 7; d += 3) {
		ASSERT_EQ(0, aclnnTriuGetWorkspaceSize(tx, d, to, &ws, &ex));
		EXPECT_EQ(0u, ws);
		ASSERT_EQ(0, run(self, aclnnTriu, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < R; i++)
			for (j = 0; j < C; j++)
				EXPECT_EQ(j - i >= d ? xt(st, i, j) : 0.0f, o[i * C + j]);
		ASSERT_EQ(0, aclnnTrilGetWorkspaceSize(t3, d, t3o, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnTril, ws, ex));
		get(oi, od3, sizeof(oi));
		for (b = 0; b < 2; b++)
			for (i = 0; i < R; i++)
				for (j = 0; j < C; j++) {
					int k = (b * R + i) * C + j;

					EXPECT_EQ(j - i <= d ? xi[k] : 0, oi[k]);
				}
	}
	/* Rank 1, dtype and shape mismatches; NULLs. */
	EXPECT_EQ(INV, aclnnTriuGetWorkspaceSize(tv, 0, tv, &ws, &ex));
	EXPECT_EQ(INV, aclnnTrilGetWorkspaceSize(tx, 0, tf16, &ws, &ex));
	EXPECT_EQ(INV, aclnnTrilGetWorkspaceSize(tx, 0, t3o, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTriuGetWorkspaceSize(tx, 0, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTrilGetWorkspaceSize(tx, 0, to, &ws, NULL));
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(t3);
	aclDestroyTensor(t3o);
	aclDestroyTensor(tv);
	aclDestroyTensor(tf16);
}

TEST_F(nn, prod_argmin_logsumexp)
{
	float st[R * C], o[C], s1;
	int64_t io[C];
	int64_t sh[2] = { R, C }, tr[2] = { 1, R }, so[1] = { C }, sk[2] = { 1, C };
	int64_t d0[1] = { 0 };
	aclIntArray *a0 = ia(d0, 1), *all = aclCreateIntArray(NULL, 0);
	aclTensor *tx, *to, *tk, *ts, *ti, *tib, *tbool, *tint;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *idd;
	int i, j;

	for (i = 0; i < R * C; i++) st[i] = 0.5f + 0.1f * (float)(i % 7);
	st[2 * R + 1] = st[2 * R + 3];	/* a tie in column 2: the first wins */
	tx = view(sh, 2, tr, 0, R * C, ACL_FLOAT, dev(self, st, sizeof(st)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 1, ACL_FLOAT, od);
	tk = tens(sk, 2, ACL_FLOAT, od);
	ts = tens(so, 0, ACL_FLOAT, od);
	idd = dev(self, NULL, sizeof(io));
	ti = tens(so, 1, ACL_INT64, idd);
	tib = tens(so, 1, ACL_INT16, idd);	/* CANN: INT32 or INT64 only */
	tbool = tens(sh, 2, ACL_BOOL, dev(self, NULL, R * C));
	tint = tens(so, 1, ACL_INT32, idd);

	ASSERT_EQ(0, aclnnProdDimGetWorkspaceSize(tx, 0, false, ACL_FLOAT, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnProdDim, ws, ex));
	get(o, od, sizeof(o));
	for (j = 0; j < C; j++) {
		float p = 1;

		for (i = 0; i < R; i++) p *= xt(st, i, j);
		EXPECT_TRUE(CLOSE(o[j], p));
	}
	ASSERT_EQ(0, aclnnProdGetWorkspaceSize(tx, ACL_FLOAT, ts, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnProd, ws, ex));
	get(&s1, od, 4);
	{
		double p = 1;

		for (i = 0; i < R * C; i++) p *= st[i];
		EXPECT_TRUE(CLOSE(s1, (float)p));
	}
	ASSERT_EQ(0, aclnnArgMinGetWorkspaceSize(tx, 0, false, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArgMin, ws, ex));
	get(io, idd, sizeof(io));
	for (j = 0; j < C; j++) {
		int best = 0;

		for (i = 1; i < R; i++)
			if (xt(st, i, j) < xt(st, best, j))
				best = i;
		EXPECT_EQ(best, io[j]);
	}
	ASSERT_EQ(0, aclnnLogSumExpGetWorkspaceSize(tx, a0, true, tk, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLogSumExp, ws, ex));
	get(o, od, sizeof(o));
	for (j = 0; j < C; j++) {
		double s = 0;

		for (i = 0; i < R; i++) s += exp(xt(st, i, j));
		EXPECT_TRUE(CLOSE(o[j], (float)log(s)));
	}
	/* Bad dtypes, dims and shapes; NULLs. */
	EXPECT_EQ(INV, aclnnProdDimGetWorkspaceSize(tx, 2, false, ACL_FLOAT, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnProdDimGetWorkspaceSize(tx, 0, true, ACL_FLOAT, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnProdDimGetWorkspaceSize(tx, 0, false, ACL_INT32, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnProdGetWorkspaceSize(tx, ACL_BOOL, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnProdGetWorkspaceSize(tx, ACL_FLOAT, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMinGetWorkspaceSize(tx, 0, false, tib, &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMinGetWorkspaceSize(tx, -3, false, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMinGetWorkspaceSize(tbool, 0, false, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnLogSumExpGetWorkspaceSize(tx, a0, false, tint, &ws, &ex));
	EXPECT_EQ(INV, aclnnLogSumExpGetWorkspaceSize(tx, a0, false, tk, &ws, &ex));
	EXPECT_EQ(INV, aclnnLogSumExpGetWorkspaceSize(tx, all, false, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnArgMinGetWorkspaceSize(tx, 0, false, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnProdGetWorkspaceSize(NULL, ACL_FLOAT, ts, &ws, &ex));
	aclDestroyIntArray(a0);
	aclDestroyIntArray(all);
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(tk);
	aclDestroyTensor(ts);
	aclDestroyTensor(ti);
	aclDestroyTensor(tib);
	aclDestroyTensor(tbool);
	aclDestroyTensor(tint);
}

/*
 * CANN's example for aclnnNorm (norm/lp_norm_v2/examples/test_aclnn_norm.cpp):
 * self [4, 2] = {0.1, 1.1, ..., 7.1}, p 0, dim {0}, keepdim, out [1, 2];
 * the golden (torch.linalg.vector_norm) counts non-zeros: {4, 4}. Then p 3
 * and p 0.5 over the same dim, (sum |x|^p)^(1/p), and p 0 with zeros.
 */
TEST_F(nn, norm_cann_example_general_p)
{
	float x[8] = { 0.1f, 1.1f, 2.1f, 3.1f, 4.1f, 5.1f, 6.1f, 7.1f };
	float z[8] = { 0, 1, 0, -2, 0, 0, 3, 0 }, o[2];
	float ps[3] = { 0.0f, 3.0f, 0.5f };
	int64_t sx[2] = { 4, 2 }, so[2] = { 1, 2 }, d0 = 0;
	aclIntArray *dim = ia(&d0, 1);
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *tz = tens(sx, 2, ACL_FLOAT, dev(self, z, sizeof(z)));
	aclTensor *to = tens(so, 2, ACL_FLOAT, od);
	aclOpExecutor *ex;
	aclScalar *sc;
	uint64_t ws;
	int k, j, i;

	for (k = 0; k < 3; k++) {
		sc = aclCreateScalar(&ps[k], ACL_FLOAT);
		ASSERT_EQ(0, aclnnNormGetWorkspaceSize(tx, sc, dim, true, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnNorm, ws, ex));
		get(o, od, sizeof(o));
		for (j = 0; j < 2; j++) {
			double r = 0;

			for (i = 0; i < 4; i++)
				r += k ? pow(fabs(x[i * 2 + j]), ps[k]) : x[i * 2 + j] != 0;
			if (k)
				r = pow(r, 1.0 / ps[k]);
			EXPECT_TRUE(CLOSE(o[j], (float)r)) TH_LOG("p %g: %g, want %g",
								 ps[k], o[j], r);
		}
		if (!k) {	/* the example's values */
			EXPECT_EQ(4.0f, o[0]);
			EXPECT_EQ(4.0f, o[1]);
			ASSERT_EQ(0, aclnnNormGetWorkspaceSize(tz, sc, dim, true, to,
								&ws, &ex));
			ASSERT_EQ(0, run(self, aclnnNorm, ws, ex));
			get(o, od, sizeof(o));
			EXPECT_EQ(1.0f, o[0]);
			EXPECT_EQ(2.0f, o[1]);
		}
		aclDestroyScalar(sc);
	}
	aclDestroyIntArray(dim);
	aclDestroyTensor(tx);
	aclDestroyTensor(tz);
	aclDestroyTensor(to);
}

TEST_F(nn, norm_p_1_2_inf)
{
	float st[R * C], o[R];
	int64_t sh[2] = { R, C }, tr[2] = { 1, R }, so[1] = { R }, d1[1] = { -1 };
	float ps[4] = { 1.0f, 2.0f, INFINITY, -INFINITY }, p3 = NAN;
	aclIntArray *a1 = ia(d1, 1);
	aclScalar *sc, *s3 = aclCreateScalar(&p3, ACL_FLOAT);
	aclTensor *tx, *to, *ti;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, j, k;

	for (i = 0; i < R * C; i++) st[i] = frand(i);
	tx = view(sh, 2, tr, 0, R * C, ACL_FLOAT, dev(self, st, sizeof(st)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 1, ACL_FLOAT, od);
	ti = tens(so, 1, ACL_INT32, od);
	for (k = 0; k < 4; k++) {
		sc = aclCreateScalar(&ps[k], ACL_FLOAT);
		ASSERT_EQ(0, aclnnNormGetWorkspaceSize(tx, sc, a1, false, to, &ws, &ex));
		/* only the inf forms need |x| in the workspace */
		EXPECT_EQ(k >= 2, ws > 0);
		ASSERT_EQ(0, run(self, aclnnNorm, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < R; i++) {
			double r = k == 3 ? INFINITY : 0;

			for (j = 0; j < C; j++) {
				double v = fabs(xt(st, i, j));

				if (k == 0)
					r += v;
				else if (k == 1)
					r += v * v;
				else if (k == 2 ? v > r : v < r)
					r = v;
			}
			if (k == 1)
				r = sqrt(r);
			EXPECT_TRUE(CLOSE(o[i], (float)r));
		}
		aclDestroyScalar(sc);
	}
	/* a NaN p, an integer out, keepdim with out's rank, a NULL p */
	EXPECT_EQ(INV, aclnnNormGetWorkspaceSize(tx, s3, a1, false, to, &ws, &ex));
	sc = aclCreateScalar(&ps[0], ACL_FLOAT);
	EXPECT_EQ(INV, aclnnNormGetWorkspaceSize(tx, sc, a1, false, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnNormGetWorkspaceSize(tx, sc, a1, true, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnNormGetWorkspaceSize(tx, NULL, a1, false, to, &ws, &ex));
	aclDestroyScalar(sc);
	aclDestroyScalar(s3);
	aclDestroyIntArray(a1);
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(ti);
}

TEST_HARNESS_MAIN
