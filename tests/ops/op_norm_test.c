// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of SOFTMAX, LOG_SOFTMAX, LAYER_NORM, RMS_NORM, BATCH_NORM and
 * GROUP_NORM against references in double: every axis, optional gamma and
 * beta, transposed views, each float dtype, NaN/Inf rows, rows longer than
 * the scratch cache, many rows over many tiles, and check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 fdtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
};

/* A tensor of @shape; transposed: the view of a buffer laid out reversed. */
static void make_view(struct ot_tensor *t, u32 dtype, u32 rank,
		      const s64 *shape, int transposed)
{
	s64 rs[VNPU_OPS_MAX_RANK], st[VNPU_OPS_MAX_RANK];
	u32 d;

	if (!transposed) {
		ot_make(t, dtype, rank, shape);
		return;
	}
	for (d = 0; d < rank; d++)
		rs[d] = shape[rank - 1 - d];
	ot_make(t, dtype, rank, rs);
	for (d = 0; d < rank; d++)
		st[d] = t->v.strides[rank - 1 - d];
	for (d = 0; d < rank; d++) {
		t->v.shape[d] = shape[d];
		t->v.strides[d] = st[d];
	}
}

/* Element of logical row-major index @lin. */
static s64 lin_off(const struct ot_tensor *t, u64 lin)
{
	s64 off = 0;
	u32 d;

	for (d = t->v.rank; d-- > 0;) {
		off += (s64)(lin % (u64)t->v.shape[d]) * t->v.strides[d];
		lin /= (u64)t->v.shape[d];
	}
	return off;
}

static double getl(const struct ot_tensor *t, u64 lin)
{
	return vnpu_load_f64(t->v.data, t->v.dtype, lin_off(t, lin));
}

static void setl(struct ot_tensor *t, u64 lin, double v)
{
	vnpu_store_f64(t->v.data, t->v.dtype, lin_off(t, lin), v);
}

static double round_to(u32 dtype, double v)
{
	u64 buf = 0;

	vnpu_store_f64(&buf, dtype, 0, v);
	return vnpu_load_f64(&buf, dtype, 0);
}

static u64 prod(const s64 *shape, u32 from, u32 to)
{
	u64 n = 1;

	for (; from < to; from++)
		n *= (u64)shape[from];
	return n;
}

/* Compare @o with @want (logical order); returns mismatches, logs a few. */
static int compare(struct __test_metadata *_metadata, const char *what,
		   const struct ot_tensor *o, const double *want, double atol)
{
	u64 n = vnpu_tview_elems(&o->v), i;
	double tol = ot_tolerance(o->v.dtype);
	int bad = 0;

	for (i = 0; i < n; i++) {
		double w = round_to(o->v.dtype, want[i]), g = getl(o, i);

		if (!ot_close(g, w, tol, atol * tol) && bad++ < 5)
			TH_LOG("%s dtype %u element %llu: got %.9g want %.9g",
			       what, o->v.dtype, (unsigned long long)i, g, w);
	}
	return bad;
}

static void attrs_ie(struct drm_vnpu_op_attrs *a, s64 i0, float eps)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = i0;
	memcpy(&a->floats[0], &eps, sizeof(eps));
}

/* Softmax reference over rows of @x (logical), into @want. */
static void softmax_ref(const struct ot_tensor *x, u32 axis, int log_form,
			double *want)
{
	u64 outer = prod(x->v.shape, 0, axis), n = x->v.shape[axis];
	u64 inner = prod(x->v.shape, axis + 1, x->v.rank), o, i, k;

	for (o = 0; o < outer; o++)
		for (i = 0; i < inner; i++) {
			double m = -INFINITY, s = 0;

			for (k = 0; k < n; k++) {
				double v = getl(x, (o * n + k) * inner + i);

				if (v > m)
					m = v;
			}
			for (k = 0; k < n; k++)
				s += exp(getl(x, (o * n + k) * inner + i) - m);
			for (k = 0; k < n; k++) {
				u64 l = (o * n + k) * inner + i;
				double v = getl(x, l);

				want[l] = log_form ? v - m - log(s) : exp(v - m) / s;
			}
		}
}

static int check_softmax(struct __test_metadata *_metadata, u32 op, u32 dtype,
			 u32 rank, const s64 *shape, s64 axis, int transposed,
			 u64 seed)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	u32 ax = axis < 0 ? axis + rank : axis;
	double *want;
	int bad;

	make_view(&x, dtype, rank, shape, transposed);
	make_view(&o, dtype, rank, shape, !transposed);
	ot_fill(&x, seed, -20, 20);
	attrs_ie(&at, axis, 0);
	EXPECT_EQ(0, ot_run(op, ts, 1, 1, &at, vnpu_ops_host_cpu()));
	want = calloc(vnpu_tview_elems(&x.v) + 1, sizeof(double));
	softmax_ref(&x, ax, op == DRM_VNPU_OP_LOG_SOFTMAX, want);
	bad = compare(_metadata, op == DRM_VNPU_OP_SOFTMAX ? "softmax" :
		      "log_softmax", &o, want, 1e-4);
	free(want);
	ot_free(&x);
	ot_free(&o);
	return bad;
}

TEST(softmax_every_axis_dtype_layout)
{
	s64 shape[3] = { 4, 5, 6 };
	unsigned int t, tr, op;
	s64 a;
	int bad = 0;

	for (op = DRM_VNPU_OP_SOFTMAX; op <= DRM_VNPU_OP_LOG_SOFTMAX; op++)
		for (t = 0; t < ARRAY_SIZE(fdtypes); t++)
			for (a = -1; a < 3; a++)
				for (tr = 0; tr < 2; tr++)
					bad += check_softmax(_metadata, op, fdtypes[t],
							     3, shape, a, tr, t + a + 3);
	EXPECT_EQ(0, bad);
}

TEST(softmax_odd_and_size1)
{
	s64 s1[1] = { 1 }, s2[4] = { 1, 7, 1, 3 };
	unsigned int op;
	int bad = 0;

	for (op = DRM_VNPU_OP_SOFTMAX; op <= DRM_VNPU_OP_LOG_SOFTMAX; op++) {
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_FLOAT, 1, s1, 0, 0, 1);
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_FLOAT, 4, s2, 1, 1, 2);
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_FLOAT, 4, s2, 2, 0, 3);
	}
	EXPECT_EQ(0, bad);
}

TEST(softmax_long_rows_and_many_rows)
{
	/* Fits the scratch cache; does not; many rows over many tiles. */
	s64 r1[1] = { 3 * VNPU_OPS_TILE_ELEMS + 17 }, r2[2] = { 2, 300001 };
	s64 r3[2] = { 2000, 77 };
	unsigned int op;
	int bad = 0;

	for (op = DRM_VNPU_OP_SOFTMAX; op <= DRM_VNPU_OP_LOG_SOFTMAX; op++) {
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_FLOAT, 1, r1, 0, 0, 4);
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_FLOAT, 2, r2, 1, 0, 5);
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_BF16, 2, r3, 1, 0, 6);
		bad += check_softmax(_metadata, op, DRM_VNPU_DTYPE_FLOAT16, 2, r3, 0, 1, 7);
	}
	EXPECT_EQ(0, bad);
}

TEST(softmax_nan_inf_rows)
{
	/* Rows: NaN, +Inf, all -Inf, one -Inf, large values. */
	static const double rows[5][3] = {
		{ 1, NAN, 2 },
		{ INFINITY, 1, 2 },
		{ -INFINITY, -INFINITY, -INFINITY },
		{ -INFINITY, 0, 0 },
		{ 1000, 1000, -1000 },
	};
	static const double sm[5][3] = {
		{ NAN, NAN, NAN },
		{ NAN, NAN, NAN },
		{ NAN, NAN, NAN },
		{ 0, 0.5, 0.5 },
		{ 0.5, 0.5, 0 },
	};
	static const double lsm[5][3] = {
		{ NAN, NAN, NAN },
		{ NAN, NAN, NAN },
		{ NAN, NAN, NAN },
		{ -INFINITY, -M_LN2, -M_LN2 },
		{ -M_LN2, -M_LN2, -2000 - M_LN2 },
	};
	s64 shape[2] = { 5, 3 };
	unsigned int t, op;
	int bad = 0;

	for (op = DRM_VNPU_OP_SOFTMAX; op <= DRM_VNPU_OP_LOG_SOFTMAX; op++)
		for (t = 0; t < ARRAY_SIZE(fdtypes); t++) {
			struct ot_tensor x, o;
			struct ot_tensor *ts[2] = { &x, &o };
			double want[15];
			int i;

			ot_make(&x, fdtypes[t], 2, shape);
			ot_make(&o, fdtypes[t], 2, shape);
			for (i = 0; i < 15; i++) {
				setl(&x, i, rows[i / 3][i % 3]);
				want[i] = op == DRM_VNPU_OP_SOFTMAX ?
					  sm[i / 3][i % 3] : lsm[i / 3][i % 3];
			}
			ASSERT_EQ(0, ot_run(op, ts, 1, 1, NULL, 0));
			bad += compare(_metadata, "softmax special", &o, want, 1e-4);
			ot_free(&x);
			ot_free(&o);
		}
	EXPECT_EQ(0, bad);
}

/*
 * Layer norm (rms: no mean, no beta) over dims [axis, rank), with @nin
 * inputs (x, gamma, beta).
 */
static int check_ln(struct __test_metadata *_metadata, u32 op, u32 dtype,
		    u32 rank, const s64 *shape, s64 axis, u32 nin,
		    int transposed, const float *eps)
{
	struct ot_tensor x, g, b, o;
	struct ot_tensor *ts[4];
	struct drm_vnpu_op_attrs at;
	int rms = op == DRM_VNPU_OP_RMS_NORM, bad;
	u32 ax = axis < 0 ? axis + rank : axis, k = 0;
	double e = eps ? *eps : rms ? 1e-6 : 1e-5, *want;
	u64 rows, n, r, j;

	make_view(&x, dtype, rank, shape, transposed);
	ot_fill(&x, ax * 10 + nin, -3, 5);
	make_view(&g, dtype, rank - ax, shape + ax, transposed);
	ot_fill(&g, 77, 0.5, 2);
	make_view(&b, dtype, rank - ax, shape + ax, !transposed);
	ot_fill(&b, 78, -1, 1);
	ot_make(&o, dtype, rank, shape);
	ts[k++] = &x;
	if (nin > 1)
		ts[k++] = &g;
	if (nin > 2)
		ts[k++] = &b;
	ts[k++] = &o;
	attrs_ie(&at, axis, eps ? *eps : 0);
	EXPECT_EQ(0, ot_run(op, ts, nin, 1, eps ? &at : NULL, vnpu_ops_host_cpu()));

	rows = prod(shape, 0, ax);
	n = prod(shape, ax, rank);
	want = calloc(rows * n + 1, sizeof(double));
	for (r = 0; r < rows; r++) {
		double m = 0, v = 0, rstd;

		if (!rms) {
			for (j = 0; j < n; j++)
				m += getl(&x, r * n + j);
			m /= n;
		}
		for (j = 0; j < n; j++)
			v += (getl(&x, r * n + j) - m) * (getl(&x, r * n + j) - m);
		rstd = 1 / sqrt(v / n + e);
		for (j = 0; j < n; j++) {
			double y = (getl(&x, r * n + j) - m) * rstd;

			if (nin > 1)
				y *= getl(&g, j);
			if (nin > 2)
				y += getl(&b, j);
			want[r * n + j] = y;
		}
	}
	bad = compare(_metadata, rms ? "rms_norm" : "layer_norm", &o, want, 1);
	free(want);
	ot_free(&x);
	ot_free(&g);
	ot_free(&b);
	ot_free(&o);
	return bad;
}

TEST(layer_rms_norm_every_axis_and_params)
{
	s64 shape[3] = { 3, 4, 5 };
	float eps = 0.01f;
	unsigned int t, tr, nin;
	s64 a;
	int bad = 0;

	for (t = 0; t < ARRAY_SIZE(fdtypes); t++)
		for (a = -1; a < 3; a++)
			for (tr = 0; tr < 2; tr++) {
				for (nin = 1; nin <= 3; nin++)
					bad += check_ln(_metadata, DRM_VNPU_OP_LAYER_NORM,
							fdtypes[t], 3, shape, a, nin, tr,
							&eps);
				for (nin = 1; nin <= 2; nin++)
					bad += check_ln(_metadata, DRM_VNPU_OP_RMS_NORM,
							fdtypes[t], 3, shape, a, nin, tr,
							&eps);
			}
	/* Defaults: last dim, eps 1e-5 / 1e-6. */
	bad += check_ln(_metadata, DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_DTYPE_FLOAT,
			3, shape, -1, 3, 0, NULL);
	bad += check_ln(_metadata, DRM_VNPU_OP_RMS_NORM, DRM_VNPU_DTYPE_FLOAT,
			3, shape, -1, 2, 0, NULL);
	EXPECT_EQ(0, bad);
}

TEST(layer_rms_norm_large)
{
	s64 many[2] = { 70, 2001 }, one[1] = { 300001 };
	float eps = 1e-5f;
	int bad = 0;

	bad += check_ln(_metadata, DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_DTYPE_FLOAT,
			2, many, 1, 3, 1, &eps);
	bad += check_ln(_metadata, DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_DTYPE_FLOAT,
			1, one, 0, 3, 0, &eps);
	bad += check_ln(_metadata, DRM_VNPU_OP_RMS_NORM, DRM_VNPU_DTYPE_BF16,
			1, one, 0, 2, 0, &eps);
	EXPECT_EQ(0, bad);
}

TEST(layer_norm_nan_row)
{
	s64 shape[2] = { 2, 4 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	double want[8] = { NAN, NAN, NAN, NAN };
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	setl(&x, 1, NAN);
	for (i = 4; i < 8; i++) {
		setl(&x, i, i);
		want[i] = (i - 5.5) / sqrt(1.25 + 1e-5);
	}
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_LAYER_NORM, ts, 1, 1, NULL, 0));
	EXPECT_EQ(0, compare(_metadata, "layer_norm nan", &o, want, 1));
	ot_free(&x);
	ot_free(&o);
}

/* Batch norm with @nin inputs: x, mean, var, [gamma, [beta]]. */
static int check_bn(struct __test_metadata *_metadata, u32 dtype, u32 rank,
		    const s64 *shape, u32 nin, int transposed)
{
	struct ot_tensor x, p[4], o;
	struct ot_tensor *ts[6];
	s64 cs[1] = { shape[1] };
	u64 n = shape[0], c = shape[1], s = prod(shape, 2, rank), i, ci, k;
	double *want;
	int bad;

	make_view(&x, dtype, rank, shape, transposed);
	ot_fill(&x, 5, -4, 4);
	ts[0] = &x;
	for (k = 0; k < 4; k++) {
		ot_make(&p[k], dtype, 1, cs);
		ot_fill(&p[k], 40 + k, k == 1 ? 0.1 : -1, k == 1 ? 3 : 2);
		if (k + 1 < nin)
			ts[k + 1] = &p[k];
	}
	ot_make(&o, dtype, rank, shape);
	ts[nin] = &o;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_BATCH_NORM, ts, nin, 1, NULL, 0));
	want = calloc(n * c * s + 1, sizeof(double));
	for (i = 0; i < n; i++)
		for (ci = 0; ci < c; ci++)
			for (k = 0; k < s; k++) {
				u64 l = (i * c + ci) * s + k;
				double y = (getl(&x, l) - getl(&p[0], ci)) /
					   sqrt(getl(&p[1], ci) + 1e-5);

				if (nin > 3)
					y *= getl(&p[2], ci);
				if (nin > 4)
					y += getl(&p[3], ci);
				want[l] = y;
			}
	bad = compare(_metadata, "batch_norm", &o, want, 1);
	free(want);
	ot_free(&x);
	for (k = 0; k < 4; k++)
		ot_free(&p[k]);
	ot_free(&o);
	return bad;
}

TEST(batch_norm_shapes_params)
{
	s64 s4[4] = { 2, 3, 4, 5 }, s2[2] = { 5, 3 }, s3[3] = { 4, 70, 1001 };
	unsigned int t, nin, tr;
	int bad = 0;

	for (t = 0; t < ARRAY_SIZE(fdtypes); t++)
		for (nin = 3; nin <= 5; nin++)
			for (tr = 0; tr < 2; tr++) {
				bad += check_bn(_metadata, fdtypes[t], 4, s4, nin, tr);
				bad += check_bn(_metadata, fdtypes[t], 2, s2, nin, tr);
			}
	bad += check_bn(_metadata, DRM_VNPU_DTYPE_FLOAT, 3, s3, 5, 1);
	EXPECT_EQ(0, bad);
}

/* Group norm over (N, C, ...) with @groups and @nin inputs. */
static int check_gn(struct __test_metadata *_metadata, u32 dtype, u32 rank,
		    const s64 *shape, s64 groups, u32 nin, int transposed)
{
	struct ot_tensor x, g, b, o;
	struct ot_tensor *ts[4];
	struct drm_vnpu_op_attrs at;
	s64 cs[1] = { shape[1] };
	u64 n = shape[0], c = shape[1], s = prod(shape, 2, rank), cg = c / groups;
	u64 i, gi, ci, k;
	double *want;
	int bad;

	make_view(&x, dtype, rank, shape, transposed);
	ot_fill(&x, 9, -2, 6);
	ot_make(&g, dtype, 1, cs);
	ot_fill(&g, 10, 0.5, 2);
	ot_make(&b, dtype, 1, cs);
	ot_fill(&b, 11, -1, 1);
	ot_make(&o, dtype, rank, shape);
	ts[0] = &x;
	ts[1] = nin > 1 ? &g : &o;
	ts[2] = nin > 2 ? &b : &o;
	ts[nin] = &o;
	attrs_ie(&at, groups, 1e-5f);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GROUP_NORM, ts, nin, 1, &at, 0));
	want = calloc(n * c * s + 1, sizeof(double));
	for (i = 0; i < n; i++)
		for (gi = 0; gi < (u64)groups; gi++) {
			double m = 0, v = 0, rstd;
			u64 base = (i * c + gi * cg) * s, len = cg * s;

			for (k = 0; k < len; k++)
				m += getl(&x, base + k);
			m /= len;
			for (k = 0; k < len; k++)
				v += (getl(&x, base + k) - m) * (getl(&x, base + k) - m);
			rstd = 1 / sqrt(v / len + (double)1e-5f);
			for (k = 0; k < len; k++) {
				double y = (getl(&x, base + k) - m) * rstd;

				ci = gi * cg + k / s;
				if (nin > 1)
					y *= getl(&g, ci);
				if (nin > 2)
					y += getl(&b, ci);
				want[base + k] = y;
			}
		}
	bad = compare(_metadata, "group_norm", &o, want, 1);
	free(want);
	ot_free(&x);
	ot_free(&g);
	ot_free(&b);
	ot_free(&o);
	return bad;
}

TEST(group_norm_groups_params)
{
	s64 s4[4] = { 2, 6, 3, 4 }, s2[2] = { 3, 6 }, s3[3] = { 2, 32, 4001 };
	static const s64 groups[4] = { 1, 2, 3, 6 };
	unsigned int t, nin, tr, k;
	int bad = 0;

	for (t = 0; t < ARRAY_SIZE(fdtypes); t++)
		for (k = 0; k < 4; k++)
			for (nin = 1; nin <= 3; nin++)
				for (tr = 0; tr < 2; tr++) {
					bad += check_gn(_metadata, fdtypes[t], 4, s4,
							groups[k], nin, tr);
					bad += check_gn(_metadata, fdtypes[t], 2, s2,
							groups[k], nin, tr);
				}
	bad += check_gn(_metadata, DRM_VNPU_DTYPE_FLOAT, 3, s3, 4, 3, 1);
	EXPECT_EQ(0, bad);
}

TEST(norm_rejects)
{
	s64 xs[3] = { 2, 6, 4 }, gs[1] = { 4 }, cs[1] = { 6 }, bad_s[3] = { 2, 6, 5 };
	struct ot_tensor x, o, g, c, ob, xi;
	struct drm_vnpu_op_attrs at;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&g, DRM_VNPU_DTYPE_FLOAT, 1, gs);
	ot_make(&c, DRM_VNPU_DTYPE_FLOAT, 1, cs);
	ot_make(&ob, DRM_VNPU_DTYPE_FLOAT, 3, bad_s);
	ot_make(&xi, DRM_VNPU_DTYPE_INT32, 3, xs);

	/* Softmax: integer dtype, output shape, axis, input count. */
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &o }, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &xi, &xi }, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &ob }, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LOG_SOFTMAX, (struct ot_tensor *[]){ &x, &xi }, 1, 1, NULL, 0));
	attrs_ie(&at, 3, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_ie(&at, -4, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_ie(&at, -3, 0);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &x, &o }, 2, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SOFTMAX, (struct ot_tensor *[]){ &x, &o, &o }, 1, 2, &at, 0));

	/* Layer norm: gamma must match the normalised dims. */
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_LAYER_NORM, (struct ot_tensor *[]){ &x, &g, &g, &o }, 3, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LAYER_NORM, (struct ot_tensor *[]){ &x, &c, &o }, 2, 1, NULL, 0));
	attrs_ie(&at, 1, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LAYER_NORM, (struct ot_tensor *[]){ &x, &g, &o }, 2, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LAYER_NORM, (struct ot_tensor *[]){ &x, &g, &g, &g, &o }, 4, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RMS_NORM, (struct ot_tensor *[]){ &x, &g, &g, &o }, 3, 1, NULL, 0));
	g.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_RMS_NORM, (struct ot_tensor *[]){ &x, &g, &o }, 2, 1, NULL, 0));
	g.v.dtype = DRM_VNPU_DTYPE_FLOAT;

	/* Batch norm: C-sized parameters, rank >= 2, 3..5 inputs. */
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_BATCH_NORM, (struct ot_tensor *[]){ &x, &c, &c, &o }, 3, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BATCH_NORM, (struct ot_tensor *[]){ &x, &c, &o }, 2, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BATCH_NORM, (struct ot_tensor *[]){ &x, &c, &g, &o }, 3, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_BATCH_NORM, (struct ot_tensor *[]){ &g, &c, &c, &g }, 3, 1, NULL, 0));

	/* Group norm: groups must divide C. */
	attrs_ie(&at, 3, 1e-5f);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GROUP_NORM, (struct ot_tensor *[]){ &x, &c, &c, &o }, 3, 1, &at, 0));
	attrs_ie(&at, 4, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GROUP_NORM, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_ie(&at, 0, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GROUP_NORM, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_ie(&at, 2, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GROUP_NORM, (struct ot_tensor *[]){ &x, &g, &o }, 2, 1, &at, 0));

	ot_free(&x);
	ot_free(&o);
	ot_free(&g);
	ot_free(&c);
	ot_free(&ob);
	ot_free(&xi);
}

TEST_HARNESS_MAIN
