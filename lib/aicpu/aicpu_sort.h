/* SPDX-License-Identifier: MIT */
/* A stable merge sort of index arrays with a caller's comparison. */
#ifndef VNPU_AICPU_SORT_H
#define VNPU_AICPU_SORT_H

#include <stdint.h>
#include <string.h>

typedef int (*aicpu_cmp)(const void *ctx, int64_t a, int64_t b);

/* Sort idx[0..n) stably; tmp holds n entries. */
static inline void aicpu_sort_idx(int64_t *idx, int64_t *tmp, int64_t n,
				  aicpu_cmp cmp, const void *ctx)
{
	for (int64_t w = 1; w < n; w *= 2) {
		for (int64_t lo = 0; lo < n; lo += 2 * w) {
			int64_t mid = lo + w < n ? lo + w : n;
			int64_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			int64_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = cmp(ctx, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
			while (i < mid)
				tmp[k++] = idx[i++];
			while (j < hi)
				tmp[k++] = idx[j++];
		}
		memcpy(idx, tmp, (size_t)n * sizeof(*idx));
	}
}

#endif /* VNPU_AICPU_SORT_H */
