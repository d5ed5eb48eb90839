/*
 * aclnnop/aclnn_gt_tensor.h - elementwise self > other.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GT_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_GT_TENSOR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnGtTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnGtTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGtTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GT_TENSOR_H */
