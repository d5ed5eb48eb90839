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
 *   SX_ACC_ADD(f)	adds the sixteen float partials f[16 / SX_W] to
 *			them, widened
 *   SX_ACC_STORE(l)	stores them to double l[16]
 *
 * The exp loop takes 32 elements an iteration, so the out-of-order core
 * has several independent exps to overlap. The exp-and-sum loop adds each
 * block's exps, in registers, to float partials of the sixteen lanes, and
 * widens the partials into the double lanes once per group of
 * SPLIT_GROUP blocks (a group unrolled gives the core as many
 * independent exps): each lane adds its elements in order whatever the
 * width, with the same groups.
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

/*
 * One block of the sum's sixteen lanes: y = exp(x - m), stored, and each
 * lane's exp added to its float partial f[lane / SX_W], in registers.
 */
#define SX_BLOCK(x, y, m, f)						\
	do {								\
		int k_;							\
									\
		for (k_ = 0; k_ < 16; k_ += SX_W) {			\
			SX_VEC v_;					\
									\
			LOAD(v_, (x) + k_);				\
			v_ = SX_EXP(v_ - (m));				\
			STORE((y) + k_, v_);				\
			(f)[k_ / SX_W] += v_;				\
		}							\
	} while (0)

__attribute__((target(SX_TARGET)))
static void SX_NAME(split_expsum, SX_SUFFIX)(const float *x, float *y,
					     u64 blocks, float m,
					     double *lanes)
{
	SX_ACC_DECL;
	SX_VEC f[16 / SX_W];
	u64 b = 0;
	int k;

	for (; b + SPLIT_GROUP <= blocks; b += SPLIT_GROUP) {
		for (k = 0; k < 16 / SX_W; k++)
			f[k] = (SX_VEC){ 0 };
		for (k = 0; k < SPLIT_GROUP; k++, x += 16, y += 16)
			SX_BLOCK(x, y, m, f);
		SX_ACC_ADD(f);
	}
	if (b < blocks) {
		for (k = 0; k < 16 / SX_W; k++)
			f[k] = (SX_VEC){ 0 };
		for (; b < blocks; b++, x += 16, y += 16)
			SX_BLOCK(x, y, m, f);
		SX_ACC_ADD(f);
	}
	SX_ACC_STORE(lanes);
}

#undef SX_BLOCK
#undef SX_EXP_AT
#undef SX_NAME
#undef SX_NAME_
