/*
 * aclnnop/aclnn_triangular_solve.h - solve A X = B for a triangular A.
 */
#ifndef VNPU_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H
#define VNPU_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTriangularSolveGetWorkspaceSize(
    const aclTensor *self, const aclTensor *A, bool upper, bool transpose, bool unitriangular,
    aclTensor *xOut, aclTensor *mOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTriangularSolve(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_TRIANGULAR_SOLVE_H */
