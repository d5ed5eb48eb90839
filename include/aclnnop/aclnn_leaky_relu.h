/*
 * aclnnop/aclnn_leaky_relu.h - leaky ReLU: x < 0 ? negativeSlope * x : x, and its in-place form.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LEAKY_RELU_H
#define VNPU_ACLNNOP_ACLNN_LEAKY_RELU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLeakyRelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLeakyReluGetWorkspaceSize(
    const aclTensor *self, const aclScalar *negativeSlope, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLeakyRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceLeakyRelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *negativeSlope, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceLeakyRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LEAKY_RELU_H */
