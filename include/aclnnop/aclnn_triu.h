/*
 * aclnnop/aclnn_triu.h - upper triangle of the last two dims (j - i >= diagonal kept, the rest 0).
 */
#ifndef VNPU_ACLNNOP_ACLNN_TRIU_H
#define VNPU_ACLNNOP_ACLNN_TRIU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnTriu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnTriuGetWorkspaceSize(
    const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTriu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceTriu: zero selfRef below the diagonal-th diagonal */
ACLNN_API aclnnStatus aclnnInplaceTriuGetWorkspaceSize(
    aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceTriu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_TRIU_H */
