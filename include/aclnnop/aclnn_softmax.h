/*
 * aclnnop/aclnn_softmax.h - Softmax along dimension dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SOFTMAX_H
#define VNPU_ACLNNOP_ACLNN_SOFTMAX_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSoftmax: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(
    const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSoftmax(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SOFTMAX_H */
