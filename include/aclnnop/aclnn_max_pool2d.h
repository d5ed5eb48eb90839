/*
 * aclnnop/aclnn_max_pool2d.h - 2-D max pooling, NCHW (kernel, stride defaulting to the kernel, symmetric padding, dilation, ceil mode).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MAX_POOL2D_H
#define VNPU_ACLNNOP_ACLNN_MAX_POOL2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnMaxPool2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnMaxPool2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, bool ceilMode, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaxPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MAX_POOL2D_H */
