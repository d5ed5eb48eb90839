/*
 * aclnnop/aclnn_group_norm.h - group normalisation of self (N, C, ...) in `group` groups of channels, with each group's mean and 1/std as outputs.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GROUP_NORM_H
#define VNPU_ACLNNOP_ACLNN_GROUP_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnGroupNorm: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnGroupNormGetWorkspaceSize(
    const aclTensor *self, const aclTensor *gamma, const aclTensor *beta, int64_t N, int64_t C, int64_t HxW,
    int64_t group, double eps, aclTensor *out, aclTensor *meanOut, aclTensor *rstdOut, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GROUP_NORM_H */
