/*
 * aclnnop/aclnn_threshold.h - self where self > threshold, else value.
 */
#ifndef VNPU_ACLNNOP_ACLNN_THRESHOLD_H
#define VNPU_ACLNNOP_ACLNN_THRESHOLD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnThresholdGetWorkspaceSize(
    const aclTensor *self, const aclScalar *threshold, const aclScalar *value, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnThreshold(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *threshold, const aclScalar *value,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceThreshold(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_THRESHOLD_H */
