/*
 * aclnnop/aclnn_tril.h - lower triangle of the last two dims (j - i <= diagonal kept, the rest 0).
 */
#ifndef VNPU_ACLNNOP_ACLNN_TRIL_H
#define VNPU_ACLNNOP_ACLNN_TRIL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnTril: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnTrilGetWorkspaceSize(
    const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTril(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_TRIL_H */
