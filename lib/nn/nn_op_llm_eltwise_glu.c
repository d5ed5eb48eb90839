/* SPDX-License-Identifier: MIT */
/*
 * Gated activations and the fused add + RMS norm of issue 36: SwiGlu,
 * GeGlu, GeGluV3 (x cut in two halves along dim, one half activated
 * and multiplied by the other) and AddRmsNorm. Float dtypes compute in
 * FLOAT and round once into each output.
 */
#include <string.h>

#include "nn_llm_eltwise.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "../core/prof_rt.h"

/*
 * Shared checks of the GLUs: x float, dim in range and even there, each
 * output x's dtype with x's shape but half of dim. *d gets the dim.
 */
static aclnnStatus glu_check(const char *func, const aclTensor *x,
			     int64_t dim, const aclTensor *out,
			     const aclTensor *out2, uint64_t *d)
{
	int64_t r = (int64_t)x->ndim, shape[NN_MAX_RANK];
	int k;

	if (!nn_dtype_is_float(x->dtype))
		return BAD("x must be FLOAT, FLOAT16 or BF16");
	if (!r)
		return BAD("x must have at least one dim");
	if (dim < -r || dim >= r)
		return BAD("dim %lld is out of range for %lld dims",
			   (long long)dim, (long long)r);
	*d = (uint64_t)nn_wrap_dim(dim, r);
	if (x->dims[*d] % 2)
		return BAD("dim %llu of x has the odd size %lld",
			   (unsigned long long)*d, (long long)x->dims[*d]);
	memcpy(shape, x->dims, sizeof(shape));
	shape[*d] /= 2;
	for (k = 0; k < 2; k++) {
		const aclTensor *o = k ? out2 : out;

		if (!o)
			continue;
		if (o->dtype != x->dtype)
			return BAD("outputs must have x's dtype");
		if (!nn_dims_are(o, x->ndim, shape))
			return BAD("outputs must have x's shape with dim %llu halved",
				   (unsigned long long)*d);
	}
	return ACLNN_SUCCESS;
}

/*
 * out = act(half a) * half b, act: SILU or GELU (attrs at); the
 * activation also lands in gout when given.
 */
static int glu_tasks(aclOpExecutor *ex, struct nn_ref x, uint32_t d,
		     uint32_t op, const struct drm_vnpu_op_attrs *at,
		     bool act_left, struct nn_ref o, const struct nn_ref *gout)
{
	struct drm_vnpu_op_attrs one = { 0 };
	int64_t h = x.shape[d] / 2;
	struct nn_ref a = llm_narrow(x, d, act_left ? 0 : h, h);
	struct nn_ref b = llm_narrow(x, d, act_left ? h : 0, h);
	struct nn_ref in[2], g;

	g = nn_ws(ex, ACL_FLOAT, o.rank, o.shape);
	a = nn_cast(ex, a, ACL_FLOAT);
	nn_task(ex, op, &a, 1, &g, at);
	if (gout)
		llm_copy(ex, g, *gout);
	in[0] = g;
	in[1] = nn_cast(ex, b, ACL_FLOAT);
	nn_set_float(&one, 0, 1.0f);
	return nn_task_to_out(ex, DRM_VNPU_OP_MUL, in, 2, o, ACL_FLOAT, &one);
}

aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor *x, int64_t dim,
					const aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct nn_ref in, o;
	aclOpExecutor *ex;
	aclnnStatus st;
	uint64_t d;

	CHECK_T(x);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if ((st = glu_check(func, x, dim, out, NULL, &d)))
		return st;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, x, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, glu_tasks(ex, in, (uint32_t)d,
					     DRM_VNPU_OP_SILU, NULL, true, o,
					     NULL),
			 workspaceSize, executor);
}
LAUNCH(aclnnSwiGlu)

/* approximate: 0 the erf form, 1 the tanh form (CANN's document). */
static aclnnStatus geglu(const char *func, const aclTensor *self, int64_t dim,
			 int64_t approximate, bool act_left,
			 const aclTensor *out, const aclTensor *outGelu,
			 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o, g;
	aclOpExecutor *ex;
	aclnnStatus st;
	uint64_t d;

	CHECK_T(self);
	CHECK_T(out);
	CHECK_T(outGelu);
	NEED(workspaceSize);
	NEED(executor);
	if ((st = glu_check(func, self, dim, out, outGelu, &d)))
		return st;
	if (approximate != 0 && approximate != 1)
		return BAD("approximate must be 0 (none) or 1 (tanh), not %lld",
			   (long long)approximate);
	at.ints[0] = approximate;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	g = nn_bind_tensor(ex, outGelu, true);
	return nn_finish(func, ex, glu_tasks(ex, in, (uint32_t)d,
					     DRM_VNPU_OP_GELU, &at, act_left,
					     o, &g),
			 workspaceSize, executor);
}

aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor *self, int64_t dim,
				       int64_t approximate, aclTensor *out,
				       aclTensor *outGelu,
				       uint64_t *workspaceSize,
				       aclOpExecutor **executor)
{
	PROF_API();
	/* GeGlu activates the second half */
	return geglu(__func__, self, dim, approximate, false, out, outGelu,
		     workspaceSize, executor);
}
LAUNCH(aclnnGeGlu)

aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor *self, int64_t dim,
					 int64_t approximate, bool activateLeft,
					 aclTensor *out, aclTensor *outGelu,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	return geglu(__func__, self, dim, approximate, activateLeft, out,
		     outGelu, workspaceSize, executor);
}
LAUNCH(aclnnGeGluV3)

/*
 * rstd = 1 / sqrt(mean(x^2) + eps) over the dims from `from` on, kept as
 * size 1 (FLOAT x).
 */
static int rstd_tasks(aclOpExecutor *ex, struct nn_ref x, uint32_t from,
		      float eps, struct nn_ref rstd)
{
	struct drm_vnpu_op_attrs red = { 0 }, one = { 0 };
	struct nn_ref in[2], sq, ms, ve;
	int64_t shape[NN_MAX_RANK];
	uint32_t i;

	for (i = 0; i < x.rank; i++)
		shape[i] = i < from ? x.shape[i] : 1;
	red.ints[0] = (int64_t)(((1ull << x.rank) - 1) & ~((1ull << from) - 1));
	red.ints[1] = 1;
	nn_set_float(&one, 0, 1.0f);
	in[0] = in[1] = x;
	sq = nn_ws(ex, ACL_FLOAT, x.rank, x.shape);
	nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &sq, &one);
	ms = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_REDUCE_MEAN, &sq, 1, &ms, &red);
	in[0] = ms;
	in[1] = nn_ws(ex, ACL_FLOAT, 0, NULL);
	llm_fill_attrs(&red, ACL_FLOAT, eps);
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &in[1], &red);
	in[1] = llm_expand(in[1], x.rank, shape);
	ve = nn_ws(ex, ACL_FLOAT, x.rank, shape);
	nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &ve, &one);
	return nn_task(ex, DRM_VNPU_OP_RSQRT, &ve, 1, &rstd, NULL);
}

/* The last gr dims of g are those of x. */
static bool trailing(const aclTensor *x, const aclTensor *g, uint64_t gr)
{
	uint64_t i;

	if (gr > x->ndim)
		return false;
	for (i = 0; i < gr; i++)
		if (g->dims[g->ndim - gr + i] != x->dims[x->ndim - gr + i])
			return false;
	return true;
}

/*
 * xOut = x1 + x2 and yOut = rmsnorm(xOut) * gamma over gamma's trailing
 * dims, rstdOut = the reciprocal RMS (FLOAT, x's rank with the
 * normalised dims 1). As aclnnRmsNorm: gamma has x's dtype, or FLOAT
 * under a FLOAT16/BF16 x; a gamma [1, D] normalises the last dim only.
 * rstdOut and xOut may be NULL, but a rstdOut without xOut is refused
 * (CANN's document).
 */
aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor *x1,
					    const aclTensor *x2,
					    const aclTensor *gamma,
					    double epsilon, aclTensor *yOut,
					    aclTensor *rstdOut, aclTensor *xOut,
					    uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 }, one = { 0 };
	struct nn_ref in[2], s, y, g;
	aclOpExecutor *ex;
	uint64_t from, gr, i;
	int ret;

	CHECK_T(x1);
	CHECK_T(x2);
	CHECK_T(gamma);
	CHECK_T(yOut);
	if (rstdOut && !xOut)
		return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
				   "xOut must not be NULL when rstdOut is given");
	if (rstdOut)
		CHECK_T(rstdOut);
	if (xOut)
		CHECK_T(xOut);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(x1->dtype))
		return BAD("x1 must be FLOAT, FLOAT16 or BF16");
	if (x2->dtype != x1->dtype || !nn_same_shape(x1, x2))
		return BAD("x2 must have x1's shape and dtype");
	if (yOut->dtype != x1->dtype || !nn_same_shape(x1, yOut))
		return BAD("yOut must have x1's shape and dtype");
	if (xOut && (xOut->dtype != x1->dtype || !nn_same_shape(x1, xOut)))
		return BAD("xOut must have x1's shape and dtype");
	if (gamma->dtype != x1->dtype && gamma->dtype != ACL_FLOAT)
		return BAD("gamma must have x1's dtype or be FLOAT");
	/* CANN's [1, D] gamma: leading 1s that x1 lacks are not normalised */
	gr = gamma->ndim;
	while (gr > 1 && gamma->dims[gamma->ndim - gr] == 1 &&
	       !trailing(x1, gamma, gr))
		gr--;
	if (!gr || !trailing(x1, gamma, gr))
		return BAD("gamma must have x1's trailing dims");
	from = x1->ndim - gr;
	if (rstdOut) {
		if (rstdOut->dtype != ACL_FLOAT)
			return BAD("rstdOut must be FLOAT");
		if (rstdOut->ndim != x1->ndim)
			return BAD("rstdOut must have x1's rank");
		for (i = 0; i < x1->ndim; i++)
			if (rstdOut->dims[i] != (i < from ? x1->dims[i] : 1))
				return BAD("rstdOut must be x1's dims, the normalised ones 1");
	}
	at.ints[0] = (int64_t)from;
	nn_set_float(&at, 0, (float)epsilon);
	nn_set_float(&one, 0, 1.0f);
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, x1, false);
	in[1] = nn_bind_tensor(ex, x2, false);
	g = nn_bind_tensor(ex, gamma, false);
	if (gr < g.rank) {
		uint32_t lead = g.rank - (uint32_t)gr;

		memmove(g.shape, g.shape + lead, gr * sizeof(g.shape[0]));
		memmove(g.strides, g.strides + lead, gr * sizeof(g.strides[0]));
		g.rank = (uint32_t)gr;
	}
	y = nn_bind_tensor(ex, yOut, true);
	in[0] = nn_cast(ex, in[0], ACL_FLOAT);
	in[1] = nn_cast(ex, in[1], ACL_FLOAT);
	s = nn_ws(ex, ACL_FLOAT, y.rank, y.shape);
	nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &s, &one);
	in[0] = s;
	in[1] = nn_cast(ex, g, ACL_FLOAT);
	ret = nn_task_to_out(ex, DRM_VNPU_OP_RMS_NORM, in, 2, y, ACL_FLOAT,
			     &at);
	if (!ret && rstdOut)
		ret = rstd_tasks(ex, s, (uint32_t)from, (float)epsilon,
				 nn_bind_tensor(ex, rstdOut, true));
	if (!ret && xOut)
		ret = llm_copy(ex, s, nn_bind_tensor(ex, xOut, true));
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnAddRmsNorm)
