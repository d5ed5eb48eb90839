/*
 * aclnnop/aclnn_celu.h - CELU: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), and its in-place form.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CELU_H
#define VNPU_ACLNNOP_ACLNN_CELU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnCelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnCeluGetWorkspaceSize(
    const aclTensor *self, const aclScalar *alpha, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceCelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceCeluGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *alpha, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceCelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CELU_H */
