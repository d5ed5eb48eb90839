/* SPDX-License-Identifier: MIT */
/* 2-D pools as the driver's POOL_ND (nn_op_pool.c), for the conv family. */
#ifndef VNPU_NN_POOL_H
#define VNPU_NN_POOL_H

#include <string.h>

#include "nn_ops_common.h"

/*
 * CANN's pooling documents take self as (N, C, H, W) or (C, H, W): the
 * 3-D form runs as a batch of one (a leading dim of 1, stride 0).
 */
static inline struct nn_ref nn_batch1(struct nn_ref r)
{
	uint32_t d;

	if (r.rank != 3)
		return r;
	for (d = 3; d > 0; d--) {
		r.shape[d] = r.shape[d - 1];
		r.strides[d] = r.strides[d - 1];
	}
	r.shape[0] = 1;
	r.strides[0] = 0;
	r.rank = 4;
	return r;
}

/* t's dims as (N, C, H, W), N 1 for a 3-D t; false unless 3-D/4-D. */
static inline bool nn_nchw_dims(const aclTensor *t, int64_t *d)
{
	uint64_t k = t->ndim == 3 ? 1 : 0;

	if (t->ndim != 3 && t->ndim != 4)
		return false;
	d[0] = 1;
	memcpy(d + k, t->dims, t->ndim * sizeof(int64_t));
	return true;
}

/*
 * A PyTorch-style 2-D pool (symmetric padding, ceil mode with the last
 * window starting inside the input or its left padding) as one POOL_ND
 * task: max (with optional indices within the plane) or average (with
 * count_include_pad and a divisor override). Reported as func.
 */
aclnnStatus nn_pool2d_nd(const char *func, bool max, const aclTensor *self,
			 const aclIntArray *kernel, const aclIntArray *stride,
			 const aclIntArray *padding, const aclIntArray *dilation,
			 bool ceil, bool count_pad, int64_t divisor,
			 const aclTensor *out, const aclTensor *indices,
			 uint64_t *workspaceSize, aclOpExecutor **executor);

#endif /* VNPU_NN_POOL_H */
