// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the unary operators against double-precision libm
 * references rounded to the output dtype. Tolerances: fp32 2e-6 relative
 * (tighter than ot_tolerance's 1e-5), fp16 1e-3, bf16 8e-3 (ot_tolerance)
 * plus the dtype's smallest subnormal as absolute slack; integers exact.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static double r_abs(double x) { return fabs(x); }
static double r_neg(double x) { return -x; }
static double r_rsqrt(double x) { return 1 / sqrt(x); }
static double r_recip(double x) { return 1 / x; }
static double r_relu(double x) { return x < 0 ? 0 : x; }
static double r_leaky(double x) { return x < 0 ? (double)0.01f * x : x; }
static double r_gelu(double x) { return 0.5 * x * erfc(-x / sqrt(2)); }
static double r_gelu_t(double x)
{
	/* 0.5 x (1 + tanh u), as x / (1 + e^-2u) to avoid cancellation */
	return x / (1 + exp(-2 * sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}
static double r_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double r_silu(double x) { return x / (1 + exp(-x)); }
static double r_softplus(double x) { return x > 20 ? x : log1p(exp(x)); }
static double r_softplus2(double x)	/* beta 2, threshold 5 */
{
	return 2 * x > 5 ? x : log1p(exp(2 * x)) / 2;
}
static double r_clamp(double x)	/* lo -1.5, hi 2.25 */
{
	if (isnan(x))
		return x;
	return x < -1.5 ? -1.5 : x > 2.25 ? 2.25 : x;
}
static double r_clamp_lo(double x) { return isnan(x) ? x : x < -1.5 ? -1.5 : x; }
static double r_sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : x; }

struct ucase {
	u32 op;
	const char *name;
	double (*ref)(double x);
	double lo, hi;
	int attr;	/* 0 defaults, else which attrs to pass */
};

static const struct ucase ucases[] = {
	{ DRM_VNPU_OP_ABS, "abs", r_abs, -100, 100, 0 },
	{ DRM_VNPU_OP_NEG, "neg", r_neg, -100, 100, 0 },
	{ DRM_VNPU_OP_EXP, "exp", exp, -90, 89, 0 },
	{ DRM_VNPU_OP_LOG, "log", log, -1, 1000, 0 },
	{ DRM_VNPU_OP_SQRT, "sqrt", sqrt, -1, 1000, 0 },
	{ DRM_VNPU_OP_RSQRT, "rsqrt", r_rsqrt, -1, 1000, 0 },
	{ DRM_VNPU_OP_RECIPROCAL, "reciprocal", r_recip, -10, 10, 0 },
	{ DRM_VNPU_OP_SIN, "sin", sin, -1000, 1000, 0 },
	{ DRM_VNPU_OP_COS, "cos", cos, -1000, 1000, 0 },
	{ DRM_VNPU_OP_ERF, "erf", erf, -5, 5, 0 },
	{ DRM_VNPU_OP_RELU, "relu", r_relu, -10, 10, 0 },
	{ DRM_VNPU_OP_LEAKY_RELU, "leaky_relu", r_leaky, -10, 10, 0 },
	{ DRM_VNPU_OP_GELU, "gelu", r_gelu, -12, 12, 0 },
	{ DRM_VNPU_OP_GELU, "gelu_tanh", r_gelu_t, -8, 8, 1 },
	{ DRM_VNPU_OP_SIGMOID, "sigmoid", r_sigmoid, -100, 100, 0 },
	{ DRM_VNPU_OP_SILU, "silu", r_silu, -100, 100, 0 },
	{ DRM_VNPU_OP_TANH, "tanh", tanh, -10, 10, 0 },
	{ DRM_VNPU_OP_SOFTPLUS, "softplus", r_softplus, -30, 30, 0 },
	{ DRM_VNPU_OP_SOFTPLUS, "softplus_b2", r_softplus2, -30, 30, 2 },
	{ DRM_VNPU_OP_CLAMP, "clamp", r_clamp, -5, 5, 3 },
	{ DRM_VNPU_OP_CLAMP, "clamp_lo", r_clamp_lo, -5, 5, 4 },
	{ DRM_VNPU_OP_FLOOR, "floor", floor, -100, 100, 0 },
	{ DRM_VNPU_OP_CEIL, "ceil", ceil, -100, 100, 0 },
	{ DRM_VNPU_OP_ROUND, "round", nearbyint, -100, 100, 0 },
	{ DRM_VNPU_OP_SIGN, "sign", r_sign, -3, 3, 0 },
};

static u32 fbits(float f)
{
	u32 u;

	memcpy(&u, &f, 4);
	return u;
}

static void make_attrs(struct drm_vnpu_op_attrs *a, int which)
{
	memset(a, 0, sizeof(*a));
	switch (which) {
	case 1:
		a->ints[0] = 1;
		break;
	case 2:
		a->floats[0] = fbits(2.0f);
		a->floats[1] = fbits(5.0f);
		break;
	case 3:
		a->ints[0] = 3;
		a->floats[0] = fbits(-1.5f);
		a->floats[1] = fbits(2.25f);
		break;
	case 4:
		a->ints[0] = 1;
		a->floats[0] = fbits(-1.5f);
		a->floats[1] = fbits(-100.0f);	/* ignored: no hi flag */
		break;
	}
}

static double rtol_of(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_FLOAT ? 2e-6 : ot_tolerance(dtype);
}

static double atol_of(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_FLOAT ? 1e-44 :
	       dtype == DRM_VNPU_DTYPE_FLOAT16 ? 6e-8 : 1e-38;
}

/* Round a double to what a dtype can hold (as the store would). */
static double to_dtype(u32 dtype, double v)
{
	u8 buf[8];

	vnpu_store_f64(buf, dtype, 0, (float)v);
	return vnpu_load_f64(buf, dtype, 0);
}

static const double specials[] = {
	NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, 1e-30,
	88.5, -88.5, 1e30, -1e30, 3.4e38,
};

/*
 * Run one op on a 1-D input of @n elements (stride @xs, output stride
 * @os) and compare every element.
 */
static int run_case(struct __test_metadata *_metadata, const struct ucase *uc,
		    u32 dtype, s64 n, s64 xs, s64 os, u32 cpu)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs attrs;
	s64 bx = n * (xs ? xs : 1), bo = n * os, i;
	int bad = 0;

	ot_make(&x, dtype, 1, &bx);
	ot_make(&o, dtype, 1, &bo);
	ot_fill(&x, n + xs, uc->lo, uc->hi);
	x.v.shape[0] = n;
	x.v.strides[0] = xs;
	o.v.shape[0] = n;
	o.v.strides[0] = os;
	for (i = 0; xs && i < (s64)ARRAY_SIZE(specials) && i * 37 < n; i++)
		vnpu_store_f64(x.buf, dtype, i * 37 * xs, specials[i]);
	make_attrs(&attrs, uc->attr);
	EXPECT_EQ(0, ot_run(uc->op, ts, 1, 1, uc->attr ? &attrs : NULL, cpu));
	for (i = 0; i < n; i++) {
		double in = vnpu_load_f64(x.buf, dtype, i * xs);
		double got = vnpu_load_f64(o.buf, dtype, i * os);
		double want = to_dtype(dtype, uc->ref(in));

		if (!ot_close(got, want, rtol_of(dtype), atol_of(dtype))) {
			if (bad++ < 5)
				TH_LOG("%s dtype %u n %lld [%lld] x=%.9g got %.9g want %.9g",
				       uc->name, dtype, (long long)n, (long long)i,
				       in, got, want);
		}
	}
	ot_free(&x);
	ot_free(&o);
	return bad;
}

TEST(float_ops_all_dtypes_and_lengths)
{
	static const u32 dtypes[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	};
	static const s64 lens[] = { 1, 7, 15, 17, 33, 1000 };
	unsigned int k, d, l;

	for (k = 0; k < ARRAY_SIZE(ucases); k++)
		for (d = 0; d < ARRAY_SIZE(dtypes); d++)
			for (l = 0; l < ARRAY_SIZE(lens); l++)
				EXPECT_EQ(0, run_case(_metadata, &ucases[k], dtypes[d],
						      lens[l], 1, 1, vnpu_ops_host_cpu()));
}

TEST(fp32_large_baseline_and_avx2)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(ucases); k++) {
		EXPECT_EQ(0, run_case(_metadata, &ucases[k], DRM_VNPU_DTYPE_FLOAT,
				      1000003, 1, 1, 0));
		EXPECT_EQ(0, run_case(_metadata, &ucases[k], DRM_VNPU_DTYPE_FLOAT,
				      1000003, 1, 1, vnpu_ops_host_cpu()));
	}
}

TEST(strided_and_broadcast)
{
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(ucases); k++) {
		EXPECT_EQ(0, run_case(_metadata, &ucases[k], DRM_VNPU_DTYPE_FLOAT,
				      333, 3, 2, vnpu_ops_host_cpu()));
		EXPECT_EQ(0, run_case(_metadata, &ucases[k], DRM_VNPU_DTYPE_FLOAT16,
				      65, 0, 1, vnpu_ops_host_cpu()));
	}
}

/* A transposed 2-D input into a contiguous output. */
TEST(transposed)
{
	s64 shape[2] = { 37, 53 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	s64 i, j;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	ot_fill(&x, 5, -4, 4);
	shape[0] = 53;
	shape[1] = 37;
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	x.v.shape[0] = 53;
	x.v.shape[1] = 37;
	x.v.strides[0] = 1;
	x.v.strides[1] = 53;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_TANH, ts, 1, 1, NULL, vnpu_ops_host_cpu()));
	for (i = 0; i < 53; i++)
		for (j = 0; j < 37; j++) {
			double in = ((float *)x.buf)[j * 53 + i];

			ASSERT_TRUE(ot_close(((float *)o.buf)[i * 37 + j],
					     (float)tanh(in), 2e-6, 1e-30));
		}
	ot_free(&x);
	ot_free(&o);
}

static s64 wrap(u32 dtype, s64 v)
{
	u8 buf[8];

	vnpu_store_s64(buf, dtype, 0, v);
	return vnpu_load_s64(buf, dtype, 0);
}

static s64 iref(u32 op, s64 x)
{
	switch (op) {
	case DRM_VNPU_OP_ABS:
		return x < 0 ? (s64)(0 - (u64)x) : x;
	case DRM_VNPU_OP_NEG:
		return (s64)(0 - (u64)x);
	case DRM_VNPU_OP_SIGN:
		return x > 0 ? 1 : x < 0 ? -1 : 0;
	case DRM_VNPU_OP_RELU:
		return x < 0 ? 0 : x;
	case DRM_VNPU_OP_CLAMP:	/* lo -1.5 -> -1, hi 2.25 -> 2 */
		return x < -1 ? -1 : x > 2 ? 2 : x;
	case DRM_VNPU_OP_LOGICAL_NOT:
		return !x;
	case DRM_VNPU_OP_ISNAN:
		return 0;
	default:
		return x;
	}
}

TEST(integer_ops)
{
	static const u32 dtypes[] = {
		DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
		DRM_VNPU_DTYPE_INT64,
	};
	static const u32 ops[] = {
		DRM_VNPU_OP_ABS, DRM_VNPU_OP_NEG, DRM_VNPU_OP_SIGN,
		DRM_VNPU_OP_RELU, DRM_VNPU_OP_CLAMP, DRM_VNPU_OP_FLOOR,
		DRM_VNPU_OP_CEIL, DRM_VNPU_OP_ROUND, DRM_VNPU_OP_LOGICAL_NOT,
		DRM_VNPU_OP_ISNAN,
	};
	static const s64 edge[] = {
		-128, 127, 255, 0, -1, 1, -2147483648LL, 2147483647,
		(s64)0x8000000000000000ULL, 0x7fffffffffffffffLL,
	};
	struct drm_vnpu_op_attrs attrs;
	unsigned int d, k;
	s64 n = 1001, i;

	make_attrs(&attrs, 3);
	for (d = 0; d < ARRAY_SIZE(dtypes); d++)
		for (k = 0; k < ARRAY_SIZE(ops); k++) {
			u32 dt = dtypes[d], op = ops[k];
			u32 odt = op == DRM_VNPU_OP_LOGICAL_NOT || op == DRM_VNPU_OP_ISNAN ?
				  DRM_VNPU_DTYPE_BOOL : dt;
			struct ot_tensor x, o;
			struct ot_tensor *ts[2] = { &x, &o };

			ot_make(&x, dt, 1, &n);
			ot_make(&o, odt, 1, &n);
			ot_fill(&x, k, -300, 300);
			for (i = 0; i < (s64)ARRAY_SIZE(edge); i++)
				vnpu_store_s64(x.buf, dt, i * 3, edge[i]);
			ASSERT_EQ(0, ot_run(op, ts, 1, 1,
					    op == DRM_VNPU_OP_CLAMP ? &attrs : NULL, 0));
			for (i = 0; i < n; i++) {
				s64 in = vnpu_load_s64(x.buf, dt, i);

				ASSERT_EQ(wrap(odt, iref(op, in)), vnpu_load_s64(o.buf, odt, i))
					TH_LOG("dtype %u op %u x %lld", dt, op, (long long)in);
			}
			ot_free(&x);
			ot_free(&o);
		}
}

TEST(bool_and_float_predicates)
{
	static const u32 dtypes[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
		DRM_VNPU_DTYPE_BOOL,
	};
	s64 n = ARRAY_SIZE(specials), i;
	unsigned int d;

	for (d = 0; d < ARRAY_SIZE(dtypes); d++) {
		struct ot_tensor x, o1, o2;
		struct ot_tensor *t1[2] = { &x, &o1 }, *t2[2] = { &x, &o2 };

		ot_make(&x, dtypes[d], 1, &n);
		ot_make(&o1, DRM_VNPU_DTYPE_BOOL, 1, &n);
		ot_make(&o2, DRM_VNPU_DTYPE_BOOL, 1, &n);
		for (i = 0; i < n; i++)
			vnpu_store_f64(x.buf, dtypes[d], i, specials[i]);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ISNAN, t1, 1, 1, NULL, 0));
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_LOGICAL_NOT, t2, 1, 1, NULL, 0));
		for (i = 0; i < n; i++) {
			double v = vnpu_load_f64(x.buf, dtypes[d], i);

			EXPECT_EQ(isnan(v), ((u8 *)o1.buf)[i]);
			EXPECT_EQ(v == 0, ((u8 *)o2.buf)[i]);
		}
		ot_free(&x);
		ot_free(&o1);
		ot_free(&o2);
	}
}

TEST(empty_and_size1)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_EXP);
	s64 shape[3] = { 4, 0, 3 }, one[3] = { 1, 1, 1 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct vnpu_op_call c = { 0 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, shape);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, shape);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	c.op = DRM_VNPU_OP_EXP;
	c.num_in = 1;
	c.num_out = 1;
	c.t[0] = x.v;
	c.t[1] = o.v;
	EXPECT_EQ(0, impl->tiles(&c));
	ot_free(&x);
	ot_free(&o);
	/* size-1 input broadcast to [4, 0 -> 5, 3] */
	shape[1] = 5;
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, one);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, shape);
	((float *)x.buf)[0] = 1.0f;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	EXPECT_EQ((float)M_E, ((float *)o.buf)[59]);
	ot_free(&x);
	ot_free(&o);
}

TEST(rejects)
{
	s64 s4 = 4, s5 = 5;
	struct ot_tensor x, o, y;
	struct ot_tensor *ts[3] = { &x, &o, &y };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &s4);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &s5);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 1, &s4);
	/* not broadcastable */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	o.v.shape[0] = 4;
	/* wrong tensor counts */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 1, 2, NULL, 0));
	/* dtype mismatch, unknown dtype, bool output for a float op */
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	o.v.dtype = 77;
	x.v.dtype = 77;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ABS, ts, 1, 1, NULL, 0));
	x.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	/* ISNAN needs a BOOL output */
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ISNAN, ts, 1, 1, NULL, 0));
	/* transcendental ops reject integers, everything but NOT/ISNAN bool */
	x.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_EXP, ts, 1, 1, NULL, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_ABS, ts, 1, 1, NULL, 0));
	x.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NEG, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
	ot_free(&y);
}

TEST_HARNESS_MAIN
