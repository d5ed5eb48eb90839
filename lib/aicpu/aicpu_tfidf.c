// SPDX-License-Identifier: MIT
/*
 * TfIdfVectorizer over integer tokens. The pool of n-grams comes as
 * tensors (atc stores the attribute lists as weights): pool (int64, the
 * n-grams' tokens back to back, shortest first), counts (int64, where the
 * n-grams of length k + 1 start in pool), indexes (int64, the output slot
 * of each pooled n-gram) and optional weights (float, per pooled n-gram).
 * ints: [0] mode (0 TF, 1 IDF, 2 TFIDF), [1] min_gram_length,
 * [2] max_gram_length, [3] max_skip_count.
 *
 * An n-gram of a row is n tokens at a fixed gap (skip + 1) for every skip
 * up to max_skip_count; unigrams are counted once per position.
 */
#include <errno.h>
#include <stdlib.h>

#include "aicpu.h"

/* Ordinal of the pooled n-gram equal to row[i + k * gap], k < n; or -1. */
static int64_t find(const struct aicpu_tensor *x, int64_t row, int64_t i,
		    int64_t gap, int64_t n, const struct aicpu_tensor *pool,
		    int64_t first, int64_t end, int64_t ord0)
{
	for (int64_t p = first, ord = ord0; p + n <= end; p += n, ord++) {
		int64_t k = 0;

		while (k < n && aicpu_get_int(pool, p + k) ==
		       aicpu_get_int(x, row + i + k * gap))
			k++;
		if (k == n)
			return ord;
	}
	return -1;
}

int aicpu_tfidf(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *pool = aicpu_in(c, 1);
	struct aicpu_tensor *cnt = aicpu_in(c, 2), *idx = aicpu_in(c, 3);
	struct aicpu_tensor *w = aicpu_in(c, 4), *y = aicpu_out(c, 0);
	int64_t rows, len, width = 0, npool, nlev, *hits;
	int64_t lo = c->ints[1], hi = c->ints[2], skip = c->ints[3];

	if (!x || !pool || !cnt || !idx || !y || x->rank < 1 || x->rank > 2 ||
	    aicpu_dtype_float(x->dtype) || !aicpu_dtype_float(y->dtype))
		return aicpu_fail(c, "integer X [N] or [B, N] and a float output are required");
	nlev = aicpu_numel(cnt);
	npool = aicpu_numel(idx);
	if (lo < 1 || hi < lo || hi > nlev || skip < 0 || skip > (1 << 20) ||
	    (w && aicpu_numel(w) != npool) || c->ints[0] < 0 || c->ints[0] > 2)
		return aicpu_fail(c, "gram lengths %lld..%lld, skip %lld or the pool do not fit",
				  (long long)lo, (long long)hi, (long long)skip);
	for (int64_t j = 0; j < npool; j++) {
		int64_t o = aicpu_get_int(idx, j);

		if (o < 0 || o >= (1 << 24))
			return aicpu_fail(c, "ngram_indexes[%lld] = %lld", (long long)j,
					  (long long)o);
		if (o + 1 > width)
			width = o + 1;
	}
	rows = x->rank == 2 ? x->dims[0] : 1;
	len = x->dims[x->rank - 1];
	if (aicpu_set_dims(c, y, x->rank, x->rank == 2 ? (int64_t[]){ rows, width } :
			   (int64_t[]){ width }))
		return -EINVAL;
	hits = calloc((size_t)npool + 1, sizeof(*hits));
	if (!hits)
		return aicpu_fail(c, "out of memory"), -ENOMEM;
	for (int64_t r = 0; r < rows; r++) {
		for (int64_t j = 0; j < npool; j++)
			hits[j] = 0;
		for (int64_t n = lo; n <= hi; n++) {
			int64_t first = aicpu_get_int(cnt, n - 1);
			int64_t end = n < nlev ? aicpu_get_int(cnt, n) : aicpu_numel(pool);
			int64_t ord0 = 0;

			if (first < 0 || end > aicpu_numel(pool) || first > end)
				continue;
			/* ordinal of the first n-gram of length n */
			for (int64_t k = 1; k < n; k++) {
				int64_t a = aicpu_get_int(cnt, k - 1), b = aicpu_get_int(cnt, k);

				ord0 += b > a ? (b - a) / k : 0;
			}
			for (int64_t s = 0; s <= (n == 1 ? 0 : skip); s++)
				for (int64_t i = 0; i + (n - 1) * (s + 1) < len; i++) {
					int64_t o = find(x, r * len, i, s + 1, n, pool, first,
							 end, ord0);

					if (o >= 0 && o < npool)
						hits[o]++;
				}
		}
		for (int64_t k = 0; k < width; k++)
			aicpu_put(y, r * width + k, 0);
		for (int64_t j = 0; j < npool; j++) {
			double wt = w ? aicpu_get(w, j) : 1, v = (double)hits[j];

			if (c->ints[0] == 1)
				v = hits[j] ? wt : 0;
			else if (c->ints[0] == 2)
				v *= wt;
			aicpu_put(y, r * width + aicpu_get_int(idx, j), v);
		}
	}
	free(hits);
	return 0;
}
