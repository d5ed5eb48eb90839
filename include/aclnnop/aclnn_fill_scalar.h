/*
 * aclnnop/aclnn_fill_scalar.h - selfRef filled with a scalar value.
 */
#ifndef VNPU_ACLNNOP_ACLNN_FILL_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_FILL_SCALAR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnInplaceFillScalar: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *value, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFillScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FILL_SCALAR_H */
