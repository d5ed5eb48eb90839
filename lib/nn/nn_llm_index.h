/* SPDX-License-Identifier: MIT */
/*
 * Small view helpers the nn_op_llm_index*.c operators share (gathers,
 * repeats, im2col, sorts and solves built out of move-family tasks).
 */
#ifndef VNPU_NN_LLM_INDEX_H
#define VNPU_NN_LLM_INDEX_H

#include "nn_ops_common.h"

static inline int64_t li_numel_ref(const struct nn_ref *r)
{
	int64_t n = 1;
	uint32_t d;

	for (d = 0; d < r->rank; d++)
		n *= r->shape[d];
	return n;
}

/* r's start, seen as a dense row-major tensor of another shape. */
static inline struct nn_ref li_dense(struct nn_ref r, uint32_t rank,
				     const int64_t *shape)
{
	int64_t s = 1;
	uint32_t i;

	r.rank = rank;
	for (i = rank; i-- > 0;) {
		r.shape[i] = shape[i];
		r.strides[i] = s;
		s *= shape[i];
	}
	return r;
}

/* Whether r's elements are dense in row-major order (size-1 dims aside). */
static inline bool li_is_dense(const struct nn_ref *r)
{
	int64_t s = 1;
	uint32_t i;

	for (i = r->rank; i-- > 0;) {
		if (r->shape[i] != 1 && r->strides[i] != s)
			return false;
		s *= r->shape[i];
	}
	return true;
}

/*
 * r as a 1-D run of its elements in row-major order: a view when r is
 * dense, else a STRIDED_COPY into the workspace. *ret takes the task's
 * status.
 */
static inline struct nn_ref li_flat(aclOpExecutor *ex, struct nn_ref r,
				    int *ret)
{
	int64_t n = li_numel_ref(&r);
	struct nn_ref w;

	if (!li_is_dense(&r)) {
		w = nn_ws(ex, r.dtype, r.rank, r.shape);
		if (!*ret)
			*ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &r, 1, &w, NULL);
		r = w;
	}
	return li_dense(r, 1, &n);
}

static inline bool li_index_dtype(aclDataType dt)
{
	return dt == ACL_INT32 || dt == ACL_INT64;
}

static inline int64_t li_numel(const aclTensor *t)
{
	int64_t n = 1;
	uint64_t d;

	for (d = 0; d < t->ndim; d++)
		n *= t->dims[d];
	return n;
}

#endif /* VNPU_NN_LLM_INDEX_H */
