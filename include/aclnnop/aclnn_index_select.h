/*
 * aclnnop/aclnn_index_select.h - the entries of self at index (1-D) along dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_INDEX_SELECT_H
#define VNPU_ACLNNOP_ACLNN_INDEX_SELECT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnIndexSelect: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnIndexSelectGetWorkspaceSize(
    const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnIndexSelect(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_INDEX_SELECT_H */
