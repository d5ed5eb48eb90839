/*
 * aclnnop/aclnn_quant_matmul.h - int8 matrix product with an int32 bias, dequantized by one float scale.
 */
#ifndef VNPU_ACLNNOP_ACLNN_QUANT_MATMUL_H
#define VNPU_ACLNNOP_ACLNN_QUANT_MATMUL_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnQuantMatmul: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnQuantMatmulGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, float deqScale, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnQuantMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_QUANT_MATMUL_H */
