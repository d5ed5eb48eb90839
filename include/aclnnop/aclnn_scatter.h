/*
 * aclnnop/aclnn_scatter.h - torch.scatter along dim; reduce 0 replace, 1 add, 2 multiply.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SCATTER_H
#define VNPU_ACLNNOP_ACLNN_SCATTER_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnScatter: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnScatterGetWorkspaceSize(
    const aclTensor *self, int64_t dim, const aclTensor *index, const aclTensor *src, int64_t reduce, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnScatter(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SCATTER_H */
