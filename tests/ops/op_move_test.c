// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the data movement operators against simple references:
 * strided copy, concat, split, slice, gather, scatter, index select,
 * where, pad, tile, one-hot, arange and fill; non-contiguous views, empty
 * and size-1 dims, every dtype, index edge cases and check() rejections.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

static const u32 all_dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT32,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_BOOL,
};

#define NDT (sizeof(all_dtypes) / sizeof(all_dtypes[0]))

static u32 fbits(float f)
{
	union { float f; u32 u; } v = { .f = f };

	return v.u;
}

/* Bits of the element at element offset @off. */
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

static s64 off_of(const struct vnpu_tview *v, const s64 *idx)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < v->rank; d++)
		off += idx[d] * v->strides[d];
	return off;
}

static u64 raw(const struct ot_tensor *t, const s64 *idx)
{
	return raw_off(&t->v, off_of(&t->v, idx));
}

static s64 ival(const struct ot_tensor *t, const s64 *idx)
{
	return vnpu_load_s64(t->v.data, t->v.dtype, off_of(&t->v, idx));
}

/* Next row-major multi-index; false after the last. */
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

/*
 * A tensor of @shape whose dims are stored in the order @perm (storage
 * dim k is logical dim perm[k]): a permuted, non-contiguous view.
 */
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

/* A tensor of @shape inside a larger one: rows padded by @extra. */
static void make_padded(struct ot_tensor *t, u32 dtype, u32 rank,
			const s64 *shape, s64 extra)
{
	s64 st[VNPU_OPS_MAX_RANK];

	memcpy(st, shape, rank * sizeof(s64));
	st[rank - 1] += extra;
	ot_make(t, dtype, rank, st);
	t->v.shape[rank - 1] = shape[rank - 1];
}

static struct drm_vnpu_op_attrs *attrs_axis(struct drm_vnpu_op_attrs *a,
					    s64 axis)
{
	memset(a, 0, sizeof(*a));
	a->ints[0] = axis;
	return a;
}

/* Every element of @o (iterated over its shape) matches @o_ref's bits. */
#define EXPECT_SAME(o, want_fn, ...) do {					\
	s64 i_[VNPU_OPS_MAX_RANK] = { 0 };					\
	u64 n_ = vnpu_tview_elems(&(o)->v), k_;				\
										\
	for (k_ = 0; k_ < n_; k_++) {						\
		u64 w_ = want_fn(i_, __VA_ARGS__);				\
		ASSERT_EQ(w_, raw(o, i_))					\
			TH_LOG("%s: element %llu", #want_fn,			\
			       (unsigned long long)k_);				\
		next_idx(i_, (o)->v.shape, (o)->v.rank);			\
	}									\
} while (0)

/* ------------------------------------------------------- strided copy -- */

static u64 want_copy(const s64 *idx, const struct ot_tensor *x)
{
	return raw(x, idx);
}

static void copy_case(struct __test_metadata *_metadata, u32 dtype,
		      struct ot_tensor *x, struct ot_tensor *o)
{
	struct ot_tensor *ts[2] = { x, o };

	ot_fill(x, dtype + 7, -100, 100);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_STRIDED_COPY, ts, 1, 1, NULL, 0));
	EXPECT_SAME(o, want_copy, x);
	ot_free(x);
	ot_free(o);
}

TEST(strided_copy_all_dtypes_views)
{
	s64 shape[3] = { 5, 7, 3 };
	u32 perm[3] = { 2, 0, 1 }, rev[3] = { 2, 1, 0 };
	struct ot_tensor x, o;
	unsigned int i;

	for (i = 0; i < NDT; i++) {
		u32 dt = all_dtypes[i];

		/* transpose -> contiguous */
		make_perm(&x, dt, 3, shape, perm);
		ot_make(&o, dt, 3, shape);
		copy_case(_metadata, dt, &x, &o);
		/* contiguous -> reversed-dims view */
		ot_make(&x, dt, 3, shape);
		make_perm(&o, dt, 3, shape, rev);
		copy_case(_metadata, dt, &x, &o);
		/* padded rows both sides (inner dim contiguous) */
		make_padded(&x, dt, 3, shape, 2);
		make_padded(&o, dt, 3, shape, 5);
		copy_case(_metadata, dt, &x, &o);
		/* contiguous -> contiguous (fast path) */
		ot_make(&x, dt, 3, shape);
		ot_make(&o, dt, 3, shape);
		copy_case(_metadata, dt, &x, &o);
	}
}

TEST(strided_copy_expand_size1_empty_rank0)
{
	s64 shape[3] = { 4, 1, 6 }, empty[3] = { 4, 0, 6 }, one[1] = { 1 };
	struct ot_tensor x, o;

	/* Broadcast view: stride 0 repeats. */
	ot_make(&x, DRM_VNPU_DTYPE_INT32, 3, shape);
	x.v.strides[0] = 0;
	ot_make(&o, DRM_VNPU_DTYPE_INT32, 3, shape);
	copy_case(_metadata, 0, &x, &o);
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, empty);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, empty);
	copy_case(_metadata, 0, &x, &o);
	ot_make(&x, DRM_VNPU_DTYPE_INT64, 0, one);
	ot_make(&o, DRM_VNPU_DTYPE_INT64, 0, one);
	copy_case(_metadata, 0, &x, &o);
}

TEST(strided_copy_spans_tiles)
{
	s64 shape[2] = { 3, VNPU_OPS_TILE_ELEMS + 5 };
	u32 perm[2] = { 1, 0 };
	struct ot_tensor x, o;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT16, 2, shape);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT16, 2, shape);
	copy_case(_metadata, 1, &x, &o);
	make_perm(&x, DRM_VNPU_DTYPE_UINT8, 2, shape, perm);
	ot_make(&o, DRM_VNPU_DTYPE_UINT8, 2, shape);
	copy_case(_metadata, 1, &x, &o);
}

TEST(strided_copy_rejects)
{
	s64 s1[2] = { 2, 3 }, s2[2] = { 3, 2 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, s1);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, s2);
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_STRIDED_COPY, ts, 1, 1, NULL, 0));
	o.v.shape[0] = 2;
	o.v.shape[1] = 3;
	o.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_STRIDED_COPY, ts, 1, 1, NULL, 0));
	o.v.dtype = 77;
	x.v.dtype = 77;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_STRIDED_COPY, ts, 1, 1, NULL, 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	x.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_STRIDED_COPY, ts, 2, 0, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

/* ----------------------------------------------------- concat, split -- */

struct joint_ref {
	struct ot_tensor **parts;
	u32 n;
	u32 axis;
};

static u64 want_joint(const s64 *idx, const struct joint_ref *r)
{
	s64 sub[VNPU_OPS_MAX_RANK];
	s64 at = idx[r->axis];
	u32 k;

	memcpy(sub, idx, sizeof(sub));
	for (k = 0; k < r->n; k++) {
		if (at < r->parts[k]->v.shape[r->axis]) {
			sub[r->axis] = at;
			return raw(r->parts[k], sub);
		}
		at -= r->parts[k]->v.shape[r->axis];
	}
	return ~0ULL;
}

static void joint_case(struct __test_metadata *_metadata, u32 dtype,
		       u32 rank, const s64 *shape, s64 axis,
		       const s64 *sizes, u32 n, bool noncontig)
{
	struct ot_tensor parts[4], big;
	struct ot_tensor *ts[5], *pp[4];
	struct drm_vnpu_op_attrs a;
	struct joint_ref r;
	u32 ax = axis < 0 ? axis + rank : axis, k, perm[4] = { 3, 2, 1, 0 };
	s64 s[VNPU_OPS_MAX_RANK];

	for (k = 0; k < n; k++) {
		memcpy(s, shape, rank * sizeof(s64));
		s[ax] = sizes[k];
		if (noncontig && k == 1)
			make_perm(&parts[k], dtype, rank, s, perm + 4 - rank);
		else
			ot_make(&parts[k], dtype, rank, s);
		ot_fill(&parts[k], 11 + k, -100, 100);
		pp[k] = &parts[k];
	}
	memcpy(s, shape, rank * sizeof(s64));
	s[ax] = 0;
	for (k = 0; k < n; k++)
		s[ax] += sizes[k];
	if (noncontig)
		make_padded(&big, dtype, rank, s, 3);
	else
		ot_make(&big, dtype, rank, s);
	r.parts = pp;
	r.n = n;
	r.axis = ax;
	/* concat */
	for (k = 0; k < n; k++)
		ts[k] = &parts[k];
	ts[n] = &big;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CONCAT, ts, n, 1, attrs_axis(&a, axis), 0));
	EXPECT_SAME(&big, want_joint, &r);
	/* split it back into cleared parts */
	ts[0] = &big;
	for (k = 0; k < n; k++) {
		memset(parts[k].buf, 0xa5, parts[k].bytes);
		ts[1 + k] = &parts[k];
	}
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SPLIT, ts, 1, n, attrs_axis(&a, axis), 0));
	EXPECT_SAME(&big, want_joint, &r);
	for (k = 0; k < n; k++)
		ot_free(&parts[k]);
	ot_free(&big);
}

TEST(concat_split)
{
	s64 shape[3] = { 4, 5, 6 }, sizes[3] = { 2, 0, 3 }, sizes2[3] = { 1, 4, 2 };
	s64 big[2] = { 2, 1 }, bsizes[2] = { VNPU_OPS_TILE_ELEMS + 3, 7 };
	unsigned int i;

	for (i = 0; i < NDT; i++)
		joint_case(_metadata, all_dtypes[i], 3, shape, 1, sizes, 3, false);
	joint_case(_metadata, DRM_VNPU_DTYPE_FLOAT, 3, shape, -1, sizes2, 3, true);
	joint_case(_metadata, DRM_VNPU_DTYPE_INT64, 3, shape, 0, sizes2, 3, true);
	joint_case(_metadata, DRM_VNPU_DTYPE_INT8, 3, shape, 2, sizes2, 1, false);
	joint_case(_metadata, DRM_VNPU_DTYPE_INT32, 2, big, 1, bsizes, 2, false);
}

TEST(concat_split_rejects)
{
	s64 s1[2] = { 2, 3 }, s2[2] = { 3, 3 }, s3[2] = { 5, 3 }, s4[2] = { 5, 4 };
	struct ot_tensor a, b, o;
	struct ot_tensor *ts[3] = { &a, &b, &o }, *tsp[3] = { &o, &a, &b };
	struct drm_vnpu_op_attrs at;

	ot_make(&a, DRM_VNPU_DTYPE_FLOAT, 2, s1);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 2, s2);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, s3);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_CONCAT, ts, 2, 1, attrs_axis(&at, 0), 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SPLIT, tsp, 1, 2, attrs_axis(&at, -2), 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_CONCAT, ts, 2, 1, attrs_axis(&at, 1), 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_CONCAT, ts, 2, 1, attrs_axis(&at, 2), 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_CONCAT, ts, 2, 1, attrs_axis(&at, -3), 0));
	o.v.shape[1] = 4;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_CONCAT, ts, 2, 1, attrs_axis(&at, 0), 0));
	o.v.shape[1] = 3;
	o.v.shape[0] = 6;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_SPLIT, tsp, 1, 2, attrs_axis(&at, 0), 0));
	o.v.shape[0] = 5;
	b.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_CONCAT, ts, 2, 1, attrs_axis(&at, 0), 0));
	(void)s4;
	ot_free(&a);
	ot_free(&b);
	ot_free(&o);
}

/* -------------------------------------------------------------- slice -- */

struct slice_ref {
	const struct ot_tensor *x;
	const struct drm_vnpu_op_attrs *a;
};

static u64 want_slice(const s64 *idx, const struct slice_ref *r)
{
	s64 src[VNPU_OPS_MAX_RANK];
	u32 d;

	for (d = 0; d < r->x->v.rank; d++)
		src[d] = r->a->ints[d] + idx[d] * r->a->ints[8 + d];
	return raw(r->x, src);
}

TEST(slice)
{
	s64 xs[3] = { 6, 9, 10 }, os[3] = { 2, 3, 4 };
	u32 perm[3] = { 1, 2, 0 };
	struct drm_vnpu_op_attrs a = { 0 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct slice_ref r = { &x, &a };
	unsigned int i;

	a.ints[0] = 1;
	a.ints[1] = 2;
	a.ints[2] = 0;
	a.ints[8] = 4;		/* 1, 5 */
	a.ints[9] = 3;		/* 2, 5, 8 */
	a.ints[10] = 3;		/* 0, 3, 6, 9 */
	for (i = 0; i < NDT; i++) {
		make_perm(&x, all_dtypes[i], 3, xs, perm);
		ot_fill(&x, 3, -50, 50);
		make_padded(&o, all_dtypes[i], 3, os, 1);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
		EXPECT_SAME(&o, want_slice, &r);
		ot_free(&x);
		ot_free(&o);
	}
	/* Out of range: last row 1 + 1 * 4 = 5 is fine, 2 + 2 * 4 = 10 is not. */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	a.ints[8] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[8] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[8] = 4;
	a.ints[1] = -1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[1] = 2;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	/* Empty output: start may equal the size. */
	o.v.shape[1] = 0;
	a.ints[1] = 9;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	a.ints[1] = 10;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, &a, 0));
	/* Without attributes: a plain copy of the leading corner. */
	o.v.shape[1] = 3;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SLICE, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

/* ------------------------------------------ gather and index select -- */

struct gather_ref {
	const struct ot_tensor *x, *ix;
	u32 axis;
};

static u64 want_gather(const s64 *idx, const struct gather_ref *r)
{
	s64 src[VNPU_OPS_MAX_RANK];
	s64 n = r->x->v.shape[r->axis], i = ival(r->ix, idx);

	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return 0;
	memcpy(src, idx, sizeof(src));
	src[r->axis] = i;
	return raw(r->x, src);
}

static void fill_index(struct ot_tensor *ix, u64 seed, s64 n)
{
	/* Mostly in range, some negative, some out of range both ways. */
	ot_fill(ix, seed, -n - 2, n + 2);
}

TEST(gather)
{
	s64 xs[3] = { 5, 6, 7 }, is[3] = { 4, 6, 3 };
	u32 perm[3] = { 2, 1, 0 };
	struct drm_vnpu_op_attrs a;
	struct ot_tensor x, ix, o;
	struct ot_tensor *ts[3] = { &x, &ix, &o };
	struct gather_ref r = { &x, &ix, 0 };
	unsigned int i;
	u32 ax;

	for (i = 0; i < NDT; i++) {
		for (ax = 0; ax < 3; ax++) {
			s64 ishape[3];

			memcpy(ishape, is, sizeof(ishape));
			ishape[ax] = 9;		/* any length along the axis */
			make_perm(&x, all_dtypes[i], 3, xs, perm);
			ot_fill(&x, 5, -100, 100);
			ot_make(&ix, i & 1 ? DRM_VNPU_DTYPE_INT32 :
				DRM_VNPU_DTYPE_INT64, 3, ishape);
			fill_index(&ix, 6 + ax, xs[ax]);
			make_padded(&o, all_dtypes[i], 3, ishape, 2);
			memset(o.buf, 0x5a, o.bytes);
			r.axis = ax;
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1,
					    attrs_axis(&a, ax == 2 ? -1 : (s64)ax), 0))
				TH_LOG("dtype %u axis %u", all_dtypes[i], ax);
			EXPECT_SAME(&o, want_gather, &r);
			ot_free(&x);
			ot_free(&ix);
			ot_free(&o);
		}
	}
}

TEST(gather_rejects)
{
	s64 xs[2] = { 3, 4 }, is[2] = { 2, 5 };
	struct drm_vnpu_op_attrs a;
	struct ot_tensor x, ix, o;
	struct ot_tensor *ts[3] = { &x, &ix, &o };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 2, is);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, is);
	/* index wider than x outside the axis */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1, attrs_axis(&a, 0), 0));
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1, attrs_axis(&a, 1), 0));
	ix.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1, attrs_axis(&a, 1), 0));
	ix.v.dtype = DRM_VNPU_DTYPE_INT32;
	o.v.dtype = DRM_VNPU_DTYPE_INT32;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1, attrs_axis(&a, 1), 0));
	o.v.dtype = DRM_VNPU_DTYPE_FLOAT;
	o.v.shape[1] = 4;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1, attrs_axis(&a, 1), 0));
	o.v.shape[1] = 5;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GATHER, ts, 2, 1, attrs_axis(&a, 2), 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&o);
}

static u64 want_index_select(const s64 *idx, const struct gather_ref *r)
{
	s64 src[VNPU_OPS_MAX_RANK], k = idx[r->axis];
	s64 n = r->x->v.shape[r->axis], i = ival(r->ix, &k);

	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return 0;
	memcpy(src, idx, sizeof(src));
	src[r->axis] = i;
	return raw(r->x, src);
}

TEST(index_select)
{
	s64 xs[3] = { 5, 6, 7 }, il[1] = { 11 };
	u32 perm[3] = { 1, 2, 0 };
	struct drm_vnpu_op_attrs a;
	struct ot_tensor x, ix, o;
	struct ot_tensor *ts[3] = { &x, &ix, &o };
	struct gather_ref r = { &x, &ix, 0 };
	unsigned int i;
	u32 ax;

	for (i = 0; i < NDT; i++) {
		for (ax = 0; ax < 3; ax++) {
			s64 os[3];

			memcpy(os, xs, sizeof(os));
			os[ax] = il[0];
			make_perm(&x, all_dtypes[i], 3, xs, perm);
			ot_fill(&x, 8, -100, 100);
			ot_make(&ix, i & 1 ? DRM_VNPU_DTYPE_INT64 :
				DRM_VNPU_DTYPE_INT32, 1, il);
			ix.v.strides[0] = 1;
			fill_index(&ix, 9 + ax, xs[ax]);
			make_padded(&o, all_dtypes[i], 3, os, 1);
			memset(o.buf, 0x5a, o.bytes);
			r.axis = ax;
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_INDEX_SELECT, ts, 2, 1,
					    attrs_axis(&a, ax), 0));
			EXPECT_SAME(&o, want_index_select, &r);
			ot_free(&x);
			ot_free(&ix);
			ot_free(&o);
		}
	}
	/* rejects: 2-D index, wrong length */
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT32, 1, il);
	xs[0] = 11;
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	o.v.shape[0] = 10;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_INDEX_SELECT, ts, 2, 1, attrs_axis(&a, 0), 0));
	o.v.shape[0] = 11;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_INDEX_SELECT, ts, 2, 1, attrs_axis(&a, 0), 0));
	ix.v.rank = 2;
	ix.v.shape[1] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_INDEX_SELECT, ts, 2, 1, attrs_axis(&a, 0), 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&o);
}

/* ------------------------------------------------------------ scatter -- */

/* Reference: copy, then every index element in row-major order. */
static void scatter_ref(struct ot_tensor *ref, const struct ot_tensor *x,
			const struct ot_tensor *ix, const struct ot_tensor *src,
			u32 axis)
{
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };
	u64 n = vnpu_tview_elems(&ix->v), k;
	u32 es = vnpu_dtype_size(x->v.dtype);

	memset(idx, 0, sizeof(idx));
	do {
		s64 v = raw(x, idx);

		memcpy((u8 *)ref->v.data + off_of(&ref->v, idx) * es, &v, es);
	} while (vnpu_tview_elems(&x->v) && next_idx(idx, x->v.shape, x->v.rank));
	memset(idx, 0, sizeof(idx));
	for (k = 0; k < n; k++) {
		s64 dst[VNPU_OPS_MAX_RANK], sz = x->v.shape[axis], i = ival(ix, idx);
		u64 v = raw(src, idx);

		if (i < 0)
			i += sz;
		if (i >= 0 && i < sz) {
			memcpy(dst, idx, sizeof(dst));
			dst[axis] = i;
			memcpy((u8 *)ref->v.data + off_of(&ref->v, dst) * es, &v, es);
		}
		next_idx(idx, ix->v.shape, ix->v.rank);
	}
}

static u64 want_ref(const s64 *idx, const struct ot_tensor *ref)
{
	return raw(ref, idx);
}

static void scatter_case(struct __test_metadata *_metadata, u32 dtype,
			 u32 rank, const s64 *xs, const s64 *is,
			 const s64 *ss, s64 axis, s64 lo, s64 hi)
{
	struct ot_tensor x, ix, src, o, ref;
	struct ot_tensor *ts[4] = { &x, &ix, &src, &o };
	struct drm_vnpu_op_attrs a;
	u32 perm[3] = { 2, 0, 1 };

	if (rank == 3)
		make_perm(&x, dtype, rank, xs, perm);
	else
		ot_make(&x, dtype, rank, xs);
	ot_fill(&x, 21, -100, 100);
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, rank, is);
	ot_fill(&ix, 22, lo, hi);
	make_padded(&src, dtype, rank, ss, 2);
	ot_fill(&src, 23, -100, 100);
	make_padded(&o, dtype, rank, xs, 1);
	ot_make(&ref, dtype, rank, xs);
	scatter_ref(&ref, &x, &ix, &src, axis < 0 ? axis + rank : axis);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, attrs_axis(&a, axis), 0));
	EXPECT_SAME(&o, want_ref, &ref);
	ot_free(&x);
	ot_free(&ix);
	ot_free(&src);
	ot_free(&o);
	ot_free(&ref);
}

TEST(scatter)
{
	s64 xs[3] = { 5, 6, 4 }, is[3] = { 7, 3, 4 }, ss[3] = { 8, 6, 5 };
	s64 is1[3] = { 2, 6, 4 }, is2[3] = { 5, 2, 9 }, ss2[3] = { 5, 2, 9 };
	s64 bx[2] = { 3, 2 * VNPU_OPS_TILE_ELEMS }, bi[2] = { 3, 1000 };
	unsigned int i;

	for (i = 0; i < NDT; i++) {
		/* Many collisions (7 writes into 5 rows), negatives, out of range. */
		scatter_case(_metadata, all_dtypes[i], 3, xs, is, ss, 0, -7, 7);
		scatter_case(_metadata, all_dtypes[i], 3, xs, is1, ss, 1, -8, 8);
		scatter_case(_metadata, all_dtypes[i], 3, xs, is2, ss2, -1, -5, 5);
	}
	/* Long fibers: one piece per fiber. */
	scatter_case(_metadata, DRM_VNPU_DTYPE_FLOAT, 2, bx, bi, bi, 1, -10, 5000);
	/* Many short fibers: many pieces. */
	bx[0] = 2 * VNPU_OPS_TILE_ELEMS;
	bx[1] = 3;
	bi[0] = VNPU_OPS_TILE_ELEMS + 1;
	bi[1] = 3;
	scatter_case(_metadata, DRM_VNPU_DTYPE_INT32, 2, bx, bi, bi, 1, -3, 3);
}

TEST(scatter_rejects)
{
	s64 xs[2] = { 4, 5 }, is[2] = { 6, 5 }, ss[2] = { 6, 4 };
	struct ot_tensor x, ix, src, o;
	struct ot_tensor *ts[4] = { &x, &ix, &src, &o };
	struct drm_vnpu_op_attrs a;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	ot_make(&ix, DRM_VNPU_DTYPE_INT32, 2, is);
	ot_make(&src, DRM_VNPU_DTYPE_FLOAT, 2, ss);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	/* src narrower than index */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, attrs_axis(&a, 0), 0));
	src.v.shape[1] = 5;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, attrs_axis(&a, 0), 0));
	/* index taller than x outside the axis */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, attrs_axis(&a, 1), 0));
	o.v.shape[0] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, attrs_axis(&a, 0), 0));
	o.v.shape[0] = 4;
	ix.v.dtype = DRM_VNPU_DTYPE_UINT8;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_SCATTER, ts, 3, 1, attrs_axis(&a, 0), 0));
	ot_free(&x);
	ot_free(&ix);
	ot_free(&src);
	ot_free(&o);
}

/* -------------------------------------------------------------- where -- */

struct where_ref {
	const struct ot_tensor *c, *a, *b;
};

static u64 bcast_raw(const struct ot_tensor *t, const s64 *idx, u32 rank)
{
	s64 sub[VNPU_OPS_MAX_RANK];
	u32 lead = rank - t->v.rank, d;

	for (d = 0; d < t->v.rank; d++)
		sub[d] = t->v.shape[d] == 1 ? 0 : idx[lead + d];
	return raw(t, sub);
}

static u64 want_where(const s64 *idx, const struct where_ref *r)
{
	return bcast_raw(r->c, idx, 3) ? bcast_raw(r->a, idx, 3) :
	       bcast_raw(r->b, idx, 3);
}

TEST(where)
{
	s64 cs[3] = { 4, 1, 6 }, as[2] = { 5, 1 }, bs[3] = { 4, 5, 6 };
	s64 os[3] = { 4, 5, 6 };
	u32 perm[3] = { 2, 1, 0 };
	struct ot_tensor c, a, b, o;
	struct ot_tensor *ts[4] = { &c, &a, &b, &o };
	struct where_ref r = { &c, &a, &b };
	unsigned int i;

	for (i = 0; i < NDT; i++) {
		u32 dt = all_dtypes[i];

		ot_make(&c, DRM_VNPU_DTYPE_BOOL, 3, cs);
		ot_fill(&c, 31, -1, 1);
		ot_make(&a, dt, 2, as);
		ot_fill(&a, 32, -100, 100);
		make_perm(&b, dt, 3, bs, perm);
		ot_fill(&b, 33, -100, 100);
		make_padded(&o, dt, 3, os, 3);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_WHERE, ts, 3, 1, NULL, 0));
		EXPECT_SAME(&o, want_where, &r);
		c.v.dtype = DRM_VNPU_DTYPE_UINT8;
		EXPECT_EQ(-VNPU_OPS_EINVAL,
			  ot_run(DRM_VNPU_OP_WHERE, ts, 3, 1, NULL, 0));
		c.v.dtype = DRM_VNPU_DTYPE_BOOL;
		a.v.shape[0] = 3;
		EXPECT_EQ(-VNPU_OPS_EINVAL,
			  ot_run(DRM_VNPU_OP_WHERE, ts, 3, 1, NULL, 0));
		ot_free(&c);
		ot_free(&a);
		ot_free(&b);
		ot_free(&o);
	}
}

/* ---------------------------------------------------------------- pad -- */

struct pad_ref {
	const struct ot_tensor *x;
	const struct drm_vnpu_op_attrs *a;
	u64 value;
};

static u64 want_pad(const s64 *idx, const struct pad_ref *r)
{
	s64 src[VNPU_OPS_MAX_RANK];
	u32 d;

	for (d = 0; d < r->x->v.rank; d++) {
		s64 n = r->x->v.shape[d], j = idx[d] - r->a->ints[2 * d];

		if (j < 0 || j >= n) {
			switch (r->a->ints[16]) {
			case 0:
				return r->value;
			case 1:
				j = j < 0 ? -j : 2 * (n - 1) - j;
				break;
			default:
				j = j < 0 ? 0 : n - 1;
				break;
			}
		}
		src[d] = j;
	}
	return raw(r->x, src);
}

TEST(pad)
{
	s64 xs[3] = { 3, 4, 5 }, os[3];
	u32 perm[3] = { 1, 0, 2 };
	struct drm_vnpu_op_attrs a = { 0 };
	struct ot_tensor x, o, one;
	struct ot_tensor *ts[2] = { &x, &o };
	struct pad_ref r = { &x, &a, 0 };
	s64 s1 = 1;
	unsigned int i, mode;

	a.ints[0] = 1;
	a.ints[1] = 2;
	a.ints[2] = 0;
	a.ints[3] = 3;
	a.ints[4] = 4;
	a.ints[5] = 2;
	a.floats[0] = fbits(-2.5f);
	for (i = 0; i < 3; i++)
		os[i] = xs[i] + a.ints[2 * i] + a.ints[2 * i + 1];
	for (mode = 0; mode < 3; mode++) {
		a.ints[16] = mode;
		for (i = 0; i < NDT; i++) {
			u32 dt = all_dtypes[i];

			make_perm(&x, dt, 3, xs, perm);
			ot_fill(&x, 41, -100, 100);
			make_padded(&o, dt, 3, os, 2);
			ot_make(&one, dt, 1, &s1);
			vnpu_store_f64(one.buf, dt, 0, -2.5);
			r.value = raw_off(&one.v, 0);
			ot_free(&one);
			/* reflect needs pad < dim: 4 before on a dim of 5 is ok */
			ASSERT_EQ(0, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
			EXPECT_SAME(&o, want_pad, &r);
			ot_free(&x);
			ot_free(&o);
		}
	}
	/* rejects */
	a.ints[3] = 4;		/* reflect: pad 4 on a dim of 4 */
	os[1] = 8;
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	a.ints[16] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	a.ints[16] = 2;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	a.ints[16] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	a.ints[16] = 0;
	o.v.shape[1] = 7;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	a.ints[3] = -1;
	o.v.shape[1] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	ot_free(&x);
	ot_free(&o);
	/* constant pad of an empty dim; edge of an empty dim is rejected */
	xs[1] = 0;
	memset(&a, 0, sizeof(a));
	a.ints[2] = 1;
	a.ints[3] = 1;
	a.floats[0] = fbits(7.0f);
	os[0] = 3;
	os[1] = 2;
	os[2] = 5;
	ot_make(&x, DRM_VNPU_DTYPE_INT32, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_INT32, 3, os);
	r.value = 7;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	EXPECT_SAME(&o, want_pad, &r);
	a.ints[16] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_PAD, ts, 1, 1, &a, 0));
	ot_free(&x);
	ot_free(&o);
}

/* --------------------------------------------------------------- tile -- */

static u64 want_tile(const s64 *idx, const struct ot_tensor *x)
{
	s64 src[VNPU_OPS_MAX_RANK];
	u32 d;

	for (d = 0; d < x->v.rank; d++)
		src[d] = idx[d] % x->v.shape[d];
	return raw(x, src);
}

TEST(tile)
{
	s64 xs[3] = { 2, 3, 4 }, os[3] = { 4, 3, 14 };
	u32 perm[3] = { 2, 0, 1 };
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	unsigned int i;

	os[2] = 12;
	for (i = 0; i < NDT; i++) {
		make_perm(&x, all_dtypes[i], 3, xs, perm);
		ot_fill(&x, 51, -100, 100);
		make_padded(&o, all_dtypes[i], 3, os, 1);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_TILE, ts, 1, 1, NULL, 0));
		EXPECT_SAME(&o, want_tile, &x);
		ot_free(&x);
		ot_free(&o);
	}
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	o.v.shape[2] = 14;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TILE, ts, 1, 1, NULL, 0));
	o.v.shape[2] = 0;	/* zero repeats */
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_TILE, ts, 1, 1, NULL, 0));
	o.v.shape[2] = 4;
	x.v.shape[2] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_TILE, ts, 1, 1, NULL, 0));
	o.v.shape[2] = 0;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_TILE, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

/* ------------------------------------------------------------ one-hot -- */

struct one_hot_ref {
	const struct ot_tensor *ix;
	u64 on, off;
};

static u64 want_one_hot(const s64 *idx, const struct one_hot_ref *r)
{
	s64 depth = 7, i = ival(r->ix, idx);

	if (i < 0)
		i += depth;
	return i == idx[r->ix->v.rank] ? r->on : r->off;
}

TEST(one_hot)
{
	s64 is[2] = { 5, 6 }, os[3] = { 5, 6, 7 }, s1 = 1;
	struct drm_vnpu_op_attrs a = { 0 };
	struct ot_tensor ix, o, one;
	struct ot_tensor *ts[2] = { &ix, &o };
	struct one_hot_ref r = { &ix, 0, 0 };
	unsigned int i;

	a.floats[0] = fbits(3.0f);
	a.floats[1] = fbits(-1.0f);
	for (i = 0; i < NDT; i++) {
		u32 dt = all_dtypes[i];

		ot_make(&ix, i & 1 ? DRM_VNPU_DTYPE_INT32 : DRM_VNPU_DTYPE_INT64,
			2, is);
		fill_index(&ix, 61, 7);
		make_padded(&o, dt, 3, os, 2);
		ot_make(&one, dt, 1, &s1);
		vnpu_store_f64(one.buf, dt, 0, 3.0);
		r.on = raw_off(&one.v, 0);
		vnpu_store_f64(one.buf, dt, 0, -1.0);
		r.off = raw_off(&one.v, 0);
		ot_free(&one);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 1, 1, &a, 0));
		EXPECT_SAME(&o, want_one_hot, &r);
		ot_free(&ix);
		ot_free(&o);
	}
	/* defaults 1 / 0; rank-0 index */
	ot_make(&ix, DRM_VNPU_DTYPE_INT64, 0, is);
	((s64 *)ix.buf)[0] = -2;
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 1, os + 2);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 1, 1, NULL, 0));
	for (i = 0; i < 7; i++)
		EXPECT_EQ(i == 5 ? 1.0f : 0.0f, ((float *)o.buf)[i]);
	o.v.rank = 2;
	o.v.shape[1] = 7;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_ONE_HOT, ts, 1, 1, NULL, 0));
	ot_free(&ix);
	ot_free(&o);
}

/* ----------------------------------------------------- arange, fill -- */

TEST(arange_fill)
{
	s64 s[2] = { 3, VNPU_OPS_TILE_ELEMS / 2 + 3 }, n;
	struct drm_vnpu_op_attrs a = { 0 };
	struct ot_tensor o;
	struct ot_tensor *ts[1] = { &o };
	unsigned int i;
	s64 k;

	n = s[0] * s[1];
	for (i = 0; i < NDT; i++) {
		u32 dt = all_dtypes[i];

		make_padded(&o, dt, 2, s, 1);
		a.floats[0] = fbits(-3.5f);
		a.floats[1] = fbits(0.25f);
		a.ints[0] = -1000;
		a.ints[1] = 3;
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ARANGE, ts, 0, 1, &a, 0));
		for (k = 0; k < n; k++) {
			s64 idx[2] = { k / s[1], k % s[1] };
			double got = ot_get(&o, idx), want;

			if (vnpu_dtype_is_float(dt)) {
				struct ot_tensor one;
				s64 s1 = 1;

				ot_make(&one, dt, 1, &s1);
				vnpu_store_f64(one.buf, dt, 0, -3.5 + 0.25 * k);
				want = vnpu_load_f64(one.buf, dt, 0);
				ot_free(&one);
			} else {
				struct ot_tensor one;
				s64 s1 = 1;

				ot_make(&one, dt, 1, &s1);
				vnpu_store_s64(one.buf, dt, 0, -1000 + 3 * k);
				want = vnpu_load_f64(one.buf, dt, 0);
				ot_free(&one);
			}
			ASSERT_EQ(want, got) TH_LOG("arange dtype %u at %lld", dt,
						    (long long)k);
		}
		a.floats[0] = fbits(2.75f);
		a.ints[0] = -7;
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_FILL, ts, 0, 1, &a, 0));
		for (k = 0; k < n; k++) {
			s64 idx[2] = { k / s[1], k % s[1] };
			double want = vnpu_dtype_is_float(dt) ? 2.75 :
				      dt == DRM_VNPU_DTYPE_BOOL ? 1 :
				      dt == DRM_VNPU_DTYPE_UINT8 ? 249 : -7;

			ASSERT_EQ(want, ot_get(&o, idx));
		}
		/* The padding columns stay untouched. */
		EXPECT_EQ(0, raw_off(&o.v, s[1]));
		ot_free(&o);
	}
	/* int64 arange keeps full precision; defaults start 0 step 1 */
	s[0] = 1;
	s[1] = 10;
	ot_make(&o, DRM_VNPU_DTYPE_INT64, 2, s);
	a.ints[0] = (1LL << 60) + 1;
	a.ints[1] = -(1LL << 58);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ARANGE, ts, 0, 1, &a, 0));
	for (k = 0; k < 10; k++)
		EXPECT_EQ((1LL << 60) + 1 - k * (1LL << 58), ((s64 *)o.buf)[k]);
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ARANGE, ts, 0, 1, NULL, 0));
	for (k = 0; k < 10; k++)
		EXPECT_EQ(k, ((s64 *)o.buf)[k]);
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_FILL, ts, 1, 0, NULL, 0));
	ot_free(&o);
}

TEST(empty_outputs_have_no_tiles)
{
	s64 s[2] = { 0, 5 };
	struct ot_tensor o;
	struct vnpu_op_call c = { 0 };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_FILL);

	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, s);
	c.op = DRM_VNPU_OP_FILL;
	c.num_out = 1;
	c.t[0] = o.v;
	ASSERT_NE(NULL, impl);
	EXPECT_EQ(0, vnpu_op_check(impl, &c));
	EXPECT_EQ(0, impl->tiles(&c));
	ot_free(&o);
}

TEST_HARNESS_MAIN
