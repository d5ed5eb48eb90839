// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of CUMSUM, TRILU and HARDMAX against references in double:
 * every axis of a rank-3 tensor, exclusive and reverse scans, every k of
 * TRILU (including far out of range), transposed input and output views,
 * every dtype, rows longer than a chunk and tiles that split rows, and
 * check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 num_dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64,
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

/* @v as the library stores it into @dtype (wrap, round, truncate). */
static double stored(u32 dtype, double v, s64 iv, int isf)
{
	u64 buf = 0;

	if (isf)
		vnpu_store_f64(&buf, dtype, 0, v);
	else
		vnpu_store_s64(&buf, dtype, 0, iv);
	return vnpu_load_f64(&buf, dtype, 0);
}

static s64 get_int(const struct ot_tensor *t, const s64 *idx)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < t->v.rank; d++)
		off += idx[d] * t->v.strides[d];
	return vnpu_load_s64(t->v.data, t->v.dtype, off);
}

/* Step a row-major multi-index; 0 when it wraps around. */
static int next_idx(s64 *idx, const s64 *shape, u32 rank)
{
	u32 d;

	for (d = rank; d-- > 0;) {
		if (++idx[d] < shape[d])
			return 1;
		idx[d] = 0;
	}
	return 0;
}

/* CUMSUM of @x along @axis vs a reference; mismatches. */
static int check_cumsum(struct __test_metadata *_metadata, struct ot_tensor *x,
			int axis, int excl, int rev, int out_tr)
{
	u32 rank = x->v.rank, dtype = x->v.dtype;
	int isf = vnpu_dtype_is_float(dtype), bad = 0;
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 }, j[VNPU_OPS_MAX_RANK];
	struct drm_vnpu_op_attrs at;
	struct ot_tensor o;
	struct ot_tensor *ts[2] = { x, &o };
	s64 len = x->v.shape[axis];

	make_view(&o, dtype, rank, x->v.shape, out_tr);
	memset(o.buf, 0x7f, o.bytes);
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	at.ints[1] = excl;
	at.ints[2] = rev;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CUMSUM, ts, 1, 1, &at, 0));
	if (!vnpu_tview_elems(&x->v))
		return 0;
	do {
		double fs = 0, got, want;
		u64 is = 0;
		s64 k, i = idx[axis];

		memcpy(j, idx, sizeof(j));
		for (k = 0; k < len; k++) {
			int in = rev ? (excl ? k > i : k >= i) :
				       (excl ? k < i : k <= i);

			j[axis] = k;
			if (!in)
				continue;
			fs += ot_get(x, j);
			is += (u64)get_int(x, j);
		}
		want = stored(dtype, fs, (s64)is, isf);
		got = ot_get(&o, idx);
		if (!ot_close(got, want, ot_tolerance(dtype), 0) && bad++ < 5)
			TH_LOG("dtype %u axis %d excl %d rev %d: got %.9g want %.9g",
			       dtype, axis, excl, rev, got, want);
	} while (next_idx(idx, x->v.shape, rank));
	ot_free(&o);
	return bad;
}

TEST(cumsum_every_axis_mode_dtype)
{
	s64 shape[3] = { 3, 4, 5 };
	unsigned int t;
	int axis, mode, tr, bad = 0;

	for (t = 0; t < ARRAY_SIZE(num_dtypes); t++)
		for (axis = 0; axis < 3; axis++)
			for (mode = 0; mode < 4; mode++)
				for (tr = 0; tr < 2; tr++) {
					struct ot_tensor x;

					make_view(&x, num_dtypes[t], 3, shape, tr);
					ot_fill(&x, t * 31 + axis * 7 + mode,
						num_dtypes[t] == DRM_VNPU_DTYPE_UINT8 ? 0 : -50,
						50);
					bad += check_cumsum(_metadata, &x, axis, mode & 1,
							    mode >> 1, !tr);
					ot_free(&x);
				}
	EXPECT_EQ(0, bad);
}

TEST(cumsum_long_rows_wrap_and_empty)
{
	s64 row[2] = { 2, 3 * 128 + 7 }, wide[2] = { 70000, 3 };
	s64 empty[2] = { 4, 0 };
	double a[4] = { 100, 100, 100, 7 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	int bad = 0, mode;
	s64 n = 4, i;

	/* Rows of several chunks, both directions; rows split over tiles. */
	for (mode = 0; mode < 4; mode++) {
		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, row);
		ot_fill(&x, 5 + mode, -1, 1);
		bad += check_cumsum(_metadata, &x, 1, mode & 1, mode >> 1, 0);
		ot_free(&x);
		ot_make(&x, DRM_VNPU_DTYPE_INT32, 2, wide);
		ot_fill(&x, 9 + mode, -9, 9);
		bad += check_cumsum(_metadata, &x, 1, mode & 1, mode >> 1, 1);
		ot_free(&x);
	}
	EXPECT_EQ(0, bad);
	/* int8 wraps: 100, 200 -> -56, 300 -> 44, 307 -> 51. */
	ot_make(&x, DRM_VNPU_DTYPE_INT8, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_INT8, 1, &n);
	for (i = 0; i < 4; i++)
		vnpu_store_f64(x.buf, DRM_VNPU_DTYPE_INT8, i, a[i]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CUMSUM, ts, 1, 1, NULL, 0));
	EXPECT_EQ(100, ((s8 *)o.buf)[0]);
	EXPECT_EQ(-56, ((s8 *)o.buf)[1]);
	EXPECT_EQ(44, ((s8 *)o.buf)[2]);
	EXPECT_EQ(51, ((s8 *)o.buf)[3]);
	ot_free(&x);
	ot_free(&o);
	/* An empty axis: nothing to do, accepted. */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, empty);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, empty);
	memset(&at, 0, sizeof(at));
	at.ints[0] = 1;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_CUMSUM, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

/* TRILU of @x vs a reference; mismatches. */
static int check_trilu(struct __test_metadata *_metadata, struct ot_tensor *x,
		       int upper, s64 k, int out_tr)
{
	u32 rank = x->v.rank;
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };
	struct drm_vnpu_op_attrs at;
	struct ot_tensor o;
	struct ot_tensor *ts[2] = { x, &o };
	int bad = 0;

	make_view(&o, x->v.dtype, rank, x->v.shape, out_tr);
	memset(o.buf, 0x7f, o.bytes);
	memset(&at, 0, sizeof(at));
	at.ints[0] = upper;
	at.ints[1] = k;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	if (!vnpu_tview_elems(&x->v))
		return 0;
	do {
		s64 i = idx[rank - 2], j = idx[rank - 1];
		int keep = upper ? j - i >= k : j - i <= k;
		s64 got = get_int(&o, idx), want = keep ? get_int(x, idx) : 0;

		if (got != want && bad++ < 5)
			TH_LOG("dtype %u upper %d k %lld: got %lld want %lld",
			       x->v.dtype, upper, (long long)k, (long long)got,
			       (long long)want);
	} while (next_idx(idx, x->v.shape, rank));
	ot_free(&o);
	return bad;
}

TEST(trilu_every_k_and_dtype)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_INT8,
		DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL, DRM_VNPU_DTYPE_DOUBLE,
		DRM_VNPU_DTYPE_UINT16,
	};
	s64 shapes[3][3] = { { 2, 4, 5 }, { 3, 5, 4 }, { 2, 1, 6 } };
	unsigned int t, s;
	int upper, tr, bad = 0;
	s64 k;

	for (t = 0; t < ARRAY_SIZE(dts); t++)
		for (s = 0; s < 3; s++)
			for (upper = 0; upper < 2; upper++)
				for (k = -7; k <= 7; k++)
					for (tr = 0; tr < 2; tr++) {
						struct ot_tensor x;

						make_view(&x, dts[t], 3, shapes[s], tr);
						ot_fill(&x, t + s + k + 20, 1, 100);
						bad += check_trilu(_metadata, &x, upper, k, !tr);
						ot_free(&x);
					}
	EXPECT_EQ(0, bad);
}

TEST(trilu_extreme_k_and_rejects)
{
	s64 m[2] = { 3, 3 }, v[1] = { 3 }, big[2] = { 600, 300 };
	s64 other[2] = { 3, 4 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	int bad = 0;

	ot_make(&x, DRM_VNPU_DTYPE_INT32, 2, m);
	ot_fill(&x, 3, 1, 9);
	bad += check_trilu(_metadata, &x, 1, INT64_MIN, 0);
	bad += check_trilu(_metadata, &x, 1, INT64_MAX, 0);
	bad += check_trilu(_metadata, &x, 0, INT64_MIN, 1);
	bad += check_trilu(_metadata, &x, 0, INT64_MAX, 1);
	ot_free(&x);
	/* Rows spread over several tiles. */
	ot_make(&x, DRM_VNPU_DTYPE_BF16, 2, big);
	ot_fill(&x, 4, 1, 9);
	bad += check_trilu(_metadata, &x, 0, -100, 0);
	ot_free(&x);
	EXPECT_EQ(0, bad);

	memset(&at, 0, sizeof(at));
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, m);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, m);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	at.ints[0] = 2;				/* upper is 0 or 1 */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	at.ints[0] = 0;
	o.v.dtype = DRM_VNPU_DTYPE_INT32;	/* dtypes differ */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	o.v.dtype = 5;				/* unknown dtype */
	x.v.dtype = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	x.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	ot_free(&o);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, other);	/* shapes differ */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, v);	/* rank 1 */
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, v);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TRILU, ts, 1, 2, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

/* HARDMAX of @x along @axis vs a reference; mismatches. */
static int check_hardmax(struct __test_metadata *_metadata, struct ot_tensor *x,
			 int axis, int out_tr)
{
	u32 rank = x->v.rank;
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 }, j[VNPU_OPS_MAX_RANK];
	struct drm_vnpu_op_attrs at;
	struct ot_tensor o;
	struct ot_tensor *ts[2] = { x, &o };
	int bad = 0;

	make_view(&o, x->v.dtype, rank, x->v.shape, out_tr);
	memset(o.buf, 0x7f, o.bytes);
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_HARDMAX, ts, 1, 1, &at, 0));
	if (!vnpu_tview_elems(&x->v))
		return 0;
	do {
		s64 k, best = 0;
		double bv = 0, got;

		memcpy(j, idx, sizeof(j));
		for (k = 0; k < x->v.shape[axis]; k++) {
			double v;

			j[axis] = k;
			v = ot_get(x, j);
			if (isnan(v)) {
				best = k;
				break;
			}
			if (!k || v > bv) {
				bv = v;
				best = k;
			}
		}
		got = ot_get(&o, idx);
		if (got != (idx[axis] == best) && bad++ < 5)
			TH_LOG("dtype %u axis %d: got %g at %lld, max at %lld",
			       x->v.dtype, axis, got, (long long)idx[axis],
			       (long long)best);
	} while (next_idx(idx, x->v.shape, rank));
	ot_free(&o);
	return bad;
}

TEST(hardmax_every_axis_dtype_ties_nan)
{
	s64 shape[3] = { 3, 4, 5 }, n = 5, big[2] = { 2, 1000 };
	double ties[5] = { 1, 7, 3, 7, 7 }, nan[5] = { 1, 9, NAN, NAN, 2 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	unsigned int t;
	int axis, tr, bad = 0;
	s64 i;

	for (t = 0; t < ARRAY_SIZE(num_dtypes); t++)
		for (axis = 0; axis < 3; axis++)
			for (tr = 0; tr < 2; tr++) {
				make_view(&x, num_dtypes[t], 3, shape, tr);
				/* few distinct values: ties are common */
				ot_fill(&x, t * 5 + axis, 0, 4);
				bad += check_hardmax(_metadata, &x, axis, !tr);
				ot_free(&x);
			}
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, big);
	ot_fill(&x, 77, -1, 1);
	bad += check_hardmax(_metadata, &x, 1, 0);
	ot_free(&x);
	EXPECT_EQ(0, bad);
	/* Ties: the first maximum; NaN: the first NaN. */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	for (i = 0; i < n; i++)
		((float *)x.buf)[i] = (float)ties[i];
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_HARDMAX, ts, 1, 1, NULL, 0));
	for (i = 0; i < n; i++)
		EXPECT_EQ(i == 1 ? 1.0f : 0.0f, ((float *)o.buf)[i]);
	for (i = 0; i < n; i++)
		((float *)x.buf)[i] = (float)nan[i];
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_HARDMAX, ts, 1, 1, NULL, 0));
	for (i = 0; i < n; i++)
		EXPECT_EQ(i == 2 ? 1.0f : 0.0f, ((float *)o.buf)[i]);
	ot_free(&x);
	ot_free(&o);
}

TEST(scan_rejects)
{
	s64 s[2] = { 3, 4 }, s2[2] = { 4, 3 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	static const u32 ops[] = { DRM_VNPU_OP_CUMSUM, DRM_VNPU_OP_HARDMAX };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		u32 op = ops[i];

		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, s);
		ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, s);
		memset(&at, 0, sizeof(at));
		at.ints[0] = 1;
		EXPECT_EQ(0, ot_run(op, ts, 1, 1, &at, 0));
		at.ints[0] = 2;				/* axis past the rank */
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(op, ts, 1, 1, &at, 0));
		at.ints[0] = -1;			/* negative axis */
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(op, ts, 1, 1, &at, 0));
		at.ints[0] = 0;
		o.v.dtype = DRM_VNPU_DTYPE_FLOAT16;	/* dtypes differ */
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(op, ts, 1, 1, &at, 0));
		o.v.dtype = DRM_VNPU_DTYPE_BOOL;	/* bool */
		x.v.dtype = DRM_VNPU_DTYPE_BOOL;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(op, ts, 1, 1, &at, 0));
		x.v.dtype = DRM_VNPU_DTYPE_FLOAT;
		o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
		o.v.shape[0] = s2[0];			/* shapes differ */
		o.v.shape[1] = s2[1];
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(op, ts, 1, 1, &at, 0));
		o.v.shape[0] = s[0];
		o.v.shape[1] = s[1];
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(op, ts, 2, 0, &at, 0));
		ot_free(&x);
		ot_free(&o);
	}
	/* CUMSUM: exclusive and reverse are 0 or 1. */
	ot_make(&x, DRM_VNPU_DTYPE_INT32, 2, s);
	ot_make(&o, DRM_VNPU_DTYPE_INT32, 2, s);
	memset(&at, 0, sizeof(at));
	at.ints[1] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CUMSUM, ts, 1, 1, &at, 0));
	at.ints[1] = 0;
	at.ints[2] = -1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_CUMSUM, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST_HARNESS_MAIN
