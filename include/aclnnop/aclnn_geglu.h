/*
 * aclnnop/aclnn_geglu.h - GELU-gated linear unit: split self in two along dim, gelu(one half) * other.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GEGLU_H
#define VNPU_ACLNNOP_ACLNN_GEGLU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeGluGetWorkspaceSize(
    const aclTensor *self, int64_t dim, int64_t approximate, aclTensor *out, aclTensor *outGelu,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGeGluV3GetWorkspaceSize(
    const aclTensor *self, int64_t dim, int64_t approximate, bool activateLeft, aclTensor *out,
    aclTensor *outGelu, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGeGlu(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnGeGluV3(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GEGLU_H */
