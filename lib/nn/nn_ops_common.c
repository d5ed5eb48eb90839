/* SPDX-License-Identifier: MIT */
/* See nn_ops_common.h. */
#include <string.h>

#include "nn_ops_common.h"

aclnnStatus nn_check_tensor(const char *func, const aclTensor *t,
			    const char *name)
{
	if (!t)
		return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s must not be NULL", name);
	if (t->magic != TENSOR_MAGIC)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "%s is not a live tensor", name);
	if (!nn_dtype_size(t->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "%s: dtype %d is not supported", name,
				   (int)t->dtype);
	return ACLNN_SUCCESS;
}

aclnnStatus nn_finish(const char *func, aclOpExecutor *ex, int ret,
		      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	if (ret || ex->failed) {
		nn_exec_free(ex);
		return acl_fail_at(func, ACLNN_ERR_INNER,
				   "the tasks do not fit (out of memory or too many tensors)");
	}
	*workspaceSize = ex->ws_size;
	*executor = ex;
	return ACLNN_SUCCESS;
}

void nn_set_float(struct drm_vnpu_op_attrs *a, int i, float v)
{
	memcpy(&a->floats[i], &v, 4);
}
