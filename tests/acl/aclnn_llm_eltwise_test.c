// SPDX-License-Identifier: MIT
/*
 * The elementwise, gated, norm and movement operators of issue 36 (as
 * ggml's CANN backend calls them) on the real driver against host
 * references in double: in-place Sub/Subs/Div/Divs/PowTensorTensor,
 * PowScalarTensor, Addcdiv, Threshold, Sum, InplaceTriu, InplaceZero,
 * SwiGlu, GeGlu(V3), AddRmsNorm, Mv, Ger, Roll and IndexFillTensor, in
 * every float dtype they declare, with strided views, in-place aliasing
 * and the error code of each validation rule.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_sum.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_zero.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
/* CANN ships both names of the log-softmax header; they must coexist. */
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_log_softmax.h"

#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

static const aclDataType FL[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16 };

/* Free the fixture's buffers (a test body past 16 of them). */
static void drop(FIXTURE_DATA(nn) *f)
{
	int i;

	for (i = 0; i < f->nbufs; i++)
		aclrtFree(f->bufs[i]);
	f->nbufs = 0;
}

static size_t esz(aclDataType dt)
{
	switch ((int)dt) {
	case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
	case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
	case ACL_INT64: case ACL_DOUBLE: case ACL_UINT64: return 8;
	default: return 4;
	}
}

static uint16_t f2bf(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	if ((b & 0x7fffffff) > 0x7f800000)
		return 0x7fc0;
	b += 0x7fff + ((b >> 16) & 1);
	return (uint16_t)(b >> 16);
}

static float bf2f(uint16_t h)
{
	uint32_t b = (uint32_t)h << 16;
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static void put(aclDataType dt, void *p, int i, double v)
{
	char *c = (char *)p + (size_t)i * esz(dt);

	switch ((int)dt) {
	case ACL_FLOAT: { float x = (float)v; memcpy(c, &x, 4); break; }
	case ACL_DOUBLE: memcpy(c, &v, 8); break;
	case ACL_FLOAT16: { uint16_t h = aclFloatToFloat16((float)v); memcpy(c, &h, 2); break; }
	case ACL_BF16: { uint16_t h = f2bf((float)v); memcpy(c, &h, 2); break; }
	case ACL_INT8: { int8_t x = (int8_t)v; memcpy(c, &x, 1); break; }
	case ACL_UINT8: { uint8_t x = (uint8_t)v; memcpy(c, &x, 1); break; }
	case ACL_BOOL: { uint8_t x = v != 0; memcpy(c, &x, 1); break; }
	case ACL_INT16: { int16_t x = (int16_t)v; memcpy(c, &x, 2); break; }
	case ACL_UINT16: { uint16_t x = (uint16_t)v; memcpy(c, &x, 2); break; }
	case ACL_INT32: { int32_t x = (int32_t)v; memcpy(c, &x, 4); break; }
	case ACL_INT64: { int64_t x = (int64_t)v; memcpy(c, &x, 8); break; }
	}
}

static double at(aclDataType dt, const void *p, int i)
{
	const char *c = (const char *)p + (size_t)i * esz(dt);

	switch ((int)dt) {
	case ACL_FLOAT: { float x; memcpy(&x, c, 4); return x; }
	case ACL_DOUBLE: { double x; memcpy(&x, c, 8); return x; }
	case ACL_FLOAT16: { uint16_t h; memcpy(&h, c, 2); return aclFloat16ToFloat(h); }
	case ACL_BF16: { uint16_t h; memcpy(&h, c, 2); return bf2f(h); }
	case ACL_INT8: { int8_t x; memcpy(&x, c, 1); return x; }
	case ACL_UINT8: case ACL_BOOL: { uint8_t x; memcpy(&x, c, 1); return x; }
	case ACL_INT16: { int16_t x; memcpy(&x, c, 2); return x; }
	case ACL_UINT16: { uint16_t x; memcpy(&x, c, 2); return x; }
	case ACL_INT32: { int32_t x; memcpy(&x, c, 4); return x; }
	default: { int64_t x; memcpy(&x, c, 8); return (double)x; }
	}
}

/* v as the dtype stores it. */
static double rnd(aclDataType dt, double v)
{
	char b[8];

	put(dt, b, 0, v);
	return at(dt, b, 0);
}

/* A device buffer of n elements of dt from v (values rounded to dt in v). */
static void *mk(FIXTURE_DATA(nn) *f, aclDataType dt, double *v, int n)
{
	char *h = malloc((size_t)n * esz(dt) + 1);
	void *d;
	int i;

	for (i = 0; i < n; i++) {
		put(dt, h, i, v[i]);
		v[i] = at(dt, h, i);
	}
	d = dev(f, h, (size_t)n * esz(dt) + 1);
	free(h);
	return d;
}

/* n elements of dt read back from d as doubles. */
static void rd(aclDataType dt, void *d, double *o, int n)
{
	char *h = malloc((size_t)n * esz(dt) + 1);
	int i;

	get(h, d, (size_t)n * esz(dt));
	for (i = 0; i < n; i++)
		o[i] = at(dt, h, i);
	free(h);
}

/* Within one rounding of dt (and the FLOAT arithmetic before it). */
static bool near(aclDataType dt, double got, double want)
{
	double tol;

	if (isnan(want))
		return isnan(got);
	switch ((int)dt) {
	case ACL_FLOAT: tol = 2e-5; break;
	case ACL_FLOAT16: tol = 2e-3; break;
	case ACL_BF16: tol = 1.6e-2; break;
	case ACL_DOUBLE: tol = 1e-6; break;
	default: tol = 0;
	}
	return fabs(got - want) <= tol * (1 + fabs(want));
}

#define EXPECT_NEAR_DT(dt, got, want, i)				\
	EXPECT_TRUE(near(dt, got, want))				\
		TH_LOG("dtype %d [%d]: %.7g, want %.7g", (int)(dt), (int)(i), \
		       (double)(got), (double)(want))

static bool isf(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16;
}

static aclTensorList *tl(aclTensor **t, uint64_t n)
{
	return aclCreateTensorList((const aclTensor *const *)t, n);
}

static aclScalar *fsc(float v)
{
	return aclCreateScalar(&v, ACL_FLOAT);
}

static aclScalar *isc(int64_t v)
{
	return aclCreateScalar(&v, ACL_INT64);
}

/* ---------------------------------------------------------- in-place -- */

/*
 * ggml's aclnn_sub/aclnn_div with a NULL dst: self a row-padded view
 * [3, 4] (row stride 6), other [4] broadcasting; the padding stays.
 */
TEST_F(nn, inplace_sub_div_broadcast)
{
	int64_t sh[2] = { 3, 4 }, st[2] = { 6, 1 }, osh[1] = { 4 }, bad[1] = { 3 };
	double x[18], x0[18], y[4], o[18];
	aclTensor *tx, *ty, *tbad, *ti;
	aclScalar *alpha = fsc(2.0f);
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, op;

	for (k = 0; k < 3; k++)
		for (op = 0; op < 2; op++) {
			aclDataType dt = FL[k];
			void *xd, *yd;

			for (i = 0; i < 18; i++)
				x[i] = frand(i) * 3;
			for (i = 0; i < 4; i++)
				y[i] = 0.5 + i * 0.75;
			xd = mk(self, dt, x, 18);
			yd = mk(self, dt, y, 4);
			memcpy(x0, x, sizeof(x));
			tx = view(sh, 2, st, 0, 18, dt, xd);
			ty = tens(osh, 1, dt, yd);
			if (op == 0) {
				ASSERT_EQ(0, aclnnInplaceSubGetWorkspaceSize(tx, ty, alpha, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnInplaceSub, ws, ex));
			} else {
				ASSERT_EQ(0, aclnnInplaceDivGetWorkspaceSize(tx, ty, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnInplaceDiv, ws, ex));
			}
			rd(dt, xd, o, 18);
			for (i = 0; i < 18; i++) {
				double e = x0[i];

				if (i % 6 < 4)
					e = op ? x0[i] / y[i % 6] : x0[i] - 2 * y[i % 6];
				EXPECT_NEAR_DT(dt, o[i], rnd(dt, e), i);
			}
			drop(self);
		}
	/* a FLOAT other into a FLOAT16 self: computed in FLOAT, rounded once */
	for (i = 0; i < 12; i++)
		x[i] = frand(i);
	for (i = 0; i < 4; i++)
		y[i] = 0.1 * (i + 1);
	tx = tens(sh, 2, ACL_FLOAT16, mk(self, ACL_FLOAT16, x, 12));
	ty = tens(osh, 1, ACL_FLOAT, mk(self, ACL_FLOAT, y, 4));
	ASSERT_EQ(0, aclnnInplaceSubGetWorkspaceSize(tx, ty, alpha, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceSub, ws, ex));
	rd(ACL_FLOAT16, self->bufs[0], o, 12);
	for (i = 0; i < 12; i++)
		EXPECT_NEAR_DT(ACL_FLOAT16, o[i], x[i] - 2 * y[i % 4], i);

	/* errors: NULLs, other not broadcasting to self, a FLOAT result into INT32 */
	tbad = tens(bad, 1, ACL_FLOAT, dev(self, NULL, 12));
	ti = tens(sh, 2, ACL_INT32, dev(self, NULL, 48));
	EXPECT_EQ(NUL, aclnnInplaceSubGetWorkspaceSize(NULL, ty, alpha, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceSubGetWorkspaceSize(tx, NULL, alpha, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceSubGetWorkspaceSize(tx, ty, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceSubGetWorkspaceSize(tx, ty, alpha, NULL, &ex));
	EXPECT_EQ(NUL, aclnnInplaceDivGetWorkspaceSize(tx, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceDivGetWorkspaceSize(tx, ty, &ws, NULL));
	EXPECT_EQ(INV, aclnnInplaceSubGetWorkspaceSize(tx, tbad, alpha, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceDivGetWorkspaceSize(tx, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceSubGetWorkspaceSize(ti, ty, alpha, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceDivGetWorkspaceSize(ti, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceSubGetWorkspaceSize(ti, ti, alpha, &ws, &ex));
	tbad = tens(sh, 2, ACL_UINT32, self->bufs[self->nbufs - 1]);
	EXPECT_EQ(INV, aclnnInplaceSubGetWorkspaceSize(tbad, ty, alpha, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceDivGetWorkspaceSize(tx, tbad, &ws, &ex));
	/* other larger than self: self cannot take the broadcast result */
	EXPECT_EQ(INV, aclnnInplaceSubGetWorkspaceSize(ty, tx, alpha, &ws, &ex));
	aclDestroyScalar(alpha);
}

/* ggml's YaRN ramp: arange, InplaceSubs(low, 1), InplaceDivs, InplaceThreshold. */
TEST_F(nn, inplace_subs_divs_threshold_yarn)
{
	int64_t sh[1] = { 16 };
	double x[16], o[16];
	aclScalar *low = fsc(3.5f), *one = fsc(1.0f), *den = fsc(4.0f);
	aclScalar *zero = fsc(0.0f), *two = isc(2);
	aclOpExecutor *ex;
	aclTensor *t, *ti;
	unsigned k;
	uint64_t ws;
	int i;

	for (k = 0; k < 3; k++) {
		aclDataType dt = FL[k];
		void *d;

		for (i = 0; i < 16; i++)
			x[i] = i;
		d = mk(self, dt, x, 16);
		t = tens(sh, 1, dt, d);
		ASSERT_EQ(0, aclnnInplaceSubsGetWorkspaceSize(t, low, one, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceSubs, ws, ex));
		ASSERT_EQ(0, aclnnInplaceDivsGetWorkspaceSize(t, den, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceDivs, ws, ex));
		rd(dt, d, o, 16);
		for (i = 0; i < 16; i++)
			EXPECT_NEAR_DT(dt, o[i], rnd(dt, (i - 3.5) / 4), i);
		ASSERT_EQ(0, aclnnInplaceThresholdGetWorkspaceSize(t, zero, zero, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceThreshold, ws, ex));
		rd(dt, d, o, 16);
		for (i = 0; i < 16; i++)
			EXPECT_NEAR_DT(dt, o[i], i < 4 ? 0 : rnd(dt, (i - 3.5) / 4), i);
		/* alpha scales the scalar: x - 2 * 1 */
		ASSERT_EQ(0, aclnnInplaceSubsGetWorkspaceSize(t, one, two, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceSubs, ws, ex));
		rd(dt, d, o, 16);
		for (i = 0; i < 16; i++)
			EXPECT_NEAR_DT(dt, o[i], (i < 4 ? 0 : rnd(dt, (i - 3.5) / 4)) - 2, i);
		drop(self);
	}
	/* INT32 self: Subs with an integer scalar stays integer */
	for (i = 0; i < 16; i++)
		x[i] = i * 3 - 20;
	ti = tens(sh, 1, ACL_INT32, mk(self, ACL_INT32, x, 16));
	ASSERT_EQ(0, aclnnInplaceSubsGetWorkspaceSize(ti, two, two, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceSubs, ws, ex));
	rd(ACL_INT32, self->bufs[0], o, 16);
	for (i = 0; i < 16; i++)
		EXPECT_EQ(x[i] - 4, o[i]);
	/* errors: a float result into INT32 (Divs, Subs with a float scalar), NULLs */
	EXPECT_EQ(INV, aclnnInplaceDivsGetWorkspaceSize(ti, two, &ws, &ex));
	EXPECT_EQ(INV, aclnnInplaceSubsGetWorkspaceSize(ti, low, one, &ws, &ex));
	/* a float alpha on an integer result */
	EXPECT_EQ(INV, aclnnInplaceSubsGetWorkspaceSize(ti, two, one, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceSubsGetWorkspaceSize(NULL, low, one, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceSubsGetWorkspaceSize(ti, NULL, one, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceSubsGetWorkspaceSize(ti, two, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceDivsGetWorkspaceSize(ti, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceDivsGetWorkspaceSize(NULL, den, &ws, &ex));
	aclDestroyScalar(low);
	aclDestroyScalar(one);
	aclDestroyScalar(den);
	aclDestroyScalar(zero);
	aclDestroyScalar(two);
}

/* Threshold out of place with NaN, an INT32 self, and its errors. */
TEST_F(nn, threshold)
{
	int64_t sh[2] = { 2, 5 }, st[2] = { 1, 2 }, bsh[2] = { 5, 2 };
	double x[10], o[10];
	aclScalar *thr = fsc(0.25f), *val = fsc(-7.0f), *ithr = isc(1);
	aclTensor *tx, *to, *tb, *tbool;
	void *xd, *fd;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i;

	for (k = 0; k < 3; k++) {
		aclDataType dt = FL[k];
		void *od;

		for (i = 0; i < 10; i++)
			x[i] = frand(i);
		x[3] = NAN;
		/* self a transposed view of a [5, 2] buffer */
		tx = view(sh, 2, st, 0, 10, dt, mk(self, dt, x, 10));
		od = dev(self, NULL, 10 * esz(dt));
		to = tens(sh, 2, dt, od);
		ASSERT_EQ(0, aclnnThresholdGetWorkspaceSize(tx, thr, val, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnThreshold, ws, ex));
		rd(dt, od, o, 10);
		for (i = 0; i < 10; i++) {
			double v = x[(i % 5) * 2 + i / 5];
			double e = v <= rnd(dt, 0.25) ? -7 : v;

			EXPECT_NEAR_DT(dt, o[i], e, i);
		}
		/* errors: out's dtype or shape differ, NULLs */
		tb = tens(bsh, 2, dt, od);
		EXPECT_EQ(INV, aclnnThresholdGetWorkspaceSize(tx, thr, val, tb, &ws, &ex));
		EXPECT_EQ(NUL, aclnnThresholdGetWorkspaceSize(tx, NULL, val, to, &ws, &ex));
		EXPECT_EQ(NUL, aclnnThresholdGetWorkspaceSize(tx, thr, NULL, to, &ws, &ex));
		EXPECT_EQ(NUL, aclnnThresholdGetWorkspaceSize(NULL, thr, val, to, &ws, &ex));
		EXPECT_EQ(NUL, aclnnThresholdGetWorkspaceSize(tx, thr, val, NULL, &ws, &ex));
		EXPECT_EQ(NUL, aclnnInplaceThresholdGetWorkspaceSize(NULL, thr, val, &ws, &ex));
		drop(self);
	}
	for (i = 0; i < 10; i++)
		x[i] = i - 4;
	xd = mk(self, ACL_INT32, x, 10);
	tx = tens(sh, 2, ACL_INT32, xd);
	/* INT32 with integer scalars into a FLOAT out */
	fd = dev(self, NULL, 40);
	to = tens(sh, 2, ACL_FLOAT, fd);
	ASSERT_EQ(0, aclnnThresholdGetWorkspaceSize(tx, ithr, val, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnThreshold, ws, ex));
	rd(ACL_FLOAT, fd, o, 10);
	for (i = 0; i < 10; i++)
		EXPECT_EQ(x[i] <= 1 ? -7 : x[i], o[i]);
	ASSERT_EQ(0, aclnnInplaceThresholdGetWorkspaceSize(tx, ithr, ithr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceThreshold, ws, ex));
	rd(ACL_INT32, xd, o, 10);
	for (i = 0; i < 10; i++)
		EXPECT_EQ(x[i] <= 1 ? 1 : x[i], o[i]);
	/* INT16, one of CANN's dtypes the compute set lacks */
	xd = mk(self, ACL_INT16, x, 10);
	tx = tens(sh, 2, ACL_INT16, xd);
	ASSERT_EQ(0, aclnnInplaceThresholdGetWorkspaceSize(tx, ithr, ithr, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceThreshold, ws, ex));
	rd(ACL_INT16, xd, o, 10);
	for (i = 0; i < 10; i++)
		EXPECT_EQ(x[i] <= 1 ? 1 : x[i], o[i]);
	/* a FLOAT threshold lifts INT16 to FLOAT, which INT16 cannot hold */
	EXPECT_EQ(INV, aclnnInplaceThresholdGetWorkspaceSize(tx, thr, ithr, &ws, &ex));
	/* BOOL and DOUBLE are not among Threshold's dtypes */
	tbool = tens(sh, 2, ACL_BOOL, dev(self, NULL, 10));
	EXPECT_EQ(INV, aclnnInplaceThresholdGetWorkspaceSize(tbool, ithr, ithr, &ws, &ex));
	tbool = tens(sh, 2, ACL_DOUBLE, dev(self, NULL, 80));
	EXPECT_EQ(INV, aclnnInplaceThresholdGetWorkspaceSize(tbool, thr, thr, &ws, &ex));
	EXPECT_EQ(INV, aclnnThresholdGetWorkspaceSize(to, thr, thr, tbool, &ws, &ex));
	aclDestroyScalar(thr);
	aclDestroyScalar(val);
	aclDestroyScalar(ithr);
}

/* ggml's ALiBi slopes: m ** arange, and ggml's in-place PowTensorTensor. */
TEST_F(nn, pow_scalar_tensor_and_inplace)
{
	int64_t sh[1] = { 8 }, msh[2] = { 2, 3 }, est[1] = { 3 }, st[2] = { 4, 1 };
	double e[8], o[8], x[8], p[3];
	aclScalar *m = fsc(0.5f), *two = isc(2);
	aclTensor *te, *to, *tx, *tp, *ti, *tbad;
	void *ed, *fd, *id;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i;

	for (k = 0; k < 3; k++) {
		aclDataType dt = FL[k];
		void *od, *xd;

		for (i = 0; i < 8; i++)
			e[i] = 1 + i * 0.5;
		te = tens(sh, 1, dt, mk(self, dt, e, 8));
		od = dev(self, NULL, 8 * esz(dt));
		to = tens(sh, 1, dt, od);
		ASSERT_EQ(0, aclnnPowScalarTensorGetWorkspaceSize(m, te, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnPowScalarTensor, ws, ex));
		rd(dt, od, o, 8);
		for (i = 0; i < 8; i++)
			EXPECT_NEAR_DT(dt, o[i], pow(0.5, e[i]), i);
		/* self [2, 3] in rows of 4, exponent [3] broadcasting */
		for (i = 0; i < 8; i++)
			x[i] = 0.5 + i * 0.25;
		for (i = 0; i < 3; i++)
			p[i] = i - 0.5;
		xd = mk(self, dt, x, 8);
		tx = view(msh, 2, st, 0, 8, dt, xd);
		tp = tens(est, 1, dt, mk(self, dt, p, 3));
		ASSERT_EQ(0, aclnnInplacePowTensorTensorGetWorkspaceSize(tx, tp, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplacePowTensorTensor, ws, ex));
		rd(dt, xd, o, 8);
		for (i = 0; i < 8; i++)
			EXPECT_NEAR_DT(dt, o[i], i % 4 < 3 ? pow(x[i], p[i % 4]) : x[i], i);
		/* the out-of-place form from aclnn_pow_tensor_tensor.h */
		ASSERT_EQ(0, aclnnPowTensorTensorGetWorkspaceSize(tp, tp, tp, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnPowTensorTensor, ws, ex));
		drop(self);
	}
	/* INT32 exponent with a FLOAT base: FLOAT out; an INT32 out cannot hold it */
	for (i = 0; i < 8; i++)
		e[i] = i;
	ed = mk(self, ACL_INT32, e, 8);
	fd = dev(self, NULL, 32);
	id = dev(self, NULL, 32);
	ti = tens(sh, 1, ACL_INT32, ed);
	to = tens(sh, 1, ACL_FLOAT, fd);
	ASSERT_EQ(0, aclnnPowScalarTensorGetWorkspaceSize(m, ti, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowScalarTensor, ws, ex));
	rd(ACL_FLOAT, fd, o, 8);
	for (i = 0; i < 8; i++)
		EXPECT_NEAR_DT(ACL_FLOAT, o[i], pow(0.5, i), i);
	/* integer base and exponent stay integer */
	tbad = tens(sh, 1, ACL_INT32, id);
	ASSERT_EQ(0, aclnnPowScalarTensorGetWorkspaceSize(two, ti, tbad, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnPowScalarTensor, ws, ex));
	rd(ACL_INT32, id, o, 8);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(1 << i, o[i]);
	EXPECT_EQ(INV, aclnnPowScalarTensorGetWorkspaceSize(m, ti, tbad, &ws, &ex));
	/* out shape differs from exponent's */
	to = tens(est, 1, ACL_FLOAT, fd);
	EXPECT_EQ(INV, aclnnPowScalarTensorGetWorkspaceSize(m, ti, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnPowScalarTensorGetWorkspaceSize(NULL, ti, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnPowScalarTensorGetWorkspaceSize(m, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnPowScalarTensorGetWorkspaceSize(m, ti, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplacePowTensorTensorGetWorkspaceSize(ti, NULL, &ws, &ex));
	tbad = tens(sh, 1, ACL_BOOL, id);
	EXPECT_EQ(INV, aclnnPowScalarTensorGetWorkspaceSize(m, tbad, to, &ws, &ex));
	/* exponent not broadcasting to self */
	tx = tens(msh, 2, ACL_FLOAT, dev(self, NULL, 24));
	EXPECT_EQ(INV, aclnnInplacePowTensorTensorGetWorkspaceSize(tx, ti, &ws, &ex));
	aclDestroyScalar(m);
	aclDestroyScalar(two);
}

/* out = self + value * t1 / t2 with broadcasting; the in-place form. */
TEST_F(nn, addcdiv)
{
	int64_t sh[2] = { 2, 3 }, rsh[1] = { 3 }, tst[2] = { 1, 2 }, bad[2] = { 3, 2 };
	double s[6], a[6], b[3], o[6];
	aclScalar *v = fsc(0.5f);
	aclTensor *ts, *ta, *tb, *to, *tbad, *ti;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, inpl;

	for (k = 0; k < 4; k++)
		for (inpl = 0; inpl < 2; inpl++) {
			aclDataType dt = k < 3 ? FL[k] : ACL_DOUBLE;
			void *sd, *od;

			for (i = 0; i < 6; i++) {
				s[i] = frand(i);
				a[i] = frand(i + 7);
			}
			for (i = 0; i < 3; i++)
				b[i] = 0.75 + i;
			sd = mk(self, dt, s, 6);
			ts = tens(sh, 2, dt, sd);
			/* tensor1 a transposed view of a [3, 2] buffer */
			ta = view(sh, 2, tst, 0, 6, dt, mk(self, dt, a, 6));
			tb = tens(rsh, 1, dt, mk(self, dt, b, 3));
			if (inpl) {
				od = sd;
				ASSERT_EQ(0, aclnnInplaceAddcdivGetWorkspaceSize(ts, ta, tb, v, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnInplaceAddcdiv, ws, ex));
			} else {
				od = dev(self, NULL, 6 * esz(dt));
				to = tens(sh, 2, dt, od);
				ASSERT_EQ(0, aclnnAddcdivGetWorkspaceSize(ts, ta, tb, v, to, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnAddcdiv, ws, ex));
			}
			rd(dt, od, o, 6);
			for (i = 0; i < 6; i++) {
				int r = i / 3, c = i % 3;

				EXPECT_NEAR_DT(dt, o[i], s[i] + 0.5 * a[c * 2 + r] / b[c], i);
			}
			drop(self);
		}
	ts = tens(sh, 2, ACL_FLOAT, dev(self, NULL, 24));
	tb = tens(rsh, 1, ACL_FLOAT, dev(self, NULL, 12));
	tbad = tens(bad, 2, ACL_FLOAT, dev(self, NULL, 24));
	ti = tens(sh, 2, ACL_INT32, dev(self, NULL, 24));
	/* integers (CANN lists INT64) are refused; shapes that do not broadcast to out */
	EXPECT_EQ(INV, aclnnAddcdivGetWorkspaceSize(ti, ts, tb, v, ts, &ws, &ex));
	ti = tens(sh, 2, ACL_INT64, dev(self, NULL, 48));
	EXPECT_EQ(INV, aclnnAddcdivGetWorkspaceSize(ti, ti, ti, v, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnAddcdivGetWorkspaceSize(ts, ts, tb, v, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnAddcdivGetWorkspaceSize(ts, tbad, tb, v, ts, &ws, &ex));
	EXPECT_EQ(INV, aclnnAddcdivGetWorkspaceSize(ts, ts, tb, v, tbad, &ws, &ex));
	/* in place, self must take the broadcast shape */
	EXPECT_EQ(INV, aclnnInplaceAddcdivGetWorkspaceSize(tb, ts, tb, v, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddcdivGetWorkspaceSize(ts, ts, tb, NULL, ts, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddcdivGetWorkspaceSize(ts, NULL, tb, v, ts, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddcdivGetWorkspaceSize(ts, ts, NULL, v, ts, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddcdivGetWorkspaceSize(ts, ts, tb, v, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceAddcdivGetWorkspaceSize(NULL, ts, tb, v, &ws, &ex));
	aclDestroyScalar(v);
}

/* Sum of a tensor list with broadcasting in each of CANN's dtypes. */
TEST_F(nn, sum_list)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_INT32,
					   ACL_INT8, ACL_UINT8 };
	int64_t sh[2] = { 2, 3 }, r[1] = { 3 }, c[2] = { 2, 1 }, bad[1] = { 2 };
	double a[6], b[3], d[2], o[6];
	aclTensor *t[3], *to, *tb, *t1;
	aclTensorList *l, *l1;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i;

	for (k = 0; k < 5; k++) {
		aclDataType dt = dts[k];
		void *od;

		for (i = 0; i < 6; i++)
			a[i] = isf(dt) ? frand(i) : i + 1;
		for (i = 0; i < 3; i++)
			b[i] = isf(dt) ? frand(i + 3) : 2 * i;
		d[0] = 3;
		d[1] = isf(dt) ? 0.25 : 5;
		t[0] = tens(sh, 2, dt, mk(self, dt, a, 6));
		t[1] = tens(r, 1, dt, mk(self, dt, b, 3));
		t[2] = tens(c, 2, dt, mk(self, dt, d, 2));
		od = dev(self, NULL, 6 * esz(dt));
		to = tens(sh, 2, dt, od);
		l = tl(t, 3);
		ASSERT_EQ(0, aclnnSumGetWorkspaceSize(l, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnSum, ws, ex));
		rd(dt, od, o, 6);
		for (i = 0; i < 6; i++)
			EXPECT_NEAR_DT(dt, o[i], rnd(dt, a[i] + b[i % 3] + d[i / 3]), i);
		/* one tensor: broadcast copy */
		t1 = tens(r, 1, dt, self->bufs[1]);
		l1 = tl(&t1, 1);
		ASSERT_EQ(0, aclnnSumGetWorkspaceSize(l1, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnSum, ws, ex));
		rd(dt, od, o, 6);
		for (i = 0; i < 6; i++)
			EXPECT_NEAR_DT(dt, o[i], b[i % 3], i);
		/* errors: out of a smaller shape, a dtype differing from out's */
		tb = tens(bad, 1, dt, od);
		EXPECT_EQ(INV, aclnnSumGetWorkspaceSize(l, tb, &ws, &ex));
		tb = tens(sh, 2, dt == ACL_FLOAT ? ACL_INT32 : ACL_FLOAT, od);
		EXPECT_EQ(INV, aclnnSumGetWorkspaceSize(l, tb, &ws, &ex));
		aclDestroyTensorList(l1);
		aclDestroyTensorList(l);
		drop(self);
	}
	/* BF16 and INT64 are not among AccumulateNV2's dtypes */
	t[0] = tens(sh, 2, ACL_BF16, dev(self, NULL, 12));
	l = tl(t, 1);
	EXPECT_EQ(INV, aclnnSumGetWorkspaceSize(l, t[0], &ws, &ex));
	t[1] = tens(sh, 2, ACL_INT64, dev(self, NULL, 48));
	l1 = tl(&t[1], 1);
	EXPECT_EQ(INV, aclnnSumGetWorkspaceSize(l1, t[1], &ws, &ex));
	/* an empty list, NULLs */
	EXPECT_EQ(INV, aclnnSumGetWorkspaceSize(tl(NULL, 0), t[0], &ws, &ex));
	EXPECT_EQ(NUL, aclnnSumGetWorkspaceSize(NULL, t[0], &ws, &ex));
	EXPECT_EQ(NUL, aclnnSumGetWorkspaceSize(l, NULL, &ws, &ex));
}

/* ggml's diag mask: InplaceTriu on a filled buffer; a strided view. */
TEST_F(nn, inplace_triu)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
					   ACL_INT32, ACL_BOOL, ACL_INT8,
					   ACL_INT16, ACL_DOUBLE };
	static const int64_t diags[] = { -1, 0, 2 };
	/* [2, 3, 4] with rows of 5 and matrices of 16 */
	int64_t sh[3] = { 2, 3, 4 }, st[3] = { 16, 5, 1 }, one[1] = { 4 };
	double x[32], o[32];
	aclOpExecutor *ex;
	aclTensor *t;
	unsigned k, g;
	uint64_t ws;
	int i;

	for (k = 0; k < 8; k++)
		for (g = 0; g < 3; g++) {
			aclDataType dt = dts[k];
			void *d;

			for (i = 0; i < 32; i++)
				x[i] = dt == ACL_BOOL ? 1 : isf(dt) ? frand(i) : i - 10;
			d = mk(self, dt, x, 32);
			t = view(sh, 3, st, 0, 32, dt, d);
			ASSERT_EQ(0, aclnnInplaceTriuGetWorkspaceSize(t, diags[g], &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnInplaceTriu, ws, ex));
			rd(dt, d, o, 32);
			for (i = 0; i < 32; i++) {
				int m = i % 16, r = m / 5, c = m % 5;
				bool in = r < 3 && c < 4;
				double e = in && c - r < diags[g] ? 0 : x[i];

				EXPECT_NEAR_DT(dt, o[i], e, i);
			}
			drop(self);
		}
	t = tens(one, 1, ACL_FLOAT, dev(self, NULL, 16));
	EXPECT_EQ(INV, aclnnInplaceTriuGetWorkspaceSize(t, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceTriuGetWorkspaceSize(NULL, 0, &ws, &ex));
	t = tens(sh, 3, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(NUL, aclnnInplaceTriuGetWorkspaceSize(t, 0, NULL, &ex));
	EXPECT_EQ(NUL, aclnnInplaceTriuGetWorkspaceSize(t, 0, &ws, NULL));
	t = tens(sh, 3, ACL_COMPLEX64, self->bufs[0]);
	EXPECT_EQ(INV, aclnnInplaceTriuGetWorkspaceSize(t, 0, &ws, &ex));
}

/* InplaceZero of a padded view in every dtype the device holds. */
TEST_F(nn, inplace_zero)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
					   ACL_INT8, ACL_UINT8, ACL_INT16,
					   ACL_INT32, ACL_INT64, ACL_BOOL,
					   ACL_DOUBLE, ACL_UINT16 };
	int64_t sh[2] = { 3, 2 }, st[2] = { 3, 1 };
	double x[9], o[9];
	aclOpExecutor *ex;
	aclTensor *t;
	unsigned k;
	uint64_t ws;
	int i;

	for (k = 0; k < 11; k++) {
		aclDataType dt = dts[k];
		void *d;

		for (i = 0; i < 9; i++)
			x[i] = i + 1;
		d = mk(self, dt, x, 9);
		t = view(sh, 2, st, 0, 9, dt, d);
		ASSERT_EQ(0, aclnnInplaceZeroGetWorkspaceSize(t, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnInplaceZero, ws, ex));
		rd(dt, d, o, 9);
		for (i = 0; i < 9; i++)
			EXPECT_EQ(i % 3 == 2 ? x[i] : 0, o[i]) TH_LOG("dtype %d [%d]", dt, i);
		drop(self);
	}
	t = tens(sh, 2, ACL_COMPLEX64, dev(self, NULL, 48));
	EXPECT_EQ(INV, aclnnInplaceZeroGetWorkspaceSize(t, &ws, &ex));
	t = tens(sh, 2, ACL_UINT32, self->bufs[0]);
	EXPECT_EQ(INV, aclnnInplaceZeroGetWorkspaceSize(t, &ws, &ex));
	t = tens(sh, 2, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(NUL, aclnnInplaceZeroGetWorkspaceSize(NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceZeroGetWorkspaceSize(t, NULL, &ex));
	EXPECT_EQ(NUL, aclnnInplaceZeroGetWorkspaceSize(t, &ws, NULL));
}

static double silu(double v) { return v / (1 + exp(-v)); }
static double gelu_erf(double v) { return 0.5 * v * (1 + erf(v / sqrt(2))); }
static double gelu_tanh(double v)
{
	return 0.5 * v * (1 + tanh(sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
}

/*
 * ggml's SwiGlu: x a 3-D view [ne23, ne1, 2 * ne0] split along its last
 * dim (2 and -1), with padded rows; and dim 0.
 */
TEST_F(nn, swiglu)
{
	enum { A = 2, B = 3, H = 4, RS = 2 * H + 3 };
	int64_t xsh[3] = { A, B, 2 * H }, xst[3] = { B * RS, RS, 1 };
	int64_t osh[3] = { A, B, H }, o0[3] = { A / 2, B, 2 * H };
	int64_t odd[3] = { A, B, 3 };
	double x[A * B * RS], o[A * B * H];
	aclTensor *tx, *to, *tb;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, v;

	for (k = 0; k < 3; k++)
		for (v = 0; v < 3; v++) {
			aclDataType dt = FL[k];
			int64_t dim = v == 0 ? 2 : v == 1 ? -1 : 0;
			void *od;

			for (i = 0; i < A * B * RS; i++)
				x[i] = frand(i) * 2;
			tx = view(xsh, 3, xst, 0, A * B * RS, dt, mk(self, dt, x, A * B * RS));
			od = dev(self, NULL, A * B * H * esz(dt));
			to = tens(v < 2 ? osh : o0, 3, dt, od);
			ASSERT_EQ(0, aclnnSwiGluGetWorkspaceSize(tx, dim, to, &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnSwiGlu, ws, ex));
			rd(dt, od, o, A * B * H);
			for (i = 0; i < A * B * H; i++) {
				double a, b;

				if (v < 2) {
					int r = i / H, c = i % H;

					a = x[r * RS + c];
					b = x[r * RS + c + H];
				} else {
					/* [1, B, 2H]: halves are a = [0], b = [1] along dim 0 */
					a = x[i / (2 * H) * RS + i % (2 * H)];
					b = x[B * RS + i / (2 * H) * RS + i % (2 * H)];
				}
				EXPECT_NEAR_DT(dt, o[i], silu(a) * b, i);
			}
			drop(self);
		}
	tx = tens(xsh, 3, ACL_FLOAT, dev(self, NULL, A * B * 2 * H * 4));
	to = tens(osh, 3, ACL_FLOAT, dev(self, NULL, A * B * H * 4));
	/* dim out of range; an odd size along dim; out's shape and dtype; int x */
	EXPECT_EQ(INV, aclnnSwiGluGetWorkspaceSize(tx, 3, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnSwiGluGetWorkspaceSize(tx, -4, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnSwiGluGetWorkspaceSize(tx, 1, to, &ws, &ex));
	tb = tens(odd, 3, ACL_FLOAT, self->bufs[1]);
	EXPECT_EQ(INV, aclnnSwiGluGetWorkspaceSize(tx, 2, tb, &ws, &ex));
	tb = tens(osh, 3, ACL_FLOAT16, self->bufs[1]);
	EXPECT_EQ(INV, aclnnSwiGluGetWorkspaceSize(tx, 2, tb, &ws, &ex));
	tb = tens(xsh, 3, ACL_INT32, self->bufs[0]);
	EXPECT_EQ(INV, aclnnSwiGluGetWorkspaceSize(tb, 2, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnSwiGluGetWorkspaceSize(NULL, 2, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnSwiGluGetWorkspaceSize(tx, 2, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnSwiGluGetWorkspaceSize(tx, 2, to, &ws, NULL));
}

/*
 * GeGluV3 as ggml calls it (dim 3 of a 4-D tensor, activateLeft) in both
 * approximations, activateLeft false, and GeGlu (the right half).
 */
TEST_F(nn, geglu)
{
	enum { N = 1 * 3 * 2, H = 3 };	/* N rows of 2H */
	int64_t xsh[4] = { 1, 3, 2, 2 * H }, osh[4] = { 1, 3, 2, H };
	int64_t bad[4] = { 1, 3, 2, 2 * H };
	double x[N * 2 * H], o[N * H], g[N * H];
	aclTensor *tx, *to, *tg, *tb;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, v;

	for (k = 0; k < 3; k++)
		for (v = 0; v < 5; v++) {
			aclDataType dt = FL[k];
			int approx = v & 1;
			bool left = v < 2 || v == 4;
			void *od, *gd;

			for (i = 0; i < N * 2 * H; i++)
				x[i] = frand(i) * 2;
			tx = tens(xsh, 4, dt, mk(self, dt, x, N * 2 * H));
			od = dev(self, NULL, N * H * esz(dt));
			gd = dev(self, NULL, N * H * esz(dt));
			to = tens(osh, 4, dt, od);
			tg = tens(osh, 4, dt, gd);
			if (v < 4) {
				ASSERT_EQ(0, aclnnGeGluV3GetWorkspaceSize(tx, 3, approx, left, to, tg, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnGeGluV3, ws, ex));
			} else {
				/* GeGlu: activates the right half */
				left = false;
				ASSERT_EQ(0, aclnnGeGluGetWorkspaceSize(tx, -1, approx, to, tg, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnGeGlu, ws, ex));
			}
			rd(dt, od, o, N * H);
			rd(dt, gd, g, N * H);
			for (i = 0; i < N * H; i++) {
				int r = i / H, c = i % H;
				double a = x[r * 2 * H + c + (left ? 0 : H)];
				double b = x[r * 2 * H + c + (left ? H : 0)];
				double ge = approx ? gelu_tanh(a) : gelu_erf(a);

				EXPECT_NEAR_DT(dt, g[i], ge, i);
				EXPECT_NEAR_DT(dt, o[i], ge * b, i);
			}
			drop(self);
		}
	tx = tens(xsh, 4, ACL_FLOAT, dev(self, NULL, N * 2 * H * 4));
	to = tens(osh, 4, ACL_FLOAT, dev(self, NULL, N * H * 4));
	tg = tens(osh, 4, ACL_FLOAT, dev(self, NULL, N * H * 4));
	EXPECT_EQ(INV, aclnnGeGluV3GetWorkspaceSize(tx, 3, 2, true, to, tg, &ws, &ex));
	EXPECT_EQ(INV, aclnnGeGluV3GetWorkspaceSize(tx, 4, 0, true, to, tg, &ws, &ex));
	EXPECT_EQ(INV, aclnnGeGluV3GetWorkspaceSize(tx, 1, 0, true, to, tg, &ws, &ex));
	tb = tens(bad, 4, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(INV, aclnnGeGluV3GetWorkspaceSize(tx, 3, 0, true, to, tb, &ws, &ex));
	tb = tens(osh, 4, ACL_BF16, self->bufs[2]);
	EXPECT_EQ(INV, aclnnGeGluV3GetWorkspaceSize(tx, 3, 0, true, to, tb, &ws, &ex));
	EXPECT_EQ(INV, aclnnGeGluGetWorkspaceSize(tx, 3, 0, tb, tg, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGeGluV3GetWorkspaceSize(tx, 3, 0, true, to, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGeGluV3GetWorkspaceSize(tx, 3, 0, true, NULL, tg, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGeGluV3GetWorkspaceSize(NULL, 3, 0, true, to, tg, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGeGluGetWorkspaceSize(tx, 3, 0, to, NULL, &ws, &ex));
}

/*
 * ggml's fused add + RMS norm: x [2, 3, 8], gamma [8], rstd [2, 3, 1];
 * gamma of x's dtype or FLOAT; a [4, 8] gamma; NULL rstd and xOut.
 */
TEST_F(nn, add_rms_norm)
{
	enum { R = 6, D = 8 };
	int64_t xsh[3] = { 2, 3, D }, gsh[1] = { D }, rsh[3] = { 2, 3, 1 };
	int64_t g2[2] = { 3, D }, r2[3] = { 2, 1, 1 }, bad[3] = { 2, 3, 2 };
	int64_t g1[2] = { 1, D }, gb[2] = { 2, D };
	double a[R * D], b[R * D], g[3 * D], y[R * D], xs[R * D], rs[R];
	aclTensor *t1, *t2, *tg, *ty, *tr, *tx, *tb;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, j, v;

	for (k = 0; k < 3; k++)
		for (v = 0; v < 5; v++) {
			aclDataType dt = FL[k];
			/* v 1: FLOAT gamma; 2: gamma [3, 8]; 3: no rstd, no xOut; 4: gamma [1, 8] */
			aclDataType gdt = v == 1 ? ACL_FLOAT : dt;
			int from = v == 2 ? 1 : 2, n = v == 2 ? 3 * D : D, rows = v == 2 ? 2 : R;
			void *yd, *rd_, *xd;

			for (i = 0; i < R * D; i++) {
				a[i] = frand(i);
				b[i] = frand(i * 5 + 1) * 0.5;
			}
			for (i = 0; i < 3 * D; i++)
				g[i] = 0.5 + i * 0.05;
			t1 = tens(xsh, 3, dt, mk(self, dt, a, R * D));
			t2 = tens(xsh, 3, dt, mk(self, dt, b, R * D));
			tg = tens(v == 2 ? g2 : v == 4 ? g1 : gsh, v == 2 || v == 4 ? 2 : 1, gdt,
				  mk(self, gdt, g, n));
			yd = dev(self, NULL, R * D * esz(dt));
			rd_ = dev(self, NULL, R * 4);
			xd = dev(self, NULL, R * D * esz(dt));
			ty = tens(xsh, 3, dt, yd);
			tr = tens(v == 2 ? r2 : rsh, 3, ACL_FLOAT, rd_);
			tx = tens(xsh, 3, dt, xd);
			ASSERT_EQ(0, aclnnAddRmsNormGetWorkspaceSize(t1, t2, tg, 1e-6,
					ty, v == 3 ? NULL : tr, v == 3 ? NULL : tx, &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnAddRmsNorm, ws, ex));
			rd(dt, yd, y, R * D);
			rd(ACL_FLOAT, rd_, rs, rows);
			rd(dt, xd, xs, R * D);
			for (i = 0; i < rows; i++) {
				int len = R * D / rows;
				double ss = 0, r;

				for (j = 0; j < len; j++) {
					double s = a[i * len + j] + b[i * len + j];

					ss += s * s;
				}
				r = 1 / sqrt(ss / len + 1e-6);
				if (v != 3)
					EXPECT_NEAR_DT(ACL_FLOAT, rs[i], r, i);
				for (j = 0; j < len; j++) {
					int e = i * len + j;
					double s = a[e] + b[e];

					EXPECT_NEAR_DT(dt, y[e], s * r * g[j % n], e);
					if (v != 3) {
						EXPECT_NEAR_DT(dt, xs[e], s, e);
					} else {
						EXPECT_EQ(0, xs[e]);
					}
				}
			}
			(void)from;
			drop(self);
		}
	t1 = tens(xsh, 3, ACL_FLOAT, dev(self, NULL, R * D * 4));
	tg = tens(gsh, 1, ACL_FLOAT, dev(self, NULL, D * 4));
	tr = tens(rsh, 3, ACL_FLOAT, dev(self, NULL, R * 4));
	/* rstdOut without xOut */
	EXPECT_EQ(NUL, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tg, 1e-6, t1, tr, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddRmsNormGetWorkspaceSize(NULL, t1, tg, 1e-6, t1, tr, t1, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddRmsNormGetWorkspaceSize(t1, NULL, tg, 1e-6, t1, tr, t1, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddRmsNormGetWorkspaceSize(t1, t1, NULL, 1e-6, t1, tr, t1, &ws, &ex));
	EXPECT_EQ(NUL, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tg, 1e-6, NULL, tr, t1, &ws, &ex));
	/* rstdOut of a wrong dtype, shape; x2, yOut, xOut, gamma mismatches; int x */
	tb = tens(rsh, 3, ACL_FLOAT16, self->bufs[2]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tg, 1e-6, t1, tb, t1, &ws, &ex));
	tb = tens(xsh, 3, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tg, 1e-6, t1, tb, t1, &ws, &ex));
	tb = tens(bad, 3, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, tb, tg, 1e-6, t1, tr, t1, &ws, &ex));
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tg, 1e-6, tb, tr, t1, &ws, &ex));
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tg, 1e-6, t1, tr, tb, &ws, &ex));
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tb, 1e-6, t1, tr, t1, &ws, &ex));
	tb = tens(xsh, 3, ACL_FLOAT16, self->bufs[0]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, tb, tg, 1e-6, t1, tr, t1, &ws, &ex));
	/* a [2, 8] gamma matches no trailing dims of x [2, 3, 8] */
	tb = tens(gb, 2, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tb, 1e-6, t1, tr, t1, &ws, &ex));
	/* a FLOAT16 gamma under a FLOAT x */
	tb = tens(gsh, 1, ACL_FLOAT16, self->bufs[1]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(t1, t1, tb, 1e-6, t1, tr, t1, &ws, &ex));
	tb = tens(xsh, 3, ACL_INT32, self->bufs[0]);
	EXPECT_EQ(INV, aclnnAddRmsNormGetWorkspaceSize(tb, tb, tg, 1e-6, tb, tr, tb, &ws, &ex));
}

/* ggml's gated linear attention: Mv of a transposed [D, D] view. */
TEST_F(nn, mv_transposed)
{
	enum { D = 5, M = 3 };
	int64_t sh[2] = { D, D }, tst[2] = { 1, D }, vsh[1] = { D }, rsh[2] = { D, M };
	int64_t bad[1] = { M };
	double s[D * D], q[D], o[D];
	aclTensor *ts, *tq, *to, *tb;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, j;

	for (k = 0; k < 3; k++) {
		aclDataType dt = FL[k];
		void *od;

		for (i = 0; i < D * D; i++)
			s[i] = frand(i);
		for (i = 0; i < D; i++)
			q[i] = frand(i + 3);
		ts = view(sh, 2, tst, 0, D * D, dt, mk(self, dt, s, D * D));
		tq = tens(vsh, 1, dt, mk(self, dt, q, D));
		od = dev(self, NULL, D * esz(dt));
		to = tens(vsh, 1, dt, od);
		ASSERT_EQ(0, aclnnMvGetWorkspaceSize(ts, tq, to, 1, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnMv, ws, ex));
		rd(dt, od, o, D);
		for (i = 0; i < D; i++) {
			double e = 0;

			for (j = 0; j < D; j++)
				e += s[j * D + i] * q[j];	/* self[i][j] = s[j][i] */
			EXPECT_NEAR_DT(dt, o[i], e, i);
		}
		drop(self);
	}
	ts = tens(sh, 2, ACL_FLOAT, dev(self, NULL, D * D * 4));
	tq = tens(vsh, 1, ACL_FLOAT, dev(self, NULL, D * 4));
	to = tens(vsh, 1, ACL_FLOAT, dev(self, NULL, D * 4));
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(ts, tq, to, 4, &ws, &ex));
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(ts, tq, to, -1, &ws, &ex));
	tb = tens(vsh, 1, ACL_FLOAT16, self->bufs[1]);
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(ts, tb, to, 0, &ws, &ex));
	tb = tens(bad, 1, ACL_FLOAT, self->bufs[1]);
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(ts, tb, to, 0, &ws, &ex));
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(ts, tq, tb, 0, &ws, &ex));
	tb = tens(rsh, 2, ACL_FLOAT, self->bufs[0]);
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(ts, tb, to, 0, &ws, &ex));
	tb = tens(sh, 2, ACL_INT32, self->bufs[0]);
	EXPECT_EQ(INV, aclnnMvGetWorkspaceSize(tb, tq, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMvGetWorkspaceSize(NULL, tq, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMvGetWorkspaceSize(ts, NULL, to, 0, &ws, &ex));
	EXPECT_EQ(NUL, aclnnMvGetWorkspaceSize(ts, tq, NULL, 0, &ws, &ex));
}

/* Ger of strided vectors, mixed dtypes promoted, and its errors. */
TEST_F(nn, ger)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
					   ACL_INT32, ACL_INT8, ACL_BOOL,
					   ACL_DOUBLE, ACL_INT16 };
	enum { N = 3, M = 4 };
	int64_t a1[1] = { N }, s2[1] = { 2 }, b1[1] = { M }, osh[2] = { N, M };
	int64_t bad[2] = { M, N }, two[2] = { N, 1 };
	double a[2 * N], b[M], o[N * M];
	aclTensor *ta, *tb, *to, *tx;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i;

	for (k = 0; k < 8; k++) {
		aclDataType dt = dts[k];
		void *od;

		for (i = 0; i < 2 * N; i++)
			a[i] = isf(dt) || dt == ACL_DOUBLE ? frand(i) : i - 2;
		for (i = 0; i < M; i++)
			b[i] = isf(dt) || dt == ACL_DOUBLE ? frand(i + 9) : 3 - i;
		/* self every other element of a buffer */
		ta = view(a1, 1, s2, 0, 2 * N, dt, mk(self, dt, a, 2 * N));
		tb = tens(b1, 1, dt, mk(self, dt, b, M));
		od = dev(self, NULL, N * M * esz(dt));
		to = tens(osh, 2, dt, od);
		ASSERT_EQ(0, aclnnGerGetWorkspaceSize(ta, tb, to, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnGer, ws, ex));
		rd(dt, od, o, N * M);
		for (i = 0; i < N * M; i++)
			EXPECT_NEAR_DT(dt, o[i], rnd(dt, a[i / M * 2] * b[i % M]), i);
		drop(self);
	}
	/* INT32 with FLOAT16: FLOAT16 out */
	for (i = 0; i < N; i++)
		a[i] = i + 1;
	for (i = 0; i < M; i++)
		b[i] = 0.5 * i;
	ta = tens(a1, 1, ACL_INT32, mk(self, ACL_INT32, a, N));
	tb = tens(b1, 1, ACL_FLOAT16, mk(self, ACL_FLOAT16, b, M));
	to = tens(osh, 2, ACL_FLOAT16, dev(self, NULL, N * M * 2));
	ASSERT_EQ(0, aclnnGerGetWorkspaceSize(ta, tb, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGer, ws, ex));
	rd(ACL_FLOAT16, self->bufs[2], o, N * M);
	for (i = 0; i < N * M; i++)
		EXPECT_NEAR_DT(ACL_FLOAT16, o[i], a[i / M] * b[i % M], i);
	/* a float result into INT32; out's shape; 2-D operands; NULLs */
	tx = tens(osh, 2, ACL_INT32, dev(self, NULL, N * M * 4));
	EXPECT_EQ(INV, aclnnGerGetWorkspaceSize(ta, tb, tx, &ws, &ex));
	tx = tens(bad, 2, ACL_FLOAT16, self->bufs[2]);
	EXPECT_EQ(INV, aclnnGerGetWorkspaceSize(ta, tb, tx, &ws, &ex));
	tx = tens(two, 2, ACL_INT32, self->bufs[0]);
	EXPECT_EQ(INV, aclnnGerGetWorkspaceSize(tx, tb, to, &ws, &ex));
	tx = tens(a1, 1, ACL_FLOAT16, self->bufs[2]);
	EXPECT_EQ(INV, aclnnGerGetWorkspaceSize(ta, tb, tx, &ws, &ex));
	/* UINT16 is not among Ger's dtypes */
	tx = tens(a1, 1, ACL_UINT16, self->bufs[0]);
	EXPECT_EQ(INV, aclnnGerGetWorkspaceSize(tx, tb, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGerGetWorkspaceSize(NULL, tb, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGerGetWorkspaceSize(ta, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGerGetWorkspaceSize(ta, tb, NULL, &ws, &ex));
}

/* Host roll of a row-major [R, C] x (flat when nd is 0). */
static void roll_ref(const double *x, double *o, int R, int C,
		     const int64_t *sh, const int64_t *dm, int nd)
{
	double t[64];
	int i, k, n = R * C;

	memcpy(o, x, n * sizeof(*o));
	if (!nd) {
		int s = (int)(((sh[0] % n) + n) % n);

		for (i = 0; i < n; i++)
			o[(i + s) % n] = x[i];
		return;
	}
	for (k = 0; k < nd; k++) {
		int d = (int)(dm[k] < 0 ? dm[k] + 2 : dm[k]);
		int len = d ? C : R, s = (int)(((sh[k] % len) + len) % len);

		memcpy(t, o, n * sizeof(*o));
		for (i = 0; i < n; i++) {
			int r = i / C, c = i % C;

			if (d)
				o[r * C + (c + s) % C] = t[i];
			else
				o[((r + s) % R) * C + c] = t[i];
		}
	}
}

/* ggml's Roll (one dim), two dims with negative shifts, flat rolls. */
TEST_F(nn, roll)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
					   ACL_INT64, ACL_INT16, ACL_BOOL };
	enum { R = 3, C = 4 };
	static const int64_t shifts[][2] = { { 1, 0 }, { 5, -1 }, { -7, 0 }, { 13, 0 } };
	static const int64_t dims[][2] = { { 1, 0 }, { 0, -1 }, { 0, 0 }, { 0, 0 } };
	static const int nds[] = { 1, 2, 0, 0 };
	int64_t sh[2] = { R, C }, st[2] = { 1, R }, bad[2] = { C, R };
	int64_t two[2] = { 1, 2 }, d3[1] = { 2 }, dm3[1] = { -3 };
	double x[R * C], xv[R * C], o[R * C], e[R * C];
	aclTensor *tx, *to, *tb;
	aclIntArray *is, *id;
	aclOpExecutor *ex;
	unsigned k, v;
	uint64_t ws;
	int i;

	for (k = 0; k < 6; k++)
		for (v = 0; v < 4; v++) {
			aclDataType dt = dts[k];
			void *od;

			for (i = 0; i < R * C; i++)
				x[i] = dt == ACL_BOOL ? i % 3 == 0 : isf(dt) ? frand(i) : i * 7 - 30;
			/* x a transposed view: xv[r][c] = storage[c * R + r] */
			tx = view(sh, 2, st, 0, R * C, dt, mk(self, dt, x, R * C));
			for (i = 0; i < R * C; i++)
				xv[i] = x[(i % C) * R + i / C];
			od = dev(self, NULL, R * C * esz(dt));
			to = tens(sh, 2, dt, od);
			is = ia(shifts[v], nds[v] ? nds[v] : 1);
			id = nds[v] ? ia(dims[v], nds[v]) : NULL;
			ASSERT_EQ(0, aclnnRollGetWorkspaceSize(tx, is, id, to, &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnRoll, ws, ex));
			rd(dt, od, o, R * C);
			roll_ref(xv, e, R, C, shifts[v], dims[v], nds[v]);
			for (i = 0; i < R * C; i++)
				EXPECT_EQ(e[i], o[i]) TH_LOG("dtype %d case %u [%d]", dt, v, i);
			aclDestroyIntArray(is);
			if (id)
				aclDestroyIntArray(id);
			drop(self);
		}
	tx = tens(sh, 2, ACL_FLOAT, dev(self, NULL, R * C * 4));
	to = tens(sh, 2, ACL_FLOAT, dev(self, NULL, R * C * 4));
	is = ia(two, 2);
	id = ia(d3, 1);
	/* shifts and dims differ in length; two shifts without dims */
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tx, is, id, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tx, is, NULL, to, &ws, &ex));
	aclDestroyIntArray(is);
	is = ia(d3, 1);
	/* dim 2 and -3 of a 2-D x */
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tx, is, id, to, &ws, &ex));
	aclDestroyIntArray(id);
	id = ia(dm3, 1);
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tx, is, id, to, &ws, &ex));
	/* out's shape or dtype differ; UINT64 is not among Roll's dtypes */
	tb = tens(bad, 2, ACL_FLOAT, self->bufs[1]);
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tx, is, NULL, tb, &ws, &ex));
	tb = tens(sh, 2, ACL_UINT64, dev(self, NULL, R * C * 8));
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tb, is, NULL, tb, &ws, &ex));
	tb = tens(sh, 2, ACL_INT32, self->bufs[1]);
	EXPECT_EQ(INV, aclnnRollGetWorkspaceSize(tx, is, NULL, tb, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRollGetWorkspaceSize(NULL, is, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRollGetWorkspaceSize(tx, NULL, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnRollGetWorkspaceSize(tx, is, NULL, NULL, &ws, &ex));
	aclDestroyIntArray(is);
	aclDestroyIntArray(id);
}

/* ggml's InplaceIndexFillTensor (a FLOAT value) and the out-of-place form. */
TEST_F(nn, index_fill)
{
	static const aclDataType dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
					   ACL_INT32, ACL_INT64, ACL_BOOL };
	enum { R = 3, C = 5, RS = 6 };
	int64_t sh[2] = { R, C }, st[2] = { RS, 1 }, bad[2] = { C, R };
	int64_t idx[3] = { 0, -1, 2 }, oob[1] = { 5 }, one[1] = { 3 };
	double x[R * RS], o[R * RS];
	aclScalar *val = fsc(-2.0f);
	aclTensor *tx, *to, *tb;
	aclIntArray *ii, *io;
	aclOpExecutor *ex;
	unsigned k;
	uint64_t ws;
	int i, inpl;

	ii = ia(idx, 3);
	for (k = 0; k < 6; k++)
		for (inpl = 0; inpl < 2; inpl++) {
			aclDataType dt = dts[k];
			double fv = dt == ACL_BOOL ? 1 : -2;
			void *xd, *od;

			for (i = 0; i < R * RS; i++)
				x[i] = dt == ACL_BOOL ? 0 : isf(dt) ? frand(i) : i;
			xd = mk(self, dt, x, R * RS);
			/* self rows padded to 6 */
			tx = view(sh, 2, st, 0, R * RS, dt, xd);
			if (inpl) {
				od = xd;
				ASSERT_EQ(0, aclnnInplaceIndexFillTensorGetWorkspaceSize(tx, 1, ii, val, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnInplaceIndexFillTensor, ws, ex));
				rd(dt, od, o, R * RS);
				for (i = 0; i < R * RS; i++) {
					int c = i % RS;
					bool hit = c == 0 || c == 4 || c == 2;

					EXPECT_EQ(hit ? fv : x[i], o[i]) TH_LOG("dtype %d [%d]", dt, i);
				}
			} else {
				od = dev(self, NULL, R * C * esz(dt));
				to = tens(sh, 2, dt, od);
				/* along dim 0 (-2), rows 0 and 2 */
				ASSERT_EQ(0, aclnnIndexFillTensorGetWorkspaceSize(tx, -2, ii, val, to, &ws, &ex));
				ASSERT_EQ(0, run(self, aclnnIndexFillTensor, ws, ex));
				rd(dt, od, o, R * C);
				for (i = 0; i < R * C; i++) {
					int r = i / C, c = i % C;

					EXPECT_EQ(r != 1 ? fv : x[r * RS + c], o[i])
						TH_LOG("dtype %d [%d]", dt, i);
				}
			}
			drop(self);
		}
	tx = tens(sh, 2, ACL_FLOAT, dev(self, NULL, R * C * 4));
	to = tens(sh, 2, ACL_FLOAT, dev(self, NULL, R * C * 4));
	io = ia(oob, 1);
	/* an index past the dim; dim out of range; out's shape or dtype */
	EXPECT_EQ(INV, aclnnIndexFillTensorGetWorkspaceSize(tx, 1, io, val, to, &ws, &ex));
	aclDestroyIntArray(io);
	io = ia(one, 1);
	EXPECT_EQ(INV, aclnnInplaceIndexFillTensorGetWorkspaceSize(tx, 0, io, val, &ws, &ex));
	EXPECT_EQ(INV, aclnnIndexFillTensorGetWorkspaceSize(tx, 2, ii, val, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnIndexFillTensorGetWorkspaceSize(tx, -3, ii, val, to, &ws, &ex));
	tb = tens(bad, 2, ACL_FLOAT, self->bufs[1]);
	EXPECT_EQ(INV, aclnnIndexFillTensorGetWorkspaceSize(tx, 1, ii, val, tb, &ws, &ex));
	tb = tens(sh, 2, ACL_INT32, self->bufs[1]);
	EXPECT_EQ(INV, aclnnIndexFillTensorGetWorkspaceSize(tx, 1, ii, val, tb, &ws, &ex));
	/* INT8 is not among IndexFillTensor's dtypes */
	tb = tens(sh, 2, ACL_INT8, self->bufs[1]);
	EXPECT_EQ(INV, aclnnInplaceIndexFillTensorGetWorkspaceSize(tb, 1, ii, val, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexFillTensorGetWorkspaceSize(tx, 1, NULL, val, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexFillTensorGetWorkspaceSize(tx, 1, ii, NULL, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexFillTensorGetWorkspaceSize(NULL, 1, ii, val, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnIndexFillTensorGetWorkspaceSize(tx, 1, ii, val, NULL, &ws, &ex));
	EXPECT_EQ(NUL, aclnnInplaceIndexFillTensorGetWorkspaceSize(NULL, 1, ii, val, &ws, &ex));
	aclDestroyIntArray(io);
	aclDestroyIntArray(ii);
	aclDestroyScalar(val);
}

/*
 * ggml's RoPE sign mask: a [1, 1, 1, 8] FLOAT of ones with index 0, 0, 2,
 * 2, ... along dim 3 set to -1; then an irregular index list.
 */
TEST_F(nn, index_fill_ggml_rope)
{
	static const int64_t idx[8] = { 0, 0, 2, 2, 4, 4, 6, 6 };
	static const int64_t irr[6] = { 7, 1, -6, 3, 1, 4 };
	int64_t sh[4] = { 1, 1, 1, 8 };
	double x[8], o[8];
	aclScalar *val = fsc(-1.0f);
	aclIntArray *ii;
	aclOpExecutor *ex;
	aclTensor *t;
	uint64_t ws;
	void *d;
	int i;

	for (i = 0; i < 8; i++)
		x[i] = 1;
	d = mk(self, ACL_FLOAT, x, 8);
	t = tens(sh, 4, ACL_FLOAT, d);
	ii = ia(idx, 8);
	ASSERT_EQ(0, aclnnInplaceIndexFillTensorGetWorkspaceSize(t, 3, ii, val, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceIndexFillTensor, ws, ex));
	rd(ACL_FLOAT, d, o, 8);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(i % 2 ? 1 : -1, o[i]) TH_LOG("[%d]", i);
	aclDestroyIntArray(ii);
	/* 1, 2, 3, 4 and 7 (runs 1..4 and 7) */
	ii = ia(irr, 6);
	for (i = 0; i < 8; i++)
		x[i] = i * 10;
	d = mk(self, ACL_FLOAT, x, 8);
	t = tens(sh, 4, ACL_FLOAT, d);
	ASSERT_EQ(0, aclnnInplaceIndexFillTensorGetWorkspaceSize(t, -1, ii, val, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceIndexFillTensor, ws, ex));
	rd(ACL_FLOAT, d, o, 8);
	for (i = 0; i < 8; i++)
		EXPECT_EQ((i >= 1 && i <= 4) || i == 7 ? -1 : i * 10, o[i]) TH_LOG("[%d]", i);
	aclDestroyIntArray(ii);
	aclDestroyScalar(val);
}

/* Empty tensors (CANN's documents allow them): nothing runs, no error. */
TEST_F(nn, empty_tensors)
{
	int64_t xs[2] = { 0, 8 }, hs[2] = { 0, 4 }, gs[1] = { 8 }, rs[2] = { 0, 1 };
	int64_t sh1[1] = { 1 }, d0[1] = { 0 };
	aclTensor *tx, *to, *tg, *tr, *tx2;
	aclIntArray *s1, *dm;
	aclOpExecutor *ex;
	uint64_t ws;
	void *p = dev(self, NULL, 64);

	tx = tens(xs, 2, ACL_FLOAT, p);
	to = tens(hs, 2, ACL_FLOAT, p);
	ASSERT_EQ(0, aclnnSwiGluGetWorkspaceSize(tx, -1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSwiGlu, ws, ex));
	tx2 = tens(xs, 2, ACL_FLOAT, p);
	tg = tens(gs, 1, ACL_FLOAT, dev(self, NULL, 32));
	tr = tens(rs, 2, ACL_FLOAT, p);
	ASSERT_EQ(0, aclnnAddRmsNormGetWorkspaceSize(tx, tx2, tg, 1e-6, tx2, tr, tx2, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnAddRmsNorm, ws, ex));
	s1 = ia(sh1, 1);
	dm = ia(d0, 1);
	ASSERT_EQ(0, aclnnRollGetWorkspaceSize(tx, s1, NULL, tx2, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRoll, ws, ex));
	ASSERT_EQ(0, aclnnRollGetWorkspaceSize(tx, s1, dm, tx2, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnRoll, ws, ex));
	ASSERT_EQ(0, aclnnInplaceZeroGetWorkspaceSize(tx, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnInplaceZero, ws, ex));
	aclDestroyIntArray(s1);
	aclDestroyIntArray(dm);
}

/* aclnn_logsoftmax.h (CANN's other name) declares the operator that runs. */
TEST_F(nn, logsoftmax_header)
{
	int64_t sh[1] = { 4 };
	double x[4] = { 0.5, -1, 2, 0 }, o[4], s = 0;
	aclTensor *tx, *to;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i;

	tx = tens(sh, 1, ACL_FLOAT, mk(self, ACL_FLOAT, x, 4));
	od = dev(self, NULL, 16);
	to = tens(sh, 1, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnLogSoftmaxGetWorkspaceSize(tx, 0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnLogSoftmax, ws, ex));
	rd(ACL_FLOAT, od, o, 4);
	for (i = 0; i < 4; i++)
		s += exp(x[i]);
	for (i = 0; i < 4; i++)
		EXPECT_NEAR_DT(ACL_FLOAT, o[i], x[i] - log(s), i);
}

TEST_HARNESS_MAIN
