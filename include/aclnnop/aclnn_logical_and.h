/*
 * aclnnop/aclnn_logical_and.h - elementwise logical and (non-zero is true).
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGICAL_AND_H
#define VNPU_ACLNNOP_ACLNN_LOGICAL_AND_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLogicalAnd: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLogicalAndGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogicalAnd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGICAL_AND_H */
