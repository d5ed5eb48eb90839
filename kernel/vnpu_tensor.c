// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: what a tensor descriptor reaches. Shapes and strides come from
 * user space, so every product and sum here is checked: the extent the MMU
 * checks must be exactly the bytes the operator can touch, never a value
 * that wrapped around.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/errno.h>
#include <linux/overflow.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_opcall.h"
#include "ops/vnpu_dtype.h"

/**
 * vnpu_tensor_extent() - bytes and elements of a tensor view
 * @t: the descriptor
 * @bytes: out, bytes from element [0, ...] to the end of the last element
 *	   the view reaches (0 for a view without elements)
 * @elems: out, number of elements (0 for an empty view)
 *
 * Return: 0, -EINVAL for a bad dtype, rank, negative shape or stride, or
 * -EOVERFLOW when a count does not fit in 64 bits.
 */
int vnpu_tensor_extent(const struct drm_vnpu_tensor *t, u64 *bytes,
		       u64 *elems)
{
	u32 esize = vnpu_dtype_size(t->dtype), d;
	u64 last = 0, n = 1, term;

	*bytes = 0;
	*elems = 0;
	if (!esize || t->rank > DRM_VNPU_MAX_RANK)
		return -EINVAL;
	for (d = 0; d < t->rank; d++) {
		if (t->shape[d] < 0 || t->strides[d] < 0)
			return -EINVAL;
		if (!t->shape[d])
			return 0;
	}
	for (d = 0; d < t->rank; d++) {
		if (check_mul_overflow((u64)t->shape[d] - 1, (u64)t->strides[d],
				       &term) ||
		    check_add_overflow(last, term, &last) ||
		    check_mul_overflow(n, (u64)t->shape[d], &n))
			return -EOVERFLOW;
	}
	if (check_add_overflow(last, 1, &last) ||
	    check_mul_overflow(last, (u64)esize, bytes)) {
		*bytes = 0;
		return -EOVERFLOW;
	}
	*elems = n;
	return 0;
}
