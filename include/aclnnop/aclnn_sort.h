/*
 * aclnnop/aclnn_sort.h - stable sort along dim, values and INT64 indices.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SORT_H
#define VNPU_ACLNNOP_ACLNN_SORT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSort: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSortGetWorkspaceSize(
    const aclTensor *self, bool stable, int64_t dim, bool descending, aclTensor *valuesOut, aclTensor *indicesOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSort(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SORT_H */
