/*
 * aclnnop/aclnn_hardsigmoid.h - relu6(x + 3) / 6, elementwise, and its in-place form.
 */
#ifndef VNPU_ACLNNOP_ACLNN_HARDSIGMOID_H
#define VNPU_ACLNNOP_ACLNN_HARDSIGMOID_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnHardsigmoid: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnHardsigmoidGetWorkspaceSize(
    const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceHardsigmoid: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(
    aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_HARDSIGMOID_H */
