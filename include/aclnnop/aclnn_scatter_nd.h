/*
 * aclnnop/aclnn_scatter_nd.h - a copy of data with the slices indices names replaced by updates.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SCATTER_ND_H
#define VNPU_ACLNNOP_ACLNN_SCATTER_ND_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnScatterNd: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnScatterNdGetWorkspaceSize(
    const aclTensor *data, const aclTensor *indices, const aclTensor *updates, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnScatterNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SCATTER_ND_H */
