/*
 * aclnnop/aclnn_ger.h - outer product of two vectors.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GER_H
#define VNPU_ACLNNOP_ACLNN_GER_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGerGetWorkspaceSize(
    const aclTensor *self, const aclTensor *vec2, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGer(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GER_H */
