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
 *   SX_ACC_DECL		the sum's sixteen lanes in double, zeroed
 *   SX_ACC_ADD(p)	adds the sixteen floats at p to them, widened
 *   SX_ACC_STORE(l)	stores them to double l[16]
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

/* y[0..SX_W) = exp(x[0..SX_W) - m). */
#define SX_EXP_AT(x, y, m)						\
	do {								\
		SX_VEC v_;						\
									\
		LOAD(v_, x);						\
		v_ = SX_EXP(v_ - (m));					\
		STORE(y, v_);						\
	} while (0)

__attribute__((target(SX_TARGET)))
static void SX_NAME(split_exp, SX_SUFFIX)(const float *x, float *y, u64 n,
					  float m)
{
	u64 i = 0;
	int k;

	for (; i + 32 <= n; i += 32)
		for (k = 0; k < 32; k += SX_W)
			SX_EXP_AT(x + i + k, y + i + k, m);
	for (; i + SX_W <= n; i += SX_W)
		SX_EXP_AT(x + i, y + i, m);
	if (i < n)
		SX_TAIL(x + i, y + i, n - i, m);
}

__attribute__((target(SX_TARGET)))
static void SX_NAME(split_expsum, SX_SUFFIX)(const float *x, float *y,
					     u64 blocks, float m,
					     double *lanes)
{
	SX_ACC_DECL;
	u64 b = 0;
	int k;

	for (; b + 2 <= blocks; b += 2, x += 32, y += 32) {
		for (k = 0; k < 32; k += SX_W)
			SX_EXP_AT(x + k, y + k, m);
		__asm__("" ::: "memory");	/* widen from y, as stored */
		SX_ACC_ADD(y);
		SX_ACC_ADD(y + 16);
	}
	if (b < blocks) {
		for (k = 0; k < 16; k += SX_W)
			SX_EXP_AT(x + k, y + k, m);
		__asm__("" ::: "memory");
		SX_ACC_ADD(y);
	}
	SX_ACC_STORE(lanes);
}

#undef SX_EXP_AT
#undef SX_NAME
#undef SX_NAME_
