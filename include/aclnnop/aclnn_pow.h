/*
 * aclnnop/aclnn_pow.h - Element-wise power: out = self ** exponent (broadcasting), with a tensor
 * or a scalar exponent.
 */
#ifndef VNPU_ACLNNOP_ACLNN_POW_H
#define VNPU_ACLNNOP_ACLNN_POW_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *exponent, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowTensorTensor(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(
    const aclTensor *self, const aclScalar *exponent, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowTensorScalar(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnPowScalarTensor: out = self ** exponent, a scalar base and a tensor exponent */
ACLNN_API aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(
    const aclScalar *self, const aclTensor *exponent, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowScalarTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_POW_H */
