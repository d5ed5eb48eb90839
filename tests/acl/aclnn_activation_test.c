// SPDX-License-Identifier: MIT
/*
 * aclnn trigonometric/hyperbolic functions, Erf and the parametrised
 * activations (nn_op_activation.c) on the real driver against C
 * references: out of place, in place, non-contiguous inputs, bounds as
 * scalars and tensors, and the error codes for bad dtypes, shapes and
 * arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

typedef aclnnStatus (*unary_ws)(const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);

static float hswish_ref(float x) { return x * fminf(fmaxf(x + 3, 0), 6) / 6; }
static float hsig_ref(float x) { return fminf(fmaxf(x + 3, 0), 6) / 6; }
static float selu_ref(float x)
{
	return 1.0507009873554805f * (x > 0 ? x : 1.6732632423543772f * expm1f(x));
}
static float x_in_unit(float x) { return x / 4.0f; }	/* [-0.75, 0.9] */
static float x_ge_one(float x) { return fabsf(x) + 1.0f; }

static aclScalar *fscalar(float v)
{
	return aclCreateScalar(&v, ACL_FLOAT);
}

TEST_F(nn, unary_math_ops)
{
	static const struct {
		const char *name;
		unary_ws ws;
		launch_fn run;
		float (*ref)(float);
		float (*arg)(float);	/* maps test data into the domain */
	} ops[] = {
		{ "sin", aclnnSinGetWorkspaceSize, aclnnSin, sinf, NULL },
		{ "cos", aclnnCosGetWorkspaceSize, aclnnCos, cosf, NULL },
		{ "tan", aclnnTanGetWorkspaceSize, aclnnTan, tanf, NULL },
		{ "asin", aclnnAsinGetWorkspaceSize, aclnnAsin, asinf, x_in_unit },
		{ "acos", aclnnAcosGetWorkspaceSize, aclnnAcos, acosf, x_in_unit },
		{ "atan", aclnnAtanGetWorkspaceSize, aclnnAtan, atanf, NULL },
		{ "sinh", aclnnSinhGetWorkspaceSize, aclnnSinh, sinhf, NULL },
		{ "cosh", aclnnCoshGetWorkspaceSize, aclnnCosh, coshf, NULL },
		{ "asinh", aclnnAsinhGetWorkspaceSize, aclnnAsinh, asinhf, NULL },
		{ "acosh", aclnnAcoshGetWorkspaceSize, aclnnAcosh, acoshf, x_ge_one },
		{ "atanh", aclnnAtanhGetWorkspaceSize, aclnnAtanh, atanhf, x_in_unit },
		{ "erf", aclnnErfGetWorkspaceSize, aclnnErf, erff, NULL },
		{ "hardswish", aclnnHardswishGetWorkspaceSize, aclnnHardswish, hswish_ref, NULL },
		{ "hardsigmoid", aclnnHardsigmoidGetWorkspaceSize, aclnnHardsigmoid, hsig_ref, NULL },
		{ "selu", aclnnSeluGetWorkspaceSize, aclnnSelu, selu_ref, NULL },
	};
	float a[12], x[12], o[12];
	int64_t sh[2] = { 3, 4 };
	void *ad = dev(self, NULL, sizeof(x)), *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 2, ACL_FLOAT, ad), *to = tens(sh, 2, ACL_FLOAT, od);
	unsigned k, i;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		aclOpExecutor *ex;
		uint64_t ws;

		for (i = 0; i < 12; i++) {
			a[i] = frand((int)i) * 2.0f;
			x[i] = ops[k].arg ? ops[k].arg(a[i]) : a[i];
		}
		aclrtMemcpy(ad, sizeof(x), x, sizeof(x), ACL_MEMCPY_HOST_TO_DEVICE);
		ASSERT_EQ(0, ops[k].ws(ta, to, &ws, &ex)) TH_LOG("%s", ops[k].name);
		ASSERT_EQ(0, run(self, ops[k].run, ws, ex));
		get(o, od, sizeof(o));
		/* braces: TH_LOG must run inside the loop, with this i */
		for (i = 0; i < 12; i++) {
			EXPECT_TRUE(CLOSE(o[i], ops[k].ref(x[i])))
				TH_LOG("%s(%g) = %g want %g", ops[k].name, x[i], o[i],
				       ops[k].ref(x[i]));
		}
	}
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}

/* In place, and from a transposed (non-contiguous) view. */
TEST_F(nn, inplace_and_transposed)
{
	float a[6] = { -2, -0.5f, 0, 0.25f, 1, 3 }, o[6];
	int64_t sh[2] = { 2, 3 }, tsh[2] = { 3, 2 }, tst[2] = { 1, 3 };
	void *ad = dev(self, a, sizeof(a)), *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 2, ACL_FLOAT, ad);
	aclTensor *tv = view(tsh, 2, tst, 0, 6, ACL_FLOAT, ad);
	aclTensor *to = tens(tsh, 2, ACL_FLOAT, od);
	aclScalar *slope = fscalar(0.1f);
	aclOpExecutor *ex;
	uint64_t ws;
	int i, j;

	/* atan of the transpose: out[i][j] = atan(a[j][i]) */
	ASSERT_EQ(0, aclnnAtanGetWorkspaceSize(tv, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAtan, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			EXPECT_TRUE(CLOSE(o[i * 2 + j], atanf(a[j * 3 + i])));
	/* leaky relu of the transpose */
	ASSERT_EQ(0, aclnnLeakyReluGetWorkspaceSize(tv, slope, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLeakyRelu, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++) {
			float v = a[j * 3 + i];

			EXPECT_TRUE(CLOSE(o[i * 2 + j], v < 0 ? 0.1f * v : v));
		}
	/* sinh in place */
	ASSERT_EQ(0, aclnnInplaceSinhGetWorkspaceSize(ta, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceSinh, ws, ex));
	get(o, ad, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(CLOSE(o[i], sinhf(a[i])));
	aclDestroyScalar(slope);
	aclDestroyTensor(ta);
	aclDestroyTensor(tv);
	aclDestroyTensor(to);
}

TEST_F(nn, scalar_parameters)
{
	float a[8] = { -3, -1.5f, -0.25f, 0, 0.5f, 1, 2.5f, 30 }, o[8];
	int64_t sh[1] = { 8 };
	void *ad = dev(self, a, sizeof(a)), *od = dev(self, NULL, sizeof(o));
	aclTensor *ta = tens(sh, 1, ACL_FLOAT, ad), *to = tens(sh, 1, ACL_FLOAT, od);
	aclScalar *two = fscalar(2.0f), *half = fscalar(0.5f), *lo = fscalar(-1.0f);
	aclScalar *hi = fscalar(1.0f), *thr = fscalar(20.0f), *onef = fscalar(1.0f);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	/* softplus beta 2, threshold 20: log1p(exp(2x)) / 2, x where 2x > 20 */
	ASSERT_EQ(0, aclnnSoftplusGetWorkspaceSize(ta, two, thr, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSoftplus, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++) {
		EXPECT_TRUE(CLOSE(o[i], 2 * a[i] > 20 ? a[i] : log1pf(expf(2 * a[i])) / 2))
			TH_LOG("softplus(%g) = %g", a[i], o[i]);
	}
	/* hardtanh [-1, 1] */
	ASSERT_EQ(0, aclnnHardtanhGetWorkspaceSize(ta, lo, hi, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnHardtanh, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(fminf(fmaxf(a[i], -1), 1), o[i]);
	/* clamp with only a max, then only a min */
	ASSERT_EQ(0, aclnnClampGetWorkspaceSize(ta, NULL, half, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnClamp, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(fminf(a[i], 0.5f), o[i]);
	ASSERT_EQ(0, aclnnClampMinGetWorkspaceSize(ta, lo, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnClampMin, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(fmaxf(a[i], -1), o[i]);
	/* elu alpha 0.5, scale 2, input scale 1 */
	ASSERT_EQ(0, aclnnEluGetWorkspaceSize(ta, half, two, onef, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnElu, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], 2 * (a[i] > 0 ? a[i] : 0.5f * expm1f(a[i]))));
	/* celu alpha 2 */
	ASSERT_EQ(0, aclnnCeluGetWorkspaceSize(ta, two, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnCelu, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], a[i] > 0 ? a[i] : 2 * expm1f(a[i] / 2)));
	/* gelu, tanh form */
	ASSERT_EQ(0, aclnnGeluV2GetWorkspaceSize(ta, 1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGeluV2, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++) {
		float u = 0.7978845608f * (a[i] + 0.044715f * a[i] * a[i] * a[i]);

		EXPECT_TRUE(CLOSE(o[i], 0.5f * a[i] * (1 + tanhf(u))));
	}
	/* in-place hardtanh */
	ASSERT_EQ(0, aclnnInplaceHardtanhGetWorkspaceSize(ta, lo, hi, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceHardtanh, ws, ex));
	get(o, ad, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(fminf(fmaxf(a[i], -1), 1), o[i]);
	aclDestroyScalar(two);
	aclDestroyScalar(half);
	aclDestroyScalar(lo);
	aclDestroyScalar(hi);
	aclDestroyScalar(thr);
	aclDestroyScalar(onef);
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
}

/* Integer clamp keeps the dtype; tensor bounds broadcast. */
TEST_F(nn, clamp_int_and_tensor_bounds)
{
	int32_t xi[6] = { -7, -2, 0, 3, 9, 100 }, oi[6];
	float a[6] = { -3, -1, 0, 1, 2, 5 }, lo[3] = { -2, 0, 1 }, hi1 = 1.5f, o[6];
	int64_t sh[2] = { 2, 3 }, lsh[1] = { 3 }, one[1] = { 1 };
	int64_t lo_i = -2, hi_i = 5;
	void *xd = dev(self, xi, sizeof(xi)), *oid = dev(self, NULL, sizeof(oi));
	void *ad = dev(self, a, sizeof(a)), *od = dev(self, NULL, sizeof(o));
	void *lod = dev(self, lo, sizeof(lo)), *hid = dev(self, &hi1, sizeof(hi1));
	aclTensor *tx = tens(sh, 2, ACL_INT32, xd), *toi = tens(sh, 2, ACL_INT32, oid);
	aclTensor *ta = tens(sh, 2, ACL_FLOAT, ad), *to = tens(sh, 2, ACL_FLOAT, od);
	aclTensor *tlo = tens(lsh, 1, ACL_FLOAT, lod), *thi = tens(one, 1, ACL_FLOAT, hid);
	aclScalar *slo = aclCreateScalar(&lo_i, ACL_INT64);
	aclScalar *shi = aclCreateScalar(&hi_i, ACL_INT64);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnClampGetWorkspaceSize(tx, slo, shi, toi, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnClamp, ws, ex));
	get(oi, oid, sizeof(oi));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(xi[i] < -2 ? -2 : xi[i] > 5 ? 5 : xi[i], oi[i]);
	/* min per column [3], max one value */
	ASSERT_EQ(0, aclnnClampTensorGetWorkspaceSize(ta, tlo, thi, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnClampTensor, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(fminf(fmaxf(a[i], lo[i % 3]), 1.5f), o[i]);
	ASSERT_EQ(0, aclnnClampMaxTensorGetWorkspaceSize(ta, thi, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnClampMaxTensor, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(fminf(a[i], 1.5f), o[i]);
	aclDestroyScalar(slo);
	aclDestroyScalar(shi);
	aclDestroyTensor(tx);
	aclDestroyTensor(toi);
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
	aclDestroyTensor(tlo);
	aclDestroyTensor(thi);
}

TEST_F(nn, prelu_per_channel_and_masked_fill)
{
	float a[12], w[3] = { 0.1f, 0.5f, 2.0f }, o[12];
	uint8_t m[4] = { 1, 0, 0, 1 };
	int64_t sh[3] = { 1, 3, 4 }, wsh[1] = { 3 }, msh[1] = { 4 };
	void *ad, *wd = dev(self, w, sizeof(w)), *od = dev(self, NULL, sizeof(o));
	void *md = dev(self, m, sizeof(m));
	aclTensor *ta, *tw = tens(wsh, 1, ACL_FLOAT, wd), *to = tens(sh, 3, ACL_FLOAT, od);
	aclTensor *tm = tens(msh, 1, ACL_BOOL, md);
	aclScalar *v = fscalar(-9.0f);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	for (i = 0; i < 12; i++)
		a[i] = frand(i);
	ad = dev(self, a, sizeof(a));
	ta = tens(sh, 3, ACL_FLOAT, ad);
	ASSERT_EQ(0, aclnnPreluGetWorkspaceSize(ta, tw, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPrelu, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 12; i++) {
		EXPECT_TRUE(CLOSE(o[i], a[i] < 0 ? w[i / 4] * a[i] : a[i]))
			TH_LOG("prelu [%d] %g -> %g", i, a[i], o[i]);
	}
	/* mask [4] broadcast over [1, 3, 4]: columns 0 and 3 become -9 */
	ASSERT_EQ(0, aclnnInplaceMaskedFillScalarGetWorkspaceSize(ta, tm, v, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceMaskedFillScalar, ws, ex));
	get(o, ad, sizeof(o));
	for (i = 0; i < 12; i++)
		EXPECT_EQ(m[i % 4] ? -9.0f : a[i], o[i]);
	aclDestroyScalar(v);
	aclDestroyTensor(ta);
	aclDestroyTensor(tw);
	aclDestroyTensor(to);
	aclDestroyTensor(tm);
}

TEST_F(nn, bad_arguments)
{
	int64_t sh[2] = { 2, 3 }, sh2[2] = { 3, 2 }, wsh[1] = { 2 };
	void *ad = dev(self, NULL, 24), *od = dev(self, NULL, 24), *bd = dev(self, NULL, 6);
	aclTensor *ta = tens(sh, 2, ACL_FLOAT, ad), *to = tens(sh, 2, ACL_FLOAT, od);
	aclTensor *t32 = tens(sh2, 2, ACL_FLOAT, od), *tb = tens(sh, 2, ACL_BOOL, bd);
	aclTensor *tw = tens(wsh, 1, ACL_FLOAT, od), *tfm = tens(sh, 2, ACL_FLOAT, od);
	aclTensor *tbm = tens(wsh, 1, ACL_BOOL, bd);
	aclScalar *zero = fscalar(0.0f), *one = fscalar(1.0f);
	aclOpExecutor *ex;
	uint64_t ws;

	/* out of another shape */
	EXPECT_EQ(INV, aclnnSinGetWorkspaceSize(ta, t32, &ws, &ex));
	EXPECT_EQ(INV, aclnnLeakyReluGetWorkspaceSize(ta, one, t32, &ws, &ex));
	/* BOOL in and out: no float to compute in */
	EXPECT_EQ(INV, aclnnAsinhGetWorkspaceSize(tb, tb, &ws, &ex));
	/* NULLs */
	EXPECT_EQ(NUL, aclnnTanGetWorkspaceSize(NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnCoshGetWorkspaceSize(ta, to, NULL, &ex));
	EXPECT_EQ(NUL, aclnnLeakyReluGetWorkspaceSize(ta, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnClampGetWorkspaceSize(ta, NULL, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnClampTensorGetWorkspaceSize(ta, NULL, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnHardtanhGetWorkspaceSize(ta, one, NULL, to, &ws, &ex));
	/* parameters out of range */
	EXPECT_EQ(INV, aclnnGeluV2GetWorkspaceSize(ta, 2, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnSoftplusGetWorkspaceSize(ta, zero, one, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnCeluGetWorkspaceSize(ta, zero, to, &ws, &ex));
	/* prelu: weight neither one value nor one per channel (3) */
	EXPECT_EQ(INV, aclnnPreluGetWorkspaceSize(ta, tw, to, &ws, &ex));
	/* prelu on BOOL */
	EXPECT_EQ(INV, aclnnPreluGetWorkspaceSize(tb, tw, tb, &ws, &ex));
	/* clamp bounds that do not broadcast to out */
	EXPECT_EQ(INV, aclnnClampMinTensorGetWorkspaceSize(ta, tw, to, &ws, &ex));
	/* masked fill: a float mask, a mask that does not broadcast */
	EXPECT_EQ(INV, aclnnInplaceMaskedFillScalarGetWorkspaceSize(ta, tfm, one, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceMaskedFillScalarGetWorkspaceSize(ta, tbm, one, &ws, &ex));
	aclDestroyScalar(zero);
	aclDestroyScalar(one);
	aclDestroyTensor(ta);
	aclDestroyTensor(to);
	aclDestroyTensor(t32);
	aclDestroyTensor(tb);
	aclDestroyTensor(tw);
	aclDestroyTensor(tfm);
	aclDestroyTensor(tbm);
}

/*
 * CANN's example for aclnnHardsigmoid (activation/hard_sigmoid/examples/
 * test_aclnn_hard_sigmoid.cpp): FLOAT [4, 2] = {-4, -3, -2, 0, 1, 2, 4, 5};
 * then the same values as INT32 in and out, which the document computes
 * and truncates to INT32 (1 from 3 up, else 0), and a bad INT32 out shape.
 */
TEST_F(nn, hardsigmoid_cann_example_int32)
{
	float x[8] = { -4, -3, -2, 0, 1, 2, 4, 5 }, o[8];
	static const float want[8] = { 0, 0, 1.0f / 6, 0.5f, 2.0f / 3, 5.0f / 6, 1, 1 };
	int32_t xi[8] = { -4, -3, -2, 0, 1, 2, 4, 5 }, oi[8];
	static const int32_t want_i[8] = { 0, 0, 0, 0, 0, 0, 1, 1 };
	int64_t sh[2] = { 4, 2 }, sbad[2] = { 2, 4 };
	void *od = dev(self, NULL, sizeof(o)), *oid = dev(self, NULL, sizeof(oi));
	void *xid = dev(self, xi, sizeof(xi));
	aclTensor *tx = tens(sh, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *to = tens(sh, 2, ACL_FLOAT, od);
	aclTensor *ti = tens(sh, 2, ACL_INT32, xid);
	aclTensor *toi = tens(sh, 2, ACL_INT32, oid);
	aclTensor *tbad = tens(sbad, 2, ACL_INT32, oid);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnHardsigmoidGetWorkspaceSize(tx, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnHardsigmoid, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], want[i])) TH_LOG("%g -> %g", x[i], o[i]);
	ASSERT_EQ(0, aclnnHardsigmoidGetWorkspaceSize(ti, toi, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnHardsigmoid, ws, ex));
	get(oi, oid, sizeof(oi));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(want_i[i], oi[i]) TH_LOG("%d", xi[i]);
	/* in place on the INT32 tensor */
	ASSERT_EQ(0, aclnnInplaceHardsigmoidGetWorkspaceSize(ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceHardsigmoid, ws, ex));
	get(oi, xid, sizeof(oi));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(want_i[i], oi[i]);
	EXPECT_EQ(INV, aclnnHardsigmoidGetWorkspaceSize(ti, tbad, &ws, &ex));
	EXPECT_EQ(NUL, aclnnHardsigmoidGetWorkspaceSize(ti, toi, NULL, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(ti);
	aclDestroyTensor(toi);
	aclDestroyTensor(tbad);
}

/*
 * CANN's example for aclnnSelu (activation/selu/examples/test_aclnn_selu.cpp):
 * FLOAT [4, 2] = {0, 2, 3, 4, 5, 6, 7, 7}; then INT32 and INT8, which its
 * document lists for self and out: computed in FLOAT and truncated.
 */
TEST_F(nn, selu_cann_example_int)
{
	float x[8] = { 0, 2, 3, 4, 5, 6, 7, 7 }, o[8];
	int32_t xi[8] = { -3, -1, 0, 1, 2, 5, -7, 9 }, oi[8];
	int8_t x8[8] = { -3, -1, 0, 1, 2, 5, -7, 9 }, o8[8];
	int64_t sh[2] = { 4, 2 };
	void *od = dev(self, NULL, sizeof(o)), *oid = dev(self, NULL, sizeof(oi));
	void *o8d = dev(self, NULL, sizeof(o8));
	aclTensor *tx = tens(sh, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	aclTensor *to = tens(sh, 2, ACL_FLOAT, od);
	aclTensor *ti = tens(sh, 2, ACL_INT32, dev(self, xi, sizeof(xi)));
	aclTensor *toi = tens(sh, 2, ACL_INT32, oid);
	aclTensor *t8 = tens(sh, 2, ACL_INT8, dev(self, x8, sizeof(x8)));
	aclTensor *to8 = tens(sh, 2, ACL_INT8, o8d), *tbool = tens(sh, 2, ACL_BOOL, o8d);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnSeluGetWorkspaceSize(tx, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSelu, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(CLOSE(o[i], 1.0507009873554805f * x[i])) TH_LOG("%g", o[i]);
	ASSERT_EQ(0, aclnnSeluGetWorkspaceSize(ti, toi, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSelu, ws, ex));
	get(oi, oid, sizeof(oi));
	ASSERT_EQ(0, aclnnSeluGetWorkspaceSize(t8, to8, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSelu, ws, ex));
	get(o8, o8d, sizeof(o8));
	for (i = 0; i < 8; i++) {
		int32_t want = (int32_t)selu_ref((float)xi[i]);

		EXPECT_EQ(want, oi[i]) TH_LOG("selu(%d) = %d", xi[i], oi[i]);
		EXPECT_EQ(want, o8[i]);
	}
	EXPECT_EQ(-1, oi[0]);	/* -1.67 truncated */
	EXPECT_EQ(5, oi[5]);	/* 5.25 truncated */
	/* an INT32 self into a BOOL out stays refused */
	EXPECT_EQ(INV, aclnnSeluGetWorkspaceSize(ti, tbool, &ws, &ex));
	aclDestroyTensor(tx);
	aclDestroyTensor(to);
	aclDestroyTensor(ti);
	aclDestroyTensor(toi);
	aclDestroyTensor(t8);
	aclDestroyTensor(to8);
	aclDestroyTensor(tbool);
}

TEST_HARNESS_MAIN
