/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The scalar exp that softmax and the split softmax rows share, so both
 * paths round the same way.
 */
#ifndef VNPU_EXPF_H
#define VNPU_EXPF_H

#include "vnpu_ops.h"

/*
 * exp(x) for x <= 0 in single precision (Cody-Waite reduction and a
 * degree-6 polynomial, within 2 ulp), written so the compiler can
 * vectorise the loops that call it. -Inf gives exactly 0.
 */
static inline float softmax_expf(float x)
{
	union { float f; u32 u; } scale;
	float n, r, p, xc = x < -87.0f ? -87.0f : x;

	/* n = round(x / ln 2), by the 1.5 * 2^23 trick. */
	n = (xc * 1.44269504f + 12582912.0f) - 12582912.0f;
	r = xc - n * 0.693359375f + n * 0.000212194440f;
	p = 0.000198756915f;
	p = p * r + 0.00139819995f;
	p = p * r + 0.00833345190f;
	p = p * r + 0.0416657959f;
	p = p * r + 0.166666655f;
	p = p * r + 0.500000012f;
	p = p * r * r + r + 1.0f;
	scale.u = (u32)((int)n + 127) << 23;
	return x == -__builtin_inff() ? 0.0f : p * scale.f;
}

#endif
