/*
 * aclnnop/aclnn_split_with_size.h - torch.split with sizes: parts of splitSize[i] along dim.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H
#define VNPU_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSplitWithSize: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *splitSize, int64_t dim, aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSplitWithSize(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H */
