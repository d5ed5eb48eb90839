// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Elementary functions in double precision, accurate to a few ulp: enough
 * for fp32 results rounded from them. Vectorised fp32 paths in operators
 * may use their own approximations; these are the reference and the
 * scalar fallback.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_math.h"

static const double ln2_hi = 0.693147180369123816490;
static const double ln2_lo = 0.000000000190821492927058770002;
static const double inv_ln2 = 1.44269504088896338700;

union vnpu_f64_bits {
	double d;
	u64 u;
};

/* 2^e for normal exponents, built from its bit pattern. */
static double pow2(int e)
{
	union vnpu_f64_bits v = { .u = (u64)(e + 1023) << 52 };

	return v.d;
}

static double scale2(double x, int n)
{
	union vnpu_f64_bits v;

	/* Two steps keep the exponent in range for results near the ends. */
	while (n > 1000) {
		x *= pow2(1000);
		n -= 1000;
	}
	while (n < -1000) {
		x *= pow2(-1000);
		n += 1000;
	}
	v.u = (u64)(n + 1023) << 52;
	return x * v.d;
}

/* 1 / k! for k = 0 .. 17, the Taylor coefficients of exp. */
static const double inv_fact[18] = {
	1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720,
	1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800,
	1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0,
	1.0 / 87178291200.0, 1.0 / 1307674368000.0,
	1.0 / 20922789888000.0, 1.0 / 355687428096000.0,
};

double vnpu_exp(double x)
{
	double r, p;
	int n, i;

	if (x != x)
		return x;
	if (x > 709.782712893384)
		return VNPU_INF;
	if (x < -745.2)
		return 0.0;
	/* x = n ln2 + r, |r| <= ln2 / 2 */
	n = (int)(x * inv_ln2 + (x < 0 ? -0.5 : 0.5));
	r = (x - n * ln2_hi) - n * ln2_lo;
	/* Taylor series to degree 13: error below 2^-56 on this interval. */
	p = inv_fact[13];
	for (i = 12; i >= 0; i--)
		p = p * r + inv_fact[i];
	return scale2(p, n);
}

double vnpu_expm1(double x)
{
	double p;
	int i;

	if (x != x)
		return x;
	if (x < -40)
		return -1.0;
	if (x > 0.5 || x < -0.5)
		return vnpu_exp(x) - 1.0;
	/* x (1 + x/2 + x^2/6 + ...), degree 17: below 2^-60 for |x| <= 1/2. */
	p = inv_fact[17];
	for (i = 16; i >= 1; i--)
		p = p * x + inv_fact[i];
	return p * x;
}

double vnpu_log(double x)
{
	union vnpu_f64_bits v = { .d = x };
	double f, s, s2, sum;
	int e, k;

	if (x != x || x == VNPU_INF)
		return x;
	if (x == 0)
		return -VNPU_INF;
	if (x < 0)
		return VNPU_NAN;
	e = (int)((v.u >> 52) & 0x7ff);
	if (!e) {			/* subnormal: normalise first */
		v.d = x * pow2(54);
		e = (int)((v.u >> 52) & 0x7ff) - 54;
	}
	e -= 1023;
	v.u = (v.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
	f = v.d;			/* in [1, 2) */
	if (f > 1.4142135623730951) {
		f *= 0.5;
		e++;
	}
	/* log(f) = 2 atanh(s), s = (f - 1) / (f + 1), |s| < 0.1716 */
	s = (f - 1) / (f + 1);
	s2 = s * s;
	sum = 1.0 / 29;
	for (k = 27; k >= 1; k -= 2)
		sum = sum * s2 + 1.0 / k;
	return 2 * s * sum + e * ln2_lo + e * ln2_hi;
}

double vnpu_log1p(double x)
{
	double u;

	if (x != x || x == VNPU_INF)
		return x;
	if (x == -1)
		return -VNPU_INF;
	if (x < -1)
		return VNPU_NAN;
	u = 1.0 + x;
	if (u == 1.0)
		return x;
	/* The rounding error of 1 + x cancels in log(u) * x / (u - 1). */
	return vnpu_log(u) * (x / (u - 1.0));
}

/* Bits of 2 / pi after the binary point, most significant first. */
static const u64 two_over_pi[20] = {
	0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL,
	0xfe5163abdebbc561ULL, 0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL,
	0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL, 0xe99c7026b45f7e41ULL,
	0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
	0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL,
	0x7527bac7ebe5f17bULL, 0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL,
	0x56033046fc7b6babULL, 0xf0cfbc209af4361dULL,
};

/* 64 bits of 2 / pi from bit @p on (bit 1 is the first after the point). */
static u64 two_over_pi_bits(int p)
{
	int idx = p - 1, w, sh;

	if (idx <= -64)
		return 0;
	if (idx < 0)
		return two_over_pi[0] >> -idx;
	w = idx / 64;
	sh = idx % 64;
	if (w >= (int)ARRAY_SIZE(two_over_pi))
		return 0;
	if (!sh || w + 1 >= (int)ARRAY_SIZE(two_over_pi))
		return two_over_pi[w] << sh;
	return two_over_pi[w] << sh | two_over_pi[w + 1] >> (64 - sh);
}

/* pi / 2 in three 33-bit parts (fdlibm), for Cody-Waite reduction. */
static const double pio2_1 = 1.57079632673412561417;
static const double pio2_2 = 0.0000000000607710050630396597660;
static const double pio2_3 = 0.00000000000000000000202226624871116645580;
static const double pio2_3t = 0.0000000000000000000000000000000847842766036889956997;
static const double pio2 = 1.57079632679489661923;
static const double two_over_pi_d = 0.636619772367581382433;

/*
 * x = q pi/2 + r with |r| <= pi/4 (about); returns r, q mod 4 in *q.
 * Small arguments use Cody-Waite with a three-part pi/2, large ones the
 * Payne-Hanek method with 192 bits of 2/pi, so the result is accurate
 * over the whole range.
 */
static double reduce_pio2(double x, int *q)
{
	unsigned __int128 p0, p1, p2;
	union vnpu_f64_bits v = { .d = x };
	u64 m, w0, w1, w2, lo1, c, hi, frac;
	int e, n, neg = x < 0;
	s64 sf;
	double r;

	if (vnpu_fabs(x) < 1.0e6) {
		double fn = x * two_over_pi_d + (neg ? -0.5 : 0.5);

		n = (int)fn;
		fn = n;
		r = x - fn * pio2_1;
		r -= fn * pio2_2;
		r -= fn * pio2_3;
		r -= fn * pio2_3t;
		*q = n & 3;
		return r;
	}
	/* |x| = m 2^e with m a 53-bit integer. */
	e = (int)((v.u >> 52) & 0x7ff) - 1075;
	m = (v.u & 0x000fffffffffffffULL) | (1ULL << 52);
	/*
	 * Bits of 2/pi before bit e - 1 contribute multiples of 4 to
	 * m 2^e 2/pi; take 192 bits from there. In the product the binary
	 * point then sits after bit 190: bits 190 and 191 are the quadrant,
	 * the bits below the fraction (bits from 192 up are multiples of 4).
	 */
	w0 = two_over_pi_bits(e - 1);
	w1 = two_over_pi_bits(e - 1 + 64);
	w2 = two_over_pi_bits(e - 1 + 128);
	p0 = (unsigned __int128)m * w0;
	p1 = (unsigned __int128)m * w1;
	p2 = (unsigned __int128)m * w2;
	lo1 = (u64)(p2 >> 64) + (u64)p1;
	c = lo1 < (u64)p1;
	hi = (u64)(p1 >> 64) + (u64)p0 + c;
	n = (int)(hi >> 62);
	frac = hi << 2 | lo1 >> 62;
	/* Nearest quadrant: a fraction of 1/2 or more rounds up. */
	sf = (s64)frac;
	if (sf < 0)
		n++;
	r = (double)sf * (1.0 / 18446744073709551616.0) * pio2;
	if (neg) {
		r = -r;
		n = -n;
	}
	*q = n & 3;
	return r;
}

/* Kernels on |r| <= pi/4 (slightly more is fine): Taylor series. */
static double sin_kernel(double r)
{
	double r2 = r * r, p = inv_fact[17];
	int k;

	for (k = 15; k >= 3; k -= 2)
		p = p * r2 + ((k & 2) ? -inv_fact[k] : inv_fact[k]);
	return r + r * r2 * p;
}

static double cos_kernel(double r)
{
	double r2 = r * r, p = inv_fact[16];
	int k;

	for (k = 14; k >= 2; k -= 2)
		p = p * r2 + ((k & 2) ? -inv_fact[k] : inv_fact[k]);
	return 1.0 + r2 * p;
}

double vnpu_sin(double x)
{
	double r;
	int q;

	if (x != x || vnpu_isinf(x))
		return VNPU_NAN;
	if (vnpu_fabs(x) < 0.7853981633974483)
		return sin_kernel(x);
	r = reduce_pio2(x, &q);
	switch (q) {
	case 0:
		return sin_kernel(r);
	case 1:
		return cos_kernel(r);
	case 2:
		return -sin_kernel(r);
	default:
		return -cos_kernel(r);
	}
}

double vnpu_cos(double x)
{
	double r;
	int q;

	if (x != x || vnpu_isinf(x))
		return VNPU_NAN;
	if (vnpu_fabs(x) < 0.7853981633974483)
		return cos_kernel(x);
	r = reduce_pio2(x, &q);
	switch (q) {
	case 0:
		return cos_kernel(r);
	case 1:
		return -sin_kernel(r);
	case 2:
		return -cos_kernel(r);
	default:
		return sin_kernel(r);
	}
}

double vnpu_tanh(double x)
{
	double a = vnpu_fabs(x), e, t;

	if (x != x)
		return x;
	if (a > 22)
		return x < 0 ? -1.0 : 1.0;
	if (a < 0.000000001)
		return x;
	e = vnpu_expm1(2 * a);
	t = e / (e + 2);
	return x < 0 ? -t : t;
}

static const double two_over_sqrtpi = 1.12837916709551257390;
static const double inv_sqrtpi = 0.564189583547756286948;

/* erf by its Taylor series, for |x| <= 3 (cancellation costs <= 2^-40). */
static double erf_series(double x)
{
	double x2 = x * x, term = x, sum = x;
	int n;

	for (n = 1; n < 80; n++) {
		term *= -x2 / n;
		sum += term / (2 * n + 1);
		if (vnpu_fabs(term) < 0.000000000000000001 * vnpu_fabs(sum))
			break;
	}
	return two_over_sqrtpi * sum;
}

/* erfc by its continued fraction, for x >= 1.5 (about 2^-48 or better). */
static double erfc_cf(double x)
{
	double f = x;
	int k;

	/* erfc(x) = e^-x^2 / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / ...))) */
	for (k = x < 2 ? 80 : x < 2.5 ? 50 : x < 3 ? 40 : x < 4 ? 28 : 20; k >= 1; k--)
		f = x + (k * 0.5) / f;
	return vnpu_exp(-x * x) * inv_sqrtpi / f;
}

double vnpu_erf(double x)
{
	if (x != x)
		return x;
	if (x > 6)
		return 1.0;
	if (x < -6)
		return -1.0;
	if (x > 2.5)
		return 1.0 - erfc_cf(x);
	if (x < -2.5)
		return erfc_cf(-x) - 1.0;
	return erf_series(x);
}

double vnpu_erfc(double x)
{
	if (x != x)
		return x;
	if (x > 27.3)
		return 0.0;
	if (x < -6)
		return 2.0;
	if (x >= 1.5)
		return erfc_cf(x);
	if (x <= -2.5)
		return 2.0 - erfc_cf(-x);
	return 1.0 - erf_series(x);
}

/* |x| as m 2^e with an integer m < 2^53 (subnormals: e = -1074). */
static u64 f64_split(double x, int *e)
{
	union vnpu_f64_bits v = { .d = x };
	int ex = (int)((v.u >> 52) & 0x7ff);
	u64 m = v.u & ((1ULL << 52) - 1);

	if (!ex) {
		*e = -1074;
		return m;
	}
	*e = ex - 1075;
	return m | (1ULL << 52);
}

/* 2^e for any e in [-1074, 1023], subnormal ones included. */
static double pow2_any(int e)
{
	union vnpu_f64_bits v;

	v.u = e >= -1022 ? (u64)(e + 1023) << 52 : 1ULL << (e + 1074);
	return v.d;
}

/*
 * On the integer significands, so no step touches a subnormal double
 * (slow on x86): |x| mod |y| = 2^ey ((mx 2^(ex - ey)) mod my), with the
 * power of two applied 11 bits at a time (my < 2^53, so r << 11 fits).
 */
double vnpu_fmod(double x, double y)
{
	double ax = vnpu_fabs(x), ay = vnpu_fabs(y), r;
	int ex, ey, gap, s;
	u64 mx, my, rm;

	if (x != x || y != y || vnpu_isinf(x) || y == 0)
		return VNPU_NAN;
	if (ax < ay)
		return x;
	mx = f64_split(ax, &ex);
	my = f64_split(ay, &ey);
	rm = mx % my;
	for (gap = ex - ey; gap > 0 && rm; gap -= s) {
		s = gap < 11 ? gap : 11;
		rm = (rm << s) % my;
	}
	/* exact: rm 2^ey < |y| lies on |y|'s grid */
	r = (double)rm * pow2_any(ey);
	return x < 0 ? -r : r;
}

double vnpu_floor(double x)
{
	double t;

	if (!(vnpu_fabs(x) < 4503599627370496.0) || x == 0)
		return x;
	t = (double)(s64)x;
	return t > x ? t - 1 : t;
}

double vnpu_ceil(double x)
{
	double t;

	if (!(vnpu_fabs(x) < 4503599627370496.0) || x == 0)
		return x;
	t = (double)(s64)x;
	if (t < x)
		t += 1;
	return t == 0 && x < 0 ? -0.0 : t;
}

double vnpu_rint(double x)
{
	double a = vnpu_fabs(x), t;

	if (!(a < 4503599627370496.0))
		return x;
	/* Adding 2^52 rounds the fraction away in the current (even) mode. */
	t = (a + 4503599627370496.0) - 4503599627370496.0;
	return x < 0 || (x == 0 && 1 / x < 0) ? -t : t;
}

/* Whether y (finite) is an integer, and whether an odd one. */
static bool is_integer(double y)
{
	return vnpu_floor(y) == y;
}

static bool is_odd_integer(double y)
{
	return vnpu_fabs(y) < 9007199254740992.0 && is_integer(y) &&
	       ((s64)y & 1);
}

double vnpu_pow(double x, double y)
{
	double ax = vnpu_fabs(x), r;
	bool yodd;

	if (y == 0 || x == 1)
		return 1.0;
	if (x != x || y != y)
		return VNPU_NAN;
	if (vnpu_isinf(y)) {
		if (ax == 1)
			return 1.0;
		return (ax < 1) == (y < 0) ? VNPU_INF : 0.0;
	}
	yodd = is_odd_integer(y);
	if (x == 0) {
		if (y < 0)
			return yodd ? 1 / x : VNPU_INF;
		return yodd ? x : 0.0;
	}
	if (vnpu_isinf(x)) {
		r = y < 0 ? 0.0 : VNPU_INF;
		return x < 0 && yodd ? -r : r;
	}
	if (x < 0 && !is_integer(y))
		return VNPU_NAN;
	if (vnpu_fabs(y) <= 64 && is_integer(y)) {
		/* Small integer powers by squaring: exact or nearly. */
		u64 k = (u64)(y < 0 ? -y : y);
		double b = ax;

		r = 1.0;
		while (k) {
			if (k & 1)
				r *= b;
			b *= b;
			k >>= 1;
		}
		if (y < 0)
			r = 1 / r;
	} else {
		r = vnpu_exp(y * vnpu_log(ax));
	}
	return x < 0 && yodd ? -r : r;
}

/*
 * The inverse and hyperbolic functions below reach a few ulp in double
 * (the host test holds them to 1e-13 relative against libm over wide
 * ranges), far inside fp32's half ulp plus ONNX's rtol 1e-3.
 */
double vnpu_tan(double x)
{
	double r;
	int q;

	if (x != x || vnpu_isinf(x))
		return VNPU_NAN;
	if (vnpu_fabs(x) < 0.000000001)
		return x;	/* tan(x) = x (1 + x^2 / 3 ...); keeps -0 */
	if (vnpu_fabs(x) < 0.7853981633974483)
		return sin_kernel(x) / cos_kernel(x);
	r = reduce_pio2(x, &q);
	/* tan has period pi: odd quadrants give -cot(r) */
	if (q & 1)
		return -cos_kernel(r) / sin_kernel(r);
	return sin_kernel(r) / cos_kernel(r);
}

/* atan on |t| <= 1: three argument halvings, then the odd Taylor series. */
static double atan_kernel(double t)
{
	double t2, p;
	int i, k;

	/* atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))); |t| ends below 0.1 */
	for (i = 0; i < 3; i++)
		t = t / (1.0 + vnpu_sqrt(1.0 + t * t));
	t2 = t * t;
	/* t^2 < 0.0098: 9 terms leave less than 1e-19 relative */
	p = 1.0 / 19;
	for (k = 17; k >= 1; k -= 2)
		p = p * -t2 + 1.0 / k;
	return 8 * t * p;
}

double vnpu_atan(double x)
{
	double a = vnpu_fabs(x), r;

	if (x != x)
		return x;
	if (a <= 1.0)
		return atan_kernel(x);
	/* atan(a) = pi/2 - atan(1/a); 1/Inf = 0 gives pi/2 exactly */
	r = pio2 - atan_kernel(1.0 / a);
	return x < 0 ? -r : r;
}

double vnpu_asin(double x)
{
	double a = vnpu_fabs(x), r;

	if (x != x || a > 1.0)
		return VNPU_NAN;
	if (a < 0.5)
		return vnpu_atan(x / vnpu_sqrt(1.0 - x * x));
	/* 1 - a is exact here, so the root does not lose digits near 1 */
	r = vnpu_atan(a / vnpu_sqrt((1.0 - a) * (1.0 + a)));
	return x < 0 ? -r : r;
}

double vnpu_acos(double x)
{
	if (x != x || vnpu_fabs(x) > 1.0)
		return VNPU_NAN;
	/* acos(x) = 2 atan(sqrt((1 - x) / (1 + x))); x = -1 gives 2 atan(Inf) */
	return 2 * vnpu_atan(vnpu_sqrt((1.0 - x) / (1.0 + x)));
}

double vnpu_sinh(double x)
{
	double a = vnpu_fabs(x), e, r;

	if (x != x || a < 0.000000001)
		return x;	/* sinh(x) = x (1 + x^2 / 6 ...); keeps -0 */
	if (a < 1.0) {
		/* (e^a - e^-a) / 2 = (m + m / (m + 1)) / 2 with m = e^a - 1 */
		e = vnpu_expm1(a);
		r = 0.5 * (e + e / (e + 1.0));
	} else if (a < 700.0) {
		e = vnpu_exp(a);
		r = 0.5 * (e - 1.0 / e);
	} else {
		/* e^a overflows before sinh does: square e^(a/2) */
		e = vnpu_exp(0.5 * a);
		r = (0.5 * e) * e;
	}
	return x < 0 ? -r : r;
}

double vnpu_cosh(double x)
{
	double a = vnpu_fabs(x), e;

	if (x != x)
		return x;
	if (a < 700.0) {
		e = vnpu_exp(a);
		return 0.5 * (e + 1.0 / e);
	}
	e = vnpu_exp(0.5 * a);
	return (0.5 * e) * e;
}

double vnpu_asinh(double x)
{
	double a = vnpu_fabs(x), r;

	if (x != x || vnpu_isinf(x) || a < 0.000000001)
		return x;	/* also -0 */
	if (a > 1e8) {
		/* sqrt(a^2 + 1) = a to double precision (and a^2 may overflow) */
		r = vnpu_log(a) + ln2_hi + ln2_lo;
	} else {
		/* log(a + sqrt(a^2 + 1)) = log1p(a + a^2 / (1 + sqrt(a^2 + 1))) */
		r = vnpu_log1p(a + a * a / (1.0 + vnpu_sqrt(a * a + 1.0)));
	}
	return x < 0 ? -r : r;
}

double vnpu_acosh(double x)
{
	double t;

	if (x != x || x < 1.0)
		return x != x ? x : VNPU_NAN;
	if (x == VNPU_INF)
		return x;
	if (x > 1e8)
		return vnpu_log(x) + ln2_hi + ln2_lo;
	/* log(x + sqrt(x^2 - 1)) with t = x - 1 exact near 1 */
	t = x - 1.0;
	return vnpu_log1p(t + vnpu_sqrt(t * (t + 2.0)));
}

double vnpu_atanh(double x)
{
	double a = vnpu_fabs(x), r;

	if (x != x || a > 1.0)
		return x != x ? x : VNPU_NAN;
	if (a == 1.0)
		return x < 0 ? -VNPU_INF : VNPU_INF;
	if (a < 0.000000001)
		return x;	/* atanh(x) = x (1 + x^2 / 3 ...); keeps -0 */
	/* log((1 + a) / (1 - a)) / 2 = log1p(2a / (1 - a)) / 2 */
	r = 0.5 * vnpu_log1p(2.0 * a / (1.0 - a));
	return x < 0 ? -r : r;
}
