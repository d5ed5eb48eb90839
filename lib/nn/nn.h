/* SPDX-License-Identifier: MIT */
/*
 * aclnn: descriptor objects (nn_meta.c), executors of prepared KERNEL
 * tasks (nn_exec.c) and the operators (nn_op_<family>.c, one file per
 * family of kernel/ops, sharing nn_ops_common.c).
 */
#ifndef VNPU_NN_NN_H
#define VNPU_NN_NN_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include <drm/vnpu_accel.h>
#include "../core/error.h"

#define NN_MAX_RANK	DRM_VNPU_MAX_RANK
#define TENSOR_MAGIC	0x544e5321u
#define EXEC_MAGIC	0x45584521u

struct aclTensor {
	uint32_t magic;
	aclDataType dtype;
	aclFormat format;
	uint64_t ndim;
	int64_t dims[NN_MAX_RANK];
	int64_t strides[NN_MAX_RANK];
	int64_t offset;
	uint64_t sdim;
	int64_t sdims[NN_MAX_RANK];
	void *data;
};

struct aclScalar {
	aclDataType dtype;
	union {
		double f;
		int64_t i;
	} v;
	bool is_float;
	bool numeric;		/* a value operators can use (else only its dtype) */
};

/* Whether dt is one of the values of aclDataType (ACL_DT_UNDEFINED is not). */
bool nn_dtype_defined(aclDataType dt);
/* Element size of a dtype the device can hold (CAST takes all), else 0. */
size_t nn_dtype_size(aclDataType dt);
/* The dtypes operators other than Cast compute in. */
bool nn_dtype_is_compute(aclDataType dt);
bool nn_dtype_is_float(aclDataType dt);
bool nn_dtype_is_int(aclDataType dt);	/* integers, not BOOL */
int64_t nn_numel(const aclTensor *t);

/* Where a task's tensor lives: a bound API tensor or the workspace. */
struct nn_ref {
	int bind;		/* index into exec->bind, or -1: workspace */
	uint64_t ws_off;	/* workspace offset (bind < 0) */
	int64_t off;		/* elements past the tensor's start: a sub-view */
	uint32_t dtype;
	uint32_t rank;
	int64_t shape[NN_MAX_RANK];
	int64_t strides[NN_MAX_RANK];
};

#define NN_MAX_TT	DRM_VNPU_MAX_TENSORS	/* tensors a task */

struct nn_task {
	uint32_t op;
	uint32_t nin, nout;
	struct nn_ref t[NN_MAX_TT];
	bool has_attrs;
	struct drm_vnpu_op_attrs attrs;
};

struct nn_bind {
	const aclTensor *tensor;
	void *addr;		/* tensor data at phase 1 or as set later */
	int64_t offset;		/* elements */
	size_t esize;
	bool output;
};

/*
 * Most operators prepare one or two tasks and bind a few tensors: those fit
 * in the executor itself, so phase 1 costs one allocation. Longer lists
 * move to the heap as they grow (nn_exec.c).
 */
#define NN_INLINE_TASKS	2
#define NN_INLINE_BINDS	4

struct aclOpExecutor {
	uint32_t magic;
	bool repeatable;
	const char *name;
	bool failed;		/* a task or bind did not fit: phase 1 fails */
	uint32_t ntasks, cap_tasks;
	struct nn_task *tasks;	/* inline_tasks, or the heap once grown */
	uint32_t nbind, nin, nout, cap_bind;
	struct nn_bind *bind;	/* inline_binds, or the heap once grown */
	uint64_t ws_size;
	/* Not zeroed: only entries below ntasks / nbind are ever read. */
	struct nn_task inline_tasks[NN_INLINE_TASKS];
	struct nn_bind inline_binds[NN_INLINE_BINDS];
};

/* Report and return an aclnn status. */
#define nn_fail(code, ...) acl_fail_at(__func__, (code), __VA_ARGS__)

aclOpExecutor *nn_exec_new(const char *name);
void nn_exec_free(aclOpExecutor *ex);
/*
 * Bind an API tensor (inputs first, then outputs); a ref to its view. Out
 * of memory marks the executor failed (nn_finish reports it).
 */
struct nn_ref nn_bind_tensor(aclOpExecutor *ex, const aclTensor *t, bool output);
/* A contiguous workspace tensor. */
struct nn_ref nn_ws(aclOpExecutor *ex, uint32_t dtype, uint32_t rank,
		    const int64_t *shape);
/* r converted to dtype (a CAST into workspace when it differs). */
struct nn_ref nn_cast(aclOpExecutor *ex, struct nn_ref r, uint32_t dtype);
/*
 * Add a task; attrs may be NULL. Returns 0, -ENOSPC (too many tensors) or
 * -ENOMEM, and marks the executor failed on error.
 */
/* End of phase 1: outputs overlapping their task's inputs go through the workspace. */
void nn_bounce_inplace(aclOpExecutor *ex);
int nn_task(aclOpExecutor *ex, uint32_t op, const struct nn_ref *in,
	    uint32_t nin, const struct nn_ref *out,
	    const struct drm_vnpu_op_attrs *attrs);
/*
 * Run op on inputs (already in compute dtype cdt) writing the bound output
 * out: directly when out has dtype cdt, else through a workspace copy and
 * a CAST.
 */
int nn_task_to_out(aclOpExecutor *ex, uint32_t op, const struct nn_ref *in,
		   uint32_t nin, struct nn_ref out, uint32_t cdt,
		   const struct drm_vnpu_op_attrs *attrs);
/* Contents of an aclIntArray / aclTensorList (NULL and 0 for NULL). */
const int64_t *nn_int_array(const aclIntArray *a, uint64_t *n);
const aclTensor *const *nn_tensor_list(const aclTensorList *l, uint64_t *n);
/* Contents of an aclFloatArray (NULL and 0 for NULL). */
const float *nn_float_array(const aclFloatArray *a, uint64_t *n);
/* Phase 2. */
/*
 * nn_dump.c: the single-op dump around a launch. begin returns NULL when
 * nothing is dumped (and then end does nothing).
 */
struct rt_stream;
struct nn_dump;
struct nn_dump *nn_dump_begin(const char *func, const aclOpExecutor *ex,
			      struct rt_stream *s);
void nn_dump_end(struct nn_dump *d, const aclOpExecutor *ex,
		 struct rt_stream *s, bool ok);

aclnnStatus nn_launch(const char *func, void *workspace, uint64_t ws_size,
		      aclOpExecutor *ex, aclrtStream stream);

#endif /* VNPU_NN_NN_H */
