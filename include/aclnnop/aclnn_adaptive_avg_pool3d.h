/*
 * aclnnop/aclnn_adaptive_avg_pool3d.h - 3-D adaptive average pooling to outputSize (D, H, W), NCDHW.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H
#define VNPU_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnAdaptiveAvgPool3d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H */
