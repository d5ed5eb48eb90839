// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of NORM_AXES, LRN and NLL_LOSS against references in double:
 * every mask of a 4-D tensor with broadcast gamma/beta and both statistic
 * forms, transposed views, each float dtype, LRN windows at the channel
 * edges, NLL_LOSS reductions with weights, ignored and out-of-range
 * classes, and check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 fdtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_DOUBLE,
};
#define NDT (sizeof(fdtypes) / sizeof(fdtypes[0]))

/* Element offset of logical row-major index @lin of a view. */
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

/* The element of @t (x's rank, dims of size 1 broadcast) at x's index. */
static double get_bc(const struct ot_tensor *t, const s64 *idx)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < t->v.rank; d++)
		off += (t->v.shape[d] == 1 ? 0 : idx[d]) * t->v.strides[d];
	return vnpu_load_f64(t->v.data, t->v.dtype, off);
}

static void unlin(const s64 *shape, u32 rank, u64 lin, s64 *idx)
{
	u32 d;

	for (d = rank; d-- > 0;) {
		idx[d] = (s64)(lin % (u64)shape[d]);
		lin /= (u64)shape[d];
	}
}

static double round_to(u32 dtype, double v)
{
	u64 buf = 0;

	vnpu_store_f64(&buf, dtype, 0, v);
	return vnpu_load_f64(&buf, dtype, 0);
}

static int close_to(u32 dtype, double got, double want)
{
	double tol = dtype == DRM_VNPU_DTYPE_DOUBLE ? 1e-10 : ot_tolerance(dtype);

	return ot_close(got, round_to(dtype, want), tol, tol);
}

/* A view of @shape over a buffer laid out with the dims reversed. */
static void make_transposed(struct ot_tensor *t, u32 dtype, u32 rank,
			    const s64 *shape)
{
	s64 rs[VNPU_OPS_MAX_RANK], st[VNPU_OPS_MAX_RANK];
	u32 d;

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

/* Reference NORM_AXES, checked element by element; mismatches. */
static int check_norm(struct __test_metadata *_metadata, const struct ot_tensor *x,
		      const struct ot_tensor *g, const struct ot_tensor *b,
		      const struct ot_tensor *o, const struct ot_tensor *mean,
		      const struct ot_tensor *stat, u32 mask, s64 flags, double eps)
{
	u32 r = x->v.rank, d;
	u64 n = vnpu_tview_elems(&x->v), i, j;
	s64 idx[VNPU_OPS_MAX_RANK], jdx[VNPU_OPS_MAX_RANK];
	int bad = 0;

	for (i = 0; i < n; i++) {
		double s = 0, sq = 0, cnt = 0, m, var, inv, want;

		unlin(x->v.shape, r, i, idx);
		for (j = 0; j < n; j++) {
			bool same = true;

			unlin(x->v.shape, r, j, jdx);
			for (d = 0; d < r; d++)
				if (!((mask >> d) & 1) && jdx[d] != idx[d])
					same = false;
			if (same) {
				s += getl(x, j);
				cnt++;
			}
		}
		m = s / cnt;
		for (j = 0; j < n; j++) {
			bool same = true;

			unlin(x->v.shape, r, j, jdx);
			for (d = 0; d < r; d++)
				if (!((mask >> d) & 1) && jdx[d] != idx[d])
					same = false;
			if (same)
				sq += (getl(x, j) - m) * (getl(x, j) - m);
		}
		var = sq / cnt;
		inv = flags & 1 ? 1 / (sqrt(var) + eps) : 1 / sqrt(var + eps);
		want = (getl(x, i) - m) * inv;
		if (g)
			want *= get_bc(g, idx);
		if (b)
			want += get_bc(b, idx);
		if (!close_to(o->v.dtype, getl(o, i), want) && bad++ < 4)
			TH_LOG("mask %u out %llu: got %.8g want %.8g", mask,
			       (unsigned long long)i, getl(o, i), want);
		if (mean && !close_to(o->v.dtype, get_bc(mean, idx), m) && bad++ < 4)
			TH_LOG("mask %u mean at %llu: got %.8g want %.8g", mask,
			       (unsigned long long)i, get_bc(mean, idx), m);
		if (stat && !close_to(o->v.dtype, get_bc(stat, idx),
				      flags & 2 ? var : inv) && bad++ < 4)
			TH_LOG("mask %u stat at %llu: got %.8g want %.8g", mask,
			       (unsigned long long)i, get_bc(stat, idx),
			       flags & 2 ? var : inv);
	}
	return bad;
}

static void attrs_norm(struct drm_vnpu_op_attrs *a, s64 mask, s64 flags, float eps)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = mask;
	a->ints[1] = flags;
	memcpy(&a->floats[0], &eps, sizeof(eps));
}

TEST(norm_axes_every_mask_params_stats)
{
	s64 xs[4] = { 2, 3, 4, 5 }, ss[4];
	struct ot_tensor x, g, b, o, mean, stat;
	struct drm_vnpu_op_attrs at;
	u32 mask, k, d;

	for (k = 0; k < NDT; k++) {
		u32 dt = fdtypes[k];

		for (mask = 1; mask < 16; mask++) {
			s64 flags = (mask + k) % 4;
			s64 gs[4];

			if (mask % 2)
				make_transposed(&x, dt, 4, xs);
			else
				ot_make(&x, dt, 4, xs);
			ot_fill(&x, mask * 7 + k, -3, 3);
			/* gamma over the normalised dims, beta per kept dim */
			for (d = 0; d < 4; d++) {
				gs[d] = (mask >> d) & 1 ? xs[d] : 1;
				ss[d] = (mask >> d) & 1 ? 1 : xs[d];
			}
			ot_make(&g, dt, 4, gs);
			ot_make(&b, dt, 4, ss);
			ot_fill(&g, mask, 0.5, 2);
			ot_fill(&b, mask + 1, -1, 1);
			ot_make(&o, dt, 4, xs);
			ot_make(&mean, dt, 4, ss);
			ot_make(&stat, dt, 4, ss);
			attrs_norm(&at, mask, flags, 0.01f);
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NORM_AXES,
					    (struct ot_tensor *[]){ &x, &g, &b, &o, &mean, &stat },
					    3, 3, &at, 0));
			EXPECT_EQ(0, check_norm(_metadata, &x, &g, &b, &o, &mean,
						&stat, mask, flags, (double)0.01f));
			/* no parameters, one output */
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NORM_AXES,
					    (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
			EXPECT_EQ(0, check_norm(_metadata, &x, NULL, NULL, &o, NULL,
						NULL, mask, flags, (double)0.01f));
			ot_free(&x);
			ot_free(&g);
			ot_free(&b);
			ot_free(&o);
			ot_free(&mean);
			ot_free(&stat);
		}
	}
}

TEST(norm_axes_defaults_and_rejects)
{
	s64 xs[3] = { 2, 3, 4 }, ms[3] = { 2, 3, 1 }, bad[3] = { 2, 1, 1 };
	s64 gs[1] = { 4 }, os[3] = { 2, 3, 5 };
	struct ot_tensor x, o, m, s, mb, g1, ob, xi;
	struct drm_vnpu_op_attrs at;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_fill(&x, 3, -1, 1);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&m, DRM_VNPU_DTYPE_FLOAT, 3, ms);
	ot_make(&s, DRM_VNPU_DTYPE_FLOAT, 3, ms);
	ot_make(&mb, DRM_VNPU_DTYPE_FLOAT, 3, bad);
	ot_make(&g1, DRM_VNPU_DTYPE_FLOAT, 1, gs);
	ot_make(&ob, DRM_VNPU_DTYPE_FLOAT, 3, os);
	ot_make(&xi, DRM_VNPU_DTYPE_INT32, 3, xs);
	/* no attributes: the last dim, eps 1e-5 */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NORM_AXES,
			    (struct ot_tensor *[]){ &x, &o, &m, &s }, 1, 3, NULL, 0));
	EXPECT_EQ(0, check_norm(_metadata, &x, NULL, NULL, &o, &m, &s, 4, 0, 1e-5));

	attrs_norm(&at, 4, 0, 1e-5f);
	/* integer dtype, dtype mismatch, output shape */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &xi, &xi }, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &xi }, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &ob }, 1, 1, &at, 0));
	/* mask bits past the rank, negative mask, unknown flags */
	attrs_norm(&at, 8, 0, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_norm(&at, -1, 0, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_norm(&at, 4, 4, 1e-5f);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	attrs_norm(&at, 4, 0, 1e-5f);
	/* a parameter of another rank; statistics of the wrong shape */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &g1, &o }, 2, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &o, &mb, &s }, 1, 3, &at, 0));
	/* two outputs, four inputs */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &o, &m }, 1, 2, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &x, &x, &x, &o }, 4, 1, &at, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_NORM_AXES, (struct ot_tensor *[]){ &x, &x, &x, &o }, 3, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
	ot_free(&m);
	ot_free(&s);
	ot_free(&mb);
	ot_free(&g1);
	ot_free(&ob);
	ot_free(&xi);
}

static void attrs_lrn(struct drm_vnpu_op_attrs *a, s64 size, float alpha,
		      float beta, float bias)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = size;
	memcpy(&a->floats[0], &alpha, 4);
	memcpy(&a->floats[1], &beta, 4);
	memcpy(&a->floats[2], &bias, 4);
}

TEST(lrn_windows)
{
	s64 xs[4] = { 2, 5, 3, 2 }, sizes[] = { 1, 2, 3, 4, 7 };
	struct ot_tensor x, o;
	struct drm_vnpu_op_attrs at;
	u32 k, s;

	for (k = 0; k < NDT; k++)
		for (s = 0; s < 5; s++) {
			u64 n, i;
			int bad = 0;

			if (s % 2)
				make_transposed(&x, fdtypes[k], 4, xs);
			else
				ot_make(&x, fdtypes[k], 4, xs);
			ot_fill(&x, s + 10 * k, -4, 4);
			ot_make(&o, fdtypes[k], 4, xs);
			attrs_lrn(&at, sizes[s], 0.3f, 0.75f, 1.5f);
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_LRN, (struct ot_tensor *[]){ &x, &o },
					    1, 1, &at, 0));
			n = vnpu_tview_elems(&x.v);
			for (i = 0; i < n; i++) {
				s64 idx[4], c, lo, hi, j;
				double sum = 0, want;

				unlin(xs, 4, i, idx);
				c = idx[1];
				lo = c - (sizes[s] - 1) / 2;
				hi = c + sizes[s] / 2;
				for (j = lo < 0 ? 0 : lo; j <= hi && j < xs[1]; j++) {
					double v;

					idx[1] = j;
					v = ot_get(&x, idx);
					sum += v * v;
				}
				idx[1] = c;
				want = ot_get(&x, idx) /
				       pow(1.5 + (double)0.3f / (double)sizes[s] * sum, 0.75);
				if (!close_to(fdtypes[k], getl(&o, i), want) && bad++ < 4)
					TH_LOG("size %lld at %llu: got %.8g want %.8g",
					       (long long)sizes[s], (unsigned long long)i,
					       getl(&o, i), want);
			}
			EXPECT_EQ(0, bad);
			ot_free(&x);
			ot_free(&o);
		}
	/* defaults (size 5) run; size 0, rank 1, a dtype mismatch do not */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_LRN, (struct ot_tensor *[]){ &x, &o }, 1, 1, NULL, 0));
	attrs_lrn(&at, 0, 1, 1, 1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LRN, (struct ot_tensor *[]){ &x, &o }, 1, 1, &at, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LRN, (struct ot_tensor *[]){ &x, &o }, 1, 1, NULL, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	x.v.rank = o.v.rank = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_LRN, (struct ot_tensor *[]){ &x, &o }, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

static void attrs_nll(struct drm_vnpu_op_attrs *a, s64 red, s64 ii, s64 has_ii)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = red;
	a->ints[1] = ii;
	a->ints[2] = has_ii;
}

TEST(nll_loss_reductions_weights_ignore)
{
	s64 xs[3] = { 3, 5, 4 }, ts[2] = { 3, 4 }, ws[1] = { 5 }, one[1] = { 1 };
	struct ot_tensor x, t, w, o, os;
	struct drm_vnpu_op_attrs at;
	u32 k, red, variant;

	for (k = 0; k < NDT; k++)
		for (variant = 0; variant < 4; variant++)
			for (red = 0; red < 3; red++) {
				bool weighted = variant & 1, ign = variant & 2;
				double sum = 0, wsum = 0, want;
				u64 i;
				int bad = 0;

				make_transposed(&x, fdtypes[k], 3, xs);
				ot_fill(&x, variant + 5 * red, -4, 0);
				ot_make(&t, k ? DRM_VNPU_DTYPE_INT32 :
					DRM_VNPU_DTYPE_INT64, 2, ts);
				ot_fill(&t, variant + red + 1, 0, 5);
				ot_make(&w, fdtypes[k], 1, ws);
				ot_fill(&w, 9, 0.2, 2);
				ot_make(&o, fdtypes[k], 2, ts);
				ot_make(&os, fdtypes[k], 0, one);
				attrs_nll(&at, red, 2, ign);
				ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NLL_LOSS,
						    weighted ?
						    (struct ot_tensor *[]){ &x, &t, &w, red ? &os : &o } :
						    (struct ot_tensor *[]){ &x, &t, red ? &os : &o },
						    weighted ? 3 : 2, 1, &at, 0));
				for (i = 0; i < 12; i++) {
					s64 idx[2], cls = (s64)getl(&t, i), xi[3];
					double wt = weighted ? getl(&w, cls) : 1, l;

					unlin(ts, 2, i, idx);
					xi[0] = idx[0];
					xi[1] = cls;
					xi[2] = idx[1];
					if (ign && cls == 2)
						wt = 0;
					l = -ot_get(&x, xi) * wt;
					sum += l;
					wsum += wt;
					if (!red && !close_to(fdtypes[k], getl(&o, i), l) &&
					    bad++ < 4)
						TH_LOG("none %llu: got %.8g want %.8g",
						       (unsigned long long)i, getl(&o, i), l);
				}
				want = red == 1 ? sum : sum / wsum;
				if (red && !close_to(fdtypes[k], getl(&os, 0), want)) {
					bad++;
					TH_LOG("red %u variant %u: got %.8g want %.8g",
					       red, variant, getl(&os, 0), want);
				}
				EXPECT_EQ(0, bad);
				ot_free(&x);
				ot_free(&t);
				ot_free(&w);
				ot_free(&o);
				ot_free(&os);
			}
}

TEST(nll_loss_bad_class_and_rejects)
{
	s64 xs[2] = { 2, 3 }, ts[1] = { 2 }, ws[1] = { 3 }, w4[1] = { 4 }, one[1] = { 1 };
	struct ot_tensor x, t, w, wb, o, os, tf;
	struct drm_vnpu_op_attrs at;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_fill(&x, 1, -2, 0);
	ot_make(&t, DRM_VNPU_DTYPE_INT64, 1, ts);
	ot_make(&tf, DRM_VNPU_DTYPE_FLOAT, 1, ts);
	ot_make(&w, DRM_VNPU_DTYPE_FLOAT, 1, ws);
	ot_make(&wb, DRM_VNPU_DTYPE_FLOAT, 1, w4);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, ts);
	ot_make(&os, DRM_VNPU_DTYPE_FLOAT, 0, one);
	/* a class outside [0, C) is NaN; the ignored one is 0 */
	((s64 *)t.v.data)[0] = 3;
	((s64 *)t.v.data)[1] = -7;
	attrs_nll(&at, 0, -7, 1);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &o }, 2, 1, &at, 0));
	EXPECT_TRUE(isnan(getl(&o, 0)));
	EXPECT_EQ(0, getl(&o, 1));
	/* everything ignored: the mean is 0 / 0 */
	((s64 *)t.v.data)[0] = -7;
	attrs_nll(&at, 2, -7, 1);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &os }, 2, 1, &at, 0));
	EXPECT_TRUE(isnan(getl(&os, 0)));
	/* no attributes: mean without ignore index */
	((s64 *)t.v.data)[0] = 0;
	((s64 *)t.v.data)[1] = 2;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &os }, 2, 1, NULL, 0));
	EXPECT_TRUE(close_to(DRM_VNPU_DTYPE_FLOAT, getl(&os, 0),
			     -(getl(&x, 0) + getl(&x, 5)) / 2));

	/* reduction out of range, ignore flag not 0/1, float target */
	attrs_nll(&at, 3, 0, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &os }, 2, 1, &at, 0));
	attrs_nll(&at, 1, 0, 2);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &os }, 2, 1, &at, 0));
	attrs_nll(&at, 1, 0, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &tf, &os }, 2, 1, &at, 0));
	/* weight of the wrong size; a summed loss of two elements */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &wb, &os }, 3, 1, &at, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &w, &os }, 3, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &o }, 2, 1, &at, 0));
	/* none: the output must be shaped like the target */
	attrs_nll(&at, 0, 0, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &os }, 2, 1, &at, 0));
	/* target rank, input rank */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &x, &o }, 2, 1, &at, 0));
	x.v.rank = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_NLL_LOSS, (struct ot_tensor *[]){ &x, &t, &o }, 2, 1, &at, 0));
	ot_free(&x);
	ot_free(&t);
	ot_free(&tf);
	ot_free(&w);
	ot_free(&wb);
	ot_free(&o);
	ot_free(&os);
}

TEST_HARNESS_MAIN
