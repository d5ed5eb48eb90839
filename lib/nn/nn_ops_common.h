/* SPDX-License-Identifier: MIT */
/*
 * What every aclnn operator file shares: argument checks, executor
 * creation and completion of phase 1, and the phase-2 entry points.
 * Macros use the enclosing function's `func` (its API name).
 */
#ifndef VNPU_NN_OPS_COMMON_H
#define VNPU_NN_OPS_COMMON_H

#include "nn.h"

#define NEED(x)								\
	do {								\
		if (!(x))						\
			return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR, \
					   "%s must not be NULL", #x);	\
	} while (0)

/* A tensor argument is non-NULL, alive and of a dtype the device has. */
aclnnStatus nn_check_tensor(const char *func, const aclTensor *t,
			    const char *name);

#define CHECK_T(t)							\
	do {								\
		aclnnStatus st_ = nn_check_tensor(func, (t), #t);	\
		if (st_)						\
			return st_;					\
	} while (0)

#define NEW_EX(ex)							\
	do {								\
		(ex) = nn_exec_new(func);				\
		if (!(ex))						\
			return acl_fail_at(func, ACLNN_ERR_INNER_CREATE_EXECUTOR, \
					   "out of memory");		\
	} while (0)

/* End phase 1: hand out the executor, or free it if a task did not fit. */
aclnnStatus nn_finish(const char *func, aclOpExecutor *ex, int ret,
		      uint64_t *workspaceSize, aclOpExecutor **executor);

/* Store a float attribute as its bit pattern. */
void nn_set_float(struct drm_vnpu_op_attrs *a, int i, float v);

/* Phase 2 of an operator: launch its executor on a stream. */
#define LAUNCH(name)							\
	aclnnStatus name(void *workspace, uint64_t workspaceSize,	\
			 aclOpExecutor *executor, aclrtStream stream)	\
	{								\
		return nn_launch(__func__, workspace, workspaceSize,	\
				 executor, stream);			\
	}

#endif /* VNPU_NN_OPS_COMMON_H */
