/*
 * aclnnop/aclnn_lt_scalar.h - elementwise self < a scalar, out BOOL (or any dtype that holds 0/1).
 */
#ifndef VNPU_ACLNNOP_ACLNN_LT_SCALAR_H
#define VNPU_ACLNNOP_ACLNN_LT_SCALAR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnLtScalar: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnLtScalarGetWorkspaceSize(
    const aclTensor *self, const aclScalar *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLtScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LT_SCALAR_H */
