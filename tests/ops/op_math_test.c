// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the library's scalar math (vnpu_math.h) against libm:
 * special values, and the maximum relative error over random and
 * structured arguments. fp32-level checks round both sides to float and
 * allow 1e-6 relative; double-level checks hold to the stated bounds.
 */
#include "ops_test_util.h"
#include "vnpu_math.h"
#include "kselftest_harness.h"

typedef double (*fn1)(double);

/* Max relative error of f vs ref over n random x in [lo, hi]. */
static double max_rel(fn1 f, fn1 ref, double lo, double hi, int n, u64 seed,
		      int as_float, double *worst_x)
{
	u64 st = seed * 7919 + 1;
	double worst = 0;
	int i;

	for (i = 0; i < n; i++) {
		double x = ot_rand(&st, lo, hi), got, want, err;

		if (as_float)
			x = (float)x;
		got = f(x);
		want = ref(x);
		if (as_float) {
			got = (float)got;
			want = (float)want;
		}
		if (isnan(want) || isinf(want)) {
			err = (isnan(want) ? isnan(got) : got == want) ? 0 : INFINITY;
		} else {
			err = fabs(got - want) / fmax(fabs(want), 1e-300);
			if (want == 0)
				err = fabs(got) > 1e-300 ? INFINITY : 0;
		}
		if (err > worst) {
			worst = err;
			*worst_x = x;
		}
	}
	return worst;
}

struct mcase {
	const char *name;
	fn1 f, ref;
	double lo, hi;
	double dbl_tol;	/* for doubles in the range */
};

static const struct mcase mcases[] = {
	{ "exp", vnpu_exp, exp, -745, 709, 1e-14 },
	{ "exp_small", vnpu_exp, exp, -1, 1, 1e-15 },
	{ "log", vnpu_log, log, 1e-300, 1e300, 1e-14 },
	{ "log_near1", vnpu_log, log, 0.5, 2, 1e-14 },
	{ "expm1", vnpu_expm1, expm1, -2, 2, 1e-14 },
	{ "expm1_tiny", vnpu_expm1, expm1, -1e-6, 1e-6, 1e-15 },
	{ "log1p", vnpu_log1p, log1p, -0.999, 10, 1e-14 },
	{ "log1p_tiny", vnpu_log1p, log1p, -1e-6, 1e-6, 1e-15 },
	{ "sin", vnpu_sin, sin, -10, 10, 1e-13 },
	{ "cos", vnpu_cos, cos, -10, 10, 1e-13 },
	{ "sin_mid", vnpu_sin, sin, -1e6, 1e6, 1e-10 },
	{ "cos_mid", vnpu_cos, cos, -1e6, 1e6, 1e-10 },
	{ "sin_big", vnpu_sin, sin, -1e30, 1e30, 1e-10 },
	{ "cos_big", vnpu_cos, cos, 1e6, 3e38, 1e-10 },
	{ "tanh", vnpu_tanh, tanh, -30, 30, 1e-14 },
	{ "tanh_small", vnpu_tanh, tanh, -0.01, 0.01, 1e-14 },
	{ "erf", vnpu_erf, erf, -7, 7, 1e-12 },
	{ "erf_small", vnpu_erf, erf, -0.1, 0.1, 1e-14 },
	{ "erfc", vnpu_erfc, erfc, -7, 27, 1e-11 },
	{ "floor", vnpu_floor, floor, -1e17, 1e17, 0 },
	{ "floor_s", vnpu_floor, floor, -10, 10, 0 },
	{ "ceil_s", vnpu_ceil, ceil, -10, 10, 0 },
	{ "rint_s", vnpu_rint, rint, -10, 10, 0 },
	{ "tan", vnpu_tan, tan, -10, 10, 1e-13 },
	{ "tan_small", vnpu_tan, tan, -0.01, 0.01, 1e-14 },
	{ "tan_big", vnpu_tan, tan, -1e30, 1e30, 1e-10 },
	{ "asin", vnpu_asin, asin, -1, 1, 1e-14 },
	{ "asin_small", vnpu_asin, asin, -1e-4, 1e-4, 2e-15 },
	{ "acos", vnpu_acos, acos, -1, 1, 1e-14 },
	{ "acos_near1", vnpu_acos, acos, 0.999999, 1, 1e-13 },
	{ "atan", vnpu_atan, atan, -2, 2, 1e-14 },
	{ "atan_wide", vnpu_atan, atan, -1e300, 1e300, 1e-14 },
	{ "atan_small", vnpu_atan, atan, -1e-4, 1e-4, 1e-15 },
	{ "sinh", vnpu_sinh, sinh, -20, 20, 1e-14 },
	{ "sinh_small", vnpu_sinh, sinh, -1e-3, 1e-3, 1e-15 },
	{ "sinh_big", vnpu_sinh, sinh, -710, 710, 1e-13 },
	{ "cosh", vnpu_cosh, cosh, -20, 20, 1e-14 },
	{ "cosh_big", vnpu_cosh, cosh, -710, 710, 1e-13 },
	{ "asinh", vnpu_asinh, asinh, -3, 3, 1e-14 },
	{ "asinh_wide", vnpu_asinh, asinh, -1e300, 1e300, 1e-14 },
	{ "asinh_small", vnpu_asinh, asinh, -1e-4, 1e-4, 1e-15 },
	{ "acosh", vnpu_acosh, acosh, 1, 3, 1e-14 },
	{ "acosh_near1", vnpu_acosh, acosh, 1, 1.000001, 1e-13 },
	{ "acosh_wide", vnpu_acosh, acosh, 1, 1e300, 1e-14 },
	{ "atanh", vnpu_atanh, atanh, -1, 1, 1e-14 },
	{ "atanh_small", vnpu_atanh, atanh, -1e-4, 1e-4, 1e-15 },
};

TEST(random_double_and_float)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(mcases); k++) {
		const struct mcase *m = &mcases[k];
		double wx = 0, ed, ef;

		ed = max_rel(m->f, m->ref, m->lo, m->hi, 200000, k + 1, 0, &wx);
		EXPECT_LE(ed, m->dbl_tol)
			TH_LOG("%s double: rel err %g at %.17g", m->name, ed, wx);
		ef = max_rel(m->f, m->ref, m->lo, m->hi, 200000, k + 101, 1, &wx);
		EXPECT_LE(ef, 1e-6)
			TH_LOG("%s float: rel err %g at %.9g", m->name, ef, wx);
	}
}

/* sin/cos at every float near multiples of pi/2 (worst cancellation). */
TEST(sincos_near_multiples_of_pio2)
{
	double worst = 0, wx = 0;
	int k, j;

	for (k = 1; k < 200000; k += 7) {
		float x = (float)(k * M_PI_2);

		for (j = -2; j <= 2; j++) {
			float y = nextafterf(x, j < 0 ? -INFINITY : INFINITY);
			double e1, e2;

			if (!j)
				y = x;
			e1 = fabs((float)vnpu_sin(y) - (float)sin(y)) /
			     fabs((float)sin(y));
			e2 = fabs((float)vnpu_cos(y) - (float)cos(y)) /
			     fabs((float)cos(y));
			if (e1 > worst) {
				worst = e1;
				wx = y;
			}
			if (e2 > worst) {
				worst = e2;
				wx = y;
			}
		}
	}
	EXPECT_LE(worst, 1e-6) TH_LOG("worst %g at %.9g", worst, wx);
	/* Huge arguments, at floats spread over the exponent range. */
	worst = 0;
	for (k = 0; k < 100000; k++) {
		u32 bits = 0x49800000u + (u32)k * 11807u;
		float y;
		double e1, e2;

		memcpy(&y, &bits, 4);
		if (!isfinite(y))
			continue;
		e1 = fabs((float)vnpu_sin(y) - (float)sin(y)) / fabs((float)sin(y));
		e2 = fabs((float)vnpu_cos(y) - (float)cos(y)) / fabs((float)cos(y));
		if (fmax(e1, e2) > worst) {
			worst = fmax(e1, e2);
			wx = y;
		}
	}
	EXPECT_LE(worst, 1e-6) TH_LOG("worst %g at %.9g", worst, wx);
}

TEST(special_values)
{
	double inf = INFINITY, nan_ = NAN;
	static const double xs[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 2.5,
		-2.5, 3.0, -3.0, 1e-310, -1e-310, 1e308, -1e308, INFINITY,
		-INFINITY, NAN, 0.49999999999999994, 4503599627370497.0,
	};
	unsigned int i, j;

	EXPECT_EQ(vnpu_exp(inf), inf);
	EXPECT_EQ(vnpu_exp(-inf), 0);
	EXPECT_TRUE(isnan(vnpu_exp(nan_)));
	EXPECT_EQ(vnpu_log(0), -inf);
	EXPECT_TRUE(isnan(vnpu_log(-1)));
	EXPECT_EQ(vnpu_log(inf), inf);
	EXPECT_EQ(vnpu_log1p(-1), -inf);
	EXPECT_EQ(vnpu_expm1(-inf), -1);
	EXPECT_EQ(vnpu_tanh(inf), 1);
	EXPECT_EQ(vnpu_tanh(-inf), -1);
	EXPECT_EQ(vnpu_erf(inf), 1);
	EXPECT_EQ(vnpu_erfc(-inf), 2);
	EXPECT_TRUE(isnan(vnpu_sin(inf)));
	EXPECT_TRUE(isnan(vnpu_cos(-inf)));
	EXPECT_TRUE(isnan(vnpu_tan(inf)));
	EXPECT_TRUE(isnan(vnpu_asin(1.0000001)));
	EXPECT_TRUE(isnan(vnpu_acos(-1.0000001)));
	EXPECT_EQ(vnpu_asin(1), M_PI_2);
	EXPECT_EQ(vnpu_acos(-1), M_PI);
	EXPECT_EQ(vnpu_acos(1), 0);
	EXPECT_EQ(vnpu_atan(inf), M_PI_2);
	EXPECT_EQ(vnpu_atan(-inf), -M_PI_2);
	EXPECT_EQ(vnpu_sinh(-inf), -inf);
	EXPECT_EQ(vnpu_cosh(-inf), inf);
	EXPECT_EQ(vnpu_sinh(1000), inf);
	EXPECT_EQ(vnpu_asinh(-inf), -inf);
	EXPECT_EQ(vnpu_acosh(inf), inf);
	EXPECT_EQ(vnpu_acosh(1), 0);
	EXPECT_TRUE(isnan(vnpu_acosh(0.5)));
	EXPECT_EQ(vnpu_atanh(1), inf);
	EXPECT_EQ(vnpu_atanh(-1), -inf);
	EXPECT_TRUE(isnan(vnpu_atanh(1.5)));
	EXPECT_TRUE(isnan(vnpu_atan(nan_)) && isnan(vnpu_asinh(nan_)) &&
		    isnan(vnpu_atanh(nan_)) && isnan(vnpu_acosh(nan_)));
	EXPECT_TRUE(signbit(vnpu_asin(-0.0)) && signbit(vnpu_atan(-0.0)) &&
		    signbit(vnpu_sinh(-0.0)) && signbit(vnpu_tan(-0.0)) &&
		    signbit(vnpu_asinh(-0.0)) && signbit(vnpu_atanh(-0.0)));
	for (i = 0; i < ARRAY_SIZE(xs); i++) {
		double x = xs[i];

		EXPECT_TRUE(vnpu_floor(x) == floor(x) || (isnan(x) && isnan(vnpu_floor(x))));
		EXPECT_TRUE(vnpu_ceil(x) == ceil(x) || (isnan(x) && isnan(vnpu_ceil(x))));
		EXPECT_TRUE(vnpu_rint(x) == rint(x) || (isnan(x) && isnan(vnpu_rint(x))))
			TH_LOG("rint(%g) = %g", x, vnpu_rint(x));
		EXPECT_EQ(signbit(vnpu_rint(x)), signbit(rint(x)));
		EXPECT_EQ(signbit(vnpu_ceil(x)), signbit(ceil(x)));
		EXPECT_EQ(signbit(vnpu_floor(x)), signbit(floor(x)));
		for (j = 0; j < ARRAY_SIZE(xs); j++) {
			double y = xs[j], got = vnpu_pow(x, y), want = pow(x, y);

			EXPECT_TRUE(ot_close(got, want, 1e-13, 0) &&
				    (isnan(want) || signbit(got) == signbit(want)))
				TH_LOG("pow(%g, %g) = %g want %g", x, y, got, want);
		}
	}
}

TEST(pow_random)
{
	u64 st = 99;
	int i;

	for (i = 0; i < 200000; i++) {
		double x = ot_rand(&st, -20, 20), y = ot_rand(&st, -30, 30), got, want;

		if (i & 1)
			y = floor(y);
		got = (float)vnpu_pow((float)x, (float)y);
		want = (float)pow((float)x, (float)y);
		ASSERT_TRUE(ot_close(got, want, 1e-6, 0))
			TH_LOG("pow(%.9g, %.9g) = %g want %g", (float)x, (float)y, got, want);
	}
}

TEST_HARNESS_MAIN
