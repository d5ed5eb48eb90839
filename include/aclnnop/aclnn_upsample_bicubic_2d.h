/*
 * aclnnop/aclnn_upsample_bicubic_2d.h - bicubic upsampling of NCHW to outputSize (H, W).
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_BICUBIC_2D_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_BICUBIC_2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnUpsampleBicubic2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnUpsampleBicubic2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, const bool alignCorners, const double scalesH,
    const double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleBicubic2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_BICUBIC_2D_H */
