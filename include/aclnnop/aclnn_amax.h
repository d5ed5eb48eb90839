/*
 * aclnnop/aclnn_amax.h - maximum over dims (empty: all).
 */
#ifndef VNPU_ACLNNOP_ACLNN_AMAX_H
#define VNPU_ACLNNOP_ACLNN_AMAX_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnAmax: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnAmaxGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_AMAX_H */
