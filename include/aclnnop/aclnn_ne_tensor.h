/*
 * aclnnop/aclnn_ne_tensor.h - elementwise self != other.
 */
#ifndef VNPU_ACLNNOP_ACLNN_NE_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_NE_TENSOR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnNeTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnNeTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNeTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_NE_TENSOR_H */
