/*
 * aclnnop/aclnn_recurrent_gated_delta_rule.h - the gated delta rule recurrence of linear-attention models.
 */
#ifndef VNPU_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H
#define VNPU_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *beta,
    aclTensor *stateRef, const aclTensor *actualSeqLengths, const aclTensor *ssmStateIndices,
    const aclTensor *g, const aclTensor *gk, const aclTensor *numAcceptedTokens, float scaleValue,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRecurrentGatedDeltaRule(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H */
