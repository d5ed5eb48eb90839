// SPDX-License-Identifier: MIT
/*
 * aclnn indexing and reshaping operators (lib/nn/nn_op_index.c) on the
 * real driver against C references: Flip, OneHot, Scatter, ScatterNd,
 * Embedding, Arange, Stack, Expand, SplitTensor, SplitWithSize and the
 * reflect / replicate 2-D paddings; non-contiguous inputs and the error
 * codes of bad shapes, dtypes and arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_replication_pad2d.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

/* x [4, 3] stored transposed (a [3, 4] buffer), flipped along both dims. */
TEST_F(nn, flip_transposed)
{
	float x[12], o[12];
	int64_t sx[2] = { 4, 3 }, st[2] = { 1, 4 }, both[2] = { 0, -1 }, twice[2] = { 1, -1 };
	int64_t sbad[2] = { 3, 4 };
	aclIntArray *ab = ia(both, 2), *at = ia(twice, 2);
	aclTensor *tx, *to, *tbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i, j;

	for (i = 0; i < 12; i++)
		x[i] = frand(i);
	tx = view(sx, 2, st, 0, 12, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	to = tens(sx, 2, ACL_FLOAT, od);
	tbad = tens(sbad, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnFlipGetWorkspaceSize(tx, ab, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnFlip, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		for (j = 0; j < 3; j++)	/* x[i][j] is buffer [j][i] */
			EXPECT_EQ(x[(2 - j) * 4 + (3 - i)], o[i * 3 + j]);
	EXPECT_EQ(INV, aclnnFlipGetWorkspaceSize(tx, at, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnFlipGetWorkspaceSize(tx, ab, tbad, &ws, &ex));
	EXPECT_EQ(NUL, aclnnFlipGetWorkspaceSize(tx, NULL, to, &ws, &ex));
	aclDestroyIntArray(ab);
	aclDestroyIntArray(at);
}

/*
 * Classes at axis 0; -1 and 5 are outside 4 classes (CANN's golden is
 * TensorFlow's one_hot: a negative class is no class).
 */
TEST_F(nn, one_hot_axis)
{
	int64_t idx[6] = { 0, 3, -1, 5, 2, 1 }, si[2] = { 2, 3 }, so[3] = { 4, 2, 3 };
	int64_t s1 = 1, sbad[3] = { 5, 2, 3 };
	float on = 2.5f, off = -1.0f, o[24];
	aclTensor *ti, *ton, *toff, *to, *tbad, *tf;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int c, k;

	ti = tens(si, 2, ACL_INT64, dev(self, idx, sizeof(idx)));
	ton = tens(&s1, 1, ACL_FLOAT, dev(self, &on, sizeof(on)));
	toff = tens(&s1, 1, ACL_FLOAT, dev(self, &off, sizeof(off)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	tbad = tens(sbad, 3, ACL_FLOAT, od);
	tf = tens(si, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnOneHotGetWorkspaceSize(ti, 4, ton, toff, 0, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnOneHot, ws, ex));
	get(o, od, sizeof(o));
	for (c = 0; c < 4; c++)
		for (k = 0; k < 6; k++) {
			int64_t hot = idx[k];

			EXPECT_EQ(c == hot ? on : off, o[c * 6 + k]) TH_LOG("c %d k %d", c, k);
		}
	EXPECT_EQ(INV, aclnnOneHotGetWorkspaceSize(ti, 4, ton, toff, 0, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnOneHotGetWorkspaceSize(tf, 4, ton, toff, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnOneHotGetWorkspaceSize(ti, 4, ton, ti, 0, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnOneHotGetWorkspaceSize(ti, 4, ton, toff, 4, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnOneHotGetWorkspaceSize(ti, 4, NULL, toff, 0, to, &ws, &ex));
}

/*
 * CANN's example (math/one_hot/examples/test_aclnn_one_hot.cpp): INT32
 * self [4, 2] = {0, 1, 2, 3, 3, 2, 1, 0}, numClasses 4, on 1, off 0,
 * axis -1, out INT32 [4, 2, 4]; then the golden's (tf.one_hot) rule for
 * classes outside [0, numClasses): -1, -4 and 4 give rows of offValue,
 * and a UINT8 self (in the document's dtype list) works the same.
 */
TEST_F(nn, one_hot_cann_example)
{
	int32_t x[8] = { 0, 1, 2, 3, 3, 2, 1, 0 }, neg[8] = { -1, 1, -4, 3, 4, 2, 1, 0 };
	uint8_t xu[8] = { 0, 1, 2, 3, 3, 2, 1, 0 };
	int32_t on = 1, off = 0, o[32];
	int64_t sx[2] = { 4, 2 }, so[3] = { 4, 2, 4 }, s1 = 1;
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *tx = tens(sx, 2, ACL_INT32, dev(self, x, sizeof(x)));
	aclTensor *tn = tens(sx, 2, ACL_INT32, dev(self, neg, sizeof(neg)));
	aclTensor *tu = tens(sx, 2, ACL_UINT8, dev(self, xu, sizeof(xu)));
	aclTensor *ton = tens(&s1, 1, ACL_INT32, dev(self, &on, sizeof(on)));
	aclTensor *toff = tens(&s1, 1, ACL_INT32, dev(self, &off, sizeof(off)));
	aclTensor *to = tens(so, 3, ACL_INT32, od);
	aclTensor *src[3] = { tx, tn, tu };
	const int32_t *cls[3] = { x, neg, x };
	aclOpExecutor *ex;
	uint64_t ws;
	int t, i, c;

	for (t = 0; t < 3; t++) {
		ASSERT_EQ(0, aclnnOneHotGetWorkspaceSize(src[t], 4, ton, toff, -1, to,
							 &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnOneHot, ws, ex));
		get(o, od, sizeof(o));
		for (i = 0; i < 8; i++)
			for (c = 0; c < 4; c++)
				EXPECT_EQ(cls[t][i] == c ? 1 : 0, o[i * 4 + c])
					TH_LOG("case %d element %d class %d", t, i, c);
	}
	/* the example's first rows: [1 0 0 0], [0 1 0 0] */
	EXPECT_EQ(1, o[0]);
	EXPECT_EQ(0, o[1]);
	EXPECT_EQ(1, o[5]);
}

/* scatter_add along dim 1 with a repeated index, then ScatterNd rows. */
TEST_F(nn, scatter_and_scatter_nd)
{
	float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, src[6] = { 10, 20, 30, 40, 50, 60 }, o[8];
	int64_t idx[6] = { 1, 1, -1, 0, 3, 3 }, sx[2] = { 2, 4 }, si[2] = { 2, 3 };
	int32_t rows[2] = { 1, 0 };
	int64_t sr[2] = { 2, 1 }, su[2] = { 2, 4 };
	aclTensor *tx, *ti, *ts, *to, *tr, *tu, *tif;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int i;

	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	ti = tens(si, 2, ACL_INT64, dev(self, idx, sizeof(idx)));
	ts = tens(si, 2, ACL_FLOAT, dev(self, src, sizeof(src)));
	od = dev(self, NULL, sizeof(o));
	to = tens(sx, 2, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnScatterGetWorkspaceSize(tx, 1, ti, ts, 1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnScatter, ws, ex));
	get(o, od, sizeof(o));
	EXPECT_EQ(1.0f, o[0]);
	EXPECT_EQ(2.0f + 10 + 20, o[1]);
	EXPECT_EQ(3.0f, o[2]);
	EXPECT_EQ(4.0f + 30, o[3]);
	EXPECT_EQ(5.0f + 40, o[4]);
	EXPECT_EQ(8.0f + 50 + 60, o[7]);
	EXPECT_EQ(INV, aclnnScatterGetWorkspaceSize(tx, 1, ti, ts, 3, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnScatterGetWorkspaceSize(tx, 2, ti, ts, 0, to, &ws, &ex));
	tif = tens(si, 2, ACL_FLOAT, dev(self, src, sizeof(src)));
	EXPECT_EQ(INV, aclnnScatterGetWorkspaceSize(tx, 1, tif, ts, 0, to, &ws, &ex));

	/* rows of x replaced: updates[0] into row 1, updates[1] into row 0 */
	tr = tens(sr, 2, ACL_INT32, dev(self, rows, sizeof(rows)));
	tu = tens(su, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	ASSERT_EQ(0, aclnnScatterNdGetWorkspaceSize(tx, tr, tu, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnScatterNd, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(x[i], o[4 + i]);	/* updates were a copy of x */
		EXPECT_EQ(x[4 + i], o[i]);
	}
	/* updates of [2, 3] for rows of 4; float indices */
	EXPECT_EQ(INV, aclnnScatterNdGetWorkspaceSize(tx, tr, ts, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnScatterNdGetWorkspaceSize(tx, tu, tu, to, &ws, &ex));
}

/* weight [5, 3]; indices [2, 2] as a transposed view -> out [2, 2, 3]. */
TEST_F(nn, embedding_strided_indices)
{
	float w[15], o[12];
	int64_t idx[4] = { 4, 0, -5, 2 }, sw[2] = { 5, 3 }, si[2] = { 2, 2 }, st[2] = { 1, 2 };
	int64_t so[3] = { 2, 2, 3 }, sbad[3] = { 2, 2, 2 };
	aclTensor *tw, *ti, *to, *tbad, *tw1;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int a, b, c;

	for (a = 0; a < 15; a++)
		w[a] = frand(a);
	tw = tens(sw, 2, ACL_FLOAT, dev(self, w, sizeof(w)));
	ti = view(si, 2, st, 0, 4, ACL_INT64, dev(self, idx, sizeof(idx)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	tbad = tens(sbad, 3, ACL_FLOAT, od);
	tw1 = tens(sw, 1, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnEmbeddingGetWorkspaceSize(tw, ti, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnEmbedding, ws, ex));
	get(o, od, sizeof(o));
	for (a = 0; a < 2; a++)
		for (b = 0; b < 2; b++) {
			int64_t r = idx[b * 2 + a];	/* the transposed view */

			r = r < 0 ? r + 5 : r;
			for (c = 0; c < 3; c++)
				EXPECT_EQ(w[r * 3 + c], o[(a * 2 + b) * 3 + c]);
		}
	EXPECT_EQ(INV, aclnnEmbeddingGetWorkspaceSize(tw, ti, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnEmbeddingGetWorkspaceSize(tw1, ti, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnEmbeddingGetWorkspaceSize(tw, tw, to, &ws, &ex));
}

/* self [2, 3, 2]; pairs (i, j) as a [3, 2] view stored transposed. */
TEST_F(nn, gather_nd_pairs)
{
	float x[12], o[6];
	int32_t idx[6] = { 0, 1, -1, 2, 0, 1 };	/* pairs (0,2) (1,0) (-1,1) */
	int64_t sx[3] = { 2, 3, 2 }, si[2] = { 3, 2 }, st[2] = { 1, 3 };
	int64_t so[2] = { 3, 2 }, sbad[2] = { 3, 3 }, s4[2] = { 3, 4 };
	aclTensor *tx, *ti, *to, *tbad, *t4;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int p, c;

	for (p = 0; p < 12; p++)
		x[p] = frand(p);
	tx = tens(sx, 3, ACL_FLOAT, dev(self, x, sizeof(x)));
	ti = view(si, 2, st, 0, 6, ACL_INT32, dev(self, idx, sizeof(idx)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 2, ACL_FLOAT, od);
	tbad = tens(sbad, 2, ACL_FLOAT, od);
	t4 = view(s4, 2, NULL, 0, 12, ACL_INT32, dev(self, NULL, 48));
	ASSERT_EQ(0, aclnnGatherNdGetWorkspaceSize(tx, ti, true, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnGatherNd, ws, ex));
	get(o, od, sizeof(o));
	for (p = 0; p < 3; p++) {
		int i = idx[p], j = idx[3 + p];	/* the transposed view */

		i = i < 0 ? i + 2 : i;
		for (c = 0; c < 2; c++)
			EXPECT_EQ(x[(i * 3 + j) * 2 + c], o[p * 2 + c]);
	}
	EXPECT_EQ(INV, aclnnGatherNdGetWorkspaceSize(tx, ti, true, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnGatherNdGetWorkspaceSize(tx, t4, true, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnGatherNdGetWorkspaceSize(tx, tx, true, to, &ws, &ex));
	EXPECT_EQ(NUL, aclnnGatherNdGetWorkspaceSize(tx, NULL, true, to, &ws, &ex));
}

TEST_F(nn, arange_float_and_int)
{
	float f[3];
	int32_t n[4];
	int64_t s3 = 3, s4 = 4, s5 = 5;
	double fs = 1.0, fe = 2.5, fst = 0.5;
	int64_t is = 10, ie = 0, ist = -3, zero = 0;
	aclScalar *a = aclCreateScalar(&fs, ACL_DOUBLE), *b = aclCreateScalar(&fe, ACL_DOUBLE);
	aclScalar *c = aclCreateScalar(&fst, ACL_DOUBLE), *d = aclCreateScalar(&is, ACL_INT64);
	aclScalar *e = aclCreateScalar(&ie, ACL_INT64), *g = aclCreateScalar(&ist, ACL_INT64);
	aclScalar *z = aclCreateScalar(&zero, ACL_INT64);
	aclTensor *tf, *ti, *tbad;
	aclOpExecutor *ex;
	uint64_t ws;
	void *fd, *nd;
	int i;

	fd = dev(self, NULL, sizeof(f));
	nd = dev(self, NULL, sizeof(n));
	tf = tens(&s3, 1, ACL_FLOAT, fd);
	ti = tens(&s4, 1, ACL_INT32, nd);
	tbad = tens(&s5, 1, ACL_INT32, nd);
	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(a, b, c, tf, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(d, e, g, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
	get(f, fd, sizeof(f));
	get(n, nd, sizeof(n));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(1.0f + 0.5f * i, f[i]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(10 - 3 * i, n[i]);
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(d, e, g, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(d, e, z, ti, &ws, &ex));
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(a, b, c, ti, &ws, &ex));
	EXPECT_EQ(NUL, aclnnArangeGetWorkspaceSize(NULL, e, g, ti, &ws, &ex));
	aclDestroyScalar(a); aclDestroyScalar(b); aclDestroyScalar(c);
	aclDestroyScalar(d); aclDestroyScalar(e); aclDestroyScalar(g);
	aclDestroyScalar(z);
}

/*
 * CANN's example for aclnnArange (math/range/examples/test_aclnn_arange.cpp):
 * FLOAT start 1, end 5, step 1 -> {1, 2, 3, 4}. Its op_api (CheckStep)
 * refuses an end on the wrong side of start for step's sign, even for an
 * empty out (161002); start == end with an empty out is fine.
 */
TEST_F(nn, arange_cann_example_direction)
{
	float s1 = 1, s5 = 5, st = 1, sm = -1, o[4];
	int64_t n4 = 4, n0 = 0;
	aclScalar *a = aclCreateScalar(&s1, ACL_FLOAT), *b = aclCreateScalar(&s5, ACL_FLOAT);
	aclScalar *c = aclCreateScalar(&st, ACL_FLOAT), *m = aclCreateScalar(&sm, ACL_FLOAT);
	void *od = dev(self, NULL, sizeof(o));
	aclTensor *to = tens(&n4, 1, ACL_FLOAT, od), *te = tens(&n0, 1, ACL_FLOAT, od);
	aclOpExecutor *ex;
	uint64_t ws;
	int i;

	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(a, b, c, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnArange, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(1.0f + i, o[i]);
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(b, a, c, te, &ws, &ex));
	EXPECT_EQ(INV, aclnnArangeGetWorkspaceSize(a, b, m, te, &ws, &ex));
	ASSERT_EQ(0, aclnnArangeGetWorkspaceSize(a, a, c, te, &ws, &ex));
	aclDestroyAclOpExecutor(ex);
	aclDestroyScalar(a);
	aclDestroyScalar(b);
	aclDestroyScalar(c);
	aclDestroyScalar(m);
	aclDestroyTensor(to);
	aclDestroyTensor(te);
}

/* Three [2, 3] tensors (one transposed) stacked at dim 1, then expanded. */
TEST_F(nn, stack_and_expand)
{
	float x[3][6], o[18], e[24];
	int64_t s[2] = { 2, 3 }, st[2] = { 1, 2 }, so[3] = { 2, 3, 3 }, sbad[3] = { 2, 2, 3 };
	int64_t sc[2] = { 3, 1 }, size[3] = { 2, -1, 4 }, bad[3] = { 2, 2, 4 }, se[3] = { 2, 3, 4 };
	const aclTensor *l[3];
	aclTensorList *tl;
	aclIntArray *as = ia(size, 3), *abad = ia(bad, 3);
	aclTensor *t[3], *to, *tbad, *tc, *te;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od, *ed;
	int a, b, k;

	for (k = 0; k < 3; k++) {
		for (a = 0; a < 6; a++)
			x[k][a] = frand(a + 6 * k);
		t[k] = k == 1 ? view(s, 2, st, 0, 6, ACL_FLOAT, dev(self, x[k], 24)) :
			       tens(s, 2, ACL_FLOAT, dev(self, x[k], 24));
		l[k] = t[k];
	}
	tl = aclCreateTensorList(l, 3);
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	tbad = tens(sbad, 3, ACL_FLOAT, od);
	ASSERT_EQ(0, aclnnStackGetWorkspaceSize(tl, 1, to, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnStack, ws, ex));
	get(o, od, sizeof(o));
	for (a = 0; a < 2; a++)
		for (k = 0; k < 3; k++)
			for (b = 0; b < 3; b++) {
				float w = k == 1 ? x[k][b * 2 + a] : x[k][a * 3 + b];

				EXPECT_EQ(w, o[(a * 3 + k) * 3 + b]);
			}
	EXPECT_EQ(INV, aclnnStackGetWorkspaceSize(tl, 1, tbad, &ws, &ex));
	EXPECT_EQ(INV, aclnnStackGetWorkspaceSize(tl, 3, to, &ws, &ex));

	/* [3, 1] -> [2, 3, 4]: a column repeated */
	tc = tens(sc, 2, ACL_FLOAT, dev(self, x[0], 12));
	ed = dev(self, NULL, sizeof(e));
	te = tens(se, 3, ACL_FLOAT, ed);
	ASSERT_EQ(0, aclnnExpandGetWorkspaceSize(tc, as, te, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnExpand, ws, ex));
	get(e, ed, sizeof(e));
	for (a = 0; a < 24; a++)
		EXPECT_EQ(x[0][(a / 4) % 3], e[a]);
	EXPECT_EQ(INV, aclnnExpandGetWorkspaceSize(tc, abad, te, &ws, &ex));
	EXPECT_EQ(NUL, aclnnExpandGetWorkspaceSize(tc, NULL, te, &ws, &ex));
	aclDestroyTensorList(tl);
	aclDestroyIntArray(as);
	aclDestroyIntArray(abad);
}

/* x [7, 2] in parts of 3 (3, 3, 1), and in sizes (2, 5). */
TEST_F(nn, split_tensor_and_with_size)
{
	float x[14], o[16];
	int64_t sx[2] = { 7, 2 }, s3[2] = { 3, 2 }, s1[2] = { 1, 2 }, s2[2] = { 2, 2 }, s5[2] = { 5, 2 };
	int64_t sizes[2] = { 2, 5 }, badsz[2] = { 2, 4 };
	aclIntArray *asz = ia(sizes, 2), *abad = ia(badsz, 2);
	const aclTensor *l[3];
	aclTensorList *parts3, *parts2;
	aclTensor *tx;
	aclOpExecutor *ex;
	uint8_t *od;
	uint64_t ws;
	int i;

	for (i = 0; i < 14; i++)
		x[i] = frand(i);
	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	l[0] = tens(s3, 2, ACL_FLOAT, od);
	l[1] = tens(s3, 2, ACL_FLOAT, od + 24);
	l[2] = tens(s1, 2, ACL_FLOAT, od + 48);
	parts3 = aclCreateTensorList(l, 3);
	ASSERT_EQ(0, aclnnSplitTensorGetWorkspaceSize(tx, 3, 0, parts3, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSplitTensor, ws, ex));
	get(o, od, sizeof(o));
	for (i = 0; i < 14; i++)
		EXPECT_EQ(x[i], o[i]);
	EXPECT_EQ(INV, aclnnSplitTensorGetWorkspaceSize(tx, 2, 0, parts3, &ws, &ex));
	EXPECT_EQ(INV, aclnnSplitTensorGetWorkspaceSize(tx, 0, 0, parts3, &ws, &ex));
	/* parts at elements 1 and 6: 0 and 5 stay untouched */
	l[0] = tens(s2, 2, ACL_FLOAT, od + 4);
	l[1] = tens(s5, 2, ACL_FLOAT, od + 24);
	parts2 = aclCreateTensorList(l, 2);
	aclrtMemset(od, sizeof(o), 0, sizeof(o));
	ASSERT_EQ(0, aclnnSplitWithSizeGetWorkspaceSize(tx, asz, -2, parts2, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSplitWithSize, ws, ex));
	get(o, od, sizeof(o));
	EXPECT_EQ(0.0f, o[0]);
	EXPECT_EQ(0.0f, o[5]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(x[i], o[1 + i]);
	for (i = 4; i < 14; i++)
		EXPECT_EQ(x[i], o[2 + i]);
	EXPECT_EQ(INV, aclnnSplitWithSizeGetWorkspaceSize(tx, abad, 0, parts2, &ws, &ex));
	EXPECT_EQ(INV, aclnnSplitWithSizeGetWorkspaceSize(tx, asz, 1, parts2, &ws, &ex));
	aclDestroyTensorList(parts3);
	aclDestroyTensorList(parts2);
	aclDestroyIntArray(asz);
	aclDestroyIntArray(abad);
}

/* Source index of padded position j (pad before p) in a dim of n. */
static int src_of(int j, int p, int n, bool reflect)
{
	j -= p;
	if (j < 0)
		return reflect ? -j : 0;
	if (j >= n)
		return reflect ? 2 * (n - 1) - j : n - 1;
	return j;
}

/* x [2, 3, 4] padded (left 1, right 2, top 2, bottom 1) both ways. */
TEST_F(nn, reflection_and_replication_pad2d)
{
	float x[24], o[2 * 6 * 7];
	int64_t sx[3] = { 2, 3, 4 }, so[3] = { 2, 6, 7 }, pad[4] = { 1, 2, 2, 1 };
	int64_t big[4] = { 4, 0, 0, 0 }, three[3] = { 1, 1, 1 }, s2[2] = { 3, 4 };
	aclIntArray *ap = ia(pad, 4), *abig = ia(big, 4), *a3 = ia(three, 3);
	aclTensor *tx, *to, *t2;
	aclOpExecutor *ex;
	uint64_t ws;
	void *od;
	int mode, c, h, w;

	for (c = 0; c < 24; c++)
		x[c] = frand(c);
	tx = tens(sx, 3, ACL_FLOAT, dev(self, x, sizeof(x)));
	od = dev(self, NULL, sizeof(o));
	to = tens(so, 3, ACL_FLOAT, od);
	t2 = tens(s2, 2, ACL_FLOAT, od);
	for (mode = 0; mode < 2; mode++) {
		bool reflect = mode == 0;

		if (reflect) {
			ASSERT_EQ(0, aclnnReflectionPad2dGetWorkspaceSize(tx, ap, to, &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnReflectionPad2d, ws, ex));
		} else {
			ASSERT_EQ(0, aclnnReplicationPad2dGetWorkspaceSize(tx, ap, to, &ws, &ex));
			ASSERT_EQ(0, run(self, aclnnReplicationPad2d, ws, ex));
		}
		get(o, od, sizeof(o));
		for (c = 0; c < 2; c++)
			for (h = 0; h < 6; h++)
				for (w = 0; w < 7; w++)
					EXPECT_EQ(x[(c * 3 + src_of(h, 2, 3, reflect)) * 4 +
						    src_of(w, 1, 4, reflect)],
						  o[(c * 6 + h) * 7 + w]);
	}
	/* reflect needs pads below the size; 4 values; 3-D or 4-D self */
	EXPECT_EQ(INV, aclnnReflectionPad2dGetWorkspaceSize(tx, abig, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnReplicationPad2dGetWorkspaceSize(tx, a3, to, &ws, &ex));
	EXPECT_EQ(INV, aclnnReplicationPad2dGetWorkspaceSize(t2, ap, to, &ws, &ex));
	aclDestroyIntArray(ap);
	aclDestroyIntArray(abig);
	aclDestroyIntArray(a3);
}

TEST_HARNESS_MAIN
