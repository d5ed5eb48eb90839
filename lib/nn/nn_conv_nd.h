/* SPDX-License-Identifier: MIT */
/* 3-D convolutions on the driver's CONV_ND (nn_op_conv_nd.c). */
#ifndef VNPU_NN_CONV_ND_H
#define VNPU_NN_CONV_ND_H

#include "nn_ops_common.h"

/*
 * aclnnConvolution of a 5-D input (NCDHW): CONV_ND, or with transposed
 * CONV_TRANSPOSE_ND (weight [Cin, Cout / groups, kD, kH, kW]); stride,
 * padding, dilation, outputPadding of 1 or 3 values. Reported as func.
 */
aclnnStatus nn_conv3d(const char *func, const aclTensor *input,
		      const aclTensor *weight, const aclTensor *bias,
		      const aclIntArray *stride, const aclIntArray *padding,
		      const aclIntArray *dilation, bool transposed,
		      const aclIntArray *outputPadding, int64_t groups,
		      const aclTensor *output, uint64_t *workspaceSize,
		      aclOpExecutor **executor);

#endif /* VNPU_NN_CONV_ND_H */
