// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of CAST: all 169 pairs of the thirteen dtypes against
 * references computed in long double with libm (x86's 64-bit significand
 * holds every 64-bit integer exactly; rounding to nearest even at the
 * target's precision, truncation and exact modular wrap for float -> int).
 * Results must be exact: CAST is correctly rounded. Also: which families
 * take the wider dtypes (INT16 .. DOUBLE).
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL,
	DRM_VNPU_DTYPE_INT16, DRM_VNPU_DTYPE_UINT16, DRM_VNPU_DTYPE_UINT32,
	DRM_VNPU_DTYPE_UINT64, DRM_VNPU_DTYPE_DOUBLE,
};

static bool is_fp(u32 dt)
{
	return vnpu_dtype_is_float(dt) || dt == DRM_VNPU_DTYPE_DOUBLE;
}

/* v rounded to p significant bits, exponent >= emin, overflow past maxf. */
static long double ref_round(long double v, int p, int emin, long double maxf)
{
	long double ulp, r;
	int e;

	if (isnan(v) || isinf(v) || v == 0)
		return v;
	frexpl(v, &e);
	e -= 1;
	if (e < emin)
		e = emin;
	ulp = ldexpl(1, e - (p - 1));
	r = nearbyintl(v / ulp) * ulp;
	if (fabsl(r) > maxf)
		return copysignl(INFINITY, v);
	return r;
}

static s64 wrap_int(u32 dt, u64 u)
{
	switch (dt) {
	case DRM_VNPU_DTYPE_INT8:
		return (s8)u;
	case DRM_VNPU_DTYPE_UINT8:
		return (u8)u;
	case DRM_VNPU_DTYPE_INT16:
		return (s16)u;
	case DRM_VNPU_DTYPE_UINT16:
		return (u16)u;
	case DRM_VNPU_DTYPE_INT32:
		return (s32)u;
	case DRM_VNPU_DTYPE_UINT32:
		return (u32)u;
	default:
		return (s64)u;	/* INT64, and UINT64's bit pattern */
	}
}

static u64 ref_f2i(double x)
{
	double t, r;

	if (!isfinite(x))
		return 0;
	t = trunc(x);
	if (fabs(t) < 9223372036854775808.0)
		return (u64)(s64)t;
	r = fmod(t, 18446744073709551616.0);
	return r < 0 ? 0 - (u64)(-r) : (u64)r;
}

/*
 * The expected value of casting a source element to @dt: @v is its value
 * when @src is a float dtype, else @iv is (UINT64: the bit pattern of) the
 * integer. Float results in *f, integer results in *i.
 */
static void ref_cast(u32 src, u32 dt, double v, s64 iv, long double *f, s64 *i)
{
	bool from_float = is_fp(src);
	long double x = from_float ? (long double)v :
			src == DRM_VNPU_DTYPE_UINT64 ? (long double)(u64)iv :
			(long double)iv;

	switch (dt) {
	case DRM_VNPU_DTYPE_FLOAT:
		*f = ref_round(x, 24, -126, 3.4028234663852886e38L);
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		*f = ref_round(x, 11, -14, 65504);
		break;
	case DRM_VNPU_DTYPE_BF16:
		*f = ref_round(x, 8, -126, 3.3895313892515355e38L);
		break;
	case DRM_VNPU_DTYPE_DOUBLE:
		*f = ref_round(x, 53, -1022, 1.7976931348623157e308L);
		break;
	case DRM_VNPU_DTYPE_BOOL:
		*i = from_float ? v != 0 : iv != 0;
		break;
	default:
		*i = wrap_int(dt, from_float ? ref_f2i(v) : (u64)iv);
		break;
	}
}

static const double fspecials[] = {
	NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5,
	127.9, 128, -128.5, 255.5, 256, 65504, 65519, 65520, 70000, 1e10,
	-1e10, 3e38, -3e38, 9223372036854775808.0, -9223372036854775808.0,
	1.8446744073709552e19, 3.4e20, -3.4e20, 1e-8, 6e-8, 3e-8, 1e-40,
	2147483648.0, -2147483904.0, 4294967296.0 + 4096.0,
	/* DOUBLE sources: past fp32, subnormal, and halfway cases for FLOAT16
	 * and BF16 that rounding through fp32 first would get wrong. */
	1e300, -1e300, 4e-310, 0.1, 1.00048828125 + 0x1p-40,
	-(1.00048828125 + 0x1p-40), 1.00390625 + 0x1p-40, 65520 - 0x1p-30,
	18446744073709549568.0, 32767.99, -32768.5, 65535.9,
};

static const s64 ispecials[] = {
	0, 1, -1, 127, -128, 255, 256, -129, 2047, 2049, 2051, 4097, 65504,
	65519, 65520, 70000, 2147483647, -2147483648LL, 16777217,
	(1LL << 30) + (1LL << 22) + 1, (1LL << 30) + (1LL << 22),
	(1LL << 53) - 1, -(1LL << 53) + 1,
	32767, -32768, 65535, 4294967295LL, (1LL << 53) + 1,
	(1LL << 62) + (1LL << 40) + 1, INT64_MIN, INT64_MAX, INT64_MIN + 1,
};

static void check_pair(struct __test_metadata *_metadata, u32 src, u32 dst,
		       s64 n, s64 xs)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	s64 bx = xs ? n * xs : 1, i;
	int bad = 0;

	ot_make(&x, src, 1, &bx);
	ot_make(&o, dst, 1, &n);
	x.v.shape[0] = n;
	x.v.strides[0] = xs;
	if (is_fp(src))
		ot_fill(&x, src * 32 + dst + 1, -300, 300);
	else
		ot_fill(&x, src * 32 + dst + 1, -1e15, 1e15);	/* wraps per width */
	for (i = 0; xs && i < n; i += 3) {
		if (is_fp(src))
			vnpu_store_f64(x.buf, src, i * xs,
				       fspecials[(i / 3) % ARRAY_SIZE(fspecials)]);
		else
			vnpu_store_s64(x.buf, src, i * xs,
				       ispecials[(i / 3) % ARRAY_SIZE(ispecials)]);
	}
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, vnpu_ops_host_cpu()));
	for (i = 0; i < n; i++) {
		double v = vnpu_load_f64(x.buf, src, i * xs);
		s64 iv = vnpu_load_s64(x.buf, src, i * xs);
		long double want = 0;
		s64 want_i = 0;

		ref_cast(src, dst, v, iv, &want, &want_i);
		if (is_fp(dst)) {
			double got = vnpu_load_f64(o.buf, dst, i);

			if (got == want || (isnan(got) && isnan(want)))
				continue;
			if (bad++ < 4)
				TH_LOG("%u -> %u [%lld]: x=%.17g (%lld) got %.17g want %.17Lg",
				       src, dst, (long long)i, v, (long long)iv, got, want);
		} else {
			s64 got = vnpu_load_s64(o.buf, dst, i);

			if (got == want_i)
				continue;
			if (bad++ < 4)
				TH_LOG("%u -> %u [%lld]: x=%.17g (%lld) got %lld want %lld",
				       src, dst, (long long)i, v, (long long)iv,
				       (long long)got, (long long)want_i);
		}
	}
	EXPECT_EQ(0, bad);
	ot_free(&x);
	ot_free(&o);
}

TEST(all_pairs)
{
	unsigned int s, d;

	for (s = 0; s < ARRAY_SIZE(dtypes); s++)
		for (d = 0; d < ARRAY_SIZE(dtypes); d++) {
			check_pair(_metadata, dtypes[s], dtypes[d], 1000, 1);
			check_pair(_metadata, dtypes[s], dtypes[d], 17, 3);
			check_pair(_metadata, dtypes[s], dtypes[d], 5, 0);
		}
}

TEST(large_spans_tiles)
{
	check_pair(_metadata, DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16,
		   1000003, 1);
	check_pair(_metadata, DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_BF16,
		   1000003, 1);
}

TEST(double_rounding_avoided)
{
	/* 2^30 + 2^22 + 1: to fp32 first would tie and round down in bf16 */
	s64 n = 1, v = (1LL << 30) + (1LL << 22) + 1;
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };

	ot_make(&x, DRM_VNPU_DTYPE_INT64, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_BF16, 1, &n);
	((s64 *)x.buf)[0] = v;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, 0));
	EXPECT_EQ((double)((1LL << 30) + (1LL << 23)), vnpu_load_f64(o.buf, o.v.dtype, 0));
	ot_free(&x);
	ot_free(&o);
}

/* FLOAT16 and BF16 from DOUBLE round once, not through fp32. */
TEST(double_to_half_rounds_once)
{
	/* just past a FLOAT16 (BF16) halfway point; fp32 drops the excess */
	static const double in[4] = {
		1 + 0x1p-11 + 0x1p-40, -(1 + 0x1p-11 + 0x1p-40),
		1 + 0x1p-8 + 0x1p-40, 1 + 0x1p-11,
	};
	static const u16 want_f16[4] = { 0x3c01, 0xbc01, 0x3c04, 0x3c00 };
	static const u16 want_bf16[4] = { 0x3f80, 0xbf80, 0x3f81, 0x3f80 };
	s64 n = 4;
	struct ot_tensor x, o, b;
	struct ot_tensor *ts[2] = { &x, &o }, *tb[2] = { &x, &b };
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_DOUBLE, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT16, 1, &n);
	ot_make(&b, DRM_VNPU_DTYPE_BF16, 1, &n);
	memcpy(x.buf, in, sizeof(in));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, 0));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, tb, 1, 1, NULL, 0));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(want_f16[i], ((u16 *)o.buf)[i]) TH_LOG("f16 %d", i);
		EXPECT_EQ(want_bf16[i], ((u16 *)b.buf)[i]) TH_LOG("bf16 %d", i);
	}
	ot_free(&x);
	ot_free(&o);
	ot_free(&b);
}

/* UINT64 past 2^63 converts as an unsigned value, float -> UINT64 wraps. */
TEST(uint64_is_unsigned)
{
	s64 n = 3;
	struct ot_tensor x, o, d, back;
	struct ot_tensor *ts[2] = { &x, &o }, *td[2] = { &x, &d }, *tk[2] = { &o, &back };
	static const u64 in[3] = { 0xffffffffffffffffULL, 1ULL << 63, (1ULL << 63) + 2049 };

	ot_make(&x, DRM_VNPU_DTYPE_UINT64, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&d, DRM_VNPU_DTYPE_DOUBLE, 1, &n);
	ot_make(&back, DRM_VNPU_DTYPE_UINT64, 1, &n);
	memcpy(x.buf, in, sizeof(in));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, 0));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, td, 1, 1, NULL, 0));
	EXPECT_EQ(0x1p64f, ((float *)o.buf)[0]);
	EXPECT_EQ(0x1p63f, ((float *)o.buf)[1]);
	EXPECT_EQ(0x1p64, ((double *)d.buf)[0]);
	EXPECT_EQ(0x1p63 + 2048, ((double *)d.buf)[2]);
	/* 2^64 as float wraps to 0, 2^63 stays */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CAST, tk, 1, 1, NULL, 0));
	EXPECT_EQ(0, ((u64 *)back.buf)[0]);
	EXPECT_EQ(1ULL << 63, ((u64 *)back.buf)[1]);
	ot_free(&x);
	ot_free(&o);
	ot_free(&d);
	ot_free(&back);
}

/*
 * INT16, UINT16, UINT32, UINT64 and DOUBLE: the elementwise, movement and
 * reduction families compute in them (values checked), the float-only
 * families refuse them, and an unknown dtype is refused everywhere.
 */
TEST(wider_dtypes_by_family)
{
	static const u32 wide[] = {
		DRM_VNPU_DTYPE_INT16, DRM_VNPU_DTYPE_UINT16, DRM_VNPU_DTYPE_UINT32,
		DRM_VNPU_DTYPE_UINT64, DRM_VNPU_DTYPE_DOUBLE, 5,
	};
	s64 n = 4, i;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(wide); k++) {
		struct ot_tensor a, b, o;
		struct ot_tensor *t3[3] = { &a, &b, &o }, *t2[2] = { &a, &o };
		u32 dt = wide[k];
		int want = dt == 5 ? -VNPU_OPS_EINVAL : 0;

		ot_make(&a, dt == 5 ? DRM_VNPU_DTYPE_INT32 : dt, 1, &n);
		ot_make(&b, dt == 5 ? DRM_VNPU_DTYPE_INT32 : dt, 1, &n);
		ot_make(&o, dt == 5 ? DRM_VNPU_DTYPE_INT32 : dt, 1, &n);
		a.v.dtype = b.v.dtype = o.v.dtype = dt;
		for (i = 0; i < n && want == 0; i++) {
			vnpu_store_s64(a.buf, dt, i, 10 + i);
			vnpu_store_s64(b.buf, dt, i, 3);
		}
		EXPECT_EQ(want, ot_run(DRM_VNPU_OP_ADD, t3, 2, 1, NULL, 0));
		if (!want)
			EXPECT_EQ(16, vnpu_load_s64(o.buf, dt, 3));
		EXPECT_EQ(want, ot_run(DRM_VNPU_OP_NEG, t2, 1, 1, NULL, 0));
		EXPECT_EQ(want, ot_run(DRM_VNPU_OP_STRIDED_COPY, t2, 1, 1, NULL, 0));
		if (!want)
			EXPECT_EQ(13, vnpu_load_s64(o.buf, dt, 3));
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, t2, 1, 1, NULL, 0));
		o.v.rank = 0;
		EXPECT_EQ(want, ot_run(DRM_VNPU_OP_REDUCE_SUM, t2, 1, 1, NULL, 0));
		if (!want)
			EXPECT_EQ(46, vnpu_load_s64(o.buf, dt, 0));
		o.v.rank = 1;
		EXPECT_EQ(want, ot_run(DRM_VNPU_OP_CAST, t2, 1, 1, NULL, 0));
		ot_free(&a);
		ot_free(&b);
		ot_free(&o);
	}
}

TEST(empty_and_rejects)
{
	s64 s0 = 0, s4 = 4, s5 = 5;
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &s0);
	ot_make(&o, DRM_VNPU_DTYPE_INT8, 1, &s0);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, 0));
	x.v.shape[0] = 4;
	o.v.shape[0] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, 0));
	o.v.shape[0] = 4;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CAST, ts, 2, 0, NULL, 0));
	o.v.dtype = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CAST, ts, 1, 1, NULL, 0));
	(void)s4;
	(void)s5;
	ot_free(&x);
	ot_free(&o);
}

TEST_HARNESS_MAIN
