// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The double-precision loops of split layer and RMS norm rows: squared
 * deviations from the mean, and the normalized output. AVX2 and AVX-512
 * variants where the CPU has them, plain C otherwise.
 *
 * Every variant rounds the same operations in the same order, so they give
 * the same bits: the output is ((x - shift) * scale) * g + b, each step
 * rounded in double, then rounded to float; the squared deviations go to
 * sixteen lanes (lane j takes the elements i = j (mod 16)), folded in lane
 * order, the last n mod 16 elements added after. A multiply feeding an
 * add must not become one fused multiply-add (one rounding instead of
 * two), so the vector code passes the product through an empty asm.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_split_util.h"

#define NS_LANES	16

#define V4SF	float __attribute__((vector_size(16)))
#define V8SF	float __attribute__((vector_size(32)))
#define V4DF	double __attribute__((vector_size(32)))
#define V8DF	double __attribute__((vector_size(64)))

/* Pass-through operands of the masked builtins (every lane written). */
static const V8SF ns_zero8f;
static const V8DF ns_zero8d;

#define LOAD(v, p)	__builtin_memcpy(&(v), (p), sizeof(v))
#define STORE(p, v)	__builtin_memcpy((p), &(v), sizeof(v))
/* Keeps the compiler from fusing the multiply that made @v with an add. */
#define ROUNDED(v)	__asm__("" : "+v"(v))

static double ns_fold(const double *lanes, const float *x, u64 nt,
		      double mean)
{
	double s = 0, d;
	u64 i;

	for (i = 0; i < NS_LANES; i++)
		s += lanes[i];
	for (i = 0; i < nt; i++) {
		d = (double)x[i] - mean;
		s += d * d;
	}
	return s;
}

static void ns_sqdev_base(const float *x, u64 blocks, double mean,
			  double *lanes)
{
	u64 b, j;
	double d;

	for (j = 0; j < NS_LANES; j++)
		lanes[j] = 0;
	for (b = 0; b < blocks; b++, x += NS_LANES)
		for (j = 0; j < NS_LANES; j++) {
			d = (double)x[j] - mean;
			lanes[j] += d * d;
		}
}

/*
 * Eight floats widened to double in one instruction (GCC widens a generic
 * conversion 128 bits at a time; 4 is the current rounding mode).
 */
#define WIDEN8(p)							\
	({								\
		V8SF f_;						\
		LOAD(f_, p);						\
		__builtin_ia32_cvtps2pd512_mask(f_, ns_zero8d, 0xff, 4); \
	})

__attribute__((target("avx512f")))
static void ns_sqdev_avx512(const float *x, u64 blocks, double mean,
			    double *lanes)
{
	V8DF a0 = { 0 }, a1 = { 0 }, d0, d1;
	u64 b;

	for (b = 0; b < blocks; b++, x += NS_LANES) {
		d0 = WIDEN8(x) - mean;
		d1 = WIDEN8(x + 8) - mean;
		d0 *= d0;
		d1 *= d1;
		ROUNDED(d0);
		ROUNDED(d1);
		a0 += d0;
		a1 += d1;
	}
	STORE(lanes, a0);
	STORE(lanes + 8, a1);
}

__attribute__((target("avx2,fma")))
static void ns_sqdev_avx2(const float *x, u64 blocks, double mean,
			  double *lanes)
{
	V4DF a[4] = { { 0 } }, d[4];
	V4SF f;
	u64 b;
	int j;

	for (b = 0; b < blocks; b++, x += NS_LANES)
		for (j = 0; j < 4; j++) {
			LOAD(f, x + 4 * j);
			d[j] = __builtin_convertvector(f, V4DF) - mean;
			d[j] *= d[j];
			ROUNDED(d[j]);
			a[j] += d[j];
		}
	for (j = 0; j < 4; j++)
		STORE(lanes + 4 * j, a[j]);
}

double vnpu_split_sqdev_f32(const float *x, u64 n, double mean, u32 cpu)
{
	double lanes[NS_LANES];
	u64 blocks = n / NS_LANES;

	if (cpu & VNPU_CPU_AVX512)
		ns_sqdev_avx512(x, blocks, mean, lanes);
	else if (cpu & VNPU_CPU_AVX2_FMA)
		ns_sqdev_avx2(x, blocks, mean, lanes);
	else
		ns_sqdev_base(x, blocks, mean, lanes);
	return ns_fold(lanes, x + blocks * NS_LANES, n % NS_LANES, mean);
}

/* One element of the output, as every variant computes it. */
static inline float ns_norm1(const struct vnpu_split_norm *a, u64 i)
{
	double v = ((double)a->x[i] - a->shift) * a->scale;

	if (a->g)
		v *= (double)a->g[i];
	if (a->b)
		v += (double)a->b[i];
	return (float)v;
}

__attribute__((target("avx512f")))
static u64 ns_norm_avx512(const struct vnpu_split_norm *a)
{
	const float *x = a->x, *g = a->g, *b = a->b;
	double shift = a->shift, scale = a->scale;
	float *y = a->y;
	V8SF f;
	V8DF v;
	u64 i = 0, n = a->n;

	for (; i + 8 <= n; i += 8) {
		v = (WIDEN8(x + i) - shift) * scale;
		if (g)
			v *= WIDEN8(g + i);
		if (b) {
			ROUNDED(v);
			v += WIDEN8(b + i);
		}
		f = __builtin_ia32_cvtpd2ps512_mask(v, ns_zero8f, 0xff, 4);
		STORE(y + i, f);
	}
	return i;
}

__attribute__((target("avx2,fma")))
static u64 ns_norm_avx2(const struct vnpu_split_norm *a)
{
	V4SF f;
	V4DF v, w;
	u64 i = 0;

	for (; i + 4 <= a->n; i += 4) {
		LOAD(f, a->x + i);
		v = (__builtin_convertvector(f, V4DF) - a->shift) * a->scale;
		if (a->g) {
			LOAD(f, a->g + i);
			v *= __builtin_convertvector(f, V4DF);
		}
		if (a->b) {
			ROUNDED(v);
			LOAD(f, a->b + i);
			w = __builtin_convertvector(f, V4DF);
			v += w;
		}
		f = __builtin_convertvector(v, V4SF);
		STORE(a->y + i, f);
	}
	return i;
}

void vnpu_split_norm_f32(const struct vnpu_split_norm *a, u32 cpu)
{
	u64 i = 0;

	if (cpu & VNPU_CPU_AVX512)
		i = ns_norm_avx512(a);
	else if (cpu & VNPU_CPU_AVX2_FMA)
		i = ns_norm_avx2(a);
	for (; i < a->n; i++)
		a->y[i] = ns_norm1(a, i);
}

/*
 * Log-softmax's output, y[i] = (float)(((double)x[i] - m) + off): a
 * subtraction and an addition in double, so the vector variants round as
 * the plain C loop does.
 */
__attribute__((target("avx512f")))
static u64 ns_logsm_avx512(const float *x, float *y, u64 n, double m,
			   double off)
{
	V8SF f;
	V8DF v;
	u64 i = 0;

	for (; i + 8 <= n; i += 8) {
		v = (WIDEN8(x + i) - m) + off;
		f = __builtin_ia32_cvtpd2ps512_mask(v, ns_zero8f, 0xff, 4);
		STORE(y + i, f);
	}
	return i;
}

__attribute__((target("avx2,fma")))
static u64 ns_logsm_avx2(const float *x, float *y, u64 n, double m,
			 double off)
{
	V4SF f;
	V4DF v;
	u64 i = 0;

	for (; i + 4 <= n; i += 4) {
		LOAD(f, x + i);
		v = (__builtin_ia32_cvtps2pd256(f) - m) + off;
		f = __builtin_ia32_cvtpd2ps256(v);
		STORE(y + i, f);
	}
	return i;
}

void vnpu_split_logsm_f32(const float *x, float *y, u64 n, double m,
			  double off, u32 cpu)
{
	u64 i = 0;

	if (cpu & VNPU_CPU_AVX512)
		i = ns_logsm_avx512(x, y, n, m, off);
	else if (cpu & VNPU_CPU_AVX2_FMA)
		i = ns_logsm_avx2(x, y, n, m, off);
	for (; i < n; i++)
		y[i] = (float)(((double)x[i] - m) + off);
}
