/*
 * aclnnop/aclnn_s_where.h - condition ? self : other, broadcast.
 */
#ifndef VNPU_ACLNNOP_ACLNN_S_WHERE_H
#define VNPU_ACLNNOP_ACLNN_S_WHERE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSWhere: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSWhereGetWorkspaceSize(
    const aclTensor *condition, const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSWhere(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_S_WHERE_H */
