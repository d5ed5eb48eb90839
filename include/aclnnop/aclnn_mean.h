/*
 * aclnnop/aclnn_mean.h - mean over dims (empty: all), computed and returned in the float dtype.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MEAN_H
#define VNPU_ACLNNOP_ACLNN_MEAN_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnMean: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnMeanGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MEAN_H */
