/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * FLASH_ATTN's kernels for a few rows (decoding), written once and
 * included by vnpu_op_flash_attn.c once per vector width. Before each
 * inclusion the includer defines:
 *
 *   FA_VF	the vector type (GCC vector extension)
 *   FA_VU	a vector of as many u32
 *   FA_W	floats per vector
 *   FA_ATTR	the target attribute of the ISA
 *   FA_RED4	a function of four vectors returning a VF4 of their sums
 *   FA_SFX	the suffix of the functions defined
 *
 * With up to FA_DOT_ROWS (8) query rows, the GEMM engine's packing (K
 * transposed into slivers) costs more than the products: these read K
 * and V rows where they are, as fp32 with unit column stride.
 *
 * Copyright (C) 2026 The vnpu authors
 */

#define FA_NAME2(f, s)	f##s
#define FA_NAME(f, s)	FA_NAME2(f, s)

/*
 * s[r * FA_KEYS + j] = q row r . key j for @rows rows of @q (rows @qs
 * apart, 64-byte aligned) and @nk >= 1 keys of @k (rows @ks apart), at
 * depth @dk >= 1. Four keys at a time, the last group repeating the last
 * key; the depth past a multiple of FA_W one element at a time.
 */
FA_ATTR static void FA_NAME(fa_dot, FA_SFX)(const float *q, s64 qs, s64 rows,
					    const float *k, s64 ks, s64 dk,
					    s64 nk, float *s)
{
	const FA_VF zero = { 0 };
	s64 dm = dk & ~(s64)(FA_W - 1), j, r, d;
	int t;

	for (j = 0; j < nk; j += 4) {
		const float *kr[4];

		for (t = 0; t < 4; t++)
			kr[t] = k + (j + t < nk ? j + t : nk - 1) * ks;
		for (r = 0; r < rows; r++) {
			const float *qr = q + r * qs;
			FA_VF a[4] = { zero, zero, zero, zero };
			VF4 sum;

			for (d = 0; d < dm; d += FA_W) {
				FA_VF qv = *(const FA_VF *)(qr + d);

#pragma GCC unroll 4
				for (t = 0; t < 4; t++) {
					FA_VF kv;

					__builtin_memcpy(&kv, kr[t] + d, sizeof(kv));
					a[t] += qv * kv;
				}
			}
			sum = FA_RED4(a[0], a[1], a[2], a[3]);
			for (t = 0; t < 4 && j + t < nk; t++) {
				float x = sum[t];

				for (d = dm; d < dk; d++)
					x += qr[d] * kr[t][d];
				s[r * FA_KEYS + j + t] = x;
			}
		}
	}
}

/*
 * acc row r += sum over the @nk keys j of p[r * FA_KEYS + j] * v row j,
 * for @rows rows (acc rows @as apart, 64-byte aligned; v rows @vs apart),
 * @dv columns: eight vectors of columns at a time stay in registers
 * while the keys stream past. Returns whether every value read was
 * finite, looked at as it goes by: x * 0 is 0 but for Inf and NaN, so a
 * sum of them stays 0 (one more FMA per vector, on a load-bound loop).
 */
FA_ATTR static bool FA_NAME(fa_axpy, FA_SFX)(const float *p, s64 rows,
					     const float *v, s64 vs, s64 dv,
					     s64 nk, float *acc, s64 as)
{
	const FA_VF zero = { 0 };
	s64 dm = dv & ~(s64)(FA_W - 1), d0, j, r, d;
	FA_VF chk = zero;
	bool ok = true;
	int t;

	for (r = 0; r < rows; r++) {
		const float *pr = p + r * FA_KEYS;
		float *ar = acc + r * as;

		for (d0 = 0; d0 + 8 * FA_W <= dm; d0 += 8 * FA_W) {
			FA_VF o[8];

#pragma GCC unroll 8
			for (t = 0; t < 8; t++)
				o[t] = *(FA_VF *)(ar + d0 + t * FA_W);
			for (j = 0; j < nk; j++) {
				const float *vr = v + j * vs + d0;
				float pj = pr[j];

#pragma GCC unroll 8
				for (t = 0; t < 8; t++) {
					FA_VF x;

					__builtin_memcpy(&x, vr + t * FA_W, sizeof(x));
					chk += x * 0.0f;
					o[t] += pj * x;
				}
			}
#pragma GCC unroll 8
			for (t = 0; t < 8; t++)
				*(FA_VF *)(ar + d0 + t * FA_W) = o[t];
		}
		for (; d0 < dm; d0 += FA_W) {
			FA_VF o = *(FA_VF *)(ar + d0);

			for (j = 0; j < nk; j++) {
				FA_VF x;

				__builtin_memcpy(&x, v + j * vs + d0, sizeof(x));
				chk += x * 0.0f;
				o += pr[j] * x;
			}
			*(FA_VF *)(ar + d0) = o;
		}
		for (d = dm; d < dv; d++) {
			float x = ar[d];

			for (j = 0; j < nk; j++) {
				float y = v[j * vs + d];

				ok &= y - y == 0.0f;
				x += pr[j] * y;
			}
			ar[d] = x;
		}
	}
	for (t = 0; t < FA_W; t++)
		ok &= chk[t] == 0.0f;
	return ok;
}

/*
 * Whether the @n floats of each of @rows rows of @x (@rs apart) are all
 * finite: exponent bits all set is Inf or NaN.
 */
FA_ATTR static bool FA_NAME(fa_finite, FA_SFX)(const float *x, s64 rs,
					       s64 rows, s64 n)
{
	const FA_VU zero = { 0 }, e = zero + 0x7f800000u;
	s64 nm = n & ~(s64)(FA_W - 1), r, i;
	FA_VU bad = zero;
	u32 u;

	for (r = 0; r < rows; r++) {
		const float *xr = x + r * rs;

		for (i = 0; i < nm; i += FA_W) {
			FA_VU v;

			__builtin_memcpy(&v, xr + i, sizeof(v));
			bad |= (FA_VU)((v & e) == e);
		}
		for (; i < n; i++) {
			__builtin_memcpy(&u, xr + i, sizeof(u));
			if ((u & 0x7f800000u) == 0x7f800000u)
				return false;
		}
	}
	for (i = 0; i < FA_W; i++)
		if (bad[i])
			return false;
	return true;
}

#undef FA_VF
#undef FA_VU
#undef FA_W
#undef FA_ATTR
#undef FA_RED4
#undef FA_SFX
#undef FA_NAME
#undef FA_NAME2
