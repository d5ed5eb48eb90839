// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The fp32 loops of split rows (one chunk each): maximum, minimum, exp,
 * scale and a sum in double. AVX2 and AVX-512 variants where the CPU has
 * them (the exp loops of both from one body, vnpu_split_exp_loops.h),
 * plain C otherwise.
 *
 * The sum has one fixed order whatever the variant: sixteen lanes, lane j
 * summing the elements i = j (mod 16), folded in lane order, the last
 * n mod 16 elements added after. float to double is exact and so is the
 * square of a float in double, so all variants give the same bits.
 * Softmax's exps (each in [0, 1]) are first added in float within a lane
 * over a group of VNPU_SPLIT_SUM_GROUP blocks: widening every exp to
 * double cost as much as half the exp itself, and a group of g positive
 * floats is off by at most (g - 1) * 2^-24 of its value. The groups are
 * the same in every variant (a short last group too), and so are the
 * bits. The exp is computed in single precision, within 2 ulp in every
 * variant, which may differ from each other by an ulp or two.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_expf.h"
#include "vnpu_split_util.h"

#define SPLIT_LANES	16
#define SPLIT_GROUP	VNPU_SPLIT_SUM_GROUP

#define V8SF	float __attribute__((vector_size(32)))
#define V8SI	int __attribute__((vector_size(32)))
#define V4SF	float __attribute__((vector_size(16)))
#define V4DF	double __attribute__((vector_size(32)))
#define V8DF	double __attribute__((vector_size(64)))
#define V16SF	float __attribute__((vector_size(64)))
#define V16SI	int __attribute__((vector_size(64)))

/* Pass-through operands of the masked builtins (every lane written). */
static const V16SF split_zero16;
static const V8DF split_zero8;

/* Unaligned loads and stores (the rows have any 4-byte alignment). */
#define LOAD(v, p)	__builtin_memcpy(&(v), (p), sizeof(v))
#define STORE(p, v)	__builtin_memcpy((p), &(v), sizeof(v))

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

/*
 * Four (eight) floats at @p widened to double in one instruction: GCC
 * widens a generic conversion 128 bits at a time; 4 is the current
 * rounding mode.
 */
#define WIDEN4(p)							\
	({								\
		V4SF f_;						\
		LOAD(f_, p);						\
		__builtin_ia32_cvtps2pd256(f_);				\
	})
/* The same from a register: the low or high half of @v. */
#define WIDEN_HALF(vt, v, ...)						\
	({								\
		vt v_ = (v);						\
		__builtin_shufflevector(v_, v_, __VA_ARGS__);		\
	})
#define WIDEN4V_LO(v)							\
	__builtin_ia32_cvtps2pd256(WIDEN_HALF(V8SF, v, 0, 1, 2, 3))
#define WIDEN4V_HI(v)							\
	__builtin_ia32_cvtps2pd256(WIDEN_HALF(V8SF, v, 4, 5, 6, 7))
#define WIDEN8V_LO(v)							\
	__builtin_ia32_cvtps2pd512_mask(WIDEN_HALF(V16SF, v, 0, 1, 2, 3, \
						   4, 5, 6, 7),		\
					split_zero8, 0xff, 4)
#define WIDEN8V_HI(v)							\
	__builtin_ia32_cvtps2pd512_mask(WIDEN_HALF(V16SF, v, 8, 9, 10, 11, \
						   12, 13, 14, 15),	\
					split_zero8, 0xff, 4)

__attribute__((target("avx2,fma")))
static void split_lanes_avx2(const float *x, u64 blocks, bool sq,
			     double *lanes)
{
	V4DF a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }, d0, d1, d2, d3;
	u64 b;

	for (b = 0; b < blocks; b++, x += SPLIT_LANES) {
		d0 = WIDEN4(x);
		d1 = WIDEN4(x + 4);
		d2 = WIDEN4(x + 8);
		d3 = WIDEN4(x + 12);
		if (sq) {
			d0 *= d0;
			d1 *= d1;
			d2 *= d2;
			d3 *= d3;
		}
		a0 += d0;
		a1 += d1;
		a2 += d2;
		a3 += d3;
	}
	STORE(lanes, a0);
	STORE(lanes + 4, a1);
	STORE(lanes + 8, a2);
	STORE(lanes + 12, a3);
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

/*
 * Eight exps at once, within 2 ulp like softmax_expf() but computed
 * differently: x = (8q + j) ln2 / 8 + r with |r| <= ln2 / 16, so
 * e^x = 2^q * 2^(j/8) * e^r, 2^(j/8) from an eight-entry table
 * (vpermps) and e^r from a degree-4 Taylor polynomial (error below
 * r^5 / 120 = 1.3e-9). t holds 1.5 * 2^23 + 8 * 127 + 8q + j, so its low
 * bits give j and, shifted, the exponent field of 2^q. x is clamped at
 * -87, where q >= -126 and the result stays normal; -Inf gives 0.
 */
__attribute__((target("avx2,fma")))
static inline V8SF split_expf8(V8SF x)
{
	const V8SF tab = { 1.0f, 1.090507733f, 1.189207115f, 1.296839555f,
			   1.414213562f, 1.542210825f, 1.681792831f,
			   1.834008086f };
	const V8SF lo = { -87.0f, -87.0f, -87.0f, -87.0f,
			  -87.0f, -87.0f, -87.0f, -87.0f };
	const V8SF ninf = lo * 0.0f - __builtin_inff();
	V8SI minf = x == ninf, bits, e;
	V8SF xc = __builtin_ia32_maxps256(x, lo);
	V8SF t, n, r, p, f;

	t = xc * 11.5415603f + 12583928.0f;
	n = t - 12583928.0f;
	r = xc - n * 0.086669921875f;
	r = r + n * 0.000026524305f;
	p = r * 0.0416666667f + 0.166666667f;
	p = p * r + 0.5f;
	p = p * r + 1.0f;
	p = p * r + 1.0f;
	bits = (V8SI)t;
	f = __builtin_ia32_permvarsf256(tab, bits & 7);
	e = (bits >> 3) << 23;
	return (V8SF)((((V8SI)(p * f) + e) - 0x3f800000) & ~minf);
}

/*
 * The largest of best and x[0..n) (each negated first with @neg), NaNs
 * aside; *nan set when there is one. The vector loops' tail, and the
 * whole walk without AVX2.
 */
static inline float split_max_c(const float *x, u64 n, bool *nan, bool neg,
				float best)
{
	u64 i;

	for (i = 0; i < n; i++) {
		float v = neg ? -x[i] : x[i];

		best = v > best ? v : best;
		*nan |= v != v;
	}
	return best;
}

/*
 * vmaxps returns its second operand when either is NaN, so NaNs never
 * become the maximum; they are looked for apart. Four accumulators keep
 * the loop from waiting on one chain of maxima. With @neg the elements
 * are negated first (exact), so the result is minus the minimum.
 */
__attribute__((target("avx2,fma")))
static __always_inline float split_max_avx2(const float *x, u64 n, bool *nan, bool neg)
{
	V8SF m0 = { 0 }, m1, m2, m3, v0, v1, v2, v3;
	V8SI isnan = { 0 };
	float best = -__builtin_inff(), lane[8];
	u64 i = 0;
	int k;

	m0 = m0 - __builtin_inff();
	m1 = m0;
	m2 = m0;
	m3 = m0;
	for (; i + 32 <= n; i += 32) {
		LOAD(v0, x + i);
		LOAD(v1, x + i + 8);
		LOAD(v2, x + i + 16);
		LOAD(v3, x + i + 24);
		if (neg) {
			v0 = -v0;
			v1 = -v1;
			v2 = -v2;
			v3 = -v3;
		}
		m0 = __builtin_ia32_maxps256(v0, m0);
		m1 = __builtin_ia32_maxps256(v1, m1);
		m2 = __builtin_ia32_maxps256(v2, m2);
		m3 = __builtin_ia32_maxps256(v3, m3);
		isnan |= (v0 != v0) | (v1 != v1) | (v2 != v2) | (v3 != v3);
	}
	m0 = __builtin_ia32_maxps256(m0, m1);
	m2 = __builtin_ia32_maxps256(m2, m3);
	m0 = __builtin_ia32_maxps256(m0, m2);
	STORE(lane, m0);
	for (k = 0; k < 8; k++) {
		best = lane[k] > best ? lane[k] : best;
		*nan |= isnan[k] != 0;
	}
	return split_max_c(x + i, n - i, nan, neg, best);
}

__attribute__((target("avx2,fma")))
static float split_max_avx2_pos(const float *x, u64 n, bool *nan)
{
	return split_max_avx2(x, n, nan, false);
}

__attribute__((target("avx2,fma")))
static float split_max_avx2_neg(const float *x, u64 n, bool *nan)
{
	return split_max_avx2(x, n, nan, true);
}

/*
 * Largest element of x[0..n) (-Inf if none) ignoring NaNs; *nan set when
 * there is one.
 */
float vnpu_split_max_f32(const float *x, u64 n, bool *nan, u32 cpu)
{
	*nan = false;
	if (cpu & VNPU_CPU_AVX2_FMA)
		return split_max_avx2_pos(x, n, nan);
	return split_max_c(x, n, nan, false, -__builtin_inff());
}

/* Smallest element (+Inf if none), NaNs aside, as minus the largest of -x. */
float vnpu_split_min_f32(const float *x, u64 n, bool *nan, u32 cpu)
{
	*nan = false;
	if (cpu & VNPU_CPU_AVX2_FMA)
		return -split_max_avx2_neg(x, n, nan);
	return -split_max_c(x, n, nan, true, -__builtin_inff());
}

/*
 * Sixteen exps at once, within 2 ulp, split_expf8()'s way with a finer
 * table: x = (16q + j) ln2 / 16 + r with |r| <= ln2 / 32, e^x =
 * 2^q * 2^(j/16) * e^r, 2^(j/16) from a sixteen-entry table (one vpermps
 * of a whole register, which reads only the low four bits of each index)
 * and e^r from a degree-3 Taylor polynomial (error below r^4 / 24 =
 * 9.2e-9, 0.15 ulp). t = 1.5 * 2^19 + x / ln2 rounds x / ln2 to a
 * sixteenth, s = q + j / 16, so the low four bits of t are j; s * ln 2 is
 * taken off x in two parts (the first product exact for |s| < 2^11), so r
 * keeps its accuracy. vscalefps multiplies by 2^floor(s) = 2^q and rounds
 * once, so results below the normal range come out as correctly rounded
 * subnormals or 0, with no compare or integer exponent arithmetic. One
 * vmaxps at -126 (where the result rounds to 0) keeps the reduction
 * finite for -Inf and huge negative x. Eleven vector instructions per
 * sixteen elements: this is the loop that bounds a softmax row.
 */
#define SPLIT_EXP_LO		-126.0f
#define SPLIT_EXP_SHIFT		786432.0f	/* 1.5 * 2^19 */

__attribute__((target("avx512f")))
static inline V16SF split_expf16(V16SF x)
{
	const V16SF tab = { 1.0f, 1.04427378f, 1.09050773f, 1.13878863f,
			    1.18920712f, 1.24185781f, 1.29683955f, 1.35425555f,
			    1.41421356f, 1.47682615f, 1.54221083f, 1.61049033f,
			    1.68179283f, 1.75625216f, 1.83400809f,
			    1.91520656f };
	const V16SF lo = { SPLIT_EXP_LO, SPLIT_EXP_LO, SPLIT_EXP_LO,
			   SPLIT_EXP_LO, SPLIT_EXP_LO, SPLIT_EXP_LO,
			   SPLIT_EXP_LO, SPLIT_EXP_LO, SPLIT_EXP_LO,
			   SPLIT_EXP_LO, SPLIT_EXP_LO, SPLIT_EXP_LO,
			   SPLIT_EXP_LO, SPLIT_EXP_LO, SPLIT_EXP_LO,
			   SPLIT_EXP_LO };
	V16SF xc = __builtin_ia32_maxps512_mask(x, lo, x, 0xffff, 4);
	V16SF t, s, r, p, f;

	t = xc * 1.44269504f + SPLIT_EXP_SHIFT;
	s = t - SPLIT_EXP_SHIFT;
	r = xc - s * 0.693359375f;
	r = r + s * 0.000212194440f;
	p = r * 0.166666667f + 0.5f;
	p = p * r + 1.0f;
	p = p * r + 1.0f;
	f = __builtin_ia32_permvarsf512_mask(tab, (V16SI)t, tab, 0xffff);
	return __builtin_ia32_scalefps512_mask(p * f, s, f, 0xffff, 4);
}

/* The first @k (< 16) floats at @p, zeros after; and the store back. */
#define SPLIT_MASK(k)		((unsigned short)((1u << (k)) - 1))
#define LOAD16_PART(p, k)						\
	__builtin_ia32_loadups512_mask((p), split_zero16, SPLIT_MASK(k))
#define STORE16_PART(p, v, k)						\
	__builtin_ia32_storeups512_mask((p), (v), SPLIT_MASK(k))

/* The loops on eight floats (AVX2): the last n mod 8 elements scalar. */
#define SX_SUFFIX	avx2
#define SX_TARGET	"avx2,fma"
#define SX_VEC		V8SF
#define SX_W		8
#define SX_EXP(v)	split_expf8(v)
#define SX_TAIL(x, y, k, m)						\
	do {								\
		u64 i_;							\
									\
		for (i_ = 0; i_ < (k); i_++)				\
			(y)[i_] = softmax_expf((x)[i_] - (m));		\
	} while (0)
#define SX_ACC_DECL	V4DF a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }
/* Lanes 0-7 in f[0], 8-15 in f[1]. */
#define SX_ACC_ADD(f)							\
	do {								\
		const V8SF *f_ = (f);					\
									\
		a0 += WIDEN4V_LO(f_[0]);				\
		a1 += WIDEN4V_HI(f_[0]);				\
		a2 += WIDEN4V_LO(f_[1]);				\
		a3 += WIDEN4V_HI(f_[1]);				\
	} while (0)
#define SX_ACC_STORE(l)							\
	do {								\
		double *l_ = (l);					\
									\
		STORE(l_, a0);						\
		STORE(l_ + 4, a1);					\
		STORE(l_ + 8, a2);					\
		STORE(l_ + 12, a3);					\
	} while (0)
#include "vnpu_split_exp_loops.h"
#undef SX_SUFFIX
#undef SX_TARGET
#undef SX_VEC
#undef SX_W
#undef SX_EXP
#undef SX_TAIL
#undef SX_ACC_DECL
#undef SX_ACC_ADD
#undef SX_ACC_STORE

/*
 * On sixteen floats (AVX-512): the last n mod 16 elements go through the
 * same vector code, masked, so every element of a row is rounded alike.
 */
#define SX_SUFFIX	avx512
#define SX_TARGET	"avx512f"
#define SX_VEC		V16SF
#define SX_W		16
#define SX_EXP(v)	split_expf16(v)
#define SX_TAIL(x, y, k, m)						\
	do {								\
		u64 k_ = (k);						\
									\
		STORE16_PART(y, split_expf16(LOAD16_PART(x, k_) - (m)), k_); \
	} while (0)
#define SX_ACC_DECL	V8DF a0 = { 0 }, a1 = { 0 }
#define SX_ACC_ADD(f)							\
	do {								\
		const V16SF *f_ = (f);					\
									\
		a0 += WIDEN8V_LO(f_[0]);				\
		a1 += WIDEN8V_HI(f_[0]);				\
	} while (0)
#define SX_ACC_STORE(l)							\
	do {								\
		double *l_ = (l);					\
									\
		STORE(l_, a0);						\
		STORE(l_ + 8, a1);					\
	} while (0)
#include "vnpu_split_exp_loops.h"

/* y[i] = exp(x[i] - m), m the finite maximum of x. */
void vnpu_split_exp_f32(const float *x, float *y, u64 n, float m, u32 cpu)
{
	u64 i;

	if (cpu & VNPU_CPU_AVX512) {
		split_exp_avx512(x, y, n, m);
		return;
	}
	if (cpu & VNPU_CPU_AVX2_FMA) {
		split_exp_avx2(x, y, n, m);
		return;
	}
	for (i = 0; i < n; i++)
		y[i] = softmax_expf(x[i] - m);
}

/*
 * The exps of the last n mod 16 elements, as vnpu_split_exp_f32() makes
 * them, folded after the lanes: the same bits as exps stored, then summed.
 */
static double split_expsum_tail(const double *lanes, const float *x,
				float *y, u64 nt, float m, u32 cpu)
{
	vnpu_split_exp_f32(x, y, nt, m, cpu);
	return split_fold(lanes, y, nt, false);
}

static void split_expsum_base(const float *x, float *y, u64 blocks, float m,
			      double *lanes)
{
	float f[SPLIT_LANES];
	u64 b, j, k;

	for (j = 0; j < SPLIT_LANES; j++)
		lanes[j] = 0;
	for (b = 0; b < blocks; b += k) {
		for (j = 0; j < SPLIT_LANES; j++)
			f[j] = 0;
		for (k = 0; k < SPLIT_GROUP && b + k < blocks;
		     k++, x += SPLIT_LANES, y += SPLIT_LANES)
			for (j = 0; j < SPLIT_LANES; j++) {
				y[j] = softmax_expf(x[j] - m);
				f[j] += y[j];
			}
		for (j = 0; j < SPLIT_LANES; j++)
			lanes[j] += (double)f[j];
	}
}

/*
 * y[i] = exp(x[i] - m), each as vnpu_split_exp_f32() computes it, and
 * their sum in double in vnpu_split_sum_f32()'s order, in one pass: the
 * exps are summed while in registers instead of read back.
 */
double vnpu_split_expsum_f32(const float *x, float *y, u64 n, float m,
			     u32 cpu)
{
	double lanes[SPLIT_LANES];
	u64 blocks = n / SPLIT_LANES, done = blocks * SPLIT_LANES;

	if (cpu & VNPU_CPU_AVX512)
		split_expsum_avx512(x, y, blocks, m, lanes);
	else if (cpu & VNPU_CPU_AVX2_FMA)
		split_expsum_avx2(x, y, blocks, m, lanes);
	else
		split_expsum_base(x, y, blocks, m, lanes);
	return split_expsum_tail(lanes, x + done, y + done, n % SPLIT_LANES,
				 m, cpu);
}

__attribute__((target("avx2,fma")))
static void split_scale_avx2(float *y, u64 n, float f)
{
	V8SF v;
	u64 i = 0;

	for (; i + 8 <= n; i += 8) {
		LOAD(v, y + i);
		v *= f;
		STORE(y + i, v);
	}
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
