/* SPDX-License-Identifier: MIT */
/*
 * aclnnCast (the cast family): self converted to another dtype.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_cast.h"

/* -------------------------------------------------------------- cast -- */

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	const char *func = __func__;
	struct nn_ref in, o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (out->dtype != dtype)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "out has dtype %d, not %d", (int)out->dtype,
				   (int)dtype);
	if (!nn_same_shape(self, out))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self and out differ in shape");
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	/* Same dtype: a CAST is a strided copy. */
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_CAST, &in, 1, &o, NULL),
		      workspaceSize, executor);
}
LAUNCH(aclnnCast)
