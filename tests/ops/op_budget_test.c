// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the piece budget (VNPU_OPS_PIECE_WORK): for every family
 * whose smallest piece grows with a row, a window, a depth or a fiber,
 * a call just within the bound is accepted (and computed where that is
 * quick) and one just over it is rejected. Views with zero strides make
 * huge calls out of a few bytes, as a KERNEL task can.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

#define W	((s64)VNPU_OPS_PIECE_WORK)
/* Deepest GEMM: the smallest block is padded to 14 x 32. */
#define MAX_K	(W / (14 * 32))

/* A view of @rank dims over @buf, every stride 0 unless given. */
static struct vnpu_tview bview(void *buf, u32 dtype, u32 rank,
			       const s64 *shape, const s64 *strides)
{
	struct vnpu_tview v;
	u32 d;

	memset(&v, 0, sizeof(v));
	v.data = buf;
	v.dtype = dtype;
	v.rank = rank;
	for (d = 0; d < rank; d++) {
		v.shape[d] = shape[d];
		v.strides[d] = strides ? strides[d] : 0;
	}
	return v;
}

/* A call of @op over @nin inputs then outputs; @attrs may be NULL. */
static struct vnpu_op_call *bcall(u32 op, const struct vnpu_tview *ts,
				  u32 nin, u32 nout,
				  const struct drm_vnpu_op_attrs *attrs)
{
	static void *scratch;
	struct vnpu_op_call *c = calloc(1, sizeof(*c));
	u32 k;

	if (!scratch)
		scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	c->op = op;
	c->num_in = nin;
	c->num_out = nout;
	c->cpu = vnpu_ops_host_cpu();
	c->scratch = scratch;
	if (attrs) {
		c->has_attrs = 1;
		c->attrs = *attrs;
	}
	for (k = 0; k < nin + nout; k++)
		c->t[k] = ts[k];
	return c;
}

/* check() only. */
static int bcheck(u32 op, const struct vnpu_tview *ts, u32 nin, u32 nout,
		  const struct drm_vnpu_op_attrs *attrs)
{
	struct vnpu_op_call *c = bcall(op, ts, nin, nout, attrs);
	int ret = vnpu_op_check(vnpu_op_find(op), c);

	free(c);
	return ret;
}

/* check(), then every piece, as the module runs them. */
static int brun(u32 op, const struct vnpu_tview *ts, u32 nin, u32 nout,
		const struct drm_vnpu_op_attrs *attrs)
{
	struct vnpu_op_call *c = bcall(op, ts, nin, nout, attrs);
	const struct vnpu_op_impl *impl = vnpu_op_find(op);
	int ret = vnpu_op_check(impl, c);
	u64 i, n;

	if (!ret)
		for (i = 0, n = impl->tiles(c); i < n; i++)
			impl->run(c, i);
	free(c);
	return ret;
}

/* Pieces of a call that check() accepts. */
static u64 btiles(u32 op, const struct vnpu_tview *ts, u32 nin, u32 nout,
		  const struct drm_vnpu_op_attrs *attrs)
{
	struct vnpu_op_call *c = bcall(op, ts, nin, nout, attrs);
	u64 n = vnpu_op_find(op)->tiles(c);

	free(c);
	return n;
}

static float one = 1.0f, two = 2.0f;
static float out[64];
static s64 iout[64];
static s64 zero_idx;

TEST(budget_reduce_row)
{
	static const u32 ops[] = {
		DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_OP_REDUCE_MEAN,
		DRM_VNPU_OP_REDUCE_MAX, DRM_VNPU_OP_REDUCE_MIN,
		DRM_VNPU_OP_REDUCE_PROD, DRM_VNPU_OP_ARGMAX, DRM_VNPU_OP_ARGMIN,
	};
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_tview ts[2];
	s64 n = W, shp[2], big[8];
	u32 i, d;

	/* A whole row of 2^26 stride-0 elements: accepted and right. */
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 0, NULL, NULL);
	out[0] = 0;
	ASSERT_EQ(0, brun(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, NULL));
	EXPECT_EQ((float)W, out[0]);
	ts[1] = bview(iout, DRM_VNPU_DTYPE_INT64, 0, NULL, NULL);
	iout[0] = -1;
	ASSERT_EQ(0, brun(DRM_VNPU_OP_ARGMAX, ts, 1, 1, NULL));
	EXPECT_EQ(0, iout[0]);
	/* One more element, or 2^36: refused by every reduction. */
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		bool arg = ops[i] == DRM_VNPU_OP_ARGMAX ||
			   ops[i] == DRM_VNPU_OP_ARGMIN;

		ts[1] = arg ? bview(iout, DRM_VNPU_DTYPE_INT64, 0, NULL, NULL) :
			bview(out, DRM_VNPU_DTYPE_FLOAT, 0, NULL, NULL);
		n = W;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
		EXPECT_EQ(0, bcheck(ops[i], ts, 1, 1, NULL));
		n = W + 1;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
		EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(ops[i], ts, 1, 1, NULL));
		n = 1LL << 36;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
		EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(ops[i], ts, 1, 1, NULL));
	}
	/* The row is what counts, over several reduced dims... */
	shp[0] = 1 << 13;
	shp[1] = (1 << 13) + 1;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 0, NULL, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, NULL));
	/* ... not the number of rows: reduce dim 0 (rows of 2^13). */
	at.ints[0] = 1;
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1], NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at));
	at.ints[0] = 2;
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 1, &shp[0], NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at));
	/* An empty output has no pieces, whatever the row. */
	shp[0] = 0;
	shp[1] = 1LL << 40;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 1, &shp[0], NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at));
	/* Rows whose length overflows 64 bits (no kernel bounds here). */
	for (d = 0; d < 8; d++)
		big[d] = 1LL << 40;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 8, big, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 0, NULL, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, NULL));
}

TEST(budget_norm_row)
{
	static const u32 ops[] = {
		DRM_VNPU_OP_SOFTMAX, DRM_VNPU_OP_LOG_SOFTMAX,
		DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_OP_RMS_NORM,
	};
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_tview ts[6];
	s64 shp[3], c1 = 1, s1 = 1, ostr[3];
	float *o = malloc(sizeof(float) * 4);
	u32 i;

	/* A softmax row of W / 32 stride-0 elements, into a stride-0 output. */
	shp[0] = W / 32;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, shp, NULL);
	ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 1, shp, NULL);
	o[0] = 0;
	ASSERT_EQ(0, brun(DRM_VNPU_OP_SOFTMAX, ts, 1, 1, NULL));
	EXPECT_EQ(1.0f / (float)(W / 32), o[0]);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		s64 row = i < 2 ? W / 32 : W / 4;

		/* [3, row]: along the last dim. */
		shp[0] = 3;
		shp[1] = row;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		at.ints[0] = -1;
		EXPECT_EQ(0, bcheck(ops[i], ts, 1, 1, &at));
		shp[1] = row + 1;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(ops[i], ts, 1, 1, &at));
		shp[1] = 1LL << 32;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(ops[i], ts, 1, 1, &at));
		/* Many short rows are fine: [row + 1, 3]. */
		shp[0] = row + 1;
		shp[1] = 3;
		ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 2, shp, NULL);
		EXPECT_EQ(0, bcheck(ops[i], ts, 1, 1, &at));
	}
	/* Layer norm over the last two dims: [2, 2^12, 2^12 (+1)]. */
	at.ints[0] = 1;
	shp[0] = 2;
	shp[1] = 1 << 12;
	shp[2] = 1 << 12;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_LAYER_NORM, ts, 1, 1, &at));
	shp[2] = (1 << 12) + 1;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_LAYER_NORM, ts, 1, 1, &at));
	/* Group norm: a group is cg * H; [1, 4, W / 16 (+1)]. */
	shp[0] = 1;
	shp[1] = 4;
	shp[2] = W / 16;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	at.ints[0] = 1;
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_GROUP_NORM, ts, 1, 1, &at));
	shp[2] = W / 16 + 1;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	ts[1] = bview(o, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_GROUP_NORM, ts, 1, 1, &at));
	at.ints[0] = 2;		/* two groups: half the row */
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_GROUP_NORM, ts, 1, 1, &at));
	/* Batch norm: a channel plane [1, 1, W / 4 (+1)]. */
	shp[2] = W / 4;
	shp[1] = 1;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	ts[1] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &c1, &s1);
	ts[2] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &c1, &s1);
	ostr[0] = ostr[1] = ostr[2] = 0;
	ts[3] = bview(o, DRM_VNPU_DTYPE_FLOAT, 3, shp, ostr);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_BATCH_NORM, ts, 3, 1, NULL));
	shp[2] = W / 4 + 1;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 3, shp, NULL);
	ts[3] = bview(o, DRM_VNPU_DTYPE_FLOAT, 3, shp, ostr);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_BATCH_NORM, ts, 3, 1, NULL));
	free(o);
}

/* a [m, k] @ b [k, n], stride-0 operands, output contiguous in @o. */
static void mm_views(struct vnpu_tview *ts, float *o, s64 m, s64 k, s64 n)
{
	s64 as[2] = { m, k }, bs[2] = { k, n }, os[2] = { m, n };
	s64 ost[2] = { n, 1 };

	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, as, NULL);
	ts[1] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, bs, NULL);
	ts[2] = bview(o, DRM_VNPU_DTYPE_FLOAT, 2, os, ost);
}

TEST(budget_matmul_depth)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_tview ts[4];
	float *o = calloc(1000 * 1000, sizeof(float));
	u64 cpus[3] = { 0, VNPU_CPU_AVX2_FMA, VNPU_CPU_AVX2_FMA | VNPU_CPU_AVX512 };
	u32 v;

	/* A dot product of the deepest depth, right with every kernel. */
	for (v = 0; v < 3; v++) {
		struct vnpu_op_call *c;

		if ((cpus[v] & ~vnpu_ops_host_cpu()) != 0)
			continue;
		mm_views(ts, o, 1, MAX_K, 1);
		c = bcall(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL);
		c->cpu = (u32)cpus[v];
		ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(DRM_VNPU_OP_MATMUL), c));
		o[0] = 0;
		vnpu_op_find(DRM_VNPU_OP_MATMUL)->run(c, 0);
		EXPECT_EQ((float)MAX_K, o[0]);
		free(c);
	}
	/* One deeper, or 2^30 deep, is refused whatever the shape. */
	mm_views(ts, o, 1, MAX_K + 1, 1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL));
	mm_views(ts, o, 1, 1LL << 30, 1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL));
	/* Large m and n: blocks shrink to 12 x 32 at the deepest depth. */
	mm_views(ts, o, 1000, MAX_K, 1000);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL));
	EXPECT_EQ((u64)((1000 + 11) / 12) * ((1000 + 31) / 32),
		  btiles(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL));
	mm_views(ts, o, 1000, MAX_K + 1, 1000);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL));
	/* Shallow products keep the big blocks. */
	mm_views(ts, o, 1000, 64, 1000);
	EXPECT_EQ((u64)((1000 + 255) / 256) * ((1000 + 255) / 256),
		  btiles(DRM_VNPU_OP_MATMUL, ts, 2, 1, NULL));
	/* GEMM: the same rule, with a bias. */
	mm_views(ts, o, 2, MAX_K, 3);
	ts[3] = ts[2];
	ts[2] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 0, NULL, NULL);
	at.floats[0] = 0x3f800000;	/* alpha 1 */
	at.floats[1] = 0x3f800000;	/* beta 1 */
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_GEMM, ts, 3, 1, &at));
	ts[0].shape[1] = MAX_K + 1;
	ts[1].shape[0] = MAX_K + 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_GEMM, ts, 3, 1, &at));
	free(o);
}

/* Convolution x [1, ci, 1, 1] with w [co, ci, 1, 1] (transposed: [ci, co, 1, 1]). */
static void conv_views(struct vnpu_tview *ts, u32 op, s64 ci, s64 co)
{
	s64 xs[4] = { 1, ci, 1, 1 }, ws[4] = { co, ci, 1, 1 };
	s64 os[4] = { 1, co, 1, 1 }, ost[4] = { co, 1, 1, 1 };

	if (op == DRM_VNPU_OP_CONV_TRANSPOSE2D) {
		ws[0] = ci;
		ws[1] = co;
	}
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
	ts[1] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 4, ws, NULL);
	ts[2] = bview(out, DRM_VNPU_DTYPE_FLOAT, 4, os, ost);
}

TEST(budget_conv_depth)
{
	struct vnpu_tview ts[3];

	/* GEMM path (4 or more output channels): depth cin * kh * kw. */
	conv_views(ts, DRM_VNPU_OP_CONV2D, MAX_K, 8);
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, brun(DRM_VNPU_OP_CONV2D, ts, 2, 1, NULL));
	EXPECT_EQ((float)MAX_K, out[7]);
	conv_views(ts, DRM_VNPU_OP_CONV2D, MAX_K + 1, 8);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_CONV2D, ts, 2, 1, NULL));
	/* Direct path (one output channel): a row of ow * depth taps. */
	conv_views(ts, DRM_VNPU_OP_CONV2D, W, 1);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_CONV2D, ts, 2, 1, NULL));
	conv_views(ts, DRM_VNPU_OP_CONV2D, W + 1, 1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_CONV2D, ts, 2, 1, NULL));
	/* Transposed: direct too. */
	conv_views(ts, DRM_VNPU_OP_CONV_TRANSPOSE2D, W, 2);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_CONV_TRANSPOSE2D, ts, 2, 1, NULL));
	conv_views(ts, DRM_VNPU_OP_CONV_TRANSPOSE2D, W + 1, 2);
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  bcheck(DRM_VNPU_OP_CONV_TRANSPOSE2D, ts, 2, 1, NULL));
	/* A depth whose product overflows 64 bits. */
	conv_views(ts, DRM_VNPU_OP_CONV2D, 1LL << 31, 0);
	ts[0].shape[2] = 1LL << 31;
	ts[0].shape[3] = 1LL << 31;
	ts[1].shape[2] = 1LL << 31;
	ts[1].shape[3] = 1LL << 31;
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_CONV2D, ts, 2, 1, NULL));
}

static void pool_attrs(struct drm_vnpu_op_attrs *at, s64 kh, s64 kw)
{
	memset(at, 0, sizeof(*at));
	at->ints[0] = kh;
	at->ints[1] = kw;
	at->ints[2] = 1;
	at->ints[3] = 1;
	at->ints[8] = 1;
	at->ints[9] = 1;
}

TEST(budget_pool_window)
{
	static const u32 globals[] = {
		DRM_VNPU_OP_GLOBAL_AVG_POOL, DRM_VNPU_OP_GLOBAL_MAX_POOL,
		DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D,
	};
	struct drm_vnpu_op_attrs at;
	struct vnpu_tview ts[2];
	s64 xs[4] = { 1, 1, 1 << 13, 1 << 13 }, os[4] = { 1, 1, 1, 1 };
	u32 i;

	/* A global pool over 2^26 stride-0 elements: accepted and right. */
	ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 4, os, NULL);
	out[0] = 0;
	ASSERT_EQ(0, brun(DRM_VNPU_OP_GLOBAL_AVG_POOL, ts, 1, 1, NULL));
	EXPECT_EQ(2.0f, out[0]);
	for (i = 0; i < ARRAY_SIZE(globals); i++) {
		xs[3] = 1 << 13;
		ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
		EXPECT_EQ(0, bcheck(globals[i], ts, 1, 1, NULL));
		xs[3] = (1 << 13) + 1;
		ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
		EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(globals[i], ts, 1, 1, NULL));
	}
	/* Max and average windows of 2^13 x 2^13 (+1). */
	xs[3] = 1 << 13;
	ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
	pool_attrs(&at, 1 << 13, 1 << 13);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, &at));
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_AVG_POOL2D, ts, 1, 1, &at));
	xs[3] = (1 << 13) + 1;
	ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
	pool_attrs(&at, 1 << 13, (1 << 13) + 1);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, &at));
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_AVG_POOL2D, ts, 1, 1, &at));
	/* A row of W (+1) 1 x 1 windows is one piece too. */
	xs[2] = 1;
	xs[3] = W;
	os[3] = W;
	ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 4, os, NULL);
	pool_attrs(&at, 1, 1);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, &at));
	xs[3] = W + 1;
	os[3] = W + 1;
	ts[0] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 4, xs, NULL);
	ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 4, os, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, &at));
}

TEST(budget_scatter_fiber)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_tview ts[4];
	s64 xn = W / 2, in = W / 2, xs[2] = { W, 2 }, is[2] = { W, 2 };
	float *o = calloc(4, sizeof(float));

	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &xn, NULL);
	ts[1] = bview(&zero_idx, DRM_VNPU_DTYPE_INT64, 1, &in, NULL);
	ts[2] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 1, &in, NULL);
	ts[3] = bview(o, DRM_VNPU_DTYPE_FLOAT, 1, &xn, NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_SCATTER, ts, 3, 1, &at));
	in = W / 2 + 1;
	ts[1] = bview(&zero_idx, DRM_VNPU_DTYPE_INT64, 1, &in, NULL);
	ts[2] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 1, &in, NULL);
	EXPECT_EQ(-VNPU_OPS_EINVAL, bcheck(DRM_VNPU_OP_SCATTER, ts, 3, 1, &at));
	/* Many short fibers are fine: [W, 2] along dim 1. */
	at.ints[0] = 1;
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 2, xs, NULL);
	ts[1] = bview(&zero_idx, DRM_VNPU_DTYPE_INT64, 2, is, NULL);
	ts[2] = bview(&two, DRM_VNPU_DTYPE_FLOAT, 2, is, NULL);
	ts[3] = bview(o, DRM_VNPU_DTYPE_FLOAT, 2, xs, NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_SCATTER, ts, 3, 1, &at));
	free(o);
}

/*
 * Families whose pieces are bounded by output elements already: a huge
 * stride-0 call is accepted and split into pieces of VNPU_OPS_TILE_ELEMS
 * (or fewer) output elements.
 */
TEST(budget_elementwise_pieces)
{
	static const u32 unary[] = {
		DRM_VNPU_OP_ABS, DRM_VNPU_OP_EXP, DRM_VNPU_OP_ERF,
		DRM_VNPU_OP_CAST, DRM_VNPU_OP_STRIDED_COPY, DRM_VNPU_OP_TILE,
		DRM_VNPU_OP_TAN, DRM_VNPU_OP_ASINH, DRM_VNPU_OP_ELU,
		DRM_VNPU_OP_SOFTSIGN,
	};
	struct vnpu_tview ts[3];
	s64 n = 1LL << 36, min_tiles = (n + VNPU_OPS_TILE_ELEMS - 1) /
		VNPU_OPS_TILE_ELEMS, h = 1LL << 35;
	u32 i;

	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
	ts[1] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
	ts[2] = bview(out, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_ADD, ts, 2, 1, NULL));
	EXPECT_LE((u64)min_tiles, btiles(DRM_VNPU_OP_ADD, ts, 2, 1, NULL));
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL));
	EXPECT_LE((u64)min_tiles, btiles(DRM_VNPU_OP_PRELU, ts, 2, 1, NULL));
	for (i = 0; i < ARRAY_SIZE(unary); i++) {
		ts[1] = bview(out, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
		EXPECT_EQ(0, bcheck(unary[i], ts, 1, 1, NULL));
		EXPECT_LE((u64)min_tiles, btiles(unary[i], ts, 1, 1, NULL));
	}
	/* CONCAT of two 2^35 halves: pieces per half. */
	ts[0] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &h, NULL);
	ts[1] = bview(&one, DRM_VNPU_DTYPE_FLOAT, 1, &h, NULL);
	ts[2] = bview(out, DRM_VNPU_DTYPE_FLOAT, 1, &n, NULL);
	EXPECT_EQ(0, bcheck(DRM_VNPU_OP_CONCAT, ts, 2, 1, NULL));
	EXPECT_LE((u64)min_tiles, btiles(DRM_VNPU_OP_CONCAT, ts, 2, 1, NULL));
}

TEST_HARNESS_MAIN
