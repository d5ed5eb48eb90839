/*
 * aclnnop/aclnn_argmin.h - index (INT64) of the first minimum along dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ARGMIN_H
#define VNPU_ACLNNOP_ACLNN_ARGMIN_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnArgMin: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnArgMinGetWorkspaceSize(
    const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnArgMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ARGMIN_H */
