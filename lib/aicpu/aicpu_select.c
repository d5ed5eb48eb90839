// SPDX-License-Identifier: MIT
/*
 * Ops whose output size depends on the values: NonZero, Compress,
 * Unique. Their output buffers are sized for the most the input allows;
 * the op writes the real dims.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aicpu.h"
#include "aicpu_sort.h"

/* NonZero: X -> int64 [rank, n], the indices of the non-zero elements. */
int aicpu_nonzero(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *y = aicpu_out(c, 0);
	int64_t n = 0, total, dims[2], k = 0, rank;

	if (!x || !y || y->dtype != 9)
		return aicpu_fail(c, "needs X and an INT64 output");
	total = aicpu_numel(x);
	rank = x->rank ? x->rank : 1;
	for (int64_t i = 0; i < total; i++)
		n += aicpu_get(x, i) != 0;
	dims[0] = x->rank ? x->rank : 1;
	dims[1] = n;
	if (aicpu_set_dims(c, y, 2, dims))
		return -EINVAL;
	for (int64_t i = 0; i < total; i++) {
		int64_t rem = i;

		if (aicpu_get(x, i) == 0)
			continue;
		for (int64_t d = rank; d-- > 0;) {
			int64_t dim = x->rank ? x->dims[d] : 1;

			aicpu_put_int(y, d * n + k, rem % dim);
			rem /= dim;
		}
		k++;
	}
	return 0;
}

/* ints[0]: has an axis; ints[1]: the axis. */
int aicpu_compress(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *cond = aicpu_in(c, 1);
	struct aicpu_tensor *y = aicpu_out(c, 0);
	int64_t outer = 1, len, inner = 1, keep = 0, clen, dims[AICPU_MAX_RANK];
	size_t es;
	uint32_t rank;
	int64_t axis = c->ints[1];

	if (!x || !cond || !y || y->dtype != x->dtype || cond->rank != 1)
		return aicpu_fail(c, "needs X, a 1-D condition and Y of X's dtype");
	es = aicpu_dtype_size(x->dtype);
	if (c->ints[0]) {
		if (axis < 0)
			axis += x->rank;
		if (axis < 0 || axis >= (int64_t)x->rank)
			return aicpu_fail(c, "axis %lld of a rank-%u input",
					  (long long)c->ints[1], x->rank);
		for (int64_t d = 0; d < axis; d++)
			outer *= x->dims[d];
		len = x->dims[axis];
		for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
			inner *= x->dims[d];
		rank = x->rank;
		memcpy(dims, x->dims, sizeof(dims));
	} else {
		len = aicpu_numel(x);
		rank = 1;
		axis = 0;
	}
	clen = cond->dims[0] < len ? cond->dims[0] : len;
	for (int64_t i = 0; i < clen; i++)
		keep += aicpu_get(cond, i) != 0;
	dims[axis] = keep;
	if (aicpu_set_dims(c, y, rank, dims))
		return -EINVAL;
	for (int64_t o = 0, k = 0; o < outer; o++)
		for (int64_t i = 0; i < clen; i++) {
			if (aicpu_get(cond, i) == 0)
				continue;
			memcpy((uint8_t *)y->data + (size_t)k * inner * es,
			       (uint8_t *)x->data + (size_t)(o * len + i) * inner * es,
			       (size_t)inner * es);
			k++;
		}
	return 0;
}

struct slices {
	const struct aicpu_tensor *x;
	int64_t outer, len, inner;
	bool fl;
};

/* Lexicographic order of slices a and b along the axis (np.unique's). */
static int slice_cmp(const void *ctx, int64_t a, int64_t b)
{
	const struct slices *s = ctx;

	for (int64_t o = 0; o < s->outer; o++)
		for (int64_t i = 0; i < s->inner; i++) {
			int64_t pa = (o * s->len + a) * s->inner + i;
			int64_t pb = (o * s->len + b) * s->inner + i;

			if (s->fl) {
				double va = aicpu_get(s->x, pa), vb = aicpu_get(s->x, pb);

				if (va != vb)
					return va < vb ? -1 : 1;
			} else {
				int64_t va = aicpu_get_int(s->x, pa);
				int64_t vb = aicpu_get_int(s->x, pb);

				if (va != vb)
					return va < vb ? -1 : 1;
			}
		}
	return 0;
}

static int first_cmp(const void *ctx, int64_t a, int64_t b)
{
	const int64_t *first = ctx;

	return first[a] < first[b] ? -1 : first[a] > first[b];
}

/*
 * Unique: ints[0] sorted, ints[1] has an axis, ints[2] the axis. Outputs
 * Y, indices, inverse_indices, counts (each optional).
 */
int aicpu_unique(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *y = aicpu_out(c, 0);
	struct aicpu_tensor *ind = aicpu_out(c, 1), *inv = aicpu_out(c, 2);
	struct aicpu_tensor *cnt = aicpu_out(c, 3);
	struct slices s = { .x = x, .outer = 1, .inner = 1 };
	int64_t *idx, *tmp, *grp, *first, *count, *order, nu = 0;
	int64_t dims[AICPU_MAX_RANK], axis = c->ints[2];
	uint32_t rank = 1;
	size_t es;
	int ret = 0;

	if (!x || !y || y->dtype != x->dtype)
		return aicpu_fail(c, "needs X and Y of X's dtype");
	if ((ind && ind->dtype != 9) || (inv && inv->dtype != 9) ||
	    (cnt && cnt->dtype != 9))
		return aicpu_fail(c, "indices, inverse_indices and counts are INT64");
	s.fl = aicpu_dtype_float(x->dtype);
	es = aicpu_dtype_size(x->dtype);
	if (c->ints[1]) {
		if (axis < 0)
			axis += x->rank;
		if (axis < 0 || axis >= (int64_t)x->rank)
			return aicpu_fail(c, "axis %lld of a rank-%u input",
					  (long long)c->ints[2], x->rank);
		for (int64_t d = 0; d < axis; d++)
			s.outer *= x->dims[d];
		s.len = x->dims[axis];
		for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
			s.inner *= x->dims[d];
		rank = x->rank;
		memcpy(dims, x->dims, sizeof(dims));
	} else {
		s.len = aicpu_numel(x);
		axis = 0;
	}
	idx = calloc((size_t)s.len * 6 + 1, sizeof(*idx));
	if (!idx)
		return aicpu_fail(c, "out of memory"), -ENOMEM;
	tmp = idx + s.len;
	grp = tmp + s.len;	/* per slice: its group */
	first = grp + s.len;	/* per group: first slice */
	count = first + s.len;
	order = count + s.len;	/* groups in output order */
	for (int64_t i = 0; i < s.len; i++)
		idx[i] = i;
	aicpu_sort_idx(idx, tmp, s.len, slice_cmp, &s);
	for (int64_t i = 0; i < s.len; i++) {
		if (!i || slice_cmp(&s, idx[i - 1], idx[i])) {
			first[nu] = idx[i];
			count[nu++] = 0;
		}
		grp[idx[i]] = nu - 1;
		count[nu - 1]++;
	}
	for (int64_t g = 0; g < nu; g++)
		order[g] = g;
	if (!c->ints[0])
		aicpu_sort_idx(order, tmp, nu, first_cmp, first);
	/* tmp: group -> its output position */
	for (int64_t k = 0; k < nu; k++)
		tmp[order[k]] = k;
	dims[axis] = nu;
	if (aicpu_set_dims(c, y, rank, dims) ||
	    (ind && aicpu_set_dims(c, ind, 1, &nu)) ||
	    (inv && aicpu_set_dims(c, inv, 1, &s.len)) ||
	    (cnt && aicpu_set_dims(c, cnt, 1, &nu))) {
		ret = -EINVAL;
		goto out;
	}
	for (int64_t k = 0; k < nu; k++) {
		int64_t g = order[k];

		for (int64_t o = 0; o < s.outer; o++)
			memcpy((uint8_t *)y->data + (size_t)((o * nu + k) * s.inner) * es,
			       (uint8_t *)x->data +
			       (size_t)((o * s.len + first[g]) * s.inner) * es,
			       (size_t)s.inner * es);
		if (ind)
			aicpu_put_int(ind, k, first[g]);
		if (cnt)
			aicpu_put_int(cnt, k, count[g]);
	}
	for (int64_t i = 0; inv && i < s.len; i++)
		aicpu_put_int(inv, i, tmp[grp[i]]);
out:
	free(idx);
	return ret;
}
