// SPDX-License-Identifier: MIT
/*
 * aclnn resizing (RESIZE_ND) and adaptive max pooling (POOL_ND) on the
 * real driver against C references of PyTorch's / CANN's formulas:
 * UpsampleNearest2d, Resize (nearest and bilinear), UpsampleBilinear2d
 * (align corners, half pixel with and without scales), UpsampleBicubic2d,
 * UpsampleLinear1d, UpsampleNearest1d and V2, AdaptiveMaxPool2d with indices, AdaptiveAvgPool3d
 * with uneven bins; all from a
 * non-contiguous input (every other element of a row); bad shapes,
 * dtypes, modes (161002) and NULLs (161001).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_resize.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_bicubic_2d.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d_v2.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_adaptive_avg_pool3d.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

enum { C = 2, H = 4, W = 3 };

/* x[c][h][w] of the strided input: every other element of a row. */
static float at(const float *x, int c, int h, int w)
{
	return x[(c * H + h) * 2 * W + 2 * w];
}

/* A [1, C, H, W] view of x's storage with a row stride of 2 W. */
static aclTensor *strided_input(FIXTURE_DATA(nn) *f, float *x)
{
	int64_t sx[4] = { 1, C, H, W }, st[4] = { C * H * 2 * W, H * 2 * W, 2 * W, 2 };
	int i;

	for (i = 0; i < C * H * 2 * W; i++)
		x[i] = frand(i * 3 + 1) + 0.01f * (float)i;
	return view(sx, 4, st, 0, C * H * 2 * W, ACL_FLOAT, dev(f, x, C * H * 2 * W * 4));
}

/* PyTorch's source coordinate of a linear or cubic sample. */
static double src_coord(int dst, int in, int out, bool align, double scale, bool cubic)
{
	double s;

	if (align)
		return out > 1 ? (double)dst * (in - 1) / (out - 1) : 0;
	s = (dst + 0.5) * (scale > 0 ? 1.0 / scale : (double)in / out) - 0.5;
	return !cubic && s < 0 ? 0 : s;
}

/* Linear weights along one dim: taps i0, i1 and the weight of i1. */
static void lin(double s, int in, int *i0, int *i1, double *l)
{
	*i0 = (int)floor(s);
	if (*i0 > in - 1)
		*i0 = in - 1;
	*i1 = *i0 + 1 < in ? *i0 + 1 : in - 1;
	*l = s - *i0;
}

static float bilinear_ref(const float *x, int c, double sh, double sw)
{
	int h0, h1, w0, w1;
	double lh, lw;

	lin(sh, H, &h0, &h1, &lh);
	lin(sw, W, &w0, &w1, &lw);
	return (float)((1 - lh) * ((1 - lw) * at(x, c, h0, w0) + lw * at(x, c, h0, w1)) +
		       lh * ((1 - lw) * at(x, c, h1, w0) + lw * at(x, c, h1, w1)));
}

/* Keys' cubic weights (a = -0.75) of the taps i0 - 1 .. i0 + 2. */
static void cubic_w(double t, double *wt)
{
	const double a = -0.75;
	double x;

	x = t + 1;
	wt[0] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
	x = t;
	wt[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
	x = 1 - t;
	wt[2] = ((a + 2) * x - (a + 3)) * x * x + 1;
	x = 2 - t;
	wt[3] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}

static int clampi(int v, int n)
{
	return v < 0 ? 0 : v >= n ? n - 1 : v;
}

static float bicubic_ref(const float *x, int c, double sh, double sw)
{
	int h0 = (int)floor(sh), w0 = (int)floor(sw), i, j;
	double wh[4], ww[4], sum = 0;

	cubic_w(sh - h0, wh);
	cubic_w(sw - w0, ww);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			sum += wh[i] * ww[j] *
			       at(x, c, clampi(h0 - 1 + i, H), clampi(w0 - 1 + j, W));
	return (float)sum;
}

TEST_F(nn, nearest_and_resize)
{
	enum { OH = 6, OW = 7 };
	float x[C * H * 2 * W], o[C * OH * OW];
	int64_t so[4] = { 1, C, OH, OW }, sz[2] = { OH, OW }, bad[4] = { 1, C, OH, OW + 1 };
	float sc[4] = { 1, 1, 1.5f, 7.0f / 3 }, scn[4] = { 2, 1, 1.5f, 7.0f / 3 };
	aclIntArray *asz = ia(sz, 2), *a1 = ia(sz, 1);
	aclFloatArray *fs = aclCreateFloatArray(sc, 4), *fsn = aclCreateFloatArray(scn, 4);
	aclFloatArray *f3 = aclCreateFloatArray(sc, 3);
	aclTensor *tx = strided_input(self, x), *to, *tb, *ti;
	void *od = dev(self, NULL, sizeof(o));
	aclOpExecutor *ex;
	uint64_t ws;
	int c, i, j, bad_n = 0;

	to = tens(so, 4, ACL_FLOAT, od);
	/* UpsampleNearest2d: src = floor(dst * in / out) */
	ASSERT_EQ(0, aclnnUpsampleNearest2dGetWorkspaceSize(tx, asz, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnUpsampleNearest2d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++)
				bad_n += o[(c * OH + i) * OW + j] !=
					 at(x, c, i * H / OH, j * W / OW);
	EXPECT_EQ(0, bad_n);
	/* Resize "nearest" by scales (1.5, 7/3): the same samples */
	memset(o, 0, sizeof(o));
	ASSERT_EQ(0, aclnnResizeGetWorkspaceSize(tx, fs, "nearest", to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnResize, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++)
				bad_n += o[(c * OH + i) * OW + j] !=
					 at(x, c, i * H / OH, j * W / OW);
	EXPECT_EQ(0, bad_n);
	/* Resize "bilinear": asymmetric coordinates, src = dst * in / out */
	ASSERT_EQ(0, aclnnResizeGetWorkspaceSize(tx, fs, "bilinear", to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnResize, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++)
				bad_n += !CLOSE(o[(c * OH + i) * OW + j],
						bilinear_ref(x, c, (double)i * H / OH,
							     (double)j * W / OW));
	EXPECT_EQ(0, bad_n);
	/* refusals */
	tb = tens(bad, 4, ACL_FLOAT, od);
	ti = tens(so, 4, ACL_INT32, od);
	EXPECT_EQ(INV, aclnnUpsampleNearest2dGetWorkspaceSize(tx, asz, tb, &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleNearest2dGetWorkspaceSize(tx, asz, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleNearest2dGetWorkspaceSize(tx, a1, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnUpsampleNearest2dGetWorkspaceSize(tx, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnUpsampleNearest2dGetWorkspaceSize(NULL, asz, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnResizeGetWorkspaceSize(tx, fs, "bicubic", to, &ws, &ex));
	EXPECT_EQ(INV, aclnnResizeGetWorkspaceSize(tx, fsn, "nearest", to, &ws, &ex));
	EXPECT_EQ(INV, aclnnResizeGetWorkspaceSize(tx, f3, "nearest", to, &ws, &ex));
	EXPECT_EQ(INV, aclnnResizeGetWorkspaceSize(tx, fs, "nearest", tb, &ws, &ex));
	EXPECT_EQ(NUL, aclnnResizeGetWorkspaceSize(tx, fs, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnResizeGetWorkspaceSize(tx, NULL, "nearest", to, &ws, &ex));
	aclDestroyFloatArray(fs);
	aclDestroyFloatArray(fsn);
	aclDestroyFloatArray(f3);
}

TEST_F(nn, bilinear_bicubic_linear)
{
	enum { OH = 8, OW = 5 };
	float x[C * H * 2 * W], o[C * OH * OW], o1[C * H * 5];
	int64_t so[4] = { 1, C, OH, OW }, sz[2] = { OH, OW }, sz1[1] = { 5 };
	int64_t s3[3] = { C * H, 1, W }, so1[3] = { C * H, 1, 5 }, st3[3] = { 2 * W, 2 * W, 2 };
	aclIntArray *asz = ia(sz, 2), *asz1 = ia(sz1, 1);
	aclTensor *tx = strided_input(self, x), *to, *tx1, *to1, *th;
	void *od = dev(self, NULL, sizeof(o)), *od1 = dev(self, NULL, sizeof(o1));
	aclOpExecutor *ex;
	uint64_t ws;
	int c, i, j, k, bad_n = 0;
	static const struct { bool align; double sh, sw; } cases[] = {
		{ true, 0, 0 }, { false, 0, 0 }, { false, 2.0, 1.5 },
	};

	to = tens(so, 4, ACL_FLOAT, od);
	for (k = 0; k < 3; k++) {
		bool al = cases[k].align;
		double sh = cases[k].sh, sw = cases[k].sw;

		ASSERT_EQ(0, aclnnUpsampleBilinear2dGetWorkspaceSize(tx, asz, al, sh, sw, to,
								     &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnUpsampleBilinear2d, ws, ex));
		get(o, od, sizeof(o));
		for (c = 0; c < C; c++)
			for (i = 0; i < OH; i++)
				for (j = 0; j < OW; j++)
					bad_n += !CLOSE(o[(c * OH + i) * OW + j],
							bilinear_ref(x, c,
								     src_coord(i, H, OH, al, sh, false),
								     src_coord(j, W, OW, al, sw, false)));
		EXPECT_EQ(0, bad_n) TH_LOG("bilinear case %d", k);
		ASSERT_EQ(0, aclnnUpsampleBicubic2dGetWorkspaceSize(tx, asz, al, sh, sw, to,
								    &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnUpsampleBicubic2d, ws, ex));
		get(o, od, sizeof(o));
		for (c = 0; c < C; c++)
			for (i = 0; i < OH; i++)
				for (j = 0; j < OW; j++)
					bad_n += !CLOSE(o[(c * OH + i) * OW + j],
							bicubic_ref(x, c,
								    src_coord(i, H, OH, al, sh, true),
								    src_coord(j, W, OW, al, sw, true)));
		EXPECT_EQ(0, bad_n) TH_LOG("bicubic case %d", k);
	}
	/* Linear1d over the rows of the strided input, seen as [C * H, 1, W] */
	tx1 = view(s3, 3, st3, 0, C * H * 2 * W, ACL_FLOAT, dev(self, x, sizeof(x)));
	to1 = tens(so1, 3, ACL_FLOAT, od1);
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, aclnnUpsampleLinear1dGetWorkspaceSize(tx1, asz1, k == 0, 0, to1,
								   &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnUpsampleLinear1d, ws, ex));
		get(o1, od1, sizeof(o1));
		for (i = 0; i < C * H; i++)
			for (j = 0; j < 5; j++) {
				double s = src_coord(j, W, 5, k == 0, 0, false);
				int w0, w1;
				double l;

				lin(s, W, &w0, &w1, &l);
				bad_n += !CLOSE(o1[i * 5 + j],
						(float)((1 - l) * x[i * 2 * W + 2 * w0] +
							l * x[i * 2 * W + 2 * w1]));
			}
		EXPECT_EQ(0, bad_n) TH_LOG("linear1d align %d", k == 0);
	}
	/* Nearest1d: src = floor(dst * 3 / 5); V2 with scale 1.25: floor(dst / 1.25) */
	for (k = 0; k < 2; k++) {
		float sc = 1.25f;
		int st = k ? aclnnUpsampleNearest1dV2GetWorkspaceSize(tx1, asz1, sc, to1, &ws, &ex) :
			     aclnnUpsampleNearest1dGetWorkspaceSize(tx1, asz1, to1, &ws, &ex);

		ASSERT_EQ(0, st);
		ASSERT_EQ(0, run(self, k ? aclnnUpsampleNearest1dV2 : aclnnUpsampleNearest1d,
				 ws, ex));
		get(o1, od1, sizeof(o1));
		for (i = 0; i < C * H; i++)
			for (j = 0; j < 5; j++) {
				int src = k ? (int)floorf((float)j / sc) : j * W / 5;

				if (src > W - 1)
					src = W - 1;
				bad_n += o1[i * 5 + j] != x[i * 2 * W + 2 * src];
			}
		EXPECT_EQ(0, bad_n) TH_LOG("nearest1d %s", k ? "v2" : "");
	}
	EXPECT_EQ(INV, aclnnUpsampleNearest1dGetWorkspaceSize(tx, asz1, to1, &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleNearest1dV2GetWorkspaceSize(tx1, asz, 1.0f, to1, &ws, &ex));
	EXPECT_EQ(NUL, aclnnUpsampleNearest1dGetWorkspaceSize(tx1, NULL, to1, &ws, &ex));
	/* refusals: integer interpolation, wrong rank, sizes, NULLs */
	th = tens(so, 4, ACL_INT32, od);
	EXPECT_EQ(INV, aclnnUpsampleBilinear2dGetWorkspaceSize(th, asz, false, 0, 0, th,
							       &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleBicubic2dGetWorkspaceSize(tx1, asz, false, 0, 0, to,
							      &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleLinear1dGetWorkspaceSize(tx1, asz, false, 0, to1,
							     &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleBilinear2dGetWorkspaceSize(tx, asz, false, 0, 0, to1,
							       &ws, &ex));
	/* CANN's document (ops-cv upsample_bilinear2d): negative scales are 161002 */
	EXPECT_EQ(INV, aclnnUpsampleBilinear2dGetWorkspaceSize(tx, asz, false, -1.0, 0, to,
							       &ws, &ex));
	EXPECT_EQ(INV, aclnnUpsampleBilinear2dGetWorkspaceSize(tx, asz, false, 0, -0.5, to,
							       &ws, &ex));
	EXPECT_EQ(NUL, aclnnUpsampleBilinear2dGetWorkspaceSize(tx, asz, false, 0, 0, NULL,
							       &ws, &ex));
	EXPECT_EQ(NUL, aclnnUpsampleBicubic2dGetWorkspaceSize(tx, NULL, false, 0, 0, to,
							      &ws, &ex));
	EXPECT_EQ(NUL, aclnnUpsampleLinear1dGetWorkspaceSize(tx1, asz1, false, 0, to1,
							     NULL, &ex));
}

TEST_F(nn, adaptive_max_pool2d)
{
	/* H = 4, W = 3 to (2, 3) and (1, 1): windows 2 x 1 and 4 x 3 */
	float x[C * H * 2 * W], o[C * 2 * 3];
	int64_t idx[C * 2 * 3];
	int32_t idx32[C];
	int64_t so[4] = { 1, C, 2, 3 }, sz[2] = { 2, 3 }, s1[4] = { 1, C, 1, 1 };
	int64_t g[2] = { 1, 1 }, bz[2] = { 0, 3 };
	aclIntArray *asz = ia(sz, 2), *ag = ia(g, 2), *abz = ia(bz, 2), *a1 = ia(g, 1);
	aclTensor *tx = strided_input(self, x), *to, *ti, *to1, *ti1, *tf;
	void *od = dev(self, NULL, sizeof(o)), *id = dev(self, NULL, sizeof(idx));
	aclOpExecutor *ex;
	uint64_t ws;
	int c, i, j, h, w, bad_n = 0;

	to = tens(so, 4, ACL_FLOAT, od);
	ti = tens(so, 4, ACL_INT64, id);
	ASSERT_EQ(0, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, asz, to, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdaptiveMaxPool2d, ws, ex));
	get(o, od, sizeof(o));
	get(idx, id, sizeof(idx));
	for (c = 0; c < C; c++)
		for (i = 0; i < 2; i++)
			for (j = 0; j < 3; j++) {
				float m = -INFINITY;
				int64_t want = -1;

				for (h = 2 * i; h < 2 * i + 2; h++)
					if (at(x, c, h, j) > m) {
						m = at(x, c, h, j);
						want = h * W + j;
					}
				bad_n += o[(c * 2 + i) * 3 + j] != m ||
					 idx[(c * 2 + i) * 3 + j] != want;
			}
	EXPECT_EQ(0, bad_n);
	/* global max pooling, INT32 indices */
	to1 = tens(s1, 4, ACL_FLOAT, od);
	ti1 = tens(s1, 4, ACL_INT32, id);
	ASSERT_EQ(0, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, ag, to1, ti1, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdaptiveMaxPool2d, ws, ex));
	get(o, od, C * 4);
	get(idx32, id, sizeof(idx32));
	for (c = 0; c < C; c++) {
		float m = -INFINITY;
		int32_t want = -1;

		for (h = 0; h < H; h++)
			for (w = 0; w < W; w++)
				if (at(x, c, h, w) > m) {
					m = at(x, c, h, w);
					want = h * W + w;
				}
		bad_n += o[c] != m || idx32[c] != want;
	}
	EXPECT_EQ(0, bad_n);
	/* shapes, dtypes, sizes, NULLs */
	tf = tens(so, 4, ACL_FLOAT, id);
	EXPECT_EQ(INV, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, abz, to, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, a1, to, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, asz, to, tf, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, asz, to1, ti, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, asz, to, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, NULL, to, ti, &ws, &ex));
}

/* The first maximum of PyTorch's bin (i, j) of an h x w plane read by get. */
static float amax_bin(float (*get)(const float *, int, int, int), const float *x, int c,
		      int h, int w, int oh, int ow, int i, int j, int64_t *idx)
{
	int h0 = i * h / oh, h1 = ((i + 1) * h + oh - 1) / oh;
	int w0 = j * w / ow, w1 = ((j + 1) * w + ow - 1) / ow, a, b;
	float m = -INFINITY;

	for (a = h0; a < h1; a++)
		for (b = w0; b < w1; b++)
			if (get(x, c, a, b) > m) {
				m = get(x, c, a, b);
				*idx = a * w + b;
			}
	return m;
}

/* x[c][h][w] stored transposed: [C][W][H]. */
static float at_t(const float *x, int c, int h, int w)
{
	return x[(c * W + w) * H + h];
}

TEST_F(nn, adaptive_max_pool2d_uneven_bins)
{
	/* H 4 into 3 bins ({0-1}, {1-2}, {2-3}), W 3 into 2 ({0-1}, {1-2}) */
	enum { OH = 3, OW = 2 };
	float x[C * H * 2 * W], xt[C * W * H], o[C * OH * OW];
	int64_t idx[C * OH * OW], want = -1;
	int32_t idx32[C * OH * OW];
	int64_t so[4] = { 1, C, OH, OW }, sz[2] = { OH, OW }, big[2] = { 257, 1 };
	int64_t sx[4] = { 1, C, H, W }, stt[4] = { C * W * H, W * H, 1, H };
	aclIntArray *asz = ia(sz, 2), *abig = ia(big, 2);
	aclTensor *tx = strided_input(self, x), *txt, *to, *ti, *ti32;
	void *od = dev(self, NULL, sizeof(o)), *id = dev(self, NULL, sizeof(idx));
	void *id32 = dev(self, NULL, sizeof(idx32)), *xd = NULL;
	aclOpExecutor *ex;
	uint64_t ws;
	int c, i, j, bad_n = 0;

	/* ties inside bins: the first maximum in row-major order wins */
	x[(1 * H + 1) * 2 * W + 2 * 1] = 9;
	x[(1 * H + 2) * 2 * W + 2 * 0] = 9;
	x[(1 * H + 2) * 2 * W + 2 * 2] = 9;
	ASSERT_EQ(0, aclGetRawTensorAddr(tx, &xd));
	ASSERT_EQ(0, aclrtMemcpy(xd, sizeof(x), x, sizeof(x), ACL_MEMCPY_HOST_TO_DEVICE));
	to = tens(so, 4, ACL_FLOAT, od);
	ti = tens(so, 4, ACL_INT64, id);
	ti32 = tens(so, 4, ACL_INT32, id32);
	ASSERT_EQ(0, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, asz, to, ti, &ws, &ex));
	EXPECT_NE(0, ws);
	ASSERT_EQ(0, run(self, aclnnAdaptiveMaxPool2d, ws, ex));
	get(o, od, sizeof(o));
	get(idx, id, sizeof(idx));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++) {
				float m = amax_bin(at, x, c, H, W, OH, OW, i, j, &want);

				bad_n += o[(c * OH + i) * OW + j] != m ||
					 idx[(c * OH + i) * OW + j] != want;
			}
	EXPECT_EQ(0, bad_n);
	/* a transposed input (C and H do not merge: copied first), INT32 indices */
	for (c = 0; c < C; c++)
		for (i = 0; i < H; i++)
			for (j = 0; j < W; j++)
				xt[(c * W + j) * H + i] = at(x, c, i, j) * -1.5f;
	txt = view(sx, 4, stt, 0, C * W * H, ACL_FLOAT, dev(self, xt, sizeof(xt)));
	ASSERT_EQ(0, aclnnAdaptiveMaxPool2dGetWorkspaceSize(txt, asz, to, ti32, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdaptiveMaxPool2d, ws, ex));
	get(o, od, sizeof(o));
	get(idx32, id32, sizeof(idx32));
	for (c = 0; c < C; c++)
		for (i = 0; i < OH; i++)
			for (j = 0; j < OW; j++) {
				float m = amax_bin(at_t, xt, c, H, W, OH, OW, i, j, &want);

				bad_n += o[(c * OH + i) * OW + j] != m ||
					 idx32[(c * OH + i) * OW + j] != want;
			}
	EXPECT_EQ(0, bad_n);
	/* uneven bins take at most 256 per dim */
	EXPECT_EQ(INV, aclnnAdaptiveMaxPool2dGetWorkspaceSize(tx, abig, to, ti, &ws, &ex));
}

TEST_F(nn, adaptive_avg_pool3d)
{
	/* [1, 2, 3, 5, 4] (row stride 8) to (2, 3, 2): bins D {0-1, 1-2}, H {0-1, 1-3, 3-4}, W even */
	enum { C3 = 2, D3 = 3, H3 = 5, W3 = 4, OD = 2, OH = 3, OW = 2 };
	float x[C3 * D3 * H3 * 2 * W3], o[C3 * OD * OH * OW];
	int64_t sx[5] = { 1, C3, D3, H3, W3 };
	int64_t st[5] = { C3 * D3 * H3 * 2 * W3, D3 * H3 * 2 * W3, H3 * 2 * W3, 2 * W3, 2 };
	int64_t so[5] = { 1, C3, OD, OH, OW }, sz[3] = { OD, OH, OW }, z3[3] = { OD, 0, OW };
	int64_t bad[5] = { 1, C3, OD, OH + 1, OW };
	aclIntArray *asz = ia(sz, 3), *a2 = ia(sz, 2), *az = ia(z3, 3);
	aclTensor *tx, *to, *tb, *th;
	void *od = dev(self, NULL, sizeof(o));
	aclOpExecutor *ex;
	uint64_t ws;
	int c, i, j, k, d, h, w, bad_n = 0;

	for (i = 0; i < (int)(sizeof(x) / 4); i++)
		x[i] = frand(i * 11 + 4) + 0.003f * (float)i;
	tx = view(sx, 5, st, 0, sizeof(x) / 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	to = tens(so, 5, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, asz, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAdaptiveAvgPool3d, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < C3; c++)
		for (i = 0; i < OD; i++)
			for (j = 0; j < OH; j++)
				for (k = 0; k < OW; k++) {
					int d0 = i * D3 / OD, d1 = ((i + 1) * D3 + OD - 1) / OD;
					int h0 = j * H3 / OH, h1 = ((j + 1) * H3 + OH - 1) / OH;
					int w0 = k * W3 / OW, w1 = ((k + 1) * W3 + OW - 1) / OW;
					double sum = 0;

					for (d = d0; d < d1; d++)
						for (h = h0; h < h1; h++)
							for (w = w0; w < w1; w++)
								sum += x[((c * D3 + d) * H3 + h) * 2 * W3 + 2 * w];
					sum /= (d1 - d0) * (h1 - h0) * (w1 - w0);
					bad_n += !CLOSE(o[((c * OD + i) * OH + j) * OW + k], (float)sum);
				}
	EXPECT_EQ(0, bad_n);
	tb = tens(bad, 5, ACL_FLOAT, od);
	th = tens(so, 5, ACL_FLOAT16, od);
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, asz, tb, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, asz, th, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, a2, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, az, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAdaptiveAvgPool3dGetWorkspaceSize(tx, asz, to, &ws, NULL));
}

/* Huge sizes (stride-0 views of a few bytes) are refused in phase 1. */
TEST_F(nn, huge_sizes_refused)
{
	int64_t hx[4] = { 1, 1, 1LL << 41, 4 }, z4[4] = { 0, 0, 0, 0 };
	int64_t hx5[5] = { 1, 1, 1LL << 41, 2, 2 }, z5[5] = { 0, 0, 0, 0, 0 };
	int64_t so[4] = { 1, 1, 2, 2 }, so5[5] = { 1, 1, 2, 2, 2 }, two[3] = { 2, 2, 2 };
	int64_t sx[4] = { 1, 1, 2, 2 }, big[2] = { 1 << 25, 2 }, big3[3] = { 1025, 1, 1 };
	void *d = dev(self, NULL, 256);
	aclTensor *th = view(hx, 4, z4, 0, 1, ACL_FLOAT, d), *th5 = view(hx5, 5, z5, 0, 1, ACL_FLOAT, d);
	aclTensor *to = tens(so, 4, ACL_FLOAT, d), *ti = tens(so, 4, ACL_INT64, d);
	aclTensor *to5 = tens(so5, 5, ACL_FLOAT, d), *tx = tens(sx, 4, ACL_FLOAT, d);
	aclIntArray *a2 = ia(two, 2), *a3 = ia(two, 3), *ab = ia(big, 2), *ab3 = ia(big3, 3);
	int64_t ho[4] = { 1, 1, 1 << 25, 2 };
	aclTensor *tho;
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(INV, aclnnAdaptiveMaxPool2dGetWorkspaceSize(th, a2, to, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool3dGetWorkspaceSize(th5, a3, to5, &ws, &ex));
	EXPECT_EQ(INV, aclnnAdaptiveAvgPool3dGetWorkspaceSize(th5, ab3, to5, &ws, &ex));
	/* an output of 2^25 rows (a stride-0 view) is past the resize limit */
	tho = view(ho, 4, z4, 0, 1, ACL_FLOAT, d);
	EXPECT_EQ(INV, aclnnUpsampleNearest2dGetWorkspaceSize(tx, ab, tho, &ws, &ex));
}

TEST_HARNESS_MAIN
