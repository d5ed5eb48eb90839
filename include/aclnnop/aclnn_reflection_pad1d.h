/*
 * aclnnop/aclnn_reflection_pad1d.h - pad the last dim by reflecting it at its edges.
 */
#ifndef VNPU_ACLNNOP_ACLNN_REFLECTION_PAD1D_H
#define VNPU_ACLNNOP_ACLNN_REFLECTION_PAD1D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *padding, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReflectionPad1d(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REFLECTION_PAD1D_H */
