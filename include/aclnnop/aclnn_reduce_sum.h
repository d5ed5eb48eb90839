/*
 * aclnnop/aclnn_reduce_sum.h - sum over dims (empty: all), computed and returned in dtype.
 */
#ifndef VNPU_ACLNNOP_ACLNN_REDUCE_SUM_H
#define VNPU_ACLNNOP_ACLNN_REDUCE_SUM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnReduceSum: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReduceSum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REDUCE_SUM_H */
