/*
 * aclnnop/aclnn_gather.h - torch.gather along dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_GATHER_H
#define VNPU_ACLNNOP_ACLNN_GATHER_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnGather: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnGatherGetWorkspaceSize(
    const aclTensor *self, const int64_t dim, const aclTensor *index, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGather(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_GATHER_H */
