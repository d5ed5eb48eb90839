/*
 * aclnnop/aclnn_hardtanh.h - hardtanh: self clamped to [clipValueMin, clipValueMax], and its in-place form.
 */
#ifndef VNPU_ACLNNOP_ACLNN_HARDTANH_H
#define VNPU_ACLNNOP_ACLNN_HARDTANH_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnHardtanh: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnHardtanhGetWorkspaceSize(
    const aclTensor *self, const aclScalar *clipValueMin, const aclScalar *clipValueMax, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnHardtanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnInplaceHardtanh: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnInplaceHardtanhGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *clipValueMin, const aclScalar *clipValueMax, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceHardtanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_HARDTANH_H */
