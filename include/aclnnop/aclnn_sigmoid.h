/*
 * aclnnop/aclnn_sigmoid.h - 1 / (1 + exp(-x)), elementwise.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SIGMOID_H
#define VNPU_ACLNNOP_ACLNN_SIGMOID_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSigmoid: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSigmoidGetWorkspaceSize(
    const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceSigmoid: selfRef = sigmoid(selfRef) */
ACLNN_API aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceSigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SIGMOID_H */
