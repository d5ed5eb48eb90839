/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Elementary functions for the operator library: there is no libm in the
 * kernel, so the library carries its own, used identically by the module
 * and the host build. Special values follow IEEE 754 / C99 Annex F.
 * Everything is double precision and accurate to a few ulp, so fp32
 * results rounded from it are within about one fp32 ulp.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_MATH_H__
#define __VNPU_MATH_H__

#include "vnpu_ops_impl.h"

double vnpu_exp(double x);
double vnpu_log(double x);

/* e ** x - 1 and log(1 + x), accurate near 0. */
double vnpu_expm1(double x);
double vnpu_log1p(double x);

/* Sine and cosine with exact range reduction over the whole double range. */
double vnpu_sin(double x);
double vnpu_cos(double x);

double vnpu_tanh(double x);

/* tan with the same exact range reduction; Inf and NaN give NaN. */
double vnpu_tan(double x);
/* Inverse trigonometric: NaN outside [-1, 1] for asin and acos. */
double vnpu_asin(double x);
double vnpu_acos(double x);
double vnpu_atan(double x);
/* Hyperbolic and inverse hyperbolic (acosh NaN below 1, atanh +-Inf at +-1). */
double vnpu_sinh(double x);
double vnpu_cosh(double x);
double vnpu_asinh(double x);
double vnpu_acosh(double x);
double vnpu_atanh(double x);
/* Error function and its complement (erfc does not cancel for large x). */
double vnpu_erf(double x);
double vnpu_erfc(double x);

/* x ** y with the C99 Annex F special cases (pow(x, 0) = 1, ...). */
double vnpu_pow(double x, double y);

/*
 * The remainder of x / y with the sign of x, exact (C's fmod): NaN for a
 * NaN, an infinite x or a zero y; x itself when |x| < |y|. Up to about
 * 190 64-bit divisions for the widest exponent gap.
 */
double vnpu_fmod(double x, double y);

/* Rounding to integral values; NaN and Inf pass through. */
double vnpu_floor(double x);
double vnpu_ceil(double x);
/* Round half to even (the default rounding mode must be in effect). */
double vnpu_rint(double x);

static inline double vnpu_sqrt(double x)
{
	return __builtin_sqrt(x);	/* one instruction; no errno */
}

static inline double vnpu_fabs(double x)
{
	return __builtin_fabs(x);
}

static inline bool vnpu_isnan(double x)
{
	return x != x;
}

static inline bool vnpu_isinf(double x)
{
	return x == __builtin_inf() || x == -__builtin_inf();
}

#define VNPU_INF	__builtin_inf()
#define VNPU_NAN	__builtin_nan("")

#endif /* __VNPU_MATH_H__ */
