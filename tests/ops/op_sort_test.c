// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of SORT and TOPK against a stable insertion-sort reference:
 * every dtype, axes, non-contiguous views, ties, NaN / -0 / Inf, short
 * (insertion) and long (radix) fibers, empty dims and check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 all_dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL,
};

#define NDT (sizeof(all_dtypes) / sizeof(all_dtypes[0]))

static s64 off_of(const struct vnpu_tview *v, const s64 *idx)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < v->rank; d++)
		off += idx[d] * v->strides[d];
	return off;
}

static u64 raw_off(const struct vnpu_tview *v, s64 off)
{
	switch (vnpu_dtype_size(v->dtype)) {
	case 1:
		return ((u8 *)v->data)[off];
	case 2:
		return ((u16 *)v->data)[off];
	case 4:
		return ((u32 *)v->data)[off];
	default:
		return ((u64 *)v->data)[off];
	}
}

/* a < b in the sort order: NaN above everything, -0 == +0. */
static bool less(const struct vnpu_tview *x, s64 oa, s64 ob)
{
	if (vnpu_dtype_is_float(x->dtype)) {
		double a = vnpu_load_f64(x->data, x->dtype, oa);
		double b = vnpu_load_f64(x->data, x->dtype, ob);

		if (isnan(a))
			return false;
		if (isnan(b))
			return true;
		return a < b;
	}
	return vnpu_load_s64(x->data, x->dtype, oa) <
	       vnpu_load_s64(x->data, x->dtype, ob);
}

static void make_perm(struct ot_tensor *t, u32 dtype, u32 rank,
		      const s64 *shape, const u32 *perm)
{
	s64 st[VNPU_OPS_MAX_RANK], strides[VNPU_OPS_MAX_RANK];
	u32 k;

	for (k = 0; k < rank; k++)
		st[k] = shape[perm[k]];
	ot_make(t, dtype, rank, st);
	memcpy(strides, t->v.strides, sizeof(strides));
	for (k = 0; k < rank; k++) {
		t->v.shape[perm[k]] = shape[perm[k]];
		t->v.strides[perm[k]] = strides[k];
	}
}

/* Sprinkle NaN, -0, +0, +-Inf over a float tensor (stored as contiguous). */
static void add_specials(struct ot_tensor *t, u64 seed)
{
	static const double sp[] = { NAN, -0.0, 0.0, INFINITY, -INFINITY, -NAN };
	u64 n = vnpu_tview_elems(&t->v), i, s = seed;

	if (!vnpu_dtype_is_float(t->v.dtype))
		return;
	for (i = 0; i < n; i += 1 + (s % 5)) {
		s64 idx[VNPU_OPS_MAX_RANK];
		u64 rem = i;
		u32 d;

		for (d = t->v.rank; d-- > 0;) {
			idx[d] = rem % t->v.shape[d];
			rem /= t->v.shape[d];
		}
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		vnpu_store_f64(t->v.data, t->v.dtype, off_of(&t->v, idx),
			       sp[(s >> 33) % 6]);
	}
}

/* Stable merge sort of positions @o[0 .. n) of the fiber at @xo. */
static void ref_sort(const struct vnpu_tview *x, s64 xo, s64 xs, bool desc,
		     s64 *o, s64 *tmp, s64 n)
{
	s64 mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	ref_sort(x, xo, xs, desc, o, tmp, mid);
	ref_sort(x, xo, xs, desc, o + mid, tmp, n - mid);
	while (i < mid && j < n) {
		/* take the right one only when strictly before the left one */
		bool right = desc ? less(x, xo + o[i] * xs, xo + o[j] * xs) :
			     less(x, xo + o[j] * xs, xo + o[i] * xs);

		tmp[k++] = right ? o[j++] : o[i++];
	}
	while (i < mid)
		tmp[k++] = o[i++];
	while (j < n)
		tmp[k++] = o[j++];
	memcpy(o, tmp, n * sizeof(*o));
}

/*
 * Run @op on @x into values of length @k along @axis and check every
 * fiber against the reference.
 */
static void sort_case(struct __test_metadata *_metadata, u32 op, u32 dtype,
		      u32 rank, const s64 *shape, s64 axis, s64 k, bool desc,
		      double lo, double hi, bool perm_x)
{
	u32 perm[4] = { 3, 1, 0, 2 }, ax = axis < 0 ? axis + rank : axis;
	s64 vs[VNPU_OPS_MAX_RANK], fshape[VNPU_OPS_MAX_RANK];
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 }, n = shape[ax], *order, *tmp;
	struct ot_tensor x, v, ix;
	struct ot_tensor *ts[3] = { &x, &v, &ix };
	struct drm_vnpu_op_attrs a = { 0 };
	u64 fibers, f, total = 1;
	u32 d;

	if (perm_x && rank == 3) {
		u32 p3[3] = { 2, 0, 1 };

		make_perm(&x, dtype, rank, shape, p3);
	} else if (perm_x && rank == 4) {
		make_perm(&x, dtype, rank, shape, perm);
	} else {
		ot_make(&x, dtype, rank, shape);
	}
	ot_fill(&x, dtype * 31 + n, lo, hi);
	add_specials(&x, n + k);
	memcpy(vs, shape, rank * sizeof(s64));
	vs[ax] = k;
	ot_make(&v, dtype, rank, vs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, rank, vs);
	a.ints[0] = axis;
	if (op == DRM_VNPU_OP_SORT) {
		a.ints[1] = desc;
	} else {
		a.ints[2] = desc;
		a.ints[3] = 1;
	}
	ASSERT_EQ(0, ot_run(op, ts, 1, 2, &a, 0));
	for (d = 0; d < rank; d++) {
		fshape[d] = d == ax ? 1 : shape[d];
		total *= shape[d];
	}
	if (!total || !k)
		goto out;
	fibers = total / n;
	order = malloc(n * sizeof(*order));
	tmp = malloc(n * sizeof(*tmp));
	for (f = 0; f < fibers; f++) {
		s64 i, j, xo, vo, io;

		(void)j;

		for (d = 0; d < rank; d++)
			idx[d] = 0;
		for (d = rank, i = f; d-- > 0;) {
			idx[d] = i % fshape[d];
			i /= fshape[d];
		}
		xo = off_of(&x.v, idx);
		vo = off_of(&v.v, idx);
		io = off_of(&ix.v, idx);
		/* stable merge sort of positions */
		for (i = 0; i < n; i++)
			order[i] = i;
		ref_sort(&x.v, xo, x.v.strides[ax], desc, order, tmp, n);
		for (j = 0; j < k; j++) {
			s64 got = ((s64 *)ix.v.data)[io + j * ix.v.strides[ax]];

			ASSERT_EQ(order[j], got)
				TH_LOG("op %u dtype %u fiber %llu pos %lld", op,
				       dtype, (unsigned long long)f, (long long)j);
			ASSERT_EQ(raw_off(&x.v, xo + got * x.v.strides[ax]),
				  raw_off(&v.v, vo + j * v.v.strides[ax]));
		}
	}
	free(order);
	free(tmp);
out:
	ot_free(&x);
	ot_free(&v);
	ot_free(&ix);
}

TEST(sort_all_dtypes)
{
	s64 shape[3] = { 5, 9, 13 };
	unsigned int i;
	int desc;

	for (i = 0; i < NDT; i++)
		for (desc = 0; desc < 2; desc++) {
			sort_case(_metadata, DRM_VNPU_OP_SORT, all_dtypes[i], 3,
				  shape, -1, 13, desc, -100, 100, false);
			sort_case(_metadata, DRM_VNPU_OP_SORT, all_dtypes[i], 3,
				  shape, 0, 5, desc, -3, 3, true);
			sort_case(_metadata, DRM_VNPU_OP_SORT, all_dtypes[i], 3,
				  shape, 1, 9, desc, -5, 5, true);
		}
}

TEST(sort_long_fibers_radix)
{
	s64 shape[2] = { 3, 1000 }, big[2] = { 2, 65536 };
	u32 dts[] = { DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16,
		      DRM_VNPU_DTYPE_BF16, DRM_VNPU_DTYPE_INT8,
		      DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_INT64,
		      DRM_VNPU_DTYPE_BOOL, DRM_VNPU_DTYPE_UINT8 };
	unsigned int i;

	for (i = 0; i < sizeof(dts) / sizeof(dts[0]); i++) {
		/* wide range, then heavy ties */
		sort_case(_metadata, DRM_VNPU_OP_SORT, dts[i], 2, shape, 1,
			  1000, i & 1, -1e6, 1e6, false);
		sort_case(_metadata, DRM_VNPU_OP_SORT, dts[i], 2, shape, -1,
			  1000, !(i & 1), -4, 4, true);
	}
	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_FLOAT, 2, big, 1,
		  65536, false, -1e3, 1e3, false);
	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_INT64, 2, big, 1,
		  65536, true, -1e15, 1e15, false);
}

TEST(sort_many_short_fibers)
{
	s64 shape[4] = { 2, 3, 40000, 3 };

	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_FLOAT, 4, shape,
		  -1, 3, false, -10, 10, true);
	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_INT32, 4, shape,
		  1, 3, true, -10, 10, false);
}

TEST(sort_size1_and_empty)
{
	s64 one[2] = { 4, 1 }, empty[2] = { 0, 7 }, empty2[2] = { 3, 0 };

	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_FLOAT, 2, one, 1,
		  1, false, -1, 1, false);
	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_FLOAT, 2, empty, 1,
		  7, false, -1, 1, false);
	sort_case(_metadata, DRM_VNPU_OP_SORT, DRM_VNPU_DTYPE_FLOAT, 2, empty2, 1,
		  0, false, -1, 1, false);
}

TEST(topk)
{
	s64 shape[3] = { 4, 6, 70 }, small[3] = { 4, 6, 9 };
	unsigned int i;
	int largest;

	for (i = 0; i < NDT; i++)
		for (largest = 0; largest < 2; largest++) {
			sort_case(_metadata, DRM_VNPU_OP_TOPK, all_dtypes[i], 3,
				  shape, -1, 5, largest, -100, 100, true);
			sort_case(_metadata, DRM_VNPU_OP_TOPK, all_dtypes[i], 3,
				  small, 1, 2, largest, -3, 3, false);
			sort_case(_metadata, DRM_VNPU_OP_TOPK, all_dtypes[i], 3,
				  small, 2, 9, largest, -3, 3, false);
			sort_case(_metadata, DRM_VNPU_OP_TOPK, all_dtypes[i], 3,
				  small, 0, 0, largest, -3, 3, false);
		}
}

TEST(topk_defaults_largest_last_axis)
{
	s64 xs[1] = { 6 }, ks[1] = { 2 };
	float in[6] = { 3, NAN, -1, 7, 7, 2 };
	struct ot_tensor x, v, ix;
	struct ot_tensor *ts[3] = { &x, &v, &ix };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, xs);
	memcpy(x.buf, in, sizeof(in));
	ot_make(&v, DRM_VNPU_DTYPE_FLOAT, 1, ks);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 1, ks);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_TOPK, ts, 1, 2, NULL, 0));
	EXPECT_TRUE(isnan(((float *)v.buf)[0]));
	EXPECT_EQ(1, ((s64 *)ix.buf)[0]);
	EXPECT_EQ(7.0f, ((float *)v.buf)[1]);
	EXPECT_EQ(3, ((s64 *)ix.buf)[1]);
	ot_free(&x);
	ot_free(&v);
	ot_free(&ix);
}

TEST(sort_rejects)
{
	s64 xs[2] = { 3, 8 }, ks[2] = { 3, 9 }, big[1] = { 65537 };
	struct ot_tensor x, v, ix;
	struct ot_tensor *ts[3] = { &x, &v, &ix };
	struct drm_vnpu_op_attrs a = { 0 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&v, DRM_VNPU_DTYPE_FLOAT, 2, ks);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, ks);
	a.ints[0] = 1;
	/* k > n */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TOPK, ts, 1, 2, &a, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, &a, 0));
	v.v.shape[1] = 8;
	ix.v.shape[1] = 8;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, &a, 0));
	ix.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, &a, 0));
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	v.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, &a, 0));
	v.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	a.ints[0] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, &a, 0));
	a.ints[0] = 0;
	v.v.shape[1] = 7;
	ix.v.shape[1] = 7;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TOPK, ts, 1, 2, &a, 0));
	ot_free(&x);
	ot_free(&v);
	ot_free(&ix);
	/*
	 * an axis longer than the scratch memory holds, of a dtype whose
	 * values have no room for the split's positions (fp32 splits into
	 * chunks instead: op_sort_split_test)
	 */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT16, 1, big);
	ot_make(&v, DRM_VNPU_DTYPE_FLOAT16, 1, big);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 1, big);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SORT, ts, 1, 2, NULL, 0));
	ot_free(&x);
	ot_free(&v);
	ot_free(&ix);
}

TEST_HARNESS_MAIN
