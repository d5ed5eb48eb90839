/*
 * aclnnop/aclnn_sum.h - elementwise sum of a tensor list.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SUM_H
#define VNPU_ACLNNOP_ACLNN_SUM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSumGetWorkspaceSize(
    const aclTensorList *tensors, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSum(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SUM_H */
