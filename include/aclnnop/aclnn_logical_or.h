/*
 * aclnnop/aclnn_logical_or.h - elementwise logical or.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGICAL_OR_H
#define VNPU_ACLNNOP_ACLNN_LOGICAL_OR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLogicalOr: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLogicalOrGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogicalOr(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGICAL_OR_H */
