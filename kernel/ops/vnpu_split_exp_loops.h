/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The exp and exp-and-sum loops of vnpu_split_f32.c, one body for every
 * vector width: vnpu_split_f32.c includes it once per width after
 * defining
 *
 *   SX_SUFFIX		the functions' suffix (avx2, avx512)
 *   SX_TARGET		their target attribute
 *   SX_VEC, SX_W	a vector of SX_W floats
 *   SX_EXP(v)		its exps
 *   SX_TAIL(x, y, k, m)	the exps of the last k < SX_W elements
 *   SX_DVEC, SX_DW	a vector of SX_DW doubles
 *   SX_WIDEN(p)	the SX_DW floats at p, widened
 *
 * Both loops take 32 elements (two blocks of the sum's sixteen lanes) an
 * iteration, so the out-of-order core has several independent exps to
 * overlap. The sum widens the exps from the output just stored (a load
 * and convert in one instruction, cheaper than extracting halves of a
 * register) and adds block after block, so each lane adds its elements in
 * order whatever the width.
 *
 * Copyright (C) 2026 The vnpu authors
 */

#define SX_NAME_(a, b)	a##_##b
#define SX_NAME(a, b)	SX_NAME_(a, b)

/* y[i] = exp(x[i] - m) for @nv vectors (a compile-time constant). */
#define SX_EXP_VECS(x, y, m, nv)					\
	do {								\
		SX_VEC v_[nv];						\
		int k_;							\
									\
		_Pragma("GCC unroll 4")					\
		for (k_ = 0; k_ < (nv); k_++) {				\
			LOAD(v_[k_], (x) + k_ * SX_W);			\
			v_[k_] = SX_EXP(v_[k_] - (m));			\
		}							\
		_Pragma("GCC unroll 4")					\
		for (k_ = 0; k_ < (nv); k_++)				\
			STORE((y) + k_ * SX_W, v_[k_]);			\
	} while (0)

__attribute__((target(SX_TARGET)))
static void SX_NAME(split_exp, SX_SUFFIX)(const float *x, float *y, u64 n,
					  float m)
{
	u64 i = 0;

	for (; i + 32 <= n; i += 32)
		SX_EXP_VECS(x + i, y + i, m, 32 / SX_W);
	for (; i + SX_W <= n; i += SX_W)
		SX_EXP_VECS(x + i, y + i, m, 1);
	if (i < n)
		SX_TAIL(x + i, y + i, n - i, m);
}

/* Adds the sixteen floats at @p to the lanes @a. */
#define SX_ADD_BLOCK(a, p)						\
	do {								\
		int k_;							\
									\
		_Pragma("GCC unroll 4")					\
		for (k_ = 0; k_ < 16 / SX_DW; k_++)			\
			(a)[k_] += SX_WIDEN((p) + k_ * SX_DW);		\
	} while (0)

__attribute__((target(SX_TARGET)))
static void SX_NAME(split_expsum, SX_SUFFIX)(const float *x, float *y,
					     u64 blocks, float m,
					     double *lanes)
{
	SX_DVEC a[16 / SX_DW] = { { 0 } };
	u64 b = 0;
	int k;

	for (; b + 2 <= blocks; b += 2, x += 32, y += 32) {
		SX_EXP_VECS(x, y, m, 32 / SX_W);
		__asm__("" ::: "memory");	/* widen from y, as stored */
		SX_ADD_BLOCK(a, y);
		SX_ADD_BLOCK(a, y + 16);
	}
	if (b < blocks) {
		SX_EXP_VECS(x, y, m, 16 / SX_W);
		__asm__("" ::: "memory");
		SX_ADD_BLOCK(a, y);
	}
	for (k = 0; k < 16 / SX_DW; k++)
		STORE(lanes + k * SX_DW, a[k]);
}

#undef SX_EXP_VECS
#undef SX_ADD_BLOCK
#undef SX_NAME
#undef SX_NAME_
