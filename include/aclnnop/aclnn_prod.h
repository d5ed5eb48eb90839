/*
 * aclnnop/aclnn_prod.h - product of all elements (Prod) or along one dim (ProdDim), computed in dtype.
 */
#ifndef VNPU_ACLNNOP_ACLNN_PROD_H
#define VNPU_ACLNNOP_ACLNN_PROD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnProd: the product of every element into a 0-d out of dtype */
ACLNN_API aclnnStatus aclnnProdGetWorkspaceSize(
    const aclTensor *self, const aclDataType dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnProd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnProdDim: the product along dim, keepDim keeps it as 1 */
ACLNN_API aclnnStatus aclnnProdDimGetWorkspaceSize(
    const aclTensor *self, int64_t dim, bool keepDim, const aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnProdDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_PROD_H */
