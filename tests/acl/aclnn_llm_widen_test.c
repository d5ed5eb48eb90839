// SPDX-License-Identifier: MIT
/*
 * Existing aclnn operators as wide as CANN's documents and as ggml's CANN
 * backend calls them (issue 36), on the real driver against C references:
 * RmsNorm with ggml's lower-rank rstdOut, ArgMax/ArgMin into INT32 and from
 * DOUBLE/INT16, Arange into an N-D (strided) out, Cat/Repeat/InplaceCopy in
 * every dtype the device holds, BatchMatMul broadcasting a batch of 1, and
 * GroupNorm with ggml's overlapping meanOut/rstdOut, and the data movement
 * ggml also reaches with such dtypes (Permute, IndexSelect, ConstantPadNd,
 * InplaceFillScalar). Each with the cases that stay refused.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_slice.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

/* The dtypes the device holds that are not floats of 2 or 4 bytes. */
static const aclDataType raw_dts[] = {
	ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32,
	ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_BOOL,
};
#define NRAW (sizeof(raw_dts) / sizeof(raw_dts[0]))

static size_t dsize(aclDataType dt)
{
	switch (dt) {
	case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
	case ACL_INT16: case ACL_UINT16: case ACL_FLOAT16: case ACL_BF16: return 2;
	case ACL_INT32: case ACL_UINT32: case ACL_FLOAT: return 4;
	default: return 8;
	}
}

/* Store integer v as element i of a buffer of dtype dt. */
static void put(void *p, aclDataType dt, int i, int64_t v)
{
	char *c = (char *)p + (size_t)i * dsize(dt);

	switch (dt) {
	case ACL_INT8: case ACL_UINT8: { int8_t x = (int8_t)v; memcpy(c, &x, 1); break; }
	case ACL_BOOL: { uint8_t x = v != 0; memcpy(c, &x, 1); break; }
	case ACL_INT16: case ACL_UINT16: { int16_t x = (int16_t)v; memcpy(c, &x, 2); break; }
	case ACL_INT32: case ACL_UINT32: { int32_t x = (int32_t)v; memcpy(c, &x, 4); break; }
	case ACL_FLOAT: { float x = (float)v; memcpy(c, &x, 4); break; }
	case ACL_DOUBLE: { double x = (double)v; memcpy(c, &x, 8); break; }
	default: memcpy(c, &v, 8); break;
	}
}

/* A value of element i that differs between elements and dtypes. */
static int64_t val(aclDataType dt, int i)
{
	if (dt == ACL_BOOL)
		return (i * 7 + 3) % 3 != 0;
	return (int64_t)((i * 37 + 5) % 101) - 50 + (int64_t)dt;
}

/* ------------------------------------------------------------ RmsNorm -- */

/* Host reference: rstd of each row of len d, y = x * rstd * g. */
static void rms_ref(const float *x, const float *g, int rows, int d, float eps,
		    float *y, float *rs)
{
	int r, i;

	for (r = 0; r < rows; r++) {
		double s = 0;

		for (i = 0; i < d; i++)
			s += (double)x[r * d + i] * x[r * d + i];
		rs[r] = (float)(1.0 / sqrt(s / d + eps));
		for (i = 0; i < d; i++)
			y[r * d + i] = x[r * d + i] * rs[r] * g[i];
	}
}

/*
 * ggml_cann_rms_norm: x [2, 3, 4, 8] (ggml's ne reversed), gamma [8],
 * rstdOut FLOAT [2, 3, 4] (one rank lower than x, as CANN's kernel takes
 * it). Then the same rows into a strided 3-D rstdOut, and a FLOAT16 x with
 * the FLOAT 3-D rstdOut.
 */
TEST_F(nn, rms_norm_lower_rank_rstd)
{
	enum { A = 2, B = 3, C = 4, D = 8, ROWS = A * B * C, N = ROWS * D };
	float x[N], g[D], y[N], ry[N], rs[ROWS], rrs[ROWS], rs2[2 * ROWS];
	aclFloat16 xh[N], yh[N];
	int64_t sx[4] = { A, B, C, D }, sg[1] = { D }, sr[3] = { A, B, C };
	int64_t sr_st[3] = { 2 * B * C, 2 * C, 2 };	/* every other float */
	int64_t sr_one[4] = { A, B, C, 1 }, sr_flat[2] = { A, B * C };
	int64_t sr_few[3] = { A, B, 2 }, sr_hi[5] = { A, B, C, 1, 1 };
	int64_t sr_1d[1] = { A };
	aclTensor *tx, *tg, *ty, *tr, *txh, *tyh;
	void *yd, *rd, *r2d, *yhd;
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = frand(i);
		xh[i] = aclFloatToFloat16(x[i]);
	}
	for (i = 0; i < D; i++) g[i] = 0.5f + 0.25f * (float)i;
	rms_ref(x, g, ROWS, D, 1e-6f, ry, rrs);
	tx = tens(sx, 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	tg = tens(sg, 1, ACL_FLOAT, dev(self, g, sizeof(g)));
	yd = dev(self, NULL, sizeof(y));
	ty = tens(sx, 4, ACL_FLOAT, yd);
	rd = dev(self, NULL, sizeof(rs));
	tr = tens(sr, 3, ACL_FLOAT, rd);
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty, tr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(y, yd, sizeof(y));
	get(rs, rd, sizeof(rs));
	for (i = 0; i < ROWS; i++)
		EXPECT_TRUE(CLOSE(rs[i], rrs[i]));
	for (i = 0; i < N; i++)
		EXPECT_TRUE(CLOSE(y[i], ry[i]));

	/* a strided 3-D rstdOut: the gaps keep their values */
	for (i = 0; i < 2 * ROWS; i++) rs2[i] = -7.0f;
	r2d = dev(self, rs2, sizeof(rs2));
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  view(sr, 3, sr_st, 0, 2 * ROWS, ACL_FLOAT, r2d), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(rs2, r2d, sizeof(rs2));
	for (i = 0; i < ROWS; i++) {
		EXPECT_TRUE(CLOSE(rs2[2 * i], rrs[i]));
		EXPECT_EQ(-7.0f, rs2[2 * i + 1]);
	}

	/* FLOAT16 x and yOut, FLOAT gamma, FLOAT 3-D rstdOut */
	txh = tens(sx, 4, ACL_FLOAT16, dev(self, xh, sizeof(xh)));
	yhd = dev(self, NULL, sizeof(yh));
	tyh = tens(sx, 4, ACL_FLOAT16, yhd);
	aclrtMemset(rd, sizeof(rs), 0, sizeof(rs));
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(txh, tg, 1e-6, tyh, tr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRmsNorm, ws, ex));
	get(yh, yhd, sizeof(yh));
	get(rs, rd, sizeof(rs));
	for (i = 0; i < ROWS; i++)
		EXPECT_LE(fabsf(rs[i] - rrs[i]), 2e-3f * rrs[i]);
	for (i = 0; i < N; i++)
		EXPECT_LE(fabsf(aclFloat16ToFloat(yh[i]) - ry[i]),
			  3e-3f * (1 + fabsf(ry[i])));

	/* The documented [2, 3, 4, 1] still works. */
	ASSERT_EQ(0, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr_one, 4, ACL_FLOAT, rd), &ws, &ex));
	aclDestroyAclOpExecutor(ex);

	/* Refused: a dim neither x's nor 1, too few values, a rank above
	 * x's, fewer rows than x has, a FLOAT16 rstdOut. */
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr_flat, 2, ACL_FLOAT, rd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr_few, 3, ACL_FLOAT, rd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr_hi, 5, ACL_FLOAT, rd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr_1d, 1, ACL_FLOAT, rd), &ws, &ex));
	EXPECT_EQ(INV, aclnnRmsNormGetWorkspaceSize(tx, tg, 1e-6, ty,
		  tens(sr, 3, ACL_FLOAT16, rd), &ws, &ex));
}

/* ------------------------------------------------------- ArgMax/ArgMin -- */

/*
 * ggml_cann_argmax: x [2, 2, 3, 5] FLOAT, dim 3, keepdim false, out INT32
 * [2, 2, 3]. Then a transposed INT16 x, a DOUBLE x into INT64, ArgMin into
 * INT32 with keepdim.
 */
TEST_F(nn, argmax_int32_out)
{
	enum { R = 12, K = 5 };
	float x[R * K];
	int16_t xs[R * K];
	double xd[R * K];
	int32_t o[R], o2[R];
	int64_t o64[R];
	int64_t sx[4] = { 2, 2, 3, K }, so[3] = { 2, 2, 3 }, sk[4] = { 2, 2, 3, 1 };
	int64_t s2[2] = { R, K }, st2[2] = { 1, R }, s1[1] = { R };
	aclTensor *tx, *to, *txs, *txd;
	void *od, *o64d;
	aclOpExecutor *ex;
	uint64_t ws;
	int r, k;

	for (r = 0; r < R * K; r++) {
		x[r] = frand(r * 3 + 1);
		xs[r] = (int16_t)(((r * 53) % 97) * 300 - 14000);
		xd[r] = (double)frand(r) * 1e-9 + (double)(r % 7);
	}
	tx = tens(sx, 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_INT32, od);
	ASSERT_EQ(0, aclnnArgMaxGetWorkspaceSize(tx, 3, false, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArgMax, ws, ex));
	get(o, od, sizeof(o));
	for (r = 0; r < R; r++) {
		int best = 0;

		for (k = 1; k < K; k++)
			if (x[r * K + k] > x[r * K + best]) best = k;
		EXPECT_EQ(best, o[r]);
	}

	/* INT16 x stored [K, R], seen as [R, K] */
	txs = view(s2, 2, st2, 0, R * K, ACL_INT16, dev(self, xs, sizeof(xs)));
	ASSERT_EQ(0, aclnnArgMaxGetWorkspaceSize(txs, -1, false, tens(s1, 1, ACL_INT32, od),
						 &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArgMax, ws, ex));
	get(o, od, sizeof(o));
	for (r = 0; r < R; r++) {
		int best = 0;

		for (k = 1; k < K; k++)
			if (xs[k * R + r] > xs[best * R + r]) best = k;
		EXPECT_EQ(best, o[r]);
	}

	/* DOUBLE x whose maxima differ only past FLOAT's precision: INT64 */
	txd = tens(s2, 2, ACL_DOUBLE, dev(self, xd, sizeof(xd)));
	o64d = dev(self, NULL, sizeof(o64));
	ASSERT_EQ(0, aclnnArgMaxGetWorkspaceSize(txd, 1, false, tens(s1, 1, ACL_INT64, o64d),
						 &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArgMax, ws, ex));
	get(o64, o64d, sizeof(o64));
	for (r = 0; r < R; r++) {
		int best = 0;

		for (k = 1; k < K; k++)
			if (xd[r * K + k] > xd[r * K + best]) best = k;
		EXPECT_EQ(best, o64[r]);
	}

	/* ArgMin, INT32, keepdim */
	ASSERT_EQ(0, aclnnArgMinGetWorkspaceSize(tx, -1, true, tens(sk, 4, ACL_INT32, od),
						 &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArgMin, ws, ex));
	get(o2, od, sizeof(o2));
	for (r = 0; r < R; r++) {
		int best = 0;

		for (k = 1; k < K; k++)
			if (x[r * K + k] < x[r * K + best]) best = k;
		EXPECT_EQ(best, o2[r]);
	}

	/* Refused: other out dtypes, BOOL and unsigned wide selfs, bad dim. */
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tx, 3, false, tens(so, 3, ACL_INT16, od),
						   &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tx, 3, false, tens(so, 3, ACL_UINT32, od),
						   &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tx, 3, false, tens(so, 3, ACL_FLOAT, od),
						   &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tens(s2, 2, ACL_UINT16, od), 1, false,
						   tens(s1, 1, ACL_INT32, od), &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tens(s2, 2, ACL_UINT64, od), 1, false,
						   tens(s1, 1, ACL_INT32, od), &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMaxGetWorkspaceSize(tens(s2, 2, ACL_BOOL, od), 1, false,
						   tens(s1, 1, ACL_INT32, od), &ws, &ex));
	EXPECT_EQ(INV, aclnnArgMinGetWorkspaceSize(tx, 4, false, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnArgMaxGetWorkspaceSize(tx, 3, false, NULL, &ws, &ex));
}

/* ------------------------------------------------------------- Arange -- */

/*
 * ggml_cann_arange: out is ggml's 4-D [1, 1, 1, n] view. Also a strided
 * 2-D out [2, 3] (row stride 4: the gaps keep their values), FLOAT16, and
 * a DOUBLE out computed in double.
 */
TEST_F(nn, arange_nd_out)
{
	float start = 0.5f, stop = 6.5f, step = 1.0f, o[8];
	aclFloat16 oh[6];
	int64_t s4[4] = { 1, 1, 1, 6 }, s2[2] = { 2, 3 }, st2[2] = { 4, 1 };
	int64_t s7[4] = { 1, 1, 1, 7 }, s23[2] = { 3, 3 };
	aclScalar *a = aclCreateScalar(&start, ACL_FLOAT);
	aclScalar *b = aclCreateScalar(&stop, ACL_FLOAT);
	aclScalar *c = aclCreateScalar(&step, ACL_FLOAT);
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *ohd;
	int i;

	for (i = 0; i < 8; i++) o[i] = -1.0f;
	od = dev(self, o, sizeof(o));
	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(a, b, c, tens(s4, 4, ACL_FLOAT, od), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0.5f + (float)i, o[i]);
	EXPECT_EQ(-1.0f, o[6]);

	for (i = 0; i < 8; i++) o[i] = -1.0f;
	aclrtMemcpy(od, sizeof(o), o, sizeof(o), ACL_MEMCPY_HOST_TO_DEVICE);
	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(a, b, c, view(s2, 2, st2, 0, 8, ACL_FLOAT, od),
						 &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0.5f + (float)i, o[(i / 3) * 4 + i % 3]);
	EXPECT_EQ(-1.0f, o[3]);
	EXPECT_EQ(-1.0f, o[7]);

	ohd = dev(self, NULL, sizeof(oh));
	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(a, b, c, tens(s2, 2, ACL_FLOAT16, ohd),
						 &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
	get(oh, ohd, sizeof(oh));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0.5f + (float)i, aclFloat16ToFloat(oh[i]));

	/* DOUBLE out, which CANN lists: full precision, strided [2, 3] */
	{
		double ds = 0.1, de = 1.25, dst = 0.2, od8[8];
		aclScalar *da = aclCreateScalar(&ds, ACL_DOUBLE);
		aclScalar *db = aclCreateScalar(&de, ACL_DOUBLE);
		aclScalar *dc = aclCreateScalar(&dst, ACL_DOUBLE);
		void *dd;

		for (i = 0; i < 8; i++) od8[i] = -1.0;
		dd = dev(self, od8, sizeof(od8));
		ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(da, db, dc,
			  view(s2, 2, st2, 0, 8, ACL_DOUBLE, dd), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
		get(od8, dd, sizeof(od8));
		for (i = 0; i < 6; i++)
			EXPECT_EQ(0.1 + (double)i * 0.2, od8[(i / 3) * 4 + i % 3]);
		EXPECT_EQ(-1.0, od8[3]);
		EXPECT_EQ(-1.0, od8[7]);
		/* Refused: out dtypes CANN does not list (INT16, UINT32, BOOL). */
		EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(da, db, dc, tens(s2, 2, ACL_INT16, dd),
							   &ws, &ex));
		EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(da, db, dc, tens(s2, 2, ACL_UINT32, dd),
							   &ws, &ex));
		EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(da, db, dc, tens(s2, 2, ACL_BOOL, dd),
							   &ws, &ex));
		aclDestroyScalar(da); aclDestroyScalar(db); aclDestroyScalar(dc);
	}

	/* Refused: an element count other than ceil((end - start) / step). */
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(a, b, c, tens(s7, 4, ACL_FLOAT, od), &ws, &ex));
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(a, b, c, tens(s23, 2, ACL_FLOAT, od), &ws, &ex));
	aclDestroyScalar(a); aclDestroyScalar(b); aclDestroyScalar(c);
}

/* ---------------------------------------------- Cat, Repeat, InplaceCopy -- */

/*
 * Every non-float dtype and DOUBLE: Cat of a [2, 3] stored transposed and
 * a [2, 2] along dim 1; Repeat of [2, 3] by (2, 1, 2); InplaceCopy of a
 * [3] src broadcast into [2, 3]. Results compared byte for byte.
 */
TEST_F(nn, cat_repeat_copy_all_dtypes)
{
	int64_t sa[2] = { 2, 3 }, sta[2] = { 1, 2 }, sb[2] = { 2, 2 }, sc[2] = { 2, 5 };
	int64_t rp[3] = { 2, 1, 2 }, sr[3] = { 2, 2, 6 }, s3[1] = { 3 };
	unsigned char a[6 * 8], b[4 * 8], c[10 * 8], r[24 * 8], e[24 * 8];
	unsigned char cp[6 * 8], s[3 * 8];
	void *ad, *bd, *cd, *rd, *cpd, *sd;
	aclIntArray *rep = ia(rp, 3);
	unsigned k;

	ad = dev(self, NULL, sizeof(a));
	bd = dev(self, NULL, sizeof(b));
	cd = dev(self, NULL, sizeof(c));
	rd = dev(self, NULL, sizeof(r));
	cpd = dev(self, NULL, sizeof(cp));
	sd = dev(self, NULL, sizeof(s));
	for (k = 0; k < NRAW; k++) {
		aclDataType dt = raw_dts[k];
		size_t es = dsize(dt);
		const aclTensor *l[2];
		aclTensorList *tl;
		aclOpExecutor *ex;
		uint64_t ws;
		int i, j, m;

		TH_LOG("dtype %d", (int)dt);
		/* a's element (i, j) stored at j * 2 + i */
		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++)
				put(a, dt, j * 2 + i, val(dt, i * 3 + j));
		for (i = 0; i < 4; i++) put(b, dt, i, val(dt, 100 + i));
		for (i = 0; i < 3; i++) put(s, dt, i, val(dt, 200 + i));
		aclrtMemcpy(ad, sizeof(a), a, 6 * es, ACL_MEMCPY_HOST_TO_DEVICE);
		aclrtMemcpy(bd, sizeof(b), b, 4 * es, ACL_MEMCPY_HOST_TO_DEVICE);
		aclrtMemcpy(sd, sizeof(s), s, 3 * es, ACL_MEMCPY_HOST_TO_DEVICE);

		l[0] = view(sa, 2, sta, 0, 6, dt, ad);
		l[1] = tens(sb, 2, dt, bd);
		tl = aclCreateTensorList(l, 2);
		ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, -1, tens(sc, 2, dt, cd), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
		get(c, cd, 10 * es);
		for (i = 0; i < 2; i++)
			for (j = 0; j < 5; j++) {
				put(e, dt, 0, j < 3 ? val(dt, i * 3 + j) : val(dt, 100 + i * 2 + j - 3));
				EXPECT_EQ(0, memcmp(e, c + (i * 5 + j) * es, es));
			}
		aclDestroyTensorList(tl);

		/* Repeat: out[p][q][w] = a[q][w % 3] */
		ASSERT_EQ(0, aclnnRepeatGetWorkspaceSize(view(sa, 2, sta, 0, 6, dt, ad), rep,
							 tens(sr, 3, dt, rd), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnRepeat, ws, ex));
		get(r, rd, 24 * es);
		for (m = 0; m < 24; m++) {
			put(e, dt, 0, val(dt, ((m / 6) % 2) * 3 + (m % 6) % 3));
			EXPECT_EQ(0, memcmp(e, r + m * es, es));
		}

		/* InplaceCopy: selfRef [2, 3] = src [3] broadcast */
		ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(tens(sa, 2, dt, cpd),
							      tens(s3, 1, dt, sd), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
		get(cp, cpd, 6 * es);
		for (m = 0; m < 6; m++)
			EXPECT_EQ(0, memcmp(s + (m % 3) * es, cp + m * es, es));

		/* Refused: Repeat into another dtype, Cat of mismatched dims. */
		EXPECT_EQ(INV, aclnnRepeatGetWorkspaceSize(tens(sa, 2, dt, ad), rep,
			  tens(sr, 3, dt == ACL_INT32 ? ACL_INT64 : ACL_INT32, rd), &ws, &ex));
		/* (destroying a list destroyed its tensors) */
		l[0] = view(sa, 2, sta, 0, 6, dt, ad);
		l[1] = tens(sc, 2, dt, bd);
		tl = aclCreateTensorList(l, 2);
		EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 0, tens(sc, 2, dt, cd), &ws, &ex));
		aclDestroyTensorList(tl);
		if (_metadata->exit_code)
			break;
	}
	aclDestroyIntArray(rep);
}

/*
 * Across dtypes: Cat of INT16 and INT32 into INT32 and of INT16 and DOUBLE
 * into DOUBLE; InplaceCopy FLOAT -> INT16 (truncates), INT16 -> FLOAT,
 * DOUBLE -> UINT16, UINT32 -> INT64. A BOOL tensor still needs a BOOL Cat
 * out, and src must broadcast to selfRef.
 */
TEST_F(nn, cat_copy_cross_dtype)
{
	int16_t a16[4] = { -300, 7, 32000, -1 }, c16[4];
	int32_t b32[2] = { 100000, -5 }, c32[6];
	double bd[2] = { 0.25, -1e10 }, cdd[6];
	float f[4] = { 2.9f, -2.9f, 1000.5f, -0.5f }, ff[4];
	uint16_t u16[4];
	uint32_t u32[2] = { 4000000000u, 7 };
	int64_t i64[2];
	double dsrc[4] = { 65535.0, 1.75, 40000.0, 0.0 };
	int64_t s22[2] = { 2, 2 }, s21[2] = { 2, 1 }, s23[2] = { 2, 3 }, s4[1] = { 4 };
	int64_t s2[1] = { 2 }, s3[1] = { 3 };
	void *a16d, *b32d, *bdd, *c32d, *cdd_d, *fd, *c16d, *ffd, *u16d, *u32d, *i64d, *dsd;
	const aclTensor *l[2];
	aclTensorList *tl;
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	a16d = dev(self, a16, sizeof(a16));
	b32d = dev(self, b32, sizeof(b32));
	bdd = dev(self, bd, sizeof(bd));
	c32d = dev(self, NULL, sizeof(c32));
	cdd_d = dev(self, NULL, sizeof(cdd));
	l[0] = tens(s22, 2, ACL_INT16, a16d);
	l[1] = tens(s21, 2, ACL_INT32, b32d);
	tl = aclCreateTensorList(l, 2);
	ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, 1, tens(s23, 2, ACL_INT32, c32d), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
	get(c32, c32d, sizeof(c32));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(a16[2 * i], c32[3 * i]);
		EXPECT_EQ(a16[2 * i + 1], c32[3 * i + 1]);
		EXPECT_EQ(b32[i], c32[3 * i + 2]);
	}
	aclDestroyTensorList(tl);
	l[0] = tens(s22, 2, ACL_INT16, a16d);	/* the list destroyed the last */
	l[1] = tens(s21, 2, ACL_DOUBLE, bdd);
	tl = aclCreateTensorList(l, 2);
	ASSERT_EQ(0, aclnnCatGetWorkspaceSize(tl, 1, tens(s23, 2, ACL_DOUBLE, cdd_d), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCat, ws, ex));
	get(cdd, cdd_d, sizeof(cdd));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ((double)a16[2 * i], cdd[3 * i]);
		EXPECT_EQ((double)a16[2 * i + 1], cdd[3 * i + 1]);
		EXPECT_EQ(bd[i], cdd[3 * i + 2]);
	}
	aclDestroyTensorList(tl);
	/* a BOOL tensor needs a BOOL out, whatever the other dtypes */
	l[0] = tens(s22, 2, ACL_INT16, a16d);
	l[1] = tens(s21, 2, ACL_BOOL, b32d);
	tl = aclCreateTensorList(l, 2);
	EXPECT_EQ(INV, aclnnCatGetWorkspaceSize(tl, 1, tens(s23, 2, ACL_INT16, c32d), &ws, &ex));
	aclDestroyTensorList(tl);

	/* InplaceCopy across dtypes */
	fd = dev(self, f, sizeof(f));
	c16d = dev(self, NULL, sizeof(c16));
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(tens(s4, 1, ACL_INT16, c16d),
						      tens(s4, 1, ACL_FLOAT, fd), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(c16, c16d, sizeof(c16));
	for (i = 0; i < 4; i++)
		EXPECT_EQ((int16_t)f[i], c16[i]);
	ffd = dev(self, NULL, sizeof(ff));
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(tens(s4, 1, ACL_FLOAT, ffd),
						      tens(s4, 1, ACL_INT16, a16d), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(ff, ffd, sizeof(ff));
	for (i = 0; i < 4; i++)
		EXPECT_EQ((float)a16[i], ff[i]);
	dsd = dev(self, dsrc, sizeof(dsrc));
	u16d = dev(self, NULL, sizeof(u16));
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(tens(s4, 1, ACL_UINT16, u16d),
						      tens(s4, 1, ACL_DOUBLE, dsd), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(u16, u16d, sizeof(u16));
	for (i = 0; i < 4; i++)
		EXPECT_EQ((uint16_t)dsrc[i], u16[i]);
	u32d = dev(self, u32, sizeof(u32));
	i64d = dev(self, NULL, sizeof(i64));
	ASSERT_EQ(0, aclnnInplaceCopyGetWorkspaceSize(tens(s2, 1, ACL_INT64, i64d),
						      tens(s2, 1, ACL_UINT32, u32d), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceCopy, ws, ex));
	get(i64, i64d, sizeof(i64));
	EXPECT_EQ(4000000000LL, i64[0]);
	EXPECT_EQ(7, i64[1]);
	/* src [3] does not broadcast to [4] */
	EXPECT_EQ(INV, aclnnInplaceCopyGetWorkspaceSize(tens(s4, 1, ACL_INT16, c16d),
							tens(s3, 1, ACL_INT16, a16d), &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceCopyGetWorkspaceSize(tens(s4, 1, ACL_INT16, c16d),
							NULL, &ws, &ex));
}

/*
 * The other data movement CANN documents for every dtype, in each non-float
 * dtype and DOUBLE: Permute [2, 3] -> [3, 2]; IndexSelect of [3, 2] rows
 * (2, 0) by an INT32 index; ConstantPadNd of [2, 3] by one leading column
 * of 1; InplaceFillScalar with 3 (BOOL: true). Slice keeps CANN's eight
 * dtypes, and an integer tensor still takes no float fill value.
 */
TEST_F(nn, move_ops_all_dtypes)
{
	int64_t sa[2] = { 2, 3 }, sp[2] = { 3, 2 }, si[2] = { 2, 2 }, spad[2] = { 2, 4 };
	int64_t perm[2] = { 1, 0 }, pad[2] = { 1, 0 }, s2[1] = { 2 };
	int32_t idx[2] = { 2, 0 };
	unsigned char a[6 * 8], o[8 * 8], e[8];
	aclIntArray *ap = ia(perm, 2), *apad = ia(pad, 2);
	int64_t one_i = 1, three = 3;
	double tenth = 0.1, got;
	aclScalar *one = aclCreateScalar(&one_i, ACL_INT64), *s3 = aclCreateScalar(&three, ACL_INT64);
	aclScalar *ft = aclCreateScalar(&tenth, ACL_DOUBLE);
	void *ad, *od, *id;
	aclOpExecutor *ex;
	uint64_t ws;
	unsigned k;
	int m;

	ad = dev(self, NULL, sizeof(a));
	od = dev(self, NULL, sizeof(o));
	id = dev(self, idx, sizeof(idx));
	for (k = 0; k < NRAW; k++) {
		aclDataType dt = raw_dts[k];
		size_t es = dsize(dt);

		TH_LOG("dtype %d", (int)dt);
		for (m = 0; m < 6; m++) put(a, dt, m, val(dt, m));
		aclrtMemcpy(ad, sizeof(a), a, 6 * es, ACL_MEMCPY_HOST_TO_DEVICE);

		ASSERT_EQ(0, aclnnPermuteGetWorkspaceSize(tens(sa, 2, dt, ad), ap,
							  tens(sp, 2, dt, od), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnPermute, ws, ex));
		get(o, od, 6 * es);
		for (m = 0; m < 6; m++)	/* out (i, j) = a (j, i) */
			EXPECT_EQ(0, memcmp(o + m * es, a + ((m % 2) * 3 + m / 2) * es, es));

		ASSERT_EQ(0, aclnnIndexSelectGetWorkspaceSize(tens(sp, 2, dt, ad), 0,
			  tens(s2, 1, ACL_INT32, id), tens(si, 2, dt, od), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnIndexSelect, ws, ex));
		get(o, od, 4 * es);
		EXPECT_EQ(0, memcmp(o, a + 4 * es, 2 * es));
		EXPECT_EQ(0, memcmp(o + 2 * es, a, 2 * es));

		ASSERT_EQ(0, aclnnConstantPadNdGetWorkspaceSize(tens(sa, 2, dt, ad), apad, one,
			  tens(spad, 2, dt, od), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnConstantPadNd, ws, ex));
		get(o, od, 8 * es);
		put(e, dt, 0, 1);
		for (m = 0; m < 8; m++)
			EXPECT_EQ(0, memcmp(o + m * es, m % 4 ? a + ((m / 4) * 3 + m % 4 - 1) * es : e,
					    es));

		ASSERT_EQ(0, aclnnInplaceFillScalarGetWorkspaceSize(tens(sa, 2, dt, od), s3,
								    &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceFillScalar, ws, ex));
		get(o, od, 6 * es);
		put(e, dt, 0, 3);
		for (m = 0; m < 6; m++)
			EXPECT_EQ(0, memcmp(o + m * es, e, es));

		/* Refused: Slice beyond CANN's eight dtypes, a float fill value
		 * into an integer tensor, a Permute out of another dtype. */
		if (dt == ACL_INT16 || dt == ACL_UINT16 || dt == ACL_UINT32 ||
		    dt == ACL_UINT64 || dt == ACL_DOUBLE)
			EXPECT_EQ(INV, aclnnSliceGetWorkspaceSize(tens(sa, 2, dt, ad), 1, 0, 2, 1,
				  tens(si, 2, dt, od), &ws, &ex));
		if (dt != ACL_DOUBLE)
			EXPECT_EQ(INV, aclnnInplaceFillScalarGetWorkspaceSize(tens(sa, 2, dt, od),
				  ft, &ws, &ex));
		EXPECT_EQ(INV, aclnnPermuteGetWorkspaceSize(tens(sa, 2, dt, ad), ap,
			  tens(sp, 2, dt == ACL_INT8 ? ACL_UINT8 : ACL_INT8, od), &ws, &ex));
		if (_metadata->exit_code)
			break;
	}
	/* DOUBLE fill keeps the value's full precision */
	ASSERT_EQ(0, aclnnInplaceFillScalarGetWorkspaceSize(tens(s2, 1, ACL_DOUBLE, od), ft,
							    &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceFillScalar, ws, ex));
	get(&got, od, sizeof(got));
	EXPECT_EQ(0.1, got);
	aclDestroyIntArray(ap); aclDestroyIntArray(apad);
	aclDestroyScalar(one); aclDestroyScalar(s3); aclDestroyScalar(ft);
}

/* -------------------------------------------------------- BatchMatMul -- */

/* out[b] = x[b or 0] @ w[b or 0], w stored transposed as ggml passes it. */
TEST_F(nn, batch_matmul_broadcast)
{
	enum { B = 3, M = 2, K = 4, N = 5 };
	float x[B * M * K], w[B * K * N], o[B * M * N];
	int64_t sx1[3] = { 1, M, K }, sxb[3] = { B, M, K };
	int64_t sw[3] = { B, K, N }, stw[3] = { K * N, 1, K };	/* [b][n][k] storage */
	int64_t sw1[3] = { 1, K, N }, so[3] = { B, M, N };
	int64_t sbad[3] = { 2, M, K }, s4[4] = { 1, B, M, K };
	void *xd, *wd, *od;
	aclOpExecutor *ex;
	uint64_t ws;
	int pass, b, m, n, k;

	for (b = 0; b < B * M * K; b++) x[b] = frand(b);
	for (b = 0; b < B * K * N; b++) w[b] = frand(b * 5 + 2);
	xd = dev(self, x, sizeof(x));
	wd = dev(self, w, sizeof(w));
	od = dev(self, NULL, sizeof(o));
	for (pass = 0; pass < 2; pass++) {
		/* pass 0: self's batch 1; pass 1: mat2's batch 1 */
		aclTensor *tx = pass ? tens(sxb, 3, ACL_FLOAT, xd) : tens(sx1, 3, ACL_FLOAT, xd);
		aclTensor *tw = pass ? view(sw1, 3, stw, 0, B * K * N, ACL_FLOAT, wd) :
				       view(sw, 3, stw, 0, B * K * N, ACL_FLOAT, wd);

		ASSERT_EQ(0, aclnnBatchMatMulGetWorkspaceSize(tx, tw, tens(so, 3, ACL_FLOAT, od),
							      2, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnBatchMatMul, ws, ex));
		get(o, od, sizeof(o));
		for (b = 0; b < B; b++)
			for (m = 0; m < M; m++)
				for (n = 0; n < N; n++) {
					int bx = pass ? b : 0, bw = pass ? 0 : b;
					float s = 0;

					for (k = 0; k < K; k++)
						s += x[(bx * M + m) * K + k] *
						     w[bw * K * N + n * K + k];
					EXPECT_TRUE(CLOSE(o[(b * M + m) * N + n], s));
				}
	}
	/* Refused: batches 2 and 3, a 4-D operand, an out of the wrong batch. */
	EXPECT_EQ(INV, aclnnBatchMatMulGetWorkspaceSize(tens(sbad, 3, ACL_FLOAT, xd),
		  tens(sw, 3, ACL_FLOAT, wd), tens(so, 3, ACL_FLOAT, od), 2, &ws, &ex));
	EXPECT_EQ(INV, aclnnBatchMatMulGetWorkspaceSize(tens(s4, 4, ACL_FLOAT, xd),
		  tens(sw, 3, ACL_FLOAT, wd), tens(so, 3, ACL_FLOAT, od), 2, &ws, &ex));
	EXPECT_EQ(INV, aclnnBatchMatMulGetWorkspaceSize(tens(sx1, 3, ACL_FLOAT, xd),
		  tens(sw1, 3, ACL_FLOAT, wd), tens(so, 3, ACL_FLOAT, od), 2, &ws, &ex));
}

/* ---------------------------------------------------------- GroupNorm -- */

/*
 * ggml_cann_group_norm: meanOut and rstdOut (N, group) FLOAT, rstdOut
 * starting N * group BYTES after meanOut, so they overlap. CANN copies
 * out, then meanOut, then rstdOut: the buffer holds mean[0] and then all
 * of rstd. Also the same call with separate statistics.
 */
TEST_F(nn, group_norm_overlapping_stats)
{
	enum { GN = 2, GC = 4, GH = 2, GW = 3, GG = 2, HW = GH * GW };
	enum { CG = GC / GG, NX = GN * GC * HW, NS = GN * GG };
	float x[NX], o[NX], ro[NX], rm[NS], rr[NS], buf[8], m2[NS], r2[NS];
	int64_t sx[4] = { GN, GC, GH, GW }, ss[2] = { GN, GG }, s1[1] = { NS };
	void *xd, *od, *bd, *md, *rd;
	aclOpExecutor *ex;
	uint64_t ws;
	int n, g, i;

	for (i = 0; i < NX; i++) x[i] = frand(i * 7 + 3) * (1 + i % 5);
	for (n = 0; n < GN; n++)
		for (g = 0; g < GG; g++) {
			const float *p = x + (n * GC + g * CG) * HW;
			double s = 0, v = 0;

			for (i = 0; i < CG * HW; i++) s += p[i];
			s /= CG * HW;
			for (i = 0; i < CG * HW; i++) v += (p[i] - s) * (p[i] - s);
			v /= CG * HW;
			rm[n * GG + g] = (float)s;
			rr[n * GG + g] = (float)(1.0 / sqrt(v + 1e-5));
			for (i = 0; i < CG * HW; i++)
				ro[(n * GC + g * CG) * HW + i] =
					(float)((p[i] - s) * rr[n * GG + g]);
		}
	xd = dev(self, x, sizeof(x));
	od = dev(self, NULL, sizeof(o));
	for (i = 0; i < 8; i++) buf[i] = -9.0f;
	bd = dev(self, buf, sizeof(buf));
	/* ggml's rstdOut starts N * group = 4 bytes in: FLOAT element 1 */
	ASSERT_EQ(0, aclnnGroupNormGetWorkspaceSize(tens(sx, 4, ACL_FLOAT, xd), NULL, NULL,
		  GN, GC, HW, GG, 1e-5, tens(sx, 4, ACL_FLOAT, od),
		  view(ss, 2, NULL, 0, 8, ACL_FLOAT, bd),
		  view(ss, 2, NULL, NS / (int64_t)sizeof(float), 8, ACL_FLOAT, bd),
		  &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGroupNorm, ws, ex));
	get(o, od, sizeof(o));
	get(buf, bd, sizeof(buf));
	for (i = 0; i < NX; i++)
		EXPECT_TRUE(fabsf(o[i] - ro[i]) <= 1e-4f * (1 + fabsf(ro[i])));
	EXPECT_TRUE(CLOSE(buf[0], rm[0]));
	for (i = 0; i < NS; i++)
		EXPECT_TRUE(CLOSE(buf[1 + i], rr[i]));
	for (i = 1 + NS; i < 8; i++)
		EXPECT_EQ(-9.0f, buf[i]);

	/* rstdOut the very same tensor as meanOut: rstd wins everywhere */
	ASSERT_EQ(0, aclnnGroupNormGetWorkspaceSize(tens(sx, 4, ACL_FLOAT, xd), NULL, NULL,
		  GN, GC, HW, GG, 1e-5, tens(sx, 4, ACL_FLOAT, od),
		  tens(ss, 2, ACL_FLOAT, bd), tens(ss, 2, ACL_FLOAT, bd), &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGroupNorm, ws, ex));
	get(buf, bd, sizeof(buf));
	for (i = 0; i < NS; i++)
		EXPECT_TRUE(CLOSE(buf[i], rr[i]));

	/* separate statistics, meanOut strided (N, group) seen transposed */
	md = dev(self, NULL, sizeof(m2));
	rd = dev(self, NULL, sizeof(r2));
	{
		int64_t st[2] = { 1, GN };

		ASSERT_EQ(0, aclnnGroupNormGetWorkspaceSize(tens(sx, 4, ACL_FLOAT, xd), NULL,
			  NULL, GN, GC, HW, GG, 1e-5, tens(sx, 4, ACL_FLOAT, od),
			  view(ss, 2, st, 0, NS, ACL_FLOAT, md), tens(ss, 2, ACL_FLOAT, rd),
			  &ws, &ex));
	}
	ASSERT_EQ(0, run(self, aclnnGroupNorm, ws, ex));
	get(m2, md, sizeof(m2));
	get(r2, rd, sizeof(r2));
	for (n = 0; n < GN; n++)
		for (g = 0; g < GG; g++) {
			EXPECT_TRUE(CLOSE(m2[g * GN + n], rm[n * GG + g]));
			EXPECT_TRUE(CLOSE(r2[n * GG + g], rr[n * GG + g]));
		}
	/*
	 * An empty self (HxW 0), as CANN's GroupNorm: meanOut 0, rstdOut NaN,
	 * in that order (here overlapping as ggml's). N 0: nothing to write.
	 */
	{
		int64_t se[3] = { GN, GC, 0 }, sn[4] = { 0, GC, GH, GW }, s0[2] = { 0, GG };
		float eb[8];
		void *ed;

		for (i = 0; i < 8; i++) eb[i] = -9.0f;
		ed = dev(self, eb, sizeof(eb));
		ASSERT_EQ(0, aclnnGroupNormGetWorkspaceSize(tens(se, 3, ACL_FLOAT, xd), NULL,
			  NULL, GN, GC, 0, GG, 1e-5, tens(se, 3, ACL_FLOAT, od),
			  view(ss, 2, NULL, 0, 8, ACL_FLOAT, ed),
			  view(ss, 2, NULL, 1, 8, ACL_FLOAT, ed), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnGroupNorm, ws, ex));
		get(eb, ed, sizeof(eb));
		EXPECT_EQ(0.0f, eb[0]);
		for (i = 1; i <= NS; i++)
			EXPECT_TRUE(isnan(eb[i]));
		for (i = 1 + NS; i < 8; i++)
			EXPECT_EQ(-9.0f, eb[i]);
		ASSERT_EQ(0, aclnnGroupNormGetWorkspaceSize(tens(sn, 4, ACL_FLOAT, xd), NULL,
			  NULL, 0, GC, HW, GG, 1e-5, tens(sn, 4, ACL_FLOAT, od),
			  tens(s0, 2, ACL_FLOAT, ed), tens(s0, 2, ACL_FLOAT, ed), &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnGroupNorm, ws, ex));
		get(eb, ed, sizeof(eb));
		EXPECT_EQ(0.0f, eb[0]);
		EXPECT_EQ(-9.0f, eb[7]);
	}

	/* Refused as before: statistics of the wrong shape or dtype. */
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tens(sx, 4, ACL_FLOAT, xd), NULL, NULL,
		  GN, GC, HW, GG, 1e-5, tens(sx, 4, ACL_FLOAT, od),
		  tens(s1, 1, ACL_FLOAT, md), tens(ss, 2, ACL_FLOAT, rd), &ws, &ex));
	EXPECT_EQ(INV, aclnnGroupNormGetWorkspaceSize(tens(sx, 4, ACL_FLOAT, xd), NULL, NULL,
		  GN, GC, HW, GG, 1e-5, tens(sx, 4, ACL_FLOAT, od),
		  tens(ss, 2, ACL_FLOAT, md), tens(ss, 2, ACL_FLOAT16, rd), &ws, &ex));
}

TEST_HARNESS_MAIN
