/*
 * aclnnop/aclnn_max_pool2d_with_indices.h - 2-D max pooling, NCHW, with the index of each maximum within its H x W plane (as PyTorch's max_pool2d with return_indices).
 */
#ifndef VNPU_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H
#define VNPU_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnMaxPool2dWithIndices: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaxPool2dWithIndices(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H */
