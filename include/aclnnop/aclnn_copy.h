/*
 * aclnnop/aclnn_copy.h - selfRef = src, broadcast to selfRef's shape and cast to its dtype.
 */
#ifndef VNPU_ACLNNOP_ACLNN_COPY_H
#define VNPU_ACLNNOP_ACLNN_COPY_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnInplaceCopy: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *src, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_COPY_H */
