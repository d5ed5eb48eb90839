// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of RESIZE: PyTorch's own outputs for small cases, a C
 * reference of interpolate() for random ones (up, down, non-integer
 * scales, size 1, non-contiguous views, every dtype), check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static u64 off4(const struct ot_tensor *t, s64 n, s64 c, s64 h, s64 w)
{
	return n * t->v.strides[0] + c * t->v.strides[1] + h * t->v.strides[2] +
	       w * t->v.strides[3];
}

static double at4(const struct ot_tensor *t, s64 n, s64 c, s64 h, s64 w)
{
	return vnpu_load_f64(t->v.data, t->v.dtype, off4(t, n, c, h, w));
}

static struct drm_vnpu_op_attrs *mode_attrs(struct drm_vnpu_op_attrs *a,
					    s64 mode, s64 align)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = mode;
	a->ints[1] = align;
	return a;
}

/* PyTorch's nearest_idx(). */
static s64 ref_nearest(s64 dst, s64 in, s64 out)
{
	float scale = (float)in / (float)out;
	s64 s;

	if (in == out)
		return dst;
	if (out == 2 * in)
		return dst / 2;
	s = (s64)floorf((float)dst * scale);
	return s < in - 1 ? s : in - 1;
}

/* PyTorch's area_pixel_compute_source_index() and neighbours. */
static void ref_linear(s64 dst, s64 in, s64 out, int align, s64 *i0,
		       s64 *i1, double *l1)
{
	float src;

	if (align) {
		float scale = out > 1 ? (float)(in - 1) / (float)(out - 1) : 0;

		src = scale * dst;
	} else {
		float scale = (float)in / (float)out;

		src = scale * (dst + 0.5f) - 0.5f;
		if (src < 0)
			src = 0;
	}
	*i0 = (s64)src;
	*i1 = *i0 + (*i0 < in - 1);
	*l1 = src - *i0;
}

static void resize_case(struct __test_metadata *_metadata, u32 dtype,
			const s64 *xs, s64 oh, s64 ow, int mode, int align,
			bool perm)
{
	s64 os[4] = { xs[0], xs[1], oh, ow }, ps[4] = { xs[0], xs[2], xs[3], xs[1] };
	struct ot_tensor x, o, one;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs a;
	s64 n, c, h, w, s1 = 1;

	if (perm) {
		/* NHWC storage seen as NCHW */
		ot_make(&x, dtype, 4, ps);
		x.v.shape[1] = xs[1];
		x.v.shape[2] = xs[2];
		x.v.shape[3] = xs[3];
		x.v.strides[1] = 1;
		x.v.strides[2] = xs[3] * xs[1];
		x.v.strides[3] = xs[1];
	} else {
		ot_make(&x, dtype, 4, xs);
	}
	ot_fill(&x, 71 + oh, -100, 100);
	ot_make(&o, dtype, 4, os);
	ot_make(&one, dtype, 1, &s1);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1,
			    mode_attrs(&a, mode, align), 0));
	for (n = 0; n < os[0]; n++)
		for (c = 0; c < os[1]; c++)
			for (h = 0; h < oh; h++)
				for (w = 0; w < ow; w++) {
					double want, got = at4(&o, n, c, h, w);

					if (!mode) {
						want = at4(&x, n, c,
							   ref_nearest(h, xs[2], oh),
							   ref_nearest(w, xs[3], ow));
					} else {
						s64 h0, h1, w0, w1;
						double lh, lw;

						ref_linear(h, xs[2], oh, align, &h0, &h1, &lh);
						ref_linear(w, xs[3], ow, align, &w0, &w1, &lw);
						want = (1 - lh) * ((1 - lw) * at4(&x, n, c, h0, w0) +
								   lw * at4(&x, n, c, h0, w1)) +
						       lh * ((1 - lw) * at4(&x, n, c, h1, w0) +
							     lw * at4(&x, n, c, h1, w1));
						if (!vnpu_dtype_is_float(dtype))
							want = want < 0 ? ceil(want - 0.5) :
							       floor(want + 0.5);
						/* round to the dtype as the op stores */
						vnpu_store_f64(one.buf, dtype, 0, want);
						want = vnpu_load_f64(one.buf, dtype, 0);
					}
					ASSERT_TRUE(ot_close(got, want,
							     ot_tolerance(dtype),
							     vnpu_dtype_is_float(dtype) ?
							     1e-4 : 1))
						TH_LOG("dtype %u mode %d align %d at %lld %lld %lld %lld: got %g want %g",
						       dtype, mode, align, (long long)n,
						       (long long)c, (long long)h,
						       (long long)w, got, want);
				}
	ot_free(&x);
	ot_free(&o);
	ot_free(&one);
}

TEST(resize_matches_pytorch_2x2)
{
	static const float up_half[16] = {
		1.00f, 1.25f, 1.75f, 2.00f, 1.50f, 1.75f, 2.25f, 2.50f,
		2.50f, 2.75f, 3.25f, 3.50f, 3.00f, 3.25f, 3.75f, 4.00f,
	};
	static const float up_align[16] = {
		1.0f, 4.0f / 3, 5.0f / 3, 2.0f, 5.0f / 3, 2.0f, 7.0f / 3, 8.0f / 3,
		7.0f / 3, 8.0f / 3, 3.0f, 10.0f / 3, 3.0f, 10.0f / 3, 11.0f / 3, 4.0f,
	};
	static const float near3[9] = { 1, 1, 2, 1, 1, 2, 3, 3, 4 };
	s64 xs[4] = { 1, 1, 2, 2 }, o4[4] = { 1, 1, 4, 4 }, o3[4] = { 1, 1, 3, 3 };
	struct ot_tensor x, o, o9;
	struct ot_tensor *ts[2] = { &x, &o }, *ts9[2] = { &x, &o9 };
	struct drm_vnpu_op_attrs a;
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	for (i = 0; i < 4; i++)
		((float *)x.buf)[i] = i + 1;
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, o4);
	ot_make(&o9, DRM_VNPU_DTYPE_FLOAT, 4, o3);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, mode_attrs(&a, 1, 0), 0));
	for (i = 0; i < 16; i++)
		EXPECT_TRUE(fabsf(((float *)o.buf)[i] - up_half[i]) < 1e-6f);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, mode_attrs(&a, 1, 1), 0));
	for (i = 0; i < 16; i++)
		EXPECT_TRUE(fabsf(((float *)o.buf)[i] - up_align[i]) < 1e-6f);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE, ts9, 1, 1, NULL, 0));
	for (i = 0; i < 9; i++)
		EXPECT_EQ(near3[i], ((float *)o9.buf)[i]);
	ot_free(&x);
	ot_free(&o);
	ot_free(&o9);
}

TEST(resize_nearest_all_dtypes)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
		DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
		DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL,
	};
	s64 xs[4] = { 2, 3, 5, 7 };
	unsigned int i;

	for (i = 0; i < sizeof(dts) / sizeof(dts[0]); i++) {
		resize_case(_metadata, dts[i], xs, 10, 14, 0, 0, false);
		resize_case(_metadata, dts[i], xs, 3, 4, 0, 0, true);
		resize_case(_metadata, dts[i], xs, 7, 9, 0, 0, false);
		resize_case(_metadata, dts[i], xs, 1, 1, 0, 0, true);
	}
}

TEST(resize_bilinear)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
		DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
		DRM_VNPU_DTYPE_INT64,
	};
	s64 xs[4] = { 2, 3, 5, 7 }, one[4] = { 1, 2, 1, 1 };
	unsigned int i;
	int align;

	for (i = 0; i < sizeof(dts) / sizeof(dts[0]); i++)
		for (align = 0; align < 2; align++) {
			resize_case(_metadata, dts[i], xs, 11, 16, 1, align, false);
			resize_case(_metadata, dts[i], xs, 3, 4, 1, align, true);
			resize_case(_metadata, dts[i], xs, 1, 1, 1, align, false);
			resize_case(_metadata, dts[i], xs, 5, 7, 1, align, true);
			resize_case(_metadata, dts[i], one, 4, 3, 1, align, false);
		}
}

TEST(resize_large_and_empty)
{
	s64 xs[4] = { 1, 2, 100, 300 }, e[4] = { 0, 3, 4, 4 };

	resize_case(_metadata, DRM_VNPU_DTYPE_FLOAT, xs, 250, 700, 1, 0, false);
	resize_case(_metadata, DRM_VNPU_DTYPE_FLOAT, xs, 250, 700, 0, 0, true);
	resize_case(_metadata, DRM_VNPU_DTYPE_FLOAT, e, 8, 2, 1, 0, false);
	resize_case(_metadata, DRM_VNPU_DTYPE_FLOAT, xs, 0, 5, 1, 0, false);
}

TEST(resize_rejects)
{
	s64 xs[4] = { 1, 2, 3, 4 }, os[4] = { 1, 2, 6, 8 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs a;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, os);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, mode_attrs(&a, 1, 1), 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, mode_attrs(&a, 2, 0), 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, mode_attrs(&a, 1, 2), 0));
	o.v.shape[1] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, NULL, 0));
	o.v.shape[1] = 2;
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, NULL, 0));
	o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	x.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, mode_attrs(&a, 1, 0), 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	x.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	x.v.shape[2] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, NULL, 0));
	x.v.shape[2] = 3;
	x.v.rank = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RESIZE, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST_HARNESS_MAIN
