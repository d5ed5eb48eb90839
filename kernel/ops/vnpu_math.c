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

/* 2^e for normal exponents, built from its bit pattern. */
static double pow2(int e)
{
	union { double d; u64 u; } v = { .u = (u64)(e + 1023) << 52 };

	return v.d;
}

static double scale2(double x, int n)
{
	union { double d; u64 u; } v;

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

double vnpu_exp(double x)
{
	double r, p, term;
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
	p = 1.0;
	term = 1.0;
	for (i = 1; i <= 13; i++) {
		term *= r / i;
		p += term;
	}
	return scale2(p, n);
}

double vnpu_log(double x)
{
	union { double d; u64 u; } v = { .d = x };
	double f, s, s2, sum, term;
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
	sum = 0;
	term = s;
	for (k = 1; k <= 27; k += 2) {
		sum += term / k;
		term *= s2;
	}
	return 2 * sum + e * ln2_lo + e * ln2_hi;
}
