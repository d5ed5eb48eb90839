/*
 * aclnnop/aclnn_one_hot.h - one-hot encoding of self (class numbers) inserted at axis.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ONE_HOT_H
#define VNPU_ACLNNOP_ACLNN_ONE_HOT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnOneHot: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnOneHotGetWorkspaceSize(
    const aclTensor *self, int numClasses, const aclTensor *onValue, const aclTensor *offValue, int64_t axis, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnOneHot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ONE_HOT_H */
