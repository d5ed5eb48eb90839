// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the binary elementwise operators ADD .. LOGICAL_XOR and
 * MOD in all thirteen dtypes against references in double (floats,
 * rounded to the output dtype) and wrapping int64 arithmetic (integers;
 * UINT64 as unsigned). Tolerances: ot_tolerance() per dtype (fp32 1e-5,
 * fp16 1e-3, bf16 8e-3 relative; DOUBLE 1e-15, 1e-13 for POW (vnpu_pow
 * is a few ulp from libm), since it must compute in double; integers and
 * BOOL exact), with the dtype's smallest subnormal
 * as absolute slack.
 */
#include "ops_test_util.h"
#include "vnpu_math.h"
#include "kselftest_harness.h"

static const u32 all_dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL, DRM_VNPU_DTYPE_INT16,
	DRM_VNPU_DTYPE_UINT16, DRM_VNPU_DTYPE_UINT32, DRM_VNPU_DTYPE_UINT64,
	DRM_VNPU_DTYPE_DOUBLE,
};

/* The last binary operator of the family. */
#define LAST_BINARY	DRM_VNPU_OP_MOD

static bool bool_out(u32 op)
{
	return op >= DRM_VNPU_OP_EQ && op <= DRM_VNPU_OP_LOGICAL_XOR;
}

static bool supported(u32 op, u32 dt)
{
	return dt != DRM_VNPU_DTYPE_BOOL ||
	       (op != DRM_VNPU_OP_SUB && op != DRM_VNPU_OP_DIV && op != DRM_VNPU_OP_POW &&
		op != DRM_VNPU_OP_MOD);
}

static bool is_fp(u32 dt)
{
	return vnpu_dtype_is_float(dt) || dt == DRM_VNPU_DTYPE_DOUBLE;
}

static double nanmax(double a, double b)
{
	return isnan(a) ? a : isnan(b) ? b : a > b ? a : b;
}

static double nanmin(double a, double b)
{
	return isnan(a) ? a : isnan(b) ? b : a < b ? a : b;
}

static double fref(u32 op, double a, double b, double alpha)
{
	switch (op) {
	case DRM_VNPU_OP_ADD: return a + alpha * b;
	case DRM_VNPU_OP_SUB: return a - alpha * b;
	case DRM_VNPU_OP_MUL: return a * b;
	case DRM_VNPU_OP_DIV: return a / b;
	case DRM_VNPU_OP_POW: return pow(a, b);
	case DRM_VNPU_OP_MOD: {	/* Python's %: the sign of b */
		double r = fmod(a, b);

		if (r != 0 && (r < 0) != (b < 0))
			r += b;
		return r == 0 ? copysign(0.0, b) : r;
	}
	case DRM_VNPU_OP_MAXIMUM: return nanmax(a, b);
	case DRM_VNPU_OP_MINIMUM: return nanmin(a, b);
	case DRM_VNPU_OP_EQ: return a == b;
	case DRM_VNPU_OP_NE: return a != b;
	case DRM_VNPU_OP_LT: return a < b;
	case DRM_VNPU_OP_LE: return a <= b;
	case DRM_VNPU_OP_GT: return a > b;
	case DRM_VNPU_OP_GE: return a >= b;
	case DRM_VNPU_OP_LOGICAL_AND: return a != 0 && b != 0;
	case DRM_VNPU_OP_LOGICAL_OR: return a != 0 || b != 0;
	default: return (a != 0) != (b != 0);
	}
}

static s64 ipow(s64 a, s64 b, bool uns)
{
	u64 r = 1, e = (u64)b, k;

	if (b < 0 && !uns)
		return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
	/* bit by bit from the top: r = a^(e's leading bits) */
	for (k = 64; k-- > 0;) {
		r *= r;
		if ((e >> k) & 1)
			r *= (u64)a;
	}
	return (s64)r;
}

/* UINT64 as unsigned (the bit pattern is staged in an s64). */
static s64 uref(u32 op, u64 a, u64 b)
{
	switch (op) {
	case DRM_VNPU_OP_DIV: return b ? (s64)(a / b) : 0;
	case DRM_VNPU_OP_MOD: return b ? (s64)(a % b) : 0;
	case DRM_VNPU_OP_POW: return ipow((s64)a, (s64)b, true);
	case DRM_VNPU_OP_MAXIMUM: return (s64)(a > b ? a : b);
	case DRM_VNPU_OP_MINIMUM: return (s64)(a < b ? a : b);
	case DRM_VNPU_OP_LT: return a < b;
	case DRM_VNPU_OP_LE: return a <= b;
	case DRM_VNPU_OP_GT: return a > b;
	default: return a >= b;	/* GE */
	}
}

static s64 iref(u32 op, u32 dt, s64 a, s64 b, s64 alpha)
{
	if (dt == DRM_VNPU_DTYPE_UINT64 &&
	    (op == DRM_VNPU_OP_DIV || op == DRM_VNPU_OP_MOD || op == DRM_VNPU_OP_POW ||
	     op == DRM_VNPU_OP_MAXIMUM || op == DRM_VNPU_OP_MINIMUM ||
	     (op >= DRM_VNPU_OP_LT && op <= DRM_VNPU_OP_GE)))
		return uref(op, (u64)a, (u64)b);
	if (dt == DRM_VNPU_DTYPE_BOOL) {
		if (op == DRM_VNPU_OP_ADD || op == DRM_VNPU_OP_MAXIMUM)
			return a || b;
		if (op == DRM_VNPU_OP_MUL || op == DRM_VNPU_OP_MINIMUM)
			return a && b;
	}
	switch (op) {
	case DRM_VNPU_OP_ADD: return (s64)((u64)a + (u64)alpha * (u64)b);
	case DRM_VNPU_OP_SUB: return (s64)((u64)a - (u64)alpha * (u64)b);
	case DRM_VNPU_OP_MUL: return (s64)((u64)a * (u64)b);
	case DRM_VNPU_OP_DIV:
		return !b ? 0 : b == -1 ? (s64)(0 - (u64)a) : a / b;
	case DRM_VNPU_OP_POW: return ipow(a, b, false);
	case DRM_VNPU_OP_MOD:
		if (!b || b == -1)
			return 0;
		return a % b && (a % b < 0) != (b < 0) ? a % b + b : a % b;
	case DRM_VNPU_OP_MAXIMUM: return a > b ? a : b;
	case DRM_VNPU_OP_MINIMUM: return a < b ? a : b;
	case DRM_VNPU_OP_EQ: return a == b;
	case DRM_VNPU_OP_NE: return a != b;
	case DRM_VNPU_OP_LT: return a < b;
	case DRM_VNPU_OP_LE: return a <= b;
	case DRM_VNPU_OP_GT: return a > b;
	case DRM_VNPU_OP_GE: return a >= b;
	case DRM_VNPU_OP_LOGICAL_AND: return a && b;
	case DRM_VNPU_OP_LOGICAL_OR: return a || b;
	default: return !a != !b;
	}
}

static double round_to(u32 dt, double v)
{
	u8 buf[8];

	vnpu_store_f64(buf, dt, 0, v);
	return vnpu_load_f64(buf, dt, 0);
}

static s64 wrap_to(u32 dt, s64 v)
{
	u8 buf[8];

	vnpu_store_s64(buf, dt, 0, v);
	return vnpu_load_s64(buf, dt, 0);
}

static const double fspecial[] = {
	NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 3.0,
};

static const s64 ispecial[] = {
	0, -1, 1, 127, -128, 255, 2147483647, -2147483648LL,
	(s64)0x8000000000000000ULL, 0x7fffffffffffffffLL, 2, 3,
};

/* Element offset of output index @lin in a (possibly broadcast) input. */
static s64 in_off(const struct ot_tensor *t, const struct ot_tensor *o, u64 lin)
{
	s64 off = 0;
	u32 lead = o->v.rank - t->v.rank;
	int d;

	for (d = (int)o->v.rank - 1; d >= 0; d--) {
		s64 idx = (s64)(lin % (u64)o->v.shape[d]);

		lin /= (u64)o->v.shape[d];
		if (d >= (int)lead && t->v.shape[d - lead] != 1)
			off += idx * t->v.strides[d - lead];
	}
	return off;
}

static s64 out_off(const struct ot_tensor *o, u64 lin)
{
	return in_off(o, o, lin);
}

/* Run @op on a, b (already set up) into o, then compare every element. */
static int verify(struct __test_metadata *_metadata, u32 op,
		  struct ot_tensor *a, struct ot_tensor *b, struct ot_tensor *o,
		  float alpha, bool with_alpha, u32 cpu)
{
	struct ot_tensor *ts[3] = { a, b, o };
	struct drm_vnpu_op_attrs attrs = { 0 };
	u32 dt = a->v.dtype;
	u64 n = vnpu_tview_elems(&o->v), i;
	double tol = dt != DRM_VNPU_DTYPE_DOUBLE ? ot_tolerance(dt) :
		     op == DRM_VNPU_OP_POW ? 1e-13 : 1e-15;
	double atol = dt == DRM_VNPU_DTYPE_FLOAT16 ? 6e-8 : 1e-44;
	int bad = 0;

	memcpy(&attrs.floats[0], &alpha, 4);
	if (ot_run(op, ts, 2, 1, with_alpha ? &attrs : NULL, cpu))
		return -1;
	if (!with_alpha)
		alpha = 1;
	for (i = 0; i < n; i++) {
		s64 ao = in_off(a, o, i), bo = in_off(b, o, i), oo = out_off(o, i);
		double got = vnpu_load_f64(o->v.data, o->v.dtype, oo), want;
		bool ok;

		if (is_fp(dt)) {
			double x = vnpu_load_f64(a->v.data, dt, ao);
			double y = vnpu_load_f64(b->v.data, dt, bo);

			want = fref(op, x, y, (double)alpha);
			if (!bool_out(op))
				want = round_to(dt, want);
			ok = ot_close(got, want, bool_out(op) ? 0 : tol, atol);
			/*
			 * ADD/SUB round alpha * b to fp32 first (or fuse it):
			 * the error scales with the operands, not the result.
			 */
			if (!ok && (op == DRM_VNPU_OP_ADD || op == DRM_VNPU_OP_SUB) &&
			    isfinite(want))
				ok = fabs(got - want) <=
				     tol * (fabs(x) + fabs((double)alpha * y));
		} else {
			s64 x = vnpu_load_s64(a->v.data, dt, ao);
			s64 y = vnpu_load_s64(b->v.data, dt, bo);
			s64 w = iref(op, dt, x, y, (s64)alpha);

			w = wrap_to(o->v.dtype, w);
			want = (double)w;
			ok = vnpu_load_s64(o->v.data, o->v.dtype, oo) == w;
		}
		if (!ok && bad++ < 4)
			TH_LOG("op %u dtype %u [%llu]: a=%g b=%g got %.9g want %.9g",
			       op, dt, (unsigned long long)i,
			       vnpu_load_f64(a->v.data, dt, ao),
			       vnpu_load_f64(b->v.data, dt, bo), got, want);
	}
	return bad;
}

static void setup(struct ot_tensor *a, struct ot_tensor *b, struct ot_tensor *o,
		  u32 op, u32 dt, u32 rank, const s64 *as, const s64 *bs,
		  const s64 *os, u64 seed)
{
	double lo = -100, hi = 100;
	u64 i, na;

	if (op == DRM_VNPU_OP_POW) {
		lo = is_fp(dt) ? -4 : -3;
		hi = 5;
	}
	ot_make(a, dt, rank, as);
	ot_make(b, dt, rank, bs);
	ot_make(o, bool_out(op) ? DRM_VNPU_DTYPE_BOOL : dt, rank, os);
	ot_fill(a, seed, lo, hi);
	ot_fill(b, seed + 1, lo, hi);
	na = vnpu_tview_elems(&a->v);
	/* Specials (and equal pairs, so comparisons see ties). */
	for (i = 0; i < na && i < 64; i += 3) {
		if (is_fp(dt))
			vnpu_store_f64(a->buf, dt, i, fspecial[(i / 3) % ARRAY_SIZE(fspecial)]);
		else if (op != DRM_VNPU_OP_POW)
			vnpu_store_s64(a->buf, dt, i, ispecial[(i / 3) % ARRAY_SIZE(ispecial)]);
	}
	for (i = 1; i < na && i < vnpu_tview_elems(&b->v) && i < 64; i += 4) {
		if (is_fp(dt))
			vnpu_store_f64(b->buf, dt, i, fspecial[(i / 2) % ARRAY_SIZE(fspecial)]);
		else if (op != DRM_VNPU_OP_POW)
			vnpu_store_s64(b->buf, dt, i, ispecial[(i / 2) % ARRAY_SIZE(ispecial)]);
	}
	if (vnpu_tview_elems(&b->v) > 5)
		memcpy((u8 *)b->buf + 5 * vnpu_dtype_size(dt),
		       (u8 *)a->buf + 5 * vnpu_dtype_size(dt), vnpu_dtype_size(dt));
}

static void freeall(struct ot_tensor *a, struct ot_tensor *b, struct ot_tensor *o)
{
	ot_free(a);
	ot_free(b);
	ot_free(o);
}

TEST(all_ops_all_dtypes)
{
	s64 shape[2] = { 37, 129 };
	unsigned int d;
	u32 op;

	for (op = DRM_VNPU_OP_ADD; op <= LAST_BINARY; op++)
		for (d = 0; d < ARRAY_SIZE(all_dtypes); d++) {
			struct ot_tensor a, b, o;
			u32 dt = all_dtypes[d];

			if (!supported(op, dt))
				continue;
			setup(&a, &b, &o, op, dt, 2, shape, shape, shape, op * 10 + d);
			EXPECT_EQ(0, verify(_metadata, op, &a, &b, &o, 1, false,
					    vnpu_ops_host_cpu()));
			freeall(&a, &b, &o);
		}
}

TEST(broadcast_all_ops)
{
	s64 as[3] = { 4, 1, 5 }, bs[3] = { 1, 3, 5 }, os[3] = { 4, 3, 5 };
	s64 cs[3] = { 1, 1, 1 };
	unsigned int d;
	u32 op;

	for (op = DRM_VNPU_OP_ADD; op <= LAST_BINARY; op++)
		for (d = 0; d < ARRAY_SIZE(all_dtypes); d++) {
			struct ot_tensor a, b, o;
			u32 dt = all_dtypes[d];

			if (!supported(op, dt))
				continue;
			setup(&a, &b, &o, op, dt, 3, as, bs, os, op + d);
			EXPECT_EQ(0, verify(_metadata, op, &a, &b, &o, 1, false, 0));
			freeall(&a, &b, &o);
			/* b of lower rank and all size 1 */
			setup(&a, &b, &o, op, dt, 3, os, cs, os, op + d + 7);
			b.v.rank = 1;
			EXPECT_EQ(0, verify(_metadata, op, &a, &b, &o, 1, false, 0));
			freeall(&a, &b, &o);
		}
}

TEST(fp32_lengths_and_alpha)
{
	static const s64 lens[] = { 1, 7, 15, 17, 33, 1000003 };
	static const u32 ops[] = {
		DRM_VNPU_OP_ADD, DRM_VNPU_OP_SUB, DRM_VNPU_OP_MUL, DRM_VNPU_OP_DIV,
		DRM_VNPU_OP_MAXIMUM, DRM_VNPU_OP_LT,
	};
	unsigned int l, k, cpu;

	for (cpu = 0; cpu < 2; cpu++)
		for (l = 0; l < ARRAY_SIZE(lens); l++)
			for (k = 0; k < ARRAY_SIZE(ops); k++) {
				struct ot_tensor a, b, o;

				setup(&a, &b, &o, ops[k], DRM_VNPU_DTYPE_FLOAT, 1,
				      &lens[l], &lens[l], &lens[l], l + k);
				EXPECT_EQ(0, verify(_metadata, ops[k], &a, &b, &o, 1,
						    false, cpu ? vnpu_ops_host_cpu() : 0));
				EXPECT_EQ(0, verify(_metadata, ops[k], &a, &b, &o, -2.5f,
						    true, cpu ? vnpu_ops_host_cpu() : 0));
				freeall(&a, &b, &o);
			}
}

TEST(integer_alpha_and_wrap)
{
	s64 n = 300;
	unsigned int d;

	for (d = 3; d < 7; d++) {
		struct ot_tensor a, b, o;

		setup(&a, &b, &o, DRM_VNPU_OP_SUB, all_dtypes[d], 1, &n, &n, &n, d);
		EXPECT_EQ(0, verify(_metadata, DRM_VNPU_OP_SUB, &a, &b, &o, 3.7f,
				    true, 0));
		EXPECT_EQ(0, verify(_metadata, DRM_VNPU_OP_ADD, &a, &b, &o, -2.0f,
				    true, 0));
		freeall(&a, &b, &o);
	}
}

/* Non-contiguous views: a transposed, b with stride 0, o strided. */
TEST(strided_views)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_BF16, DRM_VNPU_DTYPE_INT32,
	};
	s64 s[2] = { 23, 31 }, big[2] = { 31, 23 * 2 };
	unsigned int d;
	u32 op;

	for (d = 0; d < ARRAY_SIZE(dts); d++)
		for (op = DRM_VNPU_OP_ADD; op <= DRM_VNPU_OP_GE; op++) {
			struct ot_tensor a, b, o;

			setup(&a, &b, &o, op, dts[d], 2, big, s, big, op);
			/* a: the transpose of a [31, 23] buffer */
			a.v.shape[0] = 23;
			a.v.shape[1] = 31;
			a.v.strides[0] = 1;
			a.v.strides[1] = 46;
			/* b: one row repeated */
			b.v.strides[0] = 0;
			/* o: every other column of a [31, 46] buffer, [23, 31] */
			o.v.shape[0] = 23;
			o.v.shape[1] = 31;
			o.v.strides[0] = 2;
			o.v.strides[1] = 46;
			EXPECT_EQ(0, verify(_metadata, op, &a, &b, &o, 1, false,
					    vnpu_ops_host_cpu()));
			freeall(&a, &b, &o);
		}
}

TEST(integer_edges)
{
	s64 n = 6;
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	s64 av[6] = { 7, -7, 5, (s64)0x8000000000000000ULL, 3, -2 };
	s64 bv[6] = { 0, 2, -2, -1, 40, 63 };
	s64 i;

	ot_make(&a, DRM_VNPU_DTYPE_INT64, 1, &n);
	ot_make(&b, DRM_VNPU_DTYPE_INT64, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_INT64, 1, &n);
	memcpy(a.buf, av, sizeof(av));
	memcpy(b.buf, bv, sizeof(bv));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_DIV, ts, 2, 1, NULL, 0));
	EXPECT_EQ(0, ((s64 *)o.buf)[0]);	/* x / 0 = 0 */
	EXPECT_EQ(-3, ((s64 *)o.buf)[1]);	/* truncating */
	EXPECT_EQ(-2, ((s64 *)o.buf)[2]);
	EXPECT_EQ(av[3], ((s64 *)o.buf)[3]);	/* MIN / -1 wraps */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POW, ts, 2, 1, NULL, 0));
	EXPECT_EQ(1, ((s64 *)o.buf)[0]);
	EXPECT_EQ(49, ((s64 *)o.buf)[1]);
	EXPECT_EQ((s64)12157665459056928801ULL, ((s64 *)o.buf)[4]);	/* 3^40 */
	EXPECT_EQ((s64)0x8000000000000000ULL, ((s64 *)o.buf)[5]);	/* (-2)^63 */
	for (i = 0; i < n; i++)
		((s64 *)b.buf)[i] = -1 - i;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_POW, ts, 2, 1, NULL, 0));
	EXPECT_EQ(0, ((s64 *)o.buf)[0]);	/* 7^-1 = 0 */
	freeall(&a, &b, &o);
}

TEST(empty_and_rank0)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_MUL);
	s64 s[2] = { 0, 5 }, one = 1;
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	struct vnpu_op_call c = { 0 };

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 2, s);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &one);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, s);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_MUL, ts, 2, 1, NULL, 0));
	c.num_in = 2;
	c.num_out = 1;
	c.t[2] = o.v;
	EXPECT_EQ(0, impl->tiles(&c));
	freeall(&a, &b, &o);
	/* rank 0 tensors */
	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 0, s);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 0, s);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 0, s);
	((float *)a.buf)[0] = 3;
	((float *)b.buf)[0] = 4;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MUL, ts, 2, 1, NULL, 0));
	EXPECT_EQ(12.0f, ((float *)o.buf)[0]);
	freeall(&a, &b, &o);
}

TEST(maximum_signed_zero)
{
	s64 n = 2;
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	((float *)a.buf)[0] = -0.0f;
	((float *)b.buf)[0] = 0.0f;
	((float *)a.buf)[1] = 0.0f;
	((float *)b.buf)[1] = -0.0f;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MAXIMUM, ts, 2, 1, NULL, 0));
	EXPECT_FALSE(signbit(((float *)o.buf)[0]));
	EXPECT_FALSE(signbit(((float *)o.buf)[1]));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MINIMUM, ts, 2, 1, NULL, 0));
	EXPECT_TRUE(signbit(((float *)o.buf)[0]));
	EXPECT_TRUE(signbit(((float *)o.buf)[1]));
	freeall(&a, &b, &o);
}

/* MOD: both sign conventions, x mod 0, MIN mod -1, floats and UINT64. */
TEST(mod_fmod_and_edges)
{
	s64 n = 6;
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };
	struct drm_vnpu_op_attrs fm = { .ints = { 1 } };
	s64 av[6] = { 7, -7, 7, -7, (s64)0x8000000000000000ULL, 5 };
	s64 bv[6] = { 3, 3, -3, -3, -1, 0 };
	s64 py[6] = { 1, 2, -2, -1, 0, 0 }, c[6] = { 1, -1, 1, -1, 0, 0 };
	double fa[4] = { 5.5, -5.5, 1e300, -0.0 }, fb[4] = { -2, 2, 3, 7 };
	s64 i, four = 4;

	ot_make(&a, DRM_VNPU_DTYPE_INT64, 1, &n);
	ot_make(&b, DRM_VNPU_DTYPE_INT64, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_INT64, 1, &n);
	memcpy(a.buf, av, sizeof(av));
	memcpy(b.buf, bv, sizeof(bv));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, NULL, 0));
	for (i = 0; i < n; i++)
		EXPECT_EQ(py[i], ((s64 *)o.buf)[i]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, &fm, 0));
	for (i = 0; i < n; i++)
		EXPECT_EQ(c[i], ((s64 *)o.buf)[i]);
	/* UINT64: 2^63 + 5 mod 10 as unsigned is 3 */
	a.v.dtype = b.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_UINT64;
	((s64 *)a.buf)[0] = (s64)0x8000000000000005ULL;
	((s64 *)b.buf)[0] = 10;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, NULL, 0));
	EXPECT_EQ(3, ((s64 *)o.buf)[0]);
	freeall(&a, &b, &o);
	/* DOUBLE, exact even for far-apart magnitudes */
	ot_make(&a, DRM_VNPU_DTYPE_DOUBLE, 1, &four);
	ot_make(&b, DRM_VNPU_DTYPE_DOUBLE, 1, &four);
	ot_make(&o, DRM_VNPU_DTYPE_DOUBLE, 1, &four);
	memcpy(a.buf, fa, sizeof(fa));
	memcpy(b.buf, fb, sizeof(fb));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, &fm, 0));
	EXPECT_EQ(1.5, ((double *)o.buf)[0]);
	EXPECT_EQ(-1.5, ((double *)o.buf)[1]);
	EXPECT_EQ(fmod(1e300, 3), ((double *)o.buf)[2]);
	EXPECT_TRUE(signbit(((double *)o.buf)[3]));
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-0.5, ((double *)o.buf)[0]);
	EXPECT_EQ(0.5, ((double *)o.buf)[1]);
	/* the widest exponent gap, a subnormal divisor: still libm's exact value */
	((double *)a.buf)[0] = -1.7e308;
	((double *)b.buf)[0] = 0x1p-1074 * 12345;
	((double *)a.buf)[1] = 0x1p-1060;
	((double *)b.buf)[1] = 0x1p-1074 * 7;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, &fm, 0));
	EXPECT_EQ(fmod(-1.7e308, 0x1p-1074 * 12345), ((double *)o.buf)[0]);
	EXPECT_EQ(fmod(0x1p-1060, 0x1p-1074 * 7), ((double *)o.buf)[1]);
	freeall(&a, &b, &o);
}

TEST(rejects)
{
	s64 s4 = 4, s5 = 5;
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o };

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 1, &s4);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &s5);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &s4);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MUL, ts, 2, 1, NULL, 0));
	b.v.shape[0] = 4;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_MUL, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MUL, ts, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MUL, ts, 2, 0, NULL, 0));
	b.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	a.v.dtype = b.v.dtype = o.v.dtype = 42;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	/* comparisons need a BOOL output, arithmetic the inputs' dtype */
	a.v.dtype = b.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LT, ts, 2, 1, NULL, 0));
	o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_LT, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	/* BOOL: no SUB, DIV, POW */
	a.v.dtype = b.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SUB, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_DIV, ts, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_MOD, ts, 2, 1, NULL, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	/* an input of higher rank than the output */
	a.v.rank = 2;
	a.v.shape[1] = 4;
	a.v.shape[0] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ADD, ts, 2, 1, NULL, 0));
	freeall(&a, &b, &o);
}

TEST_HARNESS_MAIN
