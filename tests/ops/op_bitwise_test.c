// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of BITSHIFT, BITWISE_AND/OR/XOR/NOT against references
 * computed on the dtype's own C type, of ISINF, and of the unary family in
 * the dtypes it gained (DOUBLE in double, UINT64 unsigned). All exact.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 int_dtypes[] = {
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT16,
	DRM_VNPU_DTYPE_UINT16, DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_UINT32,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_UINT64,
};

static bool is_signed(u32 dt)
{
	return dt == DRM_VNPU_DTYPE_INT8 || dt == DRM_VNPU_DTYPE_INT16 ||
	       dt == DRM_VNPU_DTYPE_INT32 || dt == DRM_VNPU_DTYPE_INT64;
}

/* The value as the dtype's C type would hold it, widened to u64 bits. */
static u64 wrap(u32 dt, u64 v)
{
	u8 buf[8];

	vnpu_store_s64(buf, dt, 0, (s64)v);
	return (u64)vnpu_load_s64(buf, dt, 0);
}

static u64 shift_ref(u32 dt, u64 x, u64 s, bool right)
{
	u32 bits = 8 * vnpu_dtype_size(dt);

	if (!right)
		return s >= bits ? 0 : wrap(dt, x << s);
	if (s >= bits)
		return is_signed(dt) && (s64)x < 0 ? wrap(dt, ~0ULL) : 0;
	if (is_signed(dt))
		return wrap(dt, (u64)((s64)x >> s));
	return x >> s;
}

/* a [n], b broadcast along the rows of a [3, n] output, both directions. */
TEST(bitshift_all_int_dtypes)
{
	static const u64 vals[] = { 0, 1, 3, 0x7f, 0x80, 0xff, 0x8000, 0xffff,
				    0x80000000ULL, 0xffffffffULL,
				    0x8000000000000000ULL, ~0ULL, 0x123456789abcdefULL };
	const s64 n = ARRAY_SIZE(vals);
	static const u64 sh[3] = { 0, 3, 70 };
	unsigned int d, dir;

	for (d = 0; d < ARRAY_SIZE(int_dtypes); d++)
		for (dir = 0; dir < 2; dir++) {
			u32 dt = int_dtypes[d];
			s64 os[2] = { 3, n }, bs[2] = { 3, 1 }, i, r;
			struct ot_tensor a, b, o;
			struct ot_tensor *ts[3] = { &a, &b, &o };
			struct drm_vnpu_op_attrs at = { .ints = { dir } };
			int bad = 0;

			ot_make(&a, dt, 1, &n);
			ot_make(&b, dt, 2, bs);
			ot_make(&o, dt, 2, os);
			for (i = 0; i < n; i++)
				vnpu_store_s64(a.buf, dt, i, (s64)vals[i]);
			for (r = 0; r < 3; r++)
				vnpu_store_s64(b.buf, dt, r, (s64)sh[r]);
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_BITSHIFT, ts, 2, 1, &at, 0));
			for (r = 0; r < 3; r++)
				for (i = 0; i < n; i++) {
					u64 x = wrap(dt, vals[i]);
					u64 s = (u64)vnpu_load_s64(b.buf, dt, r);
					u64 got = (u64)vnpu_load_s64(o.buf, dt, r * n + i);

					if (!is_signed(dt) && dt != DRM_VNPU_DTYPE_UINT64)
						s &= (1ULL << (8 * vnpu_dtype_size(dt))) - 1;
					if (got != shift_ref(dt, x, s, dir) && bad++ < 3)
						TH_LOG("dt %u dir %u x %llx s %llu got %llx", dt, dir,
						       (unsigned long long)x, (unsigned long long)s,
						       (unsigned long long)got);
				}
			EXPECT_EQ(0, bad);
			ot_free(&a);
			ot_free(&b);
			ot_free(&o);
		}
}

TEST(and_or_xor_not_ints_and_bool)
{
	static const u32 ops[] = {
		DRM_VNPU_OP_BITWISE_AND, DRM_VNPU_OP_BITWISE_OR,
		DRM_VNPU_OP_BITWISE_XOR, DRM_VNPU_OP_BITWISE_NOT,
	};
	const s64 n = 300;
	unsigned int d, k;

	for (d = 0; d <= ARRAY_SIZE(int_dtypes); d++)
		for (k = 0; k < ARRAY_SIZE(ops); k++) {
			u32 dt = d < ARRAY_SIZE(int_dtypes) ? int_dtypes[d] :
				 DRM_VNPU_DTYPE_BOOL;
			u32 nin = ops[k] == DRM_VNPU_OP_BITWISE_NOT ? 1 : 2;
			struct ot_tensor a, b, o;
			struct ot_tensor *ts[3] = { &a, &b, &o };
			int bad = 0;
			s64 i;

			ot_make(&a, dt, 1, &n);
			ot_make(&b, dt, 1, &n);
			ot_make(&o, dt, 1, &n);
			ot_fill(&a, d * 7 + k, -1e9, 1e9);
			ot_fill(&b, d * 7 + k + 1, -1e9, 1e9);
			if (nin == 1)
				ts[1] = &o;
			ASSERT_EQ(0, ot_run(ops[k], ts, nin, 1, NULL, 0));
			for (i = 0; i < n; i++) {
				u64 x = (u64)vnpu_load_s64(a.buf, dt, i);
				u64 y = (u64)vnpu_load_s64(b.buf, dt, i), w;

				switch (ops[k]) {
				case DRM_VNPU_OP_BITWISE_AND:
					w = x & y;
					break;
				case DRM_VNPU_OP_BITWISE_OR:
					w = x | y;
					break;
				case DRM_VNPU_OP_BITWISE_XOR:
					w = x ^ y;
					break;
				default:
					w = dt == DRM_VNPU_DTYPE_BOOL ? !x : ~x;
					break;
				}
				bad += (u64)vnpu_load_s64(o.buf, dt, i) != wrap(dt, w);
			}
			EXPECT_EQ(0, bad);
			ot_free(&a);
			ot_free(&b);
			ot_free(&o);
		}
}

TEST(isinf_masks_and_dtypes)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
		DRM_VNPU_DTYPE_DOUBLE,
	};
	static const double v[6] = { INFINITY, -INFINITY, NAN, 0, -1e30, 65504 };
	const s64 n = 6;
	unsigned int d, m;

	for (d = 0; d < ARRAY_SIZE(dts); d++)
		for (m = 0; m < 4; m++) {
			struct ot_tensor x, o;
			struct ot_tensor *ts[2] = { &x, &o };
			struct drm_vnpu_op_attrs at = { .ints = { m } };
			s64 i;

			ot_make(&x, dts[d], 1, &n);
			ot_make(&o, DRM_VNPU_DTYPE_BOOL, 1, &n);
			for (i = 0; i < n; i++)
				vnpu_store_f64(x.buf, dts[d], i, v[i]);
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ISINF, ts, 1, 1,
					    m == 3 ? NULL : &at, 0));
			EXPECT_EQ(!!(m & 1), ((u8 *)o.buf)[0]);
			EXPECT_EQ(!!(m & 2), ((u8 *)o.buf)[1]);
			for (i = 2; i < n; i++)	/* NaN, finite (fp16: -1e30 is -Inf) */
				EXPECT_EQ(dts[d] == DRM_VNPU_DTYPE_FLOAT16 && i == 4 ?
					  !!(m & 2) : 0, ((u8 *)o.buf)[i]);
			ot_free(&x);
			ot_free(&o);
		}
}

/* DOUBLE computes in double; UINT64 stays unsigned. */
TEST(unary_double_and_uint64)
{
	const s64 n = 3;
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	double dv[3] = { 2, 1e-300, 0.1 };
	u64 uv[3] = { 0x8000000000000001ULL, 0, 5 };
	struct drm_vnpu_op_attrs clamp = { .ints = { 2 } };
	float hi = 7;

	ot_make(&x, DRM_VNPU_DTYPE_DOUBLE, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_DOUBLE, 1, &n);
	memcpy(x.buf, dv, sizeof(dv));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SQRT, ts, 1, 1, NULL, 0));
	EXPECT_EQ(sqrt(2.0), ((double *)o.buf)[0]);
	EXPECT_EQ(sqrt(1e-300), ((double *)o.buf)[1]);	/* not 0 as in fp32 */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RECIPROCAL, ts, 1, 1, NULL, 0));
	EXPECT_EQ(1 / 0.1, ((double *)o.buf)[2]);
	ot_free(&x);
	ot_free(&o);
	ot_make(&x, DRM_VNPU_DTYPE_UINT64, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_UINT64, 1, &n);
	memcpy(x.buf, uv, sizeof(uv));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ABS, ts, 1, 1, NULL, 0));
	EXPECT_EQ(uv[0], ((u64 *)o.buf)[0]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SIGN, ts, 1, 1, NULL, 0));
	EXPECT_EQ(1, ((u64 *)o.buf)[0]);
	EXPECT_EQ(0, ((u64 *)o.buf)[1]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RELU, ts, 1, 1, NULL, 0));
	EXPECT_EQ(uv[0], ((u64 *)o.buf)[0]);
	memcpy(&clamp.floats[1], &hi, 4);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CLAMP, ts, 1, 1, &clamp, 0));
	EXPECT_EQ(7, ((u64 *)o.buf)[0]);
	EXPECT_EQ(5, ((u64 *)o.buf)[2]);
	/* transcendental ops still refuse integers */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST(rejects)
{
	s64 s4 = 4, s5 = 5;
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	struct drm_vnpu_op_attrs dir2 = { .ints = { 2 } };

	ot_make(&a, DRM_VNPU_DTYPE_UINT8, 1, &s4);
	ot_make(&b, DRM_VNPU_DTYPE_UINT8, 1, &s4);
	ot_make(&o, DRM_VNPU_DTYPE_UINT8, 1, &s4);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_BITSHIFT, ts, 2, 1, NULL, 0));
	/* a direction other than 0 / 1 */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITSHIFT, ts, 2, 1, &dir2, 0));
	/* wrong counts */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITWISE_AND, ts, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITWISE_NOT, ts, 2, 1, NULL, 0));
	/* mixed dtypes */
	b.v.dtype = DRM_VNPU_DTYPE_INT8;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITWISE_OR, ts, 2, 1, NULL, 0));
	/* floats never; BOOL not for shifts */
	a.v.dtype = b.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITWISE_XOR, ts, 2, 1, NULL, 0));
	a.v.dtype = b.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITSHIFT, ts, 2, 1, NULL, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_BITWISE_XOR, ts, 2, 1, NULL, 0));
	/* not broadcastable */
	b.v.shape[0] = 5;
	ot_free(&b);
	ot_make(&b, DRM_VNPU_DTYPE_BOOL, 1, &s5);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BITWISE_XOR, ts, 2, 1, NULL, 0));
	/* ISINF writes BOOL only */
	a.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ISINF, ts, 1, 1, NULL, 0));
	ts[1] = &o;
	o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_ISINF, ts, 1, 1, NULL, 0));
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
}

TEST_HARNESS_MAIN
