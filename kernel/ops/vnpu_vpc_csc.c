// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * VPC: colour conversion between YUV and RGB with the matrices of
 * acldvppCscMatrix (BT.601, BT.709, BT.2020; wide = full range, narrow =
 * video range), in fixed point with 16 fraction bits. The coefficients
 * come from Kr and Kb of each standard (Documentation/vpc.md gives the
 * formulas); each RGB-to-YUV row is adjusted by one unit where rounding
 * broke its sum, so that grey stays grey (Y rows sum to 65536 or, narrow,
 * 56284; U and V rows to 0).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_vpc.h"

#define CSC_SHIFT	16
#define CSC_HALF	(1 << (CSC_SHIFT - 1))

/* YUV to RGB: Y scale, V to R, U to G, V to G, U to B; Y offset. */
static const s32 vpc_y2r[VPC_CSC_COUNT][6] = {
	{ 65536,  91881, 22553, 46802, 116130,  0 },	/* BT.601 wide */
	{ 76309, 104597, 25675, 53279, 132201, 16 },	/* BT.601 narrow */
	{ 65536, 103206, 12276, 30679, 121609,  0 },	/* BT.709 wide */
	{ 76309, 117489, 13975, 34925, 138438, 16 },	/* BT.709 narrow */
	{ 65536,  96639, 10784, 37444, 123299,  0 },	/* BT.2020 wide */
	{ 76309, 110014, 12277, 42626, 140363, 16 },	/* BT.2020 narrow */
};

/* RGB to YUV: the Y, U and V rows (R, G, B); Y offset. */
static const s32 vpc_r2y[VPC_CSC_COUNT][10] = {
	{ 19595, 38470, 7471, -11058, -21710, 32768, 32768, -27439, -5329, 0 },
	{ 16829, 33039, 6416, -9714, -19070, 28784, 28784, -24103, -4681, 16 },
	{ 13933, 46871, 4732, -7509, -25259, 32768, 32768, -29763, -3005, 0 },
	{ 11966, 40254, 4064, -6596, -22188, 28784, 28784, -26145, -2639, 16 },
	{ 17216, 44434, 3886, -9151, -23617, 32768, 32768, -30133, -2635, 0 },
	{ 14786, 38160, 3338, -8038, -20746, 28784, 28784, -26469, -2315, 16 },
};

/* @uv: n pairs (U, V), or NULL for grey (128, 128). rgb: n * 3 bytes. */
void vpc_yuv_to_rgb(u32 m, const u8 *y, const u8 *uv, s32 n, u8 *rgb)
{
	const s32 *k = vpc_y2r[m];
	s32 i;

	for (i = 0; i < n; i++, rgb += 3) {
		s32 l = (y[i] - k[5]) * k[0] + CSC_HALF;
		s32 u = uv ? uv[2 * i] - 128 : 0, v = uv ? uv[2 * i + 1] - 128 : 0;

		rgb[0] = vpc_sat_u8((l + k[1] * v) >> CSC_SHIFT);
		rgb[1] = vpc_sat_u8((l - k[2] * u - k[3] * v) >> CSC_SHIFT);
		rgb[2] = vpc_sat_u8((l + k[4] * u) >> CSC_SHIFT);
	}
}

void vpc_rgb_to_y(u32 m, const u8 *rgb, u32 nc, s32 n, u8 *y)
{
	const s32 *k = vpc_r2y[m];
	s32 i, add = (k[9] << CSC_SHIFT) + CSC_HALF;

	for (i = 0; i < n; i++, rgb += nc)
		y[i] = vpc_sat_u8((k[0] * rgb[0] + k[1] * rgb[1] + k[2] * rgb[2] +
				   add) >> CSC_SHIFT);
}

/* U and V before the offset of 128 and the rounding, in Q16. */
void vpc_rgb_to_uv(u32 m, const u8 *rgb, u32 nc, s32 n, s32 *u, s32 *v)
{
	const s32 *k = vpc_r2y[m];
	s32 i;

	for (i = 0; i < n; i++, rgb += nc) {
		u[i] = k[3] * rgb[0] + k[4] * rgb[1] + k[5] * rgb[2];
		v[i] = k[6] * rgb[0] + k[7] * rgb[1] + k[8] * rgb[2];
	}
}

/* A sum of 2^(shift - 16) Q16 values: their mean + 128, half rounded up. */
u8 vpc_uv_round(s32 sum, u32 shift)
{
	return vpc_sat_u8(((sum + (1 << (shift - 1))) >> shift) + 128);
}
