/*
 * aclnnop/aclnn_pow_tensor_tensor.h - self ** exponent, elementwise with broadcasting.
 */
#ifndef VNPU_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *exponent, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *exponent, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowTensorTensor(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplacePowTensorTensor(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H */
