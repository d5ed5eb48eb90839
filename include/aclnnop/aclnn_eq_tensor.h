/*
 * aclnnop/aclnn_eq_tensor.h - elementwise self == other, out BOOL (or any dtype that holds 0/1).
 */
#ifndef VNPU_ACLNNOP_ACLNN_EQ_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_EQ_TENSOR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnEqTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnEqTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEqTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EQ_TENSOR_H */
