/*
 * aclnnop/aclnn_cast.h - Element type conversion of a tensor to dtype.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CAST_H
#define VNPU_ACLNNOP_ACLNN_CAST_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnCast: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(
    const aclTensor *self, const aclDataType dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CAST_H */
