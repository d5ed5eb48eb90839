// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The fp32 loops of split rows (one chunk each): maximum, exp, scale and
 * a sum in double. AVX2 variants where the CPU has them, plain C
 * otherwise.
 *
 * The sum has one fixed order whatever the variant: sixteen lanes, lane j
 * summing the elements i = j (mod 16), folded in lane order, the last
 * n mod 16 elements added after. float to double is exact and so is the
 * square of a float in double, so both variants give the same bits. The
 * exp is computed in single precision (within 2 ulp); the AVX2 variant
 * fuses multiply-adds and may differ from plain C in the last bit.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_split_util.h"

#define SPLIT_LANES	16

typedef float v8sf __attribute__((vector_size(32)));
typedef float v8sf_u __attribute__((vector_size(32), aligned(4)));
typedef int v8si __attribute__((vector_size(32)));
typedef float v4sf_u __attribute__((vector_size(16), aligned(4)));
typedef double v4df __attribute__((vector_size(32)));

static double split_fold(const double *lanes, const float *tail, u64 nt,
			 bool sq)
{
	double s = 0;
	u64 i;

	for (i = 0; i < SPLIT_LANES; i++)
		s += lanes[i];
	for (i = 0; i < nt; i++)
		s += sq ? (double)tail[i] * tail[i] : (double)tail[i];
	return s;
}

static void split_lanes_base(const float *x, u64 blocks, bool sq,
			     double *lanes)
{
	u64 b, j;

	for (j = 0; j < SPLIT_LANES; j++)
		lanes[j] = 0;
	for (b = 0; b < blocks; b++, x += SPLIT_LANES)
		for (j = 0; j < SPLIT_LANES; j++)
			lanes[j] += sq ? (double)x[j] * x[j] : (double)x[j];
}

__attribute__((target("avx2,fma")))
static void split_lanes_avx2(const float *x, u64 blocks, bool sq,
			     double *lanes)
{
	v4df a[4] = { { 0 } };
	u64 b;
	int k;

	for (b = 0; b < blocks; b++, x += SPLIT_LANES) {
		for (k = 0; k < 4; k++) {
			v4df d = __builtin_convertvector(*(const v4sf_u *)(x + 4 * k),
							 v4df);

			a[k] += sq ? d * d : d;
		}
	}
	for (k = 0; k < 4; k++)
		__builtin_memcpy(lanes + 4 * k, &a[k], sizeof(a[k]));
}

double vnpu_split_sum_f32(const float *x, u64 n, bool sq, u32 cpu)
{
	double lanes[SPLIT_LANES];
	u64 blocks = n / SPLIT_LANES;

	if (cpu & VNPU_CPU_AVX2_FMA)
		split_lanes_avx2(x, blocks, sq, lanes);
	else
		split_lanes_base(x, blocks, sq, lanes);
	return split_fold(lanes, x + blocks * SPLIT_LANES, n % SPLIT_LANES,
			  sq);
}

/* exp(x) for x <= 0 in single precision; -Inf gives 0 (as softmax's). */
static inline float split_expf(float x)
{
	union { float f; u32 u; } scale;
	float n, r, p, xc = x < -87.0f ? -87.0f : x;

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

__attribute__((target("avx2,fma")))
static inline v8sf split_expf8(v8sf x)
{
	const v8sf lo = { -87.0f, -87.0f, -87.0f, -87.0f,
			  -87.0f, -87.0f, -87.0f, -87.0f };
	const v8sf ninf = lo * 0.0f - __builtin_inff();
	v8si under = x < lo, minf = x == ninf;
	v8sf xc = (v8sf)(((v8si)x & ~under) | ((v8si)lo & under));
	v8sf n, r, p;
	v8si e;

	n = (xc * 1.44269504f + 12582912.0f) - 12582912.0f;
	r = xc - n * 0.693359375f + n * 0.000212194440f;
	p = r * 0.000198756915f + 0.00139819995f;
	p = p * r + 0.00833345190f;
	p = p * r + 0.0416657959f;
	p = p * r + 0.166666655f;
	p = p * r + 0.500000012f;
	p = p * r * r + r + 1.0f;
	e = (__builtin_convertvector(n, v8si) + 127) << 23;
	return (v8sf)((v8si)(p * (v8sf)e) & ~minf);
}

__attribute__((target("avx2,fma")))
static float split_max_avx2(const float *x, u64 n, bool *nan)
{
	v8sf m = { 0 } , v;
	v8si isnan = { 0 }, gt;
	float best = -__builtin_inff(), lane[8];
	u64 i = 0;
	int k;

	m = m * 0.0f - __builtin_inff();
	for (; i + 8 <= n; i += 8) {
		v = *(const v8sf_u *)(x + i);
		gt = v > m;
		m = (v8sf)(((v8si)v & gt) | ((v8si)m & ~gt));
		isnan |= v != v;
	}
	__builtin_memcpy(lane, &m, sizeof(lane));
	for (k = 0; k < 8; k++) {
		best = lane[k] > best ? lane[k] : best;
		*nan |= isnan[k] != 0;
	}
	for (; i < n; i++) {
		best = x[i] > best ? x[i] : best;
		*nan |= x[i] != x[i];
	}
	return best;
}

/*
 * Largest element of x[0..n) (-Inf if none) ignoring NaNs; *nan set when
 * there is one.
 */
float vnpu_split_max_f32(const float *x, u64 n, bool *nan, u32 cpu)
{
	float best = -__builtin_inff();
	u64 i;

	*nan = false;
	if (cpu & VNPU_CPU_AVX2_FMA)
		return split_max_avx2(x, n, nan);
	for (i = 0; i < n; i++) {
		best = x[i] > best ? x[i] : best;
		*nan |= x[i] != x[i];
	}
	return best;
}

__attribute__((target("avx2,fma")))
static void split_exp_avx2(const float *x, float *y, u64 n, float m)
{
	u64 i = 0;

	for (; i + 8 <= n; i += 8)
		*(v8sf_u *)(y + i) = split_expf8(*(const v8sf_u *)(x + i) - m);
	for (; i < n; i++)
		y[i] = split_expf(x[i] - m);
}

/* y[i] = exp(x[i] - m), m the finite maximum of x. */
void vnpu_split_exp_f32(const float *x, float *y, u64 n, float m, u32 cpu)
{
	u64 i;

	if (cpu & VNPU_CPU_AVX2_FMA) {
		split_exp_avx2(x, y, n, m);
		return;
	}
	for (i = 0; i < n; i++)
		y[i] = split_expf(x[i] - m);
}

__attribute__((target("avx2,fma")))
static void split_scale_avx2(float *y, u64 n, float f)
{
	u64 i = 0;

	for (; i + 8 <= n; i += 8)
		*(v8sf_u *)(y + i) = *(v8sf_u *)(y + i) * f;
	for (; i < n; i++)
		y[i] *= f;
}

/* y[i] *= f. */
void vnpu_split_scale_f32(float *y, u64 n, float f, u32 cpu)
{
	u64 i;

	if (cpu & VNPU_CPU_AVX2_FMA) {
		split_scale_avx2(y, n, f);
		return;
	}
	for (i = 0; i < n; i++)
		y[i] *= f;
}

/* y[i] = f (a whole chunk of zeros or NaNs). */
void vnpu_split_fill_f32(float *y, u64 n, float f)
{
	u64 i;

	for (i = 0; i < n; i++)
		y[i] = f;
}
