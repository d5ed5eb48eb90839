/* SPDX-License-Identifier: MIT */
/*
 * aclFloat16ToFloat / aclFloatToFloat16: CANN's conversions for chips that
 * only know saturation mode. Infinity and NaN do not exist there: a half
 * whose exponent is all ones decodes like any other exponent (+Inf gives
 * 65536, the quiet NaN 0x7e00 gives 98304), and a float that does not fit
 * (NaN, +-Inf, or beyond +-65504 after rounding) saturates to +-65504.
 * Everything else rounds to nearest, ties to even, subnormals included.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl_base_rt.h"
#include "../core/prof_rt.h"

#define HALF_MAX_BITS 0x7bffu	/* 65504 */

float aclFloat16ToFloat(aclFloat16 value)
{
	PROF_API();
	int sign = value >> 15;
	int exp = (value >> 10) & 0x1f;
	int mant = value & 0x3ff;
	float mag;

	if (exp == 0)
		mag = ldexpf((float)mant, -24);		/* subnormal or zero */
	else
		mag = ldexpf((float)(mant | 0x400), exp - 25);
	return sign ? -mag : mag;
}

aclFloat16 aclFloatToFloat16(float value)
{
	PROF_API();
	uint32_t bits, mant, round, rest;
	uint16_t sign;
	int exp;

	memcpy(&bits, &value, sizeof(bits));
	sign = (uint16_t)((bits >> 16) & 0x8000);
	if (isnan(value) || isinf(value))
		return sign | HALF_MAX_BITS;
	exp = (int)((bits >> 23) & 0xff) - 127;
	mant = bits & 0x7fffff;
	if (exp > 15)
		return sign | HALF_MAX_BITS;
	if (exp < -25)
		return sign;		/* below half the smallest subnormal */
	if (exp < -14) {
		/* a subnormal half counts units of 2^-24 */
		uint32_t full = mant | 0x800000;
		int shift = -exp - 1;	/* 14..24 */
		uint32_t half = 1u << (shift - 1);

		round = full >> shift;
		rest = full & ((1u << shift) - 1);
		if (rest > half || (rest == half && (round & 1)))
			round++;	/* 1024 is the smallest normal: still right */
		return sign | (uint16_t)round;
	}
	round = ((uint32_t)(exp + 15) << 10) | (mant >> 13);
	rest = mant & 0x1fff;
	if (rest > 0x1000 || (rest == 0x1000 && (round & 1)))
		round++;
	if (round > HALF_MAX_BITS)
		return sign | HALF_MAX_BITS;	/* rounded past 65504 */
	return sign | (uint16_t)round;
}
