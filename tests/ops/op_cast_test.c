// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of CAST: all 64 dtype pairs against references computed in
 * double with libm (rounding to nearest even at the target's precision,
 * truncation and exact modular wrap for float -> int). Results must be
 * exact: CAST is correctly rounded.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL,
};

/* v rounded to p significant bits, exponent >= emin, overflow past maxf. */
static double ref_round(double v, int p, int emin, double maxf)
{
	double ulp, r;
	int e;

	if (isnan(v) || isinf(v) || v == 0)
		return v;
	frexp(v, &e);
	e -= 1;
	if (e < emin)
		e = emin;
	ulp = ldexp(1, e - (p - 1));
	r = nearbyint(v / ulp) * ulp;
	if (fabs(r) > maxf)
		return copysign(INFINITY, v);
	return r;
}

static s64 wrap_int(u32 dt, u64 u)
{
	switch (dt) {
	case DRM_VNPU_DTYPE_INT8:
		return (s8)u;
	case DRM_VNPU_DTYPE_UINT8:
		return (u8)u;
	case DRM_VNPU_DTYPE_INT32:
		return (s32)u;
	default:
		return (s64)u;
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

/* The expected value of casting @v (exact value of the source) to @dt. */
static double ref_cast(u32 src, u32 dt, double v, s64 iv)
{
	bool from_float = vnpu_dtype_is_float(src);

	switch (dt) {
	case DRM_VNPU_DTYPE_FLOAT:
		return ref_round(v, 24, -126, 3.4028234663852886e38);
	case DRM_VNPU_DTYPE_FLOAT16:
		return ref_round(v, 11, -14, 65504);
	case DRM_VNPU_DTYPE_BF16:
		return ref_round(v, 8, -126, 3.3895313892515355e38);
	case DRM_VNPU_DTYPE_BOOL:
		return from_float ? v != 0 : iv != 0;
	default:
		return (double)wrap_int(dt, from_float ? ref_f2i(v) : (u64)iv);
	}
}

static const double fspecials[] = {
	NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5,
	127.9, 128, -128.5, 255.5, 256, 65504, 65519, 65520, 70000, 1e10,
	-1e10, 3e38, -3e38, 9223372036854775808.0, -9223372036854775808.0,
	1.8446744073709552e19, 3.4e20, -3.4e20, 1e-8, 6e-8, 3e-8, 1e-40,
	2147483648.0, -2147483904.0, 4294967296.0 + 4096.0,
};

static const s64 ispecials[] = {
	0, 1, -1, 127, -128, 255, 256, -129, 2047, 2049, 2051, 4097, 65504,
	65519, 65520, 70000, 2147483647, -2147483648LL, 16777217,
	(1LL << 30) + (1LL << 22) + 1, (1LL << 30) + (1LL << 22),
	(1LL << 53) - 1, -(1LL << 53) + 1,
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
	if (vnpu_dtype_is_float(src))
		ot_fill(&x, src * 8 + dst + 1, -300, 300);
	else
		ot_fill(&x, src * 8 + dst + 1, -1e15, 1e15);	/* wraps per width */
	for (i = 0; xs && i < n; i += 3) {
		if (vnpu_dtype_is_float(src))
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
		double got = vnpu_load_f64(o.buf, dst, i);
		double want = ref_cast(src, dst, v, iv);

		if (!(got == want || (isnan(got) && isnan(want)))) {
			if (bad++ < 4)
				TH_LOG("%u -> %u [%lld]: x=%.17g (%lld) got %.17g want %.17g",
				       src, dst, (long long)i, v, (long long)iv, got, want);
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
