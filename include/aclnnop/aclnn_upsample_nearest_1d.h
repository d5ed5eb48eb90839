/*
 * aclnnop/aclnn_upsample_nearest_1d.h - nearest upsampling of NCL to outputSize (L).
 */
#ifndef VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_H
#define VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnUpsampleNearest1d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnUpsampleNearest1dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *outputSize, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest1d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_1D_H */
