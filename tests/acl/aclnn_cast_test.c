// SPDX-License-Identifier: MIT
/*
 * aclnnCast (cast family) on the real driver, and dtype promotion through
 * CAST tasks in the workspace. Every pair of the thirteen dtypes the
 * device holds is checked element by element against a reference written
 * here in long double (x86's 64-bit significand holds every 64-bit
 * integer): float results rounded once to nearest even, integers wrapped,
 * float -> integer truncated then wrapped with NaN and Inf giving 0,
 * anything -> BOOL is != 0 (NaN is true).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_div.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

#define NDT 13
static const aclDataType all_dt[NDT] = {
	ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
	ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64,
	ACL_BOOL,
};

static bool dt_is_float(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16 ||
	       dt == ACL_DOUBLE;
}

static size_t dt_size(aclDataType dt)
{
	switch ((int)dt) {
	case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
	case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
	case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: return 8;
	default: return 1;
	}
}

/* Precision, smallest normal exponent and largest finite of a float dtype. */
static void dt_format(aclDataType dt, int *p, int *emin, long double *max)
{
	switch ((int)dt) {
	case ACL_FLOAT16: *p = 11; *emin = -14; *max = 65504; break;
	case ACL_BF16: *p = 8; *emin = -126; *max = 0x1.fep127L; break;
	case ACL_FLOAT: *p = 24; *emin = -126; *max = 0x1.fffffep127L; break;
	default: *p = 53; *emin = -1022; *max = 0x1.fffffffffffffp1023L; break;
	}
}

/* v rounded to nearest even in dtype dt (a float dtype), +-Inf past max. */
static long double ref_round(long double v, aclDataType dt)
{
	long double ulp, r, max;
	int p, emin, e;

	dt_format(dt, &p, &emin, &max);
	if (isnan(v) || isinf(v) || v == 0)
		return v;
	frexpl(v, &e);
	e = e - 1 < emin ? emin : e - 1;
	ulp = ldexpl(1, e - (p - 1));
	r = nearbyintl(v / ulp) * ulp;
	return fabsl(r) > max ? copysignl(INFINITY, v) : r;
}

/* The integer u (two's complement, any width) narrowed to dtype dt. */
static long double ref_wrap(uint64_t u, aclDataType dt)
{
	switch ((int)dt) {
	case ACL_INT8: return (int8_t)u;
	case ACL_UINT8: return (uint8_t)u;
	case ACL_INT16: return (int16_t)u;
	case ACL_UINT16: return (uint16_t)u;
	case ACL_INT32: return (int32_t)u;
	case ACL_UINT32: return (uint32_t)u;
	case ACL_INT64: return (int64_t)u;
	default: return u;	/* UINT64 */
	}
}

/* Casting the value v of a source element to dt, as the device should. */
static long double ref_cast(long double v, bool from_float, aclDataType dt)
{
	long double t, m;

	if (dt == ACL_BOOL)
		return v != 0;		/* NaN != 0 too */
	if (dt_is_float(dt))
		return ref_round(v, dt);
	if (!from_float)
		return ref_wrap(v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v, dt);
	if (isnan(v) || isinf(v))
		return 0;
	t = truncl(v);
	m = fmodl(t, 0x1p64L);	/* exact; the sign of t */
	if (m < 0)
		m += 0x1p64L;
	return ref_wrap((uint64_t)m, dt);
}

/* An exactly representable value v as a dtype dt element at p. */
static void encode(void *p, aclDataType dt, long double v)
{
	float f = (float)v;
	uint32_t b;
	uint16_t h;

	memcpy(&b, &f, 4);
	switch ((int)dt) {
	case ACL_FLOAT: memcpy(p, &f, 4); break;
	case ACL_DOUBLE: { double d = (double)v; memcpy(p, &d, 8); break; }
	case ACL_BF16: h = b >> 16; memcpy(p, &h, 2); break;
	case ACL_FLOAT16: {
		uint32_t sign = (b >> 16) & 0x8000, e = (b >> 23) & 0xff;

		if (e == 0xff)
			h = sign | 0x7c00 | ((b & 0x7fffff) ? 0x200 : 0);
		else if (f == 0)
			h = sign;
		else	/* normal in FLOAT16: the values below are */
			h = sign | ((e - 112) << 10) | ((b & 0x7fffff) >> 13);
		memcpy(p, &h, 2);
		break;
	}
	case ACL_BOOL: *(uint8_t *)p = v != 0; break;
	default: {
		uint64_t u = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;

		memcpy(p, &u, dt_size(dt));	/* little endian: the low bytes */
		break;
	}
	}
}

/* An element of dtype dt at p as its exact value. */
static long double decode(const void *p, aclDataType dt)
{
	uint16_t h;
	uint32_t b;
	float f;

	switch ((int)dt) {
	case ACL_FLOAT: memcpy(&f, p, 4); return f;
	case ACL_DOUBLE: { double d; memcpy(&d, p, 8); return d; }
	case ACL_BF16: memcpy(&h, p, 2); b = (uint32_t)h << 16; memcpy(&f, &b, 4); return f;
	case ACL_FLOAT16: {
		long double m;
		int e;

		memcpy(&h, p, 2);
		e = (h >> 10) & 31;
		m = h & 1023;
		if (e == 31)
			m = m ? NAN : INFINITY;
		else
			m = e ? ldexpl(1024 + m, e - 25) : ldexpl(m, -24);
		return h & 0x8000 ? -m : m;
	}
	case ACL_BOOL: return *(const uint8_t *)p;
	case ACL_INT8: return *(const int8_t *)p;
	case ACL_UINT8: return *(const uint8_t *)p;
	case ACL_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
	case ACL_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
	case ACL_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
	case ACL_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
	case ACL_INT64: { int64_t v; memcpy(&v, p, 8); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

/*
 * Source values. Float sources take values exact in all four float
 * dtypes (8 significant bits, FLOAT16's normal range): fractions that
 * truncate, values that wrap past 8 and 16 bits, NaN and the infinities.
 * Integer sources take values stored wrapped to their width: the edges
 * of every width and integers that round in FLOAT (2^24 + 1), FLOAT16
 * (2049, 2051) and BF16 (257, 259), and 2^53 + 1 for DOUBLE.
 */
#define NV 24
static const long double fvals[NV] = {
	0, -0.0L, 0.5, -0.5, 1.5, -1.75, 2.5, -3.5, 127, -128, 255, 256,
	-129, 300, 1000, -40960, 65280, 0.375, 0x1p-14L, -0x1p-10L,
	32768, NAN, INFINITY, -INFINITY,
};
static const long double ivals[NV] = {
	0, 1, -1, 127, -128, 255, 256, 32767, -32768, 65535, 65536, 2147483647.0L,
	-2147483648.0L, 4294967295.0L, 16777217, 2049, 2051, 257, 259,
	0x1p53L + 1, 0x1p63L - 1, -0x1p63L, 0x1p62L + 0x1p40L + 1, -7,
};

/* The value a source element of dt holds for entry i of its list. */
static long double src_value(aclDataType dt, int i)
{
	unsigned char b[8] = { 0 };

	if (dt_is_float(dt))
		return fvals[i];
	if (dt == ACL_BOOL)
		return i & 1;
	encode(b, dt, ivals[i]);
	return decode(b, dt);
}

TEST_F(nn, cast_every_dtype_pair)
{
	void *src[NDT], *od = dev(self, NULL, 8 * (NV + 1));
	unsigned char host[8 * (NV + 1)], out[8 * (NV + 1)];
	int64_t sh[1] = { NV };
	int s, d, i, bad = 0, pairs = 0;

	for (s = 0; s < NDT; s++) {
		for (i = 0; i < NV; i++)
			encode(host + i * dt_size(all_dt[s]), all_dt[s],
			       dt_is_float(all_dt[s]) ? fvals[i] :
			       all_dt[s] == ACL_BOOL ? (i & 1) : ivals[i]);
		src[s] = dev(self, host, NV * dt_size(all_dt[s]));
		ASSERT_NE(NULL, src[s]);
	}
	for (s = 0; s < NDT; s++) {
		for (d = 0; d < NDT; d++) {
			aclTensor *tx = tens(sh, 1, all_dt[s], src[s]);
			aclTensor *to = tens(sh, 1, all_dt[d], od);
			aclOpExecutor *ex;
			uint64_t ws;

			ASSERT_NE(NULL, tx);
			ASSERT_NE(NULL, to);
			ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tx, all_dt[d], to, &ws, &ex))
				TH_LOG("%d -> %d", all_dt[s], all_dt[d]);
			ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
			get(out, od, NV * dt_size(all_dt[d]));
			for (i = 0; i < NV; i++) {
				long double v = src_value(all_dt[s], i);
				long double want = ref_cast(v, dt_is_float(all_dt[s]), all_dt[d]);
				long double got = decode(out + i * dt_size(all_dt[d]), all_dt[d]);

				if (got == want || (isnan(got) && isnan(want)))
					continue;
				if (bad++ < 8)
					TH_LOG("%d -> %d [%d]: %.21Lg gave %.21Lg, want %.21Lg",
					       all_dt[s], all_dt[d], i, v, got, want);
			}
			pairs++;
			aclDestroyTensor(tx);
			aclDestroyTensor(to);
		}
	}
	EXPECT_EQ(NDT * NDT, pairs);
	EXPECT_EQ(0, bad);
}

/* A few conversions spelled out, so the reference itself is pinned. */
TEST_F(nn, cast_known_values)
{
	double x[6] = { 1 + 0x1p-11 + 0x1p-40, -2.9, 300.7, 1e300, NAN, -1e10 };
	uint16_t h[6];
	int16_t i16[6];
	uint8_t u8[6];
	int64_t sh[1] = { 6 };
	void *xd = dev(self, x, sizeof(x)), *hd = dev(self, NULL, sizeof(h));
	void *id = dev(self, NULL, sizeof(i16)), *ud = dev(self, NULL, sizeof(u8));
	aclTensor *tx = tens(sh, 1, ACL_DOUBLE, xd);
	aclTensor *th = tens(sh, 1, ACL_FLOAT16, hd);
	aclTensor *ti = tens(sh, 1, ACL_INT16, id);
	aclTensor *tu = tens(sh, 1, ACL_UINT8, ud);
	aclOpExecutor *ex;
	uint64_t ws;

	ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tx, ACL_FLOAT16, th, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
	ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tx, ACL_INT16, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
	ASSERT_EQ(0, aclnnCastGetWorkspaceSize(tx, ACL_UINT8, tu, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCast, ws, ex));
	get(h, hd, sizeof(h));
	get(i16, id, sizeof(i16));
	get(u8, ud, sizeof(u8));
	/* just past a FLOAT16 tie: up, not to even (one rounding) */
	EXPECT_EQ(0x3c01, h[0]);
	EXPECT_EQ(0xc1cd, h[1]);	/* -2.9 -> -2.900390625 */
	EXPECT_EQ(0x7c00, h[3]);	/* overflow: +Inf */
	EXPECT_EQ(0x7e00, h[4] & 0x7e00);	/* NaN stays NaN */
	EXPECT_EQ(-2, i16[1]);		/* truncation toward zero */
	EXPECT_EQ(300, i16[2]);
	EXPECT_EQ(0, i16[4]);		/* NaN -> 0 */
	EXPECT_EQ((int16_t)(uint16_t)(uint64_t)(int64_t)-10000000000LL, i16[5]);
	EXPECT_EQ(254, u8[1]);		/* -2 wraps */
	EXPECT_EQ(44, u8[2]);		/* 300 wraps */
	aclDestroyTensor(tx);
	aclDestroyTensor(th);
	aclDestroyTensor(ti);
	aclDestroyTensor(tu);
}

/* Dtypes the device cannot hold: Cast reports 161002 in phase 1. */
TEST_F(nn, cast_rejects)
{
	static const aclDataType none[] = {
		ACL_STRING, ACL_COMPLEX64, ACL_COMPLEX128, ACL_INT4, ACL_UINT1,
		ACL_COMPLEX32, ACL_HIFLOAT8, ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN,
		ACL_FLOAT8_E8M0, ACL_FLOAT6_E3M2, ACL_FLOAT6_E2M3,
		ACL_FLOAT4_E2M1, ACL_FLOAT4_E1M2,
	};
	int64_t sh[1] = { 4 };
	void *d = dev(self, NULL, 64);
	aclTensor *tf = tens(sh, 1, ACL_FLOAT, d), *t64 = tens(sh, 1, ACL_DOUBLE, d);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 0;
	unsigned int k;

	for (k = 0; k < sizeof(none) / sizeof(none[0]); k++) {
		aclTensor *tn = tens(sh, 1, none[k], d);

		ASSERT_NE(NULL, tn) TH_LOG("dtype %d", none[k]);
		EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
			  aclnnCastGetWorkspaceSize(tf, none[k], tn, &ws, &ex))
			TH_LOG("to %d", none[k]);
		EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
			  aclnnCastGetWorkspaceSize(tn, ACL_FLOAT, tf, &ws, &ex))
			TH_LOG("from %d", none[k]);
		aclDestroyTensor(tn);
	}
	/* dtype must be out's dtype; an undefined value never is */
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnCastGetWorkspaceSize(tf, ACL_DOUBLE, tf, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_INVALID,
		  aclnnCastGetWorkspaceSize(tf, (aclDataType)5, t64, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnCastGetWorkspaceSize(NULL, ACL_DOUBLE, t64, &ws, &ex));
	EXPECT_EQ(ACLNN_ERR_PARAM_NULLPTR,
		  aclnnCastGetWorkspaceSize(tf, ACL_DOUBLE, t64, NULL, &ex));
	/* and a good one still goes */
	EXPECT_EQ(0, aclnnCastGetWorkspaceSize(tf, ACL_DOUBLE, t64, &ws, &ex));
	EXPECT_EQ(0, aclDestroyAclOpExecutor(ex));
	aclDestroyTensor(tf);
	aclDestroyTensor(t64);
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

TEST_HARNESS_MAIN
