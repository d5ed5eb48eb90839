/*
 * aclnnop/aclnn_prelu.h - PReLU: x < 0 ? weight * x : x, weight per channel (dim 1) or one value.
 */
#ifndef VNPU_ACLNNOP_ACLNN_PRELU_H
#define VNPU_ACLNNOP_ACLNN_PRELU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnPrelu: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnPreluGetWorkspaceSize(
    const aclTensor *self, const aclTensor *weight, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPrelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_PRELU_H */
