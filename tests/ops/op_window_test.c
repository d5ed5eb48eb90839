// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the N-d window and resampling operators against naive
 * references written here: POOL_ND (3-D max with asymmetric pads,
 * dilation, ceil mode and indices; average with count_include_pad and a
 * divisor override; 1-D), CONV_ND (3-D, groups, dilation, bias,
 * non-contiguous input; INT8/UINT8 with zero points), CONV_TRANSPOSE_ND
 * (scatter reference), RESIZE_ND (values worked out by hand from ONNX's
 * formulas), the quantization operators, MATMUL_INT / QLINEAR_MATMUL
 * (ONNX's own example), MAX_UNPOOL, GRID_SAMPLE and ROI_ALIGN; check()
 * rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static s64 off_of(const struct ot_tensor *t, const s64 *idx)
{
	s64 o = 0;
	u32 d;

	for (d = 0; d < t->v.rank; d++)
		o += idx[d] * t->v.strides[d];
	return o;
}

/* Advance a multi-index over @shape; false after the last. */
static bool next_idx(s64 *idx, const s64 *shape, u32 rank)
{
	u32 d;

	for (d = rank; d-- > 0;) {
		if (++idx[d] < shape[d])
			return true;
		idx[d] = 0;
	}
	return false;
}

static void pool_attrs(struct drm_vnpu_op_attrs *a, s64 mode, const s64 *k,
		       const s64 *s, const s64 *pb, const s64 *pe, const s64 *dl,
		       u32 sp)
{
	u32 i;

	memset(a, 0, sizeof(*a));
	a->ints[0] = mode;
	for (i = 0; i < sp; i++) {
		a->ints[4 + i] = k[i];
		a->ints[7 + i] = s[i];
		a->ints[10 + i] = pb[i];
		a->ints[13 + i] = pe[i];
		a->ints[16 + i] = dl[i];
	}
}

TEST(pool3d_max_indices_and_avg)
{
	static const s64 xs[5] = { 2, 3, 5, 6, 7 };
	static const s64 k[3] = { 2, 3, 2 }, s[3] = { 2, 2, 3 };
	static const s64 pb[3] = { 0, 0, 1 }, pe[3] = { 0, 2, 1 };
	static const s64 dl[3] = { 1, 2, 1 };
	struct ot_tensor x, o, ix, oa, *ts[3];
	struct drm_vnpu_op_attrs at;
	s64 os[5] = { 2, 3, 0, 0, 0 }, idx[5] = { 0 };
	int bad = 0, d;
	float first;

	/* ceil mode on the first dim: one more window than floor */
	for (d = 0; d < 3; d++) {
		s64 num = xs[d + 2] + pb[d] + pe[d] - dl[d] * (k[d] - 1) - 1;

		os[d + 2] = num / s[d] + 1 + (d == 0 && num % s[d] ? 1 : 0);
	}
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 5, xs);
	ot_fill(&x, 7, -4, 4);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 5, os);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 5, os);
	ot_make(&oa, DRM_VNPU_DTYPE_FLOAT, 5, os);
	pool_attrs(&at, 0, k, s, pb, pe, dl, 3);
	ts[0] = &x;
	ts[1] = &o;
	ts[2] = &ix;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 2, &at, 0));
	at.ints[0] = 1;
	at.ints[1] = 1;		/* count_include_pad */
	ts[1] = &oa;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	do {
		double best = -1e300, sum = 0;
		s64 best_at = -1, padded = 1, t[3];

		for (d = 0; d < 3; d++) {
			s64 a = idx[d + 2] * s[d] - pb[d], q, n = 0;

			for (q = 0; q < k[d]; q++)
				if (a + q * dl[d] < xs[d + 2] + pe[d])
					n++;
			padded *= n;
		}
		for (t[0] = 0; t[0] < k[0]; t[0]++)
			for (t[1] = 0; t[1] < k[1]; t[1]++)
				for (t[2] = 0; t[2] < k[2]; t[2]++) {
					s64 p[5] = { idx[0], idx[1] }, flat;
					bool in = true;

					for (d = 0; d < 3; d++) {
						p[d + 2] = idx[d + 2] * s[d] - pb[d] +
							   t[d] * dl[d];
						in &= p[d + 2] >= 0 && p[d + 2] < xs[d + 2];
					}
					if (!in)
						continue;
					flat = (((p[0] * 3 + p[1]) * 5 + p[2]) * 6 + p[3]) *
					       7 + p[4];
					sum += ot_get(&x, p);
					if (ot_get(&x, p) > best) {
						best = ot_get(&x, p);
						best_at = flat;
					}
				}
		bad += ot_get(&o, idx) != (float)best;
		bad += vnpu_load_s64(ix.v.data, DRM_VNPU_DTYPE_INT64,
				     off_of(&ix, idx)) != best_at;
		bad += !ot_close(ot_get(&oa, idx), sum / (double)padded, 1e-6, 1e-6);
	} while (next_idx(idx, os, 5));
	EXPECT_EQ(0, bad);
	/* a divisor override replaces the count (12 taps in window 0) */
	first = ((float *)oa.buf)[0];
	at.ints[2] = 5;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	EXPECT_TRUE(ot_close(((float *)oa.buf)[0], first * 12 / 5, 1e-6, 1e-6));
	/* an output size beyond the ceil count is refused */
	o.v.shape[2] += 1;
	ts[1] = &o;
	at.ints[0] = 0;
	at.ints[2] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	o.v.shape[2] -= 1;
	/* indices must be INT64 or INT32, and only for max */
	ix.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 2, &at, 0));
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	at.ints[0] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 2, &at, 0));
	at.ints[0] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	at.ints[0] = 0;
	at.ints[7] = 0;		/* stride 0 */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	at.ints[7] = 2;
	at.ints[10] = -1;	/* negative pad */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
	ot_free(&ix);
	ot_free(&oa);
}

TEST(pool1d_uint8_max_and_avg_excluding_pads)
{
	static const s64 xs[3] = { 1, 1, 5 }, os[3] = { 1, 1, 3 };
	static const u8 xv[5] = { 3, 250, 7, 9, 1 };
	static const s64 k = 3, s = 2, pb = 1, pe = 1, dl = 1;
	struct ot_tensor x, o, *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;

	ot_make(&x, DRM_VNPU_DTYPE_UINT8, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_UINT8, 3, os);
	memcpy(x.buf, xv, sizeof(xv));
	pool_attrs(&at, 0, &k, &s, &pb, &pe, &dl, 1);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	EXPECT_EQ(250, ((u8 *)o.buf)[0]);
	EXPECT_EQ(250, ((u8 *)o.buf)[1]);
	EXPECT_EQ(9, ((u8 *)o.buf)[2]);
	ot_free(&x);
	ot_free(&o);
	/* average without the pads: (3 + 250) / 2 at the left edge */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	((float *)x.buf)[0] = 3;
	((float *)x.buf)[1] = 250;
	((float *)x.buf)[4] = 1;
	at.ints[0] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, ts, 1, 1, &at, 0));
	EXPECT_EQ(126.5f, ((float *)o.buf)[0]);
	EXPECT_EQ(0.5f, ((float *)o.buf)[2]);
	ot_free(&x);
	ot_free(&o);
}

TEST(pool_indices_within_the_plane_int32)
{
	static const s64 xs2[3] = { 1, 2, 5 }, os2[3] = { 1, 2, 3 };
	static const u8 xv[5] = { 3, 250, 7, 9, 1 };
	static const s64 k = 3, s = 2, pb = 1, pe = 1, dl = 1;
	struct ot_tensor x2, o2, i2, *t3[3] = { &x2, &o2, &i2 };
	struct drm_vnpu_op_attrs at;

	pool_attrs(&at, 0, &k, &s, &pb, &pe, &dl, 1);
	ot_make(&x2, DRM_VNPU_DTYPE_UINT8, 3, xs2);
	memcpy(x2.buf, xv, sizeof(xv));
	memcpy((u8 *)x2.buf + 5, xv, sizeof(xv));
	ot_make(&o2, DRM_VNPU_DTYPE_UINT8, 3, os2);
	ot_make(&i2, DRM_VNPU_DTYPE_INT32, 3, os2);
	at.ints[19] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, t3, 1, 2, &at, 0));
	EXPECT_EQ(1, ((s32 *)i2.buf)[0]);
	EXPECT_EQ(3, ((s32 *)i2.buf)[2]);
	EXPECT_EQ(1, ((s32 *)i2.buf)[3]);	/* channel 1 counts from 0 */
	at.ints[19] = 0;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POOL_ND, t3, 1, 2, &at, 0));
	EXPECT_EQ(6, ((s32 *)i2.buf)[3]);	/* flat in x */
	at.ints[19] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_POOL_ND, t3, 1, 2, &at, 0));
	ot_free(&x2);
	ot_free(&o2);
	ot_free(&i2);
}

/* Naive CONV_ND / CONV_TRANSPOSE_ND over 3 spatial dims. */
TEST(conv3d_groups_dilation_bias_strided)
{
	static const s64 xs[5] = { 2, 4, 4, 5, 6 }, ws[5] = { 6, 2, 2, 3, 2 };
	static const s64 s[3] = { 1, 2, 2 }, dl[3] = { 2, 1, 1 };
	static const s64 pb[3] = { 1, 0, 1 }, pe[3] = { 0, 2, 0 };
	struct ot_tensor xf, x, w, b, o, *ts[4];
	struct drm_vnpu_op_attrs at = { 0 };
	s64 os[5] = { 2, 6 }, idx[5] = { 0 }, big[5];
	int bad = 0, d;

	for (d = 0; d < 3; d++)
		os[d + 2] = (xs[d + 2] + pb[d] + pe[d] - dl[d] * (ws[d + 2] - 1) - 1) /
			    s[d] + 1;
	/* x as every other element of a larger tensor: not contiguous */
	for (d = 0; d < 5; d++)
		big[d] = xs[d] * (d == 4 ? 2 : 1);
	ot_make(&xf, DRM_VNPU_DTYPE_FLOAT, 5, big);
	ot_fill(&xf, 3, -1, 1);
	x = xf;
	x.v.shape[4] = xs[4];
	x.v.strides[4] = 2;
	ot_make(&w, DRM_VNPU_DTYPE_FLOAT, 5, ws);
	ot_fill(&w, 5, -1, 1);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &ws[0]);
	ot_fill(&b, 9, -1, 1);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 5, os);
	for (d = 0; d < 3; d++) {
		at.ints[d] = s[d];
		at.ints[3 + d] = dl[d];
		at.ints[6 + d] = pb[d];
		at.ints[9 + d] = pe[d];
	}
	at.ints[13] = 2;
	ts[0] = &x;
	ts[1] = &w;
	ts[2] = &b;
	ts[3] = &o;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CONV_ND, ts, 3, 1, &at, 0));
	do {
		s64 oc = idx[1], g = oc / 3, ic, t[3];
		double want = ((float *)b.buf)[oc];

		for (ic = 0; ic < 2; ic++)
			for (t[0] = 0; t[0] < ws[2]; t[0]++)
				for (t[1] = 0; t[1] < ws[3]; t[1]++)
					for (t[2] = 0; t[2] < ws[4]; t[2]++) {
						s64 p[5] = { idx[0], g * 2 + ic };
						s64 wi[5] = { oc, ic, t[0], t[1], t[2] };
						bool in = true;

						for (d = 0; d < 3; d++) {
							p[d + 2] = idx[d + 2] * s[d] - pb[d] +
								   t[d] * dl[d];
							in &= p[d + 2] >= 0 &&
							      p[d + 2] < xs[d + 2];
						}
						if (in)
							want += ot_get(&x, p) * ot_get(&w, wi);
					}
		bad += !ot_close(ot_get(&o, idx), want, 1e-5, 1e-5);
	} while (next_idx(idx, os, 5));
	EXPECT_EQ(0, bad);
	/* wrong output size, groups that do not divide, bias of another size */
	o.v.shape[3]++;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 3, 1, &at, 0));
	o.v.shape[3]--;
	at.ints[13] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 3, 1, &at, 0));
	at.ints[13] = 2;
	b.v.shape[0] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 3, 1, &at, 0));
	b.v.shape[0] = 6;
	at.ints[DRM_VNPU_ATTR_ACT] = 99;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 3, 1, &at, 0));
	ot_free(&xf);
	ot_free(&w);
	ot_free(&b);
	ot_free(&o);
}

TEST(conv_transpose1d_scatter)
{
	static const s64 xs[3] = { 1, 2, 4 }, ws[3] = { 2, 3, 3 };
	static const s64 st = 2, dl = 2, pb = 1;
	s64 os[3] = { 1, 3, 9 };
	struct ot_tensor x, w, o, *ts[3] = { &x, &w, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	double want[3][9] = { { 0 } };
	s64 ic, i, oc, t;
	int bad = 0;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_fill(&x, 11, -2, 2);
	ot_make(&w, DRM_VNPU_DTYPE_FLOAT, 3, ws);
	ot_fill(&w, 13, -2, 2);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	at.ints[0] = st;
	at.ints[3] = dl;
	at.ints[6] = pb;
	at.ints[13] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CONV_TRANSPOSE_ND, ts, 2, 1, &at, 0));
	/* every input element spreads over the output through the kernel */
	for (ic = 0; ic < 2; ic++)
		for (i = 0; i < 4; i++)
			for (oc = 0; oc < 3; oc++)
				for (t = 0; t < 3; t++) {
					s64 p = i * st - pb + t * dl;

					if (p >= 0 && p < 9)
						want[oc][p] += ((float *)x.buf)[ic * 4 + i] *
							((float *)w.buf)[(ic * 3 + oc) * 3 + t];
				}
	for (oc = 0; oc < 3; oc++)
		for (i = 0; i < 9; i++)
			bad += !ot_close(((float *)o.buf)[oc * 9 + i], want[oc][i],
					 1e-6, 1e-6);
	EXPECT_EQ(0, bad);
	ot_free(&x);
	ot_free(&w);
	ot_free(&o);
}

TEST(conv_integer_zero_points)
{
	static const s64 xs[4] = { 1, 1, 3, 3 }, ws[4] = { 2, 1, 2, 2 };
	static const s64 os[4] = { 1, 2, 2, 2 }, one = 1, two = 2;
	static const u8 xv[9] = { 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const s8 wv[8] = { 1, -1, 2, 0, -3, 4, 5, 127 };
	struct ot_tensor x, w, xz, wz, o, *ts[5] = { &x, &w, &xz, &wz, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 oc, y, xx;
	int bad = 0;

	ot_make(&x, DRM_VNPU_DTYPE_UINT8, 4, xs);
	memcpy(x.buf, xv, sizeof(xv));
	ot_make(&w, DRM_VNPU_DTYPE_INT8, 4, ws);
	memcpy(w.buf, wv, sizeof(wv));
	ot_make(&xz, DRM_VNPU_DTYPE_UINT8, 1, &one);
	((u8 *)xz.buf)[0] = 1;
	ot_make(&wz, DRM_VNPU_DTYPE_INT8, 1, &two);	/* per output channel */
	((s8 *)wz.buf)[0] = 0;
	((s8 *)wz.buf)[1] = -2;
	ot_make(&o, DRM_VNPU_DTYPE_INT32, 4, os);
	at.ints[0] = at.ints[1] = 1;
	at.ints[3] = at.ints[4] = 1;
	at.ints[13] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CONV_ND, ts, 4, 1, &at, 0));
	for (oc = 0; oc < 2; oc++)
		for (y = 0; y < 2; y++)
			for (xx = 0; xx < 2; xx++) {
				s64 want = 0, ky, kx;

				for (ky = 0; ky < 2; ky++)
					for (kx = 0; kx < 2; kx++)
						want += (xv[(y + ky) * 3 + xx + kx] - 1) *
							(wv[oc * 4 + ky * 2 + kx] -
							 ((s8 *)wz.buf)[oc]);
				bad += ((s32 *)o.buf)[oc * 4 + y * 2 + xx] != want;
			}
	EXPECT_EQ(0, bad);
	/* integer sums go to INT32 only; a zero point of another type fails */
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 4, 1, &at, 0));
	o.v.dtype = DRM_VNPU_DTYPE_INT32;
	xz.v.dtype = DRM_VNPU_DTYPE_INT8;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 4, 1, &at, 0));
	xz.v.dtype = DRM_VNPU_DTYPE_UINT8;
	wz.v.shape[0] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CONV_ND, ts, 4, 1, &at, 0));
	ot_free(&x);
	ot_free(&w);
	ot_free(&xz);
	ot_free(&wz);
	ot_free(&o);
}

static u32 fbits(float f)
{
	u32 u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* 1-D resize of @in to @n outputs (rank 1). */
static int resize1(const float *in, s64 nin, float *out, s64 n, s64 mode,
		   s64 coord, s64 nearest, float scale, float a, s64 excl)
{
	struct ot_tensor x, o, *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	int r;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &nin);
	memcpy(x.buf, in, (size_t)nin * 4);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	at.ints[0] = mode;
	at.ints[1] = coord;
	at.ints[2] = nearest;
	at.ints[3] = excl;
	at.ints[8] = scale ? fbits(scale) : 0;
	at.floats[0] = fbits(a);
	r = ot_run(DRM_VNPU_OP_RESIZE_ND, ts, 1, 1, &at, 0);
	memcpy(out, o.buf, (size_t)n * 4);
	ot_free(&x);
	ot_free(&o);
	return r;
}

TEST(resize_nd_formulas)
{
	static const float in[4] = { 1, 2, 3, 4 };
	float o[8];

	/* linear, half_pixel, x2: (x + 0.5) / 2 - 0.5, edges clamped */
	ASSERT_EQ(0, resize1(in, 2, o, 4, 1, 0, 0, 0, -0.75f, 0));
	EXPECT_EQ(1.0f, o[0]);
	EXPECT_EQ(1.25f, o[1]);
	EXPECT_EQ(1.75f, o[2]);
	EXPECT_EQ(2.0f, o[3]);
	/* linear, align_corners, 4 -> 3: positions 0, 1.5, 3 */
	ASSERT_EQ(0, resize1(in, 4, o, 3, 1, 2, 0, 0, -0.75f, 0));
	EXPECT_EQ(1.0f, o[0]);
	EXPECT_EQ(2.5f, o[1]);
	EXPECT_EQ(4.0f, o[2]);
	/* nearest, asymmetric, scale 0.6 given (not out / in = 0.5) */
	ASSERT_EQ(0, resize1(in, 4, o, 2, 0, 3, 0, 0.6f, -0.75f, 0));
	EXPECT_EQ(1.0f, o[0]);
	EXPECT_EQ(3.0f, o[1]);	/* 1 / 0.6 = 1.67 -> 2 */
	/* the rounding modes at an exact half: asymmetric x2, x = 0.5 */
	ASSERT_EQ(0, resize1(in, 2, o, 4, 0, 3, 0, 0, -0.75f, 0));
	EXPECT_EQ(1.0f, o[1]);	/* round_prefer_floor */
	ASSERT_EQ(0, resize1(in, 2, o, 4, 0, 3, 1, 0, -0.75f, 0));
	EXPECT_EQ(2.0f, o[1]);	/* round_prefer_ceil */
	ASSERT_EQ(0, resize1(in, 2, o, 4, 0, 3, 2, 0, -0.75f, 0));
	EXPECT_EQ(2.0f, o[3]);	/* floor(1.5) = 1 */
	ASSERT_EQ(0, resize1(in, 2, o, 4, 0, 3, 3, 0, -0.75f, 0));
	EXPECT_EQ(2.0f, o[1]);	/* ceil(0.5) */
	/*
	 * cubic, asymmetric, x2 at x = 0.5 (ratio 0.5, A = -0.75): weights
	 * -0.09375, 0.59375, 0.59375, -0.09375 on 1, 1, 2, 3 (edge clamped)
	 */
	ASSERT_EQ(0, resize1(in, 4, o, 8, 2, 3, 0, 0, -0.75f, 0));
	EXPECT_TRUE(ot_close(o[1], -0.09375 + 0.59375 + 2 * 0.59375 - 3 * 0.09375,
			     1e-6, 1e-7));
	/* exclude_outside drops the tap left of the input, renormalised */
	ASSERT_EQ(0, resize1(in, 4, o, 8, 2, 3, 0, 0, -0.75f, 1));
	EXPECT_TRUE(ot_close(o[1], (0.59375 + 2 * 0.59375 - 3 * 0.09375) /
			     (1 + 0.09375), 1e-6, 1e-7));
	/* bad mode, coordinate mode, rounding, NaN coefficient */
	EXPECT_EQ(-VNPU_OPS_EINVAL, resize1(in, 2, o, 4, 3, 0, 0, 0, -0.75f, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, resize1(in, 2, o, 4, 1, 6, 0, 0, -0.75f, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, resize1(in, 2, o, 4, 0, 0, 4, 0, -0.75f, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  resize1(in, 2, o, 4, 2, 0, 0, 0, __builtin_nanf(""), 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, resize1(in, 2, o, 4, 1, 0, 0, -2.0f, -0.75f, 0));
}

TEST(resize_nd_crop_and_resize_roi)
{
	static const s64 xs[2] = { 1, 4 }, os[2] = { 1, 3 }, rs = 4;
	static const float roi[4] = { 0, 0.25f, 1, 1.5f };
	struct ot_tensor x, r, o, *ts[3] = { &x, &r, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	float *ov;
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	for (i = 0; i < 4; i++)
		((float *)x.buf)[i] = (float)(10 * (i + 1));
	ot_make(&r, DRM_VNPU_DTYPE_FLOAT, 1, &rs);
	memcpy(r.buf, roi, sizeof(roi));
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, os);
	at.ints[0] = 1;
	at.ints[1] = 5;
	at.floats[1] = fbits(-7.0f);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_RESIZE_ND, ts, 2, 1, &at, 0));
	/* x from 0.75 to 4.5 in steps of 1.875; past 3 extrapolates */
	ov = o.buf;
	EXPECT_EQ(17.5f, ov[0]);
	EXPECT_EQ(36.25f, ov[1]);
	EXPECT_EQ(-7.0f, ov[2]);
	/* an roi needs tf_crop_and_resize and 2 * rank values */
	at.ints[1] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RESIZE_ND, ts, 2, 1, &at, 0));
	at.ints[1] = 5;
	r.v.shape[0] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RESIZE_ND, ts, 2, 1, &at, 0));
	ot_free(&x);
	ot_free(&r);
	ot_free(&o);
}

TEST(quantize_dequantize_and_dynamic)
{
	static const s64 xs[2] = { 2, 3 }, three = 3, one = 1;
	static const float xv[6] = { 0.5f, 1.5f, 2.5f, -0.5f, 300, -300 };
	struct ot_tensor x, sc, zp, y, d, *ts[4];
	struct drm_vnpu_op_attrs at = { 0 };
	u8 *yv;
	float *dv, scale;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	memcpy(x.buf, xv, sizeof(xv));
	ot_make(&sc, DRM_VNPU_DTYPE_FLOAT, 1, &one);
	((float *)sc.buf)[0] = 1;
	ot_make(&zp, DRM_VNPU_DTYPE_UINT8, 1, &one);
	((u8 *)zp.buf)[0] = 10;
	ot_make(&y, DRM_VNPU_DTYPE_UINT8, 2, xs);
	ts[0] = &x;
	ts[1] = &sc;
	ts[2] = &zp;
	ts[3] = &y;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_QUANTIZE_LINEAR, ts, 3, 1, &at, 0));
	yv = y.buf;
	/* half to even, then the zero point, then saturation */
	EXPECT_EQ(10, yv[0]);
	EXPECT_EQ(12, yv[1]);
	EXPECT_EQ(12, yv[2]);
	EXPECT_EQ(10, yv[3]);
	EXPECT_EQ(255, yv[4]);
	EXPECT_EQ(0, yv[5]);
	/* per axis 1: scales 1, 2, 4 and zero points 0, 1, 2 */
	ot_free(&sc);
	ot_free(&zp);
	ot_make(&sc, DRM_VNPU_DTYPE_FLOAT, 1, &three);
	ot_make(&zp, DRM_VNPU_DTYPE_UINT8, 1, &three);
	((float *)sc.buf)[0] = 1;
	((float *)sc.buf)[1] = 2;
	((float *)sc.buf)[2] = 4;
	((u8 *)zp.buf)[1] = 1;
	((u8 *)zp.buf)[2] = 2;
	at.ints[0] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_QUANTIZE_LINEAR, ts, 3, 1, &at, 0));
	EXPECT_EQ(0, yv[0]);	/* 0.5 -> 0 */
	EXPECT_EQ(2, yv[1]);	/* 0.75 -> 1, + 1 */
	EXPECT_EQ(3, yv[2]);	/* 0.625 -> 1, + 2 */
	ot_make(&d, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ts[0] = &y;
	ts[3] = &d;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_DEQUANTIZE_LINEAR, ts, 3, 1, &at, 0));
	dv = d.buf;
	EXPECT_EQ(0.0f, dv[0]);
	EXPECT_EQ(2.0f, dv[1]);
	EXPECT_EQ(4.0f, dv[2]);
	/* the axis must have one parameter per index */
	at.ints[0] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_DEQUANTIZE_LINEAR, ts, 3, 1, &at, 0));
	/* quantizing to a float output fails */
	ts[0] = &x;
	at.ints[0] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_QUANTIZE_LINEAR, ts, 3, 1, &at, 0));
	ot_free(&sc);
	ot_free(&zp);
	/* dynamic: range [-300, 300] -> scale 600 / 255, zero point 128 */
	ot_make(&sc, DRM_VNPU_DTYPE_FLOAT, 0, xs);
	ot_make(&zp, DRM_VNPU_DTYPE_UINT8, 0, xs);
	ts[0] = &x;
	ts[1] = &y;
	ts[2] = &sc;
	ts[3] = &zp;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR, ts, 1, 3, NULL, 0));
	scale = 600.0f / 255.0f;
	EXPECT_EQ(scale, ((float *)sc.buf)[0]);
	EXPECT_EQ((u8)rintf(300.0f / scale), ((u8 *)zp.buf)[0]);
	/* the ends of the range land on the ends of [0, 255] (one below) */
	EXPECT_EQ(2 * (int)rintf(300.0f / scale), yv[4]);
	EXPECT_EQ(0, yv[5]);
	EXPECT_EQ((int)rintf(0.5f / scale + rintf(300.0f / scale)), yv[0]);
	y.v.dtype = DRM_VNPU_DTYPE_INT8;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR, ts, 1, 3, NULL, 0));
	ot_free(&x);
	ot_free(&sc);
	ot_free(&zp);
	ot_free(&y);
	ot_free(&d);
}

/* ONNX's QLinearMatMul example, batched (b broadcast) */
TEST(qlinear_matmul_onnx_example_and_matmul_int)
{
	static const u8 av[8] = { 208, 236, 0, 238, 3, 214, 255, 29 };
	static const u8 bv[12] = { 152, 51, 244, 60, 26, 255, 0, 127, 246,
				   127, 254, 247 };
	static const u8 want[6] = { 168, 115, 255, 1, 66, 151 };
	static const s64 as[3] = { 2, 2, 4 }, bs[2] = { 4, 3 }, ys[3] = { 2, 2, 3 };
	static const s64 one = 1;
	struct ot_tensor a, b, y, p[6], *ts[9];
	static const float scales[3] = { 0.0066f, 0.00705f, 0.0107f };
	static const u8 zps[3] = { 113, 114, 118 };
	s64 i, j, q;
	int k, bad = 0;

	ot_make(&a, DRM_VNPU_DTYPE_UINT8, 3, as);
	memcpy(a.buf, av, 8);
	memcpy((u8 *)a.buf + 8, av, 8);
	ot_make(&b, DRM_VNPU_DTYPE_UINT8, 2, bs);
	memcpy(b.buf, bv, 12);
	ot_make(&y, DRM_VNPU_DTYPE_UINT8, 3, ys);
	for (k = 0; k < 3; k++) {
		ot_make(&p[2 * k], DRM_VNPU_DTYPE_FLOAT, 1, &one);
		((float *)p[2 * k].buf)[0] = scales[k];
		ot_make(&p[2 * k + 1], DRM_VNPU_DTYPE_UINT8, 1, &one);
		((u8 *)p[2 * k + 1].buf)[0] = zps[k];
	}
	ts[0] = &a;
	ts[1] = &p[0];
	ts[2] = &p[1];
	ts[3] = &b;
	ts[4] = &p[2];
	ts[5] = &p[3];
	ts[6] = &p[4];
	ts[7] = &p[5];
	ts[8] = &y;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_QLINEAR_MATMUL, ts, 8, 1, NULL, 0));
	for (k = 0; k < 12; k++)
		bad += ((u8 *)y.buf)[k] != want[k % 6];
	EXPECT_EQ(0, bad);
	/* MATMUL_INT: the exact sums */
	y.v.dtype = DRM_VNPU_DTYPE_INT32;
	free(y.buf);
	y.buf = calloc(1, 12 * 4);
	y.v.data = y.buf;
	ts[1] = &b;
	ts[2] = &p[1];
	ts[3] = &p[3];
	ts[4] = &y;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MATMUL_INT, ts, 4, 1, NULL, 0));
	for (i = 0; i < 2; i++)
		for (j = 0; j < 3; j++) {
			s64 s = 0;

			for (q = 0; q < 4; q++)
				s += (av[i * 4 + q] - 113) * (bv[q * 3 + j] - 114);
			bad += ((s32 *)y.buf)[i * 3 + j] != s ||
			       ((s32 *)y.buf)[6 + i * 3 + j] != s;
		}
	EXPECT_EQ(0, bad);
	/* inner dims differ; output not INT32; float operands */
	b.v.shape[0] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MATMUL_INT, ts, 4, 1, NULL, 0));
	b.v.shape[0] = 4;
	y.v.dtype = DRM_VNPU_DTYPE_INT64;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MATMUL_INT, ts, 4, 1, NULL, 0));
	y.v.dtype = DRM_VNPU_DTYPE_INT32;
	a.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MATMUL_INT, ts, 2, 1, NULL, 0));
	ot_free(&a);
	ot_free(&b);
	ot_free(&y);
	for (k = 0; k < 6; k++)
		ot_free(&p[k]);
}

TEST(max_unpool_into_a_larger_output)
{
	static const s64 xs[4] = { 1, 1, 2, 2 }, os[4] = { 1, 1, 5, 5 };
	static const s64 idx[4] = { 5, 7, 13, 99 };
	struct ot_tensor x, ix, o, *ts[3] = { &x, &ix, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	float *ov;
	int k, nonzero = 0;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	for (k = 0; k < 4; k++)
		((float *)x.buf)[k] = (float)(k + 1);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 4, xs);
	memcpy(ix.buf, idx, sizeof(idx));
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, os);
	memset(o.buf, 0x7f, 100);
	/* indices address a 4 x 4 plane; 99 lies outside and is skipped */
	at.ints[0] = 4;
	at.ints[1] = 4;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MAX_UNPOOL, ts, 2, 1, &at, 0));
	ov = o.buf;
	EXPECT_EQ(1.0f, ov[1 * 5 + 1]);
	EXPECT_EQ(2.0f, ov[1 * 5 + 3]);
	EXPECT_EQ(3.0f, ov[3 * 5 + 1]);
	for (k = 0; k < 25; k++)
		nonzero += ov[k] != 0;
	EXPECT_EQ(3, nonzero);
	ix.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MAX_UNPOOL, ts, 2, 1, &at, 0));
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	at.ints[0] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MAX_UNPOOL, ts, 2, 1, &at, 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&o);
}

TEST(grid_sample_modes)
{
	static const s64 xs[4] = { 1, 1, 2, 3 }, gs[4] = { 1, 1, 3, 2 };
	static const s64 os[4] = { 1, 1, 1, 3 };
	/* (x, y): the centre of pixel (0, 0), a point between, outside */
	static const float gv[6] = { -1, -1, 0, 0, 1.5f, 0 };
	struct ot_tensor x, g, o, *ts[3] = { &x, &g, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	float *ov;
	int k;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	for (k = 0; k < 6; k++)
		((float *)x.buf)[k] = (float)(k + 1);	/* [[1 2 3] [4 5 6]] */
	ot_make(&g, DRM_VNPU_DTYPE_FLOAT, 4, gs);
	memcpy(g.buf, gv, sizeof(gv));
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, os);
	ov = o.buf;
	at.ints[2] = 1;		/* align corners: -1 is pixel 0's centre */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GRID_SAMPLE, ts, 2, 1, &at, 0));
	EXPECT_EQ(1.0f, ov[0]);
	EXPECT_EQ(3.5f, ov[1]);	/* (x 1, y 0.5) */
	/* x 2.5 with zeros: half of column 2 */
	EXPECT_EQ(2.25f, ov[2]);
	at.ints[1] = 1;		/* border: clamped to column 2 */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GRID_SAMPLE, ts, 2, 1, &at, 0));
	EXPECT_EQ(4.5f, ov[2]);
	at.ints[1] = 2;		/* reflection: 2.5 mirrors to 1.5 */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GRID_SAMPLE, ts, 2, 1, &at, 0));
	EXPECT_EQ(4.0f, ov[2]);
	at.ints[0] = 1;		/* nearest: 1.5 rounds to 2 (even) */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GRID_SAMPLE, ts, 2, 1, &at, 0));
	EXPECT_EQ(3.0f, ov[2]);
	at.ints[0] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GRID_SAMPLE, ts, 2, 1, &at, 0));
	at.ints[0] = 0;
	g.v.shape[3] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GRID_SAMPLE, ts, 2, 1, &at, 0));
	ot_free(&x);
	ot_free(&g);
	ot_free(&o);
}

TEST(roi_align_average_of_bilinear_samples)
{
	static const s64 xs[4] = { 2, 1, 4, 4 }, rs[2] = { 2, 4 }, bs = 2;
	static const s64 os[4] = { 2, 1, 2, 2 };
	/* image 1's box (0, 0)-(2, 2), image 0's box past its edge */
	static const float rv[8] = { 0, 0, 2, 2, 2, 2, 5, 5 };
	static const s64 bv[2] = { 1, 0 };
	struct ot_tensor x, r, b, o, *ts[4] = { &x, &r, &b, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	float *ov;
	int k;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	for (k = 0; k < 32; k++)
		((float *)x.buf)[k] = (float)(k % 16);	/* x[y][x] = 4y + x */
	ot_make(&r, DRM_VNPU_DTYPE_FLOAT, 2, rs);
	memcpy(r.buf, rv, sizeof(rv));
	ot_make(&b, DRM_VNPU_DTYPE_INT64, 1, &bs);
	memcpy(b.buf, bv, sizeof(bv));
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, os);
	at.ints[1] = 1;			/* one sample per bin: its centre */
	at.floats[0] = fbits(1.0f);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, 0));
	ov = o.buf;
	/* bins of 1 pixel: centres (0.5, 0.5), (1.5, 0.5), ... -> 4y + x */
	EXPECT_EQ(2.5f, ov[0]);
	EXPECT_EQ(3.5f, ov[1]);
	EXPECT_EQ(6.5f, ov[2]);
	EXPECT_EQ(7.5f, ov[3]);
	/* bins of 1.5: centres 2.75 and 4.25; past the image's edge reads 0 */
	EXPECT_EQ(13.75f, ov[4]);
	EXPECT_EQ(0.0f, ov[5]);
	/* half-pixel shifts the box by half a pixel */
	at.ints[2] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, 0));
	EXPECT_EQ(0.0f, ov[0]);		/* (0, 0) */
	EXPECT_EQ(1.0f, ov[1]);
	/* indices must be INT64; a negative ratio or scale fails */
	b.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, 0));
	b.v.dtype = DRM_VNPU_DTYPE_INT64;
	at.ints[1] = -1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, 0));
	at.ints[1] = 1;
	at.floats[0] = fbits(-1.0f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, 0));
	ot_free(&x);
	ot_free(&r);
	ot_free(&b);
	ot_free(&o);
}

TEST_HARNESS_MAIN
