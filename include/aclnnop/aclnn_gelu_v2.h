/*
 * aclnnop/aclnn_gelu_v2.h - GELU with a choice of form: approximate 0 (erf) or 1 (tanh).
 */
#ifndef VNPU_ACLNNOP_ACLNN_GELU_V2_H
#define VNPU_ACLNNOP_ACLNN_GELU_V2_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnGeluV2: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnGeluV2GetWorkspaceSize(
    const aclTensor *x, int64_t approximate, aclTensor *y, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGeluV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GELU_V2_H */
