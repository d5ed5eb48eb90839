/*
 * aclnnop/aclnn_swi_glu.h - Swish-gated linear unit: split x in two along dim, silu(first) * second.
 */
#ifndef VNPU_ACLNNOP_ACLNN_SWI_GLU_H
#define VNPU_ACLNNOP_ACLNN_SWI_GLU_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSwiGluGetWorkspaceSize(
    const aclTensor *x, int64_t dim, const aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSwiGlu(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_SWI_GLU_H */
