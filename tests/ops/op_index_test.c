// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the indexing operators against references written out
 * here: GATHER_ND (batch dims, negative and out-of-range indices),
 * SCATTER_ND and SCATTER with their reductions (colliding indices in
 * order, pieces owning slices), REVERSE_SEQUENCE, SLICE with negative
 * steps and ONE_HOT with a values input; every dtype, non-contiguous
 * views and check() rejections.
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

/* Bits of the element at multi-index @idx. */
static u64 bits(const struct ot_tensor *t, const s64 *idx)
{
	s64 off = off_of(&t->v, idx);

	switch (vnpu_dtype_size(t->v.dtype)) {
	case 1:
		return ((u8 *)t->v.data)[off];
	case 2:
		return ((u16 *)t->v.data)[off];
	case 4:
		return ((u32 *)t->v.data)[off];
	default:
		return ((u64 *)t->v.data)[off];
	}
}

static bool next_idx(s64 *idx, const s64 *shape, u32 rank)
{
	u32 d;

	for (d = rank; d-- > 0;) {
		if (++idx[d] < shape[d])
			return true;
		idx[d] = 0;
	}
	return false;
}

/* A tensor stored with its dims reversed: a transposed, strided view. */
static void make_rev(struct ot_tensor *t, u32 dtype, u32 rank, const s64 *shape)
{
	s64 st[VNPU_OPS_MAX_RANK], strides[VNPU_OPS_MAX_RANK];
	u32 k;

	for (k = 0; k < rank; k++)
		st[k] = shape[rank - 1 - k];
	ot_make(t, dtype, rank, st);
	memcpy(strides, t->v.strides, sizeof(strides));
	for (k = 0; k < rank; k++) {
		t->v.shape[k] = shape[k];
		t->v.strides[k] = strides[rank - 1 - k];
	}
}

static void put_index(struct ot_tensor *t, s64 i, s64 v)
{
	vnpu_store_s64(t->v.data, t->v.dtype, i, v);
}

/* ---------------------------------------------------------- gather nd -- */

/* ONNX's GatherND example with batch_dims 1, int32 data. */
TEST(gather_nd_onnx_example)
{
	static const s32 data[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	s64 xs[3] = { 2, 2, 2 }, is[2] = { 2, 1 }, os[2] = { 2, 2 };
	struct ot_tensor x, ix, o;
	struct ot_tensor *ts[3] = { &x, &ix, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	const s32 *r;

	ot_make(&x, DRM_VNPU_DTYPE_INT32, 3, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);
	ot_make(&o, DRM_VNPU_DTYPE_INT32, 2, os);
	memcpy(x.buf, data, sizeof(data));
	put_index(&ix, 0, 1);
	put_index(&ix, 1, -2);	/* counts from the end: 0 */
	a.ints[0] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, &a, 0));
	r = o.buf;
	EXPECT_EQ(2, r[0]);
	EXPECT_EQ(3, r[1]);
	EXPECT_EQ(4, r[2]);
	EXPECT_EQ(5, r[3]);
	/* out of range: the tuple reads zeros */
	put_index(&ix, 1, 2);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, &a, 0));
	EXPECT_EQ(0, r[2]);
	EXPECT_EQ(0, r[3]);
	EXPECT_EQ(2, r[0]);
	ot_free(&x);
	ot_free(&ix);
	ot_free(&o);
}

/* x [3, 4, 5] transposed in memory, tuples of 2 -> out [2, 3, 5]. */
TEST(gather_nd_all_dtypes)
{
	s64 xs[3] = { 3, 4, 5 }, is[3] = { 2, 3, 2 }, os[3] = { 2, 3, 5 };
	struct ot_tensor x, ix, o;
	struct ot_tensor *ts[3] = { &x, &ix, &o };
	unsigned int t, k;

	for (t = 0; t < NDT; t++) {
		s64 idx[3] = { 0 };

		make_rev(&x, all_dtypes[t], 3, xs);
		ot_fill(&x, t + 1, -60, 60);
		ot_make(&ix, DRM_VNPU_DTYPE_INT32, 3, is);
		for (k = 0; k < 6; k++) {
			put_index(&ix, 2 * k, (s64)(k * 7) % 6 - 3);
			put_index(&ix, 2 * k + 1, (s64)(k * 5) % 8 - 4);
		}
		ot_make(&o, all_dtypes[t], 3, os);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
		do {
			s64 p = idx[0] * 3 + idx[1];
			s64 i0 = vnpu_load_s64(ix.buf, ix.v.dtype, 2 * p);
			s64 i1 = vnpu_load_s64(ix.buf, ix.v.dtype, 2 * p + 1);
			s64 src[3] = { i0 < 0 ? i0 + 3 : i0, i1 < 0 ? i1 + 4 : i1,
				       idx[2] };

			ASSERT_EQ(bits(&x, src), bits(&o, idx));
		} while (next_idx(idx, os, 3));
		ot_free(&x);
		ot_free(&ix);
		ot_free(&o);
	}
}

TEST(gather_nd_rejects)
{
	s64 xs[2] = { 2, 3 }, is[2] = { 2, 3 }, os[1] = { 2 }, os2[2] = { 2, 3 };
	struct ot_tensor x, ix, o;
	struct ot_tensor *ts[3] = { &x, &ix, &o };
	struct drm_vnpu_op_attrs a = { 0 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);	/* tuples of 3 > rank 2 */
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, os);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
	ix.v.shape[1] = 2;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
	ix.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
	ix.v.dtype = DRM_VNPU_DTYPE_INT64;
	o.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	/* batch dims: index's leading dims must equal x's */
	a.ints[0] = 1;
	ix.v.shape[1] = 1;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, &a, 0));
	ix.v.shape[0] = 1;
	o.v.shape[0] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, &a, 0));
	ix.v.shape[0] = 2;
	o.v.shape[0] = 2;
	a.ints[0] = 2;	/* not below index's rank */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, &a, 0));
	a.ints[0] = -1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, &a, 0));
	/* wrong output shape */
	a.ints[0] = 0;
	ix.v.shape[1] = 1;
	o.v = (struct vnpu_tview){ .data = o.buf, .dtype = DRM_VNPU_DTYPE_FLOAT,
				   .rank = 2, .shape = { 2, 2 }, .strides = { 3, 1 } };
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
	o.v.shape[1] = os2[1];
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GATHER_ND, ts, 2, 1, NULL, 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&o);
}

/* --------------------------------------------------------- scatter nd -- */

static double combine(double a, double b, int mode)
{
	switch (mode) {
	case 1:
		return a + b;
	case 2:
		return a * b;
	case 3:
		return b > a ? b : a;
	case 4:
		return b < a ? b : a;
	default:
		return b;
	}
}

static double round_to(u32 dtype, double v)
{
	u64 tmp = 0;

	vnpu_store_f64(&tmp, dtype, 0, v);
	return vnpu_load_f64(&tmp, dtype, 0);
}

/*
 * x [n, 3] (transposed in memory), tuples of 1 with collisions; the
 * reference applies the updates in order on a copy of x.
 */
static void scatter_nd_case(struct __test_metadata *_metadata, u32 dtype,
			    int mode, s64 n)
{
	s64 xs[2] = { n, 3 }, is[2] = { 6, 1 }, us[2] = { 6, 3 };
	static const s64 rows[6] = { 1, -1, 1, 0, 4, -7 };
	struct ot_tensor x, ix, up, o;
	struct ot_tensor *ts[4] = { &x, &ix, &up, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	double *want = calloc((size_t)n * 3, sizeof(double));
	s64 idx[2] = { 0 }, k, c;

	make_rev(&x, dtype, 2, xs);
	ot_fill(&x, 7, 0, 5);	/* small and >= 0: no integer wraps */
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);
	ot_make(&up, dtype, 2, us);
	ot_fill(&up, 9, 0, 4);
	ot_make(&o, dtype, 2, xs);
	do {
		want[idx[0] * 3 + idx[1]] = ot_get(&x, idx);
	} while (next_idx(idx, xs, 2));
	for (k = 0; k < 6; k++) {
		s64 r = rows[k] < 0 ? rows[k] + n : rows[k];

		put_index(&ix, k, rows[k]);
		if (r < 0 || r >= n)
			continue;	/* skipped */
		for (c = 0; c < 3; c++) {
			s64 ui[2] = { k, c };

			/* each step stored, so rounded, as the device does */
			want[r * 3 + c] = round_to(dtype,
						   combine(want[r * 3 + c],
							   ot_get(&up, ui), mode));
		}
	}
	a.ints[0] = mode;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	memset(idx, 0, sizeof(idx));
	do {
		double w = want[idx[0] * 3 + idx[1]], g = ot_get(&o, idx);

		ASSERT_EQ(w, g) TH_LOG("dtype %u mode %d at %lld,%lld", dtype, mode,
				       (long long)idx[0], (long long)idx[1]);
	} while (next_idx(idx, xs, 2));
	free(want);
	ot_free(&x);
	ot_free(&ix);
	ot_free(&up);
	ot_free(&o);
}

TEST(scatter_nd_reductions)
{
	unsigned int t;
	int mode;

	for (t = 0; t < NDT; t++)
		for (mode = 0; mode <= 4; mode++)
			if (all_dtypes[t] != DRM_VNPU_DTYPE_BOOL || !mode)
				scatter_nd_case(_metadata, all_dtypes[t], mode, 5);
	/* slices spread over many pieces: each piece applies its own */
	scatter_nd_case(_metadata, DRM_VNPU_DTYPE_FLOAT, 1, 3 * VNPU_OPS_TILE_ELEMS / 2);
}

/* Tuples of 2 into [4, 4, 4]: ONNX's ScatterND example (multiply). */
TEST(scatter_nd_onnx_example)
{
	s64 xs[3] = { 4, 4, 4 }, is[2] = { 2, 1 }, us[3] = { 2, 4, 4 };
	struct ot_tensor x, ix, up, o;
	struct ot_tensor *ts[4] = { &x, &ix, &up, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	float *xf, *uf, *of;
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);
	ot_make(&up, DRM_VNPU_DTYPE_FLOAT, 3, us);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	xf = x.buf;
	uf = up.buf;
	of = o.buf;
	for (i = 0; i < 64; i++)
		xf[i] = (float)(i % 9 + 1);
	for (i = 0; i < 32; i++)
		uf[i] = (float)(i / 16 + 5);
	put_index(&ix, 0, 0);
	put_index(&ix, 1, 0);	/* both tuples name slice 0 */
	a.ints[0] = 2;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	for (i = 0; i < 64; i++)
		EXPECT_EQ(i < 16 ? xf[i] * 5 * 6 : xf[i], of[i]);
	a.ints[0] = 0;	/* replace: the last tuple wins */
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	EXPECT_EQ(6.0f, of[0]);
	EXPECT_EQ(6.0f, of[15]);
	EXPECT_EQ(xf[16], of[16]);
	ot_free(&x);
	ot_free(&ix);
	ot_free(&up);
	ot_free(&o);
}

TEST(scatter_nd_rejects)
{
	s64 xs[2] = { 4, 3 }, is[2] = { 2, 1 }, us[2] = { 2, 3 };
	struct ot_tensor x, ix, up, o;
	struct ot_tensor *ts[4] = { &x, &ix, &up, &o };
	struct drm_vnpu_op_attrs a = { 0 };

	ot_make(&x, DRM_VNPU_DTYPE_BOOL, 2, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT32, 2, is);
	ot_make(&up, DRM_VNPU_DTYPE_BOOL, 2, us);
	ot_make(&o, DRM_VNPU_DTYPE_BOOL, 2, xs);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, NULL, 0));
	a.ints[0] = 1;	/* BOOL does not add */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	x.v.dtype = up.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_INT8;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	a.ints[0] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	a.ints[0] = -1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	up.v.shape[1] = 2;	/* updates' slice must be x's */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, NULL, 0));
	up.v.shape[1] = 3;
	ix.v.shape[1] = 3;	/* tuples longer than x's rank */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, NULL, 0));
	ix.v.shape[1] = 1;
	o.v.shape[0] = 3;	/* out must be x's shape */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, NULL, 0));
	o.v.shape[0] = 4;
	ix.v.dtype = DRM_VNPU_DTYPE_UINT8;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, NULL, 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&up);
	ot_free(&o);
}

/*
 * A piece walks every tuple and may apply each to a whole slice: tuples
 * times (slice + k) must fit VNPU_OPS_PIECE_WORK. Stride-0 views of one
 * element stand for big tensors.
 */
TEST(scatter_nd_piece_work)
{
	static float one_x, one_up, one_out;
	static s64 zero;
	s64 slice = (s64)1 << 20;
	struct ot_tensor x, ix, up, o;
	struct ot_tensor *ts[4] = { &x, &ix, &up, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	s64 tuples;

	for (tuples = 63; tuples <= 64; tuples++) {
		memset(ts[0], 0, sizeof(x));
		x.v = (struct vnpu_tview){ .data = &one_x,
					   .dtype = DRM_VNPU_DTYPE_FLOAT, .rank = 2,
					   .shape = { 2, slice } };
		o = x;
		o.v.data = &one_out;
		ix = x;
		ix.v = (struct vnpu_tview){ .data = &zero,
					    .dtype = DRM_VNPU_DTYPE_INT64, .rank = 2,
					    .shape = { tuples, 1 } };
		up = x;
		up.v.data = &one_up;
		up.v.shape[0] = tuples;
		a.ints[0] = 1;
		/* 63 * (2^20 + 1) fits 2^26, 64 * (2^20 + 1) does not */
		EXPECT_EQ(tuples == 63 ? 0 : -VNPU_OPS_EINVAL,
			  ot_run(DRM_VNPU_OP_SCATTER_ND, ts, 3, 1, &a, 0));
	}
}

/* ---------------------------------------------------------- scatter -- */

/* torch.scatter_add along dim 1 with repeated indices, and multiply. */
TEST(scatter_reductions)
{
	s64 xs[2] = { 2, 4 }, is[2] = { 2, 3 };
	struct ot_tensor x, ix, src, o;
	struct ot_tensor *ts[4] = { &x, &ix, &src, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	static const s64 ind[6] = { 1, 1, -1, 0, 0, 9 };
	static const float sv[6] = { 1, 2, 3, 4, 5, 6 };
	float *xf, *of;
	int i;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);
	ot_make(&src, DRM_VNPU_DTYPE_FLOAT, 2, is);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	xf = x.buf;
	of = o.buf;
	for (i = 0; i < 8; i++)
		xf[i] = (float)(i + 1);
	for (i = 0; i < 6; i++) {
		put_index(&ix, i, ind[i]);
		((float *)src.buf)[i] = sv[i];
	}
	a.ints[0] = 1;
	a.ints[1] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, &a, 0));
	EXPECT_EQ(1.0f, of[0]);
	EXPECT_EQ(2.0f + 1 + 2, of[1]);
	EXPECT_EQ(3.0f, of[2]);
	EXPECT_EQ(4.0f + 3, of[3]);
	EXPECT_EQ(5.0f + 4 + 5, of[4]);	/* 9 is out of range: skipped */
	EXPECT_EQ(6.0f, of[5]);
	a.ints[1] = 2;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, &a, 0));
	EXPECT_EQ(2.0f * 1 * 2, of[1]);
	EXPECT_EQ(5.0f * 4 * 5, of[4]);
	a.ints[1] = 0;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, &a, 0));
	EXPECT_EQ(2.0f, of[1]);	/* the last one wins */
	a.ints[1] = 7;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, &a, 0));
	x.v.dtype = src.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_BOOL;
	a.ints[1] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, &a, 0));
	x.v.dtype = src.v.dtype = o.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, &a, 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&src);
	ot_free(&o);
}

/* --------------------------------------------------- reverse sequence -- */

static void reverse_case(struct __test_metadata *_metadata, u32 dtype,
			 s64 ba, s64 ta)
{
	s64 xs[3] = { 4, 4, 3 }, ls = 4, idx[3] = { 0 };
	static const s64 lens[4] = { 4, 1, 0, 9 };	/* 9: taken as 4 */
	struct ot_tensor x, len, o;
	struct ot_tensor *ts[3] = { &x, &len, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	int i;

	make_rev(&x, dtype, 3, xs);
	ot_fill(&x, 3, -50, 50);
	ot_make(&len, DRM_VNPU_DTYPE_INT32, 1, &ls);
	for (i = 0; i < 4; i++)
		put_index(&len, i, lens[i]);
	ot_make(&o, dtype, 3, xs);
	a.ints[0] = ba;
	a.ints[1] = ta;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	do {
		s64 src[3] = { idx[0], idx[1], idx[2] };
		s64 n = lens[idx[ba]] > xs[ta] ? xs[ta] : lens[idx[ba]];

		if (idx[ta] < n)
			src[ta] = n - 1 - idx[ta];
		ASSERT_EQ(bits(&x, src), bits(&o, idx));
	} while (next_idx(idx, xs, 3));
	ot_free(&x);
	ot_free(&len);
	ot_free(&o);
}

TEST(reverse_sequence)
{
	unsigned int t;

	for (t = 0; t < NDT; t++) {
		reverse_case(_metadata, all_dtypes[t], 0, 1);
		reverse_case(_metadata, all_dtypes[t], 1, 0);
	}
	reverse_case(_metadata, DRM_VNPU_DTYPE_FLOAT, 1, 2);
}

TEST(reverse_sequence_rejects)
{
	s64 xs[2] = { 3, 2 }, ls = 2;
	struct ot_tensor x, len, o;
	struct ot_tensor *ts[3] = { &x, &len, &o };
	struct drm_vnpu_op_attrs a = { 0 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&len, DRM_VNPU_DTYPE_INT64, 1, &ls);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	a.ints[0] = 1;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	a.ints[1] = 1;	/* the same axis twice */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	a.ints[1] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	a.ints[1] = 0;
	a.ints[0] = 0;	/* batch dim 3 != 2 lengths */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	a.ints[0] = 1;
	len.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	len.v.dtype = DRM_VNPU_DTYPE_INT64;
	o.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, &a, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	x.v.rank = o.v.rank = 1;	/* needs a batch and a time axis */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_REVERSE_SEQUENCE, ts, 2, 1, NULL, 0));
	ot_free(&x);
	ot_free(&len);
	ot_free(&o);
}

/* ------------------------------------------------- slice, backwards -- */

TEST(slice_negative_steps)
{
	s64 xs[3] = { 5, 7, 6 }, os[3] = { 2, 3, 6 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs a = { 0 };
	unsigned int t;

	a.ints[0] = 4;		/* 4, 1 */
	a.ints[8] = -3;
	a.ints[1] = 1;		/* 1, 3, 5 */
	a.ints[9] = 2;
	a.ints[2] = 5;		/* 5 .. 0 */
	a.ints[10] = -1;
	for (t = 0; t < NDT; t++) {
		s64 idx[3] = { 0 };

		make_rev(&x, all_dtypes[t], 3, xs);
		ot_fill(&x, t + 3, -50, 50);
		ot_make(&o, all_dtypes[t], 3, os);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
		do {
			s64 src[3] = { 4 - 3 * idx[0], 1 + 2 * idx[1], 5 - idx[2] };

			ASSERT_EQ(bits(&x, src), bits(&o, idx));
		} while (next_idx(idx, os, 3));
		ot_free(&x);
		ot_free(&o);
	}
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	a.ints[0] = 3;		/* 3, 0: fine */
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[0] = 2;		/* 2, -1: reads before the start */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[0] = 5;		/* starts past the end */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[0] = 4;
	a.ints[8] = INT64_MIN;	/* overflows */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	ot_free(&x);
	ot_free(&o);
}

/* ------------------------------------------------ one-hot with values -- */

TEST(one_hot_values_input)
{
	s64 is[2] = { 2, 2 }, os[3] = { 2, 2, 4 }, vs[2] = { 2, 3 };
	static const s64 ind[4] = { 0, -1, 4, 2 };	/* -1 is 3, 4 is off */
	struct ot_tensor ix, val, on, o;
	struct ot_tensor *ts[4] = { &ix, &val, &on, &o };
	s32 *ov;
	int i, j;

	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);
	/* off: the first element of a [2, 3] view, on: of a transposed one */
	ot_make(&val, DRM_VNPU_DTYPE_INT32, 2, vs);
	ot_make(&on, DRM_VNPU_DTYPE_INT32, 2, vs);
	on.v.strides[0] = 1;
	on.v.strides[1] = 2;
	ot_make(&o, DRM_VNPU_DTYPE_INT32, 3, os);
	for (i = 0; i < 4; i++)
		put_index(&ix, i, ind[i]);
	((s32 *)val.buf)[0] = -7;
	((s32 *)val.buf)[1] = 99;
	((s32 *)on.buf)[0] = 1 << 30;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 3, 1, NULL, 0));
	ov = o.buf;
	for (i = 0; i < 4; i++) {
		s64 hot = ind[i] < 0 ? ind[i] + 4 : ind[i];

		for (j = 0; j < 4; j++)
			EXPECT_EQ(j == hot ? 1 << 30 : -7, ov[i * 4 + j]);
	}
	/* two inputs, an empty value or another dtype: refused */
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 2, 1, NULL, 0));
	on.v.shape[0] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 3, 1, NULL, 0));
	on.v.shape[0] = 2;
	val.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 3, 1, NULL, 0));
	ot_free(&ix);
	ot_free(&val);
	ot_free(&on);
	ot_free(&o);
}

TEST_HARNESS_MAIN
