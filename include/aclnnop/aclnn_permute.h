/*
 * aclnnop/aclnn_permute.h - out = self with its dims reordered by dims (a strided copy).
 */
#ifndef VNPU_ACLNNOP_ACLNN_PERMUTE_H
#define VNPU_ACLNNOP_ACLNN_PERMUTE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnPermute: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dims, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPermute(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_PERMUTE_H */
