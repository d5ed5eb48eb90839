/*
 * aclnnop/aclnn_zero.h - set every element of selfRef to zero.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ZERO_H
#define VNPU_ACLNNOP_ACLNN_ZERO_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceZeroGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceZero(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ZERO_H */
