/*
 * aclnnop/aclnn_constant_pad_nd.h - constant padding; pad holds (before, after) pairs from the last dim backwards.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H
#define VNPU_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnConstantPadNd: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *pad, const aclScalar *value, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H */
