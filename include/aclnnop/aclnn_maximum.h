/*
 * aclnnop/aclnn_maximum.h - elementwise maximum, NaN propagates.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MAXIMUM_H
#define VNPU_ACLNNOP_ACLNN_MAXIMUM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnMaximum: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnMaximumGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaximum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MAXIMUM_H */
