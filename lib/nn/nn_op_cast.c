/* SPDX-License-Identifier: MIT */
/*
 * aclnnCast (the cast family): self converted to another dtype, between
 * every dtype the device holds: the eight operators compute in and the
 * storage-only INT16, UINT16, UINT32, UINT64 and DOUBLE. One CAST task;
 * Documentation/ops.md has its rounding and overflow rules.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_cast.h"
#include "../core/prof_rt.h"

/* A Cast operand: non-NULL, alive, and of a dtype the device holds. */
static aclnnStatus cast_check_tensor(const char *func, const aclTensor *t,
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
				   "%s: Cast does not take dtype %d", name,
				   (int)t->dtype);
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in, o;
	aclOpExecutor *ex;
	aclnnStatus st;

	st = cast_check_tensor(func, self, "self");
	if (!st)
		st = cast_check_tensor(func, out, "out");
	if (st)
		return st;
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
