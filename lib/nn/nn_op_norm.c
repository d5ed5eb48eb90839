/* SPDX-License-Identifier: MIT */
/*
 * Normalisations (the norm family): softmax and log-softmax, layer
 * norm, RMS norm and batch norm.
 * Phase 1 checks the arguments and builds KERNEL tasks in an executor;
 * phase 2 (nn_launch) queues them.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "../core/prof_rt.h"

/* ----------------------------------------------------------- softmax -- */

static aclnnStatus softmax(const char *func, uint32_t op, const aclTensor *self,
			   int64_t dim, const aclTensor *out,
			   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t r;

	CHECK_T(self);
	r = (int64_t)self->ndim;
	if (!nn_dtype_is_float(self->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "self must be FLOAT, FLOAT16 or BF16");
	if (r ? (dim < -r || dim >= r) : (dim < -1 || dim > 0))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "dim %lld is out of range for rank %lld",
				   (long long)dim, (long long)r);
	at.ints[0] = r ? (dim < 0 ? dim + r : dim) : 0;
	if (!r)
		at.ints[0] = -1;
	return nn_unary(func, op, self, out, false, &at, workspaceSize, executor);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
					 aclTensor *out, uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	return softmax(__func__, DRM_VNPU_OP_SOFTMAX, self, dim, out,
		       workspaceSize, executor);
}
LAUNCH(aclnnSoftmax)

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim,
					    aclTensor *out, uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	return softmax(__func__, DRM_VNPU_OP_LOG_SOFTMAX, self, dim, out,
		       workspaceSize, executor);
}
LAUNCH(aclnnLogSoftmax)

/* ------------------------------------------------------ normalisation -- */

static aclnnStatus norm_param(const char *func, const aclTensor *t,
			      const aclTensor *x, uint64_t from, const char *name,
			      bool as_float)
{
	if (t->dtype != (as_float ? ACL_FLOAT : x->dtype))
		return BAD("%s must have self's dtype%s", name,
			   as_float ? " or FLOAT" : "");
	if (t->ndim != x->ndim - from ||
	    memcmp(t->dims, x->dims + from, t->ndim * sizeof(int64_t)))
		return BAD("%s must have the normalised shape", name);
	return ACLNN_SUCCESS;
}

/* A stats output: a float tensor of input's rank, normalised dims 1. */
static aclnnStatus ln_stat_check(const char *func, const aclTensor *t,
				 const aclTensor *x, uint64_t from,
				 const char *name)
{
	int64_t shape[NN_MAX_RANK];
	uint64_t i;

	if (!nn_dtype_is_float(t->dtype))
		return BAD("%s must have a float dtype", name);
	for (i = 0; i < x->ndim; i++)
		shape[i] = i < from ? x->dims[i] : 1;
	if (!nn_dims_are(t, x->ndim, shape))
		return BAD("%s must have input's shape with the normalised dims 1",
			   name);
	return ACLNN_SUCCESS;
}

/*
 * mean = E[x] and rstd = 1 / sqrt(E[(x - mean)^2] + eps) over the dims
 * from `from` on, composed from REDUCE_MEAN and elementwise tasks in FLOAT
 * (kept dims broadcast back against x), then cast into the outputs.
 */
static int ln_stats(aclOpExecutor *ex, struct nn_ref x, uint64_t from,
		    float eps, const struct nn_ref *mean, const struct nn_ref *rstd)
{
	struct drm_vnpu_op_attrs red = { 0 }, one = { 0 }, fill = { 0 };
	struct nn_ref m, in[2], diff, sq, var, ve;
	int64_t shape[NN_MAX_RANK];
	uint32_t i;
	int ret;

	for (i = 0; i < x.rank; i++)
		shape[i] = i < from ? x.shape[i] : 1;
	red.ints[0] = (int64_t)(((1ull << x.rank) - 1) & ~((1ull << from) - 1));
	red.ints[1] = 1;	/* keepdim */
	nn_set_float(&one, 0, 1.0f);
	nn_set_float(&fill, 0, eps);
	x = nn_cast(ex, x, ACL_FLOAT);
	m = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	ret = nn_task(ex, DRM_VNPU_OP_REDUCE_MEAN, &x, 1, &m, &red);
	if (!ret && mean)
		ret = nn_task(ex, DRM_VNPU_OP_CAST, &m, 1, mean, NULL);
	if (ret || !rstd)
		return ret;
	in[0] = x;
	in[1] = m;
	diff = nn_ws(ex, ACL_FLOAT, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_SUB, in, 2, &diff, &one);
	in[0] = in[1] = diff;
	sq = nn_ws(ex, ACL_FLOAT, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &sq, &one);
	var = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_REDUCE_MEAN, &sq, 1, &var, &red);
	in[0] = var;
	in[1] = nn_ws(ex, ACL_FLOAT, 0, NULL);
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &fill);
	ve = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &ve, &one);
	/* Failures above mark the executor; nn_finish reports them. */
	return nn_task_to_out(ex, DRM_VNPU_OP_RSQRT, &ve, 1, *rstd, ACL_FLOAT,
			      NULL);
}

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input,
					   const aclIntArray *normalizedShape,
					   const aclTensor *weightOptional,
					   const aclTensor *biasOptional,
					   double eps, aclTensor *out,
					   aclTensor *meanOutOptional,
					   aclTensor *rstdOutOptional,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], o, mean, rstd, x;
	const int64_t *ns;
	aclOpExecutor *ex;
	uint64_t n, from, nin = 1;
	aclnnStatus st;
	aclDataType pdt;
	bool mixed;
	int ret;

	CHECK_T(input);
	CHECK_T(out);
	NEED(normalizedShape);
	NEED(workspaceSize);
	NEED(executor);
	if (weightOptional)
		CHECK_T(weightOptional);
	if (biasOptional)
		CHECK_T(biasOptional);
	if (meanOutOptional)
		CHECK_T(meanOutOptional);
	if (rstdOutOptional)
		CHECK_T(rstdOutOptional);
	if (!nn_dtype_is_float(input->dtype) || out->dtype != input->dtype)
		return BAD("input and out must have one float dtype");
	ns = nn_int_array(normalizedShape, &n);
	if (!n || n > input->ndim ||
	    memcmp(ns, input->dims + input->ndim - n, n * sizeof(int64_t)))
		return BAD("normalizedShape must be input's trailing dims");
	from = input->ndim - n;
	/*
	 * CANN's document: weight and bias have input's dtype, or both FLOAT
	 * under a FLOAT16/BF16 input (the norm then runs in FLOAT).
	 */
	pdt = weightOptional ? weightOptional->dtype :
	      biasOptional ? biasOptional->dtype : input->dtype;
	mixed = pdt == ACL_FLOAT && input->dtype != ACL_FLOAT;
	if (weightOptional && biasOptional &&
	    weightOptional->dtype != biasOptional->dtype)
		return BAD("weight and bias must have one dtype");
	if (weightOptional &&
	    (st = norm_param(func, weightOptional, input, from, "weight", mixed)))
		return st;
	if (biasOptional &&
	    (st = norm_param(func, biasOptional, input, from, "bias", mixed)))
		return st;
	if (!nn_dims_are(out, input->ndim, input->dims))
		return BAD("out must have input's shape");
	if (meanOutOptional && (st = ln_stat_check(func, meanOutOptional,
						   input, from, "meanOut")))
		return st;
	if (rstdOutOptional && (st = ln_stat_check(func, rstdOutOptional,
						   input, from, "rstdOut")))
		return st;
	at.ints[0] = (int64_t)from;
	nn_set_float(&at, 0, (float)eps);
	NEW_EX(ex);
	x = nn_bind_tensor(ex, input, false);
	in[0] = mixed ? nn_cast(ex, x, ACL_FLOAT) : x;
	if (weightOptional) {
		in[nin++] = nn_bind_tensor(ex, weightOptional, false);
	} else if (biasOptional) {
		/* the document's weight of ones in front of a lone bias */
		struct drm_vnpu_op_attrs one = { 0 };

		nn_set_float(&one, 0, 1.0f);
		in[nin] = nn_ws(ex, pdt, (uint32_t)n, ns);
		nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[nin++], &one);
	}
	if (biasOptional)
		in[nin++] = nn_bind_tensor(ex, biasOptional, false);
	o = nn_bind_tensor(ex, out, true);
	if (meanOutOptional)
		mean = nn_bind_tensor(ex, meanOutOptional, true);
	if (rstdOutOptional)
		rstd = nn_bind_tensor(ex, rstdOutOptional, true);
	ret = nn_task_to_out(ex, DRM_VNPU_OP_LAYER_NORM, in, (uint32_t)nin, o,
			     mixed ? ACL_FLOAT : o.dtype, &at);
	if (!ret && (meanOutOptional || rstdOutOptional))
		ret = ln_stats(ex, in[0], from, (float)eps,
			       meanOutOptional ? &mean : NULL,
			       rstdOutOptional ? &rstd : NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnLayerNorm)

/*
 * rstd = 1 / sqrt(E[x^2] + eps) over the dims from `from` on, in FLOAT,
 * kept dims 1: the [rows, 1] form CANN's document gives rstdOut.
 */
static int rms_rstd(aclOpExecutor *ex, struct nn_ref x, uint64_t from,
		    float eps, struct nn_ref rstd)
{
	struct drm_vnpu_op_attrs red = { 0 }, one = { 0 }, fill = { 0 };
	struct nn_ref in[2], sq, ms, ve;
	int64_t shape[NN_MAX_RANK];
	uint32_t i;

	for (i = 0; i < x.rank; i++)
		shape[i] = i < from ? x.shape[i] : 1;
	red.ints[0] = (int64_t)(((1ull << x.rank) - 1) & ~((1ull << from) - 1));
	red.ints[1] = 1;	/* keepdim */
	nn_set_float(&one, 0, 1.0f);
	nn_set_float(&fill, 0, eps);
	in[0] = in[1] = x;
	sq = nn_ws(ex, ACL_FLOAT, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &sq, &one);
	ms = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_REDUCE_MEAN, &sq, 1, &ms, &red);
	in[0] = ms;
	in[1] = nn_ws(ex, ACL_FLOAT, 0, NULL);
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &fill);
	ve = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &ve, &one);
	/* Failures above mark the executor; nn_finish reports them. */
	return nn_task(ex, DRM_VNPU_OP_RSQRT, &ve, 1, &rstd, NULL);
}

/*
 * rstdOut as CANN's RmsNorm takes it: FLOAT32 with x's rank and the
 * normalised dims 1 (the document), or any rank up to x's whose dim i is
 * x's dim i or 1 (CANN checks no more: ggml passes x [a, b, c, d] with
 * rstd [a, b, c]), holding one value per row in row order. *canon: the
 * documented shape.
 */
static aclnnStatus rms_rstd_check(const char *func, const aclTensor *t,
				  const aclTensor *x, uint64_t from, bool *canon)
{
	int64_t rows = 1, shape[NN_MAX_RANK];
	uint64_t i;

	if (t->dtype != ACL_FLOAT)
		return BAD("rstdOut must be FLOAT32");
	for (i = 0; i < x->ndim; i++) {
		shape[i] = i < from ? x->dims[i] : 1;
		rows *= shape[i];
	}
	*canon = nn_dims_are(t, x->ndim, shape);
	if (*canon)
		return ACLNN_SUCCESS;
	if (t->ndim > x->ndim || nn_numel(t) != rows)
		return BAD("rstdOut must hold the %lld rows in at most x's rank",
			   (long long)rows);
	for (i = 0; i < t->ndim; i++)
		if (t->dims[i] != x->dims[i] && t->dims[i] != 1)
			return BAD("rstdOut's dim %llu must be 1 or x's",
				   (unsigned long long)i);
	return ACLNN_SUCCESS;
}

/*
 * CANN's document: gamma has x's dtype, or FLOAT32 under a FLOAT16/BF16
 * x (then the norm runs in FLOAT and rounds once into yOut); rstdOut (see
 * rms_rstd_check) may be NULL here.
 */
aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x,
					 const aclTensor *gamma,
					 double epsilon, const aclTensor *yOut,
					 const aclTensor *rstdOut,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[2], o, xf;
	aclOpExecutor *ex;
	aclnnStatus st;
	uint64_t from;
	bool mixed, canon = true;
	int ret;

	CHECK_T(x);
	CHECK_T(gamma);
	CHECK_T(yOut);
	NEED(workspaceSize);
	NEED(executor);
	if (rstdOut)
		CHECK_T(rstdOut);
	if (!nn_dtype_is_float(x->dtype) || yOut->dtype != x->dtype)
		return BAD("x and yOut must have one float dtype");
	mixed = gamma->dtype == ACL_FLOAT && x->dtype != ACL_FLOAT;
	if (!gamma->ndim || gamma->ndim > x->ndim)
		return BAD("gamma must have x's trailing dims");
	from = x->ndim - gamma->ndim;
	if ((st = norm_param(func, gamma, x, from, "gamma", mixed)))
		return st;
	if (!nn_dims_are(yOut, x->ndim, x->dims))
		return BAD("yOut must have x's shape");
	if (rstdOut && (st = rms_rstd_check(func, rstdOut, x, from, &canon)))
		return st;
	at.ints[0] = (int64_t)from;
	nn_set_float(&at, 0, (float)epsilon);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, x, false);
	in[1] = nn_bind_tensor(ex, gamma, false);
	o = nn_bind_tensor(ex, yOut, true);
	xf = mixed || rstdOut ? nn_cast(ex, in[0], ACL_FLOAT) : in[0];
	if (mixed) {
		in[0] = xf;
		ret = nn_task_to_out(ex, DRM_VNPU_OP_RMS_NORM, in, 2, o,
				     ACL_FLOAT, &at);
	} else {
		ret = nn_task(ex, DRM_VNPU_OP_RMS_NORM, in, 2, &o, &at);
	}
	if (!ret && rstdOut && canon) {
		ret = rms_rstd(ex, xf, from, (float)epsilon,
			       nn_bind_tensor(ex, rstdOut, true));
	} else if (!ret && rstdOut) {
		/* the rows into workspace, then copied in rstdOut's shape */
		struct nn_ref r = nn_bind_tensor(ex, rstdOut, true);
		struct nn_ref w = nn_ws(ex, ACL_FLOAT, r.rank, r.shape);
		struct nn_ref wc = w;
		uint64_t i;

		wc.rank = xf.rank;
		for (i = 0; i < xf.rank; i++)
			wc.shape[i] = i < from ? xf.shape[i] : 1;
		for (i = xf.rank; i-- > 0;)
			wc.strides[i] = i + 1 < xf.rank ?
					wc.strides[i + 1] * wc.shape[i + 1] : 1;
		ret = rms_rstd(ex, xf, from, (float)epsilon, wc);
		if (!ret)
			ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &w, 1, &r,
				      NULL);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnRmsNorm)

/* --------------------------------------------------------- batch norm -- */

/* A [C] vector viewed as [C, 1, ...] to broadcast against NC... */
static struct nn_ref chan_view(struct nn_ref r, uint32_t rank)
{
	uint32_t i;

	for (i = 1; i < rank - 1; i++) {
		r.shape[i] = 1;
		r.strides[i] = 0;
	}
	r.rank = rank - 1;
	return r;
}

/*
 * Inference only (training false): BATCH_NORM with the running statistics,
 * then MUL by weight and ADD bias (per channel) when given. saveMean and
 * saveInvstd must be NULL.
 */
aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input,
					   const aclTensor *weight,
					   const aclTensor *bias,
					   aclTensor *runningMean,
					   aclTensor *runningVar, bool training,
					   double momentum, double eps,
					   aclTensor *output, aclTensor *saveMean,
					   aclTensor *saveInvstd,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const aclTensor *vec[4] = { runningMean, runningVar, weight, bias };
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[3], w = { 0 }, b = { 0 }, o, cur;
	aclOpExecutor *ex;
	int ret, i;
	uint32_t r;

	(void)momentum;
	CHECK_T(input);
	CHECK_T(runningMean);
	CHECK_T(runningVar);
	CHECK_T(output);
	if (weight)
		CHECK_T(weight);
	if (bias)
		CHECK_T(bias);
	NEED(workspaceSize);
	NEED(executor);
	if (training)
		return BAD("training mode is not supported");
	if (saveMean || saveInvstd)
		return BAD("saveMean and saveInvstd are not supported (pass NULL)");
	if (!nn_dtype_is_float(input->dtype) || output->dtype != input->dtype)
		return BAD("input and output must have one float dtype");
	if (input->ndim < 2)
		return BAD("input must be at least 2-D (N, C, ...)");
	for (i = 0; i < 4; i++)
		if (vec[i] && (vec[i]->dtype != input->dtype ||
			       vec[i]->ndim != 1 ||
			       vec[i]->dims[0] != input->dims[1]))
			return BAD("running stats, weight and bias must be [C] of input's dtype");
	if (!nn_dims_are(output, input->ndim, input->dims))
		return BAD("output must have input's shape");
	r = (uint32_t)input->ndim;
	nn_set_float(&at, 0, (float)eps);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, input, false);
	in[1] = nn_bind_tensor(ex, runningMean, false);
	in[2] = nn_bind_tensor(ex, runningVar, false);
	if (weight)
		w = chan_view(nn_bind_tensor(ex, weight, false), r);
	if (bias)
		b = chan_view(nn_bind_tensor(ex, bias, false), r);
	o = nn_bind_tensor(ex, output, true);
	cur = weight || bias ? nn_ws(ex, input->dtype, r, input->dims) : o;
	ret = nn_task(ex, DRM_VNPU_OP_BATCH_NORM, in, 3, &cur, &at);
	if (!ret && weight) {
		struct nn_ref m[2] = { cur, w };
		struct drm_vnpu_op_attrs one = { 0 };

		nn_set_float(&one, 0, 1.0f);
		cur = bias ? nn_ws(ex, input->dtype, r, input->dims) : o;
		ret = nn_task(ex, DRM_VNPU_OP_MUL, m, 2, &cur, &one);
	}
	if (!ret && bias) {
		struct nn_ref a[2] = { cur, b };
		struct drm_vnpu_op_attrs one = { 0 };

		nn_set_float(&one, 0, 1.0f);
		ret = nn_task(ex, DRM_VNPU_OP_ADD, a, 2, &o, &one);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnBatchNorm)
