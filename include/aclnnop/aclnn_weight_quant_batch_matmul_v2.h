/*
 * aclnnop/aclnn_weight_quant_batch_matmul_v2.h - x times an int8/int4 weight dequantised on the fly (antiquant scale/offset).
 */
#ifndef VNPU_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H
#define VNPU_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *antiquantScale,
    const aclTensor *antiquantOffsetOptional, const aclTensor *quantScaleOptional,
    const aclTensor *quantOffsetOptional, const aclTensor *biasOptional, int antiquantGroupSize,
    const aclTensor *y, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnWeightQuantBatchMatmulV2(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_WEIGHT_QUANT_BATCH_MATMUL_V2_H */
