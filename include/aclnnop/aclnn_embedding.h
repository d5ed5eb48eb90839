/*
 * aclnnop/aclnn_embedding.h - rows of weight picked by indices.
 */
#ifndef VNPU_ACLNNOP_ACLNN_EMBEDDING_H
#define VNPU_ACLNNOP_ACLNN_EMBEDDING_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnEmbedding: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(
    const aclTensor *weight, const aclTensor *indices, const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEmbedding(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_EMBEDDING_H */
