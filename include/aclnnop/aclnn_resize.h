/*
 * aclnnop/aclnn_resize.h - resize an NCHW tensor by scales, mode "nearest" or "bilinear".
 */
#ifndef VNPU_ACLNNOP_ACLNN_RESIZE_H
#define VNPU_ACLNNOP_ACLNN_RESIZE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnResize: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnResizeGetWorkspaceSize(
    const aclTensor *self, const aclFloatArray *scales, const char *mode, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnResize(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RESIZE_H */
