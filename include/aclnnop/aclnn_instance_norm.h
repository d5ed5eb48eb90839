/*
 * aclnnop/aclnn_instance_norm.h - instance normalisation of a 4-D x laid out as dataFormat ("NCHW" or "NHWC"), per sample and channel, with the mean and (population) variance as outputs.
 */
#ifndef VNPU_ACLNNOP_ACLNN_INSTANCE_NORM_H
#define VNPU_ACLNNOP_ACLNN_INSTANCE_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnInstanceNorm: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInstanceNormGetWorkspaceSize(
    const aclTensor *x, const aclTensor *gamma, const aclTensor *beta, const char *dataFormat, double eps,
    aclTensor *y, aclTensor *mean, aclTensor *variance, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInstanceNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_INSTANCE_NORM_H */
