/*
 * aclnnop/aclnn_logical_not.h - elementwise logical not.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGICAL_NOT_H
#define VNPU_ACLNNOP_ACLNN_LOGICAL_NOT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLogicalNot: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLogicalNotGetWorkspaceSize(
    const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogicalNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGICAL_NOT_H */
