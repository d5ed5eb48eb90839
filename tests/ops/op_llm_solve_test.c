// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of TRI_SOLVE against a substitution in long double: lower
 * and upper, unit diagonal, a transposed a (swapped strides), a strided
 * b and x, stride-0 batch broadcasting, every dtype, columns split over
 * pieces, the other triangle never read, and check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 solve_dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_DOUBLE,
};

static double el(const struct ot_tensor *t, s64 i0, s64 i1, s64 i2)
{
	s64 idx[3] = { i0, i1, i2 };

	return ot_get(t, idx);
}

/*
 * Solve with a [B, N, N] (op(a) = a or a^T), b and x [B, N, K]; check
 * a x = b, in the triangle, within the dtype's tolerance.
 */
static int solve_case(u32 dt, s64 bn, s64 n, s64 k, int upper, int unit,
		      int trans, int strided)
{
	struct ot_tensor a, b, x, bb, *ts[3] = { &a, &b, &x };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 sa[3] = { bn, n, n }, sb[3] = { bn, n, k }, sbw[3] = { bn, n, 2 * k };
	double tol = dt == DRM_VNPU_DTYPE_DOUBLE ? 1e-12 : 4 * ot_tolerance(dt);
	s64 p, i, j, t;
	int bad = 0, ret;

	ot_make(&a, dt, 3, sa);
	ot_fill(&a, 11 + n, -1.0 / n, 1.0 / n);
	/* a dominant diagonal keeps the solve well conditioned */
	for (p = 0; p < bn; p++)
		for (i = 0; i < n; i++)
			vnpu_store_f64(a.v.data, dt, p * n * n + i * n + i, 2 + (double)i / n);
	if (trans) {		/* op(a) = a^T: the same buffer, strides swapped */
		s64 s = a.v.strides[1];

		a.v.strides[1] = a.v.strides[2];
		a.v.strides[2] = s;
	}
	if (strided) {		/* b: every other column of a wider buffer */
		ot_make(&bb, dt, 3, sbw);
		ot_fill(&bb, 5, -2, 2);
		b = bb;
		b.v.shape[2] = k;
		b.v.strides[2] = 2;
		b.buf = NULL;
	} else {
		ot_make(&b, dt, 3, sb);
		ot_fill(&b, 5, -2, 2);
	}
	ot_make(&x, dt, 3, sb);
	at.ints[0] = upper != trans;	/* op(a)'s triangle */
	at.ints[1] = unit;
	ret = ot_run(DRM_VNPU_OP_TRI_SOLVE, ts, 2, 1, &at, vnpu_ops_host_cpu());
	if (ret)
		return -1;
	for (p = 0; p < bn; p++)
		for (i = 0; i < n; i++)
			for (j = 0; j < k; j++) {
				long double s = 0, want = el(&b, p, i, j);

				for (t = 0; t < n; t++) {
					/* op(a)[i][t], only the triangle that takes part */
					long double v = el(&a, p, i, t);

					if (at.ints[0] ? t < i : t > i)
						continue;
					if (t == i && unit)
						v = 1;
					s += v * el(&x, p, t, j);
				}
				if (!ot_close((double)s, (double)want, tol, tol))
					bad++;
			}
	ot_free(&a);
	ot_free(strided ? &bb : &b);
	ot_free(&x);
	return bad;
}

TEST(tri_solve_modes_dtypes)
{
	unsigned int d;
	int mode;

	for (d = 0; d < ARRAY_SIZE(solve_dtypes); d++)
		for (mode = 0; mode < 16; mode++)
			EXPECT_EQ(0, solve_case(solve_dtypes[d], 3, 7, 5, mode & 1,
						 !!(mode & 2), !!(mode & 4), !!(mode & 8)))
				TH_LOG("dtype %u mode %d", solve_dtypes[d], mode);
}

/* Columns over several pieces: N 2048 leaves 16 columns a piece. */
TEST(tri_solve_pieces)
{
	EXPECT_EQ(0, solve_case(DRM_VNPU_DTYPE_DOUBLE, 1, 2048, 40, 0, 0, 0, 0));
	EXPECT_EQ(0, solve_case(DRM_VNPU_DTYPE_DOUBLE, 2, 64, 3, 1, 0, 1, 1));
}

/* The triangle not taking part, NaN, is never read; nor a unit diagonal. */
TEST(tri_solve_other_triangle_unread)
{
	s64 sa[2] = { 3, 3 }, sb[2] = { 3, 1 };
	struct ot_tensor a, b, x, *ts[3] = { &a, &b, &x };
	struct drm_vnpu_op_attrs at = { .ints = { 0, 1 } };
	double av[9] = { NAN, NAN, NAN, 2, NAN, NAN, 1, 3, NAN };
	double bv[3] = { 1, 4, 20 };
	s64 i;

	ot_make(&a, DRM_VNPU_DTYPE_DOUBLE, 2, sa);
	ot_make(&b, DRM_VNPU_DTYPE_DOUBLE, 2, sb);
	ot_make(&x, DRM_VNPU_DTYPE_DOUBLE, 2, sb);
	for (i = 0; i < 9; i++)
		((double *)a.buf)[i] = av[i];
	for (i = 0; i < 3; i++)
		((double *)b.buf)[i] = bv[i];
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_TRI_SOLVE, ts, 2, 1, &at, vnpu_ops_host_cpu()));
	/* x0 = 1, x1 = 4 - 2 = 2, x2 = 20 - 1 - 6 = 13 */
	EXPECT_EQ(1, ((double *)x.buf)[0]);
	EXPECT_EQ(2, ((double *)x.buf)[1]);
	EXPECT_EQ(13, ((double *)x.buf)[2]);
	ot_free(&a);
	ot_free(&b);
	ot_free(&x);
}

/* A batch broadcast: a with stride 0 over the batch. */
TEST(tri_solve_broadcast_batch)
{
	s64 sa[3] = { 1, 4, 4 }, sb[3] = { 3, 4, 2 };
	struct ot_tensor a, b, x, *ts[3] = { &a, &b, &x };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 p, i, j, t;

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 3, sa);
	ot_fill(&a, 3, 1, 2);
	a.v.shape[0] = 3;
	a.v.strides[0] = 0;
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 3, sb);
	ot_fill(&b, 4, -1, 1);
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, sb);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_TRI_SOLVE, ts, 2, 1, &at, vnpu_ops_host_cpu()));
	for (p = 0; p < 3; p++)
		for (i = 0; i < 4; i++)
			for (j = 0; j < 2; j++) {
				double s = 0;

				for (t = 0; t <= i; t++)
					s += el(&a, p, i, t) * el(&x, p, t, j);
				EXPECT_TRUE(ot_close(s, el(&b, p, i, j), 1e-5, 1e-5));
			}
	ot_free(&a);
	ot_free(&b);
	ot_free(&x);
}

/* One rejection per rule of check(). */
TEST(tri_solve_check)
{
	const u32 F = DRM_VNPU_DTYPE_FLOAT;
	struct {
		const char *what;
		u32 dta, dtb, dtx, rank;
		s64 sa[3], sb[3], sx[3];
		s64 upper, unit;
		u32 nin;
	} cs[] = {
		{ "valid", F, F, F, 3, { 2, 3, 3 }, { 2, 3, 4 }, { 2, 3, 4 }, 0, 0, 2 },
		{ "integer dtype", DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_INT32,
		  DRM_VNPU_DTYPE_INT32, 3, { 2, 3, 3 }, { 2, 3, 4 }, { 2, 3, 4 }, 0, 0, 2 },
		{ "mixed dtypes", F, DRM_VNPU_DTYPE_DOUBLE, F, 3, { 2, 3, 3 }, { 2, 3, 4 },
		  { 2, 3, 4 }, 0, 0, 2 },
		{ "rank 1", F, F, F, 1, { 3 }, { 3 }, { 3 }, 0, 0, 2 },
		{ "a not square", F, F, F, 3, { 2, 3, 4 }, { 2, 3, 4 }, { 2, 3, 4 }, 0, 0, 2 },
		{ "b rows", F, F, F, 3, { 2, 3, 3 }, { 2, 2, 4 }, { 2, 2, 4 }, 0, 0, 2 },
		{ "x shape", F, F, F, 3, { 2, 3, 3 }, { 2, 3, 4 }, { 2, 3, 5 }, 0, 0, 2 },
		{ "batch dims", F, F, F, 3, { 1, 3, 3 }, { 2, 3, 4 }, { 2, 3, 4 }, 0, 0, 2 },
		{ "upper 2", F, F, F, 3, { 2, 3, 3 }, { 2, 3, 4 }, { 2, 3, 4 }, 2, 0, 2 },
		{ "unit -1", F, F, F, 3, { 2, 3, 3 }, { 2, 3, 4 }, { 2, 3, 4 }, 0, -1, 2 },
		{ "one input", F, F, F, 3, { 2, 3, 3 }, { 2, 3, 4 }, { 2, 3, 4 }, 0, 0, 1 },
		{ "N * N beyond a piece", F, F, F, 3, { 1, 8193, 8193 }, { 1, 8193, 1 },
		  { 1, 8193, 1 }, 0, 0, 2 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct vnpu_tview v[3] = { 0 };
		struct vnpu_op_call c = { .op = DRM_VNPU_OP_TRI_SOLVE, .num_out = 1,
					  .has_attrs = 1 };
		const s64 *sh[3] = { cs[i].sa, cs[i].sb, cs[i].sx };
		u32 dts[3] = { cs[i].dta, cs[i].dtb, cs[i].dtx }, t, d;

		for (t = 0; t < 3; t++) {
			v[t].dtype = dts[t];
			v[t].rank = cs[i].rank;
			for (d = 0; d < cs[i].rank; d++)
				v[t].shape[d] = sh[t][d];
		}
		c.num_in = cs[i].nin;
		c.t[0] = v[0];
		c.t[1] = v[1];
		c.t[cs[i].nin] = v[2];
		c.attrs.ints[0] = cs[i].upper;
		c.attrs.ints[1] = cs[i].unit;
		EXPECT_EQ(i ? -VNPU_OPS_EINVAL : 0,
			  vnpu_op_find(DRM_VNPU_OP_TRI_SOLVE)->check(&c))
			TH_LOG("%s", cs[i].what);
	}
}

TEST_HARNESS_MAIN
