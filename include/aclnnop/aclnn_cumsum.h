/*
 * aclnnop/aclnn_cumsum.h - running sum along dim (Cumsum, in dtype), or exclusive / reversed (CumsumV2).
 */
#ifndef VNPU_ACLNNOP_ACLNN_CUMSUM_H
#define VNPU_ACLNNOP_ACLNN_CUMSUM_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnCumsum: out[i] = self[0] + ... + self[i] along dim, computed in dtype (out's) */
ACLNN_API aclnnStatus aclnnCumsumGetWorkspaceSize(
    const aclTensor *self, int64_t dim, aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCumsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/* aclnnCumsumV2: exclusive leaves element i out of its own sum; reverse sums from the end */
ACLNN_API aclnnStatus aclnnCumsumV2GetWorkspaceSize(
    const aclTensor *self, int64_t dim, bool exclusive, bool reverse, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCumsumV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_CUMSUM_H */
