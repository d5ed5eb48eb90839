/*
 * aclnnop/aclnn_gather_nd.h - slices of self named by index tuples (ONNX GatherND).
 */
#ifndef VNPU_ACLNNOP_ACLNN_GATHER_ND_H
#define VNPU_ACLNNOP_ACLNN_GATHER_ND_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnGatherNd: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnGatherNdGetWorkspaceSize(
    const aclTensor *self, const aclTensor *indices, bool negativeIndexSupport, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGatherNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GATHER_ND_H */
