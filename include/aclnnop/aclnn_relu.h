/*
 * aclnnop/aclnn_relu.h - Rectified linear unit, out = max(self, 0), and its in-place form.
 */
#ifndef VNPU_ACLNNOP_ACLNN_RELU_H
#define VNPU_ACLNNOP_ACLNN_RELU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnRelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnReluGetWorkspaceSize(
    const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRelu(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);

/* aclnnInplaceRelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceReluGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceRelu(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RELU_H */
