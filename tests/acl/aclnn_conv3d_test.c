// SPDX-License-Identifier: MIT
/*
 * aclnnConvolution with 5-D tensors (CONV_ND / CONV_TRANSPOSE_ND) on the
 * real driver against C references: a grouped 3-D convolution with bias,
 * per-dim strides and padding from a non-contiguous input, a transposed
 * one with stride 2 and output padding; bad shapes, dtypes and
 * attributes (161002) and NULLs (161001).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_convolution.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, conv3d_groups_bias_strided)
{
	/* x [1, 4, 3, 4, 4] (row stride 2 W), w [4, 2, 2, 3, 3], groups 2 */
	enum { C = 4, D = 3, H = 4, W = 4, CO = 4, G = 2, KD = 2, KH = 3, KW = 3 };
	/* stride (1, 2, 1), padding (1, 1, 0): out D 4, H 2, W 2 */
	enum { OD = 4, OH = 2, OW = 2, SD = 1, SH = 2, SW = 1, PD = 1, PH = 1, PW = 0 };
	float x[C * D * H * 2 * W], w[CO * (C / G) * KD * KH * KW], b[CO];
	float o[CO * OD * OH * OW];
	int64_t sx[5] = { 1, C, D, H, W };
	int64_t st[5] = { C * D * H * 2 * W, D * H * 2 * W, H * 2 * W, 2 * W, 2 };
	int64_t sw[5] = { CO, C / G, KD, KH, KW }, sb[1] = { CO };
	int64_t so[5] = { 1, CO, OD, OH, OW }, bad[5] = { 1, CO, OD, OH, OW + 1 };
	int64_t s[3] = { SD, SH, SW }, p[3] = { PD, PH, PW }, one[1] = { 1 };
	int64_t w4[4] = { CO, C / G, KH, KW };
	aclIntArray *as = ia(s, 3), *ap = ia(p, 3), *ad = ia(one, 1), *a2 = ia(s, 2);
	aclTensor *tx, *tw, *tb, *to, *tbad, *tw4, *th;
	void *od;
	aclOpExecutor *ex;
	uint64_t ws;
	int co, z, i, j, ci, kz, ki, kj, bad_n = 0;

	for (i = 0; i < (int)(sizeof(x) / 4); i++)
		x[i] = frand(i);
	for (i = 0; i < (int)(sizeof(w) / 4); i++)
		w[i] = frand(i * 7 + 2) / 4;
	for (i = 0; i < CO; i++)
		b[i] = 0.25f * (float)i - 0.5f;
	tx = view(sx, 5, st, 0, sizeof(x) / 4, ACL_FLOAT, dev(self, x, sizeof(x)));
	tw = tens(sw, 5, ACL_FLOAT, dev(self, w, sizeof(w)));
	tb = tens(sb, 1, ACL_FLOAT, dev(self, b, sizeof(b)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 5, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, NULL, G,
						      to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(o, od, sizeof(o));
	for (co = 0; co < CO; co++)
		for (z = 0; z < OD; z++)
			for (i = 0; i < OH; i++)
				for (j = 0; j < OW; j++) {
					double sum = b[co];
					int g = co / (CO / G);

					for (ci = 0; ci < C / G; ci++)
						for (kz = 0; kz < KD; kz++)
							for (ki = 0; ki < KH; ki++)
								for (kj = 0; kj < KW; kj++) {
									int zz = z * SD - PD + kz;
									int hh = i * SH - PH + ki;
									int ww = j * SW - PW + kj;
									int c = g * (C / G) + ci;

									if (zz < 0 || zz >= D || hh < 0 ||
									    hh >= H || ww < 0 || ww >= W)
										continue;
									sum += (double)x[((c * D + zz) * H + hh) * 2 * W + 2 * ww] *
									       w[(((co * (C / G) + ci) * KD + kz) * KH + ki) * KW + kj];
								}
					bad_n += !CLOSE(o[((co * OD + z) * OH + i) * OW + j],
							(float)sum);
				}
	EXPECT_EQ(0, bad_n);
	/* wrong output shape, 4-D weight, two strides, a FLOAT16 out, NULLs */
	tbad = tens(bad, 5, ACL_FLOAT, od);
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, NULL, G,
							tbad, 0, &ws, &ex));
	tw4 = tens(w4, 4, ACL_FLOAT, od);
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw4, tb, as, ap, ad, false, NULL, G,
							to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, a2, ap, ad, false, NULL, G,
							to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, NULL, 3,
							to, 0, &ws, &ex));
	th = tens(so, 5, ACL_FLOAT16, od);
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, NULL, G,
							th, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvolutionGetWorkspaceSize(tx, NULL, tb, as, ap, ad, false, NULL, G,
							to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnConvolutionGetWorkspaceSize(tx, tw, tb, as, ap, ad, false, NULL, G,
							to, 0, NULL, &ex));
}

TEST_F(nn, conv3d_transposed)
{
	/* x [1, 2, 2, 3, 2], w [2, 3, 2, 2, 3]: stride 2, pad (0, 1, 0), out pad (1, 0, 0) */
	enum { C = 2, D = 2, H = 3, W = 2, CO = 3, KD = 2, KH = 2, KW = 3, S = 2 };
	enum { PD = 0, PH = 1, PW = 0, OPD = 1 };
	enum { OD = (D - 1) * S - 2 * PD + KD + OPD, OH = (H - 1) * S - 2 * PH + KH,
	       OW = (W - 1) * S - 2 * PW + KW };
	float x[C * D * H * W], w[C * CO * KD * KH * KW], o[CO * OD * OH * OW];
	double ref[CO * OD * OH * OW];
	int64_t sx[5] = { 1, C, D, H, W }, sw[5] = { C, CO, KD, KH, KW };
	int64_t so[5] = { 1, CO, OD, OH, OW }, bad[5] = { 1, CO, OD + 1, OH, OW };
	int64_t s[1] = { S }, p[3] = { PD, PH, PW }, op[3] = { OPD, 0, 0 }, big[3] = { 2, 0, 2 };
	aclIntArray *as = ia(s, 1), *ap = ia(p, 3), *aop = ia(op, 3), *abig = ia(big, 3);
	aclTensor *tx, *tw, *to, *tbad;
	void *od;
	aclOpExecutor *ex;
	uint64_t ws;
	int c, co, z, i, j, kz, ki, kj, bad_n = 0;

	for (i = 0; i < (int)(sizeof(x) / 4); i++)
		x[i] = frand(i * 3);
	for (i = 0; i < (int)(sizeof(w) / 4); i++)
		w[i] = frand(i + 5) / 2;
	memset(ref, 0, sizeof(ref));
	for (c = 0; c < C; c++)
		for (z = 0; z < D; z++)
			for (i = 0; i < H; i++)
				for (j = 0; j < W; j++)
					for (co = 0; co < CO; co++)
						for (kz = 0; kz < KD; kz++)
							for (ki = 0; ki < KH; ki++)
								for (kj = 0; kj < KW; kj++) {
									int zz = z * S - PD + kz;
									int hh = i * S - PH + ki;
									int ww = j * S - PW + kj;

									if (zz < 0 || zz >= OD || hh < 0 ||
									    hh >= OH || ww < 0 || ww >= OW)
										continue;
									ref[((co * OD + zz) * OH + hh) * OW + ww] +=
										(double)x[((c * D + z) * H + i) * W + j] *
										w[(((c * CO + co) * KD + kz) * KH + ki) * KW + kj];
								}
	tx = tens(sx, 5, ACL_FLOAT, dev(self, x, sizeof(x)));
	tw = tens(sw, 5, ACL_FLOAT, dev(self, w, sizeof(w)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 5, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, as, ap, NULL, true, aop, 1,
						      to, 0, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnConvolution, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < CO * OD * OH * OW; i++)
		bad_n += !CLOSE(o[i], (float)ref[i]);
	EXPECT_EQ(0, bad_n);
	/* an output one larger, output padding not below stride or dilation */
	tbad = tens(bad, 5, ACL_FLOAT, od);
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, as, ap, NULL, true, aop,
							1, tbad, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, as, ap, NULL, true, abig,
							1, to, 0, &ws, &ex));
}

/* A dim past 2^31 (a stride-0 view) is refused in phase 1. */
TEST_F(nn, conv3d_huge_dims_refused)
{
	int64_t hx[5] = { 1, 1, 1LL << 33, 2, 2 }, z5[5] = { 0, 0, 0, 0, 0 };
	int64_t sw[5] = { 1, 1, 1, 1, 1 }, so[5] = { 1, 1, 1LL << 33, 2, 2 };
	void *d = dev(self, NULL, 256);
	aclTensor *tx = view(hx, 5, z5, 0, 1, ACL_FLOAT, d), *tw = tens(sw, 5, ACL_FLOAT, d);
	aclTensor *to = view(so, 5, z5, 0, 1, ACL_FLOAT, d);
	aclOpExecutor *ex;
	uint64_t ws;

	EXPECT_EQ(INV, aclnnConvolutionGetWorkspaceSize(tx, tw, NULL, NULL, NULL, NULL, false,
							NULL, 1, to, 0, &ws, &ex));
}

TEST_HARNESS_MAIN
