/*
 * aclnnop/aclnn_softplus.h - softplus: log(1 + exp(beta x)) / beta, x where beta x > threshold.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SOFTPLUS_H
#define VNPU_ACLNNOP_ACLNN_SOFTPLUS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSoftplus: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSoftplusGetWorkspaceSize(
    const aclTensor *self, const aclScalar *beta, const aclScalar *threshold, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftplus(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SOFTPLUS_H */
