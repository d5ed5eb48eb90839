/*
 * aclnnop/aclnn_logsumexp.h - log(sum(exp(self))) over dims (empty: all), without overflow.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGSUMEXP_H
#define VNPU_ACLNNOP_ACLNN_LOGSUMEXP_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLogSumExp: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLogSumExpGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSumExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGSUMEXP_H */
