/*
 * aclnnop/aclnn_norm.h - p-norm over dims (empty: all): p 1, 2, inf (max |x|) or -inf (min |x|).
 */
#ifndef VNPU_ACLNNOP_ACLNN_NORM_H
#define VNPU_ACLNNOP_ACLNN_NORM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnNorm: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnNormGetWorkspaceSize(
    const aclTensor *self, const aclScalar *pScalar, const aclIntArray *dim, bool keepdim, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_NORM_H */
