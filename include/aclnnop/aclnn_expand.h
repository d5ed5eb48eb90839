/*
 * aclnnop/aclnn_expand.h - torch.Tensor.expand: self broadcast to size (-1 keeps a dim).
 */
#ifndef VNPU_ACLNNOP_ACLNN_EXPAND_H
#define VNPU_ACLNNOP_ACLNN_EXPAND_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnExpand: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnExpandGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *size, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnExpand(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EXPAND_H */
