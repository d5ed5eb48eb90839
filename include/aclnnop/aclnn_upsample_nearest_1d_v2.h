/*
 * aclnnop/aclnn_upsample_nearest_1d_v2.h - nearest upsampling of NCL to outputSize (L), with PyTorch's scale factor.
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnUpsampleNearest1dV2: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnUpsampleNearest1dV2GetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, float scaleL, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest1dV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_V2_H */
