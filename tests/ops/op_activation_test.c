// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the second unary family (TAN .. HARD_SWISH) and PRELU
 * against libm references in double rounded to the output dtype: every
 * float dtype, contiguous, strided and broadcast inputs, attributes and
 * their defaults, integer PRELU exactly, and the calls check() refuses.
 * Tolerances: fp32 2e-6 relative, fp16/bf16 ot_tolerance().
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

/* The case table leaves trailing fields to their zero defaults. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static double r_elu(double x) { return x < 0 ? expm1(x) : x; }
static double r_elu2(double x)	/* alpha 0.5, scale 2, input scale 1.5 */
{
	return 2.0 * (x > 0 ? x : 0.5 * expm1(1.5 * x));
}
static double r_selu(double x)
{
	return (double)1.05070102214813232421875f *
	       (x <= 0 ? (double)1.67326319217681884765625f * expm1(x) : x);
}
static double r_selu2(double x) { return 3.0 * (x <= 0 ? 2.0 * expm1(x) : x); }
static double r_celu(double x) { return x < 0 ? 2.0 * expm1(x / 2.0) : x; }
static double r_thr(double x) { return isnan(x) ? x : x > 1.0 ? x : 0; }
static double r_thr2(double x) { return isnan(x) ? x : x > 2.0 ? x : 0; }
static double r_shrink(double x)	/* lambd 0.5, bias 0 */
{
	return isnan(x) ? x : x < -0.5 ? x : x > 0.5 ? x : 0;
}
static double r_shrink2(double x)	/* lambd 1.5, bias 1.5 */
{
	return isnan(x) ? x : x < -1.5 ? x + 1.5 : x > 1.5 ? x - 1.5 : 0;
}
static double r_softsign(double x) { return x / (1 + fabs(x)); }
static double clamp01(double t) { return t < 0 ? 0 : t > 1 ? 1 : t; }
static double r_hsig(double x)
{
	return isnan(x) ? x : clamp01((double)0.2f * x + 0.5);
}
static double r_hsig2(double x) { return isnan(x) ? x : clamp01(0.5 * x + 0.25); }
static double r_hswish(double x) { return isnan(x) ? x : x * clamp01(x / 6 + 0.5); }

struct acase {
	u32 op;
	const char *name;
	double (*ref)(double x);
	double lo, hi;
	float a0, a1, a2;	/* attributes (used when attrs is set) */
	bool attrs;
};

static const struct acase acases[] = {
	{ DRM_VNPU_OP_TAN, "tan", tan, -100, 100 },
	{ DRM_VNPU_OP_ASIN, "asin", asin, -1.2, 1.2 },
	{ DRM_VNPU_OP_ACOS, "acos", acos, -1.2, 1.2 },
	{ DRM_VNPU_OP_ATAN, "atan", atan, -1000, 1000 },
	{ DRM_VNPU_OP_SINH, "sinh", sinh, -90, 90 },
	{ DRM_VNPU_OP_COSH, "cosh", cosh, -90, 90 },
	{ DRM_VNPU_OP_ASINH, "asinh", asinh, -1e6, 1e6 },
	{ DRM_VNPU_OP_ACOSH, "acosh", acosh, 0.5, 100 },
	{ DRM_VNPU_OP_ATANH, "atanh", atanh, -1.1, 1.1 },
	{ DRM_VNPU_OP_ELU, "elu", r_elu, -10, 10 },
	{ DRM_VNPU_OP_ELU, "elu_a", r_elu2, -10, 10, 0.5f, 2.0f, 1.5f, true },
	{ DRM_VNPU_OP_SELU, "selu", r_selu, -10, 10 },
	{ DRM_VNPU_OP_SELU, "selu_a", r_selu2, -10, 10, 2.0f, 3.0f, 0, true },
	{ DRM_VNPU_OP_CELU, "celu", r_celu, -10, 10, 2.0f, 0, 0, true },
	{ DRM_VNPU_OP_THRESHOLDED_RELU, "thresholded_relu", r_thr, -5, 5 },
	{ DRM_VNPU_OP_THRESHOLDED_RELU, "thresholded_relu_a", r_thr2, -5, 5,
	  2.0f, 0, 0, true },
	{ DRM_VNPU_OP_SHRINK, "shrink", r_shrink, -3, 3 },
	{ DRM_VNPU_OP_SHRINK, "shrink_a", r_shrink2, -3, 3, 1.5f, 1.5f, 0, true },
	{ DRM_VNPU_OP_SOFTSIGN, "softsign", r_softsign, -100, 100 },
	{ DRM_VNPU_OP_HARD_SIGMOID, "hard_sigmoid", r_hsig, -6, 6 },
	{ DRM_VNPU_OP_HARD_SIGMOID, "hard_sigmoid_a", r_hsig2, -6, 6, 0.5f,
	  0.25f, 0, true },
	{ DRM_VNPU_OP_HARD_SWISH, "hard_swish", r_hswish, -8, 8 },
};

static u32 fbits(float f)
{
	u32 u;

	memcpy(&u, &f, 4);
	return u;
}

static double to_dtype(u32 dtype, double v)
{
	u8 buf[8];

	vnpu_store_f64(buf, dtype, 0, (float)v);
	return vnpu_load_f64(buf, dtype, 0);
}

static double rtol_of(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_FLOAT ? 2e-6 : ot_tolerance(dtype);
}

static const double specials[] = {
	NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-30, -1e-30,
};

/* One op on n elements, input stride xs (0: broadcast), output stride os. */
static int run_case(struct __test_metadata *_metadata, const struct acase *ac,
		    u32 dtype, s64 n, s64 xs, s64 os)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	s64 bx = n * (xs ? xs : 1), bo = n * os, i;
	int bad = 0;

	ot_make(&x, dtype, 1, &bx);
	ot_make(&o, dtype, 1, &bo);
	ot_fill(&x, n + xs + ac->op, ac->lo, ac->hi);
	x.v.shape[0] = o.v.shape[0] = n;
	x.v.strides[0] = xs;
	o.v.strides[0] = os;
	for (i = 0; xs && i < (s64)ARRAY_SIZE(specials) && i * 13 < n; i++)
		vnpu_store_f64(x.buf, dtype, i * 13 * xs, specials[i]);
	memset(&at, 0, sizeof(at));
	at.floats[0] = fbits(ac->a0);
	at.floats[1] = fbits(ac->a1);
	at.floats[2] = fbits(ac->a2);
	EXPECT_EQ(0, ot_run(ac->op, ts, 1, 1, ac->attrs ? &at : NULL,
			    vnpu_ops_host_cpu()));
	for (i = 0; i < n; i++) {
		double in = vnpu_load_f64(x.buf, dtype, i * xs);
		double got = vnpu_load_f64(o.buf, dtype, i * os);
		double want = to_dtype(dtype, ac->ref(in));

		if (!ot_close(got, want, rtol_of(dtype), 1e-38) && bad++ < 5)
			TH_LOG("%s dtype %u n %lld [%lld] x=%.9g got %.9g want %.9g",
			       ac->name, dtype, (long long)n, (long long)i, in,
			       got, want);
	}
	ot_free(&x);
	ot_free(&o);
	return bad;
}

TEST(float_ops_all_dtypes_and_lengths)
{
	static const u32 dtypes[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	};
	static const s64 lens[] = { 1, 17, 1000, 70001 };
	unsigned int k, d, l;

	for (k = 0; k < ARRAY_SIZE(acases); k++)
		for (d = 0; d < ARRAY_SIZE(dtypes); d++)
			for (l = 0; l < ARRAY_SIZE(lens); l++)
				EXPECT_EQ(0, run_case(_metadata, &acases[k], dtypes[d],
						      lens[l], 1, 1));
}

TEST(strided_and_broadcast)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(acases); k++) {
		EXPECT_EQ(0, run_case(_metadata, &acases[k], DRM_VNPU_DTYPE_FLOAT,
				      333, 3, 2));
		EXPECT_EQ(0, run_case(_metadata, &acases[k], DRM_VNPU_DTYPE_FLOAT,
				      65, 0, 1));
	}
}

/* x [3, 4, 5] with slope [4, 1] (broadcast over dims 0 and 2). */
static void prelu_case(struct __test_metadata *_metadata, u32 dtype)
{
	s64 xs[3] = { 3, 4, 5 }, ss[2] = { 4, 1 };
	struct ot_tensor x, s, o;
	struct ot_tensor *ts[3] = { &x, &s, &o };
	s64 i, j, k;

	ot_make(&x, dtype, 3, xs);
	ot_make(&s, dtype, 2, ss);
	ot_make(&o, dtype, 3, xs);
	ot_fill(&x, 3, -100, 100);
	ot_fill(&s, 4, -3, 3);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, vnpu_ops_host_cpu()));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			for (k = 0; k < 5; k++) {
				s64 e = (i * 4 + j) * 5 + k;
				double xv = vnpu_load_f64(x.buf, dtype, e);
				double sv = vnpu_load_f64(s.buf, dtype, j);
				double got = vnpu_load_f64(o.buf, dtype, e);
				double want = xv < 0 ? sv * xv : xv;

				if (vnpu_dtype_is_float(dtype))
					want = to_dtype(dtype, want);
				else
					want = (double)(s64)(want);
				ASSERT_TRUE(ot_close(got, want,
						     vnpu_dtype_is_float(dtype) ?
						     rtol_of(dtype) : 0, 0))
					TH_LOG("dtype %u [%lld] x %g s %g got %g want %g",
					       dtype, (long long)e, xv, sv, got, want);
			}
	ot_free(&x);
	ot_free(&s);
	ot_free(&o);
}

TEST(prelu_broadcast_float_and_int)
{
	prelu_case(_metadata, DRM_VNPU_DTYPE_FLOAT);
	prelu_case(_metadata, DRM_VNPU_DTYPE_FLOAT16);
	prelu_case(_metadata, DRM_VNPU_DTYPE_INT32);
	prelu_case(_metadata, DRM_VNPU_DTYPE_INT64);
}

/* INT8 PRELU wraps: -128 * -1 = -128. */
TEST(prelu_int8_wraps)
{
	s64 n = 2;
	struct ot_tensor x, s, o;
	struct ot_tensor *ts[3] = { &x, &s, &o };

	ot_make(&x, DRM_VNPU_DTYPE_INT8, 1, &n);
	ot_make(&s, DRM_VNPU_DTYPE_INT8, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_INT8, 1, &n);
	((s8 *)x.buf)[0] = -128;
	((s8 *)x.buf)[1] = -3;
	((s8 *)s.buf)[0] = -1;
	((s8 *)s.buf)[1] = 5;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-128, ((s8 *)o.buf)[0]);
	EXPECT_EQ(-15, ((s8 *)o.buf)[1]);
	ot_free(&x);
	ot_free(&s);
	ot_free(&o);
}

TEST(rejects)
{
	s64 s4 = 4, s5 = 5;
	struct ot_tensor x, o, y;
	struct ot_tensor *ts[3] = { &x, &o, &y };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &s4);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &s5);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 1, &s4);
	/* output does not take the input's shape */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TAN, ts, 1, 1, NULL, 0));
	o.v.shape[0] = 4;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_TAN, ts, 1, 1, NULL, 0));
	/* tensor counts: unary with two inputs, PRELU with one */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ELU, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ELU, ts, 1, 2, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PRELU, ts, 1, 1, NULL, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	/* a slope that does not broadcast to x */
	o.v.shape[0] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	o.v.shape[0] = 4;
	/* dtype mismatches */
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SINH, ts, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	y.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	/* integers: only PRELU; BOOL: nothing */
	x.v.dtype = o.v.dtype = y.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ATAN, ts, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_HARD_SWISH, ts, 1, 1, NULL, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	x.v.dtype = o.v.dtype = y.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTSIGN, ts, 1, 1, NULL, 0));
	/* unknown dtype */
	x.v.dtype = o.v.dtype = 77;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ASINH, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
	ot_free(&y);
}

/* DROPOUT: x [4, 250], ratio and training scalars, y and a BOOL mask. */
static void dropout_run(struct __test_metadata *_metadata, u32 dtype,
			float ratio, bool training, s64 seed, u8 *mask_out,
			double *kept_frac)
{
	s64 xs[2] = { 4, 250 }, one = 1;
	struct ot_tensor x, r, t, y, m;
	struct ot_tensor *ts[5] = { &x, &r, &t, &y, &m };
	struct drm_vnpu_op_attrs at;
	s64 i, kept = 0;

	ot_make(&x, dtype, 2, xs);
	ot_make(&r, DRM_VNPU_DTYPE_FLOAT, 1, &one);
	ot_make(&t, DRM_VNPU_DTYPE_BOOL, 0, NULL);
	ot_make(&y, dtype, 2, xs);
	ot_make(&m, DRM_VNPU_DTYPE_BOOL, 2, xs);
	ot_fill(&x, 9, -4, 4);
	((float *)r.buf)[0] = ratio;
	((u8 *)t.buf)[0] = training;
	memset(&at, 0, sizeof(at));
	at.ints[0] = seed;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, &at, vnpu_ops_host_cpu()));
	for (i = 0; i < 1000; i++) {
		double xv = vnpu_load_f64(x.buf, dtype, i);
		double yv = vnpu_load_f64(y.buf, dtype, i);
		u8 mv = ((u8 *)m.buf)[i];
		double want = !training ? xv : mv ? to_dtype(dtype, xv / (1.0 - ratio)) : 0;

		ASSERT_TRUE(mv == 0 || mv == 1);
		if (!training || ratio == 0)
			ASSERT_EQ(1, mv);
		ASSERT_TRUE(ot_close(yv, want, rtol_of(dtype), 0))
			TH_LOG("[%lld] x %g y %g mask %u", (long long)i, xv, yv, mv);
		kept += mv;
		if (mask_out)
			mask_out[i] = mv;
	}
	*kept_frac = kept / 1000.0;
	ot_free(&x);
	ot_free(&r);
	ot_free(&t);
	ot_free(&y);
	ot_free(&m);
}

TEST(dropout_inference_training_and_seed)
{
	u8 m1[1000], m2[1000], m3[1000];
	double f;

	/* inference: a copy and an all-true mask, whatever the ratio */
	dropout_run(_metadata, DRM_VNPU_DTYPE_FLOAT, 0.75f, false, 0, NULL, &f);
	EXPECT_EQ(1.0, f);
	/* training with ratio 0: x exactly, all kept */
	dropout_run(_metadata, DRM_VNPU_DTYPE_FLOAT16, 0.0f, true, 0, NULL, &f);
	EXPECT_EQ(1.0, f);
	/* training: about 1 - ratio kept, same seed same mask, other seed not */
	dropout_run(_metadata, DRM_VNPU_DTYPE_FLOAT, 0.75f, true, 0, m1, &f);
	EXPECT_TRUE(f > 0.2 && f < 0.3) TH_LOG("kept %g", f);
	dropout_run(_metadata, DRM_VNPU_DTYPE_FLOAT, 0.75f, true, 0, m2, &f);
	dropout_run(_metadata, DRM_VNPU_DTYPE_FLOAT, 0.75f, true, 7, m3, &f);
	EXPECT_EQ(0, memcmp(m1, m2, sizeof(m1)));
	EXPECT_NE(0, memcmp(m1, m3, sizeof(m1)));
	/* ratio 1 drops everything */
	dropout_run(_metadata, DRM_VNPU_DTYPE_FLOAT, 1.0f, true, 0, NULL, &f);
	EXPECT_EQ(0.0, f);
}

TEST(dropout_rejects)
{
	s64 xs[2] = { 2, 3 }, two = 2;
	struct ot_tensor x, r, t, y, m, r2;
	struct ot_tensor *ts[5] = { &x, &r, &t, &y, &m };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&r, DRM_VNPU_DTYPE_FLOAT, 0, NULL);
	ot_make(&r2, DRM_VNPU_DTYPE_FLOAT, 1, &two);
	ot_make(&t, DRM_VNPU_DTYPE_BOOL, 0, NULL);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&m, DRM_VNPU_DTYPE_BOOL, 2, xs);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 2, 2, NULL, 0));
	/* ratio not a scalar */
	ts[1] = &r2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, NULL, 0));
	ts[1] = &r;
	/* training not BOOL, mask not BOOL, integer x */
	t.v.dtype = DRM_VNPU_DTYPE_UINT8;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, NULL, 0));
	t.v.dtype = DRM_VNPU_DTYPE_BOOL;
	m.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, NULL, 0));
	m.v.dtype = DRM_VNPU_DTYPE_BOOL;
	x.v.dtype = y.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, NULL, 0));
	x.v.dtype = y.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	/* a mask of another shape */
	m.v.shape[1] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DROPOUT, ts, 3, 2, NULL, 0));
	ot_free(&x);
	ot_free(&r);
	ot_free(&r2);
	ot_free(&t);
	ot_free(&y);
	ot_free(&m);
}

TEST_HARNESS_MAIN
