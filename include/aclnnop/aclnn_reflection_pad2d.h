/*
 * aclnnop/aclnn_reflection_pad2d.h - reflect padding of the last two dims; padding (left, right, top, bottom).
 */
#ifndef VNPU_ACLNNOP_ACLNN_REFLECTION_PAD2D_H
#define VNPU_ACLNNOP_ACLNN_REFLECTION_PAD2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnReflectionPad2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnReflectionPad2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *padding, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReflectionPad2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REFLECTION_PAD2D_H */
