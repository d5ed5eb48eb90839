/*
 * aclnnop/aclnn_reciprocal.h - elementwise 1 / x.
 */
#ifndef VNPU_ACLNNOP_ACLNN_RECIPROCAL_H
#define VNPU_ACLNNOP_ACLNN_RECIPROCAL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnReciprocal: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnReciprocalGetWorkspaceSize(
    const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReciprocal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RECIPROCAL_H */
