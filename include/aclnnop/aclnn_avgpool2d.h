/*
 * aclnnop/aclnn_avgpool2d.h - 2-D average pooling, NCHW; divisorOverride (> 0) divides every window by itself.
 */
#ifndef VNPU_ACLNNOP_ACLNN_AVGPOOL2D_H
#define VNPU_ACLNNOP_ACLNN_AVGPOOL2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnAvgPool2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnAvgPool2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *strides, const aclIntArray *paddings,
    bool ceilMode, bool countIncludePad, int64_t divisorOverride, int8_t cubeMathType, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_AVGPOOL2D_H */
