// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of ADD: the first operator through the library's tile driver;
 * broadcasting, strides and dtypes.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static void check_add(struct __test_metadata *_metadata, u32 dtype,
		      u32 rank, const s64 *a_shape, const s64 *b_shape,
		      const s64 *o_shape)
{
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };
	u64 n, i;
	u32 d;

	ot_make(&a, dtype, rank, a_shape);
	ot_make(&b, dtype, rank, b_shape);
	ot_make(&o, dtype, rank, o_shape);
	ot_fill(&a, 1, -100, 100);
	ot_fill(&b, 2, -100, 100);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, vnpu_ops_host_cpu()));
	n = vnpu_tview_elems(&o.v);
	for (i = 0; i < n; i++) {
		s64 ia[VNPU_OPS_MAX_RANK], ib[VNPU_OPS_MAX_RANK];
		double want;

		for (d = 0; d < rank; d++) {
			ia[d] = a_shape[d] == 1 ? 0 : idx[d];
			ib[d] = b_shape[d] == 1 ? 0 : idx[d];
		}
		want = ot_get(&a, ia) + ot_get(&b, ib);
		if (!vnpu_dtype_is_float(dtype)) {
			/* Wrap to the dtype as C does. */
			struct ot_tensor tmp;
			s64 one = 1;

			ot_make(&tmp, dtype, 1, &one);
			vnpu_store_s64(tmp.buf, dtype, 0, (s64)want);
			want = vnpu_load_f64(tmp.buf, dtype, 0);
			ot_free(&tmp);
		}
		ASSERT_TRUE(ot_close(ot_get(&o, idx), want,
				     ot_tolerance(dtype), 0))
			TH_LOG("dtype %u element %llu: got %g want %g", dtype,
			       (unsigned long long)i, ot_get(&o, idx), want);
		for (d = rank; d-- > 0;) {
			if (++idx[d] < o_shape[d])
				break;
			idx[d] = 0;
		}
	}
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
}

TEST(add_same_shape_all_dtypes)
{
	static const u32 dtypes[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
		DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
		DRM_VNPU_DTYPE_INT64,
	};
	s64 shape[2] = { 37, 129 };
	unsigned int i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		check_add(_metadata, dtypes[i], 2, shape, shape, shape);
}

TEST(add_broadcast)
{
	s64 a[3] = { 4, 1, 5 }, b[3] = { 1, 3, 5 }, o[3] = { 4, 3, 5 };

	check_add(_metadata, DRM_VNPU_DTYPE_FLOAT, 3, a, b, o);
}

TEST(add_large_spans_tiles)
{
	s64 shape[1] = { 3 * VNPU_OPS_TILE_ELEMS + 17 };

	check_add(_metadata, DRM_VNPU_DTYPE_FLOAT, 1, shape, shape, shape);
}

TEST(add_rejects_mismatch)
{
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	s64 s1[1] = { 4 }, s2[1] = { 5 };

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 1, s1);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, s2);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, s1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	b.v.dtype = DRM_VNPU_DTYPE_INT32;
	b.v.shape[0] = 4;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
}

TEST_HARNESS_MAIN
