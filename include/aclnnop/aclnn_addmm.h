/*
 * aclnnop/aclnn_addmm.h - out = beta * self + alpha * (mat1 @ mat2); self broadcasts to [m, n].
 */
#ifndef VNPU_ACLNNOP_ACLNN_ADDMM_H
#define VNPU_ACLNNOP_ACLNN_ADDMM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddmmGetWorkspaceSize(
    const aclTensor *self, const aclTensor *mat1, const aclTensor *mat2, const aclScalar *beta,
    const aclScalar *alpha, aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAddmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ADDMM_H */
