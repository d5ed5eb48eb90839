/*
 * aclnnop/aclnn_roll.h - rotate self along dims by shifts, elements leaving one end enter the other.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ROLL_H
#define VNPU_ACLNNOP_ACLNN_ROLL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(
    const aclTensor *x, const aclIntArray *shifts, const aclIntArray *dims, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRoll(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ROLL_H */
