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

TEST_HARNESS_MAIN
