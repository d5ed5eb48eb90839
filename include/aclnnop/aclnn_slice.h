/*
 * aclnnop/aclnn_slice.h - self[..., start:end:step, ...] along dim; start and end are clamped.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SLICE_H
#define VNPU_ACLNNOP_ACLNN_SLICE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnSlice: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnSliceGetWorkspaceSize(
    const aclTensor *self, int64_t dim, int64_t start, int64_t end, int64_t step, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSlice(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SLICE_H */
