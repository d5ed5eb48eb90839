// SPDX-License-Identifier: MIT
/*
 * aclnn sorting (sort family) on the real driver: Topk and Sort against
 * C references.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_sort.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

TEST_F(nn, topk_sort)
{
	enum { R = 2, N = 6 };
	float x[R * N] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8 }, v[R * N];
	int64_t ix[R * N], sx[2] = { R, N }, sk[2] = { R, 3 };
	aclTensor *tx, *tv, *ti, *tvk, *tik;
	aclOpExecutor *ex;
	uint64_t ws;
	void *vd, *id;
	int r, i;

	tx = tens(sx, 2, ACL_FLOAT, dev(self, x, sizeof(x)));
	vd = dev(self, NULL, sizeof(v));
	id = dev(self, NULL, sizeof(ix));
	tv = tens(sx, 2, ACL_FLOAT, vd);
	ti = tens(sx, 2, ACL_INT64, id);
	tvk = tens(sk, 2, ACL_FLOAT, vd);
	tik = tens(sk, 2, ACL_INT64, id);
	ASSERT_EQ(0, aclnnSortGetWorkspaceSize(tx, true, -1, false, tv, ti, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnSort, ws, ex));
	get(v, vd, sizeof(v));
	get(ix, id, sizeof(ix));
	for (r = 0; r < R; r++)
		for (i = 0; i < N; i++) {
			EXPECT_EQ(x[r * N + ix[r * N + i]], v[r * N + i]);
			if (i)
				EXPECT_TRUE(v[r * N + i - 1] <= v[r * N + i]);
			/* stable: equal values keep their order */
			if (i && v[r * N + i - 1] == v[r * N + i])
				EXPECT_TRUE(ix[r * N + i - 1] < ix[r * N + i]);
		}
	EXPECT_EQ(INV, aclnnSortGetWorkspaceSize(tx, true, -1, false, tvk, tik, &ws, &ex));

	ASSERT_EQ(0, aclnnTopkGetWorkspaceSize(tx, 3, 1, true, true, tvk, tik, &ws, &ex));
	ASSERT_EQ(0, run(self, aclnnTopk, ws, ex));
	get(v, vd, sizeof(float) * R * 3);
	get(ix, id, sizeof(int64_t) * R * 3);
	{
		float want[R * 3] = { 9, 5, 4, 8, 6, 5 };

		for (i = 0; i < R * 3; i++) {
			EXPECT_EQ(want[i], v[i]);
			EXPECT_EQ(x[(i / 3) * N + ix[i]], v[i]);
		}
	}
	EXPECT_EQ(INV, aclnnTopkGetWorkspaceSize(tx, 4, 1, true, true, tvk, tik, &ws, &ex));
	EXPECT_EQ(INV, aclnnTopkGetWorkspaceSize(tx, 3, 1, true, true, tvk, ti, &ws, &ex));
}

/* Reference order of row @r of the [N, 2] storage's column view: by value, then index. */
static const float *ref_x;
static int ref_desc, ref_row;

static int ref_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	float x = ref_x[a * 2 + ref_row], y = ref_x[b * 2 + ref_row];

	if (x != y)
		return (x < y) == !ref_desc ? -1 : 1;
	return a < b ? -1 : 1;
}

/*
 * A row longer than 64 Ki runs split into chunks across engines: SORT and
 * TOPK of two 200 003-element rows viewed column-wise (stride 2) from
 * [N, 2] storage, with many ties, give exactly the stable order.
 */
TEST_F(nn, long_rows_split)
{
	enum { R = 2, N = 200003, K = 500 };
	float *x = malloc(sizeof(float) * R * N), *v = malloc(sizeof(float) * R * N);
	int64_t *ix = malloc(sizeof(int64_t) * R * N), *ord = malloc(sizeof(int64_t) * N);
	int64_t sx[2] = { R, N }, sk[2] = { R, K }, st[2] = { 1, 2 };
	aclTensor *tx, *tv, *ti, *tvk, *tik;
	aclOpExecutor *ex;
	long bad = 0;
	uint64_t ws;
	void *xd, *vd, *id;
	int64_t i;
	int r, desc;

	ASSERT_TRUE(x && v && ix && ord);
	for (i = 0; i < R * N; i++)
		x[i] = (float)((i * 7919) % 1000) / 8.0f - 60.0f;
	xd = dev(self, x, sizeof(float) * R * N);
	vd = dev(self, NULL, sizeof(float) * R * N);
	id = dev(self, NULL, sizeof(int64_t) * R * N);
	tx = view(sx, 2, st, 0, R * N, ACL_FLOAT, xd);
	tv = tens(sx, 2, ACL_FLOAT, vd);
	ti = tens(sx, 2, ACL_INT64, id);
	tvk = tens(sk, 2, ACL_FLOAT, vd);
	tik = tens(sk, 2, ACL_INT64, id);
	ref_x = x;
	for (desc = 0; desc < 2; desc++) {
		ASSERT_EQ(0, aclnnSortGetWorkspaceSize(tx, true, 1, desc, tv, ti, &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnSort, ws, ex));
		get(v, vd, sizeof(float) * R * N);
		get(ix, id, sizeof(int64_t) * R * N);
		for (r = 0; r < R; r++) {
			for (i = 0; i < N; i++)
				ord[i] = i;
			ref_desc = desc;
			ref_row = r;
			qsort(ord, N, sizeof(*ord), ref_cmp);
			for (i = 0; i < N; i++)
				bad += ix[r * N + i] != ord[i] ||
				       v[r * N + i] != x[ord[i] * 2 + r];
		}
		EXPECT_EQ(0, bad) TH_LOG("sort descending %d", desc);
		ASSERT_EQ(0, aclnnTopkGetWorkspaceSize(tx, K, 1, !desc, true, tvk, tik,
						       &ws, &ex));
		ASSERT_EQ(0, run(self, aclnnTopk, ws, ex));
		get(v, vd, sizeof(float) * R * K);
		get(ix, id, sizeof(int64_t) * R * K);
		for (r = 0; r < R; r++) {
			for (i = 0; i < N; i++)
				ord[i] = i;
			ref_desc = !desc;
			ref_row = r;
			qsort(ord, N, sizeof(*ord), ref_cmp);
			for (i = 0; i < K; i++)
				bad += ix[r * K + i] != ord[i] ||
				       v[r * K + i] != x[ord[i] * 2 + r];
		}
		EXPECT_EQ(0, bad) TH_LOG("topk largest %d", !desc);
	}
	free(x);
	free(v);
	free(ix);
	free(ord);
}

TEST_HARNESS_MAIN
