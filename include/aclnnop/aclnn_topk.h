/*
 * aclnnop/aclnn_topk.h - the k largest (or smallest) entries along dim and their INT64 indices.
 */
#ifndef VNPU_ACLNNOP_ACLNN_TOPK_H
#define VNPU_ACLNNOP_ACLNN_TOPK_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnTopk: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnTopkGetWorkspaceSize(
    const aclTensor *self, int64_t k, int64_t dim, bool largest, bool sorted, aclTensor *valuesOut,
    aclTensor *indicesOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTopk(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_TOPK_H */
