// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the reductions (REDUCE_SUM/MEAN/MAX/MIN/PROD/L1/L2/
 * LOG_SUM/LOG_SUM_EXP/SUM_SQUARE, ARGMAX, ARGMIN with either tie rule)
 * against references in double: every axes mask of rank-3 and
 * rank-4 tensors, keepdim on and off, transposed views, every dtype,
 * NaN/Inf, empty reductions, rows spanning tiles, and check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 all_dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64,
};

static const u32 red_ops[] = {
	DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_OP_REDUCE_MEAN, DRM_VNPU_OP_REDUCE_MAX,
	DRM_VNPU_OP_REDUCE_MIN, DRM_VNPU_OP_REDUCE_PROD, DRM_VNPU_OP_ARGMAX,
	DRM_VNPU_OP_ARGMIN, DRM_VNPU_OP_REDUCE_L1, DRM_VNPU_OP_REDUCE_L2,
	DRM_VNPU_OP_REDUCE_LOG_SUM, DRM_VNPU_OP_REDUCE_LOG_SUM_EXP,
	DRM_VNPU_OP_REDUCE_SUM_SQUARE,
};

/* Whether the op computes in double for every dtype. */
static int in_double(u32 op)
{
	return op == DRM_VNPU_OP_REDUCE_L2 || op == DRM_VNPU_OP_REDUCE_LOG_SUM ||
	       op == DRM_VNPU_OP_REDUCE_LOG_SUM_EXP;
}

static int is_arg(u32 op)
{
	return op == DRM_VNPU_OP_ARGMAX || op == DRM_VNPU_OP_ARGMIN;
}

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

/* @v wrapped to an integer dtype's width, as the library stores it. */
static double wrap_int(u32 dtype, s64 v)
{
	u64 buf = 0;

	vnpu_store_s64(&buf, dtype, 0, v);
	return vnpu_load_f64(&buf, dtype, 0);
}

/* @v rounded to a float dtype (results that underflow or overflow it). */
static double round_to(u32 dtype, double v)
{
	u64 buf = 0;

	vnpu_store_f64(&buf, dtype, 0, v);
	return vnpu_load_f64(&buf, dtype, 0);
}

static void set_attrs(struct drm_vnpu_op_attrs *a, s64 mask, s64 keep)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = mask;
	a->ints[1] = keep;
}

/*
 * Run @op over @x (already filled) with @mask and @keep and compare with
 * the reference. Returns the number of mismatches (first few logged).
 */
static int check_reduce_on(struct __test_metadata *_metadata, u32 op,
			   struct ot_tensor *x, s64 mask, int keep)
{
	u32 rank = x->v.rank, dtype = x->v.dtype, d, orank = 0;
	s64 oshape[VNPU_OPS_MAX_RANK], idx[VNPU_OPS_MAX_RANK] = { 0 };
	s64 all = mask ? mask : (s64)((1u << rank) - 1);
	u32 odtype = is_arg(op) ? DRM_VNPU_DTYPE_INT64 : dtype;
	int isf = vnpu_dtype_is_float(dtype), bad = 0;
	struct ot_tensor o;
	struct ot_tensor *ts[2] = { x, &o };
	struct drm_vnpu_op_attrs at;
	double *fs, *fa, *fb, *fq, *fm;
	u64 *is, *cnt, *bi;
	s64 *ib;
	u64 on, n, i, len = 1;
	int pass, last = 0;

	for (d = 0; d < rank; d++) {
		if (all & (1 << d)) {
			len *= x->v.shape[d];
			if (keep)
				oshape[orank++] = 1;
		} else {
			oshape[orank++] = x->v.shape[d];
		}
	}
	ot_make(&o, odtype, orank, oshape);
	on = vnpu_tview_elems(&o.v);
	/* Poison the output to see what is not written. */
	memset(o.buf, 0x7f, o.bytes);
	set_attrs(&at, mask, keep);
	/* The arg forms also run with the last-index rule, by seed parity. */
	if (is_arg(op) && (x->v.shape[0] & 1)) {
		last = 1;
		at.ints[2] = 1;
	}
	ASSERT_EQ(0, ot_run(op, ts, 1, 1, &at, vnpu_ops_host_cpu()));

	fs = calloc(on + 1, sizeof(double));
	fa = calloc(on + 1, sizeof(double));
	fb = calloc(on + 1, sizeof(double));
	is = calloc(on + 1, sizeof(u64));
	cnt = calloc(on + 1, sizeof(u64));
	bi = calloc(on + 1, sizeof(u64));
	ib = calloc(on + 1, sizeof(s64));
	fq = calloc(on + 1, sizeof(double));
	fm = calloc(on + 1, sizeof(double));
	for (i = 0; i < on; i++) {
		fs[i] = op == DRM_VNPU_OP_REDUCE_PROD ? 1 : 0;
		is[i] = op == DRM_VNPU_OP_REDUCE_PROD ? 1 : 0;
		fm[i] = -INFINITY;
	}
	n = vnpu_tview_elems(&x->v);
	/* Pass 0 finds log-sum-exp's row maxima, pass 1 accumulates. */
	for (pass = op == DRM_VNPU_OP_REDUCE_LOG_SUM_EXP ? 0 : 1; pass < 2; pass++)
	for (i = 0; i < n; i++) {
		u64 oi = 0, ri = 0;
		double v = ot_get(x, idx);
		s64 iv = 0;

		for (d = 0; d < rank; d++) {
			if (all & (1 << d))
				ri = ri * x->v.shape[d] + idx[d];
			else
				oi = oi * x->v.shape[d] + idx[d];
		}
		if (!isf) {
			s64 off = 0;

			for (d = 0; d < rank; d++)
				off += idx[d] * x->v.strides[d];
			iv = vnpu_load_s64(x->v.data, dtype, off);
		}
		if (!pass) {
			if (v > fm[oi])
				fm[oi] = v;
			goto next;
		}
		fa[oi] += fabs(v);
		fq[oi] += v * v;
		switch (op) {
		case DRM_VNPU_OP_REDUCE_L1:
			is[oi] += iv < 0 ? -(u64)iv : (u64)iv;
			break;
		case DRM_VNPU_OP_REDUCE_SUM_SQUARE:
			is[oi] += (u64)iv * (u64)iv;
			break;
		case DRM_VNPU_OP_REDUCE_LOG_SUM:
			fs[oi] += v;
			break;
		case DRM_VNPU_OP_REDUCE_LOG_SUM_EXP:
			fs[oi] += exp(v - fm[oi]);
			break;
		case DRM_VNPU_OP_REDUCE_SUM:
		case DRM_VNPU_OP_REDUCE_MEAN:
			fs[oi] += v;
			is[oi] += (u64)iv;
			break;
		case DRM_VNPU_OP_REDUCE_PROD:
			fs[oi] *= v;
			is[oi] *= (u64)iv;
			break;
		case DRM_VNPU_OP_REDUCE_MAX:
		case DRM_VNPU_OP_ARGMAX:
		case DRM_VNPU_OP_REDUCE_MIN:
		case DRM_VNPU_OP_ARGMIN: {
			int mx = op == DRM_VNPU_OP_REDUCE_MAX ||
				 op == DRM_VNPU_OP_ARGMAX;

			if (!cnt[oi]) {
				fb[oi] = v;
				ib[oi] = iv;
				bi[oi] = ri;
			} else if (isf && !isnan(fb[oi]) &&
				   (isnan(v) || (mx ? v > fb[oi] : v < fb[oi]) ||
				    (last && v == fb[oi]))) {
				fb[oi] = v;
				bi[oi] = ri;
			} else if (isf && last && isnan(fb[oi]) && isnan(v)) {
				bi[oi] = ri;
			} else if (!isf && ((mx ? iv > ib[oi] : iv < ib[oi]) ||
					    (last && iv == ib[oi]))) {
				ib[oi] = iv;
				bi[oi] = ri;
			}
			break;
		}
		}
		cnt[oi]++;
next:
		for (d = rank; d-- > 0;) {
			if (++idx[d] < x->v.shape[d])
				break;
			idx[d] = 0;
		}
	}
	memset(idx, 0, sizeof(idx));
	for (i = 0; i < on; i++) {
		double got = ot_get(&o, idx), want, atol = 0;
		double tol = ot_tolerance(dtype);

		switch (op) {
		case DRM_VNPU_OP_REDUCE_SUM:
			want = isf ? fs[i] : wrap_int(dtype, (s64)is[i]);
			atol = tol * fa[i];
			break;
		case DRM_VNPU_OP_REDUCE_MEAN:
			if (isf)
				want = len ? fs[i] / len : NAN;
			else
				want = len ? wrap_int(dtype, (s64)is[i] / (s64)len) : 0;
			atol = len ? tol * fa[i] / len : 0;
			break;
		case DRM_VNPU_OP_REDUCE_PROD:
			want = isf ? fs[i] : wrap_int(dtype, (s64)is[i]);
			break;
		case DRM_VNPU_OP_REDUCE_MAX:
		case DRM_VNPU_OP_REDUCE_MIN:
			want = isf ? fb[i] : (double)ib[i];
			break;
		case DRM_VNPU_OP_REDUCE_L1:
			want = isf ? fa[i] : wrap_int(dtype, (s64)is[i]);
			break;
		case DRM_VNPU_OP_REDUCE_SUM_SQUARE:
			want = isf ? fq[i] : wrap_int(dtype, (s64)is[i]);
			break;
		case DRM_VNPU_OP_REDUCE_L2:
			want = sqrt(fq[i]);
			break;
		case DRM_VNPU_OP_REDUCE_LOG_SUM:
			want = log(fs[i]);
			atol = fs[i] ? tol * fa[i] / fabs(fs[i]) : 0;
			break;
		case DRM_VNPU_OP_REDUCE_LOG_SUM_EXP:
			want = fm[i] + log(fs[i]);
			atol = tol;
			break;
		default:
			want = (double)bi[i];
			tol = 0;
			break;
		}
		if ((isf && !is_arg(op)) || in_double(op))
			want = round_to(dtype, want);
		if (!ot_close(got, want, tol, atol) && bad++ < 5)
			TH_LOG("op %u dtype %u mask %#llx keep %d out %llu: got %.9g want %.9g",
			       op, dtype, (long long)mask, keep,
			       (unsigned long long)i, got, want);
		for (d = orank; d-- > 0;) {
			if (++idx[d] < oshape[d])
				break;
			idx[d] = 0;
		}
	}
	free(fs);
	free(fa);
	free(fb);
	free(is);
	free(cnt);
	free(bi);
	free(ib);
	free(fq);
	free(fm);
	ot_free(&o);
	return bad;
}

static int check_reduce(struct __test_metadata *_metadata, u32 op, u32 dtype,
			u32 rank, const s64 *shape, s64 mask, int keep,
			int transposed, u64 seed)
{
	struct ot_tensor x;
	double lo = -50, hi = 50;
	int bad;

	if (op == DRM_VNPU_OP_REDUCE_PROD) {
		lo = vnpu_dtype_is_float(dtype) ? 0.5 : -3;
		hi = vnpu_dtype_is_float(dtype) ? 1.5 : 4;
	} else if (op == DRM_VNPU_OP_REDUCE_LOG_SUM) {
		lo = 0.25;	/* a positive sum: the log is defined */
	} else if (dtype == DRM_VNPU_DTYPE_UINT8) {
		lo = 0;
		hi = 250;
	}
	make_view(&x, dtype, rank, shape, transposed);
	ot_fill(&x, seed, lo, hi);
	bad = check_reduce_on(_metadata, op, &x, mask, keep);
	ot_free(&x);
	return bad;
}

TEST(reduce_rank3_all_masks_all_dtypes)
{
	s64 shape[3] = { 3, 5, 7 };
	unsigned int o, t, k, tr;
	s64 m;
	int bad = 0;

	for (o = 0; o < ARRAY_SIZE(red_ops); o++)
		for (t = 0; t < ARRAY_SIZE(all_dtypes); t++)
			for (m = 0; m < 8; m++)
				for (k = 0; k < 2; k++)
					for (tr = 0; tr < 2; tr++) {
						if (is_arg(red_ops[o]) && (m & (m - 1)))
							continue;
						bad += check_reduce(_metadata, red_ops[o],
								    all_dtypes[t], 3, shape,
								    m, k, tr, o * 7 + t + m);
					}
	EXPECT_EQ(0, bad);
}

TEST(reduce_rank4_all_masks_size1_dims)
{
	s64 shape[4] = { 2, 1, 9, 4 };
	unsigned int o, k, tr;
	s64 m;
	int bad = 0;

	for (o = 0; o < ARRAY_SIZE(red_ops); o++)
		for (m = 0; m < 16; m++)
			for (k = 0; k < 2; k++)
				for (tr = 0; tr < 2; tr++) {
					if (is_arg(red_ops[o]) && (m & (m - 1)))
						continue;
					bad += check_reduce(_metadata, red_ops[o],
							    DRM_VNPU_DTYPE_FLOAT, 4,
							    shape, m, k, tr, m + 100);
					bad += check_reduce(_metadata, red_ops[o],
							    DRM_VNPU_DTYPE_INT32, 4,
							    shape, m, k, tr, m + 200);
				}
	EXPECT_EQ(0, bad);
}

TEST(reduce_rank0_and_rank1)
{
	s64 one[1] = { 13 };
	unsigned int o, t;
	int bad = 0;

	for (o = 0; o < ARRAY_SIZE(red_ops); o++)
		for (t = 0; t < ARRAY_SIZE(all_dtypes); t++) {
			bad += check_reduce(_metadata, red_ops[o], all_dtypes[t],
					    0, one, 0, 0, 0, 5);
			bad += check_reduce(_metadata, red_ops[o], all_dtypes[t],
					    1, one, 1, 1, 0, 6);
		}
	EXPECT_EQ(0, bad);
}

TEST(reduce_large_rows_and_columns)
{
	s64 row[1] = { 3 * VNPU_OPS_TILE_ELEMS + 17 };
	s64 rows[2] = { 300, 1001 }, cols[2] = { 1001, 300 };
	unsigned int o;
	int bad = 0;

	for (o = 0; o < ARRAY_SIZE(red_ops); o++) {
		bad += check_reduce(_metadata, red_ops[o], DRM_VNPU_DTYPE_FLOAT,
				    1, row, 1, 0, 0, 11);
		bad += check_reduce(_metadata, red_ops[o], DRM_VNPU_DTYPE_FLOAT16,
				    2, rows, 2, 0, 0, 12);
		bad += check_reduce(_metadata, red_ops[o], DRM_VNPU_DTYPE_BF16,
				    2, cols, 1, 1, 1, 13);
		bad += check_reduce(_metadata, red_ops[o], DRM_VNPU_DTYPE_INT64,
				    2, rows, 2, 0, 1, 14);
	}
	EXPECT_EQ(0, bad);
}

TEST(reduce_tiles_split_rows)
{
	s64 shape[2] = { 1000, 300 };
	struct ot_tensor x, o;
	struct drm_vnpu_op_attrs at;
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_REDUCE_SUM);
	struct vnpu_op_call c = { 0 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, shape);
	set_attrs(&at, 2, 0);
	c.op = DRM_VNPU_OP_REDUCE_SUM;
	c.num_in = 1;
	c.num_out = 1;
	c.has_attrs = 1;
	c.attrs = at;
	c.t[0] = x.v;
	c.t[1] = o.v;
	ASSERT_NE(NULL, impl);
	ASSERT_EQ(0, vnpu_op_check(impl, &c));
	/* 218 rows of 300 per tile: 5 tiles. */
	EXPECT_EQ(5, impl->tiles(&c));
	ot_free(&x);
	ot_free(&o);
}

/* A 1-D float tensor holding @vals. */
static void make_vals(struct ot_tensor *t, u32 dtype, const double *vals, s64 n)
{
	s64 i;

	ot_make(t, dtype, 1, &n);
	for (i = 0; i < n; i++)
		vnpu_store_f64(t->buf, dtype, i, vals[i]);
}

static double run1(struct __test_metadata *_metadata, u32 op, u32 dtype,
		   const double *vals, s64 n)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	double r;

	make_vals(&x, dtype, vals, n);
	ot_make(&o, is_arg(op) ? DRM_VNPU_DTYPE_INT64 : dtype, 0, NULL);
	EXPECT_EQ(0, ot_run(op, ts, 1, 1, NULL, 0));
	r = vnpu_load_f64(o.buf, o.v.dtype, 0);
	ot_free(&x);
	ot_free(&o);
	return r;
}

TEST(reduce_nan_inf)
{
	static const u32 fdt[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	};
	double a[6] = { 1, NAN, 7, NAN, -INFINITY, 2 };
	double b[5] = { 3, INFINITY, -INFINITY, INFINITY, 0 };
	double c[4] = { -INFINITY, -INFINITY, -INFINITY, -INFINITY };
	double d[5] = { 2, 5, 5, -1, -1 };
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(fdt); t++) {
		u32 dt = fdt[t];

		EXPECT_TRUE(isnan(run1(_metadata, DRM_VNPU_OP_REDUCE_MAX, dt, a, 6)));
		EXPECT_TRUE(isnan(run1(_metadata, DRM_VNPU_OP_REDUCE_MIN, dt, a, 6)));
		EXPECT_TRUE(isnan(run1(_metadata, DRM_VNPU_OP_REDUCE_SUM, dt, a, 6)));
		EXPECT_EQ(1, run1(_metadata, DRM_VNPU_OP_ARGMAX, dt, a, 6));
		EXPECT_EQ(1, run1(_metadata, DRM_VNPU_OP_ARGMIN, dt, a, 6));
		EXPECT_TRUE(isnan(run1(_metadata, DRM_VNPU_OP_REDUCE_SUM, dt, b, 5)));
		EXPECT_TRUE(isnan(run1(_metadata, DRM_VNPU_OP_REDUCE_PROD, dt, b, 5)));
		EXPECT_EQ(INFINITY, run1(_metadata, DRM_VNPU_OP_REDUCE_MAX, dt, b, 5));
		EXPECT_EQ(-INFINITY, run1(_metadata, DRM_VNPU_OP_REDUCE_MIN, dt, b, 5));
		EXPECT_EQ(1, run1(_metadata, DRM_VNPU_OP_ARGMAX, dt, b, 5));
		EXPECT_EQ(2, run1(_metadata, DRM_VNPU_OP_ARGMIN, dt, b, 5));
		EXPECT_EQ(-INFINITY, run1(_metadata, DRM_VNPU_OP_REDUCE_MAX, dt, c, 4));
		EXPECT_EQ(-INFINITY, run1(_metadata, DRM_VNPU_OP_REDUCE_SUM, dt, c, 4));
		EXPECT_EQ(0, run1(_metadata, DRM_VNPU_OP_ARGMAX, dt, c, 4));
		EXPECT_EQ(0, run1(_metadata, DRM_VNPU_OP_ARGMIN, dt, c, 4));
		/* Ties: the first index. */
		EXPECT_EQ(1, run1(_metadata, DRM_VNPU_OP_ARGMAX, dt, d, 5));
		EXPECT_EQ(3, run1(_metadata, DRM_VNPU_OP_ARGMIN, dt, d, 5));
	}
}

TEST(reduce_int_wrap_and_mean_truncates)
{
	double a[4] = { 100, 100, 100, 7 };
	double m[3] = { -7, 0, 0 };

	/* 307 wraps to 51 in uint8, to 51 in int8 (307 - 256). */
	EXPECT_EQ(51, run1(_metadata, DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_DTYPE_UINT8, a, 4));
	EXPECT_EQ(51, run1(_metadata, DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_DTYPE_INT8, a, 4));
	EXPECT_EQ(307, run1(_metadata, DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_DTYPE_INT32, a, 4));
	/* 7e6 wraps: 100^3 * 7 = 7000000 = 0x6acfc0 -> int8 0xc0 = -64. */
	EXPECT_EQ(-64, run1(_metadata, DRM_VNPU_OP_REDUCE_PROD, DRM_VNPU_DTYPE_INT8, a, 4));
	EXPECT_EQ(76, run1(_metadata, DRM_VNPU_OP_REDUCE_MEAN, DRM_VNPU_DTYPE_INT32, a, 4));
	/* -7 / 3 truncates toward zero. */
	EXPECT_EQ(-2, run1(_metadata, DRM_VNPU_OP_REDUCE_MEAN, DRM_VNPU_DTYPE_INT64, m, 3));
}

TEST(reduce_empty)
{
	s64 xs[2] = { 3, 0 }, os[1] = { 3 }, xs2[2] = { 0, 3 }, os2[1] = { 0 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, os);
	set_attrs(&at, 2, 0);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0.0, ((float *)o.buf)[i]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_PROD, ts, 1, 1, &at, 0));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(1.0, ((float *)o.buf)[i]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MEAN, ts, 1, 1, &at, 0));
	for (i = 0; i < 3; i++)
		EXPECT_TRUE(isnan(((float *)o.buf)[i]));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_MIN, ts, 1, 1, &at, 0));
	o.v.dtype = DRM_VNPU_DTYPE_INT64;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ARGMAX, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);

	/* Nothing to reduce into: accepted, nothing written. */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs2);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, os2);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST(reduce_rejects)
{
	s64 xs[3] = { 2, 3, 4 }, os[2] = { 2, 4 }, ok[3] = { 2, 1, 4 };
	struct ot_tensor x, o, o3, y;
	struct ot_tensor *ts[3] = { &x, &o, &o };
	struct ot_tensor *ts3[2] = { &x, &o3 };
	struct ot_tensor *ts2[3] = { &x, &y, &o };
	struct drm_vnpu_op_attrs at;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, os);
	ot_make(&o3, DRM_VNPU_DTYPE_FLOAT, 3, ok);
	set_attrs(&at, 2, 0);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	/* Axis bit past the rank, negative mask, bad keepdim. */
	set_attrs(&at, 8, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	set_attrs(&at, -1, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	set_attrs(&at, 2, 2);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	/* Output shape: keepdim expected but not given, and the reverse. */
	set_attrs(&at, 2, 1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts3, 1, 1, &at, 0));
	set_attrs(&at, 2, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts3, 1, 1, &at, 0));
	/* Wrong reduced axis for the output's shape. */
	set_attrs(&at, 1, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	/* Output dtype. */
	set_attrs(&at, 2, 0);
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	/* Argmax: INT64 out only, one axis only. */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ARGMAX, ts, 1, 1, &at, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ARGMIN, ts, 1, 1, &at, 0));
	o.v.dtype = DRM_VNPU_DTYPE_INT64;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_ARGMAX, ts, 1, 1, &at, 0));
	set_attrs(&at, 3, 0);
	o.v.rank = 1;
	o.v.shape[0] = 4;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ARGMAX, ts, 1, 1, &at, 0));
	/* Input count. */
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	o.v.rank = 2;
	o.v.shape[0] = 2;
	set_attrs(&at, 2, 0);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts2, 2, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 2, &at, 0));
	/* Bool: max/min only. */
	x.v.dtype = DRM_VNPU_DTYPE_BOOL;
	o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&y);
	ot_free(&o);
	ot_free(&o3);
}

TEST(reduce_defaults_reduce_all)
{
	s64 xs[2] = { 4, 6 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	double want = 0;
	s64 i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_fill(&x, 3, -1, 1);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 0, NULL);
	for (i = 0; i < 24; i++)
		want += ((float *)x.buf)[i];
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, NULL, 0));
	EXPECT_TRUE(ot_close(((float *)o.buf)[0], want, 1e-6, 1e-6));
	ot_free(&x);
	ot_free(&o);
}

/* Like run1, over all dims, with ints[2] (the arg forms' tie rule). */
static double run1_last(struct __test_metadata *_metadata, u32 op, u32 dtype,
			const double *vals, s64 n, s64 last)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	double r;

	make_vals(&x, dtype, vals, n);
	ot_make(&o, DRM_VNPU_DTYPE_INT64, 0, NULL);
	set_attrs(&at, 1, 0);
	at.ints[2] = last;
	EXPECT_EQ(0, ot_run(op, ts, 1, 1, &at, 0));
	r = vnpu_load_f64(o.buf, o.v.dtype, 0);
	ot_free(&x);
	ot_free(&o);
	return r;
}

TEST(reduce_arg_select_last_index)
{
	double d[6] = { 2, 5, 5, -1, -1, 0 };
	double nan2[5] = { 1, NAN, 9, NAN, 2 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;

	EXPECT_EQ(2, run1_last(_metadata, DRM_VNPU_OP_ARGMAX, DRM_VNPU_DTYPE_FLOAT, d, 6, 1));
	EXPECT_EQ(4, run1_last(_metadata, DRM_VNPU_OP_ARGMIN, DRM_VNPU_DTYPE_FLOAT, d, 6, 1));
	EXPECT_EQ(1, run1_last(_metadata, DRM_VNPU_OP_ARGMAX, DRM_VNPU_DTYPE_FLOAT, d, 6, 0));
	EXPECT_EQ(2, run1_last(_metadata, DRM_VNPU_OP_ARGMAX, DRM_VNPU_DTYPE_INT8, d, 6, 1));
	EXPECT_EQ(4, run1_last(_metadata, DRM_VNPU_OP_ARGMIN, DRM_VNPU_DTYPE_INT64, d, 6, 1));
	/* NaN is the extreme either way: the first NaN, or the last one. */
	EXPECT_EQ(3, run1_last(_metadata, DRM_VNPU_OP_ARGMAX, DRM_VNPU_DTYPE_FLOAT16, nan2, 5, 1));
	EXPECT_EQ(3, run1_last(_metadata, DRM_VNPU_OP_ARGMIN, DRM_VNPU_DTYPE_FLOAT, nan2, 5, 1));
	EXPECT_EQ(1, run1_last(_metadata, DRM_VNPU_OP_ARGMIN, DRM_VNPU_DTYPE_FLOAT, nan2, 5, 0));
	/* ints[2] other than 0 or 1 is refused. */
	make_vals(&x, DRM_VNPU_DTYPE_FLOAT, d, 6);
	ot_make(&o, DRM_VNPU_DTYPE_INT64, 0, NULL);
	set_attrs(&at, 1, 0);
	at.ints[2] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ARGMAX, ts, 1, 1, &at, 0));
	at.ints[2] = -1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ARGMIN, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST(reduce_norms_and_logs)
{
	double big[3] = { 1000, 1000, -INFINITY };
	double inf[3] = { 1, INFINITY, INFINITY };
	double ninf[2] = { -INFINITY, -INFINITY };
	double v34[2] = { 3, -4 };
	double neg[2] = { -3, 1 };
	s64 xs[2] = { 2, 0 }, os[1] = { 2 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at;
	int i;

	/* No overflow: e ** 1000 is Inf, log-sum-exp is 1000 + log 2. */
	EXPECT_TRUE(ot_close(run1(_metadata, DRM_VNPU_OP_REDUCE_LOG_SUM_EXP,
				  DRM_VNPU_DTYPE_FLOAT, big, 3),
			     1000 + log(2), 1e-6, 0));
	EXPECT_EQ(INFINITY, run1(_metadata, DRM_VNPU_OP_REDUCE_LOG_SUM_EXP,
				 DRM_VNPU_DTYPE_FLOAT, inf, 3));
	EXPECT_EQ(-INFINITY, run1(_metadata, DRM_VNPU_OP_REDUCE_LOG_SUM_EXP,
				  DRM_VNPU_DTYPE_BF16, ninf, 2));
	EXPECT_EQ(5, run1(_metadata, DRM_VNPU_OP_REDUCE_L2, DRM_VNPU_DTYPE_INT32, v34, 2));
	EXPECT_EQ(7, run1(_metadata, DRM_VNPU_OP_REDUCE_L1, DRM_VNPU_DTYPE_INT8, v34, 2));
	EXPECT_EQ(25, run1(_metadata, DRM_VNPU_OP_REDUCE_SUM_SQUARE, DRM_VNPU_DTYPE_UINT8, v34, 2));
	EXPECT_EQ(5, run1(_metadata, DRM_VNPU_OP_REDUCE_L2, DRM_VNPU_DTYPE_FLOAT16, v34, 2));
	/* log of a negative sum is NaN; of 0 is -Inf. */
	EXPECT_TRUE(isnan(run1(_metadata, DRM_VNPU_OP_REDUCE_LOG_SUM,
			       DRM_VNPU_DTYPE_FLOAT, neg, 2)));
	/* Empty rows: 0 for the norms, -Inf for the logs. */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, os);
	set_attrs(&at, 2, 0);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_L2, ts, 1, 1, &at, 0));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0.0, ((float *)o.buf)[i]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_LOG_SUM_EXP, ts, 1, 1, &at, 0));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(-INFINITY, ((float *)o.buf)[i]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_LOG_SUM, ts, 1, 1, &at, 0));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(-INFINITY, ((float *)o.buf)[i]);
	/* Bool is refused by every new reduction. */
	x.v.dtype = DRM_VNPU_DTYPE_BOOL;
	o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	for (i = DRM_VNPU_OP_REDUCE_L1; i <= DRM_VNPU_OP_REDUCE_SUM_SQUARE; i++)
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(i, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST_HARNESS_MAIN
