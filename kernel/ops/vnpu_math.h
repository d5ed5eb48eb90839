/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Elementary functions for the operator library: there is no libm in the
 * kernel, so the library carries its own, used identically by the module
 * and the host build. Special values follow IEEE 754 / C99 Annex F.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_MATH_H__
#define __VNPU_MATH_H__

#include "vnpu_ops_impl.h"

double vnpu_exp(double x);
double vnpu_log(double x);

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

#define VNPU_INF	__builtin_inf()
#define VNPU_NAN	__builtin_nan("")

#endif /* __VNPU_MATH_H__ */
