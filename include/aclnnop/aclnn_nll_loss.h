/*
 * aclnnop/aclnn_nll_loss.h - negative log likelihood loss of log-probabilities self (N, C) or (C) for class indices target (N) or (); reduction 0 none, 1 mean, 2 sum; totalWeightOut the sum of the weights taken.
 */
#ifndef VNPU_ACLNNOP_ACLNN_NLL_LOSS_H
#define VNPU_ACLNNOP_ACLNN_NLL_LOSS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnNLLLoss: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnNLLLossGetWorkspaceSize(
    const aclTensor *self, const aclTensor *target, const aclTensor *weight, int64_t reduction,
    int64_t ignoreIndex, aclTensor *out, aclTensor *totalWeightOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNLLLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_NLL_LOSS_H */
