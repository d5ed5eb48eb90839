/*
 * aclnnop/aclnn_adaptive_max_pool2d.h - 2-D adaptive max pooling to outputSize (H, W) with the indices of the maxima, NCHW.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H
#define VNPU_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnAdaptiveMaxPool2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, aclTensor *outputOut, aclTensor *indicesOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADAPTIVE_MAX_POOL2D_H */
