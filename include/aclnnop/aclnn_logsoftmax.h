/*
 * aclnnop/aclnn_logsoftmax.h - log(softmax(self)) along dim, under CANN's header name.
 */
#ifndef VNPU_ACLNNOP_ACLNN_LOGSOFTMAX_H
#define VNPU_ACLNNOP_ACLNN_LOGSOFTMAX_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(
    const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLogSoftmax(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_LOGSOFTMAX_H */
