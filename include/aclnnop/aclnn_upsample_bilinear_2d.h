/*
 * aclnnop/aclnn_upsample_bilinear_2d.h - bilinear upsampling of NCHW to outputSize (H, W).
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnUpsampleBilinear2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, const bool alignCorners, const double scalesH,
    const double scalesW, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleBilinear2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_BILINEAR_2D_H */
