/*
 * aclnnop/aclnn_remainder.h - remainder with the sign of the divisor (Python's %).
 */
#ifndef VNPU_ACLNNOP_ACLNN_REMAINDER_H
#define VNPU_ACLNNOP_ACLNN_REMAINDER_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnRemainderTensorTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(
    const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRemainderTensorTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REMAINDER_H */
