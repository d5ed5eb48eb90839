/*
 * aclnnop/aclnn_replication_pad2d.h - edge padding of the last two dims; padding (left, right, top, bottom).
 */
#ifndef VNPU_ACLNNOP_ACLNN_REPLICATION_PAD2D_H
#define VNPU_ACLNNOP_ACLNN_REPLICATION_PAD2D_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclnnReplicationPad2d: phase 1 (size the workspace, build the executor), phase 2 (launch) */
ACLNN_API aclnnStatus aclnnReplicationPad2dGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *padding, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReplicationPad2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_REPLICATION_PAD2D_H */
