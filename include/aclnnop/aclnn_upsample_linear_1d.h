/*
 * aclnnop/aclnn_upsample_linear_1d.h - linear upsampling of NCL to outputSize (L).
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnUpsampleLinear1d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnUpsampleLinear1dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, const bool alignCorners, const double scales,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleLinear1d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_LINEAR_1D_H */
