/*
 * aclnnop/aclnn_convolution.h - Convolution (optionally transposed), the time-batch-channel convolution and
 * depthwise 2-D convolution.  cubeMathType selects the cube-unit precision policy.
 */
#ifndef VNPU_ACLNNOP_ACLNN_CONVOLUTION_H
#define VNPU_ACLNNOP_ACLNN_CONVOLUTION_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnConvolution: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnConvolutionGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *bias, const aclIntArray *stride,
    const aclIntArray *padding, const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding,
    const int64_t groups, aclTensor *output, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConvolution(
    void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnConvTbc: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnConvTbcGetWorkspaceSize(
    const aclTensor *self, const aclTensor *weight, const aclTensor *bias, const int64_t pad, aclTensor *output,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConvTbc(
    void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnConvDepthwise2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(
    const aclTensor *self, const aclTensor *weight, const aclIntArray *kernelSize, const aclTensor *bias,
    const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConvDepthwise2d(
    void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CONVOLUTION_H */
