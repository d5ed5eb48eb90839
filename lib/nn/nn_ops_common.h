/* SPDX-License-Identifier: MIT */
/*
 * What every aclnn operator file shares: argument checks, executor
 * creation and completion of phase 1, and the phase-2 entry points.
 * Macros use the enclosing function's `func` (its API name).
 */
#ifndef VNPU_NN_OPS_COMMON_H
#define VNPU_NN_OPS_COMMON_H

#include "nn.h"
#include "../core/prof_rt.h"

#define NEED(x)								\
	do {								\
		if (!(x))						\
			return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR, \
					   "%s must not be NULL", #x);	\
	} while (0)

/*
 * A tensor argument is non-NULL, alive and of a dtype operators compute
 * in (aclnnCast takes more: see nn_op_cast.c).
 */
aclnnStatus nn_check_tensor(const char *func, const aclTensor *t,
			    const char *name);

/*
 * As nn_check_tensor, but any of the thirteen dtypes the device holds
 * (the elementwise binary operators compute in all of them).
 */
aclnnStatus nn_check_tensor_any(const char *func, const aclTensor *t,
				const char *name);
bool nn_dtype_is_device(aclDataType dt);

#define CHECK_T_ANY(t)							\
	do {								\
		aclnnStatus st_ = nn_check_tensor_any(func, (t), #t);	\
		if (st_)						\
			return st_;					\
	} while (0)

/* A scalar argument is non-NULL and has a value operators can use. */
aclnnStatus nn_check_scalar(const char *func, const aclScalar *s,
			    const char *name);

#define CHECK_S(s)							\
	do {								\
		aclnnStatus st_ = nn_check_scalar(func, (s), #s);	\
		if (st_)						\
			return st_;					\
	} while (0)

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

/* An invalid argument, reported from the enclosing API function. */
#define BAD(...) acl_fail_at(func, ACLNN_ERR_PARAM_INVALID, __VA_ARGS__)

/* 0 BOOL, 1 integer, 2 floating point: PyTorch's promotion categories. */
int nn_dtype_category(aclDataType dt);
/* PyTorch's promotion of two tensor dtypes; -1 if the device has no result. */
int nn_promote(aclDataType a, aclDataType b);
/* Whether a result of dtype cdt may be written to out (no lower category). */
bool nn_out_can_hold(aclDataType cdt, aclDataType out);
bool nn_same_shape(const aclTensor *a, const aclTensor *b);
bool nn_dims_are(const aclTensor *t, uint64_t n, const int64_t *d);
/* A negative dim counted from the end. */
int64_t nn_wrap_dim(int64_t dim, int64_t rank);

/*
 * A one-input elementwise op (unary family, softmax) from self to out of
 * the same shape; int_ok: the op takes integer dtypes, else integers
 * compute in float. at may be NULL.
 */
aclnnStatus nn_unary(const char *func, uint32_t op, const aclTensor *self,
		     const aclTensor *out, bool int_ok,
		     const struct drm_vnpu_op_attrs *at,
		     uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2 of an operator: launch its executor on a stream. */
#define LAUNCH(name)							\
	aclnnStatus name(void *workspace, uint64_t workspaceSize,	\
			 aclOpExecutor *executor, aclrtStream stream)	\
	{								\
		PROF_API();						\
		return nn_launch(__func__, workspace, workspaceSize,	\
				 executor, stream);			\
	}

/* aclnn<Name>: self -> out through nn_unary with the op's defaults. */
#define NN_UNARY_OP(Name, OP, INT_OK)					\
	aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor *self, \
			aclTensor *out, uint64_t *workspaceSize,	\
			aclOpExecutor **executor)			\
	{								\
		PROF_API();						\
		return nn_unary(__func__, OP, self, out, INT_OK, NULL,	\
				workspaceSize, executor);		\
	}								\
	LAUNCH(aclnn##Name)

/* NN_UNARY_OP and its in-place form, aclnnInplace<Name>(selfRef). */
#define NN_UNARY_OPS(Name, OP, INT_OK)					\
	NN_UNARY_OP(Name, OP, INT_OK)					\
	aclnnStatus aclnnInplace##Name##GetWorkspaceSize(aclTensor *selfRef, \
			uint64_t *workspaceSize, aclOpExecutor **executor) \
	{								\
		PROF_API();						\
		return nn_unary(__func__, OP, selfRef, selfRef, INT_OK, NULL, \
				workspaceSize, executor);		\
	}								\
	LAUNCH(aclnnInplace##Name)

#endif /* VNPU_NN_OPS_COMMON_H */
