/*
 * aclnnop/aclnn_stack.h - torch.stack: the tensors joined along a new dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_STACK_H
#define VNPU_ACLNNOP_ACLNN_STACK_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnStack: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnStackGetWorkspaceSize(
    const aclTensorList *tensors, int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnStack(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_STACK_H */
