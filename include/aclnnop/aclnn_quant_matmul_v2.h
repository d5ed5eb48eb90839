/*
 * aclnnop/aclnn_quant_matmul_v2.h - int8 matrix product with an int32 bias, dequantized by per-column scales.
 */
#ifndef VNPU_ACLNNOP_ACLNN_QUANT_MATMUL_V2_H
#define VNPU_ACLNNOP_ACLNN_QUANT_MATMUL_V2_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnQuantMatmulV2: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnQuantMatmulV2GetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *bias, const aclTensor *deqScale, bool adjX1,
    bool adjX2, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnQuantMatmulV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_QUANT_MATMUL_V2_H */
