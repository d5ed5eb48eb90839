/* SPDX-License-Identifier: MIT */
/*
 * Reductions (the reduce family): ReduceSum, Mean, Amax, Amin, Prod,
 * ProdDim, LogSumExp, Norm (p = 1, 2, +-inf), ArgMax, ArgMin.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <math.h>
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_norm.h"
#include "../core/prof_rt.h"

/* --------------------------------------------------------- reductions -- */

static int64_t reduced_numel(const int64_t *shape, uint64_t n);

/* Axis bit mask of dims (empty or NULL: all), and the reduced shape. */
static aclnnStatus reduce_plan(const char *func, const aclTensor *self,
			       const int64_t *dims, uint64_t nd, bool keep,
			       const aclTensor *out, int64_t *mask)
{
	int64_t r = (int64_t)self->ndim, shape[NN_MAX_RANK];
	uint64_t i, n = 0;

	*mask = 0;
	for (i = 0; i < nd; i++) {
		int64_t d = dims[i] < 0 ? dims[i] + r : dims[i];

		if (d < 0 || d >= r || (*mask & (1LL << d)))
			return BAD("dim %lld is out of range or repeated",
				   (long long)dims[i]);
		*mask |= 1LL << d;
	}
	if (!nd)
		*mask = r ? (1LL << r) - 1 : 0;
	for (i = 0; i < (uint64_t)r; i++) {
		if (!(*mask & (1LL << i)))
			shape[n++] = self->dims[i];
		else if (keep)
			shape[n++] = 1;
	}
	/*
	 * A reduction to a single value may land in any out of one element
	 * (ggml sums a loss into a [1] tensor with keepDim false, which
	 * CANN takes); the task then writes it as the reduced shape.
	 */
	if (!nn_dims_are(out, n, shape) &&
	    !(nn_numel(out) == 1 && reduced_numel(shape, n) == 1))
		return BAD("out does not have the reduced shape");
	return ACLNN_SUCCESS;
}

static int64_t reduced_numel(const int64_t *shape, uint64_t n)
{
	int64_t e = 1;

	while (n--)
		e *= shape[n];
	return e;
}

/* out as the reduced shape (a one-element out of another rank). */
static struct nn_ref reduced_out(aclOpExecutor *ex, const aclTensor *self,
				 const aclTensor *out, int64_t mask, bool keep)
{
	struct nn_ref o = nn_bind_tensor(ex, out, true);
	int64_t shape[NN_MAX_RANK];
	uint32_t i, n = 0;

	for (i = 0; i < self->ndim; i++)
		if (!(mask & (1LL << i)))
			shape[n++] = self->dims[i];
		else if (keep)
			shape[n++] = 1;
	if (nn_dims_are(out, n, shape))
		return o;
	/* one element: every dim is 1 and no stride is ever applied */
	for (i = 0; i < n; i++) {
		o.shape[i] = 1;
		o.strides[i] = 0;
	}
	o.rank = n;
	return o;
}

static aclnnStatus reduce(const char *func, uint32_t op, const aclTensor *self,
			  const int64_t *dims, uint64_t nd, bool keep,
			  uint32_t cdt, const aclTensor *out,
			  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o;
	aclOpExecutor *ex;
	int64_t mask;
	aclnnStatus st;

	if ((st = reduce_plan(func, self, dims, nd, keep, out, &mask)))
		return st;
	at.ints[0] = mask;
	at.ints[1] = keep;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = reduced_out(ex, self, out, mask, keep);
	if (op == DRM_VNPU_OP_ARGMAX || op == DRM_VNPU_OP_ARGMIN)
		return nn_finish(func, ex,
				 nn_task_to_out(ex, op, &in, 1, o, ACL_INT64, &at),
				 workspaceSize, executor);
	in = nn_cast(ex, in, cdt);
	return nn_finish(func, ex, nn_task_to_out(ex, op, &in, 1, o, cdt, &at),
		      workspaceSize, executor);
}

#define REDUCE_ARGS(func)						\
	CHECK_T(self);							\
	CHECK_T(out);							\
	NEED(workspaceSize);						\
	NEED(executor);							\
	dv = nn_int_array(dim, &nd)

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self,
					   const aclIntArray *dim, bool keepDim,
					   aclDataType dtype, aclTensor *out,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (!nn_dtype_is_compute(dtype) || dtype == ACL_BOOL || out->dtype != dtype)
		return BAD("out must have dtype %d, a numeric device dtype",
			   (int)dtype);
	return reduce(func, DRM_VNPU_OP_REDUCE_SUM, self, dv, nd, keepDim,
		      dtype, out, workspaceSize, executor);
}
LAUNCH(aclnnReduceSum)

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dim, bool keepDim,
				      aclDataType dtype, aclTensor *out,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (!nn_dtype_is_float(dtype) || out->dtype != dtype)
		return BAD("out must have dtype %d, a float dtype", (int)dtype);
	return reduce(func, DRM_VNPU_OP_REDUCE_MEAN, self, dv, nd, keepDim,
		      dtype, out, workspaceSize, executor);
}
LAUNCH(aclnnMean)

static aclnnStatus minmax(const char *func, uint32_t op, const aclTensor *self,
			  const aclIntArray *dim, bool keepDim,
			  const aclTensor *out, uint64_t *workspaceSize,
			  aclOpExecutor **executor)
{
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	return reduce(func, op, self, dv, nd, keepDim, self->dtype, out,
		      workspaceSize, executor);
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dim, bool keepDim,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return minmax(__func__, DRM_VNPU_OP_REDUCE_MAX, self, dim, keepDim, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnAmax)

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self,
				      const aclIntArray *dim, bool keepDim,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return minmax(__func__, DRM_VNPU_OP_REDUCE_MIN, self, dim, keepDim, out,
		      workspaceSize, executor);
}
LAUNCH(aclnnAmin)

/*
 * CANN's document: self FLOAT, FLOAT16, BF16, DOUBLE, INT8, INT16, INT32,
 * INT64 or UINT8; out INT32 or INT64 (the kernel writes INT64 indices, an
 * INT32 out gets them through a CAST).
 */
static aclnnStatus arg_reduce(const char *func, uint32_t op,
			      const aclTensor *self, int64_t dim, bool keepdim,
			      const aclTensor *out, uint64_t *workspaceSize,
			      aclOpExecutor **executor)
{
	CHECK_T_ANY(self);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	if (out->dtype != ACL_INT64 && out->dtype != ACL_INT32)
		return BAD("out must be INT32 or INT64");
	if (self->dtype == ACL_BOOL || self->dtype == ACL_UINT16 ||
	    self->dtype == ACL_UINT32 || self->dtype == ACL_UINT64)
		return BAD("self's dtype %d is not supported", (int)self->dtype);
	if (!self->ndim)
		return BAD("self must have at least one dim");
	return reduce(func, op, self, &dim, 1, keepdim, ACL_INT64, out,
		      workspaceSize, executor);
}

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
					bool keepdim, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	return arg_reduce(__func__, DRM_VNPU_OP_ARGMAX, self, dim, keepdim, out,
			  workspaceSize, executor);
}
LAUNCH(aclnnArgMax)

aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor *self, int64_t dim,
					bool keepdim, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	return arg_reduce(__func__, DRM_VNPU_OP_ARGMIN, self, dim, keepdim, out,
			  workspaceSize, executor);
}
LAUNCH(aclnnArgMin)

/* Prod and ProdDim compute in dtype, which must be out's, not BOOL. */
static aclnnStatus prod(const char *func, const aclTensor *self,
			const int64_t *dims, uint64_t nd, bool keep,
			aclDataType dtype, const aclTensor *out,
			uint64_t *workspaceSize, aclOpExecutor **executor)
{
	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_compute(dtype) || dtype == ACL_BOOL || out->dtype != dtype)
		return BAD("out must have dtype %d, a numeric device dtype",
			   (int)dtype);
	if (nd && !self->ndim)
		return BAD("self must have at least one dim");
	return reduce(func, DRM_VNPU_OP_REDUCE_PROD, self, dims, nd, keep,
		      dtype, out, workspaceSize, executor);
}

aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor *self,
				      const aclDataType dtype, aclTensor *out,
				      uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return prod(__func__, self, NULL, 0, false, dtype, out, workspaceSize,
		    executor);
}
LAUNCH(aclnnProd)

aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor *self, int64_t dim,
					 bool keepDim, const aclDataType dtype,
					 aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	return prod(__func__, self, &dim, 1, keepDim, dtype, out,
		    workspaceSize, executor);
}
LAUNCH(aclnnProdDim)

/* LogSumExp computes in out's float dtype (self is cast to it). */
aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self,
					   const aclIntArray *dim, bool keepDim,
					   aclTensor *out, uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const int64_t *dv;
	uint64_t nd;

	REDUCE_ARGS(func);
	if (!nn_dtype_is_float(out->dtype))
		return BAD("out must have a float dtype");
	if (self->dtype == ACL_BOOL)
		return BAD("self must not be BOOL");
	return reduce(func, DRM_VNPU_OP_REDUCE_LOG_SUM_EXP, self, dv, nd,
		      keepDim, out->dtype, out, workspaceSize, executor);
}
LAUNCH(aclnnLogSumExp)

/*
 * General p of Norm, as torch.linalg.vector_norm (CANN's golden): p 0
 * counts the non-zero elements (NE 0, CAST, REDUCE_SUM), any other finite
 * p is (sum |x|^p)^(1/p) (ABS, POW, REDUCE_SUM, POW). in is in out's dtype.
 */
static int norm_general(aclOpExecutor *ex, struct nn_ref in, struct nn_ref o,
			const struct drm_vnpu_op_attrs *red, double p)
{
	struct drm_vnpu_op_attrs fp = { 0 }, fr = { 0 };
	uint32_t dt = in.dtype;
	struct nn_ref t[2], a, b, s, e, r;
	int ret;

	e = nn_ws(ex, dt, 0, NULL);
	s = nn_ws(ex, dt, o.rank, o.shape);
	b = nn_ws(ex, dt, in.rank, in.shape);
	t[0] = in;
	t[1] = e;
	if (p == 0) {
		a = nn_ws(ex, ACL_BOOL, in.rank, in.shape);
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &e, &fp);	/* 0 */
		if (!ret)
			ret = nn_task(ex, DRM_VNPU_OP_NE, t, 2, &a, NULL);
		if (!ret)
			ret = nn_task(ex, DRM_VNPU_OP_CAST, &a, 1, &b, NULL);
		return ret ? ret : nn_task_to_out(ex, DRM_VNPU_OP_REDUCE_SUM, &b,
						  1, o, dt, red);
	}
	a = nn_ws(ex, dt, in.rank, in.shape);
	r = nn_ws(ex, dt, 0, NULL);
	nn_set_float(&fp, 0, (float)p);
	nn_set_float(&fr, 0, (float)(1.0 / p));
	ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &e, &fp);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &r, &fr);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_ABS, &in, 1, &a, NULL);
	t[0] = a;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_POW, t, 2, &b, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_REDUCE_SUM, &b, 1, &s, red);
	t[0] = s;
	t[1] = r;
	return ret ? ret : nn_task_to_out(ex, DRM_VNPU_OP_POW, t, 2, o, dt, NULL);
}

/*
 * Norm: p 1 and 2 are REDUCE_L1 / REDUCE_L2; +inf and -inf the largest and
 * smallest |x| (ABS into the workspace, then REDUCE_MAX / REDUCE_MIN); any
 * other p through norm_general. Computes in out's float dtype.
 */
aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor *self,
				      const aclScalar *pScalar,
				      const aclIntArray *dim, bool keepdim,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o, a;
	aclOpExecutor *ex;
	const int64_t *dv;
	aclnnStatus st;
	uint64_t nd;
	int64_t mask;
	double p;

	REDUCE_ARGS(func);
	CHECK_S(pScalar);
	if (!nn_dtype_is_float(out->dtype))
		return BAD("out must have a float dtype");
	if (self->dtype == ACL_BOOL)
		return BAD("self must not be BOOL");
	p = pScalar->is_float ? pScalar->v.f : (double)pScalar->v.i;
	if (p != p)
		return BAD("p is NaN");
	if (p == 1.0)
		return reduce(func, DRM_VNPU_OP_REDUCE_L1, self, dv, nd, keepdim,
			      out->dtype, out, workspaceSize, executor);
	if (p == 2.0)
		return reduce(func, DRM_VNPU_OP_REDUCE_L2, self, dv, nd, keepdim,
			      out->dtype, out, workspaceSize, executor);
	if ((st = reduce_plan(func, self, dv, nd, keepdim, out, &mask)))
		return st;
	at.ints[0] = mask;
	at.ints[1] = keepdim;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	in = nn_cast(ex, in, out->dtype);
	if (!isinf(p))
		return nn_finish(func, ex, norm_general(ex, in, o, &at, p),
				 workspaceSize, executor);
	a = nn_ws(ex, out->dtype, in.rank, in.shape);
	if (nn_task(ex, DRM_VNPU_OP_ABS, &in, 1, &a, NULL))
		return nn_finish(func, ex, -1, workspaceSize, executor);
	return nn_finish(func, ex,
			 nn_task_to_out(ex, p > 0 ? DRM_VNPU_OP_REDUCE_MAX :
					DRM_VNPU_OP_REDUCE_MIN, &a, 1, o,
					out->dtype, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnNorm)
