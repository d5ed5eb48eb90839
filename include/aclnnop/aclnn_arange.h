/*
 * aclnnop/aclnn_arange.h - torch.arange: start, start + step, ... below end.
 */
#ifndef VNPU_ACLNNOP_ACLNN_ARANGE_H
#define VNPU_ACLNNOP_ACLNN_ARANGE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnArange: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnArangeGetWorkspaceSize(
    const aclScalar *start, const aclScalar *end, const aclScalar *step, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnArange(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_ARANGE_H */
