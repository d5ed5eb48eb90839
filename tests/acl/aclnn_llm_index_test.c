// SPDX-License-Identifier: MIT
/*
 * The indexing, window, sort, loss and solve operators ggml's CANN
 * backend calls (lib/nn/nn_op_llm_index*.c) on the real driver, against
 * C references: GatherV2, IndexCopy / InplaceIndexCopy, the five
 * RepeatInterleave forms, ReflectionPad1d, Im2col, MaxPool, Argsort,
 * SoftmaxCrossEntropyWithLogits and TriangularSolve. Every dtype each
 * declares (and the device holds), strided views as ggml passes them,
 * and one negative case per validation rule.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_copy.h"
#include "aclnnop/aclnn_repeat_interleave.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_triangular_solve.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

/* ------------------------------------------------------ host helpers -- */

/* Device buffers of one test, freed by release() (tests loop over dtypes). */
static void *g_bufs[512];
static int g_nbufs;

static void *dbuf(const void *host, size_t size)
{
	void *p = NULL;

	if (g_nbufs == (int)(sizeof(g_bufs) / sizeof(g_bufs[0])) ||
	    aclrtMalloc(&p, size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST))
		return NULL;
	g_bufs[g_nbufs++] = p;
	if (host)
		aclrtMemcpy(p, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE);
	else
		aclrtMemset(p, size ? size : 1, 0, size ? size : 1);
	return p;
}

static void release(void)
{
	while (g_nbufs)
		aclrtFree(g_bufs[--g_nbufs]);
}

static int go(aclrtStream s, launch_fn fn, uint64_t ws, aclOpExecutor *ex)
{
	void *w = ws ? dbuf(NULL, ws) : NULL;
	int ret = fn(w, ws, ex, s);

	return ret ? ret : aclrtSynchronizeStream(s);
}

static size_t esz(aclDataType dt)
{
	switch (dt) {
	case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
	case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
	case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
	default: return 8;
	}
}

static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Element i of a host buffer of dtype dt, as a double, and back. */
static void putv(aclDataType dt, void *b, int64_t i, double v)
{
	switch (dt) {
	case ACL_FLOAT: ((float *)b)[i] = (float)v; break;
	case ACL_FLOAT16: ((_Float16 *)b)[i] = (_Float16)v; break;
	case ACL_BF16: ((uint16_t *)b)[i] = to_bf16((float)v); break;
	case ACL_DOUBLE: ((double *)b)[i] = v; break;
	case ACL_INT8: ((int8_t *)b)[i] = (int8_t)v; break;
	case ACL_UINT8: ((uint8_t *)b)[i] = (uint8_t)v; break;
	case ACL_BOOL: ((uint8_t *)b)[i] = v != 0; break;
	case ACL_INT16: ((int16_t *)b)[i] = (int16_t)v; break;
	case ACL_UINT16: ((uint16_t *)b)[i] = (uint16_t)v; break;
	case ACL_INT32: ((int32_t *)b)[i] = (int32_t)v; break;
	case ACL_UINT32: ((uint32_t *)b)[i] = (uint32_t)v; break;
	case ACL_INT64: ((int64_t *)b)[i] = (int64_t)v; break;
	case ACL_UINT64: ((uint64_t *)b)[i] = (uint64_t)v; break;
	default: break;
	}
}

static double getv(aclDataType dt, const void *b, int64_t i)
{
	switch (dt) {
	case ACL_FLOAT: return ((const float *)b)[i];
	case ACL_FLOAT16: return ((const _Float16 *)b)[i];
	case ACL_BF16: return from_bf16(((const uint16_t *)b)[i]);
	case ACL_DOUBLE: return ((const double *)b)[i];
	case ACL_INT8: return ((const int8_t *)b)[i];
	case ACL_UINT8: case ACL_BOOL: return ((const uint8_t *)b)[i];
	case ACL_INT16: return ((const int16_t *)b)[i];
	case ACL_UINT16: return ((const uint16_t *)b)[i];
	case ACL_INT32: return ((const int32_t *)b)[i];
	case ACL_UINT32: return ((const uint32_t *)b)[i];
	case ACL_INT64: return (double)((const int64_t *)b)[i];
	case ACL_UINT64: return (double)((const uint64_t *)b)[i];
	default: return NAN;
	}
}

/* A small value every dtype holds exactly (BOOL: 0 or 1). */
static double val(aclDataType dt, int64_t i)
{
	if (dt == ACL_BOOL)
		return (double)((i * 5 + 1) % 3 != 0);
	return (double)((i * 37 + 11) % 23 + 1);
}

/* A device tensor of n elements val(dt, i + base); host copy in *h. */
static void *filled(aclDataType dt, int64_t n, int64_t base, void *h)
{
	int64_t i;

	for (i = 0; i < n; i++)
		putv(dt, h, i, val(dt, i + base));
	return dbuf(h, (size_t)n * esz(dt));
}

static void *back(void *h, void *d, int64_t n, aclDataType dt)
{
	get(h, d, (size_t)n * esz(dt));
	return h;
}

/* Index tensor data (INT32 or INT64) from int64 values. */
static void *idx(aclDataType dt, const int64_t *v, int64_t n)
{
	char h[256];
	int64_t i;

	for (i = 0; i < n; i++)
		putv(dt, h, i, (double)v[i]);
	return dbuf(h, (size_t)n * esz(dt));
}

#define NDT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const aclDataType dt_gather[] = {
	ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64, ACL_INT32,
	ACL_INT16, ACL_INT8, ACL_UINT8, ACL_BOOL,
};
static const aclDataType dt_index_copy[] = {
	ACL_FLOAT, ACL_BF16, ACL_FLOAT16, ACL_INT32, ACL_UINT32, ACL_INT64,
	ACL_UINT64, ACL_INT16, ACL_INT8, ACL_UINT8, ACL_DOUBLE, ACL_BOOL,
};
static const aclDataType dt_repeat[] = {
	ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL,
	ACL_FLOAT16, ACL_BF16, ACL_FLOAT,
};
static const aclDataType dt_pad[] = {
	ACL_BOOL, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_FLOAT16,
	ACL_BF16, ACL_INT32, ACL_UINT32, ACL_FLOAT, ACL_INT64, ACL_UINT64,
	ACL_DOUBLE,
};
static const aclDataType dt_maxpool[] = {
	ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_INT64, ACL_UINT8,
	ACL_INT16, ACL_INT8, ACL_UINT16,
};
static const aclDataType dt_argsort[] = {
	ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16, ACL_INT32,
	ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64,
};

/* ----------------------------------------------------------- GatherV2 -- */

/*
 * ggml's GET_ROWS: a 2-D slice of a 4-D source (rows of ne0 with a
 * padded row stride), a 1-D index, dim 0; then dim 1 with a 2-D index.
 */
TEST_F(nn, gather_v2_dtypes_and_views)
{
	enum { R = 5, C = 3, RS = 4 };
	static const aclDataType ixt[2] = { ACL_INT32, ACL_INT64 };
	int64_t sd[2] = { R, C }, ss[2] = { RS, 1 }, iv[4] = { 4, 0, 2, 2 };
	int64_t iv2[4] = { 2, 0, 1, 2 };
	char hs[R * RS * 8], ho[64 * 8];
	int t, k, i, j, a, b;

	for (t = 0; t < NDT(dt_gather); t++) {
		for (k = 0; k < 2; k++) {
			aclDataType dt = dt_gather[t];
			void *ds = filled(dt, R * RS, 0, hs), *dout;
			aclTensor *ts = view(sd, 2, ss, 0, R * RS, dt, ds), *ti, *to;
			int64_t od[2] = { 4, C }, od3[3] = { R, 2, 2 }, i2[2] = { 2, 2 };
			aclOpExecutor *ex;
			uint64_t ws;

			/* dim 0, index [4] -> out [4, C] */
			ti = tens((int64_t[]){ 4 }, 1, ixt[k], idx(ixt[k], iv, 4));
			dout = dbuf(NULL, 4 * C * esz(dt));
			to = tens(od, 2, dt, dout);
			ASSERT_EQ(0, aclnnGatherV2GetWorkspaceSize(ts, 0, ti, to, &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnGatherV2, ws, ex));
			back(ho, dout, 4 * C, dt);
			for (i = 0; i < 4; i++)
				for (j = 0; j < C; j++)
					EXPECT_EQ(getv(dt, hs, iv[i] * RS + j),
						  getv(dt, ho, i * C + j));
			/* dim -1 (1), index [2, 2] -> out [R, 2, 2] */
			ti = tens(i2, 2, ixt[k], idx(ixt[k], iv2, 4));
			dout = dbuf(NULL, R * 4 * esz(dt));
			to = tens(od3, 3, dt, dout);
			ASSERT_EQ(0, aclnnGatherV2GetWorkspaceSize(ts, -1, ti, to, &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnGatherV2, ws, ex));
			back(ho, dout, R * 4, dt);
			for (i = 0; i < R; i++)
				for (a = 0; a < 2; a++)
					for (b = 0; b < 2; b++)
						EXPECT_EQ(getv(dt, hs, i * RS + iv2[a * 2 + b]),
							  getv(dt, ho, (i * 2 + a) * 2 + b));
			release();
		}
	}
}

/* A 0-D index keeps dim d of size 1; negatives count from the end, and
 * an index outside [-n, n) reads zeros (indices are on the device). */
TEST_F(nn, gather_v2_scalar_negative_out_of_range)
{
	float x[6] = { 1, 2, 3, 4, 5, 6 }, o[4];
	int64_t sd[2] = { 3, 2 }, od[2] = { 1, 2 }, od2[2] = { 2, 2 };
	int64_t two = 2, bad[2] = { -1, 7 };
	aclTensor *ts = tens(sd, 2, ACL_FLOAT, dbuf(x, sizeof(x)));
	aclTensor *t0 = aclCreateTensor(NULL, 0, ACL_INT64, NULL, 0, ACL_FORMAT_ND,
					NULL, 0, dbuf(&two, 8));
	void *d1 = dbuf(NULL, 16), *d2 = dbuf(NULL, 16);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnGatherV2GetWorkspaceSize(ts, 0, t0, tens(od, 2, ACL_FLOAT, d1),
						   &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnGatherV2, ws, ex));
	get(o, d1, 8);
	EXPECT_EQ(5, o[0]);
	EXPECT_EQ(6, o[1]);
	ASSERT_EQ(0, aclnnGatherV2GetWorkspaceSize(ts, 0,
			tens((int64_t[]){ 2 }, 1, ACL_INT64, dbuf(bad, 16)),
			tens(od2, 2, ACL_FLOAT, d2), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnGatherV2, ws, ex));
	get(o, d2, 16);
	EXPECT_EQ(5, o[0]);
	EXPECT_EQ(6, o[1]);
	EXPECT_EQ(0, o[2]);
	EXPECT_EQ(0, o[3]);
	release();
}

TEST_F(nn, gather_v2_errors)
{
	int64_t sd[2] = { 3, 2 }, od[2] = { 2, 2 }, one = 2, e0[2] = { 0, 2 };
	int64_t d8[8] = { 1, 1, 1, 1, 1, 1, 1, 2 };
	void *d = dbuf(NULL, 64);
	aclTensor *ts = tens(sd, 2, ACL_FLOAT, d), *ti = tens(&one, 1, ACL_INT64, d);
	aclTensor *to = tens(od, 2, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnGatherV2GetWorkspaceSize(NULL, 0, ti, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGatherV2GetWorkspaceSize(ts, 0, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGatherV2GetWorkspaceSize(ts, 0, ti, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGatherV2GetWorkspaceSize(ts, 0, ti, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnGatherV2GetWorkspaceSize(ts, 0, ti, to, &ws, NULL));
	/* self's dtype: COMPLEX64 is not held by the device */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(tens(sd, 2, ACL_COMPLEX64, d), 0,
						     ti, tens(od, 2, ACL_COMPLEX64, d), &ws, &ex));
	/* index dtype */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(ts, 0, tens(&one, 1, ACL_FLOAT, d),
						     to, &ws, &ex));
	/* dim out of range */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(ts, 2, ti, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(ts, -3, ti, to, &ws, &ex));
	/* out's dtype, out's shape */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(ts, 0, ti, tens(od, 2, ACL_INT32, d),
						     &ws, &ex));
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(ts, 0, ti, tens(sd, 2, ACL_FLOAT, d),
						     &ws, &ex));
	/* a result of rank 9 (no tensor has one: any out fails) */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(tens(d8, 8, ACL_FLOAT, d), 7,
						     tens(od, 2, ACL_INT64, d),
						     tens(d8, 8, ACL_FLOAT, d), &ws, &ex));
	/* a 0-D self */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(
			aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, d),
			0, ti, to, &ws, &ex));
	/* an empty dim cannot be indexed */
	EXPECT_EQ(INV, aclnnGatherV2GetWorkspaceSize(tens(e0, 2, ACL_FLOAT, d), 0, ti,
						     to, &ws, &ex));
	release();
}

/* ---------------------------------------------------------- IndexCopy -- */

/*
 * ggml's SET_ROWS: rows of a strided source into rows of self (dim 0),
 * both the out-of-place and in-place forms; then dim 1.
 */
TEST_F(nn, index_copy_dtypes_and_views)
{
	enum { R = 6, C = 4, N = 3, SRS = 6 };
	static const aclDataType ixt[2] = { ACL_INT32, ACL_INT64 };
	int64_t sd[2] = { R, C }, src_d[2] = { N, C }, src_s[2] = { SRS, 1 };
	int64_t iv[N] = { 5, 1, 3 }, iv1[2] = { 3, 0 }, s1d[2] = { R, 2 };
	char hs[R * C * 8], hsrc[N * SRS * 8], ho[R * C * 8], want[R * C * 8];
	int t, k, i, j, inplace;

	for (t = 0; t < NDT(dt_index_copy); t++) {
		for (k = 0; k < 2; k++) {
			for (inplace = 0; inplace < 2; inplace++) {
				aclDataType dt = dt_index_copy[t];
				size_t e = esz(dt);
				void *ds = filled(dt, R * C, 0, hs);
				void *dsrc = filled(dt, N * SRS, 50, hsrc);
				void *dout = inplace ? ds : dbuf(NULL, R * C * e);
				aclTensor *ts = tens(sd, 2, dt, ds);
				aclTensor *tsrc = view(src_d, 2, src_s, 0, N * SRS, dt, dsrc);
				aclTensor *ti = tens((int64_t[]){ N }, 1, ixt[k],
						     idx(ixt[k], iv, N));
				aclOpExecutor *ex;
				uint64_t ws;

				memcpy(want, hs, R * C * e);
				for (i = 0; i < N; i++)
					for (j = 0; j < C; j++)
						putv(dt, want, iv[i] * C + j,
						     getv(dt, hsrc, i * SRS + j));
				if (inplace) {
					ASSERT_EQ(0, aclnnInplaceIndexCopyGetWorkspaceSize(
							ts, 0, ti, tsrc, &ws, &ex));
					ASSERT_EQ(0, go(self->s, aclnnInplaceIndexCopy, ws, ex));
				} else {
					ASSERT_EQ(0, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc,
							tens(sd, 2, dt, dout), &ws, &ex));
					ASSERT_EQ(0, go(self->s, aclnnIndexCopy, ws, ex));
					/* self is untouched */
					back(ho, ds, R * C, dt);
					EXPECT_EQ(0, memcmp(ho, hs, R * C * e));
				}
				back(ho, dout, R * C, dt);
				for (i = 0; i < R * C; i++)
					EXPECT_EQ(getv(dt, want, i), getv(dt, ho, i));

				/* dim 1: columns 3 and 0 from a [R, 2] source */
				ds = filled(dt, R * C, 0, hs);
				dsrc = filled(dt, R * 2, 70, hsrc);
				ASSERT_EQ(0, aclnnInplaceIndexCopyGetWorkspaceSize(
						tens(sd, 2, dt, ds), -1,
						tens((int64_t[]){ 2 }, 1, ixt[k], idx(ixt[k], iv1, 2)),
						tens(s1d, 2, dt, dsrc), &ws, &ex));
				ASSERT_EQ(0, go(self->s, aclnnInplaceIndexCopy, ws, ex));
				back(ho, ds, R * C, dt);
				for (i = 0; i < R; i++)
					for (j = 0; j < C; j++) {
						double w = j == 3 ? getv(dt, hsrc, i * 2) :
							   j == 0 ? getv(dt, hsrc, i * 2 + 1) :
							   getv(dt, hs, i * C + j);

						EXPECT_EQ(w, getv(dt, ho, i * C + j));
					}
				release();
			}
		}
	}
}

/* Negative indices count from the end; one outside [-n, n) is skipped. */
TEST_F(nn, index_copy_negative_out_of_range)
{
	float x[6] = { 1, 2, 3, 4, 5, 6 }, s[4] = { 10, 11, 12, 13 }, o[6];
	int64_t sd[2] = { 3, 2 }, srcd[2] = { 2, 2 }, iv[2] = { -1, 3 };
	void *dx = dbuf(x, sizeof(x));
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnInplaceIndexCopyGetWorkspaceSize(tens(sd, 2, ACL_FLOAT, dx), 0,
			tens((int64_t[]){ 2 }, 1, ACL_INT64, dbuf(iv, 16)),
			tens(srcd, 2, ACL_FLOAT, dbuf(s, sizeof(s))), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnInplaceIndexCopy, ws, ex));
	get(o, dx, sizeof(o));
	EXPECT_EQ(1, o[0]);
	EXPECT_EQ(2, o[1]);
	EXPECT_EQ(3, o[2]);
	EXPECT_EQ(4, o[3]);
	EXPECT_EQ(10, o[4]);
	EXPECT_EQ(11, o[5]);
	release();
}

/*
 * ggml's SET_ROWS slices: selfRef a view with an offset and a padded row
 * stride into a larger buffer; only its rows change, in place.
 */
TEST_F(nn, inplace_index_copy_of_a_view)
{
	enum { R = 4, C = 3, RS = 5, OFF = 7, TOT = OFF + R * RS + 3 };
	float buf[TOT], s[2 * C], o[TOT], want[TOT];
	int64_t vd[2] = { R, C }, vs[2] = { RS, 1 }, sd[2] = { 2, C }, iv[2] = { 3, 1 };
	void *db;
	aclOpExecutor *ex;
	uint64_t ws;
	int i, j;

	for (i = 0; i < TOT; i++)
		buf[i] = want[i] = 100 + i;
	for (i = 0; i < 2 * C; i++)
		s[i] = -1 - i;
	for (i = 0; i < 2; i++)
		for (j = 0; j < C; j++)
			want[OFF + iv[i] * RS + j] = s[i * C + j];
	db = dbuf(buf, sizeof(buf));
	ASSERT_EQ(0, aclnnInplaceIndexCopyGetWorkspaceSize(
			view(vd, 2, vs, OFF, TOT, ACL_FLOAT, db), 0,
			tens((int64_t[]){ 2 }, 1, ACL_INT64, dbuf(iv, sizeof(iv))),
			tens(sd, 2, ACL_FLOAT, dbuf(s, sizeof(s))), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnInplaceIndexCopy, ws, ex));
	get(o, db, sizeof(o));
	for (i = 0; i < TOT; i++)
		EXPECT_EQ(want[i], o[i]);
	release();
}

TEST_F(nn, index_copy_errors)
{
	int64_t sd[2] = { 3, 2 }, srcd[2] = { 2, 2 }, two = 2, i2[2] = { 1, 2 };
	int64_t bad_src[2] = { 2, 3 }, s3[3] = { 2, 2, 1 };
	void *d = dbuf(NULL, 256);
	aclTensor *ts = tens(sd, 2, ACL_FLOAT, d), *ti = tens(&two, 1, ACL_INT64, d);
	aclTensor *tsrc = tens(srcd, 2, ACL_FLOAT, d), *to = tens(sd, 2, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnIndexCopyGetWorkspaceSize(NULL, 0, ti, tsrc, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexCopyGetWorkspaceSize(ts, 0, NULL, tsrc, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc, to, &ws, NULL));
	EXPECT_EQ(NUL, aclnnInplaceIndexCopyGetWorkspaceSize(NULL, 0, ti, tsrc, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc, &ws, NULL));
	/* dim out of range */
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 2, ti, tsrc, &ws, &ex));
	/* index dtype, index rank */
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0,
			tens(&two, 1, ACL_FLOAT, d), tsrc, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0,
			tens(i2, 2, ACL_INT64, d), tsrc, &ws, &ex));
	/* source dtype, source rank, source's other dims */
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0, ti,
			tens(srcd, 2, ACL_INT32, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0, ti,
			tens(s3, 3, ACL_FLOAT, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0, ti,
			tens(bad_src, 2, ACL_FLOAT, d), &ws, &ex));
	/* index count against source's dim */
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(ts, 0,
			tens((int64_t[]){ 3 }, 1, ACL_INT64, d), tsrc, &ws, &ex));
	/* out's shape and dtype */
	EXPECT_EQ(INV, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc,
			tens(srcd, 2, ACL_FLOAT, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnIndexCopyGetWorkspaceSize(ts, 0, ti, tsrc,
			tens(sd, 2, ACL_INT32, d), &ws, &ex));
	/* self's dtype */
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(tens(sd, 2, ACL_COMPLEX64, d),
			0, ti, tens(srcd, 2, ACL_COMPLEX64, d), &ws, &ex));
	/* rows into an empty dim: no index can be in range */
	EXPECT_EQ(INV, aclnnInplaceIndexCopyGetWorkspaceSize(
			tens((int64_t[]){ 0, 2 }, 2, ACL_FLOAT, d), 0, ti, tsrc, &ws, &ex));
	release();
}

/* --------------------------------------------------- RepeatInterleave -- */

/* ggml's GQA repeat: IntWithDim along dim 1 of a strided [2, 3, 4] view. */
TEST_F(nn, repeat_interleave_int_with_dim_dtypes)
{
	enum { A = 2, B = 3, C = 4, R = 3 };
	int64_t sd[3] = { A, B, C }, ss[3] = { B * C * 2, C * 2, 2 };
	int64_t od[3] = { A, B * R, C };
	char hs[A * B * C * 2 * 8], ho[A * B * R * C * 8];
	int t, a, b, c;

	for (t = 0; t < NDT(dt_repeat); t++) {
		aclDataType dt = dt_repeat[t];
		void *ds = filled(dt, A * B * C * 2, 0, hs);
		void *dout = dbuf(NULL, A * B * R * C * esz(dt));
		aclOpExecutor *ex;
		uint64_t ws;

		ASSERT_EQ(0, aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(
				view(sd, 3, ss, 1, A * B * C * 2, dt, ds), R, 1, B * R,
				tens(od, 3, dt, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnRepeatInterleaveIntWithDim, ws, ex));
		back(ho, dout, A * B * R * C, dt);
		for (a = 0; a < A; a++)
			for (b = 0; b < B * R; b++)
				for (c = 0; c < C; c++)
					EXPECT_EQ(getv(dt, hs, 1 + a * B * C * 2 + (b / R) * C * 2 + c * 2),
						  getv(dt, ho, (a * B * R + b) * C + c));
		release();
	}
}

/* Int (flattened, of a transposed view), and the tensor-count forms. */
TEST_F(nn, repeat_interleave_forms)
{
	int64_t sd[2] = { 2, 3 }, st[2] = { 1, 2 };
	int64_t cnt[6] = { 1, 0, 2, 3, 1, 1 }, cnt3[3] = { 1, 0, 2 }, one = 2;
	static const aclDataType ixt[2] = { ACL_INT32, ACL_INT64 };
	char hs[6 * 8], ho[64 * 8];
	int t, k, i, j, n;

	for (t = 0; t < NDT(dt_repeat); t++) {
		aclDataType dt = dt_repeat[t];
		/* self (2, 3) is the transpose of storage (3, 2) */
		void *ds = filled(dt, 6, 0, hs);
		aclTensor *ts = view(sd, 2, st, 0, 6, dt, ds);
		double flat[6];
		aclOpExecutor *ex;
		uint64_t ws;
		void *dout;

		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++)
				flat[i * 3 + j] = getv(dt, hs, i + j * 2);
		/* Int: every element twice */
		dout = dbuf(NULL, 12 * esz(dt));
		ASSERT_EQ(0, aclnnRepeatInterleaveIntGetWorkspaceSize(ts, 2, 12,
				tens((int64_t[]){ 12 }, 1, dt, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnRepeatInterleaveInt, ws, ex));
		back(ho, dout, 12, dt);
		for (i = 0; i < 12; i++)
			EXPECT_EQ(flat[i / 2], getv(dt, ho, i));
		for (k = 0; k < 2; k++) {
			/* counts per element, flattened: 8 elements */
			dout = dbuf(NULL, 8 * esz(dt));
			ASSERT_EQ(0, aclnnRepeatInterleaveGetWorkspaceSize(ts,
					tens((int64_t[]){ 6 }, 1, ixt[k], idx(ixt[k], cnt, 6)),
					8, tens((int64_t[]){ 8 }, 1, dt, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnRepeatInterleave, ws, ex));
			back(ho, dout, 8, dt);
			for (i = 0, n = 0; i < 6; i++)
				for (j = 0; j < cnt[i]; j++, n++)
					EXPECT_EQ(flat[i], getv(dt, ho, n));
			/* one count for all, as a 0-D tensor: 12 elements */
			dout = dbuf(NULL, 12 * esz(dt));
			ASSERT_EQ(0, aclnnRepeatInterleaveGetWorkspaceSize(ts,
					aclCreateTensor(NULL, 0, ixt[k], NULL, 0, ACL_FORMAT_ND,
							NULL, 0, idx(ixt[k], &one, 1)),
					12, tens((int64_t[]){ 12 }, 1, dt, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnRepeatInterleave, ws, ex));
			back(ho, dout, 12, dt);
			for (i = 0; i < 12; i++)
				EXPECT_EQ(flat[i / 2], getv(dt, ho, i));
			/* WithDim: counts (1, 0, 2) along dim 1 -> (2, 3) */
			dout = dbuf(NULL, 6 * esz(dt));
			ASSERT_EQ(0, aclnnRepeatInterleaveWithDimGetWorkspaceSize(ts,
					tens((int64_t[]){ 3 }, 1, ixt[k], idx(ixt[k], cnt3, 3)),
					-1, 3, tens((int64_t[]){ 2, 3 }, 2, dt, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnRepeatInterleaveWithDim, ws, ex));
			back(ho, dout, 6, dt);
			for (i = 0; i < 2; i++) {
				EXPECT_EQ(flat[i * 3 + 0], getv(dt, ho, i * 3 + 0));
				EXPECT_EQ(flat[i * 3 + 2], getv(dt, ho, i * 3 + 1));
				EXPECT_EQ(flat[i * 3 + 2], getv(dt, ho, i * 3 + 2));
			}
			/* WithDim, one count (1-D of 1) along dim 0 -> (4, 3) */
			dout = dbuf(NULL, 12 * esz(dt));
			ASSERT_EQ(0, aclnnRepeatInterleaveWithDimGetWorkspaceSize(ts,
					tens((int64_t[]){ 1 }, 1, ixt[k], idx(ixt[k], &one, 1)),
					0, 4, tens((int64_t[]){ 4, 3 }, 2, dt, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnRepeatInterleaveWithDim, ws, ex));
			back(ho, dout, 12, dt);
			for (i = 0; i < 4; i++)
				for (j = 0; j < 3; j++)
					EXPECT_EQ(flat[(i / 2) * 3 + j], getv(dt, ho, i * 3 + j));
		}
		release();
	}
	/* Tensor: i repeated counts[i] times, in the counts' dtype */
	for (k = 0; k < 2; k++) {
		int64_t c2[2] = { 1, 3 }, want[4] = { 0, 1, 1, 1 };
		void *dout = dbuf(NULL, 4 * esz(ixt[k]));
		aclOpExecutor *ex;
		uint64_t ws;

		ASSERT_EQ(0, aclnnRepeatInterleaveTensorGetWorkspaceSize(
				tens((int64_t[]){ 2 }, 1, ixt[k], idx(ixt[k], c2, 2)), 4,
				tens((int64_t[]){ 4 }, 1, ixt[k], dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnRepeatInterleaveTensor, ws, ex));
		back(ho, dout, 4, ixt[k]);
		for (i = 0; i < 4; i++)
			EXPECT_EQ((double)want[i], getv(ixt[k], ho, i));
		release();
	}
}

TEST_F(nn, repeat_interleave_errors)
{
	int64_t sd[2] = { 2, 3 }, six = 6, twelve = 12, r2[2] = { 2, 3 }, four = 4;
	int64_t od[2] = { 2, 6 };
	void *d = dbuf(NULL, 512);
	aclTensor *ts = tens(sd, 2, ACL_FLOAT, d), *rep = tens(&six, 1, ACL_INT64, d);
	aclTensor *o12 = tens(&twelve, 1, ACL_FLOAT, d), *od6 = tens(od, 2, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnRepeatInterleaveGetWorkspaceSize(NULL, rep, 12, o12, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveGetWorkspaceSize(ts, NULL, 12, o12, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveGetWorkspaceSize(ts, rep, 12, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveGetWorkspaceSize(ts, rep, 12, o12, NULL, &ex));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveIntGetWorkspaceSize(NULL, 2, 12, o12, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(ts, 2, 1, 6, NULL,
								       &ws, &ex));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveWithDimGetWorkspaceSize(ts, rep, 1, 6, od6,
								    &ws, NULL));
	EXPECT_EQ(NUL, aclnnRepeatInterleaveTensorGetWorkspaceSize(NULL, 4, o12, &ws, &ex));
	/* self's dtype (DOUBLE is not among CANN's) and out's */
	EXPECT_EQ(INV, aclnnRepeatInterleaveIntGetWorkspaceSize(tens(sd, 2, ACL_DOUBLE, d),
			2, 12, tens(&twelve, 1, ACL_DOUBLE, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveIntGetWorkspaceSize(ts, 2, 12,
			tens(&twelve, 1, ACL_INT32, d), &ws, &ex));
	/* repeats dtype, rank, count */
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts, tens(&six, 1, ACL_FLOAT, d),
							     12, o12, &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts, tens(r2, 2, ACL_INT64, d),
							     12, o12, &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts, tens(&four, 1, ACL_INT64, d),
							     12, o12, &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveWithDimGetWorkspaceSize(ts, rep, 1, 6, od6,
								    &ws, &ex));
	/* an empty repeats for a non-empty self */
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts,
			tens((int64_t[]){ 0 }, 1, ACL_INT64, d), 12, o12, &ws, &ex));
	/* a negative count, outputSize not count x elements, negative outputSize */
	EXPECT_EQ(INV, aclnnRepeatInterleaveIntGetWorkspaceSize(ts, -1, 12, o12, &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveIntGetWorkspaceSize(ts, 3, 12, o12, &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts, rep, -1, o12, &ws, &ex));
	/* out's shape against outputSize */
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts, rep, 11, o12, &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(ts, 2, 1, 6,
			tens(sd, 2, ACL_FLOAT, d), &ws, &ex));
	/* dim out of range */
	EXPECT_EQ(INV, aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(ts, 2, 2, 6, od6,
								       &ws, &ex));
	/* Tensor: repeats 1-D INT32/INT64, out of its dtype and outputSize */
	EXPECT_EQ(INV, aclnnRepeatInterleaveTensorGetWorkspaceSize(tens(r2, 2, ACL_INT64, d),
			4, tens(&four, 1, ACL_INT64, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveTensorGetWorkspaceSize(tens(&six, 1, ACL_FLOAT, d),
			4, tens(&four, 1, ACL_FLOAT, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveTensorGetWorkspaceSize(rep, 4,
			tens(&four, 1, ACL_INT32, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnRepeatInterleaveTensorGetWorkspaceSize(rep, 5,
			tens(&four, 1, ACL_INT64, d), &ws, &ex));
	/* a non-zero outputSize for an empty self */
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(
			tens((int64_t[]){ 0, 3 }, 2, ACL_FLOAT, d),
			tens((int64_t[]){ 1 }, 1, ACL_INT64, d), 2,
			tens((int64_t[]){ 2 }, 1, ACL_FLOAT, d), &ws, &ex));
	/* out x counts beyond the comparison's 2^28 cells */
	EXPECT_EQ(INV, aclnnRepeatInterleaveGetWorkspaceSize(ts, rep, 1ll << 26,
			tens((int64_t[]){ 1ll << 26 }, 1, ACL_FLOAT, d), &ws, &ex));
	release();
}

/* ---------------------------------------------------- ReflectionPad1d -- */

/* ggml's PAD_REFLECT_1D: [B, R, W] with a padded row stride. */
TEST_F(nn, reflection_pad1d_dtypes)
{
	enum { B = 2, R = 3, W = 5, RS = 6, P0 = 3, P1 = 4, OW = W + P0 + P1 };
	int64_t sd[3] = { B, R, W }, ss[3] = { R * RS, RS, 1 }, od[3] = { B, R, OW };
	char hs[B * R * RS * 8], ho[B * R * OW * 8];
	int t, i, j;

	for (t = 0; t < NDT(dt_pad); t++) {
		aclDataType dt = dt_pad[t];
		void *ds = filled(dt, B * R * RS, 0, hs);
		void *dout = dbuf(NULL, B * R * OW * esz(dt));
		aclOpExecutor *ex;
		uint64_t ws;

		ASSERT_EQ(0, aclnnReflectionPad1dGetWorkspaceSize(
				view(sd, 3, ss, 0, B * R * RS, dt, ds),
				ia((int64_t[]){ P0, P1 }, 2), tens(od, 3, dt, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnReflectionPad1d, ws, ex));
		back(ho, dout, B * R * OW, dt);
		for (i = 0; i < B * R; i++)
			for (j = 0; j < OW; j++) {
				int s = j - P0;

				s = s < 0 ? -s : s >= W ? 2 * (W - 1) - s : s;
				EXPECT_EQ(getv(dt, hs, i * RS + s), getv(dt, ho, i * OW + j));
			}
		/* 2-D */
		ASSERT_EQ(0, aclnnReflectionPad1dGetWorkspaceSize(
				view(sd + 1, 2, ss + 1, 0, B * R * RS, dt, ds),
				ia((int64_t[]){ 1, 0 }, 2),
				tens((int64_t[]){ R, W + 1 }, 2, dt, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnReflectionPad1d, ws, ex));
		back(ho, dout, R * (W + 1), dt);
		for (i = 0; i < R; i++)
			for (j = 0; j < W + 1; j++)
				EXPECT_EQ(getv(dt, hs, i * RS + (j ? j - 1 : 1)),
					  getv(dt, ho, i * (W + 1) + j));
		release();
	}
}

TEST_F(nn, reflection_pad1d_errors)
{
	int64_t sd[3] = { 2, 3, 5 }, od[3] = { 2, 3, 8 }, s1 = 5;
	void *d = dbuf(NULL, 512);
	aclTensor *ts = tens(sd, 3, ACL_FLOAT, d), *to = tens(od, 3, ACL_FLOAT, d);
	aclIntArray *p = ia((int64_t[]){ 1, 2 }, 2);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnReflectionPad1dGetWorkspaceSize(NULL, p, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnReflectionPad1dGetWorkspaceSize(ts, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnReflectionPad1dGetWorkspaceSize(ts, p, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnReflectionPad1dGetWorkspaceSize(ts, p, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnReflectionPad1dGetWorkspaceSize(ts, p, to, &ws, NULL));
	/* rank 1 */
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(tens(&s1, 1, ACL_FLOAT, d), p,
			tens((int64_t[]){ 8 }, 1, ACL_FLOAT, d), &ws, &ex));
	/* padding of 3 values, a pad not below the dim, a negative pad */
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(ts, ia((int64_t[]){ 1, 2, 0 }, 3),
							    to, &ws, &ex));
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(ts, ia((int64_t[]){ 5, 0 }, 2),
			tens((int64_t[]){ 2, 3, 10 }, 3, ACL_FLOAT, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(ts, ia((int64_t[]){ -1, 4 }, 2),
							    to, &ws, &ex));
	/* out's shape and dtype */
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(ts, p, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(ts, p,
			tens(od, 3, ACL_INT32, d), &ws, &ex));
	/* a dtype the device does not hold */
	EXPECT_EQ(INV, aclnnReflectionPad1dGetWorkspaceSize(tens(sd, 3, ACL_COMPLEX64, d), p,
			tens(od, 3, ACL_COMPLEX64, d), &ws, &ex));
	release();
}

/* -------------------------------------------------------------- Im2col -- */

static const aclDataType dt_im2col[] = {
	ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32,
	ACL_INT64, ACL_UINT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE,
	ACL_BOOL,
};

/* Reference im2col of a dense (N, C, H, W) host tensor. */
static void im2col_ref(aclDataType dt, const void *x, int64_t n, int64_t c,
		       int64_t h, int64_t w, const int64_t *k, const int64_t *d,
		       const int64_t *p, const int64_t *s, int64_t oh, int64_t ow,
		       double *out)
{
	int64_t b, ch, a, e, y, z;

	for (b = 0; b < n; b++)
		for (ch = 0; ch < c; ch++)
			for (a = 0; a < k[0]; a++)
				for (e = 0; e < k[1]; e++)
					for (y = 0; y < oh; y++)
						for (z = 0; z < ow; z++) {
							int64_t iy = y * s[0] - p[0] + a * d[0];
							int64_t iz = z * s[1] - p[1] + e * d[1];
							int64_t row = (ch * k[0] + a) * k[1] + e;
							double v = 0;

							if (iy >= 0 && iy < h && iz >= 0 && iz < w)
								v = getv(dt, x, ((b * c + ch) * h + iy) * w + iz);
							out[(b * c * k[0] * k[1] + row) * oh * ow + y * ow + z] = v;
						}
}

TEST_F(nn, im2col_dtypes)
{
	enum { N = 2, C = 3, H = 5, W = 6 };
	/* a 2-D case; then ggml's 1-D form: KH 1, H 1, padding (1, p0) */
	static const struct { int64_t h, k[2], d[2], p[2], s[2]; } cs[2] = {
		{ H, { 2, 3 }, { 1, 2 }, { 1, 0 }, { 2, 1 } },
		{ 1, { 1, 3 }, { 1, 1 }, { 1, 1 }, { 1, 2 } },
	};
	char hs[N * C * H * W * 8], ho[4096 * 8];
	static double want[4096];
	int t, q, i;

	for (t = 0; t < NDT(dt_im2col); t++) {
		for (q = 0; q < 2; q++) {
			aclDataType dt = dt_im2col[t];
			int64_t h = cs[q].h, oh, ow, rows, sd[4] = { N, C, h, W };
			int64_t od[3];
			void *ds = filled(dt, N * C * h * W, 0, hs), *dout;
			aclOpExecutor *ex;
			uint64_t ws;

			oh = (h + 2 * cs[q].p[0] - cs[q].d[0] * (cs[q].k[0] - 1) - 1) / cs[q].s[0] + 1;
			ow = (W + 2 * cs[q].p[1] - cs[q].d[1] * (cs[q].k[1] - 1) - 1) / cs[q].s[1] + 1;
			rows = C * cs[q].k[0] * cs[q].k[1];
			od[0] = N;
			od[1] = rows;
			od[2] = oh * ow;
			dout = dbuf(NULL, N * rows * oh * ow * esz(dt));
			ASSERT_EQ(0, aclnnIm2colGetWorkspaceSize(tens(sd, 4, dt, ds),
					ia(cs[q].k, 2), ia(cs[q].d, 2), ia(cs[q].p, 2),
					ia(cs[q].s, 2), tens(od, 3, dt, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnIm2col, ws, ex));
			back(ho, dout, N * rows * oh * ow, dt);
			im2col_ref(dt, hs, N, C, h, W, cs[q].k, cs[q].d, cs[q].p, cs[q].s,
				   oh, ow, want);
			for (i = 0; i < N * rows * oh * ow; i++)
				EXPECT_EQ(want[i], getv(dt, ho, i));
			/* 3-D self (C, H, W): the second image, out (C kh kw, L) */
			ASSERT_EQ(0, aclnnIm2colGetWorkspaceSize(
					view(sd + 1, 3, (int64_t[]){ h * W, W, 1 }, C * h * W,
					     N * C * h * W, dt, ds),
					ia(cs[q].k, 2), ia(cs[q].d, 2), ia(cs[q].p, 2),
					ia(cs[q].s, 2), tens(od + 1, 2, dt, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnIm2col, ws, ex));
			back(ho, dout, rows * oh * ow, dt);
			for (i = 0; i < rows * oh * ow; i++)
				EXPECT_EQ(want[rows * oh * ow + i], getv(dt, ho, i));
			release();
		}
	}
}

TEST_F(nn, im2col_errors)
{
	int64_t sd[4] = { 1, 2, 4, 4 }, od[3] = { 1, 8, 9 }, two[2] = { 2, 2 };
	int64_t one[2] = { 1, 1 }, zero[2] = { 0, 0 };
	void *d = dbuf(NULL, 1024);
	aclTensor *ts = tens(sd, 4, ACL_FLOAT, d), *to = tens(od, 3, ACL_FLOAT, d);
	aclIntArray *k = ia(two, 2), *dl = ia(one, 2), *p = ia(zero, 2), *s = ia(one, 2);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, s, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(NULL, k, dl, p, s, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, NULL, dl, p, s, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, k, NULL, p, s, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, k, dl, NULL, s, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, s, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, s, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, s, to, &ws, NULL));
	/* self of rank 2, a dtype the device does not hold */
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(tens(sd + 2, 2, ACL_FLOAT, d), k, dl, p,
						   s, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(tens(sd, 4, ACL_COMPLEX64, d), k, dl, p,
						   s, tens(od, 3, ACL_COMPLEX64, d), &ws, &ex));
	/* an array of 1 value */
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, ia(two, 1), dl, p, s, to, &ws, &ex));
	/* kernel, dilation, stride not positive; negative padding */
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, ia(zero, 2), dl, p, s, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, k, ia(zero, 2), p, s, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, ia(zero, 2), to, &ws, &ex));
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, k, dl, ia((int64_t[]){ -1, 0 }, 2), s,
						   to, &ws, &ex));
	/* a window larger than the padded image */
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, ia((int64_t[]){ 5, 1 }, 2), dl, p, s,
						   to, &ws, &ex));
	/* out's shape and dtype */
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, s, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnIm2colGetWorkspaceSize(ts, k, dl, p, s,
						   tens(od, 3, ACL_INT32, d), &ws, &ex));
	release();
}

/* ------------------------------------------------------------ MaxPool -- */

/* Reference: windows over the padded plane, padding never the maximum. */
static double maxpool_ref(aclDataType dt, const void *x, int64_t h, int64_t w,
			  int64_t plane, const int64_t *k, const int64_t *s,
			  const int64_t *pb, int64_t oy, int64_t ox)
{
	double best = -INFINITY;
	int64_t a, b;

	for (a = 0; a < k[0]; a++)
		for (b = 0; b < k[1]; b++) {
			int64_t y = oy * s[0] - pb[0] + a, z = ox * s[1] - pb[1] + b;

			if (y >= 0 && y < h && z >= 0 && z < w &&
			    getv(dt, x, plane * h * w + y * w + z) > best)
				best = getv(dt, x, plane * h * w + y * w + z);
		}
	return best;
}

TEST_F(nn, max_pool_dtypes)
{
	enum { C = 2, H = 5, W = 7 };
	int64_t sd[4] = { 1, C, H, W }, k[2] = { 2, 3 }, s[2] = { 2, 2 };
	int64_t pb[2] = { 1, 0 }, k1[2] = { 3, 3 }, s1[2] = { 1, 1 }, p0[2] = { 0, 0 };
	char hs[C * H * W * 8], ho[C * H * W * 8];
	int t, c, y, z;

	for (t = 0; t < NDT(dt_maxpool); t++) {
		aclDataType dt = dt_maxpool[t];
		void *ds = filled(dt, C * H * W, 0, hs), *dout;
		/* pads (top 1, left 0, bottom 0, right 1), ceil: H 3, W 4 */
		int64_t od[4] = { 1, C, 3, 4 }, od3[3] = { C, 3, 5 };
		aclOpExecutor *ex;
		uint64_t ws;

		dout = dbuf(NULL, C * 3 * 4 * esz(dt));
		ASSERT_EQ(0, aclnnMaxPoolGetWorkspaceSize(tens(sd, 4, dt, ds), ia(k, 2), ia(s, 2),
				0, ia((int64_t[]){ 1, 0, 0, 1 }, 4), ia((int64_t[]){ 1, 1 }, 2), 1,
				tens(od, 4, dt, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnMaxPool, ws, ex));
		back(ho, dout, C * 12, dt);
		for (c = 0; c < C; c++)
			for (y = 0; y < 3; y++)
				for (z = 0; z < 4; z++)
					EXPECT_EQ(maxpool_ref(dt, hs, H, W, c, k, s, pb, y, z),
						  getv(dt, ho, (c * 3 + y) * 4 + z));
		/* 3-D self, one kernel value, strides default 1, no pads */
		dout = dbuf(NULL, C * 3 * 5 * esz(dt));
		ASSERT_EQ(0, aclnnMaxPoolGetWorkspaceSize(tens(sd + 1, 3, dt, ds),
				ia((int64_t[]){ 3 }, 1), NULL, 0, NULL, NULL, 0,
				tens(od3, 3, dt, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnMaxPool, ws, ex));
		back(ho, dout, C * 15, dt);
		for (c = 0; c < C; c++)
			for (y = 0; y < 3; y++)
				for (z = 0; z < 5; z++)
					EXPECT_EQ(maxpool_ref(dt, hs, H, W, c, k1, s1, p0, y, z),
						  getv(dt, ho, (c * 3 + y) * 5 + z));
		release();
	}
}

TEST_F(nn, max_pool_errors)
{
	int64_t sd[4] = { 1, 1, 4, 4 }, od[4] = { 1, 1, 2, 2 }, two[2] = { 2, 2 };
	void *d = dbuf(NULL, 512);
	aclTensor *ts = tens(sd, 4, ACL_FLOAT, d), *to = tens(od, 4, ACL_FLOAT, d);
	aclIntArray *k = ia(two, 2), *s = ia(two, 2);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, NULL, 0, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMaxPoolGetWorkspaceSize(NULL, k, s, 0, NULL, NULL, 0, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMaxPoolGetWorkspaceSize(ts, NULL, s, 0, NULL, NULL, 0, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, NULL, 0, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, NULL, 0, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, NULL, 0, to, &ws, NULL));
	/* dtype (DOUBLE, BOOL not among CANN's), out's dtype */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(tens(sd, 4, ACL_DOUBLE, d), k, s, 0, NULL,
			NULL, 0, tens(od, 4, ACL_DOUBLE, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, NULL, 0,
			tens(od, 4, ACL_FLOAT16, d), &ws, &ex));
	/* rank 2 */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(tens(sd + 2, 2, ACL_FLOAT, d), k, s, 0,
			NULL, NULL, 0, tens(od + 2, 2, ACL_FLOAT, d), &ws, &ex));
	/* kernel of 3 values, a kernel of 0 */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, ia((int64_t[]){ 2, 2, 2 }, 3), s, 0,
			NULL, NULL, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, ia((int64_t[]){ 0, 2 }, 2), s, 0,
			NULL, NULL, 0, to, &ws, &ex));
	/* strides of 3 values, a stride of 0 */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, ia((int64_t[]){ 2, 2, 2 }, 3), 0,
			NULL, NULL, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, ia((int64_t[]){ 0, 2 }, 2), 0,
			NULL, NULL, 0, to, &ws, &ex));
	/* autoPad other than NOTSET */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 1, NULL, NULL, 0, to, &ws, &ex));
	/* pads of 3 values; pads of a dim adding up to more than the kernel */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, ia((int64_t[]){ 0, 0, 0 }, 3),
			NULL, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0,
			ia((int64_t[]){ 2, 0, 1, 0 }, 4), NULL, 0,
			tens((int64_t[]){ 1, 1, 3, 2 }, 4, ACL_FLOAT, d), &ws, &ex));
	/* dilations other than 1, dilations of 3 values */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, ia(two, 2), 0, to,
						    &ws, &ex));
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL,
			ia((int64_t[]){ 1, 1, 1 }, 3), 0, to, &ws, &ex));
	/* out's shape */
	EXPECT_EQ(INV, aclnnMaxPoolGetWorkspaceSize(ts, k, s, 0, NULL, NULL, 1, ts, &ws, &ex));
	release();
}

/* ------------------------------------------------------------ Argsort -- */

TEST_F(nn, argsort_dtypes)
{
	enum { R = 3, N = 7, RS = 8 };
	int64_t sd[2] = { R, N }, ss[2] = { RS, 1 }, ix[R * N];
	char hs[R * RS * 8];
	int t, desc, r, i;

	for (t = 0; t < NDT(dt_argsort); t++) {
		for (desc = 0; desc < 2; desc++) {
			aclDataType dt = dt_argsort[t];
			void *ds, *dout = dbuf(NULL, sizeof(ix));
			aclOpExecutor *ex;
			uint64_t ws;

			/* values with ties: (i * 5) % 4 */
			for (i = 0; i < R * RS; i++)
				putv(dt, hs, i, (double)((i * 5 + i / RS) % 4));
			ds = dbuf(hs, R * RS * esz(dt));
			/* ggml: rows of a padded view, dim -1 */
			ASSERT_EQ(0, aclnnArgsortGetWorkspaceSize(view(sd, 2, ss, 0, R * RS, dt, ds),
					-1, desc, tens(sd, 2, ACL_INT64, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnArgsort, ws, ex));
			get(ix, dout, sizeof(ix));
			for (r = 0; r < R; r++) {
				int seen = 0;

				for (i = 0; i < N; i++) {
					int64_t a = ix[r * N + i];

					ASSERT_TRUE(a >= 0 && a < N);
					seen |= 1 << a;
					if (!i)
						continue;
					double p = getv(dt, hs, r * RS + ix[r * N + i - 1]);
					double q = getv(dt, hs, r * RS + a);

					EXPECT_TRUE(desc ? p >= q : p <= q);
					if (p == q)	/* stable */
						EXPECT_TRUE(ix[r * N + i - 1] < a);
				}
				EXPECT_EQ((1 << N) - 1, seen);
			}
			/* dim 0 of the same view */
			ASSERT_EQ(0, aclnnArgsortGetWorkspaceSize(view(sd, 2, ss, 0, R * RS, dt, ds),
					0, desc, tens(sd, 2, ACL_INT64, dout), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnArgsort, ws, ex));
			get(ix, dout, sizeof(ix));
			for (i = 0; i < N; i++)
				for (r = 1; r < R; r++) {
					double p = getv(dt, hs, ix[(r - 1) * N + i] * RS + i);
					double q = getv(dt, hs, ix[r * N + i] * RS + i);

					EXPECT_TRUE(desc ? p >= q : p <= q);
				}
			release();
		}
	}
}

TEST_F(nn, argsort_errors)
{
	int64_t sd[2] = { 2, 3 };
	void *d = dbuf(NULL, 256);
	aclTensor *ts = tens(sd, 2, ACL_FLOAT, d), *to = tens(sd, 2, ACL_INT64, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnArgsortGetWorkspaceSize(NULL, 0, false, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnArgsortGetWorkspaceSize(ts, 0, false, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnArgsortGetWorkspaceSize(ts, 0, false, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnArgsortGetWorkspaceSize(ts, 0, false, to, &ws, NULL));
	/* self's dtype: BOOL and DOUBLE are not among CANN's */
	EXPECT_EQ(INV, aclnnArgsortGetWorkspaceSize(tens(sd, 2, ACL_BOOL, d), 0, false, to,
						    &ws, &ex));
	EXPECT_EQ(INV, aclnnArgsortGetWorkspaceSize(tens(sd, 2, ACL_DOUBLE, d), 0, false, to,
						    &ws, &ex));
	/* out INT64 of self's shape */
	EXPECT_EQ(INV, aclnnArgsortGetWorkspaceSize(ts, 0, false, tens(sd, 2, ACL_INT32, d),
						    &ws, &ex));
	EXPECT_EQ(INV, aclnnArgsortGetWorkspaceSize(ts, 0, false,
			tens((int64_t[]){ 3, 2 }, 2, ACL_INT64, d), &ws, &ex));
	/* dim out of range */
	EXPECT_EQ(INV, aclnnArgsortGetWorkspaceSize(ts, 2, false, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnArgsortGetWorkspaceSize(ts, -3, false, to, &ws, &ex));
	release();
}

/* ---------------------------------------- SoftmaxCrossEntropyWithLogits -- */

TEST_F(nn, softmax_cross_entropy_dtypes)
{
	enum { N = 3, C = 5 };
	static const aclDataType fdt[3] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16 };
	static const double tol[3] = { 1e-5, 2e-3, 1.6e-2 };
	int64_t fd[2] = { N, C }, n = N;
	char hf[N * C * 4], hl[N * C * 4], hlo[N * 4], hb[N * C * 4];
	int t, tr, i, j;

	for (t = 0; t < 3; t++) {
		for (tr = 0; tr < 2; tr++) {
			aclDataType dt = fdt[t];
			void *df, *dl, *dlo = dbuf(NULL, N * 4), *db = dbuf(NULL, N * C * 4);
			aclTensor *tf;
			aclOpExecutor *ex;
			uint64_t ws;

			/* features; labels are rows of probabilities */
			for (i = 0; i < N * C; i++) {
				putv(dt, hf, i, (double)frand(i) * 2);
				putv(dt, hl, i, (double)((i * 3) % 4) / 8.0);
			}
			df = dbuf(hf, N * C * esz(dt));
			dl = dbuf(hl, N * C * esz(dt));
			/* tr: features stored as (C, N), seen transposed */
			tf = tr ? view(fd, 2, (int64_t[]){ 1, N }, 0, N * C, dt, df) :
				  tens(fd, 2, dt, df);
			ASSERT_EQ(0, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf,
					tens(fd, 2, dt, dl), tens(&n, 1, dt, dlo),
					tens(fd, 2, dt, db), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnSoftmaxCrossEntropyWithLogits, ws, ex));
			back(hlo, dlo, N, dt);
			back(hb, db, N * C, dt);
			for (i = 0; i < N; i++) {
				double x[C], m = -INFINITY, z = 0, loss = 0;

				for (j = 0; j < C; j++) {
					x[j] = getv(dt, hf, tr ? j * N + i : i * C + j);
					m = x[j] > m ? x[j] : m;
				}
				for (j = 0; j < C; j++)
					z += exp(x[j] - m);
				for (j = 0; j < C; j++) {
					double lab = getv(dt, hl, i * C + j);
					double ls = x[j] - m - log(z);

					loss -= lab * ls;
					EXPECT_TRUE(fabs(getv(dt, hb, i * C + j) - (exp(ls) - lab)) <=
						    tol[t] * 2);
				}
				EXPECT_TRUE(fabs(getv(dt, hlo, i) - loss) <= tol[t] * (1 + fabs(loss)));
			}
			release();
		}
	}
}

TEST_F(nn, softmax_cross_entropy_errors)
{
	int64_t fd[2] = { 2, 3 }, n = 2, f3[3] = { 1, 2, 3 };
	void *d = dbuf(NULL, 256);
	aclTensor *tf = tens(fd, 2, ACL_FLOAT, d), *tl = tens(fd, 2, ACL_FLOAT, d);
	aclTensor *tlo = tens(&n, 1, ACL_FLOAT, d), *tb = tens(fd, 2, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(NULL, tl, tlo, tb,
									  &ws, &ex));
	EXPECT_EQ(NUL, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, NULL, tlo, tb,
									  &ws, &ex));
	EXPECT_EQ(NUL, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl, NULL, tb,
									  &ws, &ex));
	EXPECT_EQ(NUL, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl, tlo, NULL,
									  &ws, &ex));
	EXPECT_EQ(NUL, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl, tlo, tb,
									  NULL, &ex));
	EXPECT_EQ(NUL, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl, tlo, tb,
									  &ws, NULL));
	/* features not float; labels, loss, backprop of another dtype */
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
			tens(fd, 2, ACL_INT32, d), tens(fd, 2, ACL_INT32, d),
			tens(&n, 1, ACL_INT32, d), tens(fd, 2, ACL_INT32, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf,
			tens(fd, 2, ACL_FLOAT16, d), tlo, tb, &ws, &ex));
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl,
			tens(&n, 1, ACL_FLOAT16, d), tb, &ws, &ex));
	/* features 3-D; labels', backprop's and loss' shapes */
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
			tens(f3, 3, ACL_FLOAT, d), tens(f3, 3, ACL_FLOAT, d), tlo,
			tens(f3, 3, ACL_FLOAT, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf,
			tens((int64_t[]){ 3, 2 }, 2, ACL_FLOAT, d), tlo, tb, &ws, &ex));
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl, tlo,
			tens((int64_t[]){ 2, 2 }, 2, ACL_FLOAT, d), &ws, &ex));
	EXPECT_EQ(INV, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(tf, tl,
			tens((int64_t[]){ 3 }, 1, ACL_FLOAT, d), tb, &ws, &ex));
	release();
}

/* ---------------------------------------------------- TriangularSolve -- */

/*
 * A (ba, N, N) broadcast against b (bb, N, K): every upper / transpose /
 * unitriangular combination, FLOAT and DOUBLE (unitriangular FLOAT
 * only), checked by A x = b in double and mOut against the triangle.
 */
TEST_F(nn, triangular_solve)
{
	enum { N = 5, K = 3, BA = 2, BB = 3 };
	static const aclDataType fdt[2] = { ACL_FLOAT, ACL_DOUBLE };
	int64_t ad[4] = { BA, 1, N, N }, bd[3] = { BB, N, K };
	int64_t xd[4] = { BA, BB, N, K }, md[4] = { BA, BB, N, N };
	static char ha[BA * N * N * 8], hb[BB * N * K * 8];
	static char hx[BA * BB * N * K * 8], hm[BA * BB * N * N * 8];
	int t, mode, p, q, i, j, l;

	for (t = 0; t < 2; t++) {
		for (mode = 0; mode < 8; mode++) {
			aclDataType dt = fdt[t];
			bool upper = mode & 1, trans = mode & 2, unit = mode & 4;
			double tol = dt == ACL_FLOAT ? 2e-4 : 1e-10;
			void *da, *db, *dx, *dm;
			aclOpExecutor *ex;
			uint64_t ws;

			if (unit && dt != ACL_FLOAT)
				continue;
			/* a well-conditioned A: diagonal 2..3, small elsewhere; the
			 * other triangle is junk that must not take part */
			for (p = 0; p < BA; p++)
				for (i = 0; i < N; i++)
					for (j = 0; j < N; j++)
						putv(dt, ha, (p * N + i) * N + j, i == j ?
						     2.0 + 0.25 * (i + p) : frand(p * 31 + i * 7 + j) / 4);
			for (i = 0; i < BB * N * K; i++)
				putv(dt, hb, i, frand(i + 5));
			da = dbuf(ha, sizeof(ha) / (8 / esz(dt)));
			db = dbuf(hb, sizeof(hb) / (8 / esz(dt)));
			dx = dbuf(NULL, sizeof(hx));
			dm = dbuf(NULL, sizeof(hm));
			ASSERT_EQ(0, aclnnTriangularSolveGetWorkspaceSize(tens(bd, 3, dt, db),
					tens(ad, 4, dt, da), upper, trans, unit,
					tens(xd, 4, dt, dx), tens(md, 4, dt, dm), &ws, &ex));
			ASSERT_EQ(0, go(self->s, aclnnTriangularSolve, ws, ex));
			back(hx, dx, BA * BB * N * K, dt);
			back(hm, dm, BA * BB * N * N, dt);
			for (p = 0; p < BA; p++)
				for (q = 0; q < BB; q++) {
					/* op(A) x = b with the triangle that takes part */
					for (i = 0; i < N; i++)
						for (l = 0; l < K; l++) {
							double s = 0;

							for (j = 0; j < N; j++) {
								int r = trans ? j : i, c = trans ? i : j;
								double a = getv(dt, ha, (p * N + r) * N + c);

								if (upper ? c < r : c > r)
									a = 0;
								if (unit && r == c)
									a = 1;
								s += a * getv(dt, hx, (((p * BB + q) * N) + j) * K + l);
							}
							EXPECT_TRUE(fabs(s - getv(dt, hb, (q * N + i) * K + l)) <= tol);
						}
					for (i = 0; i < N; i++)
						for (j = 0; j < N; j++) {
							double a = getv(dt, ha, (p * N + i) * N + j);

							EXPECT_EQ((upper ? j >= i : j <= i) ? a : 0,
								  getv(dt, hm, (((p * BB + q) * N) + i) * N + j));
						}
				}
			release();
		}
	}
}

/* ggml's SOLVE_TRI: lower, A (B3, B2, N, N) and b (B3, B2, N, K) alike. */
TEST_F(nn, triangular_solve_ggml_lower)
{
	enum { N = 16, K = 4, B = 2 };
	int64_t ad[3] = { B, N, N }, bd[3] = { B, N, K };
	static float a[B * N * N], b[B * N * K], x[B * N * K];
	int p, i, j, l;
	aclOpExecutor *ex;
	uint64_t ws;
	void *dx;

	for (p = 0; p < B; p++)
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++)
				a[(p * N + i) * N + j] = i == j ? 1.5f : j < i ? frand(i * N + j) / 8 : 99;
	for (i = 0; i < B * N * K; i++)
		b[i] = frand(i);
	dx = dbuf(NULL, sizeof(x));
	ASSERT_EQ(0, aclnnTriangularSolveGetWorkspaceSize(
			tens(bd, 3, ACL_FLOAT, dbuf(b, sizeof(b))),
			tens(ad, 3, ACL_FLOAT, dbuf(a, sizeof(a))), false, false, false,
			tens(bd, 3, ACL_FLOAT, dx), tens(ad, 3, ACL_FLOAT, dbuf(NULL, sizeof(a))),
			&ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnTriangularSolve, ws, ex));
	get(x, dx, sizeof(x));
	for (p = 0; p < B; p++)
		for (i = 0; i < N; i++)
			for (l = 0; l < K; l++) {
				double s = 0;

				for (j = 0; j <= i; j++)
					s += (double)a[(p * N + i) * N + j] * x[(p * N + j) * K + l];
				EXPECT_TRUE(fabs(s - b[(p * N + i) * K + l]) <= 1e-4);
			}
	release();
}

TEST_F(nn, triangular_solve_errors)
{
	int64_t ad[2] = { 3, 3 }, bd[2] = { 3, 2 }, a3[3] = { 2, 3, 3 }, b3[3] = { 3, 3, 2 };
	void *d = dbuf(NULL, 1024);
	aclTensor *ta = tens(ad, 2, ACL_FLOAT, d), *tb = tens(bd, 2, ACL_FLOAT, d);
	aclTensor *tx = tens(bd, 2, ACL_FLOAT, d), *tm = tens(ad, 2, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(NUL, aclnnTriangularSolveGetWorkspaceSize(NULL, ta, 1, 0, 0, tx, tm, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTriangularSolveGetWorkspaceSize(tb, NULL, 1, 0, 0, tx, tm, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTriangularSolveGetWorkspaceSize(tb, ta, 1, 0, 0, NULL, tm, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTriangularSolveGetWorkspaceSize(tb, ta, 1, 0, 0, tx, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnTriangularSolveGetWorkspaceSize(tb, ta, 1, 0, 0, tx, tm, NULL, &ex));
	EXPECT_EQ(NUL, aclnnTriangularSolveGetWorkspaceSize(tb, ta, 1, 0, 0, tx, tm, &ws, NULL));
	/* FLOAT16 is not among CANN's dtypes */
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tens(bd, 2, ACL_FLOAT16, d),
			tens(ad, 2, ACL_FLOAT16, d), 1, 0, 0, tens(bd, 2, ACL_FLOAT16, d),
			tens(ad, 2, ACL_FLOAT16, d), &ws, &ex));
	/* A, xOut, mOut of another dtype */
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tb, tens(ad, 2, ACL_DOUBLE, d), 1,
			0, 0, tx, tm, &ws, &ex));
	/* unitriangular takes FLOAT only */
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tens(bd, 2, ACL_DOUBLE, d),
			tens(ad, 2, ACL_DOUBLE, d), 1, 0, 1, tens(bd, 2, ACL_DOUBLE, d),
			tens(ad, 2, ACL_DOUBLE, d), &ws, &ex));
	/* rank 1; A not square; b's rows not A's */
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tens(bd, 1, ACL_FLOAT, d), ta, 1,
			0, 0, tx, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tb, tens(bd, 2, ACL_FLOAT, d), 1,
			0, 0, tx, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tens((int64_t[]){ 2, 2 }, 2,
			ACL_FLOAT, d), ta, 1, 0, 0, tx, tm, &ws, &ex));
	/* batch dims that do not broadcast */
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tens(b3, 3, ACL_FLOAT, d),
			tens(a3, 3, ACL_FLOAT, d), 1, 0, 0, tens(b3, 3, ACL_FLOAT, d),
			tens(a3, 3, ACL_FLOAT, d), &ws, &ex));
	/* xOut's and mOut's shapes */
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tb, ta, 1, 0, 0, tm, tm, &ws, &ex));
	EXPECT_EQ(INV, aclnnTriangularSolveGetWorkspaceSize(tb, ta, 1, 0, 0, tx, tx, &ws, &ex));
	release();
}

/* ------------------------------------------------------ empty tensors -- */

/* CANN takes empty tensors: nothing is read, what is defined is written. */
TEST_F(nn, empty_tensors)
{
	float x[6] = { 1, 2, 3, 4, 5, 6 }, o[6], nan6[6];
	int64_t sd[2] = { 3, 2 }, e1 = 0, ed[2] = { 0, 2 }, c0[2] = { 2, 0 }, two = 2;
	void *dx = dbuf(x, sizeof(x)), *dout, *dn;
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	for (i = 0; i < 6; i++)
		nan6[i] = NAN;
	dn = dbuf(nan6, sizeof(nan6));
	/* GatherV2 with no indices: out (0, 2) */
	ASSERT_EQ(0, aclnnGatherV2GetWorkspaceSize(tens(sd, 2, ACL_FLOAT, dx), 0,
			tens(&e1, 1, ACL_INT64, dn), tens(ed, 2, ACL_FLOAT, dn), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnGatherV2, ws, ex));
	/* IndexCopy of no rows: out is self */
	dout = dbuf(nan6, sizeof(nan6));
	ASSERT_EQ(0, aclnnIndexCopyGetWorkspaceSize(tens(sd, 2, ACL_FLOAT, dx), 0,
			tens(&e1, 1, ACL_INT64, dn), tens(ed, 2, ACL_FLOAT, dn),
			tens(sd, 2, ACL_FLOAT, dout), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnIndexCopy, ws, ex));
	get(o, dout, sizeof(o));
	EXPECT_EQ(0, memcmp(o, x, sizeof(x)));
	/* RepeatInterleaveInt with 0 repeats: an empty out */
	ASSERT_EQ(0, aclnnRepeatInterleaveIntGetWorkspaceSize(tens(sd, 2, ACL_FLOAT, dx), 0,
			0, tens(&e1, 1, ACL_FLOAT, dn), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnRepeatInterleaveInt, ws, ex));
	/* Argsort of an empty self */
	ASSERT_EQ(0, aclnnArgsortGetWorkspaceSize(tens(ed, 2, ACL_FLOAT, dn), 1, false,
			tens(ed, 2, ACL_INT64, dn), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnArgsort, ws, ex));
	/* no classes: a loss of 0 per row */
	dout = dbuf(nan6, sizeof(nan6));
	ASSERT_EQ(0, aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
			tens(c0, 2, ACL_FLOAT, dn), tens(c0, 2, ACL_FLOAT, dn),
			tens(&two, 1, ACL_FLOAT, dout), tens(c0, 2, ACL_FLOAT, dn), &ws, &ex));
	ASSERT_EQ(0, go(self->s, aclnnSoftmaxCrossEntropyWithLogits, ws, ex));
	get(o, dout, 8);
	EXPECT_EQ(0, o[0]);
	EXPECT_EQ(0, o[1]);
	/* TriangularSolve with no right-hand sides still writes mOut */
	dout = dbuf(nan6, sizeof(nan6));
	{
		float a[4] = { 1, 2, 3, 4 };
		int64_t ad[2] = { 2, 2 };

		ASSERT_EQ(0, aclnnTriangularSolveGetWorkspaceSize(tens(c0, 2, ACL_FLOAT, dn),
				tens(ad, 2, ACL_FLOAT, dbuf(a, sizeof(a))), true, false, false,
				tens(c0, 2, ACL_FLOAT, dn), tens(ad, 2, ACL_FLOAT, dout), &ws, &ex));
		ASSERT_EQ(0, go(self->s, aclnnTriangularSolve, ws, ex));
		get(o, dout, 16);
		EXPECT_EQ(1, o[0]);
		EXPECT_EQ(2, o[1]);
		EXPECT_EQ(0, o[2]);
		EXPECT_EQ(4, o[3]);
	}
	release();
}

TEST_HARNESS_MAIN
