// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the reduction, sorting and movement families in the wider
 * dtypes (INT16 .. UINT64, DOUBLE): UINT64 ordered as unsigned (values of
 * 2^63 and more are the largest), DOUBLE reduced in double, movement
 * copying every bit. Results are exact.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u64 big[6] = {
	5, 0x8000000000000000ULL, 7, ~0ULL, 0, 0x7fffffffffffffffULL,
};

TEST(reduce_uint64_unsigned_order)
{
	s64 n = 6, one = 1;
	struct ot_tensor x, o, ix;
	struct ot_tensor *ts[2] = { &x, &o }, *ta[2] = { &x, &ix };
	struct drm_vnpu_op_attrs all = { .ints = { 1, 0 } };

	ot_make(&x, DRM_VNPU_DTYPE_UINT64, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_UINT64, 0, &one);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 0, &one);
	memcpy(x.buf, big, sizeof(big));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &all, 0));
	EXPECT_EQ(~0ULL, ((u64 *)o.buf)[0]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MIN, ts, 1, 1, &all, 0));
	EXPECT_EQ(0, ((u64 *)o.buf)[0]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ARGMAX, ta, 1, 1, &all, 0));
	EXPECT_EQ(3, ((s64 *)ix.buf)[0]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ARGMIN, ta, 1, 1, &all, 0));
	EXPECT_EQ(4, ((s64 *)ix.buf)[0]);
	/* SUM wraps modulo 2^64; MEAN divides the (unwrapped) sum as unsigned */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &all, 0));
	EXPECT_EQ(5 + 0x8000000000000000ULL + 7 + ~0ULL + 0x7fffffffffffffffULL,
		  ((u64 *)o.buf)[0]);
	x.v.shape[0] = 2;
	((u64 *)x.buf)[0] = 0x8000000000000004ULL;
	((u64 *)x.buf)[1] = 2;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MEAN, ts, 1, 1, &all, 0));
	EXPECT_EQ(0x4000000000000003ULL, ((u64 *)o.buf)[0]);
	ot_free(&x);
	ot_free(&o);
	ot_free(&ix);
}

/* A sum fp32 could not hold: 1 + 2^-40 stays distinct from 1 in DOUBLE. */
TEST(reduce_double_in_double)
{
	s64 n = 3, one = 1;
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs all = { .ints = { 1, 0 } };
	double v[3] = { 1, 0x1p-40, -0x1p-41 };

	ot_make(&x, DRM_VNPU_DTYPE_DOUBLE, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_DOUBLE, 0, &one);
	memcpy(x.buf, v, sizeof(v));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &all, 0));
	EXPECT_EQ(1 + 0x1p-41, ((double *)o.buf)[0]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &all, 0));
	EXPECT_EQ(1.0, ((double *)o.buf)[0]);
	ot_free(&x);
	ot_free(&o);
}

TEST(sort_wider_dtypes)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_INT16, DRM_VNPU_DTYPE_UINT16, DRM_VNPU_DTYPE_UINT32,
		DRM_VNPU_DTYPE_UINT64, DRM_VNPU_DTYPE_DOUBLE,
	};
	static const double fv[6] = { 2.5, -1e300, NAN, -0.0, 1e-300, -3 };
	static const s64 iv[6] = { 300, -2, 0, 77, -32768, 1 };
	s64 n = 6;
	unsigned int d;

	for (d = 0; d < ARRAY_SIZE(dts); d++) {
		struct ot_tensor x, v, ix;
		struct ot_tensor *ts[3] = { &x, &v, &ix };
		u32 dt = dts[d];
		s64 i;

		ot_make(&x, dt, 1, &n);
		ot_make(&v, dt, 1, &n);
		ot_make(&ix, DRM_VNPU_DTYPE_INT64, 1, &n);
		for (i = 0; i < n; i++) {
			if (dt == DRM_VNPU_DTYPE_DOUBLE)
				((double *)x.buf)[i] = fv[i];
			else if (dt == DRM_VNPU_DTYPE_UINT64)
				((u64 *)x.buf)[i] = big[i];
			else
				vnpu_store_s64(x.buf, dt, i, iv[i]);
		}
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, NULL, 0));
		for (i = 1; i < n; i++) {
			s64 a = ((s64 *)ix.buf)[i - 1], b = ((s64 *)ix.buf)[i];

			if (dt == DRM_VNPU_DTYPE_DOUBLE) {	/* NaN last */
				EXPECT_TRUE(isnan(fv[b]) || fv[a] <= fv[b]);
			} else if (dt == DRM_VNPU_DTYPE_UINT64) {
				EXPECT_LE(big[a], big[b]);
			} else {
				EXPECT_LE(vnpu_load_s64(x.buf, dt, a),
					  vnpu_load_s64(x.buf, dt, b));
			}
			/* the values output follows the indices */
			EXPECT_EQ(0, memcmp((u8 *)v.buf + i * vnpu_dtype_size(dt),
					    (u8 *)x.buf + b * vnpu_dtype_size(dt),
					    vnpu_dtype_size(dt)));
		}
		ot_free(&x);
		ot_free(&v);
		ot_free(&ix);
	}
}

/* WHERE and a transposing STRIDED_COPY move DOUBLE and UINT64 bit for bit. */
TEST(movement_bit_exact)
{
	s64 s[2] = { 2, 3 }, t[2] = { 3, 2 };
	struct ot_tensor c, a, b, o, x, y;
	struct ot_tensor *tw[4] = { &c, &a, &b, &o }, *tc[2] = { &x, &y };
	s64 i, j;

	ot_make(&c, DRM_VNPU_DTYPE_BOOL, 2, s);
	ot_make(&a, DRM_VNPU_DTYPE_DOUBLE, 2, s);
	ot_make(&b, DRM_VNPU_DTYPE_DOUBLE, 2, s);
	ot_make(&o, DRM_VNPU_DTYPE_DOUBLE, 2, s);
	for (i = 0; i < 6; i++) {
		((u8 *)c.buf)[i] = i & 1;
		((double *)a.buf)[i] = 1.0 / 3 + i;
		((double *)b.buf)[i] = -0x1p-1074 * (double)i;
	}
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_WHERE, tw, 3, 1, NULL, 0));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0, memcmp(&((double *)o.buf)[i],
				    i & 1 ? &((double *)a.buf)[i] : &((double *)b.buf)[i], 8));
	ot_make(&x, DRM_VNPU_DTYPE_UINT64, 2, t);
	ot_make(&y, DRM_VNPU_DTYPE_UINT64, 2, s);
	memcpy(x.buf, big, sizeof(big));
	x.v.shape[0] = 2;	/* x^T: [2, 3] with strides (1, 2) */
	x.v.shape[1] = 3;
	x.v.strides[0] = 1;
	x.v.strides[1] = 2;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_STRIDED_COPY, tc, 1, 1, NULL, 0));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++)
			EXPECT_EQ(big[j * 2 + i], ((u64 *)y.buf)[i * 3 + j]);
	ot_free(&c);
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
	ot_free(&x);
	ot_free(&y);
}

TEST_HARNESS_MAIN
