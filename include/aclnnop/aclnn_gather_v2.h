/*
 * aclnnop/aclnn_gather_v2.h - pick slices of self along dim by an index tensor (TensorFlow GatherV2).
 */
#ifndef VNPU_ACLNNOP_ACLNN_GATHER_V2_H
#define VNPU_ACLNNOP_ACLNN_GATHER_V2_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV2GetWorkspaceSize(
    const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGatherV2(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GATHER_V2_H */
