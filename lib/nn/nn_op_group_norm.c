/* SPDX-License-Identifier: MIT */
/*
 * aclnnGroupNorm: one NORM_AXES task over self seen as (N, group,
 * C / group, HxW), normalising the last two dims (population variance, as
 * PyTorch's group_norm), with gamma and beta seen as (1, group, C / group,
 * 1) and the (N, group) statistics as (N, group, 1, 1). A self or out
 * whose spatial dims cannot be seen as one goes through a contiguous
 * workspace copy (STRIDED_COPY).
 *
 * The statistics go to workspace and are then copied to meanOut and to
 * rstdOut, in that order, as CANN's GroupNorm does (it copies out, meanOut,
 * rstdOut from its own results). meanOut and rstdOut may then overlap, as
 * the ones ggml passes do (sized in bytes, not elements): the later copy
 * wins where they share memory, as on CANN; the kernel still sees no task
 * whose outputs overlap.
 */
#include <math.h>
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_group_norm.h"
#include "../core/prof_rt.h"

/* r (N, C, spatial...) as (N, G, C/G, HxW); false if the spatial dims do not merge. */
static bool grouped(struct nn_ref r, int64_t g, int64_t hxw, struct nn_ref *v)
{
	int64_t cg = r.shape[1] / g, unit = 0, next = 0;
	bool seen = false;
	uint32_t d;

	/* the spatial dims of size > 1 must step like one dim */
	for (d = r.rank; d-- > 2;) {
		if (r.shape[d] == 1)
			continue;
		if (!seen)
			unit = r.strides[d];
		else if (r.strides[d] != next)
			return false;
		next = r.strides[d] * r.shape[d];
		seen = true;
	}
	*v = r;
	v->rank = 4;
	v->shape[0] = r.shape[0];
	v->shape[1] = g;
	v->shape[2] = cg;
	v->shape[3] = hxw;
	v->strides[0] = r.strides[0];
	v->strides[1] = cg * r.strides[1];
	v->strides[2] = r.strides[1];
	v->strides[3] = unit;
	for (d = 4; d < NN_MAX_RANK; d++)
		v->shape[d] = v->strides[d] = 0;
	return true;
}

/* A (C) parameter as (1, G, C/G, 1). */
static struct nn_ref group_param(struct nn_ref r, int64_t g)
{
	int64_t cg = r.shape[0] / g, s = r.strides[0];

	r.rank = 4;
	r.shape[0] = 1;
	r.shape[1] = g;
	r.shape[2] = cg;
	r.shape[3] = 1;
	r.strides[0] = 0;
	r.strides[1] = cg * s;
	r.strides[2] = s;
	r.strides[3] = 0;
	return r;
}

/* An (N, group) statistic as (N, G, 1, 1). */
static struct nn_ref group_stat(struct nn_ref r)
{
	r.rank = 4;
	r.shape[2] = r.shape[3] = 1;
	r.strides[2] = r.strides[3] = 0;
	return r;
}

/* An empty self, as CANN's GroupNorm: meanOut 0, then rstdOut NaN. */
static aclnnStatus empty_stats(const char *func, const aclTensor *meanOut,
			       const aclTensor *rstdOut, uint64_t *workspaceSize,
			       aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs zero = { 0 }, nan = { 0 };
	struct nn_ref m, r;
	aclOpExecutor *ex;
	int ret;

	nn_set_float(&nan, 0, NAN);
	NEW_EX(ex);
	m = nn_bind_tensor(ex, meanOut, true);
	r = nn_bind_tensor(ex, rstdOut, true);
	ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &m, &zero);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &r, &nan);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self,
					   const aclTensor *gamma,
					   const aclTensor *beta, int64_t N,
					   int64_t C, int64_t HxW, int64_t group,
					   double eps, aclTensor *out,
					   aclTensor *meanOut, aclTensor *rstdOut,
					   uint64_t *workspaceSize,
					   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref t[6], x, o, xo, oo, mean, rstd, mw, rw;
	int64_t hw = 1, stat[2] = { N, group };
	aclOpExecutor *ex;
	struct nn_task *task;
	uint32_t nin = 1, d;
	bool copy_out;
	int ret;

	CHECK_T(self);
	CHECK_T(out);
	CHECK_T(meanOut);
	CHECK_T(rstdOut);
	NEED(workspaceSize);
	NEED(executor);
	if (gamma)
		CHECK_T(gamma);
	if (beta)
		CHECK_T(beta);
	if (!nn_dtype_is_float(self->dtype))
		return BAD("self must be FLOAT, FLOAT16 or BF16");
	if (out->dtype != self->dtype || meanOut->dtype != self->dtype ||
	    rstdOut->dtype != self->dtype || (gamma && gamma->dtype != self->dtype) ||
	    (beta && beta->dtype != self->dtype))
		return BAD("gamma, beta, out, meanOut and rstdOut must have self's dtype");
	if (self->ndim < 2)
		return BAD("self must have N, C and optional spatial dims");
	for (d = 2; d < self->ndim; d++)
		hw *= self->dims[d];
	if (self->dims[0] != N || self->dims[1] != C || hw != HxW)
		return BAD("N, C and HxW must be self's (%lld, %lld, %lld)",
			   (long long)self->dims[0], (long long)self->dims[1],
			   (long long)hw);
	if (!(eps > 0))		/* CANN's document: 161002 unless eps > 0 */
		return BAD("eps %g must be above 0", eps);
	if (group < 1 || C % group)
		return BAD("group %lld must divide C %lld", (long long)group,
			   (long long)C);
	if ((gamma && !nn_dims_are(gamma, 1, &C)) || (beta && !nn_dims_are(beta, 1, &C)))
		return BAD("gamma and beta must have C values");
	if (beta && !gamma)
		return BAD("a beta needs a gamma");
	if (!nn_same_shape(out, self))
		return BAD("out must have self's shape");
	if (!nn_dims_are(meanOut, 2, stat) || !nn_dims_are(rstdOut, 2, stat))
		return BAD("meanOut and rstdOut must be (N, group)");
	if (!nn_numel(self))
		return empty_stats(func, meanOut, rstdOut, workspaceSize, executor);
	at.ints[0] = 0xc;
	nn_set_float(&at, 0, (float)eps);
	NEW_EX(ex);
	x = nn_bind_tensor(ex, self, false);
	if (gamma)
		t[nin++] = group_param(nn_bind_tensor(ex, gamma, false), group);
	if (beta)
		t[nin++] = group_param(nn_bind_tensor(ex, beta, false), group);
	o = nn_bind_tensor(ex, out, true);
	mean = nn_bind_tensor(ex, meanOut, true);
	rstd = nn_bind_tensor(ex, rstdOut, true);
	mw = nn_ws(ex, mean.dtype, 2, stat);
	rw = nn_ws(ex, rstd.dtype, 2, stat);
	t[nin + 1] = group_stat(mw);
	t[nin + 2] = group_stat(rw);
	ret = 0;
	if (!grouped(x, group, HxW, &xo)) {
		struct nn_ref c = nn_ws(ex, x.dtype, x.rank, x.shape);

		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &x, 1, &c, NULL);
		grouped(c, group, HxW, &xo);
	}
	t[0] = xo;
	copy_out = !grouped(o, group, HxW, &oo);
	if (copy_out) {
		struct nn_ref c = nn_ws(ex, o.dtype, o.rank, o.shape);

		grouped(c, group, HxW, &oo);
		xo = c;		/* the workspace copy of out */
	}
	t[nin] = oo;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_NORM_AXES, t, nin, &t[nin], &at);
	if (!ret) {		/* the statistics outputs */
		task = &ex->tasks[ex->ntasks - 1];
		task->t[nin + 1] = t[nin + 1];
		task->t[nin + 2] = t[nin + 2];
		task->nout = 3;
	}
	if (!ret && copy_out)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &xo, 1, &o, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &mw, 1, &mean, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &rw, 1, &rstd, NULL);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnGroupNorm)
