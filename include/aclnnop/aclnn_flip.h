/*
 * aclnnop/aclnn_flip.h - torch.flip: self reversed along each dim of dims.
 */
#ifndef VNPU_ACLNNOP_ACLNN_FLIP_H
#define VNPU_ACLNNOP_ACLNN_FLIP_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnFlip: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnFlipGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dims, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFlip(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_FLIP_H */
