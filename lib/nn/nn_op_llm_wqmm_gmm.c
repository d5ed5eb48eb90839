/* SPDX-License-Identifier: MIT */
/*
 * GroupedMatmulV3: several matmuls in one call, y_i = x_i @ w_i (+ b_i),
 * in the forms mixture-of-experts code uses (FLOAT, FLOAT16, BF16):
 *
 * - groupType -1, splitItem 0/1, lists x, weight, y of g tensors each
 *   (x_i [m_i, k_i], w_i [k_i, n_i], y_i [m_i, n_i], bias_i [n_i]):
 *   one GROUPED_MATMUL task per matmul, without a list;
 * - groupType 0, splitItem 2/3, single x [m, k], weight [e, k, n] and
 *   y [m, n], bias [e, n], groupListOptional INT64 [e] of cumulative
 *   row ends (V3's form): one GROUPED_MATMUL task that reads the list
 *   as it runs (rows past the last end become 0);
 * - groupType 0, splitItem 2/3, lists x and weight of g tensors, y
 *   single [sum m_i, n]: a task per group into its rows of y (the x
 *   tensors give the rows; a list, if given, is not read).
 *
 * Weights may be transposed views. Not supported (161002): the quantised
 * forms (scale, offset, antiquant parameters), groupType 2, a single x
 * with a weight list.
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_grouped_matmul_v3.h"

#define GMM_MAX_LIST	128	/* tensors in a list (CANN's bound) */
#define GMM_MAX_GROUPS	1024	/* groups of a single weight */

/* A live tensor of dtype dt (or any float when dt is 0), named for errors. */
static aclnnStatus gmm_want(const char *func, const aclTensor *t,
			    const char *name, uint64_t i, aclDataType dt,
			    uint64_t ndim)
{
	if (!t)
		return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s[%llu] must not be NULL", name,
				   (unsigned long long)i);
	if (t->magic != TENSOR_MAGIC)
		return BAD("%s[%llu] is not a live tensor", name, (unsigned long long)i);
	if (t->dtype != dt)
		return BAD("%s[%llu]: dtype %d, not %d", name, (unsigned long long)i,
			   (int)t->dtype, (int)dt);
	if (t->ndim != ndim)
		return BAD("%s[%llu] must have %llu dims", name, (unsigned long long)i,
			   (unsigned long long)ndim);
	return ACLNN_SUCCESS;
}

#define GWANT(t, name, i, dt, nd)					\
	do {								\
		aclnnStatus st_ = gmm_want(func, (t), (name), (i), (dt), (nd)); \
		if (st_)						\
			return st_;					\
	} while (0)

/*
 * CANN's size rule: the last dim of x (k) and of the weight (n, or k
 * when it is a transposed view) stay below 65536.
 */
static bool gmm_dims_ok(const aclTensor *x, const aclTensor *w)
{
	uint64_t r = w->ndim;
	bool wt = w->strides[r - 2] == 1 && w->strides[r - 1] != 1 &&
		  w->dims[r - 2] > 1;

	return x->dims[x->ndim - 1] < 65536 &&
	       (wt ? w->dims[r - 2] : w->dims[r - 1]) < 65536;
}

/* w as a [1, k, n] view (a task's weight is 3-D). */
static struct nn_ref gmm_w3(struct nn_ref w)
{
	w.shape[2] = w.shape[1];
	w.strides[2] = w.strides[1];
	w.shape[1] = w.shape[0];
	w.strides[1] = w.strides[0];
	w.shape[0] = 1;
	w.strides[0] = 0;
	w.rank = 3;
	return w;
}

/* b [n] as a [1, n] view. */
static struct nn_ref gmm_b2(struct nn_ref b)
{
	b.shape[1] = b.shape[0];
	b.strides[1] = b.strides[0];
	b.shape[0] = 1;
	b.strides[0] = 0;
	b.rank = 2;
	return b;
}

/*
 * One GROUPED_MATMUL task (no list) per group: y_i = x_i @ w_i (+ b_i),
 * into ys[i], or (stacked) into consecutive rows of ys[0]. Binds in the
 * API's order, inputs then outputs (aclSetInputTensorAddr counts them).
 */
static aclnnStatus gmm_tasks(const char *func, const aclTensor *const *xs,
			     const aclTensor *const *ws,
			     const aclTensor *const *bs, uint64_t n,
			     const aclTensor *const *ys, bool stacked,
			     uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_ref in[3][GMM_MAX_LIST], out[GMM_MAX_LIST];
	struct drm_vnpu_op_attrs at = { 0 };
	aclOpExecutor *ex;
	int64_t row = 0;
	uint64_t i;
	int ret = 0;

	NEW_EX(ex);
	for (i = 0; i < n; i++)
		in[0][i] = nn_bind_tensor(ex, xs[i], false);
	for (i = 0; i < n; i++)
		in[1][i] = gmm_w3(nn_bind_tensor(ex, ws[i], false));
	for (i = 0; bs && i < n; i++)
		in[2][i] = gmm_b2(nn_bind_tensor(ex, bs[i], false));
	for (i = 0; i < (stacked ? 1 : n); i++)
		out[i] = nn_bind_tensor(ex, ys[i], true);
	at.ints[0] = 2;		/* no list: one group of every row */
	at.ints[1] = bs != NULL;
	for (i = 0; i < n && !ret; i++) {
		struct nn_ref t[3] = { in[0][i], in[1][i], in[2][i] };
		struct nn_ref o = out[stacked ? 0 : i];

		if (stacked) {	/* this group's rows of y */
			o.off = row * o.strides[0];
			o.shape[0] = xs[i]->dims[0];
			row += xs[i]->dims[0];
		}
		ret = nn_task(ex, DRM_VNPU_OP_GROUPED_MATMUL, t, bs ? 3 : 2, &o, &at);
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}

aclnnStatus aclnnGroupedMatmulV3GetWorkspaceSize(
	const aclTensorList *x, const aclTensorList *weight,
	const aclTensorList *biasOptional, const aclTensorList *scaleOptional,
	const aclTensorList *offsetOptional,
	const aclTensorList *antiquantScaleOptional,
	const aclTensorList *antiquantOffsetOptional,
	const aclTensor *groupListOptional, int64_t splitItem, int64_t groupType,
	const aclTensorList *y, uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const aclTensor *const *xs, *const *ws, *const *ys, *const *bs = NULL;
	uint64_t nx, nw, ny, nb = 0, i;
	struct drm_vnpu_op_attrs at = { 0 };
	aclDataType dt, bdt;
	aclOpExecutor *ex;
	int64_t row = 0;
	int ret = 0;

	NEED(x);
	NEED(weight);
	NEED(y);
	NEED(workspaceSize);
	NEED(executor);
	xs = nn_tensor_list(x, &nx);
	ws = nn_tensor_list(weight, &nw);
	ys = nn_tensor_list(y, &ny);
	if (biasOptional)
		bs = nn_tensor_list(biasOptional, &nb);
	if (scaleOptional || offsetOptional || antiquantScaleOptional ||
	    antiquantOffsetOptional)
		return BAD("the quantised forms (scale, offset, antiquant) are not supported");
	if (groupType != -1 && groupType != 0)
		return BAD("groupType %lld: -1 or 0 (2 is not supported)",
			   (long long)groupType);
	if (!nx || !nw || !ny || nx > GMM_MAX_LIST || nw > GMM_MAX_LIST ||
	    ny > GMM_MAX_LIST)
		return BAD("x, weight and y need 1 to %d tensors", GMM_MAX_LIST);
	GWANT(xs[0], "x", 0, xs[0] ? xs[0]->dtype : ACL_FLOAT, 2);
	dt = xs[0]->dtype;
	if (dt != ACL_FLOAT && dt != ACL_FLOAT16 && dt != ACL_BF16)
		return BAD("x: FLOAT, FLOAT16 or BFLOAT16");
	bdt = dt == ACL_BF16 ? ACL_FLOAT : dt;

	if (groupType == -1) {
		/* g independent matmuls, no list */
		if (groupListOptional)
			return BAD("groupType -1 takes no groupListOptional");
		if (splitItem != 0 && splitItem != 1)
			return BAD("groupType -1: splitItem 0 or 1");
		if (nw != nx || ny != nx || (bs && nb != nx))
			return BAD("x, weight, y (and bias) need one tensor per group");
		for (i = 0; i < nx; i++) {
			int64_t od[2];

			GWANT(xs[i], "x", i, dt, 2);
			GWANT(ws[i], "weight", i, dt, 2);
			GWANT(ys[i], "y", i, dt, 2);
			if (bs)
				GWANT(bs[i], "bias", i, bdt, 1);
			if (ws[i]->dims[0] != xs[i]->dims[1] || !gmm_dims_ok(xs[i], ws[i]))
				return BAD("group %llu: k differs, or a last dim is 65536 or more",
					   (unsigned long long)i);
			od[0] = xs[i]->dims[0];
			od[1] = ws[i]->dims[1];
			if (!nn_dims_are(ys[i], 2, od) ||
			    (bs && bs[i]->dims[0] != od[1]))
				return BAD("group %llu: y must be [m, n], bias [n]",
					   (unsigned long long)i);
			if (!nn_numel(xs[i]) || !nn_numel(ys[i]) || !nn_numel(ws[i]))
				return BAD("group %llu: empty tensors are not supported",
					   (unsigned long long)i);
		}
		return gmm_tasks(func, xs, ws, bs, nx, ys, false, workspaceSize,
				 executor);
	}

	/* groupType 0: rows of x split into groups, y one tensor */
	if (splitItem != 2 && splitItem != 3)
		return BAD("groupType 0: splitItem 2 or 3");
	if (ny != 1)
		return BAD("groupType 0: y is one tensor");
	GWANT(ys[0], "y", 0, dt, 2);
	if (nx == 1) {
		const aclTensor *w = ws[0];
		int64_t e, od[2], bd[2];
		struct nn_ref in[4], out;

		if (nw != 1)
			return BAD("a single x with a weight list is not supported");
		NEED(groupListOptional);
		GWANT(w, "weight", 0, dt, 3);
		GWANT(groupListOptional, "groupListOptional", 0, ACL_INT64, 1);
		e = w->dims[0];
		if (e < 1 || e > GMM_MAX_GROUPS || groupListOptional->dims[0] != e)
			return BAD("groupListOptional must be [e], 1 <= e <= %d",
				   GMM_MAX_GROUPS);
		if (w->dims[1] != xs[0]->dims[1] || !gmm_dims_ok(xs[0], w))
			return BAD("k differs, or a last dim is 65536 or more");
		od[0] = xs[0]->dims[0];
		od[1] = w->dims[2];
		if (!nn_dims_are(ys[0], 2, od))
			return BAD("y must be [m, n]");
		bd[0] = e;
		bd[1] = od[1];
		if (bs && (nb != 1 || !bs[0]))
			return BAD("bias must be one tensor [e, n]");
		if (bs) {
			GWANT(bs[0], "bias", 0, bdt, 2);
			if (!nn_dims_are(bs[0], 2, bd))
				return BAD("bias must be [e, n]");
		}
		if (!nn_numel(xs[0]) || !nn_numel(w) || !nn_numel(ys[0]))
			return BAD("empty tensors are not supported");
		NEW_EX(ex);
		in[0] = nn_bind_tensor(ex, xs[0], false);
		in[1] = nn_bind_tensor(ex, w, false);
		in[2] = nn_bind_tensor(ex, groupListOptional, false);
		if (bs)
			in[3] = nn_bind_tensor(ex, bs[0], false);
		out = nn_bind_tensor(ex, ys[0], true);
		at.ints[0] = 0;		/* V3: cumulative ends */
		at.ints[1] = bs != NULL;
		ret = nn_task(ex, DRM_VNPU_OP_GROUPED_MATMUL, in, bs ? 4 : 3, &out, &at);
		return nn_finish(func, ex, ret, workspaceSize, executor);
	}

	/* x and weight lists, y their rows stacked */
	if (nw != nx || (bs && nb != nx))
		return BAD("x, weight (and bias) need one tensor per group");
	if (groupListOptional && (groupListOptional->magic != TENSOR_MAGIC ||
				  groupListOptional->dtype != ACL_INT64 ||
				  groupListOptional->ndim != 1 ||
				  (uint64_t)groupListOptional->dims[0] != nx))
		return BAD("groupListOptional must be INT64 [%llu]",
			   (unsigned long long)nx);
	for (i = 0; i < nx; i++) {
		GWANT(xs[i], "x", i, dt, 2);
		GWANT(ws[i], "weight", i, dt, 2);
		if (bs)
			GWANT(bs[i], "bias", i, bdt, 1);
		if (ws[i]->dims[0] != xs[i]->dims[1] || !gmm_dims_ok(xs[i], ws[i]) ||
		    ws[i]->dims[1] != ys[0]->dims[1] ||
		    (bs && bs[i]->dims[0] != ys[0]->dims[1]))
			return BAD("group %llu: k differs, n is not y's, or a last dim is 65536 or more",
				   (unsigned long long)i);
		if (!nn_numel(xs[i]) || !nn_numel(ws[i]))
			return BAD("group %llu: empty tensors are not supported",
				   (unsigned long long)i);
		row += xs[i]->dims[0];
	}
	if (row != ys[0]->dims[0])
		return BAD("y has %lld rows, the x tensors %lld",
			   (long long)ys[0]->dims[0], (long long)row);
	return gmm_tasks(func, xs, ws, bs, nx, ys, true, workspaceSize, executor);
}
LAUNCH(aclnnGroupedMatmulV3)
