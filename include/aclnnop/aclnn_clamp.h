/*
 * aclnnop/aclnn_clamp.h - clamp to bounds given as scalars or tensors (min, max or both), and in-place forms.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CLAMP_H
#define VNPU_ACLNNOP_ACLNN_CLAMP_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnClamp: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnClampGetWorkspaceSize(
    const aclTensor *self, const aclScalar *clipValueMin, const aclScalar *clipValueMax, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnClamp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnClampMin: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnClampMinGetWorkspaceSize(
    const aclTensor *self, const aclScalar *clipValueMin, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnClampMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnClampTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnClampTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *clipValueMin, const aclTensor *clipValueMax, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnClampTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnClampMinTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnClampMinTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *clipValueMin, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnClampMinTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceClampMinTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *clipValueMin, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceClampMinTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnClampMax: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnClampMaxGetWorkspaceSize(
    const aclTensor *self, const aclScalar *clipValueMax, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnClampMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceClampMax: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(
    const aclTensor *selfRef, const aclScalar *clipValueMax, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceClampMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnClampMaxTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *max, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnClampMaxTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceClampMaxTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *max, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceClampMaxTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CLAMP_H */
