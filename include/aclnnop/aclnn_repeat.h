/*
 * aclnnop/aclnn_repeat.h - torch.Tensor.repeat: self tiled repeats times per dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_REPEAT_H
#define VNPU_ACLNNOP_ACLNN_REPEAT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnRepeat: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnRepeatGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *repeats, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRepeat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REPEAT_H */
