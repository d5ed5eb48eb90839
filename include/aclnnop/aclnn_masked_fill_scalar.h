/*
 * aclnnop/aclnn_masked_fill_scalar.h - selfRef[mask] = value, mask broadcasting to selfRef, in place.
 */
#ifndef VNPU_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnInplaceMaskedFillScalar: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *mask, const aclScalar *value, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H */
