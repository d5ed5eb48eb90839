/*
 * aclnnop/aclnn_im2col.h - unfold sliding 2-D blocks of an image into columns.
 */
#ifndef VNPU_ACLNNOP_ACLNN_IM2COL_H
#define VNPU_ACLNNOP_ACLNN_IM2COL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2colGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *dilation,
    const aclIntArray *padding, const aclIntArray *stride, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnIm2col(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_IM2COL_H */
