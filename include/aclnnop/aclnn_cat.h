/*
 * aclnnop/aclnn_cat.h - tensors (1 to 3) joined along dim, cast to out's dtype.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CAT_H
#define VNPU_ACLNNOP_ACLNN_CAT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnCat: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnCatGetWorkspaceSize(
    const aclTensorList *tensors, int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CAT_H */
