/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the operators of issue 36 in nn_op_llm_eltwise*.c:
 * broadcast shapes, stride-0 expansion of a view, scalars filled into
 * the workspace and copies between views.
 */
#ifndef VNPU_NN_LLM_ELTWISE_H
#define VNPU_NN_LLM_ELTWISE_H

#include "nn_ops_common.h"

/*
 * numpy broadcast of the shapes of ts[0..n-1] into *rank / shape;
 * false when two dims differ and neither is 1.
 */
bool llm_bcast(const aclTensor *const *ts, int n, uint64_t *rank,
	       int64_t *shape);
/* Whether t broadcasts to exactly (rank, shape). */
bool llm_bcasts_to(const aclTensor *t, uint64_t rank, const int64_t *shape);
/* r seen with (rank, shape): leading dims added and size-1 dims stride 0. */
struct nn_ref llm_expand(struct nn_ref r, uint32_t rank, const int64_t *shape);
/* A scalar's value as a double (integers converted). */
double llm_scalar_f(const aclScalar *s);
/* A rank-0 workspace tensor of dtype dt holding s (integers truncate). */
struct nn_ref llm_fill_scalar(aclOpExecutor *ex, uint32_t dt,
			      const aclScalar *s);
/* FILL attrs for value v in dtype dt. */
void llm_fill_attrs(struct drm_vnpu_op_attrs *at, uint32_t dt, double v);
/* dst = src (same shape): STRIDED_COPY, or a CAST between dtypes. */
int llm_copy(aclOpExecutor *ex, struct nn_ref src, struct nn_ref dst);
/* A set of dtypes (aclDataType values below 64) as a bit mask. */
#define DT(x)		(1ull << (x))
#define DT_FLOATS	(DT(ACL_FLOAT) | DT(ACL_FLOAT16) | DT(ACL_BF16))
/* The dtypes CANN's Sub, Div and Pow documents list that the device holds. */
#define DT_ARITH	(DT_FLOATS | DT(ACL_DOUBLE) | DT(ACL_INT8) |	\
			 DT(ACL_UINT8) | DT(ACL_INT16) | DT(ACL_INT32) |	\
			 DT(ACL_INT64) | DT(ACL_BOOL))

/*
 * t is a live tensor of a dtype in mask: 161001 for NULL, 161002
 * otherwise.
 */
aclnnStatus llm_check(const char *func, const aclTensor *t, const char *name,
		      uint64_t mask);

#define CHECK_DT(t, mask)						\
	do {								\
		aclnnStatus st_ = llm_check(func, (t), #t, (mask));	\
		if (st_)						\
			return st_;					\
	} while (0)

/* r moved on by i elements along dim d and cut to n there. */
struct nn_ref llm_narrow(struct nn_ref r, uint32_t d, int64_t i, int64_t n);

#endif /* VNPU_NN_LLM_ELTWISE_H */
