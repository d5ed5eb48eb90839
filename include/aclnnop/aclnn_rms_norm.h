/*
 * aclnnop/aclnn_rms_norm.h - RMS normalisation over gamma's trailing dims (rstdOut must be NULL).
 */
#ifndef VNPU_ACLNNOP_ACLNN_RMS_NORM_H
#define VNPU_ACLNNOP_ACLNN_RMS_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnRmsNorm: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(
    const aclTensor *x, const aclTensor *gamma, double epsilon, const aclTensor *yOut, const aclTensor *rstdOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RMS_NORM_H */
