/*
 * aclnnop/aclnn_grouped_matmul_v3.h - several matmuls in one call (mixture of experts), grouped by a list.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H
#define VNPU_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulV3GetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional,
    const aclTensorList *scaleOptional, const aclTensorList *offsetOptional,
    const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional,
    const aclTensor *groupListOptional, int64_t splitItem, int64_t groupType,
    const aclTensorList *y, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulV3(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H */
