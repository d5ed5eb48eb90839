/* SPDX-License-Identifier: MIT */
/* 2-D pools as the driver's POOL_ND (nn_op_pool.c), for the conv family. */
#ifndef VNPU_NN_POOL_H
#define VNPU_NN_POOL_H

#include "nn_ops_common.h"

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
