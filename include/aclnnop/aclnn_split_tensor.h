/*
 * aclnnop/aclnn_split_tensor.h - torch.split with one size: parts of splitSections along dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SPLIT_TENSOR_H
#define VNPU_ACLNNOP_ACLNN_SPLIT_TENSOR_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSplitTensor: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSplitTensorGetWorkspaceSize(
    const aclTensor *self, uint64_t splitSections, int64_t dim, aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSplitTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SPLIT_TENSOR_H */
