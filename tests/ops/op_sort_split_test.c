// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of SORT and TOPK along axes longer than 64 Ki, split into
 * chunks across engines (Documentation/ops.md, "Long rows split across
 * engines"): values and indices equal to a plain qsort reference with ties
 * broken by index (ties, NaN, -0 / +0, +-Inf; ascending and descending;
 * several dtypes; strided inputs and indices), the same bits on 2 and 3
 * host threads and with every phase's pieces run backwards, both top-k
 * paths of a chunk, and the bounds accepted and refused.
 */
#include "ops_test_util.h"
#include "vnpu_ops_engines.h"
#include "vnpu_sort.h"
#include "kselftest_harness.h"

#define CH	((s64)VNPU_SPLIT_CHUNK)

/* SORT and TOPK: one input, values and indices out. */
static struct vnpu_op_call *scall(u32 op, struct ot_tensor **ts,
				  const struct drm_vnpu_op_attrs *at)
{
	return ot_call_own(op, ts, 1, 2, at, vnpu_ops_host_cpu());
}

/* Every piece in index order (as the module's single engine). */
static void run_in_order(const struct vnpu_op_call *c)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(c->op);
	u64 t, n = impl->tiles(c);

	for (t = 0; t < n; t++)
		impl->run(c, t);
}

/* The reference: the qsort context (one fiber of x). */
static const struct vnpu_tview *ref_x;
static s64 ref_base, ref_stride;
static bool ref_desc;

/* -1, 0, 1 ascending, NaN above everything, -0 == +0. */
static int ref_cmp_val(s64 a, s64 b)
{
	s64 oa = ref_base + a * ref_stride, ob = ref_base + b * ref_stride;

	if (vnpu_dtype_is_float(ref_x->dtype) ||
	    ref_x->dtype == DRM_VNPU_DTYPE_DOUBLE) {
		double x = vnpu_load_f64(ref_x->data, ref_x->dtype, oa);
		double y = vnpu_load_f64(ref_x->data, ref_x->dtype, ob);

		if (isnan(x) || isnan(y))
			return isnan(x) - isnan(y);
		return (x > y) - (x < y);
	}
	if (ref_x->dtype == DRM_VNPU_DTYPE_UINT32) {
		u32 x = ((u32 *)ref_x->data)[oa], y = ((u32 *)ref_x->data)[ob];

		return (x > y) - (x < y);
	}
	{
		s64 x = vnpu_load_s64(ref_x->data, ref_x->dtype, oa);
		s64 y = vnpu_load_s64(ref_x->data, ref_x->dtype, ob);

		return (x > y) - (x < y);
	}
}

static int ref_cmp(const void *pa, const void *pb)
{
	s64 a = *(const s64 *)pa, b = *(const s64 *)pb;
	int r = ref_cmp_val(a, b);

	if (ref_desc)
		r = -r;
	return r ? r : (a > b) - (a < b);
}

/*
 * Check values and indices of the fibers of a SORT / TOPK along the last
 * axis of x ([rows, n] or [n, cols] with axis 0) against the reference.
 * Returns the number of wrong elements.
 */
static long check_ref(const struct vnpu_tview *x, const struct vnpu_tview *v,
		      const struct vnpu_tview *ix, s64 axis, bool desc)
{
	s64 n = x->shape[axis], k = v->shape[axis], other = 1 - axis;
	s64 fibers = x->rank == 1 ? 1 : x->shape[other], f, j;
	u32 es = vnpu_dtype_size(x->dtype);
	s64 *ord = malloc(n * sizeof(*ord));
	long bad = 0;

	for (f = 0; f < fibers; f++) {
		s64 vb = x->rank == 1 ? 0 : f * v->strides[other];
		s64 ib = x->rank == 1 ? 0 : f * ix->strides[other];

		ref_x = x;
		ref_base = x->rank == 1 ? 0 : f * x->strides[other];
		ref_stride = x->strides[axis];
		ref_desc = desc;
		for (j = 0; j < n; j++)
			ord[j] = j;
		qsort(ord, n, sizeof(*ord), ref_cmp);
		for (j = 0; j < k; j++) {
			s64 got = ((s64 *)ix->data)[ib + j * ix->strides[axis]];
			const u8 *gv = (const u8 *)v->data +
				       (vb + j * v->strides[axis]) * es;
			const u8 *wv = (const u8 *)x->data +
				       (ref_base + ord[j] * ref_stride) * es;

			if (got != ord[j] || memcmp(gv, wv, es)) {
				if (bad < 5)
					fprintf(stderr, "fiber %lld rank %lld: index %lld want %lld\n",
						(long long)f, (long long)j,
						(long long)got, (long long)ord[j]);
				bad++;
			}
		}
	}
	free(ord);
	return bad;
}

/*
 * Random values with many ties (a few hundred distinct ones), and NaN,
 * -0, +0, -Inf, +Inf sprinkled in for floats.
 */
static void fill_ties(struct ot_tensor *t, u64 seed, bool special)
{
	u64 n = t->bytes / vnpu_dtype_size(t->v.dtype), i, st = seed * 7919 + 1;
	static const double sp[] = { NAN, -0.0, 0.0, -INFINITY, INFINITY };

	for (i = 0; i < n; i++) {
		double r = floor(ot_rand(&st, -300, 300)) / 4;

		if (special && ot_rand(&st, 0, 1) < 0.01)
			r = sp[i % 5];
		if (vnpu_dtype_is_float(t->v.dtype) ||
		    t->v.dtype == DRM_VNPU_DTYPE_DOUBLE)
			vnpu_store_f64(t->buf, t->v.dtype, (s64)i, r);
		else
			vnpu_store_s64(t->buf, t->v.dtype, (s64)i,
				       (s64)floor(r * 4) +
				       (t->v.dtype == DRM_VNPU_DTYPE_UINT32 ?
					1000 : 0));
	}
	/* Both zeros in one float row, apart. */
	if (special && vnpu_dtype_is_float(t->v.dtype)) {
		vnpu_store_f64(t->buf, t->v.dtype, 3, -0.0);
		vnpu_store_f64(t->buf, t->v.dtype, (s64)n - 70, 0.0);
	}
}

/*
 * Run a call in order, backwards and on 2 and 3 threads: the same bits
 * each time; returns how many runs differed from the first.
 */
static int run_every_way(struct __test_metadata *_metadata,
			 struct vnpu_op_call *c, u32 want_phases)
{
	size_t vb = vnpu_tview_last(&c->t[1]) + 1, ib = vnpu_tview_last(&c->t[2]) + 1;
	struct vnpu_host_engines *e = calloc(1, sizeof(*e));
	void *v0, *i0;
	int diff = 0;
	u32 n;

	vb *= vnpu_dtype_size(c->t[1].dtype);
	ib *= 8;
	EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c));
	run_in_order(c);
	v0 = malloc(vb);
	i0 = malloc(ib);
	memcpy(v0, c->t[1].data, vb);
	memcpy(i0, c->t[2].data, ib);
	memset(c->t[1].data, 0x5a, vb);
	memset(c->t[2].data, 0x5a, ib);
	ot_run_reversed(c);
	diff += memcmp(v0, c->t[1].data, vb) || memcmp(i0, c->t[2].data, ib);
	for (n = 2; n <= 3; n++) {
		memset(c->t[1].data, 0xa5, vb);
		memset(c->t[2].data, 0xa5, ib);
		EXPECT_EQ(0, vnpu_host_engines_start(e, n));
		EXPECT_EQ(want_phases, vnpu_host_engines_run(e, c));
		vnpu_host_engines_stop(e);
		memset(e, 0, sizeof(*e));
		diff += memcmp(v0, c->t[1].data, vb) || memcmp(i0, c->t[2].data, ib);
	}
	free(v0);
	free(i0);
	free(e);
	return diff;
}

TEST(sort_long_rows_match_reference)
{
	static const u32 dts[] = {
		DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_UINT32,
	};
	s64 shp[2] = { 2, 3 * CH + 123 };
	struct ot_tensor x, v, ix, *ts[3] = { &x, &v, &ix };
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_op_call *c;
	u64 ends[VNPU_OPS_MAX_PHASES];
	u32 k, desc;

	for (k = 0; k < ARRAY_SIZE(dts); k++) {
		for (desc = 0; desc < 2; desc++) {
			ot_make(&x, dts[k], 2, shp);
			ot_make(&v, dts[k], 2, shp);
			ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, shp);
			fill_ties(&x, 11 + k, true);
			at.ints[0] = 1;
			at.ints[1] = desc;
			c = scall(DRM_VNPU_OP_SORT, ts, &at);
			ASSERT_EQ(3u, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
			EXPECT_EQ(2u * 4, ends[0]);
			EXPECT_EQ(3u * 2 * 4, ends[2]);
			EXPECT_EQ(0, run_every_way(_metadata, c, 3))
				TH_LOG("dtype %u desc %u", dts[k], desc);
			EXPECT_EQ(0, check_ref(&x.v, &v.v, &ix.v, 1, desc))
				TH_LOG("dtype %u desc %u", dts[k], desc);
			ot_call_free(c);
			ot_free(&x);
			ot_free(&v);
			ot_free(&ix);
		}
	}
}

/* A row that is all one value, and one already sorted: pure ties. */
TEST(sort_split_all_equal_and_sorted)
{
	s64 n = 2 * CH + 5, i;
	struct ot_tensor x, v, ix, *ts[3] = { &x, &v, &ix };
	struct vnpu_op_call *c;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&v, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 1, &n);
	for (i = 0; i < n; i++)
		((float *)x.buf)[i] = 1.5f;
	c = scall(DRM_VNPU_OP_SORT, ts, NULL);
	EXPECT_EQ(0, run_every_way(_metadata, c, 3));
	for (i = 0; i < n; i++)
		ASSERT_EQ(i, ((s64 *)ix.buf)[i]);
	for (i = 0; i < n; i++)
		((float *)x.buf)[i] = (float)(n - i);
	c->attrs.ints[1] = 1;
	c->has_attrs = 1;
	c->attrs.ints[0] = -1;
	EXPECT_EQ(0, run_every_way(_metadata, c, 3));
	for (i = 0; i < n; i++)
		ASSERT_EQ(i, ((s64 *)ix.buf)[i]);
	EXPECT_EQ(0, check_ref(&x.v, &v.v, &ix.v, 0, true));
	ot_call_free(c);
	ot_free(&x);
	ot_free(&v);
	ot_free(&ix);
}

/*
 * TOPK: largest and smallest, k small (a heap per chunk) and k large (the
 * chunk sorted), strided x (axis 0 of [n, 2]) and strided indices.
 */
TEST(topk_long_rows_match_reference)
{
	static const struct {
		u32 dtype;
		s64 n, k;
		int axis0;
	} tc[] = {
		{ DRM_VNPU_DTYPE_FLOAT, 5 * CH + 77, 100, 0 },
		{ DRM_VNPU_DTYPE_FLOAT, 2 * CH, 8192, 0 },
		{ DRM_VNPU_DTYPE_FLOAT, 16 * CH, 1024, 0 },
		{ DRM_VNPU_DTYPE_FLOAT16, 3 * CH + 1, 37, 0 },
		{ DRM_VNPU_DTYPE_INT32, 2 * CH + 100, 1, 0 },
		{ DRM_VNPU_DTYPE_INT64, 3 * CH + 9, 500, 1 },
		{ DRM_VNPU_DTYPE_FLOAT, 2 * CH + 9, 2000, 1 },
	};
	struct ot_tensor x, v, ix, *ts[3] = { &x, &v, &ix };
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_op_call *c;
	u64 ends[VNPU_OPS_MAX_PHASES];
	u32 k, largest;

	for (k = 0; k < ARRAY_SIZE(tc); k++) {
		for (largest = 0; largest < 2; largest++) {
			s64 rows = tc[k].n > 4 * CH || tc[k].k > 4096 ? 1 : 2;
			s64 xs[2] = { rows, tc[k].n }, os[2] = { rows, tc[k].k };
			s64 xt[2] = { tc[k].n, rows }, ot[2] = { tc[k].k, rows };
			int a0 = tc[k].axis0;

			ot_make(&x, tc[k].dtype, 2, a0 ? xt : xs);
			ot_make(&v, tc[k].dtype, 2, a0 ? ot : os);
			ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, a0 ? ot : os);
			fill_ties(&x, 100 + k, tc[k].dtype != DRM_VNPU_DTYPE_INT32 &&
				  tc[k].dtype != DRM_VNPU_DTYPE_INT64);
			at.ints[0] = a0 ? 0 : 1;
			at.ints[2] = largest;
			at.ints[3] = 1;
			c = scall(DRM_VNPU_OP_TOPK, ts, &at);
			ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c)) TH_LOG("case %u", k);
			ASSERT_EQ(2u, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
			EXPECT_EQ((u64)rows * ((tc[k].n + CH - 1) / CH), ends[0]);
			EXPECT_EQ(ends[0] + rows, ends[1]);
			EXPECT_EQ(0, run_every_way(_metadata, c, 2))
				TH_LOG("case %u largest %u", k, largest);
			EXPECT_EQ(0, check_ref(&x.v, &v.v, &ix.v, a0 ? 0 : 1, largest))
				TH_LOG("case %u largest %u", k, largest);
			ot_call_free(c);
			ot_free(&x);
			ot_free(&v);
			ot_free(&ix);
		}
	}
}

/* Axes of 64 Ki elements are one piece as before; one element more splits. */
TEST(short_rows_stay_unsplit)
{
	static u8 dummy[64];
	struct ot_tensor x = { 0 }, v = { 0 }, ix = { 0 }, *ts[3] = { &x, &v, &ix };
	u64 ends[VNPU_OPS_MAX_PHASES];
	struct vnpu_op_call *c;
	u32 op;

	for (op = 0; op < 2; op++) {
		u32 o = op ? DRM_VNPU_OP_TOPK : DRM_VNPU_OP_SORT;

		x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
					   .rank = 1, .shape = { CH }, .strides = { 1 } };
		v.v = x.v;
		if (op)
			v.v.shape[0] = 10;
		ix.v = v.v;
		ix.v.dtype = DRM_VNPU_DTYPE_INT64;
		c = scall(o, ts, NULL);
		EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(o), c));
		EXPECT_EQ(1u, vnpu_op_phases(vnpu_op_find(o), c, ends));
		EXPECT_EQ(1u, ends[0]);
		c->t[0].shape[0] = CH + 1;
		if (!op)
			c->t[1].shape[0] = c->t[2].shape[0] = CH + 1;
		EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(o), c));
		EXPECT_EQ(op ? 2u : 3u, vnpu_op_phases(vnpu_op_find(o), c, ends));
		EXPECT_EQ(2u, ends[0]);
		ot_call_free(c);
	}
}

/*
 * The bounds (check() only; it never reads the data). TOPK: rows x chunks
 * x min(k, 64 Ki) candidates fit the shared memory (16 Ki positions), and
 * the call's work VNPU_SPLIT_CALL_WORK (1024 chunks in all). SORT: values
 * of 4 bytes contiguous along the axis, and the call's work (one row of
 * 256 chunks, or fewer chunks over more rows).
 */
TEST(split_sort_bounds)
{
	static u8 dummy[64];
	const s64 cands = VNPU_OPS_SHARED / 4, most = 256 * CH;
	struct ot_tensor x = { 0 }, v = { 0 }, ix = { 0 }, *ts[3] = { &x, &v, &ix };
	struct drm_vnpu_op_attrs at = { 0 };
	const struct vnpu_op_impl *topk = vnpu_op_find(DRM_VNPU_OP_TOPK);
	const struct vnpu_op_impl *sort = vnpu_op_find(DRM_VNPU_OP_SORT);
	struct vnpu_op_call *c;

	/* TOPK, one row of 16 chunks: k = 1024 fits, 1025 does not. */
	x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
				   .rank = 1, .shape = { 16 * CH }, .strides = { 1 } };
	v.v = x.v;
	v.v.shape[0] = cands / 16;
	ix.v = v.v;
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	c = scall(DRM_VNPU_OP_TOPK, ts, NULL);
	EXPECT_EQ(0, vnpu_op_check(topk, c));
	c->t[1].shape[0] = cands / 16 + 1;
	c->t[2].shape[0] = cands / 16 + 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(topk, c));
	/* Two such rows: k = 512 fits, 513 does not. */
	c->t[0].rank = c->t[1].rank = c->t[2].rank = 2;
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 2;
	c->t[0].shape[1] = 16 * CH;
	c->t[0].strides[0] = 16 * CH;
	c->t[1].shape[1] = c->t[2].shape[1] = cands / 32 + 1;
	c->t[1].strides[0] = c->t[2].strides[0] = cands / 32 + 1;
	c->t[0].strides[1] = c->t[1].strides[1] = c->t[2].strides[1] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(topk, c));
	c->t[1].shape[1] = c->t[2].shape[1] = cands / 32;
	EXPECT_EQ(0, vnpu_op_check(topk, c));
	/* k = 0 on a long axis is refused as before. */
	c->t[1].shape[1] = c->t[2].shape[1] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(topk, c));
	ot_call_free(c);

	/*
	 * SORT: one row of 256 chunks is the most work a split call may do
	 * (VNPU_SPLIT_CALL_WORK: 256 chunks of 128 units an element, each
	 * piece's search 2^15 a chunk of the row); one element more is not.
	 */
	x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
				   .rank = 1, .shape = { most }, .strides = { 1 } };
	v.v = x.v;
	ix.v = x.v;
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	c = scall(DRM_VNPU_OP_SORT, ts, &at);
	EXPECT_EQ(0, vnpu_op_check(sort, c));
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = most + 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	/*
	 * Only 4-byte values: 2-byte ones have no room for the positions,
	 * 8-byte keys do not fit a (key, position) pair; both refused.
	 */
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = CH + 1;
	EXPECT_EQ(0, vnpu_op_check(sort, c));
	c->t[0].dtype = c->t[1].dtype = DRM_VNPU_DTYPE_FLOAT16;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	c->t[0].dtype = c->t[1].dtype = DRM_VNPU_DTYPE_DOUBLE;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	c->t[0].dtype = c->t[1].dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(0, vnpu_op_check(sort, c));
	/* Values strided along the axis: refused; strided x and indices: fine. */
	c->t[1].strides[0] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	c->t[1].strides[0] = 1;
	c->t[0].strides[0] = 3;
	c->t[2].strides[0] = 2;
	EXPECT_EQ(0, vnpu_op_check(sort, c));
	/*
	 * Rows count too (partials live in the outputs, but the work is
	 * every row's): 254 rows of 2 chunks fit, 255 do not, nor 5000.
	 * The axis is the rows' (dim 1; the attributes' 0 would sort the
	 * short dim 0 unsplit).
	 */
	c->attrs.ints[0] = 1;
	c->t[0].rank = c->t[1].rank = c->t[2].rank = 2;
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 254;
	c->t[0].shape[1] = c->t[1].shape[1] = c->t[2].shape[1] = 2 * CH;
	c->t[0].strides[0] = c->t[1].strides[0] = c->t[2].strides[0] = 2 * CH;
	c->t[0].strides[1] = c->t[1].strides[1] = c->t[2].strides[1] = 1;
	EXPECT_EQ(0, vnpu_op_check(sort, c));
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 255;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 5000;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	/*
	 * The finding: x = [65536, 131072] with stride-0 rows (a 512 KiB
	 * buffer) was 393 216 pieces of radix sorts, minutes of one engine
	 * that could not always park. Refused now.
	 */
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 65536;
	c->t[0].strides[0] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(sort, c));
	ot_call_free(c);

	/*
	 * TOPK counts 64 units an element of a chunk: 1024 chunks in all.
	 * k = 1 on one row of 1024 chunks fits, a row of 1025 does not, and
	 * neither do 8192 stride-0 rows of 2 chunks (16 Ki pieces, which the
	 * candidates' bound alone let through).
	 */
	x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
				   .rank = 1, .shape = { 1024 * CH },
				   .strides = { 1 } };
	v.v = x.v;
	v.v.shape[0] = 1;
	ix.v = v.v;
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	c = scall(DRM_VNPU_OP_TOPK, ts, NULL);
	EXPECT_EQ(0, vnpu_op_check(topk, c));
	c->t[0].shape[0] = 1024 * CH + 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(topk, c));
	c->t[0].rank = c->t[1].rank = c->t[2].rank = 2;
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 8192;
	c->t[0].shape[1] = 2 * CH;
	c->t[1].shape[1] = c->t[2].shape[1] = 1;
	c->t[0].strides[0] = 0;
	c->t[0].strides[1] = 1;
	c->t[1].strides[0] = c->t[2].strides[0] = 1;
	c->t[1].strides[1] = c->t[2].strides[1] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(topk, c));
	/* 512 such rows are 1024 chunks: at the bound. */
	c->t[0].shape[0] = c->t[1].shape[0] = c->t[2].shape[0] = 512;
	EXPECT_EQ(0, vnpu_op_check(topk, c));
	ot_call_free(c);
}

/*
 * Partials read back from the outputs are bounded: phases run over garbage
 * written between them (the caller's memory) stay inside the row and
 * write only indices of the row.
 */
TEST(garbage_between_phases_stays_in_bounds)
{
	s64 n = 2 * CH + 11, i;
	struct ot_tensor x, v, ix, *ts[3] = { &x, &v, &ix };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_SORT);
	u64 ends[VNPU_OPS_MAX_PHASES], t;
	struct vnpu_op_call *c;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&v, DRM_VNPU_DTYPE_FLOAT, 1, &n);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 1, &n);
	fill_ties(&x, 5, false);
	c = scall(DRM_VNPU_OP_SORT, ts, NULL);
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	ASSERT_EQ(3u, vnpu_op_phases(impl, c, ends));
	for (t = 0; t < ends[0]; t++)
		impl->run(c, t);
	/* Pairs out of order, and positions past the row. */
	for (i = 0; i < n; i++)
		((u64 *)ix.buf)[i] = (u64)(i * 7919 % 1000) << 32 |
				     (u64)(0xfffffff0u + i % 16);
	for (t = ends[0]; t < ends[1]; t++)
		impl->run(c, t);
	((u32 *)v.buf)[0] = 0xffffffffu;
	((u32 *)v.buf)[1] = (u32)n;
	((u32 *)v.buf)[2] = (u32)n - 1;
	for (t = ends[1]; t < ends[2]; t++)
		impl->run(c, t);
	for (i = 0; i < n; i++)
		ASSERT_TRUE(((s64 *)ix.buf)[i] >= 0 && ((s64 *)ix.buf)[i] < n);
	EXPECT_EQ(n - 1, ((s64 *)ix.buf)[0]);
	EXPECT_EQ(n - 1, ((s64 *)ix.buf)[1]);
	EXPECT_EQ(0, memcmp(v.buf, (float *)x.buf + n - 1, 4));
	ot_call_free(c);
	ot_free(&x);
	ot_free(&v);
	ot_free(&ix);
}

TEST_HARNESS_MAIN
