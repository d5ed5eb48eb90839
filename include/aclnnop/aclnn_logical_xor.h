/*
 * aclnnop/aclnn_logical_xor.h - elementwise logical exclusive or.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGICAL_XOR_H
#define VNPU_ACLNNOP_ACLNN_LOGICAL_XOR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLogicalXor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLogicalXorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogicalXor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGICAL_XOR_H */
