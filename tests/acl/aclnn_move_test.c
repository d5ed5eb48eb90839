// SPDX-License-Identifier: MIT
/*
 * aclnn data movement (move family) on the real driver against C
 * references: Permute, Cat (also of many strided tensors), fill, copy,
 * Slice, Gather, IndexSelect, SWhere, ConstantPadNd, Repeat.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_repeat.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, permute_cat)
{
	enum { A = 2, B = 3, C = 4 };
	float x[A * B * C], o[A * B * (2 * C + 2)], y[A * B * 2];
	int64_t sx[3] = { A, B, C }, so[3] = { C, A, B }, perm[3] = { 2, 0, 1 }, perm_bad[3] = { 2, 0, 0 };
	int64_t sy[3] = { A, B, 2 }, sc[3] = { A, B, C + 2 + C }, scbad[3] = { A, B, C + 1 };
	aclIntArray *ap = ia(perm, 3), *apb = ia(perm_bad, 3);
	aclTensor *tx, *to, *ty, *tc, *tcbad;
	const aclTensor *l[3];
	aclTensorList *tl;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int a, b, c;

	for (a = 0; a < A * B * C; a++) x[a] = (float)a;
	for (a = 0; a < A * B * 2; a++) y[a] = -1.0f - a;
	tx = tens(sx, 3, ACL_FLOAT, dev(self, x, sizeof(x)));
	ty = tens(sy, 3, ACL_FLOAT, dev(self, y, sizeof(y)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnPermuteGetWorkspaceSize(tx, ap, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPermute, ws, ex));
	get(o, od, sizeof(float) * A * B * C);
	for (c = 0; c < C; c++)
		for (a = 0; a < A; a++)
			for (b = 0; b < B; b++)
				EXPECT_EQ(x[(a * B + b) * C + c], o[(c * A + a) * B + b]);
	EXPECT_EQ(INV, aclnnPermuteGetWorkspaceSize(tx, apb, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnPermuteGetWorkspaceSize(tx, ap, tx, &ws, &ex));

	tc = tens(sc, 3, ACL_FLOAT, od);
	tcbad = tens(scbad, 3, ACL_FLOAT, od);
	l[0] = tx; l[1] = ty; l[2] = tx;
	tl = aclCreateTensorList(l, 3);
	ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, -1, tc, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
	get(o, od, sizeof(o));
	for (a = 0; a < A; a++)
		for (b = 0; b < B; b++)
			for (c = 0; c < 2 * C + 2; c++) {
				float e = c < C ? x[(a * B + b) * C + c] :
					  c < C + 2 ? y[(a * B + b) * 2 + c - C] :
					  x[(a * B + b) * C + c - C - 2];
				EXPECT_EQ(e, o[(a * B + b) * (2 * C + 2) + c]);
			}
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, -1, tcbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 0, tc, &ws, &ex));
	aclDestroyIntArray(ap); aclDestroyIntArray(apb);
}

TEST_F(nn, fill_copy)
{
	float o[12], src[4] = { 1, 2, 3, 4 };
	int32_t io[12];
	int64_t s[2] = { 3, 4 }, s1[1] = { 4 }, sbad[1] = { 3 };
	float fv = 2.5f;
	int32_t iv = 7;
	aclScalar *sf = aclCreateScalar(&fv, ACL_FLOAT), *si = aclCreateScalar(&iv, ACL_INT32);
	void *od = dev(self, NULL, sizeof(o)), *idd = dev(self, NULL, sizeof(io));
	aclTensor *to = tens(s, 2, ACL_FLOAT, od), *ti = tens(s, 2, ACL_INT32, idd);
	aclTensor *tsrc = tens(s1, 1, ACL_FLOAT, dev(self, src, sizeof(src)));
	aclTensor *tbad = tens(sbad, 1, ACL_FLOAT, dev(self, src, sizeof(src)));
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnInplaceFillScalarGetWorkspaceSize(to, sf, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceFillScalar, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(2.5f, o[i]);
	ASSERT_EQ(0, aclnnInplaceFillScalarGetWorkspaceSize(ti, si, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceFillScalar, ws, ex));
	get(io, idd, sizeof(io));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(7, io[i]);
	EXPECT_EQ(INV, aclnnInplaceFillScalarGetWorkspaceSize(ti, sf, &ws, &ex));

	/* Copy with broadcast and a cast to INT32. */
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(to, tsrc, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(src[i % 4], o[i]);
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(ti, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(io, idd, sizeof(io));
	for (i = 0; i < 12; i++)
		EXPECT_EQ((int)src[i % 4], io[i]);
	EXPECT_EQ(INV, aclnnInplaceCopyGetWorkspaceSize(to, tbad, &ws, &ex));
	aclDestroyScalar(sf); aclDestroyScalar(si);
}

TEST_F(nn, slice_gather_index_select)
{
	enum { A = 3, B = 7 };
	float x[A * B], o[64];
	int64_t sx[2] = { A, B }, ss[2] = { A, 3 }, sbad[2] = { A, 4 };
	int64_t gi[A * 2] = { 6, 0, 1, 1, 3, 5 }, sgi[2] = { A, 2 };
	int32_t si[4] = { 2, 0, 2, 1 };
	int64_t ssi[1] = { 4 }, sso[2] = { 4, B };
	aclTensor *tx, *ts, *tbad, *tgi, *tgo, *tsi, *tso;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int a, b;

	for (a = 0; a < A * B; a++) x[a] = (float)a;
	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(float) * 64);
	ts = tens(ss, 2, ACL_FLOAT, od);
	tbad = tens(sbad, 2, ACL_FLOAT, od);
	/* x[:, 1:-1:2] -> columns 1, 3, 5 */
	ASSERT_EQ(0, aclnnSliceGetWorkspaceSize(tx, -1, 1, -1, 2, ts, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSlice, ws, ex));
	get(o, od, sizeof(float) * A * 3);
	for (a = 0; a < A; a++)
		for (b = 0; b < 3; b++)
			EXPECT_EQ(x[a * B + 1 + 2 * b], o[a * 3 + b]);
	EXPECT_EQ(INV, aclnnSliceGetWorkspaceSize(tx, 1, 1, -1, 2, tbad, &ws, &ex));

	tgi = tens(sgi, 2, ACL_INT64, dev(self, gi, sizeof(gi)));
	tgo = tens(sgi, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnGatherGetWorkspaceSize(tx, 1, tgi, tgo, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGather, ws, ex));
	get(o, od, sizeof(float) * A * 2);
	for (a = 0; a < A; a++)
		for (b = 0; b < 2; b++)
			EXPECT_EQ(x[a * B + gi[a * 2 + b]], o[a * 2 + b]);
	EXPECT_EQ(INV, aclnnGatherGetWorkspaceSize(tx, 1, tgi, ts, &ws, &ex));

	tsi = tens(ssi, 1, ACL_INT32, dev(self, si, sizeof(si)));
	tso = tens(sso, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnIndexSelectGetWorkspaceSize(tx, 0, tsi, tso, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnIndexSelect, ws, ex));
	get(o, od, sizeof(float) * 4 * B);
	for (a = 0; a < 4; a++)
		for (b = 0; b < B; b++)
			EXPECT_EQ(x[si[a] * B + b], o[a * B + b]);
	EXPECT_EQ(INV, aclnnIndexSelectGetWorkspaceSize(tx, 1, tsi, tso, &ws, &ex));
}

TEST_F(nn, where_pad_repeat)
{
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[3] = { -1, -2, -3 }, o[64];
	uint8_t cnd[6] = { 1, 0, 1, 0, 0, 1 };
	int64_t s23[2] = { 2, 3 }, s3[1] = { 3 }, s22[2] = { 2, 2 };
	int64_t pads[4] = { 1, 2, 0, 1 }, sp[2] = { 3, 6 }, rep[3] = { 2, 1, 2 }, sr[3] = { 2, 2, 6 };
	float pv = 9.0f;
	aclScalar *val = aclCreateScalar(&pv, ACL_FLOAT);
	aclIntArray *ap = aclCreateIntArray(pads, 4), *ar = aclCreateIntArray(rep, 3);
	int64_t huge[4] = { INT64_MAX, INT64_MAX, 0, 0 };
	aclIntArray *ahuge = aclCreateIntArray(huge, 4);
	aclTensor *ta, *tb, *tc, *to, *tbad, *tp, *tr;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, j, k;

	ta = tens(s23, 2, ACL_FLOAT, dev(self, a, sizeof(a)));
	tb = tens(s3, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	tc = tens(s23, 2, ACL_BOOL, dev(self, cnd, sizeof(cnd)));
	od = dev(self, NULL, sizeof(o));
	to = tens(s23, 2, ACL_FLOAT, od);
	tbad = tens(s22, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnSWhereGetWorkspaceSize(tc, ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSWhere, ws, ex));
	get(o, od, sizeof(float) * 6);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(cnd[i] ? a[i] : b[i % 3], o[i]);
	EXPECT_EQ(INV, aclnnSWhereGetWorkspaceSize(tc, ta, tb, tbad, &ws, &ex));

	/* [2, 3] padded: last dim (1, 2), first dim (0, 1) -> [3, 6] */
	tp = tens(sp, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnConstantPadNdGetWorkspaceSize(ta, ap, val, tp, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConstantPadNd, ws, ex));
	get(o, od, sizeof(float) * 18);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 6; j++)
			EXPECT_EQ(i < 2 && j >= 1 && j < 4 ? a[i * 3 + j - 1] : 9.0f, o[i * 6 + j]);
	EXPECT_EQ(INV, aclnnConstantPadNdGetWorkspaceSize(ta, ap, val, to, &ws, &ex));
	/* Pads whose sum overflows int64 are refused, not wrapped. */
	EXPECT_EQ(INV, aclnnConstantPadNdGetWorkspaceSize(ta, ahuge, val, tp, &ws, &ex));

	/* [2, 3] repeated (2, 1, 2) -> [2, 2, 6] */
	tr = tens(sr, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnRepeatGetWorkspaceSize(ta, ar, tr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRepeat, ws, ex));
	get(o, od, sizeof(float) * 24);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 6; j++)
				EXPECT_EQ(a[i * 3 + j % 3], o[(k * 2 + i) * 6 + j]);
	EXPECT_EQ(INV, aclnnRepeatGetWorkspaceSize(ta, ar, tp, &ws, &ex));
	aclDestroyScalar(val);
	aclDestroyIntArray(ap); aclDestroyIntArray(ar); aclDestroyIntArray(ahuge);
}

TEST_F(nn, cat_many)
{
	enum { NT = 37, ROWS = 3, MAXW = 3 };
	const aclTensor *l[NT + 1];
	float *x = calloc(NT * ROWS * MAXW, sizeof(float)), *o;
	int32_t xi[ROWS * MAXW];
	int64_t cols[NT], start[NT], total = 0, so[2], sto[2], sbad[2];
	aclTensorList *tl, *tlnull, *tlrank;
	aclTensor *to, *tbad, *t1;
	aclOpExecutor *ex;
	uint64_t ws;
	void *xd, *xid, *od;
	int i, r, c;

	for (i = 0; i < NT * ROWS * MAXW; i++) x[i] = (float)i;
	for (i = 0; i < ROWS * MAXW; i++) xi[i] = -100 - i;
	xd = dev(self, x, NT * ROWS * MAXW * sizeof(float));
	xid = dev(self, xi, sizeof(xi));
	for (i = 0; i < NT; i++) {
		int64_t dims[2] = { ROWS, 1 + i % 3 }, tr[2] = { 1, ROWS };

		cols[i] = dims[1];
		start[i] = total;
		total += dims[1];
		if (i == 5)		/* stored [cols, ROWS] */
			l[i] = view(dims, 2, tr, i * ROWS * MAXW, NT * ROWS * MAXW,
				    ACL_FLOAT, xd);
		else if (i == 7)
			l[i] = tens(dims, 2, ACL_INT32, xid);
		else
			l[i] = view(dims, 2, NULL, i * ROWS * MAXW, NT * ROWS * MAXW,
				    ACL_FLOAT, xd);
	}
	so[0] = ROWS; so[1] = total;
	sto[0] = 1; sto[1] = ROWS;	/* out stored [total, ROWS] */
	sbad[0] = ROWS; sbad[1] = total - 1;
	o = calloc(ROWS * total, sizeof(float));
	od = dev(self, NULL, ROWS * total * sizeof(float));
	to = view(so, 2, sto, 0, ROWS * total, ACL_FLOAT, od);
	tbad = tens(sbad, 2, ACL_FLOAT, od);
	tl = aclCreateTensorList(l, NT);
	ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, 1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
	get(o, od, ROWS * total * sizeof(float));
	for (i = 0; i < NT; i++)
		for (r = 0; r < ROWS; r++)
			for (c = 0; c < cols[i]; c++) {
				float e = i == 7 ? (float)xi[r * cols[i] + c] :
					  i == 5 ? x[i * ROWS * MAXW + c * ROWS + r] :
					  x[i * ROWS * MAXW + r * cols[i] + c];

				EXPECT_EQ(e, o[(start[i] + c) * ROWS + r]);
			}
	EXPECT_EQ(NUL, aclnnCatGetWorkspaceSize(NULL, 1, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnCatGetWorkspaceSize(tl, 1, NULL, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 1, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 2, to, &ws, &ex));
	/* A NULL entry, and a rank-1 tensor among rank-2 ones. */
	l[NT] = l[0];
	l[20] = NULL;
	tlnull = aclCreateTensorList(l, NT);
	EXPECT_EQ(NUL, aclnnCatGetWorkspaceSize(tlnull, 1, to, &ws, &ex));
	so[0] = ROWS;
	t1 = tens(so, 1, ACL_FLOAT, xd);
	l[20] = t1;
	tlrank = aclCreateTensorList(l, NT);
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tlrank, 1, to, &ws, &ex));
	free(x);
	free(o);
}

/*
 * CANN's example for aclnnConstantPadNd (conversion/pad_v3/examples/
 * test_aclnn_constant_pad_nd.cpp): FLOAT [3, 3] = 0 ... 8, pad {1, 1, 1, 1},
 * value 0 -> [5, 5] with the input in the middle. Then negative pads,
 * which CANN's op_api (like PyTorch) takes as cropping: pad {-1, 2, 1, -2}
 * with value 9 -> [2, 4]; a crop larger than the dim is 161002.
 */
TEST_F(nn, constant_pad_cann_example_negative)
{
	float x[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, o[25], v0 = 0, v9 = 9;
	static const float crop[8] = { 9, 9, 9, 9, 1, 2, 9, 9 };
	int64_t sx[2] = { 3, 3 }, so[2] = { 5, 5 }, sc[2] = { 2, 4 };
	int64_t p1[4] = { 1, 1, 1, 1 }, p2[4] = { -1, 2, 1, -2 }, p3[2] = { -2, -2 };
	aclIntArray *a1 = aclCreateIntArray(p1, 4), *a2 = aclCreateIntArray(p2, 4);
	aclIntArray *a3 = aclCreateIntArray(p3, 2);
	aclScalar *s0 = aclCreateScalar(&v0, ACL_FLOAT), *s9 = aclCreateScalar(&v9, ACL_FLOAT);
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *to = tens(so, 2, ACL_FLOAT, od), *tc = tens(sc, 2, ACL_FLOAT, od);
	aclOpExecutor *ex;
	uint64_t ws;
	int i, j;

	ASSERT_EQ(0, aclnnConstantPadNdGetWorkspaceSize(tx, a1, s0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConstantPadNd, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++)
			EXPECT_EQ(i && j && i < 4 && j < 4 ? x[(i - 1) * 3 + j - 1] : 0.0f,
				  o[i * 5 + j]) TH_LOG("(%d, %d)", i, j);
	ASSERT_EQ(0, aclnnConstantPadNdGetWorkspaceSize(tx, a2, s9, tc, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConstantPadNd, ws, ex));
	get(o, od, sizeof(float) * 8);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(crop[i], o[i]) TH_LOG("%d", i);
	/* crops of 2 + 2 from a dim of 3 */
	EXPECT_EQ(INV, aclnnConstantPadNdGetWorkspaceSize(tx, a3, s9, tc, &ws, &ex));
	aclDestroyIntArray(a1);
	aclDestroyIntArray(a2);
	aclDestroyIntArray(a3);
	aclDestroyScalar(s0);
	aclDestroyScalar(s9);
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(tc);
}

TEST_HARNESS_MAIN
