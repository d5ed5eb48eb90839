/*
 * aclnnop/aclnn_batch_norm.h - batch normalisation with the running statistics (inference: training false,
 * saveMean and saveInvstd NULL).
 */
#ifndef VNPU_ACLNNOP_ACLNN_BATCH_NORM_H
#define VNPU_ACLNNOP_ACLNN_BATCH_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnBatchNorm: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *bias, aclTensor *runningMean,
    aclTensor *runningVar, bool training, double momentum, double eps, aclTensor *output, aclTensor *saveMean,
    aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_BATCH_NORM_H */
