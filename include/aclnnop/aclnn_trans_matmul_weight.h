/*
 * aclnnop/aclnn_trans_matmul_weight.h - turn a matmul weight into the device's preferred layout, and size it.
 */
#ifndef VNPU_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H
#define VNPU_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSizeV2(
    const aclIntArray *tensorShape, aclDataType dataType, uint64_t *weightTensorSize);
ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSize(
    const aclIntArray *tensorShape, uint64_t *weightTensorSize);
ACLNN_API aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(
    aclTensor *mmWeightRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTransMatmulWeight(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H */
